"""The league's adapter: a paho client subscribed to many tables' topics, feeding a League.

``changed(after, timeout)`` lets a thread wait for the next change without polling; ``watch``
calls a function at every change, which is how the league's pages, on an event loop, hear of one.
``close`` returns within ``STOP_WAIT`` seconds even with the broker gone (paho's thread may be in
a connection attempt then), so ``newsdesk league`` stops promptly.
"""

import logging
import threading

from ..errors import ConfigError
from .client import connect_error, make_client, refused
from .league import SUFFIXES, League
from .url import parse_mqtt_url

log = logging.getLogger(__name__)

TABLES = "newsdesk/+"     # the tables' base topics the league follows (each table's mqtt_topic default)
STOP_WAIT = 0.3           # seconds close() waits for paho's thread (a daemon: the process ends without it)


class LeagueFollower:
    def __init__(self, url, tables=TABLES, ca="", client_id="newsdesk-league", backoff=(1, 30)):
        self.broker = parse_mqtt_url(url)          # ConfigError: the command says it and stops
        self.tables = tables
        self.league = League()
        self.problem = None
        self.connected = False
        self.version = 0
        self._closing = False
        self._cond = threading.Condition()
        self._watchers = []
        # a session the broker keeps: events a table sends while the league reconnects (a broker
        # restarted, a network blip) wait for it, instead of showing as ids skipped
        self._client = make_client(self.broker, client_id, ca, clean_session=False)
        self._client.reconnect_delay_set(*backoff)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_connect_fail = lambda client, userdata: self._say(
            "can't reach the broker at %s; retrying" % self.broker)

    def start(self):
        try:
            self._client.connect(self.broker.host, self.broker.port, keepalive=30)
        except Exception as e:
            self._say(connect_error(self.broker, e))
            self._client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self._client.loop_start()
        return self

    def _say(self, problem):
        if problem != self.problem:
            log.warning("league: %s", problem)
        self.problem = problem
        self._bump()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self.connected = False
            self._say(refused(self.broker, reason_code))
            return
        # events at QoS 1 (each counts); the retained pictures at QoS 0 (the newest wins anyway)
        client.subscribe([("%s/%s" % (self.tables, suffix), 1 if suffix == "events" else 0) for suffix in SUFFIXES])
        if self.problem is not None or not self._said_following:
            log.info("league: following %s on %s", self.tables, self.broker)
            self._said_following = True
        self.connected, self.problem = True, None
        self._bump()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected = False
        if self._closing:
            return
        self._say("lost the broker at %s (%s); reconnecting" % (self.broker, reason_code))

    _said_following = False

    def _on_message(self, client, userdata, message):
        with self._cond:
            if not self.league.take(message.topic, message.payload):
                return
            self.version += 1
            self._cond.notify_all()
        self._tell()

    def _bump(self):
        with self._cond:
            self.version += 1
            self._cond.notify_all()
        self._tell()

    def _tell(self):
        for watcher in list(self._watchers):
            watcher()

    def watch(self, callback):
        """Call ``callback()`` (on paho's thread: it must only hand over) at every change; returns
        a function that stops it."""
        self._watchers.append(callback)
        return lambda: self._watchers.remove(callback) if callback in self._watchers else None

    def snapshot(self):
        with self._cond:
            out = self.league.snapshot()
            out.update(version=self.version, broker=str(self.broker), following=self.tables,
                       connected=self.connected, problem=self.problem)
            return out

    def changed(self, after, timeout):
        """Wait until the version passes ``after`` (or ``timeout`` seconds); returns the version."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > after, timeout)
            return self.version

    def close(self):
        self._closing = True
        self._client.disconnect()
        # paho's loop_stop waits for its thread, which can be in a connection attempt to a broker
        # that is gone (CONNECT_TIMEOUT): wait for it at most STOP_WAIT, then leave it (a daemon)
        stopper = threading.Thread(target=self._client.loop_stop, name="league-mqtt-stop", daemon=True)
        stopper.start()
        stopper.join(STOP_WAIT)


def check_tables(pattern):
    if not pattern or "#" in pattern or pattern.startswith("/") or pattern.endswith("/"):
        raise ConfigError("--tables is the tables' base topics with + for the table, e.g. newsdesk/+, "
                          "not %r" % (pattern,))
    return pattern
