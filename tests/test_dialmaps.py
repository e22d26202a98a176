"""Dial maps: the pulses each country's dial sends for a digit, and back again."""

import pytest

from controller.dial.dialmaps import DIAL_MAPS, digit_for, pulses_for


@pytest.mark.parametrize("dial_map, zero, one, nine", [
    ("standard", 10, 1, 9),
    ("sweden", 1, 2, 10),
    ("new-zealand", 10, 9, 1),
])
def test_each_map_sends_its_own_pulses(dial_map, zero, one, nine):
    assert [pulses_for(d, dial_map) for d in (0, 1, 9)] == [zero, one, nine]


@pytest.mark.parametrize("dial_map", DIAL_MAPS)
def test_every_digit_comes_back_from_its_pulses(dial_map):
    assert [digit_for(pulses_for(d, dial_map), dial_map) for d in range(10)] == list(range(10))
    assert digit_for(0, dial_map) is None and digit_for(11, dial_map) is None


def test_what_no_dial_sends_is_refused():
    with pytest.raises(ValueError, match="0 to 9"):
        pulses_for(10)
    with pytest.raises(ValueError, match="unknown dial map 'mars'"):
        pulses_for(1, "mars")
    with pytest.raises(ValueError, match="unknown dial map 'mars'"):
        digit_for(12, "mars")
