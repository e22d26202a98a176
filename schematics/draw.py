"""Schematics drawn from the circuit model with schemdraw's own SVG backend (no matplotlib):
one drawing per subsystem. Every reference, value, GPIO and header pin number on a drawing
comes from the circuit, so editing the pin map changes the drawings, and the drift test says so.

schemdraw writes floats as Python prints them, which can differ in the last digit between
machines' maths libraries; ``svg_bytes`` rounds every number to two decimals so the files
compare byte for byte.
"""

import re

import schemdraw
import schemdraw.elements as elm
from schemdraw.util import Point

from .bom import ohms_text

ROW = 3.0           # drawing units between the board's pins
FONT = 11
_NUMBER = re.compile(r"-?\d+\.\d+")


def _label(part, words=""):
    value = ohms_text(part.value) if part.kind == "resistor" else str(part.value or "")
    return "\n".join(x for x in (part.ref, words or value) if x)


class _Sheet:
    """A drawing with the board's pins down its left: one row per pin, wired to the right."""

    def __init__(self, circuit, title):
        self.circuit = circuit
        self.d = schemdraw.Drawing(show=False, canvas="svg")
        self.d.config(unit=2.0, fontsize=FONT, font="sans-serif", lw=1.5, margin=1.0, bgcolor="white")
        self.title = title

    def board(self, rows, label):
        """rows: (anchor, name inside the box, the board's pin name, GPIOn or GND)."""
        pins = []
        for anchor, inside, pin_name in reversed(rows):   # schemdraw stacks right-side pins upward
            number = self.circuit.header.number(pin_name)
            pins.append(elm.IcPin(name=inside, pin=str(number) if number is not None else "",
                                  side="right", anchorname=anchor))
        self.ic = self.d.add(elm.Ic(pins=pins, pinspacing=ROW, edgepadW=3.2, edgepadH=0.8,
                                    plblsize=FONT - 1).label(label, loc="top"))
        return self.ic

    def svg(self):
        self.d.add(elm.Label().at((0, -1.6)).label(self.title, loc="center", halign="left", fontsize=FONT + 1))
        return svg_bytes(self.d)


def svg_bytes(drawing):
    raw = drawing.get_imagedata("svg").decode("utf-8")

    def fix(match):
        text = ("%.2f" % float(match.group())).rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    return (_NUMBER.sub(fix, raw).rstrip() + "\n").encode("utf-8")


def _pin_text(circuit, spec):
    name, _ = circuit.board_pin(spec.bcm)
    pull = {"up": "pull-up on", "down": "pull-down on"}.get(spec.pull, "external pull")
    return "%s  %s (%s)" % (name, spec.name, pull) if spec.kind == "input" else "%s  %s" % (name, spec.name)


def _rows(c, specs):
    """One row per single-pin line, then GND."""
    return [(s.name, _pin_text(c, s), c.board_pin(s.bcm)[0]) for s in specs] + [("gnd", "GND", "GND")]


def _contact_row(sheet, spec):
    d, c = sheet.d, sheet.circuit
    parts = {p.role: p for p in c.of(line=spec.name)}
    contact = parts["contact"]
    d.add(elm.Line().right(1.5).at(getattr(sheet.ic, spec.name)))
    if "input_series" in parts:
        # the series resistor, then the filter node: what sits on it is written under its dot
        d.add(elm.Resistor().right().label(_label(parts["input_series"]), loc="top"))
        on_node = ["%s (%s) to %s" % (ohms_text(p.value) if p.kind == "resistor" else p.value, p.ref, p.pins["2"])
                   for role in ("filter_pull", "filter") if role in parts for p in (parts[role],)]
        channel = c.esd_channels.get(contact.pins["1"])
        if channel:
            on_node.append("ESD channel %s (%s)" % (channel[1], channel[0]))
        d.add(elm.Dot().label(",\n".join(on_node), loc="bottom", ofst=0.3, fontsize=FONT - 2))
        d.add(elm.Line().right(0.8))
    kind = elm.Button(nc=contact.value == "NC") if contact.kind == "button" else elm.Switch(nc=contact.value == "NC")
    words = "%s, %s" % ("button" if contact.kind == "button" else "contact", contact.value)
    d.add(kind.right().label(_label(contact, words), loc="top"))
    d.add(elm.Line().right(1))
    if "pull" in parts and "input_series" not in parts:
        pull = parts["pull"]
        d.add(elm.Label().label("%s %s to %s" % (pull.ref, ohms_text(pull.value), pull.pins["2"]), loc="right"))
    _rail_end(d, contact.pins["2"])


def _rail_end(d, rail):
    if rail == "GND":
        d.add(elm.Ground())
    else:
        d.add(elm.Vdd().label(rail))


def _led_row(sheet, spec):
    d, c = sheet.d, sheet.circuit
    parts = {p.role: p for p in c.of(line=spec.name)}
    d.add(elm.Line().right(1.5).at(getattr(sheet.ic, spec.name)))
    if spec.load == "board_led":
        d.add(elm.Label().label("on the board (its own resistor)", loc="right"))
        return
    d.add(elm.Resistor().right().label(_label(parts["series"]), loc="top"))
    channel = c.esd_channels.get(parts["series"].pins["2"])
    if channel:
        # the wire leaves the box: an ESD array's channel on it, at the connector
        d.add(elm.Dot())
        d.add(elm.Label().label("ESD %s %s" % channel, loc="bottom", ofst=0.5, fontsize=FONT - 1))
        d.add(elm.Line().right(0.8))
    led = parts["led"]
    if spec.active_high:
        d.add(elm.LED().right().label(_label(led, "%s LED" % led.value), loc="top"))
        d.add(elm.Line().right(0.5))
        d.add(elm.Ground())
    else:
        d.add(elm.LED().left().reverse().label(_label(led, "%s LED" % led.value), loc="top"))
        d.add(elm.Vdd().label("3V3"))


def _ground_row(sheet, anchor):
    sheet.d.add(elm.Line().right(1.5).at(getattr(sheet.ic, anchor)))
    sheet.d.add(elm.Ground())


def _isolated_driver(sheet, spec, opto_part):
    """The optocoupler and the bell driver on its own supply, right of a dashed barrier."""
    d, c = sheet.d, sheet.circuit
    parts = {p.role: p for p in c.of(line=spec.name)}
    fuse = parts.get("fuse")
    supply = "+%s (%s)" % (parts["supply"].value, parts["supply"].ref)
    fused = "+%s (after %s)" % (parts["supply"].value, fuse.ref) if fuse else supply
    d.add(elm.Line().right(1.5).at(getattr(sheet.ic, spec.name)))
    d.add(elm.Resistor().right().label(_label(parts["series"]), loc="top"))
    if "coupling" in parts:
        # the fail-safe: only a rising line passes the capacitor; the diode and the bleed
        # resistor, down to GND, empty it and take the LED's last current
        d.add(elm.Capacitor(polar=True).right().label(_label(parts["coupling"]),
                                                       loc="top"))
        node = d.add(elm.Dot())
        d.add(elm.Diode().down().reverse().at(node.center).label(_label(parts["reset"], "BAT85"), loc="bottom"))
        d.add(elm.Ground())
        d.add(elm.Line().right(2.4).at(node.center))
        bleed = d.add(elm.Dot())
        if "bleed" in parts:
            d.add(elm.Resistor().down().at(bleed.center).label(_label(parts["bleed"]), loc="bottom"))
            d.add(elm.Ground())
        d.add(elm.Line().right(2.2).at(bleed.center))
    else:
        d.add(elm.Line().right(0.5))
    opto = d.add(elm.Optocoupler().anchor("anode").label(_label(opto_part, "PC817"), loc="top"))
    d.add(elm.Line().down(0.6).at(opto.cathode))
    d.add(elm.Ground())
    barrier_x = (opto.anode[0] + opto.collector[0]) / 2
    top, bottom = opto.anode[1] + 0.2, opto.cathode[1] - 2.6
    d.add(elm.Line().at((barrier_x, top)).to((barrier_x, bottom)).linestyle("--").color("gray"))
    d.add(elm.Label().at((barrier_x, bottom - 0.4)).label("isolation barrier", loc="center", fontsize=FONT - 1))
    # the bell's side: its own supply and ground (J), nothing shared with the board
    d.add(elm.Line().up(0.8).at(opto.collector))
    d.add(elm.Vdd().label(fused))
    d.add(elm.Line().right(1.5).at(opto.emitter))
    gate = d.add(elm.Dot())
    d.add(elm.Line().right(2.2))
    clamp = d.add(elm.Dot()) if "clamp" in parts else None
    d.add(elm.Line().right(2.4 if clamp is not None else 1.5))
    fet = d.add(elm.NFet().reverse().anchor("gate").label(_label(parts["switch"], "IRLZ44N"), loc="bottom", ofst=(-0.6, 0)))
    d.add(elm.Resistor().down().at(gate.center).label(_label(parts["pulldown"]), loc="bottom"))
    d.add(elm.GroundChassis().label("bell GND", loc="right", ofst=0.2))
    if clamp is not None:
        d.add(elm.Zener().down().reverse().at(clamp.center).label(
            _label(parts["clamp"], "%s zener" % parts["clamp"].value), loc="bottom"))
        d.add(elm.GroundChassis())
    d.add(elm.Line().down(0.4).at(fet.source))
    d.add(elm.GroundChassis())
    d.add(elm.Line().up(0.4).at(fet.drain))
    if "fet_cutoff" in parts:
        # the MOSFET's own thermal cutoff, clamped to its tab, in its drain lead
        d.add(elm.Fuse().up().label(_label(parts["fet_cutoff"], "thermal cutoff %s on the tab"
                                           % parts["fet_cutoff"].value), loc="bottom"))
    bottom_node = d.add(elm.Dot())
    coil = d.add(elm.Inductor2(loops=3).up().length(2.0).label(
        _label(parts["solenoid"], "solenoid"), loc="top", ofst=0.3))
    top_node = d.add(elm.Dot())
    if "cutoff" in parts:
        # the thermal cutoff against the coil, in the phone: one-shot, it opens if the coil overheats
        d.add(elm.Fuse().up().label(_label(parts["cutoff"], "thermal cutoff %s" % parts["cutoff"].value),
                                    loc="bottom"))
    if fuse:
        # the slow-blow fuse in the supply's + lead, right after the jack
        d.add(elm.Fuse().up().label(_label(fuse, "%s slow-blow" % fuse.value), loc="bottom"))
    d.add(elm.Vdd().label(supply))
    d.add(elm.Line().right(1.6).at(bottom_node.center))
    d.add(elm.Diode().up().toy(coil.end).label(_label(parts["flyback"], "1N4007"), loc="bottom"))
    d.add(elm.Line().tox(top_node.center))


def _bus_rows(circuit, spec):
    rows = []
    for role, number in spec.pins.items():
        name, _ = circuit.board_pin(number)
        rows.append(("%s_%s" % (spec.name, role), "%s  %s %s" % (name, spec.name, role.upper()), name))
    return rows


def _module(sheet, module, rows, left_pins, right_pins=(), words=""):
    """A module box to the right, its left pins level with the board's rows, wired straight
    (one module per sheet: its pins follow the rows in order)."""
    d = sheet.d
    pins = [elm.IcPin(name=p, side="left", anchorname="m_" + a) for a, p in reversed(left_pins)]
    pins += [elm.IcPin(name=p, side="right", anchorname="m_" + a) for a, p in reversed(right_pins)]
    first = left_pins[-1][0]
    box = elm.Ic(pins=pins, pinspacing=ROW, edgepadW=2.0, edgepadH=0.8).label(_label(module, words), loc="top")
    box = d.add(box.anchor("m_" + first).at(getattr(sheet.ic, rows[-1][0]) + Point((9, 0))))
    for (anchor, _, _), (m_anchor, _) in zip(rows, left_pins):
        d.add(elm.Line().at(getattr(sheet.ic, anchor)).to(getattr(box, "m_" + m_anchor)))
    return box


def draw_dial_and_hook(c):
    filtered = any(p.role == "input_series" for p in c.of(subsystem="dial-and-hook"))
    sheet = _Sheet(c, "Dial and hook: each contact between %s" % (
        "a filter node (pull-up, capacitor, ESD channel) and GND, the node to its GPIO through a series resistor"
        if filtered else "its GPIO and GND"))
    specs = c.specs("dial-and-hook")
    rows = _rows(c, specs)
    sheet.board(rows, c.limits["title"])
    for spec in specs:
        _contact_row(sheet, spec)
    _ground_row(sheet, "gnd")
    return sheet.svg()


def draw_buttons_and_leds(c):
    sheet = _Sheet(c, "Buttons and LEDs")
    specs = c.specs("buttons-and-leds")
    rows = _rows(c, specs)
    sheet.board(rows, c.limits["title"])
    for spec in specs:
        (_contact_row if spec.kind == "input" else _led_row)(sheet, spec)
    _ground_row(sheet, "gnd")
    return sheet.svg()


def draw_ringer(c):
    sheet = _Sheet(c, "Ringer: the GPIO lights an optocoupler; the bell driver has its own supply and ground")
    specs = c.specs("ringer")
    rows = _rows(c, specs)
    sheet.board(rows, c.limits["title"])
    for spec in specs:
        (opto,) = [p for p in c.of(line=spec.name) if p.role == "isolator"]
        _isolated_driver(sheet, spec, opto)
    _ground_row(sheet, "gnd")
    return sheet.svg()


def _draw_bus(c, subsystem, title):
    sheet = _Sheet(c, title)
    specs = c.specs(subsystem)
    rows = []
    for spec in specs:
        rows += _bus_rows(c, spec)
    modules = [p for p in c.parts if p.subsystem == subsystem and p.role == "module"]
    supplies = []
    for module in modules:
        for rail in ("VCC", "VIN"):
            if rail in module.pins:
                supplies.append(("supply_" + module.ref, module.pins[rail], module.pins[rail]))
    rows += supplies + [("gnd", "GND", "GND")]
    sheet.board(rows, c.limits["title"])
    for module in modules:
        spec = c.board_lines[module.line]
        roles = {"sda": "SDA", "scl": "SCL", "bclk": "BCLK", "lrclk": "LRC", "din": "DIN", "sd": "SD"}
        left = [("%s_%s" % (spec.name, role), roles[role]) for role in spec.pins]
        left += [("supply_" + module.ref, "VCC" if "VCC" in module.pins else "VIN"), ("gnd", "GND")]
        right = [("out_p", "OUT+"), ("out_n", "OUT-")] if "OUT+" in module.pins else ()
        words = ("SSD1306 at %s" % module.value) if module.kind == "display" else "MAX98357A"
        box = _module(sheet, module, rows, left, right, words)
        for role in spec.pins:
            channel = c.esd_channels.get("%s_%s" % (spec.name.upper(), role.upper()))
            if channel:
                # the bus's wires leave the box: an ESD array's channel on each, at the connector
                at = getattr(sheet.ic, "%s_%s" % (spec.name, role)) + Point((4.5, 0))
                sheet.d.add(elm.Dot().at(at))
                sheet.d.add(elm.Label().at(at + Point((0, 0.45))).label("ESD %s %s" % channel, fontsize=FONT - 1))
        supply = module.pins.get("VCC")
        if supply and any(p.pins.get("VP") == supply for p in c.parts if p.kind == "esd") and module.kind == "display":
            at = getattr(sheet.ic, "supply_" + module.ref) + Point((4.5, 0))
            sheet.d.add(elm.Label().at(at + Point((0, 0.45))).label(
                "clamped by the ESD arrays' VP", fontsize=FONT - 1))
        if right:
            (receiver,) = [p for p in c.of(line=spec.name) if p.role == "receiver"]
            pads = [p for p in c.of(line=spec.name) if p.role == "pad"]
            sheet.d.add(elm.Line().right(1).at(box.m_out_p))
            if pads:
                sheet.d.add(elm.Resistor().right().label(_label(pads[0]), loc="top"))
            sheet.d.add(elm.Line().right(1))
            speaker = sheet.d.add(elm.Speaker().right().anchor("in1").label(
                _label(receiver, "handset receiver"), loc="right", ofst=0.3))
            sheet.d.add(elm.Line().right(1).at(box.m_out_n))
            if pads:
                sheet.d.add(elm.Resistor().right().label(_label(pads[1]), loc="bottom"))
            sheet.d.add(elm.Line().tox(speaker.in2[0] - 0.6))
            sheet.d.add(elm.Line().toy(speaker.in2))
            sheet.d.add(elm.Line().tox(speaker.in2))
    return sheet.svg()


def draw_display(c):
    supplies = sorted({p.pins["VCC"] for p in c.parts if p.kind == "display"})
    return _draw_bus(c, "display", "Display: I2C; the module's supply (%s) is where its pull-ups go"
                     % ", ".join(supplies))


def draw_audio(c):
    return _draw_bus(c, "audio", "Audio: I2S to a class-D amplifier; the receiver across OUT+ and OUT- through "
                     "a resistor in each leg (a pad), neither to GND")


def draw_pico(c):
    sheet = _Sheet(c, "Phone in a box: a Pico in the phone, on USB to the Pi or a laptop")
    # inputs, then outputs, with the optocoupler's bell driver last: it spreads over two rows
    specs = sorted(c.board_lines.values(), key=lambda s: (s.kind != "input", s.load == "optocoupler"))
    rows = _rows(c, specs)
    sheet.board(rows, c.limits["title"] + "\n(USB to the Pi)")
    for spec in specs:
        if spec.kind == "input":
            _contact_row(sheet, spec)
        elif spec.load == "optocoupler":
            (opto,) = [p for p in c.of(line=spec.name) if p.role == "isolator"]
            _isolated_driver(sheet, spec, opto)
        else:
            _led_row(sheet, spec)
    _ground_row(sheet, "gnd")
    return sheet.svg()


def draw_cable(c):
    """The connector between the box and the phone: each pin, what it carries, both ends."""
    from .cable import describe, wires
    d = schemdraw.Drawing(show=False, canvas="svg")
    d.config(unit=2.0, fontsize=FONT, font="sans-serif", lw=1.5, margin=1.0, bgcolor="white")
    ws = wires(c)
    last = ws[-1].pin
    pins = [elm.IcPin(name=w.signal, pin=str(w.pin), side="left", anchorname="p%d" % w.pin) for w in reversed(ws)]
    box = d.add(elm.Ic(pins=pins, pinspacing=1.0, edgepadW=2.5, edgepadH=0.6, plblsize=FONT - 1)
                .label(describe(c).split(":")[0], loc="top"))
    for w in ws:
        at = getattr(box, "p%d" % w.pin)
        if w.box:
            d.add(elm.Line().left(1.0).at(at))
            d.add(elm.Label().label(w.box, loc="left", halign="right", fontsize=FONT - 1))
        d.add(elm.Label().at(at + Point((6.2, 0))).label(("→ " if w.id else "") + w.phone, loc="right",
                                                           halign="left", fontsize=FONT - 1))
    d.add(elm.Label().at((box.p1[0] - 8, getattr(box, "p%d" % last)[1] - 1.6)).label(
        "The cable to the phone: box end on the left, phone end on the right (%s)" % describe(c).split(": ")[1],
        loc="center", halign="left", fontsize=FONT + 1))
    return svg_bytes(d)


def _solder_side(c, end):
    """One end of the cable's connector seen from its solder side (the tags the builder solders),
    drawn straight from the pin map's [cable] and the connector's geometry in parts.toml: each pin
    at its place with its number and wire, the bell's pair red, powered pins orange, empty pins
    grey. Seen from the back a connector is the mirror of its face, and the female's face is the
    mirror of the male's, so the female's pin 1 is on the left here and the male's on the right."""
    from .cable import connector, describe, positions, sexes, wires
    data = connector(c)
    box_sex, lead_sex = sexes(c.pinmap)
    sex = box_sex if end == "box" else lead_sex
    pos = positions(data)
    scale = 26.0                                   # px per mm
    width_mm = max(x for x, _ in pos.values())
    height_mm = max(y for _, y in pos.values())
    left, top = 150.0, 150.0

    def xy(pin):
        x, y = pos[pin]
        if sex == "male":                          # solder side of a male: its face mirrored
            x = width_mm - x
        return left + x * scale, top + y * scale

    def f(v):
        text = ("%.2f" % v).rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    w_px = left * 2 + width_mm * scale
    h_px = top + height_mm * scale + 240
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" '
           'font-family="sans-serif" font-size="%d">' % (f(w_px), f(h_px), f(w_px), f(h_px), FONT),
           '<rect x="0" y="0" width="%s" height="%s" fill="white"/>' % (f(w_px), f(h_px))]
    # the shell: a trapezoid, the wide row on top
    pad = 1.6 * scale
    x0, x1 = left - pad, left + width_mm * scale + pad
    y0, y1 = top - pad, top + height_mm * scale + pad
    slant = (height_mm * scale + 2 * pad) * 0.18
    out.append('<polygon points="%s,%s %s,%s %s,%s %s,%s" fill="none" stroke="black" stroke-width="1.5"/>'
               % (f(x0), f(y0), f(x1), f(y0), f(x1 - slant), f(y1), f(x0 + slant), f(y1)))
    for w in wires(c):
        x, y = xy(w.pin)
        fill = "#f2b8b5" if w.bell else "#ffd591" if w.powered else "white" if w.id else "#dddddd"
        out.append('<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="black" stroke-width="1.2"/>'
                   % (f(x), f(y), f(0.55 * scale), fill))
        out.append('<text x="%s" y="%s" text-anchor="middle">%d</text>' % (f(x), f(y + 4), w.pin))
        label = w.signal if w.id else "empty"
        upper = pos[w.pin][1] == 0
        ly = y - 1.9 * scale if upper else y + 1.9 * scale
        out.append('<text x="%s" y="%s" text-anchor="%s" transform="rotate(-50 %s %s)">%s</text>'
                   % (f(x), f(ly), "start" if upper else "end", f(x), f(ly), _xml(label)))
    where = ("on the box (panel mount), seen from inside the box" if end == "box"
             else "on the cable, seen from the back, in its hood")
    notes = ["%s %s, solder side: %s" % (data["name"], sex, where),
             "%s;" % describe(c),
             "seen from the solder side the male's pin 1 is on the right, the female's on the left (mirrored)",
             "red: the bell's own 12 V pair; orange: a supply (live on the box's side); grey: left empty"]
    for n, note in enumerate(notes):
        out.append('<text x="20" y="%s" font-size="%d">%s</text>' % (f(h_px - 90 + n * 22), FONT + (1 if n == 0 else 0),
                                                                      _xml(note)))
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _xml(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw_connector_box(c):
    return _solder_side(c, "box")


def draw_connector_cable(c):
    return _solder_side(c, "cable")


DRAWINGS = {
    "dial-and-hook": draw_dial_and_hook,
    "ringer": draw_ringer,
    "buttons-and-leds": draw_buttons_and_leds,
    "display": draw_display,
    "audio": draw_audio,
    "pico": draw_pico,
    "cable": draw_cable,
    "connector-box": draw_connector_box,
    "connector-cable": draw_connector_cable,
}


def draw(circuit, subsystem):
    """The SVG bytes of one subsystem's drawing."""
    return DRAWINGS[subsystem](circuit)
