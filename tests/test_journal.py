"""The journal (controller/journal.py): stored before told, told in the order of the ids, with
every writer at the table sharing its one lock."""

import random
import threading

import pytest

from controller import events
from controller.bus import Bus
from controller.errors import StoreError
from controller.journal import Journal
from controller.oracle_service import OracleService
from controller.oracles.editor import Editor
from controller.store import Store
from controller.table import Table


def test_an_event_is_committed_before_any_tablet_hears_of_it(tmp_path):
    store = Store(str(tmp_path / "j.sqlite3"))
    bus = Bus()
    seen = []

    class Watching(Bus):
        def publish(self, message):
            seen.append((message["id"], store.last_id()))   # what the store holds as it is told
            bus.publish(message)
    journal = Journal(store, Watching())
    event = journal.record(events.DICE_ROLL, {"dice": "1d6", "values": [4], "total": 4})
    assert seen == [(event.id, event.id)]
    store.close()


def test_a_failed_write_tells_nobody():
    told = []

    class Full:
        def append(self, kind, payload):
            raise StoreError("the disk is full")

    class Listening:
        def publish(self, message):
            told.append(message)
    with pytest.raises(StoreError):
        Journal(Full(), Listening()).record(events.DICE_ROLL, {})
    assert told == []


def test_every_writer_shares_the_tables_lock_and_the_bus_gets_ids_in_order(tmp_path):
    store = Store(str(tmp_path / "j.sqlite3"))
    bus = Bus()
    table = Table(store, bus, Editor(), random.Random(1), hardware={})
    oracles = OracleService(table.journal, random.Random(2))
    assert table.games.journal is table.journal and oracles.journal is table.journal
    sub = bus.subscribe()
    threads = [threading.Thread(target=lambda: [oracles.roll() for _ in range(40)]),
               threading.Thread(target=lambda: [table.call_editor(d % 10) for d in range(40)])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = []
    while len(ids) < 80:
        message = sub.get(timeout=5)
        if "id" in message:
            ids.append(message["id"])
    assert ids == sorted(ids) and len(set(ids)) == 80
    store.close()


def test_a_live_message_is_told_and_not_stored(tmp_path):
    store = Store(str(tmp_path / "j.sqlite3"))
    bus = Bus()
    sub = bus.subscribe()
    Journal(store, bus).tell(events.STOPWATCH_RESET, {})
    assert sub.get(timeout=1) == {"type": events.STOPWATCH_RESET, "data": {}}
    assert store.last_id() == 0
    store.close()
