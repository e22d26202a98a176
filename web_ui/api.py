"""JSON API: state reads, the health strip (controller/health.py), and the simulated phone. Errors are 4xx with a plain
sentence (the games' own API is in games_api.py)."""

from flask import Blueprint, abort, jsonify

from .helpers import desk, json_body, limit_arg

bp = Blueprint("api", __name__, url_prefix="/api")


def _simulated_phone():
    phone = desk().sim_phone
    if phone is None:
        abort(409, "The phone is real hardware here: dial it, the panel can't.")
    return phone


@bp.get("/state")
def state():
    nd = desk()
    last = nd.last_event_id()       # before the state, so a tablet's stream replays what lands meanwhile
    out = nd.table.state()
    out["last_event_id"] = last
    return jsonify(out)


@bp.get("/verdicts")
def verdicts():
    return jsonify(verdicts=desk().table.recent_verdicts(limit_arg(20, 500)))


@bp.get("/health")
def health():
    return jsonify(desk().health())


@bp.post("/sim/dial")
def sim_dial():
    data = json_body()
    digit = data.get("digit")
    if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
        abort(400, "digit must be a whole number from 0 to 9, got %r." % (digit,))
    _simulated_phone().dial(digit)
    return jsonify(accepted=True, digit=digit), 202


@bp.post("/sim/hook")
def sim_hook():
    data = json_body()
    state = data.get("state")
    if state not in ("off", "on"):
        abort(400, "state must be \"off\" (handset lifted) or \"on\" (on the cradle), got %r." % (state,))
    phone = _simulated_phone()
    phone.lift() if state == "off" else phone.hang_up()
    return jsonify(accepted=True, state=state), 202


@bp.post("/phone/ring")
def phone_ring():
    """Ring the phone so the table picks up (``times`` cycles; leave it out to ring until someone
    lifts the handset), or stop it with {"stop": true}."""
    data = json_body()
    sounds = desk().sounds
    if data.get("stop") is True:
        sounds.stop_ringing()
        return jsonify(accepted=True, ringing=False), 202
    times = data.get("times")
    sounds.ring(times)          # a silly count is a BadRequest, which says what a count is
    return jsonify(accepted=True, ringing=True, times=times), 202
