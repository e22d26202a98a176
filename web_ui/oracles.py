"""The oracles' JSON endpoints: their settings and state, each one's history, the observed
distributions ("are these dice fair?"), and the simulated buttons.

    GET  /api/oracles                      dice, stopwatch and editor settings and state
    GET  /api/oracles/<oracle>/history     newest results first (?limit=1-500, default 50);
                                           oracle is dice, stopwatch or editor
    GET  /api/oracles/distributions        per oracle, this session and all time (?oracle=...)
    GET  /api/oracles/window.png           what the phone's window shows now
    POST /api/oracles/dice                 {"dice": "NdM"} or {"next": true}: set the dice
    POST /api/oracles/stopwatch/mode       {"mode": "stopwatch" | "d10"}
    POST /api/oracles/stopwatch/reset      stop the stopwatch without a roll
    POST /api/oracles/sim/dice             {"long": false}: press the simulated dice button
    POST /api/oracles/sim/stopwatch        {}: press the simulated stopwatch button

Results themselves arrive on /stream like everything else (dice.roll, stopwatch.roll, ...).
"""

import io

from flask import Blueprint, Response, abort, jsonify, request

from controller.oracle_desk import HISTORY
from controller.oracles.editor import ODDS_NOTE
from controller.oracles.errors import OracleBusy, OracleSettingError

from .helpers import desk

bp = Blueprint("oracles", __name__, url_prefix="/api/oracles")


def _oracles():
    desk_ = desk()
    oracles = getattr(desk_, "oracles", None)
    if oracles is None:
        abort(503, "The dice and stopwatch aren't set up on this box.")
    return oracles


def _body():
    data = request.get_json(silent=True)
    if data is None and not request.get_data():
        return {}
    if not isinstance(data, dict):
        abort(400, "Send a JSON object in the request body, with Content-Type: application/json.")
    return data


def _sim_buttons():
    sim = getattr(desk(), "sim_buttons", None)
    if sim is None:
        abort(409, "The buttons are real hardware here: press them, the panel can't.")
    return sim


@bp.errorhandler(OracleSettingError)
def _bad_setting(e):
    return jsonify(error="Bad Request", message=str(e)), 400


@bp.errorhandler(OracleBusy)
def _busy(e):
    return jsonify(error="Conflict", message=str(e)), 409


@bp.get("")
def state():
    out = _oracles().state()
    table = getattr(desk(), "table", None)
    editor = getattr(table, "editor", None)
    out["editor"] = editor.describe() if editor is not None else None
    out["odds_note"] = ODDS_NOTE
    out["simulated"] = getattr(desk(), "sim_buttons", None) is not None
    return jsonify(out)


@bp.get("/<oracle>/history")
def history(oracle):
    if oracle not in HISTORY:
        abort(404, "There is no oracle %r; the oracles are %s." % (oracle, ", ".join(HISTORY)))
    raw = request.args.get("limit", "50")
    if not raw.isdigit() or not 1 <= int(raw) <= 500:
        abort(400, "limit must be a whole number from 1 to 500, got %r." % raw)
    return jsonify(oracle=oracle, results=_oracles().history(oracle, int(raw)))


@bp.get("/distributions")
def distributions():
    oracle = request.args.get("oracle") or None
    if oracle is not None and oracle not in HISTORY:
        abort(400, "oracle must be one of %s, got %r." % (", ".join(HISTORY), oracle))
    return jsonify(_oracles().distributions(oracle))


@bp.get("/window.png")
def window_png():
    window = getattr(desk(), "window", None)
    image = window.image() if window is not None else None
    if image is None:
        abort(404, "This box has no window display, or it hasn't shown anything yet.")
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return Response(buf.getvalue(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/dice")
def set_dice():
    data = _body()
    oracles = _oracles()
    if data.get("next") is True:
        event = oracles.next_dice()
    elif isinstance(data.get("dice"), str):
        event = oracles.set_dice(data["dice"])
    else:
        abort(400, "Send {\"dice\": \"2d6\"} (any NdM) or {\"next\": true}.")
    return jsonify(dice=event.payload["dice"], choices=event.payload["choices"], event=event.as_dict())


@bp.post("/stopwatch/mode")
def stopwatch_mode():
    mode = _body().get("mode")
    if not isinstance(mode, str):
        abort(400, "Send {\"mode\": \"stopwatch\"} or {\"mode\": \"d10\"}.")
    event = _oracles().set_stopwatch_mode(mode)
    return jsonify(mode=mode, event=event.as_dict())


@bp.post("/stopwatch/reset")
def stopwatch_reset():
    return jsonify(was_running=_oracles().reset_stopwatch())


@bp.post("/sim/dice")
def sim_dice():
    long = _body().get("long", False)
    if not isinstance(long, bool):
        abort(400, "long must be true (a long press: change the dice) or false (a press: roll), got %r." % (long,))
    _sim_buttons().press("dice_button", long=long)
    return jsonify(accepted=True, button="dice_button", long=long), 202


@bp.post("/sim/stopwatch")
def sim_stopwatch():
    _body()
    _sim_buttons().press("stopwatch_button")
    return jsonify(accepted=True, button="stopwatch_button"), 202
