"""The box's stripboard (schematics/stripboard.py): laid out from the circuit, it must connect
exactly what the circuit connects: every piece of strip carries one net, the links join each
net's pieces into one, no two nets meet, and every net that leaves the board has its wire."""

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from controller.pinmap import load_pinmap  # noqa: E402
from schematics import stripboard  # noqa: E402
from schematics.circuit import build  # noqa: E402
from schematics.parts import load_parts  # noqa: E402


@pytest.fixture(scope="module")
def circuit():
    return build(load_pinmap(), load_parts(), "pi")


def board_nets(layout):
    """What the board as laid out connects: {frozenset of (ref, pin)} per joined group of strip
    pieces, following the cuts and the links, not the circuit's net names."""
    seg_of = {}
    for seg in layout.segments:
        row, first, last, _net = seg
        for col in range(first, last + 1):
            seg_of[(col, row)] = seg
    parent = {seg: seg for seg in layout.segments}

    def find(s):
        while parent[s] != s:
            s = parent[s]
        return s
    for a, b, _net in layout.links:
        parent[find(seg_of[a])] = find(seg_of[b])
    groups = {}
    for block, pin, col, row in layout.pins:
        if pin in block.part.pins:
            groups.setdefault(find(seg_of[(col, row)]), set()).add((block.part.ref, pin))
    return {frozenset(g) for g in groups.values()}


def circuit_nets(circuit, layout):
    on = {b.part.ref for b in layout.blocks}
    out = {}
    for net, members in circuit.nets().items():
        mine = {(ref, pin) for ref, pin in members if ref in on}
        if mine:
            out[net] = frozenset(mine)
    return set(out.values())


def test_the_board_connects_exactly_what_the_circuit_does(circuit):
    layout = stripboard.Layout(circuit)
    assert board_nets(layout) == circuit_nets(circuit, layout)


def test_every_piece_of_strip_carries_one_net_and_every_part_is_on_the_board(circuit):
    layout = stripboard.Layout(circuit)
    for row, first, last, net in layout.segments:
        nets = {layout.hole_net[(c, row)] for c in range(first, last + 1) if (c, row) in layout.hole_net}
        assert nets == {net}, (row, first, last)
    # a kind that stands on the board stays off it in the phone: the coil's thermal cutoff
    kinds = {p.ref for p in circuit.parts if p.kind in stripboard.ON_BOARD} - layout.phone_refs()
    assert {b.part.ref for b in layout.blocks} == kinds
    roles = {p.role for p in circuit.parts if p.ref in kinds}
    assert {"coupling", "reset", "bleed", "switch", "isolator", "esd", "input_series", "filter", "fet_cutoff"} <= roles
    assert "cutoff" not in roles
    # the MOSFET's cutoff stands beside it, so it can lie against the tab
    (fet,) = [b for b in layout.blocks if b.part.role == "switch"]
    (tab,) = [b for b in layout.blocks if b.part.role == "fet_cutoff"]
    assert layout.blocks.index(tab) == layout.blocks.index(fet) + 1 and tab.lane == fet.lane
    # a 50 x 100 mm board: 19 x 39 holes
    assert max(b.x + b.width for b in layout.blocks) <= stripboard.COLUMNS <= 39 and layout.rows <= 19


def test_each_net_that_leaves_the_board_has_one_numbered_wire_on_its_own_strip(circuit):
    layout = stripboard.Layout(circuit)
    away = layout.off_board()
    assert {net for _n, _hole, net, _w in layout.wires} == set(away)
    assert [n for n, *_ in layout.wires] == list(range(1, len(layout.wires) + 1))
    for _n, (col, row), net, words in layout.wires:
        assert layout.hole_net[(col, row)] == net and words.startswith(net + ":")
    assert any("Pi pin 16" in words for *_x, words in layout.wires)       # the ringer's GPIO23
    used = [hole for hole, _b, _net in layout.links] + [hole for _a, hole, _net in layout.links] + \
        [hole for _n, hole, _net, _w in layout.wires]
    assert len(used) == len(set(used))                   # one wire per hole
    assert not set(used) & {(col, row) for _b, _p, col, row in layout.pins}


def test_a_missing_link_or_cut_is_caught(circuit):
    """The checks above can fail: a link left out splits a net; a cut left out joins two."""
    layout = stripboard.Layout(circuit)
    layout.links = layout.links[1:]
    assert board_nets(layout) != circuit_nets(circuit, layout)
    layout = stripboard.Layout(circuit)
    cut = next(c for c in sorted(layout.cuts)
               if layout.hole_net.get((c[0] - 1, c[1])) not in (None, layout.hole_net.get((c[0] + 1, c[1])))
               and (c[0] + 1, c[1]) in layout.hole_net)
    layout.cuts.discard(cut)
    layout.segments = layout._segments()
    with pytest.raises((AssertionError, KeyError)):
        for row, first, last, net in layout.segments:
            nets = {layout.hole_net[(c, row)] for c in range(first, last + 1) if (c, row) in layout.hole_net}
            assert nets == {net}


def test_the_drawing_lists_every_wire_and_part(circuit):
    svg = stripboard.draw(circuit).decode()
    layout = stripboard.Layout(circuit)
    for _n, _hole, _net, words in layout.wires:
        assert stripboard._xml(words) in svg
    for b in layout.blocks:
        assert b.part.ref in svg


def test_polarised_parts_carry_their_marks_and_the_legend_says_what_they_mean(circuit):
    """C4's +, the diodes' cathodes, the optocoupler's and the ESD arrays' pin 1, the MOSFET's
    G, D and S: each drawn beside its own hole, and the convention stated on the drawing."""
    svg = stripboard.draw(circuit).decode()
    assert stripboard._xml(stripboard.LEGEND) in svg
    marked = {}
    for ref, mark in re.findall(r'class="mark" data-ref="([^"]+)">([^<]+)</text>', svg):
        marked.setdefault(ref, []).append(stripboard._xml(mark) if mark != "+" else mark)
    layout = stripboard.Layout(circuit)
    polarised = [b.part for b in layout.blocks if b.part.kind in stripboard.MARKS]
    assert {p.kind for p in polarised} >= {"coupling", "schottky", "zener", "mosfet", "optocoupler", "esd"}
    for part in polarised:
        assert sorted(marked[part.ref]) == sorted(stripboard.MARKS[part.kind].values()), part.ref
    assert not set(marked) - {p.ref for p in polarised}


def test_the_wires_to_the_phone_are_named_by_the_connectors_pin(circuit):
    """Not "S1 1" or "L1 2": the builder solders the board's end to the DA-15, by pin number; and a
    net that goes several places gets a hole for each."""
    layout = stripboard.Layout(circuit)
    phone = layout.phone_refs()
    assert {p.kind for p in circuit.parts if p.ref in phone} >= {"contact", "solenoid", "cutoff", "display"}
    words = [w for *_x, w in layout.wires]
    for ref in phone:
        assert not any(re.search(r"\b%s \S+" % re.escape(ref), w) for w in words), ref
    for pin, wire in load_pinmap().cable["pins"].items():
        if wire.startswith(("receiver", "display VCC")) and not any("pin %d (" % pin in w for w in words):
            continue                                   # the receiver's pair starts at the pad, on the board
        assert sum("DA-15 pin %d (" % pin in w for w in words) == 1, (pin, wire)
    grounds = [w for w in words if w.startswith("GND:")]
    assert len(grounds) >= 8


def test_every_wire_off_the_board_has_a_hole_of_its_own(circuit):
    """The rule a builder can solder to: one wire in each numbered hole (the buttons' and the
    amplifier's GND shared one hole, three wires in it). Where a net's own strips run out of spare
    holes, a piece of strip in a wire row below the parts, linked to the net, gives it more; the
    drawing says so."""
    layout = stripboard.Layout(circuit)
    dests = sum(len(where) for where in layout.off_board().values())
    assert len(layout.wires) == dests and all("," not in words for *_x, words in layout.wires)
    assert len({hole for _n, hole, _net, _w in layout.wires}) == dests
    assert layout.bus_rows >= 1 and layout.rows <= 19
    assert board_nets(layout) == circuit_nets(circuit, layout)
    assert "one wire in each" in stripboard.draw(circuit).decode()
