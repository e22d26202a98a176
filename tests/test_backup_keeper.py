"""Backups kept without anyone asking (controller/backup_keeper.py): after a finished game and
once a day into backup_dir, the oldest past backup_keep removed, and the folder's state on the
health strip (missing, stale, a backup that failed)."""

import os
import time

from conftest import wait_for
from gpiozero.pins.mock import MockFactory

from controller import events
from controller.app import Newsdesk
from controller.backup import backups_in
from controller.backup_keeper import DAILY, BackupKeeper
from controller.bus import Bus
from controller.config import load_config
from controller.store import STORE_FILE, Store


def box(tmp_path, folder, keep=2):
    config = load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "backup_dir": str(folder), "backup_keep": keep})
    factory = MockFactory()
    return Newsdesk(config, pin_factory=factory), factory


def part(desk):
    found = [p for p in desk.health()["parts"] if p["part"] == "backup"]
    assert len(found) == 1
    return found[0]


def test_a_finished_game_is_backed_up_and_the_oldest_go(tmp_path):
    folder = tmp_path / "stick"
    folder.mkdir()
    desk, factory = box(tmp_path, folder, keep=2)
    try:
        assert wait_for(lambda: len(backups_in(os.listdir(folder))) == 1, timeout=10)   # none there: a day's is due
        assert part(desk)["status"] == "ok"
        for n in range(3):
            desk.bus.publish({"id": 100 + n, "type": events.GAME_FINISHED, "data": {}})
            assert wait_for(lambda n=n: desk.backups.made == n + 2, timeout=10)
        assert len(backups_in(os.listdir(folder))) == 2                                    # backup_keep
        assert part(desk)["status"] == "ok" and "newest backup" in part(desk)["summary"]
    finally:
        desk.close()
        factory.close()


def test_a_missing_stick_is_said_on_the_health_strip_and_nothing_is_written_to_the_card(tmp_path):
    folder = tmp_path / "media" / "usb"
    desk, factory = box(tmp_path, folder)
    try:
        said = part(desk)
        assert said["status"] == "warn" and "is missing" in said["summary"]
        desk.bus.publish({"id": 1, "type": events.GAME_FINISHED, "data": {}})
        assert wait_for(lambda: desk.backups.failed is not None, timeout=10)
        assert "automatic backup" in part(desk)["summary"] and part(desk)["status"] == "warn"
        assert not folder.exists()
    finally:
        desk.close()
        factory.close()


def test_once_a_day_without_a_finished_game(tmp_path):
    data, folder = tmp_path / "data", tmp_path / "stick"
    folder.mkdir()
    Store(data / STORE_FILE).close()
    now = [time.time()]
    keeper = BackupKeeper(data, folder, 5, Bus(), clock=lambda: now[0], look=0.02)
    try:
        assert wait_for(lambda: keeper.made == 1, timeout=10)
        time.sleep(0.2)
        assert keeper.made == 1                          # the next one is a day away
        newest = sorted(folder.iterdir())[-1]
        os.utime(newest, (now[0] - DAILY - 1, now[0] - DAILY - 1))
        assert wait_for(lambda: keeper.made == 2, timeout=10)
        now[0] += 8 * 86400
        for made in folder.iterdir():
            os.utime(made, (now[0] - 8 * 86400, now[0] - 8 * 86400))
        keeper.close()                                   # stop it making a new one: look at the stale state
        said = keeper.health()
        assert said["status"] == "warn" and "8 days old" in said["summary"]
    finally:
        keeper.close()
