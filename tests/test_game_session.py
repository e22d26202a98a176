"""The game session: moves stored before they are shown, versions, retries, undo and redo,
restarts and replay, finished games and their CSV, and the bell a move may ring. Desk (a store, a
bus and a table, as the product wires them) and its two small engines serve test_table.py,
test_history.py and test_standings.py too."""

import csv
import dataclasses
import io
import random
import tempfile
import threading
from pathlib import Path

import pytest
from conftest import install_game
from hypothesis import HealthCheck, given, settings, strategies as st

from controller.bus import Bus
from controller.errors import BadRequest, GameFault
from controller.games import base, ledger, registry
from controller.games.base import GameError
from controller.games.game import Game
from controller.history import stacks
from controller.oracles.editor import Editor
from controller.store import GameNotActive, KeyReused, StaleVersion, Store
from controller.table import Table

START = 1000


# ---------------------------------------------------------------- two small engines for the tests

def _purse():
    """A money game: players pay each other, the bank pays bonuses it rolls; richest wins."""

    def setup(players, options):
        names = [p.get("name") for p in players]
        if len(names) < 2:
            raise GameError("purse needs two players")
        return [{"type": "seated", "players": names}] + [ledger.transfer(ledger.BANK, n, START) for n in names]

    def initial():
        return {"players": [], "money": {}, "winners": []}

    def decide(state, action, rng):
        names = state["players"]
        kind = action.get("type")
        if state["winners"]:
            raise GameError("the game is over")
        if kind == "pay":
            frm, to = names[action["player"]], names[action["to"]]
            ledger.check_can_pay(state["money"], frm, action["amount"])
            return [ledger.transfer(frm, to, action["amount"], "pay")]
        if kind == "bonus":
            return [ledger.transfer(ledger.BANK, names[action["player"]], 100 * rng.randint(1, 6), "bonus")]
        if kind == "call_it":
            best = max(state["money"][n] for n in names)
            return [{"type": "won", "players": [n for n in names if state["money"][n] == best]}]
        raise GameError("purse has no action %r" % (kind,))

    def apply(state, event):
        s = {"players": list(state["players"]), "money": dict(state["money"]), "winners": list(state["winners"])}
        if event["type"] == "seated":
            s["players"] = list(event["players"])
        elif event["type"] == ledger.TRANSFER:
            s["money"] = ledger.apply_transfer(s["money"], event)
        elif event["type"] == "won":
            s["winners"] = list(event["players"])
        return s

    def view(state):
        return {"title": "Purse", "players": [{"name": n, "money": state["money"].get(n, 0)}
                                              for n in state["players"]],
                "bank": state["money"].get(ledger.BANK, 0), "winners": state["winners"]}

    def result(state):
        return base.result_of(bool(state["winners"]), [(n, state["money"].get(n, 0), n in state["winners"])
                                                       for n in state["players"]], {"score": "money"})

    return Game(name="purse", title="Purse", setup=setup, initial=initial,
                decide=decide, apply=apply, offers=lambda state: [], view=view, result=result)


def _editor_game():
    """Stands in for SCOOP (1956): a claim waits for the editor's verdict from the phone."""

    def setup(players, options):
        return [{"type": "seated", "players": [p["name"] for p in players]}]

    def decide(state, action, rng):
        if action["type"] == "claim":
            return [{"type": "claimed", "player": action["player"]}]
        if action["type"] == "verdict":
            if state["claim"] is None:
                raise GameError("no story claim is waiting for the editor")
            return [{"type": "judged", "player": state["claim"], "signal": action["signal"]}]
        raise GameError("no action %r" % action["type"])

    def apply(state, event):
        s = dict(state, judged=list(state["judged"]))
        if event["type"] == "seated":
            s["players"] = event["players"]
        elif event["type"] == "claimed":
            s["claim"] = event["player"]
        elif event["type"] == "judged":
            s["claim"] = None
            s["judged"].append(event["signal"])
        return s

    return Game(
        name="scoop1956", title="SCOOP (test stand-in)", setup=setup,
        panel={"listens": ["editor"]},           # the editor on the phone judges its claims
        initial=lambda: {"players": [], "claim": None, "judged": []}, decide=decide, apply=apply,
        offers=lambda state: [],
        view=lambda state: {"players": [{"name": n} for n in state["players"]], "claim": state["claim"],
                            "judged": state["judged"]},
        result=lambda state: base.result_of(False, [(n, None, False) for n in state["players"]], {"score": None}))


PURSE = _purse()


FAKES = {"purse": PURSE, "scoop1956": _editor_game()}


PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]


class Desk:
    """A store, a bus and a table on one file, as the product wires them."""

    def __init__(self, path, rng=None):
        self.path = path
        self.store = Store(path)
        self.bus = Bus()
        self.sub = self.bus.subscribe(maxsize=10000)
        self.table = Table(self.store, self.bus, Editor(), rng or random.Random(7),
                           hardware={"simulated": True, "pins": "test"}, engines=FAKES)
        self.games = self.table.games
        self.kept = self.table.kept

    def messages(self):
        out = []
        while (m := self.sub.get(timeout=0)) is not None:
            out.append(m)
        return out

    def close(self):
        self.sub.close()
        self.store.close()


@pytest.fixture
def desk(tmp_path):
    d = Desk(tmp_path / "table.sqlite3")
    yield d
    d.close()


def restart(d):
    d.close()
    return Desk(d.path)


def money(games):
    return {p["name"]: p["money"] for p in games.current()["view"]["players"]}


# ---------------------------------------------------------------- starting and playing

def test_a_started_game_is_stored_shown_and_announced(desk):
    out = desk.games.start("purse", PLAYERS, key="start-1")
    assert (out["game"], out["entry"], out["version"], out["repeat"]) == (1, 1, 1, False)
    assert out["said"] == "set up Purse for Ann, Bob, Cy"
    assert money(desk.games) == {"Ann": START, "Bob": START, "Cy": START}
    [message] = desk.messages()
    assert message["type"] == "game.started" and message["id"] == out["event_id"]
    assert message["data"]["view"]["bank"] == -3 * START
    state = desk.table.state()
    assert state["game"]["id"] == 1 and state["game"]["version"] == 1 and state["game"]["undo"] is None
    assert [e["name"] for e in state["engines"]] == list(registry.names())


def test_a_move_is_committed_then_published_with_its_stored_id(desk):
    desk.games.start("purse", PLAYERS)
    desk.messages()
    out = desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 250}, 1, key="tap-1")
    assert out["version"] == 2 and out["said"] == "Ann's pay (to 1, amount 250); Ann paid Bob $250"
    [message] = desk.messages()
    stored = desk.store.since(out["event_id"] - 1)[0]
    assert message["id"] == stored.id and message["type"] == stored.kind == "game.changed"
    assert message["data"]["version"] == stored.payload["version"] == 2
    assert message["data"]["view"]["players"][1]["money"] == START + 250
    assert desk.store.entries(1)[-1].key == "tap-1"


def test_a_move_the_rules_refuse_stores_nothing(desk):
    desk.games.start("purse", PLAYERS)
    with pytest.raises(GameError, match="Ann has \\$1,000 and can't pay \\$5,000"):
        desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 5000}, 1)
    assert desk.games.version == 1 and len(desk.store.entries(1)) == 1


def test_requests_that_are_not_moves_are_refused_plainly(desk):
    with pytest.raises(GameNotActive, match="no game is being played"):
        desk.games.act({"type": "pay"}, 1)
    with pytest.raises(BadRequest, match="no game called 'chess'"):
        desk.games.start("chess", PLAYERS)
    desk.games.start("purse", PLAYERS)
    with pytest.raises(BadRequest, match="still being played"):
        desk.games.start("purse", PLAYERS)
    with pytest.raises(BadRequest, match="JSON object with a \"type\""):
        desk.games.act(["pay"], 1)
    with pytest.raises(BadRequest, match="which version of game #1"):
        desk.games.act({"type": "bonus", "player": 0}, "1")


# ---------------------------------------------------------------- versions and retries

def test_a_move_made_on_an_old_version_is_refused_and_says_what_changed(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 1, "to": 2, "amount": 10}, 1)
    with pytest.raises(StaleVersion, match="showed version 1, the game is at version 2 "
                                           "\\(latest: Bob's pay .*\\)\\. Look at the board again"):
        desk.games.act({"type": "pay", "player": 0, "to": 2, "amount": 10}, 1)
    assert money(desk.games)["Ann"] == START


def test_a_retried_request_applies_once(desk):
    desk.games.start("purse", PLAYERS)
    first = desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 300}, 1, key="wifi-1")
    again = desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 300}, 1, key="wifi-1")
    assert again["repeat"] and not first["repeat"]
    assert (again["entry"], again["event_id"], again["said"]) == (first["entry"], first["event_id"], first["said"])
    assert money(desk.games) == {"Ann": START - 300, "Bob": START + 300, "Cy": START}
    assert desk.games.version == 2 == len(desk.store.entries(1))


def test_a_key_sent_again_with_another_move_is_refused(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 300}, 1, key="wifi-1")
    with pytest.raises(KeyReused, match="wifi-1.*different request"):
        desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 301}, 2, key="wifi-1")
    with pytest.raises(KeyReused):
        desk.games.undo(2, key="wifi-1")


def test_a_retried_start_is_one_game(desk):
    first = desk.games.start("purse", PLAYERS, key="new")
    again = desk.games.start("purse", PLAYERS, key="new")
    assert again["repeat"] and again["game"] == first["game"] and again["version"] == 1
    with pytest.raises(KeyReused):
        desk.games.start("scan", PLAYERS, key="new")


def test_two_tablets_undoing_at_once_exactly_one_wins(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 100}, 1)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 200}, 2)
    barrier = threading.Barrier(2)
    results = []

    def tablet(name):
        barrier.wait()
        try:
            results.append(("ok", desk.games.undo(3, key=name)["said"]))
        except StaleVersion as e:
            results.append(("stale", str(e)))

    threads = [threading.Thread(target=tablet, args=(n,)) for n in ("tablet-a", "tablet-b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(kind for kind, _ in results) == ["ok", "stale"]
    assert money(desk.games)["Bob"] == START + 100          # only the $200 came back
    assert [e.entry["type"] for e in desk.store.entries(1)] == ["setup", "action", "action", "undo"]


# ---------------------------------------------------------------- undo and redo

def test_undo_and_redo_say_what_they_did_and_never_rewrite_history(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 100}, 1)
    desk.games.act({"type": "pay", "player": 2, "to": 0, "amount": 50}, 2)
    assert desk.games.current()["undo"] == "Cy's pay (to 0, amount 50); Cy paid Ann $50"
    out = desk.games.undo(3)
    assert out["said"] == "Took back: Cy's pay (to 0, amount 50); Cy paid Ann $50"
    assert desk.games.undo(4)["said"].startswith("Took back: Ann's pay")
    assert money(desk.games) == {"Ann": START, "Bob": START, "Cy": START}
    with pytest.raises(BadRequest, match="nothing to undo in game #1"):
        desk.games.undo(5)
    assert desk.games.redo(5)["said"].startswith("Put back: Ann's pay")
    assert money(desk.games)["Bob"] == START + 100
    entries = [(e.version, e.entry) for e in desk.store.entries(1)]
    assert [e["type"] for _, e in entries] == ["setup", "action", "action", "undo", "undo", "redo"]
    assert stacks(entries) == ([2], [3])


def test_a_new_move_ends_what_could_be_redone(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 100}, 1)
    desk.games.undo(2)
    desk.games.act({"type": "pay", "player": 1, "to": 2, "amount": 100}, 3)
    assert desk.games.current()["redo"] is None
    with pytest.raises(BadRequest, match="nothing to redo"):
        desk.games.redo(4)


def test_a_retried_undo_undoes_once(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 100}, 1)
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 200}, 2)
    first = desk.games.undo(3, key="u")
    again = desk.games.undo(3, key="u")
    assert again["repeat"] and again["entry"] == first["entry"] == 4
    assert money(desk.games)["Bob"] == START + 100


class Unread(list):
    """A game's entries that count every look through them."""
    looks = 0

    def __iter__(self):
        Unread.looks += 1
        return super().__iter__()


def test_a_move_costs_the_same_in_a_long_game_as_in_a_short_one(desk):
    """A move reads none of the game's earlier entries: what the panel shows of them (the undo
    and the redo it offers) is kept move by move, not worked out again from them all. (An undo
    still folds the game again: it is rare, and the rules decide what is left.)"""
    g = desk.games
    g.start("purse", PLAYERS)
    for n in range(30):
        g.act({"type": "pay", "player": n % 3, "to": (n + 1) % 3, "amount": 1}, g.version)
    g._entries = Unread(g._entries)
    Unread.looks = 0
    out = g.act({"type": "pay", "player": 0, "to": 1, "amount": 5}, g.version)
    assert out["undo"] == "Ann's pay (to 1, amount 5); Ann paid Bob $5"
    assert Unread.looks == 0
    assert g.undo(g.version)["redo"] == "Ann's pay (to 1, amount 5); Ann paid Bob $5"


# ---------------------------------------------------------------- restarts and replay

def test_a_restart_resumes_the_unfinished_game_where_it_was(desk):
    desk.games.start("purse", PLAYERS)
    desk.games.act({"type": "bonus", "player": 2}, 1)
    desk.games.act({"type": "pay", "player": 2, "to": 0, "amount": 75}, 2)
    desk.games.undo(3)
    before = desk.games.current()
    again = restart(desk)
    try:
        assert again.games.current() == before
        assert again.games.redo(4)["said"].startswith("Put back: Cy's pay")
    finally:
        again.close()


class NoDice:
    """A random source that must not be used: replay reads the outcomes from the events."""

    def __getattr__(self, name):
        raise AssertionError("replay asked the rng for %s" % name)


def replayed(path):
    store = Store(path)
    try:
        table = Table(store, Bus(), Editor(), NoDice(), hardware={}, engines=FAKES)
        return table.games.current(), table.games.state
    finally:
        store.close()


OPS = st.lists(st.one_of(
    st.tuples(st.just("pay"), st.integers(0, 2), st.integers(0, 2), st.integers(1, 1500)),
    st.tuples(st.just("bonus"), st.integers(0, 2)),
    st.tuples(st.just("undo")), st.tuples(st.just("redo")),
    st.tuples(st.just("retry")), st.tuples(st.just("stale"))), max_size=25)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS, seed=st.integers(0, 2 ** 16))
def test_replaying_the_stored_events_gives_the_same_state(ops, seed):
    with tempfile.TemporaryDirectory() as folder:
        d = Desk(Path(folder) / "p.sqlite3", rng=random.Random(seed))
        try:
            g = d.games
            g.start("purse", PLAYERS)
            last = None
            for n, op in enumerate(ops):
                try:
                    if op[0] == "pay":
                        asked = ({"type": "pay", "player": op[1], "to": op[2], "amount": op[3]}, g.version, "k%d" % n)
                    elif op[0] == "bonus":
                        asked = ({"type": "bonus", "player": op[1]}, g.version, "k%d" % n)
                    elif op[0] == "undo":
                        g.undo(g.version)
                        continue
                    elif op[0] == "redo":
                        g.redo(g.version)
                        continue
                    elif op[0] == "stale":
                        with pytest.raises(StaleVersion):
                            g.act({"type": "bonus", "player": 0}, g.version - 1)
                        continue
                    if op[0] == "retry":      # the tablet didn't hear back and sends the last move again
                        if last is None:
                            continue
                        version = g.version
                        assert g.act(*last)["repeat"]
                        assert g.version == version
                    else:
                        g.act(*asked)
                        last = asked
                except (GameError, BadRequest) as e:
                    assert not isinstance(e, (StaleVersion, KeyReused)), e
                # the money is conserved whatever happened
                assert sum(g.state["money"].values()) == 0
                assert all(v >= 0 for k, v in g.state["money"].items() if k != ledger.BANK)
            live_view, live_state = g.current(), g.state
            entries = [(e.version, e.entry) for e in d.store.entries(1)]
            assert [v for v, _ in entries] == list(range(1, g.version + 1))
            assert base.fold(PURSE, entries) == live_state
            done, undone = stacks(entries)      # the stacks kept move by move are the ones worked out
            said = dict(entries)
            assert live_view["undo"] == (said[done[-1]]["said"] if done else None)
            assert live_view["redo"] == (said[undone[-1]]["said"] if undone else None)
        finally:
            d.close()
        assert replayed(d.path) == (live_view, live_state)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 50), min_size=1, max_size=40), seed=st.integers(0, 2 ** 16),
       variants=st.sampled_from([[], ["thats_my_beat"], ["lonely_city"]]))
def test_a_real_engine_with_dice_replays_to_the_same_state(picks, seed, variants):
    players = [{"name": "Ann"}] if "lonely_city" in variants else [{"name": "Ann"}, {"name": "Bob"}]
    with tempfile.TemporaryDirectory() as folder:
        d = Desk(Path(folder) / "s.sqlite3", rng=random.Random(seed))
        try:
            g = d.games
            g.start("scoop2002", players, {"variants": variants})
            for pick in picks:
                offers = g.current()["offers"]
                if not offers:
                    break
                if pick % 7 == 0 and g.current()["undo"]:
                    g.undo(g.version)
                    continue
                g.act(offers[pick % len(offers)], g.version)
            live = (g.current(), g.state)
        finally:
            d.close()
        assert replayed(d.path) == live


# ---------------------------------------------------------------- finishing and the games kept

def test_a_game_without_a_winner_cannot_be_finished_only_abandoned(desk):
    desk.games.start("purse", PLAYERS)
    with pytest.raises(BadRequest, match="game #1 \\(Purse\\) has no winner yet: play on, or abandon it"):
        desk.games.finish(1)
    out = desk.games.abandon(1, key="give-up")
    assert (out["status"], out["winners"], out["repeat"]) == ("abandoned", [], False)
    assert desk.games.abandon(1, key="give-up")["repeat"]
    assert desk.games.current() is None and desk.table.state()["game"] is None
    assert [g["id"] for g in desk.kept.history()] == [1]


def test_a_finished_game_is_kept_with_winners_and_exports_as_csv(desk):
    desk.games.start("purse", [{"name": "Ann"}, {"name": "=Bob"}])
    desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 400}, 1, key="pay-1")
    desk.games.act({"type": "call_it"}, 2)
    desk.messages()
    with pytest.raises(StaleVersion):
        desk.games.finish(2)
    out = desk.games.finish(3, key="done")
    assert (out["status"], out["winners"]) == ("finished", ["=Bob"])
    assert out["standings"] == [{"name": "Ann", "score": 600, "winner": False},
                                {"name": "=Bob", "score": 1400, "winner": True}]
    [message] = desk.messages()
    assert message["type"] == "game.finished" and message["data"]["final"]["winners"] == ["=Bob"]
    assert desk.games.finish(3, key="done")["repeat"]
    with pytest.raises(GameNotActive):
        desk.games.act({"type": "call_it"}, 3)
    late = desk.games.act({"type": "pay", "player": 0, "to": 1, "amount": 400}, 1, key="pay-1")
    assert late["repeat"] and late["game"] == 1 and late["entry"] == 2      # a retry that arrives late
    [kept] = desk.kept.history()
    assert kept["winners"] == ["=Bob"] and kept["title"] == "Purse" and kept["players"] == ["Ann", "=Bob"]
    record = desk.kept.record(1)
    assert [line["said"] for line in record["log"]][-1] == "call it"
    rows = list(csv.reader(io.StringIO(desk.kept.export_csv(1)[1])))
    assert rows[0] == ["game", "title", "date", "status", "player", "score", "winner"]
    assert [r[4:] for r in rows[1:]] == [["Ann", "600", "no"], ["'=Bob", "1400", "yes"]]
    assert rows[1][:2] == ["1", "Purse"] and rows[1][3] == "finished" and len(rows[1][2]) == 10


def test_the_kept_title_is_the_declarations_not_the_views(tmp_path, monkeypatch):
    """A game's view is its screen's to draw: the history, the CSV and BG Stats take the title
    from the game's declaration, so a view without one (or with other words) changes nothing."""
    bare = dataclasses.replace(PURSE, view=lambda state: {"title": "Not the title", "players": []})
    monkeypatch.setitem(FAKES, "purse", bare)
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", [{"name": "Ann"}, {"name": "Bob"}])
        d.games.act({"type": "call_it"}, 1)
        assert d.games.finish(2)["title"] == "Purse"
        assert [g["title"] for g in d.kept.history()] == ["Purse"]
        assert list(csv.reader(io.StringIO(d.kept.export_csv(1)[1])))[1][1] == "Purse"
        assert d.kept.bgstats(1)["game"]["name"] == "Purse"
    finally:
        d.close()


def test_a_finished_game_of_scan_names_the_winning_side_and_its_score(desk):
    desk.games.start("scan", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")], {"variant": "team"})
    sides = [c["side"] for c in desk.games.current()["view"]["columns"]]
    full = {"spades": 13, "hearts": 13, "diamonds": 2, "clubs": 0}          # 7 tricks of four
    rest = {"spades": 0, "hearts": 0, "diamonds": 11, "clubs": 13}
    desk.games.act({"type": "hand", "taken": {sides[0]: full, sides[1]: rest}}, 1)
    out = desk.games.finish(2)
    assert out["winners"] == ["Ann", "Cy"]
    rows = list(csv.reader(io.StringIO(desk.kept.export_csv(out["id"])[1])))
    assert [r[4:] for r in rows[1:]] == [["Ann", "185", "yes"], ["Cy", "185", "yes"],
                                         ["Bob", "0", "no"], ["Dee", "0", "no"]]


def test_a_finished_game_of_get_the_scoop_names_its_winner(desk):
    desk.games.start("get_the_scoop", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")], {"board": "table"})
    desk.games.act({"type": "reveal", "plays": []}, 1)
    desk.games.act({"type": "check", "winners": [2]}, 2)
    out = desk.games.finish(3)
    assert out["winners"] == ["Cy"] and out["title"] == "Get the Scoop! (Cardboard Jam, 2011)"


# ---------------------------------------------------------------- engines that aren't there

RACE = None     # a plug-in's game (SCAN's rules, named "race"), set by the test below


class _Dist:
    def __init__(self, name):
        self.name = name


def test_a_game_whose_name_two_plug_ins_now_declare_says_to_uninstall_the_duplicate(desk, monkeypatch):
    """A stored game whose name a second distribution came to declare was told to "install its game
    again": the advice follows the cause, uninstalling the duplicate."""
    import sys
    from importlib.metadata import EntryPoint, entry_points
    monkeypatch.setattr(sys.modules[__name__], "RACE", dataclasses.replace(registry.load("scan"), name="race"))
    ours = list(entry_points(group=registry.GROUP))

    def installed(*dists):
        points = [EntryPoint(name="race", value="test_game_session:RACE", group=registry.GROUP)._for(_Dist(d))
                  for d in dists]
        monkeypatch.setattr(registry, "entry_points", lambda group: ours + points)
        registry.forget()
    installed("one-race")
    try:
        desk.games.start("race", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")])
        installed("one-race", "other-race")
        again = restart(desk)
        try:
            problem = again.games.current()["problem"]
            assert "can't be resumed" in problem and "install its game again" not in problem, \
                "a duplicated name is told to install its game again: %s" % problem
            assert problem.endswith("Abandon it to start another, or uninstall all but one of the distributions "
                                    "declaring 'race' and restart newsdesk to go on with it"), problem
            assert again.games.abandon(1)["status"] == "abandoned"
        finally:
            again.close()
    finally:
        monkeypatch.undo()
        registry.forget()


def test_a_game_whose_plug_in_was_uninstalled_says_to_install_it_again(desk, monkeypatch):
    """A stored game whose plug-in was uninstalled (no distribution declares its name now) was told
    only "there is no game called 'race' ... Abandon it to start another": the table was not
    told the game goes on once its plug-in is installed again, as it is for one failing to import."""
    import sys
    from importlib.metadata import EntryPoint, entry_points
    monkeypatch.setattr(sys.modules[__name__], "RACE", dataclasses.replace(registry.load("scan"), name="race"))
    ours = list(entry_points(group=registry.GROUP))
    race = EntryPoint(name="race", value="test_game_session:RACE", group=registry.GROUP)._for(_Dist("one-race"))
    monkeypatch.setattr(registry, "entry_points", lambda group: ours + [race])
    registry.forget()
    try:
        desk.games.start("race", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")])
        monkeypatch.setattr(registry, "entry_points", lambda group: ours)      # uninstalled
        registry.forget()
        again = restart(desk)
        try:
            problem = again.games.current()["problem"]
            assert problem.endswith("Abandon it to start another, or install its game again and restart newsdesk "
                                    "to go on with it"), problem
            assert again.games.abandon(1)["status"] == "abandoned"
        finally:
            again.close()
    finally:
        monkeypatch.undo()
        registry.forget()


def test_a_game_whose_engine_went_missing_can_still_be_abandoned(desk, monkeypatch):
    """And it says how to go on with it (its plug-in installed again), and its moves in force stay
    counted ("no move yet" was shown for a game of many)."""
    desk.games.start("scan", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")])
    desk.games.act({"type": "hand", "taken": {"Ann & Cy": {"spades": 10, "hearts": 5, "diamonds": 3, "clubs": 6},
                                              "Bob & Dee": {"spades": 3, "hearts": 8, "diamonds": 10, "clubs": 7}}}, 1)
    install_game(monkeypatch, "scan", "no_such_engine_module:GAME")
    again = restart(desk)
    try:
        current = again.games.current()
        assert current["id"] == 1 and "can't be resumed" in current["problem"]
        assert "install its game again and restart newsdesk to go on with it" in current["problem"]
        assert current["moves"] == 1
        with pytest.raises(registry.EngineUnavailable, match="game #1 \\(scan\\) can't be resumed.*Abandon it"):
            again.games.act({"type": "time_up"}, 2)
        assert again.games.abandon(2)["status"] == "abandoned"
    finally:
        again.close()


def test_a_game_whose_stored_moves_cant_be_taken_back_is_said_and_the_box_starts(desk):
    """A store from elsewhere (a restored stranger's backup) whose game being played holds an undo
    of a move not in force: the box died at every start (ValueError from the undo stacks) and its
    panel was gone for good. It starts, says so, and the game can be abandoned."""
    import sqlite3

    desk.games.start("scan", [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")])
    path = desk.store.path
    db = sqlite3.connect(path)
    try:
        db.execute("UPDATE game_entries SET entry = ? WHERE game = 1 AND version = 1",
                   ('{"type": "undo", "target": 99, "said": "x"}',))
        db.commit()
    finally:
        db.close()
    again = restart(desk)
    try:
        current = again.games.current()
        assert current["id"] == 1 and current["problem"].startswith("game #1 (scan) can't be resumed: ValueError")
        assert again.games.abandon(1)["status"] == "abandoned"
    finally:
        again.close()


def test_an_exports_file_name_takes_only_the_letters_of_the_games_name(desk):
    """The engine's name, read from the store, went into the CSV's Content-Disposition: a store
    from elsewhere with 'a"; filename=evil.exe' put a second file name into the header."""
    import sqlite3

    desk.games.start("purse", [{"name": "Ann"}, {"name": "Bob"}])
    desk.games.act({"type": "call_it"}, 1)
    out = desk.games.finish(2)
    db = sqlite3.connect(desk.store.path)
    try:
        db.execute("UPDATE games SET engine = ? WHERE id = ?", ('a"; filename=evil.exe\r\nX: 1', out["id"]))
        db.commit()
    finally:
        db.close()
    name, _ = desk.kept.export_csv(out["id"])
    assert name == "newsdesk-game-%d-afilenameevilexeX1.csv" % out["id"]


# ---------------------------------------------------------------- the phone's bell

def test_a_star_reporter_disaster_rings_the_phone_and_an_ordinary_throw_does_not(tmp_path):
    """Star Reporter: "double sixes ... a Disaster" - the box rings the phone so the table picks up
    (newsdesk's touch); the bell is only asked, a failing bell never stops the move."""
    import random as _random

    from controller.bus import Bus
    from controller.oracles.editor import Editor
    from controller.store import Store
    from controller.table import Table

    store = Store(tmp_path / "s.sqlite3")
    try:
        table = Table(store, Bus(), Editor(), _random.Random(1), hardware={"simulated": True, "pins": "mock"})
        rings = []
        table.games.on_ring = lambda: rings.append("ring")
        players = [{"name": n, "colour": None, "team": None} for n in ("Ann", "Bob")]
        out = table.games.start("star_reporter", players, {"first": 0})
        out = table.games.act({"type": "throw", "player": 0, "method": "automobile", "dice": [3, 4]},
                              out["version"])
        assert rings == []
        table.games.on_ring = lambda: (_ for _ in ()).throw(RuntimeError("no bell"))
        out = table.games.act({"type": "throw", "player": 1, "method": "automobile", "dice": [6, 6]},
                              out["version"])
        assert "disaster" in out["said"].lower() or "Disaster" in out["said"]
        table.games.on_ring = lambda: rings.append("ring")
        out = table.games.undo(out["version"])
        out = table.games.act({"type": "throw", "player": 1, "method": "automobile", "dice": [6, 6]},
                              out["version"])
        assert rings == ["ring"]
    finally:
        store.close()


# ---------------------------------------------------------------- a game whose own rules fail

def _breaks_on(kind, where):
    """PURSE, but ``where`` ("apply" or "setup's apply") raises on an event of ``kind``, as a
    stranger's plug-in with a bug does: the move must be refused, and the game kept as it was."""
    def apply(state, event):
        if event["type"] == kind:
            state["money"].clear()          # a broken apply may also have changed what it was given
            raise ValueError("no %s here" % kind)
        return PURSE.apply(state, event)
    return dataclasses.replace(PURSE, apply=apply)


def test_a_move_the_games_own_rules_fail_on_is_not_kept_and_the_game_goes_on(tmp_path, monkeypatch):
    monkeypatch.setitem(FAKES, "purse", _breaks_on("won", "apply"))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 50}, 1)
        before = d.games.current()
        d.messages()
        with pytest.raises(GameFault) as failed:
            d.games.act({"type": "call_it"}, 2)
        assert failed.value.status == 500
        assert str(failed.value) == ("the Purse game's rules failed on this move (ValueError: no won here); "
                                     "the move was not made and the game is as it was")
        assert d.games.current() == before and d.messages() == []          # nothing stored, nothing shown
        assert [e.version for e in d.store.entries(1)] == [1, 2]
        d.games.act({"type": "pay", "player": 1, "to": 2, "amount": 20}, 2)    # the game goes on
        assert money(d.games)["Cy"] == START + 20
        d = restart(d)
        assert d.games.current()["version"] == 3 and d.games.current()["problem"] is None
        assert money(d.games) == {"Ann": START - 50, "Bob": START + 30, "Cy": START + 20}
    finally:
        d.close()


def test_a_game_whose_set_up_its_rules_fail_on_is_not_started(tmp_path, monkeypatch):
    monkeypatch.setitem(FAKES, "purse", _breaks_on("seated", "setup's apply"))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        with pytest.raises(GameFault, match="the Purse game's rules failed on setting it up"):
            d.games.start("purse", PLAYERS)
        assert d.games.current() is None and d.store.active_game() is None
        assert d.messages() == []
    finally:
        d.close()


# ---------------------------------------------------------------- a game its own code can't show

def _shows_badly(part, how="raises"):
    """PURSE whose ``part`` ("view", "offers" or "result") fails once Cy has been paid, as a
    plug-in's bug (or its update) does: ``how`` "raises", or "set" (a view JSON can't carry)."""
    good = getattr(PURSE, part)

    def shown(state):
        if state["money"].get("Cy", START) == START:
            return good(state)
        if how == "set":
            return dict(good(state), seen={1, 2})
        if how == "junk":           # what the pages can't use: a result or offers of other things
            return [1, 2] if part == "offers" else {"over": "no"}
        if how == "exit":           # a plug-in's sys.exit(): it stopped the panel
            raise SystemExit(3)
        raise KeyError("cy")
    return dataclasses.replace(PURSE, **{part: shown})


@pytest.mark.parametrize("part, how, cause", [("view", "raises", "KeyError: 'cy'"),
                                              ("offers", "raises", "KeyError: 'cy'"),
                                              ("result", "raises", "KeyError: 'cy'"),
                                              ("view", "set", "TypeError"),
                                              ("result", "junk", "TypeError: result() gave dict, not a result"),
                                              ("offers", "junk", "TypeError: offers() gave a list of other things"),
                                              ("view", "exit", "SystemExit: 3")])
def test_a_move_whose_game_can_then_not_be_shown_is_not_made(tmp_path, monkeypatch, part, how, cause):
    monkeypatch.setitem(FAKES, "purse", _shows_badly(part, how))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        before = d.games.current()
        d.messages()
        with pytest.raises(GameFault) as failed:
            d.games.act({"type": "pay", "player": 0, "to": 2, "amount": 50}, 1)
        said = str(failed.value)
        assert said.startswith("the Purse game's rules failed on showing the game after this move (%s" % cause)
        assert said.endswith("; the move was not made and the game is as it was")
        assert d.games.current() == before and d.messages() == []
        assert [e.version for e in d.store.entries(1)] == [1]
        d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 50}, 1)     # the game goes on
        assert money(d.games)["Bob"] == START + 50
    finally:
        d.close()


def test_a_kept_games_chart_whose_game_can_no_longer_replay_it_is_said(tmp_path, monkeypatch):
    """An upgraded plug-in whose result() fails on an old game: its chart answered 500."""
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        d.games.act({"type": "call_it"}, 1)
        game_id = d.games.finish(2)["id"]

        def broken(state):
            raise KeyError("chaos")
        from controller.history import KeptGames
        chart = KeptGames(d.store, {"purse": dataclasses.replace(PURSE, result=broken)}).chart(game_id)
        assert chart["points"] == [] and chart["problem"] == ("No chart: the Purse game's rules failed on replaying "
                                                              "it (KeyError: 'chaos').")
    finally:
        d.close()


@pytest.mark.parametrize("part, how", [("view", "raises"), ("offers", "raises"), ("result", "raises"),
                                       ("view", "set")])
def test_a_stored_game_its_code_can_no_longer_show_is_said_and_can_be_undone_or_abandoned(
        tmp_path, monkeypatch, part, how):
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 10}, 1)
        d.games.act({"type": "pay", "player": 0, "to": 2, "amount": 50}, 2)
        monkeypatch.setitem(FAKES, "purse", _shows_badly(part, how))        # the plug-in, updated
        d = restart(d)
        shown = d.games.current()
        assert shown["problem"].startswith("the Purse game's rules failed on showing the game (")
        assert shown["problem"].endswith("); undo the last move, or abandon the game")
        assert shown["view"] is None and shown["offers"] == [] and shown["undo"].startswith("Ann's pay")
        assert d.table.state()["game"]["problem"] == shown["problem"]
        out = d.games.undo(3)                       # back to a game it can show
        assert out["view"]["players"][2]["money"] == START and d.games.current()["problem"] is None
        out = d.games.redo(out["version"])
        assert out["view"] is None
        d = restart(d)
        ended = d.games.abandon(5)
        assert ended["status"] == "abandoned" and d.store.active_game() is None
        final = d.kept.record(1)["final"]
        if part == "offers":                # its final table needs no offers: kept as ever
            assert "problem" not in final and final["standings"][2]["score"] == START + 50
        elif part == "view":                # its result kept, without the view it can't make
            assert final["problem"].startswith("the Purse game's rules failed on its final table (")
            assert final["problem"].endswith("; it was kept without its final view")
            assert final["view"] is None and final["standings"][2]["score"] == START + 50
        else:                               # kept without scores, saying why
            assert final["problem"].startswith("the Purse game's rules failed on its final table (")
            assert final["problem"].endswith("; it was kept without scores or winners")
            assert all(r["score"] is None for r in final["standings"])
        assert [r["name"] for r in final["standings"]] == ["Ann", "Bob", "Cy"]
        assert not any(r["winner"] for r in final["standings"])
        assert d.kept.history()
    finally:
        d.close()


def test_a_game_whose_own_code_is_slow_is_said_in_the_log_once(caplog):
    """Nothing can cut a plug-in's call short, and every tablet's writes wait for it: a call past
    SLOW_S is logged, naming the game and what it was doing, once for each (not every move)."""
    from controller import game_session
    from controller.games.game import SLOW_S
    engine = dataclasses.replace(registry.load("scoop1956"), title="Slowpoke")
    now = [0.0]

    def clock():
        return now[0]

    caplog.set_level("WARNING", logger="controller.game_session")
    for took in (SLOW_S / 2, SLOW_S + 1.2, SLOW_S + 3, SLOW_S + 1):
        with game_session.games_own_code(engine, "this move" if took < SLOW_S + 2 else "showing it", "kept",
                                         clock=clock):
            now[0] += took
    said = [r.getMessage() for r in caplog.records if "Slowpoke" in r.getMessage()]
    assert said == ["the Slowpoke game's rules took 2.2 s on this move, and every tablet waited for them: a game's "
                    "call should take milliseconds (its plug-in's own tests time each call: pytest --newsdesk-game)",
                    "the Slowpoke game's rules took 4.0 s on showing it, and every tablet waited for them: a game's "
                    "call should take milliseconds (its plug-in's own tests time each call: pytest --newsdesk-game)"]


def _in_place(game):
    """``game`` with an apply that changes the state it was given and gives that back, as a
    stranger's plug-in may (the kit's "pure" rule refuses it, but a plug-in need not have run it)."""
    def apply(state, event):
        new = PURSE.apply(state, event)
        state.clear()
        state.update(new)
        return state
    return dataclasses.replace(game, apply=apply)


def test_a_game_whose_apply_changes_the_state_it_was_given_shows_each_move(tmp_path, monkeypatch):
    """Every move of such a game was stored and said, and the table went on seeing the game as
    it was before the first one, until an undo or a restart."""
    monkeypatch.setitem(FAKES, "purse", _in_place(PURSE))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        answer = d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 50}, 1)
        assert money(d.games) == {"Ann": START - 50, "Bob": START + 50, "Cy": START}
        assert {p["name"]: p["money"] for p in answer["view"]["players"]}["Bob"] == START + 50
        d.games.act({"type": "pay", "player": 1, "to": 2, "amount": 20}, 2)
        assert money(d.games) == {"Ann": START - 50, "Bob": START + 30, "Cy": START + 20}
        d = restart(d)
        assert money(d.games) == {"Ann": START - 50, "Bob": START + 30, "Cy": START + 20}
    finally:
        d.close()


def test_a_move_that_cant_be_shown_leaves_the_game_as_it_was_though_its_apply_changed_it(tmp_path, monkeypatch):
    """The refused move's sentence says the game is as it was: so it is, even where the game's
    apply changed the state it was given before its view failed on it."""
    monkeypatch.setitem(FAKES, "purse", _in_place(_shows_badly("view")))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        before = d.games.current()
        with pytest.raises(GameFault, match="the game is as it was"):
            d.games.act({"type": "pay", "player": 0, "to": 2, "amount": 50}, 1)
        assert d.games.current() == before
        d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 50}, 1)     # the game goes on
        assert money(d.games) == {"Ann": START - 50, "Bob": START + 50, "Cy": START}
    finally:
        d.close()


def _ghost_wins(game):
    """``game`` whose result, once it is called, adds a winning row for "Ghost", who is not at the table."""
    def result(state):
        res = game.result(state)
        if not state["winners"]:
            return res
        rows = [(r["name"], r["score"], r["winner"]) for r in res["standings"]] + [("Ghost", 99, True)]
        return base.result_of(True, rows, {"score": "money"})
    return dataclasses.replace(game, result=result)


def test_a_result_naming_someone_not_at_the_table_is_refused_not_kept(tmp_path, monkeypatch):
    """A plug-in's result() with a row for "Ghost": the game was finished with Ghost among its
    winners for good, and the history counted him as the box's automated opponent."""
    monkeypatch.setitem(FAKES, "purse", _ghost_wins(PURSE))
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        with pytest.raises(GameFault, match=r"result\(\) names 'Ghost', who is not at the table \(Ann, Bob, Cy\), in "
                                            r"its standings: a seat the box plays is marked automated .*the move "
                                            r"was not made and the game is as it was"):
            d.games.act({"type": "call_it"}, 1)
        assert d.games.current()["version"] == 1 and d.store.game(1).status == "active"
    finally:
        d.close()


def test_a_view_past_its_size_is_refused_not_sent_after_every_move(tmp_path, monkeypatch):
    """A view carrying 30 MB took a second a move and went into every finished game's record."""
    from controller import game_session
    monkeypatch.setattr(game_session, "VIEW_MOST", 20_000)
    big = dataclasses.replace(PURSE, view=lambda state: dict(PURSE.view(state), pad="x" * 30_000 * (
        state["money"].get("Ann") not in (None, START))))
    monkeypatch.setitem(FAKES, "purse", big)
    d = Desk(tmp_path / "table.sqlite3")
    try:
        d.games.start("purse", PLAYERS)
        with pytest.raises(GameFault, match=r"view\(\) gave 30 KB of JSON: a game's view goes to every page after "
                                            r"every move and is kept with a finished game; keep it under 20 KB"):
            d.games.act({"type": "pay", "player": 0, "to": 1, "amount": 50}, 1)
        assert money(d.games) == {"Ann": START, "Bob": START, "Cy": START}
    finally:
        d.close()
