"""The devices that joined the table, and the invitations that let them: one SQLite file,
<data>/devices.sqlite3, WAL with synchronous=FULL, every change committed before it returns.

A device joins in one of two ways:

    QR code   the host asks for a token (single use, ten minutes, a role); its QR code opens
              /join?token=...; redeeming it makes a joined device with that role.
    the phone a device without a camera asks for a code; it is kept here as a *waiting*
              device showing four digits; dialing them on the rotary phone makes it a joined
              player (controller/dial_join.py turns the digits into that join).

Tables (user_version 1):

    devices  id (random, never reused), role, name, via (token | dial), address, created,
             status: waiting -> joined -> revoked, or waiting -> lapsed (code expired or
             withdrawn); code and expires while waiting; joined; last_seen; revoked
    tokens   sha256 of each token (the token itself is never stored), role, created,
             expires, made_by, used, device

Times are wall-clock seconds (the clock is handed in), so expiry holds across a restart.
"""

import hashlib
import secrets
import sqlite3
import threading
import time
from contextlib import closing, contextmanager
from datetime import datetime, timezone
from pathlib import Path

from .dbshape import Shape, made_by
from .dial_join import CODE_DIGITS
from .errors import BadRequest, StoreError
from .visible import visible

ROLES = ("host", "player")
TOKEN_TTL = 600.0        # an invitation's life, seconds
DIAL_TTL = 180.0         # how long a dial code waits to be dialed
MAX_WAITING = 64         # dial codes waiting at once, table-wide (and one per address, one per device)
DIAL_HOLD = 30.0         # a waiting code is safe this long; after it, a new request may push the oldest out
KEEP_PAST = 86400.0      # lapsed devices and spent tokens are deleted a day later
TOUCH_EVERY = 60.0       # last_seen is written at most once a minute per device
NAME_MAX = 60

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS devices (
        id        TEXT PRIMARY KEY,
        role      TEXT NOT NULL CHECK (role IN ('host', 'player')),
        name      TEXT NOT NULL,
        via       TEXT NOT NULL CHECK (via IN ('token', 'dial')),
        address   TEXT NOT NULL,
        created   REAL NOT NULL,
        status    TEXT NOT NULL CHECK (status IN ('waiting', 'joined', 'lapsed', 'revoked')),
        code      TEXT,
        expires   REAL,
        joined    REAL,
        last_seen REAL,
        revoked   REAL
    )""",
    "CREATE UNIQUE INDEX IF NOT EXISTS devices_waiting_code ON devices (code) WHERE status = 'waiting'",
    """CREATE TABLE IF NOT EXISTS tokens (
        hash      TEXT PRIMARY KEY,
        role      TEXT NOT NULL CHECK (role IN ('host', 'player')),
        created   REAL NOT NULL,
        expires   REAL NOT NULL,
        made_by   TEXT NOT NULL,
        used      REAL,
        device    TEXT REFERENCES devices (id)
    )""",
    "PRAGMA user_version = 1",
)


def devices_shape() -> Shape:
    """The tables and columns SCHEMA makes (controller/dbshape.py): what a restore checks a
    backup's devices file against."""
    return made_by(SCHEMA)


class JoinRefused(BadRequest):
    """A token or dial code that can't be used; ``reason`` is unknown, used, expired or busy."""

    def __init__(self, message, reason):
        super().__init__(message)
        self.reason = reason


class UnknownDevice(BadRequest, LookupError):
    """A device id that names no device."""


def iso(t):
    return None if t is None else datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="seconds")


def token_hash(token):
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


INVITE_DIGITS = 16      # hex digits of a token's hash that name its invitation to the host's page


def invite_id(token):
    """The name the host's page asks after an invitation by: a prefix of its token's hash, which
    gives nothing of the token away."""
    return token_hash(token)[:INVITE_DIGITS]


def describe_agent(user_agent):
    """A short, human name for a device from its User-Agent ("Android phone", "iPad" ...)."""
    ua = user_agent or ""
    for needle, name in (("iPad", "iPad"), ("iPhone", "iPhone"), ("CrOS", "Chromebook"),
                         ("Kindle", "Kindle"), ("Silk", "Fire tablet")):
        if needle in ua:
            return name
    if "Android" in ua:
        return "Android phone" if "Mobile" in ua else "Android tablet"
    for needle, name in (("Windows", "Windows computer"), ("Macintosh", "Mac"), ("Linux", "Linux computer")):
        if needle in ua:
            return name
    return "Device"


def clean_name(name):
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("a device's name is some text, e.g. \"Ann's phone\", got %r" % (name,))
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise BadRequest("a device's name is at most %d characters, got %d" % (NAME_MAX, len(name)))
    visible(name, "a device's name")        # the host's list of devices shows it as typed
    return name


def _free_name(db, name, mine=None):
    """``name``, or ``name`` with the first number from 2 that no other device at the table
    (joined or waiting; ``mine``: the device being named, whose own name is no clash) goes by,
    shortened to keep within NAME_MAX. Two tablets of one make both read as "Linux computer"
    from their User-Agent; the host's list and an invitation's "used by" must tell them apart."""
    taken = {r[0].casefold() for r in db.execute(
        "SELECT name FROM devices WHERE status IN ('joined', 'waiting') AND id IS NOT ?", (mine,))}
    number, candidate = 1, name
    while candidate.casefold() in taken:
        number += 1
        suffix = " %d" % number
        candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate


class Device:
    """One row of the devices table (times are wall-clock seconds, None until they happen)."""

    __slots__ = ("id", "role", "name", "via", "address", "created", "status", "code", "expires",
                 "joined", "last_seen", "revoked")
    id: str
    role: str
    name: str
    via: str
    address: str
    created: float
    status: str
    code: str | None
    expires: float | None
    joined: float | None
    last_seen: float | None
    revoked: float | None

    def __init__(self, *row):
        for slot, value in zip(self.__slots__, row):
            setattr(self, slot, value)

    @property
    def active(self):
        return self.status == "joined"

    def as_dict(self):
        out = {"id": self.id, "role": self.role, "name": self.name, "via": self.via,
               "address": self.address, "status": self.status, "created": iso(self.created),
               "joined": iso(self.joined), "last_seen": iso(self.last_seen), "revoked": iso(self.revoked)}
        if self.status == "waiting":
            out["code"] = self.code
            out["expires"] = iso(self.expires)
        return out

    def __repr__(self):
        return "<Device %s %s %s %r>" % (self.id, self.role, self.status, self.name)


_COLUMNS = "SELECT " + ", ".join(Device.__slots__) + " FROM devices "


class Devices:
    """The registry. Writes take a short connection of their own and, when they check then
    change, run under BEGIN IMMEDIATE; reads share one connection kept open (``_read``). Callers
    are the panel's worker threads and the dial listener; ``close`` lets the kept one go."""

    def __init__(self, path, clock=time.time):
        self.path = Path(path)
        self.clock = clock
        self._lock = threading.Lock()  # one writer at a time inside this process
        self._reader: sqlite3.Connection | None = None
        self._reading = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise StoreError("the devices file %s can't use WAL (got %s)" % (self.path, mode))
                for statement in SCHEMA:
                    db.execute(statement)
                self._note_hosts(db)
        except (OSError, sqlite3.Error) as e:
            raise StoreError("can't open the devices file %s: %s" % (self.path, e)) from None

    @contextmanager
    def _connect(self):
        with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as db:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            yield db

    @contextmanager
    def _read(self):
        """The connection kept for reads. A joined tablet's every change asks for its device
        (web_ui/security.py, current_viewer), and opening a connection for it cost about 0.5 ms of
        CPU here, a tenth of a move's (docs/benchmarks.md). Each read fetches all its rows, so its
        statement ends and no read transaction outlives it: the next read sees every commit since,
        this process's and another's (``newsdesk host-link`` writes tokens while the panel runs)."""
        with self._reading:
            if self._reader is None:
                self._reader = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
                self._reader.execute("PRAGMA query_only=ON")
            yield self._reader

    def close(self):
        """Let the kept read connection go (a later read opens it again)."""
        with self._reading:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    @contextmanager
    def _write(self):
        """A transaction that holds the write lock from its first read (BEGIN IMMEDIATE)."""
        with self._lock, self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            self._note_hosts(db)

    def _note_hosts(self, db):
        self._hosts = frozenset(row[0] for row in db.execute(
            "SELECT id FROM devices WHERE role = 'host' AND status = 'joined'"))

    def host_ids(self):
        """The joined host devices' ids, from memory: the panel's event loop asks this for every
        request (to keep the host's lane free) and must never wait on the disk. Every change to
        the devices goes through _write, which notes them again; only one server runs on a data
        folder (controller/runlock.py), so no other process changes them."""
        return self._hosts

    def _now(self):
        return float(self.clock())

    @staticmethod
    def _lapse(db, now):
        """Waiting codes past their time lapse; long-dead rows go."""
        db.execute("UPDATE devices SET status = 'lapsed', code = NULL WHERE status = 'waiting' AND expires <= ?",
                   (now,))
        db.execute("DELETE FROM tokens WHERE expires <= ? AND (used IS NULL OR used <= ?)",
                   (now - KEEP_PAST, now - KEEP_PAST))
        db.execute("DELETE FROM devices WHERE status = 'lapsed' AND created <= ? "
                   "AND id NOT IN (SELECT device FROM tokens WHERE device IS NOT NULL)", (now - KEEP_PAST,))

    @staticmethod
    def _new_id(db):
        while True:
            device_id = secrets.token_hex(6)
            if db.execute("SELECT 1 FROM devices WHERE id = ?", (device_id,)).fetchone() is None:
                return device_id

    # -- invitations (QR code) ------------------------------------------------------------

    def issue_token(self, role, made_by, ttl=TOKEN_TTL):
        """A new single-use token for ``role``; returns (token, expires). Only its hash is kept."""
        if role not in ROLES:
            raise BadRequest("role must be \"host\" or \"player\", got %r" % (role,))
        token = secrets.token_urlsafe(24)
        now = self._now()
        with self._write() as db:
            self._lapse(db, now)
            db.execute("INSERT INTO tokens (hash, role, created, expires, made_by) VALUES (?, ?, ?, ?, ?)",
                       (token_hash(token), role, now, now + ttl, made_by))
        return token, now + ttl

    def invitation(self, invite):
        """("waiting" | "used" | "expired", the name of the device that used it or None) of the
        invitation ``invite`` (invite_id), or None for none the host made (or one a day past)."""
        if not (isinstance(invite, str) and len(invite) == INVITE_DIGITS
                and all(c in "0123456789abcdef" for c in invite)):
            return None
        with self._read() as db:
            row = db.execute("SELECT t.used, t.expires, d.name FROM tokens t LEFT JOIN devices d ON d.id = t.device "
                             "WHERE t.hash >= ? AND t.hash < ? LIMIT 1", (invite, invite + "g")).fetchone()
        if row is None:
            return None
        used, expires, device = row
        if used is not None:
            return "used", device
        return ("expired" if expires <= self._now() else "waiting"), None

    def redeem(self, token, name, address, replace=None):
        """Spend ``token``: a new joined device with its role, called ``name`` or, if another
        device goes by that, ``name`` numbered. ``replace``: the id of the device this browser was
        until now (given up once it joined again), whose name is no clash. JoinRefused if the
        token can't be used."""
        if not isinstance(token, str) or not 16 <= len(token) <= 100:
            raise JoinRefused("That join link is not one the host made; ask the host for a new QR code.",
                              "unknown")
        now = self._now()
        with self._write() as db:
            self._lapse(db, now)
            row = db.execute("SELECT role, expires, used FROM tokens WHERE hash = ?",
                             (token_hash(token),)).fetchone()
            if row is None:
                raise JoinRefused("That join link is not one the host made; ask the host for a new QR code.",
                                  "unknown")
            role, expires, used = row
            if used is not None:
                raise JoinRefused("That QR code was already used (each works once); ask the host for a new one.",
                                  "used")
            if expires <= now:
                raise JoinRefused("That QR code expired (they last ten minutes); ask the host for a new one.",
                                  "expired")
            device_id = self._new_id(db)
            db.execute("INSERT INTO devices (id, role, name, via, address, created, status, joined, last_seen) "
                       "VALUES (?, ?, ?, 'token', ?, ?, 'joined', ?, ?)",
                       (device_id, role, _free_name(db, name, replace), address, now, now, now))
            db.execute("UPDATE tokens SET used = ?, device = ? WHERE hash = ?", (now, device_id, token_hash(token)))
        return self.device(device_id)

    # -- dialing in (the phone) -----------------------------------------------------------

    def request_dial(self, name, address, replace=None, ttl=DIAL_TTL):
        """A waiting device with a fresh code to dial. ``replace``: the id of this browser's
        earlier waiting device, withdrawn first.

        One code waits per address (a new one replaces it) and at most MAX_WAITING in all. When
        all are taken, the oldest that has waited DIAL_HOLD seconds gives way, so a flood of
        requests can hold a genuine device back DIAL_HOLD seconds at most, and can't take its
        code from it sooner. JoinRefused("busy") while every waiting code is younger."""
        now = self._now()
        with self._write() as db:
            self._lapse(db, now)
            if replace is not None:
                db.execute("UPDATE devices SET status = 'lapsed', code = NULL WHERE id = ? AND status = 'waiting'",
                           (replace,))
            db.execute("UPDATE devices SET status = 'lapsed', code = NULL WHERE address = ? AND status = 'waiting'",
                       (address,))
            taken = {r[0] for r in db.execute("SELECT code FROM devices WHERE status = 'waiting'")}
            if len(taken) >= MAX_WAITING:
                oldest = db.execute("SELECT id, code, created FROM devices WHERE status = 'waiting' "
                                    "ORDER BY created, id LIMIT 1").fetchone()
                if oldest[2] > now - DIAL_HOLD:
                    raise JoinRefused("%d devices are already waiting for their codes to be dialed; try again "
                                      "in %d seconds, or scan the host's QR code."
                                      % (len(taken), int(oldest[2] + DIAL_HOLD - now) + 1), "busy")
                db.execute("UPDATE devices SET status = 'lapsed', code = NULL WHERE id = ?", (oldest[0],))
                taken.discard(oldest[1])
            code = None
            while code is None or code in taken:
                code = "%0*d" % (CODE_DIGITS, secrets.randbelow(10 ** CODE_DIGITS))
            device_id = self._new_id(db)
            db.execute("INSERT INTO devices (id, role, name, via, address, created, status, code, expires) "
                       "VALUES (?, 'player', ?, 'dial', ?, ?, 'waiting', ?, ?)",
                       (device_id, _free_name(db, name), address, now, code, now + ttl))
        return self.device(device_id)

    def complete_dial(self, code):
        """The waiting device whose code this is becomes a joined player; None if none waits."""
        now = self._now()
        with self._write() as db:
            self._lapse(db, now)
            row = db.execute("SELECT id FROM devices WHERE status = 'waiting' AND code = ?", (code,)).fetchone()
            if row is None:
                return None
            db.execute("UPDATE devices SET status = 'joined', code = NULL, expires = NULL, joined = ?, "
                       "last_seen = ? WHERE id = ?", (now, now, row[0]))
        return self.device(row[0])

    def waiting_codes(self):
        """The codes waiting to be dialed now."""
        now = self._now()
        with self._read() as db:
            return [r[0] for r in db.execute("SELECT code FROM devices WHERE status = 'waiting' AND expires > ?",
                                             (now,)).fetchall()]

    def waiting_count(self):
        now = self._now()
        with self._read() as db:
            return db.execute("SELECT COUNT(*) FROM devices WHERE status = 'waiting' AND expires > ?",
                              (now,)).fetchall()[0][0]

    def withdraw_waiting(self):
        """Every waiting code lapses (too many wrong codes were dialed). Returns how many."""
        with self._write() as db:
            return db.execute("UPDATE devices SET status = 'lapsed', code = NULL "
                              "WHERE status = 'waiting'").rowcount

    def cancel(self, device_id):
        """A waiting device gives up its code (the browser asked for another or left)."""
        with self._write() as db:
            db.execute("UPDATE devices SET status = 'lapsed', code = NULL WHERE id = ? AND status = 'waiting'",
                       (device_id,))

    # -- the devices ----------------------------------------------------------------------

    def device(self, device_id):
        """The device with this id (any status, waiting ones lapsed on time), or None."""
        if not isinstance(device_id, str):
            return None
        now = self._now()
        with self._read() as db:
            rows = db.execute(_COLUMNS + "WHERE id = ?", (device_id,)).fetchall()
        if not rows:
            return None
        device = Device(*rows[0])
        if device.status == "waiting" and device.expires <= now:
            device.status, device.code = "lapsed", None
        return device

    def list(self, include_past=False):
        """Joined and waiting devices, newest first; with ``include_past`` also revoked and lapsed."""
        now = self._now()
        with self._write() as db:
            self._lapse(db, now)
        where = "" if include_past else "WHERE status IN ('joined', 'waiting') "
        with self._read() as db:
            return [Device(*r) for r in db.execute(_COLUMNS + where + "ORDER BY created DESC, id").fetchall()]

    def revoke(self, device_id):
        """The device may no longer change anything; its cookie is worthless from now on."""
        now = self._now()
        with self._write() as db:
            row = db.execute("SELECT status FROM devices WHERE id = ?", (device_id,)).fetchone()
            if row is None:
                raise UnknownDevice("No device %r is known here; GET /api/devices lists them." % (device_id,))
            if row[0] != "revoked":
                db.execute("UPDATE devices SET status = 'revoked', code = NULL, revoked = ? WHERE id = ?",
                           (now, device_id))
        return self.device(device_id)

    def rename(self, device_id, name):
        """The device is called ``name`` from now on, numbered if another device goes by it."""
        name = clean_name(name)
        with self._write() as db:
            if db.execute("UPDATE devices SET name = ? WHERE id = ?",
                          (_free_name(db, name, device_id), device_id)).rowcount == 0:
                raise UnknownDevice("No device %r is known here." % (device_id,))
        return self.device(device_id)

    def touch(self, device):
        """Note that ``device`` was just used (written at most once a minute)."""
        now = self._now()
        if device.last_seen is not None and now - device.last_seen < TOUCH_EVERY:
            return
        with self._write() as db:
            db.execute("UPDATE devices SET last_seen = ? WHERE id = ?", (now, device.id))
        device.last_seen = now
