"""What hardware/parts.toml may hold: every section, every key and the kind of value each takes.

The electrical rules divide by a coil's resistance, a bleed resistor and a pitch, and look parts
up by name: a zero, a negative, a string where a number goes or a misspelt key would either crash
them or, worse, be silently ignored (a misspelt ``fuse_a`` reads as "no fuse", a misspelt
``supply_a`` as "no adapter"). So the file is read against this list first, and anything not on
it, or of the wrong kind, is refused in one sentence naming the section, the key and, for a key
that isn't known, the nearest one that is.

Kinds of value:
    pos     a number above 0 (a resistance, a voltage, a current, a time)
    nonneg  a number, 0 or more (0 meaning "none fitted" where the rules say so)
    frac    a number from 0 up to (not including) 1: a tolerance, a share
    count   a whole number, 1 or more
    db      decibels, -60 to 60 (an amplifier's gain or its full-scale level)
    Every number is also under CEILING: no part here is a million of anything in its own unit, and
    the rules square and exponentiate these values.
    text, bool, table, list   what they say
A key ending in "!" is required.
"""

import difflib
import math
import re

from controller.pinmap import I2C_ADDRESSES

CEILING = 1e6

COMMON_PART = {"prefix!": "text", "description!": "text", "number!": "text", "price!": "nonneg",
               "footprint": "text", "pads": "table", "bought": "bool", "tolerance": "frac"}

PART_KEYS = {
    "resistor": {},
    "led": {"min_ma": "pos", "vf_max": "table", "vf_min": "table"},
    "contact": {"ohms_max": "nonneg"},
    "capacitor": {"rated_v!": "pos"},
    "esd": {"channels!": "count", "standoff_v": "pos", "adapter": "text", "adapter_number": "text",
            "adapter_price": "nonneg"},
    "coupling": {"tolerance!": "frac", "rated_v!": "pos"},
    "schottky": {"vf_max!": "pos", "vf_at_a": "pos"},
    "fuse": {},
    "cutoff": {"tf_tol_c!": "nonneg", "th_c!": "pos", "rated_a!": "pos"},
    "fet_cutoff": {"tf_tol_c!": "nonneg", "th_c!": "pos", "rated_a!": "pos"},
    "button": {},
    "optocoupler": {"vceo_max!": "pos", "ctr_min!": "pos", "ctr_derate": "share", "ctr_max!": "pos",
                    "pc_max_mw!": "pos", "vf_max!": "pos", "vf_min": "pos", "vce_sat!": "pos", "vf_at_ma!": "pos",
                    "led_n!": "pos", "ctr_curve": "list"},
    "mosfet": {"vgs_max!": "pos", "vgs_on!": "pos", "vds_max!": "pos", "vds_use": "share", "vgs_th_min!": "pos",
               "vgs_th_max!": "pos", "rds_on!": "pos", "ciss_pf!": "pos", "coss_pf!": "pos", "crss_pf!": "pos",
               "theta_ja!": "pos", "theta_jc!": "nonneg", "tj_max!": "pos", "tab_tau_s!": "pos", "id_max_a!": "pos"},
    "diode": {"vf_max!": "pos", "vf_at_a": "pos", "if_a!": "pos", "vrrm_v!": "pos"},
    "zener": {"iz_test_ma": "pos"},
    "solenoid": {"rated_v!": "pos", "coil_ohms!": "pos", "coil_ohms_tol!": "frac", "coil_mh!": "pos",
                 "coil_mh_tol!": "frac", "pull_in_fraction!": "pos", "over_v": "nonneg", "duty_max!": "share",
                 "rated_ambient_c!": "pos",
                 "theta_c_per_w!": "pos", "tau_s!": "pos", "theta_inner_c_per_w!": "nonneg", "insulation_c!": "pos",
                 "copper_alpha!": "nonneg"},
    "supply12": {"unloaded_ratio!": "pos"},
    "display": {"addresses": "list"},
    "amplifier": {"gains_db!": "list", "gain_default_db": "db", "fullscale_dbv!": "db", "gain_tol_db": "db"},
    "receiver": {},
    "pi": {},
    "pico": {},
}

SECTIONS = {
    "rails": {"GND!": "nonneg", "3V3!": "pos", "5V!": "pos"},
    "bell_driver": {"supply_v!": "pos", "supply_a!": "pos", "regulated": "bool", "gate_pulldown!": "pos",
                    "gate_zener_v": "nonneg", "supply_tol": "frac", "fuse_a": "nonneg", "snubber_ohms": "nonneg",
                    "cutoff_c": "nonneg", "fet_cutoff_c": "nonneg", "ambient_c!": "nonneg"},
    "failsafe": {"coupling_uf": "nonneg", "bleed_ohms": "pos"},
    "connector": {"name!": "text", "rows!": "list", "pitch_mm!": "pos", "row_mm!": "pos", "bell_clear_mm": "nonneg"},
    "dial": {"pps_max!": "pos", "break_ratio!": "frac", "pps_min": "pos"},
    "audio": {"amp_max_vrms!": "pos", "amp_max_square_vrms": "pos", "receiver_ohms!": "pos", "pad_ohms": "nonneg",
              "receiver_max_mv!": "pos", "receiver_ohms_max!": "pos", "receiver_z_hz!": "pos"},
}
BOARD_KEYS = {"title!": "text", "logic_v!": "pos", "pin_ma!": "pos", "drive_ma!": "pos", "total_ma!": "pos",
              "vih_min": "pos", "vil_max": "pos", "voh_min": "pos", "voh_at_ma": "pos", "leak_ua": "pos",
              "pull_min_ohms!": "pos", "board_led_ma": "pos", "header": "table", "power": "table"}
KIT_KEYS = {"build!": "text", "part!": "text", "number!": "text", "quantity!": "whole", "price!": "nonneg",
            "cores": "count", "core_a": "pos"}
BOARDS = ("pi", "pico")
TOP = tuple(SECTIONS) + ("board", "part", "kit")

WORDS = {"pos": "a number above 0 (and under a million)", "nonneg": "a number, 0 or more (and under a million)",
         "frac": "a number from 0 up to 1", "share": "a number above 0, up to 1 (a share: 25 % is 0.25)",
         "count": "a whole number, 1 or more", "whole": "a whole number, 0 or more",
         "db": "a number of decibels from -60 to 60",
         "text": "text", "bool": "true or false", "table": "a table", "list": "a list"}


def nearest(key, known):
    """'(did you mean "x"?)' for the closest known key, or the list of known keys."""
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    if close:
        return "did you mean %r?" % close[0]
    return "known: %s" % ", ".join(sorted(known))


def _fits(kind, value):
    if kind in ("pos", "nonneg", "frac", "share", "count", "whole", "db"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or abs(value) >= CEILING:
            return False
        if kind in ("count", "whole") and not isinstance(value, int):
            return False
        return {"pos": value > 0, "nonneg": value >= 0, "frac": 0 <= value < 1, "share": 0 < value <= 1,
                "count": value >= 1,
                "whole": value >= 0, "db": -60 <= value <= 60}[kind]
    return isinstance(value, {"text": str, "bool": bool, "table": dict, "list": list}[kind])


def _table(where, data, schema, source):
    """Problems with one table against its schema: unknown keys, missing required ones, values
    of the wrong kind. Returns sentences."""
    if not isinstance(data, dict):
        return ["%s: %s must be a table" % (source, where)]
    kinds = {k.rstrip("!"): v for k, v in schema.items()}
    out = []
    for key, value in data.items():
        if key not in kinds:
            out.append("%s: %s has no key %r (%s)" % (source, where, key, nearest(key, kinds)))
        elif not _fits(kinds[key], value):
            out.append("%s: %s %s must be %s, got %r" % (source, where, key, WORDS[kinds[key]], value))
    for key in schema:
        if key.endswith("!") and key[:-1] not in data:
            out.append("%s: %s lacks %s (%s)" % (source, where, key[:-1], WORDS[schema[key]]))
    return out


def problems(data, source="parts.toml"):
    """Every way ``data`` (parts.toml, parsed) departs from the schema, one sentence each."""
    out = []
    for key in data:
        if key not in TOP:
            out.append("%s: unknown section [%s] (%s)" % (source, key, nearest(key, TOP)))
    for name, schema in SECTIONS.items():
        if name in data:
            out += _table("[%s]" % name, data[name], schema, source)
        elif any(k.endswith("!") for k in schema) and name in ("rails", "bell_driver"):
            out.append("%s has no [%s] section" % (source, name))
    boards = data.get("board", {})
    if not isinstance(boards, dict):
        out.append("%s: [board] must hold [board.pi] and [board.pico]" % source)
        boards = {}
    for name, board in boards.items():
        if name not in BOARDS:
            out.append("%s: unknown board [board.%s] (%s)" % (source, name, nearest(name, BOARDS)))
            continue
        schema = dict(BOARD_KEYS)
        if name == "pico":          # the Pi's header comes from gpiozero; the Pico's from here
            schema.update({"header!": "table", "power!": "table"})
            del schema["header"], schema["power"]
        out += _table("[board.%s]" % name, board, schema, source)
        for key in ("header", "power"):
            table = board.get(key) if isinstance(board, dict) else None
            if isinstance(table, dict) and not all(isinstance(n, int) and not isinstance(n, bool) and 0 < n < 1000
                                                   for n in table.values()):
                out.append("%s: [board.%s] %s must map each pin's name to its number on the board, got %r"
                           % (source, name, key, table))
            elif key == "header" and isinstance(table, dict) and name == "pico" \
                    and not all(re.fullmatch(r"GP\d{1,2}", pin) for pin in table):
                out.append("%s: [board.pico] header's pins must be named GP0-GP29, got %s"
                           % (source, ", ".join(sorted(table))))
    catalogue = data.get("part", {})
    if not isinstance(catalogue, dict):
        out.append("%s: [part] must hold one table per part, [part.<kind>]" % source)
        catalogue = {}
    for kind, part in catalogue.items():
        if kind not in PART_KEYS:
            out.append("%s: unknown part [part.%s] (%s)" % (source, kind, nearest(kind, PART_KEYS)))
            continue
        out += _table("[part.%s]" % kind, part, {**COMMON_PART, **PART_KEYS[kind]}, source)
    kit = data.get("kit", [])
    if not isinstance(kit, list):
        out.append("%s: kit must be a list of [[kit]] tables" % source)
        kit = []
    for n, item in enumerate(kit, 1):
        out += _table("[[kit]] number %d" % n, item, KIT_KEYS, source)
    out += _kit_cores(kit, source)
    out += _details(data, source)
    return out


CORES_RE = re.compile(r"(?<![\w.])(\d+)-core\b")


def _kit_cores(kit, source):
    """A cable's cores: one figure (``cores``) its words are made from ({cores}), so the bill of
    materials orders the cable the rules check against the wires it carries. Words naming another
    count ("8-core" beside cores = 15), {cores} with no figure to fill it, or two cables of one
    build (the rules couldn't tell which goes to the phone) are refused."""
    out, builds = [], {}
    for n, item in enumerate(kit, 1):
        if not isinstance(item, dict):
            continue
        words = [item.get(k) for k in ("part", "number") if isinstance(item.get(k), str)]
        cores = item.get("cores")
        if "cores" not in item:
            if any("{cores}" in w for w in words):
                out.append("%s: [[kit]] number %d names {cores} in its words and gives no cores (the cable's count "
                           "of cores)" % (source, n))
            continue
        if not _fits("count", cores):
            continue
        said = sorted({int(c) for w in words for c in CORES_RE.findall(w)} - {cores})
        if said:
            out.append("%s: [[kit]] number %d says %s cable and its cores is %d: the bill of materials orders what "
                       "the words say and the rules check cores, so write {cores} in the words" % (
                           source, n, " and ".join("an %d-core" % c if str(c)[0] == "8" or c in (11, 18)
                                                   else "a %d-core" % c for c in said), cores))
        build = item.get("build")
        if build in builds:
            out.append("%s: [[kit]] numbers %d and %d both give cores for the %s build: one cable goes to the phone, "
                       "and the rules hold its cores to the wires its connector carries" % (source, builds[build], n,
                                                                                          build))
        builds.setdefault(build, n)
    return out


# The Pico's 40 edge pins, from its datasheet's pinout (Raspberry Pi Pico datasheet, "Pinout"): a
# ground every fifth pin from pin 3, the GPIOs in order on pins 1-29 around them, then the
# analogue end. A number in [board.pico] that disagrees is a wire soldered to another pin.
def _pico_pinout():
    pins = {}
    gpios = iter(range(23))
    for number in range(1, 30):
        pins[number] = "GND" if number % 5 == 3 else "GP%d" % next(gpios)
    analogue = iter(range(26, 29))       # the three the board keeps (regulator, VBUS sense, LED) reach no pin
    for number, name in enumerate(("RUN", "GP", "GP", "AGND", "GP", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND",
                                   "VSYS", "VBUS"), 30):
        pins[number] = "GP%d" % next(analogue) if name == "GP" else name
    return pins


PICO_PINOUT = _pico_pinout()
PICO_HEADER = {name: number for number, name in PICO_PINOUT.items() if name.startswith("GP")}
# the RP2040's GPIOs the board wires itself (its regulator, VBUS sense, LED, VSYS sense): no edge pin
PICO_KEPT = ["GP%d" % n for n in range(max(int(name[2:]) for name in PICO_HEADER) + 2)
             if "GP%d" % n not in PICO_HEADER]
PICO_POWER = {"GND": tuple(n for n, name in PICO_PINOUT.items() if name == "GND"), "3V3": (36,), "5V": (40,)}
# What a board's GPIO can be, whatever the board: a value past these is a unit slip (mA for A, a
# percentage for a ratio), not a part.
BOARD_BOUNDS = {"logic_v": (1.6, 5.5), "pin_ma": (1, 50), "drive_ma": (1, 50), "total_ma": (1, 1000),
                "pull_min_ohms": (10_000, 100_000)}       # a GPIO's internal pull: tens of kΩ (Pi 33-73, RP2040 50-80)
# What each board's datasheet allows, which no parts list may raise: a higher figure lets the rules
# pass a pin that is overloaded, or 5 V on a pin that takes 3.3 V (Raspberry Pi documentation, GPIO
# voltage specifications and 16 mA a pin, about 50 mA in all; RP2040 datasheet: 12 mA at the
# highest drive setting, IOVDD_MAX 50 mA).
BOARD_DATASHEET = {"pi": {"logic_v": 3.3, "pin_ma": 16, "total_ma": 50},
                   "pico": {"logic_v": 3.3, "pin_ma": 12, "total_ma": 50}}
BOARD_DATASHEET_WORDS = {"logic_v": "its GPIO are 3.3 V pins, not 5 V tolerant",
                         "pin_ma": "the most its datasheet lets one pin give", "total_ma": "the most all its pins give"}
# The least resistance of each board's internal pull-up and pull-down, by its datasheet (Raspberry Pi
# documentation, GPIO voltage specifications: 33-73 kΩ on the Pi 4's BCM2711, 50-65 kΩ on the earlier
# Pis' BCM2835-7, so 33 kΩ for a build on any of them; RP2040 datasheet, pin DC characteristics: 50-80 kΩ).
# The rules hold a contact's series resistor against the pull at its strongest (pull_min_ohms): a
# higher figure, a weaker pull than the board has, passes a resistor the real pull overrules (a 22 kΩ
# one with the hook closed holds the pin over its LOW level). A lower figure is on the safe side.
BOARD_PULL_LEAST = {"pi": 33_000, "pico": 50_000}
BOARD_PULL_WORDS = {"pi": "Raspberry Pi documentation, GPIO voltage specifications: 33-73 kΩ on a Pi 4",
                    "pico": "RP2040 datasheet, pin DC characteristics: 50-80 kΩ"}
CAP_DERATE = 1.5        # a capacitor's rating over the rail it sits on: at least half as much again
ESD_STANDOFF_MOST = 2.0     # an ESD array's stand-off over the rail it guards: its clamp sits well above
                            # the stand-off, and a pin's own diodes take only a few mA of what passes it
SUPPLY_A_MOST = 20      # amps: the bell's adapter is a wall adapter (1.5 A); 1500 is its label's mA
DIODE_A_MOST = 20       # amps: a through-hole rectifier across a small coil (the 1N4007's 1 A); 300 is a datasheet's mA
TF_TOL_MOST = 10        # °C: IEC 60691 lets a thermal-link open as far as 10 °C under its rated temperature, no further
CTR_MOST = 50           # an optocoupler's current transfer ratio (a darlington's reaches about 50); 600 is a percentage


def _board_details(name, board, source):
    out = []
    for key, (low, high) in BOARD_BOUNDS.items():
        value = board.get(key)
        if _fits("pos", value) and not low <= value <= high:
            out.append("%s: [board.%s] %s is %g, and a board's GPIO takes %g to %g: check its unit"
                       % (source, name, key, value, low, high))
    for key, most in BOARD_DATASHEET.get(name, {}).items():
        value = board.get(key)
        if _fits("pos", value) and value > most and BOARD_BOUNDS[key][0] <= value <= BOARD_BOUNDS[key][1]:
            out.append("%s: [board.%s] %s is %g, over the %g its datasheet gives (%s): a higher figure would pass "
                       "what harms the board" % (source, name, key, value, most, BOARD_DATASHEET_WORDS[key]))
    levels = [board.get(k) for k in ("vil_max", "vih_min", "logic_v")]
    if all(_fits("pos", v) for v in levels) and not levels[0] < levels[1] < levels[2]:
        out.append("%s: [board.%s] its input levels must rise vil_max < vih_min < logic_v (LOW below the one, HIGH "
                   "above the other), got %g, %g and %g" % (source, name, *levels))
    if _fits("pos", board.get("voh_min")) and _fits("pos", board.get("logic_v")) and board["voh_min"] > board["logic_v"]:
        out.append("%s: [board.%s] voh_min (%g V) is over logic_v (%g V): a pin's HIGH can't be above its supply"
                   % (source, name, board["voh_min"], board["logic_v"]))
    if _fits("pos", board.get("drive_ma")) and _fits("pos", board.get("pin_ma")) and board["drive_ma"] > board["pin_ma"]:
        out.append("%s: [board.%s] drive_ma (%g, the default drive) is over pin_ma (%g, the most a pin takes)"
                   % (source, name, board["drive_ma"], board["pin_ma"]))
    if name != "pico":
        return out
    header, power = board.get("header"), board.get("power")
    if isinstance(header, dict):
        for pin, number in sorted(header.items()):
            if pin in PICO_HEADER and number != PICO_HEADER[pin]:
                out.append("%s: [board.pico] header's %s is pin %d on a Pico (its datasheet's pinout), not %r%s"
                           % (source, pin, PICO_HEADER[pin], number, _pico_pin_words(number)))
            elif pin not in PICO_HEADER and re.fullmatch(r"GP\d{1,2}", pin):
                # the GPIOs the board wires itself (PICO_KEPT): a number for one is another pin
                # (30 is RUN: the hook closing would reset the Pico), and the rules would pass it
                out.append("%s: [board.pico] header names %s, which reaches no edge pin on a Pico (%s are used on "
                           "the board itself: its datasheet's pinout); take it out%s"
                           % (source, pin, " and ".join((", ".join(PICO_KEPT[:-1]), PICO_KEPT[-1])),
                              ", its pin %r is %s" % (number, PICO_PINOUT[number]) if number in PICO_PINOUT else ""))
    if isinstance(power, dict):
        for rail, number in sorted(power.items()):
            if rail in PICO_POWER and number not in PICO_POWER[rail]:
                out.append("%s: [board.pico] power's %s is pin %s on a Pico (its datasheet's pinout), not %r%s"
                           % (source, rail, " or ".join(map(str, PICO_POWER[rail])), number, _pico_pin_words(number)))
    return out


def _pico_pin_words(number):
    name = PICO_PINOUT.get(number)
    if name is None or name.startswith("GP"):
        return ""
    return " (a GND pin)" if name == "GND" else " (%s)" % name


def _part_details(parts, data, source):
    """Values a part's datasheet puts in an order: a MOSFET's threshold under the gate voltage it
    is fully on at, under its gate's limit; an optocoupler's least transfer ratio under its most;
    an ESD array that stands off the rail its lines carry (below it, it conducts all the time)."""
    out = []
    fet = parts.get("mosfet")
    keys = ("vgs_th_min", "vgs_th_max", "vgs_on", "vgs_max")
    if isinstance(fet, dict) and all(_fits("pos", fet.get(k)) for k in keys):
        lo, hi, on, most = (fet[k] for k in keys)
        if not lo <= hi < on <= most:
            out.append("%s: [part.mosfet] its gate voltages must rise vgs_th_min <= vgs_th_max < vgs_on <= vgs_max "
                       "(the threshold under the voltage it is fully on at, under the gate's limit), got %g, %g, "
                       "%g and %g" % (source, lo, hi, on, most))
    supply = parts.get("supply12")
    if isinstance(supply, dict) and _fits("pos", supply.get("unloaded_ratio")) and supply["unloaded_ratio"] < 1:
        # the rules take an unregulated adapter at its rating times this: under 1, under its rating,
        # and a supply that reads 16 V unloaded would pass as 6
        out.append("%s: [part.supply12] unloaded_ratio is %g, and an unregulated adapter reads at least its rating "
                   "with no load (a \"12 V\" one 14-16 V): give 1 or more (newsdesk takes 1.35)"
                   % (source, supply["unloaded_ratio"]))
    opto = parts.get("optocoupler")
    if isinstance(opto, dict) and _fits("pos", opto.get("ctr_min")) and _fits("pos", opto.get("ctr_max")):
        if not opto["ctr_min"] <= opto["ctr_max"] <= CTR_MOST:
            out.append("%s: [part.optocoupler] ctr_min <= ctr_max, each a ratio up to %d (50 %% is 0.5), got %g and %g"
                       % (source, CTR_MOST, opto["ctr_min"], opto["ctr_max"]))
    esd = parts.get("esd")
    rails = data.get("rails") if isinstance(data.get("rails"), dict) else {}
    rail = rails.get("3V3")
    if isinstance(esd, dict) and _fits("pos", esd.get("standoff_v")) and _fits("pos", rail) and esd["standoff_v"] < rail:
        out.append("%s: [part.esd] standoff_v is %g V, under the %g V rail its lines carry: it would conduct all the "
                   "time; pick an array standing off at least %g V" % (source, esd["standoff_v"], rail, rail))
    elif isinstance(esd, dict) and _fits("pos", esd.get("standoff_v")) and _fits("pos", rail) \
            and esd["standoff_v"] > ESD_STANDOFF_MOST * rail:
        out.append("%s: [part.esd] standoff_v is %g V, for lines of %g V: its clamp sits higher still, where the pin it "
                   "guards is long gone; pick an array standing off %g to %g V" % (
                       source, esd["standoff_v"], rail, rail, ESD_STANDOFF_MOST * rail))
    for name in ("capacitor", "coupling"):
        cap = parts.get(name)
        if isinstance(cap, dict) and _fits("pos", cap.get("rated_v")) and _fits("pos", rail) \
                and cap["rated_v"] < CAP_DERATE * rail:
            out.append("%s: [part.%s] rated_v is %g V, and it sits on the %g V side: rate it at least %g V (half as much "
                       "again)" % (source, name, cap["rated_v"], rail, CAP_DERATE * rail))
    out += _said_volts(parts, source, data)
    out += _ctr_by_number(parts, source)
    display = parts.get("display")
    if isinstance(display, dict) and isinstance(display.get("addresses"), list) and not all(
            isinstance(a, int) and not isinstance(a, bool) and I2C_ADDRESSES[0] <= a <= I2C_ADDRESSES[1]
            for a in display["addresses"]):
        out.append("%s: [part.display] addresses must list 7-bit I2C addresses 0x%02X to 0x%02X, such as 0x3C, got %r"
                   % (source, I2C_ADDRESSES[0], I2C_ADDRESSES[1], display["addresses"]))
    if isinstance(display, dict) and isinstance(display.get("addresses"), list) \
            and len(set(map(repr, display["addresses"]))) != len(display["addresses"]):
        out.append("%s: [part.display] addresses lists an address twice, got %r: list each address the display "
                   "can be strapped to once" % (source, display["addresses"]))
    diode = parts.get("diode")
    if isinstance(diode, dict) and _fits("pos", diode.get("if_a")) and diode["if_a"] > DIODE_A_MOST:
        out.append("%s: [part.diode] if_a is %g A, and a rectifier across this coil carries an amp or two (up to %d A): "
                   "its datasheet's mA?" % (source, diode["if_a"], DIODE_A_MOST))
    bell = data.get("bell_driver")
    if isinstance(bell, dict) and _fits("pos", bell.get("supply_a")) and bell["supply_a"] > SUPPLY_A_MOST:
        out.append("%s: [bell_driver] supply_a is %g A, and the bell's adapter is a wall adapter (up to %d A): "
                   "its label's mA?" % (source, bell["supply_a"], SUPPLY_A_MOST))
    out += _cutoff_details(parts, bell if isinstance(bell, dict) else {}, source)
    return out


def _board_pull(name, board, source):
    """pull_min_ohms against the board's datasheet (BOARD_PULL_LEAST), as logic_v, pin_ma and
    total_ma are held to theirs: at most the datasheet's least."""
    value, least = board.get("pull_min_ohms"), BOARD_PULL_LEAST.get(name)
    low, high = BOARD_BOUNDS["pull_min_ohms"]
    if least is None or not _fits("pos", value) or not low <= value <= high or value <= least:
        return []
    return ["%s: [board.%s] pull_min_ohms is %g, above the %g its datasheet gives for the internal pull at its "
            "strongest (%s): the rules hold a contact's series resistor against that strongest pull, and a weaker "
            "figure passes one that keeps a closed contact from reading LOW (the hook never seen lifted); give %g or "
            "less" % (source, name, value, least, BOARD_PULL_WORDS[name], least)]


CUTOFFS = (("cutoff", "cutoff_c"), ("fet_cutoff", "fet_cutoff_c"))    # each thermal cutoff's part, its rating


def _cutoff_details(parts, bell, source):
    """Each thermal-link's figures in their order (IEC 60691), from its own part: it holds at its
    holding temperature for good and opens at its rated one, at most TF_TOL_MOST under it; the air
    around it cooler than both. A cutoff rated under its holding temperature, or a tolerance past
    the standard's, would let ringing open it; air as hot as the cutoff leaves nothing for the
    rules to work with."""
    out = []
    ambient = bell.get("ambient_c")
    for name, key in CUTOFFS:
        cut = parts.get(name)
        if not isinstance(cut, dict):
            continue
        tol, hold, rated = cut.get("tf_tol_c"), cut.get("th_c"), bell.get(key)
        if _fits("nonneg", tol) and tol > TF_TOL_MOST:
            out.append("%s: [part.%s] tf_tol_c is %g °C, and a thermal-link (IEC 60691) opens at most %d °C under its "
                       "rated temperature: read it off the datasheet" % (source, name, tol, TF_TOL_MOST))
        if not _fits("pos", rated):
            continue
        if _fits("pos", hold) and hold >= rated:
            out.append("%s: [bell_driver] %s is %g °C, and [part.%s] th_c %g °C: a thermal-link holds for good "
                       "only under its rated temperature (IEC 60691); give both from the datasheet of the one you buy"
                       % (source, key, rated, name, hold))
        if _fits("nonneg", ambient) and ambient >= rated - (tol if _fits("nonneg", tol) else 0):
            out.append("%s: [bell_driver] ambient_c is %g °C, and the thermal cutoff (%s) may open at %g °C: the air "
                       "in a closed phone is far cooler than that (newsdesk takes 35 °C)" % (
                           source, ambient, key, rated - (tol if _fits("nonneg", tol) else 0)))
    return out


# the voltage a part's rules figure is, where its words name one too: the words are what the bill
# of materials orders, the figure what the rules check, so the two must agree
SAID_VOLTS = {"capacitor": (None, "rated_v"), "coupling": (None, "rated_v"), "mosfet": (None, "vds_max"),
              "supply12": ("bell_driver", "supply_v"), "zener": ("bell_driver", "gate_zener_v"),
              "diode": (None, "vrrm_v")}
VOLTS_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ?V(?:DC|dc)?\b")


def _said_volts(parts, source, data=None):
    """A part whose description or part number names a voltage other than its rules figure (the
    part's own, or its section's: the bell adapter's is [bell_driver] supply_v): a 50 V capacitor's
    description kept when its rated_v was changed, or a "24 V" adapter ordered for a 12 V coil,
    would order one part and check another. The figure must be among the voltages the words name
    (words may name others: an adapter's 100-240 V input, a MOSFET's gate voltages)."""
    out = []
    for name, (section, key) in SAID_VOLTS.items():
        part = parts.get(name)
        table = part if section is None else (data or {}).get(section)
        if not isinstance(part, dict) or not isinstance(table, dict) or not _fits("pos", table.get(key)):
            continue
        said = [float(v) for field in ("description", "number") if isinstance(part.get(field), str)
                for v in VOLTS_RE.findall(part[field])]
        if said and not any(abs(v - table[key]) < 1e-9 for v in said):
            out.append("%s: [part.%s] its words say %s and %s is %g V: the bill of materials orders what the words "
                       "say and the rules check %s, so make them agree" % (
                           source, name, " and ".join("%g V" % v for v in sorted(set(said))),
                           key if section is None else "[%s] %s" % (section, key), table[key], key))
    return out


# An optocoupler's transfer ratio by its part number and rank letter, at IF = 5 mA and VCE = 5 V
# (Sharp PC817 datasheet, "Rank table": no letter 50-600 %, A 80-160, B 130-260, C 200-400, D
# 300-600). ctr_min above the datasheet's least takes a stronger part than the one ordered (the
# fail-safe and the gate's drive are worked out from it), and ctr_max under its most a weaker one
# (the current a clamped gate must sink): the rules would check a part nobody can buy.
CTR_RANKS = {"PC817": {"": (0.5, 6.0), "A": (0.8, 1.6), "B": (1.3, 2.6), "C": (2.0, 4.0), "D": (3.0, 6.0)}}
CTR_PART_RE = re.compile(r"\b(%s)([A-D]?)\b" % "|".join(CTR_RANKS))


def _ctr_by_number(parts, source):
    opto = parts.get("optocoupler")
    if not isinstance(opto, dict) or not isinstance(opto.get("number"), str):
        return []
    found = CTR_PART_RE.search(opto["number"])
    if not found or not (_fits("pos", opto.get("ctr_min")) and _fits("pos", opto.get("ctr_max"))):
        return []
    least, most = CTR_RANKS[found.group(1)][found.group(2)]
    name = found.group(0) + ("" if found.group(2) else " (no rank letter)")
    out = []
    if opto["ctr_min"] > least + 1e-9:
        out.append("%s: [part.optocoupler] ctr_min is %g, above the %g its datasheet gives a %s at the least: the "
                   "rules would take a stronger part than the one ordered; give %g, or order a ranked part"
                   % (source, opto["ctr_min"], least, name, least))
    if opto["ctr_max"] < most - 1e-9:
        out.append("%s: [part.optocoupler] ctr_max is %g, under the %g its datasheet gives a %s at the most: the "
                   "rules would take a weaker part than the one ordered; give %g" % (
                       source, opto["ctr_max"], most, name, most))
    return out


# ranges a figure of these kinds always lies in: outside, it is a slip (a unit, a digit), and the
# rule that reads it would check nothing (an insulation class of 1200 °C passes any winding)
# (a table's path in the file, its key) -> (least, most, unit, what the figure is)
BOUNDS = {(("rails",), "3V3"): (3.0, 3.6, "V", "a 3.3 V rail"), (("rails",), "5V"): (4.5, 5.5, "V", "a 5 V rail"),
          (("connector",), "pitch_mm"): (1.0, 10.0, "mm", "a connector's pin pitch"),
          (("connector",), "row_mm"): (1.0, 10.0, "mm", "a connector's row spacing"),
          (("part", "solenoid"), "insulation_c"): (90, 220, "°C", "an insulation class (Y 90 to C 220)"),
          # a rating given in hotter air would let the coil sit hotter for good
          (("part", "solenoid"), "rated_ambient_c"): (20, 40, "°C", "the air a solenoid's duty is rated in"),
          (("part", "mosfet"), "tj_max"): (100, 200, "°C", "a silicon junction's maximum")}


def _bounded(data, source):
    out = []
    for (path, key), (low, high, unit, words) in BOUNDS.items():
        table = data
        for step in path:
            table = table.get(step) if isinstance(table, dict) else None
        value = table.get(key) if isinstance(table, dict) else None
        if _fits("pos", value) and not low <= value <= high:
            out.append("%s: [%s] %s is %g %s, and %s is %g to %g %s: check it" % (
                source, ".".join(path), key, value, unit, words, low, high, unit))
    parts = data.get("part") if isinstance(data.get("part"), dict) else {}
    fet = parts.get("mosfet")
    if isinstance(fet, dict) and _fits("pos", fet.get("theta_ja")) and _fits("nonneg", fet.get("theta_jc")) \
            and fet["theta_ja"] <= fet["theta_jc"]:
        out.append("%s: [part.mosfet] theta_ja (%g °C/W, junction to air) must be above theta_jc (%g, junction to "
                   "its tab): the air is beyond the tab" % (source, fet["theta_ja"], fet["theta_jc"]))
    conn = data.get("connector")
    if isinstance(conn, dict) and all(_fits("pos", conn.get(k)) for k in ("pitch_mm", "row_mm")) \
            and _fits("nonneg", conn.get("bell_clear_mm")):
        nearest = min(conn["pitch_mm"], math.hypot(conn["pitch_mm"] / 2, conn["row_mm"]))
        if conn["bell_clear_mm"] <= nearest:
            out.append("%s: [connector] bell_clear_mm is %g mm, within a pin's nearest neighbour (%.2f mm): the bell's "
                       "pins would have no empty pin beside them; give more than %.2f mm" % (
                           source, conn["bell_clear_mm"], nearest, nearest))
    return out


def _ordered(data, source):
    """Pairs of figures that come as a least and a most: swapped, a rule that reads one of them
    checks nothing (a receiver's impedance under its DC ohms, a clipped square's level under the
    sine's, the slowest dial faster than the fastest)."""
    out = []
    for section, low, high, words in (
            ("dial", "pps_min", "pps_max", "the slowest dial's pulses a second, under the fastest's"),
            ("audio", "receiver_ohms", "receiver_ohms_max", "the receiver's DC ohms, under its impedance at speech "
                                                            "frequencies (which only rises above them)"),
            ("audio", "amp_max_vrms", "amp_max_square_vrms", "the amplifier's clipping sine, under the square it "
                                                             "swings clipped hard")):
        table = data.get(section)
        if not isinstance(table, dict) or not (_fits("pos", table.get(low)) and _fits("pos", table.get(high))):
            continue
        if table[low] > table[high]:
            out.append("%s: [%s] %s (%g) must be at most %s (%g): %s" % (source, section, low, table[low], high,
                                                                      table[high], words))
    return out


def _details(data, source):
    """The values inside tables and lists that the rules take apart: the connector's rows of pin
    numbers and the LEDs' forward voltages by colour; and the values a datasheet puts in an order
    or a range (_board_details, _part_details)."""
    out = []
    boards = data.get("board") if isinstance(data.get("board"), dict) else {}
    for name, board in boards.items():
        if name in BOARDS and isinstance(board, dict):
            out += _board_details(name, board, source)
            out += _board_pull(name, board, source)
    parts = data.get("part") if isinstance(data.get("part"), dict) else {}
    out += _part_details(parts, data, source)
    out += _pad_problems(parts, source)
    out += _ordered(data, source)
    out += _bounded(data, source)
    rows = data.get("connector", {}).get("rows") if isinstance(data.get("connector"), dict) else None
    if isinstance(rows, list):
        flat = [n for row in rows if isinstance(row, list) for n in row]
        if not rows or not all(isinstance(row, list) and row for row in rows) \
                or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in flat) \
                or len(set(flat)) != len(flat):
            out.append("%s: [connector] rows must be rows of pin numbers, each pin once, such as "
                       "[[1, 2, 3], [4, 5]], got %r" % (source, rows))
    amp = data.get("part", {}).get("amplifier") if isinstance(data.get("part"), dict) else None
    if isinstance(amp, dict) and isinstance(amp.get("gains_db"), list):
        if not amp["gains_db"] or not all(_fits("db", g) for g in amp["gains_db"]):
            out.append("%s: [part.amplifier] gains_db must list the gain strap's settings in decibels, -60 to 60, "
                       "got %r" % (source, amp["gains_db"]))
    esd = data.get("part", {}).get("esd") if isinstance(data.get("part"), dict) else None
    if isinstance(esd, dict) and isinstance(esd.get("pads"), dict) and isinstance(esd.get("channels"), int):
        io = [pad for pad in esd["pads"] if pad.startswith("I/O")]
        if io and esd["channels"] != len(io):
            out.append("%s: [part.esd] channels is %r but its pads name %d I/O pins (%s): make them agree"
                       % (source, esd["channels"], len(io), ", ".join(io)))
    opto = data.get("part", {}).get("optocoupler") if isinstance(data.get("part"), dict) else None
    if isinstance(opto, dict) and isinstance(opto.get("ctr_curve"), list):
        out += _ctr_curve_problems(opto["ctr_curve"], source)
    led = data.get("part", {}).get("led") if isinstance(data.get("part"), dict) else None
    for key in ("vf_max", "vf_min"):
        if isinstance(led, dict) and isinstance(led.get(key), dict):
            for colour, volts in led[key].items():
                if not _fits("pos", volts):
                    out.append("%s: [part.led] %s's %s must be a number above 0, got %r" % (source, key, colour, volts))
    if isinstance(led, dict) and isinstance(led.get("vf_max"), dict) and isinstance(led.get("vf_min"), dict):
        for colour, least in sorted(led["vf_min"].items()):
            most = led["vf_max"].get(colour)
            if _fits("pos", least) and _fits("pos", most) and least > most:
                out.append("%s: [part.led] a %s LED's lowest forward voltage (vf_min, %g V) is above its highest "
                           "(vf_max, %g V)" % (source, colour, least, most))
    return out


# The pads a polarized part's pins must be on, by its footprint, as KiCad's libraries number them
# (a diode's and an LED's cathode is pad 1, a polarized capacitor's + is pad 1); a TO-220 MOSFET's
# follow its datasheet, and the one the parts list names (IRLZ44N), as most, is gate-drain-source
# on pins 1-2-3. A netlist with them otherwise puts the part in backwards on a
# board made from it: the flyback diode shorting the 12 V at each strike, the MOSFET's body diode
# holding the coil on.
PAD_CONVENTIONS = (
    ("Diode_THT:", {"K": "1", "A": "2"}, None),
    ("LED_THT:", {"K": "1", "A": "2"}, None),
    ("Capacitor_THT:CP_", {"+": "1", "-": "2"}, None),
    ("Package_TO_SOT_THT:TO-220", {"G": "1", "D": "2", "S": "3"}, "a TO-220 MOSFET (G-D-S, as the IRLZ44N's datasheet)"),
)


def _pad_problems(parts, source):
    out = []
    for name, part in parts.items():
        if not isinstance(part, dict) or not isinstance(part.get("footprint"), str) or not isinstance(part.get("pads"), dict):
            continue
        for prefix, wanted, what in PAD_CONVENTIONS:
            if not part["footprint"].startswith(prefix):
                continue
            for pin, pad in wanted.items():
                given = part["pads"].get(pin)
                if given is not None and str(given) != pad:
                    out.append("%s: [part.%s] pads put %s on pad %s, and %s has it on pad %s: a board made from the "
                               "netlist would have the part in backwards" % (source, name, pin, given,
                                                                             what or part["footprint"], pad))
    return out


def _ctr_curve_problems(curve, source):
    """The optocoupler's CTR curve: [mA, share] pairs, the currents rising, each share above 0, and
    the output current (mA x share) rising with the LED's, as a phototransistor's does, so the
    rules' search for the LED current a gate needs has one answer."""
    pairs = [p for p in curve if isinstance(p, list) and len(p) == 2 and all(_fits("pos", x) for x in p)]
    if not curve or len(pairs) != len(curve):
        return ["%s: [part.optocoupler] ctr_curve must list [LED mA, share of the CTR at 5 mA] pairs of numbers "
                "above 0, such as [[0.5, 0.6], [5.0, 1.0]], got %r" % (source, curve)]
    currents = [ma for ma, _ in pairs]
    outputs = [ma * share for ma, share in pairs]
    if any(b <= a for a, b in zip(currents, currents[1:])) or any(b <= a for a, b in zip(outputs, outputs[1:])):
        return ["%s: [part.optocoupler] ctr_curve's LED currents must rise from pair to pair, and so must the "
                "output current (mA x share) they give, got %r" % (source, curve)]
    return []
