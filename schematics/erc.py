"""Electrical rules over a board's circuit: what would hurt a GPIO, or a person, if built.

    pull       every input has a defined level when its contact is open (an internal pull or
               a resistor to a rail), and its contact pulls the other way; a series resistor
               leaves the pin past its levels against the internal pull at its strongest, or
               with no internal pull, against the pin's input leakage (leak_ua)
    contact    each input's high_means agrees with its contact's form (the phone's: the pulse
               springs closed at rest, the off-normal and hook pairs open; a button's as its part
               says) and the rail it closes to, so the circuit draws the contact as it is
    boot       no output of the Pi sits where the board itself drives the level before newsdesk
               starts: GPIO14 is the UART's TXD, toggled with boot messages when the serial
               console is on (an error for any output: a toggling line passes the ringer's
               fail-safe), and GPIO0-8 are pulled high from power-on, GPIO0-3 clocked by the
               firmware's probes (an error for the ringer, a warning for an LED); and no input
               sits on GPIO15, the UART's RXD, which the console reads as typed text
    pins       no pin serves two lines, each line sits on a pin the board brings out, a bus
               sits on the pins that carry that bus (I2C1 SDA/SCL, PCM CLK/FS/DOUT), and no
               line sits on a pin a bus's overlay claims (the I2S overlay takes all four PCM
               pins, GPIO20 too, and the amplifier's SD pin when one is named)
    current    each output's most current (logic volts - the LOWEST forward volts, the pin map's
               vf, which may not be above its LED's floor, vf_min) / resistor stays within the board's per-pin limit (a warning above its default
               drive strength), and all outputs together within its total; and its least current
               (at the HIGHEST forward volts: its colour's vf_max for an LED, the optocoupler's
               vf_max) is enough: an LED's at least its ``min_ma``, an optocoupler's enough to
               pull the MOSFET's gate up to its ``vgs_on`` with GATE_MARGIN through the gate
               resistor at the worst current transfer ratio (ctr_min x ctr_derate at 5 mA, times
               the datasheet curve's share at the LED's current, ctr_curve)
    voltage    no rail above the logic voltage reaches a GPIO through any part's pins
               (contacts count as closed, modules' pull-ups count, LEDs count as conducting; the
               amplifier breakout's 1 MΩ from SD to VIN too)
    isolation  the ringer drives an isolator, and nothing on the bell driver's side shares a
               conductor with the board
    bell       everything on the bell's side at the supply's highest: a regulated adapter at the
               top of its tolerance, an unregulated one unloaded (unloaded_ratio). That supply
               stays within the optocoupler's output rating and dissipation, the MOSFET's gate
               within its limit (the supply regulated, or a zener clamping the gate; a zener's
               own top voltage counted too) and its vgs_on at least VGS_ON_OVER_TH times its
               highest threshold (a logic-level part, fully on at the gate's drive), the
               solenoid's rated voltage and its duty rating at the strikes' worst on-time, and the drain's peak at turn-off (supply + coil
               current x snubber resistor + flyback diode) under vds_use of the MOSFET's rating.
               And at its lowest: the coil, warm, still gets the current that pulls its plunger
               in (a coil rated above the supply named as such), and the adapter's rated
               current (supply_a) covers the coil's highest; the fuse (fuse_a) is rated for the
               coil and no higher than the cable's cores carry (core_a) where the bell's pair
               runs on the cable. And one failed part: a thermal
               cutoff against the coil (cutoff_c) that a long ring (as the ringer's heat budget
               allows it) leaves HOLDING_MARGIN_C under its holding temperature, that opens within
               CUTOFF_OPENS_MAX_S of a coil held on at its weakest, before the winding passes its
               insulation's class, that carries the coil's current, and under which a line
               toggling at any duty can't hold the coil hotter than its continuous rating does
               (a temperature, whatever the air: see coil_rating); and a
               second cutoff on the MOSFET's tab (fet_cutoff_c) for a gate held half on, rated
               no hotter than FET_TAB_MAX_C, that ringing leaves HOLDING_MARGIN_C under its
               holding temperature and that opens before the junction passes tj_max
    failsafe   the ringer lights its optocoupler through a capacitor (the fail-safe), so a line
               left high lets the coil go by itself: the drive stays full through a strike at the
               default rate, and a held line leaves the LED dark within one strike at the slowest
    level      the loudest the amplifier can drive the handset's receiver, through the pad,
               stays under the ceiling in parts.toml [audio]
    protection every line whose wire leaves the box (in_phone; the Pi build's cable) is protected
               at the box end: a contact by a pull-up, a capacitor to GND and a series resistor to
               its GPIO, that resistor large enough that a SPIKE_V spike on the node pushes no
               more than the pin's pin_ma into its clamp diode; every contact, LED and I2C wire by
               an ESD array's channel. And each
               contact's filter passes the shortest break and make of the fastest, most worn dial
               ([dial] in parts.toml) as the decoder needs them (its SETTLE, MIN_BREAK, MIN_MAKE),
               and delays no edge by more than the decoder's own debounce for that line
    cable      a contact in the phone closes to GND and an LED there is lit from its pin to GND:
               the cable carries them GND alone, and no supply out to what a person handles
    connector  the cable to the phone (the pin map's [cable], on the connector's real two-row
               geometry from parts.toml [connector]): every bell pin at least bell_clear_mm from
               every other wire's pin (so no logic pin is its neighbour in either row), no ground
               wire beside a supply's pin (3V3), and the box's connector, whose pins are live,
               the female one
    (the files themselves are read first: hardware/parts.toml against schematics/parts_schema.py,
    the pin map by controller/pinmap.py; an unknown key, a missing one or a value that isn't a
    usable number is refused there, in one sentence, before a rule divides by it)

Each finding names the line, the pin and the parts involved.
"""

import copy
import functools
import math
import re

from controller.hw.bell import COIL_CEILING_C, STRIKE_DUTY, STRIKE_HZ, STRIKE_HZ_RANGE, coil_figures, ring_steps
from controller.hw.ringer import CADENCES, RING_TIMEOUT_S
from controller.pinmap import BusSpec

# the alternate function each bus role must sit on (gpiozero's names)
BUS_FUNCTIONS = {
    "i2c": {"sda": "I2C{bus} SDA", "scl": "I2C{bus} SCL"},
    "i2s": {"bclk": "PCM CLK", "lrclk": "PCM FS", "din": "PCM DOUT"},
}
RESERVED = {"pi": {"GPIO0": "the HAT ID EEPROM (ID_SD)", "GPIO1": "the HAT ID EEPROM (ID_SC)"}}
# The Pi's pins from power-on until newsdesk claims them: inputs, GPIO0-8 with their pull-ups on
# and GPIO9-27 with their pull-downs (the BCM2835 and BCM2711 datasheets' pad defaults, about
# 50 kOhm); and GPIO14, the UART's TXD, which the firmware and the kernel drive high and send
# boot messages on when the serial console is on (enable_uart=1). The Pico's pins all start as
# inputs pulled down.
BOOT_HIGH = {"pi": {"GPIO%d" % n for n in range(9)}}
BOOT_DRIVEN = {"pi": {"GPIO14": "the UART's TXD"}}
BOOT_READ = {"pi": {"GPIO15": "the UART's RXD"}}
# Pull-ups the board itself fits, which no pin setting takes off: the Pi's 1.8 kΩ on I2C1's pins
# (Raspberry Pi documentation, "GPIO": GPIO2 and GPIO3 have fixed pull-ups to 3.3 V).
FIXED_PULL_UPS = {"pi": {"GPIO2": "1.8 kΩ", "GPIO3": "1.8 kΩ"}}
ISOLATED_LINES = ("ringer",)
# the functions a bus's overlay sets up for itself on the Pi, used or not
OVERLAY_CLAIMS = {"i2s": ("PCM CLK", "PCM FS", "PCM DIN", "PCM DOUT"), "i2c": ("I2C{bus} SDA", "I2C{bus} SCL")}
OVERLAY_NAMES = {"i2s": "the I2S amplifier's overlay (max98357a)", "i2c": "the I2C overlay"}


class Finding:
    __slots__ = ("rule", "severity", "line", "message")

    def __init__(self, rule, severity, line, message):
        self.rule = rule
        self.severity = severity    # "error" or "warning"
        self.line = line
        self.message = message

    def __repr__(self):
        return "<%s %s %s: %s>" % (self.severity, self.rule, self.line, self.message)


class Report:
    def __init__(self, board):
        self.board = board
        self.findings = []
        self.currents = {}          # line -> the most mA it draws from its pin
        self.least_ma = {}          # line -> the least mA it gives its LED (highest forward volts)
        self.bell = {}              # the bell driver's worst-case figures (supply_max, drain_peak...)
        self.total_ma = 0.0
        self.receiver_mv = {}       # audio line -> the loudest its receiver can get, mV rms
        self.filters = {}           # contact line -> its filter's timing (filter_timing)
        self.failsafe = None        # the bell fail-safe's timing (failsafe_timing)

    def add(self, rule, severity, line, message, *args):
        self.findings.append(Finding(rule, severity, line, message % args if args else message))

    @property
    def errors(self):
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self):
        return [f for f in self.findings if f.severity == "warning"]


def _where(circuit, line):
    """'pulse (GPIOn, pin m)': the line, its pins and their header numbers."""
    names = [name for net, (ln, name) in circuit.gpio.items() if ln == line]
    pins = ["%s, pin %s" % (n, circuit.header.pins[n]) if n in circuit.header.pins else n for n in names]
    return "%s (%s)" % (line, "; ".join(pins))


def _joins(circuit, domain):
    """net -> {(neighbour net, part ref)}: what each part joins. For conduction, a part joins
    the pins within each of its groups; for galvanic domains, every pin of a part that isn't
    an isolator, including the board's own pins (they share its ground and supplies)."""
    joins = {}
    for part in circuit.parts:
        if domain and not part.isolating:
            groups = [tuple(part.pins)]
        elif part is circuit.board_part:
            continue
        else:
            groups = part.groups
        for group in groups:
            nets = [part.pins[p] for p in group if p in part.pins]
            for a in nets:
                for b in nets:
                    if a != b:
                        joins.setdefault(a, set()).add((b, part.ref))
    return joins


def _reach(joins, start, stop):
    """Nets reachable from ``start``, not passing through nets in ``stop`` (rails: a rail is
    reached, not crossed). Returns net -> the part refs on the way."""
    seen = {start: ()}
    todo = [start]
    while todo:
        net = todo.pop(0)
        if net in stop and net != start:
            continue
        for other, ref in sorted(joins.get(net, ())):
            if other not in seen:
                seen[other] = seen[net] + (ref,)
                todo.append(other)
    return seen


def _check_series_against_pull(circuit, report, spec):
    """Behind a series resistor the internal pull stays on, and the two divide: the contact
    closed (its node at the rail it closes to, through a worn contact and the filter's pull), the
    pin sits at that node's level plus the series resistor's share of the rest. Against the
    strongest internal pull (the board's pull_min_ohms) that share must leave the pin past the
    input's LOW (or HIGH) threshold, or the contact is never seen to close: a 100 kΩ resistor
    behind a 50 kΩ pull-up reads a closed hook as HIGH. (A contact to 3V3 behind a pull-down is
    taken with a perfect contact: no filter pulls its node.) The resistor is taken at the top of its
    tolerance, so the value the sentence suggests holds for every part of that value."""
    limits = circuit.limits
    if spec.pull == "none" and spec.series_resistor:
        _check_series_against_leakage(circuit, report, spec)
    if spec.pull == "none" or not spec.series_resistor or "pull_min_ohms" not in limits:
        return
    rail = float(limits["logic_v"])
    tol = float(circuit.parts_data.part("resistor").get("tolerance", 0))
    # the series resistor at the top of its tolerance: the share it takes is the most
    pull, series = float(limits["pull_min_ohms"]), float(spec.series_resistor) * (1 + tol)
    contact = float(circuit.parts_data.part("contact").get("ohms_max", 0))
    filt = [p for p in circuit.of(line=spec.name) if p.role == "filter_pull"]
    share = series / (series + pull)
    if spec.pull == "up" and spec.to == "GND":
        node = rail * contact / (contact + float(filt[0].value)) if filt else 0.0
        pin = node + (rail - node) * share
        vil = float(limits.get("vil_max", rail * 0.25))
        if pin >= vil > node:                   # (a node above it already: the filter's rule says so)
            report.add("pull", "error", spec.name,
                       "%s's contact closed, the pin sits at %.2f V: its %s series resistor against the internal "
                       "pull-up (%s at its strongest) holds it over the %g V LOW level, so the contact is never "
                       "seen to close; use a series resistor under %s", _where(circuit, spec.name), pin,
                       bom_ohms(float(spec.series_resistor)), bom_ohms(pull), vil,
                       bom_ohms(_two_figures_down(pull * (vil - node) / (rail - vil) / (1 + tol))))
    elif spec.pull == "down" and spec.to != "GND":
        pin = rail * (1 - share)
        vih = float(limits.get("vih_min", rail * 0.65))
        if pin <= vih:
            report.add("pull", "error", spec.name,
                       "%s's contact closed, the pin sits at %.2f V: its %s series resistor against the internal "
                       "pull-down (%s at its strongest) holds it under the %g V HIGH level, so the contact is never "
                       "seen to close; use a series resistor under %s", _where(circuit, spec.name), pin,
                       bom_ohms(float(spec.series_resistor)), bom_ohms(pull), vih,
                       bom_ohms(_two_figures_down(pull * (rail - vih) / vih / (1 + tol))))


def _check_series_against_leakage(circuit, report, spec):
    """With no internal pull behind the series resistor, nothing holds the pin to its filter node
    but the resistor, and the pin's own input leakage (leak_ua, either way) drops leak x R across
    it: the node at its LOW (a worn contact closed against the filter's pull) plus that must stay
    under the input's LOW level, and the node at the rail less that over its HIGH one. A 100 kΩ
    resistor passed, where a Pi 4's 10 µA reads a closed contact at over 1 V."""
    limits = circuit.limits
    if "leak_ua" not in limits or spec.to != "GND":
        return
    rail, leak = float(limits["logic_v"]), float(limits["leak_ua"]) * 1e-6
    tol = float(circuit.parts_data.part("resistor").get("tolerance", 0))
    series = float(spec.series_resistor) * (1 + tol)
    contact = float(circuit.parts_data.part("contact").get("ohms_max", 0))
    filt = [p for p in circuit.of(line=spec.name) if p.role in ("filter_pull", "pull")]
    node = rail * contact / (contact + float(filt[0].value)) if filt else 0.0
    vil, vih = float(limits.get("vil_max", rail * 0.25)), float(limits.get("vih_min", rail * 0.65))
    drop = leak * series
    if node + drop < vil and rail - drop > vih:
        return
    closed = node + drop >= vil
    most = min((vil - node), (rail - vih)) / leak / (1 + tol)
    report.add("pull", "error", spec.name,
               "%s has no internal pull (pull = \"none\") behind its %s series resistor, so the pin's input leakage, "
               "up to %g µA (leak_ua), drops up to %.2f V across it: %s; use a series resistor under %s, or "
               "pull = \"up\" (the internal pull then holds the pin)", _where(circuit, spec.name),
               bom_ohms(float(spec.series_resistor)), leak * 1e6, drop,
               "a closed contact reads %.2f V, over the %g V LOW level" % (node + drop, vil) if closed else
               "an open contact reads %.2f V, under the %g V HIGH level" % (rail - drop, vih),
               bom_ohms(_two_figures_down(most)))


def _two_figures_down(ohms):
    """``ohms`` rounded down to two significant figures (15,305 to 15,000): a value one can buy."""
    scale = 10 ** max(int(math.floor(math.log10(ohms))) - 1, 0) if ohms >= 10 else 1
    return int(ohms // scale * scale)


def check_pulls(circuit, report):
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) or spec.kind != "input":
            continue
        resistors = [p for p in circuit.of(line=spec.name) if p.role in ("pull", "filter_pull")]
        if spec.pull == "none" and not resistors:
            report.add("pull", "error", spec.name,
                       "%s floats while its contact is open: pull is \"none\" and no pull_resistor "
                       "goes to a rail", _where(circuit, spec.name))
            continue
        if spec.pull != "none" and resistors and not spec.series_resistor:
            # (behind a series resistor the internal pull is deliberate: it keeps the pin defined
            # if the filter's board is missing, and the resistor keeps a closed contact LOW)
            report.add("pull", "warning", spec.name,
                       "%s has both the internal pull-%s and an external %s ohm resistor",
                       _where(circuit, spec.name), spec.pull, resistors[0].value)
        _check_series_against_pull(circuit, report, spec)
        fixed = FIXED_PULL_UPS.get(circuit.board, {}).get(circuit.board_pin(spec.bcm)[0])
        if fixed and (spec.pull == "down" or spec.to == "3V3"):
            report.add("pull", "error", spec.name,
                       "%s has the board's own %s pull-up to 3V3, which no setting takes off: %s; wire its contact "
                       "to GND with pull = \"up\", or move it to a free pin", _where(circuit, spec.name), fixed,
                       "a pull-down can't hold it low" if spec.pull == "down" else
                       "a contact closing to 3V3 never changes it")
            continue
        pulled_to = {"up": "3V3", "down": "GND"}.get(spec.pull) or resistors[0].pins["2"]
        if pulled_to == spec.to:
            report.add("pull", "error", spec.name,
                       "%s is pulled to %s and its contact closes to %s too: it never changes",
                       _where(circuit, spec.name), pulled_to, spec.to)


# The form each of the phone's contacts has at rest (logical 0 in the dial-trace format: pulse 1 = a
# break, offnormal 1 = off rest, hook 1 = lifted): the pulse springs are closed at rest and open on
# each break; the off-normal pair and the hook's pair newsdesk uses close as the dial leaves rest and
# as the handset is lifted (docs/wiring.md, finding them). A button's form is its part's, as
# [part.button]'s words say it ("normally open"); pressed is 1.
PHONE_CONTACTS = {
    "pulse": ("NC", "the dial's pulse springs are closed at rest and open on each pulse (pulse 1 = a break)",
              "the dial at rest would read as a break"),
    "offnormal": ("NO", "the dial's off-normal pair is open at rest and closes while the dial is away from it "
                        "(offnormal 1 = off rest)", "the dial at rest would read as off rest"),
    "hook": ("NO", "the hook switch's pair is open while the handset rests and closes when it is lifted "
                   "(hook 1 = lifted)", "the handset on its rest would read as lifted"),
}
CONTACT_FORMS = {"NO": "normally open", "NC": "normally closed"}


def _contact_form(circuit, spec):
    """(form, why, what goes wrong) of an input's contact as the phone or its part has it; None for
    a button whose part's words name no form."""
    if spec.name in PHONE_CONTACTS:
        return PHONE_CONTACTS[spec.name]
    words = str(circuit.parts_data.part("button").get("description", ""))
    for form, said in CONTACT_FORMS.items():
        if said in words.lower():
            return (form, "its part is %s (parts.toml [part.button]: \"%s\"), %s when pressed (a button's 1 = pressed)"
                    % (said, words, "closed" if form == "NO" else "open"), "the button at rest would read as pressed")
    return None


def check_contact_sense(circuit, report):
    """An input's high_means against its wiring and its contact's form. A closed contact holds the
    pin at the rail it closes to (LOW at GND, HIGH at a supply) and the pull takes it the other way
    while open (check_pulls); the contact's form, open or closed at rest (logical 0), is the phone's
    (PHONE_CONTACTS) or the button part's. The circuit draws the contact NO or NC from high_means and
    that rail (circuit.contact_closed_at_rest), so a high_means against the form redraws the phone's
    own switch and reads it upside down: the handset on its rest as lifted."""
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) or spec.kind != "input":
            continue
        known = _contact_form(circuit, spec)
        contact = next((p for p in circuit.of(line=spec.name) if p.role == "contact"), None)
        if known is None or contact is None or contact.value == known[0]:
            continue
        form, why, wrong = known
        closed_high = spec.to != "GND"
        right = (1 if form == "NO" else 0) if closed_high else (0 if form == "NO" else 1)
        report.add("contact", "error", spec.name,
                   "%s has high_means = %d, which makes its contact %s %s (%s): the schematic and the bill of "
                   "materials draw it so, and %s. But %s; closing to %s, it reads %s closed and %s open, so a HIGH "
                   "means %d: set high_means = %d in [%s.%s]", _where(circuit, spec.name), spec.high_means,
                   contact.ref, CONTACT_FORMS[contact.value], contact.value, wrong, why, spec.to,
                   "HIGH" if closed_high else "LOW", "LOW" if closed_high else "HIGH", right, right, circuit.board,
                   spec.name)


def check_phone_commons(circuit, report):
    """The cable takes the phone's contacts and LEDs one common wire, GND (schematics/cable.py: "the
    common side of every contact and LED"), and no supply for them: a contact in the phone must
    close to GND, and an LED there must be lit from its pin to GND (active_high). One closing to 3V3,
    or an LED hung from 3V3, would need 3V3 on a wire to the phone that the cable doesn't have: built
    by the cable's table, the contact closes to GND and its line never changes, the LED never lights.
    Nor does newsdesk take a supply out to them, series resistor or not: on springs and a frame a
    person handles (a metal frame earthed, on some sets, by the old line cord's ground wire), a
    slipped or frayed wire shorts the Pi's 3V3."""
    if circuit.board != "pi" or circuit.pinmap.cable is None:
        return
    gnd = next((pin for pin, wire in circuit.pinmap.cable["pins"].items() if wire == "GND"), None)
    common = "GND, pin %d" % gnd if gnd else "GND"
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) or not spec.in_phone:
            continue
        if spec.kind == "input" and spec.to != "GND":
            report.add("cable", "error", spec.name,
                       "%s closes its contact to %s, and the cable takes the phone's contacts only GND, their common "
                       "side (%s): wired by the cable's table the contact closes to GND, not %s, and the line never "
                       "changes. newsdesk takes no supply out to the phone's contacts, where a slipped wire on the "
                       "frame a person handles would short the Pi's %s: close it to GND (to = \"GND\" with pull = "
                       "\"up\", high_means to match)", _where(circuit, spec.name), spec.to, common, spec.to, spec.to)
        elif spec.kind == "output" and spec.load == "led" and not spec.active_high:
            led = next(p for p in circuit.of(line=spec.name) if p.role == "led")
            report.add("cable", "error", spec.name,
                       "%s has active_high = false, which hangs its LED %s from %s with its cathode towards the pin; "
                       "but the cable takes the phone's LEDs only GND, their common return (%s), and no %s: wired by "
                       "the cable's table (the pin's wire to %s's anode, its cathode to GND) it never lights. newsdesk "
                       "takes no supply out to the phone's LEDs, where a slipped wire on the frame would short the "
                       "Pi's %s: set active_high = true in [pi.%s] (the LED from its pin to GND), or keep the LED in "
                       "the box", _where(circuit, spec.name), led.ref, led.pins["A"], common, led.pins["A"], led.ref,
                       led.pins["A"], spec.name)


def check_amplifier_sd(circuit, report):
    """The amplifier breakout pulls its SD pin up to its own VIN through 1 MΩ (Adafruit's MAX98357A
    breakout, its guide's pinouts: "a 1 MΩ resistor from SD to Vin", which on a 5 V VIN sets the
    chip's mono mix), so SD named on a GPIO puts VIN on that GPIO whenever the pin isn't driven (from
    power-on until the driver claims it). The circuit joins SD to VIN inside the module, so the
    voltage rule sees it too; this says why, and what to do."""
    logic_v = float(circuit.limits["logic_v"])
    for module in (p for p in circuit.parts if p.kind == "amplifier" and "SD" in p.pins):
        vin = module.pins["VIN"]
        volts = float(circuit.rails.get(vin, 0.0))
        if volts <= logic_v:
            continue
        name, pin = circuit.board_pin(circuit.board_lines[module.line].pins["sd"])
        report.add("voltage", "error", module.line,
                   "%s's SD is on %s (pin %s), and the amplifier breakout pulls SD up to its VIN, here %s, through its "
                   "own 1 MΩ (Adafruit's MAX98357A breakout: a 1 MΩ resistor from SD to Vin): %g V on a %g V pin "
                   "whenever it isn't driven; power the breakout from 3V3 (supply = \"3V3\" in [%s.%s]: it runs from "
                   "2.5 V, less loud) or leave SD unconnected (take sd out of [%s.%s]: the breakout's pull-up keeps "
                   "the amplifier on)", module.line, name, pin, vin, volts, logic_v, circuit.board, module.line,
                   circuit.board, module.line)


def check_pins(circuit, report):
    used = {}
    for _net, (line, name) in circuit.gpio.items():
        if name in used and used[name] != line:
            report.add("pins", "error", line, "%s is used by both %s and %s", name, used[name], line)
        used[name] = line
    for net, members in circuit.nets().items():
        board_pins = [pin for ref, pin in members if ref == circuit.board_part.ref]
        gpio_pins = [p for p in board_pins if circuit.board_part.pins.get(p) in circuit.gpio]
        if len(gpio_pins) > 1:
            report.add("pins", "error", circuit.gpio[net][0], "net %s ties board pins %s together",
                       net, ", ".join(gpio_pins))
    for spec in circuit.board_lines.values():
        if circuit.board == "pico" and isinstance(spec, BusSpec) and spec.kind == "i2s":
            # an RP2040 has no PCM pins to be on or off: its I2S would be a PIO program on any pins,
            # and the phone's firmware has none; "can't be PCM CLK" named the wrong fault
            report.add("pins", "error", spec.name, "%s is I2S audio on the Pico, whose firmware plays no sound: the "
                       "amplifier is the Pi's ([pi.audio]); take it out of the Pico's lines", spec.name)
            continue
        if circuit.board == "pico" and isinstance(spec, BusSpec):
            # the phone's firmware drives its inputs and outputs alone (firmware/pins.py has no
            # buses): a display drawn on the Pico's schematic and bill would stay dark
            report.add("pins", "error", spec.name, "%s is an I2C device on the Pico, whose firmware drives no display "
                       "(its pins are the dial, the hook, the ringer and its LED): the display is the Pi's "
                       "([pi.display]), on the box; take it out of the Pico's lines", spec.name)
            continue
        pins = spec.pins if isinstance(spec, BusSpec) else {"": spec.bcm}
        for role, number in pins.items():
            name, pin = circuit.board_pin(number)
            if name in RESERVED.get(circuit.board, {}):
                # the firmware drives them at every boot to look for a HAT's EEPROM, and the HAT
                # specification keeps them for that alone: a line there is not a choice to warn of
                report.add("pins", "error", spec.name, "%s uses %s, kept for %s: the Pi's firmware clocks it at "
                           "every boot to look for a HAT, and Raspberry Pi's HAT specification keeps it for that "
                           "alone; use another pin", spec.name, name, RESERVED[circuit.board][name])
            if name not in circuit.header.pins and getattr(spec, "load", None) != "board_led":
                report.add("pins", "error", spec.name, "%s is on %s, which reaches no pin of the %s",
                           spec.name, name, circuit.limits["title"])
            if isinstance(spec, BusSpec) and name in circuit.header.functions \
                    and role in BUS_FUNCTIONS[spec.kind]:
                wanted = BUS_FUNCTIONS[spec.kind][role].format(bus=spec.bus if spec.bus is not None else 1)
                if wanted not in circuit.header.functions[name]:
                    # the same role of another bus of this kind on that pin: the bus number is what is off
                    other = sorted(f for f in circuit.header.functions[name]
                                   if spec.kind == "i2c" and re.fullmatch(r"I2C(\d+) %s" % role.upper(), f))
                    report.add("pins", "error", spec.name, "%s's %s is on %s (pin %s), which can't be %s%s",
                               spec.name, role, name, pin, wanted,
                               "; it is %s: set bus = %s in [%s.%s]" % (other[0], other[0][3:].split()[0],
                                                                        circuit.board, spec.name) if other else "")


def check_addresses(circuit, report):
    """A display's I2C address is one its chip answers at (parts.toml [part.display] addresses, from
    its datasheet: an SSD1306's is 0x3C, or 0x3D with its SA0 pin high): at another, the window
    opens a device that never answers."""
    known = circuit.parts_data.part("display").get("addresses")
    if not known:
        return
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) and spec.kind == "i2c" and spec.name == "display" and spec.address not in known:
            report.add("pins", "error", spec.name, "display's address is 0x%02X, and its chip (%s) answers only at %s",
                       spec.address, circuit.parts_data.part("display").get("number", "the display"),
                       " or ".join("0x%02X" % a for a in known))


def check_boot(circuit, report):
    """A line on a pin the board sets before newsdesk does. An output on GPIO14, the UART's TXD,
    is driven with the console's messages through every boot: a toggling line, which passes the
    ringer's fail-safe capacitor (it blocks only a line held high) and lights any LED. The ringer
    on GPIO0-8 gets the pull-up's edge at power-on, and GPIO0-3 are clocked while the firmware
    probes the HAT EEPROM and the I2C bus: errors. An LED on GPIO0-8 gets a pull-up's trickle:
    a warning. An input on GPIO15, the UART's RXD, is read by the console as typed text (a
    pressed button types a character into a login prompt) and the UART holds the pin: an error."""
    board = circuit.board
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec):
            continue
        name, pin = circuit.board_pin(spec.bcm)
        if spec.kind == "input":
            if name in BOOT_DRIVEN.get(board, {}):
                report.add("boot", "error", spec.name,
                           "%s is an input on %s (pin %s), %s: with the serial console on (enable_uart=1) the "
                           "UART drives the pin with the console's messages, so a closed contact shorts its "
                           "output and the line reads the messages, not the contact; move %s to a free pin",
                           spec.name, name, pin, BOOT_DRIVEN[board][name], spec.name)
            elif name in BOOT_READ.get(board, {}):
                report.add("boot", "error", spec.name,
                           "%s is an input on %s (pin %s), %s: with the serial console on (enable_uart=1) the "
                           "kernel reads it as typed text and the UART holds the pin; move %s to a free pin", spec.name, name, pin,
                           BOOT_READ[board][name], spec.name)
            continue
        if spec.kind != "output":
            continue
        ringer = spec.name in ISOLATED_LINES
        load = "optocoupler" if ringer else getattr(spec, "load", None) or "load"
        if name in BOOT_READ.get(board, {}):
            report.add("boot", "error", spec.name,
                       "%s is an output on %s (pin %s), %s: with the serial console on (enable_uart=1) the UART "
                       "holds the pin and the kernel reads what its %s does to it as typed text (held low, a break "
                       "that never ends); move %s to a pin the Pi pulls low at boot (GPIO9-27 but the UART's 14 and "
                       "15)", spec.name, name, pin, BOOT_READ[board][name], load, spec.name)
        elif name in BOOT_DRIVEN.get(board, {}):
            report.add("boot", "error", spec.name,
                       "%s is an output on %s (pin %s), %s: with the serial console on (enable_uart=1) the "
                       "firmware and the kernel toggle it with boot messages, %s; move %s to a pin the Pi "
                       "pulls low at boot (GPIO9-27 but the UART's 14 and 15)", spec.name, name, pin, BOOT_DRIVEN[board][name],
                       "which pass the fail-safe's capacitor and strike the bell" if ringer
                       else "flickering its %s" % load, spec.name)
        elif name in BOOT_HIGH.get(board, ()):
            if ringer:
                report.add("boot", "error", spec.name,
                           "%s is an output on %s (pin %s), which the Pi pulls high at power-on and the firmware "
                           "may clock while it probes the HAT EEPROM and I2C: each edge passes the fail-safe's "
                           "capacitor and can strike the bell; move %s to a pin the Pi pulls low at boot "
                           "(GPIO9-27 but the UART's 14 and 15)", spec.name, name, pin, spec.name)
            else:
                report.add("boot", "warning", spec.name,
                           "%s is an output on %s (pin %s), which the Pi pulls high from power-on until newsdesk "
                           "starts: its %s gets a trickle of current through every boot; GPIO9-27 are pulled low",
                           spec.name, name, pin, load)


def check_overlays(circuit, report):
    """A line on a pin that a bus's overlay has taken: the kernel holds that pin, so an LED there
    never lights (or the audio breaks)."""
    claimed = {}
    for spec in circuit.board_lines.values():
        if not isinstance(spec, BusSpec) or circuit.board != "pi":
            continue
        wanted = {f.format(bus=spec.bus if spec.bus is not None else 1) for f in OVERLAY_CLAIMS.get(spec.kind, ())}
        for name, functions in circuit.header.functions.items():
            if functions & wanted:
                claimed[name] = spec
        if "sd" in spec.pins:
            claimed[circuit.board_pin(spec.pins["sd"])[0]] = spec
    for spec in circuit.board_lines.values():
        pins = spec.pins if isinstance(spec, BusSpec) else {"": spec.bcm}
        for number in pins.values():
            name, pin = circuit.board_pin(number)
            owner = claimed.get(name)
            if owner is not None and owner is not spec:
                report.add("pins", "error", spec.name,
                           "%s is on %s (pin %s), which %s claims for %s: move %s to a free pin",
                           spec.name, name, pin, OVERLAY_NAMES[owner.kind], owner.name, spec.name)


def _ctr_worst(opto):
    """The least current transfer ratio to design on, at the datasheet's 5 mA: its minimum there,
    derated for heat and the LED's ageing (its fall at smaller currents is ctr_share's)."""
    return float(opto["ctr_min"]) * float(opto.get("ctr_derate", 1.0))


def ctr_curve(opto):
    """The optocoupler's [(LED mA, share of its CTR at 5 mA)], or a flat [(5, 1)] without one."""
    return [(float(ma), float(share)) for ma, share in opto.get("ctr_curve") or [[5.0, 1.0]]]


def ctr_share(opto, ma):
    """The CTR at an LED current of ``ma`` as a share of its value at 5 mA: the datasheet's curve
    (ctr_curve), between its points on a log scale of current, flat beyond its ends."""
    curve = ctr_curve(opto)
    if ma <= curve[0][0]:
        return curve[0][1]
    for (m0, s0), (m1, s1) in zip(curve, curve[1:]):
        if ma <= m1:
            return s0 + (s1 - s0) * math.log(ma / m0) / math.log(m1 / m0)
    return curve[-1][1]


def led_ma_for(opto, ctr, out_ma):
    """The LED current, mA, at which the optocoupler passes ``out_ma`` with ``ctr`` at 5 mA times
    the curve's share: the output rises with the LED's current (the schema holds the curve to
    that), so a bisection on a log scale finds it."""
    lo, hi = 1e-6, 1e3
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if ctr * ctr_share(opto, mid) * mid < out_ma:
            lo = mid
        else:
            hi = mid
    return hi


GATE_MARGIN = 1.2           # newsdesk's margin on the gate through a strike: vgs_on (the voltage the MOSFET's
                            # datasheet gives its low on-resistance at) times this, for what the corners don't
                            # hold (the LED's ageing beyond ctr_derate, a reading of the CTR curve off its graph)


def _opto_ma_needed(circuit):
    """The least LED current that turns the bell's MOSFET on: the gate resistor must see the
    MOSFET's vgs_on with GATE_MARGIN, fed by the optocoupler at its worst current transfer ratio,
    at the share of it the curve gives at that current."""
    opto, fet = circuit.parts_data.part("optocoupler"), circuit.parts_data.part("mosfet")
    bell = circuit.parts_data.bell
    if not ("ctr_min" in opto and "vgs_on" in fet):
        return None
    return led_ma_for(opto, _ctr_worst(opto), GATE_MARGIN * float(fet["vgs_on"]) / float(bell["gate_pulldown"]) * 1000.0)


def _vf_max(circuit, report, spec):
    """The highest forward voltage the line's LED can have, for its least current: the larger of
    the pin map's vf and what parts.toml gives for the part (an LED's by its colour). Picking a
    colour is picking a forward voltage: a blue or white LED needs about 3 V and more, which a
    3.3 V pin through a resistor may not light."""
    if spec.load == "optocoupler":
        table = circuit.parts_data.part("optocoupler").get("vf_max")
        if table is not None and spec.vf > float(table):
            # as for an LED: the pin map's vf is the lowest, the pin's highest current's
            report.add("current", "error", spec.name,
                       "%s's vf is %g V, above the %g V its optocoupler's LED has at most (parts.toml "
                       "[part.optocoupler] vf_max): the pin map's vf is the LED's lowest, which the pin's highest "
                       "current is worked out from, so that current is understated; give the lowest forward voltage "
                       "from the optocoupler's datasheet", _where(circuit, spec.name), spec.vf, float(table))
    else:
        by_colour = circuit.parts_data.part("led").get("vf_max", {})
        table = by_colour.get((spec.colour or "").lower())
        if table is None:
            # the pin map's vf is the lowest: without the highest, how little the LED may get is unknown,
            # and a UV, blue or white LED (3 V and more) may get next to nothing from a 3.3 V pin
            report.add("current", "error", spec.name,
                       "%s's LED colour %r has no highest forward voltage in parts.toml [part.led] vf_max, so how "
                       "little current it may get can't be worked out (a UV, blue or white LED needs 3 V and more, "
                       "which a %g V pin may not light at all): add the colour's vf_max from the LED's datasheet, or "
                       "use a listed colour (%s)", _where(circuit, spec.name), spec.colour,
                       float(circuit.limits["logic_v"]), ", ".join(sorted(by_colour)))
        elif spec.vf > float(table):
            # the pin map's vf is the lowest, the one the pin's highest current is worked out from:
            # above the colour's highest, that current is understated
            report.add("current", "error", spec.name,
                       "%s's vf is %g V, above the %g V a %s LED has at most (parts.toml [part.led] vf_max): the "
                       "pin map's vf is the LED's lowest, which the pin's highest current is worked out from, so "
                       "that current is understated; give the lowest forward voltage from the LED's datasheet",
                       _where(circuit, spec.name), spec.vf, float(table), spec.colour)
    return max(spec.vf, float(table)) if table is not None else spec.vf


def _vf_least(circuit, report, spec):
    """The lowest forward voltage the line's LED can have, for the pin's highest current: the pin
    map's vf, held to its floor (parts.toml: an LED's colour's [part.led] vf_min, an optocoupler's
    [part.optocoupler] vf_min). A vf said above the floor
    understates that current, so it is an error, and the current is worked out from the floor."""
    if spec.load == "led":
        floor = circuit.parts_data.part("led").get("vf_min", {}).get((spec.colour or "").lower())
        whose, where = "a %s LED" % spec.colour, "[part.led] vf_min"
    elif spec.load == "optocoupler":
        floor = circuit.parts_data.part("optocoupler").get("vf_min")
        whose, where = "its optocoupler's LED", "[part.optocoupler] vf_min"
    else:
        return spec.vf
    if floor is None or spec.vf <= float(floor):
        return spec.vf
    report.add("current", "error", spec.name,
               "%s's vf is %g V, above the %g V %s may drop at a few mA (parts.toml %s): the pin map's vf is the "
               "LED's lowest, which the pin's highest current is worked out from, so that current is understated "
               "(%.1f mA at %g V); give %g V or less", _where(circuit, spec.name), spec.vf, float(floor), whose, where,
               max(0.0, float(circuit.limits["logic_v"]) - float(floor)) / spec.resistor * 1000.0, float(floor),
               float(floor))
    return float(floor)


def check_currents(circuit, report):
    limits = circuit.limits
    logic_v = float(limits["logic_v"])
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) or spec.kind != "output":
            continue
        if spec.load is None:
            report.add("current", "warning", spec.name,
                       "%s has no load described (load, vf, resistor): its current isn't checked",
                       _where(circuit, spec.name))
            continue
        if spec.load == "board_led":
            ma = float(limits.get("board_led_ma", limits["drive_ma"]))
        else:
            vf = _vf_least(circuit, report, spec)
            ma = max(0.0, logic_v - vf) / spec.resistor * 1000.0
            vf_max = _vf_max(circuit, report, spec)
            report.least_ma[spec.name] = max(0.0, logic_v - vf_max) / spec.resistor * 1000.0
            _check_enough(circuit, report, spec, vf_max, logic_v)
        report.currents[spec.name] = ma
        if spec.load == "board_led" and ma > limits["pin_ma"]:
            report.add("current", "error", spec.name,
                       "%s, the board's own LED, is budgeted %g mA (board_led_ma in parts.toml [board.%s]): over "
                       "the %s mA a pin may give; its resistor is on the board and gives a few mA: take 4",
                       _where(circuit, spec.name), ma, circuit.board, limits["pin_ma"])
        elif spec.load == "board_led":
            pass
        elif ma > limits["pin_ma"]:
            report.add("current", "error", spec.name,
                       "%s draws %.1f mA through its %s ohm resistor: over the %s mA a pin may give; "
                       "use at least %d ohms", _where(circuit, spec.name), ma, spec.resistor,
                       limits["pin_ma"], _ohms_for(logic_v - vf, limits["drive_ma"]))
        elif ma > limits["drive_ma"]:
            report.add("current", "warning", spec.name,
                       "%s draws %.1f mA: above the pin's default %s mA drive its level sags; "
                       "%d ohms or more keeps it within", _where(circuit, spec.name), ma,
                       limits["drive_ma"], _ohms_for(logic_v - vf, limits["drive_ma"]))
    report.total_ma = sum(report.currents.values())
    if report.total_ma > limits["total_ma"]:
        report.add("current", "error", None, "the outputs draw %.1f mA together: over the %s's %s mA total (%s)",
                   report.total_ma, limits["title"], limits["total_ma"],
                   ", ".join("%s %.1f" % kv for kv in sorted(report.currents.items())))


def _check_enough(circuit, report, spec, vf_max, logic_v):
    """The least current, at the highest forward voltage, against what the load needs."""
    if spec.load == "led":
        least = float(circuit.parts_data.part("led").get("min_ma", 0))
        what = "its LED is hardly lit"
    else:
        least = _opto_ma_needed(circuit) or 0.0
        opto = circuit.parts_data.part("optocoupler")
        what = ("the optocoupler, at its worst transfer ratio of %g %% (at 5 mA, less at smaller currents: "
                "ctr_curve), can't pull the MOSFET's gate to %g V (its vgs_on with newsdesk's %.0f %% margin) "
                "through %s ohms" % (_ctr_worst(opto) * 100,
                                     GATE_MARGIN * float(circuit.parts_data.part("mosfet").get("vgs_on", 0)),
                                     (GATE_MARGIN - 1) * 100, circuit.parts_data.bell["gate_pulldown"]))
    ma = report.least_ma[spec.name]
    if ma >= least:
        return
    if vf_max >= logic_v:
        report.add("current", "error", spec.name,
                   "%s may give no current at all: its %s LED's forward voltage reaches %g V, not under "
                   "the %g V the pin gives; %s (a red, amber, yellow or green LED lights from 3.3 V, "
                   "or drive this one through a transistor from 5 V)", _where(circuit, spec.name),
                   spec.colour or "", vf_max, logic_v, what)
        return
    fix = int((logic_v - vf_max) * 1000 / least + 1e-6)
    if spec.load == "optocoupler" and (fix <= 0 or (logic_v - spec.vf) / fix * 1000 > float(circuit.limits["pin_ma"])):
        # the resistor that would give it overloads the pin: the cause is beyond the pin
        report.add("current", "error", spec.name,
                   "%s gives as little as %.2f mA through its %s ohm resistor (at a forward voltage of %g V), "
                   "under the %.1f mA it needs: %s; no resistor the pin can drive gives it (%d ohms would draw "
                   "%.1f mA, over its %s mA): %s", _where(circuit, spec.name), ma, spec.resistor, vf_max, least,
                   what, fix, (logic_v - spec.vf) / max(fix, 1) * 1000, circuit.limits["pin_ma"],
                   _short_drive(circuit))
        return
    report.add("current", "error", spec.name,
               "%s gives as little as %.2f mA through its %s ohm resistor (at a forward voltage of %g V), "
               "under the %.1f mA it needs: %s; use at most %d ohms", _where(circuit, spec.name), ma,
               spec.resistor, vf_max, least, what, fix)


def _what_if(circuit, pulldown=None, ctr_min=None, series=None):
    """``circuit`` as it would be with another gate pull-down, optocoupler's least CTR or ringer's
    series resistor: a shallow copy, its parts' figures changed, for the rules' own functions to
    work out."""
    parts = copy.copy(circuit.parts_data)
    if pulldown is not None:
        parts.bell = {**parts.bell, "gate_pulldown": pulldown}
    if ctr_min is not None:
        parts.catalogue = {**parts.catalogue, "optocoupler": {**parts.catalogue["optocoupler"], "ctr_min": ctr_min}}
    other = copy.copy(circuit)
    other.parts_data = parts
    if series is not None:
        other.parts = []
        for part in circuit.parts:
            if part.role == "series" and part.kind == "resistor" and part.line in ISOLATED_LINES:
                part = copy.copy(part)
                part.value = series
            other.parts.append(part)
    return other


def _series_fix(circuit, spec):
    """(least, most) ringer's resistor, ohms, rounded inward to two figures, between the least the
    pin's default drive allows (at the LED's lowest forward voltage) and the one fitted, that holds
    the gate on through a strike and lets a held line go in time; None if none does. (With the
    fail-safe, a smaller resistor starts a strike with more current but shortens the time constant:
    the strike's drive is longest at one resistor, so the range is walked, not halved.)"""
    logic_v = float(circuit.limits["logic_v"])
    least_r = (logic_v - float(spec.vf)) / float(circuit.limits["drive_ma"]) * 1000.0
    fitted = float(spec.resistor)
    vf_max = max(float(spec.vf), float(circuit.parts_data.part("optocoupler").get("vf_max", spec.vf)))

    def holds(ohms):
        other = _what_if(circuit, series=ohms)
        return _drive_holds(other, max(0.0, logic_v - vf_max) / ohms * 1000.0) and _lets_go(other)
    if least_r >= fitted:
        return None
    steps = 24
    grid = [least_r * (fitted / least_r) ** (k / steps) for k in range(steps + 1)]
    held = [r for r in grid if holds(r)]
    if not held:
        return None
    low, high = max(held), next((r for r in grid if r > max(held)), fitted)
    for _ in range(16):
        mid = math.sqrt(low * high)
        low, high = (mid, high) if holds(mid) else (low, mid)
    most = _two_figures_down(low)
    low, high = next((r for r in reversed(grid) if r < min(held)), None), min(held)
    for _ in range(16 if low is not None else 0):
        mid = math.sqrt(low * high)
        low, high = (low, mid) if holds(mid) else (mid, high)
    least = _two_figures_up(high)
    return (least, most) if least <= most and holds(least) and holds(most) else None


def _drive_holds(circuit, least_ma):
    """The optocoupler, its LED given at least ``least_ma`` by the pin, holds the MOSFET's gate at
    vgs_on with GATE_MARGIN, and (with the fail-safe) through a strike at the default rate."""
    need = _opto_ma_needed(circuit)
    if need is None or least_ma < need:
        return False
    timing = failsafe_timing(circuit, release=False)
    return timing is None or timing["full"] >= timing["strike_on"]


def _lets_go(circuit):
    timing = failsafe_timing(circuit)
    return timing is None or timing["off"] <= timing["limit"]


def _edge(holds, low, high, rising):
    """The least value in [low, high] where ``holds`` (true from there up, ``rising``), or the most
    (true from there down); None if it holds nowhere there. On a log scale."""
    if not holds(high if rising else low):
        return None
    if holds(low if rising else high):
        return low if rising else high
    for _ in range(36):          # a span of 1e5 narrowed to a part in 1e9
        mid = math.sqrt(low * high)
        if holds(mid) == rising:
            high = mid
        else:
            low = mid
    return high if rising else low


def _two_figures_up(value):
    """``value`` rounded up to two significant figures (47,315 to 48,000)."""
    scale = 10 ** (math.floor(math.log10(value)) - 1)
    return math.ceil(value / scale - 1e-9) * scale


PULLDOWN_SPAN = (100.0, 10e6)   # ohms: where the search for a gate pull-down looks


def _pulldown_range(circuit, least_ma):
    """(least, most) gate pull-down, ohms, rounded inward to two figures, with which this optocoupler
    from this pin holds the gate on through a strike and a held line still lets go in time; None if
    none does."""
    low = _edge(lambda r: _drive_holds(_what_if(circuit, pulldown=r), least_ma), *PULLDOWN_SPAN, rising=True)
    if low is None:
        return None
    high = _edge(lambda r: _lets_go(_what_if(circuit, pulldown=r)), *PULLDOWN_SPAN, rising=False)
    low, high = _two_figures_up(low), _two_figures_down(high) if high is not None else None
    return None if high is None or low > high else (low, high)


def _ctr_needed(circuit, least_ma):
    """The least CTR at 5 mA (ctr_min, before ctr_derate) with which the optocoupler, from this pin,
    holds the gate on through a strike with this gate pull-down, rounded up to a whole percent; None
    if even its most (ctr_max: no part's least is above it) doesn't."""
    most = float(circuit.parts_data.part("optocoupler")["ctr_max"])
    ctr = _edge(lambda c: _drive_holds(_what_if(circuit, ctr_min=c), least_ma), most / 1e4, most, rising=True)
    if ctr is None:
        return None
    ctr = math.ceil(ctr * 100 - 1e-9) / 100
    return ctr if ctr <= most else None


def _short_drive(circuit):
    """What to change when the optocoupler, from the least LED current its pin gives, can't hold the
    MOSFET's gate on through a strike, in words: the cause, not a part whose change can't help. The
    ringer's resistor when a value within the pin's default drive holds; else the gate pull-down when
    no optocoupler of this kind drives it (its current at the gate's voltage steals the drive: a
    range of pull-downs then does); the optocoupler's CTR when one of a higher least CTR does (with
    the pull-downs that would do for this one, if any); else the bleed resistor, taking it all."""
    parts = circuit.parts_data
    opto, fet = parts.part("optocoupler"), parts.part("mosfet")
    pulldown = float(parts.bell["gate_pulldown"])
    gate_v = GATE_MARGIN * float(fet["vgs_on"])
    spec = next(circuit.board_lines[p.line] for p in circuit.parts if p.role == "isolator")
    # the least the pin gives the LED, at its highest forward voltage (as check_currents works it out)
    least_ma = max(0.0, float(circuit.limits["logic_v"]) - max(float(spec.vf), float(opto.get("vf_max", spec.vf)))) \
        / float(spec.resistor) * 1000.0
    series = _series_fix(circuit, spec)
    if series is not None:
        return ("the %s resistor is why: it gives the LED too little; use %s to %s (the pin map's resistor: within "
                "the pin's %s mA default drive, the range that holds the gate on through a strike and lets a held "
                "line go in time)" % (bom_ohms(float(spec.resistor)), bom_ohms(series[0]), bom_ohms(series[1]),
                                      circuit.limits["drive_ma"]))
    span = _pulldown_range(circuit, least_ma)
    ctr = _ctr_needed(circuit, least_ma)
    span_words = ("a gate pull-down of %s to %s (gate_pulldown: where the optocoupler's datasheet figures hold the "
                  "gate on through a strike and let a held line go in time)" % (bom_ohms(span[0]), bom_ohms(span[1]))
                  if span else "")
    if ctr is None and span:
        return ("the %s gate pull-down is why: it takes %.1f mA at %.1f V, more than the optocoupler passes from this "
                "pin's LED current at any least CTR up to its most (%g %%); restore %s" % (
                    bom_ohms(pulldown), gate_v / pulldown * 1000, gate_v, float(opto["ctr_max"]) * 100, span_words))
    if ctr is not None:
        return ("the optocoupler's CTR is why: at its least, %g %% at 5 mA (ctr_min), %g %% derated (ctr_derate), it "
                "passes too little of its LED's current to hold the gate across the %s pull-down; use one whose least "
                "CTR is at least %g %% at 5 mA (ctr_min)%s" % (
                    float(opto["ctr_min"]) * 100, _ctr_worst(opto) * 100, bom_ohms(pulldown), ctr * 100,
                    ", or with this one " + span_words if span else ""))
    timing = failsafe_timing(circuit, release=False)
    if timing is not None and timing["need_ma"] - _opto_ma_needed(circuit) >= timing["start_ma"]:
        bleed = [p for p in circuit.of(line=timing["line"]) if p.role == "bleed"]
        return ("the %s bleed resistor is why: across the LED it takes %.2f mA, more than the %.2f mA a strike starts "
                "with; use a larger one (bleed_ohms)" % (bom_ohms(float(bleed[0].value)) if bleed else "",
                                                         timing["need_ma"] - _opto_ma_needed(circuit),
                                                         timing["start_ma"]))
    return ("no gate pull-down or optocoupler of this kind holds the gate from so little: give the LED more current "
            "(a smaller series resistor in the pin map, within the pin's drive)")


def _ohms_for(volts, ma):
    return int(-(-volts * 1000 // ma)) if volts > 0 else 0


def check_voltages(circuit, report):
    joins = _joins(circuit, domain=False)
    logic_v = float(circuit.limits["logic_v"])
    for net, (line, name) in circuit.gpio.items():
        reached = _reach(joins, net, set(circuit.rails))
        for rail, volts in sorted(circuit.rails.items()):
            if rail in reached and volts > logic_v:
                report.add("voltage", "error", line,
                           "%s reaches %s (%g V) through %s: nothing above %g V may reach a GPIO",
                           name, rail, volts, ", ".join(_describe(circuit, r) for r in reached[rail]), logic_v)


def check_isolation(circuit, report):
    lines = circuit.board_lines
    for name in ISOLATED_LINES:
        spec = lines.get(name)
        if spec is not None and getattr(spec, "load", None) != "optocoupler":
            report.add("isolation", "error", name,
                       "%s must drive an isolator (load = \"optocoupler\"), not %s: the bell's side "
                       "may carry ring voltage", _where(circuit, name), spec.load or "nothing described")
    if not circuit.isolated:
        return
    joins = _joins(circuit, domain=True)
    for net, (line, _pin) in circuit.gpio.items():
        reached = _reach(joins, net, set())
        shared = sorted(n for n in circuit.isolated if n in reached)
        if shared:
            report.add("isolation", "error", line,
                       "%s shares a conductor with the bell driver's %s through %s: the bell's side "
                       "must have its own supply and ground, joined to the board only by the optocoupler",
                       _where(circuit, line), shared[0],
                       ", ".join(_describe(circuit, r) for r in reached[shared[0]]))
            return


def supply_max(parts):
    """The most the bell supply can read. A regulated adapter stays within its tolerance of its
    rating at any load; an unregulated one only comes down to its rating at full load, and the
    solenoid, pulsed, is hardly a load: take it unloaded (a "12 V" one reads 14-16 V)."""
    bell = parts.bell
    supply = float(bell["supply_v"])
    if bell.get("regulated", False):
        return supply * (1 + float(bell.get("supply_tol", 0)))
    return supply * float(parts.part("supply12").get("unloaded_ratio", 1))


def _supply_words(parts):
    bell = parts.bell
    return "%g V %s" % (float(bell["supply_v"]), "regulated" if bell.get("regulated", False) else "unregulated, unloaded")


def strike_duty():
    """The most of its time the software keeps the coil on through a ring cycle, over every
    cadence it knows: the strikes' on-time within each ring, times the rings' share of the
    cycle. (bell_strike_hz = 0 holds the coil on through each ring: for other drivers, not this
    one, and the docs say so.)"""
    def duty(cadence):
        steps = ring_steps(cadence)
        return sum(s for on, s in steps if on) / sum(s for _, s in steps)
    return max(duty(c) for c in CADENCES.values())


def check_bell(circuit, report):
    """What the bell supply does to the parts on its side, at its highest. With the optocoupler
    on, its output puts (nearly) the whole supply on the MOSFET's gate, unless a zener clamps it;
    the coil takes the supply for each strike; and at each turn-off the coil's current, flowing
    on through the flyback diode and any resistor in series with it, lifts the drain above the
    supply."""
    drivers = [p for p in circuit.parts if p.role == "isolator"]
    if not drivers:
        return
    line = drivers[0].line
    parts = circuit.parts_data
    bell = parts.bell
    opto, fet = parts.part("optocoupler"), parts.part("mosfet")
    top = supply_max(parts)
    report.bell["supply_max"] = top
    zener = float(bell.get("gate_zener_v") or 0)
    ztol = float(parts.part("zener").get("tolerance", 0)) if zener else 0.0
    z_hi, z_lo = zener * (1 + ztol), zener * (1 - ztol)
    if "vceo_max" in opto and top > float(opto["vceo_max"]):
        report.add("bell", "error", line,
                   "the bell supply reaches %.1f V (%s): over the %g V the optocoupler's output (%s) may "
                   "stand off", top, _supply_words(parts), float(opto["vceo_max"]), opto["number"])
    if not zener and not bell.get("regulated", False):
        report.add("bell", "error", line,
                   "the bell supply is not regulated and no zener guards the MOSFET's gate: an "
                   "unregulated adapter reads well above its rating at light load; use a regulated "
                   "one (regulated = true) or fit the zener (gate_zener_v)")
    led_ma = report.currents.get(line)
    if zener and led_ma and "ctr_max" in opto and "pc_max_mw" in opto:
        # with the gate clamped, the optocoupler's output drops the rest of the supply at up to
        # its highest transfer ratio's current
        mw = (top - z_lo) * led_ma * float(opto["ctr_max"])
        if mw > float(opto["pc_max_mw"]):
            report.add("bell", "error", line,
                       "with the gate clamped at %.1f V, the optocoupler's output may dissipate %.0f mW from "
                       "the bell supply at %.1f V: over its %g mW; keep the bell supply at 12 V, regulated",
                       z_lo, mw, top, float(opto["pc_max_mw"]))
    if "vgs_max" in fet:
        limit = float(fet["vgs_max"])
        if zener and z_hi > limit:
            report.add("bell", "error", line,
                       "the %g V zener lets the MOSFET's gate reach %.1f V (its %g %% tolerance): over the "
                       "gate's %g V limit (%s); fit a 10 V zener (1N4740A)", zener, z_hi, ztol * 100,
                       limit, fet["number"])
        elif not zener and top > limit:
            report.add("bell", "error", line,
                       "the MOSFET's gate sees up to %g V from the bell supply (%s): over its %g V limit "
                       "(%s); fit a zener of about 10 V from gate to source (gate_zener_v)",
                       round(top, 1), _supply_words(parts), limit, fet["number"])
    if zener and "vgs_on" in fet and z_lo < float(fet["vgs_on"]):
        report.add("bell", "error", line,
                   "the %g V zener holds the MOSFET's gate under the %g V it needs to be fully on",
                   zener, float(fet["vgs_on"]))
    _check_fully_on(report, line, fet)
    diode = parts.part("diode")
    if "if_a" in diode and coil_amps(parts)[2] > float(diode["if_a"]):
        report.add("bell", "error", line,
                   "the flyback diode (%s) is rated %g A (if_a) and carries the coil's whole current at each "
                   "turn-off, up to %.2f A: it fails, and the MOSFET then takes the coil's kick; use a rectifier "
                   "rated for it (a 1N4007 up to 1 A, a 1N5408 up to 3 A)", diode["number"], float(diode["if_a"]),
                   coil_amps(parts)[2])
    _check_solenoid(circuit, report, line, top)
    _check_fuse(circuit, report, line)
    _check_drain(circuit, report, line, top)
    _check_cutoff(circuit, report, line)
    _check_fet_cutoff(circuit, report, line)


VGS_ON_OVER_TH = 1.5        # the least a MOSFET's vgs_on may be over its highest threshold: a datasheet gives the
                            # low on-resistance at 1.7-2.5 times vgs_th_max (the IRLZ44N's 5 V for 2 V, an AO3400's
                            # 2.5 V for 1.45 V, a standard IRF540N's 10 V for 4 V); nearer the threshold it is half on


def _check_fully_on(report, line, fet):
    """The MOSFET's vgs_on, the gate voltage the rules drive it to (with GATE_MARGIN), against its
    threshold: a part whose threshold reaches vgs_th_max only starts to conduct there, and is fully
    on well above it. A standard MOSFET (a 2-4 V threshold, its on-resistance given at 10 V) with a
    logic-level part's 5 V vgs_on passed: driven at 6 V it may sit half on, taking the coil's heat."""
    if not ("vgs_on" in fet and "vgs_th_max" in fet):
        return
    on, th = float(fet["vgs_on"]), float(fet["vgs_th_max"])
    if on < VGS_ON_OVER_TH * th:
        report.add("bell", "error", line,
                   "the MOSFET (%s) may need up to %g V on its gate only to start conducting (vgs_th_max), and its "
                   "vgs_on, the gate voltage its rds_on is given at and the rules drive it to, is %g V, under %g times "
                   "that threshold, where no datasheet gives a MOSFET fully on (they give rds_on at 1.7-2.5 times the "
                   "highest threshold): at the gate's %.1f V it may sit half on and take the coil's heat; "
                   "use a logic-level MOSFET (the IRLZ44N: a 1-2 V threshold, its rds_on at 5 V), or give vgs_on and "
                   "rds_on as its datasheet does (at least %g V)", fet.get("number", "the MOSFET"), th, on,
                   VGS_ON_OVER_TH, GATE_MARGIN * on, VGS_ON_OVER_TH * th)


def _check_solenoid(circuit, report, line, top):
    """The coil at the supply's highest: within its rated voltage (held on, by a stuck line or a
    held ring, that is all that limits its heat), and the strikes' share of time on, scaled by
    the power the supply puts in over the rated (volts squared), within its duty rating."""
    parts = circuit.parts_data
    sol = parts.part("solenoid")
    if "rated_v" not in sol:
        return
    rated = float(sol["rated_v"])
    ceiling = rated * (1 + float(sol.get("over_v", 0)))
    _check_pull_in(circuit, report, line, top)
    _check_adapter(circuit, report, line)
    if top > ceiling:
        report.add("bell", "error", line,
                   "the bell supply reaches %.1f V (%s) on a %g V solenoid (%s): over the %.1f V its coil "
                   "may take; held on it overheats. Use a regulated adapter of the coil's voltage, or a "
                   "coil rated for the supply (rated_v)", top, _supply_words(parts), rated, sol["number"], ceiling)
    if "duty_max" in sol:
        duty = strike_duty()
        heat = duty * (top / rated) ** 2
        report.bell["coil_duty"] = heat
        if heat > float(sol["duty_max"]):
            report.add("bell", "error", line,
                       "the strikes keep the solenoid on %.0f %% of each ring cycle, and at %.1f V it heats as "
                       "much as %.0f %% on at its rated %g V: over the %.0f %% it is rated for (duty_max)",
                       duty * 100, top, heat * 100, rated, float(sol["duty_max"]) * 100)


def supply_min(parts):
    """The least the bell supply gives under the coil: a regulated adapter at the bottom of its
    tolerance; an unregulated one at its rating (it comes down to it at full load)."""
    bell = parts.bell
    supply = float(bell["supply_v"])
    return supply * (1 - float(bell.get("supply_tol", 0))) if bell.get("regulated", False) else supply


def coil_amps(parts):
    """(the least current the coil gets: the supply's lowest into its hottest resistance and the
    switching MOSFET's on-resistance in series; the current that pulls its plunger in:
    pull_in_fraction of its rated current; its highest: the supply's highest into its coldest
    resistance), amperes. (A small-signal MOSFET's few ohms take a fifth of a 20 ohm coil's
    current; a power MOSFET's hundredths, nothing.)"""
    sol = parts.part("solenoid")
    ohms, tol = float(sol["coil_ohms"]), float(sol["coil_ohms_tol"])
    least = supply_min(parts) / (ohms * (1 + tol) + float(parts.part("mosfet").get("rds_on", 0)))
    pull_in = float(sol["pull_in_fraction"]) * float(sol["rated_v"]) / ohms
    return least, pull_in, supply_max(parts) / (ohms * (1 - tol))


def _check_pull_in(circuit, report, line, top):
    """The coil on the bell supply at its weakest: the supply at its lowest, the winding warm (its
    resistance at the top of its tolerance) must still give the current that pulls the plunger
    in, or the bell never rings. A coil rated above the supply is named as such: its current at
    the supply is a fraction of the one it was wound for."""
    parts = circuit.parts_data
    sol = parts.part("solenoid")
    least, pull_in, _ = coil_amps(parts)
    rated, supply = float(sol["rated_v"]), float(parts.bell["supply_v"])
    if rated > top:
        report.add("bell", "error", line,
                   "the solenoid (%s) is rated %g V, above the %g V bell supply (%.1f V at most): it gets as little "
                   "as %.2f A of the %.2f A that pulls its plunger in, so the bell may never ring; use a %g V "
                   "supply (supply_v) or a %g V coil (rated_v, coil_ohms)", sol["number"], rated, supply, top,
                   least, pull_in, rated, supply)
    elif least < pull_in:
        fet = parts.part("mosfet")
        report.add("bell", "error", line,
                   "the %g V bell supply (%.1f V at its lowest) gives the solenoid (%s, %g ohms +%.0f %%, through "
                   "the MOSFET's %g ohms) as little as %.2f A: under the %.2f A that pulls its plunger in (%.0f %% "
                   "of its rated %.2f A), so the bell may not ring; use a supply of the coil's %g V, regulated "
                   "(supply_v), a coil of lower resistance (coil_ohms) or a power MOSFET (rds_on)", supply,
                   supply_min(parts), sol["number"], float(sol["coil_ohms"]), float(sol["coil_ohms_tol"]) * 100,
                   float(fet.get("rds_on", 0)), least, pull_in, float(sol["pull_in_fraction"]) * 100,
                   rated / float(sol["coil_ohms"]), rated)


def _check_adapter(circuit, report, line):
    """The adapter's rated current (supply_a, from its label) against the coil's highest: a
    smaller adapter sags or shuts down at each strike, and one that is only just big enough runs
    hot through every ring."""
    parts = circuit.parts_data
    _, _, most = coil_amps(parts)
    report.bell["coil_a_most"] = most
    amps = float(parts.bell["supply_a"])
    if amps < most:
        report.add("bell", "error", line,
                   "the bell's adapter is rated %g A (supply_a) and the solenoid draws up to %.2f A (%.1f V into "
                   "its coldest %.1f ohms): it sags or shuts down at each strike; use an adapter rated at least "
                   "%.1f A", amps, most, supply_max(parts), supply_max(parts) / most, math.ceil(most * 2) / 2)


FUSE_RATIO = (1.5, 2.5)     # a slow-blow fuse at this many times the coil's rated current: above
                            # its pulses (and the supply's tolerance), low enough to blow on a short
ADAPTER_SHORT = 1.5         # the most a wall adapter gives into a short, times its rated current (its
                            # current limit): a fuse rated above that never sees enough to blow
FUSE_OPENS = 2.1            # times its rating a slow-blow (T) 5 x 20 mm fuse carries before it must open
                            # within 2 minutes (IEC 60127-2, sheet III); at 1.5 times it holds for an hour and more


def _check_fuse(circuit, report, line):
    """The slow-blow fuse in the bell supply's + lead: fitted, and rated between FUSE_RATIO times
    the coil's current at its rated voltage. It protects the cable and the driver from a short
    in the phone; too small, it blows on strikes, too large, it never blows."""
    parts = circuit.parts_data
    sol = parts.part("solenoid")
    fuse = float(parts.bell.get("fuse_a") or 0)
    if not fuse:
        report.add("bell", "error", line,
                   "the bell supply has no fuse: a short in the phone (the solenoid's wires, the cable) "
                   "is fed the adapter's whole current; fit a slow-blow fuse in its + lead (fuse_a)")
        return
    _check_fuse_against_cable(circuit, report, line, fuse)
    if "coil_ohms" not in sol or "rated_v" not in sol:
        return
    amps = float(sol["rated_v"]) / float(sol["coil_ohms"])
    low, high = (amps * k for k in FUSE_RATIO)
    if not low <= fuse <= high:
        report.add("bell", "error", line,
                   "the bell's %g A fuse is %s for a coil drawing %.2f A at its rated %g V: rate it %.1f-%.1f A "
                   "(slow-blow, fuse_a)", fuse, "too small: it blows on the strikes" if fuse < low
                   else "too large: a short in the phone never blows it", amps, float(sol["rated_v"]), low, high)
    elif fuse * FUSE_OPENS > float(parts.bell["supply_a"]) * ADAPTER_SHORT + 1e-9:     # (1.4 x 1.5 is 2.0999...)
        # the short current must reach what opens the fuse, not only its rating: a T fuse holds
        # 1.5 times its rating for an hour, so a short the adapter holds there heats the cable
        report.add("bell", "error", line,
                   "the bell's %g A fuse opens within 2 minutes only at %.1f A (%g times its rating, slow-blow, IEC "
                   "60127-2), and its %g A adapter (supply_a) gives about %.1f A into a short: the fuse %s, and the "
                   "short heats the cable; use an adapter rated at least %.1f A", fuse, fuse * FUSE_OPENS, FUSE_OPENS,
                   float(parts.bell["supply_a"]), float(parts.bell["supply_a"]) * ADAPTER_SHORT,
                   "never blows" if fuse > float(parts.bell["supply_a"]) * ADAPTER_SHORT else "may hold for an hour",
                   math.ceil(fuse * FUSE_OPENS / ADAPTER_SHORT * 2) / 2)


def _check_fuse_against_cable(circuit, report, line, fuse):
    """Where the bell's 12 V pair runs on the cable to the phone (the pin map's [cable] places a bell
    wire), the fuse protects those cores too: a short in the phone is fed through them until the
    fuse opens, so it is rated no higher than the current a core may carry for good (core_a in the
    cable's [[kit]] entry). A thin cable's cores under a 1 A fuse heat in the hood and the cord
    entry while the fuse holds."""
    cable_map = circuit.pinmap.cable
    if circuit.board != "pi" or cable_map is None:
        return
    from . import cable
    try:
        if not any(w.bell and w.id for w in cable.wires(circuit)):
            return
    except cable.CableError:
        return                          # (the connector rule says what is wrong with the table)
    cables = [item for item in circuit.parts_data.kit if item.get("build") == circuit.board and "cores" in item]
    if not cables:
        return                          # (the cable's cores rule asks for its entry)
    core_a = cables[0].get("core_a")
    if core_a is None:
        report.add("bell", "error", line,
                   "the bell's 12 V pair runs on the cable to the phone, and the cable's [[kit]] entry gives no "
                   "current its cores may carry (core_a): the %g A fuse (fuse_a) must be rated no higher, or a short "
                   "in the phone heats the cable while the fuse holds; give core_a from the cable's datasheet", fuse)
    elif fuse > float(core_a):
        sol = circuit.parts_data.part("solenoid")
        least = float(sol["rated_v"]) / float(sol["coil_ohms"]) * FUSE_RATIO[0]    # (_check_fuse's lower bound)
        report.add("bell", "error", line,
                   "the bell's %g A fuse (fuse_a) is rated above the %g A the cable's cores may carry (core_a in its "
                   "[[kit]] entry), and the bell's 12 V pair runs on two of them: a short in the phone heats the cable "
                   "while the fuse holds (a slow-blow fuse carries 1.5 times its rating for an hour); use a cable "
                   "whose cores carry at least %g A (thicker cores)%s", fuse, float(core_a), fuse,
                   ", or a fuse rated %.2g-%g A" % (least, float(core_a)) if least <= float(core_a) else
                   ": a smaller fuse, under %.2g A, would blow on the strikes" % least)


def coil_heat(parts, volts, share, ambient, ohms=None):
    """The coil's steady temperature, °C, and its power then, W: on for ``share`` of the time at
    ``volts``, its winding's resistance rising with its temperature (copper_alpha from 20 °C; its
    least resistance, the winding's tolerance, at 20 °C unless ``ohms`` says), its rise
    theta_c_per_w per watt above ``ambient``. Worked to a fixed point (the rise falls as the
    resistance climbs, so it settles)."""
    sol = parts.part("solenoid")
    r20 = ohms if ohms is not None else float(sol["coil_ohms"]) * (1 - float(sol["coil_ohms_tol"]))
    alpha, theta = float(sol["copper_alpha"]), float(sol["theta_c_per_w"])
    temp = ambient
    for _ in range(200):
        watts = share * volts ** 2 / (r20 * (1 + alpha * (temp - 20)))
        temp = ambient + theta * watts
    return temp, watts


def coil_rating(parts):
    """(the coil's continuous rating, W: duty_max of its power at its rated voltage; the surface
    temperature that heat holds it at in the air the rating is given in, rated_ambient_c, °C).
    The rating is a temperature the coil is made to stand, not a number of watts: in cooler air
    it takes more watts to reach it, in warmer fewer. So the rules hold the coil to the
    temperature, which a cooler room can't turn into a refusal (ambient_c is the warmest air)."""
    sol = parts.part("solenoid")
    watts = float(sol["duty_max"]) * float(sol["rated_v"]) ** 2 / float(sol["coil_ohms"])
    return watts, float(sol["rated_ambient_c"]) + float(sol["theta_c_per_w"]) * watts


def cutoff_timing(parts):
    """What the thermal cutoff does, from the parts' figures (the rules' own; the ngspice decks
    check it with every single fault). None without a cutoff.

    ring     the warmest a long ring leaves the coil, at the strikes' worst duty, the supply at
             its highest, the winding at its least resistance, in the warmest air: a ring that
             never stops would settle at ``forever_c``, but the ringer's heat budget rests the bell
             before its estimate (the same figures, hw.bell.CoilHeat) passes COIL_CEILING_C, so the
             lower of the two; HOLDING_MARGIN_C under the cutoff's holding temperature, or a long
             ring may open it for good. ``timeout_c``: one ring until answered, from the air, at
             its timeout (RING_TIMEOUT_S)
    opens    the longest a coil held on (any single fault) takes to reach the cutoff's rated
             temperature from the coolest room (20 °C), at its weakest: the supply at its lowest,
             the winding at its highest resistance
    winding  the hottest the winding's inside gets before the cutoff opens: the rated temperature
             plus theta_inner at the strongest fault's power then; under the insulation's class
    under    the coil held UNDER_C under the cutoff's rated temperature for good (a line toggling
             at some duty does it, and the cutoff never opens): its surface there, ``under_c``, at
             most where its continuous rating holds it (``continuous_c``, coil_rating), in any air;
             ``under_w`` is the heat that takes in this air"""
    bell = parts.bell
    cutoff_c = float(bell.get("cutoff_c") or 0)
    if not cutoff_c:
        return None
    sol, cut = parts.part("solenoid"), parts.part("cutoff")
    ambient = float(bell["ambient_c"])
    forever_c, ring_w = coil_heat(parts, supply_max(parts), strike_duty(), ambient)
    figures = coil_figures(bell, sol, parts.part("supply12"))
    ring_c = min(forever_c, COIL_CEILING_C)
    ohms, tol = float(sol["coil_ohms"]), float(sol["coil_ohms_tol"])
    alpha, theta, tau = float(sol["copper_alpha"]), float(sol["theta_c_per_w"]), float(sol["tau_s"])
    weak_w = supply_min(parts) ** 2 / (ohms * (1 + tol) * (1 + alpha * (cutoff_c - 20)))
    rise_needed, rise_final = cutoff_c - 20.0, theta * weak_w
    opens = tau * math.log(rise_final / (rise_final - rise_needed)) if rise_final > rise_needed else math.inf
    strong_w = supply_max(parts) ** 2 / (ohms * (1 - tol) * (1 + alpha * (cutoff_c - 20)))
    winding = cutoff_c + float(sol["theta_inner_c_per_w"]) * strong_w
    rated_w, rated_c = coil_rating(parts)
    return {"ring_c": ring_c, "ring_w": figures.watts(ring_c, strike_duty()), "forever_c": forever_c,
            "forever_w": ring_w, "ceiling_c": COIL_CEILING_C,
            "timeout_c": figures.after(ambient, strike_duty(), RING_TIMEOUT_S), "timeout_s": RING_TIMEOUT_S,
            "holding_c": float(cut["th_c"]), "opens_s": opens,
            "weak_w": weak_w, "strong_w": strong_w, "winding_c": winding, "insulation_c": float(sol["insulation_c"]),
            "cutoff_c": cutoff_c, "low_c": cutoff_c - float(cut["tf_tol_c"]), "ambient_c": ambient,
            "continuous_w": rated_w, "continuous_c": rated_c, "rated_ambient_c": float(sol["rated_ambient_c"]),
            "under_c": cutoff_c - UNDER_C, "under_w": (cutoff_c - UNDER_C - ambient) / theta}


CUTOFF_OPENS_MAX_S = 600    # newsdesk's bound on how long a coil held on by a fault may take to be cut off
HOLDING_MARGIN_C = 10       # newsdesk's least room between a long ring's coil and the cutoff's holding
                            # temperature: the ring's figure is already at its worst corner (the supply high,
                            # the winding cold and low, the warmest air), this is for the estimates under it
UNDER_C = 0.5               # the heat a toggling line may hold the coil at for good: this far under the cutoff


def _kept_under(t):
    """(the temperature ringing must stay HOLDING_MARGIN_C under, its words): the cutoff's holding
    temperature, or the lowest it may open at (its rating less its tolerance) if that is lower."""
    if t["low_c"] < t["holding_c"]:
        return t["low_c"], "lowest opening (its rating less its tolerance)"
    return t["holding_c"], "holding temperature"


def _check_cutoff(circuit, report, line):
    """One failed part of the driver (the MOSFET or the optocoupler's output shorted, the gate
    pull-down unsoldered) holds the coil on at full power, which neither the fuse (it carries the
    coil's current) nor the fail-safe (it is before the failed part) stops. The thermal cutoff
    does: it must let the longest ring the ringer's heat budget allows through, open within a
    bounded time, open before the winding passes its insulation's class, and be rated low enough
    that the coil settled just under it (a line toggling at some duty: the case it never cuts off)
    is no hotter than its continuous rating holds it. That last is a temperature (coil_rating):
    the watts that hold the coil just under the cutoff grow as the air cools, the temperature
    doesn't, and the winding's inside is held under its class at any heat (``winding_c``)."""
    parts = circuit.parts_data
    t = cutoff_timing(parts)
    if t is None:
        report.add("bell", "error", line,
                   "the bell driver has no thermal cutoff: a shorted MOSFET or optocoupler output, or an "
                   "unsoldered gate pull-down, holds the coil on at full power for as long as the 12 V is plugged "
                   "in, and neither the fuse nor the fail-safe stops it; fit one against the coil (cutoff_c in "
                   "parts.toml [bell_driver], [part.cutoff])")
        return
    report.bell["cutoff"] = t
    _check_cutoff_current(circuit, report, line, "cutoff", "the thermal cutoff")
    keep, kept = _kept_under(t)
    if t["ring_c"] + HOLDING_MARGIN_C > keep:
        report.add("bell", "error", line,
                   "a long ring warms the coil to %.0f °C (%.2f W in %g °C air, %s): %s the thermal cutoff's %g °C "
                   "%s (newsdesk keeps %g °C under it), so ringing alone may open it for good; "
                   "use a cutoff rated higher (cutoff_c; %s th_c) if the coil's insulation allows, a lower ceiling "
                   "for the ringer's heat budget (COIL_CEILING_C), or a coil with a lower duty", t["ring_c"],
                   t["ring_w"], t["ambient_c"],
                   "the ringer's heat budget resting it there" if t["ring_c"] < t["forever_c"]
                   else "where a ring that never stops settles",
                   "over" if t["ring_c"] > keep else "within %g °C of" % HOLDING_MARGIN_C,
                   keep, kept, HOLDING_MARGIN_C, _cutoff_words(circuit, "cutoff"))
    if t["under_c"] > t["continuous_c"]:
        report.add("bell", "error", line,
                   "a line toggling at the duty that holds the coil just under the %g °C thermal cutoff keeps its "
                   "surface at %.1f °C for good: over the %.0f °C its %.1f W continuous rating holds it at (in the "
                   "%g °C air that rating is given in, rated_ambient_c), and the cutoff never opens; use a cutoff "
                   "rated lower (cutoff_c)", t["cutoff_c"], t["under_c"], t["continuous_c"], t["continuous_w"],
                   t["rated_ambient_c"])
    if t["opens_s"] > CUTOFF_OPENS_MAX_S:
        report.add("bell", "error", line,
                   "a coil held on by a failed part %s: the cutoff may never open, or too late; use a cutoff rated "
                   "lower (cutoff_c)", "never reaches the thermal cutoff's %g °C" % t["cutoff_c"]
                   if math.isinf(t["opens_s"]) else "reaches the thermal cutoff's %g °C only after %.0f s (over the %d s "
                   "newsdesk allows)" % (t["cutoff_c"], t["opens_s"], CUTOFF_OPENS_MAX_S))
    if t["winding_c"] > t["insulation_c"]:
        report.add("bell", "error", line,
                   "by the time the %g °C thermal cutoff opens, the winding's inside reaches %.0f °C: over its "
                   "insulation's %g °C (insulation_c); use a cutoff rated lower (cutoff_c) or a coil of a higher "
                   "class", t["cutoff_c"], t["winding_c"], t["insulation_c"])


def _cutoff_words(circuit, role):
    """A thermal cutoff named by its reference and the entry its figures come from: "F3,
    [part.fet_cutoff]" (each cutoff has its own, so a figure planted in one is told as that one's)."""
    part = next(p for p in circuit.parts if p.role == role)
    return "%s, [part.%s]" % (part.ref, part.kind)


def _check_cutoff_current(circuit, report, line, role, words):
    """A thermal cutoff carries the coil's current (the coil's in its + lead, the MOSFET's in its
    drain lead): rated for less, by its own entry, its own heat opens or wears it."""
    parts = circuit.parts_data
    _, _, most = coil_amps(parts)
    kind = next(p.kind for p in circuit.parts if p.role == role)
    rated_a = float(parts.part(kind)["rated_a"])
    if rated_a < most:
        report.add("bell", "error", line,
                   "%s is rated %g A and the coil draws up to %.2f A through it: its own heat would open it, or "
                   "wear it; use one rated at least %.1f A (%s rated_a)", words, rated_a, most,
                   math.ceil(most * 2) / 2, _cutoff_words(circuit, role))


AIR_LEAST_C = 0             # the coolest air newsdesk names as a fix for a warm part: a room below freezing is no fix
FET_TAB_MAX_C = 100         # newsdesk's ceiling for the MOSFET's tab held there for good, °C: hotter, a part on
                            # the board is a heater in a closed box (PVC wire is rated 70-105 °C, and a phenolic
                            # stripboard browns above about 105 °C)


def half_on_w(parts):
    """The most a MOSFET in series with the coil can dissipate at any steady point, W: the
    supply's highest squared over four times the coil's least resistance (V·I - I²R peaks with
    the drain at half the supply), whatever holds its gate there; the coil then takes as much."""
    sol = parts.part("solenoid")
    return supply_max(parts) ** 2 / (4 * float(sol["coil_ohms"]) * (1 - float(sol["coil_ohms_tol"])))


def strike_figures(circuit):
    """What fet_strike_heat works from, for one board's bell driver (worked out once: the
    fail-safe's timing takes some milliseconds)."""
    parts = circuit.parts_data
    fet, sol, bell = parts.part("mosfet"), parts.part("solenoid"), parts.bell
    rtol = float(parts.part("resistor").get("tolerance", 0))
    _, amps, _, _ = _drain_figures(parts)
    timing = failsafe_timing(circuit, release=False)
    zener = float(bell.get("gate_zener_v") or 0)
    gate_top = min(supply_max(parts), zener * (1 + float(parts.part("zener")["tolerance"]))) if zener \
        else supply_max(parts)
    vth = float(fet["vgs_th_min"])
    rpd = float(bell["gate_pulldown"]) * (1 + rtol)
    peak = drain_peak(parts)
    return {"on_w": amps ** 2 * float(fet["rds_on"]), "full_s": timing["full"] if timing else math.inf,
            "edge_s": rpd * (float(fet["ciss_pf"]) * 1e-12 * math.log(max(gate_top, vth) / vth)
                             + float(fet["crss_pf"]) * 1e-12 * peak / vth),
            "most_w": peak * amps, "half_w": half_on_w(parts),
            "coil_j": 0.5 * float(sol["coil_mh"]) / 1000 * (1 + float(sol["coil_mh_tol"])) * amps ** 2}


def fet_strike_heat(circuit, hz, figures=None):
    """The most one strike at ``hz`` a second can heat the MOSFET, joules (the rules' own; the
    ngspice strike trains measure it at the slowest, the default and the fastest rate). Each
    figure at its end that heats most, from strike_figures:

    on     fully on for the whole strike (STRIKE_DUTY of its period): the coil's highest current
           squared times rds_on
    fade   a strike longer than the fail-safe keeps the gate fully on (failsafe_timing's ``full``,
           at its weakest) may fade through the half-on region for the rest of it
    edge   at the strike's end the gate falls through its pull-down (at the top of its tolerance)
           from its highest (the zener's top, or the supply) to the lowest threshold, charging its
           input capacitance and, held at that threshold at the least, the Miller charge of the
           drain's whole swing (crss_pf x the drain's peak)
    Between fully on and off (the fade and the edge), the drain stands no higher than its peak at
    turn-off (the flyback diode clamps it) and the current is no more than the coil's highest: at
    most their product. Nor, over that while, more than the half-on heat (half_on_w) plus what
    the coil's inductance held at the start (½LI², at its highest), which it gives up once: the
    drain's volts are the supply's less the coil's I·R and L·dI/dt, so the MOSFET's heat is the
    supply's V·I - I²R, at most V²/4R, less the change in ½LI². The lesser of the two. The turn-on
    costs next to nothing: each rest is many of the coil's L/R, so its current starts from none."""
    f = figures or strike_figures(circuit)
    on = STRIKE_DUTY / hz
    between = max(0.0, on - f["full_s"]) + f["edge_s"]
    return f["on_w"] * on + min(f["most_w"] * between, f["half_w"] * between + f["coil_j"])


def strikes_per_s(hz):
    """The most strikes a second newsdesk's cadences give at ``hz``, over a whole ring cycle."""
    def rate(cadence):
        steps = ring_steps(cadence, hz)
        return sum(1 for on, _ in steps if on) / sum(s for _, s in steps)
    return max(rate(c) for c in CADENCES.values())


def fet_ring_heat(circuit):
    """(the most ringing heats the MOSFET, averaged over a ring cycle (the tab's time constant is
    minutes, a cycle seconds), W; the strike rate it is most at): over every whole rate the
    settings allow (bell_strike_hz, STRIKE_HZ_RANGE), the strikes a second times what each can
    give. A slow rate's long strikes may fade; a fast rate has more turn-offs."""
    figures = strike_figures(circuit)
    low, high = STRIKE_HZ_RANGE
    return max((strikes_per_s(hz) * fet_strike_heat(circuit, hz, figures), hz)
               for hz in range(math.ceil(low), math.floor(high) + 1))


def fet_cutoff_timing(circuit):
    """What the thermal cutoff on the MOSFET's tab does, from the parts' figures (the rules' own;
    the ngspice decks check it with the gate held half on). None without one.

    half_w   the most a MOSFET held half on can dissipate: with the coil in series, the supply's
             highest squared over four times the coil's least resistance (the drain at half the
             supply), whatever holds the gate there; the coil then takes as much
    lasting_w the most it can dissipate for good with the coil held just under its own cutoff
             (the coil at its ``under_w``, its least resistance warmed to there, the supply at
             its highest: the coil's cutoff never opens)
    bare_c   where that leaves the junction of a MOSFET with no heatsink and no cutoff of its own, in
             the warmest air: the heater this cutoff is for
    ring_c   the warmest ringing leaves the tab: fet_ring_heat's ``ring_w`` (at ``ring_hz``
             strikes a second) over the tab's resistance to the air; HOLDING_MARGIN_C under the
             cutoff's holding temperature. ``air_max_c``: the warmest air that allows, named (in
             whole degrees, down) when the rule refuses
    junction_c the junction when the tab reaches the cutoff's rating at ``half_w``: under tj_max
    opens_s  the time the tab takes from the warmest air to the cutoff's rating at ``half_w``"""
    parts = circuit.parts_data
    bell = parts.bell
    cutoff_c = float(bell.get("fet_cutoff_c") or 0)
    fet, sol = parts.part("mosfet"), parts.part("solenoid")
    ambient = float(bell["ambient_c"])
    least_ohms = float(sol["coil_ohms"]) * (1 - float(sol["coil_ohms_tol"]))
    half_w = half_on_w(parts)
    lasting_w = half_w
    coil_cut = float(bell.get("cutoff_c") or 0)
    if coil_cut:
        coil_w = (coil_cut - UNDER_C - ambient) / float(sol["theta_c_per_w"])
        warm = least_ohms * (1 + float(sol["copper_alpha"]) * (coil_cut - UNDER_C - 20))
        if coil_w > 0 and warm > 0:         # (air at the cutoff's rating: the reader refuses it)
            # the MOSFET's V·I - I²R peaks at I = V / 2R: a current the coil's cutoff allows past
            # that leaves the MOSFET at its peak; one short of it, at the coil's limit
            volts, limit = supply_max(parts), math.sqrt(coil_w / warm)
            lasting_w = min(half_w, volts ** 2 / (4 * warm) if limit >= volts / (2 * warm)
                            else max(limit * volts - coil_w, 0.0))
    theta_tab = float(fet["theta_ja"]) - float(fet["theta_jc"])
    out = {"half_w": half_w, "lasting_w": lasting_w, "bare_c": ambient + float(fet["theta_ja"]) * lasting_w,
           "ambient_c": ambient,
           "theta_tab": theta_tab, "tj_max": float(fet["tj_max"]), "cutoff_c": cutoff_c or None}
    if not cutoff_c:
        return out
    cut = parts.part("fet_cutoff")
    ring_w, ring_hz = fet_ring_heat(circuit)
    rise_final, rise_needed = theta_tab * half_w, cutoff_c - ambient
    out.update(ring_w=ring_w, ring_hz=ring_hz, ring_c=ambient + theta_tab * ring_w, holding_c=float(cut["th_c"]),
               low_c=cutoff_c - float(cut["tf_tol_c"]),
               junction_c=cutoff_c + float(fet["theta_jc"]) * half_w,
               opens_s=(float(fet["tab_tau_s"]) * math.log(rise_final / (rise_final - rise_needed))
                        if rise_final > rise_needed else math.inf))
    out["air_max_c"] = _kept_under(out)[0] - HOLDING_MARGIN_C - theta_tab * ring_w
    return out


def _check_fet_cutoff(circuit, report, line):
    """A leak onto the gate (the optocoupler's output part-way failed, flux or damp on the board
    from the 12 V to the gate) can hold the MOSFET half on: the coil in series then limits the
    current, and the MOSFET, not the coil, takes the heat, up to a quarter of what the coil would
    at full drive, for as long as the 12 V is plugged in. The coil may stay under its own cutoff
    through it; a second cutoff on the MOSFET's tab opens instead. It must be fitted, be rated no
    hotter than FET_TAB_MAX_C (the tab may sit just under it for good), let ringing through with
    HOLDING_MARGIN_C to spare, and open before the junction passes its maximum."""
    t = fet_cutoff_timing(circuit)
    report.bell["fet_cutoff"] = t
    if t["cutoff_c"] is None:
        report.add("bell", "error", line,
                   "the MOSFET has no thermal cutoff on its tab: a leak onto its gate (the optocoupler's output "
                   "part-way failed, or a dirty board) can hold it half on, up to %.1f W in it for as long as the "
                   "12 V is plugged in while the coil stays under its own cutoff, its junction at %.0f °C without a "
                   "heatsink; fit one clamped to its tab, in its drain lead (fet_cutoff_c in parts.toml "
                   "[bell_driver], [part.fet_cutoff])", t["lasting_w"], t["bare_c"])
        return
    if t["cutoff_c"] > FET_TAB_MAX_C:
        report.add("bell", "error", line,
                   "the thermal cutoff on the MOSFET's tab is rated %g °C: a gate held half on may keep the tab "
                   "just under that for good, over newsdesk's %g °C for a part in a closed box; use one rated "
                   "%g °C or less (fet_cutoff_c)", t["cutoff_c"], FET_TAB_MAX_C, FET_TAB_MAX_C)
    _check_cutoff_current(circuit, report, line, "fet_cutoff", "the thermal cutoff on the MOSFET's tab")
    keep, kept = _kept_under(t)
    if t["ring_c"] + HOLDING_MARGIN_C > keep:
        report.add("bell", "error", line,
                   "ringing may warm the MOSFET's tab to %.0f °C (%.2f W in %g °C air, at most, at %d strikes a "
                   "second): %s the thermal cutoff's %g °C %s (newsdesk keeps %g °C under it), so ringing alone may "
                   "open it for good; %s; give the MOSFET a heatsink under its cutoff or use a cutoff that holds "
                   "more (fet_cutoff_c; %s th_c)", t["ring_c"], t["ring_w"], t["ambient_c"], t["ring_hz"],
                   "over" if t["ring_c"] > keep else "within %g °C of" % HOLDING_MARGIN_C,
                   keep, kept, HOLDING_MARGIN_C,
                   "with these parts the air in the phone may be at most %d °C (ambient_c)" % math.floor(t["air_max_c"])
                   if t["air_max_c"] >= AIR_LEAST_C else "no air a phone sits in is cool enough for these parts "
                   "(they would need it under %d °C)" % AIR_LEAST_C, _cutoff_words(circuit, "fet_cutoff"))
    if t["junction_c"] > t["tj_max"]:
        report.add("bell", "error", line,
                   "by the time the thermal cutoff on the MOSFET's tab opens at %g °C, its junction reaches %.0f °C: "
                   "over its %g °C maximum (tj_max); use a cutoff rated lower (fet_cutoff_c)",
                   t["cutoff_c"], t["junction_c"], t["tj_max"])


def default_strike_on():
    """The on-time of one strike at newsdesk's default rate, seconds: what the fail-safe must let
    through at full drive."""
    return STRIKE_DUTY / STRIKE_HZ


def failsafe_limit():
    """The longest a line held high may keep the coil on, seconds: one strike at the slowest rate
    newsdesk allows (its whole period)."""
    return 1.0 / STRIKE_HZ_RANGE[0]


def failsafe_timing(circuit, release=True):
    """The fail-safe's two times, worked out with every part at the end that hurts, or None if
    the ringer has no coupling capacitor. While the LED conducts its anode stands at its forward
    voltage, so the current through the resistor falls as exp(-t / RC) from (logic V - vf -
    what the capacitor still holds) / R; the bleed resistor takes vf / R_bleed of it.

    full   how long the LED keeps the current that puts the MOSFET's gate at vgs_on with
           GATE_MARGIN (the rules' own, _opto_ma_needed) plus the bleed's share: the weakest case (the resistor
           high for the current, R and C low for the time constant, the LED's highest forward
           voltage, the capacitor still holding the reset diode's forward voltage)
    off    how long until the current through the resistor is all the bleed's (the LED dark),
           and at most what leaves the gate under the MOSFET's lowest threshold at the
           optocoupler's highest CTR: the strongest case (R low for the current, R and C high for
           the time constant, the LED's lowest forward voltage).

    ``release=False`` leaves ``off`` out (None): it is worked out step by step (held_release, some
    milliseconds), and the searches over a part's value (_edge) ask for ``full`` alone hundreds
    of times a check."""
    found = [p for p in circuit.parts if p.role == "isolator"]
    if not found:
        return None
    line = found[0].line
    roles = {p.role: p for p in circuit.of(line=line)}
    if "coupling" not in roles:
        return None
    data = circuit.parts_data
    spec = circuit.board_lines[line]
    rtol = float(data.part("resistor").get("tolerance", 0))
    ctol = float(data.part("coupling").get("tolerance", 0))
    opto, fet = data.part("optocoupler"), data.part("mosfet")
    logic_v = float(circuit.limits["logic_v"])
    r, farads = float(roles["series"].value), float(roles["coupling"].value.split()[0]) * 1e-6
    bleed = float(roles["bleed"].value) if "bleed" in roles else math.inf
    vf_lo, vf_hi = float(spec.vf), float(opto.get("vf_max", spec.vf))
    residual = float(data.part("schottky").get("vf_max", 0))
    need = (_opto_ma_needed(circuit) or 0.0) / 1000.0 + vf_hi / (bleed * (1 - rtol))
    start = (logic_v - vf_hi - residual) / (r * (1 + rtol))
    tau_min = r * (1 - rtol) * farads * (1 - ctol)
    full = tau_min * math.log(start / need) if start > need else 0.0
    pulldown = float(data.bell["gate_pulldown"]) * (1 + rtol)
    # dark: the LED current whose output (the highest CTR, at the curve's share there) leaves the
    # gate under the MOSFET's lowest threshold
    dark_led = led_ma_for(opto, float(opto["ctr_max"]), float(fet["vgs_th_min"]) / pulldown * 1000.0) / 1000.0
    tau_max = r * (1 + rtol) * farads * (1 + ctol)
    off = held_release(logic_v, r * (1 - rtol), farads * (1 + ctol), bleed * (1 + rtol), dark_led,
                       float(opto["vf_at_ma"]) / 1000.0 / math.exp(vf_lo / (float(opto["led_n"]) * THERMAL_V)),
                       float(opto["led_n"]), failsafe_limit()) if release else None
    return {"line": line, "full": full, "off": off, "tau_min": tau_min, "tau_max": tau_max,
            "gate_v": GATE_MARGIN * float(fet["vgs_on"]),
            "need_ma": need * 1000.0, "start_ma": start * 1000.0, "strike_on": default_strike_on(),
            "limit": failsafe_limit()}


THERMAL_V = 0.025865        # kT/q at 27 °C, as the simulations take it


RELEASE_SPAN = 50           # time constants held_release follows a held line for, and at least least_s: past it, inf


@functools.lru_cache(maxsize=4096)
def held_release(volts, ohms, farads, bleed, dark_a, led_is, led_n, least_s=0.0):
    """Seconds until a line held at ``volts`` leaves the LED dark (under ``dark_a``): the resistor
    charges the capacitor while the LED, an exponential junction (``led_is``, ``led_n``), and the
    bleed resistor share what passes. As its current dies away the LED's voltage falls, so the
    capacitor has further to charge than with a fixed drop. Worked step by step (each step taking
    the current at its end, so the time comes out long, on the safe side); inf if not within
    RELEASE_SPAN time constants, nor within ``least_s`` (the time it is held to: with a tiny
    resistor the last of the LED's current dies away over far more than 50 of its time constants,
    and inf there was not "longer than the limit").

    Kept per figures (a pure function of them, some milliseconds each): a check asks for the same
    circuit's release again and again (the rule itself, the pull-down search's ends, the
    figures for the documents), about ten times for each distinct one."""
    nvt = led_n * THERMAL_V
    tau = ohms * farads
    dt = tau / 400.0
    w = volts                       # across the resistor and the LED: the line less the capacitor
    v = nvt * math.log(volts / ohms / led_is + 1.0)
    t = 0.0
    while t < max(RELEASE_SPAN * tau, least_s):
        for _ in range(20):         # Newton: (w - v)/R = led(v) + v/bleed, from the last step's v
            e = led_is * math.exp(v / nvt)
            step = ((w - v) / ohms - e + led_is - v / bleed) / (-1.0 / ohms - e / nvt - 1.0 / bleed)
            v = min(max(v - step, 0.0), w)
            if abs(step) < 1e-9:
                break
        if led_is * (math.exp(v / nvt) - 1.0) < dark_a:
            return t
        w -= (w - v) / ohms * dt / farads
        t += dt
    return math.inf


def check_failsafe(circuit, report):
    """A line held high (newsdesk hung, killed or crashed mid-strike, the kernel keeping the pin's
    last level) must not hold the coil on: the ringer lights its optocoupler through the
    fail-safe's capacitor, which must keep the drive full through a strike at the default rate
    and end it within one strike at the slowest rate."""
    drivers = [p for p in circuit.parts if p.role == "isolator"]
    if not drivers:
        return
    line = drivers[0].line
    timing = failsafe_timing(circuit)
    if timing is None and not circuit.board_lines[line].active_high:
        report.add("failsafe", "error", line,
                   "%s lights the optocoupler active-low, from 3V3 into the pin: the fail-safe as drawn takes a "
                   "line that goes high to strike (active_high = true), so a stuck line holds the coil on",
                   _where(circuit, line))
        return
    if timing is None:
        report.add("failsafe", "error", line,
                   "%s lights the optocoupler straight through its resistor: held high (newsdesk killed "
                   "mid-strike), it holds the bell's coil on for as long as the 12 V is plugged in; fit the "
                   "fail-safe's capacitor in series (coupling_uf in parts.toml [failsafe])", _where(circuit, line))
        return
    report.failsafe = timing
    if not any(p.role == "bleed" for p in circuit.of(line=line)):
        report.add("failsafe", "error", line,
                   "the fail-safe has no bleed resistor across the optocoupler's LED: held high, the line's last "
                   "trickle through the capacitor keeps the LED faintly lit and the MOSFET may stay partly on; "
                   "fit one (bleed_ohms in parts.toml [failsafe], 3900)")
        return                      # (its timing without the bleed would only blame the capacitor)
    if timing["full"] < timing["strike_on"] and timing["start_ma"] <= timing["need_ma"]:
        # short from the first instant: no capacitor lengthens it, so say what does
        report.add("failsafe", "error", line,
                   "the optocoupler's LED gets at most %.2f mA as a strike starts (through %s and the fail-safe's "
                   "capacitor, at worst), and holding the gate at %.1f V (the MOSFET's vgs_on with newsdesk's %.0f %% "
                   "margin) needs %.2f mA, the bleed's share included: the drive falls short from the strike's first "
                   "instant, which no capacitor lengthens; %s", timing["start_ma"],
                   bom_ohms(float(circuit.board_lines[line].resistor)), timing["gate_v"], (GATE_MARGIN - 1) * 100,
                   timing["need_ma"], _short_drive(circuit))
    elif timing["full"] < timing["strike_on"]:
        report.add("failsafe", "error", line,
                   "the fail-safe's capacitor (%s, a time constant as short as %.1f ms) keeps the gate at %.1f V "
                   "(the MOSFET's vgs_on with newsdesk's %.0f %% margin) for only %.1f ms at worst: under the %.0f ms "
                   "of a strike at the default rate; use a larger capacitor (coupling_uf), a larger bleed resistor "
                   "(bleed_ohms) or a larger gate pull-down (gate_pulldown)", _value_of(circuit, line, "coupling"),
                   timing["tau_min"] * 1000, timing["gate_v"], (GATE_MARGIN - 1) * 100, timing["full"] * 1000,
                   timing["strike_on"] * 1000)
    if timing["off"] > timing["limit"]:
        report.add("failsafe", "error", line,
                   "the fail-safe's capacitor (%s, a time constant up to %.1f ms) lets a line held high keep the "
                   "coil on %s: over the %.0f ms of one strike at the slowest rate; use a smaller capacitor "
                   "(coupling_uf)", _value_of(circuit, line, "coupling"), timing["tau_max"] * 1000,
                   "for up to %.0f ms" % (timing["off"] * 1000) if math.isfinite(timing["off"]) else
                   "for good, as far as the rules follow it",
                   timing["limit"] * 1000)


def snubber_ohms_max(parts):
    """The largest resistor in series with the flyback diode that keeps the drain's peak at
    turn-off under vds_use of the MOSFET's rating, for the coil's highest current; None if the
    parts don't say enough to work it out."""
    figures = _drain_figures(parts)
    if figures is None:
        return None
    top, amps, diode_v, limit = figures
    return max(0.0, (limit - top - diode_v) / amps)


def _drain_figures(parts):
    fet, sol = parts.part("mosfet"), parts.part("solenoid")
    if not ("vds_max" in fet and "coil_ohms" in sol):
        return None
    top = supply_max(parts)
    amps = top / (float(sol["coil_ohms"]) * (1 - float(sol.get("coil_ohms_tol", 0))))
    diode_v = float(parts.part("diode").get("vf_max", 0))
    return top, amps, diode_v, float(fet["vds_max"]) * float(fet.get("vds_use", 1.0))


def drain_peak(parts):
    """The drain's highest, V: at each turn-off, the supply's highest plus the coil's highest
    current through the snubber resistor plus the flyback diode's drop (see _check_drain)."""
    top, amps, diode_v, _ = _drain_figures(parts)
    return top + amps * float(parts.bell.get("snubber_ohms") or 0) + diode_v


def _check_drain(circuit, report, line, top):
    """At turn-off the coil's current can't stop at once: it flows on through the flyback diode
    and the resistor in series with it, so the drain stands at the supply plus that current
    times the resistor plus the diode's drop. The highest current is the supply's highest over
    the coil's lowest resistance."""
    parts = circuit.parts_data
    figures = _drain_figures(parts)
    if figures is None:
        return
    top, amps, diode_v, limit = figures
    ohms = float(parts.bell.get("snubber_ohms") or 0)
    peak = drain_peak(parts)
    report.bell["coil_a_max"] = amps
    report.bell["drain_peak"] = peak
    fet = parts.part("mosfet")
    if peak > limit:
        report.add("bell", "error", line,
                   "at each turn-off the MOSFET's drain reaches %.1f V (%.1f V supply + %.2f A x %g ohms in "
                   "series with the flyback diode + %.1f V across it): over the %.0f V kept under its %g V "
                   "rating (%s); use at most %d ohms (snubber_ohms)", peak, top, amps, ohms, diode_v, limit,
                   float(fet["vds_max"]), fet["number"], int(snubber_ohms_max(parts) or 0))


def _loudest(audio):
    """(volts rms, receiver ohms) of the worst case: the amplifier clipped to a square, into the
    receiver at its highest impedance (above the DC ohms a builder measures)."""
    volts = float(audio.get("amp_max_square_vrms", audio["amp_max_vrms"]))
    return volts, float(audio.get("receiver_ohms_max", audio["receiver_ohms"]))


def check_level(circuit, report):
    """The loudest the receiver can get, at worst: the amplifier clipped to a square, into the
    receiver's highest impedance, through the pad's resistors at the low end of their tolerance."""
    audio = circuit.parts_data.audio
    tolerance = float(circuit.parts_data.part("resistor").get("tolerance", 0.0))
    for module in (p for p in circuit.parts if p.kind == "amplifier"):
        if not audio:
            continue
        pads = [p.value for p in circuit.of(line=module.line) if p.role == "pad"]
        volts, rx = _loudest(audio)
        mv = volts * rx / (rx + sum(pads) * (1 - tolerance)) * 1000.0
        report.receiver_mv[module.line] = mv
        if mv > float(audio["receiver_max_mv"]):
            report.add("level", "error", module.line,
                       "the amplifier, clipping, can drive a %g ohm receiver at up to %.0f mV through %s: over "
                       "the %g mV ceiling, and it is held against an ear; fit a resistor of at least "
                       "%d ohms in each output leg (pad_ohms)", rx, mv,
                       " and ".join(bom_ohms(v) for v in pads) or "no pad at all",
                       float(audio["receiver_max_mv"]), _pad_for(audio, tolerance))


def _pad_for(audio, tolerance):
    volts, rx = _loudest(audio)
    total = rx * (volts * 1000.0 / float(audio["receiver_max_mv"]) - 1) / (1 - tolerance)
    return int(-(-total // 2))


def bom_ohms(value):
    from .bom import ohms_text
    return ohms_text(value)


def _describe(circuit, ref):
    part = next(p for p in circuit.parts if p.ref == ref)
    what = {"contact": "contact", "button": "button", "resistor": "resistor", "display": "display module",
            "amplifier": "amplifier"}.get(part.kind, part.kind)
    if part.line and part.line not in what:
        what = "%s %s" % (part.line, what)
    return "%s (%s)" % (ref, what)


def filter_timing(circuit, spec):
    """A contact's filter, as the GPIO sees it: the node charges through the pull-up when the
    contact opens and empties through the contact (at its worst resistance) when it closes, so
    a break reaches the pin late by ``rise`` (to the input's HIGH threshold) and a make by
    ``fall`` (to its LOW one). The internal pull-up, in parallel, only speeds the rise: left out,
    on the safe side. Seconds; None if the line has no filter."""
    parts = {p.role: p for p in circuit.of(line=spec.name)}
    if "filter" not in parts or "filter_pull" not in parts or spec.to != "GND":
        return None             # (a contact closing to a supply: the voltage rule has it already)
    farads = float(parts["filter"].value.split()[0]) * 1e-9
    pull = float(parts["filter_pull"].value)
    rail = circuit.parts_data.rails[parts["filter_pull"].pins["2"]]
    limits = circuit.limits
    vih, vil = float(limits.get("vih_min", rail * 0.65)), float(limits.get("vil_max", rail * 0.25))
    contact = float(circuit.parts_data.part("contact").get("ohms_max", 0))
    tau = pull * farads
    rise = tau * math.log(rail / (rail - vih)) if vih < rail else math.inf
    low = rail * contact / (contact + pull)              # where a closed contact holds the node
    tau_f = farads * contact * pull / (contact + pull)
    fall = tau_f * math.log((rail - low) / (vil - low)) if vil > low else math.inf
    return {"tau": tau, "rise": rise, "fall": fall, "vih": vih, "vil": vil, "rail": rail}


def worst_dial(parts):
    """(the shortest break, the shortest make), seconds, of the fastest, most worn dial."""
    dial = parts.dial
    if not dial:
        return None
    period = 1.0 / float(dial["pps_max"])
    ratio = float(dial["break_ratio"])
    return period * ratio, period * (1 - ratio)


SPIKE_V = 10.0              # newsdesk's figure for a spark on a contact's wire as it reaches the filter node, past
                            # the ESD array's clamp and into the 100 nF capacitor (docs/build.md): the series
                            # resistor holds what it pushes into the pin's own clamp diodes within the pin's pin_ma


def _check_series_limits_spike(circuit, report, spec):
    """The series resistor is what keeps a spark off the GPIO: a spike of SPIKE_V on the filter
    node pushes (SPIKE_V - logic_v) / R into the pin's clamp diode to 3V3. Present but small (10
    ohms), it protects nothing, and the rules only asked that it be there."""
    limits = circuit.limits
    logic_v, pin_ma = float(limits["logic_v"]), float(limits["pin_ma"])
    tol = float(circuit.parts_data.part("resistor").get("tolerance", 0))
    series = float(spec.series_resistor) * (1 - tol)
    ma = (SPIKE_V - logic_v) / series * 1000.0
    if ma > pin_ma:
        report.add("protection", "error", spec.name,
                   "%s's series resistor (%s, %.0f %% low at worst) lets a %g V spike on its filter node push %.1f mA "
                   "into the pin's clamp diode to %g V: over the %g mA a pin may take, so a spark from the phone "
                   "reaches the GPIO; use at least %s (series_resistor; newsdesk fits 1 kΩ)", _where(circuit, spec.name),
                   bom_ohms(float(spec.series_resistor)), tol * 100, SPIKE_V, ma, logic_v, pin_ma,
                   bom_ohms(_two_figures_up((SPIKE_V - logic_v) / pin_ma * 1000.0 / (1 - tol))))


def check_protection(circuit, report):
    """A wire of 1-2 m into a phone people handle picks up clicks from the solenoid and the room
    and carries a spark from a finger straight to a GPIO. On the box's side of the cable, then:
    a contact's wire lands on a node with a pull-up (a defined level and some wetting current), a
    capacitor to GND (the spike's energy goes there) and a series resistor to the GPIO (what gets
    past is limited to a few mA in the pin's own clamp diodes); and an ESD array's channel sits on
    every wire that reaches a GPIO, at the connector. The filter must not eat a pulse: its delay
    at the GPIO shortens each break and lengthens each make (or the reverse), and the decoder
    drops a level that doesn't hold for its SETTLE, and a break or make shorter than MIN_BREAK or
    MIN_MAKE. Nor may it delay an edge by more than SETTLE, the decoder's own allowance for a
    contact: past it, the breaks and makes the decoder times are the filter's, not the dial's."""
    if circuit.board != "pi" or circuit.pinmap.cable is None:
        return
    from controller.dial import decoder
    for spec in circuit.board_lines.values():
        if not spec.in_phone or circuit.isolated & set(n for n in _nets_of(circuit, spec.name)):
            continue
        is_bus = isinstance(spec, BusSpec)
        if is_bus and spec.kind != "i2c":
            continue                    # the receiver's pair: behind the pad, no GPIO on it
        if not is_bus and spec.kind == "input":
            missing = [words for field, words in (("filter_pull", "pull-up to 3V3 (filter_pull)"),
                                                   ("filter_nf", "capacitor to GND (filter_nf)"),
                                                   ("series_resistor", "series resistor to the GPIO (series_resistor)"))
                       if not getattr(spec, field)]
            if missing:
                report.add("protection", "error", spec.name,
                           "%s goes into the phone on the cable with no %s at the box end: fit them (docs/build.md, "
                           "protecting the contact lines)", _where(circuit, spec.name), " and no ".join(missing))
        if not getattr(spec, "esd", False):
            report.add("protection", "error", spec.name,
                       "%s goes into the phone on the cable with no ESD array's channel on its wire at the connector, "
                       "where a person touches (esd = true)", _where(circuit, spec.name))
        if not is_bus and spec.kind == "input":
            if spec.series_resistor:
                _check_series_limits_spike(circuit, report, spec)
            _check_filter(circuit, report, spec, decoder)


def _nets_of(circuit, line):
    return [net for p in circuit.of(line=line) for net in p.pins.values()]


def _check_filter(circuit, report, spec, decoder):
    timing = filter_timing(circuit, spec)
    dial = worst_dial(circuit.parts_data)
    if timing is None or dial is None:
        return
    report.filters[spec.name] = timing
    if math.isinf(timing["fall"]):
        contact = float(circuit.parts_data.part("contact").get("ohms_max", 0))
        pull = float(_value_of(circuit, spec.name, "filter_pull"))
        report.add("protection", "error", spec.name,
                   "%s's filter pull-up (%s) is too strong for its contact: closed, a worn contact (%g ohms) holds "
                   "the node above the input's %g V LOW level, so the GPIO never sees it close; use a filter_pull "
                   "well above %s", _where(circuit, spec.name), bom_ohms(pull), contact, timing["vil"],
                   bom_ohms(_two_figures_up(contact * (timing["rail"] - timing["vil"]) / timing["vil"])))
        return
    settle = float(decoder.SETTLE.get(spec.name, decoder.SETTLE[decoder.PULSE]))
    rise, fall = timing["rise"], timing["fall"]
    slow = max(rise, fall)
    if slow > settle:
        report.add("protection", "error", spec.name,
                   "%s's filter (%s x %s, %.2f ms) delays each edge at the GPIO by up to %.1f ms: over the "
                   "decoder's %g ms debounce for it (SETTLE); use a smaller capacitor", _where(circuit, spec.name),
                   bom_ohms(_value_of(circuit, spec.name, "filter_pull")), _value_of(circuit, spec.name, "filter"),
                   timing["tau"] * 1000, slow * 1000, settle * 1000)
    if spec.name != decoder.PULSE:
        return
    brk, make = dial
    pps = float(circuit.parts_data.dial["pps_max"])
    seen_break, seen_make = brk - rise + fall, make - fall + rise
    for what, seen, real, least in (("break", seen_break, brk, max(settle, decoder.MIN_BREAK)),
                                    ("make", seen_make, make, max(settle, decoder.MIN_MAKE))):
        if seen < least:
            report.add("protection", "error", spec.name,
                       "%s's filter eats pulses: a %.0f ms %s of a worn dial at %g pulses a second reaches the GPIO "
                       "as %.1f ms, under the %.0f ms the decoder needs to take it (SETTLE, MIN_%s); use a smaller "
                       "capacitor or pull-up", _where(circuit, spec.name), real * 1000, what, pps, max(seen, 0) * 1000,
                       least * 1000, what.upper())


def _value_of(circuit, line, role):
    return next(p.value for p in circuit.of(line=line) if p.role == role)


def check_connector(circuit, report):
    """The cable's layout on the connector as built. The bell's pair carries its own 12 V: a bent
    pin, a stray strand or a solder bridge in the hood that joined it to a logic pin would put
    12 V on a GPIO, so no other wire may be its neighbour, in its row or diagonally in the other
    (a DA-15's 13 sits between 5 and 6, not "a pin away" from them). And the box's end is the live
    one (3V3 and the bell's 12 V come from it): its connector must be the female, so unplugged its
    powered contacts are recessed in sockets a finger or a dropped screwdriver can't reach."""
    from . import cable
    if circuit.board != "pi" or circuit.pinmap.cable is None or not any(s.in_phone for s in circuit.board_lines.values()):
        return
    try:
        ws = cable.wires(circuit)
    except cable.CableError as e:
        report.add("connector", "error", None, "%s", e)
        return
    data = cable.connector(circuit)
    pos = cable.positions(data)
    clear = float(data.get("bell_clear_mm", 0))
    used = [w for w in ws if w.id]
    for bell in (w for w in used if w.bell):
        for other in (w for w in used if not w.bell):
            mm = cable.distance(pos, bell.pin, other.pin)
            if mm < clear:
                report.add("connector", "error", other.id,
                           "%s on pin %d is %.2f mm from the bell's %s on pin %d (%s): under the %g mm kept "
                           "between the bell's pair and everything else; leave the pins around the bell's "
                           "pair empty (a corner: %s)", other.signal, other.pin, mm, bell.signal, bell.pin,
                           "beside it" if mm <= cable.distance(pos, 1, 2) * 1.01 else "diagonally beside it",
                           clear, _corner_hint(data))
    for supply in (w for w in used if w.powered and not w.bell):
        for ground in (w for w in used if w.net == "GND"):
            if ground.pin in cable.neighbours(data, supply.pin):
                report.add("connector", "error", ground.id,
                           "%s on pin %d is beside %s (%s) on pin %d: a bent pin or a solder bridge there shorts "
                           "the Pi's %s supply; put %s on a pin not beside pin %d (the pin map's [cable]; "
                           "%d's neighbours are %s)", ground.signal, ground.pin, supply.signal, supply.net,
                           supply.pin, supply.net, ground.signal, supply.pin, supply.pin,
                           ", ".join(map(str, cable.neighbours(data, supply.pin))))
    powered = [w for w in used if w.powered]
    box, lead = cable.sexes(circuit.pinmap)
    if powered and box != "female":
        report.add("connector", "error", None,
                   "the box's connector is the %s, and its pins carry %s: unplugged, they are bare and live. Make "
                   "the box's the female (sockets) and the cable's the %s (box = \"female\" in [cable])",
                   box, ", ".join("%s (pin %d)" % (w.signal, w.pin) for w in powered), "male")


def _corner_hint(data):
    rows = data["rows"]
    return "%d and %d with %d and %d empty" % (rows[0][-1], rows[1][-1], rows[0][-2], rows[1][-2])


def check_cable_cores(circuit, report):
    """The cable to the phone carries every wire the pin map's [cable] places on its connector, each
    on a core of its own: its cores (parts.toml, the cable's [[kit]] entry, whose words are made
    from the same figure) at least the wires placed. A cable of fewer cores leaves wires out, or
    doubles two signals on one core."""
    cable_map = circuit.pinmap.cable
    if circuit.board != "pi" or cable_map is None:
        return
    placed = len(cable_map["pins"])
    name = circuit.parts_data.connector.get("name", "connector")
    cables = [item for item in circuit.parts_data.kit if item.get("build") == circuit.board and "cores" in item]
    if not cables:
        report.add("connector", "error", None,
                   "the pin map's [cable] places %d wires on the %s, and no [[kit]] entry of the %s build gives its "
                   "cable's cores: give the cable's count of cores (cores, its words naming it as {cores}) so the "
                   "rules can hold it to the wires", placed, name, circuit.board)
    elif int(cables[0]["cores"]) < placed:
        report.add("connector", "error", None,
                   "the pin map's [cable] places %d wires on the %s, and the cable to the phone has %d cores (cores in "
                   "its [[kit]] entry): every wire needs a core of its own; use a cable of at least %d cores",
                   placed, name, int(cables[0]["cores"]), placed)


FLYBACK_VR_USE = 0.8        # newsdesk keeps the flyback diode's reverse voltage (the bell supply at its highest,
                            # whenever the MOSFET is on) under this share of its VRRM, as the drain under vds_use of
                            # the MOSFET's: the wires between the MOSFET and the diode on the coil (the cable, on the
                            # Pi build) ring at each switching edge, and an adapter plugged in live overshoots its voltage
FET_ID_MARGIN = 2.0         # and the coil's highest current under half the MOSFET's continuous drain current: the
                            # datasheet's figure holds its case at that temperature on an ideal heatsink, and this one
                            # stands in a closed box's air on its own


def check_power_ratings(circuit, report):
    """The bell driver's power parts against what the bell supply and the coil put on them: the
    flyback diode stands off the supply, reverse, whenever the MOSFET is on (a 10 V Schottky across
    a 12 V coil breaks down at every strike and shorts the supply through the MOSFET); the MOSFET
    carries the coil's whole current (a small-signal one rated 0.22 A overheats and fails shorted,
    holding the coil on). Each with its margin (FLYBACK_VR_USE, FET_ID_MARGIN)."""
    drivers = [p for p in circuit.parts if p.role == "isolator"]
    if not drivers:
        return
    line, parts = drivers[0].line, circuit.parts_data
    top = supply_max(parts)
    diode = parts.part("diode")
    if "vrrm_v" in diode and top > FLYBACK_VR_USE * float(diode["vrrm_v"]):
        report.add("bell", "error", line,
                   "the flyback diode (%s) is rated %g V reverse (vrrm_v), and whenever the MOSFET is on it stands off "
                   "the bell supply, up to %.1f V (%s): over the %.1f V newsdesk keeps it to, %.0f %% of its rating "
                   "(ringing on the wires to the coil at each switching edge, and an adapter plugged in live, add to "
                   "the supply); use a rectifier rated at least %g V (a 1N5817's 20 V, the "
                   "1N4007's 1000 V)", diode["number"], float(diode["vrrm_v"]), top, _supply_words(parts),
                   FLYBACK_VR_USE * float(diode["vrrm_v"]), FLYBACK_VR_USE * 100, math.ceil(top / FLYBACK_VR_USE))
    fet = parts.part("mosfet")
    most = coil_amps(parts)[2]
    if "id_max_a" in fet and most * FET_ID_MARGIN > float(fet["id_max_a"]):
        report.add("bell", "error", line,
                   "the MOSFET (%s) is rated %g A continuous drain current (id_max_a), and it switches the coil's up to "
                   "%.2f A: newsdesk keeps its rating at least %g times that (the datasheet's figure holds the case at its "
                   "temperature on an ideal heatsink; this one stands in a closed box's air), or it overheats and may "
                   "fail shorted, holding the coil on; use one rated at least %.1f A (the IRLZ44N's 33 A)",
                   fet["number"], float(fet["id_max_a"]), most, FET_ID_MARGIN, math.ceil(most * FET_ID_MARGIN * 10) / 10)


RULES = (check_pulls, check_contact_sense, check_pins, check_addresses, check_boot, check_overlays, check_currents,
         check_amplifier_sd, check_voltages,
         check_isolation,
         check_bell, check_power_ratings, check_failsafe, check_level, check_protection, check_phone_commons,
         check_connector, check_cable_cores)


def check(circuit):
    report = Report(circuit.board)
    for rule in RULES:
        rule(circuit, report)
    return report
