"""firmware/pins.py is generated from hardware/pinmap.toml and must not drift from it."""

import importlib.util
import re
import subprocess
import sys

import pytest
from pico_emulator import REPO, TOOLS

from controller.errors import PinMapError
from controller.pinmap import load_pinmap, parse_pinmap


def _genpins():
    spec = importlib.util.spec_from_file_location("genpins", TOOLS / "genpins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


genpins = _genpins()


def test_the_checked_in_pins_py_is_what_the_pin_map_generates():
    assert (REPO / "firmware" / "pins.py").read_text() == genpins.render(load_pinmap()), \
        "firmware/pins.py has drifted from hardware/pinmap.toml: run `make firmware-pins`"
    readme = (REPO / "firmware" / "README.md").read_text()
    assert genpins.render_wiring(load_pinmap()) in readme, \
        "firmware/README.md's wiring table has drifted from hardware/pinmap.toml: run `make firmware-pins`"
    assert genpins.main(["--check"]) == 0


def test_the_wiring_table_names_each_pico_line_with_its_header_pin():
    table = genpins.render_wiring(parse_pinmap(PI + PICO_INPUTS + """
[pico.ringer]
kind = "output"
gp = 20
active_high = false
what = "the ringer"
[pico.status_led]
kind = "output"
gp = 25
"""))
    assert "| pulse | GP10 | 14 |" in table and "contact to 3V3 (header pin 36)" in table
    assert "| offnormal | GP11 | 15 |" in table and "needs an external pull resistor; HIGH reads 1" in table
    assert "| ringer | GP20 | 26 | the ringer | LOW switches it on |" in table
    assert "| status_led | GP25 | none (on the board) |" in table


def test_pins_py_holds_the_pico_lines_of_the_pin_map():
    pinmap = load_pinmap()
    scope = {}
    exec(genpins.render(pinmap), scope)
    for name in ("pulse", "offnormal", "hook"):
        spec = pinmap.line(name, board="pico")
        assert scope["INPUTS"][name] == (spec.bcm, spec.pull, spec.high_means)
    for name in ("ringer", "status_led"):
        spec = pinmap.line(name, board="pico")
        assert scope["OUTPUTS"][name] == (spec.bcm, spec.active_high)


PI = """
[pi.pulse]
bcm = 17
pull = "up"
high_means = 1
[pi.offnormal]
bcm = 27
pull = "up"
high_means = 0
[pi.hook]
bcm = 22
pull = "up"
high_means = 0
"""

PICO_INPUTS = """
[pico.pulse]
gp = 10
pull = "down"
high_means = 0
[pico.offnormal]
gp = 11
pull = "none"
high_means = 1
[pico.hook]
gp = 12
pull = "up"
high_means = 0
"""


def test_a_changed_pin_map_changes_pins_py(tmp_path):
    text = PI + PICO_INPUTS + """
[pico.ringer]
kind = "output"
gp = 20
active_high = false
[pico.status_led]
kind = "output"
gp = 21
"""
    path = tmp_path / "pinmap.toml"
    path.write_text(text)
    scope = {}
    exec(genpins.render(parse_pinmap(text)), scope)
    assert scope["INPUTS"] == {"pulse": (10, "down", 0), "offnormal": (11, "none", 1), "hook": (12, "up", 0)}
    assert scope["OUTPUTS"] == {"ringer": (20, False), "status_led": (21, True)}
    assert genpins.main(["--check", "--pinmap", str(path)]) == 1


def test_a_pin_map_without_the_firmwares_outputs_is_refused():
    with pytest.raises(PinMapError, match=r"\[pico.ringer\]"):
        genpins.render(parse_pinmap(PI + PICO_INPUTS))
    with pytest.raises(PinMapError, match=r"\[pico.status_led\] must be an output"):
        genpins.render(parse_pinmap(PI + PICO_INPUTS + """
[pico.ringer]
kind = "output"
gp = 20
[pico.status_led]
gp = 21
pull = "up"
high_means = 1
"""))


def test_no_other_firmware_file_names_a_pin():
    for path in (REPO / "firmware").glob("*.py"):
        if path.name == "pins.py":
            continue
        assert not re.search(r"\bGP\d|Pin\(\d", path.read_text()), path.name


PINMAP_TEXT = (REPO / "hardware" / "pinmap.toml").read_text()


def _pico_line(section, old, new):
    start = PINMAP_TEXT.index("[%s]\n" % section)
    end = PINMAP_TEXT.find("\n[", start + 1)
    end = len(PINMAP_TEXT) if end < 0 else end
    assert old in PINMAP_TEXT[start:end], (section, old)
    return PINMAP_TEXT[:start] + PINMAP_TEXT[start:end].replace(old, new, 1) + PINMAP_TEXT[end:]


@pytest.mark.parametrize("section, old, new, said", [
    ("pico.status_led", "gp = 25", "gp = 29",
     "genpins: pinmap.toml [pico.status_led]: gp must be a pin number 0-28, got 29"),
    ("pico.hook", "gp = 4", "gp = 3",
     "genpins: pinmap.toml: GP3 is used by both offnormal and hook; move hook to a free pin"),
    ("pico.status_led", "gp = 25", "gp = 24",
     'genpins: pinmap.toml [pico.status_led]: load = "board_led" on GP24, but the Pico\'s own LED is on GP25 and no '
     'other pin has it: put the line on GP25, or wire an LED (load = "led" with colour, vf and resistor)'),
])
def test_a_pin_map_it_cannot_read_is_one_sentence_not_a_traceback(tmp_path, section, old, new, said):
    """As `make firmware-pins` runs it: a process, its exit status and what it prints (a pin map
    the reader refuses ended in a Python traceback)."""
    path = tmp_path / "pinmap.toml"
    path.write_text(_pico_line(section, old, new))
    for check in ([], ["--check"]):
        done = subprocess.run([sys.executable, str(TOOLS / "genpins.py"), "--pinmap", str(path)] + check,
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.strip().splitlines() == [said], done.stderr


def _written_to(tmp_path, monkeypatch):
    """genpins' outputs moved to ``tmp_path``: (pins.py, README.md) as they are in the repo."""
    pins, readme = tmp_path / "pins.py", tmp_path / "README.md"
    pins.write_text((REPO / "firmware" / "pins.py").read_text())
    readme.write_text((REPO / "firmware" / "README.md").read_text())
    monkeypatch.setattr(genpins, "OUTPUT", pins)
    monkeypatch.setattr(genpins, "README", readme)
    return pins, readme


@pytest.mark.parametrize("section, old, new, words", [
    # GP23: the Pico's regulator's power-save pin, on no edge pin
    ("pico.ringer", "gp = 15", "gp = 23", "ringer is on GP23, which reaches no pin of the Raspberry Pi Pico"),
    ("pico.ringer", "active_high = true", "active_high = false", "ringer (GP15, pin 20) lights the optocoupler "
                                                                 "active-low"),
    ("pico.ringer", "resistor = 680", "resistor = 100", "ringer (GP15, pin 20) draws 23.0 mA"),
])
def test_pins_py_is_not_written_for_a_pico_the_rules_refuse(tmp_path, monkeypatch, capsys, section, old, new, words):
    """The firmware's pins come from the same map as the schematics: `make firmware-pins` runs the
    rules `python -m schematics.generate --check` runs on the Pico's circuit, and writes nothing
    they refuse (it wrote 'ringer': (23, True) with status 0)."""
    pins, readme = _written_to(tmp_path, monkeypatch)
    before = pins.read_text(), readme.read_text()
    path = tmp_path / "pinmap.toml"
    path.write_text(_pico_line(section, old, new))
    for check in ([], ["--check"]):
        assert genpins.main(["--pinmap", str(path)] + check) == 1
        out, err = capsys.readouterr()
        assert out == "" and words in err and "Traceback" not in err
        assert err.splitlines()[0].startswith("electrical rules: pico: ")
        assert err.splitlines()[-1].startswith("genpins: not writing firmware/pins.py")
    assert (pins.read_text(), readme.read_text()) == before


def test_the_rules_it_runs_are_the_schematics_own():
    """Reused, not copied: the Pico's circuit through schematics/erc.py, as generate says them."""
    from schematics import generate
    from schematics.circuit import build
    from schematics.parts import load_parts
    bad = parse_pinmap(_pico_line("pico.ringer", "gp = 15", "gp = 23"))
    said = genpins.rule_errors(bad)
    assert said and said == generate.errors({"pico": build(bad, load_parts(), "pico")})
    assert genpins.rule_errors(load_pinmap()) == []
