"""JSON API: state reads, the health strip, and the simulated phone. Errors are 4xx with a plain
sentence (the games' own API is in games_api.py)."""

from flask import Blueprint, abort, current_app, jsonify, request

from .helpers import desk, json_body

bp = Blueprint("api", __name__, url_prefix="/api")


def _simulated_phone():
    phone = desk().sim_phone
    if phone is None:
        abort(409, "The phone is real hardware here: dial it, the panel can't.")
    return phone


@bp.get("/state")
def state():
    nd = desk()
    last = nd.store.last_id()       # before the state, so a tablet's stream replays what lands meanwhile
    out = nd.table.state()
    out["last_event_id"] = last
    return jsonify(out)


@bp.get("/verdicts")
def verdicts():
    raw = request.args.get("limit", "20")
    if not raw.isdigit() or not 1 <= int(raw) <= 500:
        abort(400, "limit must be a whole number from 1 to 500, got %r." % raw)
    return jsonify(verdicts=desk().table.recent_verdicts(int(raw)))


@bp.get("/health")
def health():
    return jsonify(health_report(desk()))


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


# ---------------------------------------------------------------- the health strip

def _pinmap(nd):
    """The pin map the box was wired by (read once per app), or None if it can't be read."""
    cache = current_app.extensions.setdefault("newsdesk.pinmap", {})
    if "map" not in cache:
        from controller.errors import NewsdeskError
        from controller.pinmap import load_pinmap
        try:
            cache["map"] = load_pinmap(nd.config.get("pinmap") or None)
        except (NewsdeskError, OSError):
            cache["map"] = None
    return cache["map"]


def _pins_of(pinmap, *names):
    """"GPIO5, GPIO6" for the named lines the pin map has (buses: their pins)."""
    found = []
    for name in names:
        try:
            spec = pinmap.line(name)
        except Exception:
            continue
        gpio = getattr(spec, "gpio", None)
        if gpio:
            found.append(gpio)
        else:
            pins = getattr(spec, "pins", None) or {}
            found.extend("GPIO%s" % n for n in (pins.values() if isinstance(pins, dict) else pins))
    return ", ".join(found)


def _part_says(part, name):
    """A part object that reports on itself: health() -> {"status", "summary", ...}."""
    report = part.health() if callable(getattr(part, "health", None)) else None
    if isinstance(report, dict) and report.get("status") in ("ok", "warn", "fault", "absent"):
        return dict(report, part=name)
    return None


def health_report(nd):
    """Each part as green ("ok") or saying in plain words what is wrong ("warn", "fault"), or
    "absent" when this build doesn't drive it. Parts the Newsdesk doesn't expose yet degrade to
    what the pin map says about them."""
    simulated = bool(nd.table.hardware.get("simulated"))
    pins_said = nd.table.hardware.get("pins", "")
    pinmap = _pinmap(nd)
    parts = []

    phone = _part_says(getattr(nd, "phone_link", None), "phone")
    if phone is None:
        where = _pins_of(pinmap, "pulse", "offnormal", "hook") if pinmap else ""
        if simulated:
            phone = {"part": "phone", "status": "ok", "link": "GPIO (simulated)",
                     "summary": "Simulated phone: dial it on this panel.",
                     "detail": "Pins %s on %s." % (where or "as mapped", pins_said), "heartbeat": None}
        else:
            phone = {"part": "phone", "status": "ok", "link": "GPIO",
                     "summary": "Phone wired to the Pi's pins %s." % (where or "as mapped"),
                     "detail": "%s. A direct GPIO link has no heartbeat: dial a digit to test it." % pins_said,
                     "heartbeat": None}
    parts.append(phone)

    for name, lines, words in (("buttons", ("dice_button", "stopwatch_button"), "dice and stopwatch buttons"),
                               ("display", ("display",), "display"),
                               ("audio", ("audio",), "audio")):
        part = _part_says(getattr(nd, name, None), name)
        if part is None:
            where = _pins_of(pinmap, *lines) if pinmap else ""
            if name == "buttons" and getattr(nd, "sim_buttons", None) is not None:
                part = {"part": name, "status": "ok", "summary": "Simulated buttons: press them on this panel.",
                        "detail": "The real ones go on %s." % (where or "the pins in the pin map")}
            else:
                part = {"part": name, "status": "absent",
                        "summary": "Not driven by this newsdesk yet: the %s %s not in use." % (
                            words, "are" if name == "buttons" else "is"),
                        "detail": "The pin map puts %s on %s." % (words, where) if where else
                                  "The pin map doesn't name the %s." % words}
        parts.append(part)
    worst = "ok"
    for p in parts:
        if p["status"] == "fault" or (p["status"] == "warn" and worst == "ok"):
            worst = p["status"]
    return {"simulated": simulated, "pins": pins_said, "overall": worst, "parts": parts}
