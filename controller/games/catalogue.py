"""What the panel shows of the games, read off each engine's own declarations: the start form's
catalogue (seats, colours, teams, whether a game can be timed, which option picks its variant)
and what each game's chart plots. Pure: the registry loads the engines, nothing here names one.
"""

from . import base, registry


def start_form():
    """The registry's catalogue with what the start form needs, all read off each engine's own
    declarations (OPTIONS, PANEL, its seat constants): no game is named here. The panel's
    start form and GET /api/games/catalogue show it."""
    out = []
    for item in registry.catalogue():
        item = dict(item)
        panel = item["panel"]
        item.update(players=None, colours=None, teams=bool(panel.get("teams")), timed=False,
                    variant_option=None, variant_choice=None)
        if item["available"]:
            module = registry.load(item["name"])
            kinds = {o["name"]: o["kind"] for o in item["options"]}
            item["timed"] = "minutes" in kinds.values()          # can be played against the clock
            item["players"] = _seats(module, panel)
            item["colours"] = list(module.COLOURS) if module.COLOURS else None
            variant = base.variant_option(module)   # the option whose choices are the game's variants
            if variant:
                item["variant_option"], item["variant_choice"] = variant
        out.append(item)
    return out


def chart_units():
    """engine -> (what its chart and history plot, prefix), from each engine's PANEL facts
    ((None, "") for a game that keeps no score)."""
    out = {}
    for item in registry.catalogue():
        chart = item["panel"].get("chart")
        out[item["name"]] = (chart.get("unit", "score"), chart.get("prefix", "")) if chart else (None, "")
    return out


def _seats(module, panel):
    """{"min", "max", "by_variant"} read off the engine's own constants (PLAYERS, or MIN_ and
    MAX_PLAYERS: base.EngineBase has the defaults) and panel facts."""
    by_variant = None
    players = module.PLAYERS
    if isinstance(players, dict):
        by_variant = {v: {"min": lo, "max": hi} for v, (lo, hi) in players.items()}
        low, high = min(lo for lo, _ in players.values()), max(hi for _, hi in players.values())
    elif isinstance(players, int):
        low = high = players
    else:
        low, high = module.MIN_PLAYERS, module.MAX_PLAYERS
    if panel.get("seats_by_variant"):
        by_variant = dict(by_variant or {}, **panel["seats_by_variant"])
    return {"min": low, "max": high, "by_variant": by_variant}
