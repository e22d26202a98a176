"""Contacts on GPIO pins: raw edges in the pin map's logical states on the listener's clock, each
contact's state now, and either every pin claimed or none."""

import pytest

from controller.errors import PinMapError
from controller.hw.contacts import ContactPins, TickClock
from controller.pinmap import load_pinmap


def test_edge_ticks_are_put_on_the_listeners_clock_and_a_stepped_clock_reseeds_it():
    arrivals = iter([10.0, 10.5, 20.0, 20.25])
    clock = TickClock(lambda: next(arrivals))
    assert clock(5.0) == 10.0                # the first edge sets the offset
    assert clock(5.45) == pytest.approx(10.45)   # a late arrival is stamped when the edge was
    assert clock(5.5) == 20.0                # the other clock jumped: seeded again
    assert clock(None) == 20.25              # no tick: the arrival


def test_edges_reach_the_sink_in_logical_states(mock_factory):
    got = []
    pins = ContactPins(load_pinmap(), lambda t, name, state: got.append((name, state)), mock_factory,
                       names=("hook",))
    try:
        assert pins.names == ("hook",) and pins.states() == {"hook": 0}
        pin = pins.pin("hook")
        pin.drive_high() if pins.spec("hook").level(1) else pin.drive_low()
        assert got == [("hook", 1)] and pins.states() == {"hook": 1}
    finally:
        pins.close()


def test_a_contact_that_cant_be_wired_frees_the_ones_before_it(mock_factory):
    with pytest.raises(PinMapError):
        ContactPins(load_pinmap(), lambda *edge: None, mock_factory, names=("hook", "no_such_line"))
    ContactPins(load_pinmap(), lambda *edge: None, mock_factory, names=("hook",)).close()   # hook is free again
