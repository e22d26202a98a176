"""What every game shares from games/base.py: the moves in force after undo and redo, and the
state folded from them."""

import types

import pytest

from controller.games import base
from controller.games.base import GameError


def test_an_event_is_reversed_at_most_once():
    entries = [(1, {"type": "setup", "events": []}), (2, {"type": "action", "events": []}),
               (3, {"type": "undo", "target": 2})]
    with pytest.raises(GameError, match="already undone"):
        base.effective(entries + [(4, {"type": "undo", "target": 2})])


def test_a_redo_puts_back_every_event_its_undo_took_in_its_place():
    """Undo takes back everything one tap did, and redo puts it back where it was: the fold
    replays the moves in force in the order they were made."""
    counter = types.SimpleNamespace(initial=list, apply=lambda state, ev: state + [ev["n"]])
    entries = [(1, {"type": "setup", "events": [{"n": 1}]}), (2, {"type": "action", "events": [{"n": 2}, {"n": 3}]}),
               (3, {"type": "action", "events": [{"n": 4}]}), (4, {"type": "undo", "target": 2})]
    assert base.fold(counter, entries) == [1, 4]
    assert base.fold(counter, entries + [(5, {"type": "redo", "target": 2})]) == [1, 2, 3, 4]
    with pytest.raises(GameError, match="not undone, so it can't be redone"):
        base.effective(entries[:3] + [(4, {"type": "redo", "target": 3})])
    with pytest.raises(GameError, match="event 9 can't be undo: it is not in this game"):
        base.effective(entries + [(5, {"type": "undo", "target": 9})])


def _containers(data, path=()):
    """(path, container) for every dict and list inside ``data``, ``data`` first."""
    if isinstance(data, (dict, list)):
        yield path, data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, (list, tuple)) else ()
    for key, value in items:
        yield from _containers(value, path + (key,))


def test_a_copied_state_is_equal_shares_nothing_and_keeps_its_types():
    """``copied`` stands in for copy.deepcopy in every apply(): over states from random play of
    every game (and a tuple and a number-keyed map, which a JSON round trip would change), the
    copy is equal, of the same types all through, and changing any dict or list in it leaves
    the original as it was."""
    import random

    from play import TABLES, start, walk
    rng = random.Random(5)
    states = [{"seats": (1, 2), "by_seat": {0: ["Ann"], 1: ["Bob"]}}]
    for engine, names, options in TABLES:
        states.extend(list(walk(engine, start(engine, names, options), rng, 40))[::10])
    for state in states:
        before = repr(state)
        twin = base.copied(state)
        assert twin == state and repr(twin) == before
        originals = dict(_containers(state))
        for path, inside in _containers(twin):
            assert inside is not originals[path], "shared at %r" % (path,)
            if isinstance(inside, dict):
                inside["changed"] = True
            else:
                inside.append("changed")
        assert repr(state) == before


def _race_result(state):
    won = [p for p, n in state.get("points", {}).items() if n >= 3]
    return base.result_of(bool(won), [(p, n, p in won) for p, n in state.get("points", {}).items()], None)


@pytest.mark.parametrize("state, action, error, words", [
    ({"started": False}, {"type": "point"}, base.NotSetUp, "set up a game of Race first"),
    ("junk", {"type": "point"}, base.NotSetUp, "set up a game of Race first"),
    ({"started": True, "points": {"Ann": 3, "Bob": 1}}, "junk", base.GameOver, "the game is over: Ann won"),
    ({"started": True, "points": {"Ann": 1}}, ["point"], base.NotAnAction, base.NOT_AN_ACTION),
    ({"started": True, "points": {"Ann": 1}}, {"type": "juggle"}, base.UnknownAction,
     "Race has no action 'juggle'; try one of: pass, point"),
    ({"started": True, "points": {"Ann": 1}}, {"type": None}, base.UnknownAction, "Race has no action None"),
])
def test_guard_called_with_keywords_writes_the_standard_refusals(state, action, error, words):
    """The sentences every game shares are guard's, not each game's: a plug-in gives its title,
    its actions and its result, and the refusals come out alike in every game."""
    with pytest.raises(error) as caught:
        base.guard(state, action, title="Race", actions=("point", "pass"), result=_race_result)
    assert str(caught.value).startswith(words) and isinstance(caught.value, GameError)


def test_guard_says_how_the_game_ended_in_the_games_own_words_and_lets_a_known_action_through():
    ended = {"started": True, "points": {"Ann": 3, "Bob": 3}}
    with pytest.raises(base.GameOver, match="^the game is over: Ann and Bob won$"):
        base.guard(ended, {"type": "point"}, title="Race", actions=("point",), result=_race_result)
    with pytest.raises(base.GameOver, match="^the game is over: a dead heat$"):
        base.guard(ended, {"type": "point"}, title="Race", actions=("point",), result=_race_result,
                   over=lambda s: "a dead heat")
    assert base.guard({"started": True, "points": {"Ann": 0}}, {"type": "point"}, title="Race",
                      actions=("point",), result=_race_result) == "point"
    with pytest.raises(TypeError, match="takes title=, actions=, result="):
        base.guard({"started": True}, {"type": "point"}, ("point",), title="Race")      # type: ignore[call-overload]


def test_the_declared_options_come_back_each_with_its_value_or_its_default():
    """What setup reads: every declared option, a value left out or null its default, and a value
    the table chose (a 0, a false) as it chose it, never mistaken for "not given"."""
    target = base.option("target", "integer", 3, "The first to reach the target wins.", "Points to win",
                         minimum=0, maximum=9)
    doubles = base.option("doubles", "boolean", True, "Doubles score twice.", "Doubles score twice")
    assert base.check_declared("Race", [target, doubles], None) == {"target": 3, "doubles": True}
    assert base.check_declared("Race", [target, doubles], {"target": None}) == {"target": 3, "doubles": True}
    assert base.check_declared("Race", [target, doubles], {"target": 0, "doubles": False}) == {
        "target": 0, "doubles": False}


def test_an_option_of_a_variant_not_chosen_is_refused_not_taken_in_silence():
    """The game plays without it: a table that set “Sprint: points to win” without choosing
    Sprint is told so, not left to find out at the end. Its default, or a null, is no choice."""
    variants = base.option("variants", "choices", [], "Variants.", "Variants",
                           choices={"sprint": "Sprint: first to three.", "long": "Long: first to nine."})
    mode = base.option("mode", "choice", "long", "Mode.", "Mode", choices={"sprint": "Sprint", "long": "Long"})
    target = base.option("target", "integer", 3, "The first to reach the target wins.",
                         "Sprint: points to win (1-9)", minimum=1, maximum=9, variant="sprint")
    with pytest.raises(GameError, match="^“Sprint: points to win” is an option of Sprint: choose that variant "
                                        "too, or leave it out$"):
        base.check_declared("Race", [variants, target], {"target": 5})
    assert base.check_declared("Race", [variants, target], {"target": 5, "variants": ["sprint"]})["target"] == 5
    assert base.check_declared("Race", [variants, target], {"target": 3})["target"] == 3
    assert base.check_declared("Race", [variants, target], {"target": None})["target"] == 3
    # a variant chosen as one choice, not a list of them
    with pytest.raises(GameError, match="is an option of Sprint"):
        base.check_declared("Race", [mode, target], {"target": 5})
    assert base.check_declared("Race", [mode, target], {"target": 5, "mode": "sprint"})["target"] == 5


def test_an_option_of_several_variants_is_taken_with_any_of_them_and_refused_with_none():
    """A tie two sides can't have in one variant belongs to all the others: asked, and taken,
    with any of them chosen; set with none of them, the sentence names them all."""
    mode = base.option("mode", "choice", "duel", "Mode.", "Mode",
                       choices={"duel": "Duel: two sides.", "melee": "Melee: three.", "crowd": "Crowd: four."})
    tie = base.option("tie", "choice", "share", "Ties.", "Two sides level", choices={"share": "Share", "both": "Both"},
                      variant=("melee", "crowd"))
    assert base.option_variants(tie) == ("melee", "crowd") and base.option_variants(mode) == ()
    with pytest.raises(GameError, match="^“Two sides level” is an option of Melee or Crowd: choose one of those "
                                        "variants too, or leave it out$"):
        base.check_declared("Race", [mode, tie], {"tie": "both"})
    for chosen in ("melee", "crowd"):
        assert base.check_declared("Race", [mode, tie], {"tie": "both", "mode": chosen})["tie"] == "both"
    assert base.check_declared("Race", [mode, tie], {"tie": "share"})["tie"] == "share"
    variants = base.option("variants", "choices", [], "Variants.", "Variants",
                           choices={"duel": "Duel", "melee": "Melee", "crowd": "Crowd"})
    assert base.check_declared("Race", [variants, tie], {"tie": "both", "variants": ["duel", "crowd"]})["tie"] == "both"
    with pytest.raises(GameError, match="is an option of Melee or Crowd"):
        base.check_declared("Race", [variants, tie], {"tie": "both", "variants": ["duel"]})


def test_a_declared_bound_refused_opens_with_the_option_as_the_start_form_names_it():
    """The panel shows the sentence beside the field, so it starts with the field's label (cut at
    its aside), never with the game's title or the option's key."""
    target = base.option("target", "integer", 3, "The first to reach the target wins.", "Points to win (1-9)",
                         minimum=1, maximum=9)
    with pytest.raises(GameError, match="^“Points to win” is a whole number 1-9, not 10$"):
        base.check_declared("Race", [target], {"target": 10})
    with pytest.raises(GameError, match="^Race has no option colour; its options are target$"):
        base.check_declared("Race", [target], {"colour": 1})


def test_an_empty_entry_is_said_in_words_not_as_python_quotes():
    """"enter the value printed on the story, e.g. 500, not ''" read like a program's output."""
    assert base.quoted("") == "an empty field" and base.quoted("   ") == "an empty field"
    assert base.quoted("x") == "'x'" and base.quoted(500) == "500"
