"""Reads hardware/parts.toml: the rails, each board's limits and header, the parts catalogue and
the rest of the kit. Board header data for the Pi comes from gpiozero (the same tables it uses to
name pins), so no pin number of the Pi is written here."""

import tomllib
from pathlib import Path

from controller.errors import ConfigError

from . import parts_schema

DEFAULT_PARTS = Path(__file__).resolve().parent.parent / "hardware" / "parts.toml"
BOARD_KEYS = ("title", "logic_v", "pin_ma", "drive_ma", "total_ma")
PART_KEYS = ("prefix", "description", "number", "price")


class PartsError(ConfigError):
    """hardware/parts.toml is missing a board, a part or a value the circuits need."""


class Header:
    """A board's pins: pin name (GPIOn, GPn, GND, 3V3) -> the number on the board's header,
    and the alternate functions each GPIO can take (I2C1 SDA, PCM CLK, ...)."""

    def __init__(self, pins, power, functions):
        self.pins = pins            # "GPIOn" -> its header pin number
        self.power = power          # "GND" -> 6 (the first such pin)
        self.functions = functions  # "GPIO2" -> {"I2C1 SDA", ...}

    def number(self, name):
        return self.pins.get(name, self.power.get(name))


def pi_header():
    """Every 40-pin Pi (B+ and later) has this layout. Its functions are the BCM2835 ones, which
    the standard overlays (i2c_arm, the I2S DAC overlays) use on every model; gpiozero's tables
    for later chips keep only one function per kind, so they would hide I2C1 behind I2C3."""
    from gpiozero.pins.data import PLUS_J8
    _, _, layout = PLUS_J8
    pins, power, functions = {}, {}, {}
    for number in sorted(layout):
        names = layout[number]
        if "gpio" in names:
            pins[names["gpio"]] = number
            functions[names["gpio"]] = {v for k, v in names.items() if k != "gpio"}
        else:
            power.setdefault(names[""], number)
    return Header(pins, power, functions)


def pico_header(board):
    """The Pico's edge pins from parts.toml; I2C pairs follow the RP2040's fixed pattern
    (GP0/GP1 I2C0, GP2/GP3 I2C1, repeating every four pins)."""
    pins = dict(board["header"])
    functions = {}
    for name in pins:
        n = int(name[2:])
        functions[name] = {"I2C%d %s" % ((n // 2) % 2, "SDA" if n % 2 == 0 else "SCL")}
    return Header(pins, dict(board["power"]), functions)


class Parts:
    def __init__(self, data, source):
        self.source = source
        problems = parts_schema.problems(data, source)
        if problems:
            more = len(problems) - 1
            raise PartsError(problems[0] + (" (and %d more: fix this one and run again)" % more if more else ""))
        try:
            self.rails = {name: float(v) for name, v in data["rails"].items()}
            self.boards = data["board"]
            self.catalogue = data["part"]
            # a cable's words name its cores as {cores}: filled in here, from its one figure
            self.kit = [{**item, **{k: item[k].replace("{cores}", "%d" % item["cores"])
                                    for k in ("part", "number") if "cores" in item}}
                        for item in data.get("kit", [])]
            self.bell = data["bell_driver"]
            self.audio = data.get("audio", {})
            self.connector = data.get("connector", {})
            self.dial = data.get("dial", {})
            self.failsafe = data.get("failsafe", {})
        except KeyError as e:
            raise PartsError("%s has no [%s] section" % (source, e.args[0])) from None
        for name, board in self.boards.items():
            missing = [k for k in BOARD_KEYS if k not in board]
            if missing:
                raise PartsError("%s [board.%s] lacks %s" % (source, name, ", ".join(missing)))
        for name, part in self.catalogue.items():
            missing = [k for k in PART_KEYS if k not in part]
            if missing:
                raise PartsError("%s [part.%s] lacks %s" % (source, name, ", ".join(missing)))

    def board(self, name):
        try:
            return self.boards[name]
        except KeyError:
            raise PartsError("%s has no [board.%s]" % (self.source, name)) from None

    def part(self, kind):
        try:
            return self.catalogue[kind]
        except KeyError:
            raise PartsError("%s has no [part.%s]" % (self.source, kind)) from None

    def header(self, board):
        return pi_header() if board == "pi" else pico_header(self.board(board))


def parse_parts(text, source="parts.toml"):
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PartsError("%s is not valid TOML: %s" % (source, e)) from None
    except RecursionError:
        raise PartsError("%s nests its arrays or tables too deeply to read" % source) from None
    return Parts(data, source)


def load_parts(path=None):
    path = Path(path) if path else DEFAULT_PARTS
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PartsError("can't read the parts list %s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError as e:
        raise PartsError("%s is not UTF-8 text (byte %d): not a parts list" % (path.name, e.start)) from None
    return parse_parts(text, source=path.name)
