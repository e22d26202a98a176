"""Electrical rules over a board's circuit: what would hurt a GPIO, or a person, if built.

    pull       every input has a defined level when its contact is open (an internal pull or
               a resistor to a rail), and its contact pulls the other way
    pins       no pin serves two lines, each line sits on a pin the board brings out, a bus
               sits on the pins that carry that bus (I2C1 SDA/SCL, PCM CLK/FS/DOUT), and no
               line sits on a pin a bus's overlay claims (the I2S overlay takes all four PCM
               pins, GPIO20 too, and the amplifier's SD pin when one is named)
    current    each output's current (logic volts - LED forward volts) / resistor stays within
               the board's per-pin limit (a warning above its default drive strength), and all
               outputs together within its total; and is enough: an LED's at least its
               ``min_ma``, an optocoupler's enough to pull the MOSFET's gate up to its ``vgs_on``
               through the gate resistor at the optocoupler's least current transfer ratio
    voltage    no rail above the logic voltage reaches a GPIO through any part's pins
               (contacts count as closed, modules' pull-ups count, LEDs count as conducting)
    isolation  the ringer drives an isolator, and nothing on the bell driver's side shares a
               conductor with the board
    bell       the bell supply stays within the optocoupler's output rating, and the MOSFET's gate
               within its limit (the supply regulated, or a zener clamping the gate)
    level      the loudest the amplifier can drive the handset's receiver, through the pad,
               stays under the ceiling in parts.toml [audio]

Each finding names the line, the pin and the parts involved.
"""

from controller.pinmap import BusSpec

# the alternate function each bus role must sit on (gpiozero's names)
BUS_FUNCTIONS = {
    "i2c": {"sda": "I2C{bus} SDA", "scl": "I2C{bus} SCL"},
    "i2s": {"bclk": "PCM CLK", "lrclk": "PCM FS", "din": "PCM DOUT"},
}
RESERVED = {"pi": {"GPIO0": "the HAT ID EEPROM (ID_SD)", "GPIO1": "the HAT ID EEPROM (ID_SC)"}}
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
        self.currents = {}          # line -> mA it draws from its pin
        self.total_ma = 0.0
        self.receiver_mv = {}       # audio line -> the loudest its receiver can get, mV rms

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


def check_pulls(circuit, report):
    for spec in circuit.board_lines.values():
        if isinstance(spec, BusSpec) or spec.kind != "input":
            continue
        resistors = [p for p in circuit.of(line=spec.name) if p.role == "pull"]
        if spec.pull == "none" and not resistors:
            report.add("pull", "error", spec.name,
                       "%s floats while its contact is open: pull is \"none\" and no pull_resistor "
                       "goes to a rail", _where(circuit, spec.name))
            continue
        if spec.pull != "none" and resistors:
            report.add("pull", "warning", spec.name,
                       "%s has both the internal pull-%s and an external %s ohm resistor",
                       _where(circuit, spec.name), spec.pull, resistors[0].value)
        pulled_to = {"up": "3V3", "down": "GND"}.get(spec.pull) or resistors[0].pins["2"]
        if pulled_to == spec.to:
            report.add("pull", "error", spec.name,
                       "%s is pulled to %s and its contact closes to %s too: it never changes",
                       _where(circuit, spec.name), pulled_to, spec.to)


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
        pins = spec.pins if isinstance(spec, BusSpec) else {"": spec.bcm}
        for role, number in pins.items():
            name, pin = circuit.board_pin(number)
            if name in RESERVED.get(circuit.board, {}):
                report.add("pins", "warning", spec.name, "%s uses %s, kept for %s", spec.name, name,
                           RESERVED[circuit.board][name])
            if name not in circuit.header.pins and getattr(spec, "load", None) != "board_led":
                report.add("pins", "error", spec.name, "%s is on %s, which reaches no pin of the %s",
                           spec.name, name, circuit.limits["title"])
            if isinstance(spec, BusSpec) and name in circuit.header.functions \
                    and role in BUS_FUNCTIONS[spec.kind]:
                wanted = BUS_FUNCTIONS[spec.kind][role].format(bus=spec.bus if spec.bus is not None else 1)
                if wanted not in circuit.header.functions[name]:
                    report.add("pins", "error", spec.name, "%s's %s is on %s (pin %s), which can't be %s",
                               spec.name, role, name, pin, wanted)


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


def _opto_ma_needed(circuit):
    """The least LED current that turns the bell's MOSFET on: the gate resistor must see the
    MOSFET's vgs_on, fed by the optocoupler at its least current transfer ratio."""
    opto, fet = circuit.parts_data.part("optocoupler"), circuit.parts_data.part("mosfet")
    bell = circuit.parts_data.bell
    if not ("ctr_min" in opto and "vgs_on" in fet):
        return None
    return float(fet["vgs_on"]) / float(bell["gate_pulldown"]) / float(opto["ctr_min"]) * 1000.0


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
            ma = max(0.0, logic_v - spec.vf) / spec.resistor * 1000.0
        report.currents[spec.name] = ma
        _check_enough(circuit, report, spec, ma, logic_v)
        if ma > limits["pin_ma"]:
            report.add("current", "error", spec.name,
                       "%s draws %.1f mA through its %s ohm resistor: over the %s mA a pin may give; "
                       "use at least %d ohms", _where(circuit, spec.name), ma, spec.resistor,
                       limits["pin_ma"], _ohms_for(logic_v - spec.vf, limits["drive_ma"]))
        elif ma > limits["drive_ma"]:
            report.add("current", "warning", spec.name,
                       "%s draws %.1f mA: above the pin's default %s mA drive its level sags; "
                       "%d ohms or more keeps it within", _where(circuit, spec.name), ma,
                       limits["drive_ma"], _ohms_for(logic_v - spec.vf, limits["drive_ma"]))
    report.total_ma = sum(report.currents.values())
    if report.total_ma > limits["total_ma"]:
        report.add("current", "error", None, "the outputs draw %.1f mA together: over the %s's %s mA total (%s)",
                   report.total_ma, limits["title"], limits["total_ma"],
                   ", ".join("%s %.1f" % kv for kv in sorted(report.currents.items())))


def _check_enough(circuit, report, spec, ma, logic_v):
    if spec.load == "led":
        least = float(circuit.parts_data.part("led").get("min_ma", 0))
        what = "its LED is hardly lit"
    elif spec.load == "optocoupler":
        least = _opto_ma_needed(circuit) or 0.0
        what = ("the optocoupler can't pull the MOSFET's gate to %g V through %s ohms"
                % (circuit.parts_data.part("mosfet").get("vgs_on", 0), circuit.parts_data.bell["gate_pulldown"]))
    else:
        return
    if ma < least:
        report.add("current", "error", spec.name,
                   "%s gives only %.2f mA through its %s ohm resistor, under the %.1f mA it needs: %s; "
                   "use at most %d ohms", _where(circuit, spec.name), ma, spec.resistor, least, what,
                   int((logic_v - spec.vf) * 1000 / least + 1e-6))


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


def check_bell(circuit, report):
    """What the bell supply does to the parts on its side. With the optocoupler on, its output
    puts (nearly) the whole supply on the MOSFET's gate, unless a zener clamps it."""
    drivers = [p for p in circuit.parts if p.role == "isolator"]
    if not drivers:
        return
    line = drivers[0].line
    bell = circuit.parts_data.bell
    opto, fet = circuit.parts_data.part("optocoupler"), circuit.parts_data.part("mosfet")
    supply = float(bell["supply_v"])
    zener = float(bell.get("gate_zener_v") or 0)
    if "vceo_max" in opto and supply > float(opto["vceo_max"]):
        report.add("bell", "error", line,
                   "the %g V bell supply is over the %g V the optocoupler's output (%s) may stand off",
                   supply, float(opto["vceo_max"]), opto["number"])
    if not zener and not bell.get("regulated", False):
        report.add("bell", "error", line,
                   "the bell supply is not regulated and no zener guards the MOSFET's gate: an "
                   "unregulated adapter reads well above its rating at light load; use a regulated "
                   "one (regulated = true) or fit the zener (gate_zener_v)")
    gate = min(supply, zener) if zener else supply
    led_ma = report.currents.get(line)
    if zener and led_ma and "ctr_max" in opto and "pc_max_mw" in opto:
        # with the gate clamped, the optocoupler's output drops the rest of the supply at up to
        # its highest transfer ratio's current
        mw = (supply - zener) * led_ma * float(opto["ctr_max"])
        if mw > float(opto["pc_max_mw"]):
            report.add("bell", "error", line,
                       "with the gate clamped at %g V, the optocoupler's output may dissipate %.0f mW from "
                       "the %g V supply: over its %g mW; keep the bell supply at 12 V", zener, mw, supply,
                       float(opto["pc_max_mw"]))
    if "vgs_max" in fet and gate > float(fet["vgs_max"]):
        report.add("bell", "error", line,
                   "the MOSFET's gate sees up to %g V from the %g V bell supply: over its %g V limit "
                   "(%s); fit a zener of about 10 V from gate to source (gate_zener_v)",
                   gate, supply, float(fet["vgs_max"]), fet["number"])
    if zener and "vgs_on" in fet and zener < float(fet["vgs_on"]):
        report.add("bell", "error", line,
                   "the %g V zener holds the MOSFET's gate under the %g V it needs to be fully on",
                   zener, float(fet["vgs_on"]))


def check_level(circuit, report):
    """The loudest the receiver can get: the amplifier at clipping, through the pad."""
    audio = circuit.parts_data.audio
    for module in (p for p in circuit.parts if p.kind == "amplifier"):
        if not audio:
            continue
        pads = [p.value for p in circuit.of(line=module.line) if p.role == "pad"]
        rx = float(audio["receiver_ohms"])
        mv = float(audio["amp_max_vrms"]) * rx / (rx + sum(pads)) * 1000.0
        report.receiver_mv[module.line] = mv
        if mv > float(audio["receiver_max_mv"]):
            report.add("level", "error", module.line,
                       "the amplifier can drive the %g ohm receiver at up to %.0f mV through %s: over "
                       "the %g mV ceiling, and it is held against an ear; fit a resistor of at least "
                       "%d ohms in each output leg (pad_ohms)", rx, mv,
                       " and ".join(bom_ohms(v) for v in pads) or "no pad at all",
                       float(audio["receiver_max_mv"]), _pad_for(audio))


def _pad_for(audio):
    rx = float(audio["receiver_ohms"])
    total = rx * (float(audio["amp_max_vrms"]) * 1000.0 / float(audio["receiver_max_mv"]) - 1)
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


RULES = (check_pulls, check_pins, check_overlays, check_currents, check_voltages, check_isolation,
         check_bell, check_level)


def check(circuit):
    report = Report(circuit.board)
    for rule in RULES:
        rule(circuit, report)
    return report
