"""A paho-mqtt 2.x client set up for a Broker, and what went wrong said in one sentence.

Used by the publisher, the league's follower and ``newsdesk doctor``.
"""

import socket
import ssl

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from ..errors import ConfigError

CONNECT_TIMEOUT = 5.0     # seconds to reach the broker before saying it can't be reached
IN_FLIGHT_MOST = 1000     # QoS 1 messages sent and not yet acknowledged: more than a whole announcement
                          # (every discovery config and state, about a hundred) so none waits its turn


class _ClosingSSLSocket(ssl.SSLSocket):
    """paho leaves the socket open when the TLS handshake fails; this one closes itself then."""

    def do_handshake(self, *args, **kwargs):
        try:
            return super().do_handshake(*args, **kwargs)
        except BaseException:
            self.close()
            raise


def make_client(broker, client_id, ca="", clean_session=True):
    """``clean_session=False`` keeps the client's subscriptions and its QoS 1 messages on the
    broker while it is away (the league: events sent while it reconnects are not lost to it)."""
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv311,
                         clean_session=clean_session)
    client.connect_timeout = CONNECT_TIMEOUT
    # paho holds back a QoS 1 message past its in-flight limit (20) but sends a QoS 0 one at once:
    # just after the configs and states were announced, a game's end reached Home Assistant before
    # the results it ended with, which an automation on the end reads. Held to none, they go in order.
    client.max_inflight_messages_set(IN_FLIGHT_MOST)
    if broker.username:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        try:
            context = ssl.create_default_context(cafile=ca or None)
        except FileNotFoundError:
            raise ConfigError("mqtt_ca names %s, which is not there" % ca) from None
        except (OSError, ssl.SSLError) as e:
            raise ConfigError("mqtt_ca %s can't be read as certificates (%s)" % (ca, e)) from None
        context.sslsocket_class = _ClosingSSLSocket
        client.tls_set_context(context)
    return client


def connect_error(broker, error, ca=""):
    """One sentence for an exception raised while connecting to ``broker``."""
    where = "%s:%d" % (broker.host, broker.port)
    if isinstance(error, socket.gaierror):
        return "can't find the broker's host %s (the name doesn't resolve)" % broker.host
    if isinstance(error, ssl.SSLCertVerificationError):
        return ("the broker at %s showed a TLS certificate this box doesn't trust (%s); set mqtt_ca to the "
                "file of the authority that signed it" % (where, error.verify_message or error.reason))
    if isinstance(error, ssl.SSLError):
        return ("the TLS handshake with %s failed (%s): that port may not speak TLS (mqtt:// is the "
                "plain one)" % (where, (error.reason or str(error)).lower().replace("_", " ")))
    if broker.tls and isinstance(error, ConnectionResetError):
        return ("the broker at %s cut the TLS handshake off: that port may not speak TLS (mqtt:// is the "
                "plain one)" % where)
    if isinstance(error, ConnectionRefusedError):
        return "nothing accepts connections at %s: is the broker running, and is the port right?" % where
    if isinstance(error, (TimeoutError, socket.timeout)):
        return "the broker at %s did not answer within %.0f s" % (where, CONNECT_TIMEOUT)
    if isinstance(error, ConfigError):
        return str(error)
    if isinstance(error, OSError):
        return "can't reach the broker at %s: %s" % (where, error.strerror or error)
    return "can't connect to the broker at %s: %s" % (where, error)


def refused(broker, reason_code):
    """One sentence for a broker's CONNACK refusal."""
    text = str(reason_code)
    if "password" in text.lower() or "authori" in text.lower():
        who = "user %s" % broker.username if broker.username else "a client with no user name"
        return "the broker at %s:%d refused %s: wrong user name or password (%s)" % (
            broker.host, broker.port, who, text)
    return "the broker at %s:%d refused the connection: %s" % (broker.host, broker.port, text)


def base_held(base, other):
    """One sentence for a base topic another newsdesk holds: ``other`` is its (install, table),
    as topics.holder() reads them from its state/game."""
    install, table = other
    who = "install %s, table %s" % (install, table) if table else "install %s" % install
    return ("another newsdesk (%s) already publishes on %s, so this box sends nothing there: give this table "
            "its own table_name or mqtt_topic in config.toml" % (who, base))


class Look:
    """A connection with no last will that reads what the broker keeps (retained) on ``topics``
    and leaves. It subscribes and unsubscribes at once: mosquitto sends what it keeps between its
    two answers, so ``done`` is known without guessing a wait (the publisher still bounds it, for
    a broker that answers otherwise). Having no will, it publishes
    nothing however it ends: a box looking at a base topic another newsdesk holds must not set
    that one's availability offline.

    The publisher drives it a turn at a time (turn()); probe() waits for it."""

    def __init__(self, broker, client_id, ca="", topics=()):
        self.broker = broker
        self.topics = list(topics)
        self.seen = {}          # topic -> its payload as the broker keeps it ("" for nothing)
        self.answer = None      # the broker's answer to the connection (a reason code)
        self.done = False       # every kept message is in
        self.client = make_client(broker, client_id, ca)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.on_unsubscribe = self._unsubscribed

    def start(self):
        """Connect (raises as paho's connect does: connect_error() says it)."""
        self.client.connect(self.broker.host, self.broker.port, keepalive=LOOK_KEEPALIVE)

    def turn(self, timeout=0.0):
        """One turn of the connection: 0 while it is open, else paho's error."""
        return self.client.loop(timeout=timeout)

    def close(self):
        """Leave (a clean disconnect; without a will, an unclean one would publish nothing either)."""
        try:
            self.client.disconnect()
        except Exception:
            pass

    def _connected(self, client, userdata, flags, reason_code, properties):
        self.answer = reason_code
        if reason_code.is_failure:
            return
        if not self.topics:
            self.done = True
            return
        client.subscribe([(topic, 1) for topic in self.topics])
        client.unsubscribe(self.topics)

    def _message(self, client, userdata, message):
        if message.topic in self.topics:
            self.seen[message.topic] = message.payload.decode("utf-8", "replace")

    def _unsubscribed(self, client, userdata, mid, reason_codes, properties):
        self.done = True


LOOK_KEEPALIVE = 10


def probe(broker, ca="", timeout=CONNECT_TIMEOUT, topics=()):
    """Connect once, read what the broker keeps on ``topics``, and leave: (None, {topic: payload})
    if the broker takes this box, else (one sentence why not, {})."""
    import time

    look = Look(broker, "newsdesk-doctor-%d" % (time.monotonic_ns() % 10**9), ca, topics)
    try:
        look.start()
    except Exception as e:
        return connect_error(broker, e, ca), {}
    try:
        end = time.monotonic() + timeout
        while not look.done and not (look.answer and look.answer.is_failure) and time.monotonic() < end:
            if look.turn(timeout=0.1) != 0:
                if look.answer is None:
                    return "the broker at %s:%d closed the connection before answering" % (
                        broker.host, broker.port), {}
                break
        if look.answer is None:
            return "the broker at %s:%d did not answer within %.0f s" % (broker.host, broker.port, timeout), {}
        if look.answer.is_failure:
            return refused(broker, look.answer), {}
        return None, dict(look.seen)
    finally:
        look.close()
