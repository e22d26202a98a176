"""The kit as a pytest plug-in (controller/pytest_plugin.py), run as a plug-in author runs
it: ``pytest --newsdesk-game NAME`` in a folder of their own, and the ``newsdesk_kit`` fixture in
their own test file. pytester runs pytest inside this one."""

from pathlib import Path

import pytest

from controller.games.kit import RULES

pytest_plugins = ["pytester"]

SIXTH = Path(__file__).resolve().parents[1] / "sixth_game"
# the plug-in by its module, whether or not this environment's newsdesk declares its entry point yet
PLUGIN = ("-p", "no:newsdesk", "-p", "controller.pytest_plugin", "-p", "no:randomly", "-p", "no:cacheprovider")


@pytest.mark.slow
def test_the_option_adds_a_test_per_rule_and_the_fixture_fails_with_the_kits_sentences(pytester):
    pytester.syspathinsert(SIXTH)
    pytester.makepyfile(test_mine="""
        import dataclasses
        import race_to_three

        def test_my_game(newsdesk_kit):
            newsdesk_kit(race_to_three.GAME)

        def test_my_game_broken(newsdesk_kit):
            newsdesk_kit(dataclasses.replace(race_to_three.GAME, view=lambda s: {}))
    """)
    done = pytester.runpytest_inprocess(*PLUGIN, "--newsdesk-game", "scoop1956", "--newsdesk-game", "chess", "-rs")
    done.assert_outcomes(passed=1 + len(RULES), failed=2, skipped=len(RULES) - 1)
    out = done.stdout.str()
    assert "race_to_three breaks the rule “the view is a JSON object naming its game" in out
    assert "chess can't be put through the kit: there is no game called 'chess'" in out
    verbose = pytester.runpytest_inprocess(*PLUGIN, "--newsdesk-game", "scoop1956", "-v", "-k", "end or play").stdout.str()
    # the play is a test of its own, named as the docs' rules table names it (it was said as ::guard)
    assert "::newsdesk-game[scoop1956]::end PASSED" in verbose and "::newsdesk-game[scoop1956]::play PASSED" in verbose



@pytest.mark.slow
def test_the_option_checks_each_variant_and_names_the_one_that_breaks(pytester, monkeypatch):
    """A variant is its own setup, seats and play: ``--newsdesk-game NAME`` puts the game through
    the kit in its default options, then in each other variant picked alone, each test named
    for its variant; a variant nobody tried fails under its own name."""
    from conftest import install_game
    pytester.syspathinsert(SIXTH)
    pytester.syspathinsert()            # two_ways, beside the author's tests
    pytester.makepyfile(two_ways="""
        import dataclasses
        import race_to_three
        from controller.games.kit import check_declared, check_players, option

        OPTIONS = (*race_to_three.OPTIONS, option("variant", "choice", "duel", "One rival or a crowd.", "Variant",
                                                  choices={"duel": "two players", "crowd": "three players"}))

        def setup(players, options=None):
            chosen = check_declared("Two Ways", OPTIONS, options)
            if chosen["variant"] == "crowd":
                return {"no": "list"}[0]            # the variant nobody played: a KeyError
            names = check_players("Two Ways", players, 2, 2)
            return [{"type": "setup", "players": names, "target": chosen["target"]}]

        GAME = dataclasses.replace(race_to_three.GAME, name="two_ways", title="Two Ways", options=OPTIONS,
                                   setup=setup, variants={"duel": "two players", "crowd": "three players"},
                                   view=lambda state: dict(race_to_three.view(state), game="two_ways"),
                                   players={"duel": (2, 2), "crowd": (3, 3)})
    """)
    install_game(monkeypatch, "two_ways", "two_ways:GAME")
    done = pytester.runpytest_inprocess(*PLUGIN, "--newsdesk-game", "two_ways", "-v")
    out = done.stdout.str()
    assert "::newsdesk-game[two_ways]::play PASSED" in out
    assert "::newsdesk-game[two_ways:crowd]::play FAILED" in out
    assert "::newsdesk-game[two_ways:duel]" not in out              # the default is the first run's
    assert "::newsdesk-game[two_ways:crowd]::setup-players FAILED" in out and "raised KeyError: 0" in out
    # the crowd's: setup-players and play fail, the nine rules that need a played game are skipped
    done.assert_outcomes(passed=2 * len(RULES) - 11, failed=2, skipped=9)


@pytest.mark.slow
def test_each_of_the_five_games_keeps_the_contract_in_each_of_its_variants(pytester):
    done = pytester.runpytest_inprocess(*PLUGIN, *[a for g in ("scoop2002", "scan", "get_the_scoop")
                                                   for a in ("--newsdesk-game", g)], "-v")
    out = done.stdout.str()
    assert "::newsdesk-game[scoop2002:lonely_city]::play PASSED" in out
    assert "::newsdesk-game[scan:triple]::setup-players PASSED" in out
    assert done.ret == 0, out[-3000:]


@pytest.mark.slow
def test_the_rules_tests_are_counted_as_collected_not_said_as_none(pytester):
    """The kit's tests are added after pytest collects the folder's own, and its count left them
    out: a stranger's run said "collected 0 items" before 17 passed, and ``--collect-only -q``
    listed them all under "0 tests collected"."""
    done = pytester.runpytest_inprocess(*PLUGIN, "--newsdesk-game", "scoop1956")
    assert "collected %d items" % len(RULES) in done.stdout.str()
    listed = pytester.runpytest_inprocess(*PLUGIN, "--newsdesk-game", "scoop1956", "--collect-only", "-q")
    assert "%d tests collected" % len(RULES) in listed.stdout.str()
