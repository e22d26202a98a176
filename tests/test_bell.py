"""The bell driver's line through one ring cycle: whole strikes of the solenoid inside each ring
of the cadence, pure, no pins and no clock."""

import math

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


# the coil's heat budget: the pure model, on a fake clock

def _figures(**kw):
    from controller.hw.bell import CoilFigures
    base = dict(volts=12.6, ohms20=17.0, alpha=0.0039, theta=35.0, tau=240.0, ambient=35.0)
    base.update(kw)
    return CoilFigures(**base)


def test_the_coil_figures_are_the_rules_own_from_parts_toml():
    from controller.hw.bell import load_coil_figures
    from schematics.erc import coil_heat, strike_duty, supply_max
    from schematics.parts import load_parts

    parts = load_parts()
    f = load_coil_figures()
    assert f.volts == pytest.approx(supply_max(parts))
    assert f.tau == float(parts.part("solenoid")["tau_s"])
    assert f.settle(strike_duty()) == pytest.approx(coil_heat(parts, supply_max(parts), strike_duty(),
                                                              float(parts.bell["ambient_c"]))[0], abs=0.01)


def test_a_coil_file_without_its_figures_is_refused_in_a_sentence(tmp_path):
    from controller.errors import ConfigError
    from controller.hw.bell import load_coil_figures

    bad = tmp_path / "parts.toml"
    bad.write_text("[bell_driver]\nsupply_v = 12.0\n")
    with pytest.raises(ConfigError, match="bell coil's heat"):
        load_coil_figures(bad)
    bad.write_text("[bell_driver\n")
    with pytest.raises(ConfigError, match="can't read"):
        load_coil_figures(bad)


def test_the_estimate_warms_and_cools_first_order_on_the_clock():
    from controller.hw.bell import CoilHeat
    from tests.conftest import FakeClock

    clock = FakeClock(0.0)
    f = _figures(alpha=0.0)                     # a fixed resistance: the exact exponential
    heat = CoilHeat(f, clock)
    assert heat.temp_c == 35.0
    full = 12.6 ** 2 / 17.0
    clock.t = 240.0                              # one time constant at a quarter of full power
    assert heat.advance(0.25) == pytest.approx(35 + 35 * full * 0.25 * (1 - math.exp(-1)))
    warm = heat.temp_c
    clock.t += 240.0                             # one off: back towards the air by 1/e
    assert heat.advance(0.0) == pytest.approx(35 + (warm - 35) * math.exp(-1))
    assert f.cooling_time(75.0, 55.0) == pytest.approx(240 * math.log(2))
    assert f.cooling_time(50.0, 55.0) == 0.0


def test_the_budget_asks_for_a_rest_only_when_a_cycle_would_pass_the_ceiling():
    from controller.hw.bell import COIL_CEILING_C, COIL_REST_C, CoilHeat, ring_steps
    from tests.conftest import FakeClock

    steps = ring_steps(CADENCES["north-america"])
    heat = CoilHeat(_figures(), FakeClock(0.0))
    assert heat.rest_needed(steps) == 0.0                       # a cold coil rings
    heat.temp_c = COIL_CEILING_C - 0.1                          # a 2 s ring at 40 % adds a few tenths
    assert heat.peak(steps) > COIL_CEILING_C
    assert heat.rest_needed(steps) == pytest.approx(
        240 * math.log((COIL_CEILING_C - 0.1 - 35) / (COIL_CEILING_C - COIL_REST_C - 35)))
    assert heat.temp_c == COIL_CEILING_C - 0.1                  # looking ahead leaves it as it is
    heat.temp_c = COIL_CEILING_C - 5.0
    assert heat.rest_needed(steps) == 0.0
