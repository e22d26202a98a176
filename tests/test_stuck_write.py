"""Reads that don't wait on the disk: while a write is stuck (a slow or frozen SD card), pages and
the current game answer from the last committed state, and the health strip says so after 2 s."""

import threading
import time

import pytest

# a write is held stuck in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]


@pytest.mark.slow
def test_pages_answer_from_the_last_committed_state_while_a_write_is_stuck(client, desk):
    started = client.post("/api/games", json={"engine": "scan", "players": PLAYERS}).get_json()
    now = [100.0]
    desk.store._clock = lambda: now[0]
    inside, release = threading.Event(), threading.Event()

    def stuck_write():      # a change holding the table and a write that the disk doesn't finish
        with desk.table.lock:
            desk.store._write(lambda: inside.set() or release.wait(10))

    writer = threading.Thread(target=stuck_write)
    writer.start()
    try:
        assert inside.wait(5)
        assert desk.store.write_stuck_for() is None               # not yet past 2 s
        assert "store" not in {p["part"] for p in client.get("/api/health").get_json()["parts"]}
        now[0] += 3.0
        t0 = time.monotonic()
        page = client.get("/")
        current = client.get("/api/games/current").get_json()
        health = client.get("/api/health").get_json()
        took = time.monotonic() - t0
        assert writer.is_alive() and not release.is_set()
    finally:
        release.set()
        writer.join(10)
    assert page.status_code == 200 and took < 2.0
    assert current["game"]["id"] == started["game"] and current["game"]["version"] == 1
    store = {p["part"]: p for p in health["parts"]}["store"]
    assert store["status"] == "fault" and "waited 3 s on the disk" in store["summary"]
    assert health["overall"] == "fault"
    assert "store" not in {p["part"] for p in client.get("/api/health").get_json()["parts"]}
