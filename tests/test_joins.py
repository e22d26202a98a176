"""The join service (controller/joins.py): the dial-join machine run under one lock, and the timer
that hands a code dialed half-way to the editor when no digit comes to end it."""

import threading
import time

from test_dial_join import devices, waiting  # noqa: F401  (the devices fixture)

from controller.dial_join import DialOutcome
from controller.joins import JoinService


def test_the_timer_hands_a_code_dialed_half_way_to_the_editor(devices):  # noqa: F811
    """No digit comes to end a code dialed half-way: the service's timer does, after the gap."""
    service = JoinService(devices, gap=0.05)
    heard, done = [], threading.Event()
    service.pass_on = lambda digit: heard.append(digit) or done.set()
    [device] = waiting(devices)
    try:
        assert service.on_digit(int(device.code[0]), 0.0).kind == DialOutcome.COLLECTING
        assert done.wait(5)
        assert heard == [int(device.code[0])]
        assert service.flush() == []                                   # nothing is held any more
    finally:
        service.close()


def test_closing_the_service_stops_its_timer(devices):  # noqa: F811
    service = JoinService(devices, gap=0.05)
    heard = []
    service.pass_on = heard.append
    [device] = waiting(devices)
    service.on_digit(int(device.code[0]), 0.0)
    service.close()
    time.sleep(0.2)                  # four gaps: the timer would have fired by now
    assert heard == []
