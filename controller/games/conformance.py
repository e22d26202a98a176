"""The contract between a game and newsdesk, as checks any game can be put through: the
conformance kit a plug-in runs on its own game (``pytest --newsdesk-game NAME``, or the
``newsdesk_kit`` fixture: controller/pytest_plugin.py), and that newsdesk's own tests run on
every installed game.

Each rule is a ``Rule``: a name, the rule in one sentence, and how to meet it. ``check(game)``
puts a game through all of them and gives a ``Finding`` per problem, each a sentence that names
the rule, what was seen, and what to do. The rules are the ones the panel, the history, the
exports and the store rely on; nothing here names a game.

Some rules are about a finished game. The kit plays the game from its own offers (as a table
tapping the panel's buttons would, filling in what an offer asks for from the game's panel
facts) until it ends; a game whose moves need more than its offers say (a form of its own on its
screen) may hand the kit a finished game's moves instead (``ending``). When neither ends the
game, those rules are reported as not reached (``Unreached``), never as passed.
"""

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from . import base
from .base import Action, Event, GameError, State
from .game import NAME, SAID_MOST, SLOW_S, Game

WAIT_MOST = 5 * SLOW_S      # seconds by the wall clock a call may last, its waits included: past the CPU
                            # limit's margin for a busy machine, short of a play's worth of sleeps

ORACLES = ("editor", "dice", "stopwatch")
RESULT_KEYS = {"over", "winners", "standings", "teams", "score_kind"}
SCORE_KINDS = ("money", "points", None)     # a panel's "score" (base.panel)
MOVES = 400          # the most moves the kit plays looking for an end
TEXT = "Kit"         # what the kit types in an offer's text field
SENTENCE = 300       # the most characters a refusal the table reads may run to
TITLE_MOST = 80      # the most characters of a game's title (the start form's list; every record names it)
# kinds of option that have a default (the start form shows one drawn with it; a seat, a time
# limit, a date, a mapping or a name worked out by the panel may mean "none" or "the panel's" by None)
NEEDS_DEFAULT = ("integer", "boolean", "choice", "choices", "counts")
# kinds of option the start form has no box for (web_ui/static/js/start.js's optionControl draws
# the others; a test holds the two together): set through the API alone, so declared form=False; a choices option over the
# game's variants is the variants' boxes, and a mapping is a box per property its schema names
NO_BOX = ("choices", "counts", "datetime", "mapping")
TRIES = 6            # fillings of one offer the kit tries before it says decide() refuses it
JUNK: tuple[object, ...] = ("x", None, [1], 10 ** 30)     # what a broken client may put in a field


@dataclass(frozen=True)
class Rule:
    """One rule of the contract: ``name`` (short, for a test id), what it says, how to meet it."""

    name: str
    says: str
    how: str


@dataclass(frozen=True)
class Finding:
    """A rule a game breaks, and what the kit saw."""

    rule: Rule
    game: str
    seen: str

    def __str__(self) -> str:
        return "%s breaks the rule “%s” (%s): %s. To meet it: %s" % (
            self.game, self.rule.says, self.rule.name, self.seen, self.rule.how)


class Unreached(Exception):
    """The kit could not reach what a rule is about (a game it could play, or a finished one):
    the rule is not checked."""


RULES: tuple[Rule, ...] = (
    Rule("declaration", "a game is one Game declaration with a lower-case name and a title",
         "export GAME = Game(name=..., title=..., ...) from controller.games.kit; the name is lower-case "
         "letters, digits and _ (it is the entry point's name, kept in every stored game)"),
    Rule("seats", "a game seats at least one player, and no more than the panel takes",
         "give min_players <= max_players (1 to %d), or players=N" % base.SEATS_MOST),
    Rule("options", "every option is declared by option() with a label, the rule line it comes from, and "
                    "a default (within its bounds) wherever the start form shows it, and the form has a box for "
                    "each one it shows",
         "declare each option with option(name, kind, default, rule, label, ...): quote the rule line, or, "
         "where the rules are silent, write the rule newsdesk plays and say newsdesk=True; form=False for "
         "one of a kind the start form doesn't ask (choices but the variants, counts, datetime, a mapping "
         "whose schema names no properties)"),
    Rule("setup-options", "setup takes each declared option's default and refuses an undeclared option or a "
                          "number past its bounds with a GameError naming the option as the start form does",
         "start setup with check_declared(TITLE, OPTIONS, options, len(players))"),
    Rule("setup-players", "setup refuses players it can't seat (too few, too many, unnamed, two of one name) "
                          "with a GameError",
         "start setup with check_players(TITLE, players, fewest, most)"),
    Rule("panel", "the panel facts are the ones panel() lists, with a score kind, a chart or the reason for "
                  "none, bounded numbers and known oracles",
         "declare panel={\"score\": \"points\" | \"money\" | None, \"chart\": {\"unit\": ..., \"prefix\": ...}, "
         "...} with only the keys controller.games.kit.PANEL_DEFAULTS has"),
    Rule("not-set-up", "the empty state has no result yet, and decide() on it refuses with NotSetUp",
         "start decide() with guard(state, action, title=TITLE, actions=..., result=result), and make "
         "result() of initial() result_of(False, [], PANEL)"),
    # What a game that can't be set up and played breaks, said once, under its own name: every rule
    # that needs the kit's play met the same failure, and each said it with its own way to meet it
    # ("start decide() with guard(...)" for an offers() that raised), nine times over, none of them
    # the fix; said by the first of them, it was reported as that rule's test (::guard), a rule
    # about something else. The rules that need a play are unreached until it plays.
    Rule("play", "the kit can set up a game of it (its fewest players, the options it is given or the defaults) "
                 "and play it from its offers: setup() and decide() give lists of events, and no call into "
                 "the game raises (but decide() refusing a move with a GameError) or takes past %g s of CPU" % SLOW_S,
         "mend the call the finding names, on what it says the call was given; the rules that need a played "
         "game are checked once it plays"),
    Rule("guard", "decide() refuses what is not an action with NotAnAction, and an action the game doesn't "
                  "have with UnknownAction, naming it",
         "start decide() with guard(state, action, title=TITLE, actions=..., result=result)"),
    Rule("offers", "every offer is an action (a dict with a text \"type\"), every field it asks the table "
                   "to enter is a number the panel facts bound, a text the panel facts word, or one of its "
                   "choices, its own \"labels\" (if any) name only fields it enters, and decide() takes each "
                   "kind of offer filled in as the panel fills it, giving the events of a move that changes the game",
         "offer {\"type\": ..., \"enter\": [field]} with panel[\"numbers\"][field] (or [\"words\"][field]) "
         "declared, or \"choices\": {field: [...]}, \"labels\": {field: words} where one offer's field needs "
         "words of its own, and offer only what the rules allow now: a move decide() gives events for, or "
         "refuses with a GameError saying why"),
    Rule("fields", "decide() refuses an offered action with a field missing or malformed (a text, null, a "
                   "list, a huge number, an entered number past its panel facts' bounds) with a GameError, never "
                   "another error",
         "check each field before using it (is_int, seat(), isinstance, the bounds) and raise GameError with a "
         "sentence saying what the field must be"),
    Rule("pure", "decide() and apply() change none of their arguments, and the same move with the same "
                 "random numbers gives the same events",
         "copy before changing (controller.games.kit.copied), and take randomness only from the rng given"),
    Rule("json", "states, events, views and offers are plain JSON, and the events stored as JSON replay to the "
                 "same state",
         "keep to dicts, lists, strings, numbers, booleans and None (no tuples, sets or objects)"),
    Rule("view", "the view is a JSON object naming its game (\"game\": NAME); its \"waiting_for\", when "
                 "given, is words; it has no \"result\" (the box puts result()'s answer there)",
         "return {\"game\": NAME, ..., \"waiting_for\": \"...\"} from view(); the panel finds the game's "
         "number facts by it; call a key of your own anything but \"result\""),
    Rule("result", "result() gives over, winners, standings (a row per player), teams and the score kind, with "
                   "nobody a winner before the end",
         "build it with result_of(over, [(name, score, won), ...], PANEL)"),
    Rule("words", "describe() gives a sentence (of at most %d characters) or None for a move, headline() an "
                  "event or None, rings() true or false" % SAID_MOST,
         "leave them out (Game has the defaults) or give them those types"),
    Rule("end", "a game over offers nothing and refuses every action with GameOver",
         "return [] from offers() once result(state)[\"over\"], and start decide() with guard()"),
)
BY_NAME = {r.name: r for r in RULES}
PLAY = BY_NAME["play"]


@dataclass
class Play:
    """A game played by the kit: a table of its fewest players, the states and moves it went
    through (the first state the one just set up), and how many of its moves decide() took with
    no events (``idle``: not kept, as they change nothing)."""

    names: list[str]
    states: list[State] = field(default_factory=list)
    moves: list[tuple[Action, list[Event]]] = field(default_factory=list)
    setup: list[Event] = field(default_factory=list)
    idle: int = 0


def seats(game: Game, variant: str | None = None) -> tuple[int, int]:
    """(fewest, most) players ``game`` seats, whichever way it declares them; with seats by
    variant (its ``players``, or its panel facts' ``seats_by_variant``, read as the start form
    reads them: base.seating), those of ``variant`` (the one its variant option picks by default
    when None): The Lonely City seats one, Scoop! (2002) two to six."""
    try:
        found = base.seating(game, base.panel(game))
    except Exception:       # a declaration the kit's rules find wrong (they say how): its bare bounds
        return game.min_players, game.max_players
    picked = variant or _variant(game)
    by_variant = found["by_variant"] if isinstance(found["by_variant"], Mapping) else {}
    chosen = by_variant.get(picked)
    if isinstance(chosen, Mapping) and base.is_int(chosen.get("min")) and base.is_int(chosen.get("max")):
        return chosen["min"], chosen["max"]
    return found["min"], found["max"]


def _variant(game: Game, options: Mapping[str, Any] | None = None) -> str | None:
    """The variant a game is played in: the one ``options`` pick, else its variant option's
    default (None for a game without variants)."""
    found = base.variant_option(game)
    if not found:
        return None
    picked = (options or {}).get(found[0])
    if picked is None:
        picked = next((o["default"] for o in game.options if o["name"] == found[0]), None)
    if isinstance(picked, list):
        picked = picked[0] if picked else None
    return picked if isinstance(picked, str) else None


def table(game: Game, n: int | None = None, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Players for ``game``'s start: the fewest the variant ``options`` pick seats, or ``n``."""
    fewest = max(1, seats(game, _variant(game, options))[0])
    return [{"name": name} for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon",
                                        "Kit", "Lou")[:n or fewest]]


# An offer's keys that tell the panel how to ask, never part of the move (web_ui/static/js/offers.js):
# the fields it enters, what the dice must show, the picks for a field, a field's own words.
PRESENTATION = ("enter", "needs", "choices", "labels")


def fill(game: Game, offer: Action, rng: random.Random) -> Action:
    """The action an offer stands for, as the panel makes it: the offer without what only tells
    the panel how to ask (PRESENTATION: "enter", "needs", "choices", "labels"), with each field it
    asks for filled in from its choices, its bounds in the panel facts, or a word."""
    facts = base.panel(game)
    action = {k: v for k, v in offer.items() if k not in PRESENTATION}
    choices = offer.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        action.update(rng.choice(choices))
    for name in offer.get("enter") or ():
        picks = choices.get(name) if isinstance(choices, dict) else None
        bound = facts["numbers"].get(name)
        if picks:
            action[name] = rng.choice(list(picks))
        elif bound:
            low, high = bound["minimum"], bound["maximum"]
            action[name] = rng.choice([low, high, rng.randint(low, min(high, low + 20))])
        else:
            action[name] = TEXT
    return action


def _game_call(what: str, call: Callable[..., Any], *args: Any, given: object,
               clock: Callable[[], float] | None = None, wall: Callable[[], float] | None = None) -> Any:
    """``call(*args)``, a call into the game; anything it raises but a refusal (GameError) is
    said as which of its functions failed and on what, so the finding points at the line to mend.
    With a ``clock`` (the kit's pure floor keeps none of its own), a call past SLOW_S stops the
    play, said the same way; with a ``wall`` clock too, a call that waits past WAIT_MOST by it
    (a sleep, a network read: the clock, a CPU one, doesn't see a wait) does."""
    began = clock() if clock is not None else 0.0
    waited = wall() if wall is not None else 0.0
    try:
        return call(*args)
    except GameError:
        raise
    except (Exception, SystemExit) as e:
        raise _PlayFailed("%s raised %s: %s, given %s" % (what, type(e).__name__, e, base.quoted(given, 80))) from e
    finally:
        took = clock() - began if clock is not None else 0.0
        waited = wall() - waited if wall is not None else 0.0
        if took > SLOW_S or waited > WAIT_MOST:
            raise _PlayFailed("%s took %.1f s, given %s: the box holds every tablet's moves while a game's "
                              "function runs, so each must answer within %g s" % (
                                  what, took if took > SLOW_S else waited, base.quoted(given, 80), SLOW_S))


class _PlayFailed(Exception):
    """A function of the game failed while the kit played it (the message says which, on what)."""


def _events(what: str, events: object, given: object) -> list[Event]:
    """``events``, as ``what`` (setup() or decide()) gave them, when they are events at all:
    anything else stops the play, said in the words the box refuses such a move with (a bare
    "'NoneType' object is not iterable" named neither the function nor what it owes)."""
    if not base.are_events(events):
        raise _PlayFailed("%s gave %s, given %s: %s must give %s" % (
            what, base.quoted(events, 80), base.quoted(given, 80), what, base.EVENTS))
    return events


def play(game: Game, seed: int = 0, moves: int = MOVES, names: Sequence[dict[str, Any]] | None = None,
         options: dict[str, Any] | None = None, ending: Sequence[Action] | None = None,
         clock: Callable[[], float] | None = None, wall: Callable[[], float] | None = None) -> Play:
    """``game`` played from its offers (or through ``ending``, a finished game's actions) until it
    ends or ``moves`` are made. A refused move is passed over, as the table would tap again, and
    so is one decide() takes with no events (counted in ``idle``): it changes nothing, and kept,
    it had describe() asked about a move with no events, whose crash was the only thing said of
    an offer that does nothing ("offers" says that). An ending's move is the author's own: one
    refused, or taken with no events, stops the play and is named (it was passed over in silence,
    and the rules then looked at a game that hadn't ended as the author said).

    Each state is kept as a copy, and decide() is given one, as the table gives it: a game whose
    apply() writes into the state it was given would otherwise rewrite the states already kept,
    and every rule after would look at a game that isn't the one played ("pure" says what it is)."""
    rng = random.Random(seed)
    players = list(names or table(game, options=options))
    out = Play(names=[str(p["name"]) for p in players])
    out.setup = _events("setup()", _game_call("setup()", game.setup, players, dict(options or {}), given=options or {},
                                              clock=clock, wall=wall), given=options or {})
    state = game.initial()
    for ev in out.setup:
        state = _game_call("apply()", game.apply, state, ev, given=ev, clock=clock, wall=wall)
    out.states.append(base.copied(state))
    if clock is not None:           # the view, which the play itself never asks for, once: as the box does a move
        _game_call("view()", game.view, state, given="the state just set up", clock=clock, wall=wall)
    script = list(ending) if ending is not None else None
    for _ in range(moves if script is None else len(script)):
        if _game_call("result()", game.result, state, given="a state of the play", clock=clock, wall=wall)["over"]:
            break
        if script is not None:
            action = script.pop(0)
        else:
            offers = _game_call("offers()", game.offers, state, given="a state of the play", clock=clock, wall=wall)
            if not offers:
                break
            action = fill(game, rng.choice(offers), rng)
        try:
            events = _events("decide()", _game_call("decide()", game.decide, base.copied(state), action,
                                                    random.Random(rng.randrange(2 ** 32)), given=action, clock=clock, wall=wall),
                             given=action)
        except GameError:
            if script is not None:
                raise
            continue
        if not events:
            if script is not None:      # the author's own move: one that changes nothing is a mistake to name
                raise _PlayFailed("decide() took the ending's move %d, %s, with no events: it changes nothing, "
                                  "so the game can't end through it (give the moves that finish the game, each "
                                  "giving its events)" % (len(ending or ()) - len(script), base.quoted(action, 80)))
            out.idle += 1
            continue
        out.moves.append((base.copied(action), base.copied(events)))
        for ev in events:
            state = _game_call("apply()", game.apply, state, ev, given=ev, clock=clock, wall=wall)
        out.states.append(base.copied(state))
    return out


class _Check:
    """What the rules look at, worked out once per game: its setup and a played game."""

    def __init__(self, game: Game, seed: int, ending: Sequence[Action] | None, options: dict[str, Any] | None,
                 names: Sequence[dict[str, Any]] | None, clock: Callable[[], float] | None = None,
                 wall: Callable[[], float] | None = None) -> None:
        self.game = game
        self.seed, self.ending, self.options, self.names, self.clock = seed, ending, options, names, clock
        self.wall = wall
        self._played: Play | None = None
        self._problem: str | None = None
        self._offered: dict[str, tuple[Action, str | None]] | None = None
        self.offered_in: dict[str, State] = {}
        self.filled: set[str] = set()
        self.unknown: set[str] = set()
        self.idle: dict[str, Action] = {}
        self.asked: dict[str, Action] = {}

    def played(self) -> Play:
        if self._played is None and self._problem is None:
            try:
                self._played = play(self.game, self.seed, names=self.names, options=self.options,
                                    ending=self.ending, clock=self.clock, wall=self.wall)
            except _PlayFailed as e:
                self._problem = "setting up and playing it failed: %s" % e
            except (Exception, SystemExit) as e:       # any failure to start or play is the finding, not a crash
                self._problem = "setting up and playing it failed: %s: %s" % (type(e).__name__, e)
            else:
                self._played = self._ended_otherwise() or self._played
        if self._played is None:
            raise _Broken(self._problem or "it could not be played")
        return self._played

    def _ended_otherwise(self) -> Play | None:
        """A play that ends with another choice of one of the game's choice options, when the
        defaults' play didn't end and nobody said which options to play (a game whose board the
        table keeps may end only then)."""
        if self.ending is not None or self.options is not None or self._played is None:
            return None
        if self.game.result(self._played.states[-1])["over"]:
            return None
        for opt in self.game.options:
            if opt["kind"] != "choice" or not opt["form"]:
                continue
            for choice in list(opt["choices"])[:4]:
                if choice == opt["default"]:
                    continue
                try:
                    other = play(self.game, self.seed, names=self.names, options={opt["name"]: choice},
                                 clock=self.clock, wall=self.wall)
                except (Exception, SystemExit):        # a choice that needs other seats or options: not this one
                    continue
                if self.game.result(other.states[-1])["over"]:
                    return other
        return None

    def offered(self) -> dict[str, tuple[Action, str | None]]:
        """kind -> (an offer of that kind filled in as the panel fills it, None when decide()
        took it, else the sentence it refused it with), over the states of the play: a kind is
        taken when decide() takes one of up to TRIES fillings, in any state it was offered in.
        ``offered_in[kind]``: the state the action shown was tried on; ``asked[kind]``: the offer
        decide() took it from; ``filled``: the kinds
        whose offers ask the table for fields (the panel's form fills those); ``unknown``: the
        kinds decide() refused as no action of its own; ``idle``: kind -> the filled-in offer
        decide() took with no events, a tap that changes nothing. An offer that asks for nothing
        may be one the game's own screen fills in with a form of its own (SCAN's hand): decide()
        may refuse it bare, unless it is no action of the game's at all."""
        if self._offered is not None:
            return self._offered
        g = self.game
        out: dict[str, tuple[Action, str | None]] = {}
        self.offered_in, self.filled, self.unknown, self.idle = {}, set(), set(), {}
        for state in _sample(self.played().states):
            for offer in g.offers(state):
                kind = base.action_type(offer)
                if kind is None or (kind in out and out[kind][1] is None):
                    continue
                if offer.get("enter") or offer.get("choices"):
                    self.filled.add(kind)
                for seed in range(TRIES):
                    action = fill(g, offer, random.Random(seed))
                    try:
                        events = g.decide(base.copied(state), base.copied(action), random.Random(seed))
                    except GameError as e:
                        if kind not in out or out[kind][1] is not None:
                            out[kind], self.offered_in[kind] = (action, str(e)), state
                        if isinstance(e, (base.UnknownAction, base.NotAnAction)):
                            self.unknown.add(kind)
                        continue
                    out[kind], self.offered_in[kind] = (action, None), state
                    self.asked[kind] = offer
                    self.unknown.discard(kind)
                    if events == []:
                        self.idle[kind] = action
                    break
        self._offered = out
        return out

    def finished(self) -> State:
        played = self.played()
        last = played.states[-1]
        if not self.game.result(last)["over"]:
            idle = (" (and %d taps decide() took with no events, which change nothing: the rule 'offers' says "
                    "which)" % played.idle) if played.idle else ""
            raise Unreached("%d moves from its offers%s did not end a game of %s; give the kit a finished game's "
                            "moves (check(game, ending=[...]) or the newsdesk_kit fixture's ending=) to check "
                            "what a finished game must do" % (len(played.moves), idle, self.game.title))
        return last


class _Broken(Exception):
    """The game could not be set up or played: the rule "play" says so, and every other rule that
    needs a played game is unreached."""


SAMPLE = 60          # the most states (or moves) of a play the costlier rules look at


def _sample(items: Sequence[Any], most: int = SAMPLE) -> list[Any]:
    """Up to ``most`` of ``items``, evenly spread, the last always among them."""
    if len(items) <= most:
        return list(items)
    step = len(items) / most
    return [items[int(i * step)] for i in range(most - 1)] + [items[-1]]


def _is_json(value: object) -> bool:
    try:
        same: bool = json.loads(json.dumps(value, allow_nan=False)) == value
        return same
    except (TypeError, ValueError, RecursionError):
        return False


def _not_json(value: object, path: str) -> str | None:
    """Where in ``value`` (named ``path``, as view) the first thing JSON can't hold is, and what
    it is ('view["when"] is a set'); None when nothing is."""
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if value == value and value not in (float("inf"), float("-inf")) else \
            "%s is %r, a number JSON can't hold" % (path, value)
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _not_json(item, "%s[%d]" % (path, i))
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return "%s has the key %r, a %s, where JSON keeps only text" % (path, key, type(key).__name__)
            found = _not_json(item, "%s[%s]" % (path, json.dumps(key)))
            if found:
                return found
        return None
    return "%s is a %s" % (path, type(value).__name__)


def _refusal(call: Callable[[], object], kind: type[GameError], words: str = "") -> str | None:
    """None when ``call`` raises ``kind`` with a sentence (holding ``words``, the standard
    refusal's, when given); else what it did instead, in words."""
    try:
        got = call()
    except kind as e:
        if not str(e).strip():
            return "it raised %s with no sentence" % kind.__name__
        if words not in str(e):
            return "it said %r, not the standard refusal's words (%r: guard writes them)" % (str(e), words)
        return None
    except GameError as e:
        return "it raised %s (%r), not %s" % (type(e).__name__, str(e), kind.__name__)
    except (Exception, SystemExit) as e:
        return "it raised %s: %s, not a GameError" % (type(e).__name__, e)
    return "it gave %s instead of refusing" % base.quoted(got, 80)


# ---------------------------------------------------------------- the rules, one function each

def _declaration(c: _Check) -> Iterator[str]:
    g = c.game
    if not isinstance(g, Game):
        yield "it is a %s, not a Game" % type(g).__name__
        return
    if not isinstance(g.name, str) or not NAME.fullmatch(g.name):
        yield "its name %s is not lower-case letters, digits and _" % base.quoted(g.name)
    if not isinstance(g.title, str) or not g.title.strip():
        yield "its title is %s, not words" % base.quoted(g.title)
    elif len(g.title) > TITLE_MOST:
        yield "its title is %d characters long: the start form lists it, in at most %d" % (len(g.title), TITLE_MOST)
    for part in ("setup", "initial", "decide", "apply", "offers", "view", "result", "describe", "headline", "rings"):
        if not callable(getattr(g, part)):
            yield "its %s is not a function" % part
    # the fields every page reads off the declaration: one of the wrong type was a 500 on every
    # page of the panel (the start form sorts the games by order, lists variants, reads the panel)
    if not base.is_int(g.order):
        yield "its order is %s, not a whole number (where the start form lists it)" % base.quoted(g.order)
    if not isinstance(g.variants, Mapping) or not all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in g.variants.items()):
        yield "its variants are %s, not a mapping of each variant's id to its words" % base.quoted(g.variants, 60)
    if not isinstance(g.options, (tuple, list)):
        yield "its options are %s, not a list of option()s" % base.quoted(g.options, 60)
    if not isinstance(g.panel, Mapping):
        yield "its panel facts are %s, not a mapping like kit.PANEL_DEFAULTS" % base.quoted(g.panel, 60)
    if g.colours is not None and not (isinstance(g.colours, (tuple, list)) and all(isinstance(c, str)
                                                                                    for c in g.colours)):
        yield "its colours are %s, not a list of colour names (or None)" % base.quoted(g.colours, 60)
    players = g.players
    if isinstance(players, Mapping):
        for variant, seated in players.items():
            if not (isinstance(variant, str) and isinstance(seated, (tuple, list)) and len(seated) == 2
                    and all(base.is_int(n) for n in seated)):
                yield "its players are %s, not a variant's id -> (fewest, most) for each" % base.quoted(players, 60)
                break
        else:
            if not players:
                yield "its players are {}, which seats nobody: give a variant's id -> (fewest, most), or a number"
            elif isinstance(g.variants, Mapping) and set(players) - set(g.variants):
                yield "its players name %s, which are not among its variants" % ", ".join(
                    sorted(set(players) - set(g.variants)))
    elif players is not None and not base.is_int(players):
        yield "its players are %s, not a number of seats, a mapping by variant or None" % base.quoted(players)
    for bound in ("min_players", "max_players"):
        if not base.is_int(getattr(g, bound)):
            yield "its %s is %s, not a whole number" % (bound, base.quoted(getattr(g, bound)))


def _seats(c: _Check) -> Iterator[str]:
    fewest, most = seats(c.game)
    if not (base.is_int(fewest) and base.is_int(most) and 1 <= fewest <= most <= base.SEATS_MOST):
        yield "it seats %s to %s players" % (base.quoted(fewest), base.quoted(most))


def _options(c: _Check) -> Iterator[str]:
    names = []
    for opt in c.game.options:
        if not isinstance(opt, dict) or not {"name", "kind", "default", "label", "rule", "newsdesk"} <= set(opt):
            yield "option %s was not made by option()" % base.quoted(opt, 60)
            continue
        names.append(opt["name"])
        if opt["kind"] not in base.KINDS:
            yield "option %s has kind %r" % (opt["name"], opt["kind"])
            continue
        if not str(opt["label"]).strip():
            yield "option %s has no label: the start form names it by its label, and so does its refusal" % opt["name"]
        if not str(opt["rule"]).strip():
            yield "option %s has no rule line%s" % (opt["name"], " (newsdesk=True marks newsdesk's own rule, which "
                                                             "still needs its words)" if opt["newsdesk"] else "")
        if opt["kind"] in ("integer", "minutes", "counts") and not opt.get("minimum", 0) <= opt.get("maximum", -1):
            yield "option %s's bounds are %s-%s" % (opt["name"], opt.get("minimum"), opt.get("maximum"))
        if opt["kind"] in ("choice", "choices") and not opt.get("choices"):
            yield "option %s has no choices" % opt["name"]
        if opt["default"] is None and opt["kind"] in NEEDS_DEFAULT and opt.get("form", True) and not opt.get("or_name"):
            yield "option %s has no default (None): the start form shows it empty, and a game set up without " \
                  "it is played by a value nobody declared" % opt["name"]
        if opt["default"] is not None and opt["kind"] not in ("mapping", "seat"):
            try:
                base.check_declared(c.game.title, [opt], {opt["name"]: opt["default"]})
            except GameError as e:
                yield "option %s's default is out of its bounds: %s" % (opt["name"], e)
    variants = c.game.variants if isinstance(c.game.variants, Mapping) else {}
    picks = base.variant_option(c.game) if variants else None
    for opt in c.game.options:
        if not isinstance(opt, dict) or opt.get("kind") not in NO_BOX or not opt.get("form", True):
            continue
        schema = opt.get("schema")
        if (picks and opt.get("name") == picks[0]) or (
                opt["kind"] == "mapping" and isinstance(schema, dict) and schema.get("properties")):
            continue
        yield "option %s is a %s option, which the start form has no box for, so the table could never set " \
              "it: declare it with form=False (set through the API alone), or make it a kind the form asks " \
              "(integer, boolean, choice, seat, names, minutes)" % (opt.get("name"), opt["kind"])
    if len(set(names)) != len(names):
        yield "two options share a name (%s)" % ", ".join(sorted(n for n in set(names) if names.count(n) > 1))
    labels = [base.form_name(o) for o in c.game.options if isinstance(o, dict) and isinstance(o.get("label"), str)]
    if len(set(labels)) != len(labels):
        yield "two options share the label %s: the start form shows them alike, and a refusal names an option " \
              "by its label" % ", ".join(sorted(n for n in set(labels) if labels.count(n) > 1))
    for opt in c.game.options:
        if not isinstance(opt, dict) or opt.get("variant") is None:
            continue
        ids = opt["variant"] if isinstance(opt["variant"], (list, tuple)) else [opt["variant"]]
        if not ids or not all(isinstance(v, str) and v for v in ids):
            yield "option %s's variant is %s: a variant's id or a list of them" % (opt.get("name"),
                                                                                  base.quoted(opt["variant"]))
            continue
        for v in ids:
            if v not in variants:
                yield "option %s belongs to the variant %s, which the game doesn't have (its variants: %s)" % (
                    opt.get("name"), base.quoted(v), ", ".join(variants) or "none")


def _setup_options(c: _Check) -> Iterator[str]:
    g, players = c.game, table(c.game)
    for opt in g.options:
        if opt["default"] is None or opt["kind"] == "choices":
            continue
        try:
            g.setup(players, {opt["name"]: opt["default"]})
        except (Exception, SystemExit) as e:
            yield "setup refused option %s's own default %s: %s" % (opt["name"], base.quoted(opt["default"]), e)
    said = _refusal(lambda: g.setup(players, {"colourful": 1}), GameError)
    if said:
        yield "given an option it doesn't declare (colourful), %s" % said
    for opt in g.options:
        if opt["kind"] not in ("integer", "minutes") or opt.get("or_name"):
            continue
        for bad in (opt["maximum"] + 1, opt["minimum"] - 1, 10 ** 400, True, 2.5):
            try:
                g.setup(players, {opt["name"]: bad})
            except GameError as e:
                words = str(e)
                if len(words) > SENTENCE:
                    yield "refusing %s for option %s, it said %d characters, not one sentence" % (
                        base.quoted(bad), opt["name"], len(words))
                elif not words.startswith(base.form_name(opt)):
                    yield "refusing %s for option %s, it said %r, not opening with the option as the form names it " \
                          "(%s)" % (base.quoted(bad), opt["name"], words, base.form_name(opt))
                elif opt["name"] not in str(opt["label"]) and opt["name"] in words:
                    yield "refusing %s, it said %r, showing the option's key %r" % (base.quoted(bad), words, opt["name"])
            except (Exception, SystemExit) as e:
                yield "given %s for option %s, it raised %s: %s" % (base.quoted(bad), opt["name"], type(e).__name__, e)
            else:
                yield "it took %s for option %s, past its bounds %s-%s" % (
                    base.quoted(bad), opt["name"], opt["minimum"], opt["maximum"])


def _setup_players(c: _Check) -> Iterator[str]:
    """The seats of the variant the kit plays (its options'), with those options."""
    g, options = c.game, c.options or {}
    fewest, most = seats(g, _variant(g, options))
    tries: list[tuple[str, object]] = [
        ("players that are not a list", "Ann and Bob"),
        ("a player without a name", table(g, options=options)[:-1] + [{"name": ""}]),
        ("two players of one name", [{"name": "Ann"}] * max(2, fewest)),
        ("%d players, past its most" % (most + 1), table(g, most + 1))]
    if fewest > 1:
        tries.append(("%d players, short of its fewest" % (fewest - 1), table(g, fewest - 1)))
    for what, players in tries:
        said = _refusal(lambda players=players: g.setup(players, dict(options)), GameError)   # type: ignore[misc]
        if said:
            yield "given %s, %s" % (what, said)


def _panel(c: _Check) -> Iterator[str]:
    declared = dict(c.game.panel or {})
    extra = set(declared) - set(base.PANEL_DEFAULTS)
    if extra:
        yield "it declares %s, which the panel doesn't know" % ", ".join(sorted(extra))
    facts = base.panel(c.game)
    if facts["score"] not in SCORE_KINDS:
        yield "its score is %s" % base.quoted(facts["score"])
    chart = facts["chart"]
    if chart is not None and not (isinstance(chart, Mapping) and isinstance(chart.get("unit"), str)
                                  and isinstance(chart.get("prefix", ""), str)):
        yield "its chart is %s, not {\"unit\": words, \"prefix\": \"$\" or \"\"} or None" % base.quoted(chart, 60)
    if not facts["chart"] and not facts["no_chart"]:
        yield "it has no chart and no no_chart sentence saying why"
    if facts["no_chart"] is not None and not isinstance(facts["no_chart"], str):
        yield "its no_chart is %s, not a sentence" % base.quoted(facts["no_chart"], 60)
    if not isinstance(facts["teams"], bool):
        yield "its teams is %s, not true or false" % base.quoted(facts["teams"])
    if not isinstance(facts["lower_wins"], bool):
        yield "its lower_wins is %s, not true or false" % base.quoted(facts["lower_wins"])
    variants = c.game.variants if isinstance(c.game.variants, Mapping) else {}
    chosen = facts["team_variants"]
    if chosen is not None and not (isinstance(chosen, (list, tuple)) and all(v in variants for v in chosen)):
        yield "its team_variants are %s, not a list of its variants (or None)" % base.quoted(chosen, 60)
    for name in ("team_seats", "teams_optional"):      # {variant: [numbers of players]}
        counts = facts.get(name)
        if counts is not None and not (isinstance(counts, Mapping) and all(
                v in variants and isinstance(ns, (list, tuple)) and ns
                and all(base.is_int(n) and 1 <= n <= base.SEATS_MOST for n in ns) for v, ns in counts.items())):
            yield "its %s are %s, not {variant: [players, ...]} for its variants" % (name, base.quoted(counts, 80))
    by_variant = facts["seats_by_variant"]
    if by_variant is not None and not (isinstance(by_variant, Mapping) and all(
            v in variants and isinstance(b, Mapping) and base.is_int(b.get("min")) and base.is_int(b.get("max"))
            and 1 <= b["min"] <= b["max"] <= base.SEATS_MOST for v, b in by_variant.items())):
        yield "its seats_by_variant is %s, not {variant: {\"min\", \"max\"}} for its variants" % base.quoted(
            by_variant, 80)
    for key in ("numbers", "words"):
        if not isinstance(facts[key], Mapping):
            yield "its %s are %s, not a mapping of each field's name" % (key, base.quoted(facts[key], 60))
            return
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in facts["words"].items()):
        yield "its words are %s, not a field's name -> how the panel asks for it" % base.quoted(facts["words"], 60)
    if not isinstance(facts["listens"], (list, tuple)):
        yield "it listens to %s, not a list of oracles" % base.quoted(facts["listens"], 60)
        return
    for name, bound in (facts["numbers"] or {}).items():
        if (not isinstance(bound, dict) or not base.is_int(bound.get("minimum")) or not base.is_int(bound.get("maximum"))
                or not bound.get("label")):
            yield "its number %s is %s, not {\"minimum\", \"maximum\", \"label\"}" % (name, base.quoted(bound, 80))
        elif bound["minimum"] > bound["maximum"]:       # the right shape, so say what is wrong with it
            yield "its number %s has minimum %d above maximum %d: no number can be entered for it" % (
                name, bound["minimum"], bound["maximum"])
    unknown = set(facts["listens"] or ()) - set(ORACLES)
    if unknown:
        yield "it listens to %s; the oracles are %s" % (", ".join(sorted(unknown)), ", ".join(ORACLES))


def _not_set_up(c: _Check) -> Iterator[str]:
    g = c.game
    empty = g.initial()
    try:
        res = g.result(empty)
    except (Exception, SystemExit) as e:
        yield "result() of initial() raised %s: %s" % (type(e).__name__, e)
    else:
        want = base.result_of(False, [], base.panel(g))
        if want["score_kind"] not in SCORE_KINDS and isinstance(res, dict):      # "panel" says so: one cause, one finding
            want["score_kind"] = res.get("score_kind")
        if res != want:
            yield "result() of initial() is %s, not %s" % (base.quoted(res, 120), want)
    said = _refusal(lambda: g.decide(empty, {"type": "anything"}, random.Random(0)), base.NotSetUp, "set up")
    if said:
        yield "decide() on initial(): %s" % said


def _play(c: _Check) -> Iterator[str]:
    """Nothing of its own: the play the other rules look at, made (its failure is this rule's)."""
    c.played()
    yield from ()


def _guard(c: _Check) -> Iterator[str]:
    g, state = c.game, c.played().states[0]
    junk: Any = ["not", "an", "action"]          # what a broken client may send, typed or not
    said = _refusal(lambda: g.decide(state, junk, random.Random(0)), base.NotAnAction)
    if said:
        yield "sent a list as an action, %s" % said
    said = _refusal(lambda: g.decide(state, {"type": "juggle"}, random.Random(0)), base.UnknownAction,
                    "has no action 'juggle'")
    if said:
        yield "sent {\"type\": \"juggle\"}, %s" % said


def _offers(c: _Check) -> Iterator[str]:
    facts = base.panel(c.game)
    seen = set()
    for state in _sample(c.played().states):
        for offer in c.game.offers(state):
            kind = base.action_type(offer)
            if kind is None:
                yield "it offered %s" % base.quoted(offer, 80)
                continue
            choices = offer.get("choices")
            for name in offer.get("enter") or ():
                picks = choices.get(name) if isinstance(choices, dict) else None
                listed = isinstance(choices, list) and all(isinstance(x, dict) for x in choices)
                if (kind, name) not in seen and not (picks or listed or name in facts["numbers"]
                                                     or name in facts["words"]):
                    seen.add((kind, name))
                    yield "its %s offer asks for %r, which neither its panel facts nor its choices bound" % (kind, name)
            labels = offer.get("labels")
            if labels is not None and (kind, "labels") not in seen:
                entered = set(offer.get("enter") or ())
                if not isinstance(labels, dict) or any(
                        k not in entered or not isinstance(v, str) or not v.strip() for k, v in labels.items()):
                    seen.add((kind, "labels"))
                    yield ("its %s offer's labels are %s, not words for fields it enters (%s)"
                           % (kind, base.quoted(labels, 80), ", ".join(sorted(entered)) or "none"))
    for kind, (action, refusal) in c.offered().items():
        if refusal is not None and (kind in c.filled or kind in c.unknown):
            yield "its %s offer is refused by its own rules: %s (filled in as %s)" % (kind, refusal, base.quoted(action))
    for kind, action in c.idle.items():
        yield ("decide() took its %s offer (filled in as %s) and gave no events: each tap on it is kept as a move "
               "that changes nothing" % (kind, base.quoted(action)))


def _fields(c: _Check) -> Iterator[str]:
    """Each kind of offer, filled in and taken by decide(), sent again with each field gone or
    replaced by junk: a refusal is the table's to read, anything else a 500 at the panel."""
    g = c.game
    for kind, (action, refusal) in c.offered().items():
        if refusal is not None:
            continue            # "offers" says so
        state = c.offered_in[kind]
        for name in [k for k in action if k != "type"]:
            sent: list[tuple[str, dict[str, Any]]] = [("without its %s" % name, {k: v for k, v in action.items() if k != name})]
            sent += [("with %s %s" % (name, base.quoted(bad, 40)), dict(action, **{name: bad})) for bad in JUNK]
            for what, bad_action in sent:
                try:
                    g.decide(base.copied(state), bad_action, random.Random(0))
                except GameError:
                    continue
                except (Exception, SystemExit) as e:
                    yield "sent its %s offer %s, decide() raised %s: %s, not a GameError" % (kind, what, type(e).__name__, e)
                    break
            else:
                continue
            break
    yield from _past_bounds(c)


def _past_bounds(c: _Check) -> Iterator[str]:
    """Each number an offer asks the table to enter, sent past its panel facts' bounds or as junk:
    the bounds shape the panel's box, but the box hands a tablet's move on as sent, so a decide()
    that takes one keeps a move no table could make (a visit of -5 points, of 10**30)."""
    g, numbers = c.game, base.panel(c.game)["numbers"]
    for kind, (action, refusal) in c.offered().items():
        offer = c.asked.get(kind, {})
        choices = offer.get("choices")
        for name in offer.get("enter") or ():
            bound = numbers.get(name) if not (isinstance(choices, dict) and choices.get(name)) else None
            if refusal is not None or not isinstance(bound, Mapping):
                continue
            low, high = bound["minimum"], bound["maximum"]
            for bad in (low - 1, high + 1, *JUNK):
                try:
                    g.decide(base.copied(c.offered_in[kind]), dict(action, **{name: bad}), random.Random(0))
                except (Exception, SystemExit):     # a refusal, or what the loop above says
                    continue
                yield ("sent its %s offer with %s %s, past its panel facts' bounds %d-%d, decide() took it: the "
                       "box hands a move on as the tablet sent it, so decide() must refuse it with a GameError"
                       % (kind, name, base.quoted(bad, 40), low, high))
                break


def _pure(c: _Check) -> Iterator[str]:
    """Each change is seen by comparing with a copy: an object JSON can't hold (a class of the
    game's own) need not equal its copy, and was said as "decide() changed its state" beside what
    "json" says of it. A state or action that isn't plain JSON is left to "json"."""
    g, played = c.game, c.played()
    for before, (action, events) in _sample(list(zip(played.states, played.moves))):
        if not (_is_json(before) and _is_json(action)):
            continue
        state, asked = base.copied(before), base.copied(action)
        again = g.decide(state, asked, random.Random(7))
        if state != before or asked != action:
            yield "decide() changed its %s for %s" % ("state" if state != before else "action", base.quoted(action))
            return
        if g.decide(state, asked, random.Random(7)) != again:
            yield "decide() gave different events for %s with the same random numbers" % base.quoted(action)
            return
        for ev in events:
            if not _is_json(state):
                break
            kept = base.copied(state)
            after = g.apply(state, ev)
            if state != kept:
                yield "apply() changed the state it was given, for event %s" % base.quoted(ev)
                return
            if after is state:
                yield "apply() gave back the state it was given, for event %s" % base.quoted(ev)
                return
            state = after


def _json(c: _Check) -> Iterator[str]:
    g, played = c.game, c.played()
    events = list(played.setup) + [ev for _, evs in played.moves for ev in evs]
    for ev in events:
        if base.action_type(ev) is None:
            yield "event %s is not a JSON object with a text \"type\"" % base.quoted(ev, 80)
            return
        if not _is_json(ev):
            yield "event %s is not plain JSON (a set, a tuple, a number JSON can't hold...): %s, and the store " \
                  "keeps it as JSON" % (base.quoted(ev, 80), _not_json(ev, "event") or "somewhere in it")
            return
    for state in _sample(played.states):
        for what, value in (("state", state), ("view", g.view(state)), ("offers", g.offers(state))):
            if not _is_json(value):
                where = _not_json(value, what)
                yield ("its %s, not plain JSON" % where if where
                       else "its %s %s is not plain JSON" % (what, base.quoted(value, 80)))
                return
    replayed = g.initial()
    for ev in json.loads(json.dumps(events)):
        replayed = g.apply(replayed, ev)
    if replayed != played.states[-1]:
        yield "its events, stored as JSON and replayed, gave another state"


def _view(c: _Check) -> Iterator[str]:
    g = c.game
    for state in [g.initial(), *_sample(c.played().states)]:
        view = g.view(state)
        if not isinstance(view, dict):
            yield "view() gave %s, not an object" % base.quoted(view)
            return
        if view.get("game") not in (g.name, None) or (state.get("started") and view.get("game") != g.name):
            yield "its view names its game %s, not %r" % (base.quoted(view.get("game")), g.name)
            return
        if "waiting_for" in view and not isinstance(view["waiting_for"], (str, type(None))):
            yield "its view's waiting_for is %s, not words" % base.quoted(view["waiting_for"])
            return
        if "result" in view:        # game_session.look: the screen would get result()'s, not the game's
            yield "its view has a \"result\" key, %s, which the box replaces with result()'s answer" \
                % base.quoted(view["result"], 60)
            return


def _result(c: _Check) -> Iterator[str]:
    g, played = c.game, c.played()
    kind = base.panel(g)["score"]
    for n, state in enumerate(played.states):
        res = g.result(state)
        if not isinstance(res, dict) or set(res) != RESULT_KEYS:
            yield "result() gave %s, not result_of()'s keys" % base.quoted(res, 80)
            return
        rows = res["standings"]
        if res["winners"] != [r["name"] for r in rows if r["winner"]]:
            yield "its winners %s are not the rows marked winner" % res["winners"]
        elif not res["over"] and res["winners"]:
            yield "it named winners %s before the game was over" % res["winners"]
        elif sorted(r["name"] for r in rows if not r.get("automated")) != sorted(played.names):   # and the box's seats
            yield "its standings list %s, not the players %s" % ([r["name"] for r in rows], played.names)
        elif res["score_kind"] != kind and kind in SCORE_KINDS:       # a kind the panel doesn't know: "panel" says so
            yield "its score kind is %r, its panel facts say %r" % (res["score_kind"], kind)
        elif any((r["score"] is not None) if kind is None else not base.is_int(r["score"]) for r in rows):
            yield "its scores %s are not %s" % ([r["score"] for r in rows], "None" if kind is None else "whole numbers")
        elif res["over"] and n < len(played.states) - 1:
            yield "the game went on after result() said it was over"
        else:
            continue
        return


def _words(c: _Check) -> Iterator[str]:
    g, played = c.game, c.played()
    for state, (action, events) in zip(played.states, played.moves):
        try:
            said = g.describe(state, action, events)
        except (Exception, SystemExit) as e:        # which move, not a bare "IndexError: list index out of range"
            yield "describe() raised %s: %s for %s, whose events were %s" % (
                type(e).__name__, e, base.quoted(action), base.quoted(events, 80))
            return
        if said is not None and not isinstance(said, str):
            yield "describe() gave %s for %s" % (base.quoted(said), base.quoted(action))
            return
        if isinstance(said, str) and len(" ".join(said.split())) > SAID_MOST:
            yield "describe() gave a sentence of %d characters for %s: the box keeps at most %d of it (it goes " \
                  "to every page after the move), so say the move in fewer" % (
                      len(" ".join(said.split())), base.quoted(action), SAID_MOST)
            return
        told = {}
        for part in ("headline", "rings"):         # which of the two, and on what: not "it raised KeyError"
            try:
                told[part] = getattr(g, part)(events)
            except (Exception, SystemExit) as e:
                yield "%s() raised %s: %s for the events %s" % (part, type(e).__name__, e, base.quoted(events, 80))
                return
        head = told["headline"]
        if head is not None and not isinstance(head, dict):
            yield "headline() gave %s" % base.quoted(head)
            return
        if head is not None and not _is_json(head):
            yield "headline() gave an event that is not plain JSON (%s): the box sends it to the page as JSON" \
                  % (_not_json(head, "event") or base.quoted(head, 80))
            return
        if not isinstance(told["rings"], bool):
            yield "rings() gave %s, not true or false" % base.quoted(told["rings"])
            return


def _end(c: _Check) -> Iterator[str]:
    g, last = c.game, c.finished()
    if g.offers(last):
        yield "over, it still offers %s" % base.quoted(g.offers(last), 80)
    sent: list[object] = [{"type": "juggle"}, {"type": None}, "junk"]
    sent += [fill(g, o, random.Random(0)) for o in g.offers(c.played().states[0])[:3]]
    for action in sent:
        said = _refusal(lambda action=action: g.decide(last, action, random.Random(0)), base.GameOver)  # type: ignore[misc]
        if said:
            yield "over, sent %s, %s" % (base.quoted(action), said)


CHECKS: dict[str, Callable[[_Check], Iterator[str]]] = {
    "declaration": _declaration, "seats": _seats, "options": _options, "setup-options": _setup_options,
    "setup-players": _setup_players, "panel": _panel, "not-set-up": _not_set_up, "play": _play, "guard": _guard,
    "offers": _offers, "fields": _fields, "pure": _pure, "json": _json, "view": _view, "result": _result, "words": _words, "end": _end}


# the rules read off a declaration alone, running none of the game's code: the registry checks a
# game by them as it loads it (registry.py), so the box refuses what the kit would
AT_LOAD = ("declaration", "seats", "options", "panel")


def declaration_problems(game: Game) -> list[str]:
    """What the rules read off the declaration alone (AT_LOAD) see wrong with ``game``, each as
    its finding says it ("option target's default is out of its bounds: ..."); [] when none.
    Cheap: nothing of the game's is called, so a box can check every game it loads. The others
    read the fields the declaration rule checks: a declaration it refuses is said alone."""
    kit = Kit(game)
    out: list[str] = []
    for rule in AT_LOAD:
        out += [f.seen for f in kit.findings(rule)]
        if out:
            return out
    return out


class Kit:
    """One game put through the rules: ``findings(rule)`` for one, ``check()`` for all. Build it
    once per game: the game is set up and played once, and every rule looks at that play."""

    def __init__(self, game: Game, *, seed: int = 0, ending: Sequence[Action] | None = None,
                 options: dict[str, Any] | None = None, players: Sequence[dict[str, Any]] | None = None,
                 clock: Callable[[], float] | None = None, wall: Callable[[], float] | None = None) -> None:
        """``clock`` (seconds, as time.thread_time, the plug-in's): each call into the game is timed, and one past
        SLOW_S stops the play, said by the rule "play" (the pytest plug-in gives one); ``wall``
        (as time.monotonic): one that waits past WAIT_MOST by it does too.
        ``options``: the setup options the game is played with (its defaults when None); the
        variant they pick is the one whose fewest players the kit seats, and whose seats
        "setup-players" checks."""
        self.game = game
        self._check = _Check(game, seed, ending, options, players, clock, wall)

    def played(self) -> Play:
        """The game as the kit played it, which the rules look at: its players, states and moves.
        GameError when it could not be set up or played (the rule "play" says why)."""
        try:
            return self._check.played()
        except _Broken as e:
            raise GameError(str(e)) from None

    def findings(self, rule: str) -> list[Finding]:
        """What the game does against ``rule`` (a name in RULES); [] when it keeps it. Raises
        Unreached when the rule needs a played game and the kit could not play one (the rule
        "play" says why), or is about a finished game and the kit could not finish one."""
        found = BY_NAME[rule]
        name = getattr(self.game, "name", repr(self.game))
        try:
            seen = list(CHECKS[rule](self._check))
        except Unreached:
            raise
        except _Broken as e:            # the play failed: said once, by the rule "play"
            if rule != PLAY.name:
                raise Unreached("not checked: the kit could not play the game (the rule %r says why)"
                                % PLAY.name) from None
            return [Finding(PLAY, name, str(e))]
        except (Exception, SystemExit) as e:        # a crash is a finding: the rule's words say what was expected
            seen = ["it raised %s: %s" % (type(e).__name__, e)]
        return [Finding(found, name, s) for s in seen]

    def check(self) -> tuple[list[Finding], list[str]]:
        """(every finding, the rules not reached and why)."""
        out: list[Finding] = []
        unreached = []
        for rule in RULES:
            try:
                out += self.findings(rule.name)
            except Unreached as e:
                unreached.append("%s: %s" % (rule.name, e))
        return out, unreached


def check(game: Game, **how: Any) -> list[Finding]:
    """Every rule ``game`` breaks (``how``: Kit's seed, ending, options and players); the rules
    the kit could not reach are left out (Kit.check says which)."""
    return Kit(game, **how).check()[0]
