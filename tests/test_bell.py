"""The bell driver's line through one ring cycle: whole strikes of the solenoid inside each ring
of the cadence, pure, no pins and no clock."""

import pytest

from controller.hw.bell import STRIKE_DUTY, ring_steps, strikes_per_cycle
from controller.hw.ringer import CADENCES


def test_ring_steps_are_whole_strikes_inside_the_cadence():
    for cadence in CADENCES.values():
        for hz in (15, 20, 25):
            steps = ring_steps(cadence, hz)
            assert sum(s for _, s in steps) == pytest.approx(sum(on + off for on, off in cadence))
            assert steps[0][0] is True and steps[-1][0] is False
            assert all(a[0] != b[0] for a, b in zip(steps, steps[1:]))      # strictly alternating
            assert all(s == pytest.approx(STRIKE_DUTY / hz) for level, s in steps if level)
    assert strikes_per_cycle(CADENCES["uk"], 20) == 2 * 8
    assert strikes_per_cycle(CADENCES["north-america"], 25) == 50
    assert ring_steps(CADENCES["uk"], 0) == [(True, 0.4), (False, 0.2), (True, 0.4), (False, 2.0)]
    assert ring_steps(((0.01, 1.0),), 20)[0] == (True, pytest.approx(STRIKE_DUTY / 20))   # a short ring: one strike


def test_the_strike_rate_is_held_on_or_a_bells_rate():
    from controller.errors import ConfigError
    from controller.hw.bell import check_strike_hz

    assert check_strike_hz("25") == 25.0 and check_strike_hz(0) == 0.0
    for hz in (-1, 3, 41, "fast", None):
        with pytest.raises(ConfigError, match="strike rate"):
            check_strike_hz(hz)
