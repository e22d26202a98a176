"""`python -m schematics.generate` on a pin map or a parts list that is wrong, malformed or
hostile: it refuses in one sentence naming the key and exits non-zero, and never shows a
traceback. The electrical rules' own faults are in tests/test_erc.py; here, the files."""

import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from controller.pinmap import load_pinmap  # noqa: E402
from schematics import generate, parts_schema, spice  # noqa: E402
from schematics.parts import PartsError, parse_parts  # noqa: E402

PINMAP_TEXT = (REPO / "hardware" / "pinmap.toml").read_text(encoding="utf-8")
PARTS_TEXT = (REPO / "hardware" / "parts.toml").read_text(encoding="utf-8")


def refusal(tmp_path, capsys, monkeypatch, pinmap=PINMAP_TEXT, parts=PARTS_TEXT):
    """Runs the command on the two texts (--check: nothing is written); returns its one line."""
    monkeypatch.setattr(spice, "available", lambda: False)     # no simulation: the refusal comes first
    paths = []
    for name, text in (("pinmap.toml", pinmap), ("parts.toml", parts)):
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        paths.append(str(path))
    status = generate.main(["--check", "--pinmap", paths[0], "--parts", paths[1]])
    err = capsys.readouterr().err
    assert status != 0, err
    said = [line for line in err.splitlines() if not line.startswith("electrical rules, a warning")]
    assert said and "Traceback" not in err
    return said[0]


def in_section(text, section, old, new):
    start = text.index("\n[%s]\n" % section) + 1      # the table's own header, not a comment naming it
    end = text.find("\n[", start + 1)
    end = len(text) if end < 0 else end
    assert old in text[start:end], (section, old)
    return text[:start] + text[start:end].replace(old, new, 1) + text[end:]


@pytest.mark.parametrize("pinmap, words", [
    ("[pi.pulse\nbcm = 17", "pinmap.toml is not valid TOML"),
    ("", "pinmap.toml has no [pi] section"),
    ("pi = 3\n", "pinmap.toml has no [pi] section"),
    ("a = " + "[" * 5000 + "]" * 5000, "nests its arrays or tables too deeply"),
    (b"\xff\xfe\x00[pi]", "pinmap.toml is not UTF-8 text"),
    (in_section(PINMAP_TEXT, "pi.pulse", "bcm = 17", 'bcm = "seventeen"'), "bcm must be a pin number 0-27"),
    (in_section(PINMAP_TEXT, "pi.ringer", "vf = 1.0", "vf = nan"), "vf must be a positive number, got nan"),
    (in_section(PINMAP_TEXT, "pi.status_led", "bcm = 24", "bcm = 25"),
     "GPIO25 is used by both status_led and dice_led; move dice_led to a free pin"),
    (in_section(PINMAP_TEXT, "pi.dice_button", "bcm = 5", "bcm = 2"),
     "GPIO2 is used by both dice_button and display (its SDA); move dice_button to a free pin (GPIO2 is display's "
     "SDA: a bus sits on the pins that carry it)"),
    (in_section(PINMAP_TEXT, "pi.hook", "filter_pull = 4700", "filter_pul = 4700"),
     "[pi.hook]: unknown key 'filter_pul' (did you mean 'filter_pull'?)"),
    (in_section(PINMAP_TEXT, "cable", 'box = "female"', 'boxes = "female"'),
     "[cable]: unknown key 'boxes' (did you mean 'box'?)"),
    (PINMAP_TEXT.replace("[cable]", "[cabel]", 1), "unknown section(s) cabel (did you mean [cable]?"),
])
def test_a_malformed_pin_map_is_one_sentence(tmp_path, capsys, monkeypatch, pinmap, words):
    said = refusal(tmp_path, capsys, monkeypatch, pinmap=pinmap)
    assert said.startswith("schematics: ") and words in said


@pytest.mark.parametrize("old, new, words", [
    ("bleed_ohms = 3900 ", "bleed_ohms = 0 ", "[failsafe] bleed_ohms must be a number above 0"),
    ("bleed_ohms = 3900 ", 'bleed_ohms = "3k3" ', "[failsafe] bleed_ohms must be a number above 0"),
    ("coil_ohms = 20 ", "coil_ohms = 0 ", "[part.solenoid] coil_ohms must be a number above 0"),
    ("coil_ohms = 20 ", "coil_ohms = inf ", "[part.solenoid] coil_ohms must be a number above 0"),
    ("pitch_mm = 2.77", "pitch_mm = -2.77", "[connector] pitch_mm must be a number above 0"),
    ("supply_tol = 0.05", "supply_tol = 1.5", "[bell_driver] supply_tol must be a number from 0 up to 1"),
    ("gate_pulldown = 68000", "gate_pulldown = 0", "[bell_driver] gate_pulldown must be a number above 0"),
    ("supply_a = 1.5 ", "# supply_a = 1.5 ", "[bell_driver] lacks supply_a"),
    ("coil_ohms = 20 ", "coil_ohm = 20 ", "[part.solenoid] has no key 'coil_ohm' (did you mean 'coil_ohms'?)"),
    ("fuse_a = 1.0 ", "fuse_amps = 1.0 ", "[bell_driver] has no key 'fuse_amps' (did you mean 'fuse_a'?)"),
    ("[bell_driver]", "[bel_driver]", "unknown section [bel_driver] (did you mean 'bell_driver'?)"),
    ("[part.mosfet]", "[part.mosfett]", "unknown part [part.mosfett] (did you mean 'mosfet'?)"),
    ("rows = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15]]", "rows = [[1, 2], [2]]",
     "[connector] rows must be rows of pin numbers, each pin once"),
    ("channels = 4 ", "channels = 400 ", "[part.esd] channels is 400 but its pads name 4 I/O pins"),
    ("ctr_curve = [[0.1, 0.25]", "ctr_curve = [[0.1], [0.1, 0.25]", "[part.optocoupler] ctr_curve must list [LED mA"),
    ("ctr_curve = [[0.1, 0.25], [0.2, 0.4]", "ctr_curve = [[0.1, 0.25], [0.2, 0.1]",
     "[part.optocoupler] ctr_curve's LED currents must rise from pair to pair, and so must the output current"),
    ("[rails]", "[rails]\n[rails]", "not valid TOML"),
    # the datasheets' facts a builder's reviewer checks a part against
    ("GP15 = 20", "GP15 = 38", "[board.pico] header's GP15 is pin 20 on a Pico (its datasheet's pinout), not 38 "
                               "(a GND pin)"),
    ("GP4 = 6", "GP4 = 5", "[board.pico] header's GP4 is pin 6 on a Pico (its datasheet's pinout), not 5"),
    # a GPIO the board keeps for itself, given an edge pin: the hook on "GP23" would be wired to RUN
    # a transfer ratio the part ordered doesn't have (a PC817 with no rank letter: 50-600 %)
    ("ctr_min = 0.5 ", "ctr_min = 5.0 ", "[part.optocoupler] ctr_min is 5, above the 0.5 its datasheet gives a PC817 "
                                         "(no rank letter) at the least"),
    ("ctr_max = 6.0 ", "ctr_max = 4.0 ", "[part.optocoupler] ctr_max is 4, under the 6 its datasheet gives a PC817 "
                                         "(no rank letter) at the most"),
    ("red = 1.6, amber", "red = 2.6, amber", "[part.led] a red LED's lowest forward voltage (vf_min, 2.6 V) is above "
                                             "its highest (vf_max, 2.5 V)"),
    ("GP22 = 29,", "GP22 = 29, GP23 = 30,", "[board.pico] header names GP23, which reaches no edge pin on a Pico "
                                           "(GP23, GP24, GP25 and GP29 are used on the board itself: its datasheet's "
                                           "pinout); take it out, its pin 30 is RUN"),
    ("GP22 = 29,", "GP22 = 29, GP24 = 4,", "[board.pico] header names GP24, which reaches no edge pin on a Pico "
                                           "(GP23, GP24, GP25 and GP29 are used on the board itself: its datasheet's "
                                           "pinout); take it out, its pin 4 is GP2"),
    ("3V3 = 36", "3V3 = 37", "[board.pico] power's 3V3 is pin 36 on a Pico (its datasheet's pinout), not 37 (3V3_EN)"),
    ("GND = 38", "GND = 39", "[board.pico] power's GND is pin 3 or 8 or 13 or 18 or 23 or 28 or 38 on a Pico"),
    ("vgs_th_max = 2.0", "vgs_th_max = 6.0", "[part.mosfet] its gate voltages must rise vgs_th_min <= vgs_th_max "
                                             "< vgs_on <= vgs_max"),
    ("vgs_th_min = 1.0", "vgs_th_min = 4.0", "[part.mosfet] its gate voltages must rise"),
    ("ctr_min = 0.5 ", "ctr_min = 50 ", "[part.optocoupler] ctr_min <= ctr_max, each a ratio up to 50 (50 % is 0.5)"),
    ("standoff_v = 5.0 ", "standoff_v = 3.0 ", "[part.esd] standoff_v is 3 V, under the 3.3 V rail its lines carry"),
    ("pin_ma = 16 ", "pin_ma = 160 ", "[board.pi] pin_ma is 160, and a board's GPIO takes 1 to 50: check its unit"),
    ("logic_v = 3.3 ", "logic_v = 3300 ", "[board.pi] logic_v is 3300, and a board's GPIO takes 1.6 to 5.5"),
    ("drive_ma = 8 ", "drive_ma = 30 ", "[board.pi] drive_ma (30, the default drive) is over pin_ma (16"),
    ("supply_a = 1.5 ", "supply_a = 1500 ", "[bell_driver] supply_a is 1500 A, and the bell's adapter is a wall "
                                            "adapter (up to 20 A)"),
    # a polarized part's pads against its footprint's: a netlist for a board puts the part in backwards
    ('footprint = "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal"\npads = { K = "1", A = "2" }',
     'footprint = "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal"\npads = { K = "2", A = "1" }',
     "[part.diode] pads put K on pad 2, and Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal has it on pad 1"),
    ('pads = { G = "1", D = "2", S = "3" }', 'pads = { G = "1", D = "3", S = "2" }',
     "[part.mosfet] pads put D on pad 3, and a TO-220 MOSFET (G-D-S, as the IRLZ44N's datasheet) has it on pad 2"),
    ('pads = { "+" = "1", "-" = "2" }', 'pads = { "+" = "2", "-" = "1" }',
     "[part.coupling] pads put + on pad 2, and Capacitor_THT:CP_Radial_D5.0mm_P2.00mm has it on pad 1"),
    ('pads = { K = "1", A = "2" }', 'pads = { K = "2", A = "1" }', "[part.led] pads put K on pad 2"),
    # a board's figures past its datasheet's: the rules would pass what harms it
    ("logic_v = 3.3 ", "logic_v = 5.0 ", "[board.pi] logic_v is 5, over the 3.3 its datasheet gives (its GPIO are "
                                         "3.3 V pins, not 5 V tolerant)"),
    ("pin_ma = 16 ", "pin_ma = 50 ", "[board.pi] pin_ma is 50, over the 16 its datasheet gives"),
    ("total_ma = 50 ", "total_ma = 200 ", "[board.pi] total_ma is 200, over the 50 its datasheet gives"),
    ("vih_min = 2.0 ", "vih_min = 0.5 ", "[board.pi] its input levels must rise vil_max < vih_min < logic_v"),
    ("voh_min = 2.6 ", "voh_min = 3.6 ", "[board.pi] voh_min (3.6 V) is over logic_v (3.3 V)"),
    ("standoff_v = 5.0 ", "standoff_v = 30.0 ", "[part.esd] standoff_v is 30 V, for lines of 3.3 V: its clamp sits "
                                                "higher still"),
    ("rated_v = 50 ", "rated_v = 2.5 ", "[part.capacitor] rated_v is 2.5 V, and it sits on the 3.3 V side: rate it "
                                        "at least 4.95 V"),
    ("rated_v = 16 ", "rated_v = 4 ", "[part.coupling] rated_v is 4 V, and it sits on the 3.3 V side"),
    # a figure the rules check, changed without the words the bill of materials orders by (a builder's planted
    # fault: a 16 V electrolytic said to be rated 50 V passed)
    ("rated_v = 16 ", "rated_v = 50 ", "[part.coupling] its words say 16 V and rated_v is 50 V: the bill of "
                                       "materials orders what the words say and the rules check rated_v"),
    ("rated_v = 50 ", "rated_v = 100 ", "[part.capacitor] its words say 50 V and rated_v is 100 V"),
    ("vds_max = 55 ", "vds_max = 100 ", "[part.mosfet] its words say 55 V and vds_max is 100 V"),
    # a builder's planted faults the reader let through (one crashed the rules)
    ("th_c = 73 ", "th_c = 110 ", "[bell_driver] cutoff_c is 98 °C, and [part.cutoff] th_c 110 °C: a thermal-link "
                                  "holds for good only under its rated temperature (IEC 60691)"),
    ("fet_cutoff_c = 98 ", "fet_cutoff_c = 60 ", "[bell_driver] fet_cutoff_c is 60 °C, and [part.fet_cutoff] th_c "
                                                 "73 °C"),
    ("tf_tol_c = 10 ", "tf_tol_c = 50 ", "[part.cutoff] tf_tol_c is 50 °C, and a thermal-link (IEC 60691) opens at "
                                         "most 10 °C under its rated temperature"),
    ("ambient_c = 35 ", "ambient_c = 98 ", "[bell_driver] ambient_c is 98 °C, and the thermal cutoff (cutoff_c) may "
                                           "open at 88 °C"),
    ("if_a = 1.0 ", "if_a = 300 ", "[part.diode] if_a is 300 A, and a rectifier across this coil carries an amp or "
                                   "two (up to 20 A): its datasheet's mA?"),
    ("duty_max = 0.25 ", "duty_max = 25 ", "[part.solenoid] duty_max must be a number above 0, up to 1 (a share: "
                                           "25 % is 0.25)"),
    ("ctr_derate = 0.7 ", "ctr_derate = 7 ", "[part.optocoupler] ctr_derate must be a number above 0, up to 1"),
    ("pps_min = 7 ", "pps_min = 30 ", "[dial] pps_min (30) must be at most pps_max (20)"),
    ("receiver_ohms_max = 300 ", "receiver_ohms_max = 30 ", "[audio] receiver_ohms (150) must be at most "
                                                            "receiver_ohms_max (30)"),
    ("amp_max_square_vrms = 5.0 ", "amp_max_square_vrms = 0.5 ", "[audio] amp_max_vrms (3.5) must be at most "
                                                                 "amp_max_square_vrms (0.5)"),
    ("addresses = [0x3C, 0x3D]", "addresses = [0x3C, 0x3C]", "[part.display] addresses lists an address twice"),
    # the re-run of the builder's planted faults: a rule switched off by a figure outside its kind's range
    ("pull_min_ohms = 33000 ", "pull_min_ohms = 500000 ", "[board.pi] pull_min_ohms is 500000, and a board's GPIO "
                                                          "takes 10000 to 100000"),
    ("pull_min_ohms = 33000 ", "# pull_min_ohms = 33000 ", "[board.pi] lacks pull_min_ohms"),
    # the earlier Pis' 50 kΩ is weaker than a Pi 4's strongest pull (33-73 kΩ on the BCM2711)
    ("pull_min_ohms = 33000 ", "pull_min_ohms = 50000 ", "[board.pi] pull_min_ohms is 50000, above the 33000 its "
                                                         "datasheet gives"),
    ("pull_min_ohms = 50000     # RP2040", "pull_min_ohms = 80000     # RP2040", "[board.pico] pull_min_ohms is "
                                                                               "80000, above the 50000 its datasheet"),
    ('number = "{value} {amps:g} A regulated', 'number = "24 V {amps:g} A regulated',
     "[part.supply12] its words say 24 V and [bell_driver] supply_v is 12 V"),
    ("gate_zener_v = 10.0 ", "gate_zener_v = 12.0 ", "[part.zener] its words say 10 V and [bell_driver] "
                                                     "gate_zener_v is 12 V"),
    ('description = "capacitor, ceramic, X7R, 50 V,', 'description = "capacitor, ceramic, X7R, 25 VDC,',
     "[part.capacitor] its words say 25 V and rated_v is 50 V"),
    ("theta_ja = 62 ", "theta_ja = 1.0 ", "[part.mosfet] theta_ja (1 °C/W, junction to air) must be above theta_jc"),
    ("tj_max = 175 ", "tj_max = 1750 ", "[part.mosfet] tj_max is 1750 °C, and a silicon junction's maximum is 100 to "
                                        "200 °C"),
    ("insulation_c = 120 ", "insulation_c = 1200 ", "[part.solenoid] insulation_c is 1200 °C, and an insulation "
                                                    "class (Y 90 to C 220) is 90 to 220 °C"),
    # the coil's continuous rating given in hotter air would let it sit hotter for good
    ("rated_ambient_c = 35 ", "rated_ambient_c = 80 ", "[part.solenoid] rated_ambient_c is 80 °C, and the air a "
                                                      "solenoid's duty is rated in is 20 to 40 °C"),
    ("bell_clear_mm = 4.0 ", "bell_clear_mm = 0 ", "[connector] bell_clear_mm is 0 mm, within a pin's nearest "
                                                   "neighbour (2.77 mm)"),
    ("pitch_mm = 2.77 ", "pitch_mm = 27.7 ", "[connector] pitch_mm is 27.7 mm, and a connector's pin pitch is 1 to 10 mm"),
    ('5V = 5.0', '5V = 3.3', "[rails] 5V is 3.3 V, and a 5 V rail is 4.5 to 5.5 V"),
    ("rated_v = 50 ", "# rated_v = 50 ", "[part.capacitor] lacks rated_v"),
    ("if_a = 1.0 ", "# if_a = 1.0 ", "[part.diode] lacks if_a"),
    # the power parts' ratings the rules hold the bell supply and the coil to (a 10 V Schottky and a
    # 0.22 A MOSFET passed without them)
    ("vrrm_v = 1000 ", "# vrrm_v = 1000 ", "[part.diode] lacks vrrm_v"),
    ("id_max_a = 33 ", "# id_max_a = 33 ", "[part.mosfet] lacks id_max_a"),
    ("vrrm_v = 1000 ", "vrrm_v = 10 ", "[part.diode] its words say 1000 V and vrrm_v is 10 V"),
    ("vrrm_v = 1000 ", "vrrm_v = 0 ", "[part.diode] vrrm_v must be a number above 0"),
    # the cable's cores: one figure the kit's words are made from (an "8-core cable" on 13 wires passed)
    ('"{cores}-core cable', '"8-core cable', "[[kit]] number 4 says an 8-core cable and its cores is 15: the bill of "
                                            "materials orders what the words say and the rules check cores"),
    ("cores = 15", "cores = 0", "[[kit]] number 4 cores must be a whole number, 1 or more"),
    ("cores = 15", "", "[[kit]] number 4 names {cores} in its words and gives no cores"),
    ("addresses = [0x3C, 0x3D]", "addresses = [0x3C, 0x80]", "[part.display] addresses must list 7-bit I2C "
                                                           "addresses 0x08 to 0x77"),
])
def test_a_malformed_parts_list_is_one_sentence(tmp_path, capsys, monkeypatch, old, new, words):
    assert old in PARTS_TEXT
    said = refusal(tmp_path, capsys, monkeypatch, parts=PARTS_TEXT.replace(old, new, 1))
    assert said.startswith("schematics: ") and words in said, said


@pytest.mark.parametrize("section, old, new, words", [
    ("part.fet_cutoff", "tf_tol_c = 10 ", "tf_tol_c = 50 ", "[part.fet_cutoff] tf_tol_c is 50 °C, and a thermal-link "
                                                          "(IEC 60691) opens at most 10 °C under its rated temperature"),
    ("part.fet_cutoff", "th_c = 73 ", "th_c = 110 ", "[bell_driver] fet_cutoff_c is 98 °C, and [part.fet_cutoff] th_c "
                                                   "110 °C: a thermal-link holds for good only under its rated"),
    ("part.fet_cutoff", "rated_a = 10.0 ", "rated_a = 0.5 ", "electrical rules: pi: the thermal cutoff on the MOSFET's "
                                                           "tab is rated 0.5 A"),
    ("part.cutoff", "rated_a = 10.0 ", "rated_a = 0.5 ", "electrical rules: pi: the thermal cutoff is rated 0.5 A"),
])
def test_a_fault_planted_in_either_thermal_cutoff_is_refused(tmp_path, capsys, monkeypatch, section, old, new, words):
    """The coil's cutoff (F2) and the one on the MOSFET's tab (F3) each have their own entry: a
    rating planted in either is read, and refused, as that cutoff's."""
    said = refusal(tmp_path, capsys, monkeypatch, parts=in_section(PARTS_TEXT, section, old, new))
    assert words in said, said


def test_a_cutoff_fitted_without_its_part_is_refused(tmp_path, capsys, monkeypatch):
    start = PARTS_TEXT.index("\n[part.fet_cutoff]\n")
    end = PARTS_TEXT.index("\n[part.", start + 1)
    said = refusal(tmp_path, capsys, monkeypatch, parts=PARTS_TEXT[:start] + PARTS_TEXT[end:])
    assert said == "schematics: parts.toml has no [part.fet_cutoff]"


def _planted(section, *changes, text=PINMAP_TEXT):
    for old, new in changes:
        text = in_section(text, section, old, new)
    return text


# A builder's review planted these in the pin map one at a time; each passed the rules silently (or
# with a warning only) and drew a box that doesn't work or harms the Pi. Each is refused now, in one
# sentence naming the line, what is wrong and what to do.
@pytest.mark.parametrize("pinmap, parts, words", [
    # the hook read upside down: the handset on its rest read as lifted, and S3 drawn NC
    (_planted("pi.hook", ("high_means = 0", "high_means = 1")), None,
     "hook (GPIO22, pin 15) has high_means = 1, which makes its contact S3 normally closed (NC)"),
    (_planted("pi.hook", ("high_means = 0", "high_means = 1")), None, "set high_means = 0 in [pi.hook]"),
    (_planted("pico.hook", ("high_means = 0", "high_means = 1")), None, "set high_means = 0 in [pico.hook]"),
    (_planted("pi.pulse", ("high_means = 1", "high_means = 0")), None,
     "the dial's pulse springs are closed at rest and open on each pulse"),
    (_planted("pi.offnormal", ("high_means = 0", "high_means = 1")), None, "set high_means = 0 in [pi.offnormal]"),
    # the bill of materials said S4,1,NC,"pushbutton, momentary, normally open..."
    (_planted("pi.dice_button", ("high_means = 0", "high_means = 1")), None,
     "dice_button (GPIO5, pin 29) has high_means = 1, which makes its contact S4 normally closed (NC)"),
    # a contact closing to 3V3 in the phone, where the cable takes the contacts only GND
    (_planted("pi.hook", ('pull = "up"', 'pull = "down"\nto = "3V3"'), ("high_means = 0", "high_means = 1")), None,
     "hook (GPIO22, pin 15) closes its contact to 3V3, and the cable takes the phone's contacts only GND"),
    # an LED in the phone lit from 3V3, where the cable still wires its anode and a cathode to GND
    (_planted("pi.status_led", ("active_high = true", "active_high = false")), None,
     "status_led (GPIO24, pin 18) has active_high = false"),
    # the dial and hook taken out of the phone: no filter, no ESD on a wire into a phone people touch
    (_planted("pi.pulse", ("esd = true", "esd = false\nin_phone = false"),
              text=PINMAP_TEXT.replace('pins = { 1 = "pulse", ', "pins = { ", 1)), None,
     "[pi.pulse]: in_phone = false, but the dial and the hook are always in the phone"),
    (_planted("pi.hook", ("esd = true", "in_phone = false"), text=PINMAP_TEXT.replace('3 = "hook", ', "", 1)), None,
     "[pi.hook]: in_phone = false"),
    (_planted("pico.offnormal", ("gp = 3", "gp = 3\nin_phone = false")), None, "[pico.offnormal]: in_phone = false"),
    # an LED whose colour has no highest forward voltage: a UV LED gets next to nothing from 3.3 V
    (_planted("pi.dice_led", ('colour = "amber"', 'colour = "uv"')), None,
     "dice_led (GPIO25, pin 22)'s LED colour 'uv' has no highest forward voltage in parts.toml [part.led] vf_max"),
    # the Pi's "own LED": there is none on a GPIO; the LED and its resistor fell off the bill of materials
    (_planted("pi.dice_led", ('load = "led"\ncolour = "amber"\nvf = 1.7\nresistor = 330', 'load = "board_led"')),
     None, '[pi.dice_led]: load = "board_led", but the Raspberry Pi has no LED of its own on a GPIO'),
    (PINMAP_TEXT + '\n[pico.spare_led]\nkind = "output"\ngp = 16\nload = "board_led"\n', None,
     '[pico.spare_led]: load = "board_led" on GP16, but the Pico\'s own LED is on GP25'),
    # a weaker internal pull than the datasheet's let a series resistor through that the real pull overrules
    (_planted("pi.hook", ("series_resistor = 1000", "series_resistor = 22000")),
     PARTS_TEXT.replace("pull_min_ohms = 33000 ", "pull_min_ohms = 100000", 1),
     "[board.pi] pull_min_ohms is 100000, above the 33000 its datasheet gives"),
    # the amplifier's SD on a GPIO: the breakout pulls SD up to its VIN (5 V) through 1 MΩ
    (_planted("pi.audio", ("din = 21", "din = 21\nsd = 26")), None,
     "audio's SD is on GPIO26 (pin 37), and the amplifier breakout pulls SD up to its VIN"),
    # the Pico's LED pin taken by the dial: move the dial, not the LED (GP25 is the only pin with it)
    (_planted("pico.pulse", ("gp = 2", "gp = 25")), None,
     "GP25 is used by both pulse and status_led; move pulse to a free pin"),
])
def test_a_planted_fault_in_the_pin_map_is_refused(tmp_path, capsys, monkeypatch, pinmap, parts, words):
    said = refusal(tmp_path, capsys, monkeypatch, pinmap=pinmap, parts=parts or PARTS_TEXT)
    assert words in said, said


def test_a_part_the_circuit_needs_is_missing(tmp_path, capsys, monkeypatch):
    start = PARTS_TEXT.index("[part.mosfet]")
    end = PARTS_TEXT.index("[part.", start + 1)
    said = refusal(tmp_path, capsys, monkeypatch, parts=PARTS_TEXT[:start] + PARTS_TEXT[end:])
    assert said == "schematics: parts.toml has no [part.mosfet]"


def test_a_file_that_is_not_there(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(spice, "available", lambda: False)
    assert generate.main(["--check", "--parts", str(tmp_path / "nowhere.toml")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("schematics: can't read the parts list") and "Traceback" not in err


def test_the_other_files_go_only_with_check(capsys):
    assert generate.main(["--pinmap", "elsewhere.toml"]) == 2
    assert "only go with --check" in capsys.readouterr().err


def _values(text):
    """(line number, the text before the value, the rest) of each numeric key = value line."""
    for i, line in enumerate(text.split("\n")):
        m = re.match(r"^(\s*[A-Za-z0-9_\"]+\s*=\s*)(-?[0-9][0-9.]*)", line)
        if m:
            yield i, m.group(1), line[m.end():]


def _numbers(data, path=()):
    """The path to every number in the parsed parts list, in tables and [[kit]] lists."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield path + (key,)
        elif isinstance(value, (dict, list)):
            yield from _numbers(value, path + (key,))


def test_no_number_in_the_parts_list_can_be_nan_text_or_negative():
    """Each number of the parts list, set to nan, text or -1e9, is refused by the reader, so no
    rule meets one (a rule dividing by it, or comparing with it, would crash or pass silently)."""
    data = tomllib.loads(PARTS_TEXT)
    paths = list(_numbers(data))
    assert len(paths) > 100 and parts_schema.problems(data) == []
    for path in paths:
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        kept = holder[path[-1]]
        for bad in (math.nan, "x", -1e9):
            holder[path[-1]] = bad
            assert parts_schema.problems(data), (path, bad)
        holder[path[-1]] = kept


@pytest.mark.slow
def test_every_value_that_may_be_zero_is_checked_without_a_crash():
    """A value the reader lets be 0 ("none fitted") reaches the rules: none of them divides by it
    or looks up a part it stood for."""
    pinmap = load_pinmap()
    lines = PARTS_TEXT.split("\n")
    ran = 0
    for i, head, tail in _values(PARTS_TEXT):
        changed = lines[:i] + [head + "0" + tail] + lines[i + 1:]
        try:
            parts = parse_parts("\n".join(changed))
        except PartsError:
            continue
        generate.errors(generate.circuits(pinmap, parts))
        ran += 1
    assert ran >= 5


@pytest.mark.slow
def test_the_command_itself_prints_no_traceback(tmp_path):
    """As a builder runs it: a process, its exit status and what it prints."""
    bad = tmp_path / "parts.toml"
    bad.write_text(PARTS_TEXT.replace("bleed_ohms = 3900 ", "bleed_ohms = 0 ", 1), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "schematics.generate", "--check", "--parts", str(bad)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "schematics: parts.toml: [failsafe] bleed_ohms must be a number above 0 (and under a million), got 0"]


def test_words_may_name_other_voltages_beside_the_figure():
    """An adapter's input range and a MOSFET's gate voltages are voltages too: the figure must be
    among those the words name, not the only one (they were refused as contradicting it)."""
    from schematics.parts import parse_parts
    text = PARTS_TEXT.replace('number = "{value} {amps:g} A regulated wall adapter',
                              'number = "{value} {amps:g} A regulated wall adapter, 12 V out, 100-240 V AC in', 1)
    text = text.replace('description = "N-channel MOSFET, logic level, 55 V, TO-220"',
                        'description = "N-channel MOSFET, logic level, 55 V, fully on at 4.5 V, TO-220"', 1)
    assert "100-240 V AC" in text and "4.5 V" in text
    parse_parts(text)


@pytest.mark.slow
def test_a_schottky_flyback_diode_is_drawn_not_a_simulators_crash(tmp_path, capsys):
    """A 1N5817 (20 V, 1 A, 0.45 V at 1 A) in place of the 1N4007: the rules take it and every
    simulation runs (ngspice failed on a Schottky's figures, 'Timestep too small'); only the files
    drawn from the parts differ."""
    from conftest import need_ngspice
    need_ngspice()
    text = PARTS_TEXT
    for old, new in (('description = "rectifier diode, 1000 V, 1 A', 'description = "Schottky rectifier, 20 V, 1 A'),
                     ('number = "1N4007"', 'number = "1N5817"'), ("vrrm_v = 1000 ", "vrrm_v = 20 "),
                     ("vf_max = 1.1 ", "vf_max = 0.45 ")):
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "parts.toml"
    path.write_text(text, encoding="utf-8")
    status = generate.main(["--check", "--parts", str(path)])
    out, err = capsys.readouterr()
    assert err == "" and status == 1
    assert "hardware/bom.csv no longer matches" in out and "docs/build.md no longer matches" in out


@pytest.mark.parametrize("old, new, named, not_named", [
    # the ringer's resistor was asked to be 93 ohms, which the pin can't drive (24.7 mA), and was refused in turn
    ("gate_pulldown = 68000", "gate_pulldown = 1000", "the 1 kΩ gate pull-down is why", "use at most 93 ohms"),
    # the fail-safe's capacitor was blamed ('for only 0.0 ms ... use a larger capacitor')
    ("ctr_min = 0.5 ", "ctr_min = 0.05 ", "the optocoupler's CTR is why", "use a larger capacitor"),
])
def test_a_refusal_names_the_part_that_is_its_cause(tmp_path, capsys, monkeypatch, old, new, named, not_named):
    said = refusal(tmp_path, capsys, monkeypatch, parts=PARTS_TEXT.replace(old, new, 1))
    assert said.startswith("electrical rules: pi: ") and named in said and not_named not in said, said


def test_a_ranked_optocouplers_transfer_ratio_is_held_to_its_rank():
    """A PC817C is 200-400 %: ctr_min 2.5 takes more than every C gives; the rank's own figures,
    or the unranked part's wider ones (on the safe side), pass."""
    from schematics.parts_schema import _ctr_by_number
    def said(number, least, most):
        return _ctr_by_number({"optocoupler": {"number": number, "ctr_min": least, "ctr_max": most}}, "parts.toml")
    assert said("Sharp PC817C", 2.5, 4.0) == ["parts.toml: [part.optocoupler] ctr_min is 2.5, above the 2 its datasheet "
                                              "gives a PC817C at the least: the rules would take a stronger part than "
                                              "the one ordered; give 2, or order a ranked part"]
    assert said("Sharp PC817C", 2.0, 4.0) == said("Sharp PC817C", 0.5, 6.0) == said("a 4N35", 5.0, 5.0) == []
