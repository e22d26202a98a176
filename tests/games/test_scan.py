"""SCAN (Parker Brothers, 1988) through the engine: setup -> hands on the WE/THEY sheet -> winner."""

import random

import pytest
from hypothesis import given, settings, strategies as st
from walk import SKIP, Walk, check_junk_setup

from controller.games.base import GameError, declared, fold
from controller.games.scan import GAME as game, rules

SUITS = ("spades", "hearts", "diamonds", "clubs")
DECK = [suit for suit in SUITS for _ in range(13)]


def start(names=("Ann", "Bob", "Cat", "Dan"), teams=None, **options):
    teams = teams or [None] * len(names)
    state = game.initial()
    for ev in game.setup([{"name": n, "colour": None, "team": t} for n, t in zip(names, teams)], options):
        state = game.apply(state, ev)
    return state


def hand(state, taken):
    events = game.decide(state, {"type": "hand", "taken": taken}, random.Random(0))
    for ev in events:
        state = game.apply(state, ev)
    return state, events


def cards(s=0, h=0, d=0, c=0):
    return {"spades": s, "hearts": h, "diamonds": d, "clubs": c}


def rest(*rows):
    """What the other side took: the rest of the 13 per suit."""
    return {suit: 13 - sum(r[suit] for r in rows) for suit in SUITS}


WE, THEY = "Ann & Cat", "Bob & Dan"


def test_two_players_each_scored_alone_head_the_sheet_by_name_not_we_and_they():
    """'Start a scoresheet with two columns -- "WE" and "THEY."' is Team SCAN's: two players
    "scored individually" (Without Partners, No Trump) were headed WE (Ann) and THEY (Bob) on a
    tablet both of them read, and each hand said "WE +195"."""
    s = start(names=("Ann", "Bob"), variant="individual")
    assert [c["label"] for c in game.view(s)["columns"]] == ["Ann", "Bob"]
    s2 = start(names=("Ann", "Bob"), variant="no_trump")
    assert [c["label"] for c in game.view(s2)["columns"]] == ["Ann", "Bob"]
    assert [c["label"] for c in game.view(start())["columns"]] == ["WE", "THEY"]       # Team SCAN's partners


def test_team_scan_partners_sit_opposite_and_the_sheet_is_we_they():
    """'Sit opposite your partner.' ... 'Start a scoresheet with two columns -- "WE" and "THEY."'"""
    view = game.view(start())
    assert [(c["label"], c["players"]) for c in view["columns"]] == [
        ("WE", ["Ann", "Cat"]), ("THEY", ["Bob", "Dan"])]
    assert view["deal"] == 7 and "no trump once the stock is gone" in view["trump"]


def test_a_whole_team_game_races_to_155():
    """'The first team to reach 155 points wins.' ... 'the +10 and -10 cards cancel one another
    out, and the +5 and -5 cards do the same; add up what's left for your score. The team with a
    + score scores that amount; the other team scores nothing.'"""
    s = start()
    we = cards(s=9, h=7, d=6, c=2)               # (9-2)*10 + (7-6)*5 = 75, six tricks
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert ev[0]["values"] == {WE: 75, THEY: -75}
    assert ev[0]["points"] == {WE: 75, THEY: 0}
    they = cards(s=8, h=6, d=5, c=5)             # (8-5)*10 + (6-5)*5 = 35
    s, _ = hand(s, {THEY: they, WE: rest(they)})
    we = cards(s=10, h=8, d=2, c=4)              # (10-4)*10 + (8-2)*5 = 90: 75 + 90 = 165
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert ev[-1] == {"type": "won", "sides": [WE], "reason": "target"}
    view = game.view(s)
    assert [r["totals"] for r in view["rows"]] == [[75, 0], [75, 35], [165, 35]]
    assert view["race"][1]["to_go"] == 155 - 35 and view["winners"] == [WE]
    with pytest.raises(GameError, match="over: Ann & Cat won"):
        hand(s, {WE: we, THEY: rest(we)})


def test_the_deal_passes_to_the_left():
    """'The deal passes to the left of the initial dealer.'"""
    s = start(dealer=3)
    dealers = []
    for _ in range(3):
        dealers.append(game.view(s)["dealer"])
        s, _ = hand(s, {WE: cards(13, 13, 13, 13), THEY: cards()})
    assert dealers == ["Dan", "Ann", "Bob"]


def test_a_hand_is_checked_against_the_deck():
    """'Deck of 52 color-coded playing cards': 13 of each suit, all taken in Team SCAN."""
    s = start()
    with pytest.raises(GameError, match="hand 1: the spades add up to 14, but the deck has 13"):
        hand(s, {WE: cards(s=7, h=13, d=13, c=13), THEY: cards(s=7)})
    with pytest.raises(GameError, match="hand 1: 51 cards entered, but this game takes all 52; check"):
        hand(s, {WE: cards(s=12, h=13, d=13, c=13), THEY: cards()})
    with pytest.raises(GameError, match="Bob & Dan's cards are missing"):
        hand(s, {WE: cards(13, 13, 13, 13)})
    with pytest.raises(GameError, match="Eve is not a side"):
        hand(s, {WE: cards(13, 13, 13, 13), THEY: cards(), "Eve": cards()})
    with pytest.raises(GameError, match="spades must be a count 0-13"):
        hand(s, {WE: cards(s=-1), THEY: cards()})
    assert s["sheet"] == []


def test_teams_given_to_scan_without_partners_are_refused_not_ignored():
    with pytest.raises(GameError) as e:
        start(teams=["A", "B", "C", "A"], variant="individual")
    said = str(e.value)
    assert said.startswith("SCAN Without Partners is played without teams: leave every Team field empty")
    assert "Team SCAN, Triple SCAN, No Trump SCAN" in said and "individual" not in said
    assert start(variant="individual")["started"]           # without teams it starts


def test_triple_scan_three_teams_deal_five_and_all_52_cards():
    """'TRIPLE SCAN (For 6 players, playing in 3 teams) Deal 5 cards to each player.' Its own text
    says nothing of putting cards aside, so by default a hand takes all 52 cards: eight whole
    tricks of six and a short last trick of the four cards that don't go round."""
    names = ("A", "B", "C", "D", "E", "F")
    s = start(names, teams=["x", "y", "z", "x", "y", "z"], variant="triple")
    assert [c["players"] for c in game.view(s)["columns"]] == [["A", "D"], ["B", "E"], ["C", "F"]]
    assert game.view(s)["deal"] == 5 and game.view(s)["cards_per_hand"] == 52
    # 8 tricks of 6 and a short last one of 4 (the players who could still draw): x took it
    after, ev = hand(s, {"x": cards(13, 13, 2), "y": cards(0, 0, 11, 1), "z": cards(0, 0, 0, 12)})   # 52
    assert ev[0]["points"] == {"x": 185, "y": 0, "z": 0}
    with pytest.raises(GameError, match="hand 1: x took 26 cards, .* a multiple of 6 \\(24 or 30, not 26\\), "
                                        "and one side the short last trick of the 4 cards that don't go round"):
        hand(s, {"x": cards(13, 13), "y": cards(0, 0, 13), "z": cards(0, 0, 0, 13)})
    with pytest.raises(GameError, match="6 players make 3 teams of 2"):
        start(names, teams=["x", "x", "x", "y", "y", "z"], variant="triple")


def test_triple_scan_may_put_aside_the_cards_that_cant_go_round():
    """Printed under SCAN Without Partners: 'If towards the end of the round there aren't enough
    cards left in the stock pile for each player to draw one, put the remaining stock cards aside,
    out of play.' An option in Triple SCAN: 6 x 5 dealt leaves 22 in the stock; the last 4 go
    aside and 48 cards are taken."""
    opt = next(o for o in game.options if o["name"] == "put_aside")
    assert opt["default"] is False and opt["variant"] == "triple" and opt["newsdesk"]
    names = ("A", "B", "C", "D", "E", "F")
    s = start(names, teams=["x", "y", "z", "x", "y", "z"], variant="triple", put_aside=True)
    taken = {"x": cards(13, 5, 0, 0), "y": cards(0, 8, 4, 0), "z": cards(0, 0, 9, 9)}   # 48: 18 + 12 + 18
    _, ev = hand(s, taken)
    assert ev[0]["points"] == {"x": 130 + 25, "y": 40 - 20, "z": 0}
    with pytest.raises(GameError, match="52 cards entered, but this game takes 48"):
        hand(s, {"x": cards(13, 13), "y": cards(0, 0, 13), "z": cards(0, 0, 0, 13)})
    with pytest.raises(GameError, match="“Triple SCAN: put aside the stock cards that can't go round” is yes .* or no"):
        start(names, variant="triple", put_aside="yes")


@pytest.mark.parametrize("n,deal,taken", [(2, 7, 52), (3, 7, 51), (4, 7, 52), (5, 5, 50), (6, 5, 48)])
def test_without_partners_deals_and_puts_the_odd_cards_aside(n, deal, taken):
    """'every player plays and is scored individually ... For 5 and 6 players, deal 5 cards to
    each. If towards the end of the round there aren't enough cards left in the stock pile for
    each player to draw one, put the remaining stock cards aside, out of play.'"""
    names = ["P%d" % i for i in range(n)]
    s = start(names, variant="individual")
    view = game.view(s)
    assert view["deal"] == deal and view["cards_per_hand"] == taken
    assert [c["side"] for c in view["columns"]] == names
    rows = {name: cards() for name in names}
    for i, suit in enumerate(DECK[:taken]):         # `taken` cards in tricks of n, round the table
        rows[names[i // n % n]][suit] += 1
    s, ev = hand(s, rows)
    assert sum(sum(r.values()) for r in ev[0]["taken"].values()) == taken


def test_no_trump_scan_deals_two_and_plays_in_three_teams_with_six():
    """'NO TRUMP SCAN ... Deal 2 cards to each player. ... The hand ends when the stock pile has
    been exhausted ... For 6 players, play in 3 teams.'"""
    s = start(("A", "B", "C"), variant="no_trump")
    view = game.view(s)
    assert view["deal"] == 2 and view["trump"].startswith("no trump")
    assert len(view["columns"]) == 3
    # 46 in the stock, 1 put aside (at the last draw that goes round, or a trick later); the
    # cards each still holds may or may not be played out
    assert view["cards_per_hand"] == [52 - 1 - 6, 51] and view["cards_per_hand_choices"] == [45, 48, 51]
    # the hand form's "this game takes ...": as the refusal says it, not "45 or 48 or 51"
    assert view["cards_per_hand_said"] == "45, 48 or 51"
    assert game.view(start(("A", "B", "C", "D")))["cards_per_hand_said"] == "52"
    for clubs in (6, 9, 12):                                                              # 45, 48, 51
        after, _ = hand(s, {"A": cards(3, 3), "B": cards(10, 10, 13), "C": cards(0, 0, 0, clubs)})
        assert after["totals"] == {"A": 45, "B": 85, "C": 0}
    with pytest.raises(GameError, match="49 cards entered, but this game takes 45, 48 or 51"):
        hand(s, {"A": cards(3, 3), "B": cards(10, 10, 13), "C": cards(0, 0, 0, 10)})
    with pytest.raises(GameError, match="47 cards entered, but this game takes 45, 48 or 51 of the 52"):
        hand(s, {"A": cards(3, 3), "B": cards(10, 10, 13), "C": cards(0, 0, 0, 8)})
    six = game.view(start(("A", "B", "C", "D", "E", "F"), variant="no_trump"))
    assert [c["players"] for c in six["columns"]] == [["A", "D"], ["B", "E"], ["C", "F"]]



def test_the_start_form_is_told_with_how_many_players_no_trump_is_played_in_teams():
    """No Trump SCAN with 3 players showed the team fields and "partners sit opposite", though it
    plays in teams only with 6 ("For 6 players, play in 3 teams") or, newsdesk's, 4: the panel
    facts say with how many players each variant takes teams, as setup does."""
    facts = game.panel
    seats = facts.get("team_seats") or {}
    assert seats == {"no_trump": [4, 6]}
    for variant in facts["team_variants"]:
        low, high = rules.PLAYERS[variant]
        for n in range(low, high + 1):
            names = ["P%d" % i for i in range(n)]
            teams = ["T%d" % (i % max(1, n // 2)) for i in range(n)]
            wanted = variant not in seats or n in seats[variant]
            try:
                start(names, teams, variant=variant)
                taken = True
            except GameError:
                taken = False
            assert taken == wanted, (variant, n)


def test_the_start_form_is_told_where_empty_teams_mean_each_plays_alone():
    """No Trump SCAN with 4 players and the teams left empty is played by each alone, yet the start
    form's hint said "leave teams empty (partners sit opposite)": the panel facts say with how many
    players a variant's teams are the table's choice, none meaning each alone, as setup does."""
    facts = game.panel
    optional = facts.get("teams_optional") or {}
    assert optional == {"no_trump": [4]}
    seats = facts["team_seats"]
    for variant in facts["team_variants"]:
        low, high = rules.PLAYERS[variant]
        for n in range(low, high + 1):
            if variant in seats and n not in seats[variant]:
                continue
            names = ["P%d" % i for i in range(n)]
            alone = all(len(side["players"]) == 1 for side in start(names, variant=variant)["sides"])
            assert alone == (n in optional.get(variant, [])), (variant, n)
@pytest.mark.parametrize("players, options, word", [
    (("A", "B", "C"), {"variant": "no_trump"}, "player"),
    (("A", "B", "C", "D"), {"variant": "individual"}, "player"),
    (("A", "B"), {"variant": "individual"}, "player"),
    (("A", "B", "C", "D", "E", "F"), {"variant": "no_trump"}, "side"),
    (("A", "B", "C", "D"), {}, "side"),
    (("A", "B", "C", "D", "E", "F"), {"variant": "triple"}, "side"),
])
def test_the_hand_form_asks_for_each_players_cards_where_each_plays_alone(players, options, word):
    """SCAN Without Partners ("every player plays and is scored individually") and No Trump
    played individually asked for "the cards each side took"; a side is a team: each player."""
    assert game.view(start(players, **options))["side_word"] == word


@pytest.mark.parametrize("last, taken", [("ended", [45, 48]), ("played", [51]), (None, [45, 48, 51])])
def test_no_trump_scan_takes_one_reading_of_the_cards_left_in_hand_when_the_table_chooses(last, taken):
    """Whether the cards in hand when the stock runs out are played is not said: an option
    ("no_trump_last", newsdesk's, both by default; null is the default), not a guess."""
    s = start(("A", "B", "C"), variant="no_trump", no_trump_last=last)
    assert game.view(s)["cards_per_hand_choices"] == taken
    for count, clubs in ((45, 6), (51, 12)):
        play = {"A": cards(3, 3), "B": cards(10, 10, 13), "C": cards(0, 0, 0, clubs)}
        if count in taken:
            hand(s, play)
        else:
            with pytest.raises(GameError, match="%d cards entered, but this game takes %s of the 52"
                                                % (count, " or ".join(map(str, taken)))):
                hand(s, play)
    opt = next(o for o in game.options if o["name"] == "no_trump_last")
    assert opt["newsdesk"] and opt["default"] == "either" and opt["variant"] == "no_trump"


@pytest.mark.parametrize("n,counts", [(3, [45, 48, 51]), (5, [40, 45, 50]), (6, [36, 42, 48])])
@pytest.mark.parametrize("last,kept", [(None, slice(None)), ("ended", slice(0, 2)), ("played", slice(2, 3))])
def test_no_trump_scan_puts_the_stock_cards_that_cant_go_round_aside_at_either_draw(n, counts, last, kept):
    """'The hand ends when the stock pile has been exhausted; if there aren't enough cards left in
    the stock pile for each player to draw one, put the remaining cards aside, out of play.' With 3
    players, 2 dealt each, the draw after the 15th trick leaves 1 card: a table puts it aside then
    (the hand ends, 45 cards taken) or, as the words have it, when the players come to draw it
    after the 16th trick (48 taken). The hand ends with the stock either way: both counts are
    taken, as is the hand played out (51)."""
    names = ["P%d" % i for i in range(n)]
    s = start(names, variant="no_trump", no_trump_last=last)
    assert game.view(s)["cards_per_hand_choices"] == counts[kept]
    sides = [c["side"] for c in game.view(s)["columns"]]
    for count in counts:
        rows = {side: cards() for side in sides}
        for i, suit in enumerate(DECK[:count]):         # whole tricks of n, round the sides
            rows[sides[i // n % len(sides)]][suit] += 1
        if count in counts[kept]:
            assert hand(s, rows)[1][0]["type"] == "hand_scored"
        else:
            with pytest.raises(GameError, match="%d cards entered, but this game takes" % count):
                hand(s, rows)
    assert "put aside" in declared(rules.OPTIONS, "no_trump_last")["help"]


def test_team_scan_partners_given_side_by_side_are_refused():
    """'Sit opposite your partner.': the players are listed in their seats (the deal passes to the
    next), so teams that put partners side by side are a slip in the list or in the teams."""
    for teams in (["x", "x", "y", "y"], ["x", "y", "y", "x"]):
        with pytest.raises(GameError, match="partners sit opposite: list the players in their seats"):
            start(teams=teams)
    assert [c["players"] for c in game.view(start(teams=["x", "y", "x", "y"]))["columns"]] == [
        ["Ann", "Cat"], ["Bob", "Dan"]]


def test_pairs_whose_joined_names_are_alike_are_refused_at_the_start():
    """Each side is its own column of the scoresheet. Players "X & Y", "X", "Z", "Y & Z" paired
    opposite make two pairs called "X & Y & Z": one column counted twice, and every hand after
    was refused (its suits added up to 26), a game that could only be abandoned."""
    with pytest.raises(GameError, match='two pairs would both be called "X & Y & Z"'):
        start(names=("X & Y", "X", "Z", "Y & Z"))
    with pytest.raises(GameError, match="two pairs would both be called"):
        start(names=("A", "A & B", "D", "B & C", "C", "E"), variant="triple")     # A & B & C twice
    assert [c["players"] for c in game.view(start(names=("X & Y", "X", "Z", "Y & Z"),
                                                  teams=["p", "q", "p", "q"]))["columns"]] == [["X & Y", "Z"], ["X", "Y & Z"]]


@pytest.mark.parametrize("name", ["variant", "target_tie", "plus_scores", "dealer", "no_trump_last"])
def test_a_null_option_is_its_default(name):
    """The API says "null or missing: the default", of every option."""
    assert game.view(start(**{name: None}))["variant"] == "team"


@pytest.mark.parametrize("name, value", [("target_tie", "all"), ("plus_scores", "best")])
def test_team_scan_is_not_asked_about_ties_its_two_sides_cant_have(name, value):
    """Team SCAN's two sides take all 52 cards, whose values cancel to 0: one side comes out +,
    so one side scores a hand and one can reach 155 in it. The start form asked "Two sides
    reaching 155 in one hand" and "More than one side with a + score" there too; they are the
    other variants' options now, and Team SCAN set otherwise is told so, not played without it."""
    opt = declared(rules.OPTIONS, name)
    assert opt["variant"] == ["triple", "individual", "no_trump"]
    with pytest.raises(GameError, match="is an option of Triple SCAN, SCAN Without Partners or No Trump SCAN: "
                                        "choose one of those variants too, or leave it out"):
        start(**{name: value})
    assert game.view(start(**{name: opt["default"]}))["variant"] == "team"
    assert game.view(start(("A", "B", "C"), variant="individual", **{name: value}))["variant"] == "individual"


def test_only_a_positive_side_scores_and_several_can_with_cards_aside():
    """'The team with a + score scores that amount; the other team scores nothing.'"""
    s = start(("A", "B", "C"), variant="individual")          # 51 cards taken
    s, ev = hand(s, {"A": cards(6, 0, 0, 0), "B": cards(7, 5, 0, 0), "C": cards(0, 8, 13, 12)})
    assert ev[0]["points"] == {"A": 60, "B": 95, "C": 0}
    assert ev[0]["values"]["C"] == 40 - 65 - 120


def test_when_more_than_one_side_comes_out_ahead_the_option_says_who_scores():
    """Two teams of No Trump SCAN, the hand not played out (48 cards taken): both come out +,
    which the rules' "the other team scores nothing" doesn't foresee. By default each scores its
    + score; "best" gives the hand to the best only (equal bests each score)."""
    teams = ["we", "they", "we", "they"]
    taken = {"we": cards(13, 0, 0, 7), "they": cards(0, 13, 11, 0)}            # 44 cards: +60 and +10
    s, ev = hand(start(variant="no_trump", teams=teams), taken)
    assert ev[0]["values"] == {"we": 60, "they": 10} and ev[0]["points"] == {"we": 60, "they": 10}
    s, ev = hand(start(variant="no_trump", teams=teams, plus_scores="best"), taken)
    assert ev[0]["points"] == {"we": 60, "they": 0} and s["totals"] == {"we": 60, "they": 0}
    level = {"we": cards(0, 11, 8, 1), "they": cards(10, 2, 3, 9)}             # +5 and +5: both best
    assert hand(start(variant="no_trump", teams=teams, plus_scores="best"), level)[1][0]["points"] == {
        "we": 5, "they": 5}
    with pytest.raises(GameError, match="More than one side with a \\+ score in a hand"):
        start(plus_scores="most")


def test_a_time_limit_game_ends_on_time_up_with_the_highest_score():
    """'Alternately, set a time limit: The winners are the team with the highest score at the end
    of that time.' The engine reads no clock: setup takes the countdown's end, the panel shows
    the countdown, and the engine hears that time is up."""
    s = start(time_limit=30, ends_at="2024-05-01T21:30:00Z")
    view = game.view(s)
    assert view["time_limit_minutes"] == 30 and view["target"] is None
    assert view["countdown"]["ends_at"] == view["ends_at"] == "2024-05-01T21:30:00+00:00"
    assert "no clock" in view["countdown"]["clock"] and "Time up" in view["countdown"]["clock"]
    assert {"type": "time_up"} in game.offers(s)
    we = cards(13, 13, 2, 0)                         # 185: past 155, but the clock decides
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert len(ev) == 1 and not s["winners"]
    they = cards(13, 13, 2, 0)
    s, _ = hand(s, {THEY: they, WE: rest(they)})
    s, _ = hand(s, {THEY: they, WE: rest(they)})
    events = game.decide(s, {"type": "time_up"}, random.Random(0))
    assert events[-1] == {"type": "won", "sides": [THEY], "reason": "time"}
    with pytest.raises(GameError, match="races to 155; there is no time limit"):
        game.decide(start(), {"type": "time_up"}, random.Random(0))
    with pytest.raises(GameError, match="“Time limit in minutes” is a whole number 1-1440"):
        start(time_limit="soon")
    assert game.view(start())["countdown"] is None


def test_the_countdown_can_be_given_by_its_end_alone_and_is_checked():
    """The countdown's end is given at setup ('set a time limit'); a time without its UTC offset
    would be read differently by different tablets, so it is refused."""
    s = start(ends_at="2024-05-01T21:30:00+01:00")
    assert game.view(s)["countdown"]["ends_at"] == "2024-05-01T21:30:00+01:00"
    assert game.view(s)["countdown"]["minutes"] is None and game.view(s)["target"] is None
    for bad in ("2024-05-01T21:30:00", "at half past nine", "", 1714595400):
        with pytest.raises(GameError, match="“When the countdown ends” is an ISO 8601 time"):
            start(ends_at=bad)


def test_a_tie_on_time_is_shared():
    """'The winners are the team with the highest score at the end of that time.' Equal highest
    scores share the win (newsdesk's ruling; the rules don't say)."""
    s = start(("A", "B", "C"), variant="individual", time_limit=20)
    s, _ = hand(s, {"A": cards(5, 4, 0, 0), "B": cards(5, 4, 0, 0), "C": cards(3, 5, 13, 12)})   # 51
    events = game.decide(s, {"type": "time_up"}, random.Random(0))
    assert events[-1] == {"type": "won", "sides": ["A", "B"], "reason": "time"}
    # the start form's hint and docs/games.md say so (they said nothing of a tie on time)
    assert "share the win" in declared(rules.OPTIONS, "time_limit")["help"]


@pytest.mark.parametrize("tie,winners", [("highest", ["B"]), ("all", ["A", "B"])])
def test_two_sides_reaching_155_in_the_same_hand(tie, winners):
    """'The first team to reach 155 points wins.' With three sides two can get there in the same
    hand; the rules don't say who wins then, so it is the "target_tie" option (newsdesk's default:
    the highest total)."""
    s = start(("A", "B", "C"), variant="individual", target_tie=tie)
    s, _ = hand(s, {"A": cards(12, 0, 0, 0), "B": cards(0, 12, 0, 0), "C": cards(1, 1, 13, 12)})
    s, _ = hand(s, {"A": cards(0, 9, 0, 0), "B": cards(12, 0, 0, 0), "C": cards(1, 4, 13, 12)})
    assert s["totals"] == {"A": 165, "B": 180, "C": 0}
    assert s["winners"] == winners and game.view(s)["winners"] == winners
    with pytest.raises(GameError, match="“Two sides reaching 155 in one hand” is “the highest total"):
        start(target_tie="coin")


def test_setup_refuses_wrong_tables():
    """'HOW TO PLAY TEAM SCAN (For 4 players)'; 'SCAN WITHOUT PARTNERS (For 2 to 6 players)'."""
    with pytest.raises(GameError, match="Team SCAN is for 4 players, not 3"):
        start(("A", "B", "C"))
    with pytest.raises(GameError, match="SCAN Without Partners is for 2 to 6 players, not 7"):
        start(tuple("ABCDEFG"), variant="individual")
    with pytest.raises(GameError, match="give every player a team, or none"):
        start(teams=["x", None, "x", "y"])
    with pytest.raises(GameError, match="no variant"):
        start(variant="bridge")


# ---------------------------------------------------------------- properties

def _hand_from(draw, variant, n, sides):
    """A hand drawn at random: mostly a legal card count, sometimes not, dealt to random sides in
    whole tricks (one card from each player) or, sometimes, card by card. Returns (hand, whether
    it was dealt in tricks)."""
    legal = rules.hand_sizes(variant, n)
    count = draw(st.one_of(st.sampled_from(legal), st.integers(0, 52)))
    deck = draw(st.permutations(DECK))
    in_tricks = draw(st.booleans())
    out = {s: cards() for s in sides}
    step = n if in_tricks else 1
    for at in range(0, count, step):
        side = sides[draw(st.integers(0, len(sides) - 1))]
        for suit in deck[at:min(at + step, count)]:
            out[side][suit] += 1
    return out, in_tricks


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data(), variant=st.sampled_from(sorted(rules.VARIANTS)), n=st.integers(2, 6))
def test_random_hands_keep_the_sheet_consistent_and_replay_identically(data, variant, n):
    """Per suit no more than 13 are taken ('13 per suit'); each hand's points are its side's
    cancel-out value when positive, else 0; totals are the sum of the sheet; replay is identical."""
    low, high = rules.PLAYERS[variant]
    n = min(max(n, low), high)
    names = ["P%d" % i for i in range(n)]
    setup = game.setup([{"name": x} for x in names], {"variant": variant})
    state = game.initial()
    for ev in setup:
        state = game.apply(state, ev)
    entries = [(0, {"type": "setup", "events": setup})]
    sides = [s["name"] for s in state["sides"]]
    for i in range(data.draw(st.integers(1, 12))):
        if state["winners"]:
            break
        taken, in_tricks = _hand_from(data.draw, variant, n, sides)
        try:
            events = game.decide(state, {"type": "hand", "taken": taken}, random.Random(i))
        except GameError as e:
            total = sum(sum(r.values()) for r in taken.values())
            assert total not in rules.hand_sizes(variant, n) or not in_tricks, e
            continue
        for ev in events:
            state = game.apply(state, ev)
        entries.append((i + 1, {"type": "hand", "events": events}))
        row = state["sheet"][-1]
        for suit in SUITS:
            assert sum(row["taken"][s][suit] for s in sides) <= 13
        for side in sides:
            t = row["taken"][side]
            value = 10 * t["spades"] + 5 * t["hearts"] - 5 * t["diamonds"] - 10 * t["clubs"]
            assert row["points"][side] == max(0, value)
            assert state["totals"][side] == sum(r["points"][side] for r in state["sheet"])
        game.view(state)
    assert fold(game, entries) == state


def _legal_hand(rng, variant, n, sides):
    """A legal hand: one of the variant's card counts, dealt from a shuffled deck to the sides a
    trick (one card from each of the n players) at a time; Triple SCAN's four cards that don't go
    round make a short last trick."""
    deck = list(DECK)
    rng.shuffle(deck)
    out = {s: cards() for s in sides}
    count = rng.choice(rules.hand_sizes(variant, n))
    for at in range(0, count, n):
        side = rng.choice(sides)
        for suit in deck[at:min(at + n, count)]:
            out[side][suit] += 1
    return out


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(sorted(rules.VARIANTS)), n=st.integers(2, 6),
       tie=st.sampled_from(sorted(rules.TARGET_TIES)))
def test_whole_games_end_when_a_side_reaches_155(seed, variant, n, tie):
    """'The first team to reach 155 points wins.' Legal hands until the game ends: it ends on the
    first hand that takes a side to 155, and the winners are at 155 or more (the highest of them
    unless "target_tie" is "all")."""
    low, high = rules.PLAYERS[variant]
    n = min(max(n, low), high)
    rng = random.Random(seed)
    s = start(["P%d" % i for i in range(n)], variant=variant, **({"target_tie": tie} if variant != "team" else {}))
    sides = [x["name"] for x in s["sides"]]
    for _ in range(400):
        assert max(s["totals"].values()) < 155
        s, ev = hand(s, _legal_hand(rng, variant, n, sides))
        if s["winners"]:
            break
    totals = s["totals"]
    assert ev[-1]["type"] == "won" and s["winners"]
    assert all(totals[w] >= 155 for w in s["winners"])
    if tie == "highest":
        assert all(totals[w] == max(totals.values()) for w in s["winners"])
    else:
        assert set(s["winners"]) == {x for x in sides if totals[x] >= 155}
    assert game.offers(s) == []


JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 14) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["spades", "hearts", "Ann & Cat", "Bob & Dan", "x"]),
                    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(
                        st.sampled_from(["spades", "hearts", "diamonds", "clubs", "Ann & Cat", "Bob & Dan", "?"]),
                        inner, max_size=4),
                    max_leaves=10)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data(), hands=st.integers(0, 6), timed=st.booleans(),
       kind=st.sampled_from(["hand", "hand", "time_up", "nope", None, 3, ["hand"]]))
def test_junk_actions_raise_game_error_only(data, hands, timed, kind):
    """Unknown types, missing or strange sides and suits, counts out of range or of the wrong
    type, time_up in a race to 155, and anything after the game is over: always a GameError with
    a sentence, never another error."""
    rng = random.Random(hands)
    s = start(time_limit=30 if timed else None)
    for _ in range(hands):                            # somewhere into a game (or past its end)
        if s["winners"]:
            break
        s, _ = hand(s, _legal_hand(rng, "team", 4, [WE, THEY]))
    action = {"type": kind}
    if data.draw(st.booleans()):
        action["taken"] = data.draw(JUNK)
    action = data.draw(st.sampled_from([action, action, action, None, [action], "hand"]))
    try:
        events = game.decide(s, action, rng)
    except GameError as e:
        assert str(e) and str(e)[0] != " "
        return
    for ev in events:
        s = game.apply(s, ev)
    game.view(s)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32), variant=st.sampled_from(sorted(rules.VARIANTS)),
       n=st.integers(2, 6), timed=st.booleans())
def test_undo_and_redo_fold_back_to_the_same_states(data, seed, variant, n, timed):
    """Any run of hands, time_up, undos (the newest move in force) and redos: an undo gives back
    exactly the sheet before the move, a redo the sheet after it, and folding the stored entries
    (undo/redo entries included) gives the state the game is in."""
    low, high = rules.PLAYERS[variant]
    n = min(max(n, low), high)
    rng = random.Random(seed)
    walk = Walk(game, game.setup([{"name": "P%d" % i} for i in range(n)],
                                 {"variant": variant, "time_limit": 45 if timed else None}))
    sides = [x["name"] for x in walk.state["sides"]]

    def choose(state):
        if state["winners"]:
            return SKIP
        if timed and data.draw(st.integers(0, 9)) == 0:
            action = {"type": "time_up"}
        else:
            action = {"type": "hand", "taken": _legal_hand(rng, variant, n, sides)}
        return action["type"], game.decide(state, action, rng)

    for _ in range(data.draw(st.integers(3, 40))):
        walk.step(data.draw(st.integers(0, 4)), choose)
    assert walk.refolds()
    state = walk.state
    assert state["totals"] == {x: sum(r["points"][x] for r in state["sheet"]) for x in sides}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_junk_setups_raise_game_error_only(data):
    """Whatever a start form sends, setup either starts a game or says what to fix."""
    check_junk_setup(game, data, JUNK, ["variant", "dealer", "time_limit", "ends_at", "target_tie"])



@pytest.mark.parametrize("names,variant,taken,said", [
    (("Ann", "Bob", "Cat", "Dan"), "team", {WE: cards(9, 7, 4, 3), THEY: cards(4, 6, 9, 10)},       # 52
     "hand 1: Ann & Cat took 23 cards, but a trick is one card from each of the 4 players, so a side "
     "takes a multiple of 4 \\(20 or 24, not 23\\); check the counts \\(a table that counts differently "
     "starts its game with “Check that each side or player took whole tricks” off: a game under way keeps the "
     "options it started with\\)$"),
    (("A", "B", "C"), "individual", {"A": cards(5), "B": cards(8, 3), "C": cards(0, 10, 13, 12)},  # 51
     "hand 1: A took 5 cards, .* each of the 3 players, so a player takes a multiple of 3 \\(3 or 6, not 5\\)"),
    (tuple("ABCDE"), "individual", {"A": cards(10), "B": cards(3, 7), "C": cards(0, 6, 6),          # 50
                                    "D": cards(0, 0, 7, 1), "E": cards(0, 0, 0, 10)},
     "hand 1: C took 12 cards, .* so a player takes a multiple of 5 \\(10 or 15, not 12\\)"),
    (tuple("ABCDEF"), "individual", {"A": cards(7), "B": cards(6), "C": cards(0, 6), "D": cards(0, 5),  # 48
                                     "E": cards(0, 0, 12), "F": cards(0, 0, 0, 12)},
     "hand 1: A took 7 cards, .* so a player takes a multiple of 6 \\(6 or 12, not 7\\)"),
])
def test_a_side_takes_whole_tricks(names, variant, taken, said):
    """'Player left of dealer leads the first card face up to the table; ... Every player must
    follow suit if possible ... The trick is taken by the highest card of the suit led.' A trick
    holds one card from each player and goes whole to one side, so a side's take is a multiple of
    the number of players, in the 52, 51, 50 and 48-card deals alike: a count no deal can produce
    is refused with the reason, and nothing is scored. The check is switched off on the start
    form only: the refusal said "switch off ... if your table counts differently" to a game under
    way, which has no such switch."""
    assert sum(sum(r.values()) for r in taken.values()) in rules.hand_sizes(variant, len(names))
    s = start(names, variant=variant)
    with pytest.raises(GameError, match=said):
        hand(s, taken)
    assert s["sheet"] == []


@pytest.mark.parametrize("names, variant, word", [
    (("Ann", "Bob", "Cat", "Dan"), "team", "side"),
    (("Ann", "Bob", "Cat"), "individual", "player"),
    (("Ann", "Bob", "Cat", "Dan"), "no_trump", "player"),
    (tuple("ABCDEF"), "no_trump", "side"),
])
def test_the_refusals_call_a_side_what_the_view_does(names, variant, word):
    """Played individually (Without Partners, No Trump alone) the refusals said "a side takes a
    multiple of ...", "each side's cards", "not a side in this game" while the view says "player":
    they say what the view's side_word does."""
    s = start(names, variant=variant)
    assert game.view(s)["side_word"] == word
    with pytest.raises(GameError, match="each %s's cards per suit" % word):
        hand(s, [])
    with pytest.raises(GameError, match="Zed is not a %s in this game; the %ss are" % (word, word)):
        hand(s, {"Zed": cards(1)})
    with pytest.raises(GameError, match="is yes \\(a %s's cards are whole tricks" % word):
        start(names, variant=variant, whole_tricks="no")
    n, total = len(names), max(rules.hand_sizes(variant, len(names)))
    deck = [suit for suit in ("spades", "hearts", "diamonds", "clubs") for _ in range(13)][:total]
    sides = [side["name"] for side in s["sides"]]
    shares = [n + 1] + [n * ((total - n - 1) // n // (len(sides) - 1))] * (len(sides) - 2)
    shares.append(total - sum(shares))                  # the first side's n + 1 are no whole tricks
    taken, at = {}, 0
    for side, share in zip(sides, shares):
        taken[side] = {suit: deck[at:at + share].count(suit) for suit in ("spades", "hearts", "diamonds", "clubs")}
        at += share
    with pytest.raises(GameError, match="so a %s takes a multiple of %d" % (word, n)):
        hand(s, taken)


def test_a_table_that_counts_differently_can_switch_the_trick_check_off():
    """The check is the rules' reading (the default); "whole_tricks": false is a house rule for a
    table whose counts are not whole tricks (a dropped card, a misdeal played out)."""
    opt = next(o for o in game.options if o["name"] == "whole_tricks")
    assert opt["default"] is True and opt["kind"] == "boolean" and not opt["newsdesk"]
    s = start(whole_tricks=False)
    assert game.view(s)["whole_tricks"] is False and game.view(start())["whole_tricks"] is True
    s, ev = hand(s, {WE: cards(9, 7, 4, 3), THEY: cards(4, 6, 9, 10)})       # 23 and 29 cards
    assert ev[0]["points"] == {WE: 75, THEY: 0}
    with pytest.raises(GameError, match="“Check that each side or player took whole tricks” is yes .* or no"):
        start(whole_tricks="no")


def test_time_up_with_time_left_says_the_game_was_ended_early():
    """'The winners are the team with the highest score at the end of that time': the engine
    reads no clock, so the table's clock comes with the action ("at"). Pressed before the
    countdown's end, the game still ends on the highest score (the table chose to stop), but
    nothing says that time ran out; pressed at or after it, time ran out."""
    s = start(time_limit=30, ends_at="2024-05-01T21:30:00Z")
    we = cards(13, 13, 2, 0)
    s, _ = hand(s, {WE: we, THEY: rest(we)})
    early = game.decide(s, {"type": "time_up", "at": "2024-05-01T21:10:00+00:00"}, random.Random(0))
    assert early == [{"type": "time_up", "early": True}, {"type": "won", "sides": [WE], "reason": "stopped"}]
    assert game.describe(s, {"type": "time_up"}, early) == (
        "the game was ended before its time ran out; WE won with 185")
    ended = s
    for ev in early:
        ended = game.apply(ended, ev)
    countdown = game.view(ended)["countdown"]
    assert countdown["time_up"] and countdown["early"] and countdown["said"] == "The game was ended before its time ran out."
    for at in ("2024-05-01T21:30:00Z", "2024-05-01T22:31:00+01:00"):      # the end itself, and after it
        on_time = game.decide(s, {"type": "time_up", "at": at}, random.Random(0))
        assert on_time == [{"type": "time_up"}, {"type": "won", "sides": [WE], "reason": "time"}]
        assert game.describe(s, {"type": "time_up"}, on_time).startswith("time ran out; ")
    for bad in ("soon", "2024-05-01T21:10:00", 1714595400, ["x"]):
        with pytest.raises(GameError, match="“at” is the time .* ISO 8601"):
            game.decide(s, {"type": "time_up", "at": bad}, random.Random(0))


# A whole game of Team SCAN worked by hand from the rules, the first hand trick by trick. Ann,
# Bob, Cat and Dan sit in that order (Ann & Cat WE, Bob & Dan THEY); Ann deals, so Bob leads.
# The stock's top suit was trump for tricks 1-6 (hearts, clubs, spades, diamonds, hearts, spades);
# after the sixth trick's draws the stock is gone and the last 7 tricks are no trump.
HAND_ONE = [      # (the side that took it, the cards in the order played)
    (WE, "S5 S9 S2 SK"),     # 1  Bob leads; Ann's king
    (THEY, "D3 D9 DQ DA"),   # 2  Ann leads; Dan's ace
    (WE, "H4 H8 HJ S3"),     # 3  Dan leads; Cat, void in hearts, must trump (spades): the 3 takes it
    (WE, "C2 C10 CK C5"),    # 4  Cat leads; Ann's king
    (THEY, "S4 S6 S7 SA"),   # 5  Ann leads; Dan's ace
    (WE, "C3 C4 C6 C7"),     # 6  Dan leads; Cat's 7; the stock is gone
    (WE, "HA H2 H3 H5"),     # 7  Cat leads, no trump from here
    (WE, "SQ S8 S10 D2"),    # 8  Cat leads; Bob, void in spades, sluffs a diamond
    (THEY, "D4 D5 D6 D7"),   # 9  Cat leads; Bob's 7
    (THEY, "HK H10 H6 H7"),  # 10 Bob leads; his king
    (WE, "C9 CJ CQ CA"),     # 11 Bob leads; Ann's ace
    (WE, "HQ H9 C8 D8"),     # 12 Ann leads; Cat and Dan, void in hearts, sluff
    (WE, "SJ D10 DJ DK"),    # 13 Ann leads; the others' last cards are diamonds
]


def test_a_team_game_worked_by_hand_from_the_rules():
    """Worked from the rules alone, then played through the engine; every figure agreed.

    'Deal 7 cards to each player.' 13 tricks of 4 take all 52 cards. 'The quickest way to add up
    the value of the cards you've taken is to use the "cancel out" method, wherein the +10 and -10
    cards cancel one another out, and the +5 and -5 cards do the same; add up what's left for your
    score. The team with a + score scores that amount; the other team scores nothing.'

    Hand 1: WE take 9 of the 13 tricks and still score nothing: 9 spades cancel 9 of their 13
    clubs (4 clubs left, -40), 5 diamonds cancel 5 of their 9 hearts (4 hearts left, +20): -20.
    THEY: 4 spades (+40), 4 hearts cancel 4 of 8 diamonds (4 diamonds left, -20): +20, scored.
    Hand 3 cancels out to 0 for both: neither has a + score, so neither scores.
    'The first team to reach 155 points wins.': WE stop at 150, 5 short; THEY reach 155 exactly
    in hand 5 and win. 'The deal passes to the left of the initial dealer': Ann, Bob, Cat, Dan,
    Ann. A count no play can give (the trumped trick split between the sides: 35 cards and 17)
    is refused; after the win no hand is taken."""
    names = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    taken, played = {WE: cards(), THEY: cards()}, []
    for side, trick in HAND_ONE:
        for card in trick.split():
            taken[side][names[card[0]]] += 1
            played.append(card)
    assert len(set(played)) == 52
    assert taken == {WE: cards(s=9, h=9, d=5, c=13), THEY: cards(s=4, h=4, d=8, c=0)}
    s = start()
    with pytest.raises(GameError, match="hand 1: Ann & Cat took 35 cards, .* a multiple of 4 \\(32 or 36, not 35\\)"):
        hand(s, {WE: dict(taken[WE], spades=8), THEY: dict(taken[THEY], spades=5)})
    s, ev = hand(s, taken)
    assert ev[0]["values"] == {WE: -20, THEY: 20} and ev[0]["points"] == {WE: 0, THEY: 20}
    assert game.describe(start(), {"type": "hand"}, ev) == (
        "hand 1: WE took 9 spades, 9 hearts, 5 diamonds, 13 clubs and scored 0 (cards worth -20); "
        "THEY took 4 spades, 4 hearts, 8 diamonds and scored 20")
    we = cards(s=10, h=7, d=2, c=1)              # hand 2: (10-1)*10 + (7-2)*5 = 115
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert ev[0]["points"] == {WE: 115, THEY: 0}
    we = cards(s=6, h=4, d=4, c=6)               # hand 3: 0 and 0
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert ev[0]["values"] == {WE: 0, THEY: 0} and ev[0]["points"] == {WE: 0, THEY: 0}
    we = cards(s=8, h=6, d=5, c=5)               # hand 4: 30 + 5 = 35: WE on 150, not yet 155
    s, ev = hand(s, {WE: we, THEY: rest(we)})
    assert len(ev) == 1 and not s["winners"]
    they = cards(s=13, h=2, d=1, c=0)            # hand 5: 130 + 5 = 135: THEY on 155 exactly
    before = s
    s, ev = hand(s, {THEY: they, WE: rest(they)})
    assert ev[0]["values"] == {WE: -135, THEY: 135}
    assert ev[-1] == {"type": "won", "sides": [THEY], "reason": "target"}
    assert game.describe(before, {"type": "hand"}, ev).endswith("; THEY won with 155")
    view = game.view(s)
    assert [r["dealer"] for r in view["rows"]] == ["Ann", "Bob", "Cat", "Dan", "Ann"]
    assert [r["points"] for r in view["rows"]] == [[0, 20], [115, 0], [0, 0], [35, 0], [0, 135]]
    assert [r["totals"] for r in view["rows"]] == [[0, 20], [115, 20], [115, 20], [150, 20], [150, 155]]
    assert [r["to_go"] for r in view["race"]] == [5, 0] and view["winners"] == [THEY]
    with pytest.raises(GameError, match="over: Bob & Dan won"):
        hand(s, {THEY: they, WE: rest(they)})


def test_a_triple_game_worked_by_hand_where_two_teams_pass_155_together():
    """Triple SCAN, worked by hand: 'Deal 5 cards to each player.' 6 x 5 dealt leave 22 in the
    stock: three rounds of draws, then 4 cards for the trick-4 winner and the next three; with all
    52 played (newsdesk's default) a side's take is whole tricks of 6, one side holding the short
    last trick of 4 (16 = 6 + 6 + 4). 'The team with a + score scores that amount' is said of two
    teams; with three, two can come out + (newsdesk's default: each scores), and both can pass
    155 in one hand ('The first team to reach 155 points wins.' doesn't say which then:
    newsdesk's default, the highest total)."""
    six = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    for tie, winners in (("highest", ["Ann & Dan"]), ("all", ["Ann & Dan", "Bob & Eve"])):
        s = start(six, variant="triple", target_tie=tie)
        a, b, c = (side["name"] for side in s["sides"])
        assert (a, b, c) == ("Ann & Dan", "Bob & Eve", "Cat & Fay")       # partners opposite
        # 130 + 0 - 10 = 120 (16 cards); 60 - 30 = 30 (18); -30 - 120 = -150 (18)
        s, ev = hand(s, {a: cards(13, 1, 1, 1), b: cards(0, 12, 6, 0), c: cards(0, 0, 6, 12)})
        assert ev[0]["points"] == {a: 120, b: 30, c: 0}
        # 10 + 30 - 20 - 10 = 10 (12 cards); 120 + 15 - 5 - 20 = 110 (18); 20 - 40 - 100 = -120 (22)
        s, ev = hand(s, {a: cards(1, 6, 4, 1), b: cards(12, 3, 1, 2), c: cards(0, 4, 8, 10)})
        assert ev[0]["points"] == {a: 10, b: 110, c: 0} and s["totals"] == {a: 130, b: 140, c: 0}
        # 60 + 0 - 10 = 50 and -10 + 25 = 15, both +; -50 - 15 = -65
        s, ev = hand(s, {a: cards(8, 2, 4, 2), b: cards(5, 6, 1, 6), c: cards(0, 5, 8, 5)})
        assert ev[0]["points"] == {a: 50, b: 15, c: 0}
        assert s["totals"] == {a: 180, b: 155, c: 0} and s["winners"] == winners
