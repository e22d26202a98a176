"""A damaged write-ahead log is said, and kept: SQLite drops every frame past a bad checksum by
design, so a log damaged in the middle loses acknowledged changes in silence; a start notices
(controller/walcheck.py), keeps the files as found beside the store before anything checkpoints
them, says so in the log and on the health strip, and tells the host how to restore a backup.
A write torn by a power cut (the last, unacknowledged commit) is not damage and says nothing."""

import logging
import shutil

import pytest
from gpiozero.pins.mock import MockFactory

from controller.app import Newsdesk
from controller.config import load_config
from controller.store import ACKED, STORE_FILE, AckedMark, Store
from controller.walcheck import FRAME_HEADER, HEADER, read_log

ENTRIES = 82


def crashed_store(tmp_path):
    """A store with ENTRIES entries, as a crash leaves it: the file and its log, never checkpointed."""
    live = tmp_path / "live"
    store = Store(live / STORE_FILE)
    for i in range(ENTRIES):
        store.append("test.filler", {"n": i, "text": "x" * 300})
    image = tmp_path / "data"
    image.mkdir()
    for suffix in ("", "-wal", ACKED):
        shutil.copyfile(str(live / STORE_FILE) + suffix, str(image / STORE_FILE) + suffix)
    store.close()
    return image / STORE_FILE


def frame_size(wal):
    page = int.from_bytes(wal.read_bytes()[8:12], "big")
    return FRAME_HEADER + page


def damage_frame(path, index):
    """Flip bytes in the page of the log's ``index``-th frame (a bad sector, a worn card)."""
    wal = path.with_name(path.name + "-wal")
    raw = bytearray(wal.read_bytes())
    at = HEADER + index * frame_size(wal) + FRAME_HEADER + 100
    raw[at:at + 16] = bytes(b ^ 0xFF for b in raw[at:at + 16])
    wal.write_bytes(bytes(raw))
    return bytes(raw)


@pytest.mark.slow
def test_an_intact_log_and_a_torn_last_write_say_nothing(tmp_path):
    path = crashed_store(tmp_path)
    wal = path.with_name(path.name + "-wal")
    whole = read_log(wal.read_bytes())
    assert whole.commits >= ENTRIES and whole.lost_commits == 0 and not whole.damaged
    size = frame_size(wal)
    torn = wal.read_bytes()[:-size // 2]          # the power cut came in the middle of the last frame
    assert not read_log(torn).damaged
    wal.write_bytes(torn)
    # that write was never acknowledged: the mark beside the store still names the one before it
    path.with_name(path.name + ACKED).write_bytes(AckedMark.record(ENTRIES - 1))
    store = Store(path)
    try:
        assert store.damage is None
        assert not list(path.parent.glob("damaged-*"))
    finally:
        store.close()


def test_a_log_damaged_in_the_middle_is_said_and_kept_before_it_is_checkpointed(tmp_path, caplog):
    path = crashed_store(tmp_path)
    wal = path.with_name(path.name + "-wal")
    frames = read_log(wal.read_bytes()).frames
    damaged = damage_frame(path, frames // 3)
    reading = read_log(damaged)
    assert reading.damaged and reading.lost_commits > 20

    with caplog.at_level(logging.WARNING, logger="controller.store"):
        store = Store(path)
    try:
        kept = store.last_id()
        assert kept < ENTRIES                                   # what SQLite could read
        said = store.damage
        assert said and "%d saved changes" % reading.lost_commits in said
        assert "Before going back to a backup, compare: with newsdesk stopped, newsdesk restore FILE (without " \
            "--yes) says what the backup holds and what this store holds" in said
        assert said in caplog.text
        folders = list(path.parent.glob("damaged-*"))
        assert len(folders) == 1 and str(folders[0]) in said
        assert (folders[0] / (STORE_FILE + "-wal")).read_bytes() == damaged     # the evidence, as found
        assert (folders[0] / STORE_FILE).exists()
    finally:
        store.close()                                           # a clean stop checkpoints the log away
    assert (folders[0] / (STORE_FILE + "-wal")).read_bytes() == damaged
    again = Store(path)
    try:
        assert again.damage is None and again.last_id() == kept  # said once; the table goes on
    finally:
        again.close()


@pytest.mark.slow
def test_the_health_strip_says_the_store_was_damaged(tmp_path):
    path = crashed_store(tmp_path)
    frames = read_log(path.with_name(path.name + "-wal").read_bytes()).frames
    damage_frame(path, frames // 2)
    config = load_config(path.parent, environ={}, overrides={"audio": "off", "speech": "off"})
    factory = MockFactory()
    desk = Newsdesk(config, pin_factory=factory)
    try:
        health = desk.health()
        store_part = [p for p in health["parts"] if p["part"] == "store"]
        assert len(store_part) == 1 and store_part[0]["status"] == "warn"
        assert "damaged" in store_part[0]["summary"] and "backup" in store_part[0]["summary"]
        assert health["overall"] == "warn"
    finally:
        desk.close()
        factory.close()


def test_a_log_that_came_back_shorter_than_it_was_is_said_and_kept(tmp_path):
    """The end of the log lost (a card that acknowledged writes it never kept): no frame is bad,
    so SQLite and the log's own reading see nothing; the mark of what was acknowledged does."""
    path = crashed_store(tmp_path)
    wal = path.with_name(path.name + "-wal")
    size = frame_size(wal)
    reading = read_log(wal.read_bytes())
    cut = wal.read_bytes()[:HEADER + (reading.frames // 2) * size]     # whole frames, half of them
    wal.write_bytes(cut)
    assert not read_log(cut).damaged
    store = Store(path)
    try:
        last = store.last_id()
        assert last < ENTRIES
        said = store.damage
        assert said and "its mark says changes up to #%d were acknowledged, and it holds changes up to #%d (%d " \
            "missing" % (ENTRIES, last, ENTRIES - last) in said
        assert "it still holds 0 kept games and %d events" % last in said      # what a restore would replace
        assert "compare" in said and "run newsdesk restore with the backup" not in said
        folders = list(path.parent.glob("damaged-*"))
        assert len(folders) == 1 and (folders[0] / (STORE_FILE + "-wal")).read_bytes() == cut
        store.append("test.after", {})                  # the table goes on from what is there
    finally:
        store.close()
    again = Store(path)
    try:
        assert again.damage is None                     # said once
    finally:
        again.close()


def test_a_store_deleted_on_purpose_starts_anew_without_an_alarm(tmp_path):
    path = crashed_store(tmp_path)
    for suffix in ("", "-wal"):
        path.with_name(path.name + suffix).unlink()
    store = Store(path)
    try:
        assert store.damage is None and store.last_id() == 0
    finally:
        store.close()


# ------------------------------------------------------------------ the mark itself

def _stopped_store(tmp_path, events=20):
    """A store stopped cleanly with ``events`` events: its mark names the last."""
    path = tmp_path / "data" / STORE_FILE
    store = Store(path)
    for i in range(events):
        store.append("test.filler", {"n": i})
    store.close()
    mark = path.with_name(path.name + ACKED)
    assert mark.read_bytes() == AckedMark.record(events)
    return path, mark


def _opens_quietly_and_rebuilds(path, mark, caplog, last):
    """The store opens with no alarm and no files kept aside; the mark is said once, as unusable,
    and is whole again (the next start says nothing)."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="controller.store"):
        store = Store(path)
    try:
        assert store.damage is None and store.last_id() == last
        assert not list(path.parent.glob("damaged-*"))
        said = [r.getMessage() for r in caplog.records]
        assert len(said) == 1 and "could not be used" in said[0] and "written again" in said[0], said
    finally:
        store.close()
    assert mark.read_bytes() == AckedMark.record(last)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="controller.store"):
        Store(path).close()
    assert not caplog.records


def test_a_mark_torn_inside_its_sector_is_no_lost_tail(tmp_path, caplog):
    """"29" on the disk over a store holding 20 (the old record's bytes beside the new one's, as a
    write torn by a power cut leaves them): every such mix is told from a lost tail."""
    path, mark = _stopped_store(tmp_path, events=20)
    old, new = AckedMark.record(19), AckedMark.record(20)          # the write of 20 over 19, torn
    torn_ones = {a[:k] + b[k:] for a, b in ((new, old), (old, new)) for k in range(1, AckedMark.SIZE)} - {old, new}
    assert b"%020d" % 29 in {t[15:35] for t in torn_ones}
    for torn in sorted(torn_ones):
        mark.write_bytes(torn)
        _opens_quietly_and_rebuilds(path, mark, caplog, 20)


def test_an_overlong_or_old_mark_is_said_once_and_cut_to_its_record(tmp_path, caplog):
    path, mark = _stopped_store(tmp_path, events=5)
    mark.write_bytes(AckedMark.record(5) + b"9" * 40 + b"\n")            # a longer file's stale tail
    _opens_quietly_and_rebuilds(path, mark, caplog, 5)
    mark.write_bytes(b"%20d\n" % 5)                                     # an older newsdesk's plain number
    _opens_quietly_and_rebuilds(path, mark, caplog, 5)
    mark.write_bytes(b"")                                                # created, never written
    _opens_quietly_and_rebuilds(path, mark, caplog, 5)


def test_a_whole_mark_that_claims_more_is_a_lost_tail(tmp_path):
    path, mark = _stopped_store(tmp_path, events=5)
    mark.write_bytes(AckedMark.record(9))
    store = Store(path)
    try:
        assert "its mark says changes up to #9 were acknowledged, and it holds changes up to #5 (4 missing" \
            in store.damage
    finally:
        store.close()
