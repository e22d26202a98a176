"""The simulated person (controller/hw/simulated.py) leaves the table quietly: closing with digits
still queued plays none of them, cuts the one in progress short, and logs nothing above DEBUG."""

import logging
import time

import pytest

from controller.hw.phone import PhonePins
from controller.hw.simulated import SimulatedPhone
from controller.pinmap import load_pinmap


@pytest.mark.slow
def test_closing_with_digits_queued_drops_them_quietly(mock_factory, caplog):
    edges = []
    pins = PhonePins(load_pinmap(), lambda t, line, state: edges.append((line, state)), mock_factory)
    sim = SimulatedPhone(pins, ahead=None)   # a script's queue, not a person's
    for digit in (4, 7, 1, 0, 9, 2, 8, 5, 3, 6) * 3:
        sim.dial(digit)
    end = time.monotonic() + 5
    while not any(line == "pulse" for line, _ in edges) and time.monotonic() < end:
        time.sleep(0.005)           # the first digit is being dialed
    with caplog.at_level(logging.DEBUG, logger="controller.hw.simulated"):
        t0 = time.monotonic()
        sim.close()                 # the box's order: the person leaves, then the pins close
        took = time.monotonic() - t0
        pins.close()
        seen = len(edges)
        time.sleep(0.3)
    assert took < 0.5, "the close waited for the queued digits"
    assert len(edges) == seen, "a digit was played after the close"
    assert sim.is_idle()
    assert not [r for r in caplog.records if r.levelno > logging.DEBUG], caplog.text
