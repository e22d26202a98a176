"""The kit's pytest plug-in's own parts (controller/pytest_plugin.py); the plug-in as a plug-in
author runs it, through pytester, is tests/games/test_kit_plugin.py."""

import dataclasses

from controller.games import registry, scan
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
