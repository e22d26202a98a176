"""What every game engine is, and how a game's history folds into its state.

A game engine is a module (scoop1956, scoop2002, scan, star_reporter, get_the_scoop) with:

    NAME: str                      short id, e.g. "scoop1956"
    TITLE: str                     "SCOOP (Parker Brothers, 1956)"
    VARIANTS: dict                 variant id -> plain description
    def setup(players, options) -> list[dict]
        The events that start a game (validated; raises GameError).
        players: [{"name": str, "colour": str, "team": str|None}, ...]
    def initial() -> state         the empty state the setup events fold onto
    def decide(state, action, rng) -> list[dict]
        Check an action a tablet asked for against the rules and the state; return the events
        it causes (facts, JSON-able dicts with a "type"), or raise GameError with one sentence a
        person can act on. rng: random.Random-like, handed in (dice the box rolls itself).
    def apply(state, event) -> state
        Pure fold; never raises for events decide() produced. Returns a NEW state (do not mutate).
    def offers(state) -> list[dict]  the actions the panel can offer now (for one-tap buttons)
    def view(state) -> dict          JSON for the panel: players, money/score, whose turn, winner

Events and actions are plain dicts so they store as JSON and replay identically. Rules'
constants (prices, bonuses, targets) live in the game's module, once.

Undo/redo never rewrite history: an {"type": "undo", "target": id} event takes event ``id`` out
of the effective history, {"type": "redo", "target": id} puts it back; the state is the fold of
the effective events. ``effective`` works that out for any game.
"""

from ..errors import NewsdeskError


class GameError(NewsdeskError, ValueError):
    """An action the rules (or the state of the game) don't allow; the message says why."""


def _and(words):
    words = list(words)
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def check_options(title, options, known):
    """A setup's options as a dict, refusing anything but the ``known`` ones by name."""
    if options is not None and not isinstance(options, dict):
        raise GameError("%s's options are a mapping of %s" % (title, _and(known)))
    options = dict(options or {})
    unknown = set(map(str, options)) - set(known)
    if unknown:
        raise GameError("%s has no option %s; its options are %s"
                        % (title, ", ".join(sorted(unknown)), _and(known)))
    return options


def check_players(title, players, fewest, most):
    """The players' names, each given and different, and as many players as the game takes."""
    if not isinstance(players, (list, tuple)):
        raise GameError("list the players, each as {\"name\": ...}")
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name, so the panel can say whose turn it is")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    if not fewest <= len(players) <= most:
        raise GameError("%s is for %d to %d players, not %d" % (title, fewest, most, len(players)))
    return names


def is_int(value):
    """A whole number, and not a bool (JSON's true is no seat number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat(state, value):
    """``value`` as a seat of ``state``'s players, or GameError saying what a seat is."""
    n = len(state["players"])
    if not is_int(value) or not 0 <= value < n:
        raise GameError("say which player: \"player\" is a seat number 0-%d, not %r" % (n - 1, value))
    return value


def player_name(state, p):
    return state["players"][p]["name"]


def say_events(says, state, events):
    """A move in one sentence from what each of its events says: ``says`` maps an event type to
    ``fn(state, event)`` returning words or None (state: the game before the move)."""
    out = []
    for ev in events:
        say = says.get(ev["type"])
        text = say(state, ev) if say else None
        if text:
            out.append(text)
    return "; ".join(out)


def effective(events):
    """The (id, event) pairs still in force after undo/redo events, in order.

    ``events`` is a list of (id, event) pairs. An event is undone at most once at a time: an
    undo of an already-undone event, or a redo of one in force, is refused (GameError).
    """
    undone = set()
    ids = set()
    for eid, ev in events:
        kind = ev.get("type")
        if kind in ("undo", "redo"):
            target = ev.get("target")
            if target not in ids:
                raise GameError("event %r can't be %s: it is not in this game" % (target, kind))
            if kind == "undo":
                if target in undone:
                    raise GameError("event %r is already undone" % (target,))
                undone.add(target)
            else:
                if target not in undone:
                    raise GameError("event %r is not undone, so it can't be redone" % (target,))
                undone.discard(target)
        else:
            ids.add(eid)
    return [(eid, ev) for eid, ev in events if ev.get("type") not in ("undo", "redo") and eid not in undone]


def fold(engine, entries):
    """The state after ``entries`` ((id, entry) pairs, undo/redo included).

    An entry is one event, or one action's events bundled as {"type": ..., "events": [...]}, so
    that undo takes back everything one tap did.
    """
    state = engine.initial()
    for _, entry in effective(entries):
        for ev in entry["events"] if "events" in entry else (entry,):
            state = engine.apply(state, ev)
    return state
