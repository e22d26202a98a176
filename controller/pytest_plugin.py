"""newsdesk's conformance kit for games (controller/games/conformance.py) as a pytest plug-in, found by pytest through the ``pytest11`` entry
point newsdesk's distribution declares (as pytest finds any plug-in installed beside it):

- ``pytest --newsdesk-game NAME`` (repeatable) adds a test per rule of the contract for each
  installed game NAME, each failing with the kit's sentences (which rule, what was seen, how to
  meet it); a rule about a finished game the kit could not finish is skipped, saying so. A game
  with variants is checked in each: its default options first (``newsdesk-game[NAME]::RULE``),
  then each other variant as the start form picks it (``newsdesk-game[NAME:VARIANT]::RULE``),
  since a variant is its own setup, seats and play, and a stranger's game breaks in the one
  nobody tried.
- the ``newsdesk_kit`` fixture is a function: ``newsdesk_kit(game_or_name, ending=..., options=...,
  players=..., seed=...)`` puts a game through every rule and fails the test with one sentence
  per rule broken, or per rule it could not reach; it gives back the Kit.

Nothing here runs unless asked: without the option, pytest collects what it always does. It sits
outside controller/games, whose modules are pure and import no test tool.
"""

import time
from typing import Any, Callable

import pytest

from .games import base, conformance, registry
from .games.game import Game


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("newsdesk").addoption(
        "--newsdesk-game", action="append", default=[], metavar="NAME",
        help="put the installed newsdesk game NAME through the conformance kit (repeat for more games)")


class RuleBroken(AssertionError):
    """A rule of the contract a game breaks: the kit's sentences, shown without a traceback."""


def _kit(game: Game | str, **how: Any) -> conformance.Kit:
    """The kit for ``game``, timing each call into it (the kit's own floor keeps no clock) by the
    CPU it takes on this thread: a busy machine (a test suite running beside others) stretched a
    quick decide() past SLOW_S by the wall clock, and the kit called the game slow. The box itself
    logs a call slow by the wall clock (game_session.games_own_code), where the table waits."""
    how.setdefault("clock", time.thread_time)
    how.setdefault("wall", time.monotonic)      # and a call that waits without working (a sleep)
    return conformance.Kit(registry.load(game) if isinstance(game, str) else game, **how)


class RuleItem(pytest.Item):
    """One rule of the contract checked on one installed game, played with ``options`` (None: its
    defaults); ``label`` names the game and its variant in the test's name."""

    def __init__(self, *, game: str, rule: conformance.Rule, kits: dict[str, Any], label: str | None = None,
                 options: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.rule, self.kits = game, rule, kits
        self.label, self.options = label or game, options

    def runtest(self) -> None:
        if self.label not in self.kits:
            try:
                self.kits[self.label] = _kit(self.game, options=self.options)
            except Exception as e:          # not installed, or can't be loaded: the registry's sentence
                self.kits[self.label] = e
        kit = self.kits[self.label]
        if isinstance(kit, Exception):       # said once, by the first rule; the others can't be checked
            if self.rule.name == conformance.RULES[0].name:
                raise RuleBroken("%s can't be put through the kit: %s" % (self.label, kit))
            pytest.skip("%s can't be loaded (its %s test says why)" % (self.label, conformance.RULES[0].name))
        try:
            found = kit.findings(self.rule.name)
        except conformance.Unreached as e:
            pytest.skip(str(e))
        if found:
            raise RuleBroken("\n".join(map(str, found)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, RuleBroken):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "newsdesk-game", None, "%s: %s" % (self.label, self.rule.name)


def variant_runs(name: str) -> list[tuple[str, dict[str, Any] | None]]:
    """(label, options) for each way ``name`` is put through the kit: its default options, then
    each variant its variant option doesn't pick by default, picked alone. Just the defaults for a
    game without variants, or one that can't be loaded (its first test says why)."""
    runs: list[tuple[str, dict[str, Any] | None]] = [(name, None)]
    try:
        game = registry.load(name)
        found = base.variant_option(game)
        if not found:
            return runs
        option, how = found
        default = next((o.get("default") for o in game.options if o.get("name") == option), None)
        picked = list(default) if isinstance(default, (list, tuple)) and how == "many" else [default]
        for variant in game.variants:
            if variant not in picked:
                runs.append(("%s:%s" % (name, variant), {option: [variant] if how == "many" else variant}))
    except Exception:       # a declaration the kit's rules find wrong (they say how): its defaults alone
        return runs[:1]
    return runs


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    kits: dict[str, Any] = {}
    added: list[pytest.Item] = []
    for game in config.getoption("newsdesk_game") or ():
        for label, options in variant_runs(game):
            for rule in conformance.RULES:
                added.append(RuleItem.from_parent(session, name="newsdesk-game[%s]::%s" % (label, rule.name),
                                                  game=game, rule=rule, kits=kits, label=label, options=options))
    items.extend(added)
    if added:       # reported as collected, as pytest's own are: its count said "collected 0 items" before they ran
        config.hook.pytest_collectreport(report=pytest.CollectReport("newsdesk-game", "passed", None, list(added)))


@pytest.fixture
def newsdesk_kit() -> Callable[..., conformance.Kit]:
    """A function putting a game (a Game, or an installed game's name) through every rule of the
    contract: it fails the test with a sentence per rule broken, and per rule about a finished
    game it could not reach (give ``ending``, a finished game's actions, then)."""
    def check(game: Game | str, **how: Any) -> conformance.Kit:
        kit = _kit(game, **how)
        found, unreached = kit.check()
        said = [str(f) for f in found] + ["the kit could not check %s" % u for u in unreached]
        if said:
            raise RuleBroken("\n".join(said))
        return kit
    return check
