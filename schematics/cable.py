"""The cable between the box and the phone, read off the circuit: which pin of the connector
carries which wire. Lines the pin map marks ``in_phone`` (the dial and hook always) cross it;
everything with a resistor in it (the LEDs' series resistors, the receiver's pad, the bell
driver) stays in the box, so the cable carries only the far ends. The order is fixed by kind,
so moving a line in the pin map moves its wire here and in docs/build.md, and the drift test
says so:

    1..   the phone's contacts, then their common GND
    ..    LEDs in the phone (their resistors stay in the box; they return on that GND)
    ..    the display: its supply, SDA, SCL and a GND of its own
    ..    the receiver pair, after the pad
    ..    one pin left empty, then the bell pair last (the bell driver's own 12 V side)
"""

from controller.pinmap import BusSpec

CONNECTOR = "DA-15 (D-sub, 15 pins): a male on the box, a female on the phone's cable"
PINS = 15


class CableError(Exception):
    """The lines in the phone need more wires than the connector has."""


class Wire:
    __slots__ = ("pin", "signal", "box", "phone")

    def __init__(self, pin, signal, box, phone):
        self.pin = pin          # the connector's pin number, or None for an empty one
        self.signal = signal    # short name, as printed on the drawing
        self.box = box          # where it starts in the box
        self.phone = phone      # where it ends in the phone

    def __repr__(self):
        return "<Wire %s %s>" % (self.pin, self.signal)


def _where(circuit, net):
    for n, (_line, name) in circuit.gpio.items():
        if n == net:
            pin = circuit.header.pins.get(name)
            return "%s (header pin %s)" % (name, pin) if pin is not None else name
    return net


def wires(circuit):
    """The connector's wires, in pin order; empty pins have signal "(empty)"."""
    out = []
    lines = [s for s in circuit.board_lines.values() if s.in_phone]

    def of(line, role):
        return [p for p in circuit.of(line=line) if p.role == role]

    contacts = [s for s in lines if not isinstance(s, BusSpec) and s.kind == "input"]
    for spec in contacts:
        (contact,) = of(spec.name, "contact")
        out.append(Wire(0, spec.name, _where(circuit, contact.pins["1"]),
                        "%s: the %s pair's live side" % (contact.ref, spec.name)))
    leds = [s for s in lines if not isinstance(s, BusSpec) and s.kind == "output" and s.load == "led"]
    if contacts or leds:
        out.append(Wire(0, "GND", "GND", "the common side of every contact%s" % (" and LED" if leds else "")))
    for spec in leds:
        (series,) = of(spec.name, "series")
        (led,) = of(spec.name, "led")
        out.append(Wire(0, spec.name, "%s's far end (%s stays in the box)" % (series.ref, series.ref),
                        "%s's anode; its cathode to GND" % led.ref))
    for spec in (s for s in lines if isinstance(s, BusSpec) and s.kind == "i2c"):
        (module,) = of(spec.name, "module")
        out.append(Wire(0, "%s %s" % (spec.name, module.pins["VCC"]), module.pins["VCC"], "%s VCC" % module.ref))
        for role in ("sda", "scl"):
            out.append(Wire(0, "%s %s" % (spec.name, role.upper()), _where(circuit, "%s_%s" % (spec.name.upper(), role.upper())),
                            "%s %s" % (module.ref, role.upper())))
        out.append(Wire(0, "%s GND" % spec.name, "GND", "%s GND (the bus's own return)" % module.ref))
    for spec in (s for s in lines if isinstance(s, BusSpec) and s.kind == "i2s"):
        (receiver,) = of(spec.name, "receiver")
        pads = of(spec.name, "pad")
        for pin in ("1", "2"):
            net = receiver.pins[pin]
            src = [p.ref for p in pads if p.pins["2"] == net]
            out.append(Wire(0, "receiver %s" % ("+" if pin == "1" else "-"),
                            "%s's far end" % src[0] if src else net, "%s, the receiver's %s tag" % (receiver.ref, pin)))
    bell = [s for s in lines if not isinstance(s, BusSpec) and s.load == "optocoupler"]
    for spec in bell:
        out.append(Wire(None, "(empty)", "", "keeps the bell's pair a pin away from the rest"))
        (solenoid,) = of(spec.name, "solenoid")
        (diode,) = of(spec.name, "flyback")
        (supply,) = of(spec.name, "supply")
        out.append(Wire(0, "bell +%s" % supply.value.replace(" ", ""), "%s + (the bell supply)" % supply.ref,
                        "%s and %s's cathode" % (solenoid.ref, diode.ref)))
        out.append(Wire(0, "bell switched", "%s drain" % of(spec.name, "switch")[0].ref,
                        "%s's other end and %s's anode" % (solenoid.ref, diode.ref)))
    if len(out) > PINS:
        raise CableError("the phone's lines need %d wires; the %s has %d" % (len(out), CONNECTOR, PINS))
    for n, wire in enumerate(out, 1):
        wire.pin = n
    return out


def table(circuit):
    rows = ["| pin | wire | in the box | in the phone |", "| ---: | --- | --- | --- |"]
    for w in wires(circuit):
        rows.append("| %d | %s | %s | %s |" % (w.pin, w.signal, w.box or "", w.phone))
    return "\n".join(rows)
