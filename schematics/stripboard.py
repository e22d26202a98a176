"""A stripboard layout of the box's board, drawn from the circuit (schematics/circuit.py): every
part that sits on the board (the contact lines' protection, the LEDs' and the optocoupler's
resistors, the bell's fail-safe and driver, the ESD arrays, the receiver's pad), placed in
blocks along rows of the board, the strips cut between blocks, and wire links joining the pieces
of strip that carry the same net. A net that goes off the board (to the Pi's header, the
connector, the jack, the amplifier) ends on numbered holes, one wire in each (what a builder can
solder), listed under the drawing; a net whose strips have too few spare holes for its wires gets
a piece of strip of its own in a wire row below the parts, linked to it.

It is a simple layout, not a compact one: every part stands upright across the strips (a
resistor or diode on its end, 2.54 mm between its leads), one block of columns each, so the
builder can follow it hole by hole and the electrical rules' netlist is the only source. Seen
from the component side; the strips run left to right underneath, so from the copper side (where
the cuts are made) it is the mirror image.
"""

from .bom import ohms_text

PITCH = 2.54                # mm between holes
COLUMNS = 37                # holes across a 100 mm board, leaving a margin
SCALE = 9.0                 # px per mm
# the kinds of part that sit on the board, and how their pins stand: a list of columns, each the
# pins from the top row down (a DIP's second column counted back up, as its pins are numbered)
ON_BOARD = {
    "resistor": [["1", "2"]], "capacitor": [["1", "2"]], "coupling": [["+", "-"]],
    "schottky": [["K", "A"]], "zener": [["K", "A"]], "mosfet": [["G", "D", "S"]], "fet_cutoff": [["1", "2"]],
    "optocoupler": [["1", "2"], ["4", "3"]],
    "esd": [["I/O1", "GND", "I/O2"], ["I/O4", "VP", "I/O3"]],
}
SPARE = 2                   # free holes beside each pin's column, for links and wires
PHONE_ROLES = {"contact", "led", "module", "receiver", "solenoid", "flyback", "cutoff"}
# the marks drawn beside a polarised part's pins: which way round it goes in
MARKS = {"coupling": {"+": "+"}, "schottky": {"K": "K"}, "zener": {"K": "K"},
         "mosfet": {"G": "G", "D": "D", "S": "S"}, "optocoupler": {"1": "1"}, "esd": {"I/O1": "1"},
         "fet_cutoff": {"2": "C"}}
LEGEND = ("Marks beside a part's holes, which way round it goes in: + the electrolytic's + lead (the stripe "
          "marks the -); K a diode's cathode (its band); 1 a chip's pin 1 (the optocoupler's dot, the ESD "
          "array's adapter board's pin 1); G D S the MOSFET's gate, drain and source; C the case lead of the MOSFET's "
          "thermal cutoff (fixed to its metal case; the other leaves through the epoxy seal), on the drain's side "
          "(docs/build.md: tape on the tab, and the folded lead sleeved).")
LANE_ROWS = 3               # the tallest part's pins


class Block:
    """One part's columns: its pins' holes, the spare holes beside them, and the cut after."""

    def __init__(self, part, columns):
        self.part = part
        self.columns = columns      # [[pin, ...] per pin column]
        self.x = self.lane = 0

    @property
    def width(self):
        # a DIP: spare, spare, pins, cut, cut, pins, spare, spare; else pins, spare, spare
        return (SPARE * 2 + 4) if len(self.columns) == 2 else 1 + SPARE

    def holes(self):
        """(pin, column, row offset) of each pin, and [(column, row offset, pin)] of the spares."""
        pins, spares = [], []
        if len(self.columns) == 2:
            left, right = self.x + SPARE, self.x + SPARE + 3
            for n, pin in enumerate(self.columns[0]):
                pins.append((pin, left, n))
                spares += [(self.x + k, n, pin) for k in range(SPARE)]
            for n, pin in enumerate(self.columns[1]):
                pins.append((pin, right, n))
                spares += [(right + 1 + k, n, pin) for k in range(SPARE)]
        else:
            for n, pin in enumerate(self.columns[0]):
                pins.append((pin, self.x, n))
                spares += [(self.x + 1 + k, n, pin) for k in range(SPARE)]
        return pins, spares

    def inner_cuts(self):
        """The columns cut inside the block (between a DIP's two sides), on its rows."""
        if len(self.columns) == 2:
            return [self.x + SPARE + 1, self.x + SPARE + 2]
        return []


class Layout:
    """Blocks placed in lanes, the strips' pieces (segments) with their nets, the cuts, the links
    and the wires off the board."""

    def __init__(self, circuit):
        self.circuit = circuit
        self.blocks = []
        x, lane = 0, 0
        phone = self.phone_refs()           # a kind that stands on the board may also sit in the phone
        placed = [Block(part, ON_BOARD[part.kind]) for part in circuit.parts
                  if part.kind in ON_BOARD and part.ref not in phone]
        for n, block in enumerate(placed):
            # the MOSFET and the cutoff clamped to its tab, added after it, share a lane side by side
            after = placed[n + 1] if n + 1 < len(placed) else None
            keep = (after.width + 1 if block.part.role == "switch" and after is not None
                    and after.part.role == "fet_cutoff" else 0)
            if x + block.width + 1 + keep > COLUMNS:
                x, lane = 0, lane + 1
            block.x, block.lane = x, lane
            x += block.width + 1            # the column after a block is its cut
            self.blocks.append(block)
        self.rows = (max(b.lane for b in self.blocks) + 1) * LANE_ROWS if self.blocks else 0
        self.hole_net = {}                  # (column, row) -> net, for every used hole
        self.pins = []                      # (block, pin, column, row)
        spare_holes = []
        for b in self.blocks:
            pins, spares = b.holes()
            top = b.lane * LANE_ROWS
            for pin, col, n in pins:
                net = b.part.pins.get(pin)      # None: a pin the part leaves unconnected
                self.pins.append((b, pin, col, top + n))
                if net is not None:
                    self.hole_net[(col, top + n)] = net
            for col, n, pin in spares:
                if pin in b.part.pins:
                    self.hole_net[(col, top + n)] = b.part.pins[pin]
                    spare_holes.append((col, top + n))
        self.cuts = self._cuts()
        self.segments = self._segments()
        self.bus_rows = 0                   # the wire rows: pieces of strip for nets short of holes
        self.links, self.wires = self._connect(set(spare_holes))

    def _cuts(self):
        """Every row of a lane is cut after each block (and between a DIP's sides), except where
        the strip carries the same net on both sides of the cut: then it is left whole."""
        cuts = set()
        for b in self.blocks:
            top = b.lane * LANE_ROWS
            for row in range(top, top + LANE_ROWS):
                for col in b.inner_cuts():
                    cuts.add((col, row))
                col = b.x + b.width
                left, right = self.hole_net.get((col - 1, row)), self.hole_net.get((col + 1, row))
                if not (left is not None and left == right):
                    cuts.add((col, row))
        return cuts

    def _segments(self):
        """The pieces of strip between cuts that carry a net: [(row, first column, last column, net)]."""
        out = []
        for row in range(self.rows):
            start, net = None, None
            for col in range(COLUMNS + 1):
                here = self.hole_net.get((col, row))
                if (col, row) in self.cuts or col == COLUMNS:
                    if start is not None and net is not None:
                        out.append((row, start, col - 1, net))
                    start, net = None, None
                    continue
                if start is None:
                    start = col
                if here is not None:
                    net = here
        return out

    def _connect(self, spares):
        """Links chaining each net's segments in board order, from spare holes; then each net that
        leaves the board gets a wire on a spare hole of its first segment."""
        by_net = {}
        for seg in self.segments:
            by_net.setdefault(seg[3], []).append(seg)
        free = {seg: [(c, seg[0]) for c in range(seg[1], seg[2] + 1) if (c, seg[0]) in spares]
                for seg in self.segments}
        links, wires = [], []
        for net, segs in by_net.items():
            for a, b in zip(segs, segs[1:]):
                links.append((free[a].pop(), free[b].pop(0), net))
        away = self.off_board()
        n = 0
        bus_col = 0                         # the next free column of the wire rows below the parts
        for net in sorted(away, key=self._net_order):
            # each destination its own hole, ONE wire in each (a GND that goes to the Pi, the
            # connector and the jack gets a hole for each: a builder solders one wire into one hole),
            # from the spare holes of the net's pieces of strip in turn; should they run out, the
            # net gets a piece of strip of its own in the wire rows, linked to it from its last spare
            holes = [h for seg in by_net[net] for h in free[seg]]
            dests = away[net]
            if len(dests) > len(holes):
                if not holes:
                    raise ValueError("the stripboard has no spare hole left on %s for its wires" % net)
                link_from = holes.pop()
                extra = len(dests) - len(holes)
                if not self.bus_rows or bus_col + extra + 1 > COLUMNS:
                    self.bus_rows, bus_col = self.bus_rows + 1, 0
                row = self.rows + self.bus_rows - 1
                piece = [(bus_col + k, row) for k in range(extra + 1)]
                for hole in piece:
                    self.hole_net[hole] = net
                self.cuts.add((bus_col + extra + 1, row))
                bus_col += extra + 2
                self.segments.append((row, piece[0][0], piece[-1][0], net))
                links.append((link_from, piece[0], net))
                holes += piece[1:]
            for hole, dest in zip(holes, dests):
                n += 1
                wires.append((n, hole, net, "%s: %s" % (net, dest)))
        if self.bus_rows:
            self.rows += self.bus_rows
        return links, wires

    def _net_order(self, net):
        for b, pin, col, row in self.pins:
            if b.part.pins.get(pin) == net:
                return (row, col)
        return (0, 0)

    def phone_refs(self):
        """The parts at the far end of the cable: a contact, LED, module, receiver, solenoid, its
        diode and its thermal cutoff on a line in the phone. The board's wire for them goes to the
        connector's pin, not to the part."""
        lines = {name for name, spec in self.circuit.board_lines.items() if getattr(spec, "in_phone", False)}
        return {p.ref for p in self.circuit.parts if p.line in lines and p.role in PHONE_ROLES
                and p.kind != "amplifier"}             # (the amplifier's module stays in the box)

    def off_board(self):
        """net -> where each of its wires goes, in order: the Pi's header pin, a pin of the
        connector to the phone (by its number, with its wire's name), a module's pin, the jack."""
        on = {b.part.ref for b in self.blocks}
        board_nets = {net for b in self.blocks for net in b.part.pins.values()}
        phone = self.phone_refs()
        pins = _connector_pins(self.circuit)
        out = {}
        for net, members in self.circuit.nets().items():
            if net not in board_nets:
                continue
            where = []
            for ref, pin in members:
                if ref in on:
                    continue
                if ref == self.circuit.board_part.ref:
                    where.append("Pi pin %s" % pin)
                elif ref in phone and net in pins:
                    where += pins[net]
                else:
                    where.append("%s %s" % (ref, pin))
            if where:
                out[net] = sorted(set(where), key=_dest_order)
        return out


def _connector_pins(circuit):
    """net -> ["DA-15 pin n (its wire)", ...] for the wires of the cable to the phone (none for a
    board without one)."""
    from . import cable
    try:
        wires = cable.wires(circuit)
    except cable.CableError:
        return {}
    name = cable.connector(circuit)["name"]
    out = {}
    for w in wires:
        if w.id and w.net:
            out.setdefault(w.net, []).append("%s pin %d (%s)" % (name, w.pin, w.signal))
    return out


def _dest_order(words):
    """The Pi's pins first, then the connector's by number, then the rest."""
    head, _, rest = words.partition(" pin ")
    number = rest.split(" ", 1)[0]
    return (0 if head == "Pi" else 1 if rest else 2, int(number) if number.isdigit() else 0, words)


def _f(v):
    text = ("%.1f" % v).rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _xml(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _label(part):
    if part.kind == "resistor":
        return "%s %s" % (part.ref, ohms_text(part.value))
    return "%s %s" % (part.ref, part.value) if part.value else part.ref


def draw(circuit):
    """The SVG bytes of the box's board."""
    lay = Layout(circuit)
    step = PITCH * SCALE
    left, top = 40.0, 80.0

    def xy(col, row):
        return left + col * step, top + row * step

    width = left * 2 + (COLUMNS - 1) * step
    board_h = top + (lay.rows - 1) * step + 40
    height = board_h + 30 + 18 * (len(lay.wires) + 6)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" '
           'font-family="sans-serif" font-size="10">' % (_f(width), _f(height), _f(width), _f(height)),
           '<rect x="0" y="0" width="%s" height="%s" fill="white"/>' % (_f(width), _f(height)),
           '<text x="20" y="24" font-size="13">The box\'s stripboard (%d x %d holes used), seen from the component '
           'side: %s</text>' % (COLUMNS, lay.rows, _xml(circuit.limits["title"])),
           '<text x="20" y="40">Strips run left to right underneath. X: cut the strip at that hole (from the copper '
           'side, where left and right are swapped).</text>',
           '<text x="20" y="54">Blue: wire links. Numbered holes: wires off the board, one wire in each, listed '
           'below (the bottom row%s: strips for the wires alone).</text>' % ("s" if lay.bus_rows > 1 else ""),
           '<text x="20" y="68" fill="#c0392b">%s</text>' % _xml(LEGEND)]
    for row in range(lay.rows):
        x0, y = xy(0, row)
        x1, _ = xy(COLUMNS - 1, row)
        out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="#f3d9b1" stroke="#d9b98a"/>'
                   % (_f(x0 - step / 2), _f(y - step * 0.4), _f(x1 - x0 + step), _f(step * 0.8)))
        for col in range(COLUMNS):
            cx, cy = xy(col, row)
            out.append('<circle cx="%s" cy="%s" r="2" fill="#8a6d3b"/>' % (_f(cx), _f(cy)))
    for col, row in sorted(lay.cuts):
        cx, cy = xy(col, row)
        d = step * 0.3
        out.append('<path d="M%s %s L%s %s M%s %s L%s %s" stroke="#c0392b" stroke-width="2"/>'
                   % (_f(cx - d), _f(cy - d), _f(cx + d), _f(cy + d), _f(cx - d), _f(cy + d), _f(cx + d), _f(cy - d)))
    for b in lay.blocks:
        pins, _ = b.holes()
        cols = sorted({c for _p, c, _n in pins})
        rows = max(len(c) for c in b.columns)
        x0, y0 = xy(cols[0], b.lane * LANE_ROWS)
        x1, y1 = xy(cols[-1], b.lane * LANE_ROWS + rows - 1)
        out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="3" fill="#d6e4f0" fill-opacity="0.85" '
                   'stroke="#34495e"/>' % (_f(x0 - step * 0.35), _f(y0 - step * 0.35), _f(x1 - x0 + step * 0.7),
                                           _f(y1 - y0 + step * 0.7)))
        for pin, col, n in pins:
            cx, cy = xy(col, b.lane * LANE_ROWS + n)
            out.append('<circle cx="%s" cy="%s" r="3.2" fill="#34495e"/>' % (_f(cx), _f(cy)))
            mark = MARKS.get(b.part.kind, {}).get(pin)
            if mark:
                out.append('<text x="%s" y="%s" font-size="8" font-weight="bold" fill="#c0392b" '
                           'class="mark" data-ref="%s">%s</text>' % (_f(cx + 4), _f(cy - 3), b.part.ref, _xml(mark)))
        out.append('<text x="%s" y="%s" font-size="8" text-anchor="middle" transform="rotate(-90 %s %s)">%s</text>'
                   % (_f((x0 + x1) / 2 - step * 0.45), _f((y0 + y1) / 2), _f((x0 + x1) / 2 - step * 0.45),
                      _f((y0 + y1) / 2), _xml(_label(b.part))))
    for (c0, r0), (c1, r1), _net in lay.links:
        (x0, y0), (x1, y1) = xy(c0, r0), xy(c1, r1)
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#2e86de" stroke-width="1.6" stroke-opacity="0.8"/>'
                   % (_f(x0), _f(y0), _f(x1), _f(y1)))
    for n, (col, row), _net, _words in lay.wires:
        cx, cy = xy(col, row)
        out.append('<circle cx="%s" cy="%s" r="5" fill="#27ae60"/>' % (_f(cx), _f(cy)))
        out.append('<text x="%s" y="%s" font-size="7" fill="white" text-anchor="middle">%d</text>'
                   % (_f(cx), _f(cy + 2.5), n))
    y = board_h + 20
    out.append('<text x="20" y="%s" font-size="11">Wires off the board (net: where it goes):</text>' % _f(y))
    for n, _hole, _net, words in lay.wires:
        y += 18
        out.append('<text x="30" y="%s">%d  %s</text>' % (_f(y), n, _xml(words)))
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")
