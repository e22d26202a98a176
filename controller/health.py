"""The health strip's one model: each part of the box as "ok", "warn" (working, with a caveat),
"fault" (not working: the sentence says what to check) or "absent" (not fitted, or turned off),
with a summary in plain words. The panel shows it (/api/health, the strip on every page); a
part that reports on itself (``health()``: the phone's USB link, the MQTT bridge, a display
driver) is taken at its word, and the rest is read off the Newsdesk and the pin map.
"""

from .serial.session import SILENCE


def _pins_of(pinmap, *names):
    """The named lines' pins as the pin map has them ("GPIO<n>, GPIO<m>"; a bus: its pins)."""
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


def _phone(nd, pinmap, simulated, pins_said):
    link = getattr(nd, "phone_link", None)
    if link is not None:                         # the phone in a box: a Pico on USB
        status = getattr(link, "status", None)
        if status is None:
            return {"part": "phone", "status": "warn", "link": "USB", "summary": "The phone's USB link says nothing yet."}
        firmware = " (firmware %s)" % status.firmware if getattr(status, "firmware", None) else ""
        if status.connected:
            return {"part": "phone", "status": "ok", "link": "USB", "port": status.port,
                    "summary": "Phone on USB at %s%s." % (status.port, firmware),
                    "heartbeat": "within the last %.1f s" % SILENCE if SILENCE else "live",
                    "detail": "The link drops itself after %.1f s without a heartbeat." % SILENCE if SILENCE else ""}
        message = str(status.message or "the phone is not connected")
        return {"part": "phone", "status": "fault", "link": "USB", "port": status.port, "heartbeat": None,
                "summary": message[:1].upper() + message[1:] + ": check its USB cable.",
                "detail": "newsdesk keeps looking for it and reconnects by itself."}
    where = _pins_of(pinmap, "pulse", "offnormal", "hook") if pinmap else ""
    if simulated:
        return {"part": "phone", "status": "ok", "link": "GPIO (simulated)", "heartbeat": None,
                "summary": "Simulated phone: dial it on this panel.",
                "detail": "Pins %s on %s." % (where or "as mapped", pins_said)}
    return {"part": "phone", "status": "ok", "link": "GPIO", "heartbeat": None,
            "summary": "Phone wired to the Pi's pins %s." % (where or "as mapped"),
            "detail": "%s. A direct GPIO link has no heartbeat: dial a digit to test it." % pins_said}


def _buttons(nd, pinmap):
    where = _pins_of(pinmap, "dice_button", "stopwatch_button") if pinmap else ""
    if getattr(nd, "sim_buttons", None) is not None:
        return {"part": "buttons", "status": "ok", "summary": "Simulated buttons: press them on this panel.",
                "detail": "The real ones go on %s." % (where or "the pin map's lines")}
    if getattr(nd, "button_pins", None) is not None:
        return {"part": "buttons", "status": "ok", "summary": "Dice and stopwatch buttons on %s." % (where or "their pins"),
                "detail": "Press one to test it: its result shows here."}
    return None


def _display(nd):
    if not hasattr(nd, "window"):
        return None
    window = nd.window
    if window is None:
        setting = nd.config.get("display") if hasattr(nd.config, "get") else None
        if setting == "none":
            return {"part": "display", "status": "absent", "summary": "Turned off in the settings (display = none)."}
        return {"part": "display", "status": "warn",
                "summary": "No window display answered: check the OLED's wiring on I2C (newsdesk doctor says more)."}
    device = getattr(window, "device", None)
    kind = type(device).__name__ if device is not None else ""
    if kind == "dummy":
        return {"part": "display", "status": "ok", "summary": "Simulated window: the phone's display, drawn in memory."}
    return {"part": "display", "status": "ok", "summary": "Window display working%s." % (" (%s)" % kind if kind else "")}


def _audio(nd):
    sounds = getattr(nd, "sounds", None)
    player = getattr(sounds, "player", None)
    if player is None:
        return None
    output = type(getattr(player, "output", None)).__name__
    setting = nd.config.get("audio") if hasattr(nd.config, "get") else None
    if output == "NullOutput":
        if setting == "off":
            return {"part": "audio", "status": "absent", "summary": "Turned off in the settings (audio = off)."}
        return {"part": "audio", "status": "warn",
                "summary": "No sound: aplay (alsa-utils) is not installed, so the handset stays silent."}
    voice = "spoken" if getattr(player, "speech", None) is not None else "as tones (espeak-ng is not installed)"
    device = getattr(player.output, "device", None)
    return {"part": "audio", "status": "ok",
            "summary": "Handset sound through %s; verdicts %s." % (device or "ALSA's default device", voice)}


def _store_stuck(nd):
    """The store's part, shown only while a write has waited on the disk for too long."""
    took = nd.write_stuck_for()
    if took is None:
        return None
    return {"part": "store", "status": "fault",
            "summary": "A write to the store has waited %.0f s on the disk (SD card or USB drive); pages show "
                       "the last saved state, and changes wait until it finishes." % took,
            "detail": "If this lasts, the disk may be failing or full: `newsdesk doctor` checks it."}


def report(nd):
    """Each part as green ("ok") or saying in plain words what is wrong ("warn", "fault"), or
    "absent" when it isn't fitted or is turned off. A part that reports on itself (``health()``)
    is taken at its word; parts the Newsdesk doesn't have degrade to what the pin map says."""
    simulated = bool(nd.table.hardware.get("simulated"))
    pins_said = nd.table.hardware.get("pins", "")
    pinmap = nd.pinmap
    parts = [_part_says(getattr(nd, "phone_link", None), "phone") or _phone(nd, pinmap, simulated, pins_said)]
    found = {"buttons": _buttons(nd, pinmap), "display": _display(nd), "audio": _audio(nd)}
    for name, lines, words in (("buttons", ("dice_button", "stopwatch_button"), "dice and stopwatch buttons"),
                               ("display", ("display",), "display"),
                               ("audio", ("audio",), "audio")):
        part = _part_says(getattr(nd, name, None), name) or found[name]
        if part is None:
            where = _pins_of(pinmap, *lines) if pinmap else ""
            part = {"part": name, "status": "absent",
                    "summary": "Not driven by this newsdesk yet: the %s %s not in use." % (
                        words, "are" if name == "buttons" else "is"),
                    "detail": "The pin map puts the %s on %s." % (words, where) if where else
                              "The pin map doesn't name the %s." % words}
        parts.append(part)
    if getattr(nd, "mqtt", None) is not None:      # only when mqtt_url is set: no broker, no change
        parts.append(_part_says(nd.mqtt, "mqtt"))
    stuck = _store_stuck(nd)
    if stuck is not None:
        parts.append(stuck)
    worst = "ok"
    for p in parts:
        if p["status"] == "fault" or (p["status"] == "warn" and worst == "ok"):
            worst = p["status"]
    return {"simulated": simulated, "pins": pins_said, "overall": worst, "parts": parts}
