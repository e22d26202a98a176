"""Reads hardware/pinmap.toml, the one source of pin assignments, and checks it can be wired."""

import tomllib
from pathlib import Path

from .errors import PinMapError

DEFAULT_PINMAP = Path(__file__).resolve().parent.parent / "hardware" / "pinmap.toml"
PULLS = ("up", "down", "none")
PHONE_LINES = ("pulse", "offnormal", "hook")


class PinSpec:
    """One line's wiring: which BCM pin, its pull, and what a HIGH level means logically."""

    __slots__ = ("name", "bcm", "pull", "high_means", "what")

    def __init__(self, name, bcm, pull, high_means, what=""):
        self.name = name
        self.bcm = bcm
        self.pull = pull
        self.high_means = high_means
        self.what = what

    @property
    def pull_up(self):
        """gpiozero's pull_up argument: True, False, or None for an external resistor."""
        return {"up": True, "down": False, "none": None}[self.pull]

    @property
    def gpio(self):
        return "GPIO%d" % self.bcm

    def logical(self, level):
        """The logical state (0/1) of a pin reading ``level`` (truthy = HIGH)."""
        return self.high_means if level else 1 - self.high_means

    def level(self, logical):
        """The pin level (True = HIGH) that means logical state ``logical``."""
        return bool(logical) == bool(self.high_means)

    def __repr__(self):
        return "<PinSpec %s %s pull=%s high_means=%d>" % (self.name, self.gpio, self.pull, self.high_means)


class PinMap:
    """The Pi header's lines by name."""

    def __init__(self, pi_lines, source):
        self.pi = pi_lines
        self.source = source

    def line(self, name):
        try:
            return self.pi[name]
        except KeyError:
            raise PinMapError("%s has no [pi.%s] line" % (self.source, name)) from None


def _spec(source, name, raw):
    where = "%s [pi.%s]" % (source, name)
    if not isinstance(raw, dict):
        raise PinMapError("%s must be a table" % where)
    bcm = raw.get("bcm")
    if not isinstance(bcm, int) or isinstance(bcm, bool) or not 0 <= bcm <= 27:
        raise PinMapError("%s: bcm must be a GPIO number 0-27, got %r" % (where, bcm))
    pull = raw.get("pull")
    if pull not in PULLS:
        raise PinMapError("%s: pull must be one of %s, got %r" % (where, ", ".join(PULLS), pull))
    high = raw.get("high_means")
    if high not in (0, 1) or isinstance(high, bool):
        raise PinMapError("%s: high_means must be 0 or 1, got %r" % (where, high))
    what = raw.get("what", "")
    if not isinstance(what, str):
        raise PinMapError("%s: what must be text" % where)
    return PinSpec(name, bcm, pull, high, what)


def parse_pinmap(text, source="pinmap.toml"):
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PinMapError("%s is not valid TOML: %s" % (source, e)) from None
    pi = data.get("pi")
    if not isinstance(pi, dict):
        raise PinMapError("%s has no [pi] section" % source)
    lines = {name: _spec(source, name, raw) for name, raw in pi.items()}
    used = {}
    for spec in lines.values():
        if spec.bcm in used:
            raise PinMapError("%s: %s is used by both %s and %s"
                              % (source, spec.gpio, used[spec.bcm], spec.name))
        used[spec.bcm] = spec.name
    for name in PHONE_LINES:
        if name not in lines:
            raise PinMapError("%s has no [pi.%s] line (the phone needs it)" % (source, name))
    return PinMap(lines, source)


def load_pinmap(path=None):
    path = Path(path) if path else DEFAULT_PINMAP
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PinMapError("can't read the pin map %s: %s" % (path, e.strerror)) from None
    return parse_pinmap(text, source=path.name)
