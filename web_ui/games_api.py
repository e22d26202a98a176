"""JSON API for the games at the table: start, act, undo/redo, finish/abandon, and the games kept
(history, statistics per player, a game's record, its chart, and its exports).

Every write names the game version the tablet was showing and may carry an idempotency key
(a tablet reuses the key when it retries, so a move lands once). Refusals are JSON with one
sentence a person can act on: 400 for a malformed request, 409 when the table has moved on
(stale version, no game, another game still being played), 422 when the rules refuse the move.
"""

import json
from datetime import datetime
from urllib.parse import quote

from flask import Blueprint, Response, abort, jsonify

from controller.errors import BadRequest
from controller.game_session import stacks
from controller.games import base, registry
from controller.standings import final_table

from .helpers import desk, json_body, limit_arg

bp = Blueprint("games_api", __name__, url_prefix="/api/games")

MAX_PLAYERS_SENT = 12        # more than any game seats; refuses a huge list before any engine sees it
MAX_NAME = 40
MAX_ID = 2 ** 53             # game numbers beyond this can't be in the store (and SQLite can't take them)
HISTORY_LIMIT = 500

# BG Stats: the games' BoardGameGeek ids are left out (the format's bggId is "if any") rather than guessed.
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
            for opt in item["options"]:       # the option whose choices are the game's variants
                if module.VARIANTS and opt.get("choices") == dict(module.VARIANTS):
                    item["variant_option"] = opt["name"]
                    item["variant_choice"] = "many" if opt["kind"] == "choices" else "one"
                    break
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
    last = nd.store.last_id()       # read first: an event landing meanwhile is replayed, never lost
    return jsonify(game=_session().current(), last_event_id=last)


@bp.get("/history")
def history():
    return jsonify(games=_session().history(limit_arg(100, HISTORY_LIMIT)))


@bp.get("/stats")
def stats():
    """Simple statistics per player over the finished games: played, won, and per game the best
    and average final number."""
    games = [g for g in _session().history(HISTORY_LIMIT) if g["status"] == "finished"]
    players = {}
    for g in games:
        rows = g["standings"] or [{"name": n, "score": None, "winner": n in g["winners"]} for n in g["players"]]
        for row in rows:
            p = players.setdefault(row["name"], {"name": row["name"], "played": 0, "won": 0, "by_game": {}})
            p["played"] += 1
            p["won"] += 1 if row["winner"] else 0
            per = p["by_game"].setdefault(g["engine"], {"engine": g["engine"], "title": g["title"],
                                                        "played": 0, "won": 0, "scores": []})
            per["played"] += 1
            per["won"] += 1 if row["winner"] else 0
            if isinstance(row.get("score"), int):
                per["scores"].append(row["score"])
    out = []
    for p in sorted(players.values(), key=lambda p: (-p["won"], -p["played"], p["name"].lower())):
        per_game = []
        for per in p["by_game"].values():
            scores = per.pop("scores")
            per["best"] = max(scores) if scores else None
            per["average"] = _average(scores)
            per_game.append(per)
        p["win_rate"] = round(p["won"] / p["played"], 3)
        p["by_game"] = per_game
        out.append(p)
    return jsonify(players=out, games_counted=len(games))


def _average(scores):
    """The mean to one decimal, or None; a sum too big for a float (a value an earlier version
    kept) is averaged in whole numbers instead of failing."""
    if not scores:
        return None
    try:
        return round(sum(scores) / len(scores), 1)
    except OverflowError:
        return sum(scores) // len(scores)


def _game_id(game_id):
    if game_id > MAX_ID:
        abort(404, "There is no game #%d; the games kept are listed in the history." % game_id)
    game = desk().store.game(game_id)
    if game is None:
        abort(404, "There is no game #%d; the games kept are listed in the history." % game_id)
    return game


@bp.get("/<int:game_id>")
def record(game_id):
    """A game as kept: summary, final table and what happened, move by move."""
    _game_id(game_id)
    return jsonify(_session().record(game_id))


@bp.get("/<int:game_id>/chart")
def chart(game_id):
    """Money or score of each player after every move still in force (undone moves drop out)."""
    game = _game_id(game_id)
    return jsonify(_series(game))


@bp.get("/<int:game_id>/export.csv")
def export_csv(game_id):
    game = _game_id(game_id)
    if game.status == "active":
        abort(409, "Game #%d is still being played; finish or abandon it to export it." % game.id)
    text = _session().export_csv(game_id)
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": "attachment; filename=newsdesk-game-%d-%s.csv" % (game.id, game.engine)})


@bp.get("/<int:game_id>/bgstats.json")
def export_bgstats(game_id):
    """The game in BG Stats' documented format for pushing a play from another app
    (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/),
    and the link that opens the BG Stats app on a phone with it."""
    game = _game_id(game_id)
    if game.status == "active":
        abort(409, "Game #%d is still being played; finish or abandon it to export it." % game.id)
    play = bgstats_play(_session().record(game_id), game)
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return jsonify(play=play, link=BGSTATS_LINK + quote(data, safe=""))


def bgstats_play(rec, game):
    """One play as BG Stats' createPlay data: board, durationMin, comments, game, location,
    playDate, players (name, score, winner, rank, startPlayer, role, sourcePlayerId)."""
    started = datetime.fromisoformat(game.created).astimezone()
    ended = datetime.fromisoformat(game.ended).astimezone() if game.ended else started
    rows = rec["standings"] or [{"name": n, "score": None, "winner": n in rec["winners"]} for n in rec["players"]]
    scored = [r["score"] for r in rows if isinstance(r.get("score"), int)]
    ranks = sorted(set(scored), reverse=True)
    teams = {p.get("name"): p.get("team") for p in game.players if isinstance(p, dict)}
    players = []
    for seat, row in enumerate(rows):
        rank = (ranks.index(row["score"]) + 1 if isinstance(row.get("score"), int)
                else (1 if row["winner"] else 0))
        players.append({"name": row["name"], "score": row["score"] if row["score"] is not None else "",
                        "winner": bool(row["winner"]), "rank": rank, "startPlayer": seat == 0,
                        "role": teams.get(row["name"]) or "", "sourcePlayerId": row["name"]})
    options = game.options or {}
    view = ((rec.get("final") or {}).get("view") or {})
    chosen = next((options.get(item["variant_option"]) for item in catalogue_items()
                   if item["name"] == game.engine and item["variant_option"]), None)
    board = (view.get("variant_name") or (chosen if isinstance(chosen, str) else None)
             or ", ".join(map(str, chosen if isinstance(chosen, list) else [])) or "")
    return {
        "sourceName": "newsdesk",
        "sourcePlayId": "newsdesk-%d-%s" % (game.id, game.created),
        "board": board,
        "durationMin": max(0, round((ended - started).total_seconds() / 60)),
        "comments": "Kept by newsdesk as game #%d (%s, %d moves)%s."
                    % (game.id, game.status, game.version, "" if game.status == "finished" else ", not finished"),
        "game": {"name": rec["title"], "highestWins": True, "noPoints": not scored,
                 "sourceGameId": game.engine},
        "location": "newsdesk",
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "players": players,
    }


def _series(game):
    """Each player's number after every move still in force (undone moves and the undo/redo
    entries left out), folding the game once."""
    out = {"game": game.id, "engine": game.engine, "unit": "score", "prefix": "", "players": [],
           "points": [], "problem": None}
    try:
        engine = registry.load(game.engine)
    except (registry.EngineUnavailable, BadRequest) as e:
        out["problem"] = "No chart: %s." % e
        return out
    panel = base.panel(engine)
    if not panel.get("chart"):
        out["unit"] = None
        out["problem"] = panel.get("no_chart") or "This game keeps no score to chart."
        return out
    label = out["unit"] = panel["chart"].get("unit", "score")
    out["prefix"] = panel["chart"].get("prefix", "")
    entries = [(e.version, e.entry) for e in desk().store.entries(game.id)]
    done, _ = stacks(entries)
    in_force = set(done)
    state = engine.initial()
    for version, entry in entries:
        # what the caption promises: only the moves in force; undone moves and the undos drop out
        if entry.get("type") in ("undo", "redo") or (entry.get("type") != "setup" and version not in in_force):
            continue
        for ev in entry.get("events", ()):
            state = engine.apply(state, ev)
        rows = final_table(engine, state)["standings"]
        if not out["players"]:
            out["players"] = [r["name"] for r in rows]
        out["points"].append({"version": version, "said": entry.get("said", ""),
                              "values": [r["score"] for r in rows]})
    if all(v is None for p in out["points"] for v in p["values"]):
        out["problem"] = "This game's view shows no %s to chart." % label
    return out


# ---------------------------------------------------------------- writing

def _version(data):
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        abort(400, "Say which version of the game this tablet was showing: send \"version\", a whole "
                   "number (the game's \"version\" as the panel last read it), not %r." % (version,))
    return version


def _key(data):
    key = data.get("key")
    if key is not None and not isinstance(key, str):
        abort(400, "The request's idempotency \"key\" is a string (reuse it on a retry), not %r." % (key,))
    return key


@bp.post("")
def start():
    data = json_body()
    engine = data.get("engine")
    if not isinstance(engine, str) or not engine:
        abort(400, "Say which game to start: \"engine\" is one of %s." % ", ".join(registry.names()))
    players = data.get("players")
    if not isinstance(players, list) or not players or len(players) > MAX_PLAYERS_SENT:
        abort(400, "List the people at the table as \"players\" (1 to %d), each as {\"name\": ...}."
              % MAX_PLAYERS_SENT)
    clean = []
    for i, p in enumerate(players, 1):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"].strip():
            abort(400, "Player %d needs a name: each player is {\"name\": ..., \"colour\": ..., \"team\": ...}." % i)
        name = p["name"].strip()
        if len(name) > MAX_NAME:
            abort(400, "Player %d's name is longer than %d characters; shorten it." % (i, MAX_NAME))
        row = {"name": name}
        for field in ("colour", "team"):
            value = p.get(field)
            if value not in (None, "") and (not isinstance(value, str) or len(value) > MAX_NAME):
                abort(400, "%s's %s is a short text (up to %d characters), got %r." % (name, field, MAX_NAME, value))
            if value not in (None, ""):
                row[field] = value.strip()
        clean.append(row)
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        abort(400, "Send the game's settings as \"options\", a JSON object (or leave it out).")
    outcome = _session().start(engine, clean, options, _key(data))
    return jsonify(outcome), 200 if outcome["repeat"] else 201


@bp.post("/current/actions")
def act():
    data = json_body()
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        abort(400, "Send the move as \"action\": a JSON object with a \"type\", one of the offers the panel shows.")
    return jsonify(_session().act(action, _version(data), _key(data)))


@bp.post("/current/undo")
def undo():
    data = json_body()
    return jsonify(_session().undo(_version(data), _key(data)))


@bp.post("/current/redo")
def redo():
    data = json_body()
    return jsonify(_session().redo(_version(data), _key(data)))


@bp.post("/current/finish")
def finish():
    data = json_body()
    return jsonify(_session().finish(_version(data), _key(data)))


@bp.post("/current/abandon")
def abandon():
    data = json_body()
    return jsonify(_session().abandon(_version(data), _key(data)))
