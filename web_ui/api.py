"""JSON API: state reads and the actions a tablet can take. Errors are 4xx with a plain sentence."""

from flask import Blueprint, abort, jsonify, request

from .helpers import desk

bp = Blueprint("api", __name__, url_prefix="/api")


def _json_body():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "Send a JSON object in the request body, with Content-Type: application/json.")
    return data


def _simulated_phone():
    phone = desk().sim_phone
    if phone is None:
        abort(409, "The phone is real hardware here: dial it, the panel can't.")
    return phone


@bp.get("/state")
def state():
    return jsonify(desk().table.state())


@bp.get("/verdicts")
def verdicts():
    raw = request.args.get("limit", "20")
    if not raw.isdigit() or not 1 <= int(raw) <= 500:
        abort(400, "limit must be a whole number from 1 to 500, got %r." % raw)
    return jsonify(verdicts=desk().table.recent_verdicts(int(raw)))


@bp.post("/sim/dial")
def sim_dial():
    data = _json_body()
    digit = data.get("digit")
    if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
        abort(400, "digit must be a whole number from 0 to 9, got %r." % (digit,))
    _simulated_phone().dial(digit)
    return jsonify(accepted=True, digit=digit), 202


@bp.post("/sim/hook")
def sim_hook():
    data = _json_body()
    state = data.get("state")
    if state not in ("off", "on"):
        abort(400, "state must be \"off\" (handset lifted) or \"on\" (on the cradle), got %r." % (state,))
    phone = _simulated_phone()
    phone.lift() if state == "off" else phone.hang_up()
    return jsonify(accepted=True, state=state), 202
