"""Star Reporter (Parker Brothers, 1937) through the engine: throws read for the method announced,
Disasters and the Catastrophe, points won -> the Star Reporter."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from controller.games.base import GameError, declared, fold
from controller.games.conformance import PRESENTATION
from controller.games.star_reporter import GAME as game, rules
from controller.games.star_reporter.view import NEEDS

ANN, BOB, CAT = 0, 1, 2


class Dice:
    """An rng that rolls what the test says (each die 1-6), so the box's rolls are known."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randrange(self, n):
        return self.faces.pop(0) - 1


BOARD = ["Baytown", "Lakeport", "Summit", "Port Royal", "Gulf City", "Hilltop Field"]   # a test board's airports


def start(names=("Ann", "Bob", "Cat"), **options):
    options.setdefault("first", 0)
    options.setdefault("airports", BOARD)
    state = game.initial()
    for ev in game.setup([{"name": n, "colour": None, "team": None} for n in names], options):
        state = game.apply(state, ev)
    return state


def act(state, action, rng=None):
    events = game.decide(state, action, rng or Dice())
    for ev in events:
        state = game.apply(state, ev)
    return state, events


def throw(state, p, method, dice, **more):
    return act(state, dict({"type": "throw", "player": p, "method": method, "dice": list(dice)}, **more))


def drive(state, p, dice=(2, 3)):
    return throw(state, p, "automobile", dice)[0]


def test_setup_players_disasters_and_who_starts():
    """'For 2 to 6 players' ... 'Players may vary the length of a game by deciding before it starts
    the number of Disaster Cards they wish to draw (usually 3 to 5)'."""
    view = game.view(start(disasters=3))
    assert view["disasters"] == {"before_catastrophe": 3, "drawn": 0, "open": []}
    assert game.view(start())["turn_name"] == "Ann"
    assert start(first=None)["disasters"] == rules.DEFAULT_DISASTERS
    with pytest.raises(GameError, match="2 to 6 players, not 1"):
        start(names=("Ann",))
    with pytest.raises(GameError, match="“Disaster cards before the Catastrophe” is how many Disaster cards"):
        start(disasters=10)
    with pytest.raises(GameError, match="“Who moves first” is the seat"):
        start(first=5)


def test_the_highest_throw_moves_first_and_a_tie_throws_again():
    """'Now all players throw the dice in turn and the player throwing the highest total moves
    first and is followed by the other players in rotation to the left.' (A tie for highest is
    thrown again by the tied players: newsdesk's choice.)"""
    s = start(first=None)
    assert game.offers(s) == [{"type": "throw", "player": ANN}]
    s, _ = act(s, {"type": "throw", "player": ANN, "dice": [5, 4]})
    with pytest.raises(GameError, match="Cat can't throw: it is Bob's turn to throw"):
        game.decide(s, {"type": "throw", "player": CAT, "dice": [1, 1]}, Dice())
    s, _ = act(s, {"type": "throw", "player": BOB, "dice": [2, 2]})
    s, ev = act(s, {"type": "throw", "player": CAT, "dice": [6, 3]})
    assert ev[-1] == {"type": "order_decided", "first": None, "tied": [ANN, CAT], "total": 9}
    assert s["turn"] == ANN and s["phase"] == "order"
    s, _ = act(s, {"type": "throw", "player": ANN}, Dice(1, 2))            # the box rolls
    s, ev = act(s, {"type": "throw", "player": CAT}, Dice(4, 4))
    assert ev[-1]["first"] == CAT and s["phase"] == "turn"
    assert game.view(s)["turn_name"] == "Cat"
    # the start form's hint and docs/games.md say the re-throw is newsdesk's (they said nothing of a tie)
    said = declared(rules.OPTIONS, "first")["help"]
    assert "tie" in said and "tied players throw again" in said and "newsdesk" in said


def test_the_first_options_rule_quote_ends_its_sentence():
    """The start form and docs/games.md show the rule quoted, then the help: the quote ended
    "...moves first” A tie for the highest total...", two sentences run together. It quotes the
    rules' sentence whole, to its full stop."""
    rule = declared(rules.OPTIONS, "first")["rule"]
    assert rule.endswith("in rotation to the left.")
    assert rule.startswith("all players throw the dice in turn")


def test_double_sixes_for_the_first_move_are_a_total_like_any_other():
    """The throw for the first move counts its total ('the player throwing the highest total moves
    first'); double sixes turn a Disaster up only in play, so the words don't name them there."""
    s = start(names=("Ann", "Bob"), first=None)
    s2, ev = act(s, {"type": "throw", "player": ANN, "dice": [6, 6]})
    said = game.describe(s, {}, ev)
    assert said == "Ann rolled 6 and 6 (twelve) for the first move" and "double sixes" not in said
    s3, ev = act(s2, {"type": "throw", "player": BOB, "dice": [6, 5]})
    assert game.describe(s2, {}, ev[:1]) == "Bob rolled 6 and 5 (eleven) for the first move"
    # in play they are named: they turn a Disaster up
    s3, ev = throw(s3, ANN, "automobile", (6, 6))
    assert game.describe(s3, {}, ev[:1]).startswith("Ann rolled 6 and 6 (double sixes): no move")


@pytest.mark.parametrize("dice", [(1, 2), (6, 5), (3, 3)])
def test_by_automobile_the_pin_moves_the_total(dice):
    """'He may go by AUTOMOBILE in which case he throws the dice and moves his pin as many white
    spaces as the total throw of the dice' ... 'he may split the total of the throw of the dice'."""
    s, ev = throw(start(), ANN, "automobile", dice)
    assert ev[0]["result"] == "drive" and ev[0]["total"] == sum(dice)
    assert "drives %d white spaces" % sum(dice) in ev[0]["reading"]
    assert "splits the dice: %d and %d" % dice in ev[0]["reading"]
    assert s["turn"] == BOB and s["phase"] == "moved"


@pytest.mark.parametrize("dice,result", [((1, 3), "next_city"), ((5, 5), "next_city"), ((2, 3), "wait"), ((6, 1), "wait")])
def test_by_train_an_even_total_reaches_the_next_city_and_an_odd_one_waits(dice, result):
    """'if the total of the throw is an Even Number he moves his pin to the next city on the
    railroad line ... if he finds the total of the throw is Odd, he cannot move on that turn'."""
    s, ev = throw(start(), ANN, "train", dice)
    assert ev[0]["result"] == result and ev[0]["even"] == (sum(dice) % 2 == 0)
    assert s["phase"] == ("moved" if result == "next_city" else "turn")
    news = {"type": "news", "player": ANN, "enter": ["points"], "labels": {"points": "Points on the News card"}}
    assert (news in game.offers(s)) == (result == "next_city")


def test_a_plane_takes_a_double_to_charter_and_another_to_fly():
    """'When he reaches an airport, he must throw a double to secure a plane and ... puts his plane
    with his pin on the airport. He must throw another double on a succeeding turn to fly. When he
    shakes this second double he may move his pin and his plane to any airport on the board.'"""
    s = start(names=("Ann", "Bob"))
    with pytest.raises(GameError, match="say which airport the pin is at"):
        throw(s, ANN, "airplane", (2, 2))
    s, ev = throw(s, ANN, "airplane", (2, 5), at="Baytown")
    assert ev[0]["result"] == "no_plane" and not s["players"][ANN]["plane"]["chartered"]
    s = drive(s, BOB)
    s, ev = throw(s, ANN, "airplane", (4, 4), at="Baytown")
    assert ev[0]["result"] == "plane_secured" and ev[0]["doubles"]
    assert s["players"][ANN]["plane"] == {"chartered": True, "at": "Baytown"}
    assert s["phase"] == "turn"                          # securing the plane is not a move
    s = drive(s, BOB)
    s, ev = throw(s, ANN, "airplane", (3, 3))
    assert ev[0]["result"] == "fly" and s["phase"] == "fly"
    with pytest.raises(GameError, match="Bob can't throw now: Ann says which airport the plane flew to"):
        throw(s, BOB, "automobile", (1, 2))
    s, _ = act(s, {"type": "land", "player": ANN, "airport": "Lakeport"})
    assert s["players"][ANN]["plane"]["at"] == "Lakeport"
    assert s["phase"] == "moved" and s["turn"] == BOB


def test_a_chartered_plane_flies_from_where_it_stands_on_one_double():
    """'He may leave it at any airport and proceed with his pin ... He must then reach that
    airport with his pin and shake only One Double to fly.'"""
    s = start(names=("Ann", "Bob"))
    s, _ = throw(s, ANN, "airplane", (1, 1), at="Hilltop Field")
    s = drive(s, BOB)
    with pytest.raises(GameError, match="Ann's plane is at Hilltop Field: the pin must be there"):
        throw(s, ANN, "airplane", (5, 5), at="Baytown")
    s, ev = throw(s, ANN, "airplane", (5, 6), at="hilltop field")
    assert ev[0]["result"] == "no_flight" and s["turn"] == BOB


def test_telephoning_takes_a_seven_and_the_piece_stays_until_given_up():
    """'At any time when a player's pin is exactly on any city ... he may telephone in to his
    editor for a new News Assignment, (provided of course that he has completed the assignment he
    was working on) or to an airport for his plane ... If he throws a total of seven, he is
    considered to have made his connection ... If he does not throw a total of seven he must wait
    to throw a seven on a succeeding turn.'"""
    s = start(names=("Ann", "Bob"))
    with pytest.raises(GameError, match="only after completing the one in hand"):
        throw(s, ANN, "telephone", (3, 4), purpose="news")
    with pytest.raises(GameError, match="Ann has no plane to call"):
        throw(s, ANN, "telephone", (3, 4), purpose="plane")
    with pytest.raises(GameError, match="say what the telephone call is for"):
        throw(s, ANN, "telephone", (3, 4))
    s = drive(s, ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 5})
    for dice in [(2, 2), (6, 2)]:
        s = drive(s, BOB)
        s, ev = throw(s, ANN, "telephone", dice, purpose="news")
        assert ev[0]["result"] == "no_connection" and not ev[0]["seven"]
    assert game.view(s)["players"][ANN]["telephone"] == {"on_board": True, "attempts": 2, "for": "news"}
    s = drive(s, BOB)
    s, ev = throw(s, ANN, "telephone", (6, 1), purpose="news")
    assert ev[0]["seven"] and ev[0]["result"] == "phoned_news" and s["phase"] == "draw"
    assert s["players"][ANN]["phone"]["attempts"] == 0
    s, ev = act(s, {"type": "draw", "player": ANN, "city": "Pine Bluff", "points": 4, "grid": "C7"})
    assert ev[0]["how"] == "telephone" and s["turn"] == BOB and s["phase"] == "turn"
    assert s["players"][ANN]["assignment"]["city"] == "Pine Bluff"


def test_giving_up_the_telephone_removes_the_piece():
    """'he may decide that he does not wish to try to telephone on future turns, and in this case
    after announcing his intention and his method of travel and removing his telephone piece from
    the board after he throws, he may use any other method of transportation'."""
    s = drive(start(names=("Ann", "Bob")), ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 3})
    s = drive(s, BOB)
    s, _ = throw(s, ANN, "telephone", (1, 1), purpose="news")
    s = drive(s, BOB)
    before = s
    s, ev = throw(s, ANN, "train", (2, 4))
    assert ev[0]["phone_given_up"] and s["players"][ANN]["phone"]["on_board"] is False
    # the last-move line says so: the piece doesn't vanish without a word
    assert game.describe(before, {}, ev[:1]) == ("Ann rolled 2 and 4 (six): the train goes on to the next city, "
                                                 "and the telephone is taken off the board")
    # and so does the panel's last-throw box, the throw in the rules' words
    assert ev[0]["reading"] == ("Even total (6): Ann moves to the next city on the railroad; Ann removes the "
                                "telephone piece from the board")
    assert game.view(s)["last_throw"]["reading"] == ev[0]["reading"]
    s = drive(s, BOB)
    s, ev = throw(s, ANN, "automobile", (2, 4))               # no telephone on the board: nothing said of it
    assert game.describe(s, {}, ev[:1]) == "Ann rolled 2 and 4 (six): the automobile goes 6 spaces"
    assert "telephone" not in ev[0]["reading"]


def test_a_telephoned_plane_goes_to_any_airport():
    """'then if he wishes may telephone ... and have his plane come to any airport on the board'."""
    s = start(names=("Ann", "Bob"))
    s, _ = throw(s, ANN, "airplane", (2, 2), at="Baytown")
    s = drive(s, BOB)
    s, ev = throw(s, ANN, "telephone", (5, 2), purpose="plane")
    assert ev[0]["result"] == "phoned_plane" and s["phase"] == "plane_call"
    s, ev = act(s, {"type": "land", "player": ANN, "airport": "Summit"})
    assert not ev[0]["with_pin"] and s["players"][ANN]["plane"]["at"] == "Summit"
    assert s["phase"] == "turn" and s["turn"] == BOB


def test_a_flight_goes_to_another_airport_never_to_the_one_the_plane_stands_at():
    """'When he shakes this second double he may move his pin and his plane to any airport on the
    board' (and a plane telephoned for comes "to any airport on the board"): a flight to the
    airport the plane stands at went nowhere, yet was taken and offered. The panel's choices leave
    out the plane's own airport, and landing there is refused saying where it can go."""
    s = start(names=("Ann", "Bob"), airports=["Baytown", "Lakeport", "Summit"])
    s, _ = throw(s, ANN, "airplane", (2, 2), at="Baytown")
    s = drive(s, BOB)
    s, _ = throw(s, ANN, "airplane", (3, 3))
    assert game.offers(s) == [{"type": "land", "player": ANN, "enter": ["airport"],
                               "choices": {"airport": ["Lakeport", "Summit"]}}]
    for here in ("Baytown", " baytown "):
        with pytest.raises(GameError, match="^Ann's plane is at Baytown already: a flight goes to another of the "
                                            "board's airports, Lakeport or Summit$"):
            act(s, {"type": "land", "player": ANN, "airport": here})
    s, _ = act(s, {"type": "land", "player": ANN, "airport": "Summit"})
    s = drive(s, BOB)
    s, _ = throw(s, ANN, "telephone", (3, 4), purpose="plane")
    assert game.offers(s)[0]["choices"] == {"airport": ["Baytown", "Lakeport"]}
    with pytest.raises(GameError, match="^Ann's plane is at Summit already: a plane telephoned for comes to "
                                        "another of the board's airports, Baytown or Lakeport$"):
        act(s, {"type": "land", "player": ANN, "airport": "Summit"})
    s, _ = act(s, {"type": "land", "player": ANN, "airport": "Lakeport"})
    assert s["players"][ANN]["plane"]["at"] == "Lakeport"


def test_with_baytowns_airport_alone_no_plane_flies_and_the_panel_says_why():
    """With the option's default, Baytown's airport alone, every flight went nowhere (from Baytown
    to Baytown). A flight goes from one airport to another, so the panel offers neither the
    airplane nor a telephone call for the plane, its screen says why, and a throw for either is
    refused with the same reason and how to list the board's airports."""
    s = start(names=("Ann", "Bob"), airports=None)
    why = ("a flight goes from one of the board's airports to another, and this game was started with "
           "Baytown's only (the board's airports are listed when a game starts)")
    assert game.view(s)["no_flights"] == why
    assert game.view(start(names=("Ann", "Bob")))["no_flights"] is None
    assert [o.get("method") for o in game.offers(s)] == ["automobile", "train"]
    with pytest.raises(GameError, match="^Ann can't travel by airplane: %s$" % why.replace("(", r"\(").replace(")", r"\)")):
        throw(s, ANN, "airplane", (2, 2), at="Baytown")
    # a game kept from before, whose plane was chartered at Baytown: no call for it either
    s = game.apply(s, {"type": "thrown", "player": ANN, "method": "airplane", "dice": [2, 2], "purpose": None,
                       "at": "Baytown", "result": "plane_secured", **rules.facts((2, 2)), "phone_given_up": False,
                       "reading": ""})
    assert s["players"][ANN]["plane"] == {"chartered": True, "at": "Baytown"}
    assert all(o.get("purpose") != "plane" and o.get("method") != "airplane" for o in game.offers(s))
    with pytest.raises(GameError, match="^Ann can't telephone for the plane: a flight goes from one"):
        throw(s, ANN, "telephone", (3, 4), purpose="plane")
    with pytest.raises(GameError, match="^Ann can't travel by airplane: a flight goes from one"):
        throw(s, ANN, "airplane", (3, 3))
    # ... and one kept in the air, its double thrown: nowhere to land but undoing the throw
    s = game.apply(s, {"type": "thrown", "player": ANN, "method": "airplane", "dice": [3, 3], "purpose": None,
                       "at": "Baytown", "result": "fly", **rules.facts((3, 3)), "phone_given_up": False,
                       "reading": ""})
    assert s["phase"] == "fly" and game.offers(s) == []
    with pytest.raises(GameError, match="^Ann's plane is at Baytown already, and this game was started with "
                                        "Baytown's only .*: undo the throw$"):
        act(s, {"type": "land", "player": ANN, "airport": "Baytown"})


def test_news_counts_when_reached_and_a_new_card_is_drawn_at_urbania():
    """'When a player reaches the city which was noted on the original News Card, he is considered
    to have obtained the desired information ... After a player has completed an assignment he may
    then secure a new News Assignment by drawing another News Card as soon as he returns to
    "Urbania"'."""
    s = drive(start(names=("Ann", "Bob")), ANN)
    with pytest.raises(GameError, match="still on an assignment"):
        game.decide(s, {"type": "draw", "player": ANN}, Dice())
    with pytest.raises(GameError, match="enter the points printed on the News card"):
        game.decide(s, {"type": "news", "player": ANN}, Dice())
    s, _ = act(s, {"type": "news", "player": ANN, "points": 6})
    with pytest.raises(GameError, match="Ann has no assignment in hand"):
        game.decide(s, {"type": "news", "player": ANN, "points": 6}, Dice())
    s = drive(s, BOB)
    s = drive(s, ANN)
    s, ev = act(s, {"type": "draw", "player": ANN, "city": "Riverton", "points": 8})
    assert ev[0]["how"] == "Urbania"
    s = drive(s, BOB)
    s = drive(s, ANN)
    s, _ = act(s, {"type": "news", "player": ANN})                      # the card's own points
    assert game.view(s)["players"][ANN]["score"] == 14


def test_results_only_after_your_own_move_and_before_the_next_throw():
    """The rules' News, Disasters and the Catastrophe are reached by moving there: the panel takes
    them from the player who just moved, until the next player throws."""
    s = drive(start(), ANN)
    with pytest.raises(GameError, match="Bob can report a News item only after moving there"):
        game.decide(s, {"type": "news", "player": BOB, "points": 2}, Dice())
    s = drive(s, BOB)
    with pytest.raises(GameError, match="Ann can report a News item only after moving there"):
        game.decide(s, {"type": "news", "player": ANN, "points": 2}, Dice())
    s, _ = throw(s, CAT, "train", (1, 2))
    with pytest.raises(GameError, match="Cat can report a News item only after moving there"):
        game.decide(s, {"type": "news", "player": CAT, "points": 2}, Dice())


def test_double_sixes_turn_up_a_disaster_open_to_all_and_the_thrower_does_not_move():
    """'some player throws Double Sixes. This player does not move, or obtain an airplane, on this
    throw, but must turn a Disaster Card face up. The next player following and all other players
    in turn, including the player who threw the Double Sixes, may now ... attempt to reach the scene
    of the Disaster' ... 'Disasters are open to all'."""
    s, ev = throw(start(), ANN, "airplane", (6, 6), at="Baytown")
    assert ev[0]["result"] == "disaster" and ev[0]["double_sixes"] and ev[0]["card"] == 1
    assert not s["players"][ANN]["plane"]["chartered"] and s["phase"] == "turn"
    assert "Disaster card 1" in ev[0]["reading"]
    s = drive(s, BOB)
    assert {"type": "disaster", "player": BOB, "card": 1, "enter": ["points"],
            "labels": {"points": "Points on Disaster #1"}} in game.offers(s)
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 20})
    assert game.view(s)["players"][BOB]["score"] == 20 and game.view(s)["disasters"]["open"] == []
    with pytest.raises(GameError, match="no Disaster is open"):
        game.decide(s, {"type": "disaster", "player": BOB, "points": 20}, Dice())


def test_two_open_disasters_are_told_apart():
    s, _ = throw(start(), ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "train", (6, 6))
    s = drive(s, CAT)
    with pytest.raises(GameError, match="say which Disaster"):
        game.decide(s, {"type": "disaster", "player": CAT, "points": 15}, Dice())
    with pytest.raises(GameError, match="the open Disasters are card 1 and 2, not 3"):
        game.decide(s, {"type": "disaster", "player": CAT, "points": 15, "card": 3}, Dice())
    s, _ = act(s, {"type": "disaster", "player": CAT, "points": 15, "card": 2})
    assert game.view(s)["disasters"] == {"before_catastrophe": 4, "drawn": 2, "open": [1]}


def test_after_the_chosen_disasters_double_sixes_bring_the_one_catastrophe_which_ends_the_game():
    """'As soon as this number of cards has been drawn from the Disaster pile a CATASTROPHE CARD is
    drawn by the next player who throws a Double Six.' ... 'Only one CATASTROPHE CARD is turned up
    from the pile in each game and when this story is obtained by the first player reaching the
    scene, the game ends. Players now add up their score from the points on the cards and the one
    having the highest credit becomes the "Star Reporter"'."""
    s = start(names=("Ann", "Bob"), disasters=2)
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, ev = throw(s, ANN, "train", (6, 6))
    assert ev[0]["result"] == "catastrophe" and s["catastrophe"] == "open"
    before = s
    s, ev = throw(s, BOB, "automobile", (6, 6))               # nothing left to turn up
    assert ev[0]["result"] == "drive" and game.view(s)["disasters"]["drawn"] == 2
    # an ordinary throw of twelve: the last-move line doesn't name double sixes as if a card came
    assert game.describe(before, {}, ev[:1]) == "Bob rolled 6 and 6 (twelve): the automobile goes 12 spaces"
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 25, "card": 1})
    s = drive(s, ANN)
    s, ev = act(s, {"type": "catastrophe", "player": ANN, "points": 50})
    assert ev[-1] == {"type": "ended", "scores": [50, 25], "winners": [ANN]}
    view = game.view(s)
    assert view["star_reporter"] == ["Ann"] and game.offers(s) == []
    with pytest.raises(GameError, match="over: Ann is the Star Reporter"):
        drive(s, BOB)


def _catastrophe_open_at_bobs_turn():
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # the one Disaster
    s, _ = throw(s, BOB, "automobile", (6, 6))            # the Catastrophe
    s = drive(s, ANN)
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 25})
    return drive(s, BOB)                                  # Bob reaches the Catastrophe's city, his News card's too


def test_the_catastrophe_at_the_news_city_earns_both_whichever_is_tapped_first():
    """Reaching the News card's city obtains its news, and reaching the Catastrophe's ends the
    game: a move that reaches one city which is both earns both. Tapped News first, then the
    Catastrophe, both counted; tapped the Catastrophe first, the game ended and the News was lost.
    The Catastrophe's offer now comes in a second form with the News card."""
    s = _catastrophe_open_at_bobs_turn()
    (both,) = [o for o in game.offers(s) if o["type"] == "catastrophe" and o.get("news")]
    assert both["enter"] == ["points", "news_points"]     # the card's points weren't entered when drawn
    news_first, _ = act(s, {"type": "news", "player": BOB, "points": 12})
    news_first, ev_a = act(news_first, {"type": "catastrophe", "player": BOB, "points": 30})
    together, ev_b = act(s, {"type": "catastrophe", "player": BOB, "points": 30, "news": True, "news_points": 12})
    assert ev_a[-1] == ev_b[-1] == {"type": "ended", "scores": [25, 42], "winners": [BOB]}
    assert [c["card"] for c in together["players"][BOB]["cards"]] == ["news", "catastrophe"]
    assert game.view(together)["star_reporter"] == ["Bob"]
    assert "completed the News assignment" in game.describe(s, {}, ev_b)
    # without the News card's points there is nothing to count
    with pytest.raises(GameError, match="Bob: enter the points printed on the News card"):
        act(s, {"type": "catastrophe", "player": BOB, "points": 30, "news": True})
    with pytest.raises(GameError, match=r'Bob: "news" says whether .* \(true or false\), not .yes.'):
        act(s, {"type": "catastrophe", "player": BOB, "points": 30, "news": "yes"})
    # News already reported on this move: the plain offer only
    assert not [o for o in game.offers(act(s, {"type": "news", "player": BOB, "points": 12})[0])
                if o.get("news")]


def test_one_move_ends_in_one_city():
    """A News card is drawn "as soon as he returns to 'Urbania'" and earns its points "when he
    reaches this city": not on the move that drew it, nor drawn on the move that reported News
    at its city; and Disaster cities "must be reached by an exact throw": one a move."""
    s = drive(start(), ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 3})
    assert not [o for o in game.offers(s) if o["type"] == "draw"]
    with pytest.raises(GameError, match="Ann reported News on this move: the next card is drawn"):
        act(s, {"type": "draw", "player": ANN, "city": "Riverton", "points": 8})
    s = drive(drive(drive(s, BOB), CAT), ANN)           # Ann back at Urbania
    s, _ = act(s, {"type": "draw", "player": ANN, "city": "Riverton", "points": 8})
    assert not [o for o in game.offers(s) if o["type"] == "news"]
    with pytest.raises(GameError, match="Ann drew this card at Urbania on this move: report it after a move "
                                        "that reaches Riverton"):
        act(s, {"type": "news", "player": ANN})
    s = drive(drive(drive(s, BOB), CAT), ANN)           # Ann at Riverton
    # the card's own points, not another number
    with pytest.raises(GameError, match="entered as 8 points when drawn, not 50"):
        act(s, {"type": "news", "player": ANN, "points": 50})
    s, _ = act(s, {"type": "news", "player": ANN, "points": 8})
    assert [c["points"] for c in s["players"][ANN]["cards"]] == [3, 8]
    # two open Disasters: one a move, unless both name the city it reached
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, _ = throw(s, CAT, "automobile", (6, 6))
    s = drive(s, ANN)
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 1})
    assert [o.get("same_city") for o in game.offers(s) if o["type"] == "disaster"] == [True]
    with pytest.raises(GameError, match="Ann already reported the Disaster on this move"):
        act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 2})
    s = drive(drive(drive(s, BOB), CAT), ANN)
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 2})
    assert game.view(s)["players"][ANN]["score"] == 51


def test_cards_naming_the_city_the_move_reached_are_all_won_on_it():
    """'After some player has secured the Disaster card by being first to reach the city where the
    disaster occurred' ... 'when this story is obtained by the first player reaching the scene, the
    game ends.' A Disaster and the Catastrophe (or two Disasters) may name one city: the move that
    reaches it by exact throw is the first to both scenes, and wins both. The table says so
    ("same_city"), and the panel offers the other open cards so after one; without it a second
    card is still refused, as one move ends in one city."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s, _ = throw(s, BOB, "automobile", (6, 6))            # the Catastrophe, at the same city
    s = drive(s, ANN)                                     # Ann reaches it by exact throw
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 40})
    offered = [o for o in game.offers(s) if o["type"] == "catastrophe"]
    assert offered and all(o["same_city"] is True for o in offered)
    assert offered[0]["labels"] == {"points": "Points on the Catastrophe card (the same city as Disaster #1)"}
    with pytest.raises(GameError, match="Ann already reported the Disaster on this move: .* if this card names "
                                        "the same city, say so"):
        act(s, {"type": "catastrophe", "player": ANN, "points": 100})
    s, ev = act(s, {"type": "catastrophe", "player": ANN, "points": 100, "same_city": True})
    assert ev[-1] == {"type": "ended", "scores": [140, 0], "winners": [ANN]}
    assert game.describe(s, {}, ev[:1]) == "Ann reached the Catastrophe at the same city: 100 points, and the game ends"
    # two open Disasters at one city; "same_city" needs a card reported before it on this move
    s = start(names=("Ann", "Bob"))
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s = drive(s, ANN)
    with pytest.raises(GameError, match="Ann: \"same_city\" says this card names the city of the card reported "
                                        "before it on this move, and none was"):
        act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 1, "same_city": True})
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 1})
    assert [o["card"] for o in game.offers(s) if o["type"] == "disaster" and o.get("same_city")] == [2]
    with pytest.raises(GameError, match=r'Ann: "same_city" says whether .* \(true or false\), not .yes.'):
        act(s, {"type": "disaster", "player": ANN, "points": 30, "card": 2, "same_city": "yes"})
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 30, "card": 2, "same_city": True})
    assert game.view(s)["players"][ANN]["score"] == 50 and game.view(s)["disasters"]["open"] == []


def test_the_catastrophe_at_an_open_disasters_city_earns_both_whichever_is_tapped_first():
    """The move that reaches a city named on an open Disaster and on the Catastrophe is "first to
    reach the city where the disaster occurred" and "the first player reaching the scene" of the
    Catastrophe: it wins both. Tapped the Disaster first, then the Catastrophe "in the same city
    too", both counted; tapped the Catastrophe first, the game ended on it and the Disaster's card
    was never counted. The Catastrophe is now offered with each open Disaster too, and both
    orders make the same events."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s, _ = throw(s, BOB, "automobile", (6, 6))            # the Catastrophe, at the same city
    s = drive(s, ANN)                                     # Ann reaches it by exact throw
    (both,) = [o for o in game.offers(s) if o["type"] == "catastrophe" and "disaster" in o and not o.get("news")]
    assert both["disaster"] == 1 and both["enter"] == ["points", "disaster_points"] and "same_city" not in both
    assert both["labels"] == {"points": "Points on the Catastrophe card, with Disaster #1",
                              "disaster_points": "Points on Disaster #1, with the Catastrophe"}
    disaster_first, _ = act(s, {"type": "disaster", "player": ANN, "points": 40})
    disaster_first, ev_a = act(disaster_first, {"type": "catastrophe", "player": ANN, "points": 100, "same_city": True})
    together, ev_b = act(s, {"type": "catastrophe", "player": ANN, "points": 100, "disaster": 1, "disaster_points": 40})
    assert ev_b[-1] == {"type": "ended", "scores": [140, 0], "winners": [ANN]}
    assert ev_b[-3:] == [{"type": "won_card", "player": ANN, "card": "disaster", "number": 1, "points": 40}] + ev_a
    assert together["players"] == disaster_first["players"] and game.view(together)["disasters"]["open"] == []
    assert "Ann reached Disaster card 1's city: 40 points" in game.describe(s, {}, ev_b)
    # her News card's city too: all three with the one action (the panel offers it with each open Disaster)
    _, ev = act(s, {"type": "catastrophe", "player": ANN, "points": 100, "news": True, "news_points": 5,
                    "disaster": 1, "disaster_points": 40})
    assert [e["card"] for e in ev if e["type"] == "won_card"] == ["news", "disaster", "catastrophe"]
    assert ev[-1] == {"type": "ended", "scores": [145, 0], "winners": [ANN]}
    # the Disaster's own points, an open one, and its city named only with the Catastrophe's
    with pytest.raises(GameError, match="Ann: enter the points printed on the Disaster card"):
        act(s, {"type": "catastrophe", "player": ANN, "points": 100, "disaster": 1})
    with pytest.raises(GameError, match="Ann: the open Disasters are card 1, not 2"):
        act(s, {"type": "catastrophe", "player": ANN, "points": 100, "disaster": 2, "disaster_points": 40})
    with pytest.raises(GameError, match="none is open"):
        act(_catastrophe_open_and_no_disaster(), {"type": "catastrophe", "player": ANN, "points": 100, "disaster": 1,
                                    "disaster_points": 40})
    # two open Disasters at the Catastrophe's city: one tapped, the other with the Catastrophe
    s = start(names=("Ann", "Bob"), disasters=2)
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, _ = throw(s, ANN, "automobile", (6, 6))            # the Catastrophe
    s = drive(s, BOB)
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 20, "card": 1})
    (rest,) = [o for o in game.offers(s) if o["type"] == "catastrophe" and "disaster" in o and not o.get("news")]
    assert rest["disaster"] == 2 and rest["same_city"] is True
    s, ev = act(s, {"type": "catastrophe", "player": BOB, "points": 100, "disaster": 2, "disaster_points": 30,
                    "same_city": True})
    assert [(e["card"], e.get("same_city")) for e in ev if e["type"] == "won_card"] == [
        ("disaster", True), ("catastrophe", True)]
    assert ev[-1] == {"type": "ended", "scores": [0, 150], "winners": [BOB]}


def test_a_disaster_reported_after_the_news_on_one_move_is_at_the_news_city():
    """'A player three spaces away may throw a total of seven on the dice and move three of this
    seven to reach his city, sacrificing the other four points in order to do so': reporting the
    News ends the move at its city, and one move ends in one city, so an open Disaster (or the
    Catastrophe) reported after it on the move "is in the same city too", as after a Disaster."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s = drive(s, BOB)
    s = drive(s, ANN)                                     # Ann reaches her News card's city, the Disaster's too
    s, _ = act(s, {"type": "news", "player": ANN, "points": 6})
    (offer,) = [o for o in game.offers(s) if o["type"] == "disaster"]
    assert offer["same_city"] is True
    assert offer["labels"] == {"points": "Points on Disaster #1 (the same city as the News card)"}
    after, ev = act(s, {k: v for k, v in offer.items() if k not in ("enter", "labels")} | {"points": 20})
    assert ev == [{"type": "won_card", "player": ANN, "card": "disaster", "number": 1, "points": 20,
                   "same_city": True}]
    assert game.describe(s, {}, ev) == "Ann reached Disaster card 1 at the same city: 20 points"
    assert game.view(after)["players"][ANN]["score"] == 26
    # as before, the table may report it without saying so
    assert act(s, {"type": "disaster", "player": ANN, "points": 20})[0]["players"] == after["players"]
    # the Catastrophe after the News card: the same city too, alone or with the Disaster
    s = _catastrophe_open_at_bobs_turn()
    s, _ = act(s, {"type": "news", "player": BOB, "points": 12})
    (offer,) = [o for o in game.offers(s) if o["type"] == "catastrophe"]
    assert offer["same_city"] is True
    assert offer["labels"] == {"points": "Points on the Catastrophe card (the same city as the News card)"}
    _, ev = act(s, {"type": "catastrophe", "player": BOB, "points": 30, "same_city": True})
    assert ev[-1] == {"type": "ended", "scores": [25, 42], "winners": [BOB]}


def test_the_news_reported_after_a_disaster_on_one_move_is_at_the_disasters_city():
    """The other way round: a Disaster's city "must be reached by an exact throw", and the move
    that reaches it ends there, so the News card reported after it on the move is at that city too.
    Tapped the Disaster first, the News offer read as reaching another city ("Reached the
    assignment's city", its box "Points on the News card") while the Disaster after the News card
    said "in the same city too": the two orders are labelled alike now, the event too."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s = drive(s, BOB)
    s = drive(s, ANN)                                     # Ann reaches the Disaster's city, her News card's too
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 20})
    (offer,) = [o for o in game.offers(s) if o["type"] == "news"]
    assert offer["same_city"] is True
    assert offer["labels"] == {"points": "Points on the News card (the same city as Disaster #1)"}
    after, ev = act(s, {k: v for k, v in offer.items() if k not in PRESENTATION} | {"points": 6})
    assert ev == [{"type": "won_card", "player": ANN, "card": "news", "points": 6, "city": None, "same_city": True}]
    assert game.describe(s, {}, ev) == "Ann completed the News assignment at the same city: 6 points"
    assert game.describe(s, {}, [dict(ev[0], city="Riverton")]) == (
        "Ann completed the News assignment at the same city (Riverton): 6 points")
    assert game.view(after)["players"][ANN]["score"] == 26
    # as before, the table may report it without saying so; and not "same city" with nothing before it
    assert act(s, {"type": "news", "player": ANN, "points": 6})[0]["players"] == after["players"]
    with pytest.raises(GameError, match="Ann: \"same_city\" says this card names the city of the card reported "
                                        "before it on this move, and none was"):
        act(drive(start(names=("Ann", "Bob")), ANN), {"type": "news", "player": ANN, "points": 6, "same_city": True})
    with pytest.raises(GameError, match=r'Ann: "same_city" says whether .* \(true or false\), not .yes.'):
        act(s, {"type": "news", "player": ANN, "points": 6, "same_city": "yes"})
    # the Catastrophe with the News card after a Disaster: both at its city, the News card's event says so
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s, _ = throw(s, BOB, "automobile", (6, 6))            # the Catastrophe, at the same city
    s = drive(s, ANN)
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 40})
    (offer,) = [o for o in game.offers(s) if o["type"] == "catastrophe" and o.get("news")]
    assert offer["same_city"] is True
    _, ev = act(s, {k: v for k, v in offer.items() if k not in PRESENTATION} | {"points": 100, "news_points": 5})
    assert [(e["card"], e.get("same_city")) for e in ev if e["type"] == "won_card"] == [
        ("news", True), ("catastrophe", True)]
    assert ev[-1] == {"type": "ended", "scores": [145, 0], "winners": [ANN]}


def test_the_catastrophe_the_news_card_and_a_disaster_in_one_city_are_won_with_one_tap():
    """A city may be named on the mover's News card, on an open Disaster and on the Catastrophe:
    the move that reaches it obtains the News ("when a player reaches the city"), is "first to
    reach the city where the disaster occurred" and "the first player reaching the scene" of the
    Catastrophe, and the game ends on it. The panel offered the Catastrophe with the News card
    and with the Disaster, each a pair: the one whose words fit ended the game and the third
    card was never counted. All three are offered in one tap now, and make the same events as
    the News tapped first and then the Catastrophe and the Disaster "in the same city too"."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))            # Disaster #1
    s, _ = throw(s, BOB, "automobile", (6, 6))            # the Catastrophe
    s = drive(s, ANN)                                     # one city: Ann's News card's, the Disaster's, the Catastrophe's
    (all3,) = [o for o in game.offers(s) if o["type"] == "catastrophe" and o.get("news") and "disaster" in o]
    assert all3["disaster"] == 1 and "same_city" not in all3
    assert all3["enter"] == ["points", "news_points", "disaster_points"]
    end, ev = act(s, {k: v for k, v in all3.items() if k not in PRESENTATION}
                  | {"points": 100, "news_points": 5, "disaster_points": 40})
    assert [(e["card"], e["points"], e.get("same_city")) for e in ev if e["type"] == "won_card"] == [
        ("news", 5, None), ("disaster", 40, True), ("catastrophe", 100, True)]
    assert ev[-1] == {"type": "ended", "scores": [145, 0], "winners": [ANN]}
    assert game.view(end)["star_reporter"] == ["Ann"] and game.view(end)["disasters"]["open"] == []
    assert game.describe(s, {}, ev).startswith("Ann completed the News assignment: 5 points; Ann reached Disaster "
                                               "card 1 at the same city: 40 points; Ann reached the Catastrophe at "
                                               "the same city: 100 points, and the game ends")
    # the same events as the News tapped first, then the Catastrophe with the Disaster in the same city
    n, first = act(s, {"type": "news", "player": ANN, "points": 5})
    (pair,) = [o for o in game.offers(n) if o["type"] == "catastrophe" and "disaster" in o]
    assert pair["same_city"] is True and not [o for o in game.offers(n) if o.get("news")]
    _, rest = act(n, {k: v for k, v in pair.items() if k not in PRESENTATION} | {"points": 100, "disaster_points": 40})
    assert first + rest == ev
    # the Disaster tapped first: the Catastrophe with the News card, in the same city, the same points
    d, _ = act(s, {"type": "disaster", "player": ANN, "points": 40})
    (pair,) = [o for o in game.offers(d) if o["type"] == "catastrophe" and o.get("news")]
    assert pair["same_city"] is True and "disaster" not in pair
    d, ev = act(d, {k: v for k, v in pair.items() if k not in PRESENTATION} | {"points": 100, "news_points": 5})
    assert ev[-1] == {"type": "ended", "scores": [145, 0], "winners": [ANN]}
    assert [c["card"] for c in d["players"][ANN]["cards"]] == ["disaster", "news", "catastrophe"]
    # two open Disasters: all three with each; after one is tapped, with the other "in the same city too"
    s = start(names=("Ann", "Bob"), disasters=2)
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, _ = throw(s, ANN, "automobile", (6, 6))            # the Catastrophe
    s = drive(s, BOB)
    assert [o["disaster"] for o in game.offers(s) if o.get("news") and "disaster" in o] == [1, 2]
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 20, "card": 1})
    (all3,) = [o for o in game.offers(s) if o.get("news") and "disaster" in o]
    assert all3["disaster"] == 2 and all3["same_city"] is True
    _, ev = act(s, {k: v for k, v in all3.items() if k not in PRESENTATION}
                | {"points": 100, "news_points": 7, "disaster_points": 30})
    assert [(e["card"], e.get("same_city")) for e in ev if e["type"] == "won_card"] == [
        ("news", True), ("disaster", True), ("catastrophe", True)]
    assert ev[-1] == {"type": "ended", "scores": [0, 157], "winners": [BOB]}
    # a News card whose points were entered when drawn asks for none again: the card's own count
    s = drive(start(names=("Ann", "Bob"), disasters=1), ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 3})
    s = drive(drive(s, BOB), ANN)                         # Ann back at Urbania
    s, _ = act(s, {"type": "draw", "player": ANN, "city": "Riverton", "points": 8})
    s, _ = throw(s, BOB, "automobile", (6, 6))            # Disaster #1
    s, _ = throw(s, ANN, "automobile", (6, 6))            # the Catastrophe
    s = drive(drive(s, BOB), ANN)                         # Ann at Riverton: all three
    (all3,) = [o for o in game.offers(s) if o.get("news") and "disaster" in o]
    assert all3["enter"] == ["points", "disaster_points"]
    _, ev = act(s, {k: v for k, v in all3.items() if k not in PRESENTATION} | {"points": 100, "disaster_points": 40})
    assert ev[-1] == {"type": "ended", "scores": [151, 0], "winners": [ANN]}


def _catastrophe_open_and_no_disaster():
    """The Catastrophe open after Ann's move, and no Disaster open (Bob won the one there was)."""
    s = start(names=("Ann", "Bob"), disasters=1)
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s = drive(s, BOB)
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 25})
    s, _ = throw(s, ANN, "automobile", (6, 6))            # the Catastrophe
    return drive(drive(s, BOB), ANN)


def test_a_tie_shares_the_title():
    s = start(names=("Ann", "Bob"), disasters=1)
    s = drive(s, ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 30})
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s = drive(s, BOB)
    s, _ = act(s, {"type": "disaster", "player": BOB, "points": 10})
    s = drive(drive(s, ANN), BOB)
    s, ev = act(s, {"type": "catastrophe", "player": BOB, "points": 20})
    assert game.view(s)["star_reporter"] == ["Ann", "Bob"]


def test_the_box_rolls_when_the_action_has_no_dice():
    s, ev = act(start(), {"type": "throw", "player": ANN, "method": "train"}, Dice(3, 5))
    assert ev[0]["dice"] == [3, 5] and ev[0]["result"] == "next_city"
    s, ev = act(start(), {"type": "throw", "player": ANN, "method": "train"}, random.Random(4))
    assert all(1 <= d <= 6 for d in ev[0]["dice"])


@pytest.mark.parametrize("action,message", [
    ({"type": "walk"}, "Star Reporter has no action 'walk'"),
    ({"type": None}, "has no action None"),
    ({"type": "throw"}, "\"player\" is a seat number 0-2, not None"),
    ({"type": "throw", "player": 1, "method": "train"}, "Bob can't throw: it is Ann's turn"),
    ({"type": "throw", "player": 0}, "must announce a method of travel"),
    ({"type": "throw", "player": 0, "method": "boat"}, "must announce a method of travel"),
    ({"type": "throw", "player": 0, "method": "train", "dice": [0, 3]}, "two numbers 1-6"),
    ({"type": "throw", "player": 0, "method": "train", "dice": [3]}, "two numbers 1-6"),
    ({"type": "throw", "player": 0, "method": "train", "dice": "34"}, "two numbers 1-6"),
    ({"type": "throw", "player": 0, "method": "airplane", "at": ""}, "is one of the board.s airports"),
    ({"type": "throw", "player": 0, "method": "airplane", "at": 7}, "is one of the board.s airports, Baytown, .*, not 7"),
    ({"type": "land", "player": 0, "airport": "X"}, "can't land a plane now"),
    ({"type": "draw", "player": 0}, "can't draw a News card now"),
    ({"type": "catastrophe", "player": 0, "points": 5}, "only after moving there"),
])
def test_bad_actions_are_refused_with_a_reason(action, message):
    with pytest.raises(GameError, match=message):
        game.decide(start(), action, Dice(1, 2))
    with pytest.raises(GameError, match="an action is a dict"):
        game.decide(start(), "throw", Dice())


def test_points_must_be_a_whole_number_above_zero():
    s = drive(start(), ANN)
    for bad in (0, -4, 2.5, "5", True):
        with pytest.raises(GameError, match="enter the points printed on the News card"):
            game.decide(s, {"type": "news", "player": ANN, "points": bad}, Dice())


def test_throw_buttons_say_what_the_dice_must_show():
    """Even totals for trains, doubles for planes, seven for telephoning."""
    needs = {(o["method"], o.get("purpose")): o["needs"] for o in game.offers(start()) if o["type"] == "throw"}
    assert needs == {("automobile", None): NEEDS["automobile"], ("train", None): "an even total, from a city",
                     ("airplane", None): "a double, at an airport"}
    s = drive(start(names=("Ann", "Bob")), ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 2})
    s = drive(s, BOB)
    assert {"type": "throw", "player": ANN, "method": "telephone", "purpose": "news",
            "needs": "a total of seven, from a city"} in game.offers(s)


def test_a_whole_game_from_the_first_throw_to_the_star_reporter():
    """Three reporters throw for the start, travel by car, train, plane and telephone, cover News
    and two Disasters, and the Catastrophe ends it."""
    s = start(first=None, disasters=2)
    for p, dice in ((ANN, [3, 3]), (BOB, [6, 5]), (CAT, [1, 2])):
        s, _ = act(s, {"type": "throw", "player": p, "dice": dice})
    assert s["turn"] == BOB
    s = drive(s, BOB, (4, 2))
    s, _ = act(s, {"type": "news", "player": BOB, "points": 5})           # Bob 5
    s, _ = throw(s, CAT, "train", (2, 2))
    s, _ = act(s, {"type": "news", "player": CAT, "points": 3})           # Cat 3
    s, _ = throw(s, ANN, "automobile", (6, 6))                            # Disaster 1
    s, _ = throw(s, BOB, "airplane", (5, 5), at="Baytown")
    s, _ = throw(s, CAT, "train", (3, 5))
    s, _ = act(s, {"type": "disaster", "player": CAT, "points": 12})      # Cat 15
    s = drive(s, ANN)
    s, _ = act(s, {"type": "news", "player": ANN, "points": 7})           # Ann 7
    s, _ = throw(s, BOB, "airplane", (1, 1))
    s, _ = act(s, {"type": "land", "player": BOB, "airport": "Port Royal"})
    s, _ = throw(s, CAT, "telephone", (4, 3), purpose="news")
    s, _ = act(s, {"type": "draw", "player": CAT, "city": "Elm Grove", "points": 4})
    s, _ = throw(s, ANN, "train", (6, 6))                                 # Disaster 2
    s, _ = throw(s, BOB, "automobile", (6, 6))                            # the Catastrophe
    s, _ = throw(s, CAT, "automobile", (2, 1))
    s, _ = act(s, {"type": "news", "player": CAT})                        # Cat 19
    s = drive(s, ANN, (5, 3))
    s, _ = act(s, {"type": "disaster", "player": ANN, "points": 14})      # Ann 21
    s, _ = throw(s, BOB, "airplane", (3, 3))
    s, _ = act(s, {"type": "land", "player": BOB, "airport": "Gulf City"})
    s, ev = act(s, {"type": "catastrophe", "player": BOB, "points": 40})  # Bob 45
    view = game.view(s)
    assert [p["score"] for p in view["players"]] == [21, 45, 19]
    assert view["star_reporter"] == ["Bob"] and view["phase"] == "over"


# ---------------------------------------------------------------- properties

def _random_game(seed, n, disasters, steps):
    rng = random.Random(seed)
    setup = game.setup([{"name": "P%d" % i} for i in range(n)], {"disasters": disasters, "airports": BOARD})
    entries = [(0, {"type": "setup", "events": setup})]
    state = fold(game, entries)
    for i in range(steps):
        choices = game.offers(state)
        if not choices:
            break
        offer = rng.choice(choices)
        action = {k: v for k, v in offer.items() if k not in PRESENTATION}
        for field in ("news_points", "disaster_points"):
            if field in offer.get("enter", ()):
                action[field] = rng.randint(1, 40)
        if action["type"] in ("news", "disaster", "catastrophe") and "points" not in action:
            if action["type"] != "news" or state["players"][action["player"]]["assignment"]["points"] is None:
                action["points"] = rng.randint(1, 40)
        if action["type"] == "land":              # one of the offer's airports, as typed in any case
            action["airport"] = rng.choice([rng.choice([a, a.lower()]) for a in offer["choices"]["airport"]])
        if action.get("method") == "airplane" and not state["players"][action["player"]]["plane"]["chartered"]:
            action["at"] = rng.choice(["Baytown", "Lakeport"])
        if action["type"] == "throw" and rng.random() < 0.3:
            action["dice"] = rng.choice([[6, 6], [3, 4], [2, 2]])
        if action["type"] == "draw" and rng.random() < 0.5:
            action.update(city="Riverton", points=rng.randint(1, 9))
        events = game.decide(state, action, rng)
        for ev in events:
            state = game.apply(state, ev)
        entries.append((i + 1, {"type": action["type"], "events": events}))
        view = game.view(state)
        assert state["disasters_drawn"] <= disasters
        assert len(state["open_disasters"]) <= state["disasters_drawn"]
        if state["catastrophe"] is not None:
            assert state["disasters_drawn"] == disasters
        for p in view["players"]:
            assert p["score"] == sum(c["points"] for c in p["cards"])
            assert sum(1 for c in p["cards"] if c["card"] == "catastrophe") <= 1
    return state, entries


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), disasters=st.integers(1, 5))
def test_random_legal_play_keeps_the_count_and_replays_identically(seed, n, disasters):
    """Random offered actions: never more Disasters than chosen, the Catastrophe only after them
    ('Only one CATASTROPHE CARD is turned up'), scores are the sum of the cards won, and replaying
    the stored events gives the same state."""
    state, entries = _random_game(seed, n, disasters, 300)
    assert fold(game, entries) == state
    if state["phase"] == "over":
        scores = [p["score"] for p in game.view(state)["players"]]
        assert state["winners"] == [i for i, v in enumerate(scores) if v == max(scores)]


JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["automobile", "telephone", "news", "plane", "Baytown"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                    max_leaves=4)
KEYS = ["player", "method", "purpose", "at", "dice", "airport", "city", "points", "event", "grid", "card"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**16), steps=st.integers(0, 40),
       kind=st.sampled_from(sorted(rules._ACTIONS) + ["nope", None, 3]))
def test_junk_actions_raise_game_error_only(data, seed, steps, kind):
    """Wrong turns, unknown types, bad values, missing fields and wrong types: always a GameError."""
    state, _ = _random_game(seed, 3, 2, steps)
    junk = {"type": kind}
    for key in data.draw(st.lists(st.sampled_from(KEYS), max_size=4)):
        junk[key] = data.draw(JUNK)
    try:
        events = game.decide(state, junk, random.Random(seed))
    except GameError:
        return
    for ev in events:
        state = game.apply(state, ev)
    game.view(state)


def test_airports_come_from_the_boards_list():
    """'When he shakes this second double he may move his pin and his plane to any airport on the
    board.' The airports are the board's (the "airports" option; the rules name only Baytown's):
    a name is matched without regard to case, anything else is refused with the list."""
    s = start(names=("Ann", "Bob"), airports=["Baytown", "Lakeport"])
    throw_at = next(o for o in game.offers(s) if o.get("method") == "airplane")
    assert throw_at["enter"] == ["at"] and throw_at["choices"] == {"at": ["Baytown", "Lakeport"]}
    for bad in ("Nowhere", "", 7):
        with pytest.raises(GameError, match="Ann: the airport the pin is at is one of the board's airports, "
                                            "Baytown and Lakeport, not"):
            game.decide(s, {"type": "throw", "player": ANN, "method": "airplane", "at": bad, "dice": [2, 2]}, None)
    s, ev = throw(s, ANN, "airplane", (2, 2), at="baytown")
    assert ev[0]["at"] == "Baytown" and s["players"][ANN]["plane"] == {"chartered": True, "at": "Baytown"}
    s, _ = throw(s, BOB, "automobile", (1, 2))
    s, _ = throw(s, ANN, "airplane", (3, 3))
    with pytest.raises(GameError, match="not 'Nowhere'"):
        act(s, {"type": "land", "player": ANN, "airport": "Nowhere"})
    s, _ = act(s, {"type": "land", "player": ANN, "airport": " LAKEPORT "})
    assert s["players"][ANN]["plane"]["at"] == "Lakeport"
    # by default only Baytown, the one the rules name; the sentence says how to list the board's
    d = start(names=("Ann", "Bob"), airports=None)
    with pytest.raises(GameError, match="started with Baytown's only"):
        game.decide(d, {"type": "throw", "player": ANN, "method": "airplane", "at": "Lakeport", "dice": [1, 1]}, None)
    with pytest.raises(GameError, match="“The board's airports” must include Baytown"):
        start(airports=["Lakeport"])
    with pytest.raises(GameError, match="“The board's airports” names an airport twice"):
        start(airports=["Baytown", "baytown"])


def test_the_number_of_disasters_is_set_before_the_game_and_points_are_bounded():
    """'Players may vary the length of a game by deciding before it starts the number of Disaster
    Cards they wish to draw (usually 3 to 5)'; a card's points are bounded (MOST_POINTS), so
    4,300 digits are refused with a sentence and never stored."""
    opt = next(o for o in game.options if o["name"] == "disasters")
    assert (opt["minimum"], opt["maximum"], opt["default"]) == (1, 9, 4) and "usually 3 to 5" in opt["rule"]
    s = drive(start(), ANN)
    for bad in (10 ** 4300, rules.MOST_POINTS + 1, -5, 2.5):
        with pytest.raises(GameError, match="a whole number 1-10,000"):
            game.decide(s, {"type": "news", "player": ANN, "points": bad}, None)


def test_the_chart_counts_points_as_the_table_does():
    """The end card's chart said "Credits after every move" while the screen, the cards and the
    final table say points ("the points on the cards"): the chart's unit is the game's own."""
    from controller.games.base import panel
    facts = panel(game)
    assert facts["score"] == "points"
    assert facts["chart"]["unit"] == "points"


def test_each_points_box_offered_at_once_is_named_for_its_card():
    """With Disasters and the Catastrophe open, the panel showed every points box as "Points on
    the card" (its panel facts' one label for "points"): a screen reader heard five fields of the
    same name. Each offer names its own: the News card, Disaster #k, the Catastrophe card. The
    Catastrophe with the News card or with Disaster #k (or both) named its boxes as the single
    offers did, so "Points on Disaster #1" stood three times on the panel, told apart only by
    their forms: each box of an offer of more than one card says the cards it is with."""
    s = start(disasters=2)
    s, _ = throw(s, ANN, "automobile", (6, 6))
    s, _ = throw(s, BOB, "automobile", (6, 6))
    s, _ = throw(s, CAT, "automobile", (6, 6))            # the Catastrophe
    s = drive(s, ANN)
    named = [(o["type"], o.get("card"), o.get("news", False), o["labels"]) for o in game.offers(s) if o.get("enter")
             and o["type"] != "throw"]
    assert named == [
        ("news", None, False, {"points": "Points on the News card"}),
        ("disaster", 1, False, {"points": "Points on Disaster #1"}),
        ("disaster", 2, False, {"points": "Points on Disaster #2"}),
        ("catastrophe", None, False, {"points": "Points on the Catastrophe card"}),
        ("catastrophe", None, True, {"points": "Points on the Catastrophe card, with the News card",
                                     "news_points": "Points on the News card, with the Catastrophe"}),
        ("catastrophe", None, False, {"points": "Points on the Catastrophe card, with Disaster #1",
                                      "disaster_points": "Points on Disaster #1, with the Catastrophe"}),
        ("catastrophe", None, False, {"points": "Points on the Catastrophe card, with Disaster #2",
                                      "disaster_points": "Points on Disaster #2, with the Catastrophe"}),
        ("catastrophe", None, True, {"points": "Points on the Catastrophe card, with the News card and Disaster #1",
                                     "news_points": "Points on the News card, with the Catastrophe and Disaster #1",
                                     "disaster_points": "Points on Disaster #1, with the Catastrophe and the News card"}),
        ("catastrophe", None, True, {"points": "Points on the Catastrophe card, with the News card and Disaster #2",
                                     "news_points": "Points on the News card, with the Catastrophe and Disaster #2",
                                     "disaster_points": "Points on Disaster #2, with the Catastrophe and the News card"}),
    ]
    # after Disaster #1: each box names the card before it on the move too, and none is named twice
    after, _ = act(s, {"type": "disaster", "player": ANN, "points": 20, "card": 1})
    assert [o["labels"] for o in game.offers(after) if o.get("news") and "disaster" in o] == [
        {"points": "Points on the Catastrophe card, with the News card and Disaster #2 (the same city as Disaster #1)",
         "news_points": "Points on the News card, with the Catastrophe and Disaster #2 (the same city as Disaster #1)",
         "disaster_points": "Points on Disaster #2, with the Catastrophe and the News card (the same city as "
                            "Disaster #1)"}]
    for state in (s, after):
        words = [w for o in game.offers(state) for w in o.get("labels", {}).values()]
        assert len(words) == len(set(words)), words
        for offer in game.offers(state):                  # labels tell the panel how to ask: never part of the move
            assert set(offer.get("labels", {})) <= set(offer.get("enter", ()))


def test_the_next_throw_waits_on_the_movers_report_only_while_there_is_one_to_make():
    """After a move the next player may throw, "(Ann may first report what the move reached)":
    true while Ann can still report her News city, a Disaster or the Catastrophe. Once she has
    reported her News card, with no Disaster open, there is nothing left to report, and the
    sentence still asked the table to wait on her."""
    s = drive(start(names=("Ann", "Bob")), ANN)
    assert rules.waiting_for(s) == "Bob announces a method of travel and throws (Ann may first report what the move reached)"
    s, _ = act(s, {"type": "news", "player": ANN, "points": 5})
    assert not [o for o in game.offers(s) if o["player"] == ANN]
    assert rules.waiting_for(s) == "Bob announces a method of travel and throws"
    assert game.view(s)["waiting_for"] == "Bob announces a method of travel and throws"


def test_what_the_table_waits_on_after_a_move_is_what_the_mover_is_offered():
    """The rules' one reading of "something left to report" (left_to_report, for waiting_for)
    and the view's offers agree in every state a random play passes after a move."""
    import play

    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        for state in play.walk(game, play.start(game, ["Ann", "Bob", "Cy"], {"disasters": 2}), rng, 300):
            if state.get("phase") == "moved":
                seen += 1
                offered = any(o["player"] == state["mover"] and o["type"] != "throw" for o in game.offers(state))
                assert rules.left_to_report(state) == offered, state
    assert seen > 50
