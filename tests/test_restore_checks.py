"""A restore checks everything about its input before it writes a byte: a pipe or a device is
refused at once, a damaged zip in one sentence, an unpack stops at what the manifest states and
at the room on the disk, and a store of the wrong shape (a stranger's SQLite file, the devices
file in the store's place) never gets in; every refusal leaves the data folder exactly as it was.
A store of the wrong shape that got in anyway is refused by serve and migrate in one sentence that
says how to put the last good one back."""

import hashlib
import json
import os
import sqlite3
import struct
import threading
import zipfile
from pathlib import Path

import pytest
from test_backup import _rewrite, make_box, run

from controller import backup
from controller.runlock import RunLock
from controller.store import SCHEMA_VERSION, STORE_FILE, Store


def files_of(folder):
    """Every file under ``folder`` with its bytes, and every folder: the data folder byte for byte."""
    seen = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            seen[os.path.relpath(os.path.join(root, name), folder)] = "folder"
        for name in files:
            seen[os.path.relpath(os.path.join(root, name), folder)] = Path(root, name).read_bytes()
    return seen


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A backup of a box with two kept games, made once for the module (no test changes it)."""
    tmp = tmp_path_factory.mktemp("good")
    make_box(tmp / "box")
    file = tmp / "good.zip"
    backup.make_backup(tmp / "box", file)
    return file


@pytest.fixture
def here(tmp_path):
    """The box a restore is tried on: five kept games, and the lock file a served box has."""
    data = tmp_path / "here"
    make_box(data, games=5, tag="here")
    RunLock(data).acquire().release()
    return data


def refused(capsys, data, file, words):
    """`newsdesk restore --yes FILE` on ``data``: one sentence holding ``words``, and ``data``
    byte for byte as it was."""
    before = files_of(data)
    status, _, err = run(capsys, "restore", "--data", str(data), "--yes", str(file))
    assert status == 2 and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err
    assert files_of(data) == before
    return err


def copy_of(good, tmp_path, name="b.zip"):
    file = tmp_path / name
    file.write_bytes(good.read_bytes())
    return file


def resum(manifest, name, body):
    manifest["files"][name] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}


def sqlite_file(path, sql, version=SCHEMA_VERSION):
    db = sqlite3.connect(path)
    db.executescript(sql + "; PRAGMA user_version=%d;" % version)
    db.close()
    return Path(path).read_bytes()


# ------------------------------------------------------------------ only a regular file

def _restore_in_time(capsys, data, target, seconds=5.0):
    """The restore of ``target`` run in a thread that must end within ``seconds`` (a pipe read
    for ever would not); a hung one is freed by opening the pipe's other end."""
    said = []
    t = threading.Thread(target=lambda: said.append(run(capsys, "restore", "--data", str(data), "--yes",
                                                        str(target))))
    t.start()
    t.join(seconds)
    if t.is_alive():
        os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK))
        t.join(5)
        pytest.fail("the restore of %s did not return" % target)
    return said[0]


def test_a_pipe_a_device_or_a_folder_is_refused_at_once(here, tmp_path, capsys):
    pipe = tmp_path / "pipe.zip"
    os.mkfifo(pipe)
    before = files_of(here)
    for target, kind in ((pipe, "a pipe (FIFO)"), (Path("/dev/zero"), "a device"), (tmp_path, "a folder")):
        status, _, err = _restore_in_time(capsys, here, target)
        assert status == 2 and err.count("\n") == 1, err
        assert "%s is %s, not a backup file" % (target, kind) in err
        assert files_of(here) == before


def test_a_new_card_is_left_without_a_folder_when_refused(good, tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    fresh = tmp_path / "fresh"
    with pytest.raises(backup.BadBackup):
        backup.stage(fresh, bad)
    assert not fresh.exists()


# ------------------------------------------------------------------ damaged and oversized

def _compressed_span(file, name):
    """Where ``name``'s compressed bytes lie in the zip ``file``."""
    with zipfile.ZipFile(file) as z:
        info = z.getinfo(name)
    raw = file.read_bytes()
    at = info.header_offset
    name_len, extra_len = int.from_bytes(raw[at + 26:at + 28], "little"), int.from_bytes(raw[at + 28:at + 30], "little")
    start = at + 30 + name_len + extra_len
    return start, start + info.compress_size


def test_64_flipped_bytes_in_the_compressed_store_are_one_sentence(good, here, tmp_path, capsys):
    file = copy_of(good, tmp_path)
    start, end = _compressed_span(file, STORE_FILE)
    raw = bytearray(file.read_bytes())
    middle = (start + end) // 2
    for i in range(middle, middle + 64):
        raw[i] ^= 0x5A
    file.write_bytes(bytes(raw))
    err = refused(capsys, here, file, "is damaged: its %s can't be unpacked (" % STORE_FILE)
    assert "nothing was changed" in err


def test_a_manifest_that_states_more_than_the_disk_holds_is_refused_with_the_figures(good, here, tmp_path,
                                                                                      capsys, monkeypatch):
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        files = json.loads(z.read("manifest.json"))["files"]
    # each database twice: unpacked, then copied into newsdesk's own schema to be checked
    need = sum(facts["bytes"] for facts in files.values()) + sum(
        facts["bytes"] for name, facts in files.items() if name in backup.DATABASES)
    monkeypatch.setattr(backup, "free_bytes", lambda path: backup.RESTORE_RESERVE + need // 2)
    err = refused(capsys, here, file, "needs %d KB to unpack and check (its databases twice), and the disk holding %s "
                  "has room for %d KB (%.1f MB free, "
                  "less %.1f MB kept for the table)" % (need // 1000, here, need // 2000,
                                                        (backup.RESTORE_RESERVE + need // 2) / 1e6,
                                                        backup.RESTORE_RESERVE / 1e6))
    assert "free some space" in err
    monkeypatch.setattr(backup, "free_bytes", lambda path: backup.RESTORE_RESERVE + need)
    assert run(capsys, "restore", "--data", str(here), "--yes", str(file))[0] == 0


def _bomb(file, body_size, stated=None, head=b""):
    """A backup whose store is ``body_size`` zero bytes (about a thousandth of that zipped) after
    ``head``, the manifest stating ``stated`` bytes (default: the truth) with the right checksum."""
    h = hashlib.sha256()
    block = bytes(1 << 20)
    first = head + block[len(head):]
    for k in range(body_size >> 20):
        h.update(first if k == 0 else block)
    manifest = {"format": backup.FORMAT, "format_version": 1, "newsdesk": "0.1.0", "schema": SCHEMA_VERSION,
                "created": "2026-11-28T00:00:00Z", "with_secret": False, "store": {"games": 70, "events": 2948},
                "files": {STORE_FILE: {"sha256": h.hexdigest(), "bytes": body_size if stated is None else stated}}}
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("manifest.json", json.dumps(manifest))
        with z.open(STORE_FILE, "w", force_zip64=True) as out:
            for k in range(body_size >> 20):
                out.write(first if k == 0 else block)
    return file


def test_a_zip_bomb_in_the_stores_name_stops_at_its_first_block(here, tmp_path, capsys):
    file = _bomb(tmp_path / "bomb.zip", 64 << 20)
    assert file.stat().st_size < 1 << 20
    refused(capsys, here, file, "its %s is not an SQLite database" % STORE_FILE)


def test_a_zip_bomb_behind_a_good_sqlite_header_is_refused_before_a_byte_is_unpacked(here, tmp_path, capsys,
                                                                                    monkeypatch):
    """A store of 128 MB that is a real SQLite header (its size as stated) and zeros packs to
    about 130 KB: a thousand to one, where newsdesk's stores pack about 9 to 1. A file like it of
    4 MB staged 1.8 GB on the box's card before the integrity check refused it; it is refused now
    from the zip's directory and the manifest, before a byte is unpacked."""
    head = bytearray(sqlite_file(tmp_path / "real.sqlite3", "CREATE TABLE t(x)")[:100])
    size = 128 << 20
    head[28:32] = struct.pack(">I", size // struct.unpack(">H", head[16:18])[0])
    file = _bomb(tmp_path / "bomb.zip", size, head=bytes(head))
    assert file.stat().st_size < 1 << 20
    unpacked = []
    real = backup._member_blocks
    monkeypatch.setattr(backup, "_member_blocks",
                        lambda z, name, *a: unpacked.append(name) or real(z, name, *a))
    err = refused(capsys, here, file, "its %s unpacks to 134.2 MB from a file of" % STORE_FILE)
    assert "a backup newsdesk writes packs at most %d to 1" % backup.MOST_PACKED in err
    assert STORE_FILE not in unpacked


def test_a_member_larger_than_its_manifest_says_is_refused_before_it_is_unpacked(here, tmp_path, capsys):
    refused(capsys, here, _bomb(tmp_path / "bomb.zip", 2 << 20, stated=4096),
            "its %s is %d bytes, and its manifest.json says 4096" % (STORE_FILE, 2 << 20))


def test_a_manifest_bomb_is_refused(here, tmp_path, capsys):
    file = tmp_path / "m.zip"
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", b'{"format": "newsdesk-backup", "pad": "' + b" " * (backup.MANIFEST_MOST + 1) + b'"}')
    refused(capsys, here, file, "its manifest.json unpacks to more than the %d bytes" % backup.MANIFEST_MOST)


def test_a_duplicate_member_a_link_and_bzip2_are_refused(good, here, tmp_path, capsys):
    with zipfile.ZipFile(good) as z:
        contents = {n: z.read(n) for n in z.namelist()}
    twice = tmp_path / "twice.zip"
    with zipfile.ZipFile(twice, "w") as z:
        for name, body in contents.items():
            z.writestr(name, body)
        with pytest.warns(UserWarning, match="Duplicate name"):
            z.writestr("config.toml", b"port = 1\n")
    refused(capsys, here, twice, "it holds config.toml more than once")
    link = tmp_path / "link.zip"
    with zipfile.ZipFile(link, "w") as z:
        for name, body in contents.items():
            info = zipfile.ZipInfo(name)
            if name == "config.toml":
                info.external_attr = (0o120777 << 16)      # a symbolic link, as zip -y stores one
            z.writestr(info, body)
    refused(capsys, here, link, "its config.toml is a link")
    bz = tmp_path / "bz.zip"
    with zipfile.ZipFile(bz, "w", compression=zipfile.ZIP_BZIP2) as z:
        for name, body in contents.items():
            z.writestr(name, body)
    refused(capsys, here, bz, "compressed in a way newsdesk doesn't use")


# ------------------------------------------------------------------ the wrong shape

def test_a_strangers_sqlite_file_as_the_store_is_refused(good, here, tmp_path, capsys):
    file = copy_of(good, tmp_path)
    foreign = sqlite_file(tmp_path / "foreign.db", "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    _rewrite(file, lambda m: resum(m, STORE_FILE, foreign), {STORE_FILE: foreign})
    refused(capsys, here, file, "its %s is not newsdesk's store at schema %d (it has no tables events, "
            "game_entries and games)" % (STORE_FILE, SCHEMA_VERSION))


def test_a_store_missing_a_column_is_refused(good, here, tmp_path, capsys):
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        (tmp_path / "s.db").write_bytes(z.read(STORE_FILE))
    body = sqlite_file(tmp_path / "s.db", "ALTER TABLE games DROP COLUMN winners")
    _rewrite(file, lambda m: resum(m, STORE_FILE, body), {STORE_FILE: body})
    refused(capsys, here, file, "its table games has no column winners")


def _store_with(good, tmp_path, sql, version=SCHEMA_VERSION, name="b.zip", then=None):
    """A copy of ``good`` whose store has had ``sql`` run on it (and is stamped ``version``), and
    ``then`` after it on a new connection (one that reads a schema ``sql`` wrote)."""
    file = copy_of(good, tmp_path, name)
    with zipfile.ZipFile(file) as z:
        (tmp_path / (name + ".db")).write_bytes(z.read(STORE_FILE))
    body = sqlite_file(tmp_path / (name + ".db"), sql, version)
    if then:
        body = sqlite_file(tmp_path / (name + ".db"), then, version)
    _rewrite(file, lambda m: resum(m, STORE_FILE, body), {STORE_FILE: body})
    return file


@pytest.mark.parametrize("sql, words", [
    # runs on the box's next move and empties the kept games
    ("CREATE TRIGGER wipe AFTER INSERT ON events BEGIN DELETE FROM game_entries; DELETE FROM games; END",
     "it has trigger wipe newsdesk doesn't make"),
    ("CREATE TRIGGER stuck BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'ha'); END",
     "it has trigger stuck newsdesk doesn't make"),
    ("CREATE VIEW odd AS SELECT load_extension('x')", "it has view odd newsdesk doesn't make"),
    ("CREATE INDEX games_engine ON games (engine)", "it has index games_engine newsdesk doesn't make"),
    ("DROP INDEX games_one_active", "it has no index games_one_active"),
    ("DROP INDEX games_one_active; CREATE INDEX games_one_active ON games (status)",
     "its index games_one_active is made otherwise"),
])
def test_a_store_carrying_an_object_newsdesk_doesnt_make_is_refused(good, here, tmp_path, capsys, sql, words):
    refused(capsys, here, _store_with(good, tmp_path, sql),
            "its %s is not newsdesk's store at schema %d (%s)" % (STORE_FILE, SCHEMA_VERSION, words))


def test_a_trigger_named_like_sqlites_own_is_refused_too(good, here, tmp_path, capsys):
    """SQLite loads a trigger whatever its name: one called sqlite_... passed the shape check (it
    left out every sqlite_ name) and emptied the kept games at the box's first move."""
    sql = ("PRAGMA writable_schema=ON; INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
           "('trigger', 'sqlite_evil', 'events', 0, 'CREATE TRIGGER sqlite_evil AFTER INSERT ON events BEGIN "
           "DELETE FROM game_entries; DELETE FROM games; END'); PRAGMA writable_schema=OFF")
    refused(capsys, here, _store_with(good, tmp_path, sql),
            "its %s is not newsdesk's store at schema %d (it has trigger sqlite_evil newsdesk doesn't make)"
            % (STORE_FILE, SCHEMA_VERSION))


def _writes_after_restore(capsys, here, file):
    """Restore ``file`` into ``here``, then make a move's worth of writes as the box would: the
    store restored is newsdesk's own schema, whatever the backup's table statements said."""
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    store = Store(here / STORE_FILE)
    try:
        for n in range(40):
            store.append("editor.verdict", {"n": n})
    finally:
        store.close()
    db = sqlite3.connect(here / STORE_FILE)
    try:
        return dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()), \
            db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()[0], \
            db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("sql", [
    # a foreign key to no table: every move and new game refused ("no such table: main.nowhere")
    "UPDATE sqlite_master SET sql = replace(sql, 'REFERENCES events (id)', 'REFERENCES nowhere (id)') "
    "WHERE name = 'game_entries'",
    # a CHECK that refuses the box's next writes
    "UPDATE sqlite_master SET sql = replace(sql, 'payload TEXT NOT NULL', 'payload TEXT NOT NULL CHECK (id < 10)') "
    "WHERE name = 'events'",
    # the AUTOINCREMENT counter at its end: "database or disk is full" at the next event
    "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'events'",
], ids=["foreign-key-to-nowhere", "check-on-the-next-write", "counter-at-its-end"])
def test_what_a_tables_own_statement_hides_stays_behind(good, here, tmp_path, capsys, sql):
    """The shape check sees a table's columns, not its whole statement: the store restored is
    made by newsdesk's own schema and filled row by row, so the box writes after it."""
    file = _store_with(good, tmp_path, "PRAGMA writable_schema=ON; %s; PRAGMA writable_schema=OFF" % sql)
    with zipfile.ZipFile(good) as z:
        (tmp_path / "good.db").write_bytes(z.read(STORE_FILE))
    db = sqlite3.connect(tmp_path / "good.db")
    try:
        backed_up = db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()
    tables, seq, games = _writes_after_restore(capsys, here, file)
    fresh = sqlite3.connect(":memory:")
    try:
        from controller.store import MIGRATIONS
        for step in sorted(MIGRATIONS):
            for statement in MIGRATIONS[step]:
                fresh.execute(statement)
        ours = dict(fresh.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    finally:
        fresh.close()
    assert tables == ours and seq < 1000 and games == backed_up > 0


def test_a_row_newsdesks_own_schema_refuses_is_refused(good, here, tmp_path, capsys):
    """A backup whose games table lost its CHECK holds a game 'weird': the rebuild refuses it."""
    sql = ("PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql = replace(sql, "
           "'CHECK (status IN (''active'', ''finished'', ''abandoned''))', '') WHERE name = 'games'; "
           "PRAGMA writable_schema=OFF")
    refused(capsys, here, _store_with(good, tmp_path, sql, then="UPDATE games SET status = 'weird' WHERE id = 1"),
            "its %s's table games has a row newsdesk's schema refuses (CHECK constraint failed" % STORE_FILE)
    dangling = "UPDATE game_entries SET game = 999 WHERE rowid = (SELECT min(rowid) FROM game_entries)"
    refused(capsys, here, _store_with(good, tmp_path, dangling, name="c.zip"),
            "its %s's table game_entries has a row" % STORE_FILE)


@pytest.mark.parametrize("sql, words", [
    ("UPDATE games SET players = 'not JSON' WHERE id = 1", "games has a row (1) whose players is not a JSON array"),
    ("UPDATE games SET players = '5' WHERE id = 1", "games has a row (1) whose players is not a JSON array"),
    ("UPDATE games SET final = '[1]' WHERE id = 1", "games has a row (1) whose final is not a JSON object"),
    ("UPDATE game_entries SET entry = NULL WHERE rowid = 1", None),        # NOT NULL: SQLite itself says no
    ("UPDATE game_entries SET entry = '[]' WHERE rowid = 1", "game_entries has a row (1) whose entry is not a JSON object"),
    ("UPDATE events SET payload = zeroblob(1000) WHERE id = 1", "events has a row (1) whose payload is not a JSON object"),
    ("UPDATE events SET payload = json_object('a', printf('%.*c', 5000000, 'x')) WHERE id = 1",
     "events has a row (1) whose payload is not a JSON object of at most 4 MB"),
    # what Python's json reads and SQLite's doesn't is looked at as the store reads it: still refused
    ("UPDATE events SET payload = '{\"x\": Infinity' WHERE id = 1", "events has a row (1) whose payload is not a JSON object"),
    ("UPDATE events SET payload = '[NaN]' WHERE id = 1", "events has a row (1) whose payload is not a JSON object"),
    # text that isn't UTF-8: refused as the row it is, not as a database that fails its integrity check
    ("UPDATE events SET payload = CAST(x'7b2278223affff7d' AS TEXT) WHERE id = 1",
     "events has a row (1) whose payload is not a JSON object"),
    # what SQLite's JSON takes and Python's doesn't: the box wouldn't start, or its history pages answered 500
    ("UPDATE game_entries SET entry = json_set(entry, '$.big', json(printf('%.*c', 5000, '9'))) WHERE rowid = 1",
     "game_entries has a row (1) whose entry is not a JSON object newsdesk reads (nested past 64 levels, or a number "
     "of more digits than Python's json takes)"),
    ("UPDATE games SET options = '{\"a\":' || printf('%.*c', 995, '[') || printf('%.*c', 995, ']') || '}' WHERE id = 1",
     "games has a row (1) whose options is not a JSON object newsdesk reads (nested past 64 levels"),
    ("UPDATE games SET final = '{\"a\":' || printf('%.*c', 100, '[') || printf('%.*c', 100, ']') || "
     "printf('%.*c', 1000, ' ') || '}' WHERE id = 1",
     "games has a row (1) whose final is not a JSON object newsdesk reads (nested past 64 levels"),
], ids=["players-not-json", "players-a-number", "final-a-list", "entry-null", "entry-a-list", "payload-a-blob",
        "payload-5-mb", "payload-cut-short", "payload-a-list-of-nan", "payload-not-utf-8", "entry-5000-digits",
        "options-995-deep", "final-100-deep"])
def test_a_store_holding_a_row_newsdesk_cant_read_back_is_refused(good, here, tmp_path, capsys, sql, words):
    """Each page that reads such a row would fail (the history, the live feed's catch-up)."""
    try:
        file = _store_with(good, tmp_path, sql)
    except sqlite3.IntegrityError:
        assert words is None
        return
    refused(capsys, here, file, "its %s's table %s" % (STORE_FILE, words))


@pytest.mark.parametrize("sql, words", [
    ("UPDATE games SET players = '[]' WHERE id = 1", "its players are not a list of players, each with a name"),
    ("UPDATE games SET players = '[1, 2, null]' WHERE id = 1", "its players are not a list of players"),
    ("UPDATE games SET created = 'not a time' WHERE id = 1", "its created is not a time with its UTC offset"),
    ("UPDATE games SET ended = x'00' WHERE id = 1", "its ended is not a time with its UTC offset"),
    ("UPDATE games SET ended = '2026-01-01T10:00:00' WHERE id = 1", "its ended is not a time with its UTC offset"),
    ("UPDATE games SET ended = '9999-12-31T23:59:59-14:00' WHERE id = 1", "its ended is not a time with its UTC "
                                                                         "offset, in the years 1970 to 9000"),
    ("UPDATE games SET winners = '[1]' WHERE id = 1", "its winners are not a list of names"),
    ("UPDATE games SET engine = '' WHERE id = 1", "its game's name is not a game's name"),
    # the engine's name went into the CSV export's file name: a quote and a second filename= in the header
    ("UPDATE games SET engine = 'a\"; filename=evil.exe' WHERE id = 1", "its game's name is not a game's name"),
    ("UPDATE games SET final = '{\"standings\": [{}]}' WHERE id = 1",
     "its final table's standings are not rows, each with a name, a score and whether it won"),
    # the history's statistics, its CSV and its BG Stats export read each row's winner and score
    ("UPDATE games SET final = '{\"standings\": [{\"name\": \"Ann\", \"score\": 3}]}' WHERE id = 1",
     "its final table's standings are not rows, each with a name, a score and whether it won"),
    ("UPDATE games SET final = '{\"standings\": [{\"name\": \"Ann\", \"winner\": true}]}' WHERE id = 1",
     "its final table's standings are not rows, each with a name, a score and whether it won"),
    ("UPDATE games SET final = '{\"standings\": \"abc\"}' WHERE id = 1", "its final table's standings are not rows"),
    ("UPDATE games SET final = '{\"view\": \"x\"}' WHERE id = 1", "its final table's view is not one"),
    # a side that isn't a name: the end card's places (the game's page, its BG Stats export) answered 500
    ("UPDATE games SET final = '{\"teams\": {\"Ann\": {\"side\": 1}}}' WHERE id = 1",
     "its final table's teams are not each player's side, by name"),
    ("UPDATE games SET players = '[{\"name\": \"Ann\", \"team\": [\"WE\"]}, {\"name\": \"Bo\", \"team\": "
     "[\"THEY\"]}]', final = NULL WHERE id = 1", "its players' teams are not names"),
    # the box's own game: an undo of a move not in force stopped the box at every start
    ("UPDATE game_entries SET entry = '{\"type\": \"undo\", \"target\": 99, \"said\": \"x\"}' "
     "WHERE game = 1 AND version = 1", "an undo or redo among its moves names a move that can't be taken back"),
    # moves that skip a number: the table locked, every move and abandon refused at every version
    ("UPDATE game_entries SET version = 40 WHERE game = 1 AND version = 1", "its moves are not numbered 1, 2, 3"),
    ("UPDATE game_entries SET created = x'00ff' WHERE game = 1 AND version = 1", "its move 1's time is not text"),
    ("UPDATE game_entries SET entry = json_set(entry, '$.events', 'abc') WHERE game = 1 AND version = 1",
     "its move 1's events are not a list"),
], ids=["no-players", "players-not-players", "created-not-a-time", "ended-bytes", "ended-no-offset",
        "ended-year-9999", "winners-not-names", "no-engine", "engine-a-header", "standings-not-rows",
        "standings-row-no-winner", "standings-row-no-score",
        "standings-text", "view-text", "teams-not-sides", "player-team-not-a-name", "undo-of-nothing", "versions-skip", "entry-time-bytes", "events-text"])
def test_a_game_the_box_cant_resume_or_show_is_refused(good, here, tmp_path, capsys, sql, words):
    """Right in JSON's kinds, wrong for the box: each answered a history page with a 500, locked
    the table, or stopped the box at every start."""
    refused(capsys, here, _store_with(good, tmp_path, sql),
            "its %s's table games has a row (1) the box can't resume or show: %s" % (STORE_FILE, words))


@pytest.mark.parametrize("sql, words", [
    ("INSERT INTO events (id, at, kind, payload) VALUES (9223372036854775807, '2026-01-01T00:00:00+00:00', 'note', "
     "'{}')", "its %s's table events has row ids outside 1 to 9007199254740992" % STORE_FILE),
    ("UPDATE games SET id = -7 WHERE id = (SELECT max(id) FROM games WHERE status != 'active')",
     "its %s's table games has row ids outside 1 to" % STORE_FILE),
], ids=["event-id-at-the-end", "game-id-negative"])
def test_ids_past_any_stores_are_refused(good, here, tmp_path, capsys, sql, words):
    """An event at id 2**63 - 1 came through the copy with the counter at its end: every write
    after the restore was "database or disk is full"."""
    refused(capsys, here, _store_with(good, tmp_path, sql), words)


def test_a_store_an_earlier_newsdesk_wrote_infinity_into_restores(good, here, tmp_path, capsys):
    """An earlier newsdesk stored NaN and Infinity as Python's json writes them (SQLite's
    json_valid refuses them): the backups of such a box restore, with the row as it was."""
    file = _store_with(good, tmp_path, "UPDATE events SET payload = substr(payload, 1, length(payload) - 1) "
                                       "|| ', \"x\": Infinity}' WHERE id = (SELECT max(id) FROM events)")
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    db = sqlite3.connect(here / STORE_FILE)
    try:
        (payload,) = db.execute("SELECT payload FROM events ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    assert payload.endswith(', "x": Infinity}')


def test_an_empty_file_as_a_store_at_schema_0_is_refused(good, here, tmp_path, capsys):
    """SQLite reads an empty file as a sound database at schema 0: restored, the box would start
    with nothing kept, every game of the table's gone."""
    file = copy_of(good, tmp_path)
    _rewrite(file, lambda m: (resum(m, STORE_FILE, b""), m.update(schema=0)), {STORE_FILE: b""})
    refused(capsys, here, file, "its store is at schema 0, before any newsdesk store")


def test_an_older_store_carrying_what_its_migration_would_make_is_refused(good, here, tmp_path, capsys):
    """At schema 1 a view or an index in the name the next migration makes would stop that
    migration (and the box) on the first start after the restore."""
    old = sqlite_file(tmp_path / "old.db", "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT "
                      "NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL); CREATE INDEX events_kind ON events "
                      "(kind, id); CREATE VIEW games AS SELECT 1", version=1)
    file = copy_of(good, tmp_path)
    _rewrite(file, lambda m: (resum(m, STORE_FILE, old), m.update(schema=1)), {STORE_FILE: old})
    refused(capsys, here, file, "its %s is not newsdesk's store at schema 1 (it has view games newsdesk "
            "doesn't make)" % STORE_FILE)


def test_the_devices_file_in_the_stores_place_is_refused(good, here, tmp_path, capsys):
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        devices = z.read(backup.DEVICES_FILE)
    (tmp_path / "d.db").write_bytes(devices)
    devices = sqlite_file(tmp_path / "d.db", "SELECT 1")        # stamped with the store's schema
    _rewrite(file, lambda m: resum(m, STORE_FILE, devices), {STORE_FILE: devices})
    refused(capsys, here, file, "its %s is a devices file (the joined devices), not the store" % STORE_FILE)


def test_the_summary_said_is_the_restored_stores_own(good, tmp_path, capsys):
    file = copy_of(good, tmp_path)

    def lie(m):
        m["store"] = {"games": 70, "active": False, "last_ended": None, "events": 2948}
    _rewrite(file, lie)
    status, _, err = run(capsys, "restore", "--data", str(tmp_path / "fresh"), "--yes", str(file))
    assert status == 0, err
    assert "2 kept games" in err and "70 kept" not in err and "2948" not in err


# ------------------------------------------------------------------ serve and migrate

def _wrong_store_in_place(data, tmp_path):
    """``data``'s store replaced by a stranger's SQLite file, the last good one kept aside in a
    replaced- folder as a restore keeps it."""
    kept = data / "replaced-20261128T120000Z"
    kept.mkdir()
    (data / STORE_FILE).rename(kept / STORE_FILE)
    sqlite_file(data / STORE_FILE, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    return kept


def test_migrate_and_serve_refuse_a_store_of_the_wrong_shape_and_say_the_way_back(here, tmp_path, capsys):
    kept = _wrong_store_in_place(here, tmp_path)
    store_bytes = (here / STORE_FILE).read_bytes()
    for argv in (["migrate"], ["serve", "--host", "127.0.0.1", "--port", "0"]):
        status, _, err = run(capsys, "--data", str(here), *argv)
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "the store %s is not a newsdesk store at schema %d (it has no tables" % (here / STORE_FILE,
                                                                                    SCHEMA_VERSION) in err
        assert "the last good one is kept in %s" % kept in err
    assert (here / STORE_FILE).read_bytes() == store_bytes and not os.path.exists(str(here / STORE_FILE) + "-wal")
    os.replace(kept / STORE_FILE, here / STORE_FILE)         # the way back the sentence gives
    store = Store(here / STORE_FILE)
    assert len(store.games()) == 5
    store.close()


def test_a_store_of_the_wrong_shape_with_no_replaced_folder_says_restore(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    sqlite_file(data / STORE_FILE, "CREATE TABLE events (id INTEGER PRIMARY KEY)", version=1)
    with pytest.raises(backup.NewsdeskError, match="its table events has no column at, kind and payload.*"
                                                   "restore a backup"):
        Store(data / STORE_FILE)


def test_a_zip_listing_thousands_of_files_is_refused_before_its_directory_is_read(here, tmp_path, capsys,
                                                                                   monkeypatch):
    file = tmp_path / "many.zip"
    with zipfile.ZipFile(file, "w") as z:
        for n in range(5000):
            z.writestr("f%d" % n, b"")
    read = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: read.append(self))
    refused(capsys, here, file, "its zip lists 5000 files, and a backup holds at most 6")
    assert read == []


def _lying_count(entries, file):
    """A zip of ``entries`` empty files whose end record says it holds five (its directory's size
    is left true, as zipfile reads by the size), and, if zip64, the zip64 record likewise."""
    with zipfile.ZipFile(file, "w") as z:
        for n in range(entries):
            z.writestr("f%d" % n, b"")
    body = bytearray(file.read_bytes())
    at = body.rfind(b"PK\x05\x06")
    body[at + 8:at + 12] = struct.pack("<HH", 5, 5)
    file.write_bytes(bytes(body))
    return file


def test_a_zip_whose_directory_is_past_a_backups_is_refused_before_it_is_read(here, tmp_path, capsys,
                                                                              monkeypatch):
    """The end record may say five files while the directory it points at lists 200,000: zipfile
    would read all of it into memory (hundreds of MB on a Pi) before anything could say no."""
    file = _lying_count(20000, tmp_path / "liar.zip")
    read = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: read.append(self))
    refused(capsys, here, file, "its zip's directory is %d bytes, and a backup's is at most %d"
            % (struct.unpack("<I", file.read_bytes()[-10:-6])[0], backup.MOST_DIRECTORY))
    assert read == []


@pytest.mark.slow
def test_a_zip64_directory_is_read_from_its_zip64_end_record(tmp_path):
    """Past 65,535 files a zip's end record says 0xFFFF and the zip64 record beside it has the
    truth: the count and the size are taken from whichever says more, so a lying plain record
    doesn't hide a zip64 one."""
    file = tmp_path / "z64.zip"
    with zipfile.ZipFile(file, "w") as z:
        for n in range(70000):
            z.writestr("f%d" % n, b"")
    body = bytearray(file.read_bytes())
    at = body.rfind(b"PK\x05\x06")
    size = struct.unpack("<I", body[at + 12:at + 16])[0]
    body[at + 8:at + 16] = struct.pack("<HHI", 5, 5, 100)        # the plain record lies
    with open_backup_bytes(tmp_path / "liar64.zip", body) as f:
        assert backup._directory_claimed(f) == (70000, size)


def open_backup_bytes(path, body):
    path.write_bytes(bytes(body))
    return open(path, "rb")


def test_a_manifest_nested_past_pythons_depth_is_one_sentence(here, tmp_path, capsys):
    file = tmp_path / "deep.zip"
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", b"[" * 200000 + b"]" * 200000)
    refused(capsys, here, file, "its manifest.json can't be read (")


def test_a_refused_restore_onto_a_new_card_leaves_no_folder(tmp_path, capsys):
    fresh = tmp_path / "fresh"
    for target in (Path("/dev/zero"), tmp_path / "missing.zip"):
        status, _, err = run(capsys, "restore", "--data", str(fresh), "--yes", str(target))
        assert status == 2 and err.count("\n") == 1, err
        assert not fresh.exists()


def test_a_store_sqlite_cant_read_is_refused_with_the_way_back_too(here, tmp_path, capsys):
    kept = _wrong_store_in_place(here, tmp_path)
    (here / STORE_FILE).write_bytes(b"not a database at all" * 300)
    for argv in (["migrate"], ["serve", "--host", "127.0.0.1", "--port", "0"]):
        status, _, err = run(capsys, "--data", str(here), *argv)
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "the last good one is kept in %s" % kept in err, err


# ------------------------------------------------------------------ the settings, as the next start reads them

def _with_member(good, tmp_path, name, body):
    file = copy_of(good, tmp_path)
    _rewrite(file, lambda m: resum(m, name, body), {name: body})
    return file


@pytest.mark.parametrize("body, words", [
    ("é" * 40 + "\n", "its secret_key is not a key newsdesk writes"),      # the next start could not read it
    ("x" * 5000, "its secret_key is not a key newsdesk writes"),
    ("port = \n", "its settings can't be used (can't read config.toml: "),
    ("port = 99999\n", "its settings can't be used (config.toml: port must be 0-65535, got 99999)"),
    ("colour = 'red'\n", "its settings can't be used (config.toml: unknown setting 'colour'"),
    (b"port = 8081 # \xff\n", "its settings can't be used (can't read config.toml: 'utf-8' codec"),
], ids=["key-not-ascii", "key-too-long", "toml-broken", "port-past-65535", "unknown-setting", "toml-not-utf8"])
def test_settings_the_next_start_could_not_read_are_refused(good, here, tmp_path, capsys, body, words):
    name = backup.SECRET_FILE if "secret" in words else backup.CONFIG_FILE
    body = body if isinstance(body, bytes) else body.encode()
    refused(capsys, here, _with_member(good, tmp_path, name, body), words)


def test_what_is_said_of_a_backup_is_read_from_its_files_not_its_word(good, tmp_path, capsys):
    """A manifest that hides the secret key it carries, and says nothing of when it was made."""
    file = _with_member(good, tmp_path, backup.SECRET_FILE, b"k" * 64 + b"\n")

    def lie(m):
        m["with_secret"] = False
        del m["created"]
        m["newsdesk"] = {"a": [1, 2]}
    _rewrite(file, lie)
    fresh = tmp_path / "fresh"
    status, _, err = run(capsys, "restore", "--data", str(fresh), "--yes", str(file))
    assert status == 0 and "Traceback" not in err, err
    assert "(made at an unknown time by newsdesk unknown)" in err
    assert "the backup has no secret key" not in err and (fresh / backup.SECRET_FILE).read_bytes() == b"k" * 64 + b"\n"
    manifest, _ = backup.stage(tmp_path / "again", file)
    assert manifest["with_secret"] is True


def test_a_restore_finished_as_the_server_starts_serves_with_the_backups_settings(tmp_path, capsys, monkeypatch):
    """The panel's restore restarts serve, whose start puts the backup in place: the settings it
    serves with are the backup's, read after that, not the ones it replaced; but for its port,
    which the box keeps (a backup's would move the panel where nobody looks for it)."""
    from web_ui import server

    made = tmp_path / "made"
    make_box(made, config="port = 8123\nthreads = 12\n")
    backup.make_backup(made, tmp_path / "b.zip")
    here = tmp_path / "here"
    make_box(here, tag="here", config="port = 8081\n")
    manifest, _ = backup.stage(here, tmp_path / "b.zip")
    backup.commit(here, manifest, tmp_path / "b.zip")          # the host confirmed it on the panel
    bound = []

    def bind(host, port):
        bound.append(port)
        raise server.PortBusy("stopped here: the test has seen the port")
    monkeypatch.setattr(server, "bind", bind)
    for name in ("NEWSDESK_PORT", "NEWSDESK_HOST"):
        monkeypatch.delenv(name, raising=False)
    status, _, err = run(capsys, "--data", str(here), "serve")
    assert status == 2 and "stopped here" in err, err
    assert bound == [8081] and "threads = 12" in (here / backup.CONFIG_FILE).read_text()


@pytest.mark.parametrize("change, words", [
    (lambda m: m.update(format_version="2"), "its manifest.json's format_version is not a whole number"),
    (lambda m: m.update(format_version=True), "its manifest.json's format_version is not a whole number"),
    (lambda m: m.update(schema=int("9" * 4000)), "store schema past any newsdesk's; this is"),
    (lambda m: m.update(format_version=10 ** 30), "was written in backup format past any newsdesk's by a newer commit of"),
    (lambda m: m["files"][STORE_FILE].update(bytes=int("9" * 4000)), "and its manifest.json says past any newsdesk's"),
], ids=["format-a-string", "format-true", "schema-4000-digits", "format-10-to-the-30", "bytes-4000-digits"])
def test_a_manifests_version_numbers_are_whole_numbers_and_not_echoed_whole(good, here, tmp_path, capsys, change,
                                                                               words):
    """A format_version of "2" was taken as none (format 0); a 4,000-digit schema was echoed whole."""
    file = copy_of(good, tmp_path)
    _rewrite(file, change)
    err = refused(capsys, here, file, words)
    assert len(err) < 400, err


@pytest.mark.parametrize("kind, words", [
    ("x" * 100000, 'whose kind "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" (100000 characters) is no kind of event'),
    ("dice.rol\x1b[2J", 'whose kind "dice.rol\\u001b[2J" is no kind of event the box keeps'),
], ids=["kind-100000", "kind-escape"])
def test_an_event_of_a_kind_the_box_never_had_is_refused(good, here, tmp_path, capsys, kind, words):
    """Every stored event goes, kind and all, to each tablet catching up and to the MQTT bridge: a
    kind of 100,000 characters (the upload takes 30 MB) came through whole."""
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        (tmp_path / "s.db").write_bytes(z.read(STORE_FILE))
    db = sqlite3.connect(tmp_path / "s.db")
    try:
        db.execute("UPDATE events SET kind = ? WHERE id = (SELECT min(id) FROM events)", (kind,))
        db.commit()
    finally:
        db.close()
    body = (tmp_path / "s.db").read_bytes()
    _rewrite(file, lambda m: resum(m, STORE_FILE, body), {STORE_FILE: body})
    err = refused(capsys, here, file, words)
    assert len(err) < 600 and "\x1b[2J" not in err, err


@pytest.mark.parametrize("sql, words", [
    ("UPDATE devices SET created = 'yesterday'", "its devices.sqlite3's table devices has a row (1) whose created is "
                                                 "not a time"),
    ("UPDATE tokens SET expires = 1e308", "its devices.sqlite3's table tokens has a row (1) whose expires is not a "
                                          "time"),
    # a blob where a text goes is kept as it is by the copy into newsdesk's schema
    ("UPDATE devices SET name = x'00ff'", "its devices.sqlite3's table devices has a row (1) whose name is not text"),
    ("UPDATE devices SET address = x'0a'", "its devices.sqlite3's table devices has a row (1) whose address is not "
                                           "text"),
    # a name of megabytes was shown whole on every host page that listed the devices
    ("UPDATE devices SET name = printf('%.*c', 100000, 'x')", "its devices.sqlite3's table devices has a row (1) "
                                                               "whose name is 100000 characters long, past the 60 "
                                                               "the box makes"),
    ("UPDATE devices SET address = printf('%.*c', 129, '1')", "its devices.sqlite3's table devices has a row (1) "
                                                              "whose address is 129 characters long, past the 128"),
], ids=["device-created-text", "token-expires-1e308", "device-name-blob", "device-address-blob", "device-name-long",
        "device-address-long"])
def test_a_devices_file_whose_times_arent_times_is_refused(good, here, tmp_path, capsys, sql, words):
    """The host's list of devices read each time as one, and each name and address as text:
    text, a blob or 1e308 where a time goes, or a blob where a text does, answered it with a
    500, and the host could no longer list or revoke a device."""
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        (tmp_path / "d.db").write_bytes(z.read(backup.DEVICES_FILE))
    db = sqlite3.connect(tmp_path / "d.db")
    try:
        if db.execute("SELECT count(*) FROM devices").fetchone()[0] == 0:
            db.execute("INSERT INTO devices (id, role, name, via, address, created, status) "
                       "VALUES ('d1', 'player', 'Tab', 'token', '10.0.0.2', 1764400000, 'joined')")
        db.execute(sql)
        db.commit()
    finally:
        db.close()
    body = (tmp_path / "d.db").read_bytes()
    _rewrite(file, lambda m: resum(m, backup.DEVICES_FILE, body), {backup.DEVICES_FILE: body})
    refused(capsys, here, file, words)


@pytest.mark.parametrize("line, setting", [('host = "203.0.113.7"', "host"), ('pinmap = "/etc/hostname"', "pinmap")])
def test_a_setting_this_box_cant_start_on_is_left_out_and_said(good, here, tmp_path, capsys, line, setting):
    """Another box's fixed address (or a stranger's), a pin map's path that isn't one here: the
    box couldn't start on them ("can't listen" at every start, no panel to put it right), and a
    backup restored onto a replacement Pi is what backups are for. The setting is left out of the
    copy restored, commented with why, and the restore says so."""
    from controller.config import load_config

    file = _with_member(good, tmp_path, backup.CONFIG_FILE, ("port = 8081\n%s\n" % line).encode())
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert "its setting %s could not serve this box and is left out (%s = " % (setting, setting) in err
    text = (here / backup.CONFIG_FILE).read_text(encoding="utf-8")
    assert "# " + line in text and "# left out by a restore: " in text
    settings = load_config(here, environ={})
    assert settings["port"] == 8081 and not settings[setting]


HOSTILE_SETTINGS = ('host_on_loopback = "no"\nport = 35979\nmqtt_url = "mqtt://u:hunter2@203.0.113.9:1883"\n'
                    'backup_dir = "/media/x"\n')


def test_the_check_names_each_setting_a_restore_changes_and_keeps_the_boxs_port_and_loopback(good, here, tmp_path,
                                                                                             capsys):
    """A stranger's backup moved the panel to its port, took the box's own screen's host rights
    (host_on_loopback = "no") and sent the event log to an outside broker, and the check said
    nothing of settings. Now the box keeps its own port and host_on_loopback, and every other
    setting that changes is named before the restore, old to new, a password masked."""
    from controller.config import load_config

    file = _with_member(good, tmp_path, backup.CONFIG_FILE, HOSTILE_SETTINGS.encode())
    (here / backup.CONFIG_FILE).write_text('port = 8081\ndice = "3d6"\n')
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert 'mqtt_url "" → "mqtt://u:***@203.0.113.9:1883"' in err, err
    assert 'backup_dir "" → "/media/x"' in err, err
    assert "hunter2" not in err, err
    assert "keeps its own port and host_on_loopback" in err, err
    assert "the other settings stay as they are" in err and ".;" not in err, err
    settings = load_config(here, environ={})
    assert settings["port"] == 8081 and settings["host_on_loopback"] == "yes", err
    assert settings["mqtt_url"] == "mqtt://u:hunter2@203.0.113.9:1883" and settings["dice"] == "3d6"


@pytest.mark.parametrize("name, fill", [(backup.CONFIG_FILE, b"#"), (backup.PROFILE_FILE, b" ")],
                         ids=["config-of-hashes", "profiles-of-spaces"])
def test_a_settings_file_past_what_newsdesk_writes_is_refused_before_it_is_unpacked(good, here, tmp_path, capsys,
                                                                                    name, fill):
    """The zip-bomb guard starts at 64 MB a file: a 132 KB upload unpacking to two 63 MB settings
    files (with an honest manifest) got in, and was copied again into every later replaced-<time>
    folder. A file beside the databases is at most SETTINGS_MOST bytes."""
    body = fill * (2 << 20)
    file = _with_member(good, tmp_path, name, body)
    err = refused(capsys, here, file, "its %s is 2.1 MB, and newsdesk writes at most 1.0 MB there" % name)
    assert "nothing was changed" in err


def test_each_file_the_backup_lacks_is_said_to_be_left_as_it_is(good, here, tmp_path, capsys):
    """A backup without config.toml or dial-profiles.json leaves the box's own in place; the
    restore said so only of the secret key."""
    file = copy_of(good, tmp_path)
    with zipfile.ZipFile(file) as z:
        contents = {n: z.read(n) for n in z.namelist()}
    manifest = json.loads(contents.pop(backup.MANIFEST))
    for name in (backup.CONFIG_FILE, backup.PROFILE_FILE):
        del manifest["files"][name], contents[name]
    file.unlink()
    with zipfile.ZipFile(file, "w") as z:
        z.writestr(backup.MANIFEST, json.dumps(manifest))
        for name, body in contents.items():
            z.writestr(name, body)
    mine = (here / backup.CONFIG_FILE).read_bytes()
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    for name in (backup.CONFIG_FILE, backup.PROFILE_FILE, backup.SECRET_FILE):
        assert "%s as it is (the backup has none)" % name in err, err
    assert "leaves config.toml as it is (the backup has none), " in err, err
    assert "the backup has no config.toml: this box keeps its own" in err, err
    assert "the backup has no dial-profiles.json: this box keeps its own" in err, err
    assert (here / backup.CONFIG_FILE).read_bytes() == mine


def test_a_restore_refused_for_another_restore_says_so_not_serving(good, here, capsys):
    """Two restores into one data folder at once: the second said "newsdesk is serving the data
    folder ...; stop it first", but it was the other restore that held the lock."""
    lock = RunLock(here).acquire()
    try:
        lock.note(doing="restore")        # what a restore in progress writes into the lock file
        status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(good))
    finally:
        lock.release()
    assert status == 2 and "is serving" not in err, err
    assert "another newsdesk restore (pid %d) is restoring into the data folder" % os.getpid() in err, err


def test_the_command_prints_a_files_name_with_its_control_characters_escaped(good, here, tmp_path, capsys):
    """A backup's name holding a terminal's escape codes, a newline or a bidi override reached
    the terminal raw: it could recolour, rewrite or reorder what the restore says."""
    file = copy_of(good, tmp_path, "b\x1b[2K\x1b[31m\u202eevil\npiz.zip")
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert "\x1b" not in err and "\u202e" not in err and "evil\n" not in err, repr(err)
    assert "b\\x1b[2K\\x1b[31m\\u202eevil\\npiz.zip" in err, err
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(tmp_path / "no\x1b[31m.zip"))
    assert status == 2 and "\x1b" not in err and "no\\x1b[31m.zip" in err, repr(err)


def _zip_of(good, path, extra=(), compression=zipfile.ZIP_DEFLATED):
    """``good``'s members in a new zip at ``path``, then each (name, body, compression) of ``extra``."""
    with zipfile.ZipFile(good) as z:
        contents = {n: z.read(n) for n in z.namelist()}
    with zipfile.ZipFile(path, "w", compression=compression) as z:
        for name, body in contents.items():
            z.writestr(name, body)
        for name, body, how in extra:
            z.writestr(name, body, how)
    return path


EVIL = "\x1b[2K\x1b]0;owned\x07\u202eevil\nname"
EVIL_SAID = "\\x1b[2K\\x1b]0;owned\\x07\\u202eevil\\nname"


@pytest.mark.parametrize("case", ["member-unlisted", "member-twice", "member-bzip2", "table", "index", "view"])
def test_names_a_strangers_file_holds_are_said_escaped(good, here, tmp_path, capsys, case):
    """A zip entry's name, or a table's, an index's or a view's in its store, holding a terminal's
    escape codes and a newline reached the terminal raw in the refusal: it could clear the line,
    retitle the window, and split the one sentence in two."""
    if case == "member-twice":
        with pytest.warns(UserWarning, match="Duplicate name"):
            file = _zip_of(good, tmp_path / "b.zip", [(EVIL, b"1", zipfile.ZIP_DEFLATED)] * 2)
    elif case.startswith("member"):
        how = zipfile.ZIP_BZIP2 if case == "member-bzip2" else zipfile.ZIP_DEFLATED
        file = _zip_of(good, tmp_path / "b.zip", [(EVIL, b"1", how)])
    else:
        quoted = '"%s"' % EVIL
        file = _store_with(good, tmp_path, {"table": "CREATE TABLE %s (x)" % quoted,
                                            "index": "CREATE INDEX %s ON events (kind)" % quoted,
                                            "view": "CREATE VIEW %s AS SELECT 1" % quoted}[case])
    err = refused(capsys, here, file, EVIL_SAID)
    assert "\x1b" not in err and "\u202e" not in err, repr(err)


@pytest.mark.parametrize("line, setting", [
    ('pinmap = "/nowhere/\\u001b[31mmap"', "pinmap"),       # read back unreadable from the restore's own comment
    ('backup_dir = "/media/\\u0000usb"', "backup_dir"),      # stopped the backups' keeper at every start
    ('host = "a\\u0000b"', "host"),                          # stopped the restore with a traceback
    ('table_name = "ours\\nand theirs"', "table_name"),
], ids=["pinmap-escape", "backup-dir-nul", "host-nul", "table-name-newline"])
def test_a_setting_holding_a_control_character_is_refused(good, here, tmp_path, capsys, line, setting):
    """A setting is one line of text, and the box's reader now says so: a NUL in a path stopped
    the backups' keeper at every start (os.listdir's ValueError), or the restore's own check of a
    host with a traceback, and an escape reached the terminal of every command naming it."""
    file = _with_member(good, tmp_path, backup.CONFIG_FILE, ("port = 8081\n%s\n" % line).encode())
    err = refused(capsys, here, file, "its settings can't be used (config.toml: %s holds a control character (" % setting)
    assert "\x1b" not in err and "\x00" not in err, repr(err)


@pytest.mark.parametrize("column", [
    # worked out for every row by the integrity check: an error each time it is
    "g AS (abs(-9223372036854775808 + length(kind) * 0)) NOT NULL",
    # ... or, in a 5 KB backup of 200 events, a 100 MB string built per row: the check held for hours
    "g AS (length(replace(hex(zeroblob(50000000 + length(kind))), '0', '00'))) VIRTUAL NOT NULL",
], ids=["error", "cost"])
def test_a_generated_column_in_the_store_is_refused_before_it_is_worked_out(good, here, tmp_path, capsys, column):
    """A generated column is hidden from table_info, so the shape check passed it, and SQLite's
    integrity check, run first, worked its expression out for every row: the file chose what the
    box computed. It is now a column newsdesk doesn't make, refused before the integrity check."""
    sql = ("PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql = replace(sql, 'payload TEXT NOT NULL', "
           "'payload TEXT NOT NULL, %s') WHERE name = 'events'; PRAGMA writable_schema=OFF" % column.replace("'", "''"))
    refused(capsys, here, _store_with(good, tmp_path, sql),
            "its %s is not newsdesk's store at schema %d (its table events has columns newsdesk doesn't make (g))"
            % (STORE_FILE, SCHEMA_VERSION))


@pytest.mark.parametrize("journal", [
    [], "x", {"files": 5, "replaced": "replaced-x"}, {"files": [STORE_FILE]},
    {"files": ["../outside"], "replaced": "replaced-x"}, {"files": [STORE_FILE], "replaced": "replaced-x/../../out"},
], ids=["list", "text", "files-a-number", "no-folder", "file-outside", "folder-outside"])
def test_a_restore_journal_of_another_shape_is_one_sentence_and_moves_nothing(here, capsys, journal):
    """The journal is read at every start: one of another shape (a damaged card, a hand edit)
    stopped it with a traceback, after making the folder it named; one naming a path outside
    the data folder would have moved files from there."""
    (here / backup.JOURNAL).write_text(json.dumps(journal))
    before = files_of(here)
    status, _, err = run(capsys, "restore", "--data", str(here))
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "the restore journal %s can't be read (" % (here / backup.JOURNAL) in err, err
    assert files_of(here) == before


def test_an_event_id_at_sqlites_end_in_a_store_at_schema_1_is_refused_too(good, here, tmp_path, capsys):
    """The ids were judged with the games, which a store at schema 1 doesn't have yet: its event
    at id 2**63 - 1 came through, and every write after the restore was "database or disk is
    full"."""
    from controller.store import MIGRATIONS

    old = sqlite_file(tmp_path / "old.db", "; ".join(MIGRATIONS[1]) + "; INSERT INTO events (id, at, kind, payload) "
                      "VALUES (9223372036854775807, '2026-01-01T00:00:00+00:00', 'note', '{}')", version=1)
    file = copy_of(good, tmp_path)
    _rewrite(file, lambda m: (resum(m, STORE_FILE, old), m.update(schema=1)), {STORE_FILE: old})
    refused(capsys, here, file, "its %s's table events has row ids outside 1 to %d" % (STORE_FILE, 2 ** 53))


@pytest.mark.parametrize("sql, words", [
    ("UPDATE events SET at = x'00ff' WHERE id = 1", "its table events has a row (1) whose at is not text"),
    ("UPDATE events SET kind = x'00ff' WHERE id = 1", "its table events has a row (1) whose kind is not text"),
], ids=["event-at-blob", "event-kind-blob"])
def test_a_blob_where_the_store_keeps_text_is_refused(good, here, tmp_path, capsys, sql, words):
    """The copy into newsdesk's own schema keeps a blob as it is: one as an event's time or kind
    came through, and every tablet catching up from before that event failed to be sent it
    (bytes are no JSON)."""
    refused(capsys, here, _store_with(good, tmp_path, sql), "its %s's %s" % (STORE_FILE, words[4:]))


@pytest.mark.parametrize("sql, words", [
    # SQLite's JSON check takes bytes that are no UTF-8 inside a string
    ("UPDATE events SET payload = CAST(x'7b2261223a22ff227d' AS TEXT) WHERE id = 1",
     "its table events has a row (1) whose payload is not UTF-8 text"),
    ("UPDATE events SET at = CAST(x'32303236ff' AS TEXT) WHERE id = 1",
     "its table events has a row (1) whose at is not UTF-8 text"),
], ids=["event-payload", "event-at"])
def test_text_that_is_no_utf8_is_refused(good, here, tmp_path, capsys, sql, words):
    """Restored, every read of the events from that one on failed ("Could not decode to UTF-8"),
    a tablet catching up among them."""
    refused(capsys, here, _store_with(good, tmp_path, sql), "its %s's %s" % (STORE_FILE, words[4:]))


def test_a_journal_cut_off_while_it_was_written_goes_with_the_staging_folder(here, capsys):
    """A cut between writing the journal's temporary file and its rename (the commit point): the
    next start threw the staging folder away, and the half-written journal stayed in the data
    folder for good."""
    before = files_of(here)
    (here / backup.STAGING).mkdir()
    (here / backup.STAGING / STORE_FILE).write_bytes(b"staged")
    (here / (backup.JOURNAL + ".tmp")).write_text('{"backup": "b.zip", "repl')
    status, _, err = run(capsys, "restore", "--data", str(here))
    assert status == 0 and "no interrupted restore to finish" in err, err
    assert files_of(here) == before


@pytest.mark.parametrize("line, setting", [
    ('pinmap = "%s"', "pinmap"),                # a pipe: opened, it waited for a writer for ever
], ids=["pinmap-fifo"])
def test_a_setting_that_names_no_address_or_file_is_left_out_not_a_crash(good, here, tmp_path, capsys, line,
                                                                          setting):
    """The check reads the settings as the box will: a pin map naming a pipe held the restore
    for ever (one naming /dev/zero was read until the memory ran out, not tried here)."""
    fifo = tmp_path / "pins.fifo"
    os.mkfifo(fifo)
    file = _with_member(good, tmp_path, backup.CONFIG_FILE, ("port = 8081\n%s\n" % (line.replace("%s", str(fifo))
                                                                                     if "%s" in line else line)).encode())
    said = []
    t = threading.Thread(target=lambda: said.append(run(capsys, "restore", "--data", str(here), "--yes", str(file))))
    t.start()
    t.join(20)
    if t.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))       # frees the reader, so the test ends
        t.join(20)
        pytest.fail("the restore did not return")
    status, _, err = said[0]
    assert status == 0, err
    assert "its setting %s could not serve this box and is left out" % setting in err, err


def test_a_setting_of_this_box_kept_by_a_restore_is_written_as_toml_reads_it(good, here, tmp_path, capsys):
    """A setting the backup doesn't set is written back from this box's: a table name with an
    emoji was written as JSON writes it (two \\u escapes of surrogates), which TOML refuses, and
    the box could not start on the config.toml its own restore wrote."""
    from controller.config import load_config

    (here / backup.CONFIG_FILE).write_text('port = 8081\ntable_name = "Game night \U0001f600"\n', encoding="utf-8")
    file = _with_member(good, tmp_path, backup.CONFIG_FILE, b"port = 8081\n")
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert load_config(here, environ={})["table_name"] == "Game night \U0001f600"


@pytest.mark.parametrize("body, setting, kept", [
    ('"port" = 9999\n', "port", 8081),                                 # a quoted key: valid TOML
    ('port = 8081\nhost_on_loopback = """\nno"""\n', "host_on_loopback", "yes"),    # a value over two lines
    ('port = 8081\n"host" = "203.0.113.7"\n', "host", ""),             # left out as not an address of this box
], ids=["port-quoted-key", "loopback-over-two-lines", "host-quoted-key"])
def test_a_setting_a_restore_leaves_out_is_left_out_whatever_toml_form_it_takes(good, here, tmp_path, capsys, body,
                                                                                  setting, kept):
    """The restore took a setting apart line by line: a quoted key stayed set (a backup's port
    over this box's own, a fixed address the box could not listen on) or a value over two lines
    left its second line behind, and the box could not start on the config.toml restored."""
    from controller.config import load_config

    file = _with_member(good, tmp_path, backup.CONFIG_FILE, body.encode())
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert load_config(here, environ={})[setting] == kept


def test_a_tab_in_a_setting_is_still_one_line_of_text(good, here, tmp_path, capsys):
    """The reader refuses a setting holding a control character, but not a tab, which TOML
    writes as it is: a box (or its backup) whose table name held one was still read."""
    from controller.config import load_config

    file = _with_member(good, tmp_path, backup.CONFIG_FILE, b'port = 8081\ntable_name = "Game\tnight"\n')
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0, err
    assert load_config(here, environ={})["table_name"] == "Game\tnight"


@pytest.mark.parametrize("lie", [
    {"settings": {"changed": "x", "kept": 5}},
    {"left_out": {"host": 5}},
    {"settings": {"changed": [["port", 8081, 1]], "kept": []}, "left_out": {"pinmap": "made up"}},
], ids=["settings-of-another-shape", "left-out-of-another-shape", "settings-made-up"])
def test_what_a_restore_does_to_the_settings_is_never_the_manifests_word(good, here, tmp_path, capsys, lie):
    """What the restore changes and leaves out of the settings is worked out from the backup's
    config.toml; in a backup without one, the manifest's own "settings" and "left_out" were taken
    as that: said to the host as what the restore would do, or, of another shape, a traceback."""
    file = copy_of(good, tmp_path)

    def rewrite(m):
        del m["files"][backup.CONFIG_FILE]
        m.update(lie)
    with zipfile.ZipFile(file) as z:
        kept = {n: z.read(n) for n in z.namelist() if n not in (backup.CONFIG_FILE, "manifest.json")}
        manifest = json.loads(z.read("manifest.json"))
    rewrite(manifest)
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps(manifest))
        for name, body in kept.items():
            z.writestr(name, body)
    status, _, err = run(capsys, "restore", "--data", str(here), "--yes", str(file))
    assert status == 0 and "Traceback" not in err, err
    assert "changes the setting" not in err and "left out" not in err and "made up" not in err, err
