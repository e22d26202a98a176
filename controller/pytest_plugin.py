"""newsdesk's conformance kit for games (controller/games/conformance.py) as a pytest plug-in, found by pytest through the ``pytest11`` entry
point newsdesk's distribution declares (as pytest finds any plug-in installed beside it):

- ``pytest --newsdesk-game NAME`` (repeatable) adds a test per rule of the contract for each
  installed game NAME, each failing with the kit's sentences (which rule, what was seen, how to
  meet it); a rule about a finished game the kit could not finish is skipped, saying so.
- the ``newsdesk_kit`` fixture is a function: ``newsdesk_kit(game_or_name, ending=..., options=...,
  players=..., seed=...)`` puts a game through every rule and fails the test with one sentence
  per rule broken, or per rule it could not reach; it gives back the Kit.

Nothing here runs unless asked: without the option, pytest collects what it always does. It sits
outside controller/games, whose modules are pure and import no test tool.
"""

import time
from typing import Any, Callable

import pytest

from .games import conformance, registry
from .games.game import Game


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("newsdesk").addoption(
        "--newsdesk-game", action="append", default=[], metavar="NAME",
        help="put the installed newsdesk game NAME through the conformance kit (repeat for more games)")


class RuleBroken(AssertionError):
    """A rule of the contract a game breaks: the kit's sentences, shown without a traceback."""


def _kit(game: Game | str, **how: Any) -> conformance.Kit:
    """The kit for ``game``, timing each call into it (the kit's own floor keeps no clock)."""
    how.setdefault("clock", time.monotonic)
    return conformance.Kit(registry.load(game) if isinstance(game, str) else game, **how)


class RuleItem(pytest.Item):
    """One rule of the contract checked on one installed game."""

    def __init__(self, *, game: str, rule: conformance.Rule, kits: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.rule, self.kits = game, rule, kits

    def runtest(self) -> None:
        if self.game not in self.kits:
            try:
                self.kits[self.game] = _kit(self.game)
            except Exception as e:          # not installed, or can't be loaded: the registry's sentence
                self.kits[self.game] = e
        kit = self.kits[self.game]
        if isinstance(kit, Exception):       # said once, by the first rule; the others can't be checked
            if self.rule.name == conformance.RULES[0].name:
                raise RuleBroken("%s can't be put through the kit: %s" % (self.game, kit))
            pytest.skip("%s can't be loaded (its %s test says why)" % (self.game, conformance.RULES[0].name))
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
        return "newsdesk-game", None, "%s: %s" % (self.game, self.rule.name)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    kits: dict[str, Any] = {}
    for game in config.getoption("newsdesk_game") or ():
        for rule in conformance.RULES:
            items.append(RuleItem.from_parent(session, name="newsdesk-game[%s]::%s" % (game, rule.name),
                                              game=game, rule=rule, kits=kits))


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
