"""What every game engine is, and how a game's history folds into its state.

A game engine is a module (scoop1956, scoop2002, scan, star_reporter, get_the_scoop) that is an
``Engine`` (the Protocol below: its names, its options and panel facts, and seven functions).
The registry (registry.py) loads engines by name and refuses a module that lacks part of it;
mypy checks every engine module against it (``make test``).

Events and actions are plain dicts so they store as JSON and replay identically. Rules'
constants (prices, bonuses, targets) live in the game's module, once.

Undo/redo never rewrite history: an {"type": "undo", "target": id} event takes event ``id`` out
of the effective history, {"type": "redo", "target": id} puts it back; the state is the fold of
the effective events. ``effective`` works that out for any game.
"""

import random
from typing import Any, Protocol, TypeGuard

from ..errors import NewsdeskError

State = dict[str, Any]      # a game's state: JSON-able, never mutated in place
Event = dict[str, Any]      # a fact, with a "type": stored as JSON, replayed identically
Action = dict[str, Any]     # what a tablet asks for, with a "type"


class GameError(NewsdeskError, ValueError):
    """An action the rules (or the state of the game) don't allow; the message says why."""

    status = 422


class Engine(Protocol):
    """One game's rules. Pure: no clock, no I/O; randomness is handed in."""

    NAME: str                           # short id, e.g. "scoop1956"
    TITLE: str                          # "SCOOP (Parker Brothers, 1956)"
    VARIANTS: dict[str, str]            # variant id -> plain description
    PANEL: dict[str, Any]               # the panel's facts (see panel_facts)

    @property
    def OPTIONS(self) -> tuple[dict[str, Any], ...]:
        """Each made by option(): the start form, the API document and the request checks."""
        ...

    def setup(self, players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
        """The events that start a game (validated; raises GameError). players: [{"name": str,
        "colour": str, "team": str|None}, ...]"""
        ...

    def initial(self) -> State:
        """The empty state the setup events fold onto."""
        ...

    def decide(self, state: State, action: Action, rng: random.Random) -> list[Event]:
        """Check an action against the rules and the state; return the events it causes, or
        raise GameError with one sentence a person can act on."""
        ...

    def apply(self, state: State, event: Event) -> State:
        """Pure fold; never raises for events decide() produced. Returns a NEW state."""
        ...

    def offers(self, state: State) -> list[Action]:
        """The actions the panel can offer now (its one-tap buttons)."""
        ...

    def view(self, state: State) -> dict[str, Any]:
        """JSON for the panel: players, money or score, whose turn, winner."""
        ...

    def describe(self, state: State, action: Action, events: list[Event]) -> str:
        """One sentence for the table: what a move did (the undo bar, the log)."""
        ...


def variant_option(engine):
    """(name, "one" or "many") of the option whose choices are the engine's VARIANTS, or None."""
    for opt in engine.OPTIONS:
        if engine.VARIANTS and opt.get("choices") == dict(engine.VARIANTS):
            return opt["name"], "many" if opt["kind"] == "choices" else "one"
    return None


# The names every engine module must have (registry.py checks them when it loads one).
INTERFACE = tuple(Engine.__annotations__) + tuple(
    name for name, value in vars(Engine).items()
    if not name.startswith("_") and (callable(value) or isinstance(value, property)))


def and_list(words):
    """"Ann", "Ann and Bob", "Ann, Bob and Cat": how every engine lists names in a sentence."""
    words = list(words)
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def check_options(title, options, known):
    """A setup's options as a dict, refusing anything but the ``known`` ones by name."""
    if options is not None and not isinstance(options, dict):
        raise GameError("%s's options are a mapping of %s" % (title, and_list(known)))
    options = dict(options or {})
    unknown = set(map(str, options)) - set(known)
    if unknown:
        raise GameError("%s has no option %s; its options are %s"
                        % (title, ", ".join(sorted(unknown)), and_list(known)))
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


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool (JSON's true is no seat number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat(state, value):
    """``value`` as a seat of ``state``'s players, or GameError saying what a seat is."""
    n = len(state["players"])
    if not is_int(value) or not 0 <= value < n:
        raise GameError("say which player: \"player\" is a seat number 0-%d, not %s" % (n - 1, quoted(value)))
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


# ---------------------------------------------------------------- what an engine says about itself
#
# Each engine module declares, in one place near its top:
#
#   OPTIONS = (option(...), ...)   its setup options: name, kind, default, bounds or choices and
#                                  the rule line it comes from (or that newsdesk chose it, where
#                                  the rules are silent). The start form, the OpenAPI document and
#                                  the panel's request check are all made from it.
#   PANEL = {...}                  what the panel shows for it (see panel()).
#
# A sixth game is one engine module with these two, and one screen script: no panel code names it.

KINDS = ("integer", "boolean", "choice", "choices", "seat", "names", "counts", "minutes", "datetime",
         "mapping")
SEATS_MOST = 12                    # more than any game seats (the panel refuses longer lists)
TEXT_MOST = 60                     # a name printed on a board or card


def option(name, kind, default, rule, label, minimum=None, maximum=None, choices=None,
           items=None, form=True, variant=None, schema=None, newsdesk=False, help=None, or_name=False):
    """One setup option as the engine declares it.

    kind: integer (minimum..maximum), boolean, choice (one of ``choices``, a dict value -> words),
    choices (any of them, a list), seat (a player's seat number), names (a list of ``items``
    (min, max) short names), counts (name -> a whole number minimum..maximum), minutes (a whole
    number of minutes, minimum..maximum; ``or_name``: an integer option may be given as a
    name printed on the board instead), datetime (ISO 8601 with an offset), mapping (an object
    described by ``schema``; API only). ``rule``: the rule text's line it comes from, quoted;
    ``newsdesk``: True when the rules are silent and the default is newsdesk's choice.
    ``variant``: shown on the form only with that variant chosen. ``form``: False for options
    only the API sets (worked out by the panel, or too long to type at the table).
    """
    if kind not in KINDS:
        raise ValueError("option %s: kind %r is not one of %s" % (name, kind, ", ".join(KINDS)))
    out = {"name": name, "kind": kind, "default": default, "label": label, "rule": rule,
           "newsdesk": bool(newsdesk), "form": bool(form), "or_name": bool(or_name)}
    for key, value in (("minimum", minimum), ("maximum", maximum), ("items", items),
                       ("variant", variant), ("schema", schema), ("help", help)):
        if value is not None:
            out[key] = list(value) if isinstance(value, tuple) else value
    if choices is not None:
        out["choices"] = dict(choices)
    return out


def option_schema(opt):
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


def options_schema(declared):
    """The JSON Schema of a game's whole "options" object."""
    return {"type": "object", "additionalProperties": False,
            "properties": {o["name"]: option_schema(o) for o in declared}}


def check_declared(title, declared, options, players=None):
    """``options`` checked against the declaration: a dict of known names whose values have the
    declared kind and lie within its bounds (null or missing: the default). Raises GameError
    with one sentence; the engine's setup checks what only it knows (a page layout's sense, a
    seat beyond the players at the table)."""
    options = check_options(title, options, [o["name"] for o in declared])
    for opt in declared:
        value = options.get(opt["name"])
        if value is not None:
            problem = _option_problem(opt, value, players)
            if problem:
                raise GameError("%s: %s %s, not %s" % (title, form_name(opt), problem, _short(value)))
    return options


def form_name(opt, asides=(" (", ": ")):
    """An option named in a refusal as the start form names it: its declared label, without the
    label's aside ("Time limit in minutes (empty: ...)"; ``asides`` say where one starts), in
    quotes. The table never sees an option's internal name ("time_limit")."""
    label = opt["label"]
    for aside in asides:
        label = label.split(aside)[0]
    return "“%s”" % label


def declared(options, name):
    """The declaration of the option ``name`` among an engine's OPTIONS."""
    return next(o for o in options if o["name"] == name)


def _short(value):
    return quoted(value)


def quoted(value, most=40):
    """A refused entry as a sentence quotes it, cut short (a 4,300-digit number is no sentence)."""
    if is_int(value) and abs(value).bit_length() > 64:
        return "a number of about %d digits" % int(abs(value).bit_length() * 0.30103)
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _option_problem(opt, value, players):
    kind = opt["kind"]
    if kind in ("integer", "minutes"):
        if opt.get("or_name") and isinstance(value, str) and 0 < len(value) <= TEXT_MOST:
            return None
        if not is_int(value) or not opt["minimum"] <= value <= opt["maximum"]:
            return "is a whole number %d-%d" % (opt["minimum"], opt["maximum"])
    elif kind == "seat":
        most = (players - 1) if players else SEATS_MOST - 1
        if not is_int(value) or not 0 <= value <= most:
            return "is a seat number 0-%d" % most
    elif kind == "boolean":
        if not isinstance(value, bool):
            return "is true or false"
    elif kind == "choice":
        if not isinstance(value, str) or value not in opt["choices"]:
            return "is one of %s" % and_list(opt["choices"])
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


def declared_defaults(declared):
    return {o["name"]: o["default"] for o in declared}


def panel(engine):
    """What the panel shows for ``engine``, from its PANEL declaration (with the defaults a game
    that declares less gets):

        score: "money" | "points" | None   what the final table counts (None: no score)
        chart: {"unit": words, "prefix": "$" | ""} or None, and no_chart: why not, in a sentence
        teams: True when players are given teams on the start form
        team_variants: the variants played in teams, where only some are (None: all, when teams)
        seats_by_variant: {variant: {"min", "max"}} where a variant seats differently
        editor: True when the editor on the phone judges this game's claims (its verdicts
                reach the game as {"type": "verdict", "signal", "digit"} actions)
        numbers: {field: {"minimum", "maximum", "label"}}  the bounds of every number an offer
                asks the table to enter ("enter"), for the panel's inputs and the API document
        words: {field: label}  how the panel asks for an entered text field
        headline(events) (a function in the module, optional): the event still in force the
                screen shows in big type after a reload, or None
    """
    declared = dict(getattr(engine, "PANEL", None) or {})
    out = {"score": "points", "chart": {"unit": "score", "prefix": ""}, "no_chart": None,
           "teams": False, "team_variants": None, "seats_by_variant": None, "editor": False, "numbers": {}, "words": {}}
    out.update(declared)
    return out
