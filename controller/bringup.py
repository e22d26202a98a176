"""Guided bring-up: the first things to try on a newly wired box, each ticked when it is seen to work.

Two kinds of step. What software can truly observe (a hook change, a decoded digit, a button's
press) is ticked by the box itself. What only a person can sense (the bell ringing, the dial
tone in the receiver) is ticked only by the builder's answer: newsdesk switching the bell's line
on or playing the tone says nothing about a dead bell or a silent amplifier, so the box shows
what it sent ("newsdesk rang the bell, 40 strikes") beside the question, and an answer of "it
didn't" says what to check.

Pure: fed the bus's messages, the builder's answers and a time, it says which steps are done;
for a step not yet done it says which wire and which pins to check, from the pin map (the one
home of pin numbers). The Workbench page shows it; the same messages come from a real phone, the
phone in a box (the Pico on USB) or the virtual phone, so the checklist works on all three. It
is kept in memory, like the rest of the Workbench: a reload of the page shows it as it was, a
restart of newsdesk starts it again.
"""

from collections.abc import Sequence
from typing import Any

from . import events
from .audio.device import card_of
from .errors import BadRequest, Conflict
from .pinmap import PinMap

AUTO, BUILDER = "auto", "builder"     # who ticks a step: the box, or the builder's answer

STEPS = (
    ("lift", "Lift the handset", AUTO),
    ("dial0", "Dial 0", AUTO),
    ("dice", "Press the dice button", AUTO),
    ("stopwatch", "Press the stopwatch", AUTO),
    ("bell", "Ring the bell", BUILDER),
    ("tone", "Hear the dial tone", BUILDER),
)
BUILDER_STEPS = tuple(sid for sid, _, check in STEPS if check == BUILDER)
# the bus messages Checklist.feed reads: its follower need not wake for any other
FED = frozenset((events.PHONE_HOOK, events.PHONE_DIGIT, events.DICE_ROLL, events.STOPWATCH_STARTED,
                 events.STOPWATCH_ROLL, events.PHONE_SOUND))

# The builder's two answers to a step only a person can sense: (it did, it didn't).
ASK = {
    "bell": ("It rang", "It didn't ring"),
    "tone": ("I heard it", "I heard nothing"),
}

# Why the dial tone can't be heard at all, whatever the wiring: the handset's sound is off.
AUDIO_OFF = ("The handset's sound is switched off (the audio setting is off), so newsdesk plays no dial tone: "
             "set audio = auto in the settings (config.toml) and start newsdesk again.")
AUDIO_MISSING = ("newsdesk has no way to play sound here: aplay (alsa-utils) is not installed, so no dial tone is "
                 "played. Install it (sudo apt-get install alsa-utils) and start newsdesk again.")


def no_audio_device(cards: Sequence[tuple[int, str, str]] | None, device: str | None) -> str | None:
    """Why aplay has nothing to play the dial tone on, or None: ``cards`` are the sound cards
    here as (index, id, name) (controller.doctor.sound_cards), ``device`` the audio_device
    setting. None too when it can't be told (no card list, a device name this doesn't parse)."""
    if cards is None:
        return None
    if not cards:
        return ("There is no sound card here, so no dial tone can be heard: for the amplifier add its overlay to "
                "/boot/firmware/config.txt and reboot (make install does it), or plug in a USB sound card; "
                "then start newsdesk again.")
    card = card_of(device)
    if card is None or card[0] == "other":
        return None
    key = 0 if card[0] == "index" else 1
    if any(c[key] == card[1] for c in cards):
        return None
    return ("The audio_device setting (%s) names no sound card here (cards: %s), so no dial tone can be heard: "
            "set audio_device to one of them (aplay -l lists them; newsdesk doctor says which) and start "
            "newsdesk again." % (device, ", ".join("%d %s" % c[:2] for c in cards)))


def _pins(pinmap: PinMap, name: str, board: str) -> str | None:
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


def _wire(pinmap: PinMap, name: str, board: str, words: str) -> str:
    pins = _pins(pinmap, name, board)
    where = "the Pico inside the phone" if board == "pico" else "the Pi's header"
    if pins is None:
        return "the pin map has no [%s.%s] line: add it (hardware/pinmap.toml)" % (board, name)
    spec = (pinmap.pi if board == "pi" else pinmap.pico)[name]
    closes = ""
    if getattr(spec, "kind", "input") == "input":
        closes = ", the other side to %s" % getattr(spec, "to", "GND")
    return "check %s: %s on %s (pin map [%s.%s])%s" % (words, pins, where, board, name, closes)


def _bell_wiring(pinmap: PinMap, pb: str) -> str:
    return _wire(pinmap, "ringer", pb, "the ringer enable line to the optocoupler") + ", and the bell driver's own supply"


def _tone_wiring(pinmap: PinMap) -> str:
    return (_wire(pinmap, "audio", "pi", "the I2S amplifier's wires")
            + " (or the USB sound card and the audio_device setting), the audio_volume setting, "
              "and the receiver's two wires")


def _sentences(*parts: str) -> str:
    """Sentences joined with a space, each begun with a capital: _wire's words start in lower
    case, to follow a colon or an "and", and here they begin a sentence of their own."""
    return " ".join(p[:1].upper() + p[1:] for p in parts)


def hints(pinmap: PinMap, phone_board: str = "pi") -> dict[str, str]:
    """Step id -> the sentence shown while the step isn't done."""
    pb = phone_board
    return {
        "lift": _sentences("No hook change seen.", _wire(pinmap, "hook", pb, "the hook switch's wire")
                           + "; if the handset is already up, put it down and lift it again."),
        "dial0": _sentences("No 0 decoded.", _wire(pinmap, "pulse", pb, "the dial's pulse contact wire")
                            + "; and " + _wire(pinmap, "offnormal", pb, "the off-normal wire (or set offnormal = none)")
                            + ".", "A digit other than 0 means the dial map setting is wrong."),
        "dice": _sentences("No press of the dice button seen.",
                           _wire(pinmap, "dice_button", "pi", "the dice button's wire") + "."),
        "stopwatch": _sentences("No press of the stopwatch seen.",
                                _wire(pinmap, "stopwatch_button", "pi", "the stopwatch button's wire") + "."),
        "bell": "The bell wasn't switched on. Press \"Ring the bell\", then say whether it rang; if it rings nothing, "
                + _bell_wiring(pinmap, pb) + ".",
        "tone": "No dial tone was played. Lift the handset, then say whether you heard the tone; if you hear nothing, "
                + _tone_wiring(pinmap) + ".",
    }


def _cutoff_check(pinmap: PinMap, board: str) -> str:
    """The thermal cutoff against the coil (docs/build.md, "One failed part"): one-shot, so a
    bell that never rings may be a cutoff that opened (soldered too hot, or after a fault). With
    the cable's bell pins named, a meter across them at the phone's plug checks it and the coil
    in one reading."""
    cable = pinmap.cable if board == "pi" else None
    pins = {wire: pin for pin, wire in (cable or {}).get("pins", {}).items()}
    if "bell +" in pins and "bell switched" in pins:
        where = "a meter across the cable's bell pins (%d and %d) at the phone's plug" % (
            pins["bell +"], pins["bell switched"])
    else:
        where = "a meter across the solenoid's wires"
    return ("; then, with the bell's 12 V unplugged, the thermal cutoff against the coil: %s reads the coil's "
            "ohms (about 20); an open circuit means the cutoff has opened: find out why before replacing it" % where)


def failed_hints(pinmap: PinMap, phone_board: str = "pi") -> dict[str, str]:
    """Step id -> what to check when the builder says it didn't happen although newsdesk sent it."""
    return {
        "bell": "newsdesk switched the bell's line on, but you heard no ring: " + _bell_wiring(pinmap, phone_board)
                + _cutoff_check(pinmap, phone_board) + ". Then press \"Ring the bell\" again.",
        "tone": "newsdesk played the dial tone, but you heard nothing: " + _tone_wiring(pinmap)
                + ". Then hang up, lift the handset again and listen.",
    }


class Checklist(object):
    """Which bring-up steps are done, from the bus's messages and the builder's answers.

    ``audio``: True when the handset can play sound; False when the audio setting is off; or a
    sentence saying why it can't (e.g. AUDIO_MISSING). ``bell_strikes``: how many times the
    solenoid strikes in one ring, to say so beside the bell (None: not known here, e.g. the
    Pico makes the strikes)."""

    def __init__(self, pinmap: PinMap, phone_board: str = "pi", audio: bool | str = True,
                 bell_strikes: int | None = None) -> None:
        self._hints = hints(pinmap, phone_board)
        self._failed = failed_hints(pinmap, phone_board)
        self._audio = audio is True
        self.blocked: dict[str, str] = {}   # step id -> why it can't be done at all, and what to do
        if audio is not True:
            self.blocked["tone"] = AUDIO_OFF if audio is False else str(audio)
            self._hints["tone"] = self.blocked["tone"]
        self._bell_strikes = bell_strikes
        self.seen: dict[str, float] = {}      # step id -> time it was ticked (seen by the box, or confirmed by the builder)
        self.sent: dict[str, list[float]] = {}      # builder step id -> [time newsdesk last did it, how many times]
        self.denied: dict[str, float] = {}    # builder step id -> time the builder last said it didn't happen

    def reset(self) -> None:
        self.seen.clear()
        self.sent.clear()
        self.denied.clear()

    def feed(self, message: object, now: float) -> str | None:
        """One bus message; returns the id of a step it newly moves on (a step the box ticks, or
        the first time newsdesk does what the builder is then asked about), or None."""
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
        if step is None:
            return None
        if step in BUILDER_STEPS:
            was = self.sent.get(step)
            self.sent[step] = [now, (was[1] if was else 0) + 1]
            return None if was else step
        if step in self.seen:
            return None
        self.seen[step] = now
        return step

    def confirm(self, step: str, happened: bool, now: float) -> None:
        """The builder's answer for a step only a person can sense: ``happened`` True ticks it,
        False leaves it open and shows what to check. Raises BadRequest for a step the box
        ticks itself, Conflict when newsdesk hasn't done it yet (nothing to have heard)."""
        if step not in BUILDER_STEPS:
            raise BadRequest("step must be one of %s (the others are ticked by the box itself), not %r"
                             % (", ".join(BUILDER_STEPS), step))
        if step in self.blocked:
            raise Conflict(self.blocked[step])
        if step not in self.sent:
            raise Conflict("newsdesk hasn't done that yet, so there was nothing to hear: %s"
                           % self._hints[step])
        if happened:
            self.seen[step] = now
            self.denied.pop(step, None)
        else:
            self.seen.pop(step, None)
            self.denied[step] = now

    def _what(self, step: str) -> str:
        """What newsdesk did for a builder step, in words (its time goes beside, in the page's clock)."""
        at, count = self.sent[step]
        times = "" if count == 1 else " (%d times)" % count
        if step == "bell":
            strikes = "" if not self._bell_strikes else ": %d strikes a ring" % self._bell_strikes
            return "newsdesk switched the bell on%s%s" % (times, strikes)
        return "newsdesk played the dial tone%s" % times

    def _hint(self, sid: str) -> str | None:
        if sid in self.seen:
            return None
        if sid in self.denied and sid in self._failed:
            return self._failed[sid]
        if sid in self.sent:
            return None     # done and not yet answered: "it didn't" brings the advice, and "wasn't switched on" is untrue
        return self._hints[sid]

    def state(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for sid, title, check in STEPS:
            step: dict[str, Any] = {"id": sid, "title": title, "seen": sid in self.seen, "at": self.seen.get(sid),
                    "hint": self._hint(sid), "check": check}
            if check == BUILDER:
                sent = self.sent.get(sid)
                step.update(
                    sent=None if sent is None else {"at": sent[0], "count": sent[1], "what": self._what(sid)},
                    answer="yes" if sid in self.seen else "no" if sid in self.denied else None,
                    ask=list(ASK[sid]), blocked=self.blocked.get(sid))
            out.append(step)
        return out
