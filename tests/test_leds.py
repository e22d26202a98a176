"""The box's LEDs: the stopwatch's lit while it runs, the status LED while the box is ready, the
dice LED blinking as the dice roll, and either every LED claimed or none."""

import pytest

from controller.errors import PinMapError
from controller.hw.leds import OracleLeds
from controller.pinmap import load_pinmap
from tests.conftest import wait_for


def test_each_led_follows_what_it_shows(mock_factory):
    leds = OracleLeds(load_pinmap(), mock_factory, blink_time=0.005)
    try:
        leds.stopwatch(True)
        leds.ready()
        assert leds.led("stopwatch_led").is_lit and leds.led("status_led").is_lit
        leds.stopwatch(False)
        leds.ready(False)
        assert not leds.led("stopwatch_led").is_lit and not leds.led("status_led").is_lit
        leds.rolled()
        assert wait_for(lambda: sum(s.state for s in leds.led("dice_led").pin.states) >= 3)   # it blinked
    finally:
        leds.close()


def test_an_led_that_cant_be_wired_frees_the_ones_before_it(mock_factory):
    with pytest.raises(PinMapError):
        OracleLeds(load_pinmap(), mock_factory, names=("status_led", "no_such_led"))
    OracleLeds(load_pinmap(), mock_factory, names=("status_led",)).close()        # free again
