"""The schematics, netlists, bills of materials and wiring tables are drawn from the pin map:
the checked-in files must match what the pin map gives now, byte for byte."""

import csv
import io
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import spice_answers_shared

from controller.pinmap import parse_pinmap

try:
    import schemdraw  # noqa: F401
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("schemdraw is not installed (pip install -r requirements-dev.txt)", allow_module_level=True)

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from schematics import bom, cable, generate  # noqa: E402
from schematics.circuit import SUBSYSTEMS, build  # noqa: E402
from schematics.parts import load_parts  # noqa: E402

PINMAP_TEXT = (REPO / "hardware" / "pinmap.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    with spice_answers_shared(tmp_path_factory):
        return generate.render(REPO)


@pytest.mark.slow
def test_checked_in_files_match_the_pin_map(rendered):
    stale = generate.drifted(REPO, rendered)
    assert not stale, "regenerate with `python -m schematics.generate`: %s" % ", ".join(stale)


@pytest.mark.slow
def test_one_drawing_per_subsystem_and_both_netlists(rendered):
    names = {Path(p).stem for p in rendered if p.endswith(".svg")}
    assert names == {"dial-and-hook", "ringer", "buttons-and-leds", "display", "audio", "pico", "cable",
                     "connector-box", "connector-cable", "stripboard"}
    assert {"schematics/newsdesk-pi.net", "schematics/newsdesk-pico.net", "hardware/bom.csv",
            "hardware/bom-pico.csv", "docs/bom.md", "docs/wiring.md", "docs/build.md"} <= set(rendered)


@pytest.mark.slow
def test_moving_a_line_changes_its_drawing_netlist_and_table(rendered):
    moved = parse_pinmap(PINMAP_TEXT.replace("bcm = 17\n", "bcm = 12\n"))
    files = generate.render(REPO, generate.circuits(pinmap=moved))
    changed = {p for p in files if files[p] != rendered[p]}
    assert changed == {"schematics/dial-and-hook.svg", "schematics/newsdesk-pi.net", "docs/wiring.md",
                       "schematics/cable.svg", "docs/build.md", "schematics/stripboard.svg"}
    assert "| 1 | pulse | filter node, R1 to GPIO12 (header pin 32); ESD channel I/O1 (U4) |" in files["docs/build.md"].decode()
    svg = files["schematics/dial-and-hook.svg"].decode()
    assert "GPIO12" in svg and "GPIO17" not in svg
    assert ">32<" in svg                       # GPIO12 is header pin 32 (gpiozero's board data)
    assert "| pulse | GPIO12 | 32 |" in files["docs/wiring.md"].decode()


@pytest.mark.slow
def test_drift_is_reported_for_a_stale_file(tmp_path, rendered):
    for rel, data in rendered.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    assert generate.drifted(tmp_path, rendered) == []
    (tmp_path / "schematics" / "ringer.svg").write_bytes(rendered["schematics/ringer.svg"].replace(b"GPIO23", b"GPIO24"))
    (tmp_path / "hardware" / "bom.csv").unlink()
    assert generate.drifted(tmp_path, rendered) == ["schematics/ringer.svg", "hardware/bom.csv"]


@pytest.mark.slow
def test_drawings_are_deterministic_well_formed_and_free_of_ids(rendered):
    again = generate.render(REPO)
    for rel, data in rendered.items():
        assert again[rel] == data, rel
        if rel.endswith(".svg"):
            ET.fromstring(data)
            text = data.decode()
            assert not re.search(r"\d\.\d{3,}", text), rel      # floats rounded to 2 places
            assert not re.search(r"\sid=", text), rel


@pytest.mark.slow
def test_every_line_appears_on_its_boards_drawings(rendered):
    for board, circuit in generate.circuits().items():
        svgs = "".join(rendered["schematics/%s.svg" % s].decode() for s in SUBSYSTEMS[board])
        for _net, (line, gpio) in circuit.gpio.items():
            assert re.search(r">%s\b" % gpio, svgs), (board, line, gpio)
        for part in circuit.parts:
            assert re.search(r"[> (]%s[<)\n]" % part.ref, svgs) or part.role == "board", (board, part)


def _sexpr(text):
    tokens = re.findall(r'\(|\)|"(?:\\.|[^"\\])*"|[^\s()]+', text)
    stack = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok.strip('"'))
    assert len(stack) == 1 and len(stack[0]) == 1, "unbalanced netlist"
    return stack[0][0]


@pytest.mark.slow
def test_netlist_holds_every_pin_of_every_part_once(rendered):
    for board, circuit in generate.circuits().items():
        tree = _sexpr(rendered["schematics/newsdesk-%s.net" % board].decode())
        assert tree[0] == "export"
        comps = next(x for x in tree if isinstance(x, list) and x[0] == "components")[1:]
        nets = next(x for x in tree if isinstance(x, list) and x[0] == "nets")[1:]
        assert [c[1][1] for c in comps] == [p.ref for p in circuit.parts]
        nodes = [(n[1][1], n[2][1]) for net in nets for n in net[3:]]
        assert len(nodes) == len(set(nodes)) == sum(len(p.pins) for p in circuit.parts)
        by_name = {net[2][1]: [(n[1][1], n[2][1]) for n in net[3:]] for net in nets}
        header = circuit.header.pins["GPIO17" if board == "pi" else "GP2"]
        assert (circuit.board_part.ref, str(header)) in by_name["PULSE"]


@pytest.mark.slow
def test_led_pads_follow_kicad_cathode_first(rendered):
    tree = _sexpr(rendered["schematics/newsdesk-pi.net"].decode())
    nets = next(x for x in tree if isinstance(x, list) and x[0] == "nets")[1:]
    nets = {net[2][1]: [(n[1][1], n[2][1]) for n in net[3:]] for net in nets}
    (led,) = [p.ref for p in build(parse_pinmap(PINMAP_TEXT), load_parts()).of(line="status_led") if p.role == "led"]
    assert (led, "2") in nets["STATUS_LED_LED"]       # the anode, after the resistor
    assert (led, "1") in nets["GND"]


@pytest.mark.slow
def test_bom_counts_and_total(rendered):
    rows = list(csv.DictReader(io.StringIO(rendered["hardware/bom.csv"].decode())))
    body, total = rows[:-1], rows[-1]
    assert total["refs"] == "TOTAL"
    assert float(total["total_usd"]) == pytest.approx(sum(float(r["total_usd"]) for r in body))
    assert all(float(r["total_usd"]) == pytest.approx(int(r["quantity"]) * float(r["each_usd"])) for r in body)
    leds = [r for r in body if r["value"] == "330 Ω"]
    assert len(leds) == 1 and leds[0]["quantity"] == "3" and leds[0]["part_number"].endswith("-330R")
    assert not any("in the phone" in r["part_number"] for r in body)  # contacts come with the phone
    assert "**%.2f**" % float(total["total_usd"]) in rendered["docs/bom.md"].decode()


@pytest.mark.parametrize("ohms, code", [(330, "330R"), (1000, "1K"), (4700, "4K7"), (10000, "10K"), (2_200_000, "2M2")])
def test_resistor_codes(ohms, code):
    assert bom.resistor_code(ohms) == code


def test_wiring_guide_without_its_markers_is_refused():
    with pytest.raises(generate.GenerateError, match="markers"):
        generate.splice("# no tables here\n", "block")


def test_generate_refuses_a_pinmap_that_breaks_the_rules():
    bad = parse_pinmap(PINMAP_TEXT.replace('to_be_replaced', '').replace(
        "[pi.hook]\nbcm = 22\n", '[pi.hook]\nbcm = 22\nto = "5V"\n'))
    problems = generate.errors(generate.circuits(pinmap=bad))
    assert problems and "5V" in problems[0]


@pytest.mark.slow
def test_the_rules_warnings_are_said_and_drawing_goes_on(monkeypatch, capsys):
    """A warning (here: an LED on a pin the Pi pulls high through every boot) is printed for
    the builder, and the command still succeeds; errors alone refuse."""
    planted = parse_pinmap(PINMAP_TEXT.replace("[pi.status_led]\nkind = \"output\"\nbcm = 24",
                                               "[pi.status_led]\nkind = \"output\"\nbcm = 4"))
    built = generate.circuits(planted)
    monkeypatch.setattr(generate, "circuits", lambda *given: built)
    monkeypatch.setattr(generate, "render", lambda root, all_circuits: {})
    assert generate.main(["--check"]) == 0
    err = capsys.readouterr().err
    assert "electrical rules, a warning: pi: status_led is an output on GPIO4 (pin 7), which the Pi pulls high" in err


@pytest.mark.slow
def test_check_command_passes_on_the_repo(rendered, capsys):
    """`python -m schematics.generate --check`, in this process: its simulations are the ones
    `rendered` ran (spice.run keeps each deck's answer), so only the drawing is done again."""
    assert generate.main(["--check"]) == 0, capsys.readouterr()


def test_no_pin_number_is_written_in_the_schematics_code():
    """As in the controller: the pin map is the one source of pin assignments."""
    pm = parse_pinmap(PINMAP_TEXT)
    for path in (REPO / "schematics").glob("*.py"):
        text = path.read_text()
        for spec in pm.lines("input") + pm.lines("output"):
            assert not re.search(r"\b(GPIO|GP|bcm=|pin=)\s*%d\b" % spec.bcm, text), (path, spec)


def test_circuit_numbers_refs_per_letter():
    circuit = build(parse_pinmap(PINMAP_TEXT), load_parts(), "pi")
    refs = [p.ref for p in circuit.parts]
    assert len(refs) == len(set(refs))
    assert refs[0] == "J1" and "J2" in refs        # the board, then the bell supply's jack


def test_the_cable_carries_the_lines_in_the_phone_and_only_them():
    pm = parse_pinmap(PINMAP_TEXT)
    wires = cable.wires(build(pm, load_parts()))
    assert [w.pin for w in wires] == list(range(1, 16))        # every pin of the DA-15, in order
    signals = {w.pin: w.signal for w in wires}
    assert [signals[n] for n in (1, 2, 3, 9)] == ["pulse", "offnormal", "hook", "GND"]
    assert (signals[8], signals[15]) == ("bell switched", "bell +12V")     # the bell's pair in a corner
    assert signals[7] == signals[14] == "(empty)"                          # and its neighbours empty
    assert not any(w.signal.startswith("dice") or w.signal.startswith("stopwatch") for w in wires)
    boxed = PINMAP_TEXT.replace('supply = "3V3"\nin_phone = true', 'supply = "3V3"\nin_phone = false')
    with pytest.raises(cable.CableError, match="no such wire"):     # its pins must leave [cable] too
        cable.wires(build(parse_pinmap(boxed), load_parts()))
    crowded = PINMAP_TEXT
    for n, pin in enumerate((7, 8, 9, 10, 11, 12)):
        crowded += '\n[pi.extra%d]\nbcm = %d\npull = "up"\nhigh_means = 0\nin_phone = true\n' % (n, pin)
    with pytest.raises(cable.CableError, match="need 19 wires"):
        cable.wires(build(parse_pinmap(crowded), load_parts()))


@pytest.mark.slow
def test_every_pin_is_in_the_table_and_the_live_end_is_the_female(rendered):
    """Issue 24, point 3: pin 15 was missing, and the powered pins were on the box's male."""
    text = rendered["docs/build.md"].decode()
    for n in range(1, 16):
        assert re.search(r"^\| %d \| " % n, text, re.M), n
    assert "a female on the box, a male on the phone's cable" in text


def _pin_x(svg, pin):
    """The x of a pin's circle on a solder-side drawing (its number is the text after it)."""
    match = re.search(r'<circle cx="([\d.]+)"[^>]*/>\n<text [^>]*>%d</text>' % pin, svg)
    assert match, pin
    return float(match.group(1))


@pytest.mark.slow
def test_the_solder_side_drawings_of_the_two_ends_are_mirrored(rendered):
    box = rendered["schematics/connector-box.svg"].decode()
    lead = rendered["schematics/connector-cable.svg"].decode()
    assert "DA-15 female, solder side" in box and "DA-15 male, solder side" in lead
    assert _pin_x(box, 1) < _pin_x(box, 8) and _pin_x(lead, 1) > _pin_x(lead, 8)
    for n in range(1, 16):
        assert _pin_x(box, n) + _pin_x(lead, n) == pytest.approx(_pin_x(box, 1) + _pin_x(lead, 1))
    for svg in (box, lead):
        assert ">bell switched<" in svg and ">display 3V3<" in svg and svg.count(">empty<") == 2


@pytest.mark.slow
def test_the_solder_side_drawings_follow_the_pin_map(rendered):
    swapped = PINMAP_TEXT.replace('1 = "pulse", 2 = "offnormal"', '1 = "offnormal", 2 = "pulse"')
    files = generate.render(REPO, generate.circuits(pinmap=parse_pinmap(swapped)))
    for end in ("box", "cable"):
        before, after = (f["schematics/connector-%s.svg" % end].decode() for f in (rendered, files))
        assert before != after
        assert re.search(r">1</text>\n<text [^>]*>offnormal<", after)


@pytest.mark.slow
def test_the_contact_protection_is_drawn_listed_and_in_the_build_notes(rendered):
    """Issue 24, point 2: the series resistor, filter and pull-up were "optional above about 1 m"
    and in neither the bill of materials nor the schematics."""
    circuit = build(parse_pinmap(PINMAP_TEXT), load_parts())
    svg = rendered["schematics/dial-and-hook.svg"].decode()
    for line in ("pulse", "offnormal", "hook"):
        for part in circuit.of(line=line):
            if part.role in ("input_series", "filter_pull", "filter"):
                assert re.search(r"[> (]%s[<)\n]" % part.ref, svg), part
    rows = list(csv.DictReader(io.StringIO(rendered["hardware/bom.csv"].decode())))
    values = {r["value"]: r for r in rows}
    assert values["100 nF"]["quantity"] == "3" and values["1 kΩ"]["quantity"] == "3"
    assert any("SRV05-4" in r["part_number"] and r["quantity"] == "2" for r in rows)
    notes = rendered["docs/build.md"].decode()
    assert "| pulse | R1 1 kΩ | R2 4.7 kΩ | C1 100 nF | 0.47 ms | 0.44 ms |" in notes
    assert "above about 1 m" not in notes and "For a cable longer than" not in notes


@pytest.mark.slow
@pytest.mark.parametrize("board, sheet", [("pi", "ringer"), ("pico", "pico")])
def test_the_failsafe_and_the_fuse_are_drawn_netted_and_listed(rendered, board, sheet):
    """The bell's fail-safe (capacitor, reset diode, bleed resistor) and the T1A fuse, which was
    on the bill of materials but on no schematic: drawn on the bell driver's sheet, in the netlist
    between the jack's + and the coil, and on the board's bill of materials as parts with refs."""
    circuit = build(parse_pinmap(PINMAP_TEXT), load_parts(), board)
    roles = {p.role: p for p in circuit.of(line="ringer")}
    svg = rendered["schematics/%s.svg" % sheet].decode()
    for role in ("coupling", "reset", "bleed", "fuse", "cutoff"):
        assert re.search(r"[> (]%s[<)\n]" % roles[role].ref, svg), role
    assert "T1A slow-blow" in svg and "thermal cutoff 98 °C" in svg
    fuse, supply, coil, cutoff = roles["fuse"], roles["supply"], roles["solenoid"], roles["cutoff"]
    assert fuse.pins["1"] == supply.pins["+"] and fuse.pins["2"] == cutoff.pins["1"] != supply.pins["+"]
    # the thermal cutoff between the fuse and the coil with its flyback diode: opened, it cuts both
    assert cutoff.pins["2"] == coil.pins["1"] == roles["flyback"].pins["K"]
    netlist = rendered["schematics/newsdesk-%s.net" % board].decode()
    assert '(comp (ref "%s")' % fuse.ref in netlist and '(comp (ref "%s")' % cutoff.ref in netlist
    csv_name = "hardware/bom.csv" if board == "pi" else "hardware/bom-pico.csv"
    rows = list(csv.DictReader(io.StringIO(rendered[csv_name].decode())))
    fuses = [r for r in rows if "slow-blow" in r["description"]]
    assert len(fuses) == 1 and fuses[0]["refs"] == fuse.ref and fuses[0]["part_number"] == "5 x 20 mm, T1A"
    assert any(r["refs"] == roles["coupling"].ref and r["value"] == "47 µF" for r in rows)
    # two cutoffs, each its own part and its own line: against the coil (F2) and on the MOSFET's
    # tab, in its drain lead (F3)
    fet_cutoff, fet = roles["fet_cutoff"], roles["switch"]
    assert (cutoff.kind, fet_cutoff.kind) == ("cutoff", "fet_cutoff")
    for part, where in ((cutoff, "the solenoid's winding"), (fet_cutoff, "the MOSFET's tab")):
        (tco,) = [r for r in rows if r["refs"] == part.ref]
        assert tco["part_number"].startswith("Microtemp G4A01098C (Tf 98 °C, Th 73 °C, 10 A 250 V")
        assert tco["quantity"] == "1" and where in tco["description"]
    assert fet_cutoff.pins["1"] == coil.pins["2"] and fet_cutoff.pins["2"] == fet.pins["D"] != coil.pins["2"]
    assert "thermal cutoff 98 °C on the tab" in svg and '(comp (ref "%s")' % fet_cutoff.ref in netlist


def test_the_solenoid_is_listed_at_its_own_rating_not_the_supplys():
    """L1 carries the coil's rated voltage (parts.toml rated_v), never the bell supply's."""
    text = (REPO / "hardware" / "parts.toml").read_text(encoding="utf-8")
    from schematics.parts import parse_parts
    parts = parse_parts(text.replace("rated_v = 12.0", "rated_v = 13.5", 1))
    circuit = build(parse_pinmap(PINMAP_TEXT), parts)
    (coil,) = [p for p in circuit.parts if p.kind == "solenoid"]
    (supply,) = [p for p in circuit.parts if p.kind == "supply12"]
    assert coil.value == "13.5 V" and supply.value == "12 V"
    assert any(r.refs == [coil.ref] and r.value == "13.5 V" for r in bom.rows(circuit))


@pytest.mark.slow
def test_the_esd_channels_are_drawn_on_the_led_and_display_sheets_too(rendered):
    """Every wire that leaves the box has an ESD channel (the rules require it); the contact
    sheet showed them, the LED and display sheets didn't. Each channel is named where its line
    is drawn."""
    circuit = build(parse_pinmap(PINMAP_TEXT), load_parts())
    sheets = {"status_led": "buttons-and-leds", "display": "display"}
    assert {spec.name for spec in circuit.board_lines.values() if getattr(spec, "esd", False)} >= set(sheets)
    for net, (ref, pin) in circuit.esd_channels.items():
        line = next(p.line for p in circuit.parts if net in p.pins.values() and p.line)
        if line in sheets:
            assert "ESD %s %s" % (ref, pin) in rendered["schematics/%s.svg" % sheets[line]].decode(), (line, net)
    assert "clamped by the ESD arrays" in rendered["schematics/display.svg"].decode()


@pytest.mark.parametrize("board", ["pi", "pico"])
def test_the_wiring_tables_ringer_row_names_the_failsafes_parts(board):
    """The row showed R7 and U1 but not C4, D1 and R8: a builder wiring from the table left the
    fail-safe out."""
    circuit = build(parse_pinmap(PINMAP_TEXT), load_parts(), board)
    roles = {p.role: p for p in circuit.of(line="ringer")}
    words = generate._wire_to(circuit, circuit.board_lines["ringer"])
    for role in ("series", "coupling", "isolator", "reset", "bleed"):
        assert roles[role].ref in words, role
    assert "%s 47 µF (+ to %s)" % (roles["coupling"].ref, roles["series"].ref) in words
    assert "%s BAT85 (cathode to pin 1)" % roles["reset"].ref in words


def test_every_bom_line_is_used_and_every_part_has_its_line():
    """Each line with refs names only parts of the circuit, each bought part of the circuit is on
    exactly one line (its adapter board, if it is surface-mount, on one more), every part kind in
    parts.toml is used by a build, and the bell's adapter says its current."""
    parts = load_parts()
    used_kinds = set()
    for board in ("pi", "pico"):
        circuit = build(parse_pinmap(PINMAP_TEXT), parts, board)
        used_kinds |= {p.kind for p in circuit.parts}
        rows = bom.rows(circuit)
        refs = {p.ref: p for p in circuit.parts}
        listed = {}
        for row in rows:
            assert set(row.refs) <= set(refs), (board, row.refs)
            assert row.quantity == len(row.refs) or not row.refs, (board, row.refs)
            for ref in row.refs:
                listed.setdefault(ref, []).append(row)
        for ref, part in refs.items():
            data = parts.part(part.kind)
            want = 0 if not data.get("bought", True) else 2 if data.get("adapter") else 1
            assert len(listed.get(ref, [])) == want, (board, ref)
        kit = [r for r in rows if not r.refs]
        assert [r.description for r in kit] == [k["part"] for k in parts.kit if k["build"] == board]
        (adapter,) = [r for r in rows if r.refs and refs[r.refs[0]].kind == "supply12"]
        assert adapter.number.startswith("12 V 1.5 A regulated")
        assert any("surface-mount" in r.description for r in rows if r.refs and refs[r.refs[0]].kind == "esd") \
            or board == "pico"
    assert set(parts.catalogue) == used_kinds
    pi_kit = " ".join(k["part"] for k in parts.kit if k["build"] == "pi")
    assert "header pins" in pi_kit and "bracket" in pi_kit
