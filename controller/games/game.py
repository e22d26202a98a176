"""What a game is to newsdesk: one typed declaration, ``Game``, that a game's package exports as
``GAME`` and names in the entry-point group ``newsdesk.games`` (registry.py finds it there, the way
gpiozero finds its pin factories).

A declaration holds the game's names, its seats, its options and its panel facts, and its rules
as seven pure functions over plain dicts: setup, initial, decide, apply, offers, view and
result. ``result`` is the clause everything around a game stands on: the game says itself whether
it is over, who won and what each player ended with (base.Result); history, statistics, the
exports, the league and Home Assistant read it, and nothing reads that off the view.

The optional parts (describe, headline, rings, the options, the panel facts, the seats and the
colours) have their defaults here, each saying what leaving it out means, as pyserial's
SerialBase gives every platform's port what it leaves out. A game package need not subclass or
register anything: it builds one ``Game`` and lists it in its distribution's entry points.
"""

import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .base import Action, Event, Result, State

Players = list[dict[str, Any]]  # setup's players: [{"name": str, "colour": str | None, "team": str | None}, ...]

# a game's name (its entry point's too): a Python-ish id, in URLs, file names, JSON and every stored game
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")     # used with fullmatch: "race\n" is not a name
SLOW_S = 1.0    # the longest one call into a game may take: the box holds every tablet's writes while one
                # runs (a view that slept 2 s took the kit minutes, unsaid); the kit and the box both time it
SAID_MOST = 500 # characters of a move's sentence (describe()) the box keeps: it is stored with the move and
                # goes to every page after it, in its undo bar and log; newsdesk's own run to about 220


def no_description(state: State, action: Action, events: list[Event]) -> str | None:
    """A game without words of its own: the session's plain words ("Ann's claim (story_type
    sport)") stand in."""
    return None


def no_headline(events: list[Event]) -> Event | None:
    """A game that shows no event in big type after a reload."""
    return None


def never_rings(events: list[Event]) -> bool:
    """A game whose moves never ring the phone's bell."""
    return False


@dataclass(frozen=True, kw_only=True, eq=False)
class Game:
    """One game as newsdesk keeps it. Pure: no clock, no I/O; randomness is handed in.

    Events and actions are plain dicts (a "type" each), so they store as JSON and replay the same.
    """

    name: str                                   # short id, e.g. "scoop1956": the entry point's name, kept in every stored game
    title: str                                  # "SCOOP (Parker Brothers, 1956)"
    setup: Callable[[Players, dict[str, Any] | None], list[Event]]
    """The events that start a game (validated; raises GameError). players: [{"name": str,
    "colour": str, "team": str|None}, ...]"""
    initial: Callable[[], State]
    """The empty state the setup events fold onto."""
    decide: Callable[[State, Action, random.Random], list[Event]]
    """An action checked against the rules and the state: the events it causes, or GameError
    with one sentence a person can act on (base.guard makes the refusals every game shares)."""
    apply: Callable[[State, Event], State]
    """The pure fold: a NEW state; never raises for events decide() produced."""
    offers: Callable[[State], list[Action]]
    """The actions the panel can offer now (its one-tap buttons)."""
    view: Callable[[State], dict[str, Any]]
    """JSON for the panel's game screen."""
    result: Callable[[State], Result]
    """Whether the game is over, who won and each player's score, by the rules (base.result_of)."""

    variants: Mapping[str, str] = field(default_factory=dict)       # variant id -> plain description
    options: tuple[dict[str, Any], ...] = ()    # each made by base.option(): the start form, the API document, the checks
    panel: Mapping[str, Any] = field(default_factory=dict)          # the panel's facts (base.panel() lists them)
    colours: tuple[str, ...] | None = None      # the colours its pieces come in, when the box fixes them
    players: int | Mapping[str, tuple[int, int]] | None = None     # seats, when fixed or set by variant
    min_players: int = 2                        # seats otherwise
    max_players: int = 6                        # the most seats otherwise
    describe: Callable[[State, Action, list[Event]], str | None] = no_description
    """One sentence for the table: what a move did (the undo bar, the log)."""
    headline: Callable[[list[Event]], Event | None] = no_headline
    """The event still in force the screen shows in big type after a reload. Only a game that
    listens to "editor" is given it: its screen hears it as onOracle("editor", {verdict: event,
    said}), as it heard the verdict live (SCOOP's newest verdict). Another game's screen never
    sees it: what it shows after a reload comes from its view."""
    rings: Callable[[list[Event]], bool] = never_rings
    """Whether a move's events ring the phone (a Star Reporter Disaster breaking)."""
    order: int = 1000                           # where the start form lists it: lowest first, then by name

    def __repr__(self) -> str:
        return "<game %s>" % self.name
