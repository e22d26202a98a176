"""The league's adapter: a paho client subscribed to many tables' topics, feeding a League.

``changed(after, timeout)`` lets a page's live stream wait for the next change without polling.
"""

import logging
import threading

from ..errors import ConfigError
from .client import connect_error, make_client, refused
from .league import SUFFIXES, League
from .url import parse_mqtt_url

log = logging.getLogger(__name__)

TABLES = "newsdesk/+"     # the tables' base topics the league follows (each table's mqtt_topic default)


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
        self._client = make_client(self.broker, client_id, ca)
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
        self.connected, self.problem = True, None
        # events at QoS 1 (each counts); the retained pictures at QoS 0 (the newest wins anyway)
        client.subscribe([("%s/%s" % (self.tables, suffix), 1 if suffix == "events" else 0) for suffix in SUFFIXES])
        log.info("league: following %s on %s", self.tables, self.broker)
        self._bump()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected = False
        if self._closing:
            return
        self._say("lost the broker at %s (%s); reconnecting" % (self.broker, reason_code))

    def _on_message(self, client, userdata, message):
        with self._cond:
            if self.league.take(message.topic, message.payload):
                self.version += 1
                self._cond.notify_all()

    def _bump(self):
        with self._cond:
            self.version += 1
            self._cond.notify_all()

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
        self._client.loop_stop()


def check_tables(pattern):
    if not pattern or "#" in pattern or pattern.startswith("/") or pattern.endswith("/"):
        raise ConfigError("--tables is the tables' base topics with + for the table, e.g. newsdesk/+, "
                          "not %r" % (pattern,))
    return pattern
