"""Who won, as the table keeps it: the game session, the history, its chart and record, and Home
Assistant's leader all take the engine's own result (games/base.py's Result), never a reading of
its view; and a game that leaves out an optional part gets Game's default for it."""

import contextlib
import random
import re
from dataclasses import MISSING, fields, replace

import pytest
from test_browser import WAIT, browser, server  # noqa: F401  (fixtures)
from test_game_session import PLAYERS, PURSE, START

from controller.bus import Bus
from controller.errors import BadRequest
from controller.game_session import GameSession
from controller.games import base, registry, scan, scoop1956, scoop2002
from controller.games.game import Game
from controller.history import KeptGames
from controller.journal import Journal
from controller.mqtt import topics
from controller.store import Store

FOUR = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]
# Team SCAN hands in whole tricks of four: WIN (7 tricks, 185 points) ends a race to 155
WIN = {"type": "hand", "taken": {"Ann & Cy": {"spades": 13, "hearts": 13, "diamonds": 2, "clubs": 0},
                                 "Bob & Dee": {"spades": 0, "hearts": 0, "diamonds": 11, "clubs": 13}}}
SMALL = {"type": "hand", "taken": {"Ann & Cy": {"spades": 4, "hearts": 0, "diamonds": 0, "clubs": 0},
                                   "Bob & Dee": {"spades": 9, "hearts": 13, "diamonds": 13, "clubs": 13}}}


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "games.sqlite3")

    def open_session(engines=None):
        return GameSession(Journal(store, Bus()), random.Random(0), engines=engines), KeptGames(store)

    yield open_session
    store.close()


def test_the_view_carries_the_games_result_and_finishing_keeps_it(table):
    games, kept = table()
    games.start("scan", FOUR, {"variant": "team"})
    games.act(SMALL, 1)
    playing = games.current()["view"]["result"]
    assert (playing["over"], playing["winners"]) == (False, [])
    assert [(r["name"], r["score"]) for r in playing["standings"]] == [("Ann", 40), ("Cy", 40), ("Bob", 0), ("Dee", 0)]
    games.act(WIN, 2)
    result = games.current()["view"]["result"]
    assert result == scan.GAME.result(games.state)
    assert (result["over"], result["winners"], result["score_kind"]) == (True, ["Ann", "Cy"], "points")
    assert [t["side"] for t in result["teams"]] == ["Ann & Cy", "Bob & Dee"]
    out = games.finish(3)
    assert out["winners"] == ["Ann", "Cy"]
    assert out["standings"] == [{"name": "Ann", "score": 225, "winner": True}, {"name": "Cy", "score": 225, "winner": True},
                                {"name": "Bob", "score": 0, "winner": False}, {"name": "Dee", "score": 0, "winner": False}]
    assert "result" not in kept.record(out["id"])["final"]["view"], "the kept final view is the engine's, as before"


def test_the_record_says_what_the_scores_count_from_the_engines_panel_facts(table):
    games, kept = table()
    games.start("scan", FOUR, {"variant": "team"})
    games.act(WIN, 1)
    finished = games.finish(2)["id"]
    games.start("scoop1956", FOUR[:2])
    abandoned = games.abandon(1)["id"]
    games.start("get_the_scoop", FOUR, {"board": "table"})
    kept_no_score = games.abandon(1)["id"]
    assert [kept.record(g)["score_kind"] for g in (finished, abandoned, kept_no_score)] == ["points", "money", None]
    assert kept.record(abandoned)["standings"] == [{"name": "Ann", "score": 3000, "winner": False},
                                                  {"name": "Bob", "score": 3000, "winner": False}]


def test_the_chart_plots_each_players_result_after_every_move(table):
    games, kept = table()
    games.start("scan", FOUR, {"variant": "team"})
    games.act(SMALL, 1)
    games.act(WIN, 2)
    chart = kept.chart(games.finish(3)["id"])
    assert chart["players"] == ["Ann", "Cy", "Bob", "Dee"]
    assert [p["values"] for p in chart["points"]] == [[0, 0, 0, 0], [40, 40, 0, 0], [225, 225, 0, 0]]


def test_home_assistants_leader_and_unit_come_from_the_result_not_the_views_keys(table):
    games, _ = table()
    games.start("scoop1956", FOUR[:2])
    current = games.current()
    state = topics.game_state("t1", current)["game"]
    assert state["unit"] == "$" and state["leaders"] == ["Ann", "Bob"]
    assert state["standings"] == [{"name": "Ann", "score": 3000, "winner": False},
                                  {"name": "Bob", "score": 3000, "winner": False}]
    # a view whose keys once read as a score (worth, cash) and a winner no longer decide anything
    decoy = dict(current, view=dict(current["view"], winner_names=["Bob"],
                                    players=[{"name": "Ann", "worth": 1}, {"name": "Bob", "worth": 99}]))
    assert topics.game_state("t1", decoy)["game"]["standings"] == state["standings"]
    scan_game = dict(current, view={"result": base.result_of(False, [("Ann", 7, False)], scan.GAME.panel)})
    assert topics.unit(scan_game) == "points"


def test_finishing_takes_the_winners_from_the_result_even_when_the_view_names_someone(table):
    """An engine whose view says "winner" while its result says the game goes on can't be finished."""
    chatty = replace(scan.GAME, view=lambda state: dict(scan.GAME.view(state), winner="Ann", winners=["Ann & Cy"]))
    games, _ = table({"scan": chatty})
    games.start("scan", FOUR, {"variant": "team"})
    with pytest.raises(BadRequest, match="has no winner yet"):
        games.finish(1)


# ---------------------------------------------------------------- Game's defaults

def bare(game):
    """``game`` declared with only the parts every game must have."""
    required = [f.name for f in fields(Game) if f.default is MISSING and f.default_factory is MISSING]
    assert required == ["name", "title", "setup", "initial", "decide", "apply", "offers", "view", "result"]
    return Game(**{k: getattr(game, k) for k in required})


def test_the_registry_hands_out_each_games_own_declaration():
    assert registry.load("scoop1956") is scoop1956.GAME
    assert registry.load("scan").headline([]) is None and registry.load("scan").rings([]) is False
    assert registry.load("star_reporter").rings([]) is False
    assert registry.load("scoop1956").headline is not registry.load("scan").headline


def test_a_bare_engine_plays_through_the_session_on_the_defaults(table):
    rang = []
    games, _ = table({"scan": bare(scan.GAME)})
    games.on_ring = lambda: rang.append(1)
    games.start("scan", FOUR, {"variant": "team"})
    out = games.act(WIN, 1)
    assert out["said"] == "hand" and games.headline() is None and rang == []
    assert games.finish(2)["winners"] == ["Ann", "Cy"]


# ---------------------------------------------------------------- the opponent the box plays

LONELY = {"variants": ["lonely_city"], "ickel_rolls": "table"}        # solitaire; the table rolls for N. Ickel
ICKEL_SELLS = [{"type": "move", "player": 0}, {"type": "roll", "player": 0, "value": 1},
               {"type": "arrive", "player": 0, "place": "street"}, {"type": "roll", "player": 0, "value": 2},
               {"type": "roll", "player": 1, "value": 1}, {"type": "roll", "player": 1, "value": 3}]


def ickel_wins(games):
    """A game of The Lonely City through the table: Ann sells nothing, N. Ickel sells a story a
    turn (a 1 from Downtown, #1) and wins with his fifth. The game as kept."""
    games.start("scoop2002", [{"name": "Ann"}], LONELY)
    version = games.current()["version"]
    for _ in range(scoop2002.rules.ICKEL_SALES_TO_WIN):
        for action in ICKEL_SELLS:
            version = games.act(action, version)["version"]
    return games.finish(version)


def ann_won_before_the_mark(store):
    """A Lonely City game Ann won, kept as a table kept it before the result marked the seat the
    box plays: its final table names N. Ickel as it names Ann."""
    setup = scoop2002.GAME.setup([{"name": "Ann"}], LONELY)
    game, _, _ = store.start_game("scoop2002", [{"name": "Ann"}], LONELY, {"type": "setup", "events": setup})
    rows = [{"name": "Ann", "score": 3, "winner": True}, {"name": "N. Ickel", "score": 1, "winner": False}]
    store.end_game(game.id, 1, "finished", ["Ann"], {"winners": ["Ann"], "standings": rows, "teams": {}, "view": None})


def test_the_statistics_count_people_and_say_apart_how_each_fares_against_the_box(tmp_path):
    """N. Ickel, the reporter the box plays in Scoop!'s The Lonely City, was listed among the
    players with a win rate, as if a person. The engine's result marks his seat "automated"; the
    statistics leave him out of the players and say, per person, how often they beat him. A game
    kept before the mark is read alike: his is the row for a seat the table did not name."""
    store = Store(tmp_path / "games.sqlite3")
    try:
        games, kept = GameSession(Journal(store, Bus()), random.Random(0)), KeptGames(store)
        out = ickel_wins(games)
        assert out["standings"] == [{"name": "Ann", "score": 0, "winner": False, "needed": 3},
                                    {"name": "N. Ickel", "score": 5, "winner": True, "automated": True, "needed": 5}]
        ann_won_before_the_mark(store)
        assert [[r.get("automated", False) for r in g["standings"]] for g in kept.history()] == [[False, True]] * 2
        stats = kept.stats()
        assert [(p["name"], p["played"], p["won"], p["win_rate"]) for p in stats["players"]] == [("Ann", 2, 1, 0.5)]
        assert stats["against_the_box"] == [{"player": "Ann", "opponent": "N. Ickel", "engine": "scoop2002",
                                             "title": scoop2002.GAME.title, "played": 2, "won": 1, "lost": 1}]
        assert stats["games_counted"] == 2
    finally:
        store.close()


def test_a_game_without_the_box_is_counted_as_before(table):
    """A game whose every seat is a person's: no row marked, nothing against the box, each player
    counted as before."""
    games, kept = table()
    games.start("scan", FOUR, {"variant": "team"})
    games.act(WIN, 1)
    games.finish(2)
    stats = kept.stats()
    assert sorted(p["name"] for p in stats["players"]) == ["Ann", "Bob", "Cy", "Dee"]
    assert stats["against_the_box"] == [] and all("automated" not in r for r in kept.history()[0]["standings"])


def test_the_history_page_shows_the_box_apart_from_the_players(desk, client):
    """The players' table has no row for N. Ickel (nor a win rate); a table of its own, named for
    the box, says how Ann fared against him."""
    ickel_wins(desk.table.games)
    html = client.get("/history").get_data(as_text=True)
    players = html.split('id="stats"', 1)[1].split("</table>", 1)[0]
    assert '<th scope="row">Ann</th><td>1</td><td>0</td><td>0%</td>' in players and "N. Ickel" not in players
    box = html.split('id="against-the-box"', 1)[1].split("</table>", 1)[0]
    assert re.search(r'<th scope="row">Ann</th>\s*<td>N\. Ickel</td>\s*<td>Scoop!</td>\s*<td>1</td>\s*<td>0</td>'
                     r'\s*<td>1</td>', box), box
    assert "played by the box" in html


# ---------------------------------------------------------------- the page

@pytest.mark.browser
@pytest.mark.slow
def test_the_page_asks_the_result_if_the_game_is_over_and_the_end_table_its_score_kind(
        browser, desk, server, monkeypatch):  # noqa: F811
    """The game's screen shows Finish only when view.result says the game is over, whatever else
    the view holds; the final table counts money when the engine's panel facts say so."""
    shown = scan.GAME.view
    chatty = replace(scan.GAME, view=lambda state: dict(shown(state), over=True, winners=["Ann & Cy"],
                                                        winner_name="Ann", phase="over", step="over"),
                     panel=dict(scan.GAME.panel, score="money"))
    found = registry.load
    monkeypatch.setattr(registry, "load", lambda name, points=None: chatty if name == "scan" else found(name, points))
    games = desk.table.games
    games.start("scan", FOUR, {"variant": "team"})
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    base_url = "http://127.0.0.1:%d" % server
    try:
        page.goto(base_url + "/")
        page.wait_for_selector("#game-title", timeout=WAIT)
        assert page.locator("#finish").count() == 0
        assert "won" not in page.inner_text("#waiting")
        games.act(WIN, 1)
        page.wait_for_selector("#finish", timeout=WAIT)
        game_id = games.finish(2)["id"]
        page.goto(base_url + "/games/%d" % game_id)
        page.wait_for_selector(".final-table tbody tr", timeout=WAIT)
        assert "Worth" in page.inner_text(".final-table thead")
        assert "$185" in page.inner_text(".final-table tbody")
    finally:
        context.close()
    assert not errors, errors


def test_the_final_table_is_the_engines_result_not_a_reading_of_its_view():
    """A view whose keys a reader of views would take for a score and a winner (worth, winner)
    changes nothing: the final table is what the engine's result says."""
    from controller.standings import final_table
    engine = replace(PURSE, view=lambda state: {"players": [{"name": "Ann", "worth": 1}, {"name": "Bob", "worth": 9}],
                                                    "winner": "Bob", "winners": [1]})
    state = base.fold(engine, [(1, {"type": "setup", "events": engine.setup(PLAYERS[:2], {})})])
    assert final_table(engine, state)["standings"] == [{"name": "Ann", "score": START, "winner": False},
                                                       {"name": "Bob", "score": START, "winner": False}]
    state = engine.apply(state, {"type": "won", "players": ["Ann", "Bob"]})      # a tie lists both
    table = final_table(engine, state)
    assert table["winners"] == ["Ann", "Bob"] and [r["winner"] for r in table["standings"]] == [True, True]


# ---------------------------------------------------------------- places: tied players share one

def _scan_tie_on_time(games):
    """SCAN without partners against the clock: A and B tie on 60 and share the win when time is
    up, C ends on 0 (its cards are worth less than nothing). Returns the kept game's number."""
    def cards(spades, hearts, diamonds, clubs):
        return {"spades": spades, "hearts": hearts, "diamonds": diamonds, "clubs": clubs}
    games.start("scan", [{"name": n} for n in "ABC"], {"variant": "individual", "time_limit": 20})
    games.act({"type": "hand", "taken": {"A": cards(6, 0, 0, 0), "B": cards(6, 0, 0, 0),
                                         "C": cards(1, 13, 13, 12)}}, 1)
    games.act({"type": "time_up"}, 2)
    return games.finish(3)["id"]


def test_tied_rows_share_a_place_and_the_next_place_is_skipped():
    from controller.standings import places
    rows = [{"name": "Ann", "score": 50, "winner": False}, {"name": "Bob", "score": 90, "winner": True},
            {"name": "Cy", "score": 50, "winner": False}, {"name": "Dee", "score": 10, "winner": False},
            {"name": "Eve", "score": None, "winner": False}]
    assert [(r["name"], r["place"], r["tied"]) for r in places(rows)] == [
        ("Bob", 1, False), ("Ann", 2, True), ("Cy", 2, True), ("Dee", 4, False), ("Eve", 5, False)]
    # a winner comes first whatever its score (the game's rules named it)
    assert [r["name"] for r in places([dict(rows[1], winner=False), dict(rows[0], winner=True)])] == ["Ann", "Bob"]
    # partners share their side's place without being tied with each other
    sides = {"Ann": "N", "Cy": "N", "Bob": "E", "Dee": "E"}
    team = [{"name": "Ann", "score": 80, "winner": True}, {"name": "Bob", "score": 20, "winner": False},
            {"name": "Cy", "score": 80, "winner": True}, {"name": "Dee", "score": 20, "winner": False}]
    assert [(r["name"], r["place"], r["tied"]) for r in places(team, sides)] == [
        ("Ann", 1, False), ("Cy", 1, False), ("Bob", 2, False), ("Dee", 2, False)]
    assert places([]) == []


def test_a_game_whose_lowest_score_is_best_places_and_counts_it_so(tmp_path):
    """A plug-in game scored downwards (golf, a countdown: its panel facts' lower_wins) had its
    final table's places after the winners, the history's best score and Home Assistant's leader
    all taken from the highest score: the player furthest from winning came second."""
    from controller.mqtt.publisher import _lower_wins
    from controller.standings import places

    rows = [{"name": "Ann", "score": 0, "winner": True}, {"name": "Bob", "score": 90, "winner": False},
            {"name": "Cy", "score": 12, "winner": False}, {"name": "Dee", "score": 12, "winner": False}]
    assert [(r["name"], r["place"], r["tied"]) for r in places(rows, lower=True)] == [
        ("Ann", 1, False), ("Cy", 2, True), ("Dee", 2, True), ("Bob", 4, False)]
    assert [r["name"] for r in places(rows)][:2] == ["Ann", "Bob"]          # the highest, as every built-in game
    assert topics.leaders(rows, lower=True) == ["Ann"] and topics.leaders(rows) == ["Bob"]
    countdown = replace(scan.GAME, panel=dict(scan.GAME.panel, lower_wins=True))
    store = Store(tmp_path / "games.sqlite3")
    try:
        for kept_rows in (rows, [dict(r, score=r["score"] + 40) for r in rows]):
            game, _, _ = store.start_game("scan", FOUR, {"variant": "individual"},
                                          {"type": "setup", "events": scan.GAME.setup(FOUR, {"variant": "individual"})})
            store.end_game(game.id, 1, "finished", ["Ann"],
                           {"winners": ["Ann"], "standings": kept_rows, "teams": {}, "view": None})
        kept = KeptGames(store, engines={"scan": countdown})
        assert [r["name"] for r in kept.record(game.id)["places"]] == ["Ann", "Cy", "Dee", "Bob"]
        best = {p["name"]: p["by_game"][0]["best"] for p in kept.stats()["players"]}
        assert best == {"Ann": 0, "Bob": 90, "Cy": 12, "Dee": 12}
        assert {p["name"]: p["by_game"][0]["best"] for p in KeptGames(store).stats()["players"]}["Ann"] == 40
    finally:
        store.close()
    assert _lower_wins({"engine": "scan"}) is False and _lower_wins(None) is False
    assert _lower_wins({"engine": "no_such_game"}) is False


def test_the_record_and_bg_stats_give_tied_players_one_place(table):
    """Standard competition ranking, "1, 1, 3": the kept record's places (the end card's) and
    BG Stats' ranks are the same, and the player after a tie for first is third, not second."""
    games, kept = table()
    game_id = _scan_tie_on_time(games)
    rec = kept.record(game_id)
    assert [(r["name"], r["place"], r["tied"], r["winner"]) for r in rec["places"]] == [
        ("A", 1, True, True), ("B", 1, True, True), ("C", 3, False, False)]
    ranks = {p["name"]: p["rank"] for p in kept.bgstats(game_id)["players"]}
    assert ranks == {"A": 1, "B": 1, "C": 3}


def test_the_record_keeps_the_score_each_row_needed(table):
    """The Lonely City: N. Ickel needs five sales, you three. The final table gave bare numbers
    (Ann 3 won over N. Ickel's 4); the record's places carry each row's "needed", as the game's
    result gave it, and a game that gives none (SCAN) has none."""
    games, kept = table()
    rec = kept.record(ickel_wins(games)["id"])
    assert [(r["name"], r["score"], r["needed"], r["place"]) for r in rec["places"]] == [
        ("N. Ickel", 5, 5, 1), ("Ann", 0, 3, 2)]
    assert [r["needed"] for r in rec["standings"]] == [3, 5]
    assert all("needed" not in r for r in kept.record(_scan_tie_on_time(games))["places"])


@contextlib.contextmanager
def _end_card(chromium, port, game_id, ready):
    """A page on kept game ``game_id``'s end card, once ``ready`` (a selector) is drawn."""
    page = chromium.new_page(viewport={"width": 1024, "height": 900})
    try:
        page.goto("http://127.0.0.1:%d/games/%d" % (port, game_id))
        page.wait_for_selector(ready, timeout=WAIT)
        yield page
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_the_end_card_says_tied_players_share_a_place(browser, desk, server):  # noqa: F811
    """The end card's place column and its banner say a tie as a tie: "1st (tied)" twice, then
    "3rd", and the two winners shared the win."""
    with _end_card(browser, server, _scan_tie_on_time(desk.table.games), ".final-table tbody tr") as page:
        cells = page.eval_on_selector_all(".final-table tbody tr", "trs => trs.map(tr => tr.innerText.trim())")
        assert [c.split("\t") for c in cells] == [["1st (tied) winner", "A", "60"], ["1st (tied) winner", "B", "60"],
                                                  ["3rd", "C", "0"]], cells
        assert page.inner_text("#winner") == "A and B shared the win!"


@pytest.mark.browser
@pytest.mark.slow
def test_the_end_card_says_what_each_score_needed(browser, desk, server):  # noqa: F811
    """The end card's scores say what each row needed: N. Ickel's 5 of 5, Ann's 0 of 3."""
    with _end_card(browser, server, ickel_wins(desk.table.games)["id"], ".final-table tbody tr") as page:
        cells = page.eval_on_selector_all(".final-table tbody tr", "trs => trs.map(tr => tr.innerText.trim())")
        assert [c.split("\t") for c in cells] == [["1st winner", "N. Ickel", "5 of 5 needed"],
                                                  ["2nd", "Ann", "0 of 3 needed"]], cells


# ---------------------------------------------------------------- the chart counts the moves in force

def _scan_with_an_undone_hand(games):
    """Team SCAN: two hands, the second undone, a third played instead, then abandoned: the
    entries are the setup (1), hands (2, 3), the undo (4) and a hand (5); two moves are in force."""
    games.start("scan", FOUR, {"variant": "team"})
    games.act(SMALL, 1)
    games.act(SMALL, 2)
    games.undo(3)
    games.act(SMALL, 4)
    return games.abandon(5)["id"]


def test_the_chart_numbers_the_moves_in_force_not_the_entries(table):
    """An undone move and the undo itself are not moves of the game: the chart's points count the
    moves in force (0 for the setup), so the third entry played after an undo is move 2."""
    games, kept = table()
    chart = kept.chart(_scan_with_an_undone_hand(games))
    assert [(p["version"], p["move"]) for p in chart["points"]] == [(1, 0), (2, 1), (5, 2)]
    assert [p["values"][0] for p in chart["points"]] == [0, 40, 80]


@pytest.mark.browser
@pytest.mark.slow
def test_the_end_cards_chart_counts_only_the_moves_in_force(browser, desk, server):  # noqa: F811
    """The end card's chart runs from the start to "move 2" and its table numbers the moves
    Start, 1, 2: the undone hand and the undo are not counted."""
    with _end_card(browser, server, _scan_with_an_undone_hand(desk.table.games), ".chart-box") as page:
        axis = page.eval_on_selector_all(".chart text.axis", "ts => ts.map(t => t.textContent)")
        assert axis[-2:] == ["start", "move 2"], axis
        rows = page.eval_on_selector_all(".chart-box tbody th[scope=row]", "ths => ths.map(t => t.textContent)")
        assert rows == ["Start", "1", "2"], rows
