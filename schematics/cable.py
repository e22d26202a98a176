"""The cable between the box and the phone, read off the circuit and the pin map's [cable]: which
pin of the connector carries which wire. Lines the pin map marks ``in_phone`` (the dial and hook
always) cross it; everything with a resistor in it (the LEDs' series resistors, the receiver's
pad, the bell driver) stays in the box, so the cable carries only the far ends. The wires are
named here, from the circuit; which pin each takes is the pin map's (one home for the layout), so
the electrical rules can judge the layout with the connector's real geometry (schematics/erc.py)
and the drawings of both ends are drawn from the same table.

Geometry: a D-sub's pins sit in rows (hardware/parts.toml [connector]), each row offset half a
pitch from the one above, numbered left to right on the male's face. Seen from the solder side
(where the builder works) a connector is the mirror of its face, and a female's face is the mirror
of the male's: so on the solder side the female's pin 1 is on the left, the male's on the right.
"""

import math

from controller.pinmap import BusSpec


class CableError(Exception):
    """The pin map's [cable] doesn't match the wires the circuit needs, or the connector."""


class Wire:
    __slots__ = ("pin", "id", "signal", "box", "phone", "net", "bell", "powered")

    def __init__(self, id_, signal, box, phone, net=None, bell=False, powered=False):
        self.pin = None         # the connector's pin number
        self.id = id_           # the name the pin map's [cable] gives it ("" for an empty pin)
        self.signal = signal    # short name, as printed on the drawings
        self.box = box          # where it starts in the box
        self.phone = phone      # where it ends in the phone
        self.net = net          # its net in the box
        self.bell = bell        # on the bell driver's own side (its 12 V pair)
        self.powered = powered  # carries a supply (3V3, 5V, the bell's 12 V): live when unplugged

    def __repr__(self):
        return "<Wire %s %s>" % (self.pin, self.signal)


def connector(circuit):
    """The connector's data from parts.toml [connector]."""
    data = circuit.parts_data.connector
    if not data.get("rows"):
        raise CableError("hardware/parts.toml has no [connector] with its rows of pins")
    return data


def pin_numbers(circuit):
    return [n for row in connector(circuit)["rows"] for n in row]


def positions(data):
    """pin -> (x, y) in mm on the male's face, pin 1 at the top left: each row offset half a
    pitch from the one above (a DA-15's 9 sits between 1 and 2)."""
    pitch, row_mm = float(data["pitch_mm"]), float(data["row_mm"])
    return {n: (i * pitch + r * pitch / 2, r * row_mm)
            for r, row in enumerate(data["rows"]) for i, n in enumerate(row)}


def distance(pos, a, b):
    return math.hypot(pos[a][0] - pos[b][0], pos[a][1] - pos[b][1])


def neighbours(data, pin):
    """The pins nearest ``pin``: beside it in its row and diagonally in the rows above and below
    (anything within a diagonal's distance)."""
    pos = positions(data)
    reach = math.hypot(float(data["pitch_mm"]) / 2, float(data["row_mm"])) * 1.01
    return sorted(n for n in pos if n != pin and distance(pos, pin, n) <= reach)


def sexes(pinmap):
    """(the box's connector, the cable's): the pin map says the box's, the cable's is the other."""
    box = pinmap.cable["box"]
    return box, "male" if box == "female" else "female"


def describe(circuit):
    """'DA-15 (D-sub, 15 pins): a female on the box, a male on the phone's cable'."""
    box, lead = sexes(circuit.pinmap)
    return "%s (D-sub, %d pins): a %s on the box, a %s on the phone's cable" % (
        connector(circuit)["name"], len(pin_numbers(circuit)), box, lead)


def _where(circuit, net):
    for n, (_line, name) in circuit.gpio.items():
        if n == net:
            pin = circuit.header.pins.get(name)
            return "%s (header pin %s)" % (name, pin) if pin is not None else name
    return net


def _contact_box_end(circuit, spec, net):
    """Where a contact's wire starts in the box: its GPIO, or the filter node before its series
    resistor when it has one."""
    if net in circuit.gpio:
        return _where(circuit, net)
    series = [p for p in circuit.of(line=spec.name) if p.role == "input_series"]
    if series:
        return "filter node, %s to %s" % (series[0].ref, _where(circuit, series[0].pins["1"]))
    return net


def needed(circuit):
    """The wires the lines in the phone need, in a fixed order, without pins."""
    out = []
    lines = [s for s in circuit.board_lines.values() if s.in_phone]
    rails = circuit.rails

    def of(line, role):
        return [p for p in circuit.of(line=line) if p.role == role]

    def wire(id_, signal, box, phone, net):
        channel = circuit.esd_channels.get(net)
        if channel:
            box += "; ESD channel %s (%s)" % (channel[1], channel[0])
        elif net == "3V3" and any(p.role == "esd" for p in circuit.parts):
            box += "; clamped by the ESD arrays' VP (%s)" % ", ".join(p.ref for p in circuit.parts if p.role == "esd")
        out.append(Wire(id_, signal, box, phone, net, net in circuit.isolated,
                        rails.get(net, 0.0) > 0))

    contacts = [s for s in lines if not isinstance(s, BusSpec) and s.kind == "input"]
    for spec in contacts:
        (contact,) = of(spec.name, "contact")
        net = contact.pins["1"]
        wire(spec.name, spec.name, _contact_box_end(circuit, spec, net),
             "%s: the %s pair's live side" % (contact.ref, spec.name), net)
    leds = [s for s in lines if not isinstance(s, BusSpec) and s.kind == "output" and s.load == "led"]
    if contacts or leds:
        wire("GND", "GND", "GND", "the common side of every contact%s" % (" and LED" if leds else ""), "GND")
    for spec in leds:
        (series,) = of(spec.name, "series")
        (led,) = of(spec.name, "led")
        wire(spec.name, spec.name, "%s's far end (%s stays in the box)" % (series.ref, series.ref),
             "%s's anode; its cathode to GND" % led.ref, series.pins["2"])
    for spec in (s for s in lines if isinstance(s, BusSpec) and s.kind == "i2c"):
        (module,) = of(spec.name, "module")
        vcc = module.pins["VCC"]
        wire("%s VCC" % spec.name, "%s %s" % (spec.name, vcc), vcc, "%s VCC" % module.ref, vcc)
        for role in ("sda", "scl"):
            net = module.pins[role.upper()]
            wire("%s %s" % (spec.name, role.upper()), "%s %s" % (spec.name, role.upper()),
                 _where(circuit, net), "%s %s" % (module.ref, role.upper()), net)
        wire("%s GND" % spec.name, "%s GND" % spec.name, "GND", "%s GND (the bus's own return)" % module.ref, "GND")
    for spec in (s for s in lines if isinstance(s, BusSpec) and s.kind == "i2s"):
        (receiver,) = of(spec.name, "receiver")
        pads = of(spec.name, "pad")
        for pin in ("1", "2"):
            net = receiver.pins[pin]
            src = [p.ref for p in pads if p.pins["2"] == net]
            sign = "+" if pin == "1" else "-"
            wire("receiver %s" % sign, "receiver %s" % sign, "%s's far end" % src[0] if src else net,
                 "%s, the receiver's %s tag" % (receiver.ref, pin), net)
    bell = [s for s in lines if not isinstance(s, BusSpec) and s.load == "optocoupler"]
    for spec in bell:
        (solenoid,) = of(spec.name, "solenoid")
        (diode,) = of(spec.name, "flyback")
        (supply,) = of(spec.name, "supply")
        fuses = of(spec.name, "fuse")
        source = ("%s after the fuse (%s +, the bell supply)" % (fuses[0].ref, supply.ref) if fuses
                  else "%s + (the bell supply)" % supply.ref)
        cutoffs = of(spec.name, "cutoff")
        far = ("%s (the thermal cutoff, taped to %s), then %s and %s's cathode" % (cutoffs[0].ref, solenoid.ref,
                                                                                 solenoid.ref, diode.ref)
               if cutoffs else "%s and %s's cathode" % (solenoid.ref, diode.ref))
        wire("bell +", "bell +%s" % supply.value.replace(" ", ""), source, far,
             cutoffs[0].pins["1"] if cutoffs else solenoid.pins["1"])
        fet, fet_cutoffs = of(spec.name, "switch")[0], of(spec.name, "fet_cutoff")
        wire("bell switched", "bell switched",
             ("%s (the thermal cutoff on %s's tab), then %s's drain" % (fet_cutoffs[0].ref, fet.ref, fet.ref)
              if fet_cutoffs else "%s drain" % fet.ref),
             "%s's other end and %s's anode" % (solenoid.ref, diode.ref), solenoid.pins["2"])
    return out


def wires(circuit):
    """Every pin of the connector, in pin order, each with its wire; a pin the pin map leaves
    empty has signal "(empty)" and says why it is kept free."""
    if circuit.pinmap.cable is None:
        raise CableError("%s has no [cable] saying which connector pin carries which wire"
                         % circuit.pinmap.source)
    data = connector(circuit)
    numbers = pin_numbers(circuit)
    layout = circuit.pinmap.cable["pins"]
    wanted = needed(circuit)
    by_id = {w.id: w for w in wanted}
    unknown = [(pin, name) for pin, name in layout.items() if name not in by_id]
    if unknown:
        raise CableError("the pin map's [cable] puts %s, but the lines in the phone have no such wire (they "
                         "need: %s)" % (", ".join("%r on pin %d" % (n, p) for p, n in unknown),
                                        ", ".join(w.id for w in wanted)))
    off = [pin for pin in layout if pin not in numbers]
    if off:
        raise CableError("the pin map's [cable] uses pin %s: the %s has pins %d-%d"
                         % (", ".join(map(str, off)), data["name"], min(numbers), max(numbers)))
    placed = {name: pin for pin, name in layout.items()}
    missing = [w.id for w in wanted if w.id not in placed]
    if missing:
        free = [n for n in numbers if n not in layout]
        raise CableError("the lines in the phone need %d wires and the pin map's [cable] places %d: give %s a pin "
                         "(free: %s; the %s has %d)" % (len(wanted), len(wanted) - len(missing),
                                                        ", ".join(repr(m) for m in missing),
                                                        ", ".join(map(str, free)) or "none",
                                                        data["name"], len(numbers)))
    for w in wanted:
        w.pin = placed[w.id]
    bell_pins = {w.pin for w in wanted if w.bell}
    out = {w.pin: w for w in wanted}
    for n in numbers:
        if n not in out:
            beside = [b for b in neighbours(data, n) if b in bell_pins]
            why = ("not connected: keeps the bell's pair (pin %s) apart from the rest" % " and ".join(map(str, beside))
                   if beside else "not connected (spare)")
            empty = Wire("", "(empty)", "", why)
            empty.pin = n
            out[n] = empty
    return [out[n] for n in sorted(out)]


def table(circuit):
    rows = ["| pin | wire | in the box | in the phone |", "| ---: | --- | --- | --- |"]
    for w in wires(circuit):
        rows.append("| %d | %s | %s | %s |" % (w.pin, w.signal, w.box or "", w.phone))
    return "\n".join(rows)
