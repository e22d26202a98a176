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



def test_the_dice_led_blinks_on_one_thread_however_often_the_dice_roll(mock_factory):
    """gpiozero's blink starts a thread for each blink: on a Pi Zero 2 W that start was CPU the
    roll's message to the open pages waited for. A roll while it blinks starts the blink over
    (the newest roll gets all its blinks); closing ends it at once."""
    import threading
    import time

    leds = OracleLeds(load_pinmap(), mock_factory, blink_time=0.03)
    led = leds.led("dice_led")
    try:
        threads = threading.active_count()
        for _ in range(5):
            leds.rolled()
            time.sleep(0.02)                # mid-blink
            assert threading.active_count() == threads
        since = len(led.pin.states)
        time.sleep(6 * 0.03 + 0.2)          # the last roll's three blinks, and then some
        assert not led.is_lit
        lit = [s for s in led.pin.states[since:] if s.state == led.active_high]
        assert len(lit) in (2, 3)           # 3, or 2 more if the first had begun before ``since``
        leds.rolled()
        time.sleep(0.01)
    finally:
        started = time.monotonic()
        leds.close()
        assert time.monotonic() - started < 0.5
