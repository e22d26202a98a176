"""Everything a game plug-in imports from newsdesk, in one place: ``from controller.games.kit import
...``. This path and these names are the stable ones (docs/new-game.md lists their signatures);
the modules behind them may move. The package ships typed (py.typed), so ``mypy --strict`` on a
plug-in checks its calls against newsdesk (beside an editable install, with MYPYPATH naming the
checkout: docs/new-game.md).

What is here: the declaration (``Game``), the shapes a game's functions take and give (``State``,
``Event``, ``Action``, ``Result``), the helpers every game's rules use (``guard``, ``option``,
``check_players``, ``check_declared``, ``result_of``, ``seat`` ...), the refusals (``GameError``
and the four ``guard`` raises), and the conformance kit (``Kit``, ``check``, ``RULES``) a plug-in's
own tests run, also as ``pytest --newsdesk-game NAME`` and the ``newsdesk_kit`` fixture.
"""

from .base import (
    KINDS,
    NOT_AN_ACTION,
    PANEL_DEFAULTS,
    Action,
    Event,
    GameError,
    GameOver,
    NotAnAction,
    NotSetUp,
    Result,
    Standing,
    State,
    TeamStanding,
    UnknownAction,
    and_list,
    check_declared,
    check_players,
    copied,
    guard,
    is_int,
    option,
    or_list,
    player_name,
    quoted,
    result_of,
    say_events,
    seat,
    whole,
)
from .conformance import RULES, Finding, Kit, Play, Rule, Unreached, check
from .game import Game, Players

__all__ = [
    "KINDS", "NOT_AN_ACTION", "PANEL_DEFAULTS", "RULES", "Action", "Event", "Finding", "Game", "GameError",
    "GameOver", "Kit", "NotAnAction", "NotSetUp", "Play", "Players", "Result", "Rule", "Standing", "State",
    "TeamStanding", "UnknownAction", "Unreached", "and_list", "check", "check_declared", "check_players",
    "copied", "guard", "is_int", "option", "or_list", "player_name", "quoted", "result_of", "say_events", "seat",
    "whole",
]
