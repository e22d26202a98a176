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
