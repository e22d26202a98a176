"""Safe on the table's Wi-Fi: who may watch, who may change the game, and what is refused.

    anyone          GET / HEAD / OPTIONS: the pages, /stream, /static, reads under /api/
    a joined device every other method (a signed, HttpOnly, SameSite=Strict session cookie
                    naming a device that is still joined); views marked @public excepted
    the host        views marked @require_role("host"); the box's own screen (loopback)
                    counts as the host while HOST_ON_LOOPBACK is true

Every request is first checked for its Host header (DNS rebinding); every write, and every
read marked @same_site (the backup download), for being same-origin (Sec-Fetch-Site, Origin);
every write for carrying ``X-Newsdesk: 1`` (or, from an HTML
form, the session's csrf_token field), which a cross-site form can't send. No debugger and
no traceback is ever served: unexpected errors are logged and answered with a plain 500.

Settings (app.config; init_app fills in the defaults):

    HOST_ON_LOOPBACK      True   requests from 127.0.0.1 / ::1 are the host
    ALLOWED_HOSTS         None   None: worked out (localhost, the box's names and addresses,
                                 the configured host); a list: exactly those names
    EXTRA_HOSTS           ()     more names to accept, e.g. a name the router hands out
    JOIN_BASE_URL         None   where the QR code points; None: this request's host, or the
                                 box's LAN address when asked from the box's own screen
    JOIN_TOKEN_TTL        600    seconds an invitation lasts
    JOIN_DIAL_TTL         180    seconds a code waits to be dialed
    JOIN_RATE_PER_MINUTE  5      join attempts per client address per minute
    JOIN_LOCKOUT_AFTER    10     failed attempts (within the lockout time) that lock an address out
    JOIN_LOCKOUT_SECONDS  600    how long a lockout lasts
"""

import collections
import fcntl
import functools
import hmac
import ipaddress
import logging
import secrets
import socket
import struct
import threading
import time
from datetime import timedelta

from flask import current_app, g, jsonify, render_template, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.http import parse_cookie

from .errors import clipped
from .helpers import desk

log = logging.getLogger(__name__)

WRITE_HEADER = "X-Newsdesk"
WRITE_HEADER_VALUE = "1"
CSRF_FIELD = "csrf_token"
SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))
EXTENSION = "newsdesk.security"
SESSION_DEVICE = "device"
SESSION_CSRF = "csrf"
WEAK_KEYS = {"dev", "secret", "changeme", "change-me", "development", "test", "testing"}
MIN_KEY = 32
ADDRESS_REFRESH = 30.0   # seconds between two looks at the box's addresses

DEFAULTS = {
    "HOST_ON_LOOPBACK": True,
    "ALLOWED_HOSTS": None,
    "EXTRA_HOSTS": (),
    "JOIN_BASE_URL": None,
    "JOIN_TOKEN_TTL": 600.0,
    "JOIN_DIAL_TTL": 180.0,
    "JOIN_RATE_PER_MINUTE": 5,
    "JOIN_LOCKOUT_AFTER": 10,
    "JOIN_LOCKOUT_SECONDS": 600.0,
}

JOIN_HINT = ("Join this device first: scan the QR code on the host's screen, or open /join on "
             "this device and dial the code it shows on the table's phone.")


# -- rate limits -------------------------------------------------------------------------


class Limiter:
    """Join attempts per client address: ``per_minute`` in any 60 s, and after ``lockout_after``
    failures within ``lockout`` seconds the address waits ``lockout`` seconds::

        attempts  x x x x x |x refused (429) ......... 60 s after the first: allowed again
        failures  f f f f f f f f f f |locked ................ lockout s ......... | open
    """

    def __init__(self, per_minute=5, lockout_after=10, lockout=600.0, clock=time.monotonic, max_keys=4096):
        self.per_minute = per_minute
        self.lockout_after = lockout_after
        self.lockout = lockout
        self.clock = clock
        self.max_keys = max_keys
        self._lock = threading.Lock()
        self._keys = {}  # key -> [attempt times, failure times, locked until]

    def _entry(self, key, now):
        entry = self._keys.get(key)
        if entry is None:
            if len(self._keys) >= self.max_keys:
                self._prune(now)
            entry = self._keys[key] = [collections.deque(), collections.deque(), 0.0]
        attempts, failures, _ = entry
        while attempts and attempts[0] <= now - 60.0:
            attempts.popleft()
        while failures and failures[0] <= now - self.lockout:
            failures.popleft()
        return entry

    def _prune(self, now):
        for key in [k for k, (a, f, until) in self._keys.items()
                    if until <= now and (not a or a[-1] <= now - 60) and (not f or f[-1] <= now - self.lockout)]:
            del self._keys[key]
        while len(self._keys) >= self.max_keys:  # still full: forget the oldest entry
            del self._keys[next(iter(self._keys))]

    def attempt(self, key):
        """Count an attempt; 0 if it may go ahead, else the seconds until one may."""
        now = self.clock()
        with self._lock:
            attempts, _, until = entry = self._entry(key, now)
            if until > now:
                return until - now
            if len(attempts) >= self.per_minute:
                return attempts[0] + 60.0 - now
            attempts.append(now)
            entry[2] = 0.0
            return 0.0

    def failed(self, key):
        now = self.clock()
        with self._lock:
            entry = self._entry(key, now)
            entry[1].append(now)
            if len(entry[1]) >= self.lockout_after:
                entry[2] = now + self.lockout
                entry[1].clear()

    def succeeded(self, key):
        with self._lock:
            entry = self._keys.get(key)
            if entry is not None:
                entry[1].clear()


def wait_words(seconds):
    seconds = max(1, int(seconds + 0.999))
    if seconds < 90:
        return "%d seconds" % seconds
    return "%d minutes" % ((seconds + 59) // 60)


# -- the box's names ---------------------------------------------------------------------


def _interface_addresses():
    """Every address of this box: IPv4 per interface (SIOCGIFADDR), IPv6 from /proc."""
    found = set()
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                found.add(socket.inet_ntoa(raw[20:24]))
            except OSError:
                continue
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as f:
            for line in f:
                hexaddr = line.split()[0]
                found.add(str(ipaddress.IPv6Address(int(hexaddr, 16))))
    except (OSError, ValueError, IndexError):
        pass
    return found


def box_names(configured_host=""):
    """Names and addresses a browser may use for this box (lower case, no port)."""
    hostname = socket.gethostname().lower().rstrip(".")
    names = {"localhost", "127.0.0.1", "::1", hostname, hostname + ".local"}
    if "." in hostname:
        short = hostname.split(".")[0]
        names |= {short, short + ".local"}
    try:
        names |= {info[4][0].split("%")[0].lower() for info in socket.getaddrinfo(hostname, None)
                  if isinstance(info[4][0], str)}   # an IP family's address (the rest give none)
    except OSError:
        pass
    names |= {a.lower() for a in _interface_addresses()}
    if configured_host and configured_host not in ("0.0.0.0", "::"):
        names.add(configured_host.lower().strip("[]"))
    names.discard("")
    return names


def split_host(host):
    """'Name:8080' -> ('name', 8080); '[::1]:80' -> ('::1', 80); None for something else."""
    if not host or any(c.isspace() for c in host):
        return None
    host = host.lower()
    port = None
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None
        name, rest = host[1:end], host[end + 1:]
        if rest:
            if not rest.startswith(":"):
                return None
            port = rest[1:]
    elif host.count(":") == 1:
        name, port = host.split(":")
    elif ":" in host:
        return None  # a bare IPv6 address must be bracketed in a Host header
    else:
        name = host
    # ASCII and at most five: a Host header is read as Latin-1, and int() refuses a superscript
    # two that isdigit() takes for a digit, and anything past 4,300 digits
    if port is not None and not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536):
        return None
    name = name.rstrip(".")
    return (name, int(port) if port else None) if name else None


def _is_ip(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def is_loopback(address):
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback)


def is_host_request(app, address, cookie_header):
    """Whether a request comes from the host (the box's own screen, or a joined host device),
    worked out from its address and session cookie alone, with no request context and no disk:
    the panel's event loop asks it for every request, to keep the host's lane for the host
    (web_ui/live.py). Flask's own check (current_viewer) still decides what the request may do."""
    if app.config["HOST_ON_LOOPBACK"] and is_loopback(address):
        return True
    if not cookie_header:
        return False
    value = parse_cookie(cookie_header).get(app.config["SESSION_COOKIE_NAME"])
    if not value:
        return False
    try:
        read = app.session_interface.read(app, value)     # DailySessions (init_app sets it)
    except (ValueError, TypeError):
        return False
    device = read[0].get(SESSION_DEVICE) if read is not None else None
    return isinstance(device, str) and device in guard(app).devices.host_ids()


# -- the guard ---------------------------------------------------------------------------


class Viewer:
    """Who is asking: role is "host", "player" or None (watching); ``device`` when joined;
    ``why`` says why a device cookie no longer counts (revoked, lapsed, unknown)."""

    __slots__ = ("role", "device", "loopback", "why")

    def __init__(self, role=None, device=None, loopback=False, why=None):
        self.role = role
        self.device = device
        self.loopback = loopback
        self.why = why

    def as_dict(self):
        return {"role": self.role, "loopback": self.loopback,
                "device": self.device.as_dict() if self.device is not None else None}


class Guard:
    """The per-app state: the box's join service (its devices file), the limiter and the box's names."""

    def __init__(self, app, joins, clock=time.time, monotonic=time.monotonic):
        self.app = app
        self.clock = clock          # wall-clock seconds: expiry of tokens and codes (kept on disk)
        self.monotonic = monotonic  # rate limits (never jump with the wall clock); tests replace both
        self.joins = joins          # built by the box (controller/joins.py); the panel turns it into HTTP
        self.devices = joins.devices
        self.devices.clock = self.now   # the file's expiry follows the guard's clock (tests move it)
        cfg = app.config
        self.limiter = Limiter(cfg["JOIN_RATE_PER_MINUTE"], cfg["JOIN_LOCKOUT_AFTER"],
                               cfg["JOIN_LOCKOUT_SECONDS"], clock=lambda: self.monotonic())
        self._names: set[str] = set()   # read only once _names_at is set
        self._names_at = None
        self._names_lock = threading.Lock()
        self._announced_name = None     # avahi's name for the box, when asked (_announced)
        self._announced_at = None

    def now(self):
        return self.clock()

    def allowed_hosts(self, refresh=False):
        cfg = self.app.config
        if cfg["ALLOWED_HOSTS"] is not None:
            return {str(h).lower().strip("[]") for h in cfg["ALLOWED_HOSTS"]}
        with self._names_lock:
            now = self.monotonic()
            stale = self._names_at is None or (refresh and now - self._names_at >= ADDRESS_REFRESH)
            if stale:
                self._names = box_names(desk().config.get("host", ""))
                self._names_at = now
            return self._names | {str(h).lower().strip("[]") for h in cfg["EXTRA_HOSTS"]}

    def host_allowed(self, name):
        if name in self.allowed_hosts():
            return True
        if name.endswith(".local") and self.app.config["ALLOWED_HOSTS"] is None:
            return name == self._announced()
        # An address the box got since we last looked (a new DHCP lease): look again, now and then.
        return _is_ip(name) and name in self.allowed_hosts(refresh=True)

    def _announced(self):
        """The .local name avahi announces for the box (lan.announced_name: another than the
        hostname's when another box had that first), asked when such a name first comes and
        again at most every ADDRESS_REFRESH, never at start."""
        from controller import lan
        with self._names_lock:
            now = self.monotonic()
            if self._announced_at is None or now - self._announced_at >= ADDRESS_REFRESH:
                self._announced_name = lan.announced_name()
                self._announced_at = now
            return self._announced_name

    def lan_address(self):
        return lan_address()


def lan_address():
    """An address tablets can reach: the box's first private IPv4, else its hostname.local."""
    addresses = sorted(a for a in _interface_addresses() if _is_ip(a) and "." in a)
    for a in addresses:
        ip = ipaddress.ip_address(a)
        if ip.is_private and not ip.is_loopback and not ip.is_link_local:
            return a
    return socket.gethostname().lower() + ".local"


def guard(app=None):
    """The Guard of ``app`` (the current app by default)."""
    return (app or current_app).extensions[EXTENSION]


def _refuse(status, error, message):
    if request.path.startswith("/api/"):
        return jsonify(error=error, message=clipped(message)), status
    return render_template("join/refused.html", error=error, message=clipped(message)), status


def current_viewer():
    """Who is asking (worked out once per request)."""
    viewer = g.get("_newsdesk_viewer")
    if viewer is not None:
        return viewer
    loopback = bool(current_app.config["HOST_ON_LOOPBACK"]) and is_loopback(request.remote_addr)
    viewer = Viewer(role="host" if loopback else None, loopback=loopback)
    device_id = session.get(SESSION_DEVICE)
    if device_id is not None:
        device = guard().devices.device(device_id)
        if device is None:
            viewer.why = "unknown"
        elif not device.active:
            viewer.why = device.status
            if device.status == "waiting":
                viewer.device = device
        else:
            viewer.device = device
            if viewer.role != "host":
                viewer.role = device.role
    g._newsdesk_viewer = viewer
    return viewer


def _not_joined_message(viewer):
    if viewer.why == "revoked":
        return "The host removed this device from the table. " + JOIN_HINT
    if viewer.why == "waiting":
        return "This device's code hasn't been dialed yet: dial it on the table's phone, or scan the host's QR code."
    return "Watching is open to anyone, but changing the game needs a joined device. " + JOIN_HINT


def public(view):
    """Mark a view as open to devices that haven't joined (the join endpoints themselves).
    The Host and cross-site checks still apply."""
    view._newsdesk_public = True
    return view


def same_site(view):
    """Mark a GET view whose answer is made at a cost or holds secrets (a backup, built on the
    box, with the key on request): it is refused to another site's page as a write is (the
    Sec-Fetch-Site and Origin checks), so a page elsewhere open on the box's own screen can't
    make the box build one by a fetch or an <img>."""
    view._newsdesk_same_site = True
    return view


def require_role(role):
    """Only a joined device with ``role`` may use the view: "host", or "player" (any joined
    device; a host is a player too). 401 when not joined, 403 when joined without the role."""
    if role not in ("host", "player"):
        raise ValueError("role must be \"host\" or \"player\", got %r" % (role,))

    def decorate(view):
        @functools.wraps(view)
        def checked(*args, **kwargs):
            viewer = current_viewer()
            if viewer.role is None:
                return _refuse(401, "Unauthorized", _not_joined_message(viewer))
            if role == "host" and viewer.role != "host":
                return _refuse(403, "Forbidden", "Only the host can do that. This device joined as a "
                               "player; the host can invite it again as a host.")
            return view(*args, **kwargs)
        return checked
    return decorate


def csrf_token():
    """The session's token for plain HTML forms (put it in a hidden field named csrf_token)."""
    token = session.get(SESSION_CSRF)
    if not token:
        token = session[SESSION_CSRF] = secrets.token_urlsafe(24)
    return token


def _same_origin(origin):
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https"):
        return False
    theirs = split_host(rest.rstrip("/"))
    ours = split_host(request.host)
    if theirs is None or ours is None:
        return False
    default = {"http": 80, "https": 443}
    return (theirs[0], theirs[1] or default[scheme]) == (ours[0], ours[1] or default.get(request.scheme, 80))


def _cross_site(what):
    """A refusal when the request came from another site's page (Sec-Fetch-Site, else Origin);
    ``what`` names what must come from newsdesk's own pages."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return _refuse(403, "Forbidden", "%s must come from newsdesk's own pages, not another site "
                       "(Sec-Fetch-Site: %s)." % (what, site))
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin):
        return _refuse(403, "Forbidden", "%s must come from newsdesk's own pages; this one came from %s."
                       % (what, origin))
    return None


def _check_request():
    """The before_request hook: Host, then (for writes) cross-site, then the join."""
    if "werkzeug.debug.preserve_context" in request.environ:
        log.error("refusing to serve under Werkzeug's interactive debugger")
        return jsonify(error="Internal Server Error",
                       message="newsdesk does not run under a debugger; start it with `newsdesk serve`."), 500
    raw_host = request.environ.get("HTTP_HOST")
    parsed = split_host(raw_host)
    if parsed is None or not guard().host_allowed(parsed[0]):
        log.warning("refused Host %r from %s", raw_host, request.remote_addr)
        return jsonify(error="Bad Request",
                       message=clipped("This box doesn't answer to the name %r; open it by its own address "
                                       "or name." % (raw_host or ""))), 400
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None   # None: no route
    if request.method in SAFE_METHODS:
        return _cross_site("This download") if getattr(view, "_newsdesk_same_site", False) else None
    refused = _cross_site("Changes")
    if refused is not None:
        return refused
    if request.headers.get(WRITE_HEADER) != WRITE_HEADER_VALUE:
        form_token = request.form.get(CSRF_FIELD) if request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data") else None
        expected = session.get(SESSION_CSRF)
        if not (form_token and expected and hmac.compare_digest(form_token, expected)):
            return _refuse(403, "Forbidden", "Changes need the header %s: %s (newsdesk's pages send it), "
                           "or a form's %s field." % (WRITE_HEADER, WRITE_HEADER_VALUE, CSRF_FIELD))
    if getattr(view, "_newsdesk_public", False):
        return None
    viewer = current_viewer()
    if viewer.role is None:
        return _refuse(401, "Unauthorized", _not_joined_message(viewer))
    if viewer.device is not None and viewer.device.active:
        guard().devices.touch(viewer.device)
    return None


def _headers(response):
    h = response.headers
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("X-Frame-Options", "DENY")  # no clickjacking of the host's buttons
    h.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    h.setdefault("Referrer-Policy", "same-origin")
    return response


class DatedSession(SecureCookieSession):
    """A session that knows when its cookie was signed (None: it came without one)."""

    signed_at: float | None = None


class DailySessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, the cookie sent again at most once a day (``REFRESH``
    seconds) rather than with every answer. A joined device's session is permanent, and Flask
    (SESSION_REFRESH_EACH_REQUEST) signs it afresh and sends it with every answer to slide its 180
    days on: a signature, a Set-Cookie header and the tablet's browser storing it, for every move,
    about a tenth of a move's CPU on the box. Sliding it once a day keeps a tablet that plays
    joined just as well. A change to the session (joining, leaving) is sent at once as before.
    ``clock``: wall-clock seconds, as the cookie's signature stamps them (tests move it)."""

    REFRESH = 86400.0
    KEPT = 64                   # good cookies whose signature is kept as checked (a table has a few tablets)
    session_class = DatedSession

    def __init__(self, clock=time.time):
        self.clock = clock
        self._checked: collections.OrderedDict[str, tuple[dict, float]] = collections.OrderedDict()
        self._checking = threading.Lock()

    def read(self, app, value):
        """(the data, when it was signed) of the session cookie ``value``, or None when it is no
        good one: its signature doesn't hold, or it is older than the session's lifetime (or
        signed in the future). The signature of a good cookie is checked once and kept, for the
        same bytes: the panel's event loop reads a tablet's cookie for each of its requests (to
        pick its lane: ``is_host_request``) and Flask reads it again, and each check was a key
        derivation, an HMAC and a JSON parse. Its age is checked every time. The data is shared:
        copy it before changing it (a session does)."""
        max_age = int(app.permanent_session_lifetime.total_seconds())
        with self._checking:
            kept = self._checked.get(value)
            if kept is not None:
                self._checked.move_to_end(value)
        if kept is None:
            serializer = self.get_signing_serializer(app)
            if serializer is None:
                return None
            try:
                data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return None
            if not isinstance(data, dict):
                return None
            kept = (data, signed.timestamp())
            with self._checking:
                self._checked[value] = kept
                while len(self._checked) > self.KEPT:
                    self._checked.popitem(last=False)
        age = int(self.clock()) - kept[1]
        return kept if 0 <= age <= max_age else None

    def open_session(self, app, request):
        if self.get_signing_serializer(app) is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        read = self.read(app, value) if value else None
        if read is None:
            return self.session_class()
        opened = self.session_class(read[0])       # a copy: the kept data is never changed
        opened.signed_at = read[1]
        return opened

    def should_set_cookie(self, app, session):
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = session.signed_at if isinstance(session, DatedSession) else None
        return signed is None or self.clock() - signed >= self.REFRESH


def check_secret_key(key):
    """Refuse a missing, short or example secret key (the one that signs every device's cookie)."""
    from controller.errors import ConfigError
    if isinstance(key, bytes):
        key = key.decode("latin-1")
    if not isinstance(key, str) or len(key) < MIN_KEY or key.strip().lower() in WEAK_KEYS:
        raise ConfigError("SECRET_KEY must be a random value of at least %d characters, generated per "
                          "box (web_ui writes one to <data>/secret_key); this one isn't." % MIN_KEY)


def init_app(app, clock=None, monotonic=None):
    """Put the checks on ``app``. Calling it again only replaces the clocks (tests hand them in)."""
    if EXTENSION in app.extensions:
        state = app.extensions[EXTENSION]
        state.clock = clock or state.clock
        state.monotonic = monotonic or state.monotonic
        return state
    check_secret_key(app.config.get("SECRET_KEY"))
    app.session_interface = DailySessions()
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.debug = False
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=timedelta(days=180),
    )
    joins = app.extensions["newsdesk"].joins
    app.extensions[EXTENSION] = state = Guard(app, joins, clock or time.time, monotonic or time.monotonic)
    app.before_request(_check_request)
    app.after_request(_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"viewer": current_viewer()})

    return state
