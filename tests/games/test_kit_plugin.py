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

