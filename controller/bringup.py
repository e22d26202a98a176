"""Guided bring-up: the first things to try on a newly wired box, each ticked when the box sees it.

Pure: fed the bus's messages and a time, it says which steps have been seen; for a step not yet
seen it says which wire and which pins to check, from the pin map (the one home of pin numbers).
The Workbench page shows it; the same messages come from a real phone, the phone in a box (the
Pico on USB) or the virtual phone, so the checklist works on all three.
"""

from . import events

STEPS = (
    ("lift", "Lift the handset"),
    ("dial0", "Dial 0"),
    ("dice", "Press the dice button"),
    ("stopwatch", "Press the stopwatch"),
    ("bell", "Ring the bell"),
    ("tone", "Hear the dial tone"),
)


def _pins(pinmap, name, board):
    """The label of a contact or output line ('GPIO<n>' on the Pi, 'GP<n>' on the Pico), the pins
    of a bus, or None if it is not in the map."""
    lines = pinmap.pi if board == "pi" else pinmap.pico
    spec = lines.get(name)
    if spec is None:
        return None
    if hasattr(spec, "pins"):
        label = "GPIO" if board == "pi" else "GP"
        return ", ".join("%s %s%d" % (role.upper(), label, pin) for role, pin in spec.pins.items())
    return spec.gpio


def _wire(pinmap, name, board, words):
    pins = _pins(pinmap, name, board)
    where = "the Pico inside the phone" if board == "pico" else "the Pi's header"
    if pins is None:
        return "the pin map has no [%s.%s] line: add it (hardware/pinmap.toml)" % (board, name)
    spec = (pinmap.pi if board == "pi" else pinmap.pico)[name]
    closes = ""
    if getattr(spec, "kind", "input") == "input":
        closes = ", the other side to %s" % getattr(spec, "to", "GND")
    return "check %s: %s on %s (pin map [%s.%s])%s" % (words, pins, where, board, name, closes)


def hints(pinmap, phone_board="pi"):
    """Step id -> the sentence shown while the step hasn't been seen."""
    pb = phone_board
    return {
        "lift": "No hook change seen. " + _wire(pinmap, "hook", pb, "the hook switch's wire")
                + "; if the handset is already up, put it down and lift it again.",
        "dial0": "No 0 decoded. " + _wire(pinmap, "pulse", pb, "the dial's pulse contact wire")
                 + "; and " + _wire(pinmap, "offnormal", pb, "the off-normal wire (or set offnormal = none)")
                 + ". A digit other than 0 means the dial map setting is wrong.",
        "dice": "No press of the dice button seen. " + _wire(pinmap, "dice_button", "pi", "the dice button's wire") + ".",
        "stopwatch": "No press of the stopwatch seen. "
                     + _wire(pinmap, "stopwatch_button", "pi", "the stopwatch button's wire") + ".",
        "bell": "The bell wasn't switched on. Press \"Ring the bell\"; if it rings nothing, "
                + _wire(pinmap, "ringer", pb, "the ringer enable line to the optocoupler")
                + ", and the bell driver's own supply.",
        "tone": "No dial tone was played. Lift the handset; if the box played it but you heard nothing, "
                + _wire(pinmap, "audio", "pi", "the I2S amplifier's wires")
                + " (or the USB sound card and the audio_device setting), and the receiver's two wires.",
    }


class Checklist(object):
    """Which bring-up steps the box has seen, from the bus's messages."""

    def __init__(self, pinmap, phone_board="pi", audio=True):
        self._hints = hints(pinmap, phone_board)
        self._audio = audio
        if not audio:
            self._hints["tone"] = ("The handset's sound is switched off (the audio setting is off): set audio = auto "
                                   "and start the box again to hear the dial tone.")
        self.seen = {}      # step id -> time first seen

    def reset(self):
        self.seen.clear()

    def feed(self, message, now):
        """One bus message; returns the id of a step it ticks for the first time, or None."""
        if not isinstance(message, dict):
            return None
        kind, data = message.get("type"), message.get("data")
        data = data if isinstance(data, dict) else {}
        step = None
        if kind == events.PHONE_HOOK and data.get("state") == "off":
            step = "lift"
        elif kind == events.PHONE_DIGIT and data.get("digit") == 0:
            step = "dial0"
        elif kind == events.DICE_ROLL and data.get("source") == "button":
            step = "dice"
        elif kind in (events.STOPWATCH_STARTED, events.STOPWATCH_ROLL) and data.get("source") == "button":
            step = "stopwatch"
        elif kind == events.PHONE_SOUND and data.get("ringing") is True:
            step = "bell"
        elif kind == events.PHONE_SOUND and data.get("receiver") == "dial" and self._audio:
            step = "tone"
        if step is None or step in self.seen:
            return None
        self.seen[step] = now
        return step

    def state(self):
        return [{"id": sid, "title": title, "seen": sid in self.seen, "at": self.seen.get(sid),
                 "hint": None if sid in self.seen else self._hints[sid]} for sid, title in STEPS]
