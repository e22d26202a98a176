"""Reads hardware/pinmap.toml, the one source of pin assignments, and checks it can be wired.

Two boards: [pi.*] lines on the Raspberry Pi header (BCM numbers) and [pico.*] lines on a Pico
inside the phone (GPn numbers). Each line is an input (a contact), an output (a driven load) or
a bus (i2c, i2s) that names several pins. No pin may serve two lines on the same board.

Lines may also say what they are wired to (the rail a contact closes to, an output's LED or
optocoupler with its forward voltage and series resistor, a module's supply rail). This module
only checks that those values are well formed; schematics/erc.py judges them electrically.
"""

import difflib
import os
import tomllib
from pathlib import Path
from typing import Any

from .errors import PinMapError
from .plain_file import NotPlainFile, open_plain

DEFAULT_PINMAP = Path(__file__).resolve().parent.parent / "hardware" / "pinmap.toml"
PULLS = ("up", "down", "none")
PHONE_LINES = ("pulse", "offnormal", "hook")
KINDS = ("input", "output", "i2c", "i2s")
BUS_PINS = {"i2c": ("sda", "scl"), "i2s": ("bclk", "lrclk", "din")}
# roles a bus may name or leave out: the amplifier's SD (shutdown/mode) pin, driven by the
# max98357a overlay when named (its sdmode-pin), left to the module's own pull when not
OPTIONAL_BUS_PINS = {"i2s": ("sd",)}
BOARDS = {"pi": ("bcm", 27, "GPIO"), "pico": ("gp", 28, "GP")}  # number key, highest pin, label
RAILS = ("GND", "3V3", "5V")
SUPPLIES = ("3V3", "5V")      # the rails a module may be powered from
LOADS = ("led", "optocoupler", "board_led")   # board_led: a board's own LED, resistor on the board
# the pin a board's own LED is on: the Pico's GP25 (Raspberry Pi Pico datasheet; a Pico W's is the
# wireless chip's, which the firmware asks for by name). No GPIO of the Pi's header has one.
BOARD_LEDS = {"pico": 25}
# and how it lights: the Pico's hangs from GP25 through its resistor to GND (the datasheet's
# schematic), so the pin driven HIGH lights it
BOARD_LED_ACTIVE_HIGH = {"pico": True}
# the keys a line may have, by its kind (the board's number key, bcm or gp, is added per board): a
# key not listed here is a typo that would otherwise be silently ignored ("filter_pul" = no pull-up)
LINE_KEYS = ("kind", "what", "in_phone", "esd")
KIND_KEYS = {
    "input": ("pull", "high_means", "to", "pull_resistor", "pull_to", "series_resistor", "filter_nf", "filter_pull"),
    "output": ("active_high", "load", "colour", "vf", "resistor"),
    "i2c": ("sda", "scl", "bus", "address", "supply"),
    "i2s": ("bclk", "lrclk", "din", "sd", "bus", "supply"),
}
CABLE_KEYS = ("box", "pins")
BUS_NUMBERS = 100       # a bus's number, 0-99: the controller (I2C{n}) and the kernel's /dev/i2c-n name it so


# the 7-bit addresses a device may answer at: 0x00-0x07 and 0x78-0x7F are reserved by the I2C
# specification (general call, CBUS, high-speed master codes, 10-bit addressing)
I2C_ADDRESSES = (0x08, 0x77)

class PinSpec:
    """One line's wiring: which pin, and for an input its pull and what a HIGH level means
    logically; for an output whether HIGH switches it on."""

    __slots__ = ("name", "bcm", "pull", "high_means", "what", "kind", "board", "active_high",
                 "to", "pull_resistor", "pull_to", "load", "colour", "vf", "resistor", "in_phone",
                 "series_resistor", "filter_nf", "filter_pull", "esd")

    def __init__(self, name: str, bcm: int, pull: str | None = None, high_means: int | None = None, what: str = "",
                 kind: str = "input", board: str = "pi", active_high: bool = True, to: str | None = "GND",
                 pull_resistor: float | None = None, pull_to: str | None = None, load: str | None = None,
                 colour: str = "", vf: float | None = None, resistor: float | None = None, in_phone: bool = False,
                 series_resistor: float | None = None, filter_nf: float | None = None,
                 filter_pull: float | None = None, esd: bool = False) -> None:
        self.name = name
        self.series_resistor = series_resistor  # input: ohms between its filter node and the GPIO
        self.filter_nf = filter_nf          # input: the filter's capacitor, node to GND (nF)
        self.filter_pull = filter_pull      # input: the node's pull resistor (ohms), away from the contact's rail
        self.esd = esd                      # an ESD (TVS) array's channel on its wire at the connector
        self.in_phone = in_phone            # its far end is in the phone: a wire of the cable
        self.bcm = bcm          # the pin number on its board (BCM on the Pi, GPn on the Pico)
        self.pull = pull
        self.high_means = high_means
        self.what = what
        self.kind = kind
        self.board = board
        self.active_high = active_high
        self.to = to                        # input: the rail the contact closes to
        self.pull_resistor = pull_resistor  # input: an external pull resistor (ohms), or None
        self.pull_to = pull_to              # input: the rail that resistor goes to
        self.load = load                    # output: "led", "optocoupler", "board_led" or None
        self.colour = colour                # output: the LED's colour
        self.vf = vf                        # output: lowest forward voltage of the LED (V)
        self.resistor = resistor            # output: series resistor (ohms)

    @property
    def pull_up(self) -> bool | None:
        """gpiozero's pull_up argument: True, False, or None for an external resistor."""
        pulls: dict[str | None, bool | None] = {"up": True, "down": False, "none": None}
        return pulls[self.pull]

    @property
    def gpio(self) -> str:
        return "%s%d" % (BOARDS[self.board][2], self.bcm)

    def logical(self, level: object) -> int:
        """The logical state (0/1) of a pin reading ``level`` (truthy = HIGH)."""
        if self.high_means is None:
            raise TypeError("%s is an output: only an input has a logical state" % self.name)
        return self.high_means if level else 1 - self.high_means

    def level(self, logical: object) -> bool:
        """The pin level (True = HIGH) that means logical state ``logical``."""
        return bool(logical) == bool(self.high_means)

    def __repr__(self) -> str:
        if self.kind == "output":
            return "<PinSpec %s %s output active_high=%s>" % (self.name, self.gpio, self.active_high)
        return "<PinSpec %s %s pull=%s high_means=%s>" % (self.name, self.gpio, self.pull, self.high_means)


class BusSpec:
    """A bus that takes several pins: i2c (sda, scl, bus number, device address) or i2s."""

    __slots__ = ("name", "kind", "board", "pins", "bus", "address", "what", "supply", "in_phone", "esd")

    def __init__(self, name: str, kind: str, board: str, pins: dict[str, int], bus: int | None = None,
                 address: int | None = None, what: str = "", supply: str | None = None, in_phone: bool = False,
                 esd: bool = False) -> None:
        self.name = name
        self.esd = esd          # an ESD array's channel on each signal wire at the connector
        self.in_phone = in_phone
        self.kind = kind
        self.board = board
        self.pins = pins        # role -> pin number, e.g. {"sda": 2, "scl": 3}
        self.bus = bus
        self.address = address
        self.what = what
        self.supply = supply    # the rail the module is powered from (its pull-ups go there too)

    def __repr__(self) -> str:
        return "<BusSpec %s %s %s>" % (self.name, self.kind, self.pins)


Line = PinSpec | BusSpec


class PinMap:
    """The lines by name, per board: ``pi`` and ``pico`` map a line name to a PinSpec or BusSpec;
    ``cable`` is the Pi build's connector to the phone (``box``: the sex of the box's connector,
    ``pins``: connector pin number -> the wire it carries), or None if the file has no [cable]."""

    def __init__(self, pi_lines: dict[str, Line], source: str, pico_lines: dict[str, Line] | None = None,
                 cable: dict[str, Any] | None = None) -> None:
        self.pi = pi_lines
        self.pico = pico_lines or {}
        self.source = source
        self.cable = cable

    def line(self, name: str, board: str = "pi") -> Line:
        lines = self.pi if board == "pi" else self.pico
        try:
            return lines[name]
        except KeyError:
            raise PinMapError("%s has no [%s.%s] line" % (self.source, board, name)) from None

    def lines(self, kind: str | None = None, board: str = "pi") -> list[Line]:
        """The lines of one kind (or all), in the file's order."""
        lines = self.pi if board == "pi" else self.pico
        return [spec for spec in lines.values() if kind is None or spec.kind == kind]


def _pin_number(where: str, board: str, key: str, value: object) -> int:
    _, highest, _ = BOARDS[board]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= highest:
        raise PinMapError("%s: %s must be a pin number 0-%d, got %r" % (where, key, highest, value))
    return value


def _rail(where: str, key: str, value: object, default: str | None = None) -> str | None:
    if value is None:
        return default
    if value not in RAILS:
        raise PinMapError("%s: %s must be one of %s, got %r" % (where, key, ", ".join(RAILS), value))
    return value


def _number(where: str, key: str, value: object, positive_int: bool = False) -> float | None:
    """A resistance (whole ohms) or a voltage; None when the key is absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1e9 \
            or (positive_int and not isinstance(value, int)):
        raise PinMapError("%s: %s must be a positive %s, got %r"
                          % (where, key, "whole number of ohms" if positive_int else "number", value))
    return value


def _output(where: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The electrical fields of an output line: what it drives."""
    load = raw.get("load")
    if load is not None and load not in LOADS:
        raise PinMapError("%s: load must be one of %s, got %r" % (where, ", ".join(LOADS), load))
    vf = _number(where, "vf", raw.get("vf"))
    resistor = _number(where, "resistor", raw.get("resistor"), positive_int=True)
    if load in ("led", "optocoupler") and (vf is None or resistor is None):
        raise PinMapError("%s: %s %s load needs vf (its lowest forward voltage) and resistor (ohms)%s"
                          % (where, "an" if load[0] in "aeiou" else "a", load,
                             "" if resistor is not None else ": an LED straight on a pin, with no resistor, draws far "
                             "more than the pin may give"))
    colour = raw.get("colour", "")
    if not isinstance(colour, str):
        raise PinMapError("%s: colour must be text" % where)
    return {"load": load, "vf": vf, "resistor": resistor, "colour": colour}


def _spec(source: str, board: str, name: str, raw: object) -> Line:
    where = "%s [%s.%s]" % (source, board, name)
    if not isinstance(raw, dict):
        raise PinMapError("%s must be a table" % where)
    kind = raw.get("kind", "input")
    if kind not in KINDS:
        raise PinMapError("%s: kind must be one of %s, got %r" % (where, ", ".join(KINDS), kind))
    _known_keys(where, raw, LINE_KEYS + KIND_KEYS[kind] + ((BOARDS[board][0],) if kind in ("input", "output") else ()),
                "an %s line" % kind if kind[0] in "aeiou" else "a %s line" % kind)
    what = raw.get("what", "")
    if not isinstance(what, str):
        raise PinMapError("%s: what must be text" % where)
    in_phone = raw.get("in_phone", name in PHONE_LINES)
    if not isinstance(in_phone, bool):
        raise PinMapError("%s: in_phone must be true or false, got %r" % (where, in_phone))
    if name in PHONE_LINES and not in_phone:
        raise PinMapError("%s: in_phone = false, but the dial and the hook are always in the phone: their wires run "
                          "1-2 m to contacts people touch, and the rules hold each to its filter and ESD channel at the "
                          "box end; take in_phone = false out" % where)
    esd = raw.get("esd", False)
    if not isinstance(esd, bool):
        raise PinMapError("%s: esd must be true or false, got %r" % (where, esd))
    if kind in BUS_PINS:
        pins = {role: _pin_number(where, board, role, raw.get(role)) for role in BUS_PINS[kind]}
        for role in OPTIONAL_BUS_PINS.get(kind, ()):
            if raw.get(role) is not None:
                pins[role] = _pin_number(where, board, role, raw[role])
        address = raw.get("address")
        if kind == "i2c" and (isinstance(address, bool) or not isinstance(address, int)
                              or not I2C_ADDRESSES[0] <= address <= I2C_ADDRESSES[1]):
            raise PinMapError("%s: address must be a 7-bit I2C address 0x%02X to 0x%02X such as 0x3C (the rest are "
                              "reserved), got %r" % (where, *I2C_ADDRESSES, address))
        bus = raw.get("bus")
        if bus is not None and (isinstance(bus, bool) or not isinstance(bus, int) or not 0 <= bus < BUS_NUMBERS):
            raise PinMapError("%s: bus must be the bus's number, a whole number such as 1 (I2C1, /dev/i2c-1), got %r"
                              % (where, bus))
        supply = _rail(where, "supply", raw.get("supply"))
        if supply not in (None,) + SUPPLIES:
            raise PinMapError("%s: supply must be the rail the module is powered from, %s, got %r: on GND it is never "
                              "powered" % (where, " or ".join(SUPPLIES), supply))
        return BusSpec(name, kind, board, pins, bus, address, what, supply, in_phone, esd)
    number_key = BOARDS[board][0]
    number = _pin_number(where, board, number_key, raw.get(number_key))
    if kind == "output":
        active_high = raw.get("active_high", True)
        if not isinstance(active_high, bool):
            raise PinMapError("%s: active_high must be true or false, got %r" % (where, active_high))
        fields = _output(where, raw)
        if fields["load"] == "board_led" and BOARD_LEDS.get(board) != number:
            _no_board_led(where, board, number)
        if fields["load"] == "board_led" and active_high != BOARD_LED_ACTIVE_HIGH[board]:
            lit = "HIGH" if BOARD_LED_ACTIVE_HIGH[board] else "LOW"
            raise PinMapError("%s: load = \"board_led\" with active_high = %s, but the Pico's own LED on %s%d lights "
                              "when the pin is driven %s (the Raspberry Pi Pico datasheet's schematic): set "
                              "active_high = %s" % (where, "true" if active_high else "false", BOARDS[board][2], number,
                                                    lit, "true" if lit == "HIGH" else "false"))
        return PinSpec(name, number, what=what, kind="output", board=board, active_high=active_high,
                       in_phone=in_phone, esd=esd, **fields)
    pull = raw.get("pull")
    if pull not in PULLS:
        raise PinMapError("%s: pull must be one of %s, got %r" % (where, ", ".join(PULLS), pull))
    high = raw.get("high_means")
    if high not in (0, 1) or isinstance(high, bool):
        raise PinMapError("%s: high_means must be 0 or 1, got %r" % (where, high))
    to = _rail(where, "to", raw.get("to"), "GND")
    pull_resistor = _number(where, "pull_resistor", raw.get("pull_resistor"), positive_int=True)
    pull_to = _rail(where, "pull_to", raw.get("pull_to"))
    if (pull_resistor is None) != (pull_to is None):
        raise PinMapError("%s: an external pull needs both pull_resistor (ohms) and pull_to (a rail)" % where)
    series = _number(where, "series_resistor", raw.get("series_resistor"), positive_int=True)
    filter_nf = _number(where, "filter_nf", raw.get("filter_nf"))
    filter_pull = _number(where, "filter_pull", raw.get("filter_pull"), positive_int=True)
    return PinSpec(name, number, pull, high, what, board=board, to=to,
                   pull_resistor=pull_resistor, pull_to=pull_to, in_phone=in_phone,
                   series_resistor=series, filter_nf=filter_nf, filter_pull=filter_pull, esd=esd)


def _no_board_led(where: str, board: str, number: int) -> None:
    """load = "board_led" where the board has no LED of its own: nothing would light, and the LED and
    its resistor would be left off the schematic, the bill of materials and the wiring."""
    if board not in BOARD_LEDS:
        raise PinMapError("%s: load = \"board_led\", but the Raspberry Pi has no LED of its own on a GPIO (its power "
                          "and activity LEDs are the firmware's, on none of GPIO0-27; only the Pico has one, on GP25): "
                          "nothing would light, and the LED and its resistor would be missing from the bill of materials; "
                          "wire an LED (load = \"led\" with colour, vf and resistor)" % where)
    label, led = BOARDS[board][2], BOARD_LEDS[board]
    raise PinMapError("%s: load = \"board_led\" on %s%d, but the Pico's own LED is on %s%d and no other pin has it: "
                      "put the line on %s%d, or wire an LED (load = \"led\" with colour, vf and resistor)"
                      % (where, label, number, label, led, label, led))


def _known_keys(where: str, raw: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    """Refuse a key the reader doesn't know, naming the nearest one it does."""
    for key in raw:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = "did you mean %r?" % close[0] if close else "%s takes %s" % (what, ", ".join(known))
            raise PinMapError("%s: unknown key %r (%s)" % (where, key, hint))


def _two_buses(source: str, label: str, pin: int, other: BusSpec, spec: BusSpec) -> None:
    """Two bus lines on one pin, refused for what it is: two devices of one kind on the same pins (each
    line is one device with its bus's pins, and none can move off them), or two kinds of bus on a pin
    only one of them can use (the rules name which pins carry each)."""
    if spec.kind != other.kind:
        raise PinMapError("%s: %s%d is used by both %s (its %s) and %s (its %s); each bus sits on the pins that carry "
                          "it: put the one that is off them back on its own" % (
                              source, label, pin, other.name, _role_at(other, pin), spec.name, _role_at(spec, pin)))
    clash = ", and both answer at address 0x%02X" % spec.address \
        if spec.kind == "i2c" and spec.address is not None and spec.address == other.address else ""
    raise PinMapError("%s: %s and %s are two %s devices on the same pins (%s%d is %s's %s and %s's %s)%s: the pin map "
                      "takes one device a bus, and newsdesk drives only its own; take %s out"
                      % (source, other.name, spec.name, spec.kind.upper(), label, pin, other.name,
                         _role_at(other, pin), spec.name, _role_at(spec, pin), clash, spec.name))


def _role_at(spec: BusSpec, pin: int) -> str:
    """The role (SDA, BCLK...) ``spec`` gives ``pin``."""
    return next(role for role, n in spec.pins.items() if n == pin).upper()


def _pins_of(spec: Line) -> list[int]:
    if isinstance(spec, BusSpec):
        return list(spec.pins.values())
    return [spec.bcm]


def _board(source: str, board: str, section: dict[str, Any]) -> dict[str, Line]:
    lines = {name: _spec(source, board, name, raw) for name, raw in section.items()}
    used: dict[int, str] = {}
    owners: dict[int, Line] = {}
    label = BOARDS[board][2]
    for spec in lines.values():
        for pin in _pins_of(spec):
            named = spec.name if not isinstance(spec, BusSpec) else "%s (its %s)" % (
                spec.name, next(role for role, n in spec.pins.items() if n == pin).upper())
            if pin in used:
                other = owners[pin]
                if isinstance(spec, BusSpec) and isinstance(other, BusSpec):
                    _two_buses(source, label, pin, other, spec)
                # the board's own LED can't move, nor can a bus off the pins that carry it: the other line must
                led = next((s.name for s in (other, spec) if getattr(s, "load", None) == "board_led"), None)
                bus = next((s for s in (other, spec) if isinstance(s, BusSpec)), None)
                if led:
                    move = other.name if led == spec.name else spec.name
                    why = " (%s%d is the board's own LED, %s's, and no other pin has it)" % (label, pin, led)
                elif bus is not None:
                    move = other.name if bus is spec else spec.name
                    why = " (%s%d is %s's %s: a bus sits on the pins that carry it)" % (label, pin, bus.name,
                                                                                          _role_at(bus, pin))
                else:
                    move, why = spec.name, ""
                raise PinMapError("%s: %s%d is used by both %s and %s; move %s to a free pin%s"
                                  % (source, label, pin, used[pin], named, move, why))
            used[pin] = named
            owners[pin] = spec
    for name in PHONE_LINES:
        if name not in lines:
            raise PinMapError("%s has no [%s.%s] line (the phone needs it)" % (source, board, name))
        if lines[name].kind != "input":
            raise PinMapError("%s: [%s.%s] must be an input" % (source, board, name))
    return lines


SEXES = ("female", "male")


def _cable(source: str, raw: object) -> dict[str, Any]:
    """[cable]: the connector's pin for each wire to the phone. Only its form is checked here;
    schematics/cable.py matches the wires to the circuit and schematics/erc.py judges the layout."""
    where = "%s [cable]" % source
    if not isinstance(raw, dict):
        raise PinMapError("%s must be a table" % where)
    _known_keys(where, raw, CABLE_KEYS, "the cable")
    box = raw.get("box")
    if box not in SEXES:
        raise PinMapError("%s: box must be one of %s (the box's connector), got %r" % (where, ", ".join(SEXES), box))
    pins = raw.get("pins")
    if not isinstance(pins, dict) or not pins:
        raise PinMapError("%s: pins must be a table of pin number = \"wire\"" % where)
    out: dict[int, str] = {}
    for key, wire in pins.items():
        # ASCII digits, a few: int() refuses a superscript two isdigit() takes, and past 4,300 digits
        if not (key.isascii() and key.isdigit() and len(key) <= 3) or int(key) < 1:
            raise PinMapError("%s: pin %r is not a pin number" % (where, key))
        if not isinstance(wire, str) or not wire:
            raise PinMapError("%s: pin %s must name its wire, got %r" % (where, key, wire))
        if wire in out.values():
            raise PinMapError("%s: %r is on two pins" % (where, wire))
        out[int(key)] = wire
    return {"box": box, "pins": dict(sorted(out.items()))}


def parse_pinmap(text: str, source: str = "pinmap.toml") -> PinMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PinMapError("%s is not valid TOML: %s" % (source, e)) from None
    except RecursionError:
        raise PinMapError("%s nests its arrays or tables too deeply to read" % source) from None
    pi = data.get("pi")
    if not isinstance(pi, dict):
        raise PinMapError("%s has no [pi] section" % source)
    pico = data.get("pico")
    if pico is not None and not isinstance(pico, dict):
        raise PinMapError("%s: [pico] must be a section of lines" % source)
    unknown = set(data) - set(BOARDS) - {"cable"}
    if unknown:
        first = sorted(unknown)[0]
        close = difflib.get_close_matches(first, list(BOARDS) + ["cable"], n=1, cutoff=0.6)
        raise PinMapError("%s: unknown section(s) %s (%sboards are pi and pico, and the cable)"
                          % (source, ", ".join(sorted(unknown)), "did you mean [%s]? " % close[0] if close else ""))
    cable = _cable(source, data["cable"]) if "cable" in data else None
    return PinMap(_board(source, "pi", pi), source, _board(source, "pico", pico) if pico else {}, cable)


# bytes: hardware/pinmap.toml is under 10 KB; a file past this is no pin map
PINMAP_MOST = 1 << 20


def load_pinmap(path: str | os.PathLike[str] | None = None) -> PinMap:
    """The pin map at ``path`` (the pinmap setting; hardware/pinmap.toml without one), or
    PinMapError in one sentence. Only a plain file is read, and at most PINMAP_MOST bytes of it:
    the setting may come from a stranger's backup, whose restore reads it to judge it, and a
    pinmap of /dev/zero was read until the memory ran out, one of a pipe waited for ever."""
    path = Path(path) if path else DEFAULT_PINMAP
    try:
        with open_plain(path) as f:
            raw = f.read(PINMAP_MOST + 1)
    except NotPlainFile as e:
        raise PinMapError("the pin map %s is %s, not a file: name the pin map's .toml file" % (path, e.kind)) from None
    except OSError as e:
        raise PinMapError("can't read the pin map %s: %s" % (path, e.strerror or e)) from None
    except ValueError:      # a NUL in the path
        raise PinMapError("can't read the pin map %r: a path holds no NUL character" % str(path)) from None
    if len(raw) > PINMAP_MOST:
        raise PinMapError("%s is larger than %d bytes: not a pin map" % (path.name, PINMAP_MOST))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PinMapError("%s is not UTF-8 text (byte %d): not a pin map" % (path.name, e.start)) from None
    return parse_pinmap(text, source=path.name)
