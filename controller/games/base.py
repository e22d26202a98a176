"""What the games share: the shape of a game's result, the refusals every decide() starts with,
the options' declarations and checks, and how a game's history folds into its state.

A game is one ``Game`` declaration (game.py), found by the registry (registry.py). Its rules are
pure functions over plain dicts; the helpers here are what every one of them uses, written once:
``result_of`` makes the Result each game gives of itself, ``guard`` is the refusal every
decide() starts with (not set up, over, not an action, an action the game doesn't have), and
``option`` declares a setup option the start form, the API document and the checks are made
from.

Events and actions are plain dicts so they store as JSON and replay identically (a rule's
``Event`` is kept inside a game entry; the store's own log line that announces the entry is a
``store.StoredEvent``, another thing). Rules' constants (prices, bonuses, targets) live in the
game's package, once.

Undo/redo never rewrite history: an {"type": "undo", "target": id} event takes event ``id`` out
of the effective history, {"type": "redo", "target": id} puts it back; the state is the fold of
the effective events. ``effective`` works that out for any game.
"""

import pickle
from typing import Any, Callable, Iterable, Mapping, NotRequired, Sequence, TypedDict, TypeGuard, TypeVar, overload

from ..errors import NewsdeskError

State = dict[str, Any]      # a game's state: JSON-able, never mutated in place
Event = dict[str, Any]      # a fact, with a "type": kept in a game entry as JSON, replayed identically
Action = dict[str, Any]     # what a tablet asks for, with a "type"

Data = TypeVar("Data")


def copied(data: Data) -> Data:
    """A deep copy of a game's plain data (dicts, lists, tuples, strings, numbers: what its
    states, events and views are made of): equal to what ``copy.deepcopy`` gives, and sharing
    nothing with ``data``, at about a seventh of its cost. Every apply() copies the state for
    each event, and a game is the fold of all its events, so this is the game wing's busiest
    line (bench/game_wing.py measures it against the deepcopy it replaced)."""
    twin: Data = pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
    return twin


class GameError(NewsdeskError, ValueError):
    """An action the rules (or the state of the game) don't allow; the message says why."""

    status = 422


class Standing(TypedDict):
    """One player's line of a game's result; ``automated`` (true) only on a seat the box itself
    plays, an automated opponent, which the statistics count apart from the people; ``needed``
    only in a game that is won by reaching a score, the score that row needed (seats may need
    different ones), so the final table says what each number is out of."""

    name: str
    score: int | None        # money or points (Result.score_kind); None in a game without a score
    winner: bool             # never True before the game is over
    automated: NotRequired[bool]    # present (True) only on the box's seat (The Lonely City's N. Ickel)
    needed: NotRequired[int]        # only in a game won by reaching a score: the score this row needed


class TeamStanding(TypedDict):
    """One side's line, in a game played by sides (SCAN): its members share its score and win."""

    side: str
    members: list[str]
    score: int | None
    winner: bool


class Result(TypedDict):
    """What a game says of itself: over or not, who won and what each ended with.

    ``winners`` is empty while the game is not over; a tie lists everyone who shares the win.
    ``standings`` has one row per player, in the order the game lists its players (its seats;
    SCAN: side by side), and the same rows the history, the exports and the league keep.
    ``teams`` has a row per side in a game played by sides, [] otherwise. ``score_kind`` is the
    game's panel facts' "score": "money", "points", or None for a game that keeps no score.
    """

    over: bool
    winners: list[str]
    standings: list[Standing]
    teams: list[TeamStanding]
    score_kind: str | None


# ---------------------------------------------------------------- the result and the guard

def result_of(over: bool, rows: Iterable[tuple[str, int | None, bool]], panel: dict[str, Any] | None,
              teams: Iterable[tuple[str, list[str], int | None, bool]] = (), automated: Iterable[str] = (),
              needed: Mapping[str, int] | None = None) -> Result:
    """A game's Result from its rows as the engine works them out: (name, score, won) per
    player, (side, members, score, won) per side, and the game's panel facts (its
    "score" is the result's score_kind). Nobody is a winner while the game is not over.

    ``automated`` names the seats the box itself plays, an opponent no person plays (The Lonely
    City's N. Ickel): their rows say ``automated``, and the statistics, the history's and the
    league's, count them apart from the people. The game is the one home of which seats those
    are: what reads its result tells them by this mark, never by a name.

    ``needed`` (name -> score), in a game won by reaching a score, gives each row the score it
    needed: the final table says "4 of 5 needed", not a bare 4 under a winner's 3."""
    box = {str(name) for name in automated}
    goals = {str(name): n for name, n in (needed or {}).items() if is_int(n)}
    standings = []
    for name, score, won in rows:
        row = Standing(name=str(name), score=score if is_int(score) else None, winner=bool(over and won))
        if row["name"] in box:
            row["automated"] = True
        if row["name"] in goals:
            row["needed"] = goals[row["name"]]
        standings.append(row)
    sides = [TeamStanding(side=str(side), members=[str(m) for m in members],
                          score=score if is_int(score) else None, winner=bool(over and won))
             for side, members, score, won in teams]
    return Result(over=bool(over), winners=[r["name"] for r in standings if r["winner"]], standings=standings,
                  teams=sides, score_kind=dict(PANEL_DEFAULTS, **(panel or {}))["score"])


NOT_AN_ACTION = "an action is a dict with a \"type\""
EVENTS = "a list of events, each with a \"type\""      # what setup() and decide() give


def are_events(events: object) -> TypeGuard[list[Event]]:
    """Whether ``events`` is what setup() and decide() must give (EVENTS): the box refuses a move
    of anything else, and the kit's play stops at it, both saying so in those words."""
    return isinstance(events, list) and all(isinstance(e, dict) and "type" in e for e in events)


class NotSetUp(GameError):
    """An action sent to a game that has not been set up (``guard``: "set up a game of TITLE first")."""


class GameOver(GameError):
    """Any action sent to a game that is over (``guard``: "the game is over: ANN won")."""


class NotAnAction(GameError):
    """Something sent as an action that is not a dict with a text "type" (``guard``: NOT_AN_ACTION)."""


class UnknownAction(GameError):
    """An action of a type the game doesn't have (``guard``: "TITLE has no action 'x'; try one of: ...")."""


def action_type(action: object) -> str | None:
    """The type of ``action`` when it is an action at all (a dict with a text "type"), else None."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else None


@overload
def guard(state: State, action: object, *, title: str, actions: Iterable[str],
          result: Callable[[State], Result], over: Callable[[State], str] | None = None) -> str: ...


@overload
def guard(state: State, action: object, kinds: Iterable[str], result: Callable[[State], Result], unset: str,
          over: Callable[[State], str], unknown: Callable[[object], str]) -> str: ...


def guard(state: State, action: object, kinds: Iterable[str] | None = None,
          result: Callable[[State], Result] | None = None, unset: str | None = None,
          over: Callable[[State], str] | None = None, unknown: Callable[[object], str] | None = None, *,
          title: str | None = None, actions: Iterable[str] | None = None) -> str:
    """The refusals every decide() starts with, in one order, and their sentences, so that every
    game says them alike; returns the action's type. Call it with keywords::

        kind = guard(state, action, title=TITLE, actions=("point", "pass"), result=result)

    In order: a game not set up (no true "started" in ``state``) is refused with NotSetUp, "set
    up a game of TITLE first"; a game its own ``result`` says is over, with GameOver, "the game
    is over: " and ``over(state)`` (by default "ANN and BOB won"), whatever the action; something
    not an action, with NotAnAction; an action type not among ``actions``, with UnknownAction,
    "TITLE has no action 'x'; try one of: ...". Each is a GameError (the panel shows its sentence).

    The positional form (kinds, result, unset, over, unknown: the sentences written by the game)
    is how the first games called it; it raises the same errors with the game's own words.
    """
    if title is not None:
        if actions is None or result is None or kinds is not None or unset is not None or unknown is not None:
            raise TypeError("guard() takes title=, actions=, result= and, if the game has words of its own "
                            "for how it ended, over=")
        kinds, unset = tuple(actions), "set up a game of %s first" % title
        ends, refuse = _over_words(result, over), _unknown_words(title, kinds)
    elif kinds is None or result is None or unset is None or over is None or unknown is None:
        raise TypeError("guard() takes title=, actions= and result= (and over=)")
    else:
        ends, refuse = over, unknown
    if not isinstance(state, dict) or not state.get("started"):
        raise NotSetUp(unset)
    if result(state)["over"]:
        raise GameOver(ends(state))
    if not isinstance(action, dict):
        raise NotAnAction(NOT_AN_ACTION)
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        raise UnknownAction(refuse(kind))
    return kind


def _over_words(result: Callable[[State], Result], over: Callable[[State], str] | None) -> Callable[[State], str]:
    """guard's sentence for a game over: "the game is over: " and the game's words, or who won."""
    def words(state: State) -> str:
        winners = result(state)["winners"]
        said = over(state) if over else ("%s won" % and_list(winners) if winners else "")
        return "the game is over: %s" % said if said else "the game is over"
    return words


def _unknown_words(title: str, kinds: tuple[str, ...]) -> Callable[[object], str]:
    """guard's sentence for an action type the game doesn't have, naming the ones it has."""
    def words(kind: object) -> str:
        return "%s has no action %s; try one of: %s" % (title, quoted(kind), ", ".join(sorted(kinds)))
    return words


def variant_option(game: Any) -> tuple[str, str] | None:
    """(name, "one" or "many") of the option whose choices are the game's variants, or None.
    Matched by the variants' ids alone: the option may word them for the form ("Double out")
    apart from the variants' own words, and is still how the table picks one."""
    for opt in game.options:
        choices = opt.get("choices")
        if game.variants and isinstance(choices, Mapping) and set(choices) == set(game.variants):
            return opt["name"], "many" if opt["kind"] == "choices" else "one"
    return None


def and_list(words: Iterable[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cat": how every engine lists names in a sentence."""
    words = list(words)
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def check_options(title: str, options: object, known: Iterable[str]) -> dict[str, Any]:
    """A setup's options as a dict, refusing anything but the ``known`` ones by name."""
    if options is not None and not isinstance(options, dict):
        raise GameError("%s's options are a mapping of %s" % (title, and_list(known)))
    options = dict(options or {})
    unknown = set(map(str, options)) - set(known)
    if unknown:
        raise GameError("%s has no option %s; its options are %s"
                        % (title, ", ".join(sorted(unknown)), and_list(known)))
    return options


def check_players(title: str, players: object, fewest: int, most: int) -> list[str]:
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
    return [str(n) for n in names]


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool (JSON's true is no seat number)."""
    return isinstance(value, int) and not isinstance(value, bool)


MOST_DIGITS = 18     # digits a number written as text may have: no seat, square, roll or count has more


def whole(value: object) -> int | None:
    """A whole number given as an int or as its ASCII digits (" 12 "), else None. Past
    MOST_DIGITS digits it is none: Python's int() refuses a string of more than 4,300 digits with
    a ValueError, which would be a traceback where the game owes a sentence."""
    if is_int(value):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= MOST_DIGITS:
            return int(text)
    return None


def seat(state: State, value: object, field: str = "player") -> int:
    """``value`` as a seat of ``state``'s players, or GameError saying what a seat is (naming the
    action's ``field`` that held it: "scooped_from" is a seat too)."""
    n = len(state["players"])
    if not is_int(value) or not 0 <= value < n:
        raise GameError("say which player: \"%s\" is a seat number 0-%d, not %s" % (field, n - 1, quoted(value)))
    return value


def player_name(state: State, p: int) -> str:
    return str(state["players"][p]["name"])


def say_events(says: Mapping[str, Callable[[State, Event], str | None]], state: State, events: list[Event]) -> str:
    """A move in one sentence from what each of its events says: ``says`` maps an event type to
    ``fn(state, event)`` returning words or None (state: the game before the move)."""
    out = []
    for ev in events:
        say = says.get(ev["type"])
        text = say(state, ev) if say else None
        if text:
            out.append(text)
    return "; ".join(out)


def effective(events: Iterable[tuple[Any, Event]]) -> list[tuple[Any, Event]]:
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


def fold(engine: Any, entries: Iterable[tuple[Any, Event]]) -> State:
    """The state after ``entries`` ((id, entry) pairs, undo/redo included).

    An entry is one event, or one action's events bundled as {"type": ..., "events": [...]}, so
    that undo takes back everything one tap did.
    """
    state: State = engine.initial()
    for _, entry in effective(entries):
        for ev in entry["events"] if "events" in entry else (entry,):
            state = engine.apply(state, ev)
    return state


# ---------------------------------------------------------------- what a game says about itself
#
# Each game's Game declaration (game.py) carries, besides its rules:
#
#   options = (option(...), ...)   its setup options: name, kind, default, bounds or choices and
#                                  the rule line it comes from (or that newsdesk chose it, where
#                                  the rules are silent). The start form, the OpenAPI document and
#                                  the panel's request check are all made from it.
#   panel = {...}                  what the panel shows for it (see panel()).
#
# A sixth game is one package exporting its Game, and one screen script: no panel code names it
# (docs/new-game.md).

KINDS = ("integer", "boolean", "choice", "choices", "seat", "names", "counts", "minutes", "datetime",
         "mapping")
BOUNDED = ("integer", "minutes", "counts")      # kinds whose values an option's minimum and maximum bound
SEATS_MOST = 12                    # more than any game seats (the panel refuses longer lists)
TEXT_MOST = 60                     # a name printed on a board or card


def option(name: str, kind: str, default: Any, rule: str, label: str, minimum: int | None = None,
           maximum: int | None = None, choices: dict[str, str] | None = None, items: tuple[int, int] | None = None,
           form: bool = True, variant: str | Sequence[str] | None = None, schema: dict[str, Any] | None = None,
           newsdesk: bool = False, help: str | None = None, or_name: bool = False) -> dict[str, Any]:
    """One setup option as the engine declares it.

    kind: integer (minimum..maximum), boolean, choice (one of ``choices``, a dict value -> words),
    choices (any of them, a list), seat (a player's seat number), names (a list of ``items``
    (min, max) short names), counts (name -> a whole number minimum..maximum), minutes (a whole
    number of minutes, minimum..maximum; ``or_name``: an integer option may be given as a
    name printed on the board instead), datetime (ISO 8601 with an offset), mapping (an object
    described by ``schema``; on the start form when the schema names its properties, each a box,
    or a drop-down of its ``enum`` at its ``default``). ``rule``: the rule text's line it comes from, quoted;
    ``newsdesk``: True when the rules are silent and the default is newsdesk's choice.
    ``variant``: shown on the form only with that variant chosen, or (a list) with one of those
    chosen: an option that can matter in some variants and not in others (a tie no variant but
    one can have) is not asked in those. ``form``: False for options only the API sets (worked out
    by the panel, or too long to type at the table).
    """
    if kind not in KINDS:
        raise ValueError("option %s: kind %r is not one of %s" % (name, kind, ", ".join(KINDS)))
    if kind in BOUNDED and (minimum is None or maximum is None):
        # checked here, as the game's module is imported: a load found it as "KeyError: 'minimum'"
        raise ValueError("option %s: an option of kind %s needs its bounds, minimum=... and maximum=..." % (name, kind))
    if kind == "names" and items is None:
        raise ValueError("option %s: an option of kind names needs items=(fewest, most)" % name)
    if variant is not None and not isinstance(variant, str):
        variant = list(variant)
        if not variant or not all(isinstance(v, str) for v in variant):
            raise ValueError("option %s: variant= is a variant's id or a list of them, not %r" % (name, variant))
    out = {"name": name, "kind": kind, "default": default, "label": label, "rule": rule,
           "newsdesk": bool(newsdesk), "form": bool(form), "or_name": bool(or_name)}
    for key, value in (("minimum", minimum), ("maximum", maximum), ("items", items),
                       ("variant", variant), ("schema", schema), ("help", help)):
        if value is not None:
            out[key] = list(value) if isinstance(value, tuple) else value
    if choices is not None:
        out["choices"] = dict(choices)
    return out


def option_schema(opt: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one declared option's value (null allowed: null means its default)."""
    kind = opt["kind"]
    doc = opt["label"] + (". " + opt["rule"] if opt.get("rule") else "")
    if kind in ("integer", "minutes"):
        schema = {"type": "integer", "minimum": opt["minimum"], "maximum": opt["maximum"]}
        if opt.get("or_name"):
            schema = {"anyOf": [schema, {"type": "string", "minLength": 1, "maxLength": TEXT_MOST}]}
    elif kind == "seat":
        schema = {"type": "integer", "minimum": 0, "maximum": SEATS_MOST - 1}
    elif kind == "boolean":
        schema = {"type": "boolean"}
    elif kind == "choice":
        schema = {"type": "string", "enum": list(opt["choices"])}
    elif kind == "choices":
        schema = {"type": "array", "items": {"type": "string", "enum": list(opt["choices"])},
                  "uniqueItems": True, "maxItems": len(opt["choices"])}
    elif kind == "names":
        low, high = opt["items"]
        schema = {"type": "array", "minItems": low, "maxItems": high,
                  "items": {"type": "string", "minLength": 1, "maxLength": TEXT_MOST}}
    elif kind == "counts":
        schema = {"type": "object", "maxProperties": 12,
                  "additionalProperties": {"type": "integer", "minimum": opt["minimum"],
                                           "maximum": opt["maximum"]}}
    elif kind == "datetime":
        schema = {"type": "string", "format": "date-time", "maxLength": 40}
    else:
        schema = dict(opt.get("schema") or {"type": "object"})
    return {"anyOf": [dict(schema, description=doc), {"type": "null"}]}


def options_schema(declared: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The JSON Schema of a game's whole "options" object."""
    return {"type": "object", "additionalProperties": False,
            "properties": {o["name"]: option_schema(o) for o in declared}}


def check_declared(title: str, declared: Iterable[dict[str, Any]], options: object,
                   players: int | None = None) -> dict[str, Any]:
    """``options`` checked against the declaration, given back as every declared option with its
    value (null or missing: its default; a 0 or a false the table chose stays as it is, so read
    it with ``options[name]``, not ``options.get(name) or default``). Raises GameError
    with one sentence that opens with the option as the start form names it (“Points to win” is
    a whole number 1-9, not 10), as the panel shows it beside that field; ``title`` names the
    game where an option is unknown. The engine's setup checks what only it knows (a page layout's sense, a
    seat beyond the players at the table)."""
    options = check_options(title, options, [o["name"] for o in declared])
    out = {}
    for opt in declared:
        value = options.get(opt["name"])
        if value is None:
            value = opt["default"]
        else:
            problem = _option_problem(opt, value, players)
            if problem:
                raise GameError("%s %s, not %s" % (form_name(opt), problem, quoted(value)))
        out[opt["name"]] = value
    for opt in declared:
        problem = _variant_off(opt, options, out, declared)
        if problem:
            raise GameError(problem)
    return out


def option_variants(opt: Mapping[str, Any]) -> tuple[str, ...]:
    """The variants an option belongs to (its ``variant``: one id, or a list of them), or () when
    it is every variant's. A plug-in may write its option by hand, with a string or a list."""
    variant = opt.get("variant")
    if not variant:
        return ()
    return (variant,) if isinstance(variant, str) else tuple(variant)


def _variant_off(opt: dict[str, Any], given: dict[str, Any], values: dict[str, Any],
                 declared: Iterable[dict[str, Any]]) -> str | None:
    """The sentence for an option of a variant (``variant=``) set otherwise than its default
    while none of its variants is chosen: the game would take it and play without it, in silence
    (the start form hides such a field and sends nothing for it). None when it is fine."""
    variants = option_variants(opt)
    if not variants or given.get(opt["name"]) is None or values[opt["name"]] == opt["default"]:
        return None
    for chooser in declared:
        choices = chooser.get("choices") or {}
        if chooser.get("kind") in ("choice", "choices") and all(v in choices for v in variants):
            chosen = values[chooser["name"]]
            chosen = set(chosen) if isinstance(chosen, (list, tuple)) else {chosen}
            if chosen & set(variants):
                return None
            return "%s is an option of %s: choose %s too, or leave it out" % (
                form_name(opt, asides=(" (",)), or_list(short_words(choices[v]) for v in variants),
                "that variant" if len(variants) == 1 else "one of those variants")
    return None


def choice_words(opt: dict[str, Any]) -> str:
    """A choice option's choices as the start form lists them (each choice's words without their
    aside, as form_name cuts a label), in quotes: “a”, “b” or “c”."""
    return or_list("“%s”" % short_words(words) for words in opt["choices"].values())


def short_words(words: str, asides: tuple[str, ...] = (" (", ": ", "; ")) -> str:
    """A choice's words up to their first aside: what a drop-down shows (the whole words are the
    field's hint), and what a refusal quotes. The panel's start.js cuts them the same way."""
    for aside in asides:
        words = words.split(aside)[0]
    return words


def or_list(words: Iterable[str]) -> str:
    """"a", "a or b", "a, b or c": the choices a refusal offers."""
    words = list(words)
    return words[0] if len(words) == 1 else "%s or %s" % (", ".join(words[:-1]), words[-1])


def seat_words(players: int) -> str:
    """The seats a seat option may name, as the start form names them ("Player 1 to Player 4")."""
    return "Player 1" if players == 1 else "Player 1 to Player %d" % players


def form_name(opt: dict[str, Any], asides: tuple[str, ...] = (" (", ": ")) -> str:
    """An option named in a refusal as the start form names it: its declared label, without the
    label's aside ("Time limit in minutes (empty: ...)"; ``asides`` say where one starts), in
    quotes. The table never sees an option's internal name ("time_limit")."""
    label = opt["label"]
    for aside in asides:
        label = label.split(aside)[0]
    return "“%s”" % label


def declared(options: Iterable[dict[str, Any]], name: str) -> dict[str, Any]:
    """The declaration of the option ``name`` among an engine's OPTIONS."""
    return next(o for o in options if o["name"] == name)


def quoted(value: object, most: int = 40) -> str:
    """A refused entry as a sentence quotes it, cut short (a 4,300-digit number is no sentence)."""
    if is_int(value) and abs(value).bit_length() > 64:
        return "a number of about %d digits" % int(abs(value).bit_length() * 0.30103)
    if isinstance(value, str) and not value.strip():
        return "an empty field"         # not '': the table reads these sentences, not a programmer
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _option_problem(opt: dict[str, Any], value: object, players: int | None) -> str | None:
    kind = opt["kind"]
    if kind in ("integer", "minutes"):
        if opt.get("or_name") and isinstance(value, str) and 0 < len(value) <= TEXT_MOST:
            return None
        if not is_int(value) or not opt["minimum"] <= value <= opt["maximum"]:
            return "is a whole number %d-%d" % (opt["minimum"], opt["maximum"])
    elif kind == "seat":
        most = (players - 1) if players else SEATS_MOST - 1
        if not is_int(value) or not 0 <= value <= most:
            return "is one of the players at the table (%s)" % seat_words(most + 1)
    elif kind == "boolean":
        if not isinstance(value, bool):
            return "is true or false"
    elif kind == "choice":
        if not isinstance(value, str) or value not in opt["choices"]:
            return "is %s" % choice_words(opt)
    elif kind == "choices":
        if (not isinstance(value, (list, tuple)) or any(not isinstance(v, str) or v not in opt["choices"] for v in value)
                or len(set(value)) != len(value)):
            return "is a list of different ones of %s" % and_list(opt["choices"])
    elif kind == "names":
        low, high = opt["items"]
        if (not isinstance(value, (list, tuple)) or not low <= len(value) <= high
                or any(not isinstance(v, str) or not v.strip() or len(v) > TEXT_MOST for v in value)):
            return ("is a list of %s names of up to %d letters" %
                    (low if low == high else "%d to %d" % (low, high), TEXT_MOST))
    elif kind == "counts":
        if (not isinstance(value, dict) or len(value) > 12
                or any(not is_int(v) or not opt["minimum"] <= v <= opt["maximum"] for v in value.values())):
            return "maps each name to a whole number %d-%d" % (opt["minimum"], opt["maximum"])
    elif kind == "datetime":
        if not isinstance(value, str) or len(value) > 40:
            return "is an ISO 8601 time with its UTC offset"
    return None


def seating(game: Any, panel: dict[str, Any]) -> dict[str, Any]:
    """{"min", "max", "by_variant"} read off the game's seats (players, or min_ and max_players:
    game.Game has the defaults) and its panel facts' seats_by_variant: the one reading of them,
    the start form's (catalogue.py) and the kit's (conformance.seats)."""
    by_variant = None
    players = game.players
    if isinstance(players, dict):
        by_variant = {v: {"min": lo, "max": hi} for v, (lo, hi) in players.items()}
        low, high = min(lo for lo, _ in players.values()), max(hi for _, hi in players.values())
    elif isinstance(players, int):
        low = high = players
    else:
        low, high = game.min_players, game.max_players
    if panel.get("seats_by_variant"):
        by_variant = dict(by_variant or {}, **panel["seats_by_variant"])
    return {"min": low, "max": high, "by_variant": by_variant}


def panel(game: Any) -> dict[str, Any]:
    """What the panel shows for ``game``, from its declared panel facts (with the defaults a game
    that declares less gets; ``game`` None, one that can't be loaded, gets the defaults alone):

        score: "money" | "points" | None   what the final table counts (None: no score)
        chart: {"unit": words, "prefix": "$" | ""} or None, and no_chart: why not, in a sentence
        teams: True when players are given teams on the start form
        team_variants: the variants played in teams, where only some are (None: all, when teams):
                the start form shows the team fields for those alone; a start through the API
                giving teams to another reaches setup, whose to refuse (SCAN's does)
        team_seats: {variant: [players, ...]} where a variant plays in teams with some numbers of
                players alone (SCAN's No Trump: with 4 or 6), the start form showing the team
                fields for those; a variant not named plays in teams with any number it seats
        teams_optional: {variant: [players, ...]} where a variant with that many players takes
                teams or none, and with none each plays alone (SCAN's No Trump with 4): the start
                form's hint says so, not that partners then sit opposite
        seats_by_variant: {variant: {"min", "max"}} where a variant seats differently
        listens: the oracles whose results the game takes (of "editor", "dice", "stopwatch"):
                its screen's onOracle hook hears them as they come. "editor": the editor on the
                phone judges its claims (verdicts reach the game as {"type": "verdict",
                "signal", "digit"} actions) and the panel shows the editor's card beside it
        numbers: {field: {"minimum", "maximum", "label"}}  the bounds of every number an offer
                asks the table to enter ("enter"), for the panel's inputs and the API document
        words: {field: label}  how the panel asks for an entered text field
        lower_wins: True for a game whose lowest score is the best (golf, a countdown to zero):
                the final table's places after the winners, the history's best score and Home
                Assistant's leader go by it (the winners are always the game's own result's)
    """
    declared = dict(game.panel or {}) if game is not None else {}
    return dict(copied(PANEL_DEFAULTS), **declared)


# What a game that declares less gets (see panel()).
PANEL_DEFAULTS: dict[str, Any] = {
    "score": "points", "chart": {"unit": "score", "prefix": ""}, "no_chart": None, "teams": False,
    "team_variants": None, "team_seats": None, "teams_optional": None, "seats_by_variant": None, "listens": [], "numbers": {}, "words": {},
    "lower_wins": False}


def lower_wins(game: Any) -> bool:
    """Whether ``game``'s lowest score is its best (its panel facts' lower_wins); False for a game
    that can't say (None, or one whose fact isn't true or false: the kit's "panel" rule names it)."""
    return panel(game).get("lower_wins") is True
