"""The games newsdesk can keep: found, not listed.

A game is a ``Game`` declaration (game.py) named in the entry-point group ``newsdesk.games`` of
any installed distribution, as gpiozero finds its pin factories (and hw/pinfactory.py asks it):
newsdesk's own five in its pyproject.toml, a sixth in its own distribution beside it
(docs/new-game.md). The entry point's name is the game's name, kept in every stored game.

Each is loaded only when asked for, so one game that is missing or broken makes that game
unavailable, with a sentence saying which and why, instead of stopping the whole panel at
start-up. The start form lists the games by each one's declared ``order``, then by name.
"""

import logging
from contextlib import contextmanager
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Iterator

from ..errors import BadRequest, NewsdeskError
from . import base
from .game import NAME, Game

GROUP = "newsdesk.games"        # the entry-point group a distribution names its games in
SHIPPED = "newsdesk"            # the distribution whose games newsdesk's own documents describe
_only: list[str] = []           # the distribution only() limits the registry to, while it does
log = logging.getLogger(__name__)


class EngineUnavailable(NewsdeskError, RuntimeError):
    """A found game that can't be loaded, or isn't a Game."""

    status = 409      # the game can't go on here: abandon it, or start another
    again = "install its game again and restart newsdesk"      # what lets a stored game of it go on


class NameDeclaredTwice(EngineUnavailable):
    """A game's name two installed distributions declare: neither is loaded."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.again = "uninstall all but one of the distributions declaring %r and restart newsdesk" % name


@lru_cache(maxsize=1)
def _declared() -> dict[str, list[EntryPoint]]:
    """name -> every installed distribution's entry point of that name (one, unless two clash)."""
    out: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=GROUP):
        if not _only or _dist(ep) == _only[-1]:
            out.setdefault(ep.name, []).append(ep)
    return out


@contextmanager
def only(distribution: str = SHIPPED) -> Iterator[None]:
    """The registry as if ``distribution``'s games were the only ones installed: for a file made
    from the games a distribution ships (web_ui/openapi.json), which a game installed beside it
    must not change (it documents itself). Not for a running panel: every thread sees it."""
    forget()
    _only.append(distribution)
    try:
        yield
    finally:
        _only.pop()
        forget()


def declared() -> dict[str, EntryPoint]:
    """name -> entry point of every game installed, none of them loaded (so in no set order):
    for what needs only the names and where each lives (each game's screen, web_ui/assets.py),
    and not the games' own code, which importing every game at the panel's first answer cost.
    A name newsdesk's own games and a plug-in both declare is newsdesk's (``_built_in``)."""
    return {name: _built_in(eps) or eps[0] for name, eps in _declared().items()}


def _built_in(points: list[EntryPoint]) -> EntryPoint | None:
    """Of the entry points declaring one name, newsdesk's own, when it is one of two or more: a
    built-in game wins over a plug-in that takes its name, so installing a plug-in never takes
    away a game the box shipped with, nor freezes a game of it being played (its stored games
    were played by newsdesk's rules, which stay the ones that name means)."""
    if len(points) < 2:
        return None
    ours = [ep for ep in points if _dist(ep) == SHIPPED]
    return ours[0] if len(ours) == 1 else None


def refused() -> list[dict[str, str]]:
    """The plug-ins not loaded because they declare the name of one of newsdesk's own games: each
    {"name", "distribution", "problem"}, ``problem`` one sentence naming both distributions and
    what to do (``newsdesk games`` lists them, and the panel logs them)."""
    out = []
    for name, eps in _declared().items():
        ours = _built_in(eps)
        for ep in eps:
            if ours is not None and ep is not ours:
                out.append({"name": name, "distribution": _dist(ep), "problem": (
                    "the game %r of %s (%s) is not loaded, because newsdesk's own game is called %r (%s, "
                    "from %s) and keeps that name; uninstall %s or rename its game"
                    % (name, _dist(ep), ep.value, name, ours.value, SHIPPED, _dist(ep)))})
    return out


@lru_cache(maxsize=1)
def found() -> dict[str, EntryPoint]:
    """name -> entry point of every game installed, in the start form's order. Read once: a game
    installed while the panel runs is found after a restart (``forget`` reads them again)."""
    points = declared()
    for plug_in in refused():
        log.warning("%s", plug_in["problem"])

    def rank(name: str) -> tuple[int, int, str]:
        try:
            return 0, load(name, points).order, name
        except EngineUnavailable:
            return 1, 0, name               # a broken game is listed last, with its reason
    return {name: points[name] for name in sorted(points, key=rank)}


def forget() -> None:
    """Look for installed games again at the next call (after installing or removing one)."""
    _declared.cache_clear()
    found.cache_clear()
    _load.cache_clear()


def names() -> tuple[str, ...]:
    return tuple(found())


def load(name: str, points: dict[str, EntryPoint] | None = None) -> Game:
    """The Game called ``name``.

    Raises BadRequest for a name no installed distribution declares, EngineUnavailable for one
    two distributions declare (unless one is newsdesk's own: that one is loaded), or whose declaration is missing, fails to import, isn't a Game,
    calls itself otherwise or breaks a rule of the kit's read off the declaration alone
    (conformance.AT_LOAD: an empty title, a default outside its own bounds).
    """
    points = found() if points is None else points
    if not isinstance(name, str) or name not in points:
        raise BadRequest("there is no game called %r; the games are %s" % (name, ", ".join(points)))
    clash = _declared().get(name, [])
    if _built_in(clash) is not None:
        return _load(_built_in(clash))
    if len(clash) > 1:      # a stored game names its rules by this name alone: neither may stand in
        raise NameDeclaredTwice("%d installed distributions declare a game called %r (%s), so newsdesk can't "
                                "tell whose rules its games were played by; uninstall all but one"
                                % (len(clash), name, "; ".join("%s: %s" % (_dist(ep), ep.value) for ep in clash)),
                                name)
    return _load(points[name])


def _dist(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return str(dist.name) if dist is not None else "a distribution"


@lru_cache(maxsize=None)
def _load(point: EntryPoint) -> Game:
    name, where = point.name, point.value
    if not NAME.fullmatch(name):
        raise EngineUnavailable("the game %r (%s) can't be played: a game's name, its entry point's, is lower-case "
                                "letters, digits and _ (a letter first, at most 40); rename the entry point and "
                                "its Game's name" % (name, where))
    try:
        game = point.load()
    except ModuleNotFoundError as e:
        if where.startswith(str(e.name)):
            raise EngineUnavailable("the %s game is listed but its module (%s) is not installed; reinstall the "
                                    "package that declares it (or mend its entry point's module name), or pick "
                                    "another game" % (name, where)) from None
        raise EngineUnavailable("the %s game needs %s, which is not installed" % (name, e.name)) from None
    except (Exception, SystemExit) as e:    # a plug-in that exits as it is imported stops only itself
        raise EngineUnavailable("the %s game (%s) fails to load: %s: %s"
                                % (name, where, type(e).__name__, e)) from None
    if not isinstance(game, Game):
        raise EngineUnavailable("the %s game (%s) is a %s, not a Game declaration (controller/games/game.py), "
                                "so it can't be played" % (name, where, type(game).__name__))
    if game.name != name:
        raise EngineUnavailable("the %s game (%s) calls itself %r; its name must be %r"
                                % (name, where, game.name, name))
    problem = _options_problem(game.options)
    if problem:
        raise EngineUnavailable("the %s game (%s) can't be played: its options %s" % (name, where, problem))
    # imported here, not at the top: the kit's module is 30 ms of a panel's start on a Pi-class CPU
    from . import conformance
    for problem in conformance.declaration_problems(game):     # the kit's sentence, the first it has
        raise EngineUnavailable("the %s game (%s) can't be played: %s" % (name, where, problem))
    return game


def _options_problem(options: object) -> str | None:
    """What makes a game's options unusable by the start form, the API's schema and the
    request check (each made from them), or None: options that are not a list of option()s
    (None, a word, a bare dict) answered every page of the panel with a 500."""
    if not isinstance(options, (tuple, list)):
        return "are a %s, not a list of base.option()s" % type(options).__name__
    for opt in options:
        if not isinstance(opt, dict) or not {"name", "kind", "default", "label", "rule"} <= set(opt):
            return "hold %s, which was not made by base.option()" % base.quoted(opt, 40)
        if opt["kind"] not in base.KINDS or not isinstance(opt["name"], str) or not isinstance(opt["label"], str) \
                or not isinstance(opt["rule"], str):
            return "hold %r, whose kind, name, label or rule is not one base.option() makes" % opt.get("name")
        if opt["kind"] in ("choice", "choices") and not isinstance(opt.get("choices"), dict):
            return "hold %r, a choice without its choices" % opt["name"]
    return None


def unplayable() -> list[dict[str, str]]:
    """Every game found that can't be played, then every plug-in not loaded because it takes a
    built-in game's name: each {"name", "problem"}, ``name`` as ``newsdesk games`` names it ("race",
    "scan from newsdesk-headline-race") and ``problem`` the registry's sentence. ``newsdesk games``
    and ``newsdesk doctor`` say them."""
    out = [{"name": g["name"], "problem": str(g["problem"])} for g in catalogue() if not g["available"]]
    out += [{"name": "%s from %s" % (p["name"], p["distribution"]), "problem": p["problem"]} for p in refused()]
    return out


def catalogue() -> list[dict[str, Any]]:
    """Every game found, for the panel's "new game" list: name, title, variants, its declared
    options and panel facts (games/base.py), and whether it can be played now (with the reason
    when it can't)."""
    out: list[dict[str, Any]] = []
    for name in found():
        try:
            game = load(name)
        except EngineUnavailable as e:
            out.append({"name": name, "title": name, "variants": {}, "available": False, "problem": str(e),
                        "options": [], "panel": base.panel(None)})
        else:
            out.append({"name": name, "title": game.title, "variants": dict(game.variants),
                        "available": True, "problem": None,
                        "options": [dict(o) for o in game.options],
                        "panel": base.panel(game)})
    return out
