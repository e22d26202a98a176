"""Scoop! (Invisible City, 2002) through the engine: setup -> decide/apply ... -> winner."""

import random

import pytest
from hypothesis import given, settings, strategies as st
from walk import Walk, check_junk_setup

from controller.games.base import GameError, fold
from controller.games.scoop2002 import GAME as game, rules

ANN, BOB, CY = 0, 1, 2


class Dice:
    """An rng that rolls what the test says, so the box's rolls are known."""

    def __init__(self, *values):
        self.values = list(values)

    def randrange(self, n):
        return self.values.pop(0)


def start(names=("Ann", "Bob"), **options):
    state = game.initial()
    for ev in game.setup([{"name": n, "colour": None, "team": None} for n in names], options):
        state = game.apply(state, ev)
    return state


def act(state, action, rng=None):
    events = game.decide(state, action, rng or Dice())
    for ev in events:
        state = game.apply(state, ev)
    return state, events


def move(state, p, roll, place, mark):
    state, _ = act(state, {"type": "move", "player": p})
    state, _ = act(state, {"type": "roll", "player": p, "value": roll})
    state, _ = act(state, {"type": "arrive", "player": p, "place": place})
    return act(state, {"type": "roll", "player": p, "value": mark})[0]


def stay(state, p, mark):
    state, _ = act(state, {"type": "stay", "player": p})
    return act(state, {"type": "roll", "player": p, "value": mark})[0]


def test_a_whole_game_three_sales_win():
    """'To sell three stories to the Action City Times before any other journalist.' ...
    'If you've sold three or more stories by the end of your turn, then you win the game.'"""
    s = start()
    for n, story in enumerate((2, 5, 7), 1):
        s = move(s, ANN, 3, story, 9)            # Ann walks to the scene
        s = move(s, BOB, 4, "street", 9)
        s = stay(s, ANN, 9)                      # one mark on her pad for that story
        s = move(s, BOB, 1, "street", 9)
        s = move(s, ANN, 4, "times", 9)
        s = move(s, BOB, 1, "street", 9)
        s, _ = act(s, {"type": "pitch", "player": ANN, "story": story})
        s, ev = act(s, {"type": "roll", "player": ANN, "value": 1})   # 1 <= research 1 + marks 0
        assert ev[0]["sold"] and len(s["players"][ANN]["sales"]) == n
        assert s["winner"] is None, "the win waits for the end of the turn"
        s, ev = act(s, {"type": "roll", "player": ANN, "value": 9})
        if n < 3:
            s = move(s, BOB, 1, "street", 9)
    assert ev[-1] == {"type": "won", "player": ANN, "sales": 3}
    view = game.view(s)
    assert view["winner_name"] == "Ann" and view["players"][ANN]["sold"] == 3
    assert [x["location"] for x in view["players"][ANN]["sales"]] == [2, 5, 7]
    with pytest.raises(GameError, match="over: Ann won"):
        game.decide(s, {"type": "move", "player": BOB}, Dice())


@pytest.mark.parametrize("roll,steps", [(1, 3), (3, 3), (9, 3), (2, 4), (8, 4), (0, 4)])
def test_move_length_by_roll(roll, steps):
    """'If your roll is odd, then you may move up to three spaces this turn. If your roll is even,
    you may move up to four.' (a 0 reads as 10: even)"""
    s, _ = act(start(), {"type": "move", "player": ANN})
    _, ev = act(s, {"type": "roll", "player": ANN, "value": roll})
    assert ev[0]["steps"] == steps


def test_the_on_the_street_chart_is_configurable_and_shown_with_the_move_roll():
    """'Before you move, find the number you rolled on the On the Street chart on the board and
    act accordingly.' The chart's words are the board's, so they are an option."""
    s = start(street_chart={"7": "Parade! Lose a step."})
    s, _ = act(s, {"type": "move", "player": ANN})
    _, ev = act(s, {"type": "roll", "player": ANN, "value": 7})
    assert ev[0]["street"] == "Parade! Lose a step."
    s2, _ = act(start(), {"type": "move", "player": ANN})
    _, ev = act(s2, {"type": "roll", "player": ANN, "value": 7})
    assert "board" in ev[0]["street"]            # the default never pretends to be the original
    with pytest.raises(GameError, match="street_chart"):
        start(street_chart={"11": "nothing"})


def test_the_on_the_street_chart_entry_is_said_with_the_move_roll():
    """The mover acts on the chart's entry before moving, so the table hears it with the roll: it
    was kept in the move's event and said nowhere."""
    s, _ = act(start(street_chart={"7": "Parade! Lose a step.", "10": "Rain."}), {"type": "move", "player": ANN})
    said = game.describe(s, {"type": "roll", "player": ANN, "value": 7},
                         game.decide(s, {"type": "roll", "player": ANN, "value": 7}, Dice()))
    assert said == "Ann rolled 7: move up to 3 spaces; first the On the Street chart's 7: Parade! Lose a step."
    zero = game.decide(s, {"type": "roll", "player": ANN, "value": 0}, Dice())
    assert game.describe(s, {"type": "roll", "player": ANN, "value": 0}, zero).endswith("first the On the Street chart's 10: Rain.")
    s, _ = act(start(), {"type": "move", "player": ANN})
    plain = game.decide(s, {"type": "roll", "player": ANN, "value": 4}, Dice())
    assert game.describe(s, {"type": "roll", "player": ANN, "value": 4}, plain) == (
        "Ann rolled 4: move up to 4 spaces; first read entry 4 of the board's On the Street chart")


def test_staying_on_the_scene_needs_a_location_and_adds_a_steno_mark():
    """'To stay on the scene: You must start the turn in a Location. Stay there and add a mark to
    your Steno Pad for that story.'"""
    s = start()
    with pytest.raises(GameError, match="Ann can't stay on the scene: Ann starts this turn on the street"):
        game.decide(s, {"type": "stay", "player": ANN}, Dice())
    s = move(s, ANN, 3, 4, 1)
    s = move(s, BOB, 3, "times", 1)
    s = stay(s, ANN, 1)
    s = move(s, BOB, 3, "times", 1)
    s = stay(s, ANN, 1)
    assert s["players"][ANN]["steno"][3] == 2
    with pytest.raises(GameError, match="Bob can't stay on the scene"):
        game.decide(s, {"type": "stay", "player": BOB}, Dice())


def test_the_times_is_no_scene_to_stay_on_and_the_refusal_says_why():
    """'Spaces with names on them are Locations.' The Action City Times is a named space, so the
    refusal said "Bob starts this turn at the Action City Times, not at a Location", which the
    rules' own words contradict. What bars the stay is that the Times has no story: 'Stay there
    and add a mark to your Steno Pad for that story' reads as the ten Locations whose stories are
    rolled for, marked and pitched; that is newsdesk's reading, and the refusal says so."""
    s = start()
    s = move(s, ANN, 3, 4, 1)
    s = move(s, BOB, 3, "times", 1)
    s = stay(s, ANN, 1)
    with pytest.raises(GameError) as refused:
        game.decide(s, {"type": "stay", "player": BOB}, Dice())
    assert str(refused.value) == (
        "Bob can't stay on the scene: Bob starts this turn at the Action City Times, where stories are "
        "pitched, not researched: it has no story of its own (newsdesk's reading: only the ten "
        "numbered Locations do)")
    assert {"type": "stay", "player": BOB} not in game.offers(s)
    with pytest.raises(GameError, match="Ann can't stay on the scene: Ann starts this turn on the street, "
                                        "not at a Location$"):
        game.decide(start(), {"type": "stay", "player": ANN}, Dice())


def test_pitching_needs_the_times_and_a_marked_story():
    """'To pitch a story: You must start the turn at the Action City Times. Stay there and pick a
    story on your Steno Pad that has at least one mark next to it.'"""
    s = start()
    s = move(s, ANN, 3, 4, 1)
    with pytest.raises(GameError, match="Bob can't pitch: a pitch starts the turn at the Action City Times"):
        game.decide(s, {"type": "pitch", "player": BOB, "story": 4}, Dice())
    s = move(s, BOB, 3, "times", 1)
    s = stay(s, ANN, 1)
    with pytest.raises(GameError, match="Bob has no marks for the Stadium story"):
        game.decide(s, {"type": "pitch", "player": BOB, "story": 4}, Dice())
    assert {"type": "pitch", "player": BOB, "story": 4} not in game.offers(s)


def _research_then_pitch(roll, **options):
    """Ann: 2 marks on her pad for #4; the board: marks at #4 from the end-of-turn rolls."""
    s = start(**options)
    s = move(s, ANN, 3, 4, 4)        # board #4: 1
    s = move(s, BOB, 3, 4, 4)        # board #4: 2
    s = stay(s, ANN, 1)              # Ann's pad #4: 1
    s = stay(s, BOB, 1)              # Bob's pad #4: 1
    s = stay(s, ANN, 1)              # Ann's pad #4: 2
    s = move(s, BOB, 3, "street", 1)
    s = move(s, ANN, 3, "times", 1)
    s = move(s, BOB, 3, "street", 1)
    s, _ = act(s, {"type": "pitch", "player": ANN, "story": 4})
    return act(s, {"type": "roll", "player": ANN, "value": roll})


@pytest.mark.parametrize("roll,zero,sold", [(1, "as_read", True), (4, "as_read", True), (5, "as_read", False),
                                             (0, "as_read", True), (0, "ten", False)])
def test_a_pitch_sells_when_the_roll_is_at_most_research_plus_newsworthiness(roll, zero, sold):
    """'Add your marks for that story (your research) to the number of marks at that story's
    Location (its newsworthiness). Roll. If your roll is less than or equal to that sum, then
    you sell the story.' Here research 2 + newsworthiness 2 = 4; a 0 reads as 0 (the rules'
    reading, the default) or as 10 (the "ten" option)."""
    s, ev = _research_then_pitch(roll, zero=zero)
    assert (ev[0]["research"], ev[0]["newsworthiness"]) == (2, 2)
    assert ev[0]["sold"] is sold


@pytest.mark.parametrize("zero", ["as_read", "ten"])
def test_the_pitchs_roll_says_what_sells_before_it_is_rolled(zero):
    """'Add your marks ... to the number of marks at that story's Location ... If your roll is
    less than or equal to that sum, then you sell the story.' The panel asked only "Ann rolls for
    the pitch": the sum a new player needs was said once the roll had been made."""
    s = start(zero=zero)
    s = move(s, ANN, 3, 4, 4)        # board #4: 1
    s = move(s, BOB, 3, 4, 4)        # board #4: 2
    s = stay(s, ANN, 1)              # Ann's pad #4: 1
    s = stay(s, BOB, 1)
    s = stay(s, ANN, 1)              # Ann's pad #4: 2
    s = move(s, BOB, 3, "street", 1)
    s = move(s, ANN, 3, "times", 1)
    s = move(s, BOB, 3, "street", 1)
    s, _ = act(s, {"type": "pitch", "player": ANN, "story": 4})
    said = "Ann rolls for the pitch (a roll of 4 or less sells: 2 Steno Pad marks + 2 at Stadium)"
    assert rules.waiting_for(s) == game.view(s)["waiting_for"] == said


def test_a_sale_clears_the_location_and_everyones_marks_for_that_story():
    """'Remove all marks at that story's Location. All other players must cross out the marks
    they have for that story on their Steno Pads.'"""
    s, _ = _research_then_pitch(3)
    assert s["marks"][3] == 0
    assert s["players"][BOB]["steno"][3] == 0 and s["players"][ANN]["steno"][3] == 0
    assert s["players"][ANN]["sales"] == [4]
    assert s["marks"][0] == 6        # six end-of-turn rolls of 1: #1 keeps its marks


def test_a_failed_story_cannot_be_pitched_next_turn_but_can_after():
    """'If your roll is greater than the sum, then the story did not sell. You may not try to sell
    the same story next turn.'"""
    s, ev = _research_then_pitch(9)
    assert not ev[0]["sold"] and s["players"][ANN]["steno"][3] == 2   # marks kept
    # the pad says when: the turn it failed in and the others' turns are before the one it bars
    assert game.view(s)["players"][ANN]["blocked_when"] == "next turn"
    s = act(s, {"type": "roll", "player": ANN, "value": 1})[0]
    assert game.view(s)["players"][ANN]["blocked_when"] == "next turn"
    s = move(s, BOB, 3, "street", 1)
    assert game.view(s)["players"][ANN]["blocked_when"] == "this turn"
    with pytest.raises(GameError, match="Ann can't pitch the Stadium story again this turn"):
        game.decide(s, {"type": "pitch", "player": ANN, "story": 4}, Dice())
    assert {"type": "pitch", "player": ANN, "story": 4} not in game.offers(s)
    s = move(s, ANN, 1, "times", 1)          # the next turn spent otherwise
    s = move(s, BOB, 3, "street", 1)
    assert {"type": "pitch", "player": ANN, "story": 4} in game.offers(s)
    assert game.view(s)["players"][ANN]["blocked_when"] is None


@pytest.mark.parametrize("roll,location", [(3, 3), (0, 10)])
def test_the_end_of_turn_mark_goes_to_the_location_rolled(roll, location):
    """'Roll and add a mark to the Location that matches the number you rolled.' (0 is #10)"""
    s = move(start(), ANN, 1, "street", roll)
    assert s["marks"][location - 1] == 1 and sum(s["marks"]) == 1
    assert s["turn"] == BOB and s["phase"] == "choose"


def test_turns_pass_to_the_left_and_others_cannot_act():
    """'play starts with you and passes to the left.'"""
    s = start(("Ann", "Bob", "Cy"))
    with pytest.raises(GameError, match="Bob can't act now: it is Ann's turn"):
        game.decide(s, {"type": "move", "player": BOB}, Dice())
    for p in (ANN, BOB, CY):
        assert s["turn"] == p
        s = move(s, p, 1, "street", 1)
    assert s["turn"] == ANN


def test_rolls_and_places_are_checked():
    """A stopwatch's hundredths digit is 0-9: 'Look at the number indicating 100ths of a second.'"""
    s, _ = act(start(), {"type": "move", "player": ANN})
    with pytest.raises(GameError, match="Ann's roll must be a digit 0-9"):
        game.decide(s, {"type": "roll", "player": ANN, "value": 10}, Dice())
    with pytest.raises(GameError, match="Ann can't say where the coin stopped now: Ann rolls to move"):
        game.decide(s, {"type": "arrive", "player": ANN, "place": 2}, Dice())
    s, ev = act(s, {"type": "roll", "player": ANN}, Dice(6))   # no value: the box rolls
    assert ev[0]["value"] == 6 and ev[0]["steps"] == 4
    with pytest.raises(GameError, match="\"place\" is a Location"):
        game.decide(s, {"type": "arrive", "player": ANN, "place": "moon"}, Dice())
    s, _ = act(s, {"type": "arrive", "player": ANN, "place": "Harbor"})   # by name
    assert s["players"][ANN]["place"] == 3


def test_locations_are_configurable_per_board():
    """'Spaces with names on them are Locations.' The names are the board's, so an option."""
    names = ["L%d" % i for i in range(1, 11)]
    view = game.view(start(locations=names))
    assert [loc["name"] for loc in view["locations"]] == names
    with pytest.raises(GameError, match="“The board's ten Location names, #1 first” must be 10 different names"):
        start(locations=names[:9])
    with pytest.raises(GameError, match="2 to 6 players"):
        start(("Ann",))
    with pytest.raises(GameError, match="no variant"):
        start(variants=["speedy"])


def test_thats_my_beat_rolls_distinct_beats_and_allows_pitching_the_beat_unmarked():
    """'you also roll for a Location. This location is your "beat." No player may have the same
    beat as another player. ... You may try to sell a story that's happening at your beat even if
    you do not have any marks for it on your Steno Pad.'"""
    s = start(variants=["thats_my_beat"])
    assert s["phase"] == "beats"
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 6})
    s, ev = act(s, {"type": "roll", "player": BOB, "value": 6})
    assert ev[0]["taken"] and s["turn"] == BOB          # taken: Bob rolls again
    s, _ = act(s, {"type": "roll", "player": BOB, "value": 0})
    assert [p["beat"] for p in s["players"]] == [6, 10] and s["phase"] == "choose"
    s = move(s, ANN, 1, "times", 6)                     # a mark at her beat, #6
    s = move(s, BOB, 1, "street", 1)
    assert {"type": "pitch", "player": ANN, "story": 6} in game.offers(s)
    s, _ = act(s, {"type": "pitch", "player": ANN, "story": 6})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 1})
    assert (ev[0]["research"], ev[0]["newsworthiness"], ev[0]["sold"]) == (0, 1, True)


def test_the_lonely_city_box_plays_ickel_with_the_rng():
    """'On Ickel's turns, all he ever does is try to sell a story. Roll. If the result is less
    than or equal to the number of the Location his nickel is on, then mark off a story on his
    Steno Pad and put his nickel back on the Location #1. Otherwise, move him to the Location with
    the next-highest number. Regardless of the outcome, roll again and add a mark to the Location
    rolled.'"""
    s = start(("Ann",), variants=["lonely_city"])
    assert s["ickel_at"] == 1 and game.view(s)["ickel"]["nickel_on_name"] == "Downtown"
    s, ev = act(s, {"type": "move", "player": ANN})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 1})
    s, ev = act(s, {"type": "arrive", "player": ANN, "place": "street"})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 2}, Dice(5, 8))   # Ickel: 5 > 1, mark #8
    kinds = [e["type"] for e in ev]
    assert kinds == ["marked", "turn_passed", "ickel_pitched", "marked", "turn_passed"]
    assert ev[2]["value"] == 5 and not ev[2]["sold"] and s["ickel_at"] == 2
    assert s["marks"][7] == 1 and s["turn"] == ANN
    s, _ = act(s, {"type": "move", "player": ANN})
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 1})
    s, _ = act(s, {"type": "arrive", "player": ANN, "place": "street"})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 2}, Dice(2, 3))   # 2 <= #2: sold
    assert ev[2]["sold"] and s["ickel_at"] == 1 and len(s["players"][1]["sales"]) == 1
    with pytest.raises(GameError, match="played by the box"):
        game.decide(s, {"type": "move", "player": 1}, Dice())


def test_the_result_marks_n_ickel_as_the_seat_the_box_plays():
    """'The Lonely City: This is a solitaire version of Scoop!': N. Ickel is the box's reporter,
    no person. His row of the result says so ("automated"), for the statistics to count him apart
    from the players; a person's row carries no such mark."""
    rows = game.result(start(("Ann",), variants=["lonely_city"]))["standings"]
    assert rows == [{"name": "Ann", "score": 0, "winner": False, "needed": 3},
                    {"name": "N. Ickel", "score": 0, "winner": False, "automated": True, "needed": 5}]
    assert all("automated" not in r for r in game.result(start(("Ann", "Bob")))["standings"])


def test_each_row_of_the_result_says_the_sales_it_needed():
    """'Ickel wins if he sells five stories. You win if you sell three.' Ann won on her 3 while
    N. Ickel had 4, and the final table read "1st Ann 3, 2nd N. Ickel 4", the higher number
    second with nothing saying what either was out of: each row says the sales it needed."""
    s = start(("Ann",), variants=["lonely_city"])
    assert [(r["name"], r["needed"]) for r in game.result(s)["standings"]] == [
        ("Ann", rules.SALES_TO_WIN), ("N. Ickel", rules.ICKEL_SALES_TO_WIN)] == [("Ann", 3), ("N. Ickel", 5)]
    two = game.result(start(("Ann", "Bob")))["standings"]
    assert [r["needed"] for r in two] == [3, 3]


def test_ickel_wins_with_five_sales():
    """'Ickel wins if he sells five stories. You win if you sell three.'"""
    s = start(("Ann",), variants=["lonely_city"])
    for n in range(1, 6):
        s, _ = act(s, {"type": "move", "player": ANN})
        s, _ = act(s, {"type": "roll", "player": ANN, "value": 1})
        s, _ = act(s, {"type": "arrive", "player": ANN, "place": "street"})
        s, ev = act(s, {"type": "roll", "player": ANN, "value": 2}, Dice(1, 3))   # 1 <= #1
        assert len(s["players"][1]["sales"]) == n
    assert ev[-1] == {"type": "won", "player": 1, "sales": 5}
    assert game.view(s)["winner_name"] == "N. Ickel"
    with pytest.raises(GameError, match="exactly one player"):
        start(("Ann", "Bob"), variants=["lonely_city"])


def test_ickel_start_is_configurable():
    """'When you set up the game, place a nickel on Downtown.' (which number Downtown has is the
    board's, so the nickel's start is an option, by number or name)"""
    assert start(("Ann",), variants=["lonely_city"], ickel_start="Harbor")["ickel_at"] == 3
    assert start(("Ann",), variants=["lonely_city"], ickel_start=7)["ickel_at"] == 7
    # the board's Downtown, however its names are written, not #1 in silence
    names = ["L%d" % i for i in range(1, 10)] + ["DOWNTOWN "]
    assert start(("Ann",), variants=["lonely_city"], locations=names)["ickel_at"] == 10
    with pytest.raises(GameError, match="your board's Location names have no Downtown, where The Lonely City puts "
                                        "N. Ickel first"):
        start(("Ann",), variants=["lonely_city"], locations=["L%d" % i for i in range(1, 11)])
    assert start(("Ann",), variants=["lonely_city"], locations=["L%d" % i for i in range(1, 11)],
                 ickel_start="L4")["ickel_at"] == 4


# ---------------------------------------------------------------- properties

def _random_game(seed, names, options, steps):
    """Play random offered actions; the events, bundled per action as the table stores them."""
    rng = random.Random(seed)
    setup = game.setup([{"name": n} for n in names], options)
    entries = [(0, {"type": "setup", "events": setup})]
    state = game.initial()
    for ev in setup:
        state = game.apply(state, ev)
    for i in range(steps):
        choices = game.offers(state)
        if not choices:
            break
        action = dict(rng.choice(choices))
        if action["type"] == "roll" and rng.random() < 0.5:
            action["value"] = rng.randrange(10)
        events = game.decide(state, action, rng)
        for ev in events:
            state = game.apply(state, ev)
        entries.append((i + 1, {"type": action["type"], "events": events}))
        for loc in state["marks"]:
            assert loc >= 0
        for pl in state["players"]:
            assert all(m >= 0 for m in pl["steno"])
            if state["winner"] is None and state["phase"] == "choose":   # a turn's start
                assert len(pl["sales"]) < (rules.ICKEL_SALES_TO_WIN if pl["box"] else rules.SALES_TO_WIN)
        beats = [pl["beat"] for pl in state["players"] if pl["beat"] is not None]
        assert len(beats) == len(set(beats))
        game.view(state)
    return state, entries


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 6), beat=st.booleans())
def test_random_legal_play_never_crashes_and_replays_identically(seed, n, beat):
    """Random offered actions keep the invariants ('Remove all marks' never leaves a negative
    count; 'No player may have the same beat as another'), and replaying the stored events
    gives the same state."""
    names = ["P%d" % i for i in range(n)]
    variants = (["lonely_city"] if n == 1 else []) + (["thats_my_beat"] if beat else [])
    state, entries = _random_game(seed, names, {"variants": variants}, 400)
    assert fold(game, entries) == state


def test_the_lonely_city_whole_game_won_by_the_player():
    """'Take your turns as you normally would. ... Ickel wins if he sells five stories. You win
    if you sell three.' Ann researches and sells three stories while Ickel keeps failing."""
    s = start(("Ann",), variants=["lonely_city"], zero="ten")
    ickel_rolls = (0, 1)                              # 0 read as 10 (the option): fails below #10; mark #1

    def my_turn(state, *actions):
        for action in actions[:-1]:
            state, _ = act(state, dict(action, player=ANN))
        return act(state, dict(actions[-1], player=ANN), Dice(*ickel_rolls))

    for _n, story in enumerate((3, 6, 8), 1):
        s, _ = my_turn(s, {"type": "move"}, {"type": "roll", "value": 1},
                       {"type": "arrive", "place": story}, {"type": "roll", "value": 2})
        s, _ = my_turn(s, {"type": "stay"}, {"type": "roll", "value": 2})
        s, _ = my_turn(s, {"type": "move"}, {"type": "roll", "value": 1},
                       {"type": "arrive", "place": "times"}, {"type": "roll", "value": 2})
        s, _ = act(s, {"type": "pitch", "player": ANN, "story": story})
        s, ev = act(s, {"type": "roll", "player": ANN, "value": 1})      # 1 <= research 1
        assert ev[0]["sold"]
        s, ev = my_turn(s, {"type": "roll", "value": 2})
    assert ev[-1] == {"type": "won", "player": ANN, "sales": 3}
    # Ickel had 11 turns: failed on #1-#9, moving up each time, sold on #10 (a 10 is <= 10) and
    # went back to #1, failed there and moved to #2
    assert s["players"][1]["sales"] == [10] and s["ickel_at"] == 2
    assert game.view(s)["winner_name"] == "Ann" and game.offers(s) == []


def test_a_three_player_game_with_beats_to_its_winner():
    """That's My Beat with three reporters: 'No player may have the same beat as another player.
    ... You may try to sell a story that's happening at your beat even if you do not have any
    marks for it'; 'If you've sold three or more stories by the end of your turn, then you win.'
    Bob sells his beat three times (it fills up again from the end-of-turn marks)."""
    s = start(("Ann", "Bob", "Cy"), variants=["thats_my_beat"])
    for p, beat in ((ANN, 1), (BOB, 5), (CY, 9)):
        s, _ = act(s, {"type": "roll", "player": p, "value": beat})
    s = move(s, ANN, 1, "street", 5)
    s = move(s, BOB, 1, "times", 5)
    s = move(s, CY, 1, "street", 5)                   # #5 now has 3 marks
    for n in range(1, 4):
        s = move(s, ANN, 1, "street", 5)
        s, _ = act(s, {"type": "pitch", "player": BOB, "story": 5})
        s, ev = act(s, {"type": "roll", "player": BOB, "value": 3})
        assert ev[0]["sold"] and ev[0]["research"] == 0 and s["marks"][4] == 0
        s, ev = act(s, {"type": "roll", "player": BOB, "value": 5})
        if n < 3:
            s = move(s, CY, 1, "street", 5)
            s = move(s, ANN, 1, "street", 5)
            s = move(s, BOB, 1, "times", 5)          # 3 marks again at the beat
            s = move(s, CY, 1, "street", 5)
    assert ev[-1] == {"type": "won", "player": BOB, "sales": 3}
    assert game.view(s)["players"][BOB]["sales"] == [{"location": 5, "name": "University"}] * 3


def test_resell_is_an_option():
    """The rules don't say whether a Location's story, once sold, can be sold again ('Circle it on
    your list to show you've sold it. Remove all marks at that story's Location.'): newsdesk
    allows it by default, and "resell": false sells each Location's story once per player."""
    def sold_four_then_research_again(**options):
        s = start(**options)
        s = move(s, ANN, 3, 4, 4)
        s = move(s, BOB, 3, "street", 1)
        s = stay(s, ANN, 1)
        s = move(s, BOB, 3, "street", 1)
        s = move(s, ANN, 3, "times", 1)
        s = move(s, BOB, 3, "street", 1)
        s, _ = act(s, {"type": "pitch", "player": ANN, "story": 4})
        s, ev = act(s, {"type": "roll", "player": ANN, "value": 1})
        assert ev[0]["sold"]
        s = act(s, {"type": "roll", "player": ANN, "value": 1})[0]
        s = move(s, BOB, 3, "street", 1)
        s = move(s, ANN, 3, 4, 1)
        s = move(s, BOB, 3, "street", 1)
        s = stay(s, ANN, 1)
        s = move(s, BOB, 3, "street", 1)
        s = move(s, ANN, 3, "times", 1)
        return move(s, BOB, 3, "street", 1)
    s = sold_four_then_research_again()
    assert {"type": "pitch", "player": ANN, "story": 4} in game.offers(s) and game.view(s)["resell"]
    s = sold_four_then_research_again(resell=False)
    assert {"type": "pitch", "player": ANN, "story": 4} not in game.offers(s)
    with pytest.raises(GameError, match="Ann has already sold the Stadium story"):
        game.decide(s, {"type": "pitch", "player": ANN, "story": 4}, Dice())
    with pytest.raises(GameError, match="“A Location's story can be sold again after a sale” is true"):
        start(resell="no")


def test_placeholder_location_names_are_said_to_be_placeholders():
    """The rules print no Location names ('Spaces with names on them are Locations'), so the
    default names are newsdesk's and the view says so."""
    assert "placeholder" in game.view(start())["location_names"]
    assert game.view(start(locations=["L%d" % i for i in range(10)]))["location_names"] == "as set for this board"


@pytest.mark.parametrize("players,options,message", [
    (None, {}, "players is a list"),
    ([{"name": "Ann"}, {"name": "Bob"}], [1], "options are a mapping"),
    ([{"name": "Ann"}, {"name": "Bob"}], {"variants": "lonely_city"}, "“Variants” is a list"),
    ([{"name": "Ann"}, {"name": "Bob"}], {"variants": [["x"]]}, "no variant"),
    ([{"name": "Ann"}, {"name": "Bob"}], {"street_chart": {"²": "x"}}, "street_chart entry"),
    (["Ann", "Bob"], {}, "every player needs a name"),
    ([{"name": "Ann"}, {"name": "Ann"}], {}, "share a name"),
    ([{"name": "Ann"}], {"variants": ["lonely_city"], "ickel_start": "Mars"}, "“N. Ickel's first Location” must be"),
])
def test_setup_refuses_bad_settings_with_a_sentence(players, options, message):
    with pytest.raises(GameError, match=message):
        game.setup(players, options)


# ---------------------------------------------------------------- junk and undo

JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["times", "street", "Harbor", "²", "7"]),
                    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                    max_leaves=4)
KEYS = ["player", "story", "value", "place"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32), steps=st.integers(0, 40),
       kind=st.sampled_from(sorted(rules._ACTIONS) + ["nope", None, 3, ["roll"]]),
       variants=st.sampled_from([[], ["thats_my_beat"], ["lonely_city"], ["lonely_city", "thats_my_beat"]]))
def test_junk_actions_raise_game_error_only(data, seed, steps, kind, variants):
    """Wrong turns, unknown types, values out of range, wrong field types, the box's seat, and
    anything after the game is over: always a GameError with a sentence, never another error."""
    names = ("Ann",) if "lonely_city" in variants else ("Ann", "Bob", "Cy")
    rng = random.Random(seed)
    state = start(names, variants=variants)
    for _ in range(steps):                            # somewhere into a game (or past its end)
        choices = game.offers(state)
        if not choices:
            break
        state, _ = act(state, rng.choice(choices), rng)
    junk = {"type": kind}
    for key in data.draw(st.lists(st.sampled_from(KEYS), max_size=4)):
        junk[key] = data.draw(st.one_of(JUNK, st.integers(0, len(state["players"]))))
    action = data.draw(st.sampled_from([junk, junk, junk, None, [junk], "roll"]))
    try:
        events = game.decide(state, action, rng)
    except GameError as e:
        assert str(e) and str(e)[0] != " "
        return
    for ev in events:                                 # whatever was accepted folds cleanly
        state = game.apply(state, ev)
    game.view(state)
    game.offers(state)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32), n=st.integers(1, 4), beat=st.booleans())
def test_undo_and_redo_fold_back_to_the_same_states(data, seed, n, beat):
    """Any run of offered actions, undos (the newest move in force) and redos: an undo gives back
    exactly the state before the move, a redo the state after it, and folding the stored entries
    (undo/redo entries included) gives the state the game is in."""
    rng = random.Random(seed)
    variants = (["lonely_city"] if n == 1 else []) + (["thats_my_beat"] if beat else [])
    walk = Walk(game, game.setup([{"name": "P%d" % i} for i in range(n)], {"variants": variants}))

    def choose(state):
        choices = game.offers(state)
        if not choices:
            return None
        action = dict(rng.choice(choices))
        if action["type"] == "roll" and rng.random() < 0.5:
            action["value"] = rng.randrange(10)
        return action["type"], game.decide(state, action, rng)

    for _ in range(data.draw(st.integers(5, 120))):
        if not walk.step(data.draw(st.integers(0, 5)), choose):
            break
    assert walk.refolds()


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_junk_setups_raise_game_error_only(data):
    """Whatever a start form sends, setup either starts a game or says what to fix."""
    check_junk_setup(game, data, JUNK, [o["name"] for o in game.options])


def test_a_player_at_the_times_with_nothing_to_pitch_is_told_why():
    """"To pitch a story: You must start the turn at the Action City Times. Stay there and pick a
    story on your Steno Pad that has at least one mark next to it." A newcomer who walked to the
    Times with an empty pad was offered "Move" alone, with nothing saying why there was no pitch."""
    s = start()
    s = move(s, ANN, 3, "times", 1)
    s = move(s, BOB, 3, "street", 1)
    assert [o["type"] for o in game.offers(s)] == ["move"]
    assert game.view(s)["waiting_for"] == ("Ann moves (nothing to pitch yet: a pitch needs a story with a mark on "
                                           "Ann's Steno Pad, added by staying on the scene at a Location)")
    s, ev = _research_then_pitch(9)                 # Ann's pitch of #4 (her only story) fails: barred next turn
    assert not ev[0]["sold"]
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 1})
    s = move(s, BOB, 3, "street", 1)
    assert not [o for o in game.offers(s) if o["type"] == "pitch"]
    assert game.view(s)["waiting_for"] == ("Ann moves (nothing to pitch: %s's was pitched last turn and not sold)"
                                           % s["locations"][3])
    s = move(s, ANN, 3, "times", 1)                 # the turn after: #4 can be pitched again, and nothing is added
    s = move(s, BOB, 3, "street", 1)
    assert [o["story"] for o in game.offers(s) if o["type"] == "pitch"] == [4]
    assert "nothing to pitch" not in game.view(s)["waiting_for"]


def test_the_turn_names_only_the_choices_offered():
    """"Choose one of these options: Move, Stay on the Scene, Pitch": only what the player can do
    where they stand is named (no scene to stay on at the Times; no pitch away from it)."""
    state = {"started": True, "phase": "choose", "turn": 0, "players": [{"name": "Ann", "place": None}]}
    for place, words in ((None, "Ann moves"), (3, "Ann chooses to move or stay on the scene")):
        state["players"][0]["place"] = place
        assert rules.waiting_for(state) == words



def test_a_stopwatch_zero_reads_as_the_option_says():
    """'Look at the number indicating 100ths of a second ... That's the number you've "rolled".'
    The rules' words read a 0 as 0, the lowest roll, and that is the default; newsdesk's option
    reads it as 10, as a ten-sided die's 0 face. Both are offered and the form says which is which."""
    opt = next(o for o in game.options if o["name"] == "zero")
    assert opt["default"] == "as_read" and not opt["newsdesk"] and set(opt["choices"]) == {"ten", "as_read"}
    assert opt["rule"] == "That's the number you've \"rolled\"."        # quoted once, above the choices
    assert "as the rules say" in opt["choices"]["as_read"] and "newsdesk's option" in opt["choices"]["ten"]
    s, ev = _research_then_pitch(0, zero="ten")                  # 0 as 10 > 4: not sold
    assert not ev[0]["sold"] and game.view(s)["zero_reads_as"] == 10
    s = start()                                                  # the rules' reading
    s = move(s, ANN, 3, 4, 4)
    s = move(s, BOB, 4, "street", 4)
    s = stay(s, ANN, 9)
    s = move(s, BOB, 1, "street", 9)
    s = move(s, ANN, 4, "times", 9)
    s = move(s, BOB, 3, "street", 1)
    s, _ = act(s, {"type": "pitch", "player": ANN, "story": 4})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 0})
    assert ev[0]["sold"] and game.view(s)["zero_reads_as"] == 0
    assert "rolled 0 pitching" in game.describe(s, {}, ev[:1]).replace(" (0)", "")
    # a 0 still marks the tenth Location either way (it is the only one a 0 can match)
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 0})
    assert ev[0]["location"] == 10
    with pytest.raises(GameError, match="“A stopwatch 0 counts as” is .*\"ten\".*\"as_read\""):
        start(zero="zero")


def test_the_table_may_roll_for_n_ickel_with_the_stopwatch():
    """The Lonely City: 'On Ickel's turns, all he ever does is try to sell a story. Roll. ...
    Regardless of the outcome, roll again and add a mark to the Location rolled.' With
    ickel_rolls "table" the player enters both rolls (or presses the stopwatch button)."""
    s = start(("Ann",), variants=["lonely_city"], ickel_rolls="table")
    s, _ = act(s, {"type": "move", "player": ANN})
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 1})
    s, _ = act(s, {"type": "arrive", "player": ANN, "place": 2})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 3}, Dice())   # the box rolls nothing
    assert ev[-1]["type"] == "turn_passed" and s["turn"] == 1
    assert game.offers(s) == [{"type": "roll", "player": 1}]
    assert "N. Ickel rolls to sell a story" in game.view(s)["waiting_for"]
    s, ev = act(s, {"type": "roll", "player": 1, "value": 1})              # nickel on Downtown #1
    assert ev == [{"type": "ickel_pitched", "player": 1, "value": 1, "location": 1, "sold": True, "next": 1}]
    s, ev = act(s, {"type": "roll", "player": 1, "value": 6})
    assert [e["type"] for e in ev] == ["marked", "turn_passed"] and s["marks"][5] == 1 and s["turn"] == 0
    assert s["players"][1]["sales"] == [1]
    with pytest.raises(GameError, match="played by the box"):
        act(start(("Ann",), variants=["lonely_city"]), {"type": "roll", "player": 1, "value": 1})


@pytest.mark.parametrize("action", [{"type": "move"}, {"type": "stay"}, {"type": "pitch", "story": 1},
                                    {"type": "arrive", "place": 2}])
def test_the_table_rolling_for_n_ickel_can_only_roll_for_him(action):
    """'Ickel never gets out in the field ... On Ickel's turns, all he ever does is try to sell a
    story': with ickel_rolls "table", his seat takes his two rolls and nothing a reporter does."""
    s = start(("Ann",), variants=["lonely_city"], ickel_rolls="table")
    s, _ = act(s, {"type": "move", "player": ANN})
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 1})
    s, _ = act(s, {"type": "arrive", "player": ANN, "place": 2})
    s, _ = act(s, {"type": "roll", "player": ANN, "value": 3})
    assert s["turn"] == 1
    with pytest.raises(GameError, match="N. Ickel never gets out in the field"):
        act(s, dict(action, player=1))
    s, _ = act(s, {"type": "roll", "player": 1, "value": 9})               # his pitch: no sale at #1
    with pytest.raises(GameError, match="N. Ickel never gets out in the field"):
        act(s, dict(action, player=1))


LONG = "1" * 5000       # past the 4,300 digits Python's int() reads: a ValueError, not a refusal


@pytest.mark.parametrize("action", [
    {"type": "move", "player": LONG}, {"type": "stay", "player": "0" * 4999 + "1"},
    {"type": "roll", "player": 0, "value": LONG}, {"type": "arrive", "player": 0, "place": LONG},
    {"type": "pitch", "player": 0, "story": LONG},
])
def test_a_number_of_thousands_of_digits_is_refused_with_a_sentence(action):
    with pytest.raises(GameError):
        game.decide(start(), action, Dice(3, 5))


def test_a_street_chart_giving_one_roll_twice_is_refused():
    """0 is 10 on the chart: given as both, one of the two entries would be dropped without a word."""
    with pytest.raises(GameError, match="street_chart gives roll 10 twice"):
        start(street_chart={"0": "Lose a turn", "10": "Take the subway"})


def test_a_street_chart_roll_of_thousands_of_digits_is_refused_with_a_sentence():
    with pytest.raises(GameError, match="street_chart"):
        start(street_chart={LONG: "words"})


@pytest.mark.parametrize("name", ["resell", "zero", "ickel_rolls", "ickel_start", "locations", "street_chart"])
def test_a_null_option_is_its_default(name):
    """The API says "null or missing: the default", of every option."""
    assert start(**{name: None})["started"]


# ---------------------------------------------------------------- games worked by hand from the rules

def _pitch(state, p, story, roll, mark):
    """A whole pitching turn: the pitch, its roll, Part 2's mark; the state and the pitch's event."""
    state, _ = act(state, {"type": "pitch", "player": p, "story": story})
    state, ev = act(state, {"type": "roll", "player": p, "value": roll})
    return act(state, {"type": "roll", "player": p, "value": mark})[0], ev[0]


def _pads(state):
    """Each Steno Pad as {story: marks}, the way it is written on paper."""
    return [{n: m for n, m in enumerate(pl["steno"], 1) if m} for pl in state["players"]]


def _board(state):
    return {n: m for n, m in enumerate(state["marks"], 1) if m}


def _refused(state, action, message):
    with pytest.raises(GameError, match=message):
        game.decide(state, action, Dice())
    assert action not in game.offers(state)


def _ten_rounds_worked_by_hand(**options):
    """Ann, Bob and Cy's first ten rounds, worked out on paper from the rules text before the
    engine was read: every outcome below was written down first, then checked here."""
    s = start(("Ann", "Bob", "Cy"), **options)
    # 1: everyone walks out; Cy may end on #2 where Ann stands ("you may enter an occupied Location")
    s = move(s, ANN, 3, 2, 2)
    s = move(s, BOB, 4, 5, 5)
    s = move(s, CY, 7, 2, 0)                               # Part 2's 0 marks the tenth Location
    assert _board(s) == {2: 1, 5: 1, 10: 1}
    # 2: "To stay on the scene: ... add a mark to your Steno Pad for that story"
    s = stay(s, ANN, 2)
    s = stay(s, BOB, 5)
    s = stay(s, CY, 9)
    assert _pads(s) == [{2: 1}, {5: 1}, {2: 1}] and _board(s) == {2: 2, 5: 2, 9: 1, 10: 1}
    # 3
    s = move(s, ANN, 6, "times", 2)
    s = stay(s, BOB, 1)
    s = stay(s, CY, 3)
    # 4: Ann's research 1 + newsworthiness 3 = 4 against a 7: "the story did not sell"
    s, ev = _pitch(s, ANN, 2, 7, 4)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 3, False)
    s = move(s, BOB, 8, "times", 5)
    s = stay(s, CY, 6)
    assert _pads(s) == [{2: 1}, {5: 2}, {2: 3}]
    assert _board(s) == {1: 1, 2: 3, 3: 1, 4: 1, 5: 3, 6: 1, 9: 1, 10: 1}
    # 5: "You may not try to sell the same story next turn"; the Times has no scene to stay on
    _refused(s, {"type": "pitch", "player": ANN, "story": 2}, "Ann can't pitch the City Hall story again this turn")
    _refused(s, {"type": "stay", "player": ANN}, "Ann can't stay on the scene")
    s = move(s, ANN, 1, "times", 2)                        # "up to three spaces": she moves none
    s, ev = _pitch(s, BOB, 5, 5, 5)                        # 2 + 3 = 5: a 5 is "less than or equal"
    assert ev["sold"] and s["players"][BOB]["sales"] == [5]
    s = move(s, CY, 2, "times", 8)
    assert _board(s)[5] == 1                               # cleared by the sale, then Part 2's 5
    # 6: Ann sells #2 (1 + 4 = 5 against a 3); Cy's three marks for it are crossed out
    s, ev = _pitch(s, ANN, 2, 3, 7)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 4, True)
    assert _pads(s) == [{}, {}, {}] and 2 not in _board(s)
    s = move(s, BOB, 9, 7, 7)
    _refused(s, {"type": "pitch", "player": CY, "story": 2}, "Cy has no marks for the City Hall story")
    _refused(s, {"type": "pitch", "player": CY, "story": 10}, "Cy has no marks for the Industrial Park story")
    s = move(s, CY, 0, 10, 1)
    # 7, 8
    s = move(s, ANN, 5, 1, 1)
    s = stay(s, BOB, 7)
    s = stay(s, CY, 0)
    s = stay(s, ANN, 1)
    s = move(s, BOB, 2, "times", 7)
    s = move(s, CY, 6, "times", 3)
    assert _pads(s) == [{1: 1}, {7: 1}, {10: 1}]
    assert _board(s) == {1: 4, 3: 2, 4: 1, 5: 1, 6: 1, 7: 4, 8: 1, 9: 1, 10: 2}
    # 9: Bob 1 + 4 = 5 against a 2 sells; Cy 1 + 2 = 3 against a 9 doesn't
    s = move(s, ANN, 4, "times", 1)
    s, ev = _pitch(s, BOB, 7, 2, 9)
    assert ev["sold"] and s["players"][BOB]["sales"] == [5, 7]
    s, ev = _pitch(s, CY, 10, 9, 6)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 2, False)
    # 10: Ann 1 + 5 = 6 against a 6 sells; Cy is barred from #10 this turn
    s, ev = _pitch(s, ANN, 1, 6, 8)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 5, True)
    s = move(s, BOB, 3, 9, 9)
    _refused(s, {"type": "pitch", "player": CY, "story": 10}, "Cy can't pitch the Industrial Park story again this turn")
    s = move(s, CY, 7, 6, 6)
    assert [pl["sales"] for pl in s["players"]] == [[2, 1], [5, 7], []]
    assert _board(s) == {3: 2, 4: 1, 5: 1, 6: 3, 8: 2, 9: 3, 10: 2}
    return s


def test_a_three_player_game_worked_by_hand_from_the_rules():
    """A whole game worked on paper from the rules alone, then played through the engine:
    'Add your marks for that story (your research) to the number of marks at that story's
    Location (its newsworthiness). Roll. If your roll is less than or equal to that sum, then you
    sell the story. ... Remove all marks at that story's Location. All other players must cross
    out the marks they have for that story on their Steno Pads. If your roll is greater than the
    sum, then the story did not sell. You may not try to sell the same story next turn.'
    'Roll and add a mark to the Location that matches the number you rolled.' 'If you've sold
    three or more stories by the end of your turn, then you win the game.'"""
    s = _ten_rounds_worked_by_hand()
    # 11-13: Ann researches #8; Bob's #9 pitch (1 + 4 = 5) misses with an 8
    s = move(s, ANN, 8, 8, 8)
    s = stay(s, BOB, 4)
    s = stay(s, CY, 6)
    s = stay(s, ANN, 8)
    s = move(s, BOB, 1, "times", 9)
    s = stay(s, CY, 2)
    s = move(s, ANN, 5, "times", 3)
    s, ev = _pitch(s, BOB, 9, 8, 5)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 4, False)
    s = move(s, CY, 4, "times", 9)
    assert _pads(s) == [{8: 1}, {9: 1}, {6: 2, 10: 1}]
    assert _board(s) == {2: 1, 3: 3, 4: 2, 5: 2, 6: 4, 8: 4, 9: 5, 10: 2}
    # 14: Ann's third sale (1 + 4 = 5 against a 4); the win waits for Part 2's mark
    s, _ = act(s, {"type": "pitch", "player": ANN, "story": 8})
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 4})
    assert ev[0]["sold"] and s["winner"] is None
    s, ev = act(s, {"type": "roll", "player": ANN, "value": 2})
    assert ev == [{"type": "marked", "player": ANN, "value": 2, "location": 2},
                  {"type": "won", "player": ANN, "sales": 3}]
    assert [pl["sales"] for pl in s["players"]] == [[2, 1, 8], [5, 7], []]
    assert game.view(s)["winner_name"] == "Ann" and game.offers(s) == []


@pytest.mark.parametrize("resell", [True, False])
def test_the_hand_worked_game_ending_on_a_story_sold_again(resell):
    """The same game, Ann going back to City Hall (#2), whose story she sold in round 6. Whether a
    Location's story can be sold again the rules don't say ('Circle it on your list to show you've
    sold it. Remove all marks at that story's Location.'): newsdesk's "resell" option, on by
    default, lets her research it anew and sell it (1 + 1 = 2 against a 2) for her third sale;
    off, the pitch is refused."""
    s = _ten_rounds_worked_by_hand(resell=resell)
    s = move(s, ANN, 8, 2, 8)
    s = stay(s, BOB, 4)
    s = stay(s, CY, 6)
    s = stay(s, ANN, 8)                                    # a new mark for #2's new story
    s = move(s, BOB, 1, "times", 9)
    s = stay(s, CY, 2)                                     # #2 has a mark again
    s = move(s, ANN, 5, "times", 3)
    s, _ = _pitch(s, BOB, 9, 8, 5)
    s = move(s, CY, 4, "times", 9)
    assert _pads(s)[ANN] == {2: 1} and _board(s)[2] == 1
    if not resell:
        _refused(s, {"type": "pitch", "player": ANN, "story": 2}, "Ann has already sold the City Hall story")
        return
    s, ev = _pitch(s, ANN, 2, 2, 2)
    assert (ev["research"], ev["newsworthiness"], ev["sold"]) == (1, 1, True)
    assert s["players"][ANN]["sales"] == [2, 1, 2] and game.view(s)["winner_name"] == "Ann"


# N. Ickel's nine turns as worked on paper: (his pitch roll, his mark roll), and where his nickel
# stands after each and his sales, under each reading of a 0 (his seventh roll is a 0 at #3).
_ICKEL_ROLLS = [(1, 7), (2, 2), (2, 9), (1, 3), (5, 5), (3, 8), (0, 6), (4, 2), (1, 1)]
_ICKEL_TRAIL = {
    "as_read": ([1, 2, 1, 1, 2, 3, 1, 2, 1], [1, 2, 1, 3, 2]),     # 0 <= 3 sells; 4 > 1; 1 <= 2
    "ten": ([1, 2, 1, 1, 2, 3, 4, 1, 1], [1, 2, 1, 4, 1]),         # 10 > 3 moves on; 4 <= 4; 1 <= 1
}


@pytest.mark.parametrize("zero", ["as_read", "ten"])
@pytest.mark.parametrize("ickel_rolls", ["box", "table"])
def test_a_lonely_city_game_worked_by_hand_n_ickel_wins(zero, ickel_rolls):
    """The Lonely City worked on paper from the rules, Ann against N. Ickel: 'place a nickel on
    Downtown' (#1 on newsdesk's placeholder board); 'Roll. If the result is less than or equal to
    the number of the Location his nickel is on, then mark off a story on his Steno Pad and put
    his nickel back on the Location #1. Otherwise, move him to the Location with the
    next-highest number. Regardless of the outcome, roll again and add a mark to the Location
    rolled. Ickel wins if he sells five stories. You win if you sell three.' Ann sells one story
    and misses another; N. Ickel sells his fifth on his ninth turn. His seventh roll is a 0 on #3:
    read as 0 (the rules' digit, the default) it sells, read as 10 (newsdesk's option) he moves to
    #4 and sells there next turn; he wins on the ninth turn either way."""
    s = start(("Ann",), variants=["lonely_city"], zero=zero, ickel_rolls=ickel_rolls)
    rolls = list(_ICKEL_ROLLS)
    trail = []

    def turn(state, *actions):
        for action in actions[:-1]:
            state, _ = act(state, dict(action, player=ANN))
        pitch, mark = rolls.pop(0)
        if ickel_rolls == "box":
            state, _ = act(state, dict(actions[-1], player=ANN), Dice(pitch, mark))
        else:
            state, _ = act(state, dict(actions[-1], player=ANN), Dice())
            state, _ = act(state, {"type": "roll", "player": 1, "value": pitch})
            state, _ = act(state, {"type": "roll", "player": 1, "value": mark})
        trail.append(state["ickel_at"])
        return state

    def walk(roll, place, mark):
        return ({"type": "move"}, {"type": "roll", "value": roll}, {"type": "arrive", "place": place},
                {"type": "roll", "value": mark})

    s = turn(s, *walk(3, 4, 4))
    s = turn(s, {"type": "stay"}, {"type": "roll", "value": 4})
    s = turn(s, *walk(6, "times", 4))
    s = turn(s, {"type": "pitch", "story": 4}, {"type": "roll", "value": 4}, {"type": "roll", "value": 0})
    assert s["players"][ANN]["sales"] == [4]               # 1 + 3 = 4 against a 4
    _refused(s, {"type": "pitch", "player": ANN, "story": 4}, "Ann has no marks for the Stadium story")
    s = turn(s, *walk(1, 3, 3))
    s = turn(s, {"type": "stay"}, {"type": "roll", "value": 3})
    s = turn(s, *walk(2, "times", 1))
    s = turn(s, {"type": "pitch", "story": 3}, {"type": "roll", "value": 9}, {"type": "roll", "value": 3})
    assert s["players"][ANN]["sales"] == [4]               # 1 + 3 = 4 against a 9
    _refused(s, {"type": "pitch", "player": ANN, "story": 3}, "Ann can't pitch the Harbor story again this turn")
    s = turn(s, *walk(5, "times", 5))
    assert (trail, s["players"][1]["sales"]) == _ICKEL_TRAIL[zero]
    # eighteen Part 2 marks, less the three Ann's sale cleared at #4: his sales clear nothing
    assert _board(s) == {1: 2, 2: 2, 3: 4, 5: 2, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1}
    assert s["winner"] == 1 and game.view(s)["winner_name"] == "N. Ickel" and game.offers(s) == []
