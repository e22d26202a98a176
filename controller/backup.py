"""Backups of the data folder, and restores that a power cut can't leave half done.

What ends a Raspberry Pi's data is most often its SD card, and then every kept game, the joined
devices and the phone's profile go with it. ``newsdesk backup`` writes all of it into one file
to keep elsewhere (a USB stick); ``newsdesk restore`` puts it back, on this box or a new card.

The file (format 1) is a zip (docs/hardware.md says the same for people):

    manifest.json       {"format": "newsdesk-backup", "format_version": 1, "newsdesk": "0.1.0",
                         "schema": 2, "created": "2026-11-26T22:18:07Z", "with_secret": false,
                         "store": {"games": 12, "events": 3400, ...},
                         "files": {"newsdesk.sqlite3": {"sha256": "...", "bytes": 40960}, ...}}
    newsdesk.sqlite3    the store: a consistent snapshot, one file (no write-ahead log beside it)
    devices.sqlite3     the joined devices, likewise                       (when there are any)
    config.toml         the settings                                       (when there is one)
    dial-profiles.json  the phone's dial profiles                          (when there are any)
    secret_key          the panel's key, only with --with-secret

Why the online backup API, in steps, inside one read transaction: the panel may be running. In
WAL mode a reader never blocks the writer, so the table's moves go on being committed while the
copy is made; the read transaction pins one snapshot (the copy is of one moment, never half a
move, and a move committed meanwhile doesn't restart it), and the steps hand the processor back
between them, so a Pi Zero's one busy core still serves the panel.

Why a restore goes through a journal: it replaces several files, and a power cut between two
renames must not leave the new store beside the old devices. The backup is unpacked and checked
whole into a staging folder inside the data folder (same disk: renames, not copies), each file
synced; then a small journal naming the files is written (the commit point); then each old file
is moved into ``replaced-<time>/`` and the new one renamed into its place, the folders synced
after each rename. A start that finds the journal (``finish_restore``) does what is left; a
start that finds only a staging folder (a cut before the commit) throws it away. Either way the
box opens whole, with the old data or the new.

A restore is two halves with the question between them: ``stage`` (unpacked and checked whole,
nothing else touched; it answers what would be replaced) and ``commit`` (the journal). The
command asks on the terminal and swaps at once; the panel (web_ui/backups.py) asks the host on
the tablet, commits, and has ``serve`` restart, whose start swaps (``finish_restore``), because
the running panel holds the files open.
"""

import collections
import contextlib
import hashlib
import importlib.metadata
import io
import json
import lzma
import os
import re
import shutil
import socket
import sqlite3
import stat
import struct
import time
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from . import events
from .dbshape import difference, made_by, shape_of
from .devices import NAME_MAX as DEVICE_NAME_MAX, SCHEMA as DEVICES_SCHEMA, devices_shape
from .dial.profile import PROFILE_FILE
from .errors import ConfigError, NewsdeskError
from .plain_file import NotPlainFile, open_plain
from .printable import escaped
from .store import (
    ACKED,
    DEVICES_FILE,
    MIGRATIONS,
    REPLACED_PREFIX,
    SCHEMA_VERSION,
    STORE_FILE,
    rows_problem,
    store_shape,
)

FORMAT = "newsdesk-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
CONFIG_FILE = "config.toml"          # config.py's settings file
SECRET_FILE = "secret_key"           # web_ui's key for signing sessions
DATABASES = (STORE_FILE, DEVICES_FILE)
MEMBERS = (STORE_FILE, DEVICES_FILE, CONFIG_FILE, PROFILE_FILE, SECRET_FILE)   # what a backup may hold
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal", ACKED)   # ACKED: the store's mark goes with its store

STEP_PAGES = 256        # pages copied per step (1 MB at SQLite's 4 KB pages)
STEP_PAUSE = 0.002      # seconds handed back to the panel between steps

NAME_PREFIX = "newsdesk-backup-"
NAME_PATTERN = re.compile(r"^newsdesk-backup-\d{8}T\d{6}Z(-\d+)?\.zip$")
STAGING = ".restore-staging"        # in the data folder: the backup's files, checked, before the swap
JOURNAL = "restore-journal.json"    # in the data folder while a restore swaps files: its commit record

StrPath = str | os.PathLike[str]
T = TypeVar("T")
Clock = Callable[[], float]
Manifest = dict[str, Any]          # manifest.json, as JSON reads it
Summary = dict[str, Any]           # summarize's figures, or {"unreadable": why}
Step = Callable[[str], None]


class BackupError(NewsdeskError):
    """A backup can't be made, read or restored; the sentence says why and what to do."""


class BadBackup(BackupError):
    """The file is not a backup this newsdesk can restore (not one, damaged, incomplete): the
    file's fault, not the box's, so the panel answers it as a bad request."""

    status = 400


class NewerBackup(BadBackup):
    """The backup was made by a newer newsdesk: its store's schema is past what this one reads."""

    status = 422


def newsdesk_version() -> str:
    """newsdesk's version, from the installed package's metadata (pyproject.toml is its one home)."""
    try:
        return importlib.metadata.version("newsdesk")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def utc_stamp(clock: Clock = time.time) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clock()))


def default_name(clock: Clock = time.time) -> str:
    """The backup's file name when none is given: sorts by time, and rotation recognises it."""
    return "%s%s.zip" % (NAME_PREFIX, utc_stamp(clock))


# ------------------------------------------------------------------ the pure part: manifests and words

def build_manifest(files: Mapping[str, tuple[str, int]], schema: int | None, store: Summary | None, with_secret: bool,
                   version: str, created: str) -> Manifest:
    """The manifest for ``files`` ({name: (sha256 hex, bytes)}) and the store's ``schema`` and
    summary ``store`` (see summarize)."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "newsdesk": version, "schema": schema,
            "created": created, "with_secret": with_secret, "store": store,
            "files": {name: {"sha256": digest, "bytes": size} for name, (digest, size) in sorted(files.items())}}


def manifest_problem(manifest: object, names: list[str], where: str) -> str | None:
    """One sentence on what makes ``manifest`` (read from the backup ``where``, whose zip holds
    ``names``) unusable, or None. A newer format or schema is NewerBackup's sentence, raised by
    the caller, so it is said first and alone."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return "%s is not a newsdesk backup (its manifest.json doesn't say so)" % where
    files = manifest.get("files")
    schema = manifest.get("schema")
    if not isinstance(files, dict) or STORE_FILE not in files or not isinstance(schema, int) or isinstance(schema, bool):
        return "%s is damaged: its manifest.json names no store or no schema version" % where
    fmt = manifest.get("format_version", 0)
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        return "%s is damaged: its manifest.json's format_version is not a whole number" % where
    if schema < 1:      # an empty file is a store at schema 0: restored, it would be a box with nothing kept
        return "%s is not a backup to restore: its store is at schema %d, before any newsdesk store" % (where, schema)
    for name, facts in files.items():
        if name not in MEMBERS:
            return "%s holds %r, which is not a file newsdesk keeps: it is not a backup to restore" % (where, name)
        if not isinstance(facts, dict) or not isinstance(facts.get("sha256"), str):
            return "%s is damaged: its manifest.json has no checksum for %s" % (where, name)
        size = facts.get("bytes")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return "%s is damaged: its manifest.json has no size for %s" % (where, name)
        if name not in names:
            return "%s is damaged: its manifest.json lists %s, but the file is not in it" % (where, name)
    extra = sorted(set(names) - set(files) - {MANIFEST})
    if extra:
        return "%s holds %s, which its manifest.json doesn't list: it is not a backup to restore" % (
            where, ", ".join(escaped(name) for name in extra))
    return None


def said(value: object, otherwise: str, most: int = 40) -> str:
    """A fact of the manifest that is only ever shown (who made it, when): ``value`` when it is a
    short line of text, else ``otherwise``; a stranger's file never puts its junk into a sentence."""
    if isinstance(value, str) and 0 < len(value) <= most and value.isprintable():
        return value
    return otherwise


def newer_sentence(manifest: Manifest, where: str) -> str | None:
    """The one sentence refusing a backup from a newer newsdesk, or None if this one can read it."""
    update = "update newsdesk (git pull && make install) before restoring it"
    made_by = said(manifest.get("newsdesk"), "unknown")
    # the same release number on both sides: a newer commit of it (the number moves with releases)
    if made_by == newsdesk_version():
        made_by = "a newer commit of %s" % made_by
    fmt, schema = manifest.get("format_version", 0), manifest.get("schema", 0)
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA_VERSION:
        return ("%s was made by a newer newsdesk (%s, store schema %s; this is %s, which reads schema %d): %s"
                % (where, made_by, _count(schema), newsdesk_version(), SCHEMA_VERSION, update))
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT_VERSION:
        return ("%s was written in backup format %s by %s; this newsdesk (%s) reads format %d only: %s"
                % (where, _count(fmt), made_by if made_by.startswith("a newer") else "newsdesk " + made_by,
                   newsdesk_version(), FORMAT_VERSION, update))
    return None


def _count(n: int) -> str:
    """A number from a stranger's manifest (a version, a file's size), as a sentence may show it:
    a long one is not repeated digit by digit (a 4,000-digit "schema" was echoed whole)."""
    return str(n) if n < 10 ** 9 else "past any newsdesk's"


def describe(summary: Summary | None) -> str:
    """A store's summary (see summarize) in words: "12 kept games (the last ended 2026-11-20), a
    game being played, 3400 events"."""
    if summary is None:
        return "no store"
    if "unreadable" in summary:
        return "a store SQLite can't read (%s)" % summary["unreadable"]
    parts = []
    kept = summary.get("games", 0)
    if kept:
        last = summary.get("last_ended")
        parts.append("%d kept game%s%s" % (kept, "" if kept == 1 else "s",
                                            " (the last ended %s)" % last[:10] if last else ""))
    else:
        parts.append("no kept games")
    if summary.get("active"):
        parts.append("a game being played")
    parts.append("%d event%s" % (summary.get("events", 0), "" if summary.get("events", 0) == 1 else "s"))
    return ", ".join(parts)


def replacing_words(here: Summary | None, backup: Summary | None, manifest: Manifest, files_here: list[str],
                    where: str, data_dir: StrPath, began: tuple[str | None, str | None] = (None, None),
                    more: Iterable[str | None] = ()) -> str | None:
    """What a restore will replace, in words, for the question the host answers; None if it
    replaces nothing (an empty data folder: a new card). ``began`` is when the store here and
    the backup's began (see store_began): when both are known and differ, the backup is another
    table's, and the question says so first."""
    replaced = [name for name in manifest["files"] if name in files_here]
    if not replaced:
        return None
    kept = [name for name in files_here if name not in manifest["files"]]
    ours, theirs = began
    # the backup by its name, or as the panel names an upload whose name it can't show ("the
    # uploaded file", not "the backup the uploaded file")
    named = where if where.startswith("the ") else "the backup " + where
    other = ""
    if ours is not None and theirs is not None and ours != theirs:
        other = ("%s is another table's: its store began %s, and this table's began %s. "
                 % (named[:1].upper() + named[1:], theirs[:16].replace("T", " "), ours[:16].replace("T", " ")))
    made = said(manifest.get("created"), "at an unknown time"), said(manifest.get("newsdesk"), "unknown")
    text = other + ("The data folder %s has %s; %s (made %s by newsdesk %s) has %s. Restoring replaces "
            "%s with the backup's" % (escaped(str(data_dir)), describe(here), named, *made, describe(backup),
                                      ", ".join(replaced)))
    if kept:        # each named as the secret key is: a reader sees which of the box's own files stay
        text += ", and leaves %s" % ", and ".join("%s as it is (the backup has none)" % name for name in kept)
    for clause in more:         # what it does to the settings (left_out_words, settings_words)
        if clause:
            text += "; " + clause
    return text + "; what it replaces is kept in a replaced-<time> folder beside the store."


def _made(name: str) -> tuple[str, int]:
    """A backup's name as (its time, its number within that second) for sorting."""
    m = NAME_PATTERN.match(name)
    assert m is not None
    return name[len(NAME_PREFIX):len(NAME_PREFIX) + 16], int((m.group(1) or "-1")[1:])


def backups_in(names: Iterable[str]) -> list[str]:
    """Of the file ``names`` in a folder, the backups newsdesk named, oldest first."""
    return sorted((n for n in names if NAME_PATTERN.match(n)), key=_made)


def free_name(names: Iterable[str], clock: Clock = time.time) -> str:
    """default_name, numbered (-2, -3 ...) if ``names`` already hold it (two backups in one second)."""
    name = default_name(clock)
    n = 1
    while name in names:
        n += 1
        name = "%s%s-%d.zip" % (NAME_PREFIX, utc_stamp(clock), n)
    return name


def to_rotate(names: Iterable[str], keep: int) -> list[str]:
    """Which of the folder's backups go so that the newest ``keep`` stay."""
    found = backups_in(names)
    return found[:-keep] if keep > 0 else found


# ------------------------------------------------------------------ files

def _sync_dir(path: StrPath) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_file(path: StrPath) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def _sha256(path: StrPath) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    """``text`` under ``path``: written to a temporary name, synced, renamed, the folder synced."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _sync_dir(path.parent)


def _rw_uri(path: StrPath) -> str:
    """A URI that makes and opens ``path`` for writing (beside _ro_uri on a connection that takes URIs)."""
    return "%s?mode=rwc" % Path(path).resolve().as_uri()


def _ro_uri(path: StrPath) -> str:
    return "%s?mode=ro" % Path(path).resolve().as_uri()


def _read_only(path: StrPath, read: Callable[[sqlite3.Connection], T]) -> T:
    """``read(db)`` on the store at ``path`` opened read-only, closed after; sqlite3.Error passes."""
    db = sqlite3.connect(_ro_uri(path), uri=True)
    try:
        return read(db)
    finally:
        db.close()


def summarize(path: StrPath) -> Summary | None:
    """The store at ``path`` in figures: kept games, a game being played, events, when the last
    game ended. None if there is no store; {"unreadable": why} if SQLite can't read it. Read-only."""
    def read(db: sqlite3.Connection) -> Summary:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        summary: Summary = {"games": 0, "active": False, "last_ended": None, "events": 0}
        if "events" in tables:
            summary["events"] = db.execute("SELECT count(*) FROM events").fetchone()[0]
        if "games" in tables:
            row = db.execute("SELECT count(*), max(ended) FROM games WHERE status != 'active'").fetchone()
            summary["games"], summary["last_ended"] = row[0], row[1]
            summary["active"] = db.execute("SELECT count(*) FROM games WHERE status = 'active'").fetchone()[0] > 0
        return summary

    if not Path(path).exists():
        return None
    try:
        return _read_only(path, read)
    except sqlite3.Error as e:      # a damaged store is what a restore is for: said, not refused
        return {"unreadable": str(e)}


def store_began(path: StrPath) -> str | None:
    """When the store at ``path`` began: its first event's time. The log is append-only, so a
    store restored from this table's own backup began when this one did, and another table's
    store began at another moment: how a restore tells another table's backup. None when there
    is no store, no event or it can't be read."""
    if not Path(path).exists():
        return None
    try:
        row = _read_only(path, lambda db: db.execute("SELECT at, kind, payload FROM events ORDER BY id LIMIT 1")
                         .fetchone())
    except sqlite3.Error:
        return None
    return None if row is None else "%s %s %s" % row


def snapshot(source: StrPath, target: StrPath, pages: int = STEP_PAGES, pause: float = STEP_PAUSE,
             progress: Callable[[int, int], object] | None = None) -> int:
    """Copy the SQLite database ``source`` into the new file ``target`` with the online backup API,
    ``pages`` at a time, inside one read transaction (the module's docstring says why); the copy
    is made a single file (no WAL), checked with integrity_check, and synced. Returns its
    user_version (the schema). ``progress(remaining, total)`` is called between steps."""
    try:
        src = sqlite3.connect(source, isolation_level=None)
    except sqlite3.Error as e:
        raise BackupError("can't open %s to back it up: %s" % (source, e)) from None
    try:
        src.execute("PRAGMA busy_timeout=5000")
        dst = sqlite3.connect(target, isolation_level=None)
        try:
            src.execute("BEGIN")
            src.execute("SELECT count(*) FROM sqlite_master").fetchone()   # the read snapshot starts here

            def step(status: int, remaining: int, total: int) -> None:
                if progress is not None:
                    progress(remaining, total)
                time.sleep(pause)

            src.backup(dst, pages=pages, progress=step)
            src.execute("COMMIT")
            dst.execute("PRAGMA journal_mode=DELETE")
            found = "; ".join(r[0] for r in dst.execute("PRAGMA integrity_check").fetchall())
            if found != "ok":
                raise BackupError("%s is damaged (SQLite says: %s), so it can't be backed up whole; newsdesk "
                                  "doctor says more" % (source, found[:200]))
            schema: int = dst.execute("PRAGMA user_version").fetchone()[0]
        finally:
            dst.close()
    except sqlite3.Error as e:
        raise BackupError("can't back up %s: %s" % (source, e)) from None
    finally:
        src.close()
    _sync_file(target)
    return schema


def check_database(path: Path, where: str, claimed: int | None = None) -> int | None:
    """The shape of a database unpacked from a backup, then its integrity_check: the store's
    shape against the schema ``claimed`` (the manifest's), the devices file's against its own (a
    stranger's SQLite file, or the devices file put in as the store, is refused here, before it
    is in place to stop the box from starting). Returns its user_version."""
    shape, rows, found = None, None, "ok"
    try:
        db = sqlite3.connect(_ro_uri(path), uri=True)
        try:
            db.execute("PRAGMA ignore_check_constraints=ON")    # a stranger's CHECK is not run (rebuild drops it)
            version: int | None = db.execute("PRAGMA user_version").fetchone()[0]
            shape = shape_of(db)
            ours = ((path.name == STORE_FILE and version == claimed and not difference(shape, store_shape(claimed or 0)))
                    or (path.name == DEVICES_FILE and not difference(shape, devices_shape())))
            # The integrity check only once the shape is newsdesk's: it works out each index's
            # expression and each generated column for every row, and a stranger's (a statement of
            # a few bytes building a 100 MB string per row, in a 5 KB backup) held it for hours.
            # A shape that isn't newsdesk's is refused below in its own words.
            if ours:
                found = "; ".join(r[0] for r in db.execute("PRAGMA integrity_check").fetchall())
            if ours and found == "ok":
                # the rows, on the same connection: JSON first (the games' check reads it), then
                # what the box resumes and the pages show
                if path.name == STORE_FILE:
                    rows = (rows_problem(db, claimed or 0) or ids_problem(db, shape) or utf8_problem(db, shape)
                            or ((claimed or 0) >= 2 and games_problem(db)) or texts_problem(db, shape)
                            or kinds_problem(db) or None)
                else:
                    rows = devices_problem(db) or utf8_problem(db, shape) or texts_problem(db, shape)
        finally:
            db.close()
    except sqlite3.Error as e:
        found, version, shape = str(e), None, None
    if found != "ok" or shape is None:
        raise BadBackup("%s is damaged: its %s fails SQLite's integrity check (%s); nothing was changed"
                        % (where, path.name, _why(Exception(found))))
    if path.name == STORE_FILE:
        if version != claimed:
            raise BadBackup("%s is damaged: its store is at schema %s, its manifest says %s; nothing was changed"
                            % (where, version, claimed))
        if shape == devices_shape():
            raise BadBackup("%s is not a backup to restore: its %s is a devices file (the joined devices), not "
                            "the store; nothing was changed" % (where, STORE_FILE))
        problem = difference(shape, store_shape(claimed or 0))
    else:
        problem = difference(shape, devices_shape())
    if problem:
        raise BadBackup("%s is not a backup to restore: its %s is not newsdesk's %s (%s); nothing was changed"
                        % (where, path.name, "store at schema %s" % claimed if path.name == STORE_FILE
                           else "devices file", problem))
    if rows:
        raise BadBackup("%s is not a backup to restore: %s; nothing was changed" % (where, rows.replace(
            "its table", "its %s's table" % path.name, 1)))
    if path.name == STORE_FILE:
        rebuild(path, [s for step in range(1, (claimed or 0) + 1) for s in MIGRATIONS.get(step, ())], claimed or 0,
                where)
    else:
        rebuild(path, DEVICES_SCHEMA, None, where)
    return version


MOST_ID = 2 ** 53          # a row id past any store's: at 2**63 - 1 the next write is "database or disk is full"
YEARS = (1970, 9000)       # a time's year the pages can show (a Pi without its clock set reads 1970)


def kinds_problem(db: sqlite3.Connection) -> str | None:
    """None if every event's kind is one of the table's vocabulary (controller/events.py); else
    which row's is not. Each stored event goes, kind and all, to every tablet catching up and to
    the MQTT bridge: a kind of megabytes came through whole."""
    known = sorted(events.ALL)
    bad = db.execute('SELECT rowid, substr(kind, 1, 40), length(kind) FROM events WHERE kind NOT IN (%s) LIMIT 1'
                     % ", ".join("?" * len(known)), known).fetchone()
    if bad:
        return "its table events has a row (%d) whose kind %s%s is no kind of event the box keeps" % (
            bad[0], escaped(json.dumps(bad[1], ensure_ascii=False)), " (%d characters)" % bad[2] if bad[2] > 40 else "")
    return None


def ids_problem(db: sqlite3.Connection, shape: Mapping[Any, Any]) -> str | None:
    """None if every id of the store (whose tables are ``shape``'s) is one the box can go on
    from; else which table's is not. An event at id 2**63 - 1 came through the copy with the
    counter at its end, and every write after it was "database or disk is full"; a store at
    schema 1 (events only, no games) is judged the same."""
    for table, column in (("events", "id"), ("games", "id"), ("game_entries", "event")):
        if table not in shape:
            continue
        low, high = db.execute('SELECT min("%s"), max("%s") FROM "%s"' % (column, column, table)).fetchone()
        if low is not None and not (isinstance(low, int) and isinstance(high, int) and 1 <= low and high <= MOST_ID):
            return "its table %s has %s ids outside 1 to %d" % (table, column if column != "id" else "row", MOST_ID)
    return None


def games_problem(db: sqlite3.Connection) -> str | None:
    """None if every game of the store is one the box can resume and the history's pages can
    show; else which is not, in words. The JSON check sees a value's kind, not what the pages
    take from it: players ``[]``, a time that isn't one, a final table's standings that aren't
    rows, an undo of a move not in force, versions that skip each passed it and answered every
    history page with a 500, locked the table, or stopped the box at every start. (Names are not
    judged here as a start judges them: an earlier newsdesk's may be looser, and the pages show
    any text.)"""
    for game_id, engine, players, created, ended, winners, final in db.execute(
            "SELECT id, engine, players, created, ended, winners, final FROM games ORDER BY id"):
        why = _game_row_problem(engine, json.loads(players), created, ended,
                                None if winners is None else json.loads(winners),
                                None if final is None else json.loads(final))
        if why is None:
            why = _entries_problem(db, game_id)
        if why:
            return "its table games has a row (%d) the box can't resume or show: %s" % (game_id, why)
    return None


def _game_row_problem(engine: object, people: Any, created: object, ended: object, winners: Any,
                      final: Any) -> str | None:
    if not isinstance(engine, str) or not engine.isascii() or not engine.isidentifier() or len(engine) > 64:
        return "its game's name is not a game's name (a word of letters, digits and _)"
    if not people or not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in people):
        return "its players are not a list of players, each with a name"
    if not all(p.get("team") is None or isinstance(p["team"], str) for p in people):
        return "its players' teams are not names"
    if winners is not None and not all(isinstance(w, str) for w in winners):
        return "its winners are not a list of names"
    for column, value in (("created", created), ("ended", ended)):
        if value is None and column == "ended":
            continue
        if not _a_time(value):
            return "its %s is not a time with its UTC offset, in the years %d to %d" % (column, *YEARS)
    if final is not None:
        rows = final.get("standings")
        # each row as newsdesk has always kept it: {"name", "score", "winner"} (the history's
        # statistics, its CSV and BG Stats exports read all three; a row without its winner
        # answered them with a 500)
        if rows is not None and not (isinstance(rows, list) and all(
                isinstance(r, dict) and isinstance(r.get("name"), str) and "winner" in r and "score" in r
                and (r["score"] is None or isinstance(r["score"], (int, float))) for r in rows)):
            return "its final table's standings are not rows, each with a name, a score and whether it won"
        sides = final.get("teams")      # player -> side: the end card's places tell partners apart by it
        if sides is not None and not (isinstance(sides, dict) and all(isinstance(v, str) for v in sides.values())):
            return "its final table's teams are not each player's side, by name"
        if final.get("view") is not None and not isinstance(final.get("view"), dict):
            return "its final table's view is not one"
        if final.get("winners") is not None and not (isinstance(final["winners"], list)
                                                     and all(isinstance(w, str) for w in final["winners"])):
            return "its final table's winners are not a list of names"
    return None


def _a_time(value: object) -> bool:
    """Whether ``value`` is a time the pages can show: ISO 8601 with its offset, in YEARS (at
    9999 with -14:00 the local time overflows)."""
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return False
    return when is not None and when.tzinfo is not None and YEARS[0] <= when.year <= YEARS[1]


def _entries_problem(db: sqlite3.Connection, game_id: int) -> str | None:
    """A game's entries as the box takes them: versions 1, 2, 3 ... with none skipped (the table
    is locked at a version it can never be shown at otherwise), each entry's events a list, its
    time text, and every undo and redo taking back or putting back a move that can be."""
    from .history import stacks

    entries = []
    for n, (version, entry, created) in enumerate(db.execute(
            "SELECT version, entry, created FROM game_entries WHERE game = ? ORDER BY version", (game_id,)), 1):
        if version != n or isinstance(version, bool):
            return "its moves are not numbered 1, 2, 3 ... (move %d is %r)" % (n, version)
        if not isinstance(created, str):
            return "its move %d's time is not text" % n
        move = json.loads(entry)
        if not isinstance(move.get("events", []), list):
            return "its move %d's events are not a list" % n
        entries.append((version, move))
    try:
        stacks(entries)
    except (ValueError, TypeError, KeyError):
        return "an undo or redo among its moves names a move that can't be taken back or put back"
    return None


# Longer than any address (an IPv6 one with its zone), device id, dial code or token hash the box
# makes: what a devices file may hold in those columns
TOKEN_MOST = 128


def devices_problem(db: sqlite3.Connection) -> str | None:
    """None if every time in the devices file is one the host's list can show; a text, a blob or
    1e308 where a time goes answered the devices page with a 500 (the host couldn't list or
    revoke a device)."""
    most = datetime(YEARS[1], 1, 1, tzinfo=timezone.utc).timestamp()
    for table, columns in (("devices", ("created", "expires", "joined", "last_seen", "revoked")),
                           ("tokens", ("created", "expires", "used"))):
        for column in columns:
            bad = db.execute('SELECT rowid FROM "%s" WHERE "%s" IS NOT NULL AND (typeof("%s") NOT IN '
                             "('integer', 'real') OR \"%s\" < 0 OR \"%s\" > ?) LIMIT 1"
                             % (table, column, column, column, column), (most,)).fetchone()
            if bad:
                return "its table %s has a row (%d) whose %s is not a time" % (table, bad[0], column)
    # the host's list of devices shows each name, address and id whole: one of megabytes came
    # through, and was sent to every host page that listed the devices
    for table, column, most in (("devices", "name", DEVICE_NAME_MAX), ("devices", "address", TOKEN_MOST),
                                ("devices", "id", TOKEN_MOST), ("devices", "code", TOKEN_MOST),
                                ("tokens", "hash", TOKEN_MOST), ("tokens", "made_by", TOKEN_MOST),
                                ("tokens", "device", TOKEN_MOST)):
        bad = db.execute('SELECT rowid, length("%s") FROM "%s" WHERE length("%s") > ? LIMIT 1'
                         % (column, table, column), (most,)).fetchone()
        if bad:
            return "its table %s has a row (%d) whose %s is %d characters long, past the %d the box makes" % (
                table, bad[0], column, bad[1], most)
    return None


def utf8_problem(db: sqlite3.Connection, shape: Mapping[Any, Any]) -> str | None:
    """None if every text of the database (whose tables are ``shape``'s) is UTF-8 Python reads;
    else which row's is not. SQLite stores what it is handed as text, and its JSON check takes
    bytes that are no UTF-8 inside a string: an event's payload holding one came through, and
    every read of the events after it ("Could not decode to UTF-8") failed, a tablet catching up
    among them. Each text is read as bytes and decoded, row by row."""
    for table, columns in shape.items():
        if not isinstance(table, str):
            continue
        for column in (c[0] for c in columns if c[1] == "TEXT"):
            for rowid, raw in db.execute('SELECT rowid, CAST("%s" AS BLOB) FROM "%s" WHERE typeof("%s") = \'text\''
                                         % (column, table, column)):
                try:
                    bytes(raw).decode("utf-8")
                except UnicodeDecodeError:
                    return "its table %s has a row (%d) whose %s is not UTF-8 text" % (table, rowid, column)
    return None


def texts_problem(db: sqlite3.Connection, shape: Mapping[Any, Any]) -> str | None:
    """None if each column ``shape`` declares TEXT holds text (or NULL) in every row; else which
    row does not. The copy into newsdesk's own schema keeps a blob as it is, and the box hands
    these values to JSON: a blob as an event's time or kind stopped every tablet catching up
    from before it, and one as a device's name or address answered the host's list of devices
    with a 500 (the host couldn't list or revoke a device)."""
    for table, columns in shape.items():
        if not isinstance(table, str):
            continue
        for column in (c[0] for c in columns if c[1] == "TEXT"):
            bad = db.execute('SELECT rowid FROM "%s" WHERE "%s" IS NOT NULL AND typeof("%s") != \'text\' LIMIT 1'
                             % (table, column, column)).fetchone()
            if bad:
                return "its table %s has a row (%d) whose %s is not text" % (table, bad[0], column)
    return None


def rebuild(path: Path, statements: Iterable[str], version: int | None, where: str) -> None:
    """The database unpacked at ``path`` copied, row by row, into a new file made by newsdesk's
    own schema ``statements``, which then takes its place (``version``: its user_version, or
    None when the statements set it). The shape check compares a stranger's file with newsdesk's
    by its tables' columns and its other objects' statements; what it can't see in a table's own
    statement stays behind in that file: a CHECK that refuses the box's next write, a foreign key
    to no table, a collation, an AUTOINCREMENT counter at its end. The
    file restored is newsdesk's own, and each row goes through its constraints on the way in (a
    row they refuse is BadBackup, said in one sentence)."""
    fresh = path.with_name(path.name + ".rebuilt")
    with contextlib.suppress(FileNotFoundError):
        fresh.unlink()
    try:
        db = sqlite3.connect(_rw_uri(fresh), uri=True, isolation_level=None)
        try:
            db.execute("PRAGMA trusted_schema=OFF")         # its views and triggers call no function
            db.execute("ATTACH DATABASE ? AS theirs", (_ro_uri(path),))
            db.execute("BEGIN")
            for statement in statements:
                db.execute(statement)
            for table, columns in made_by_tables(statements):
                names = ", ".join('"%s"' % c for c in columns)
                try:
                    db.execute('INSERT INTO main."%s" (%s) SELECT %s FROM theirs."%s" ORDER BY rowid'
                               % (table, names, names, table))
                except sqlite3.IntegrityError as e:
                    raise BadBackup("%s is not a backup to restore: its %s's table %s has a row newsdesk's schema "
                                    "refuses (%s); nothing was changed" % (where, path.name, table, _why(e))) from None
            dangling = db.execute("PRAGMA main.foreign_key_check").fetchone()
            if dangling:
                raise BadBackup("%s is not a backup to restore: its %s's table %s has a row (%s) that names a row "
                                "of its table %s that isn't there; nothing was changed" % (
                                    where, path.name, dangling[0], dangling[1], dangling[2]))
            if version is not None:
                db.execute("PRAGMA main.user_version = %d" % version)
            db.execute("COMMIT")
        finally:
            db.close()
        _sync_file(fresh)
        os.replace(fresh, path)
        _sync_dir(path.parent)
    except sqlite3.OperationalError as e:
        with contextlib.suppress(OSError):
            fresh.unlink()
        if "full" in str(e):
            raise BackupError("the disk holding %s has no room left to check %s (its %s is copied once to be "
                              "checked): free some space, then restore it; nothing was changed"
                              % (path.parent.parent, where, path.name)) from None
        raise BadBackup("%s is not a backup to restore: its %s can't be copied into newsdesk's own schema (%s); "
                        "nothing was changed" % (where, path.name, _why(e))) from None
    except BaseException:
        with contextlib.suppress(OSError):
            fresh.unlink()
        raise


def made_by_tables(statements: Iterable[str]) -> list[tuple[str, list[str]]]:
    """[(table, its column names in order)] that ``statements`` make: the columns a rebuild
    copies (a stranger's hidden or extra column is left behind)."""
    return [(name, [c[0] for c in columns]) for name, columns in made_by(statements).items()
            if isinstance(name, str)]


def interrupted(data_dir: StrPath) -> bool:
    """True if a restore into ``data_dir`` was cut off after its commit point and is not finished."""
    return (Path(data_dir) / JOURNAL).exists()


PARTIAL_STALE = 3600    # seconds after which a backup's partial folder is one a killed backup left


def _clear_left_partials(folder: Path, clock: Clock) -> None:
    """Partial folders of newsdesk's backups (named as it names them) that a backup killed part
    way left behind, each as large as a backup: gone once an hour old, so they can't pile up on
    the stick. A younger one may be a backup still running."""
    for left in folder.glob(".%s*.partial" % NAME_PREFIX):
        try:
            if left.is_dir() and clock() - left.stat().st_mtime > PARTIAL_STALE:
                shutil.rmtree(left, ignore_errors=True)
        except OSError:
            continue


def make_backup(data_dir: StrPath, dest: StrPath, with_secret: bool = False, clock: Clock = time.time,
                progress: Callable[[int, int], object] | None = None,
                before_rename: Callable[[], object] | None = None) -> Manifest:
    """Back up ``data_dir`` into the file ``dest`` (written under a temporary name, synced, then
    renamed, so ``dest`` is either whole or absent); returns the manifest.
    ``before_rename()`` is the tests' moment to cut the power."""
    data_dir, dest = Path(data_dir), Path(dest)
    if interrupted(data_dir):
        raise BackupError("a restore into %s was interrupted; finish it first with: newsdesk restore" % data_dir)
    if not (data_dir / STORE_FILE).is_file():
        raise BackupError("there is nothing to back up in %s: it has no store (%s)" % (data_dir, STORE_FILE))
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        work = dest.parent / (".%s.partial" % dest.name)
        shutil.rmtree(work, ignore_errors=True)
        _clear_left_partials(dest.parent, clock)
        work.mkdir(mode=0o700)      # it holds the devices file and, asked for, the secret key
        os.chmod(work, 0o700)       # (whatever the umask)
    except OSError as e:
        raise BackupError("can't write the backup into %s: %s" % (dest.parent, e.strerror or e)) from None
    try:
        files: dict[str, tuple[str, int]] = {}
        schema = None
        for name in MEMBERS:
            source = data_dir / name
            if not source.is_file() or (name == SECRET_FILE and not with_secret):
                continue
            if name in DATABASES:
                version = snapshot(source, work / name, progress=progress)
                if name == STORE_FILE:
                    schema = version
            else:
                shutil.copyfile(source, work / name)
                if name == SECRET_FILE:
                    os.chmod(work / name, 0o600)
            files[name] = (_sha256(work / name), (work / name).stat().st_size)
        if with_secret and SECRET_FILE not in files:
            raise BackupError("--with-secret: there is no secret key in %s yet (the panel writes one when it "
                              "first starts)" % data_dir)
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock()))
        manifest = build_manifest(files, schema, summarize(work / STORE_FILE), with_secret, newsdesk_version(),
                                  created)
        partial = work / dest.name
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)   # it may hold the key and MQTT's password
        with os.fdopen(fd, "wb") as raw:
            with zipfile.ZipFile(raw, "w", compression=zipfile.ZIP_DEFLATED) as z:
                z.writestr(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
                for name in files:
                    z.write(work / name, name)
            raw.flush()
            os.fsync(raw.fileno())
        if before_rename is not None:
            before_rename()
        os.replace(partial, dest)
        _sync_dir(dest.parent)
    except OSError as e:
        raise BackupError("can't write the backup %s: %s" % (dest, e.strerror or e)) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return manifest


def rotate(folder: StrPath, keep: int) -> list[str]:
    """Remove the oldest of newsdesk's backups in ``folder`` so the newest ``keep`` stay; the
    names removed. Files of other names are never touched."""
    folder = Path(folder)
    gone = to_rotate(os.listdir(folder), keep)
    for name in gone:
        (folder / name).unlink()
    return gone


def keep_in_folder(data_dir: StrPath, folder: StrPath, keep: int, with_secret: bool = False,
                   clock: Clock = time.time) -> tuple[Path, Manifest, list[str]]:
    """A dated backup into ``folder`` (backup_dir), then the oldest past ``keep`` removed: what
    `newsdesk backup` without a file does, and what a backup after a finished game or once a
    day is to call. A missing folder is refused, not made: an unplugged USB stick's mount point
    is on the SD card, the very card the backups are to outlive. Returns (file, manifest,
    names removed)."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise BackupError("the backup folder %s (backup_dir) is missing: plug in and mount the USB stick, or "
                          "name a file: newsdesk backup FILE" % folder)
    dest = folder / free_name(os.listdir(folder), clock)
    manifest = make_backup(data_dir, dest, with_secret=with_secret, clock=clock)
    return dest, manifest, rotate(folder, keep)


BACKUP_STALE = 7 * 86400    # seconds after which the newest backup is too old to trust


def folder_state(folder: StrPath, now: float, free_bytes: Callable[[Path], int]) -> tuple[str, str, str]:
    """How ``folder`` (backup_dir) stands, as ("ok" | "warn", what, what to do or ""): missing,
    empty, its newest backup older than BACKUP_STALE, or too full for the next one. The one
    judgement `newsdesk doctor` and the health strip both give; ``free_bytes(folder)`` asks the
    disk."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        return ("warn", "the backup folder %s is missing" % folder,
                "plug in the USB stick and mount it there, or set backup_dir to a folder that exists")
    newest = newest_backup(folder)
    if newest is None:
        return "warn", "there is no backup in %s yet" % folder, "make one: newsdesk backup"
    name, made = newest
    age = now - made
    if age > BACKUP_STALE:
        return ("warn", "the newest backup in %s, %s, is %d days old" % (folder, name, age // 86400),
                "make one: newsdesk backup")
    if free_bytes(folder) < (folder / name).stat().st_size * 2:
        return "warn", "%s is nearly full: the next backup may not fit" % folder, "free some space, or lower backup_keep"
    return "ok", "the newest backup in %s is %s" % (folder, name), ""


def newest_backup(folder: StrPath) -> tuple[str, float] | None:
    """(name, mtime) of the newest of newsdesk's backups in ``folder``, or None."""
    found = backups_in(os.listdir(folder))
    if not found:
        return None
    return found[-1], (Path(folder) / found[-1]).stat().st_mtime


# ------------------------------------------------------------------ restore

MANIFEST_MOST = 1 << 20             # bytes: a manifest.json past this is none newsdesk wrote (they are ~1 KB)
RESTORE_RESERVE = 16 << 20          # bytes a restore leaves free on the data folder's disk, for the table's moves
# A backup newsdesk writes packs its stores about 9 to 1 (its JSON events; an evening's 925 KB store
# zipped to 106 KB) and a nearly empty database at most about 40 to 1. A member past PACKED_FROM
# bytes packed tighter than MOST_PACKED to 1 (against the whole file, whatever its zip says of
# itself) is a zip bomb: a database's header and zeros filled the box's card before its check.
MOST_PACKED = 200
PACKED_FROM = 64 << 20
# The files beside the databases are small text newsdesk writes: config.toml (some 40 settings, a
# few KB), dial-profiles.json (a phone's profile is about 200 bytes), secret_key (64 characters).
# 1 MB each holds thousands of times that; past it, a file is none newsdesk wrote, refused before
# it is unpacked (two 63 MB settings files, under the zip-bomb guard's 64 MB, were kept in the
# data folder and copied again into every later replaced-<time> folder).
SETTINGS_MOST = 1 << 20
_READ_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, NotImplementedError, RuntimeError,
                ValueError, struct.error, OSError)      # what zipfile raises for a file it can't read
def free_bytes(path: StrPath) -> int:
    """Bytes free for this user on the disk holding ``path``."""
    found = os.statvfs(path)
    return found.f_bavail * found.f_frsize


def _why(e: BaseException) -> str:
    """An exception's own words, made a clause (no full stops inside the sentence it goes in);
    escaped, as SQLite's and zipfile's words name what the file holds (an index's name)."""
    return escaped((str(e) or type(e).__name__).strip().rstrip(".").replace(". ", "; ")[:200])


def _mb(n: int) -> str:
    """A size for people: KB under a megabyte, else MB with one decimal."""
    return "%d KB" % (n // 1000) if n < 1_000_000 else "%.1f MB" % (n / 1e6)


def open_backup(path: StrPath, where: str | None = None) -> io.BufferedReader:
    """The backup ``path`` opened for reading, refused at once unless it is a regular file (a pipe
    or a device such as /dev/zero would be read for ever). Opened without waiting (O_NONBLOCK),
    then looked at (fstat), so what is checked is what is read."""
    where = str(path) if where is None else where
    try:
        return open_plain(path)
    except FileNotFoundError:
        raise BadBackup("there is no backup at %s" % where) from None
    except NotPlainFile as e:
        raise BadBackup("%s is %s, not a backup file: name the backup's .zip file itself" % (where, e.kind)) from None
    except OSError as e:
        raise BadBackup("can't read the backup %s: %s" % (where, e.strerror or e)) from None


MOST_ENTRIES = 64      # files a zip may list before its directory is read: a backup has at most six
MOST_DIRECTORY = 64 << 10   # bytes its directory may take: six names, about 100 bytes each in newsdesk's


def _directory_claimed(f: io.BufferedReader) -> tuple[int, int] | None:
    """(how many files, how many bytes of directory) the zip ``f`` says it has, from its end
    record and, when there is one, its zip64 end record (the larger of each), read before
    zipfile reads the whole directory into memory: a small upload listing a million files, or a
    directory far longer than its count says, is refused without that. None when no end record
    is found (zipfile then says what is wrong)."""
    size = f.seek(0, os.SEEK_END)
    tail_at = max(0, size - (22 + 65535))
    f.seek(tail_at)
    tail = f.read()
    f.seek(0)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        return None
    entries, directory = struct.unpack("<HI", tail[at + 10:at + 16])
    entries = 1 << 32 if entries == 0xFFFF else entries
    # zip64: a locator just before the end record, the zip64 end record just before that (where zipfile reads it)
    locator = tail_at + at - 20
    if locator >= 56:
        f.seek(locator - 56)
        record = f.read(76)
        f.seek(0)
        if record[56:60] == b"PK\x06\x07" and record[:4] == b"PK\x06\x06":
            entries64, directory64 = struct.unpack("<QQ", record[32:48])    # its entries in all, its directory's size
            entries, directory = max(entries, entries64), max(directory, directory64)
    return entries, directory


def _member_blocks(z: zipfile.ZipFile, name: str, most: int, where: str) -> Iterator[bytes]:
    """The member ``name`` in blocks as it unpacks, refused as soon as it passes ``most`` bytes
    (a zip bomb stops there) or fails to unpack (only reading is guarded here: a write the
    caller makes between blocks fails as the disk's error, not the file's)."""
    got = 0
    try:
        with z.open(name) as member:
            while True:
                block = member.read(min(1 << 20, most + 1 - got))
                if not block:
                    return
                got += len(block)
                if got > most:
                    raise BadBackup("%s is not a backup newsdesk wrote: its %s unpacks to more than the %d bytes "
                                    "its manifest.json allows; nothing was changed" % (where, name, most))
                yield block
    except _READ_ERRORS as e:
        raise BadBackup("%s is damaged: its %s can't be unpacked (%s); nothing was changed"
                        % (where, name, _why(e))) from None


SQLITE_MAGIC = b"SQLite format 3\0"


def sqlite_header_problem(head: bytes, size: int) -> str | None:
    """What is wrong with ``head``, the first bytes of a database file of ``size`` bytes (as its
    SQLite header sees it: https://www.sqlite.org/fileformat2.html#the_database_header), or None.
    The header's page size times its page count is the file's size whenever the header says that
    count is current (the version-valid-for number equals the change counter), as it is in every
    file SQLite's backup API writes."""
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return "is not an SQLite database"
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    pages, = struct.unpack(">I", head[28:32])
    current = head[24:28] == head[92:96]
    if current and pages and page_size * pages != size:
        return "says it is %d bytes, and the manifest.json says %d" % (page_size * pages, size)
    return None


def _plain_member(info: zipfile.ZipInfo) -> str | None:
    """Why the zip member ``info`` is not a plain file's data newsdesk wrote, or None."""
    kind = info.external_attr >> 16
    if info.is_dir() or stat.S_ISDIR(kind):
        return "a folder"
    if stat.S_ISLNK(kind):
        return "a link"
    if stat.S_IFMT(kind) not in (0, stat.S_IFREG):    # 0: no type written (zipfile's writestr)
        return "a special file"
    if info.flag_bits & 0x1:
        return "encrypted"
    return None


def unpack(path: StrPath, into: Path, where: str | None = None) -> Manifest:
    """Unpack the backup ``path`` into the folder ``into``, checking it whole (see _unpack)."""
    where = str(path) if where is None else where
    with open_backup(path, where) as f:
        return _unpack(f, into, where)


def _unpack(f: io.BufferedReader, into: Path, where: str) -> Manifest:
    """Unpack the open backup ``f`` into the folder ``into``, checking it whole: the members
    against the manifest (one each, plain files, the sizes it states), the room on the disk
    before a byte is written, each member streamed and stopped at its stated size, its SHA-256,
    each database's integrity_check and its shape against the schema it claims. Returns the
    manifest. A newer backup is NewerBackup; a file that is no good is BadBackup; no room is
    BackupError. ``where`` names the backup in those sentences."""
    claimed = _directory_claimed(f)
    if claimed is not None and claimed[0] > MOST_ENTRIES:
        raise BadBackup("%s is not a backup newsdesk wrote: its zip lists %d files, and a backup holds at most %d; "
                        "nothing was changed" % (where, claimed[0], len(MEMBERS) + 1))
    if claimed is not None and claimed[1] > MOST_DIRECTORY:
        raise BadBackup("%s is not a backup newsdesk wrote: its zip's directory is %d bytes, and a backup's is at "
                        "most %d; nothing was changed" % (where, claimed[1], MOST_DIRECTORY))
    try:
        z = zipfile.ZipFile(f)
        infos = z.infolist()
    except _READ_ERRORS as e:
        raise BadBackup("%s is not a newsdesk backup (not a readable zip file: %s)" % (where, _why(e))) from None
    with z:
        names = [info.filename for info in infos]
        twice = sorted(name for name, n in collections.Counter(names).items() if n > 1)
        if twice:
            raise BadBackup("%s is not a backup newsdesk wrote: it holds %s more than once; nothing was changed"
                            % (where, ", ".join(escaped(name) for name in twice)))
        if MANIFEST not in names:
            raise BadBackup("%s is not a newsdesk backup: it has no manifest.json" % where)
        for info in infos:      # bzip2 and LZMA unpack a whole read at once: a bomb would fill the memory
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise BadBackup("%s is not a backup newsdesk wrote: its %s is compressed in a way newsdesk doesn't "
                                "use (method %d); nothing was changed"
                                % (where, escaped(info.filename), info.compress_type))
        try:
            manifest: Manifest = json.loads(b"".join(_member_blocks(z, MANIFEST, MANIFEST_MOST, where)).decode())
        except (ValueError, RecursionError) as e:     # RecursionError: JSON nested past Python's depth
            raise BadBackup("%s is damaged: its manifest.json can't be read (%s)" % (where, _why(e))) from None
        if isinstance(manifest, dict) and manifest.get("format") == FORMAT:
            newer = newer_sentence(manifest, where)
            if newer:
                raise NewerBackup(newer)
        problem = manifest_problem(manifest, names, where)
        if problem:
            raise BadBackup(problem)
        # what the check works out itself (check_settings) is never taken from the file: a
        # manifest's own "settings" or "left_out" was said as what the restore would do, and
        # one of another shape stopped the restore with a traceback
        for derived in ("settings", "left_out"):
            manifest.pop(derived, None)
        for name, facts in manifest["files"].items():
            info = z.getinfo(name)
            odd = _plain_member(info)
            if odd:
                raise BadBackup("%s is not a backup newsdesk wrote: its %s is %s; nothing was changed"
                                % (where, name, odd))
            if info.file_size != facts["bytes"]:
                raise BadBackup("%s is damaged: its %s is %d bytes, and its manifest.json says %s; nothing was "
                                "changed" % (where, name, info.file_size, _count(facts["bytes"])))
            if name not in DATABASES and facts["bytes"] > SETTINGS_MOST:
                raise BadBackup("%s is not a backup newsdesk wrote: its %s is %s, and newsdesk writes at most %s "
                                "there; nothing was changed" % (where, name, _mb(facts["bytes"]), _mb(SETTINGS_MOST)))
        packed = os.fstat(f.fileno()).st_size
        for name, facts in manifest["files"].items():
            if facts["bytes"] > PACKED_FROM and facts["bytes"] > MOST_PACKED * packed:
                raise BadBackup("%s is not a backup newsdesk wrote: its %s unpacks to %s from a file of %s, and a "
                                "backup newsdesk writes packs at most %d to 1; nothing was changed"
                                % (where, name, _mb(facts["bytes"]), _mb(packed), MOST_PACKED))
        # each database is unpacked, then copied into newsdesk's own schema (rebuild): twice its size
        need = sum(facts["bytes"] for facts in manifest["files"].values()) + sum(
            facts["bytes"] for name, facts in manifest["files"].items() if name in DATABASES)
        room = free_bytes(into) - RESTORE_RESERVE
        if need > room:
            raise BackupError("%s needs %s to unpack and check (its databases twice), and the disk holding %s has "
                              "room for %s (%s free, less %s kept for the table): free some space, then restore it; "
                              "nothing was changed"
                              % (where, _mb(need), into.parent, _mb(max(room, 0)), _mb(room + RESTORE_RESERVE),
                                 _mb(RESTORE_RESERVE)))
        for name, facts in manifest["files"].items():
            target = into / name
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if name == SECRET_FILE else 0o644)
            h = hashlib.sha256()
            with os.fdopen(fd, "wb") as out:
                for block in _member_blocks(z, name, facts["bytes"], where):
                    if name in DATABASES and out.tell() == 0:
                        problem = sqlite_header_problem(block, facts["bytes"])
                        if problem:     # a bomb of zeros in a database's name stops at its first block
                            raise BadBackup("%s is not a backup to restore: its %s %s; nothing was changed"
                                            % (where, name, problem))
                    h.update(block)
                    out.write(block)
                out.flush()
                os.fsync(out.fileno())
            if h.hexdigest() != facts["sha256"]:
                raise BadBackup("%s is damaged: %s doesn't match its checksum; nothing was changed" % (where, name))
    for name in DATABASES:
        if name in manifest["files"]:
            check_database(into / name, where, manifest["schema"])
    check_settings(into, manifest, where)
    # what is said of the backup is read from its files, not taken from its word
    manifest["with_secret"] = SECRET_FILE in manifest["files"]
    manifest["created"] = said(manifest.get("created"), "at an unknown time")
    manifest["newsdesk"] = said(manifest.get("newsdesk"), "unknown")
    _sync_dir(into)
    return manifest


SECRET_MOST = 256       # characters of a secret_key: newsdesk writes 64 (web_ui/__init__.py)


def check_settings(into: Path, manifest: Manifest, where: str) -> None:
    """The backup's settings unpacked in ``into``, read as the box will read them at its next
    start, so a file that would stop it starting never gets in: the config.toml through the
    box's own reader, the secret_key as the text of a key (printable ASCII, 32 to SECRET_MOST
    characters). The dial profiles need nothing here: the box reads a damaged one as none."""
    files = manifest["files"]
    if SECRET_FILE in files:
        key = (into / SECRET_FILE).read_bytes().strip()
        if not 32 <= len(key) <= SECRET_MOST or not all(0x21 <= b < 0x7F for b in key):
            raise BadBackup("%s is not a backup to restore: its %s is not a key newsdesk writes (%d to %d letters, "
                            "digits and marks); nothing was changed" % (where, SECRET_FILE, 32, SECRET_MOST))
    if CONFIG_FILE in files:
        from .config import load_config

        try:
            settings = load_config(into, environ={})
            left = _not_here(settings)
            if left:
                # the games are what a backup is for: settings that only held on the box it came
                # from (a fixed address, a pin map's path) are left out of the copy restored, said
                _leave_out(into / CONFIG_FILE, left)
                load_config(into, environ={})
                manifest["left_out"] = left
        except ConfigError as e:
            problem = escaped(str(e).replace(str(into / CONFIG_FILE), CONFIG_FILE))
            raise BadBackup("%s is not a backup to restore: its settings can't be used (%s); nothing was changed"
                            % (where, problem)) from None
        manifest["settings"] = _merge_settings(into.parent, into / CONFIG_FILE)


# Settings a restore keeps from this box whatever the backup says: taken from a backup, they can
# lock the owner out of the panel. A backup's port moves the panel where nobody looks (the
# service runs serve with no --port, and the panel's "comes back by itself" never does), and its
# host_on_loopback = "no" takes the host's rights from the box's own screen.
BOX_OWN = ("port", "host_on_loopback")


def _filed(folder: Path) -> dict[str, Any]:
    """The settings ``folder``'s config.toml sets, as the box reads them ({} if it has none, or
    one the box can't read: a restore is how such a box is put right)."""
    from .config import load_config

    path = folder / CONFIG_FILE
    try:
        keys = tomllib.loads(path.read_text(encoding="utf-8"))
        settings = load_config(folder, environ={})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ConfigError):
        return {}
    return {key: settings[key] for key in keys}


def _toml_value(value: object) -> str:
    """A setting's value (text or a whole number) as TOML writes it: a text as JSON quotes it,
    but with its characters as they are (JSON writes one past U+FFFF as two \\u escapes of
    surrogates, which TOML refuses: a table_name with an emoji, kept by a restore, made the
    restored config.toml one the box could not start on)."""
    return str(value) if isinstance(value, int) else json.dumps(value, ensure_ascii=False)


def _merge_settings(data_dir: Path, path: Path) -> dict[str, Any]:
    """The backup's config.toml at ``path`` made the one the box restores: its own settings, but
    this box's BOX_OWN ones and this box's for every setting the backup doesn't set (appended,
    commented). Returns {"changed": [(setting, old, new)], "kept": [BOX_OWN the backup set
    otherwise]}, the values as the box reads them (defaults where unset)."""
    from .config import DEFAULTS

    box, theirs = _filed(data_dir), _filed(path.parent)
    if not (data_dir / STORE_FILE).exists():        # a new card: nobody is at its panel, the backup's are its settings
        return {"changed": [(key, box.get(key, DEFAULTS[key]), value) for key, value in theirs.items()
                            if value != box.get(key, DEFAULTS[key])], "kept": [], "box_own": False}
    kept = [key for key in BOX_OWN if key in theirs and theirs[key] != box.get(key, DEFAULTS[key])]
    if kept:
        _leave_out(path, {key: "this box keeps its own %s" % key for key in kept})
        theirs = {key: value for key, value in theirs.items() if key not in kept}
    added = {key: value for key, value in box.items() if key not in theirs}
    if added:
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n# this box's own, kept by a restore:\n")
            f.writelines("%s = %s\n" % (key, _toml_value(value)) for key, value in added.items())
    before = {**DEFAULTS, **box}
    after = {**before, **theirs}
    changed = [(key, before[key], after[key]) for key in DEFAULTS if before[key] != after[key]]
    return {"changed": changed, "kept": kept}


def shown(value: object, most: int = 80) -> str:
    """A value of a stranger's file as a sentence may show it: text in quotes, escaped (see
    escaped) and cut at ``most`` characters; a number as it is."""
    if not isinstance(value, str):
        return str(value)
    return '"%s"' % (escaped(value[:most]).replace('"', '\\"') + ("…" if len(value) > most else ""))


def _masked(key: str, value: object) -> object:
    """``value`` of the setting ``key`` with a password in it (mqtt_url's) masked."""
    if key == "mqtt_url" and isinstance(value, str) and "@" in value:
        scheme, sep, rest = value.partition("://")
        login, at, place = rest.rpartition("@")
        if sep and ":" in login:
            return "%s://%s:***@%s" % (scheme, login.split(":", 1)[0], place)
    return value


def settings_words(manifest: Manifest) -> str | None:
    """What a restore does to the settings, in words, or None if the backup has no config.toml."""
    settings = manifest.get("settings")
    if settings is None:
        return None
    changed = settings["changed"]
    text = ("it changes the setting%s %s" % ("" if len(changed) == 1 else "s", ", ".join(
        "%s %s → %s" % (key, shown(_masked(key, old)), shown(_masked(key, new))) for key, old, new in changed))
        if changed else "it changes no setting")
    if settings.get("box_own", True):
        text += ("; this box keeps its own %s (a backup's could lock the owner out of the panel)"
                 % " and ".join(BOX_OWN))
    if settings["kept"]:
        text += ", though the backup sets %s otherwise" % " and ".join(settings["kept"])
    return text + "; the other settings stay as they are"


def _not_here(settings: Any) -> dict[str, str]:
    """{setting: why} for the settings that read well and this box can't start with: a host
    address that isn't this box's (another box's fixed address, or a stranger's "203.0.113.7":
    "can't listen" at every start), a pin map that isn't one here. The panel's restore starts the
    box again on them, with no way back from the panel if it can't."""
    from .errors import PinMapError
    from .pinmap import load_pinmap

    out = {}
    host = settings["host"]
    if host:
        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            with socket.socket(family, socket.SOCK_STREAM) as sock:
                sock.bind((host, 0))
        except (OSError, ValueError, TypeError) as e:    # TypeError: a NUL in it; UnicodeError: a label too long
            out["host"] = "%r is not an address of this box (%s)" % (host, getattr(e, "strerror", None) or e)
    if settings["pinmap"]:
        try:
            load_pinmap(settings["pinmap"])
        except PinMapError as e:
            out["pinmap"] = "%r: %s" % (settings["pinmap"], e)
    return out


def _leave_out(path: Path, left: Mapping[str, str]) -> None:
    """``path`` (a config.toml the box reads) with each setting of ``left`` turned into a comment
    saying why. A line ``key = value`` is commented where it stands; a setting written in a form
    a line doesn't hold (a quoted key, a value over several lines, both valid TOML) stayed set, or
    left half a value behind, and the box could not start on the config.toml restored: then the
    file is written again from the settings it sets, less those left out, each said."""
    from .config import load_config

    text = path.read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        key = line.split("=", 1)[0].strip()
        if "=" in line and key in left:
            out.append("# left out by a restore: %s" % escaped(left[key]))     # TOML takes no control character
            line = "# " + line
        out.append(line)
    written = "\n".join(out) + "\n"
    try:
        still: set[str] | None = set(tomllib.loads(written))
    except tomllib.TOMLDecodeError:
        still = None
    if still is None or still & set(left):
        settings = load_config(path.parent, environ={})
        out = ["# written again by a restore from the backup's settings, less those it leaves out"]
        out += ["# left out by a restore: %s" % escaped(why) for why in left.values()]
        out += ["%s = %s" % (key, _toml_value(settings[key])) for key in tomllib.loads(text) if key not in left]
        written = "\n".join(out) + "\n"
    path.write_text(written, encoding="utf-8")


def left_out_words(manifest: Manifest) -> str | None:
    """The settings a restore leaves out (check_settings), in words, or None."""
    left = manifest.get("left_out") or {}
    if not left:
        return None
    return ("its setting%s %s could not serve this box and %s left out (%s); this box's own, or the default, is "
            "used there"
            % ("" if len(left) == 1 else "s", " and ".join(sorted(left)), "is" if len(left) == 1 else "are",
               "; ".join("%s = %s" % (key, escaped(why)) for key, why in sorted(left.items()))))


def _replaced_folder(data_dir: Path, clock: Clock) -> str:
    stamp = utc_stamp(clock)
    name, n = REPLACED_PREFIX + stamp, 1
    while (data_dir / name).exists():
        n += 1
        name = "%s%s-%d" % (REPLACED_PREFIX, stamp, n)
    return name


def _move(source: Path, target: Path, step: Step) -> None:
    os.rename(source, target)
    _sync_dir(target.parent)
    if source.parent != target.parent:
        _sync_dir(source.parent)
    step("moved %s to %s" % (source.name, target.parent.name))


def _swap(data_dir: Path, journal: dict[str, Any], step: Step) -> Path | None:
    """Do what the journal says is left; each step is safe to repeat after a cut at any point:
    a name still in the staging folder has not been placed, so whatever stands under its name
    (and its -wal, -shm) is the old file and goes to the replaced folder first."""
    staged, replaced = data_dir / STAGING, data_dir / journal["replaced"]
    replaced.mkdir(exist_ok=True)
    _sync_dir(data_dir)
    for name in journal["files"]:
        new = staged / name
        if not new.exists():
            continue                    # placed before the cut
        for suffix in SQLITE_COMPANIONS + ("",):        # the log first: a store never stands beside a log not its own
            old = data_dir / (name + suffix)
            if old.exists():
                _move(old, replaced / old.name, step)
        _move(new, data_dir / name, step)
    (data_dir / JOURNAL).unlink()
    _sync_dir(data_dir)
    step("journal removed")
    shutil.rmtree(staged, ignore_errors=True)
    try:
        replaced.rmdir()                # nothing was replaced (a new card): no empty folder left
    except OSError:
        pass
    return replaced if replaced.exists() else None


def _no_step(what: str) -> None:
    pass


def journal_problem(journal: object) -> str | None:
    """What makes ``journal`` (restore-journal.json, as JSON reads it) not one ``commit`` writes,
    or None. A journal of another shape (a damaged card, a hand edit) stopped every start with a
    traceback, and one naming a path moved files from outside the data folder: the files it names
    are the ones a backup holds, and the folder for what they replace is a name beside them."""
    if not isinstance(journal, dict):
        return "it is not a record of a restore"
    files, replaced = journal.get("files"), journal.get("replaced")
    if not isinstance(files, list) or not all(isinstance(name, str) and name in MEMBERS for name in files):
        return "its files are not the files of a backup"
    if not (isinstance(replaced, str) and replaced.startswith(REPLACED_PREFIX) and replaced == Path(replaced).name
            and replaced.isprintable()):
        return "its folder for what the restore replaces is not one beside the store"
    return None


def finish_restore(data_dir: StrPath, step: Step = _no_step) -> bool | None:
    """What each start does before it opens anything: a restore cut off after its commit point is
    finished (the new data), one cut off before it is thrown away (the old data, untouched).
    True if a restore was finished."""
    data_dir = Path(data_dir)
    journal_path = data_dir / JOURNAL
    try:
        journal = json.loads(journal_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if (data_dir / STAGING).exists():
            shutil.rmtree(data_dir / STAGING)
        # a cut while the journal was being written (before its rename, the commit point) left it
        # half written under its temporary name: thrown away with the staging folder
        with contextlib.suppress(FileNotFoundError):
            (data_dir / (JOURNAL + ".tmp")).unlink()
        return False
    except (OSError, ValueError) as e:
        raise BackupError("the restore journal %s can't be read (%s): move it aside and restore the backup "
                          "again" % (journal_path, e)) from None
    problem = journal_problem(journal)
    if problem:
        raise BackupError("the restore journal %s can't be read (%s): move it aside and restore the backup "
                          "again" % (journal_path, problem))
    try:
        _swap(data_dir, journal, step)
        return True
    except OSError as e:
        raise BackupError("can't finish the interrupted restore into %s: %s" % (data_dir, e.strerror or e)) from None


def stage(data_dir: StrPath, path: StrPath, where: str | None = None) -> tuple[Manifest, str | None]:
    """The first half of a restore: the backup ``path`` unpacked and checked whole into the
    staging folder of ``data_dir``, nothing else touched. Returns (manifest, what it will replace
    in words, or None: see replacing_words); the manifest's "store" is then the figures read from
    the unpacked store itself (not the ones the file claims). Until ``commit`` the staging folder
    is only a draft: a start throws it away (finish_restore). A refusal leaves the data folder as
    it was found (a folder this made is taken away again)."""
    data_dir = Path(data_dir)
    where = escaped(str(path)) if where is None else where
    if interrupted(data_dir):       # its staged files are the restore's own: never thrown away here
        raise BackupError("a restore into %s is committed and not finished yet: newsdesk finishes it when it next "
                          "starts (or run: newsdesk restore)" % data_dir)
    with open_backup(path, where) as f:         # a pipe or a device is refused before anything is made
        made = not data_dir.exists()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            staged = data_dir / STAGING
            shutil.rmtree(staged, ignore_errors=True)
            staged.mkdir()
        except OSError as e:
            raise BackupError("can't restore into %s: %s" % (data_dir, e.strerror or e)) from None
        try:
            manifest = _unpack(f, staged, where)
            manifest["store"] = summarize(staged / STORE_FILE)
            here = [name for name in MEMBERS if (data_dir / name).exists()]
            words = replacing_words(summarize(data_dir / STORE_FILE), manifest["store"], manifest, here, where,
                                    data_dir, (store_began(data_dir / STORE_FILE), store_began(staged / STORE_FILE)),
                                    (left_out_words(manifest), settings_words(manifest)))
        except BaseException as e:
            shutil.rmtree(staged, ignore_errors=True)
            if made:
                with contextlib.suppress(OSError):
                    data_dir.rmdir()        # only if nothing else is in it now
            if isinstance(e, OSError):
                raise BackupError("can't restore into %s: %s; nothing was changed" % (data_dir, e.strerror or e)) \
                    from None
            raise
    return manifest, words


def discard(data_dir: StrPath) -> None:
    """Throw a staged, unconfirmed restore away (the host said no, or checked another file)."""
    if not interrupted(data_dir):
        shutil.rmtree(Path(data_dir) / STAGING, ignore_errors=True)


def commit(data_dir: StrPath, manifest: Manifest, where: StrPath, clock: Clock = time.time) -> dict[str, Any]:
    """The commit point of a restore staged by ``stage``: the journal naming the files, written
    atomically. From here a start (finish_restore) or ``swap`` puts the backup in place, whatever
    is cut off. Returns the journal."""
    data_dir = Path(data_dir)
    journal = {"backup": str(where), "replaced": _replaced_folder(data_dir, clock),
               "files": [name for name in MEMBERS if name in manifest["files"]]}
    try:
        if not (data_dir / STAGING).is_dir():
            raise BackupError("there is no checked backup waiting in %s: check it again" % data_dir)
        _write_atomically(data_dir / JOURNAL, json.dumps(journal, indent=1) + "\n")     # the commit point
    except OSError as e:
        if not interrupted(data_dir):
            shutil.rmtree(data_dir / STAGING, ignore_errors=True)
        raise BackupError("can't restore into %s: %s; nothing was changed" % (data_dir, e.strerror or e)) from None
    return journal


def restore(data_dir: StrPath, path: StrPath, confirm: Callable[[str], bool], clock: Clock = time.time,
            step: Step = _no_step) -> tuple[Manifest, Path | None] | None:
    """Restore the backup ``path`` into ``data_dir`` (the caller holds the run lock). Checks the
    backup whole first; ``confirm(words)`` is asked when something will be replaced and may say
    no. Returns (manifest, replaced folder or None), or None if not confirmed. ``step(what)`` is
    called after each durable step: the tests' moments to cut the power."""
    data_dir = Path(data_dir)
    manifest, words = stage(data_dir, path)
    step("unpacked")
    try:
        if words is not None and not confirm(words):
            discard(data_dir)
            return None
        journal = commit(data_dir, manifest, path, clock)
        step("journal written")
    except BaseException:
        discard(data_dir)
        raise
    try:
        return manifest, _swap(data_dir, journal, step)
    except OSError as e:
        raise BackupError("the restore into %s stopped part way (%s); run newsdesk restore again to finish it"
                          % (data_dir, e.strerror or e)) from None
