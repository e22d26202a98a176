"""The durable store: an append-only log of events in SQLite.

WAL with synchronous=FULL, and every append is committed before it returns, so anything the
panel has acknowledged survives a power cut. State is derived from the events; nothing is
updated in place.
"""

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

from .errors import StoreError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, id);
"""


class Event:
    __slots__ = ("id", "at", "kind", "payload")

    def __init__(self, id, at, kind, payload):
        self.id = id
        self.at = at
        self.kind = kind
        self.payload = payload

    def as_dict(self):
        return {"id": self.id, "at": self.at, "type": self.kind, "data": self.payload}


class Store:
    """One SQLite file; one connection shared under a lock (writes are few and small)."""

    def __init__(self, path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise StoreError("can't open the store %s: %s" % (self.path, e)) from None
        self._lock = threading.Lock()
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StoreError("the store %s can't use WAL (got %s)" % (self.path, mode))
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError("the store %s was written by a newer newsdesk (schema %d)" % (self.path, version))
            self._db.executescript(SCHEMA)
            self._db.execute("PRAGMA user_version=%d" % SCHEMA_VERSION)
        except sqlite3.Error as e:
            self._db.close()
            raise StoreError("can't set up the store %s: %s" % (self.path, e)) from None
        except StoreError:
            self._db.close()
            raise

    def close(self):
        with self._lock:
            self._db.close()

    def append(self, kind, payload):
        """Append and commit one event; returns it with its id. Raises StoreError if not durable."""
        at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True)
        with self._lock:
            try:
                cur = self._db.execute("INSERT INTO events (at, kind, payload) VALUES (?, ?, ?)",
                                       (at, kind, text))
            except sqlite3.Error as e:
                raise StoreError("can't write to the store %s: %s" % (self.path, e)) from None
        return Event(cur.lastrowid, at, kind, payload)

    def _rows(self, sql, args):
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [Event(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def since(self, after_id, limit=500):
        """Events after ``after_id``, oldest first: how a device that slept catches up."""
        return self._rows("SELECT id, at, kind, payload FROM events WHERE id > ? ORDER BY id LIMIT ?",
                          (after_id, limit))

    def latest(self, kind, limit=1):
        """The newest ``limit`` events of ``kind``, newest first."""
        return self._rows("SELECT id, at, kind, payload FROM events WHERE kind = ? ORDER BY id DESC LIMIT ?",
                          (kind, limit))

    def last_id(self):
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM events").fetchone()
        return row[0] or 0
