"""The devices file (controller/devices.py): joined devices, waiting codes and invitations in one
SQLite file beside the store."""

import sqlite3
import threading

import pytest

from controller.devices import Devices, JoinRefused, describe_agent
from controller.store import DEVICES_FILE


@pytest.fixture
def devices(tmp_path, clocks):
    kept = Devices(tmp_path / DEVICES_FILE, clock=clocks.wall)
    yield kept
    kept.close()


def test_the_box_keeps_its_devices_in_a_wal_file_with_full_sync(desk):
    devices = desk.joins.devices
    assert devices.path == desk.config.data_dir / "devices.sqlite3"
    db = sqlite3.connect(devices.path)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    finally:
        db.close()
    with devices._connect() as conn:
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_request_reads_its_device_without_opening_the_file_again(devices, monkeypatch):
    """Every change a joined tablet makes reads its device: opening a connection for it was a
    tenth of a move's CPU (docs/benchmarks.md)."""
    token, _ = devices.issue_token("player", "test")
    device = devices.redeem(token, "Tablet", "10.0.0.7")
    devices.device(device.id)
    opened = []
    real = sqlite3.connect
    monkeypatch.setattr("controller.devices.sqlite3.connect", lambda *a, **k: opened.append(a) or real(*a, **k))
    for _ in range(20):
        assert devices.device(device.id).status == "joined"
    assert devices.device("nobody") is None
    assert opened == []


def test_a_read_sees_every_change_made_before_it_and_holds_nothing_open(devices, clocks):
    """The kept read connection (``Devices._read``) is no snapshot: a revoke from this process
    or another is seen by the next read, and no read keeps a transaction open (a checkpoint
    that truncates the WAL would wait for it)."""
    token, _ = devices.issue_token("player", "test")
    device = devices.redeem(token, "Tablet", "10.0.0.7")
    assert devices.device(device.id).status == "joined"
    assert [d.id for d in devices.list()] == [device.id]
    other = Devices(devices.path, clock=clocks.wall)        # as another process would
    try:
        other.rename(device.id, "Kitchen tablet")
        assert devices.device(device.id).name == "Kitchen tablet"
        devices.revoke(device.id)
        assert other.device(device.id).status == "revoked"
        assert devices.device(device.id).status == "revoked"
        assert devices.list() == [] and devices.waiting_count() == 0 and devices.waiting_codes() == []
    finally:
        other.close()
    db = sqlite3.connect(devices.path, timeout=0)
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        db.close()
    assert busy == 0


def test_tokens_are_kept_only_as_hashes(devices):
    token, _ = devices.issue_token("player", "test")
    assert devices.redeem(token, "Device", "10.0.0.1").role == "player"
    for path in devices.path.parent.glob(DEVICES_FILE + "*"):
        assert token.encode() not in path.read_bytes(), path.name


def test_two_devices_redeeming_one_token_at_once_make_one_device(tmp_path, devices, clocks):
    token, _ = devices.issue_token("player", "test")
    results, barrier = [], threading.Barrier(8)

    def redeem(i):
        other = Devices(devices.path, clock=clocks.wall)  # as another process would
        barrier.wait()
        try:
            results.append(other.redeem(token, "Device", "10.0.0.%d" % i))
        except JoinRefused as e:
            results.append(e.reason)
        finally:
            other.close()

    threads = [threading.Thread(target=redeem, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(map(str, results)).count("used") == 7
    assert len(devices.list()) == 1


@pytest.mark.parametrize("agent, name", [
    ("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari", "Android phone"),
    ("Mozilla/5.0 (Linux; Android 13; SM-X200) Safari", "Android tablet"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)", "iPhone"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64)", "Windows computer"),
    ("", "Device"), (None, "Device"),
])
def test_devices_get_a_plain_name(agent, name):
    assert describe_agent(agent) == name


def test_two_devices_that_look_alike_are_told_apart_by_a_number(devices):
    """Two tablets of one make both read as "Linux computer" from their User-Agent: the host's
    list and the invitation's "used by" must tell them apart, so the second takes the first free
    number. A name a device gives itself is numbered the same way; a device that left frees its."""
    first = devices.redeem(devices.issue_token("player", "test")[0], "Linux computer", "10.0.0.7")
    second = devices.redeem(devices.issue_token("player", "test")[0], "Linux computer", "10.0.0.8")
    waiting = devices.request_dial("Linux computer", "10.0.0.9")
    assert [first.name, second.name, waiting.name] == ["Linux computer", "Linux computer 2", "Linux computer 3"]
    assert devices.rename(waiting.id, "linux COMPUTER").name == "linux COMPUTER 3"   # its own 3 is no clash
    assert devices.rename(second.id, "Ann's tablet").name == "Ann's tablet"
    assert devices.rename(second.id, "Ann's tablet").name == "Ann's tablet"    # its own name is no clash
    devices.revoke(first.id)
    again = devices.redeem(devices.issue_token("player", "test")[0], "Linux computer", "10.0.0.10")
    assert again.name == "Linux computer"
    long = "x" * 60
    devices.rename(again.id, long)
    assert devices.rename(waiting.id, long).name == "x" * 58 + " 2"     # still within NAME_MAX
