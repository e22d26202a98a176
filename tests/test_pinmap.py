import pytest

from controller.errors import PinMapError
from controller.pinmap import PHONE_LINES, load_pinmap, parse_pinmap

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


def test_repo_pinmap_has_the_phone_lines_on_distinct_pins():
    pm = load_pinmap()
    assert set(PHONE_LINES) <= set(pm.pi)
    pins = [spec.bcm for spec in pm.pi.values()]
    assert len(pins) == len(set(pins))


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
    (GOOD.replace("bcm = 22", "bcm = 40"), "bcm must be a GPIO number"),
    (GOOD.replace("[pi.hook]", "[pi.hookk]"), "no [pi.hook] line"),
    ("[pi.pulse\n", "not valid TOML"),
])
def test_bad_pinmaps_are_refused_with_the_line_named(bad, words):
    with pytest.raises(PinMapError, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse_pinmap(bad, source="test.toml")


def test_no_pin_number_is_written_in_the_controller():
    """The pin map is the one source: no BCM number of it appears in controller code."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "controller"
    pm = load_pinmap()
    for path in root.rglob("*.py"):
        text = path.read_text()
        for spec in pm.pi.values():
            assert not re.search(r"\b(GPIO|BCM|bcm=|pin=)\s*%d\b" % spec.bcm, text), (path, spec)
