"""Every engine's result(state): whether the game is over, who won and what each player ended
with, from the game's state by its rules (games/base.py's Result). A property over random legal
play of each game, and a finished game of each worked by hand from its rule text (the scenarios
are the engines' own tests, played again here)."""

import random

import pytest
import test_get_the_scoop as gts
import test_scan as scan_play
import test_scoop1956 as s1956
import test_scoop2002 as s2002
import test_star_reporter as star
from hypothesis import given, settings, strategies as st
from play import TABLES, action_for, start, walk

from controller.games import base, get_the_scoop, options_doc, scan, scoop1956, scoop2002, star_reporter
from controller.games.base import GameError

# newsdesk's own games, which play.py knows how to play; a game installed beside them is put
# through the conformance kit instead (test_conformance.py), which needs to know nothing of it
ENGINES = tuple(options_doc.our_games())


def test_every_game_of_newsdesks_own_has_a_table_the_random_player_starts():
    assert {t[0] for t in TABLES} == set(ENGINES)


def test_the_random_player_plays_scan_hands_the_rules_accept():
    """SCAN: "The trick is taken by the highest card of the suit led", one card from each player,
    so a side's take is whole tricks, and the rules refuse any other count. A random hand dealt
    card by card mostly isn't (the walks then never scored a hand); played trick by trick, every
    one is, on every SCAN table the walks start from."""
    for engine, names, options in TABLES:
        if engine is scan.GAME:
            state = start(engine, names, options)
            for seed in range(25):
                hand = action_for(engine, state, {"type": "hand"}, random.Random(seed))
                assert engine.decide(state, hand, random.Random(0))[0]["type"] == "hand_scored"


def row(name, score, winner):
    return {"name": name, "score": score, "winner": winner}


# ---------------------------------------------------------------- the property

def check(engine, names, state):
    """What every Result says of ``state``, whichever game it is."""
    res = engine.result(state)
    assert set(res) == {"over", "winners", "standings", "teams", "score_kind"}
    over = res["over"]
    # over: no more offers; the game's own mark of the end (its phase, or SCAN's winning sides)
    assert over == (engine.offers(state) == [])
    assert over == (bool(state["winners"]) if engine is scan.GAME else state["phase"] == "over")
    # the winners are exactly the rows marked winner; nobody before the end, somebody at it
    assert res["winners"] == [r["name"] for r in res["standings"] if r["winner"]]
    assert bool(res["winners"]) == over
    assert sorted(r["name"] for r in res["standings"]) == sorted(names)
    assert res["score_kind"] == base.panel(engine)["score"]
    for r in res["standings"]:
        assert r["score"] is None if res["score_kind"] is None else isinstance(r["score"], int)
    if engine is scan.GAME:       # a side's members share its score and its win
        by_name = {r["name"]: r for r in res["standings"]}
        assert [m for t in res["teams"] for m in t["members"]] == [r["name"] for r in res["standings"]]
        for team in res["teams"]:
            assert all((by_name[m]["score"], by_name[m]["winner"]) == (team["score"], team["winner"])
                       for m in team["members"])
    else:
        assert res["teams"] == []
    if over:                 # and the game refuses to go on, with the shared guard's words
        with pytest.raises(GameError, match="over|press"):
            engine.decide(state, {"type": "no such move"}, random.Random(0))
    return over


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32))
def test_random_play_result_agrees_with_the_offers_the_phase_and_its_own_rows(table, seed):
    engine, names, options = table
    ended = [check(engine, names, s) for s in walk(engine, start(engine, names, options), random.Random(seed), 300)]
    assert not any(ended[:-1]), "nothing comes after the end"


# ---------------------------------------------------------------- finished games, by hand

def test_scoop1956_money_on_hand_plus_the_page_and_a_tie_at_press():
    """'All players immediately add the amount of money that they have on hand and the value of the
    stories which they have already placed on their newspaper page. The player having the highest
    total value wins the game.' Ann: $3,000 + $500 SYND from each of two = $4,000, and a $500
    story; Bob: $3,000 - $500 = $2,500, and a $2,000 story; Cat: $2,500 and the $1,500 bonus."""
    s = s1956.story(s1956.start(), s1956.ANN, "sport", "SYND", value=500)
    s = s1956.story(s, s1956.BOB, "crime", "OK", value=2000)
    s = s1956.story(s, s1956.CAT, "local", "PRESS")
    before = scoop1956.GAME.result(s)
    assert (before["over"], before["winners"]) == (False, [])
    assert before["standings"] == [row("Ann", 4500, False), row("Bob", 4500, False), row("Cat", 2500, False)]
    s, _ = s1956.act(s, {"type": "go_to_press", "player": s1956.CAT})
    assert scoop1956.GAME.result(s) == {
        "over": True, "winners": ["Ann", "Bob"], "teams": [], "score_kind": "money",
        "standings": [row("Ann", 4500, True), row("Bob", 4500, True), row("Cat", 4000, False)]}


def test_scoop1956_a_whole_game_counts_what_the_press_counts():
    """Ann $2,500 and a $500 story; Bob $4,500 and a $600 story; Cat $2,500 and the $1,500 bonus;
    Dan $2,500: the result's scores are the totals counted at press, and Bob has the most."""
    s = s1956.start(names=("Ann", "Bob", "Cat", "Dan"), dealer=s1956.DAN)
    s = s1956.story(s, s1956.ANN, "sport", "OK", value=500)
    s = s1956.story(s, s1956.BOB, "crime", "SYND", value=600)              # $500 from each other player
    s = s1956.story(s, s1956.CAT, "sport", "PRESS")
    s, _ = s1956.act(s, {"type": "go_to_press", "player": s1956.CAT})
    res = scoop1956.GAME.result(s)
    assert [r["score"] for r in res["standings"]] == [t["total"] for t in s["totals"]] == [3000, 5100, 4000, 2500]
    assert res["winners"] == ["Bob"]


def test_scoop2002_three_sales_win_and_n_ickel_needs_five():
    """'If you've sold three or more stories by the end of your turn, then you win the game.'
    'Ickel wins if he sells five stories.' The score is the stories sold."""
    s = s2002.start()
    for n, story in enumerate((2, 5, 7), 1):
        s = s2002.move(s, s2002.ANN, 3, story, 9)
        s = s2002.move(s, s2002.BOB, 4, "street", 9)
        s = s2002.stay(s, s2002.ANN, 9)
        s = s2002.move(s, s2002.BOB, 1, "street", 9)
        s = s2002.move(s, s2002.ANN, 4, "times", 9)
        s = s2002.move(s, s2002.BOB, 1, "street", 9)
        s, _ = s2002.act(s, {"type": "pitch", "player": s2002.ANN, "story": story})
        s, _ = s2002.act(s, {"type": "roll", "player": s2002.ANN, "value": 1})
        if n == 3:
            assert scoop2002.GAME.result(s)["over"] is False, "the win waits for the end of the turn"
        s, _ = s2002.act(s, {"type": "roll", "player": s2002.ANN, "value": 9})
        if n < 3:
            s = s2002.move(s, s2002.BOB, 1, "street", 9)
    assert scoop2002.GAME.result(s) == {"over": True, "winners": ["Ann"], "teams": [], "score_kind": "points",
                                        "standings": [dict(row("Ann", 3, True), needed=3), dict(row("Bob", 0, False), needed=3)]}

    s = s2002.start(("Ann",), variants=["lonely_city"])
    for _ in range(5):
        s, _ = s2002.act(s, {"type": "move", "player": 0})
        s, _ = s2002.act(s, {"type": "roll", "player": 0, "value": 1})
        s, _ = s2002.act(s, {"type": "arrive", "player": 0, "place": "street"})
        s, _ = s2002.act(s, {"type": "roll", "player": 0, "value": 2}, s2002.Dice(1, 3))
    assert scoop2002.GAME.result(s)["standings"] == [dict(row("Ann", 0, False), needed=3),
                                                     dict(row("N. Ickel", 5, True), automated=True, needed=5)]


def test_scan_a_side_wins_for_its_members_and_the_sheet_orders_them_side_by_side():
    """'The first team to reach 155 points wins.' All 13 spades (+10 each) and hearts (+5) and two
    diamonds (-5) in seven tricks: 130 + 65 - 10 = 185 for Ann & Cy (partners sit opposite); the
    other side's minus cards score 0."""
    s = scan_play.start(("Ann", "Bob", "Cy", "Dee"))
    s, _ = scan_play.hand(s, {"Ann & Cy": scan_play.cards(13, 13, 2, 0), "Bob & Dee": scan_play.cards(0, 0, 11, 13)})
    assert scan.GAME.result(s) == {
        "over": True, "winners": ["Ann", "Cy"], "score_kind": "points",
        "standings": [row("Ann", 185, True), row("Cy", 185, True), row("Bob", 0, False), row("Dee", 0, False)],
        "teams": [{"side": "Ann & Cy", "members": ["Ann", "Cy"], "score": 185, "winner": True},
                  {"side": "Bob & Dee", "members": ["Bob", "Dee"], "score": 0, "winner": False}]}


def test_scan_a_tie_on_time_is_shared():
    """'The winners are the team with the highest score at the end of that time': A and B both
    took 5 spades and 4 hearts in three tricks (70 each); C's minus cards score 0."""
    s = scan_play.start(("A", "B", "C"), variant="individual", time_limit=20)
    s, _ = scan_play.hand(s, {"A": scan_play.cards(5, 4, 0, 0), "B": scan_play.cards(5, 4, 0, 0),
                              "C": scan_play.cards(3, 5, 13, 12)})
    assert scan.GAME.result(s)["over"] is False
    for ev in scan.GAME.decide(s, {"type": "time_up"}, random.Random(0)):
        s = scan.GAME.apply(s, ev)
    res = scan.GAME.result(s)
    assert res["winners"] == ["A", "B"]
    assert res["standings"] == [row("A", 70, True), row("B", 70, True), row("C", 0, False)]


def test_star_reporter_the_highest_credit_wins_and_a_tie_shares_it():
    """'Players now add up their score from the points on the cards and the one having the highest
    credit becomes the Star Reporter.' Ann's 50-point Catastrophe beats Bob's 25-point Disaster;
    then Ann's 30 of news against Bob's 10 + 20 is a tie."""
    s = star.start(names=("Ann", "Bob"), disasters=2)
    s, _ = star.throw(s, star.ANN, "automobile", (6, 6))
    s, _ = star.throw(s, star.BOB, "automobile", (6, 6))
    s, _ = star.throw(s, star.ANN, "train", (6, 6))
    s, _ = star.throw(s, star.BOB, "automobile", (6, 6))
    s, _ = star.act(s, {"type": "disaster", "player": star.BOB, "points": 25, "card": 1})
    s = star.drive(s, star.ANN)
    assert star_reporter.GAME.result(s)["standings"] == [row("Ann", 0, False), row("Bob", 25, False)]
    s, _ = star.act(s, {"type": "catastrophe", "player": star.ANN, "points": 50})
    assert star_reporter.GAME.result(s) == {"over": True, "winners": ["Ann"], "teams": [], "score_kind": "points",
                                       "standings": [row("Ann", 50, True), row("Bob", 25, False)]}

    s = star.start(names=("Ann", "Bob"), disasters=1)
    s = star.drive(s, star.ANN)
    s, _ = star.act(s, {"type": "news", "player": star.ANN, "points": 30})
    s, _ = star.throw(s, star.BOB, "automobile", (6, 6))
    s, _ = star.throw(s, star.ANN, "automobile", (6, 6))
    s = star.drive(s, star.BOB)
    s, _ = star.act(s, {"type": "disaster", "player": star.BOB, "points": 10})
    s = star.drive(star.drive(s, star.ANN), star.BOB)       # the Catastrophe's city: another move
    s, _ = star.act(s, {"type": "catastrophe", "player": star.BOB, "points": 20})
    assert star_reporter.GAME.result(s)["standings"] == [row("Ann", 30, True), row("Bob", 30, True)]


def test_get_the_scoop_every_van_holding_a_protester_wins_and_nobody_scores():
    """'If there is a Protester in a Player's corner (the camera van), that Player wins and the game
    is over! There can be multiple winners.' The game keeps no score."""
    s = gts.start(first=2)
    s = gts.quiet_round(s)
    s, _ = gts.act(s, {"type": "reveal", "plays": []})
    assert get_the_scoop.GAME.result(s)["over"] is False
    s, _ = gts.act(s, {"type": "check", "winners": [3, 1]})
    assert get_the_scoop.GAME.result(s) == {
        "over": True, "winners": ["Bob", "Dan"], "teams": [], "score_kind": None,
        "standings": [row("Ann", None, False), row("Bob", None, True), row("Cat", None, False), row("Dan", None, True)]}


# ---------------------------------------------------------------- the shared guard

# a table of each game whose random play ends (Get the Scoop! on the table's own board, where the
# table says whose van holds a Protester)
ONE_EACH = [next(t for t in TABLES if t[0] is e and (e is not get_the_scoop.GAME or t[2].get("board") == "table"))
            for e in ENGINES]


@pytest.mark.parametrize("engine, names, options", ONE_EACH, ids=[t[0].name for t in ONE_EACH])
def test_every_engine_refuses_the_same_things_in_the_same_order(engine, names, options):
    """Not set up, then over, then not an action, then a move the game doesn't have: one guard,
    so a finished game says it is over whatever is sent to it."""
    with pytest.raises(GameError, match="set up"):
        engine.decide(engine.initial(), {"type": "anything"}, random.Random(0))
    state = start(engine, names, options)
    with pytest.raises(GameError, match="^an action is a dict"):
        engine.decide(state, ["not", "an", "action"], random.Random(0))
    with pytest.raises(GameError, match="has no action 'juggle'"):
        engine.decide(state, {"type": "juggle"}, random.Random(0))
    ended = next(s for s in walk(engine, state, random.Random(3), 5000) if engine.result(s)["over"])
    for junk in ({"type": "juggle"}, {"type": None}, "junk"):
        with pytest.raises(GameError, match="over|press"):
            engine.decide(ended, junk, random.Random(0))
