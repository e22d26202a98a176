"""The panel's simulated person (controller/hw/simulated.py) is no further ahead of their finger
than a person is, and hangs up at once: a burst of digits or presses past a few is refused with
a sentence (429, Retry-After), and putting the handset down drops the digits not yet dialed, so
none of them becomes a verdict after the call is over."""

import threading

import pytest
from conftest import wait_for

from controller.events import VERDICT
from controller.hw.simulated import DIGITS_AHEAD, PRESSES_AHEAD, RETRY_AFTER_S

# the simulated dial and buttons run in real time: the waiting lane (tests/lanes.py)
pytestmark = [pytest.mark.waits, pytest.mark.slow]

DIGIT_0_S = 2.0     # a 0 from the panel, lift to the finger back at the hole: 0.4 + 0.25 + 1.0 + 0.35


def verdicts(desk):
    return desk.store.latest(VERDICT, 50)


@pytest.fixture
def held(desk):
    """The simulated person's finger held on the first action until the test ends, and an event
    set once it is: what waits behind it is then the same however slowly a busy machine answers
    the requests or wakes the person's thread (seven requests that took over a second let a press
    be played out, and the queue never filled; a thread that took the first press only after
    twenty more requests left room behind it for the last)."""
    gate, playing = threading.Event(), threading.Event()

    def hold(seconds):
        playing.set()
        gate.wait(30)
    for sim in (desk.sim_phone, desk.sim_buttons):
        if sim is not None:
            sim._sleep = hold
    yield playing
    gate.set()


def test_digits_past_what_a_finger_has_ahead_are_refused_with_a_sentence(client, desk, held):
    assert client.post("/api/sim/dial", json={"digit": 0}).status_code == 202
    assert held.wait(10)                                            # the finger is on the first digit
    answers = [client.post("/api/sim/dial", json={"digit": 0}) for _ in range(DIGITS_AHEAD + 5)]
    assert [r.status_code for r in answers] == [202] * DIGITS_AHEAD + [429] * 5     # those waiting behind it
    refused = answers[-1]
    assert refused.status_code == 429, refused.get_json()
    assert refused.headers["Retry-After"] == str(RETRY_AFTER_S)
    body = refused.get_json()
    assert body["error"] == "Too Many Requests"
    assert "one digit at a time" in body["message"] and "hang up" in body["message"]
    assert client.post("/api/sim/hook", json={"state": "off"}).status_code == 202  # the digits lift it: nothing to add
    assert client.post("/api/sim/hook", json={"state": "on"}).status_code == 202   # a hang-up is never refused


def test_presses_past_what_a_finger_has_ahead_are_refused_with_a_sentence(client, desk, held):
    assert client.post("/api/oracles/sim/dice", json={"long": True}).status_code == 202
    assert held.wait(10)                                            # the finger holds the first press
    answers = [client.post("/api/oracles/sim/dice", json={"long": True}) for _ in range(PRESSES_AHEAD + 5)]
    assert [r.status_code for r in answers] == [202] * PRESSES_AHEAD + [429] * 5
    refused = answers[-1]
    assert refused.status_code == 429 and refused.headers["Retry-After"] == str(RETRY_AFTER_S)
    assert "press again in a moment" in refused.get_json()["message"]
    refused = client.post("/api/oracles/sim/stopwatch", json={})
    assert refused.status_code == 429 and "presses" in refused.get_json()["message"]


def test_hanging_up_before_the_finger_lets_go_dials_nothing_and_drops_the_digits_waiting(client, desk):
    for _ in range(DIGITS_AHEAD):       # all waiting, however soon the phone takes the first
        assert client.post("/api/sim/dial", json={"digit": 0}).status_code == 202
    assert wait_for(lambda: desk.table.hook == "off", timeout=2.0)    # lifted: the first digit is on its way
    assert client.post("/api/sim/hook", json={"state": "on"}).status_code == 202
    assert wait_for(lambda: desk.table.hook == "on", timeout=1.0), "the hang-up waited behind the digits"
    assert wait_for(desk.sim_phone.is_idle, timeout=1.0)
    wait_for(lambda: verdicts(desk), timeout=DIGIT_0_S)               # none should come
    assert verdicts(desk) == [] and desk.table.hook == "on"


def test_hanging_up_while_the_dial_runs_home_keeps_that_digit_whole_and_drops_the_rest(client, desk):
    pulses = []
    desk.phone_taps.append(lambda t, line, state: line == "pulse" and pulses.append(t))
    for _ in range(DIGITS_AHEAD):       # all waiting, however soon the phone takes the first
        assert client.post("/api/sim/dial", json={"digit": 0}).status_code == 202
    assert wait_for(lambda: pulses, timeout=2.0)                       # the dial is running home
    assert client.post("/api/sim/hook", json={"state": "on"}).status_code == 202
    assert wait_for(lambda: desk.table.hook == "on", timeout=DIGIT_0_S), "the hang-up waited behind the digits"
    assert wait_for(desk.sim_phone.is_idle, timeout=1.0)
    wait_for(lambda: len(verdicts(desk)) > 1, timeout=DIGIT_0_S)     # no second digit should come
    assert [v.payload["digit"] for v in verdicts(desk)] == [0]        # all ten pulses: a 0, not a smaller digit
    assert desk.table.hook == "on"
