import sqlite3

import pytest

from controller.errors import StoreError
from controller.store import Store


def test_appends_are_durable_and_ordered(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    a = store.append("editor.verdict", {"signal": "OK", "digit": 3})
    b = store.append("editor.verdict", {"signal": "X", "digit": 4})
    assert b.id > a.id
    store.close()
    again = Store(path)  # what a restart sees
    assert [e.payload["signal"] for e in again.since(0)] == ["OK", "X"]
    assert again.latest("editor.verdict")[0].payload == {"signal": "X", "digit": 4}
    assert [e.id for e in again.since(a.id)] == [b.id]
    assert again.last_id() == b.id
    again.close()


def test_wal_and_full_sync(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "s.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(StoreError, match="newer newsdesk"):
        Store(path)


def test_an_unopenable_store_says_where(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="can't open the store"):
        Store(blocker / "sub" / "s.sqlite3")
