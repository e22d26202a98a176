"""firmware/pins.py is generated from hardware/pinmap.toml and must not drift from it."""

import importlib.util
import re

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
