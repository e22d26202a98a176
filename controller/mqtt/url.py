"""The broker's address: ``mqtt://user:password@host:1883`` or ``mqtts://...`` for TLS.

Parsing is pure and says what is wrong in one sentence. A bad address must not stop the
table: the settings keep the text as given, and the publisher and ``newsdesk doctor`` say the
sentence instead of connecting.
"""

from urllib.parse import unquote, urlsplit

from ..errors import ConfigError

PORTS = {"mqtt": 1883, "mqtts": 8883}


class Broker:
    __slots__ = ("host", "port", "tls", "username", "password")

    def __init__(self, host: str, port: int, tls: bool = False, username: str | None = None,
                 password: str | None = None) -> None:
        self.host = host
        self.port = port
        self.tls = tls
        self.username = username
        self.password = password

    def __str__(self) -> str:
        """Where it is, never the password: ``mqtts://ann@broker.lan:8883``."""
        user = "%s@" % self.username if self.username else ""
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "%s://%s%s:%d" % ("mqtts" if self.tls else "mqtt", user, host, self.port)


def parse_mqtt_url(text: str | None) -> Broker:
    """A Broker from ``text``; ConfigError with one sentence if it isn't a broker's address."""
    text = (text or "").strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        raise ConfigError("mqtt_url %r is not a broker address (%s); write it as "
                          "mqtt://user:password@host:1883" % (_hide(text), e)) from None
    if parts.scheme not in PORTS:
        raise ConfigError("mqtt_url must start with mqtt:// (or mqtts:// for TLS), not %r"
                          % (_hide(text),))
    if not parts.hostname:
        raise ConfigError("mqtt_url %r names no host; write it as mqtt://host:1883" % (_hide(text),))
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ConfigError("mqtt_url %r has a path or query; a broker address is only "
                          "mqtt://user:password@host:port" % (_hide(text),))
    return Broker(parts.hostname, port or PORTS[parts.scheme], tls=parts.scheme == "mqtts",
                  username=unquote(parts.username) if parts.username else None,
                  password=unquote(parts.password) if parts.password is not None else None)


def _hide(text: str) -> str:
    """The address with any password replaced, for messages and logs."""
    scheme, sep, rest = text.partition("://")
    if not sep or "@" not in rest:
        return text
    creds, _, host = rest.rpartition("@")
    user = creds.split(":", 1)[0]
    return "%s://%s%s@%s" % (scheme, user, ":***" if ":" in creds else "", host)
