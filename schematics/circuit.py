"""The box as a netlist, built from the pin map and the parts: every part, its pins and the nets
they sit on. The drawings, the KiCad netlist, the bill of materials and the electrical rules all
read this one model, so they can't disagree with each other or with the pin map.

Each part says which of its pins are joined inside it (``groups``: a resistor's two ends, a
display module's pull-ups to its supply) and whether it isolates one side from the other (an
optocoupler). The rules follow those joins to find what can reach a GPIO.
"""

from controller.pinmap import PHONE_LINES, BusSpec

SUBSYSTEMS = {
    "pi": ("dial-and-hook", "ringer", "buttons-and-leds", "display", "audio", "cable", "connector-box",
           "connector-cable"),
    "pico": ("pico",),
}
BOARD_REF = {"pi": "J1", "pico": "U1"}


class Part:
    __slots__ = ("ref", "kind", "value", "pins", "groups", "isolating", "line", "role", "subsystem")

    def __init__(self, ref, kind, value, pins, groups, isolating, line, role, subsystem):
        self.ref = ref
        self.kind = kind            # a [part.<kind>] of parts.toml
        self.value = value          # ohms for a resistor, a colour for an LED, else words
        self.pins = pins            # pin name -> net, in the part's own pin order
        self.groups = groups        # tuples of pins joined inside the part
        self.isolating = isolating  # True if its groups are galvanically isolated from each other
        self.line = line            # the pin map line it serves (None for the board)
        self.role = role            # what it does for that line: contact, series, led, pull, ...
        self.subsystem = subsystem

    def __repr__(self):
        return "<Part %s %s %s>" % (self.ref, self.kind, self.value)


class Circuit:
    """One board's circuit. ``rails`` maps a supply net to its volts; ``gpio`` maps each net on
    a board GPIO to (line, pin name); ``isolated`` holds the nets of the bell driver's side."""

    def __init__(self, board, parts, pinmap):
        self.board = board
        self.parts_data = parts
        self.pinmap = pinmap
        self.header = parts.header(board)
        self.limits = parts.board(board)
        self.parts = []
        self.rails = {}
        self.gpio = {}
        self.isolated = set()
        self.esd_channels = {}      # net -> (the ESD array's ref, its channel pin)
        ref = BOARD_REF[board]
        self._counts = {ref.rstrip("0123456789"): int(ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))}
        self.board_part = self._add_part(ref, board, self.limits["title"], {}, (), False, None,
                                         "board", "all")

    def _add_part(self, ref, kind, value, pins, groups, isolating, line, role, subsystem):
        part = Part(ref, kind, value, pins, tuple(groups), isolating, line, role, subsystem)
        self.parts.append(part)
        return part

    def add(self, kind, value, pins, groups=(), isolating=False, line=None, role="", subsystem=""):
        prefix = self.parts_data.part(kind)["prefix"]
        self._counts[prefix] = self._counts.get(prefix, 0) + 1
        ref = "%s%d" % (prefix, self._counts[prefix])
        return self._add_part(ref, kind, value, pins, groups, isolating, line, role, subsystem)

    def rail(self, name):
        """The net of a board supply rail, wiring the board's pin to it the first time."""
        if name not in self.rails:
            self.rails[name] = self.parts_data.rails[name]
            self.board_part.pins[str(self.header.power[name])] = name
        return name

    def board_pin(self, number):
        """The board's name for pin ``number`` (GPIOn on the Pi, GPn on the Pico) and the pin's
        netlist name: its header number, or its own name for a pin that reaches no header pin
        (the Pico's LED)."""
        name = ("GPIO%d" if self.board == "pi" else "GP%d") % number
        on_header = self.header.pins.get(name)
        return name, (str(on_header) if on_header is not None else name)

    def wire_gpio(self, spec, number, net):
        name, pin = self.board_pin(number)
        self.board_part.pins[pin] = net
        self.gpio[net] = (spec.name, name)
        return net

    @property
    def board_lines(self):
        """The pin map's lines for this board, by name, in the file's order."""
        return self.pinmap.pi if self.board == "pi" else self.pinmap.pico

    def specs(self, subsystem):
        """The lines drawn on one subsystem's sheet."""
        return [s for s in self.board_lines.values() if self.of(line=s.name, subsystem=subsystem)]

    def nets(self):
        """net -> [(ref, pin), ...], in the order parts were added."""
        nets = {}
        for part in self.parts:
            for pin, net in part.pins.items():
                nets.setdefault(net, []).append((part.ref, pin))
        return nets

    def of(self, line=None, subsystem=None):
        return [p for p in self.parts
                if (line is None or p.line == line) and (subsystem is None or p.subsystem == subsystem)]


def subsystem_of(spec, board):
    if board == "pico":
        return "pico"
    if isinstance(spec, BusSpec):
        return {"i2c": "display", "i2s": "audio"}[spec.kind]
    if spec.kind == "input":
        return "dial-and-hook" if spec.name in PHONE_LINES else "buttons-and-leds"
    return "ringer" if spec.load == "optocoupler" else "buttons-and-leds"


def contact_closed_at_rest(spec):
    """True if the contact is closed while its line is idle (logical 0): the level it reads at
    rest is the level of the rail it closes to."""
    return spec.level(0) == (spec.to != "GND")


def _input(c, spec, sub):
    """A contact between its GPIO and a rail. With a series resistor, the contact's wire lands on
    a filter node of its own (<LINE>_IN) that reaches the GPIO through that resistor; the pull-up
    and the filter's capacitor sit on the node, so a spike off the cable meets the capacitor, then
    the resistor, before the pin."""
    net = c.wire_gpio(spec, spec.bcm, spec.name.upper())
    node = net
    if spec.series_resistor:
        node = net + "_IN"
        c.add("resistor", spec.series_resistor, {"1": net, "2": node}, [("1", "2")], line=spec.name,
              role="input_series", subsystem=sub)
    kind = "contact" if spec.name in PHONE_LINES else "button"
    value = "NC" if contact_closed_at_rest(spec) else "NO"
    c.add(kind, value, {"1": node, "2": c.rail(spec.to)}, [("1", "2")], line=spec.name,
          role="contact", subsystem=sub)
    if spec.pull_resistor:
        c.add("resistor", spec.pull_resistor, {"1": node, "2": c.rail(spec.pull_to)}, [("1", "2")],
              line=spec.name, role="pull", subsystem=sub)
    if spec.filter_pull:
        # the protective pull, away from the rail the contact closes to
        c.add("resistor", spec.filter_pull, {"1": node, "2": c.rail("3V3" if spec.to == "GND" else "GND")},
              [("1", "2")], line=spec.name, role="filter_pull", subsystem=sub)
    if spec.filter_nf:
        # no DC path: a capacitor joins nothing for the rules' reach
        c.add("capacitor", "%g nF" % spec.filter_nf, {"1": node, "2": c.rail("GND")}, (), line=spec.name,
              role="filter", subsystem=sub)


def _led_pins(c, spec, mid):
    """An LED (or an optocoupler's LED) lit by the line: anode side to the pin when HIGH
    switches it on, else from 3V3 into the pin."""
    if spec.active_high:
        return mid, c.rail("GND")
    return c.rail("3V3"), mid


def _failsafe(c, spec, sub, cpl, anode):
    """The bell's fail-safe: a capacitor in series with the optocoupler's resistor (only a rising
    line passes: held high, the LED's current dies away), a Schottky diode from GND to the LED's
    anode that empties the capacitor when the line falls, and a bleed resistor across the LED
    that takes the last of its current. On the board's side of the optocoupler."""
    fs = c.parts_data.failsafe
    gnd = c.rail("GND")
    # no DC path: a capacitor joins nothing for the rules' reach
    c.add("coupling", "%g µF" % fs["coupling_uf"], {"+": cpl, "-": anode}, (), line=spec.name,
          role="coupling", subsystem=sub)
    c.add("schottky", "", {"K": anode, "A": gnd}, [("K", "A")], line=spec.name, role="reset", subsystem=sub)
    if fs.get("bleed_ohms"):
        c.add("resistor", fs["bleed_ohms"], {"1": anode, "2": gnd}, [("1", "2")], line=spec.name,
              role="bleed", subsystem=sub)


def _output(c, spec, sub):
    name = spec.name.upper()
    net = c.wire_gpio(spec, spec.bcm, name)
    if spec.load in (None, "board_led"):
        return
    mid = name + ("_LED" if spec.load == "led" else "_OPTO")
    failsafe = spec.load == "optocoupler" and spec.active_high and c.parts_data.failsafe.get("coupling_uf")
    c.add("resistor", spec.resistor, {"1": net, "2": name + "_CPL" if failsafe else mid}, [("1", "2")],
          line=spec.name, role="series", subsystem=sub)
    if failsafe:
        _failsafe(c, spec, sub, name + "_CPL", mid)
    anode, cathode = _led_pins(c, spec, mid)
    if spec.load == "led":
        c.add("led", spec.colour, {"A": anode, "K": cathode}, [("A", "K")], line=spec.name,
              role="led", subsystem=sub)
        return
    # the optocoupler, then the bell driver on its own supply beyond it
    vcc, gnd, gate, sol = (name + "_12V", name + "_GND", name + "_GATE", name + "_SOL")
    c.add("optocoupler", "", {"1": anode, "2": cathode, "3": gate, "4": vcc}, [("1", "2"), ("3", "4")],
          isolating=True, line=spec.name, role="isolator", subsystem=sub)
    bell = c.parts_data.bell
    c.add("resistor", bell["gate_pulldown"], {"1": gate, "2": gnd}, [("1", "2")], line=spec.name,
          role="pulldown", subsystem=sub)
    if bell.get("gate_zener_v"):
        c.add("zener", "%g V" % bell["gate_zener_v"], {"K": gate, "A": gnd}, [("K", "A")],
              line=spec.name, role="clamp", subsystem=sub)
    # the supply's side first (the fuse F1, the coil's cutoff F2), so that the MOSFET's own cutoff,
    # added beside it and placed beside it on the board, is F3
    coil_top = name + "_12V_COIL" if bell.get("cutoff_c") else vcc
    supply_plus = vcc
    if bell.get("fuse_a"):
        # the slow-blow fuse in the supply's + lead, right after the jack
        supply_plus = name + "_12V_IN"
        c.add("fuse", "T%gA" % bell["fuse_a"], {"1": supply_plus, "2": vcc}, [("1", "2")], line=spec.name,
              role="fuse", subsystem=sub)
        c.isolated.add(supply_plus)
        c.rails[supply_plus] = float(bell["supply_v"])
    c.add("supply12", "%g V" % bell["supply_v"], {"+": supply_plus, "-": gnd}, (), line=spec.name,
          role="supply", subsystem=sub)
    if coil_top != vcc:
        # the thermal cutoff, against the coil, before the coil and its flyback diode: opened, it
        # leaves the coil's last current to die in the diode
        c.add("cutoff", "%g °C" % bell["cutoff_c"], {"1": vcc, "2": coil_top}, [("1", "2")], line=spec.name,
              role="cutoff", subsystem=sub)
        c.rails[coil_top] = float(bell["supply_v"])
        c.isolated.add(coil_top)
    drain = name + "_DRAIN" if bell.get("fet_cutoff_c") else sol
    c.add("mosfet", "", {"G": gate, "D": drain, "S": gnd}, [("D", "S")], line=spec.name,
          role="switch", subsystem=sub)
    if drain != sol:
        # the MOSFET's own thermal cutoff, clamped to its tab, in its drain lead (its case lead on the
        # drain's side, the tab's potential): a gate held half on heats the MOSFET, not the coil, and
        # this opens for good before its tab passes the cutoff's rating (erc.fet_cutoff_timing)
        c.add("fet_cutoff", "%g °C" % bell["fet_cutoff_c"], {"1": sol, "2": drain}, [("1", "2")], line=spec.name,
              role="fet_cutoff", subsystem=sub)
        c.isolated.add(drain)
    # the coil's own rating, not the supply's: the rules check one against the other
    rated = c.parts_data.part("solenoid").get("rated_v", bell["supply_v"])
    c.add("solenoid", "%g V" % rated, {"1": coil_top, "2": sol}, [("1", "2")], line=spec.name,
          role="solenoid", subsystem=sub)
    c.add("diode", "", {"A": sol, "K": coil_top}, [("A", "K")], line=spec.name, role="flyback", subsystem=sub)
    c.rails[vcc] = float(bell["supply_v"])
    c.rails[gnd] = 0.0
    c.isolated.update((vcc, gnd, gate, sol))


def _bus(c, spec, sub):
    name = spec.name.upper()
    nets = {role: c.wire_gpio(spec, pin, "%s_%s" % (name, role.upper())) for role, pin in spec.pins.items()}
    gnd = c.rail("GND")
    if spec.kind == "i2c":
        vcc = c.rail(spec.supply or "3V3")
        c.add("display", "0x%02X" % spec.address,
              {"GND": gnd, "VCC": vcc, "SCL": nets["scl"], "SDA": nets["sda"]},
              [("VCC", "SCL", "SDA")], line=spec.name, role="module", subsystem=sub)
        return
    vin = c.rail(spec.supply or "5V")
    out_p, out_n = name + "_OUT+", name + "_OUT-"
    pins = {"LRC": nets["lrclk"], "BCLK": nets["bclk"], "DIN": nets["din"], "GND": gnd, "VIN": vin,
            "OUT+": out_p, "OUT-": out_n}
    groups = [("OUT+", "OUT-")]
    if "sd" in nets:
        pins["SD"] = nets["sd"]
        # the breakout's own 1 MΩ pull-up from SD to VIN (Adafruit's MAX98357A breakout)
        groups.append(("SD", "VIN"))
    c.add("amplifier", "", pins, groups, line=spec.name, role="module", subsystem=sub)
    pad = c.parts_data.audio.get("pad_ohms")
    ends = (out_p, out_n)
    if pad:
        # a resistor in each leg: with the receiver, a pad the amplifier can't overdrive
        ends = (name + "_RX+", name + "_RX-")
        for out, end in zip((out_p, out_n), ends):
            c.add("resistor", pad, {"1": out, "2": end}, [("1", "2")], line=spec.name, role="pad",
                  subsystem=sub)
    c.add("receiver", "", {"1": ends[0], "2": ends[1]}, [("1", "2")], line=spec.name,
          role="receiver", subsystem=sub)


def esd_nets(c, spec):
    """The nets of a line's wires that an ESD channel guards: a contact's wire (its filter node), an
    LED's wire (after its resistor), an I2C bus's SDA and SCL; the bus's supply is clamped by the
    array's rail pin."""
    parts = c.of(line=spec.name)
    if isinstance(spec, BusSpec):
        return ["%s_%s" % (spec.name.upper(), role.upper()) for role in spec.pins] if spec.kind == "i2c" else []
    if spec.kind == "input":
        return [p.pins["1"] for p in parts if p.role == "contact"]
    return [p.pins["2"] for p in parts if p.role == "series" and spec.load == "led"]


def _esd(c):
    """ESD arrays at the connector: one channel on each wire of the lines marked ``esd``, as many
    arrays as the channels need, each clamping 3V3 with its rail pin."""
    nets = [(spec.name, net) for spec in c.board_lines.values() if getattr(spec, "esd", False)
            for net in esd_nets(c, spec)]
    if not nets:
        return
    per = int(c.parts_data.part("esd").get("channels", 4))
    for start in range(0, len(nets), per):
        chunk = nets[start:start + per]
        pins = {"I/O%d" % (n + 1): net for n, (_line, net) in enumerate(chunk)}
        pins.update({"GND": c.rail("GND"), "VP": c.rail("3V3")})
        c.add("esd", "", pins, (), line=None, role="esd", subsystem="cable")
        c.esd_channels.update({net: (c.parts[-1].ref, "I/O%d" % (n + 1)) for n, (_line, net) in enumerate(chunk)})


def build(pinmap, parts, board="pi"):
    """The circuit of one board (``pi`` or ``pico``) from the pin map's lines, in their order."""
    c = Circuit(board, parts, pinmap)
    for spec in c.board_lines.values():
        sub = subsystem_of(spec, board)
        if isinstance(spec, BusSpec):
            _bus(c, spec, sub)
        elif spec.kind == "input":
            _input(c, spec, sub)
        else:
            _output(c, spec, sub)
    _esd(c)
    return c
