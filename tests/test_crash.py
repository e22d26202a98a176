"""A writer killed with SIGKILL at random moments loses nothing it acknowledged; and the same
check catches a writer that acknowledges before it commits.

The harness (writer, checker, kill loop) is bench/store_crash.py, which also prints the figures.
"""

import importlib.util
import os
import sqlite3
from pathlib import Path

import pytest

from controller.store import Store

HARNESS = Path(__file__).resolve().parents[1] / "bench" / "store_crash.py"
# SIGKILLs in make test; NEWSDESK_KILLS=1000 for a longer campaign (bench/store_crash.py prints the figures)
KILLS = int(os.environ.get("NEWSDESK_KILLS", "80"))


@pytest.fixture(scope="module")
def harness():
    spec = importlib.util.spec_from_file_location("store_crash", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_every_acknowledged_transfer_survives_the_kills(harness, tmp_path):
    report = harness.campaign(tmp_path / "crash.sqlite3", runs=KILLS, mode="after")
    assert report["problems"] == [], "seed %d: %s" % (report["seed"], report["problems"][:5])
    assert report["runs"] == KILLS
    # the kills came while the writer was writing, not only before it began
    assert report["killed_with_acks"] >= KILLS // 4, report
    assert report["entries"] > report["runs"], report


@pytest.mark.slow
def test_the_check_catches_a_writer_that_acknowledges_before_it_commits(harness, tmp_path):
    report = harness.campaign(tmp_path / "broken.sqlite3", runs=100, mode="before", stop_on_problem=True)
    assert any("is missing" in p for p in report["problems"]), report


def _stored_game(harness, path, entries=3):
    store = Store(path)
    game, _, _ = store.start_game(harness.ENGINE, [{"name": p} for p in harness.PLAYERS], {},
                                  harness.setup_entry(), key="setup")
    acked = []
    for n in range(entries):
        entry = {"type": "action", "events": [harness.ledger.transfer("bank", "Ann", 10 + n)], "said": "x"}
        stored, _ = store.append_entry(game.id, n + 1, entry, key="k%d" % n)
        acked.append((stored.version, "k%d" % n, harness.digest(entry)))
    store.close()
    return acked


def test_the_checker_passes_a_store_that_kept_everything(harness, tmp_path):
    acked = _stored_game(harness, tmp_path / "s.sqlite3")
    assert harness.check(tmp_path / "s.sqlite3", acked, before=1) == []
    # one entry committed but not yet acknowledged at the kill is allowed
    assert harness.check(tmp_path / "s.sqlite3", acked[:-1], before=1) == []


def test_the_checker_finds_a_lost_a_changed_and_an_unacknowledged_entry(harness, tmp_path):
    path = tmp_path / "s.sqlite3"
    acked = _stored_game(harness, path)
    lost = acked + [(5, "k9", "0" * 16)]
    assert harness.check(path, lost, before=1) == ["acknowledged entry v5 (k9) is missing"]
    changed = [(2, "k0", "0" * 16)]
    assert harness.check(path, changed, before=3) == ["acknowledged entry v2 (k0) is stored differently"]
    assert "2 entries were stored that nobody acknowledged" in harness.check(path, acked[:1], before=1)[0]


def test_the_checker_finds_an_entry_without_its_event(harness, tmp_path):
    path = tmp_path / "s.sqlite3"
    acked = _stored_game(harness, path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute("DELETE FROM events WHERE id = (SELECT event FROM game_entries WHERE key = 'k1')")
    db.commit()
    db.close()
    assert harness.check(path, acked, before=1) == [
        "half-written: 1 entries without their event, 0 events without their entry"]


def test_a_writer_that_cannot_open_the_store_is_said_not_waited_for(harness, tmp_path):
    (tmp_path / "a-folder.sqlite3").mkdir()              # not a file SQLite can open
    report = harness.campaign(tmp_path / "a-folder.sqlite3", runs=3)
    assert report["runs"] == 0
    assert len(report["problems"]) == 1 and "didn't start" in report["problems"][0], report["problems"]
