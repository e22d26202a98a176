"""JSON API for the games at the table: start, act, undo/redo, finish/abandon, and the games kept
(history, statistics per player, a game's record, its chart, and its exports).

Every write names the game version the tablet was showing and may carry an idempotency key
(a tablet reuses the key when it retries, so a move lands once). Refusals are JSON with one
sentence a person can act on: 400 for a malformed request, 409 when the table has moved on
(stale version, no game, another game still being played), 422 when the rules refuse the move.
"""

import json
from urllib.parse import quote

from flask import Blueprint, Response, jsonify

from controller.games import base, registry
from controller.history import HISTORY_LIMIT

from .helpers import desk, json_body, limit_arg

bp = Blueprint("games_api", __name__, url_prefix="/api/games")

BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def _session():
    return desk().table.games


# ---------------------------------------------------------------- reading

@bp.get("/catalogue")
def catalogue():
    """Every game for the start form: title, variants, seats, colours, availability."""
    return jsonify(games=catalogue_items())


def catalogue_items():
    """The registry's catalogue with what the start form needs, all read off each engine's own
    declarations (OPTIONS, PANEL, its seat constants): no game is named here."""
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
            colours = getattr(module, "COLOURS", None)
            item["colours"] = list(colours) if colours else None
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
    """{"min", "max", "by_variant"} read off the engine's own constants and panel facts."""
    by_variant = None
    players = getattr(module, "PLAYERS", None)
    if isinstance(players, dict):
        by_variant = {v: {"min": lo, "max": hi} for v, (lo, hi) in players.items()}
        low, high = min(lo for lo, _ in players.values()), max(hi for _, hi in players.values())
    elif isinstance(players, int):
        low = high = players
    else:
        low, high = getattr(module, "MIN_PLAYERS", 2), getattr(module, "MAX_PLAYERS", 6)
    if panel.get("seats_by_variant"):
        by_variant = dict(by_variant or {}, **panel["seats_by_variant"])
    return {"min": low, "max": high, "by_variant": by_variant}


@bp.get("/current")
def current():
    """The game being played (null with none), and the id of the newest event: a tablet opens
    its stream after that id so nothing falls between this read and the live feed."""
    nd = desk()
    last = nd.last_event_id()       # read first: an event landing meanwhile is replayed, never lost
    return jsonify(game=_session().current(), last_event_id=last)


def _kept():
    return desk().table.kept


@bp.get("/history")
def history():
    return jsonify(games=_kept().history(limit_arg(100, HISTORY_LIMIT)))


@bp.get("/stats")
def stats():
    """Simple statistics per player over the finished games: played, won, and per game the best
    and average final number."""
    return jsonify(_kept().stats())


@bp.get("/<int:game_id>")
def record(game_id):
    """A game as kept: summary, final table and what happened, move by move."""
    return jsonify(_kept().record(game_id))


@bp.get("/<int:game_id>/chart")
def chart(game_id):
    """Money or score of each player after every move still in force (undone moves drop out)."""
    return jsonify(_kept().chart(game_id))


@bp.get("/<int:game_id>/export.csv")
def export_csv(game_id):
    name, text = _kept().export_csv(game_id)
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": "attachment; filename=" + name})


@bp.get("/<int:game_id>/bgstats.json")
def export_bgstats(game_id):
    """The game in BG Stats' documented format for pushing a play from another app
    (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/),
    and the link that opens the BG Stats app on a phone with it."""
    play = _kept().bgstats(game_id)
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return jsonify(play=play, link=BGSTATS_LINK + quote(data, safe=""))


# ---------------------------------------------------------------- writing

@bp.post("")
def start():
    """The checks of a start (the players, the options, the key) are the game session's, once."""
    data = json_body()
    outcome = _session().start(data.get("engine"), data.get("players"), data.get("options"), data.get("key"))
    return jsonify(outcome), 200 if outcome["repeat"] else 201


@bp.post("/current/actions")
def act():
    data = json_body()
    return jsonify(_session().act(data.get("action"), data.get("version"), data.get("key")))


@bp.post("/current/undo")
def undo():
    data = json_body()
    return jsonify(_session().undo(data.get("version"), data.get("key")))


@bp.post("/current/redo")
def redo():
    data = json_body()
    return jsonify(_session().redo(data.get("version"), data.get("key")))


@bp.post("/current/finish")
def finish():
    data = json_body()
    return jsonify(_session().finish(data.get("version"), data.get("key")))


@bp.post("/current/abandon")
def abandon():
    data = json_body()
    return jsonify(_session().abandon(data.get("version"), data.get("key")))
