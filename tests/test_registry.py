"""The registry's entry points when two distributions declare one name: newsdesk's own game wins
over a plug-in that takes its name; two plug-ins that clash both stay unavailable."""

import dataclasses
from importlib.metadata import EntryPoint, entry_points

import pytest

from controller.games import registry
from controller.games.scan import GAME as SCAN

# a plug-in's game that calls itself "scan" (a stranger's, or one named carelessly)
NOT_SCAN = dataclasses.replace(SCAN, title="Not SCAN")


class Dist:
    """A distribution as an entry point names it (importlib.metadata's Distribution has .name)."""

    def __init__(self, name):
        self.name = name


def plug_in(name, dist, where="test_registry:NOT_SCAN"):
    return EntryPoint(name=name, value=where, group=registry.GROUP)._for(Dist(dist))


@pytest.fixture
def installed(monkeypatch):
    """Install entry points beside newsdesk's own, as pip would: installed(point, ...)."""
    ours = list(entry_points(group=registry.GROUP))

    def install(*points):
        monkeypatch.setattr(registry, "entry_points", lambda group: ours + list(points))
        registry.forget()
    yield install
    monkeypatch.undo()
    registry.forget()


def test_a_plug_in_declaring_a_built_in_games_name_is_refused_and_the_built_in_kept(installed, caplog):
    installed(plug_in("scan", "newsdesk-headline-race"))
    assert registry.load("scan") is SCAN
    assert registry.declared()["scan"].value == "controller.games.scan:GAME"     # its screen, too
    scan = next(g for g in registry.catalogue() if g["name"] == "scan")
    assert scan["available"] and scan["title"] == SCAN.title
    [refused] = registry.refused()
    assert refused["name"] == "scan" and refused["distribution"] == "newsdesk-headline-race"
    assert refused["problem"] == (
        "the game 'scan' of newsdesk-headline-race (test_registry:NOT_SCAN) is not loaded, because newsdesk's "
        "own game is called 'scan' (controller.games.scan:GAME, from newsdesk) and keeps that name; uninstall "
        "newsdesk-headline-race or rename its game")
    registry.names()
    assert refused["problem"] in caplog.text


def test_two_plug_ins_declaring_one_name_are_both_unavailable(installed):
    installed(plug_in("race", "one-race"), plug_in("race", "other-race"))
    race = next(g for g in registry.catalogue() if g["name"] == "race")
    assert not race["available"] and "2 installed distributions declare a game called 'race'" in race["problem"]
    assert registry.refused() == []
    with pytest.raises(registry.EngineUnavailable):
        registry.load("race")


def test_newsdesk_games_exits_0_when_every_game_can_be_played(capsys):
    from newsdesk.cli import main
    assert main(["games"]) == 0
    out = capsys.readouterr()
    assert "scan" in out.out and "SCAN" in out.out and out.err == ""


def test_newsdesk_games_exits_1_naming_a_game_that_can_not_be_played(monkeypatch, capsys):
    from conftest import install_game

    from newsdesk.cli import main
    install_game(monkeypatch, "race", "no_such_race:GAME")
    assert main(["games"]) == 1
    out = capsys.readouterr()
    assert "race" in out.out and "not installed" in out.out           # the list as before
    assert out.err == "newsdesk: 1 of the games found can't be played: race\n"


def test_newsdesk_games_exits_1_naming_a_plug_in_refused_for_a_built_in_games_name(installed, capsys):
    from newsdesk.cli import main
    installed(plug_in("scan", "newsdesk-headline-race"))
    assert main(["games"]) == 1
    out = capsys.readouterr()
    assert "uninstall newsdesk-headline-race or rename its game" in out.out
    assert out.err == "newsdesk: 1 of the games found can't be played: scan from newsdesk-headline-race\n"
