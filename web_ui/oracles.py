"""The oracles' JSON endpoints: their settings and state, each one's history, the observed
distributions ("are these dice fair?"), and the simulated buttons.

    GET  /api/oracles                      dice, stopwatch and editor settings and state
    GET  /api/oracles/<oracle>/history     newest results first (?limit=1-500, default 50);
                                           oracle is dice, stopwatch or editor
    GET  /api/oracles/distributions        per oracle, this session and all time (?oracle=...)
    GET  /api/oracles/window.png           what the phone's window shows now
    POST /api/oracles/dice                 {"dice": "NdM"} or {"next": true}: set the dice
    POST /api/oracles/stopwatch/mode       {"mode": "stopwatch" | "d10"}
    POST /api/oracles/stopwatch/reset      {}: stop the stopwatch without a roll
    POST /api/oracles/sim/dice             {"long": false}: press the simulated dice button
    POST /api/oracles/sim/stopwatch        {}: press the simulated stopwatch button

Results themselves arrive on /stream like everything else (dice.roll, stopwatch.roll, ...).
The writes take a JSON object or no body at all; each route's description for /api/openapi.json
is beside its view (apidoc.route).
"""

import io
import json

from flask import Blueprint, Response, abort, jsonify, request

from controller.hw.simulated import PRESSES_AHEAD
from controller.oracle_service import HISTORY
from controller.oracles.dice import SPEC_PATTERN
from controller.oracles.editor import ODDS_NOTE
from controller.oracles.errors import OracleBusy, OracleSettingError
from controller.oracles.stopwatch import MODES

from .apidoc import BOOL, INT, OBJ, STR, arr, nullable, obj, read, ref, route, schemas, write
from .errors import clipped
from .helpers import desk, json_body, limit_arg

bp = Blueprint("oracles", __name__, url_prefix="/api/oracles")


# ---------------------------------------------------------------- the OpenAPI description

_ORACLE = {"enum": list(HISTORY)}
_EVENT = obj(["id", "at", "type", "data"], id=INT, at=dict(STR, description="When it was stored (ISO 8601)."),
             type=STR, data=OBJ)
_REPORT = dict(OBJ, required=["n", "faces", "chi_square", "df", "p_value", "verdict"],
               description="Per face its count, observed and expected share, the 95 % range of counts a fair "
                           "source gives; the chi-square test and a sentence saying what it means.")
_EMPTY = dict(obj(), description="No fields: send {} or no body.")

schemas(
    bp,
    OraclesState=obj(
        ["dice", "stopwatch", "editor", "odds_note", "simulated"],
        dice=obj(["current", "choices"], current=STR, choices=arr(STR)),
        stopwatch=obj(["mode", "running", "elapsed", "shown"], mode={"enum": list(MODES)},
                      running=BOOL, elapsed=nullable({"type": "number"}), shown=nullable(STR)),
        editor=nullable(OBJ), odds_note=STR, simulated=BOOL),
    OracleEvent=_EVENT,
    OracleHistory=obj(["oracle", "results"], oracle=_ORACLE, results=arr(ref("OracleEvent"))),
    Distributions=obj(
        ["session_after_event", "last_event", "groups"], session_after_event=INT, last_event=INT,
        groups=arr(obj(["oracle", "label", "session", "all_time"], extra=True, oracle=_ORACLE, label=STR,
                       session=_REPORT, all_time=_REPORT))),
    DiceRequest={"anyOf": [
        obj(["dice"], dice=dict(STR, pattern=SPEC_PATTERN,
                                description="NdM: 1-10 dice of 2-100 sides each, like 2d6 or d10.")),
        obj(["next"], next=dict(BOOL, enum=[True], description="Step to the next dice of the list."))]},
    DiceSet=obj(["dice", "choices", "event"], dice=STR, choices=arr(STR), event=ref("OracleEvent")),
    StopwatchModeRequest=obj(["mode"], mode={"enum": list(MODES)}),
    StopwatchModeSet=obj(["mode", "event"], mode={"enum": list(MODES)}, event=ref("OracleEvent")),
    StopwatchReset=obj(["was_running"], was_running=BOOL),
    EmptyRequest=_EMPTY,
    SimDiceRequest=obj(long=dict(BOOL, description="A long press (change the dice); default a press (roll).")),
    SimPress=obj(["accepted", "button"], accepted=BOOL, button={"enum": ["dice_button", "stopwatch_button"]},
                 long=BOOL),
)


def _oracles():
    oracles = desk().oracles
    if oracles is None:
        abort(503, "The dice and stopwatch aren't set up on this box.")
    return oracles


# the refusal of a press asked for while the simulated person is still pressing
PRESS_TOO_SOON = ("429", "The simulated buttons already have %d presses waiting, as many as a finger gets ahead of "
                         "itself: press again after Retry-After." % PRESSES_AHEAD)


def _sim_buttons():
    sim = desk().sim_buttons
    if sim is None:
        abort(409, "The buttons are real hardware here: press them, the panel can't.")
    return sim


@bp.errorhandler(OracleSettingError)
def _bad_setting(e):
    return jsonify(error="Bad Request", message=clipped(str(e))), 400


@bp.errorhandler(OracleBusy)
def _busy(e):
    return jsonify(error="Conflict", message=clipped(str(e))), 409


@route(bp, "", read("The dice, stopwatch and editor: their settings and state.", "OraclesState", op="oracles"))
def state():
    nd = desk()
    out = _oracles().state()
    out["editor"] = nd.table.editor.describe()
    out["odds_note"] = ODDS_NOTE
    out["simulated"] = nd.sim_buttons is not None
    return jsonify(out)


@route(bp, "/<oracle>/history", read(
    "An oracle's newest results, newest first.", "OracleHistory",
    "400", ("404", "There is no such oracle; they are dice, stopwatch and editor."), op="oracleHistory",
    params=[{"name": "oracle", "in": "path", "required": True, "schema": _ORACLE},
            {"name": "limit", "in": "query", "required": False, "schema": dict(STR, pattern="^[0-9]+$"),
             "description": "How many, 1-500 (default 50)."}]))
def history(oracle):
    if oracle not in HISTORY:
        abort(404, "There is no oracle %r; the oracles are %s." % (oracle, ", ".join(HISTORY)))
    return jsonify(oracle=oracle, results=_oracles().history(oracle, limit_arg(50, 500)))


@route(bp, "/distributions", read(
    "Each oracle's observed distribution, this session and all time, against the expected one.",
    "Distributions", "400", op="oracleDistributions",
    params=[{"name": "oracle", "in": "query", "required": False, "schema": _ORACLE,
             "description": "Only this oracle's groups."}]))
def distributions():
    oracle = request.args.get("oracle") or None
    if oracle is not None and oracle not in HISTORY:
        abort(400, "oracle must be one of %s, got %r." % (", ".join(HISTORY), oracle))
    return jsonify(_oracles().distributions(oracle))


@route(bp, "/window.png", read(
    "What the phone's window display shows now.", None,
    ("404", "This box has no window display, or it hasn't shown anything yet."), op="windowPicture",
    content={"description": "The window's picture.", "content": {"image/png": {}}}))
def window_png():
    window = desk().window
    image = window.image() if window is not None else None
    if image is None:
        abort(404, "This box has no window display, or it hasn't shown anything yet.")
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return Response(buf.getvalue(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@route(bp, "/dice", write("post", "Set the dice (NdM) or step to the next of the list.", "DiceSet", op="setDice",
                         request="DiceRequest"))
def set_dice():
    data = json_body(allow_empty=True)
    oracles = _oracles()
    if data.get("next") is True:
        event = oracles.next_dice()
    elif isinstance(data.get("dice"), str):
        event = oracles.set_dice(data["dice"])
    else:
        abort(400, "Send {\"dice\": \"2d6\"} (any NdM) or {\"next\": true}.")
    return jsonify(dice=event.payload["dice"], choices=event.payload["choices"], event=event.as_dict())


@route(bp, "/stopwatch/mode", write(
    "post", "Set the stopwatch button's mode.", "StopwatchModeSet",
    ("409", "The stopwatch is running: stop or reset it first."), op="setStopwatchMode",
    request="StopwatchModeRequest"))
def stopwatch_mode():
    mode = json_body(allow_empty=True).get("mode")
    if not isinstance(mode, str) or mode not in MODES:
        # the field sent, not the setting behind it (the oracle's own refusal names stopwatch_mode,
        # config.toml's key, which a request never holds)
        abort(400, "Send {\"mode\": \"stopwatch\"} or {\"mode\": \"d10\"}%s." % (
            ", not %s" % clipped(json.dumps(mode)) if isinstance(mode, str) else ""))
    event = _oracles().set_stopwatch_mode(mode)
    return jsonify(mode=mode, event=event.as_dict())


@route(bp, "/stopwatch/reset", write("post", "Stop the stopwatch without a roll.", "StopwatchReset",
                                     op="resetStopwatch", request="EmptyRequest", body_required=False))
def stopwatch_reset():
    json_body(allow_empty=True)
    return jsonify(was_running=_oracles().reset_stopwatch())


@route(bp, "/sim/dice", write(
    "post", "Press the simulated dice button: a press rolls, a long press changes the dice.", "SimPress",
    ("409", "The buttons are real hardware here: press them, the panel can't."), PRESS_TOO_SOON, op="simDiceButton",
    request="SimDiceRequest", body_required=False, ok="202"))
def sim_dice():
    long = json_body(allow_empty=True).get("long", False)
    if not isinstance(long, bool):
        abort(400, "long must be true (a long press: change the dice) or false (a press: roll), got %r." % (long,))
    _sim_buttons().press("dice_button", long=long)
    return jsonify(accepted=True, button="dice_button", long=long), 202


@route(bp, "/sim/stopwatch", write(
    "post", "Press the simulated stopwatch button.", "SimPress",
    ("409", "The buttons are real hardware here: press them, the panel can't."), PRESS_TOO_SOON,
    op="simStopwatchButton",
    request="EmptyRequest", body_required=False, ok="202"))
def sim_stopwatch():
    json_body(allow_empty=True)
    _sim_buttons().press("stopwatch_button")
    return jsonify(accepted=True, button="stopwatch_button"), 202
