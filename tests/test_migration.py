"""The store's migration path, from every earlier schema, with what a box of that schema really
stored. Schema 1 (until the games were kept) held one table, events, and the editor's verdicts
in it, in that time's shape (with the disc's position, before text, effects and odds): the
fixture writes them exactly as that store did, opens the file with today's newsdesk, and the
panel reads the verdicts back as they were, the games start at none and are kept from then on,
and a backup of the migrated box restores whole. A store of a newer schema than this one is
refused in one sentence, by `serve`'s store and by `newsdesk migrate`."""

import json
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from conftest import play_a_game
from gpiozero.pins.mock import MockFactory

from controller import backup
from controller.app import Newsdesk
from controller.config import load_config
from controller.errors import StoreError
from controller.store import MIGRATIONS, SCHEMA_VERSION, STORE_FILE, Store
from newsdesk.cli import main
from web_ui import create_app

# Schema 1 as controller/store.py created it before schema 2 (the events table and its index,
# user_version 1), and verdicts as its editor wrote them (Verdict.as_dict of that time).
SCHEMA_1 = """
CREATE TABLE IF NOT EXISTS events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, id);
"""
OLD_VERDICTS = [
    {"digit": 3, "signal": "PRESS", "message": "Go to press", "instruction": "Your story goes to press.",
     "story_passed": True, "position": 4, "mode": "mechanical"},
    {"digit": 7, "signal": "X", "message": "Scrap it", "instruction": "Your story is scrapped.",
     "story_passed": False, "position": 1, "mode": "mechanical"},
    {"digit": 0, "signal": "OK", "message": "OK", "instruction": "Carry on.",
     "story_passed": True, "position": 1, "mode": "mechanical"},
]


def schema_1_store(path, verdicts=OLD_VERDICTS):
    """A store as schema 1 left it: its own DDL, its rows written as it wrote them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA_1)
    db.execute("PRAGMA user_version=1")
    start = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
    for n, verdict in enumerate(verdicts):
        at = (start + timedelta(minutes=n)).isoformat(timespec="milliseconds")
        db.execute("INSERT INTO events (at, kind, payload) VALUES (?, ?, ?)",
                   (at, "editor.verdict", json.dumps(verdict, ensure_ascii=False, sort_keys=True)))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def test_the_fixture_is_schema_1_as_the_migrations_describe_it():
    """The fixture's DDL is the first migration's, so it is the schema today's code migrates from."""
    assert [" ".join(s.split()) for s in MIGRATIONS[1]] == [
        " ".join(s.split()).rstrip(";") for s in SCHEMA_1.strip().split(";\n") if s.strip()]
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))     # every earlier schema has its step


def served(data):
    """(Newsdesk, factory, test client) for ``data``, as `serve` would open it."""
    factory = MockFactory()
    desk = Newsdesk(load_config(data, environ={}, overrides={"audio": "off", "speech": "off"}), pin_factory=factory)
    return desk, factory, create_app(newsdesk=desk, test_config={"TESTING": True}).test_client()


def shown(client):
    history = client.get("/api/games/history").get_json()["games"]
    return (history, [client.get("/api/games/%d" % g["id"]).get_json() for g in history],
            client.get("/api/games/stats").get_json())


@pytest.mark.slow
def test_a_schema_1_box_opens_with_its_verdicts_and_keeps_games_from_then_on(tmp_path):
    data = tmp_path / "data"
    schema_1_store(data / STORE_FILE)
    desk, factory, client = served(data)
    try:
        with sqlite3.connect(data / STORE_FILE) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        verdicts = client.get("/api/verdicts?limit=10").get_json()
        said = verdicts["verdicts"] if isinstance(verdicts, dict) else verdicts
        assert [v["data"]["digit"] for v in said] == [0, 7, 3]                  # newest first, as kept
        assert [v["data"]["signal"] for v in said] == ["OK", "X", "PRESS"]
        assert [v["data"].get("position") for v in said] == [1, 1, 4]           # the old shape, untouched
        assert client.get("/api/state").status_code == 200
        for page in ("/", "/history", "/oracles"):
            assert client.get(page).status_code == 200, page
        assert shown(client)[0] == [] and client.get("/api/games/stats").get_json()["games_counted"] == 0
        for winner in (3, 0):
            play_a_game(desk, winner)
        before = shown(client)
        assert [g["winners"] for g in before[0]] == [["Ann"], ["Dee"]]
    finally:
        desk.close()
        factory.close()
    desk, factory, client = served(data)              # opened again: read back the same
    try:
        assert shown(client) == before
        assert len(client.get("/api/verdicts?limit=10").get_json()["verdicts"]) == 3
    finally:
        desk.close()
        factory.close()
    file = tmp_path / "migrated.zip"
    assert backup.make_backup(data, file)["schema"] == SCHEMA_VERSION
    other = tmp_path / "new-card"
    backup.restore(other, file, lambda words: True)
    desk, factory, client = served(other)
    try:
        assert shown(client) == before
    finally:
        desk.close()
        factory.close()


def test_migrate_brings_a_schema_1_store_forward_and_says_so(tmp_path, capsys):
    data = tmp_path / "data"
    schema_1_store(data / STORE_FILE)
    assert main(["migrate", "--data", str(data)]) == 0
    assert "was brought from schema 1 to %d" % SCHEMA_VERSION in capsys.readouterr().err
    store = Store(data / STORE_FILE)
    try:
        assert [e.payload["digit"] for e in store.since(0)] == [3, 7, 0] and store.games() == []
    finally:
        store.close()
    assert main(["migrate", "--data", str(data)]) == 0
    assert "nothing to migrate" in capsys.readouterr().err
    assert main(["migrate", "--data", str(tmp_path / "empty")]) == 0
    assert "no store in" in capsys.readouterr().err


def test_a_newer_schema_is_refused_in_one_sentence(tmp_path, capsys):
    data = tmp_path / "data"
    schema_1_store(data / STORE_FILE)
    with sqlite3.connect(data / STORE_FILE) as db:
        db.execute("PRAGMA user_version=%d" % (SCHEMA_VERSION + 1))
    with pytest.raises(StoreError, match="was written by a newer newsdesk"):
        Store(data / STORE_FILE)
    assert main(["migrate", "--data", str(data)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("newsdesk: the store ") and err.endswith("update newsdesk to open it")
    assert "(schema %d)" % (SCHEMA_VERSION + 1) in err
