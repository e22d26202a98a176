"""Electrical rules over a board's circuit: what would hurt a GPIO, or a person, if built.

    pull       every input has a defined level when its contact is open (an internal pull or
               a resistor to a rail), and its contact pulls the other way
    pins       no pin serves two lines, each line sits on a pin the board brings out, and a bus
               sits on the pins that carry that bus (I2C1 SDA/SCL, PCM CLK/FS/DOUT)
    current    each output's current (logic volts - LED forward volts) / resistor stays within
               the board's per-pin limit (a warning above its default drive strength), and all
               outputs together within its total
    voltage    no rail above the logic voltage reaches a GPIO through any part's pins
               (contacts count as closed, modules' pull-ups count, LEDs count as conducting)
    isolation  the ringer drives an isolator, and nothing on the bell driver's side shares a
               conductor with the board

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
    for net, (line, name) in circuit.gpio.items():
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
            if isinstance(spec, BusSpec) and name in circuit.header.functions:
                wanted = BUS_FUNCTIONS[spec.kind][role].format(bus=spec.bus if spec.bus is not None else 1)
                if wanted not in circuit.header.functions[name]:
                    report.add("pins", "error", spec.name, "%s's %s is on %s (pin %s), which can't be %s",
                               spec.name, role, name, pin, wanted)


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
    for net, (line, pin) in circuit.gpio.items():
        reached = _reach(joins, net, set())
        shared = sorted(n for n in circuit.isolated if n in reached)
        if shared:
            report.add("isolation", "error", line,
                       "%s shares a conductor with the bell driver's %s through %s: the bell's side "
                       "must have its own supply and ground, joined to the board only by the optocoupler",
                       _where(circuit, line), shared[0],
                       ", ".join(_describe(circuit, r) for r in reached[shared[0]]))
            return


def _describe(circuit, ref):
    part = next(p for p in circuit.parts if p.ref == ref)
    what = {"contact": "contact", "button": "button", "resistor": "resistor", "display": "display module",
            "amplifier": "amplifier"}.get(part.kind, part.kind)
    if part.line and part.line not in what:
        what = "%s %s" % (part.line, what)
    return "%s (%s)" % (ref, what)


RULES = (check_pulls, check_pins, check_currents, check_voltages, check_isolation)


def check(circuit):
    report = Report(circuit.board)
    for rule in RULES:
        rule(circuit, report)
    return report
