"""Every move in a sentence the table understands: what the Undo button and undo/redo say.

Each engine's describe(state, action, events) is read through the game session, as the panel
sees it, and through the engine alone for the rarer turns; a describe that fails never costs the
move: the session logs it and keeps the move with the plain words."""

import dataclasses
import logging
import random

import pytest

from controller.bus import Bus
from controller.game_session import GameSession, describe as plain_words, say
from controller.games import get_the_scoop, ledger, scan, scoop1956, scoop2002, star_reporter
from controller.games.game import SAID_MOST, no_description
from controller.journal import Journal
from controller.store import Store


@pytest.fixture
def session(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    made = []

    def open_session(engines=None, seed=0):
        games = GameSession(Journal(store, Bus()), random.Random(seed), engines=engines)
        made.append(games)
        return games

    yield open_session
    store.close()


def seats(*names):
    return [{"name": n} for n in names]


def play(games, *actions):
    """The sentence each action was stored with, in order."""
    return [games.act(action, games.version)["said"] for action in actions]


def engine_game(game, names, options=None):
    state = game.initial()
    for ev in game.setup(seats(*names), options or {}):
        state = game.apply(state, ev)
    return state


def engine_says(game, state, action, seed=0):
    """(state after, the sentence) for one action played on the engine alone."""
    events = game.decide(state, action, random.Random(seed))
    words = game.describe(state, action, events)
    for ev in events:
        state = game.apply(state, ev)
    return state, words


def without_describe(game, **extra):
    """The game as it was before it could describe a move (Game's describe), plus ``extra``."""
    return dataclasses.replace(game, **{"describe": no_description, **extra})


# ---------------------------------------------------------------- SCOOP (1956)

def test_scoop1956_says_claims_verdicts_and_money_and_undo_repeats_it(session):
    games = session()
    games.start("scoop1956", seats("Ann", "Bob", "Cy"))
    said = play(games,
                {"type": "claim", "player": 0, "story_type": "sport"},
                {"type": "verdict", "signal": "EXTRA", "digit": 5},
                {"type": "place", "player": 0, "slot": "sport", "value": 800},
                {"type": "reserve", "player": 1, "cards": 2},
                {"type": "claim", "player": 2, "story_type": "star", "scooped_from": 1, "cards_from_hand": 2},
                {"type": "lines_down", "player": 0},
                {"type": "reserve", "player": 0, "cards": 2},
                {"type": "advertise", "player": 1, "value": 300, "scooped_from": 0, "cards_from_hand": 1},
                {"type": "reserve", "player": 2, "cards": 1},
                {"type": "claim", "player": 0, "story_type": "crime", "cards_from_hand": 2, "scooped_from": 2},
                {"type": "verdict", "signal": "SCRAP IT", "digit": 1})
    assert said == [
        "Ann claimed a sport story",
        "the editor said EXTRA: Ann collects $200 from each player",
        "Ann placed an $800 sport story",
        "Bob played 2 cards to the reserve and paid $200 for new ones",
        "Cy claimed a Star story, SCOOPing from Bob's reserve",
        "Ann called Lines Down on Cy's Star story: Ann pays $300 for a new hand, and Cy pays $300 "
        "for new cards",
        "Ann played 2 cards to the reserve and paid $200 for new ones",
        "Bob placed a $300 advertisement, SCOOPing from Ann's reserve",
        "Cy played a card to the reserve and paid $100 for a new one",
        "Ann claimed a crime story, SCOOPing from Cy's reserve",
        "the editor said SCRAP IT: the crime story is refused, and Ann pays $300 for new cards",
    ]
    assert games.current()["undo"] == said[-1]
    out = games.undo(games.version)
    assert out["said"] == "Took back: " + said[-1]
    assert out["undo"] == said[-2] and out["redo"] == said[-1]
    assert games.redo(out["version"])["said"] == "Put back: " + said[-1]


def test_scoop1956_says_who_couldnt_pay_an_extra_and_the_bankrupts_sale():
    state = engine_game(scoop1956.GAME, ["Ann", "Bob", "Cy", "Dee"])
    state = scoop1956.GAME.apply(state, ledger.transfer("p2", ledger.BANK, 2900, "spent on cards"))
    state = scoop1956.GAME.apply(state, ledger.transfer("p3", ledger.BANK, 3000, "spent on cards"))
    state, _ = engine_says(scoop1956.GAME, state, {"type": "claim", "player": 0, "story_type": "sport"})
    _, words = engine_says(scoop1956.GAME, state, {"type": "verdict", "signal": "EXTRA", "digit": 2})
    assert words == ("the editor said EXTRA: Ann collects $200 from Bob and $100 from Cy (all Cy held); "
                     "Dee had nothing to pay")

    state = engine_game(scoop1956.GAME, ["Ann", "Bob", "Cy"])
    for action in ({"type": "claim", "player": 0, "story_type": "sport"},
                   {"type": "verdict", "signal": "OK"},
                   {"type": "place", "player": 0, "value": 500},
                   {"type": "exchange", "player": 1}, {"type": "exchange", "player": 2}):
        state, _ = engine_says(scoop1956.GAME, state, action)
    state = scoop1956.GAME.apply(state, ledger.transfer("p0", ledger.BANK, 3100, "spent on cards"))
    state, _ = engine_says(scoop1956.GAME, state, {"type": "claim", "player": 0, "story_type": "crime"})
    said = []
    for action in ({"type": "verdict", "signal": "X"}, {"type": "sell", "player": 0, "story": 1},
                   {"type": "pass", "player": 1}, {"type": "buy", "player": 2}):
        state, words = engine_says(scoop1956.GAME, state, action)
        said.append(words)
    assert said == [
        "the editor said X: the crime story is refused, and Ann can't pay $300 for new cards and is bankrupt",
        "Ann, bankrupt, put the $500 sport story up for sale",
        "Bob passed on Ann's $500 sport story",
        "Cy bought Ann's $500 sport story; Ann paid the $300 owed to the bank",
    ]


def test_scoop1956_says_the_star_stories_a_second_three_star_displaces_and_going_to_press():
    state = engine_game(scoop1956.GAME, ["Ann", "Bob"])
    said = []

    def turn(*actions):
        nonlocal state
        for action in actions:
            state, words = engine_says(scoop1956.GAME, state, action)
            said.append(words)

    turn({"type": "claim", "player": 0, "story_type": "star"}, {"type": "verdict", "signal": "OK"},
         {"type": "place", "player": 0, "value": 600}, {"type": "exchange", "player": 1})
    for value in (1000, 900):
        turn({"type": "claim", "player": 0, "story_type": "sport"}, {"type": "verdict", "signal": "THREE STARS"},
             {"type": "place", "player": 0, "slot": "three_star", "value": value})
        if value == 1000:
            turn({"type": "exchange", "player": 1})
    turn({"type": "pass", "player": 1}, {"type": "claim", "player": 1, "story_type": "sport"},
         {"type": "verdict", "signal": "PRESS"}, {"type": "go_to_press", "player": 1})
    assert said[5] == "the editor said THREE STARS: Ann takes a Three Star story or the sport story"
    assert said[10] == ("Ann placed a $900 Three Star story, which takes the Star Story spaces; "
                        "Ann's $600 Star story goes up for sale")
    assert said[11] == "Bob passed on Ann's $600 Star story; nobody bought Ann's $600 Star story: it counts " \
                       "at half its value ($300)"
    assert said[13] == "the editor said PRESS: Bob takes the sport story or goes to press"
    assert said[14] == "Bob went to press with the $1,500 bonus; Ann wins with $5,200"


# ---------------------------------------------------------------- Scoop! (2002)

def test_scoop2002_says_each_roll_what_it_did(session):
    games = session()
    games.start("scoop2002", seats("Ann", "Bob"), {"variants": ["thats_my_beat"]})
    said = play(games,
                {"type": "roll", "player": 0, "value": 3},
                {"type": "roll", "player": 1, "value": 3},
                {"type": "roll", "player": 1, "value": 0},
                {"type": "move", "player": 0},
                {"type": "roll", "player": 0, "value": 3},
                {"type": "arrive", "player": 0, "place": 1},
                {"type": "roll", "player": 0, "value": 1},
                {"type": "move", "player": 1},
                {"type": "roll", "player": 1, "value": 4},
                {"type": "arrive", "player": 1, "place": "street"},
                {"type": "roll", "player": 1, "value": 5},
                {"type": "stay", "player": 0})
    assert said == [
        "Ann rolled 3: #3 Harbor is Ann's beat",
        "Bob rolled 3: #3 Harbor is already Ann's beat, so Bob rolls again",
        "Bob rolled 0: #10 Industrial Park is Bob's beat",     # a 0 is the tenth Location
        "Ann chose to move",
        "Ann rolled 3: move up to 3 spaces; first read entry 3 of the board's On the Street chart",
        "Ann moved to Downtown",
        "Ann rolled 1: #1 Downtown gets a mark",
        "Bob chose to move",
        "Bob rolled 4: move up to 4 spaces; first read entry 4 of the board's On the Street chart",
        "Bob stopped on the street",
        "Bob rolled 5: #5 University gets a mark",
        "Ann stayed on the scene at Downtown: +1 Steno mark",
    ]
    assert games.undo(games.version)["said"] == "Took back: Ann stayed on the scene at Downtown: +1 Steno mark"


def test_scoop2002_says_a_pitch_and_n_ickels_turn():
    state = engine_game(scoop2002.GAME, ["Ann", "Bob"])
    state["players"][0]["place"] = scoop2002.rules.TIMES    # test shortcut: Ann is at the Times
    state["players"][0]["steno"][0] = 2                     # with two marks for Downtown
    state["marks"][0] = 1                                   # which has one
    state, words = engine_says(scoop2002.GAME, state, {"type": "pitch", "player": 0, "story": "Downtown"})
    assert words == "Ann chose to pitch the Downtown story"
    _, words = engine_says(scoop2002.GAME, state, {"type": "roll", "player": 0, "value": 3})
    assert words == "Ann rolled 3 pitching the Downtown story (needed 3 or less): sold"
    _, words = engine_says(scoop2002.GAME, state, {"type": "roll", "player": 0, "value": 4})
    assert words == "Ann rolled 4 pitching the Downtown story (needed 3 or less): not sold"

    state = engine_game(scoop2002.GAME, ["Ann"], {"variants": ["lonely_city"]})
    state["players"][0]["place"] = 3
    state, _ = engine_says(scoop2002.GAME, state, {"type": "stay", "player": 0})
    events = scoop2002.GAME.decide(state, {"type": "roll", "player": 0, "value": 5}, random.Random(3))
    ickel = [ev for ev in events if ev["type"] == "ickel_pitched"][0]
    mark = [ev for ev in events if ev["type"] == "marked"][1]
    assert scoop2002.GAME.describe(state, {"type": "roll", "player": 0, "value": 5}, events) == (
        "Ann rolled 5: #5 University gets a mark; N. Ickel rolled %d pitching the Downtown story (needed 1 or "
        "less): %s; N. Ickel rolled %d: #%d %s gets a mark" % (
            ickel["value"], "sold" if ickel["sold"] else "not sold", mark["value"], mark["location"],
            state["locations"][mark["location"] - 1]))
    # N. Ickel's pitch sold, and his mark chained on after it: "...: sold; N. Ickel rolled ...", not "sold!;"
    seed = next(n for n in range(100) if [ev for ev in scoop2002.GAME.decide(
        state, {"type": "roll", "player": 0, "value": 5}, random.Random(n)) if ev["type"] == "ickel_pitched"][0]["sold"])
    said = scoop2002.GAME.describe(state, {"type": "roll", "player": 0, "value": 5}, scoop2002.GAME.decide(
        state, {"type": "roll", "player": 0, "value": 5}, random.Random(seed)))
    assert "(needed 1 or less): sold; N. Ickel rolled" in said and "!" not in said, said


# ---------------------------------------------------------------- SCAN

def test_scan_says_what_each_side_took_and_scored_and_who_won(session):
    games = session()
    games.start("scan", seats("Ann", "Bob", "Cat", "Dan"))
    said = play(games,
                {"type": "hand", "taken": {"Ann & Cat": {"spades": 9, "hearts": 7, "diamonds": 4},
                                           "Bob & Dan": {"spades": 4, "hearts": 6, "diamonds": 9, "clubs": 13}}},
                {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                           "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
    assert said == [
        "hand 1: WE took 9 spades, 7 hearts, 4 diamonds and scored 105; THEY took 4 spades, 6 hearts, "
        "9 diamonds, 13 clubs and scored 0 (cards worth -105)",
        "hand 2: WE took 13 spades, 13 hearts, 2 diamonds and scored 185; THEY took 11 diamonds, 13 clubs "
        "and scored 0 (cards worth -185); WE won with 290",
    ]
    assert games.current()["undo"] == said[1]


def test_scan_says_time_running_out_and_shared_wins():
    state = engine_game(scan.GAME, ["Ann", "Bob", "Cy"], {"variant": "individual", "time_limit": 30})
    state, words = engine_says(scan.GAME, state, {"type": "hand", "taken": {
        "Ann": {"spades": 13, "hearts": 5}, "Bob": {"hearts": 8, "diamonds": 7}, "Cy": {"diamonds": 6, "clubs": 12}}})
    assert words == ("hand 1: Ann took 13 spades, 5 hearts and scored 155; Bob took 8 hearts, 7 diamonds and "
                     "scored 5; Cy took 6 diamonds, 12 clubs and scored 0 (cards worth -150)")
    _, words = engine_says(scan.GAME, state, {"type": "time_up"})
    assert words == "time ran out; Ann won with 155"

    state = engine_game(scan.GAME, ["Ann", "Bob", "Cy"], {"variant": "individual", "time_limit": 30})
    _, words = engine_says(scan.GAME, state, {"type": "time_up"})
    assert words == "time ran out; Ann, Bob and Cy shared the win on 0"


# ---------------------------------------------------------------- Star Reporter

def test_star_reporter_says_the_dice_and_what_they_allow(session):
    games = session()
    games.start("star_reporter", seats("Ann", "Bob"), {"disasters": 1, "airports": ["Baytown", "Capital City", "Lakeport", "Zenith"]})
    said = play(games,
                {"type": "throw", "player": 0, "dice": [4, 4]},
                {"type": "throw", "player": 1, "dice": [5, 3]},
                {"type": "throw", "player": 0, "dice": [6, 1]},
                {"type": "throw", "player": 1, "dice": [1, 1]},
                {"type": "throw", "player": 0, "method": "automobile", "dice": [3, 4]},
                {"type": "news", "player": 0, "points": 20},
                {"type": "throw", "player": 1, "method": "airplane", "at": "Baytown", "dice": [2, 2]},
                {"type": "throw", "player": 0, "method": "telephone", "purpose": "news", "dice": [5, 2]},
                {"type": "draw", "player": 0, "city": "Zenith", "points": 30, "event": "Fire"},
                {"type": "throw", "player": 1, "method": "airplane", "dice": [3, 3]},
                {"type": "land", "player": 1, "airport": "Capital City"},
                {"type": "throw", "player": 0, "method": "train", "dice": [6, 6]},
                {"type": "throw", "player": 1, "method": "train", "dice": [1, 2]},
                {"type": "throw", "player": 0, "method": "train", "dice": [2, 2]},
                {"type": "disaster", "player": 0, "points": 50},
                {"type": "throw", "player": 1, "method": "telephone", "purpose": "plane", "dice": [6, 6]},
                {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]},
                {"type": "catastrophe", "player": 0, "points": 100})
    assert said == [
        "Ann rolled 4 and 4 (eight) for the first move",
        "Bob rolled 5 and 3 (eight) for the first move; Ann and Bob tie on 8 and roll again",
        "Ann rolled 6 and 1 (seven) for the first move",
        "Bob rolled 1 and 1 (two) for the first move; Ann moves first",
        "Ann rolled 3 and 4 (seven): the automobile goes 7 spaces",
        "Ann completed the News assignment: 20 points",
        "Bob rolled 2 and 2 (four): a double charters the plane at Baytown",
        "Ann rolled 5 and 2 (seven): the telephone call goes through, for a new News assignment",
        "Ann drew a News assignment by telephone: Fire in Zenith (30 points)",
        "Bob rolled 3 and 3 (six): a double, so the plane flies from Baytown",
        "Bob flew to Capital City",
        "Ann rolled 6 and 6 (double sixes): no move, and Disaster card 1 is turned up",
        "Bob rolled 1 and 2 (three): an odd total, so the train waits",
        "Ann rolled 2 and 2 (four): the train goes on to the next city",
        "Ann reached Disaster card 1's city: 50 points",
        "Bob rolled 6 and 6 (double sixes): no move, and the Catastrophe is turned up",
        "Ann rolled 2 and 3 (five): the automobile goes 5 spaces",
        "Ann reached the Catastrophe: 100 points, and the game ends; Ann is the Star Reporter with 170 points",
    ]


def test_star_reporter_says_calls_that_fail_and_a_plane_sent_for():
    state = engine_game(star_reporter.GAME, ["Ann", "Bob"], {"first": 1, "airports": ["Baytown", "Capital City", "Lakeport", "Zenith"]})
    state, words = engine_says(star_reporter.GAME, state, {"type": "throw", "player": 1, "method": "airplane",
                                                      "at": "Baytown", "dice": [1, 2]})
    assert words == "Bob rolled 1 and 2 (three): no double, so no plane yet"
    state["players"][0]["plane"] = {"chartered": True, "at": "Baytown"}      # test shortcut
    state["players"][0]["assignment"]["status"] = "done"
    state, words = engine_says(star_reporter.GAME, state, {"type": "throw", "player": 0, "method": "telephone",
                                                      "purpose": "news", "dice": [5, 5]})
    assert words == "Ann rolled 5 and 5 (ten): no seven, so the telephone call doesn't go through"
    state, _ = engine_says(star_reporter.GAME, state, {"type": "throw", "player": 1, "method": "automobile", "dice": [1, 1]})
    state, words = engine_says(star_reporter.GAME, state, {"type": "throw", "player": 0, "method": "telephone",
                                                      "purpose": "plane", "dice": [3, 4]})
    assert words == "Ann rolled 3 and 4 (seven): the telephone call goes through, and the plane is sent for"
    _, words = engine_says(star_reporter.GAME, state, {"type": "land", "player": 0, "airport": "Zenith"})
    assert words == "Ann sent the plane to Zenith"


# ---------------------------------------------------------------- Get the Scoop!

def test_get_the_scoop_says_the_rounds(session):
    games = session()
    games.start("get_the_scoop", seats("Ann", "Bob", "Cat", "Dan"), {"board": "table"})
    said = play(games,
                {"type": "reveal", "plays": [{"player": 0, "protester": 2, "rank": "7", "suit": "hearts"},
                                             {"player": 3, "protester": 1, "rank": 3, "suit": "s"}]},
                {"type": "check", "winners": []},
                {"type": "end_turn", "player": 0}, {"type": "end_turn", "player": 1},
                {"type": "end_turn", "player": 2}, {"type": "end_turn", "player": 3},
                {"type": "police", "player": 0},
                {"type": "reveal", "plays": []},
                {"type": "check", "winners": [1, 2]})
    assert said == [
        "round 1: the Protesters moved (Dan's 3 of spades on Protester 1, Ann's 7 of hearts on Protester 2)",
        "round 1: no camera van holds a Protester",
        "Ann's Journalists' turn is over", "Bob's Journalists' turn is over",
        "Cat's Journalists' turn is over", "Dan's Journalists' turn is over",
        "round 1: Ann moved the police; Bob has the First Player badge",
        "round 2: nobody directed a Protester",
        "round 2: a Protester is in Bob's and Cat's camera vans: Bob and Cat win",
    ]


# ---------------------------------------------------------------- when an engine can't say it

def test_an_engine_without_describe_keeps_the_plain_words(session):
    games = session({"scoop1956": without_describe(scoop1956.GAME)})
    games.start("scoop1956", seats("Ann", "Bob"))
    assert play(games, {"type": "claim", "player": 0, "story_type": "sport"},
                {"type": "verdict", "signal": "X", "digit": 3}) == [
        "Ann's claim (story_type sport)", "verdict (signal X, digit 3); Ann paid the bank $300"]


@pytest.mark.parametrize("told", [ZeroDivisionError("a bug in the words"), None, "  "])
def test_a_describe_that_fails_never_costs_the_move(session, caplog, told):
    def broken(state, action, events):
        if isinstance(told, Exception):
            raise told
        return told

    games = session({"scan": without_describe(scan.GAME, describe=broken)})
    games.start("scan", seats("Ann", "Bob", "Cat", "Dan"))
    with caplog.at_level(logging.ERROR, logger="controller.game_session"):
        out = games.act({"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                                   "Bob & Dan": {"diamonds": 11, "clubs": 13}}}, 1)
    assert out["version"] == 2 and out["said"] == "hand"
    assert out["view"]["race"][0]["total"] == 185
    assert "scan's describe()" in caplog.text and "plainer words" in caplog.text
    assert games.undo(2)["said"] == "Took back: hand"


def test_describe_sees_the_state_before_the_move_and_cant_change_it():
    seen = []

    def nosy(state, action, events):
        seen.append(len(state["sheet"]))
        state["sheet"].append("scribbled")
        events.clear()
        return "a hand"

    state = engine_game(scan.GAME, ["Ann", "Bob", "Cat", "Dan"])
    action = {"type": "hand", "taken": {"Ann & Cat": {"spades": 12}, "Bob & Dan": {"spades": 1, "hearts": 13,
                                                                                   "diamonds": 13, "clubs": 13}}}
    events = scan.GAME.decide(state, action, random.Random(0))
    engine = without_describe(scan.GAME, describe=nosy)
    assert say(engine, state, action, events, lambda: "plain") == "a hand"
    assert seen == [0] and state["sheet"] == [] and len(events) == 1
    assert say(without_describe(scan.GAME), state, action, events, lambda: "plain") == "plain"
    assert plain_words(action, events, ["Ann", "Bob", "Cat", "Dan"]) == "hand"


ENTER = {"value": 500, "points": 10, "airport": "Baytown", "at": "Baytown"}


@pytest.mark.parametrize("game, names", [
    (scoop1956.GAME, ["Ann", "Bob", "Cy"]), (scoop2002.GAME, ["Ann", "Bob"]), (star_reporter.GAME, ["Ann", "Bob"]),
    (get_the_scoop.GAME, ["Ann", "Bob", "Cat", "Dan"])])
def test_whatever_the_panel_offers_can_be_said(game, names):
    """Tap offers at random for a while: every move gets a sentence, and none is left half made."""
    rng = random.Random(5)
    state = engine_game(game, names)
    for _ in range(200):
        offers = game.offers(state)
        if not offers:
            break
        offer = rng.choice(offers)
        action = dict({k: v for k, v in offer.items() if k not in ("enter", "needs")},
                      **{k: ENTER[k] for k in offer.get("enter", [])})
        state, words = engine_says(game, state, action, seed=rng.randrange(1000))
        assert isinstance(words, str) and words.strip() == words and words, action
        assert "%" not in words and "None" not in words and "{" not in words, (action, words)


def test_a_describe_of_megabytes_is_kept_cut_to_a_sentence(session, caplog):
    """A plug-in's describe() that gave 2 MB for a move passed the kit, and the box kept it whole:
    in the move's stored entry, its undo bar and the answer to every page after every move. The
    box keeps what a sentence may run to, and says so in its log."""
    games = session({"scan": without_describe(scan.GAME, describe=lambda state, action, events: "x" * 2_000_000)})
    games.start("scan", seats("Ann", "Bob", "Cat", "Dan"))
    with caplog.at_level(logging.ERROR, logger="controller.game_session"):
        out = games.act({"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                                   "Bob & Dan": {"diamonds": 11, "clubs": 13}}}, 1)
    assert len(out["said"]) == SAID_MOST and out["said"].endswith("x…")
    assert "scan's describe()" in caplog.text and "2000000 characters" in caplog.text
