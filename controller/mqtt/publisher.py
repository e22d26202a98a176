"""The table on MQTT: the store's log out to ``<base>/events`` through a kept cursor, the live
state out to retained topics, Home Assistant's discovery, and the bell's button in.

One thread owns the paho client (connects, reconnects, publishes, reads acknowledgements), so
nothing here needs a lock and a move's acknowledgement never waits for the broker: the table
stores and announces a move as before, and this thread, woken by the bus, reads the store.

Events go out in id order with QoS 1, at most ``window`` unacknowledged at a time. The cursor
moves over an event once the broker has acknowledged it and everything before it; paho resends
what was unacknowledged when the connection comes back, and after a restart the publisher
starts again from the cursor. So an outage of any length loses nothing and sends in order; a
repeat is possible around a dropped connection, and each payload's id lets subscribers drop it.

Live things (the handset, digits, presses) are not in the store's log: they update retained
state topics and fire triggers only while connected. A trigger missed during an outage is not
sent later (a doorbell an hour late is worse than none); its event, if stored, is in the backlog.

One box to a base topic: each connection starts with a look (client.Look, a connection with no
last will) at what the broker keeps on ``<base>/availability`` and ``<base>/state/game``. Another
newsdesk online there (two Pis left named raspberrypi at one broker) keeps the base: this box
publishes nothing on it, says so on the health strip, and looks again every HELD_RETRY seconds,
taking the base over once the other is offline. While announced, it watches the same two
topics: a stray last will setting its availability offline is answered "online", and another
install publishing there (two boxes that looked at the same moment, or a newsdesk from before
the look) is left the base when its install sorts first, else told the table again over it.
"""

import collections
import logging
import math
import select
import threading
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit, urlunsplit

from .. import events, lan
from ..errors import ConfigError
from ..games import base, registry
from ..oracle_service import BY_BUTTON
from . import topics as T
from .bell import BellCommands, Refusals
from .client import Look, base_held, connect_error, make_client, refused
from .cursor import Cursor, Kept
from .url import Broker, parse_mqtt_url

log = logging.getLogger(__name__)

WINDOW = 100            # events handed to the client and not yet acknowledged, at most
POLL = 1.0              # seconds between looks at the store for events nobody announced on the bus
SAVE_EVERY = 5.0        # seconds between writes of the cursor file (each an fsync on the store's disk)
BACKOFF = (1.0, 30.0)   # seconds before the first reconnect attempt, and the most between two
KEEPALIVE = 30
CONNACK_WAIT = 10.0     # seconds a broker has to answer a connection before it is tried again
READ_BUDGET = 200       # packets read from the broker in one turn at most: a flood on a topic the box
                        # listens to still leaves the bus, the writes and the keepalive their turn
FLOOD_REFUSALS = 10     # bell requests refused in the last minute that the health strip still calls ok: a
                        # double press, or an automation's wrong payload now and then, is a few, and the
                        # log and the events tell each; more is something sending on its own (a looping
                        # automation, a stranger on the broker), which the owner should hear of on the panel
READ_WAIT = 0.005       # seconds a turn after one that read waits for more on the socket: the broker sends
                        # the next QoS 1 messages once it has the acknowledgements of those before
HELD_RETRY = 60.0       # seconds between two looks at a base topic another newsdesk holds
LOOK_WAIT = 3.0         # seconds a look waits for the kept messages after the broker took it (mosquitto
                        # sends them within milliseconds; a broker that answers otherwise is not waited on)
STEADY = 10.0           # seconds a connection lasts before its loss starts the back-off again from the
                        # least: one closed right after connecting (a broker dropping it) waits longer each time
BIRTH_QUIET_S = 10.0    # newsdesk's least time between two answers to Home Assistant's birth (each is
                        # every config again, and anyone on the broker can say "online"): a restart of
                        # Home Assistant takes longer than this


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _lower_wins(current):
    """Whether the game being played counts its lowest score best (its engine's panel facts'
    lower_wins): who leads it then. False between games, or for a game whose engine is gone."""
    return current is not None and _engine_lower_wins(current["engine"])


def _engine_lower_wins(engine):
    """Whether game ``engine``'s lowest score is its best, as its finished games are sent (the
    league goes by it); False for an engine that is gone."""
    try:
        return isinstance(engine, str) and base.lower_wins(registry.load(engine))
    except (registry.EngineUnavailable, ValueError, LookupError):
        return False

class Settings:
    """What the publisher needs from the Config (one home for each setting stays config.py)."""

    def __init__(self, url, base, table, discovery="homeassistant", ca="", commands=("bell",), panel_url=None):
        self.url = url
        self.base = base
        self.table = table
        self.discovery = None if discovery in ("", "off") else discovery
        self.ca = ca
        self.commands = tuple(commands)
        self.panel_url = panel_url

    @classmethod
    def from_config(cls, config):
        return cls(config["mqtt_url"], config.mqtt_topic, config.table, config["mqtt_discovery"],
                   config["mqtt_ca"], () if config["mqtt_commands"] == "none" else ("bell",),
                   panel_url(config.bind_host, config["port"]))


def _node(place):
    """The node a kept place's configs were sent under: its own, or (a place kept before the node
    was the install's) the one its base made."""
    return place.get("node") or T.node_id(place["base"])


def panel_url(host, port):
    """The panel's address as another machine on the network reaches it (Home Assistant's link
    from the device page), as the README gives it: ``http://<host name>.local:<port>/``. None when
    the panel listens on loopback only: no other machine could open the link."""
    import ipaddress
    import socket

    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        if host in ("localhost", ""):
            return None
    name = socket.gethostname().split(".")[0]
    return "http://%s.local:%d/" % (name, port)


class MqttPublisher:
    """``game`` -> GameSession.current(), ``history`` -> GameSession.history(), ``hook`` -> "on"/"off",
    ``ring(times)`` rings the bell; all called on this publisher's thread."""

    def __init__(self, store, bus, settings, data_dir, game=lambda: None, history=list,
                 hook=lambda: "on", ring=None, version="", clock=time.monotonic, backoff=BACKOFF,
                 window=WINDOW, idle=0.05, phone=lambda: (None, None), announced=None, machine=None):
        self.store = store
        self.settings = settings
        self._avahi_name = announced or lan.announced_name    # () -> the .local name avahi announces the box by, or None
        self._game, self._history, self._ring, self._clock = game, history, ring, clock
        self._phone = phone     # () -> (the USB link's last status or None, the wiring fault said or None)
        self._version = version
        self._backoff = backoff
        self._window = window
        self._idle = idle
        self.bell = BellCommands()
        self._refusals = Refusals()
        self._flood = (0, "")         # (bell requests refused in the last minute, the last one's why), one tuple
                                      # set by the thread each turn, so health() reads it whole without a lock
        self.problem = None           # one sentence while something is wrong
        self.connected = False
        self.taking_commands = False  # the broker has confirmed the bell's subscription
        self.hearing_births = False   # and the one to Home Assistant's birth topic
        self._subscribed = {}         # the mid of each subscription not yet confirmed -> its attribute above
        self.sent = 0                 # events the broker acknowledged since start
        self._closing = threading.Event()
        self._thread = None
        self._client = None
        self._sub = None
        try:
            self.broker: Broker | None = parse_mqtt_url(settings.url)
        except ConfigError as e:
            self.broker = None
            self.problem = str(e)
            log.error("MQTT is off: %s", e)
            return
        self._sub = bus.subscribe(maxsize=4096)    # now, so nothing announced from here on is missed
        self._clearing: set[int] = set()    # the mids of the messages clearing where the table was announced before
        self._clearing_for: dict[str, object] | None = None     # and where it is now: kept once all are acknowledged
        self._telling: dict[int, dict[str, object]] = {}    # the mids of removals told Home Assistant -> old place
        self.cursor = Cursor(data_dir, "%s %s" % (self.broker, settings.base))
        self.kept = Kept(data_dir, machine)     # machine: () -> board.machine's digest (a test's stand-in)
        # the first time on this broker, start from now: a year of history is not news to anyone
        newest = store.last_id()
        self.position = self.cursor.saved if self.cursor.saved is not None else newest
        if self.position > newest:       # a store replaced or restored from an older copy
            log.warning("MQTT: the cursor (%d) is past the store's newest event (%d); starting from there, "
                        "as a new install (its ids are used again)", self.position, newest)
            self.position = newest
            self.kept.new_install()
        self.install = self.kept.install
        self.client_id = T.client_id(settings.base, self.install)
        self.node = T.discovery_node(self.install)      # the table in Home Assistant, whatever its name
        self.held_by = None             # (install, table) of another newsdesk holding the base topic, while it does
        self._look = None               # the look (client.Look) this connection starts with, while it runs
        self._free = False              # a look found the base free: the table's own connection may follow
        self._seen = {}                 # watched topic -> what the broker last said there (_watched_topics)
        self._yield_to = None           # another install publishing on the base, which keeps it (_on_watched)
        self._foreign_heard = False     # another install published on the base, which this table keeps
        self._handed = self.position
        self._pending: collections.deque[tuple[int, int]] = collections.deque()     # (event id, mid), in order
        self._acked = set()
        self._inflight = set()
        self._retained = {}
        self._dirty = {}                        # names of states changed, in the order they changed
        self._game_dirty = self._results_dirty = False
        self._ended = []                        # ids of the games that ended since the last flush, in order
        self._digits = []
        self._next_attempt = 0.0
        self._delay = backoff[0]
        self._saved_at = 0.0
        self._polled_at = 0.0
        try:
            self._load_retained(hook)
            self._thread = threading.Thread(target=self._run, name="mqtt-publisher", daemon=True)
            self._thread.start()
        except Exception:
            self._sub.close()      # built whole, or nothing left open
            raise

    # ------------------------------------------------------------ what the panel reads

    @property
    def connecting(self):
        """True from a connection's start (its look at the base topic first) until the broker
        answers the table's own connection (or it fails, or another newsdesk holds the base)."""
        return self._connecting

    @property
    def backlog(self):
        """Events stored but not yet acknowledged by the broker."""
        if self.broker is None:
            return 0
        return max(0, self.store.last_id() - self.position)

    def health(self):
        """The health strip's "mqtt" part: one sentence, ok or warn (the table works either way)."""
        if self.broker is None:
            return {"status": "warn", "summary": "MQTT is off: %s." % _sentence_end(self.problem),
                    "detail": "Fix mqtt_url in config.toml (or NEWSDESK_MQTT_URL); newsdesk doctor checks it."}
        if self.connected and not self.problem:
            refused, why = self._flood
            if refused > FLOOD_REFUSALS:
                return {"status": "warn", "summary": "Bell requests are being refused: %d in the last minute "
                                                     "(the last: %s)." % (refused, _sentence_end(why)),
                        "detail": "The table keeps working and events still go out; look at the Home Assistant "
                                  "automation or the MQTT client sending them on %s (at most one a second is "
                                  "taken, and a request's payload is %s)." % (self._topic(T.BELL), T.PRESS)}
            waiting = self.backlog
            return {"status": "ok", "summary": "Sending to %s as %s; %s." % (
                self.broker, self.settings.base, "%d events waiting" % waiting if waiting else "nothing waiting"),
                "detail": "%d events acknowledged since the start." % self.sent}
        if self.problem:
            problem = _sentence_end(self.problem)
            if "_" not in problem.split(" ", 1)[0]:          # a setting's name keeps its spelling
                problem = problem[:1].upper() + problem[1:]
            if self.held_by:
                return {"status": "warn", "summary": problem + ".",
                        "detail": "The table keeps working; this box looks again every minute and takes %s over "
                                  "once the other newsdesk is offline." % self.settings.base}
            return {"status": "warn", "summary": problem + ".",
                    "detail": "The table keeps working; %d events wait and go out in order when the broker "
                              "takes them." % self.backlog}
        return {"status": "warn", "summary": "Connecting to the broker at %s." % self.broker}

    # ------------------------------------------------------------ the thread

    def _run(self):
        try:
            while not self._closing.is_set():
                self._step()
        except Exception:
            log.exception("the MQTT publisher stopped")
            self.problem = "the MQTT publisher stopped on an error (it is in the log)"
        finally:
            self._goodbye()

    def _step(self):
        broker, sub = self.broker, self._sub
        if broker is None or sub is None:   # MQTT is off (its URL was refused): the thread never starts
            return
        now = self._clock()
        if not self.connected and not self._connecting and now >= self._next_attempt:
            self._connect(now, broker)
        busy = self._look is not None or self.connected and (
            self._pending or self._handed < self._announced or self._reading)
        message = sub.get(timeout=0 if busy else self._idle)
        while message is not None:
            self._on_bus(message)
            message = sub.get(timeout=0)
        self._flush_states()
        if self.connected and self._birth_heard and now - self._birth_answered_at >= BIRTH_QUIET_S:
            # anyone on the broker may say "online" there: answered at most once in BIRTH_QUIET_S
            # (each answer is every config again), the last birth of a burst still answered after it
            self._birth_heard, self._birth_answered_at = False, now
            log.info("MQTT: Home Assistant came online; announcing the table to it again")
            self._announce(self._client, removals=True)
        if self.connected and self._foreign_heard and now - self._reasserted_at >= BIRTH_QUIET_S:
            # another install published on this table's base: the table is sent again over it, at
            # most once in BIRTH_QUIET_S (each is every config and state again)
            self._foreign_heard, self._reasserted_at = False, now
            self._say_all(self._client)
        self._count_refusals(now)
        if self.connected:
            if now - self._polled_at >= POLL:
                self._polled_at = now
                self._announced = max(self._announced, self.store.last_id())
            self._feed()
        answered = self._look is not None and self._look.answer is not None
        if self._connecting and not answered and now - self._connect_started > CONNACK_WAIT:
            self._lost("%s:%d took the connection but did not answer as an MQTT broker within %.0f s"
                       % (broker.host, broker.port, CONNACK_WAIT))
        if self._look is not None:
            self._look_turn(now, broker, self._look)
        elif self._client is not None and (self.connected or self._connecting):
            rc = self._talk(self._client)
            if rc != 0 and (self.connected or self._connecting):
                self._lost("the connection to %s dropped (%s)" % (self.broker, _rc_text(rc)))
        if self._yield_to is not None and self.connected:
            self._give_way(now, self._yield_to)
        if now - self._saved_at >= SAVE_EVERY:
            self._saved_at = now
            self.cursor.save(self.position)

    def _talk(self, client, wait=None):
        """One turn of the connection: what waits is written, and what the broker has sent is
        read, calling loop() again while the socket has more, READ_BUDGET times at most. paho's
        loop() reads one packet a call while nothing of ours waits for an acknowledgement (its
        loop_read counts our messages in flight, not what is on the socket), so at one call a
        turn a flood on a topic we listen to was read at twenty packets a second and held a bell
        press back behind it for most of a minute."""
        rc = client.loop(timeout=wait if wait is not None else READ_WAIT if self._pending or self._reading else 0)
        read = 0
        while rc == 0 and read < READ_BUDGET and _readable(client.socket()):
            rc = client.loop(timeout=0)
            read += 1
        self._reading = read > 0        # more may follow at once: the next turn waits on the socket, not the bus
        return rc

    _connecting = False
    _reading = False
    _look_answered: float | None = None
    _connected_at = 0.0
    _reasserted_at = -math.inf
    _watching: frozenset[str] = frozenset()
    _connect_started = 0.0
    _announced = 0
    _birth_heard = False
    _birth_answered_at = -math.inf

    def _connect(self, now, broker):
        """A look at the base topic first (client.Look); the table's own connection, with its last
        will, once a look found the base free."""
        try:
            if not self._free:
                self._look = Look(broker, self.client_id, self.settings.ca, self._watched_topics())
                self._look.start()
            elif self._client is None:
                self._client = make_client(broker, self.client_id, self.settings.ca)
                self._client.will_set(self._topic(T.AVAILABILITY), T.OFFLINE, qos=1, retain=True)
                self._client.on_connect = self._on_connect
                self._client.on_disconnect = self._on_disconnect
                self._client.on_publish = self._on_publish
                self._client.on_message = self._on_message
                self._client.on_subscribe = self._on_subscribe
                self._client.connect(broker.host, broker.port, keepalive=KEEPALIVE)
            else:
                self._client.reconnect()
        except Exception as e:
            self._lost(connect_error(broker, e, self.settings.ca))
            return
        self._connecting = True
        self._connect_started = now

    def _look_turn(self, now, broker, look):
        """One turn of the look: once the broker has handed over what it keeps on the watched
        topics (or LOOK_WAIT after it took the look, whatever came), the base is taken or left."""
        rc = self._talk(look.client, wait=READ_WAIT)
        if look.answer is not None and look.answer.is_failure:
            self._lost(refused(broker, look.answer))
            return
        if look.answer is not None and self._look_answered is None:
            self._look_answered = now
        if look.done or (self._look_answered is not None and now - self._look_answered >= LOOK_WAIT):
            self._end_look()
            self._seen.update({topic: look.seen.get(topic, "") for topic in look.topics})
            other = T.holder(look.seen.get(self._topic(T.AVAILABILITY)), look.seen.get(self._topic(T.state("game"))),
                             self.install)
            if other is not None:
                self._hold_off(now, other)
            else:
                self._free = True
                self._connect(now, broker)
        elif rc != 0:
            self._lost("the connection to %s dropped (%s)" % (self.broker, _rc_text(rc)))

    def _end_look(self):
        if self._look is not None:
            self._look.close()
            self._look = None
        self._look_answered = None

    def _hold_off(self, now, other):
        """Another newsdesk holds the base: nothing is sent there, and a look comes again in HELD_RETRY."""
        said = base_held(self.settings.base, other)
        if said != self.problem:
            log.warning("MQTT: %s; looking again every %.0f s", said, HELD_RETRY)
        self.problem, self.held_by = said, other
        self._free = False
        self.connected = self._connecting = self.taking_commands = self.hearing_births = False
        self._next_attempt = now + HELD_RETRY

    def _give_way(self, now, other):
        """Another install published on the base while this table was announced there, and its
        install sorts first: it keeps the base. A clean disconnect, so the broker drops this
        connection's will rather than set the other's availability offline."""
        self._yield_to = None
        client = self._client
        self._hold_off(now, other)          # first: the disconnect below is no lost connection
        if client is not None:
            client.disconnect()

    def _lost(self, why):
        now = self._clock()
        if self.connected and now - self._connected_at >= STEADY:
            self._delay = self._backoff[0]          # it lasted: the broker is not dropping each connection
        if why != self.problem:
            log.warning("MQTT: %s; retrying in %.1f s", why, self._delay)
        self.problem = why
        self.held_by = None
        self._end_look()
        self._free = False
        self.connected = self._connecting = self.taking_commands = self.hearing_births = False
        self._next_attempt = now + self._delay
        self._delay = min(self._backoff[1], self._delay * 2)

    def _topic(self, name):
        return "%s/%s" % (self.settings.base, name)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self._connecting = False
        if reason_code.is_failure:
            self._lost(refused(self.broker, reason_code))
            return
        if self.held_by:
            log.info("MQTT: the other newsdesk on %s is offline; this table takes the topic over",
                     self.settings.base)
        log.info("MQTT: connected to %s as %s", self.broker, self.settings.base)
        self.connected, self._free = True, False
        self.problem = self.held_by = self._yield_to = None
        self._foreign_heard = False
        self._connected_at = self._clock()
        self._announced = max(self._announced, self.store.last_id())
        self._subscribed.clear()
        if "bell" in self.settings.commands:
            self._subscribed[client.subscribe(self._topic(T.BELL), qos=1)[1]] = "taking_commands"
        if self.settings.discovery:
            self._subscribed[client.subscribe(T.birth(self.settings.discovery), qos=1)[1]] = "hearing_births"
        self._watching = frozenset(self._watched_topics())
        client.subscribe([(topic, 1) for topic in sorted(self._watching)])
        self._clear_where_it_was(client)
        self._say_all(client)

    def _say_all(self, client):
        """"online", Home Assistant's discovery configs and every state: the table, whole. The
        game's state goes last: another install on the base (_on_watched) reads it as this
        table's last word there."""
        client.publish(self._topic(T.AVAILABILITY), T.ONLINE, qos=1, retain=True)
        self._announce(client)
        for name in sorted(self._retained, key=lambda name: name == "game"):
            client.publish(self._topic(T.state(name)), self._retained[name], qos=1, retain=True)

    def _watched_topics(self):
        """What a look reads and the table's connection watches: the base's availability and
        state/game, and the state/game of each base the table was announced at before (another
        newsdesk may hold one now, and what it keeps there is not this table's to clear)."""
        old = {place["base"] for place in self._retired()}
        was = self.kept.get("announced")
        if isinstance(was, dict) and isinstance(was.get("base"), str) and was["base"]:
            old.add(was["base"])
        old.discard(self.settings.base)
        return [self._topic(T.AVAILABILITY), self._topic(T.state("game"))] + [
            "%s/%s" % (base, T.state("game")) for base in sorted(old)]

    def _other_at(self, base):
        """(install, table) of another newsdesk whose state/game the broker keeps at ``base``, or None."""
        other = T.publisher_of(self._seen.get("%s/%s" % (base, T.state("game"))))
        return other if other is not None and other[0] != self.install else None

    def _panel_link(self):
        """The panel's link on Home Assistant's device page, under the name avahi announces the
        box by when avahi says one: raspberrypi-2.local when another box had raspberrypi.local
        first, where the host name's link opened the other box's panel. Asked at each
        announcement (avahi renames a box when a conflict appears, not only at boot)."""
        url = self.settings.panel_url
        if url is None:
            return None
        name = self._avahi_name()
        if not name:
            return url
        parts = urlsplit(url)
        return urlunsplit(parts._replace(netloc="%s:%d" % (name, parts.port) if parts.port else name))

    def _announce(self, client, removals=False):
        """Home Assistant's discovery configs: at each connection, and again each time Home
        Assistant comes online (``removals``: after the old places' removal, below), as its
        documentation asks, since configs sent while it was away were not seen by it."""
        if not self.settings.discovery:
            return
        configs = T.discovery(self.settings.discovery, self.settings.base, self.settings.table, self._version,
                              self.settings.commands, self._panel_link(), node=self.node)
        if removals:
            self._tell_removals(client, {topic for topic, _ in configs})
        for topic, config in configs:
            client.publish(topic, "" if config is None else T.dumps(config), qos=1, retain=True)

    def _tell_removals(self, client, current):
        """Empty configs for every old place (``retired`` in mqtt-kept.json): Home Assistant takes
        an entity away only if it hears them, and one that was away when the table was renamed
        would keep the old device for good. A place is forgotten once the broker has taken its
        removals after Home Assistant said it was online; a topic the table uses now is left alone."""
        for place in self._retired():
            if place["base"] != self.settings.base and self._other_at(place["base"]):
                continue                            # another newsdesk's now (_on_watched forgets it)
            for topic in T.discovery_topics(place["discovery"], place["base"], _node(place)):
                if topic not in current:
                    self._telling[client.publish(topic, "", qos=1, retain=True).mid] = place

    def _retired(self):
        """The old places kept in mqtt-kept.json (``retired``), each {"base", "discovery"} and
        its "node" (none in a place kept before the node was the install's: its base's)."""
        kept = self.kept.get("retired")
        return [dict(p, node=_node(p)) for p in kept if isinstance(p, dict) and all(
            isinstance(p.get(k), str) and p[k] for k in ("base", "discovery")) and isinstance(p.get("node", ""), str)
        ] if isinstance(kept, list) else []

    def _retire(self, place, here):
        """Keep ``place`` (where the table was announced before) until Home Assistant has heard its
        removal; ``here`` is never one (a table renamed back), nor is a place whose configs are
        the ones sent now (a rename alone: the same node under the same prefix)."""
        old = {"base": place["base"], "discovery": place.get("discovery"), "node": _node(place)}
        retired = [p for p in self._retired() if p != here and p != old]
        if isinstance(old["discovery"], str) and old["discovery"] and (old["discovery"], old["node"]) != (
                here["discovery"], here["node"]):
            retired.append(old)
        self.kept.put("retired", retired)

    def _clear_where_it_was(self, client):
        """The table renamed (its base topic follows its name), its discovery prefix changed, or a
        new install (its device, ``node``): what the broker keeps under the old ones is cleared with
        empty retained messages (the states and "online" under an old base, the configs under an
        old prefix or node), or Home Assistant keeps a ghost device for good. A rename alone keeps
        its node: its configs are sent again over the old ones. Where this table was announced is
        kept in mqtt-kept.json."""
        here = {"base": self.settings.base, "discovery": self.settings.discovery, "node": self.node}
        was = self.kept.get("announced")
        clearing = set()
        if isinstance(was, dict) and was != here and isinstance(was.get("base"), str) and was["base"]:
            old_base, old_prefix = was["base"], was.get("discovery")
            other = self._other_at(old_base) if old_base != self.settings.base else None
            if other:
                # another newsdesk took the old base over while this table was away: clearing it
                # would take that one's device out of Home Assistant
                log.info("MQTT: the table was announced as %s, which another newsdesk (install %s) holds now; "
                         "leaving it to that one", old_base, other[0])
                self.kept.put("retired", [p for p in self._retired() if p["base"] != old_base])
                self._clearing, self._clearing_for = set(), here
                self.kept.put("announced", here)
                return
            if old_base != self.settings.base:
                log.info("MQTT: the table was announced as %s; clearing what the broker keeps there", old_base)
                for name in list(self._retained) + [T.AVAILABILITY]:
                    topic = "%s/%s" % (old_base, name if name == T.AVAILABILITY else T.state(name))
                    clearing.add(client.publish(topic, "", qos=1, retain=True).mid)
            if isinstance(old_prefix, str) and old_prefix:      # (a discovery switched off is cleared too)
                # a config sent again now is overwritten, not cleared: Home Assistant would take the
                # entity away, with its history and automations, and make a new one
                now = set(T.discovery_topics(self.settings.discovery, self.settings.base, self.node)
                          if self.settings.discovery else ())
                for topic in T.discovery_topics(old_prefix, old_base, _node(was)):
                    if topic not in now:
                        clearing.add(client.publish(topic, "", qos=1, retain=True).mid)
            self._retire(was, here)
        # the new place is kept once the broker has taken every clearing message (_on_publish): a
        # box stopped or cut off before then clears the old place again at its next connection,
        # where keeping it at once would have left the old device in Home Assistant for good
        self._clearing, self._clearing_for = clearing, here
        if not clearing:
            self.kept.put("announced", here)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties):
        what = self._subscribed.pop(mid, None)
        if what is not None:
            setattr(self, what, not any(rc.is_failure for rc in reason_codes))

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        if self.connected or self._connecting:
            self._lost("the broker at %s closed the connection (%s)" % (self.broker, reason_code))

    def _on_publish(self, client, userdata, mid, reason_code, properties):
        if mid in self._telling:
            place = self._telling.pop(mid)
            if place not in self._telling.values():      # every removal of that place taken: forget it
                self.kept.put("retired", [p for p in self._retired() if p != place])
            return
        if mid in self._clearing:
            self._clearing.discard(mid)
            if not self._clearing:
                self.kept.put("announced", self._clearing_for)
            return
        if mid not in self._inflight:
            return                       # a state topic's acknowledgement: nothing to move
        self._acked.add(mid)
        while self._pending and self._pending[0][1] in self._acked:
            event_id, done = self._pending.popleft()
            self._acked.discard(done)
            self._inflight.discard(done)
            self.position = event_id
            self.sent += 1

    def _on_message(self, client, userdata, message):
        if message.topic in self._watching:
            self._on_watched(client, message)
            return
        if self.settings.discovery and message.topic == T.birth(self.settings.discovery):
            if message.payload == T.BIRTH.encode():
                self._birth_heard = True        # answered by _step, at most once in BIRTH_QUIET_S
            return
        if message.topic != self._topic(T.BELL) or "bell" not in self.settings.commands:
            return
        if message.retain and message.payload:      # kept by the broker: it would ring at every connection
            log.info("MQTT: a press the broker keeps (retained) on %s is left alone; publish presses "
                     "without the retain flag", message.topic)
            return
        if not message.payload:     # how a kept message is cleared (an empty retained one): no request
            return
        now = self._clock()
        ok, said = self.bell.request(message.payload, now)
        if not ok:
            self._refused(str(said), now)
            return
        self._happened("bell", "rang", rings=said)
        log.info("MQTT: ringing the bell (%d rings), asked on %s", said, message.topic)
        if self._ring is not None:
            try:
                self._ring(said)
            except Exception:
                log.exception("MQTT: ringing the bell failed")

    def _on_watched(self, client, message):
        """What the broker says on a watched topic (_watched_topics): kept for the decisions that
        read it, and answered when it is live (not kept from before this connection, which the
        table's own messages replace) and someone else is on the table's base."""
        payload = message.payload.decode("utf-8", "replace")
        self._seen[message.topic] = payload
        if not self.connected or self._closing.is_set():
            return
        if message.topic == self._topic(T.AVAILABILITY):
            if payload == T.OFFLINE and not message.retain:
                # a last will: this box's own from a connection before this one, or another's
                log.info("MQTT: something set %s offline while the table is on it; saying online again",
                         message.topic)
                client.publish(message.topic, T.ONLINE, qos=1, retain=True)
            return
        other = T.publisher_of(payload)
        if other is None or other[0] == self.install:
            return
        base = message.topic[:-len("/" + T.state("game"))]
        if base != self.settings.base:
            retired = self._retired()
            if any(place["base"] == base for place in retired):
                log.info("MQTT: %s, where the table was announced before, is another newsdesk's now (install "
                         "%s); its old device there is left alone", base, other[0])
                self.kept.put("retired", [place for place in retired if place["base"] != base])
            return
        if message.retain:
            return
        if other[0] < self.install:          # the install that sorts first keeps the base: both agree
            self._yield_to = other           # (_step gives way, outside this callback)
        else:
            if not self._foreign_heard:
                log.warning("MQTT: another newsdesk (install %s) publishes on %s too; this table keeps it (its "
                            "install sorts first) and is sent there again", other[0], base)
            self._foreign_heard = True

    def _refused(self, why, now):
        """A refused bell request, told whole when it is the first in a while (Refusals: a flood
        makes one event a second and one line a minute, not one of each per request)."""
        log_it, event_it = self._refusals.refused(why, now)
        if log_it:
            log.info("MQTT: bell request refused: %s", why)
        if event_it:
            self._happened("bell", "refused", why=why)

    def _count_refusals(self, now):
        """The refusals not logged one by one, said as a count once their minute is over; and
        how many were refused in the last minute, for the health strip."""
        self._flood = self._refusals.recent(now)
        due = self._refusals.count_due(now)
        if due is not None:
            count, why = due
            log.info("MQTT: %d more bell %s refused in the last minute (the last: %s)",
                     count, "request" if count == 1 else "requests", why)

    def _feed(self):
        """Hand the next stored events to the client, in id order, up to the window."""
        room = self._window - len(self._pending)
        if room <= 0 or self._client is None:
            return
        batch = self.store.since(self._handed, limit=room)
        for event in batch:
            final, lower = None, False
            if event.kind in T.GAME_ENDED:
                game = self.store.game(event.payload.get("game"))
                final = game.final if game is not None else None
                lower = _engine_lower_wins(event.payload.get("engine"))
            info = self._client.publish(self._topic(T.EVENTS), T.event_payload(self.settings.table, event, final,
                                                                                self.install, lower), qos=1)
            self._pending.append((event.id, info.mid))
            self._inflight.add(info.mid)
            self._handed = event.id
        self._announced = max(self._announced, self._handed)

    # ------------------------------------------------------------ live state from the bus

    def _load_retained(self, hook):
        """Every retained state as the store (and the kept file) hold it, so what Home Assistant
        shows after any restart of newsdesk, the broker or itself is what it showed before."""
        self._retained["handset"] = T.LIFTED if hook() == "off" else T.DOWN
        for name, kind, shape in (("verdict", events.VERDICT, T.verdict_state), ("digit", events.VERDICT, T.digit_state),
                                  ("dice", events.DICE_ROLL, T.dice_state),
                                  ("stopwatch", events.STOPWATCH_ROLL, T.stopwatch_state)):
            last = self.store.latest(kind)
            if last:
                self._retained[name] = T.dumps(shape(last[0].as_dict()))
        if isinstance(self.kept.get("number"), dict):
            self._retained["number"] = T.dumps(self.kept.get("number"))
        self._refresh_game(results=True)
        self._retained["health"] = T.dumps(self._health_now())

    def _health_now(self):
        """The health state as the phone is at this moment (a start announces nothing: a phone
        unplugged, or a wiring fault still there, must not read as running)."""
        link, fault = self._phone()
        if fault:
            return T.health_state("fault", "Wiring fault: %s." % fault)
        if link is not None:
            ok = bool(link.get("connected"))
            return T.health_state("ok" if ok else "fault", str(link.get("message") or (
                "The phone is on USB." if ok else "The phone's USB link is down.")), link)
        return T.health_state("ok", "The table is running.")

    def _refresh_game(self, results=False):
        """The game's state, and the results' with ``results``; returns the games kept as sent
        there ([] without ``results``)."""
        try:
            current = self._game()
            self._set("game", T.game_state(self.settings.table, current, self.install, lower=_lower_wins(current)))
            if results:
                kept = T.results_state(self.settings.table, self._history(), self.install, _engine_lower_wins)
                self._set("results", kept)
                return kept["games"]
        except Exception:
            log.exception("MQTT: reading the game for its state topic failed")
        return []

    def _set(self, name, value):
        """A retained state changed; it goes out once the bus is drained (a burst of moves sends
        the game's state once, as it stands after them)."""
        payload = value if isinstance(value, str) else T.dumps(value)
        if self._retained.get(name) != payload:
            self._retained[name] = payload
            self._dirty.pop(name, None)
            self._dirty[name] = True

    def _flush_states(self):
        kept = {}
        if self._game_dirty:
            kept = {game["id"]: game for game in self._refresh_game(results=self._results_dirty)}
            self._game_dirty = self._results_dirty = False
        if self.connected and self._client is not None:
            for name in self._dirty:
                self._client.publish(self._topic(T.state(name)), self._retained[name], qos=1, retain=True)
        self._dirty.clear()     # while away, the connection's start sends every state anyway
        # a game's end told as its results row says it (one home for both), after the states: an
        # automation it sets off finds the Last winner already up to date
        for game_id in self._ended:
            if game_id in kept:
                self._happened("game", kept[game_id]["status"], **kept[game_id])
        self._ended = []

    def _fire(self, name, payload, **details):
        """A device trigger's message, and the same for the event entity (live only, like a press)."""
        if self.connected and self._client is not None:
            self._client.publish(self._topic(T.trigger(name)), payload, qos=0)
        self._happened(name, payload, **details)

    def _pressed(self, button, data):
        """One of the table's own buttons pressed (a roll or a stopwatch press the panel made is
        none): the message of its device trigger, live only."""
        if data.get("source") == BY_BUTTON and self.connected and self._client is not None:
            self._client.publish(self._topic(T.trigger("button")), button, qos=0)

    def _happened(self, name, event_type, **details):
        if self.connected and self._client is not None:
            self._client.publish(self._topic(T.event(name)), T.dumps(dict(details, event_type=event_type)), qos=0)

    def _on_bus(self, message):
        kind, data = message.get("type"), message.get("data") or {}
        if isinstance(message.get("id"), int):
            self._announced = max(self._announced, message["id"])
        if kind == events.PHONE_HOOK:
            lifted = data.get("state") == "off"
            self._set("handset", T.LIFTED if lifted else T.DOWN)
            if not lifted and self._digits:
                number = {"number": "".join(self._digits), "at": _now()}
                self.kept.put("number", number)      # the store can't say where a number began
                self._set("number", number)
            self._digits = []
        elif kind == events.PHONE_DIGIT and isinstance(data.get("digit"), int) and not data.get("taken"):
            # a digit something above the table took (a device's join code) is not news: not sent
            self._digits.append(str(data["digit"]))
            self._fire("digit", str(data["digit"]))
        elif kind == events.VERDICT:
            # the last digit's state comes from the stored verdict, as it does after a restart
            self._set("digit", T.digit_state(message))
            self._set("verdict", T.verdict_state(message))
            self._fire("verdict", str(data.get("signal")), digit=data.get("digit"), message=data.get("message"),
                       id=message.get("id"))
        elif kind == events.DICE_ROLL:
            self._set("dice", T.dice_state(message))
            if self.connected and self._client is not None:
                self._client.publish(self._topic(T.trigger("dice")), str(data.get("total")), qos=0)
            self._happened("dice", "roll", **{k: v for k, v in T.dice_state(message).items() if k != "id"})
            self._pressed(T.BUTTONS["dice"], data)
        elif kind == events.STOPWATCH_STARTED:
            self._fire("stopwatch", "started", source=data.get("source"))
            self._pressed(T.BUTTONS["stopwatch"], data)
        elif kind == events.STOPWATCH_RESET:
            self._fire("stopwatch", "reset")        # the panel's: the button only starts and stops it
        elif kind == events.STOPWATCH_ROLL:
            self._set("stopwatch", T.stopwatch_state(message))
            if self.connected and self._client is not None:
                self._client.publish(self._topic(T.trigger("stopwatch")), str(data.get("digit")), qos=0)
            self._happened("stopwatch", "stopped", digit=data.get("digit"), shown=data.get("shown"),
                           source=data.get("source"))
            self._pressed(T.BUTTONS["stopwatch"], data)
        elif kind in (events.GAME_STARTED, events.GAME_CHANGED, events.GAME_FINISHED, events.GAME_ABANDONED):
            self._game_dirty = True
            self._results_dirty = self._results_dirty or kind in T.GAME_ENDED
            if kind in T.GAME_ENDED:
                self._ended.append(data.get("game"))
        elif kind == events.PHONE_LINK:
            ok = bool(data.get("connected"))
            self._set("health", T.health_state("ok" if ok else "fault", str(data.get("message") or (
                "The phone is on USB." if ok else "The phone's USB link is down.")), data))
        elif kind == events.PHONE_FAULT:
            text = data.get("message") or ""
            self._set("health", T.health_state("fault" if text else "ok",
                                               "Wiring fault: %s." % text if text else "The table is running."))

    # ------------------------------------------------------------ closing

    def _goodbye(self):
        self._end_look()
        if self._client is not None:
            if self.connected:
                try:
                    info = self._client.publish(self._topic(T.AVAILABILITY), T.OFFLINE, qos=1, retain=True)
                    end = time.monotonic() + 1.0
                    while not info.is_published() and time.monotonic() < end:
                        if self._client.loop(timeout=0.05) != 0:
                            break
                    self.connected = False       # leaving on purpose: not a lost connection
                    self._client.disconnect()
                except Exception:
                    log.exception("MQTT: saying goodbye to the broker failed")
        self.connected = False
        if self.broker is not None:
            self.cursor.save(self.position)

    def close(self):
        self._closing.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._sub is not None:
            self._sub.close()


def _readable(sock):
    """Whether the broker's connection has bytes for us now (a TLS socket may hold decrypted ones
    the kernel no longer shows)."""
    if sock is None:
        return False
    try:
        if getattr(sock, "pending", None) is not None and sock.pending() > 0:
            return True
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):       # closed under us: the loop says so next
        return False


def _rc_text(rc):
    try:
        from paho.mqtt.client import error_string
        return error_string(rc)
    except Exception:
        return str(rc)


def _sentence_end(text):
    return str(text or "").rstrip(".")
