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


# ---------------------------------------------------------------- schema 2: games and their entries

from controller.errors import BadRequest  # noqa: E402
from controller.store import SCHEMA_VERSION, GameNotActive, KeyReused, StaleVersion  # noqa: E402

V1_SCHEMA = """
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, kind TEXT NOT NULL,
                     payload TEXT NOT NULL);
CREATE INDEX events_kind ON events (kind, id);
INSERT INTO events (at, kind, payload) VALUES ('2024-05-01T20:00:00.000+00:00', 'editor.verdict',
                                               '{"digit": 7, "signal": "OK"}');
PRAGMA user_version=1;
"""


def setup_entry(names=("Ann", "Bob")):
    return {"type": "setup", "said": "set up", "events": [{"type": "setup", "players": list(names)}]}


def move(n):
    return {"type": "action", "action": {"type": "move", "n": n}, "events": [{"type": "moved", "n": n}],
            "said": "move %d" % n}


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.sqlite3")
    yield s
    s.close()


def test_a_schema_1_file_opens_keeps_its_events_and_gains_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.close()
    store = Store(path)
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        assert [(e.kind, e.payload) for e in store.since(0)] == [("editor.verdict", {"digit": 7, "signal": "OK"})]
        game, first, event = store.start_game("scan", [{"name": "Ann"}], {}, setup_entry())
        assert (game.id, game.version, first.version) == (1, 1, 1)
        assert event.id == 2 and event.kind == "game.started"
    finally:
        store.close()
    again = Store(path)     # and a second opening migrates nothing more
    assert again.active_game().id == 1 and again.integrity() == "ok"
    again.close()


def test_entries_get_versions_and_announce_themselves_as_events(store):
    game, _, _ = store.start_game("scan", [{"name": "Ann"}], {"variant": "team"}, setup_entry())
    a, ev_a = store.append_entry(game.id, 1, move(1))
    b, ev_b = store.append_entry(game.id, 2, move(2))
    assert (a.version, b.version) == (2, 3)
    assert ev_b.id > ev_a.id and b.event_id == ev_b.id
    assert ev_b.kind == "game.changed"
    assert ev_b.payload == {"game": game.id, "engine": "scan", "version": 3, "kind": "action", "said": "move 2"}
    assert [e.entry for e in store.entries(game.id)] == [setup_entry(), move(1), move(2)]
    assert store.active_game().version == 3 and store.active_game().options == {"variant": "team"}


def test_an_entry_is_committed_before_append_returns(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    store.append_entry(game.id, 1, move(1), key="k1")
    other = sqlite3.connect(store.path)          # another reader sees it at once: it is committed
    try:
        assert other.execute("SELECT version FROM game_entries WHERE key = 'k1'").fetchone() == (2,)
    finally:
        other.close()


def test_an_entry_made_on_an_old_version_is_refused(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    store.append_entry(game.id, 1, move(1))
    with pytest.raises(StaleVersion, match="at version 2, not 1") as caught:
        store.append_entry(game.id, 1, move(9))
    assert (caught.value.expected, caught.value.current) == (1, 2)
    assert isinstance(caught.value, BadRequest)
    assert len(store.entries(game.id)) == 2


def test_two_writers_on_one_file_and_one_version_exactly_one_wins(tmp_path):
    path = tmp_path / "s.sqlite3"
    a, b = Store(path), Store(path)
    try:
        game, _, _ = a.start_game("scan", [], {}, setup_entry())
        a.append_entry(game.id, 1, move(1))
        with pytest.raises(StaleVersion):
            b.append_entry(game.id, 1, move(2))
        assert [e.entry for e in b.entries(game.id)][1:] == [move(1)]
    finally:
        a.close()
        b.close()


def test_a_repeated_key_returns_the_first_entry_and_writes_nothing(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    first, event = store.append_entry(game.id, 1, move(1), key="tap-1")
    again, none = store.append_entry(game.id, 1, move(1), key="tap-1")   # the retry, on the old version
    assert none is None and again.repeat and not first.repeat
    assert (again.version, again.event_id, again.entry) == (first.version, event.id, move(1))
    assert len(store.entries(game.id)) == 2 and store.last_id() == event.id


def test_a_key_from_another_game_is_refused(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    store.append_entry(game.id, 1, move(1), key="tap-1")
    store.end_game(game.id, 2, "abandoned")
    other, _, _ = store.start_game("scan", [], {}, setup_entry())
    with pytest.raises(KeyReused, match="tap-1.*game #1"):
        store.append_entry(other.id, 1, move(1), key="tap-1")


def test_only_one_game_is_played_at_a_time_and_an_ended_game_takes_no_moves(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    with pytest.raises(BadRequest, match="game #1 \\(scan\\) is still being played"):
        store.start_game("scan", [], {}, setup_entry())
    ended, event = store.end_game(game.id, 1, "finished", winners=["Ann"], final={"standings": []}, key="end")
    assert (ended.status, ended.winners, event.kind) == ("finished", ["Ann"], "game.finished")
    with pytest.raises(GameNotActive, match="game #1 is finished"):
        store.append_entry(game.id, 1, move(1))
    repeat, none = store.end_game(game.id, 1, "finished", winners=["Ann"], key="end")
    assert none is None and repeat.repeat and repeat.id == game.id
    with pytest.raises(GameNotActive, match="already finished"):
        store.end_game(game.id, 1, "abandoned")
    assert store.active_game() is None
    assert [g.id for g in store.games()] == [game.id]


def test_a_game_started_twice_with_one_key_is_one_game(store):
    first, _, event = store.start_game("scan", [], {}, setup_entry(), key="new-game")
    again, entry, none = store.start_game("scan", [], {}, setup_entry(), key="new-game")
    assert none is None and again.repeat and again.id == first.id and entry.event_id == event.id


def test_a_bad_key_is_refused_with_what_a_key_is(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    for bad in ("", 12, "x" * 201):
        with pytest.raises(BadRequest, match="idempotency key"):
            store.append_entry(game.id, 1, move(1), key=bad)


def test_a_failed_write_leaves_nothing_and_the_store_usable(store):
    game, _, _ = store.start_game("scan", [], {}, setup_entry())
    last = store.last_id()
    with pytest.raises(TypeError):   # fails after its event row went in: that row must go too
        store.append_entry(game.id, 1, {"type": "action", "events": [{"type": "x", "bad": object()}]})
    assert store.last_id() == last and len(store.entries(game.id)) == 1
    assert store.append_entry(game.id, 1, move(1))[0].version == 2
    assert store.integrity() == "ok"


def test_two_openings_of_a_schema_1_file_at_once_migrate_it_once(tmp_path):
    import threading
    for n in range(5):
        path = tmp_path / ("old%d.sqlite3" % n)
        db = sqlite3.connect(path)
        db.executescript(V1_SCHEMA)
        db.close()
        barrier = threading.Barrier(2)
        opened, failed = [], []

        def open_it(barrier, path, opened, failed):
            barrier.wait()
            try:
                opened.append(Store(path))
            except StoreError as e:
                failed.append(e)

        threads = [threading.Thread(target=open_it, args=(barrier, path, opened, failed)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for s in opened:
            s.close()
        assert failed == [] and len(opened) == 2
        again = Store(path)
        assert again._db.execute("PRAGMA user_version").fetchone()[0] == 2 and len(again.since(0)) == 1
        again.close()
