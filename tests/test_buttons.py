"""Buttons: the gpiozero adapter hands on edges stamped by the pin; the listener runs the debouncer
live; simulated presses drive the same pins. The pure debouncer is in test_presses.py."""

import queue

import pytest
from conftest import FakeClock
from gpiozero.pins import mock as gpiozero_mock

from controller.hw.buttons import ButtonListener, ButtonPins
from controller.hw.simulated import SimulatedButtons
from controller.oracles.presses import DOWN, HELD, UP
from controller.pinmap import load_pinmap

# the simulated presses are held in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

# ---------------------------------------------------------------- gpiozero pins and the live listener

@pytest.fixture
def clock(monkeypatch):
    c = FakeClock(100.0)
    monkeypatch.setattr(gpiozero_mock, "monotonic", c)
    return c


@pytest.fixture
def pinmap():
    return load_pinmap()


def drive(pins, name, state):
    pin = pins.pin(name)
    pin.drive_high() if pins.spec(name).level(state) else pin.drive_low()


def test_pins_hand_on_logical_edges_stamped_by_the_pin(clock, pinmap, mock_factory):
    edges = []
    pins = ButtonPins(pinmap, lambda *e: edges.append(e), mock_factory, clock=clock)
    try:
        assert pins.states() == {"dice_button": 0, "stopwatch_button": 0}     # pull-up, open: released
        assert pins.spec("dice_button").bcm == pinmap.line("dice_button").bcm
        clock.t = 100.25
        drive(pins, "stopwatch_button", 1)
        assert edges == [(100.25, "stopwatch_button", 1)]
        assert pins.pin("stopwatch_button").state == 0                      # pressed pulls the pin LOW
    finally:
        pins.close()
    assert pins.names == ()


def test_a_missing_line_closes_what_was_opened(pinmap, mock_factory):
    from controller.errors import PinMapError
    with pytest.raises(PinMapError, match="no_such_button"):
        ButtonPins(pinmap, lambda *e: None, mock_factory, names=("dice_button", "no_such_button"))
    # the dice button's pin was released: it can be claimed again
    ButtonPins(pinmap, lambda *e: None, mock_factory, names=("dice_button",)).close()


def test_listener_debounces_live_and_keeps_the_first_edge(clock, pinmap, mock_factory):
    got = queue.Queue()
    listener = ButtonListener(got.put, clock=clock, settle=0.005, hold_time=1.0)
    pins = ButtonPins(pinmap, listener.edge, mock_factory, clock=clock)
    listener.start(initial=pins.states())
    try:
        for t, s in ((100.000, 1), (100.0006, 0), (100.0011, 1)):
            clock.t = t
            drive(pins, "dice_button", s)
        clock.t = 100.05                       # time passes: the listener's deadline is due
        down = got.get(timeout=5)
        assert (down.button, down.kind, down.t) == ("dice_button", DOWN, 100.0)
        clock.t = 100.2
        drive(pins, "dice_button", 0)
        clock.t = 100.3
        up = got.get(timeout=5)
        assert up.kind == UP and up.t == 100.2 and up.duration == pytest.approx(0.2)
    finally:
        listener.stop()
        pins.close()


def test_a_failing_handler_doesnt_stop_the_listener(clock, pinmap, mock_factory):
    got = queue.Queue()

    def handler(press):
        got.put(press)
        raise RuntimeError("boom")

    listener = ButtonListener(handler, clock=clock, settle=0.0)
    pins = ButtonPins(pinmap, listener.edge, mock_factory, clock=clock)
    listener.start()
    try:
        drive(pins, "stopwatch_button", 1)
        drive(pins, "stopwatch_button", 0)
        assert got.get(timeout=5).kind == DOWN and got.get(timeout=5).kind == UP
    finally:
        listener.stop()
        pins.close()


@pytest.mark.slow
def test_simulated_presses_drive_the_same_pins(pinmap, mock_factory):
    got = queue.Queue()
    # settle and hold well above a busy machine's scheduling delays, so only the pins' edge
    # times decide
    listener = ButtonListener(got.put, settle=0.02, hold_time=0.5)
    pins = ButtonPins(pinmap, listener.edge, mock_factory)
    listener.start()
    sim = SimulatedButtons(pins, tap=0.05, long=0.6)
    try:
        sim.press("stopwatch_button", bounce=(0.0003, 0.0008))
        down, up = got.get(timeout=5), got.get(timeout=5)
        assert (down.kind, up.kind) == (DOWN, UP) and not up.long
        assert up.duration >= 0.05
        # the pin really went through the bounces: low, high, low (+ the release's)
        assert [s.state for s in pins.pin("stopwatch_button").states][-6:] == [False, True, False, True, False, True]
        sim.press("dice_button", long=True)
        presses = [got.get(timeout=5) for _ in range(3)]
        assert [p.kind for p in presses] == [DOWN, HELD, UP] and presses[2].long
        with pytest.raises(ValueError, match="no button"):
            sim.press("doorbell")
    finally:
        sim.close()
        listener.stop()
        pins.close()
