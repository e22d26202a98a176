"""newsdesk backup and restore: one checked file; a restore that refuses what it can't use in one
sentence, says what it replaces and keeps it; and a power cut at any step of a restore (or of a
backup) leaves a data folder that opens whole, with the old data or the new."""

import concurrent.futures
import hashlib
import importlib.metadata
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

from controller import backup, doctor
from controller.config import load_config
from controller.devices import Devices
from controller.errors import ConfigError
from controller.runlock import LOCK_FILE, RunLock
from controller.store import SCHEMA_VERSION, STORE_FILE, Store
from newsdesk.cli import main

REPO = Path(__file__).resolve().parents[1]


def setup_entry():
    return {"type": "setup", "said": "set up", "events": [{"type": "setup"}]}


def make_box(data, games=2, tag="old", config="port = 8081\n"):
    """A data folder as a box leaves it: ``games`` finished games and one being played, a joined
    device's invitation, settings, a dial profile and a secret key; ``tag`` marks every file."""
    store = Store(data / STORE_FILE)
    store.append("editor.verdict", {"tag": tag})
    for n in range(games + 1):
        game, _, _ = store.start_game("scoop1956", [{"name": "Ann"}, {"name": tag}], {}, setup_entry(),
                                      key="%s-setup-%d" % (tag, n))
        if n < games:
            store.end_game(game.id, game.version, "finished", winners=["Ann"], final={"tag": tag})
    store.close()
    Devices(data / backup.DEVICES_FILE).issue_token("host", tag, ttl=600)
    (data / backup.CONFIG_FILE).write_text(config + "# %s\n" % tag)
    (data / backup.PROFILE_FILE).write_text(json.dumps({"GPO 746": {"ratio": 1.5, "tag": tag}}))
    (data / backup.SECRET_FILE).write_text(tag * 40 + "\n")


def _rows(path, *tables):
    """The tables' rows as SQLite reads them (through the -wal beside the file), read from a copy
    so the folder looked at is left exactly as it was (no checkpoint, no log removed)."""
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", "-wal"):
            if os.path.exists(str(path) + suffix):
                shutil.copyfile(str(path) + suffix, os.path.join(tmp, "db" + suffix))
        db = sqlite3.connect(os.path.join(tmp, "db"))
        try:
            return tuple(tuple(db.execute("SELECT * FROM %s ORDER BY 1" % t).fetchall()) for t in tables)
        finally:
            db.close()


def fingerprint(data):
    """What a box starting on ``data`` would see: the store's and the devices' rows, the other
    files' bytes (a store's -wal is read through, not compared byte by byte: SQLite may fold it
    in when it opens the store). Leftovers of a restore (staging, journal) are part of it, so a folder that
    still holds them never passes for a whole one."""
    seen = {}
    for name in sorted(os.listdir(data)):
        path = data / name
        if name == STORE_FILE:
            seen[name] = _rows(path, "events", "games", "game_entries")
        elif name == backup.DEVICES_FILE:
            seen[name] = _rows(path, "devices", "tokens")
        elif name in (backup.CONFIG_FILE, backup.PROFILE_FILE, backup.SECRET_FILE, backup.JOURNAL,
                      backup.STAGING):
            seen[name] = path.read_bytes() if path.is_file() else "folder"
    return seen


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def box(tmp_path):
    data = tmp_path / "data"
    make_box(data)
    return data


# ------------------------------------------------------------------ --version

def test_version_is_the_packages_own(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == "newsdesk %s\n" % importlib.metadata.version("newsdesk")


# ------------------------------------------------------------------ backup

def test_a_backup_holds_each_file_checksummed_with_the_versions(box, tmp_path, capsys):
    file = tmp_path / "b.zip"
    status, out, err = run(capsys, "backup", "--data", str(box), str(file))
    assert status == 0 and out.strip() == str(file)
    with zipfile.ZipFile(file) as z:
        manifest = json.loads(z.read("manifest.json"))
        assert sorted(z.namelist()) == sorted(["manifest.json", STORE_FILE, "devices.sqlite3", "config.toml",
                                               "dial-profiles.json"])
        for name, facts in manifest["files"].items():
            body = z.read(name)
            assert hashlib.sha256(body).hexdigest() == facts["sha256"] and len(body) == facts["bytes"]
    assert manifest["format"] == "newsdesk-backup" and manifest["format_version"] == 1
    assert manifest["newsdesk"] == importlib.metadata.version("newsdesk")
    assert manifest["schema"] == SCHEMA_VERSION
    assert manifest["with_secret"] is False and "secret_key" not in manifest["files"]
    assert manifest["store"] == {"games": 2, "active": True, "events": 6, "last_ended": manifest["store"]["last_ended"]}
    assert "2 kept games" in err and "secret key is not in it" in err
    assert file.stat().st_mode & 0o077 == 0          # it holds MQTT's password, maybe the key: the owner's only


def test_the_secret_key_only_on_request_and_then_said(box, tmp_path, capsys):
    file = tmp_path / "b.zip"
    status, _, err = run(capsys, "backup", "--data", str(box), "--with-secret", str(file))
    assert status == 0 and "holds the panel's secret key" in err
    with zipfile.ZipFile(file) as z:
        assert z.read("secret_key") == (box / "secret_key").read_bytes()
        assert json.loads(z.read("manifest.json"))["with_secret"] is True


def test_nothing_to_back_up_is_one_sentence(tmp_path, capsys):
    status, _, err = run(capsys, "backup", "--data", str(tmp_path / "empty"), str(tmp_path / "b.zip"))
    assert status == 2 and err.count("\n") == 1 and "nothing to back up" in err
    assert not (tmp_path / "b.zip").exists()


def test_a_backup_is_one_moment_and_never_holds_the_table_up(box, tmp_path):
    """The copy runs in many small steps; between them the panel's store commits moves at once
    (no lock waited for), and the copy stays the moment it began."""
    store = Store(box / STORE_FILE)
    before = store.last_id()
    took = []

    def move(remaining, total):
        t = time.monotonic()
        store.append("editor.verdict", {"during": remaining})
        took.append(time.monotonic() - t)

    backup.snapshot(box / STORE_FILE, tmp_path / "copy.sqlite3", pages=1, pause=0, progress=move)
    store.close()
    assert len(took) >= 5, "the copy was not made in steps"
    assert max(took) < 0.5, took
    (ids,) = _rows(tmp_path / "copy.sqlite3", "events")
    assert [r[0] for r in ids][-1] == before        # none of the moves made meanwhile, all before
    assert len(_rows(box / STORE_FILE, "events")[0]) == before + len(took)


def test_a_cut_before_the_rename_leaves_no_backup_under_its_name(box, tmp_path):
    file = tmp_path / "usb" / "b.zip"
    file.parent.mkdir()

    class Cut(BaseException):
        pass

    def cut():
        raise Cut()
    with pytest.raises(Cut):
        backup.make_backup(box, file, before_rename=cut)
    assert os.listdir(file.parent) == []
    backup.make_backup(box, file)
    assert zipfile.ZipFile(file).testzip() is None


def test_a_killed_backup_leaves_the_old_file_or_a_whole_new_one(box, tmp_path):
    """SIGKILL just before the rename, with an older backup under the name: it is still there, whole."""
    file = tmp_path / "b.zip"
    backup.make_backup(box, file)
    old = file.read_bytes()
    script = ("import os, signal, sys; from pathlib import Path; from controller import backup; "
              "backup.make_backup(Path(sys.argv[1]), Path(sys.argv[2]), "
              "before_rename=lambda: os.kill(os.getpid(), signal.SIGKILL))")
    r = subprocess.run([sys.executable, "-c", script, str(box), str(file)], cwd=REPO, timeout=60)
    assert r.returncode == -signal.SIGKILL
    assert file.read_bytes() == old


def test_backup_dir_keeps_the_newest_backup_keep(box, tmp_path, capsys):
    usb = tmp_path / "usb"
    usb.mkdir()
    (usb / "notes.txt").write_text("mine")
    (box / "config.toml").write_text('backup_dir = "%s"\nbackup_keep = 2\n' % usb)
    said = [run(capsys, "backup", "--data", str(box)) for _ in range(3)]
    assert [status for status, _, _ in said] == [0, 0, 0]
    kept = backup.backups_in(os.listdir(usb))
    assert len(kept) == 2 and (usb / "notes.txt").exists()
    assert [out.strip() for _, out, _ in said[1:]] == [str(usb / name) for name in kept]
    assert "removed 1 older backup" in said[2][2] and "removed" not in said[1][2]
    usb_gone = tmp_path / "usb-unplugged"
    (box / "config.toml").write_text('backup_dir = "%s"\n' % usb_gone)
    status, _, err = run(capsys, "backup", "--data", str(box))
    assert status == 2 and "is missing" in err and not usb_gone.exists()      # never onto the SD card instead


def test_rotation_orders_by_time_and_number_and_touches_nothing_else():
    names = ["newsdesk-backup-20261126T101010Z-2.zip", "newsdesk-backup-20261126T101010Z.zip",
             "newsdesk-backup-20251231T235959Z.zip", "mine.zip", ".newsdesk-backup-x.zip.partial"]
    assert backup.backups_in(names) == ["newsdesk-backup-20251231T235959Z.zip",
                                        "newsdesk-backup-20261126T101010Z.zip",
                                        "newsdesk-backup-20261126T101010Z-2.zip"]
    assert backup.to_rotate(names, 1) == backup.backups_in(names)[:2]
    assert backup.to_rotate(names, 5) == []
    assert backup.free_name(["newsdesk-backup-19700101T000000Z.zip"], clock=lambda: 0) == \
        "newsdesk-backup-19700101T000000Z-2.zip"


def test_backup_keep_is_checked():
    with pytest.raises(ConfigError, match="backup_keep"):
        load_config("/nonexistent", overrides={"backup_keep": 0}, environ={})


# ------------------------------------------------------------------ restore

@pytest.fixture
def made(box, tmp_path):
    """A backup of ``box``, and a new box of its own (other games) to restore over."""
    file = tmp_path / "b.zip"
    backup.make_backup(box, file, with_secret=True)
    other = tmp_path / "other"
    make_box(other, games=5, tag="new", config="port = 8081\n")    # its own port, which a restore keeps
    return file, box, other


def test_a_new_card_gets_the_backup_without_a_question(made, tmp_path, capsys):
    file, box, _ = made
    fresh = tmp_path / "fresh"
    status, _, err = run(capsys, "restore", "--data", str(fresh), str(file))
    assert status == 0, err
    assert {k: v for k, v in fingerprint(fresh).items()} == fingerprint(box)
    assert not [n for n in os.listdir(fresh) if n.startswith("replaced-")]
    store = Store(fresh / STORE_FILE)
    assert len(store.games()) == 2
    store.close()


def test_restoring_over_games_says_what_it_replaces_and_keeps_it(made, capsys, monkeypatch):
    file, box, other = made
    before = fingerprint(other)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    status, _, err = run(capsys, "restore", "--data", str(other), str(file))
    assert status == 1 and "5 kept games" in err and "2 kept games" in err and "nothing was changed" in err
    assert fingerprint(other) == before
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    status, _, err = run(capsys, "restore", "--data", str(other), str(file))
    assert status == 0, err
    replaced = [n for n in os.listdir(other) if n.startswith("replaced-")]
    assert len(replaced) == 1 and replaced[0] in err
    kept = {k: v for k, v in fingerprint(other).items() if not k.startswith("replaced-")}
    assert kept == fingerprint(box)
    assert fingerprint(other / replaced[0]) == {k: v for k, v in before.items()}


def test_a_restore_leaves_no_lock_file_of_its_own_in_the_folder(made, tmp_path, monkeypatch, capsys):
    """'nothing was changed' holds for the folder's listing too: the run lock a restore takes is
    not left behind (an empty serve.lock) in a folder that had none, whether the restore was
    declined, refused for a stranger's file, or done. (The store's -wal and -shm come and go as
    SQLite reads it: fingerprint above reads them through.)"""
    file, _, other = made

    def listing():
        return sorted(n for n in os.listdir(other) if not n.endswith(("-wal", "-shm")))
    names = listing()
    assert LOCK_FILE not in names
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert run(capsys, "restore", "--data", str(other), str(file))[0] == 1          # declined
    assert listing() == names
    stranger = tmp_path / "stranger.zip"
    stranger.write_bytes(b"PK\x03\x04" + b"not a backup at all" * 50)
    status, _, err = run(capsys, "restore", "--data", str(other), "--yes", str(stranger))
    assert status == 2 and "Traceback" not in err                                     # refused
    assert listing() == names
    assert run(capsys, "restore", "--data", str(other), "--yes", str(file))[0] == 0  # done
    assert LOCK_FILE not in os.listdir(other)


def test_another_tables_backup_is_said_to_be_another_tables(made, tmp_path, capsys):
    file, box, other = made
    status, _, err = run(capsys, "restore", "--data", str(other), str(file))      # no terminal: asked, refused
    assert status == 2 and err.startswith("The backup %s is another table's: its store began " % file), err
    store = Store(box / STORE_FILE)                 # this table's own backup, with a move made since
    store.append("editor.verdict", {"tag": "later"})
    store.close()
    status, _, err = run(capsys, "restore", "--data", str(box), str(file))
    assert status == 2 and "another table" not in err and err.startswith("The data folder %s has" % box), err


def test_without_a_terminal_it_asks_for_yes(made, capsys):
    file, _, other = made
    before = fingerprint(other)
    status, _, err = run(capsys, "restore", "--data", str(other), str(file))   # pytest's stdin: no terminal
    assert status == 2 and "--yes" in err and fingerprint(other) == before
    assert run(capsys, "restore", "--data", str(other), "--yes", str(file))[0] == 0


def _rewrite(file, manifest_change=None, members=None):
    """The backup ``file`` rewritten with its manifest changed and members replaced."""
    with zipfile.ZipFile(file) as z:
        contents = {n: z.read(n) for n in z.namelist()}
    manifest = json.loads(contents["manifest.json"])
    for name, body in (members or {}).items():
        contents[name] = body
    if manifest_change:
        manifest_change(manifest)
    contents["manifest.json"] = json.dumps(manifest).encode()
    file.unlink()
    with zipfile.ZipFile(file, "w") as z:
        for name, body in contents.items():
            z.writestr(name, body)


def _store_bytes(file, sql):
    """The backup's store with ``sql`` run on it, as bytes."""
    with zipfile.ZipFile(file) as z:
        body = z.read(STORE_FILE)
    tmp = Path(str(file) + ".db")
    tmp.write_bytes(body)
    db = sqlite3.connect(tmp)
    db.executescript(sql)
    db.close()
    return tmp.read_bytes()


def _resum(manifest, name, body):
    manifest["files"][name] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}


def _refused(capsys, other, file, words):
    before = fingerprint(other)
    status, out, err = run(capsys, "restore", "--data", str(other), "--yes", str(file))
    assert status == 2 and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err
    assert fingerprint(other) == before
    assert not (other / backup.STAGING).exists()
    return err


def test_a_backup_from_a_newer_newsdesk_is_refused_in_one_sentence(made, capsys):
    file, _, other = made
    newer = _store_bytes(file, "PRAGMA user_version=99;")

    def bump(m):
        m["schema"] = 99
        m["newsdesk"] = "9.0.0"
        _resum(m, STORE_FILE, newer)
    _rewrite(file, bump, {STORE_FILE: newer})
    err = _refused(capsys, other, file, "was made by a newer newsdesk (9.0.0, store schema 99")
    assert "update newsdesk" in err


def test_a_changed_member_fails_its_checksum(made, capsys):
    file, _, other = made
    _rewrite(file, members={"config.toml": b"port = 9999\n# old\n"})      # the same size, other bytes
    _refused(capsys, other, file, "config.toml doesn't match its checksum")
    _rewrite(file, members={"config.toml": b"port = 1\n"})
    _refused(capsys, other, file, "its config.toml is 9 bytes, and its manifest.json says 18")


def test_a_damaged_database_fails_the_integrity_check_even_with_good_checksums(made, capsys):
    file, _, other = made
    with zipfile.ZipFile(file) as z:
        body = bytearray(z.read(STORE_FILE))
    for page in range(4096, len(body), 4096):           # every page's type byte torn (page 1 is the header's)
        body[page] = 0x99
    _rewrite(file, lambda m: _resum(m, STORE_FILE, bytes(body)), {STORE_FILE: bytes(body)})
    _refused(capsys, other, file, "fails SQLite's integrity check")


@pytest.mark.parametrize("what, words", [
    ("not a zip", "not a newsdesk backup"),
    ("no manifest", "has no manifest.json"),
    ("a stranger", "not a file newsdesk keeps"),
    ("missing", "there is no backup at"),
])
def test_what_is_not_a_backup_is_one_sentence(made, capsys, what, words):
    file, _, other = made
    if what == "not a zip":
        file.write_bytes(b"hello")
    elif what == "no manifest":
        with zipfile.ZipFile(file, "w") as z:
            z.writestr("newsdesk.sqlite3", b"")
    elif what == "a stranger":
        _rewrite(file, lambda m: _resum(m, "../../etc/passwd", b"x"), {"../../etc/passwd": b"x"})
    else:
        file.unlink()
    _refused(capsys, other, file, words)


def test_no_restore_while_a_server_holds_the_folder(made, capsys):
    file, _, other = made
    with RunLock(other):
        _refused(capsys, other, file, "stop it first")


def test_an_older_backup_is_migrated_forward_when_opened(tmp_path, capsys):
    old = tmp_path / "old"
    old.mkdir()
    db = sqlite3.connect(old / STORE_FILE)
    db.executescript("""
        CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, kind TEXT NOT NULL,
                             payload TEXT NOT NULL);
        CREATE INDEX events_kind ON events (kind, id);
        INSERT INTO events (at, kind, payload) VALUES ('2024-05-01T20:00:00.000+00:00', 'editor.verdict', '{}');
        PRAGMA user_version=1;""")
    db.close()
    file = tmp_path / "old.zip"
    assert backup.make_backup(old, file)["schema"] == 1
    fresh = tmp_path / "fresh"
    status, _, err = run(capsys, "restore", "--data", str(fresh), str(file))
    assert status == 0 and "brings it to %d" % SCHEMA_VERSION in err
    store = Store(fresh / STORE_FILE)
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert len(store.since(0)) == 1 and store.games() == []
    store.close()


def test_a_damaged_store_here_is_no_reason_to_refuse(made, capsys):
    """Restoring over a store the card has eaten is what restore is for."""
    file, box, other = made
    (other / STORE_FILE).write_bytes(b"this is not a database" * 200)
    for name in ("-wal", "-shm"):
        Path(str(other / STORE_FILE) + name).unlink(missing_ok=True)
    status, _, err = run(capsys, "restore", "--data", str(other), "--yes", str(file))
    assert status == 0, err
    assert fingerprint(other)[STORE_FILE] == fingerprint(box)[STORE_FILE]


# ------------------------------------------------------------------ a power cut during a restore

class Cut(BaseException):
    """The power going: nothing after the step runs."""


def _cutter(at):
    done = []

    def step(what):
        done.append(what)
        if len(done) == at:
            raise Cut(what)
    return step, done


def _with_unsaved_log(data):
    """Leave ``data``'s store as a power cut leaves a running one: commits still in its -wal."""
    src = data.parent / ("wal-" + data.name)
    src.mkdir()
    shutil.copyfile(data / STORE_FILE, src / STORE_FILE)
    db = sqlite3.connect(src / STORE_FILE, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("INSERT INTO events (at, kind, payload) VALUES ('now', 'editor.verdict', '{\"in\": \"wal\"}')")
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(str(src / STORE_FILE) + suffix, str(data / STORE_FILE) + suffix)
    db.close()


def _states(made, tmp_path):
    file, box, other = made
    _with_unsaved_log(other)
    pristine = tmp_path / "pristine"
    shutil.copytree(other, pristine)
    expect_old = tmp_path / "expect-old"
    shutil.copytree(other, expect_old)
    assert backup.finish_restore(expect_old) is False
    old = fingerprint(expect_old)
    assert any('"in": "wal"' in str(row) for row in old[STORE_FILE][0]), "the old store's log was lost"
    return file, pristine, old, fingerprint(box)


def _opened(data):
    """As the next start does: finish or throw away a cut-off restore, then open the store."""
    backup.finish_restore(data)
    store = Store(data / STORE_FILE)
    store.close()
    return {k: v for k, v in fingerprint(data).items()}


@pytest.mark.slow
def test_a_power_cut_at_any_step_of_a_restore_opens_whole(made, tmp_path):
    file, pristine, old, new = _states(made, tmp_path)
    steps = None
    at = 1
    while True:
        data = tmp_path / ("cut-%d" % at)
        shutil.copytree(pristine, data)
        step, done = _cutter(at)
        try:
            backup.restore(data, file, confirm=lambda words: True, step=step)
            steps = at - 1
            break
        except Cut:
            pass
        seen = _opened(data)
        committed = "journal written" in done
        assert seen == (new if committed else old), "cut after %r" % done[-1]
        assert backup.JOURNAL not in os.listdir(data) and backup.STAGING not in os.listdir(data)
        if committed:
            replaced = [n for n in os.listdir(data) if n.startswith("replaced-")]
            assert fingerprint(data / replaced[0]) == {k: v for k, v in _files_of(pristine).items()}
        at += 1
    assert steps is not None and steps >= 10, "restore went through only %s steps" % steps


def _files_of(data):
    """``data``'s files as the replaced folder keeps them (the store's log beside it, unread)."""
    copy = data.parent / ("files-" + data.name)
    if not copy.exists():
        copy.mkdir()
        for name in os.listdir(data):
            if name != "serve.lock" and (data / name).is_file():
                shutil.copyfile(data / name, copy / name)
    return fingerprint(copy)


@pytest.mark.slow
def test_a_second_cut_while_the_next_start_finishes_still_opens_whole(made, tmp_path):
    file, pristine, old, new = _states(made, tmp_path)
    for first in (3, 6, 9):
        for second in (1, 2, 4):
            data = tmp_path / ("cut-%d-%d" % (first, second))
            shutil.copytree(pristine, data)
            with pytest.raises(Cut):
                backup.restore(data, file, confirm=lambda words: True, step=_cutter(first)[0])
            try:
                backup.finish_restore(data, step=_cutter(second)[0])
            except Cut:
                pass
            assert _opened(data) == new, (first, second)


KILLER = """
import os, signal, sys
from pathlib import Path
from controller import backup
at = int(sys.argv[3])
done = []
def step(what):
    done.append(what)
    if len(done) == at:
        os.kill(os.getpid(), signal.SIGKILL)
backup.restore(Path(sys.argv[1]), Path(sys.argv[2]), confirm=lambda words: True, step=step)
"""


@pytest.mark.slow
def test_a_restore_killed_at_each_step_opens_whole(made, tmp_path):
    """The same with the process really killed (SIGKILL): no clean-up code runs at all. The
    steps are counted by a whole restore first; the kills run a few at a time."""
    file, pristine, old, new = _states(made, tmp_path)
    counted, done = _cutter(0)
    shutil.copytree(pristine, tmp_path / "counted")
    backup.restore(tmp_path / "counted", file, confirm=lambda words: True, step=counted)

    def kill_at(at):
        data = tmp_path / ("kill-%d" % at)
        shutil.copytree(pristine, data)
        r = subprocess.run([sys.executable, "-c", KILLER, str(data), str(file), str(at)], cwd=REPO, timeout=120)
        assert r.returncode == -signal.SIGKILL, "step %d: not killed (%s)" % (at, r.returncode)
        seen = _opened(data)
        assert seen in (old, new), "killed at step %d" % at
        return "new" if seen == new else "old"
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(kill_at, range(1, len(done) + 1)))
    assert len(done) > 10 and outcomes[0] == "old" and outcomes[-1] == "new"
    assert outcomes == sorted(outcomes, key=("old", "new").index)     # old until the journal, new from it


def test_restore_without_a_file_finishes_an_interrupted_one(made, tmp_path, capsys):
    file, box, other = made
    with pytest.raises(Cut):
        backup.restore(other, file, confirm=lambda words: True, step=_cutter(4)[0])
    status, _, err = run(capsys, "backup", "--data", str(other), str(tmp_path / "x.zip"))
    assert status == 2 and "interrupted" in err
    report = _doctor(load_config(other, environ={}))
    assert report["backup"].status == "fault" and "cut off" in report["backup"].said
    status, _, err = run(capsys, "restore", "--data", str(other))
    assert status == 0 and "finished a restore" in err
    kept = {k: v for k, v in fingerprint(other).items() if not k.startswith("replaced-")}
    assert kept == fingerprint(box)


# ------------------------------------------------------------------ the doctor

def _doctor(config, free=10 * 2**30):
    d = doctor._Doctor(config, doctor.Probes(disk_free=lambda path: free))
    d.check_backup()
    return {f.check: f for f in d.findings}


def test_the_doctor_says_how_the_backups_stand(box, tmp_path):
    usb = tmp_path / "usb"
    config = load_config(box, overrides={"backup_dir": str(usb)}, environ={})
    assert _doctor(load_config(box, environ={}))["backup"].status == "ok"      # none set: said, not a warning
    found = _doctor(config)["backup"]
    assert found.status == "warn" and "missing" in found.said
    usb.mkdir()
    assert "no backup" in _doctor(config)["backup"].said
    made = usb / backup.default_name()
    backup.make_backup(box, made)
    assert _doctor(config)["backup"].status == "ok"
    assert "nearly full" in _doctor(config, free=10)["backup"].said
    eight_days = time.time() - 8 * 86400
    os.utime(made, (eight_days, eight_days))
    found = _doctor(config)["backup"]
    assert found.status == "warn" and "8 days old" in found.said


def test_a_backup_while_the_store_is_written_from_another_thread_is_whole(box, tmp_path):
    """The panel's writer keeps writing on its own thread for the whole backup; the file checks out."""
    store = Store(box / STORE_FILE)
    stop = threading.Event()

    def writer():
        while not stop.is_set():
            store.append("editor.verdict", {"busy": True})
    t = threading.Thread(target=writer)
    t.start()
    try:
        manifest = backup.make_backup(box, tmp_path / "b.zip")
    finally:
        stop.set()
        t.join()
        store.close()
    fresh = tmp_path / "fresh"
    backup.restore(fresh, tmp_path / "b.zip", confirm=lambda words: True)
    assert manifest["store"]["events"] == len(_rows(fresh / STORE_FILE, "events")[0]) >= 6


@pytest.mark.slow
def test_the_next_start_of_the_server_finishes_a_cut_off_restore(made, tmp_path):
    """A power cut after the restore's commit point, then the box boots: `newsdesk serve` puts the
    backup's data in place before it opens the store (it never serves a mixture)."""
    import importlib.util

    file, box, other = made
    with pytest.raises(Cut):
        backup.restore(other, file, confirm=lambda words: True, step=_cutter(4)[0])
    spec = importlib.util.spec_from_file_location("panel_streams", REPO / "bench" / "panel_streams.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    server = bench.Server("new", data=other)
    try:
        assert bench.request(server.port, "GET", "/api/health")[0] == 200     # serving
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=10) == 0
        assert "finished a restore (confirmed on the panel, or cut off by a power cut)" in server.log()
    finally:
        server.stop()
    kept = {k: v for k, v in fingerprint(other).items() if not k.startswith(("replaced-", "serve.lock", "secret_key"))}
    assert kept == {k: v for k, v in fingerprint(box).items() if not k.startswith(("serve.lock", "secret_key"))}


def test_a_backup_works_in_a_folder_only_its_owner_reads_and_clears_one_a_kill_left(box, tmp_path):
    """The partial folder holds the secret key and the devices file while the zip is made: only
    the owner may read it. One left by a backup killed part way (an hour old and more) goes at the
    next backup into that folder; one as young as a backup still running stays."""
    import stat as st
    out = tmp_path / "stick"
    out.mkdir()
    old, young = out / ".newsdesk-backup-20261101T000000Z.zip.partial", out / ".newsdesk-backup-20261128T000000Z.zip.partial"
    for folder in (old, young):
        folder.mkdir()
        (folder / "newsdesk.sqlite3").write_bytes(b"x" * 1000)
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    modes = []

    def look():
        work = out / ".newsdesk-backup-20261129T000000Z.zip.partial"
        modes.append((st.S_IMODE(work.stat().st_mode), st.S_IMODE((work / backup.SECRET_FILE).stat().st_mode)))
    backup.make_backup(box, out / "newsdesk-backup-20261129T000000Z.zip", with_secret=True, before_rename=look)
    assert modes == [(0o700, 0o600)]
    assert not old.exists() and young.exists()


def test_a_game_ended_without_a_final_table_leaves_the_backups_restorable(tmp_path, capsys):
    """A game that can't be resumed (its plug-in uninstalled) is abandoned without a final table,
    kept as JSON's null, which the restore check read as a final table that is not one: every
    backup made after it was refused ("whose final is not a JSON object"), the box's own after
    each game included. Such a row restores as a game without a final table."""
    data = tmp_path / "data"
    store = Store(data / STORE_FILE)
    for n in range(2):
        game, _, _ = store.start_game("gone", [{"name": "Ann"}, {"name": "Bob"}], {}, setup_entry(), key="k%d" % n)
        store.end_game(game.id, game.version, "abandoned", winners=[], final=None)
    store.close()
    file = tmp_path / "b.zip"
    backup.make_backup(data, file)
    fresh = tmp_path / "fresh"
    status, _, err = run(capsys, "restore", "--data", str(fresh), str(file))
    assert status == 0, err
    store = Store(fresh / STORE_FILE)
    try:
        assert [(g.status, g.final) for g in store.games()] == [("abandoned", None)] * 2
    finally:
        store.close()
