"""The phone's contacts on the Pi's pins: the pin map's dial and hook lines, each edge handed on
in logical states."""

from controller.hw.phone import PhonePins
from controller.pinmap import PHONE_LINES, load_pinmap


def test_the_phone_claims_its_lines_and_hands_on_a_lift(mock_factory):
    got = []
    pins = PhonePins(load_pinmap(), lambda t, line, state: got.append((line, state)), mock_factory)
    try:
        assert pins.names == tuple(PHONE_LINES)
        pin = pins.pin("hook")
        pin.drive_high() if pins.spec("hook").level(1) else pin.drive_low()
        assert got == [("hook", 1)] and pins.states()["hook"] == 1
    finally:
        pins.close()
