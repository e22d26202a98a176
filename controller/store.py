"""The durable store: an append-only log of events in SQLite, and the games kept in it.

WAL with synchronous=FULL, and every write is committed before it returns, so anything the
panel has acknowledged survives a power cut. State is derived from the events; nothing is
updated in place except a game's closing line (its status, winners and final table), which is
written once, in the same transaction as the event that announces it.

Tables (schema 2):

    events        every stored event, in order; what a tablet's stream replays by id
    games         one row per game: engine, players, options, status, and once it ended, the
                  winners and the final table
    game_entries  a game's history: version 1, 2, 3 ... per game, each entry as base.fold
                  expects, its idempotency key, and the id of the event that announced it

A game entry is written with BEGIN IMMEDIATE: the idempotency key and the version the request
was made on are checked, the entry and its event are inserted, and the transaction commits,
all before the call returns.
"""

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path

from . import events
from .dbshape import Shape, difference, made_by, shape_of
from .errors import BadRequest, Conflict, StoreError
from .plain_json import MOST_NESTING, shown
from .walcheck import read_log

log = logging.getLogger(__name__)

STORE_FILE = "newsdesk.sqlite3"   # the store's file name in the data folder
DEVICES_FILE = "devices.sqlite3"  # and the joined devices' database beside it (controller/devices.py keeps it)
ACKED = "-acked"                  # beside the store: the last event id it acknowledged (see AckedMark)
SCHEMA_VERSION = 2
REPLACED_PREFIX = "replaced-"     # beside the store: what a restore replaced, kept (controller/backup.py)

# Each step takes a file from the version before it to its own; a file opens at whatever
# version it was left and runs the steps after it, each in one transaction.
MIGRATIONS = {
    1: (
        """CREATE TABLE IF NOT EXISTS events (
            id      INTEGER PRIMARY KEY AUTOINCREMENT,
            at      TEXT NOT NULL,
            kind    TEXT NOT NULL,
            payload TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS events_kind ON events (kind, id)",
    ),
    2: (
        """CREATE TABLE games (
            id       INTEGER PRIMARY KEY AUTOINCREMENT,
            engine   TEXT NOT NULL,
            options  TEXT NOT NULL,
            players  TEXT NOT NULL,
            created  TEXT NOT NULL,
            status   TEXT NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'abandoned')),
            ended    TEXT,
            winners  TEXT,
            final    TEXT,
            end_key  TEXT UNIQUE
        )""",
        # at most one game is being played at the table at a time
        "CREATE UNIQUE INDEX games_one_active ON games (status) WHERE status = 'active'",
        """CREATE TABLE game_entries (
            game     INTEGER NOT NULL REFERENCES games (id),
            version  INTEGER NOT NULL CHECK (version >= 1),
            entry    TEXT NOT NULL,
            key      TEXT UNIQUE,
            event    INTEGER NOT NULL UNIQUE REFERENCES events (id),
            created  TEXT NOT NULL,
            PRIMARY KEY (game, version)
        )""",
    ),
}

MAX_KEY = 200

_shapes: dict[int, Shape] = {}


def store_shape(version: int) -> Shape:
    """The tables and columns a store at schema ``version`` holds: what the migrations up to it
    make (controller/dbshape.py says why it is worked out rather than listed)."""
    if version not in _shapes:
        _shapes[version] = made_by(s for step in range(1, version + 1) for s in MIGRATIONS.get(step, ()))
    return _shapes[version]


# The store's columns that hold JSON, each read back with json.loads and used as this kind of
# value (the schema at which the table first exists, table, column, JSON type, NULL allowed).
JSON_COLUMNS = ((1, "events", "payload", "object", False),
                (2, "games", "options", "object", False), (2, "games", "players", "array", False),
                (2, "games", "winners", "array", True), (2, "games", "final", "object", True),
                (2, "game_entries", "entry", "object", False))
MOST_VALUE = 4 << 20    # bytes of one JSON value: newsdesk's are a few KB (a request is at most 64 KB)
PYTHON_FROM = 1000      # bytes: a shorter JSON value can't nest or hold a number past what Python's json reads


def rows_problem(db: sqlite3.Connection, version: int) -> str | None:
    """None if every JSON value of the open store ``db`` (at schema ``version``) is one the store
    can read back as what it uses it for; else which row is not, in words. A shape check can't
    see a row's contents: a backup holding a game whose players are not JSON, or an event of 100
    MB, would pass it and then fail every page that reads that row. (Each value is looked at in
    SQLite's C: a whole store's worth takes about as long as its integrity check.)

    A value of at most MOST_VALUE bytes that SQLite's json_valid refuses is looked at again as
    the store reads it, with Python's json: an earlier newsdesk stored NaN and Infinity (Python's
    json writes and reads them; no other reader does), and the backups of a box holding such a
    game must still restore. Only those come into Python, as bytes: a larger one, or one that
    is no JSON at all, is refused in SQLite's C, before a byte of it is copied. (json_valid
    takes bytes that are no UTF-8 inside a string: backup.utf8_problem reads every text for them.)"""
    for since, table, column, kind, nullable in JSON_COLUMNS:
        if version < since:
            continue
        fits = "typeof(\"%s\") = 'text' AND length(CAST(\"%s\" AS BLOB)) <= ?" % (column, column)
        # a column that may be NULL may also hold JSON's null, which reads back as None too: a game
        # abandoned while it could not be resumed (its plug-in uninstalled) is kept with no final table
        suspects = db.execute(
            "SELECT rowid, CASE WHEN %s THEN CAST(\"%s\" AS BLOB) END FROM \"%s\" WHERE %s COALESCE(CASE WHEN %s "
            "AND json_valid(\"%s\") THEN json_type(\"%s\") END, '') NOT IN (?, ?)"
            % (fits, column, table, "\"%s\" IS NOT NULL AND" % column if nullable else "", fits, column, column),
            (MOST_VALUE, MOST_VALUE, kind, "null" if nullable else kind))
        for rowid, raw in suspects:
            if not _read_back_as(raw, kind):
                return "its table %s has a row (%d) whose %s is not a JSON %s of at most %d MB" % (
                    table, rowid, column, kind, MOST_VALUE >> 20)
        # what SQLite's JSON takes and Python's json doesn't, or only shallower in the stack than
        # where the box reads it: an integer past 4,300 digits, nesting a thousand deep. Either
        # needs a value of PYTHON_FROM bytes at least; newsdesk's own nest a few levels
        long_ones = db.execute(
            "SELECT rowid, CAST(\"%s\" AS BLOB) FROM \"%s\" WHERE %s AND length(CAST(\"%s\" AS BLOB)) >= ? "
            "AND json_valid(\"%s\")" % (column, table, fits, column, column), (MOST_VALUE, PYTHON_FROM))
        for rowid, raw in long_ones:
            if not _read_back_as(raw, kind, MOST_NESTING):
                return ("its table %s has a row (%d) whose %s is not a JSON %s newsdesk reads (nested past %d levels, "
                        "or a number of more digits than Python's json takes)" % (table, rowid, column, kind,
                                                                                  MOST_NESTING))
    return None


def _read_back_as(raw, kind, most_depth=None):
    """Whether the store's json.loads reads ``raw`` (a text value's bytes, None when it is no
    text of at most MOST_VALUE bytes) as a JSON ``kind`` ("object", "array"), nested at most
    ``most_depth`` levels if given."""
    if raw is None:
        return False
    try:
        found = json.loads(bytes(raw).decode("utf-8"))
    except (ValueError, RecursionError):     # UnicodeDecodeError is a ValueError
        return False
    if most_depth is not None and _depth(found) > most_depth:
        return False
    return isinstance(found, dict if kind == "object" else list)


def _depth(value):
    """How deep ``value`` (parsed JSON) nests, counted without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def shape_problem(db, version):
    """None if the open database ``db`` has the shape of a store at schema ``version``; else
    what is wrong with it, in words."""
    return difference(shape_of(db), store_shape(version))


def last_good(path):
    """The newest store a restore replaced and kept beside ``path`` (replaced-<time>/), or None."""
    path = Path(path)
    try:
        folders = sorted((p for p in path.parent.iterdir() if p.name.startswith(REPLACED_PREFIX)),
                         key=lambda p: p.stat().st_mtime)
    except OSError:
        return None
    for folder in reversed(folders):
        if (folder / path.name).is_file():
            return folder / path.name
    return None


def way_back(path):
    """The clause saying how to put the last good store back in the place of ``path``: from the
    newest replaced-<time>/ folder a restore kept, else from a backup."""
    path = Path(path)
    good = last_good(path)
    if good is not None:
        return ("the last good one is kept in %s: with newsdesk stopped, move %s and its -wal and -shm files "
                "aside and copy %s* from that folder into %s (or restore a backup: newsdesk restore FILE)"
                % (good.parent, path.name, good.name, path.parent))
    return ("with newsdesk stopped, move %s and its -wal and -shm files aside and restore a backup "
            "(newsdesk restore FILE), or start with no store" % path.name)


def wrong_shape(path, version, problem):
    """The sentence refusing the store ``path`` that is not a newsdesk store at ``version``, with
    the way back to the last good one."""
    return ("the store %s is not a newsdesk store at schema %d (%s), so newsdesk won't open it; %s"
            % (path, version, problem, way_back(path)))


class StaleVersion(Conflict):
    """An action was made on a version of the game that is no longer the newest."""

    def __init__(self, message, game, expected, current):
        super().__init__(message)
        self.game = game
        self.expected = expected
        self.current = current

    def details(self):
        return {"stale": True, "game": self.game, "version": self.current}


class GameNotActive(Conflict):
    """An action names a game that is not being played (unknown, finished or abandoned)."""


class GameInPlay(Conflict):
    """A new game was asked for while another is still being played."""

    def __init__(self, game_id, engine):
        super().__init__("game #%d (%s) is still being played; finish or abandon it before starting another"
                         % (game_id, engine))


class KeyReused(BadRequest):
    """An idempotency key came back with a different request than the one it was first used for."""

    status = 422


class StoredEvent:
    """One row of the events table: its id (what a page's Last-Event-ID names), when, its kind
    (controller/events.py) and its data. Not a game's rule event (games.base.Event, a dict kept
    inside a game entry): this is the log's own line, which announces such an entry among others."""

    __slots__ = ("id", "at", "kind", "payload")

    def __init__(self, id, at, kind, payload):
        self.id = id
        self.at = at
        self.kind = kind
        self.payload = payload

    def as_dict(self):
        return {"id": self.id, "at": self.at, "type": self.kind, "data": self.payload}


class Entry:
    """One stored step of a game. ``repeat`` is True when the key had already been used and
    this is the entry that request wrote the first time."""

    __slots__ = ("game", "version", "entry", "key", "event_id", "created", "repeat")

    def __init__(self, game, version, entry, key, event_id, created, repeat=False):
        self.game = game
        self.version = version
        self.entry = entry
        self.key = key
        self.event_id = event_id
        self.created = created
        self.repeat = repeat


class GameRecord:
    """A games row, with ``version``: the number of entries it holds. Not a game's declaration
    (games.game.Game, its rules): this is one game played, as the store keeps it."""

    __slots__ = ("id", "engine", "options", "players", "created", "status", "ended", "winners",
                 "final", "end_key", "version", "repeat")

    def __init__(self, id, engine, options, players, created, status, ended, winners, final,
                 end_key, version, repeat=False):
        self.id = id
        self.engine = engine
        self.options = options
        self.players = players
        self.created = created
        self.status = status
        self.ended = ended
        self.winners = winners
        self.final = final
        self.end_key = end_key
        self.version = version
        self.repeat = repeat


_GAME_COLUMNS = ("SELECT g.id, g.engine, g.options, g.players, g.created, g.status, g.ended, g.winners, "
                 "g.final, g.end_key, (SELECT COALESCE(MAX(version), 0) FROM game_entries "
                 "WHERE game = g.id) FROM games g ")


def _game(row):
    return GameRecord(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5], row[6],
                None if row[7] is None else json.loads(row[7]),
                None if row[8] is None else json.loads(row[8]), row[9], row[10])


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _dumps(value):
    """``value`` as the store keeps it: plain JSON only. A float JSON can't carry (Python writes
    NaN and Infinity, which no JSON reader takes back) is refused whatever brings it: stored, it
    made every later backup of the store fail its check."""
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except ValueError:
        raise BadRequest("that holds a number JSON can't carry (NaN or Infinity): nothing was stored") from None


def check_key(key):
    """Refuse an idempotency key that isn't a short string (None means "no key")."""
    if key is None:
        return None
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY:
        if isinstance(key, str) and not key.strip():
            sent = "an empty one" if not key else "one of blanks only"
        else:
            sent = repr(key if not isinstance(key, str) or len(key) <= 40 else key[:40] + "...")
        raise BadRequest("an idempotency key is a non-empty string of at most %d characters, not %s" % (MAX_KEY, sent))
    return key


def check_store(path):
    """Raise StoreError with one sentence if SQLite finds the store damaged; the file is opened
    read-only, so a damaged store is left exactly as it was found (for copying aside, or repair).
    A missing file is fine: the server creates it."""
    path = Path(path)
    if not path.exists():
        return
    try:
        db = sqlite3.connect("%s?mode=ro" % path.resolve().as_uri(), uri=True)
    except sqlite3.Error as e:
        raise StoreError("can't open the store %s: %s" % (path, e)) from None
    try:
        found = "; ".join(r[0] for r in db.execute("PRAGMA quick_check").fetchall())
    except sqlite3.Error as e:
        found = str(e)
    finally:
        db.close()
    if found != "ok":
        raise StoreError("the store %s is damaged (SQLite says: %s); it was left untouched: %s"
                         % (path, found[:200], way_back(path)))


class AckedMark:
    """The last event id the store acknowledged, in a small file beside it, so a start can tell a
    log that came back shorter than it was (a lost tail: acknowledged changes gone, which SQLite
    itself can't know).

    Written after each commit without an fsync, on purpose: the commit's own fsync already put
    the change on the disk, so a mark that survives a power cut never names a change that didn't,
    and a mark that is lost is only lower (no false alarm). It moves with the store: a restore
    takes it aside with the old store's log (backup.SQLITE_COMPANIONS).

    Why a fixed-length record with a checksum, rewritten whole in one write from its first byte:
    a write torn inside its sector by a power cut mixes the old record's bytes with the new one's
    ("29" over a store holding 20 would be a lost tail that never happened), and a file longer
    than the record would keep a stale tail. A torn, overlong or hand-made mark fails its length
    or its checksum: it is told apart from a lost tail, said once, and written again from the
    store; the file is cut to the record's length whenever it is opened."""

    FORMAT = b"newsdesk acked %020d crc32 %08x\n"
    SIZE = len(FORMAT % (0, 0))         # 51 bytes: well inside one sector
    OLD_SIZE = 21                       # the plain number of newsdesk before the record (read, then rewritten)

    def __init__(self, store_path):
        self.path = Path(str(store_path) + ACKED)
        self._fd = None

    @classmethod
    def record(cls, last_id):
        """The mark's bytes for ``last_id``."""
        digits = b"%020d" % last_id
        return cls.FORMAT % (last_id, zlib.crc32(digits))

    def read(self):
        """(the id the mark names, None) when it reads whole; (0, why not) when it is there and
        can't be read; (0, None) when there is none (a new store)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return 0, None
        except OSError as e:
            return 0, "it can't be read (%s)" % (e.strerror or e)
        if len(raw) == self.OLD_SIZE and raw.endswith(b"\n") and raw.strip().isdigit():
            return 0, "it is in the format of an older newsdesk"
        if len(raw) != self.SIZE:
            return 0, "it is %d bytes long, not %d (torn by a power cut, or written by something else)" % (
                len(raw), self.SIZE)
        try:
            last_id = int(raw[15:35])
        except ValueError:
            last_id = -1
        if last_id < 0 or raw != self.record(last_id):
            return 0, "its checksum doesn't match (a write torn by a power cut, or an edit)"
        return last_id, None

    def open(self):
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            os.ftruncate(self._fd, self.SIZE)       # no stale tail past the record, ever
        except OSError as e:
            log.warning("can't keep the store's acknowledged mark %s (%s): a lost log tail would go unnoticed",
                        self.path, e.strerror or e)

    def note(self, last_id):
        if self._fd is not None:
            try:
                os.pwrite(self._fd, self.record(last_id), 0)
            except OSError:
                pass        # the write itself succeeded; only the check at the next start is weaker

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def keep_damaged(path, clock=time.time):
    """Copy the store and its log, as found, into a folder beside it (``damaged-<UTC time>``),
    each file synced, before SQLite checkpoints anything away; the folder's path."""
    path = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clock()))
    folder = path.parent / ("damaged-" + stamp)
    n = 1
    while folder.exists():
        n += 1
        folder = path.parent / ("damaged-%s-%d" % (stamp, n))
    folder.mkdir()
    for suffix in ("", "-wal", "-shm"):
        source = Path(str(path) + suffix)
        if source.exists():
            target = folder / source.name
            shutil.copyfile(source, target)
            with open(target, "rb+") as f:
                os.fsync(f.fileno())
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return folder


def log_damage(path, clock=time.time):
    """None if the store's write-ahead log replays whole; else the sentence for the host, once the
    damaged files are kept aside (controller/walcheck.py says why SQLite alone would say nothing)."""
    path = Path(path)
    try:
        reading = read_log(Path(str(path) + "-wal").read_bytes())
    except (FileNotFoundError, NotADirectoryError):
        return None     # no log (or no folder: opening the store says so)
    if not reading.damaged:
        return None
    try:
        kept = "the files as found are kept in %s" % keep_damaged(path, clock)
    except OSError as e:
        kept = "they could not be kept aside (%s): copy %s and its -wal file somewhere safe now" % (
            e.strerror or e, path)
    return ("The store's log was damaged: %d saved changes after the damage could not be read and are "
            "missing from this table; %s. %s" % (reading.lost_commits, kept, COMPARE_FIRST))


COMPARE_FIRST = ("Before going back to a backup, compare: with newsdesk stopped, newsdesk restore FILE (without "
                 "--yes) says what the backup holds and what this store holds, and asks; a backup made before "
                 "the last games here would drop them (docs/hardware.md, Backups, and moving to a new card).")


class Store:
    """One SQLite file; one connection for writes under a lock (writes are few and small), and one
    for reads under a lock of its own: in WAL mode a read sees the last committed state without
    waiting for a write, so pages keep answering while a write waits on a slow or frozen disk."""

    STUCK_AFTER = 2.0    # seconds a write may take before the health strip says the disk is stuck

    def __init__(self, path, clock=time.monotonic):
        self.path = Path(path)
        self._clock = clock
        self._writing_since = None
        self._inserted = None
        self._read_db = None
        self._mark = AckedMark(self.path)
        acked, unread = self._mark.read() if self.path.exists() else (0, None)     # a store deleted on purpose starts anew
        try:
            # before SQLite opens the log (and a later checkpoint folds what it could read away)
            self.damage = log_damage(self.path)
        except OSError as e:
            raise StoreError("can't read the store's log beside %s: %s" % (self.path, e.strerror or e)) from None
        if self.damage:
            log.warning("%s", self.damage)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise StoreError("can't open the store %s: %s" % (self.path, e)) from None
        self._lock = threading.Lock()
        try:
            self._db.execute("PRAGMA busy_timeout=5000")
            self._check_shape()
            mode = self._enter_wal()
            if mode.lower() != "wal":
                raise StoreError("the store %s can't use WAL (got %s)" % (self.path, mode))
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._read_db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._read_db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as e:
            self._close_connections()
            raise StoreError("can't set up the store %s: %s" % (self.path, e)) from None
        except StoreError:
            self._close_connections()
            raise
        self._read_lock = threading.Lock()
        last = self.last_id()
        if unread:      # said once: it is written whole again below
            log.warning("the store's mark of acknowledged changes %s could not be used: %s; it is written again "
                        "from the store (changes up to #%d), so a log tail lost before this start can't be "
                        "told", self._mark.path, unread, last)
        if acked > last and not self.damage:
            self.damage = self._shorter(acked, last)
            log.warning("%s", self.damage)
        self._mark.open()
        self._mark.note(last)

    def _shorter(self, acked, last):
        """The sentence for a log that came back shorter than it was, once its files are kept: what
        the mark claimed, what the store still holds, and how to compare before restoring."""
        try:
            kept = "the files as found are kept in %s" % keep_damaged(self.path)
        except OSError as e:
            kept = "they could not be kept aside (%s)" % (e.strerror or e)
        return ("The store came back shorter than it was: its mark says changes up to #%d were acknowledged, and "
                "it holds changes up to #%d (%d missing: the disk lost the end of its log); it still holds %s; "
                "%s. %s" % (acked, last, acked - last, self._holds(), kept, COMPARE_FIRST))

    def _holds(self):
        """What the store holds, in words: its kept games (and when the last ended) and its events."""
        with self._reading() as db:
            games, ended = db.execute("SELECT count(*), max(ended) FROM games WHERE status != 'active'").fetchone()
            events = db.execute("SELECT count(*) FROM events").fetchone()[0]
        return "%d kept game%s%s and %d event%s" % (games, "" if games == 1 else "s",
                                                   " (the last ended %s)" % ended[:10] if ended else "",
                                                   events, "" if events == 1 else "s")

    def _close_connections(self):
        for db in (self._read_db, self._db):
            if db is not None:
                db.close()

    def _enter_wal(self, timeout=5.0):
        """Switch the file to WAL, waiting out another connection that holds it.

        SQLite answers ``PRAGMA journal_mode=WAL`` with "database is locked" at once, without
        calling the busy handler, when another connection is switching the same file or
        recovering its WAL at that moment (two servers, or the migration test, opening an old
        file together). So the switch is retried here for as long as busy_timeout would wait.
        """
        deadline = time.monotonic() + timeout
        delay = 0.002
        while True:
            try:
                return self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                    raise
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def _check_shape(self):
        """Refuse a file that is not a newsdesk store at the schema it claims (a stranger's SQLite
        file, the devices file) before anything is written to it, even the switch to WAL: read in
        one transaction, so a migration another process commits meanwhile is seen whole or not
        at all. A newer schema is left to _migrate, which says so."""
        self._db.execute("BEGIN")
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            problem = shape_problem(self._db, version) if version <= SCHEMA_VERSION else None
        finally:
            self._db.execute("COMMIT")
        if problem:
            raise StoreError(wrong_shape(self.path, version, problem))

    def _migrate(self):
        while True:
            # the version is read inside the write lock, so two processes opening an old file at
            # once don't both run the same step
            self._db.execute("BEGIN IMMEDIATE")
            try:
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError("the store %s was written by a newer newsdesk (schema %d); "
                                     "update newsdesk to open it" % (self.path, version))
                if version < SCHEMA_VERSION:
                    for statement in MIGRATIONS[version + 1]:
                        self._db.execute(statement)
                    self._db.execute("PRAGMA user_version=%d" % (version + 1))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            if version >= SCHEMA_VERSION:
                return

    def close(self):
        """Fold the write-ahead log into the file and close it (a stopped server leaves one file)."""
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass        # closing still checkpoints what it can
            with self._read_lock:
                self._close_connections()
        self._mark.close()

    # ------------------------------------------------------------ writing

    def _write(self, work):
        """Run ``work()`` in one BEGIN IMMEDIATE transaction and commit before returning its result."""
        with self._lock:
            self._writing_since = self._clock()
            try:
                return self._write_now(work)
            finally:
                self._writing_since = None

    def write_stuck_for(self):
        """Seconds the write in progress has taken, when past STUCK_AFTER; else None."""
        since = self._writing_since
        if since is None:
            return None
        took = self._clock() - since
        return took if took > self.STUCK_AFTER else None

    def _write_now(self, work):
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise StoreError("can't write to the store %s: %s" % (self.path, e)) from None
        self._inserted = None       # the id of the last event this transaction adds, if it adds one
        try:
            result = work()
            self._db.execute("COMMIT")
        except BaseException as e:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass        # the failed COMMIT may already have ended the transaction
            if isinstance(e, sqlite3.Error):
                raise StoreError("can't write to the store %s: %s" % (self.path, e)) from None
            raise
        if self._inserted is not None:
            self._mark.note(self._inserted)
        return result

    def _insert_event(self, at, kind, payload):
        cur = self._db.execute("INSERT INTO events (at, kind, payload) VALUES (?, ?, ?)",
                               (at, kind, _dumps(payload)))
        self._inserted = cur.lastrowid
        return StoredEvent(cur.lastrowid, at, kind, payload)

    def append(self, kind, payload):
        """Append and commit one event; returns it with its id. Raises StoreError if not durable."""
        at = _now()
        return self._write(lambda: self._insert_event(at, kind, payload))

    def start_game(self, engine, players, options, setup_entry, key=None):
        """Create a game and its first entry (version 1); returns (GameRecord, Entry, StoredEvent or None).

        With a key already used to start a game, nothing is written and that game comes back
        with ``repeat`` set. Refused (BadRequest) while another game is being played.
        """
        key = check_key(key)
        at = _now()

        def work():
            if key is not None:
                found = self._entry_by_key(key)
                if found is not None:
                    if found.version != 1:
                        raise KeyReused("the request key %r was already used for a move in game #%d, "
                                        "not to start a game; send a new key" % (key, found.game))
                    found.repeat = True
                    game = self._game_row(found.game)
                    game.repeat = True
                    return game, found, None
            active = self._active()
            if active is not None:
                raise GameInPlay(active.id, active.engine)
            cur = self._db.execute(
                "INSERT INTO games (engine, options, players, created) VALUES (?, ?, ?, ?)",
                (engine, _dumps(options), _dumps(players), at))
            game_id = cur.lastrowid
            event = self._insert_event(at, events.GAME_STARTED, {"game": game_id, "engine": engine, "version": 1,
                                                          "players": players, "options": options,
                                                          "said": setup_entry.get("said", "")})
            self._db.execute("INSERT INTO game_entries (game, version, entry, key, event, created) "
                             "VALUES (?, 1, ?, ?, ?, ?)", (game_id, _dumps(setup_entry), key, event.id, at))
            return (self._game_row(game_id), Entry(game_id, 1, setup_entry, key, event.id, at), event)

        return self._write(work)

    def append_entry(self, game_id, expected_version, entry, key=None):
        """Append ``entry`` as version ``expected_version + 1`` of the game; returns (Entry, StoredEvent).

        In one transaction: a key already used returns the entry it wrote (``repeat`` set, no
        StoredEvent, nothing written); a game not being played is refused (GameNotActive); a game
        no longer at ``expected_version`` is refused (StaleVersion). Committed before returning.
        """
        key = check_key(key)
        at = _now()

        def work():
            if key is not None:
                found = self._entry_by_key(key)
                if found is not None:
                    if found.game != game_id:
                        raise KeyReused("the request key %r was already used in game #%d; send a new key"
                                        % (key, found.game))
                    found.repeat = True
                    return found, None
            game = self._game_row(game_id)
            if game is None or game.status != "active":
                raise GameNotActive("game #%s is %s; start a game or pick the one being played"
                                    % (game_id, "not in the store" if game is None else game.status))
            if game.version != expected_version:
                raise StaleVersion("game #%d is at version %d, not %s: someone else acted first; look "
                                   "again and retry" % (game_id, game.version, expected_version),
                                   game_id, expected_version, game.version)
            version = expected_version + 1
            event = self._insert_event(at, events.GAME_CHANGED, {"game": game_id, "engine": game.engine,
                                                          "version": version, "kind": entry.get("type"),
                                                          "said": entry.get("said", "")})
            self._db.execute("INSERT INTO game_entries (game, version, entry, key, event, created) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (game_id, version, _dumps(entry), key, event.id, at))
            return Entry(game_id, version, entry, key, event.id, at), event

        return self._write(work)

    def end_game(self, game_id, expected_version, status, winners=None, final=None, key=None):
        """Close a game as finished or abandoned, with its winners and final table; returns
        (GameRecord, StoredEvent or None). A key already used to close a game returns that game
        unchanged."""
        if status not in events.GAME_ENDED:
            raise ValueError("a game ends finished or abandoned, not %r" % (status,))
        key = check_key(key)
        at = _now()

        def work():
            if key is not None:
                row = self._db.execute(_GAME_COLUMNS + "WHERE g.end_key = ?", (key,)).fetchone()
                if row is not None:
                    game = _game(row)
                    game.repeat = True
                    return game, None
            game = self._game_row(game_id)
            if game is None or game.status != "active":
                raise GameNotActive("game #%s is %s, so it can't be %s"
                                    % (game_id, "not in the store" if game is None else "already " + game.status,
                                       status))
            if game.version != expected_version:
                raise StaleVersion("game #%d is at version %d, not %s: someone else acted first; look "
                                   "again and retry" % (game_id, game.version, expected_version),
                                   game_id, expected_version, game.version)
            event = self._insert_event(at, events.GAME_ENDED[status], {"game": game_id, "engine": game.engine,
                                                                "version": game.version, "status": status,
                                                                "winners": winners})
            # the final table in words where it holds a number JSON can't carry (an earlier version's
            # store): a game carrying one can still be finished or abandoned
            self._db.execute("UPDATE games SET status = ?, ended = ?, winners = ?, final = ?, end_key = ? "
                             "WHERE id = ?", (status, at, _dumps(winners), _dumps(shown(final)), key, game_id))
            return self._game_row(game_id), event

        return self._write(work)

    # ------------------------------------------------------------ reading

    @contextlib.contextmanager
    def _reading(self):
        """The read connection: the last committed state, never waiting for a write."""
        with self._read_lock:
            yield self._read_db

    def _entry_by_key(self, key, db=None):
        row = (db or self._db).execute("SELECT game, version, entry, key, event, created FROM game_entries "
                               "WHERE key = ?", (key,)).fetchone()
        return None if row is None else Entry(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5])

    def _game_row(self, game_id, db=None):
        row = (db or self._db).execute(_GAME_COLUMNS + "WHERE g.id = ?", (game_id,)).fetchone()
        return None if row is None else _game(row)

    def _active(self, db=None):
        row = (db or self._db).execute(_GAME_COLUMNS + "WHERE g.status = 'active'").fetchone()
        return None if row is None else _game(row)

    def entry_by_key(self, key):
        with self._reading() as db:
            return self._entry_by_key(key, db)

    def game(self, game_id):
        with self._reading() as db:
            return self._game_row(game_id, db)

    def game_by_end_key(self, key):
        """The game a request with this key finished or abandoned, or None."""
        with self._reading() as db:
            row = db.execute(_GAME_COLUMNS + "WHERE g.end_key = ?", (key,)).fetchone()
        return None if row is None else _game(row)

    def active_game(self):
        """The game being played, or None."""
        with self._reading() as db:
            return self._active(db)

    def games(self, statuses=("finished", "abandoned"), limit=100):
        """Games with one of ``statuses``, the newest first."""
        marks = ", ".join("?" for _ in statuses)
        with self._reading() as db:
            rows = db.execute(_GAME_COLUMNS + "WHERE g.status IN (%s) ORDER BY g.id DESC LIMIT ?" % marks,
                                    (*statuses, limit)).fetchall()
        return [_game(r) for r in rows]

    def entries(self, game_id):
        """A game's entries, version 1 first."""
        with self._reading() as db:
            rows = db.execute("SELECT game, version, entry, key, event, created FROM game_entries "
                                    "WHERE game = ? ORDER BY version", (game_id,)).fetchall()
        return [Entry(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5]) for r in rows]

    def _rows(self, sql, args):
        with self._reading() as db:
            rows = db.execute(sql, args).fetchall()
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def since(self, after_id, limit=500):
        """Events after ``after_id``, oldest first: how a device that slept catches up."""
        return self._rows("SELECT id, at, kind, payload FROM events WHERE id > ? ORDER BY id LIMIT ?",
                          (after_id, limit))

    def latest(self, kind, limit=1):
        """The newest ``limit`` events of ``kind``, newest first."""
        return self._rows("SELECT id, at, kind, payload FROM events WHERE kind = ? ORDER BY id DESC LIMIT ?",
                          (kind, limit))

    def last_id(self):
        with self._reading() as db:
            row = db.execute("SELECT MAX(id) FROM events").fetchone()
        return row[0] or 0

    def integrity(self):
        """SQLite's own check of the file: "ok", or what it found."""
        with self._reading() as db:
            rows = db.execute("PRAGMA integrity_check").fetchall()
        return "; ".join(r[0] for r in rows)
