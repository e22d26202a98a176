"""The kit's pytest plug-in's own parts (controller/pytest_plugin.py); the plug-in as a plug-in
author runs it, through pytester, is tests/games/test_kit_plugin.py."""

import dataclasses
import re

import pytest

from controller.games import conformance, registry, scan
from controller.pytest_plugin import variant_runs


def test_each_variant_gets_a_run_whatever_words_its_option_gives_it(monkeypatch):
    """``pytest --newsdesk-game NAME`` runs the default options, then each other variant alone.
    A variant option that words its choices for the start form ("Triple") apart from the
    variants' own words is still the variant option: matched on the words too, the kit ran the
    default variant alone."""
    worded = dataclasses.replace(scan.GAME, options=tuple(
        dict(o, choices={v: v.title() for v in scan.GAME.variants}) if o["name"] == "variant" else o
        for o in scan.GAME.options))
    monkeypatch.setattr(registry, "load", lambda name: worded)
    assert [label for label, _ in variant_runs("scan")] == ["scan", "scan:triple", "scan:individual", "scan:no_trump"]
    assert dict(variant_runs("scan"))["scan:triple"] == {"variant": "triple"}


@pytest.mark.slow
def test_the_kit_times_a_game_by_its_cpu_not_by_a_busy_machines_clock(monkeypatch):
    """A quick decide() on a machine busy with other work (the whole suite beside it, a load of
    seven on two cores) took 1.5 s by the wall clock, and the kit stopped the play calling the
    game slow. A call that waits without working (its thread not run) costs no CPU: no finding."""
    import time

    from controller.pytest_plugin import _kit

    def descheduled(state, action, rng):
        time.sleep(1.2)                 # as a thread the scheduler leaves waiting for 1.2 s
        return scan.GAME.decide(state, action, rng)

    slowed = dataclasses.replace(scan.GAME, decide=descheduled)
    ending = [{"type": "time_up"}]      # one decide(): a timed game the table ends at once
    assert _kit(slowed, seed=0, options={"variant": "individual", "time_limit": 30}, ending=ending).findings("play") == []

    def asleep(state, action, rng):
        time.sleep(conformance.WAIT_MOST + 0.2)     # a call that only waits, past what any wait explains
        return scan.GAME.decide(state, action, rng)

    (found,) = _kit(dataclasses.replace(scan.GAME, decide=asleep), seed=0,
                    options={"variant": "individual", "time_limit": 30}, ending=ending).findings("play")
    assert re.search(r"decide\(\) took [5-9]\.\d s, given", found.seen), found.seen

    def busy(state, action, rng):
        end = time.thread_time() + 1.1  # a game's own work past the limit still is one
        while time.thread_time() < end:
            pass
        return scan.GAME.decide(state, action, rng)

    (found,) = _kit(dataclasses.replace(scan.GAME, decide=busy), seed=0).findings("play")
    assert re.search(r"decide\(\) took 1\.\d s, given", found.seen), found.seen
