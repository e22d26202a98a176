"""The league: many tables' MQTT folded into live standings and a leaderboard across tables,
and its read-only page."""

import json
import random
import re
import threading

import pytest
from conftest import page_assets, wait_for
from mosquitto import Mosquitto

from controller.bus import Bus
from controller.mqtt.follower import LeagueFollower
from controller.mqtt.league import League
from controller.mqtt.publisher import MqttPublisher, Settings
from controller.store import Store
from web_ui.league import create_league_app

WAIT = 20.0             # deadline for a condition on a busy machine
EVENTS_PER_GAME = 20    # the twenty tables' games (test_twenty_tables_of_100_events_into_one_league)
EVENTS = 5 * EVENTS_PER_GAME
NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal"]


class SimTable:
    """A table reduced to what the league sees: games stored through the Store's own API and
    announced on a bus, its publisher reading them. Durability is tested elsewhere: these stores
    skip fsync, so that twenty tables' events take seconds."""

    def __init__(self, folder, rng, store_file="store.sqlite3"):
        self.store = Store(folder / store_file)
        self.store._db.execute("PRAGMA synchronous=OFF")
        self.bus = Bus()
        self.rng = rng
        self.current = None         # as GameSession.current() has it; replaced whole, never changed
        self.history = []           # as GameSession.history() has it, the newest first

    def _show(self, game, version, scores):
        players = [{"name": n, "score": v} for n, v in scores.items()]
        self.current = {"id": game.id, "engine": "tally", "title": "Tally", "version": version,
                        "players": [{"name": n} for n in scores], "view": {"players": players}}

    def play(self, games=5, events_per_game=100):
        """games * events_per_game stored events (500 by default): all but the last game finished,
        the last left being played."""
        for _ in self.moves(games, events_per_game):
            pass

    def moves(self, games=5, events_per_game=100):
        """play(), one stored event at each step."""
        for g in range(games):
            scores = {n: 0 for n in self.rng.sample(NAMES, 3)}
            game, _, event = self.store.start_game("tally", [{"name": n} for n in scores], {}, {"type": "setup"})
            version = 1
            self._show(game, version, scores)
            self.bus.publish(event.as_dict())
            yield event
            for _ in range(events_per_game - (2 if g < games - 1 else 1)):
                who, points = self.rng.choice(list(scores)), self.rng.randrange(1, 10)
                scores[who] += points
                _, event = self.store.append_entry(game.id, version, {"type": "action", "said": "%s +%d" % (
                    who, points)})
                version += 1
                self._show(game, version, scores)
                self.bus.publish(event.as_dict())
                yield event
            if g < games - 1:
                best = max(scores.values())
                rows = [{"name": n, "score": v, "winner": v == best} for n, v in scores.items()]
                winners = [r["name"] for r in rows if r["winner"]]
                game, event = self.store.end_game(game.id, version, "finished", winners,
                                                  {"winners": winners, "standings": rows})
                self.history.insert(0, {"id": game.id, "engine": "tally", "title": "Tally", "status": "finished",
                                        "ended": game.ended, "players": list(scores), "winners": winners,
                                        "standings": rows})
                self.current = None
                self.bus.publish(event.as_dict())
                yield event


def test_the_league_drops_repeats_counts_skips_and_leaderboards_finished_games_once():
    league = League()
    def ev(i):
        return json.dumps({"table": "Table 1", "id": i, "type": "dice.roll", "data": {"said": "3 + 4"}})

    assert league.take("newsdesk/t1/events", ev(1))
    assert not league.take("newsdesk/t1/events", ev(1))
    assert league.take("newsdesk/t1/events", ev(4))
    assert not league.take("newsdesk/t1/events", "not json")
    assert league.take("newsdesk/t1/availability", "online")
    results = json.dumps({"table": "Table 1", "games": [
        {"id": 1, "title": "Tally", "status": "finished", "standings": [
            {"name": "Ann", "score": 9, "winner": True}, {"name": "bob ", "score": 3, "winner": False}]},
        {"id": 2, "title": "Tally", "status": "abandoned",
         "standings": [{"name": "Ann", "score": 1, "winner": False}]}]})
    league.take("newsdesk/t1/state/results", results)
    league.take("newsdesk/t1/state/results", results)             # retained again on reconnect: counted once
    league.take("newsdesk/t2/state/results", json.dumps({"table": "Table 2", "games": [
        {"id": 1, "title": "Tally", "status": "finished", "standings": [
            {"name": "Bob", "score": 12, "winner": True}, {"name": "Ann", "score": 2, "winner": False}]}]}))
    # a game's end on the events topic counts too (a long day outlasts the retained last 20), once
    league.take("newsdesk/t2/state/game", json.dumps({"table": "Table 2", "game": {
        "id": 2, "engine": "tally", "title": "Tally", "version": 3, "standings": []}}))
    ended = {"table": "Table 2", "id": 9, "type": "game.finished", "data": {
        "game": 2, "engine": "tally", "status": "finished", "winners": ["Cleo"],
        "standings": [{"name": "Cleo", "score": 20, "winner": True}, {"name": "ann", "score": 1, "winner": False}]}}
    assert league.take("newsdesk/t2/events", json.dumps(ended))
    league.take("newsdesk/t2/state/results", json.dumps({"table": "Table 2", "games": [
        {"id": 2, "engine": "tally", "title": "Tally", "status": "finished", "standings": ended["data"]["standings"]},
        {"id": 1, "title": "Tally", "status": "finished", "standings": [
            {"name": "Bob", "score": 12, "winner": True}, {"name": "Ann", "score": 2, "winner": False}]}]}))
    snap = league.snapshot()
    t1 = snap["tables"][0]
    assert (t1["name"], t1["online"], t1["events"]) == ("Table 1", True, {"seen": 2, "repeats": 1, "skipped": 2,
                                                                          "last_id": 4, "installs": 1})
    players = {r["player"]: (r["won"], r["played"], r["best"]) for r in snap["leaderboard"]["by_player"]}
    assert players == {"Ann": (1, 3, 9), "bob": (1, 2, 12), "Cleo": (1, 1, 20)}
    assert snap["leaderboard"]["games_counted"] == 3
    assert {r["game"] for r in snap["leaderboard"]["by_game"]} == {"Tally"}


def test_a_game_whose_lowest_score_wins_has_its_lowest_as_the_best_and_ranks_by_it():
    """A plug-in golf-like darts countdown (its panel facts' lower_wins, sent with each finished
    game by its table): the league's best was the highest score, the worst round a player had,
    and the player nearer zero was ranked below; over all games a countdown's score is no best."""
    league = League()
    def golf(game_id, ann, bob, lower=True):
        return {"id": game_id, "engine": "darts_golf", "title": "Darts Golf", "status": "finished",
                "ended": "2026-11-29T20:0%d:00+00:00" % game_id, "lower_wins": lower, "standings": [
                    {"name": "Ann", "score": ann, "winner": ann < bob}, {"name": "Bob", "score": bob, "winner": bob < ann}]}
    league.take("newsdesk/t1/state/results", json.dumps({"table": "Table 1", "games": [golf(1, 30, 45), golf(2, 40, 35)]}))
    ended = golf(3, 50, 12)         # its end on the events topic says it too
    league.take("newsdesk/t2/events", json.dumps({"table": "Table 2", "id": 1, "at": ended["ended"], "type": "game.finished",
                                                  "data": dict(ended, game=3)}))
    by_game = league.leaderboard()["by_game"]
    assert [(r["player"], r["won"], r["best"]) for r in by_game] == [("Bob", 2, 12), ("Ann", 1, 30)]
    assert all(r.get("lower_wins") is True for r in by_game)
    # level on wins, the lower best ranks first (by the highest, Ann's 50 put her first); a game
    # scored upwards still has the highest as its best
    tally = {"id": 5, "engine": "tally", "title": "Tally", "status": "finished", "ended": "2026-11-29T21:00:00+00:00",
             "lower_wins": False, "standings": [{"name": "Ann", "score": 7, "winner": False},
                                                {"name": "Bob", "score": 50, "winner": True}]}
    league.take("newsdesk/t3/state/results", json.dumps({"table": "Table 3", "games": [golf(4, 20, 25), tally]}))
    board = league.leaderboard()
    assert [(r["player"], r["won"], r["best"]) for r in board["by_game"] if r["game"] == "Darts Golf"] == [
        ("Bob", 2, 12), ("Ann", 2, 20)]
    assert [(r["player"], r["best"]) for r in board["by_game"] if r["game"] == "Tally"] == [("Bob", 50), ("Ann", 7)]
    assert {r["player"]: (r["played"], r["won"], r["best"]) for r in board["by_player"]} == {
        "Ann": (5, 2, 7), "Bob": (5, 3, 50)}


def test_the_leaderboard_leaves_out_the_opponent_the_box_plays():
    """A solitaire game's automated reporter (Scoop!'s N. Ickel; his row says "automated") is no
    player: the leaderboards count the person he played, not him."""
    league = League()
    league.take("newsdesk/t1/state/results", json.dumps({"table": "Table 1", "games": [
        {"id": 1, "title": "Scoop!", "status": "finished", "standings": [
            {"name": "Ann", "score": 2, "winner": False},
            {"name": "N. Ickel", "score": 5, "winner": True, "automated": True}]}]}))
    board = league.leaderboard()
    assert [(r["player"], r["played"], r["won"]) for r in board["by_player"]] == [("Ann", 1, 0)]
    assert [r["player"] for r in board["by_game"]] == ["Ann"] and board["games_counted"] == 1


def test_a_store_restored_under_a_new_install_sends_its_games_again_and_they_count_once():
    """A backup restored (a new SD card, or the box put back to last week) starts a new install:
    the table sends its whole log again. Its games come with the ids and the moments they ended,
    and count once; a reinstall's new game #1 ended at another moment and counts."""
    league = League()
    standings = [{"name": "Ann", "score": 9, "winner": True}, {"name": "Bob", "score": 3, "winner": False}]

    def ended(install, event_id, game_id, at):
        return json.dumps({"table": "Den", "install": install, "id": event_id, "at": at, "type": "game.finished",
                           "data": {"game": game_id, "engine": "tally", "status": "finished", "winners": ["Ann"],
                                    "standings": standings}})

    def results(install, *games):
        return json.dumps({"table": "Den", "install": install, "games": [
            {"id": game_id, "engine": "tally", "title": "Tally", "status": "finished", "ended": at,
             "standings": standings} for game_id, at in games]})

    first, second = "2026-11-20T20:01:02.345+00:00", "2026-11-20T21:30:00.000+00:00"
    league.take("newsdesk/den/events", ended("before", 10, 1, first))
    league.take("newsdesk/den/events", ended("before", 20, 2, second))
    league.take("newsdesk/den/state/results", results("before", (2, second), (1, first)))
    assert league.leaderboard()["games_counted"] == 2
    # restored from the backup: the same games again, under a new install, by both roads
    league.take("newsdesk/den/events", ended("restored", 10, 1, first))
    league.take("newsdesk/den/state/results", results("restored", (1, first)))
    league.take("newsdesk/den/events", ended("restored", 20, 2, second))
    assert league.leaderboard()["games_counted"] == 2
    # a game played since, and a reinstall's own game #1, which ended at another moment
    league.take("newsdesk/den/events", ended("restored", 30, 3, "2026-11-21T19:00:00.000+00:00"))
    league.take("newsdesk/den/events", ended("fresh", 5, 1, "2026-11-22T19:00:00.000+00:00"))
    board = league.leaderboard()
    assert board["games_counted"] == 4
    assert {r["player"]: (r["played"], r["won"]) for r in board["by_player"]} == {"Ann": (4, 4), "Bob": (4, 0)}
    assert league.snapshot()["tables"][0]["events"]["installs"] == 3


def test_the_league_command_needs_a_broker_and_says_so(tmp_path, capsys):
    from newsdesk.cli import main
    assert main(["--data", str(tmp_path), "league"]) == 2
    assert "--mqtt-url" in capsys.readouterr().err
    assert main(["--data", str(tmp_path), "league", "--mqtt-url", "mqtt://b", "--tables", "cafe/#"]) == 2
    assert "--tables" in capsys.readouterr().err


@pytest.mark.slow
def test_twenty_tables_of_100_events_into_one_league(tmp_path):
    """Twenty tables, their moves interleaved, folded into one league: each table's events
    counted with no repeat and no gap, its game being played shown as it stands, and the 80
    games finished across the tables leaderboarded once each.

    Five games of 20 events a table (it was 100, about 30 CPU-s for the test): the league's work
    is the same at any length of game, as every table still finishes four games and leaves a
    fifth being played, and the twenty tables' events still reach the broker interleaved. More
    events than the publisher's window (100) are test_mqtt.py's, with a broker restarted
    mid-stream."""
    broker = Mosquitto(tmp_path / "broker").start()
    follower = LeagueFollower(broker.url, client_id="league", backoff=(1, 2)).start()
    tables, pubs = [], []
    try:
        assert wait_for(lambda: follower.connected, timeout=WAIT)
        for i in range(20):
            folder = tmp_path / ("t%02d" % i)
            table = SimTable(folder, random.Random(i))
            tables.append(table)
            pubs.append(MqttPublisher(table.store, table.bus, Settings(broker.url, "newsdesk/t%02d" % i,
                                                                       "Table %d" % i, "off"),
                                      folder, game=lambda t=table: t.current, history=lambda t=table: t.history,
                                      backoff=(0.05, 0.2)))
        assert wait_for(lambda: all(pub.connected for pub in pubs), timeout=WAIT)
        # the tables take turns, a move each, so the broker and the league get their events
        # interleaved; from one thread, as twenty threads would fight over one interpreter here
        # (twenty tables are twenty Pis in a league)
        playing = [table.moves(games=5, events_per_game=EVENTS_PER_GAME) for table in tables]
        while playing:
            playing = [moves for moves in playing if next(moves, None) is not None]
        assert all(table.store.last_id() == EVENTS for table in tables)

        def caught_up():
            snap = follower.snapshot()
            return len(snap["tables"]) == 20 and all(
                t["events"]["last_id"] == EVENTS and t["game"] and t["game"]["version"] == EVENTS_PER_GAME
                for t in snap["tables"]
            ) and snap["leaderboard"]["games_counted"] == 80 and snap

        snap = wait_for(caught_up, timeout=30)
        assert snap, follower.snapshot()["tables"][:2]
    finally:
        for pub in pubs:
            pub.close()
        for table in tables:
            table.store.close()
        follower.close()
        broker.stop()
    by_name = {t["name"]: t for t in snap["tables"]}
    played, won, best = {}, {}, {}
    for i, table in enumerate(tables):
        seen = by_name["Table %d" % i]
        assert seen["events"] == {"seen": EVENTS, "repeats": 0, "skipped": 0, "last_id": EVENTS, "installs": 1}
        assert [(r["name"], r["score"]) for r in seen["game"]["standings"]] == [
            (p["name"], p["score"]) for p in table.current["view"]["players"]]
        assert seen["game"]["leader"] == " and ".join(
            p["name"] for p in table.current["view"]["players"]
            if p["score"] == max(q["score"] for q in table.current["view"]["players"]))
        for game in table.history:
            for row in game["standings"]:
                played[row["name"]] = played.get(row["name"], 0) + 1
                won[row["name"]] = won.get(row["name"], 0) + row["winner"]
                best[row["name"]] = max(best.get(row["name"], 0), row["score"])
    assert {r["player"]: (r["played"], r["won"], r["best"]) for r in snap["leaderboard"]["by_player"]} == {
        n: (played[n], won[n], best[n]) for n in played}
    assert sum(played.values()) == 80 * 3


@pytest.mark.slow
def test_a_table_reinstalled_under_the_same_name_keeps_its_history_and_counts_its_new_games(tmp_path):
    """A table restarted on a fresh data folder numbers its events and games from 1 again: the
    league must take them as new (not repeats of the old install's) and keep what came before."""
    broker = Mosquitto(tmp_path / "broker").start()
    follower = LeagueFollower(broker.url, client_id="league", backoff=(1, 2)).start()
    settings = Settings(broker.url, "newsdesk/corner", "Corner", "off")
    tables, pubs = [], []
    try:
        assert wait_for(lambda: follower.connected, timeout=WAIT)
        for n, (games, folder) in enumerate(((3, "before"), (2, "after"))):
            if pubs:
                pubs[-1].close()
            table = SimTable(tmp_path / folder, random.Random(n))
            tables.append(table)
            pubs.append(MqttPublisher(table.store, table.bus, settings, tmp_path / folder,
                                      game=lambda t=table: t.current, history=lambda t=table: t.history,
                                      backoff=(0.05, 0.2)))
            assert wait_for(lambda: pubs[-1].connected, timeout=WAIT)
            table.play(games=games, events_per_game=10)
            assert wait_for(lambda t=table: pubs[-1].position == t.store.last_id(), timeout=WAIT)

        def caught_up():
            snap = follower.snapshot()
            return snap["tables"] and snap["tables"][0]["events"]["seen"] == 50 and \
                snap["leaderboard"]["games_counted"] == 3 and snap

        snap = wait_for(caught_up, timeout=WAIT)
        assert snap, follower.snapshot()
    finally:
        for pub in pubs:
            pub.close()
        for table in tables:
            table.store.close()
        follower.close()
        broker.stop()
    assert [t["name"] for t in snap["tables"]] == ["Corner"]
    assert snap["tables"][0]["events"] == {"seen": 50, "repeats": 0, "skipped": 0, "last_id": 20, "installs": 2}
    played = {}
    for table in tables:
        for game in table.history:
            for row in game["standings"]:
                played[row["name"]] = played.get(row["name"], 0) + 1
    assert {r["player"]: r["played"] for r in snap["leaderboard"]["by_player"]} == played


@pytest.mark.slow
def test_a_table_restored_from_its_backup_onto_a_new_card_counts_no_game_twice(tmp_path):
    """The SD card dies and a new one gets last night's backup (`newsdesk restore`). A backup holds
    no MQTT files, so the restored store is a new install and the table sends its whole log again:
    the league counts each of its games once, and the game played after the restore too."""
    from controller.backup import make_backup, restore
    from controller.store import STORE_FILE

    broker = Mosquitto(tmp_path / "broker").start()
    follower = LeagueFollower(broker.url, client_id="league", backoff=(1, 2)).start()
    settings = Settings(broker.url, "newsdesk/den", "Den", "off")
    old = SimTable(tmp_path / "old", random.Random(3), STORE_FILE)
    new = None
    pubs = [MqttPublisher(old.store, old.bus, settings, tmp_path / "old", game=lambda: old.current,
                          history=lambda: old.history, backoff=(0.05, 0.2))]
    try:
        assert wait_for(lambda: follower.connected and pubs[0].connected, timeout=WAIT)
        old.play(games=4, events_per_game=10)           # three finished, the fourth stopped below
        _, event = old.store.end_game(old.current["id"], old.current["version"], "abandoned", [],
                                      {"winners": [], "standings": []})
        old.current = None
        old.bus.publish(event.as_dict())
        assert wait_for(lambda: pubs[0].position == old.store.last_id(), timeout=WAIT)
        assert wait_for(lambda: follower.snapshot()["leaderboard"]["games_counted"] == 3, timeout=WAIT)
        make_backup(tmp_path / "old", tmp_path / "backup.zip")
        pubs[0].close()
        old.store.close()                               # the card dies
        (tmp_path / "new").mkdir()
        assert restore(tmp_path / "new", tmp_path / "backup.zip", confirm=lambda words: True) is not None
        assert sorted(p.name for p in (tmp_path / "new").iterdir() if p.name.startswith("mqtt")) == []
        new = SimTable(tmp_path / "new", random.Random(4), STORE_FILE)
        new.history = list(old.history)                 # as the restored store lists its games
        pubs.append(MqttPublisher(new.store, new.bus, settings, tmp_path / "new", game=lambda: new.current,
                                  history=lambda: new.history, backoff=(0.05, 0.2)))
        assert wait_for(lambda: pubs[1].connected, timeout=WAIT)
        assert pubs[1].install != pubs[0].install
        new.play(games=2, events_per_game=10)           # one more finished, one being played
        assert wait_for(lambda: pubs[1].position == new.store.last_id(), timeout=WAIT)

        def caught_up():
            snap = follower.snapshot()
            seen = snap["tables"][0]["events"]
            return seen["installs"] == 2 and seen["last_id"] == new.store.last_id() and snap

        snap = wait_for(caught_up, timeout=WAIT)
        assert snap, follower.snapshot()
    finally:
        for pub in pubs:
            pub.close()
        for table in (old, new):
            if table is not None:
                table.store.close()
        follower.close()
        broker.stop()
    assert len(new.history) == 4
    assert snap["leaderboard"]["games_counted"] == 4
    played = {}
    for game in new.history:
        for row in game["standings"]:
            played[row["name"]] = played.get(row["name"], 0) + 1
    assert {r["player"]: r["played"] for r in snap["leaderboard"]["by_player"]} == played


@pytest.mark.slow
def test_events_sent_while_the_league_reconnects_after_a_broker_restart_are_not_lost(tmp_path):
    """The tables come back to a restarted broker before the league does and send what they
    stored meanwhile: the broker keeps it for the league (a session of its own), so no id is
    skipped."""
    from controller import events

    broker = Mosquitto(tmp_path / "broker").start()
    # the league waits 3 s before reconnecting, the table 0.05 s: the table is back well before it
    follower = LeagueFollower(broker.url, client_id="league", backoff=(3, 5)).start()
    table = SimTable(tmp_path / "t", random.Random(1))
    pub = MqttPublisher(table.store, table.bus, Settings(broker.url, "newsdesk/t", "T", "off"), tmp_path / "t",
                        backoff=(0.05, 0.2))
    try:
        assert wait_for(lambda: follower.connected and pub.connected, timeout=WAIT)
        table.bus.publish(table.store.append(events.DICE_ROLL, {"total": 7}).as_dict())
        assert wait_for(lambda: (follower.snapshot()["tables"] or [{}])[0].get("events", {}).get("last_id") == 1,
                        timeout=WAIT)
        broker.restart()
        assert wait_for(lambda: pub.connected and not follower.connected, timeout=WAIT)
        for total in range(2, 12):              # sent while the league is still waiting to reconnect
            table.bus.publish(table.store.append(events.DICE_ROLL, {"total": total}).as_dict())
        assert wait_for(lambda: pub.position == 11, timeout=WAIT)
        assert wait_for(lambda: follower.snapshot()["tables"][0]["events"]["last_id"] == 11, timeout=WAIT)
        seen = follower.snapshot()["tables"][0]["events"]
    finally:
        pub.close()
        table.store.close()
        follower.close()
        broker.stop()
    assert (seen["seen"], seen["skipped"]) == (11, 0)


class _Still:
    """A follower that holds one picture (the page's tests need no broker)."""

    def __init__(self, league):
        self.league = league
        self.version = 1

    def snapshot(self):
        return dict(self.league.snapshot(), version=self.version, broker="mqtt://b:1883", following="newsdesk/+",
                    connected=True, problem=None)

    def changed(self, after, timeout):
        return self.version


def test_the_league_page_is_read_only_local_and_streams_the_picture():
    league = League()
    league.take("newsdesk/t1/state/game", json.dumps({"table": "Corner table", "game": {
        "id": 3, "engine": "tally", "title": "Tally", "version": 7, "players": ["Ann", "Bob"], "leader": "Ann",
        "standings": [{"name": "Ann", "score": 5, "winner": False}, {"name": "Bob", "score": 2, "winner": False}]}}))
    app = create_league_app(_Still(league), keepalive=0.05)
    client = app.test_client()
    assets = page_assets(client, "/")
    assert "Corner table" in assets["/"].decode()
    assert {"/static/js/league.js", "/static/css/league.css"} <= set(assets)
    remote = re.compile(rb"""(?:src|href)=["']?(?:https?:)?//"""
                        rb"""|url\(["']?(?:https?:)?//|(?:from|import)\s*["'](?:https?:)?//""")
    assert not [path for path, body in assets.items() if remote.search(body)]        # nothing from the network
    assert client.get("/api/league").get_json()["tables"][0]["game"]["leader"] == "Ann"
    assert client.post("/api/league").status_code == 405
    stream = client.get("/api/league/stream", buffered=False)
    chunks = stream.response
    first = next(c for c in chunks if c.startswith(b"data:"))
    assert json.loads(first[5:])["tables"][0]["name"] == "Corner table"
    assert list(client.get("/api/league").get_json()) == list(json.loads(first[5:]))    # the same picture, keys unsorted
    stream.close()


def test_the_league_page_runs_on_the_panels_one_run_loop():
    """web_ui/server.py's run_on_loop serves the panel and the league page alike: the league's
    app starts, ends its streams as the server begins to stop, and lets its Flask threads go once
    it has stopped, as the panel does; no other module runs Hypercorn a loop of its own."""
    import ast
    from pathlib import Path

    from web_ui.league import LeagueApp

    app = LeagueApp(create_league_app(_Still(League())))
    app.start(None)
    app.begin_stop()
    assert app.stopping.is_set()
    app.stop()
    with pytest.raises(RuntimeError):
        app.wsgi.executor.submit(print)          # its threads are gone
    web_ui = Path(__file__).resolve().parents[1] / "web_ui"
    runners = sorted(path.name for path in web_ui.rglob("*.py") for node in ast.walk(ast.parse(path.read_text()))
                     if isinstance(node, ast.ImportFrom) and node.module == "hypercorn.asyncio"
                     and any(alias.name == "serve" for alias in node.names))
    assert runners == ["server.py"]


@pytest.mark.slow
def test_newsdesk_league_serves_its_page_on_the_panels_server_and_stops_on_sigterm(tmp_path):
    """The command as a person runs it: the page answers over Hypercorn (the panel's own server
    software, installed by `make run`), and SIGTERM ends it cleanly."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    broker = Mosquitto(tmp_path / "broker").start()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "newsdesk", "--data", str(tmp_path / "data"), "league",
                             "--mqtt-url", broker.url, "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        end, page = time.monotonic() + 20, None
        while time.monotonic() < end and page is None and proc.poll() is None:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=2) as r:
                    page = (r.status, r.read().decode())
            except OSError:
                time.sleep(0.1)
        assert page is not None and page[0] == 200, proc.poll()
        assert "<html" in page[1]
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
        assert proc.returncode == 0, out
        assert "Traceback" not in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        broker.stop()


def _league_command(tmp_path, broker):
    """`newsdesk league` as a person runs it, on a free port; returns (process, the page's address)."""
    import os
    import subprocess
    import sys

    from mosquitto import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "newsdesk", "--data", str(tmp_path / "data"), "league",
                             "--mqtt-url", broker.url, "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    return proc, "http://127.0.0.1:%d" % port


def _get_json(url):
    import urllib.request
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return json.loads(r.read())
    except OSError:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_newsdesk_league_stays_quiet_as_pages_leave_and_stops_within_2_s_with_the_broker_gone(tmp_path, signum):
    """Pages that go away while the picture keeps changing leave nothing in the log, and with the
    broker gone the command still stops within 2 s of the signal, without a traceback."""
    import http.client
    import signal
    import time
    from urllib.parse import urlsplit

    from mosquitto import Listener

    broker = Mosquitto(tmp_path / "broker").start()
    proc, url = _league_command(tmp_path, broker)
    sender = None
    try:
        assert wait_for(lambda: (_get_json(url + "/api/league") or {}).get("connected") or proc.poll() is not None,
                        timeout=WAIT)
        where = urlsplit(url)
        gone = []
        for _ in range(3):                       # pages that read the picture, then vanish
            conn = http.client.HTTPConnection(where.hostname, where.port, timeout=5)
            conn.request("GET", "/api/league/stream")
            reply = conn.getresponse()
            assert reply.status == 200 and reply.readline()
            gone.append(conn)
        staying = http.client.HTTPConnection(where.hostname, where.port, timeout=5)
        staying.request("GET", "/api/league/stream")
        assert staying.getresponse().status == 200
        for conn in gone:
            conn.sock.shutdown(2)
            conn.close()
        sender = Listener(broker, ["newsdesk/none"], client_id="tables", persistent=False)
        for i in range(200):                     # the picture changes many times after they left
            sender.client.publish("newsdesk/t%d/availability" % (i % 20), "online" if i % 2 else "offline", qos=1)
        assert wait_for(lambda: len((_get_json(url + "/api/league") or {}).get("tables") or []) == 20, timeout=WAIT)
        sender.close()
        sender = None
        broker.stop()
        assert wait_for(lambda: (_get_json(url + "/api/league") or {}).get("connected") is False, timeout=WAIT)
        started = time.monotonic()
        proc.send_signal(getattr(signal, signum))
        out, _ = proc.communicate(timeout=15)
        took = time.monotonic() - started
        staying.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if sender is not None:
            sender.close()
        broker.stop()
    assert proc.returncode == 0, out
    assert took < 2.0, (took, out)
    for noise in ("Traceback", "CancelledError", "socket.send()"):
        assert noise not in out, out


@pytest.mark.slow
def test_the_league_page_reads_for_a_passer_by_at_a_phones_a_tablets_and_a_walls_size(tmp_path):
    """Names, games and money with its unit; no ids, topics or broker; nothing wider than the
    screen, whatever the length of a name."""
    from conftest import launched_chromium, need_browser
    from werkzeug.serving import make_server

    need_browser()
    long_name = "Bartholomew-Fitzgerald Montgomery-Wolstenholme the Third"
    league = League()
    league.take("newsdesk/t1/state/game", json.dumps({"table": "Corner table", "game": {
        "id": 3, "engine": "scoop1956", "title": "SCOOP (Parker Brothers, 1956)", "version": 7, "unit": "$",
        "players": ["Ann", long_name], "leader": "Ann", "leaders": ["Ann"],
        "standings": [{"name": "Ann", "score": 3500, "winner": False},
                      {"name": long_name, "score": 1200, "winner": False}]}}))
    league.take("newsdesk/t1/events", json.dumps({"table": "Corner table", "id": 213, "type": "game.abandoned",
                                                  "data": {"game": 2}}))
    league.take("newsdesk/t2/state/results", json.dumps({"table": "Window", "games": [
        {"id": 1, "title": "Get the Scoop! (2011)", "status": "finished", "standings": [
            {"name": long_name, "score": 41, "winner": True}, {"name": "Ann", "score": 12, "winner": False}]}]}))
    app = create_league_app(_Still(league))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        with launched_chromium() as browser:
            for width, height in ((390, 844), (768, 1024), (1920, 1080)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.route("**/api/league/stream", lambda route: route.abort())     # the picture served is enough
                page.goto("http://127.0.0.1:%d/" % server.server_port)
                page.wait_for_selector("#tables li")
                text = page.inner_text("body")
                assert "$3,500" in text and long_name in text and "Corner table" in text, text
                assert "Game stopped" in text
                for internal in ("#213", "game.abandoned", "mqtt://", "newsdesk/", "following"):
                    assert internal not in text, (width, internal)
                wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
                    .map(e => e.tagName + '.' + e.className)""")
                assert page.evaluate("document.documentElement.scrollWidth") <= width and not wide, (width, wide)
                narrowest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('td.num, .score')]
                    .map(e => e.getBoundingClientRect().width))""")
                assert narrowest >= 16, (width, narrowest)      # a number is never squeezed to a letter
                page.close()
    finally:
        server.shutdown()
