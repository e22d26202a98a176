"""What the panel shows of the games, read off each game's own declaration: the start form's
catalogue (seats, colours, teams, whether a game can be timed, which option picks its variant)
and what each game's chart plots. Pure: the registry loads the engines, nothing here names one.
"""

from typing import Any

from . import base, registry


def start_form() -> list[dict[str, Any]]:
    """The registry's catalogue with what the start form needs, all read off each game's own
    declaration (its options, panel facts and seats): no game is named here. The panel's
    start form and GET /api/games/catalogue show it."""
    out = []
    for item in registry.catalogue():
        item = dict(item)
        panel = item["panel"]
        item.update(players=None, colours=None, teams=bool(panel.get("teams")), timed=False,
                    variant_option=None, variant_choice=None)
        if item["available"]:
            game = registry.load(item["name"])
            kinds = {o["name"]: o["kind"] for o in item["options"]}
            item["timed"] = "minutes" in kinds.values()          # can be played against the clock
            item["players"] = base.seating(game, panel)
            item["colours"] = list(game.colours) if game.colours else None
            variant = base.variant_option(game)   # the option whose choices are the game's variants
            if variant:
                item["variant_option"], item["variant_choice"] = variant
        # a JSON object's keys reach a browser in its own order, whole-number keys first and
        # sorted ("301" before "501" whatever the game declared): the declared order goes as lists
        item["variant_order"] = list(item["variants"])
        item["options"] = [dict(o, choice_order=list(o["choices"])) if isinstance(o.get("choices"), dict) else o
                           for o in item["options"]]
        out.append(item)
    return out


def chart_units() -> dict[str, tuple[str | None, str]]:
    """engine -> (what its chart and history plot, prefix), from each game's panel facts
    ((None, "") for a game that keeps no score)."""
    out = {}
    for item in registry.catalogue():
        chart = item["panel"].get("chart")
        out[item["name"]] = (chart.get("unit", "score"), chart.get("prefix", "")) if chart else (None, "")
    return out
