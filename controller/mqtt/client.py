"""A paho-mqtt 2.x client set up for a Broker, and what went wrong said in one sentence.

Used by the publisher, the league's follower and ``newsdesk doctor``.
"""

import socket
import ssl

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from ..errors import ConfigError

CONNECT_TIMEOUT = 5.0     # seconds to reach the broker before saying it can't be reached


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


def probe(broker, ca="", timeout=CONNECT_TIMEOUT):
    """Connect once and leave: None if the broker takes this box, else one sentence why not."""
    import time

    client = make_client(broker, "newsdesk-doctor-%d" % (time.monotonic_ns() % 10**9), ca)
    answer = []
    client.on_connect = lambda c, u, f, reason_code, p: answer.append(reason_code)
    try:
        client.connect(broker.host, broker.port, keepalive=10)
    except Exception as e:
        return connect_error(broker, e, ca)
    try:
        end = time.monotonic() + timeout
        while not answer and time.monotonic() < end:
            if client.loop(timeout=0.1) != 0 and not answer:
                return "the broker at %s:%d closed the connection before answering" % (broker.host, broker.port)
        if not answer:
            return "the broker at %s:%d did not answer within %.0f s" % (broker.host, broker.port, timeout)
        if answer[0].is_failure:
            return refused(broker, answer[0])
        return None
    finally:
        client.disconnect()
