import pytest

from controller.errors import PinMapError
from controller.pinmap import DEFAULT_PINMAP, PHONE_LINES, load_pinmap, parse_pinmap

GOOD = """
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
pull = "none"
high_means = 0
"""


def test_repo_pinmap_has_every_phone_line_on_both_boards():
    """(Each on a pin of its own: load_pinmap refuses a pin used twice, tested below.)"""
    pm = load_pinmap()
    assert set(PHONE_LINES) <= set(pm.pi)
    assert set(PHONE_LINES) <= set(pm.pico)


def test_logical_and_level_are_inverse():
    pm = parse_pinmap(GOOD)
    for spec in pm.pi.values():
        for state in (0, 1):
            assert spec.logical(spec.level(state)) == state
    assert pm.line("pulse").logical(True) == 1      # open contact, pull-up: HIGH = break
    assert pm.line("hook").logical(False) == 1      # closed to GND: LOW = lifted
    assert pm.line("hook").pull_up is None


@pytest.mark.parametrize("bad, words", [
    (GOOD.replace("bcm = 27", "bcm = 17"), "GPIO17 is used by both"),
    (GOOD.replace('pull = "up"', 'pull = "sideways"', 1), "pull must be one of"),
    (GOOD.replace("high_means = 1", "high_means = 2"), "high_means must be 0 or 1"),
    (GOOD.replace("bcm = 22", "bcm = 40"), "bcm must be a pin number 0-27"),
    (GOOD.replace("[pi.hook]", "[pi.hookk]"), "no [pi.hook] line"),
    ("[pi.pulse\n", "not valid TOML"),
    (GOOD + '[pi.ringer]\nkind = "output"\nbcm = 17\n', "GPIO17 is used by both"),
    (GOOD + '[pi.ringer]\nkind = "relay"\nbcm = 5\n', "kind must be one of"),
    (GOOD + '[pi.ringer]\nkind = "output"\nbcm = 5\nactive_high = "yes"\n', "active_high must be true or false"),
    (GOOD + '[pi.display]\nkind = "i2c"\nsda = 2\nscl = 22\naddress = 0x3C\n', "GPIO22 is used by both"),
    (GOOD + '[pi.display]\nkind = "i2c"\nsda = 2\nscl = 3\naddress = 300\n', "7-bit I2C address"),
    (GOOD + '[pico.pulse]\ngp = 2\npull = "up"\nhigh_means = 1\n', r"no \[pico.offnormal\] line"),
    (GOOD + '[arduino.pulse]\npin = 2\n', "unknown section"),
    (GOOD.replace("bcm = 22", 'bcm = 22\nto = "12V"'), "to must be one of GND, 3V3, 5V"),
    (GOOD + '[pi.led]\nkind = "output"\nbcm = 5\nload = "lamp"\n', "load must be one of"),
    (GOOD + '[pi.led]\nkind = "output"\nbcm = 5\nload = "led"\nvf = 1.8\n', "needs vf"),
    (GOOD + '[pi.led]\nkind = "output"\nbcm = 5\nload = "led"\nvf = 1.8\nresistor = 3.3\n', "whole number of ohms"),
    (GOOD + '[pi.led]\nkind = "output"\nbcm = 5\nload = "led"\nvf = -1\nresistor = 330\n', "vf must be a positive"),
    (GOOD + '[pi.display]\nkind = "i2c"\nsda = 2\nscl = 3\naddress = 0x3C\nsupply = "9V"\n', "supply must be one of"),
    # a builder's planted faults: the dial taken out of the phone (no filter, no ESD), the Pi's "own LED"
    (GOOD.replace("bcm = 17", "bcm = 17\nin_phone = false"),
     "[pi.pulse]: in_phone = false, but the dial and the hook are always in the phone"),
    (GOOD + '[pi.led]\nkind = "output"\nbcm = 5\nload = "board_led"\n',
     '[pi.led]: load = "board_led", but the Raspberry Pi has no LED of its own on a GPIO'),
])
def test_bad_pinmaps_are_refused_with_the_line_named(bad, words):
    pattern = words if "\\[" in words else words.replace("[", r"\[").replace("]", r"\]")
    with pytest.raises(PinMapError, match=pattern):
        parse_pinmap(bad, source="test.toml")


def test_no_pin_number_is_written_in_the_controller():
    """The pin map is the one source: no BCM number of it appears in controller code."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "controller"
    pm = load_pinmap()
    for path in root.rglob("*.py"):
        text = path.read_text()
        for spec in pm.lines("input") + pm.lines("output"):
            assert not re.search(r"\b(GPIO|BCM|bcm=|pin=)\s*%d\b" % spec.bcm, text), (path, spec)


def test_outputs_and_buses_are_read_with_their_pins():
    pm = load_pinmap()
    ringer = pm.line("ringer")
    assert ringer.kind == "output" and ringer.active_high is True and ringer.gpio.startswith("GPIO")
    display = pm.line("display")
    assert display.kind == "i2c" and set(display.pins) == {"sda", "scl"} and 0x03 <= display.address <= 0x77
    assert pm.line("pulse", board="pico").gpio.startswith("GP")
    assert [s.name for s in pm.lines("input")][:3] == list(PHONE_LINES)


def test_electrical_fields_are_read():
    pm = load_pinmap()
    led = pm.line("status_led")
    assert led.load == "led" and led.resistor > 0 and 0 < led.vf < 3.3 and led.colour
    assert pm.line("ringer").load == "optocoupler"
    assert pm.line("hook").to == "GND" and pm.line("hook").pull_resistor is None
    assert pm.line("display").supply == "3V3"
    assert pm.line("status_led", board="pico").load == "board_led"


def test_in_phone_and_the_amplifiers_sd_pin_are_read():
    pm = load_pinmap()
    assert all(pm.line(name).in_phone for name in ("pulse", "offnormal", "hook"))   # always
    assert not pm.line("dice_button").in_phone and "sd" not in pm.line("audio").pins
    text = DEFAULT_PINMAP.read_text().replace("din = 21\n", "din = 21\nsd = 4\n")
    assert parse_pinmap(text).line("audio").pins["sd"] == 4
    with pytest.raises(PinMapError, match="in_phone must be true or false"):
        parse_pinmap(DEFAULT_PINMAP.read_text().replace('in_phone = true', 'in_phone = "yes"', 1))
    with pytest.raises(PinMapError, match="sd must be a pin number"):
        parse_pinmap(text.replace("sd = 4", "sd = 99"))


def test_a_pin_clash_with_the_picos_own_led_moves_the_other_line():
    """A builder's planted fault: [pico.pulse] on GP25 was told to move status_led, the Pico's own LED,
    which no other pin has."""
    text = DEFAULT_PINMAP.read_text()
    start = text.index("[pico.pulse]")
    dial = text[:start] + text[start:].replace("gp = 2\n", "gp = 25\n", 1)
    with pytest.raises(PinMapError, match=r"GP25 is used by both pulse and status_led; move pulse to a free pin "
                                          r"\(GP25 is the board's own LED, status_led's"):
        parse_pinmap(dial)
    with pytest.raises(PinMapError, match=r"GP25 is used by both status_led and spare; move spare to a free pin "
                                          r"\(GP25 is the board's own LED"):
        parse_pinmap(text + '\n[pico.spare]\ngp = 25\npull = "up"\nhigh_means = 0\n')     # the LED named first
    with pytest.raises(PinMapError, match=r"GP16 is used by both ringer_copy and spare; move spare to a free pin$"):
        parse_pinmap(text + '\n[pico.ringer_copy]\nkind = "output"\ngp = 16\n[pico.spare]\ngp = 16\npull = "up"\n'
                            'high_means = 0\n')
    with pytest.raises(PinMapError, match=r'\[pico.status_led\]: load = "board_led" on GP24, but the Pico\'s own LED '
                                          r'is on GP25'):
        parse_pinmap(text[:start] + text[start:].replace("gp = 25\n", "gp = 24\n", 1))
