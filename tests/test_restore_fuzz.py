"""Hypothesis throws damaged, truncated, foreign, oversized and hostile backups at `newsdesk
restore`: every one is refused in one sentence (no traceback), and the data folder, and the
folder around it, are left byte for byte as they were. The examples are few and fixed (the
project's profile is derandomized: tests/conftest.py), so the test is quick and repeatable."""

import hashlib
import io
import json
import os
import sqlite3
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from test_backup import make_box, run
from test_restore_checks import files_of

from controller import backup
from controller.runlock import RunLock
from controller.store import SCHEMA_VERSION, STORE_FILE

pytestmark = pytest.mark.slow       # about a second in all

HOSTILE_NAMES = ["../escaped", "../../etc/newsdesk", "/tmp/newsdesk-abs", "a/../../b", "newsdesk.sqlite3/../x",
                 "C:\\newsdesk", "folder/", ".restore-staging/newsdesk.sqlite3", "replaced-x/secret_key",
                 "config.toml ", "NEWSDESK.SQLITE3"]


class World:
    """What every example shares, made once: a good backup's members and manifest, a box to
    restore over (with the lock file a served box has), and a folder for the archives."""

    def __init__(self, root):
        make_box(root / "source")
        self.good = root / "good.zip"
        backup.make_backup(root / "source", self.good, with_secret=True)
        with zipfile.ZipFile(self.good) as z:
            self.members = {n: z.read(n) for n in z.namelist()}
            self.spans = []
            raw = self.good.read_bytes()
            for info in z.infolist():
                at = info.header_offset
                start = at + 30 + int.from_bytes(raw[at + 26:at + 28], "little") + \
                    int.from_bytes(raw[at + 28:at + 30], "little")
                if info.compress_size > 2:
                    self.spans.append((start, start + info.compress_size))
        self.manifest = json.loads(self.members["manifest.json"])
        self.around = root / "around"
        self.data = self.around / "data"
        make_box(self.data, games=3, tag="here")
        RunLock(self.data).acquire().release()
        self.before = files_of(self.around)
        self.work = root / "work"
        self.work.mkdir()
        self.bombs = {}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("fuzz"))


def _zip(entries, compression=zipfile.ZIP_DEFLATED):
    """A zip of ``entries`` ([(name or ZipInfo, bytes)], in order, duplicates allowed) as bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")         # zipfile warns of a duplicate name; here it is the point
        for name, body in entries:
            if isinstance(name, zipfile.ZipInfo):
                name.compress_type = compression
            z.writestr(name, body)
    return out.getvalue()


def _with(world, manifest=None, members=None, extra=()):
    """The good backup's entries with ``members`` replaced, ``extra`` entries added and the
    manifest replaced by ``manifest``."""
    body = dict(world.members)
    body.update(members or {})
    if manifest is not None:
        body["manifest.json"] = json.dumps(manifest).encode()
    return list(body.items()) + list(extra)


def _manifest_for(world, **files):
    manifest = json.loads(json.dumps(world.manifest))
    for name, body in files.items():
        manifest["files"][name] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}
    return manifest


names = st.from_regex(r"[a-z]{1,8}", fullmatch=True)


@st.composite
def damaged(draw, world):
    raw = bytearray(world.good.read_bytes())
    start, end = draw(st.sampled_from(world.spans))
    at = draw(st.integers(start, end - 2))          # never the last byte: deflate's padding bits are unread
    mask = draw(st.binary(min_size=1, max_size=min(64, end - 1 - at)))
    for i, m in enumerate(mask):
        raw[at + i] ^= m or 0xFF
    return "damaged", bytes(raw)


@st.composite
def truncated(draw, world):
    raw = world.good.read_bytes()
    return "truncated", raw[:draw(st.integers(0, len(raw) - 1))]


@st.composite
def foreign(draw, world):
    kind = draw(st.sampled_from(["stranger", "devices as store", "store as devices", "a column less",
                                 "a column more", "another schema"]))
    if kind == "stranger":
        tables = draw(st.dictionaries(names.map("t_".__add__), st.lists(names.map("c_".__add__), min_size=1,
                                                                          max_size=3, unique=True),
                                      min_size=1, max_size=3))
        sql = ";".join("CREATE TABLE %s (%s)" % (t, ", ".join(cols)) for t, cols in tables.items())
        version = draw(st.integers(0, SCHEMA_VERSION))
        (world.work / "made.db").unlink(missing_ok=True)
        store = _sqlite_on(world.work / "made.db", sql, version)
        manifest = _manifest_for(world, **{STORE_FILE: store})
        manifest["schema"] = version
        return kind, _zip(_with(world, manifest, {STORE_FILE: store}))
    if kind in ("devices as store", "store as devices"):
        store, devices = world.members[STORE_FILE], world.members[backup.DEVICES_FILE]
        if kind == "devices as store":
            (world.work / "d.db").write_bytes(devices)
            store = _sqlite_on(world.work / "d.db", "SELECT 1", SCHEMA_VERSION)
        else:
            devices = store
        files = {STORE_FILE: store, backup.DEVICES_FILE: devices}
        return kind, _zip(_with(world, _manifest_for(world, **files), files))
    (world.work / "s.db").write_bytes(world.members[STORE_FILE])
    if kind == "a column less":
        column = draw(st.sampled_from(["winners", "final", "ended", "players"]))
        sql = "ALTER TABLE games DROP COLUMN %s" % column
        version = SCHEMA_VERSION
    elif kind == "a column more":
        sql = "ALTER TABLE events ADD COLUMN %s TEXT" % draw(names.map("c_".__add__))
        version = SCHEMA_VERSION
    else:
        sql, version = "SELECT 1", draw(st.sampled_from([0, 1]))   # the tables of 2, stamped 0 or 1
    store = _sqlite_on(world.work / "s.db", sql, version)
    manifest = _manifest_for(world, **{STORE_FILE: store})
    manifest["schema"] = version
    return kind, _zip(_with(world, manifest, {STORE_FILE: store}))


def _sqlite_on(path, sql, version):
    db = sqlite3.connect(path)
    db.executescript(sql + "; PRAGMA user_version=%d;" % version)
    db.close()
    return path.read_bytes()


@st.composite
def oversized(draw, world):
    kind = draw(st.sampled_from(["bomb", "longer than stated", "stated past the disk"]))
    if kind == "bomb":
        size = draw(st.sampled_from([1 << 20, 4 << 20]))
        if size not in world.bombs:
            zeros = bytes(size)
            world.bombs[size] = _zip(_with(world, _manifest_for(world, **{STORE_FILE: zeros}), {STORE_FILE: zeros}))
        return kind, world.bombs[size]
    if kind == "longer than stated":
        name = draw(st.sampled_from(sorted(world.manifest["files"])))
        longer = world.members[name] + draw(st.binary(min_size=1, max_size=4096))
        return kind, _zip(_with(world, members={name: longer}))
    need = sum(f["bytes"] for f in world.manifest["files"].values())
    return ("free", draw(st.integers(0, backup.RESTORE_RESERVE + need - 1))), world.good.read_bytes()


@st.composite
def hostile(draw, world):
    kind = draw(st.sampled_from(["extra name", "listed name", "duplicate", "link", "folder", "encrypted",
                                 "bzip2", "lzma"]))
    if kind in ("extra name", "listed name"):
        name = draw(st.sampled_from(HOSTILE_NAMES))
        body = draw(st.binary(max_size=64))
        manifest = _manifest_for(world, **{name: body}) if kind == "listed name" else None
        return kind, _zip(_with(world, manifest, extra=[(name, body)]))
    if kind == "duplicate":
        name = draw(st.sampled_from(sorted(world.members)))
        body = draw(st.sampled_from([world.members[name], b"port = 1\n"]))
        return kind, _zip(_with(world, extra=[(name, body)]))
    if kind in ("link", "folder", "encrypted"):
        name = draw(st.sampled_from(sorted(world.manifest["files"])))
        info = zipfile.ZipInfo(name)
        if kind == "link":
            info.external_attr = 0o120777 << 16
        elif kind == "folder":
            info.external_attr = (0o040755 << 16) | 0x10
        entries = [(info if n == name else n, b) for n, b in _with(world)]
        raw = _zip(entries)
        return kind, _encrypted(raw, name) if kind == "encrypted" else raw
    return kind, _zip(_with(world), zipfile.ZIP_BZIP2 if kind == "bzip2" else zipfile.ZIP_LZMA)


def _encrypted(raw, name):
    """``raw`` with the member ``name`` marked encrypted (bit 0 of its flags) in its local header
    and its central directory entry, as zip -e writes it (zipfile never writes the bit itself)."""
    raw = bytearray(raw)
    encoded = name.encode()
    for signature, flags, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = raw.find(signature)
        while at >= 0:
            if raw[at + name_at:at + name_at + len(encoded)] == encoded:
                raw[at + flags] |= 0x1
            at = raw.find(signature, at + 1)
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as z:
        assert z.getinfo(name).flag_bits & 0x1
    return bytes(raw)


def special(world):
    return st.sampled_from(["fifo", "/dev/zero", "folder", "missing", "empty"]).map(lambda k: (("special", k), None))


def archives(world):
    return st.one_of(damaged(world), truncated(world), foreign(world), oversized(world), hostile(world),
                     special(world))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_every_bad_archive_is_refused_in_a_sentence_and_changes_nothing(world, data, capsys, monkeypatch):
    kind, body = data.draw(archives(world), label="archive")
    target = world.work / "case.zip"
    if target.is_dir():
        target.rmdir()
    else:
        target.unlink(missing_ok=True)
    free = None
    if isinstance(kind, tuple) and kind[0] == "special":
        if kind[1] == "fifo":
            os.mkfifo(target)
        elif kind[1] == "/dev/zero":
            target = Path("/dev/zero")
        elif kind[1] == "folder":
            target.mkdir()
        elif kind[1] == "empty":
            target.write_bytes(b"")
    else:
        if isinstance(kind, tuple):
            free = kind[1]
        target.write_bytes(body)
    with monkeypatch.context() as m:
        if free is not None:
            m.setattr(backup, "free_bytes", lambda path: free)
        status, out, err = run(capsys, "restore", "--data", str(world.data), "--yes", str(target))
    assert status == 2, (kind, err)
    assert err.startswith("newsdesk: ") and err.count("\n") == 1 and "Traceback" not in err, (kind, err)
    assert files_of(world.around) == world.before, kind
