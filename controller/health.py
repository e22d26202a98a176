"""The health of the box in one vocabulary, for the panel's health strip and for `newsdesk doctor`.

Every part is "ok", "warn" (working, with a caveat), "fault" (not working: the sentence says what
to check) or "absent" (not fitted, turned off, or simulated so there is nothing real to look at),
with a summary in plain words. The parts are the box's: the phone (its pulse, off-normal and hook
lines, or its USB link), the buttons, the display, the audio, MQTT and the store; `PARTS` names the
pin-map lines each one owns, so the doctor's findings line by line roll up to the same parts.

``report`` is handed what the box built (the facade's ``Newsdesk.health`` gathers it). A part
that knows its own state reports on itself with ``health()`` (the serial bridge, the window
display, the handset's player, the MQTT publisher) and is taken at its word; the rest is read off
the settings and the pin map.
"""

from collections.abc import Iterable
from typing import Any

from .errors import PinMapError
from .pinmap import BusSpec, PinMap

OK, WARN, FAULT, ABSENT = "ok", "warn", "fault", "absent"
STATUSES = (OK, WARN, FAULT, ABSENT)

# part -> the pin-map lines it owns (MQTT and the store own none)
PARTS = {"phone": ("pulse", "offnormal", "hook"), "buttons": ("dice_button", "stopwatch_button"),
         "display": ("display",), "audio": ("audio",), "mqtt": (), "store": (), "backup": ()}
WORDS = {"buttons": "dice and stopwatch buttons", "display": "display", "audio": "audio"}
LOW_SPACE = 200 * 1024 * 1024       # bytes free on the store's disk below which the store is a warning
Part = dict[str, Any]   # {"part", "status", "summary", ...}: one part of the strip


def part_of(name: str) -> str | None:
    """The part a check or a pin-map line belongs to ("hook" -> "phone"), or None (the pin map
    itself, the panel's port, the pin factory: the box as a whole)."""
    for part, lines in PARTS.items():
        if name == part or name in lines:
            return part
    return None


def worst(statuses: Iterable[str]) -> str:
    """The overall status of several: any fault, else any warning, else ok."""
    seen = set(statuses)
    return FAULT if FAULT in seen else WARN if WARN in seen else OK


def pins_of(pinmap: PinMap, part: str) -> str:
    """The part's pins as the pin map names them ("GPIO<n>, GPIO<m>"; a bus: its pins); "" if none."""
    found: list[str] = []
    for name in PARTS[part]:
        try:
            spec = pinmap.line(name)
        except PinMapError:
            continue
        if isinstance(spec, BusSpec):
            found.extend("GPIO%s" % n for n in spec.pins.values())
        else:
            found.append(spec.gpio)
    return ", ".join(found)


def says(part: Any, name: str) -> Part | None:
    """What ``part`` says of itself (``health()`` -> {"status", "summary", ...}) under ``name``;
    None if it has nothing to say (or says it in other words than these)."""
    report = part.health() if part is not None else None
    if isinstance(report, dict) and report.get("status") in STATUSES and report.get("summary"):
        return dict(report, part=name)
    return None


def _gpio_phone(pinmap: PinMap, simulated: bool, pins_said: str) -> Part:
    where = pins_of(pinmap, "phone") or "as mapped"
    if simulated:
        return {"part": "phone", "status": OK, "link": "GPIO (simulated)", "heartbeat": None,
                "summary": "Simulated phone: dial it on this panel.",
                "detail": "Pins %s on %s." % (where, pins_said)}
    return {"part": "phone", "status": OK, "link": "GPIO", "heartbeat": None,
            "summary": "Phone wired to the Pi's pins %s." % where,
            "detail": "%s. A direct GPIO link has no heartbeat: dial a digit to test it." % pins_said}


def _buttons(pinmap: PinMap, buttons: str | None) -> Part | None:
    where = pins_of(pinmap, "buttons")
    if buttons == "simulated":
        return {"part": "buttons", "status": OK, "summary": "Simulated buttons: press them on this panel.",
                "detail": "The real ones go on %s." % (where or "the pin map's lines")}
    if buttons == "wired":
        return {"part": "buttons", "status": OK, "summary": "Dice and stopwatch buttons on %s." % (where or "their pins"),
                "detail": "Press one to test it: its result shows here."}
    return None


def _no_window(display_setting: str) -> Part:
    if display_setting == "none":
        return {"part": "display", "status": ABSENT, "summary": "Turned off in the settings (display = none)."}
    return {"part": "display", "status": WARN,
            "summary": "No window display answered: check the OLED's wiring on I2C (newsdesk doctor says more)."}


def _not_driven(pinmap: PinMap, name: str) -> Part:
    words = WORDS[name]
    where = pins_of(pinmap, name)
    return {"part": name, "status": ABSENT,
            "summary": "Not driven by this newsdesk yet: the %s %s not in use." % (words, "are" if name == "buttons" else "is"),
            "detail": "The pin map puts the %s on %s." % (words, where) if where else
                      "The pin map doesn't name the %s." % words}


def _store_stuck(took: float) -> Part:
    """The store's part, shown only while a write has waited on the disk for too long."""
    return {"part": "store", "status": FAULT,
            "summary": "A write to the store has waited %.0f s on the disk (SD card or USB drive); pages show "
                       "the last saved state, and changes wait until it finishes." % took,
            "detail": "If this lasts, the disk may be failing or full: `newsdesk doctor` checks it."}


def _disk_low(free: int) -> Part:
    """The store's part while the disk keeping it is nearly full: said before a move can't be kept."""
    return {"part": "store", "status": WARN,
            "summary": "Only %d MB left on the disk (SD card or USB drive) that keeps the games." % (free // 2**20),
            "detail": "Free some space before it runs out, or moves can't be saved (old logs: sudo journalctl "
                      "--vacuum-size=50M; old backups); `newsdesk doctor` checks it."}


def _store_damaged(sentence: str) -> Part:
    """The store's part after a start found its log damaged (controller/store.py, log_damage)."""
    return {"part": "store", "status": WARN, "summary": sentence,
            "detail": "What could be read is kept and the table goes on from there; restoring a backup "
                      "brings back what is missing."}


# The parts that say their own health (the bridge, the display, the player, the publisher, the keeper)
# are adapters, not typed yet: Any until they are.
def report(pinmap: PinMap, simulated: bool, pins_said: str, phone_link: Any = None, buttons: str | None = None,
           window: Any = None, display_setting: str = "auto", player: Any = None, mqtt: Any = None,
           stuck_for: float | None = None, store_damage: str | None = None, backups: Any = None,
           disk_free: int | None = None) -> dict[str, Any]:
    """The health strip: each part, and the worst of them as ``overall``.

    ``phone_link``: the serial bridge when the phone is on USB (else the phone is on the pins);
    ``buttons``: "simulated", "wired" or None; ``window``: the window display or None (then
    ``display_setting`` says why); ``player``: the handset's; ``mqtt``: the publisher, only when
    mqtt_url is set; ``stuck_for``: seconds the store's write has waited on the disk, or None;
    ``store_damage``: the sentence a start said about a damaged log, or None; ``backups``: the
    backup keeper, only when backup_dir is set; ``disk_free``: bytes free on the data folder's
    disk, or None (not known).
    """
    parts = [says(phone_link, "phone") if phone_link is not None else _gpio_phone(pinmap, simulated, pins_said),
             _buttons(pinmap, buttons) or _not_driven(pinmap, "buttons"),
             (says(window, "display") if window is not None else None) or _no_window(display_setting),
             says(player, "audio") or _not_driven(pinmap, "audio")]
    if mqtt is not None:
        parts.append(says(mqtt, "mqtt"))
    if backups is not None:
        parts.append(says(backups, "backup"))
    if stuck_for is not None:
        parts.append(_store_stuck(stuck_for))
    elif store_damage:
        parts.append(_store_damaged(store_damage))
    elif disk_free is not None and disk_free < LOW_SPACE:
        parts.append(_disk_low(disk_free))
    said = [p for p in parts if p is not None]
    return {"simulated": simulated, "pins": pins_said, "overall": worst(p["status"] for p in said), "parts": said}
