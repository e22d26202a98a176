"""An idle box sleeps: its threads wake when something happens (an edge, a message, a deadline of
their machine's), not to look at a clock. On a Pi Zero 2 W every wake-up is CPU that a move or
a press arriving at that moment waits for, and power the box draws for nothing.

Counted from Linux's own record of each thread (/proc/self/task/<id>/schedstat: how many times
it was put on a CPU), so the test sees what the scheduler saw, whatever the code says."""

import threading
import time
from pathlib import Path

import pytest

from controller import events
from controller.app import Newsdesk
from controller.config import load_config
from web_ui import create_app

IDLE_FOR = 3.0
# The workers of the buttons and the dial still look once a second with nothing to do
# (controller/worker.py's ``idle``), a safety net under their machines: left out of the count.
# On a busy machine one wake-up can be several runs (cut short by the scheduler, or waiting for
# the interpreter's lock), so those can't be counted exactly; a thread that sleeps until
# something happens is not run at all. One run is allowed for the one that starts the count.
SAFETY_NET = {"buttons", "dial-listener"}
RUNS_ALLOWED = 2


def runs(thread):
    """How many times the scheduler has run ``thread`` (Linux)."""
    return int(Path("/proc/self/task/%d/schedstat" % thread.native_id).read_text().split()[2])


def box_threads(before):
    return [t for t in threading.enumerate() if t.ident not in before and t.native_id is not None]


@pytest.fixture
def idle_box(tmp_path, mock_factory):
    if not Path("/proc/self/task").is_dir():
        pytest.skip("counting a thread's runs needs Linux's /proc")
    before = {t.ident for t in threading.enumerate()}
    (tmp_path / "usb").mkdir()
    config = load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "backup_dir": str(tmp_path / "usb")})
    nd = Newsdesk(config, pin_factory=mock_factory)
    nd.joins.timers = False
    app = create_app(newsdesk=nd, test_config={"TESTING": True})
    nd.panel_up()      # as the server does once it answers: the window opens
    try:
        yield nd, app, before
    finally:
        nd.close()


def settled(nd, timeout=60):
    """Wait for start-up's own work to end before counting: the keeper's first backup (the USB
    stick has none for a day), copied in steps, runs its thread many times, and on a busy
    machine it outlasted the fixed 0.3 s the tests used to wait (9 runs counted during 20 rolls,
    in CI); then a moment for the window's first frame."""
    end = time.monotonic() + timeout
    while nd.backups.made < 1 and nd.backups.failed is None:
        assert time.monotonic() < end, "the keeper's first backup did not end"
        time.sleep(0.02)
    time.sleep(0.3)


def woken(threads, seconds, during=None):
    counts = {t.name: runs(t) for t in threads}
    if during is None:
        time.sleep(seconds)
    else:
        during()
    return {t.name: runs(t) - counts[t.name] for t in threads if t.is_alive()}


@pytest.mark.slow
def test_an_idle_box_s_threads_sleep_until_something_happens(idle_box):
    nd, app, before = idle_box
    settled(nd)                          # start-up's own work (the first frame, a backup) ended
    threads = box_threads(before)
    names = {t.name for t in threads}
    assert {"window", "phone-sounds-bus", "workbench", "backup-keeper"} <= names, names
    runs = woken(threads, IDLE_FOR)
    too_many = {name: n for name, n in runs.items() if name not in SAFETY_NET and n > RUNS_ALLOWED}
    assert not too_many, runs


@pytest.mark.slow
def test_the_backup_keeper_is_not_woken_by_moves_and_rolls(idle_box):
    """It makes a backup when a game is finished (and daily): every other message was a wake-up
    and a look at the USB stick's folder."""
    nd, app, before = idle_box
    settled(nd)
    keeper = [t for t in box_threads(before) if t.name == "backup-keeper"]
    assert keeper

    def rolls():
        for _ in range(20):
            nd.oracles.roll()
            time.sleep(0.01)
    assert woken(keeper, 0, during=rolls)["backup-keeper"] <= 1
    assert nd.store.latest(events.DICE_ROLL)
