"""JSON API: state reads, the health strip (controller/health.py), and the simulated phone. Errors are 4xx with a plain
sentence (the games' own API is in games_api.py)."""

from flask import Blueprint, abort, jsonify

from controller import health as health_words
from controller.hw.simulated import DIGITS_AHEAD

from .apidoc import BOOL, INT, LIMIT, OBJ, STR, arr, nullable, obj, read, ref, route, schemas, write
from .games_api import SINCE
from .helpers import desk, json_body, limit_arg
from .release import current as current_release

bp = Blueprint("api", __name__, url_prefix="/api")

schemas(
    bp,
    State=obj(["hardware", "phone", "editor", "last_verdict", "verdicts", "since", "last_roll", "game", "engines",
               "last_event_id"],
              extra=True, hardware=OBJ, phone=OBJ, editor=OBJ, last_verdict=nullable(OBJ), verdicts=arr(OBJ),
              since=nullable(dict(INT, description=SINCE)),
              last_roll=nullable(dict(OBJ, description="The newest dice or stopwatch roll after \"since\" (an "
                                      "event as the stream sends it), with \"older\": true once a move of the "
                                      "game came after it.")),
              game=nullable(ref("Game")), engines=arr(OBJ), last_event_id=INT),
    Verdicts=obj(["verdicts"], verdicts=arr(OBJ)),
    Health=obj(["simulated", "pins", "overall", "parts", "release"], simulated=BOOL, pins=STR,
               overall={"enum": [health_words.OK, health_words.WARN, health_words.FAULT]},
               parts=arr(obj(["part", "status", "summary"], extra=True, part=STR,
                             status={"enum": list(health_words.STATUSES)}, summary=STR)),
               release=dict(STR, description="The panel's release (web_ui/release.py): an open page that was "
                                             "loaded with another one reloads itself when the table is quiet.")),
    DialRequest=obj(["digit"], digit=dict(INT, minimum=0, maximum=9)),
    HookRequest=obj(["state"], state={"enum": ["off", "on"]}),
    RingRequest=obj([], times=dict(INT, minimum=1, maximum=100), stop=BOOL),
    Accepted=obj(["accepted"], extra=True, accepted=BOOL),
)


# the refusal of a digit (or a lift) asked for while the simulated person is still dialing
DIAL_TOO_SOON = ("429", "The simulated phone already has %d digits waiting to be dialed, as many as a finger gets "
                        "ahead of itself: try again after Retry-After, or hang up to drop them." % DIGITS_AHEAD)


def _simulated_phone():
    phone = desk().sim_phone
    if phone is None:
        abort(409, "The phone is real hardware here: dial it, the panel can't.")
    return phone


@route(bp, "/state", read("Everything a tablet shows at load: hardware, phone, editor, game.", "State",
                         op="state"))
def state():
    nd = desk()
    last = nd.last_event_id()       # before the state, so a tablet's stream replays what lands meanwhile
    out = nd.table.state()
    out["last_event_id"] = last
    return jsonify(out)


@route(bp, "/verdicts", read("The editor's latest verdicts, newest first.", "Verdicts", "400", params=LIMIT,
                            op="verdicts"))
def verdicts():
    return jsonify(verdicts=desk().table.recent_verdicts(limit_arg(20, 500)))


@route(bp, "/health", read("The health strip: phone, buttons, display, audio.", "Health", op="health"))
def health():
    return jsonify(dict(desk().health(), release=current_release()))


@route(bp, "/sim/dial", write("post", "Dial a digit on the simulated phone.", "Accepted",
                             ("409", "The phone is real hardware here: dial it, the panel can't."), DIAL_TOO_SOON,
                             op="simDial", request="DialRequest", ok="202"))
def sim_dial():
    data = json_body()
    digit = data.get("digit")
    if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
        abort(400, "digit must be a whole number from 0 to 9, got %r." % (digit,))
    _simulated_phone().dial(digit)
    return jsonify(accepted=True, digit=digit), 202


@route(bp, "/sim/hook", write("post", "Lift or hang up the simulated phone's handset; hanging up is at once, and "
                             "drops the digits not yet dialed.", "Accepted",
                             ("409", "The phone is real hardware here: lift it, the panel can't."), DIAL_TOO_SOON,
                             op="simHook", request="HookRequest", ok="202"))
def sim_hook():
    data = json_body()
    state = data.get("state")
    if state not in ("off", "on"):
        abort(400, "state must be \"off\" (handset lifted) or \"on\" (on the cradle), got %r." % (state,))
    phone = _simulated_phone()
    phone.lift() if state == "off" else phone.hang_up()
    return jsonify(accepted=True, state=state), 202


@route(bp, "/phone/ring", write("post", "Ring the phone so the table picks up (times cycles, or until "
                               "lifted, 3 minutes at most), or stop it ({\"stop\": true}).", "Accepted", op="ringPhone",
                               request="RingRequest", ok="202"))
def phone_ring():
    """Ring the phone so the table picks up (``times`` cycles; leave it out to ring until someone
    lifts the handset, or for hw.ringer.RING_TIMEOUT_S), or stop it with {"stop": true}."""
    data = json_body()
    # a stop misspelt or sent as a string must not ring the bell it meant to silence
    unknown = sorted(set(data) - {"times", "stop"})
    if unknown:
        abort(400, "%s isn't something a ring takes: send {\"times\": 3}, {} to ring until lifted, or "
                   "{\"stop\": true}." % ", ".join(map(repr, unknown)))
    if not isinstance(data.get("stop", False), bool):
        abort(400, "stop must be true (to stop the ringing) or false, got %r." % (data["stop"],))
    sounds = desk().sounds
    if data.get("stop") is True:
        sounds.stop_ringing()
        return jsonify(accepted=True, ringing=False), 202
    times = data.get("times")
    sounds.ring(times)          # a silly count is a BadRequest, which says what a count is
    return jsonify(accepted=True, ringing=True, times=times), 202
