import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from controller.errors import BadRequest, ConfigError, PinMapError
from controller.hw.bell import STRIKE_HZ
from controller.hw.ringer import CADENCES, Ringer
from controller.pinmap import DEFAULT_PINMAP, load_pinmap, parse_pinmap
from tests.conftest import FakeClock, wait_for

REPO = Path(__file__).resolve().parents[1]


class FakeWait:
    """Stands in for Event.wait: moves the fake clock the pin's timestamps read instead of sleeping.
    After ``block_after`` waits it really waits on the stop event, so a test can stop the ringer
    mid-cadence."""

    def __init__(self, clock, block_after=None):
        self.clock = clock
        self.block_after = block_after
        self.asked = []
        self.blocking = threading.Event()

    def __call__(self, stop, seconds):
        if self.block_after is not None and len(self.asked) >= self.block_after:
            self.blocking.set()
            return stop.wait(5.0)
        self.asked.append(seconds)
        self.clock.t += seconds
        return stop.is_set()


@pytest.fixture
def clock(monkeypatch):
    c = FakeClock(0.0)
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", c)
    return c


def _history(pin):
    """(seconds since the previous change, level) for each change after the first."""
    return [(round(s.timestamp, 3), s.state) for s in pin.states[1:]]


def _make(mock_factory, clock, **kw):
    """A ringer on a mock pin. The cadence tests hold the line through each ring (strike_hz=0),
    so the pin's history is the cadence itself; the strike tests ask for strikes."""
    wait = FakeWait(clock, kw.pop("block_after", None))
    kw.setdefault("strike_hz", 0)
    ringer = Ringer(load_pinmap(), mock_factory, wait=wait, clock=clock, **kw)
    ringer.pin.clear_states()
    return ringer, wait


def test_north_american_cadence_on_the_pin_maps_ringer_line(mock_factory, clock):
    ringer, wait = _make(mock_factory, clock)
    assert ringer.pin.info.name == load_pinmap().line("ringer").gpio
    assert ringer.period == 6.0
    ringer.ring(times=3)
    ringer._thread.join(5)
    assert not ringer.is_ringing
    assert _history(ringer.pin) == [(0.0, True), (2.0, False)] + [(4.0, True), (2.0, False)] * 2
    assert wait.asked == pytest.approx([2.0, 4.0] * 3)
    ringer.close()


def test_uk_double_ring(mock_factory, clock):
    ringer, wait = _make(mock_factory, clock, cadence="uk")
    ringer.ring(times=2)
    ringer._thread.join(5)
    assert wait.asked == pytest.approx([0.4, 0.2, 0.4, 2.0] * 2)
    assert _history(ringer.pin) == [(0.0, True), (0.4, False), (0.2, True), (0.4, False),
                                    (2.0, True), (0.4, False), (0.2, True), (0.4, False)]
    assert ringer.period == 3.0
    ringer.close()


def test_ringing_until_stopped_stops_mid_ring_at_once(mock_factory, clock):
    ringer, wait = _make(mock_factory, clock, block_after=4)     # on, off, on, off: then the third ring
    ringer.ring()
    assert wait.blocking.wait(5)
    assert ringer.is_ringing and ringer.pin.state            # in the third ring
    clock.t += 0.7
    ringer.stop()
    assert not ringer.is_ringing and not ringer.pin.state
    assert _history(ringer.pin) == [(0.0, True), (2.0, False), (4.0, True), (2.0, False),
                                    (4.0, True), (0.7, False)]
    ringer.close()


def test_ringing_again_starts_the_cadence_over(mock_factory, clock):
    ringer, wait = _make(mock_factory, clock, block_after=1)
    ringer.ring()
    assert wait.blocking.wait(5)
    ringer.ring()   # stops the first (it returns from its wait), starts a new one
    assert wait.blocking.wait(5)
    ringer.stop()
    assert wait.asked == [2.0]
    ringer.close()


def test_an_active_low_ringer_is_driven_low_to_ring(mock_factory, clock):
    text = DEFAULT_PINMAP.read_text().replace('bcm = 23\nactive_high = true', 'bcm = 23\nactive_high = false')
    ringer = Ringer(parse_pinmap(text), mock_factory, wait=FakeWait(clock), clock=clock, strike_hz=0)
    assert ringer.pin.state == 1          # idle: high, the relay off
    ringer.pin.clear_states()
    ringer.ring(times=1)
    ringer._thread.join(5)
    assert [s.state for s in ringer.pin.states] == [True, False, True]
    ringer.close()


def test_bad_requests_and_settings_are_refused_by_name(mock_factory, clock):
    ringer, _ = _make(mock_factory, clock)
    for times in (0, -1, 101, 2.5, True, "3"):
        with pytest.raises(BadRequest, match="rings 1 to 100 times"):
            ringer.ring(times)
    ringer.close()
    with pytest.raises(ConfigError, match="no ring cadence 'mars'"):
        Ringer(load_pinmap(), mock_factory, cadence="mars")
    with pytest.raises(ConfigError, match="must be 0.05-10 s on"):
        Ringer(load_pinmap(), mock_factory, cadence=((0.0, 1.0),))
    assert set(CADENCES) == {"north-america", "uk"}


def test_a_ringer_line_that_is_an_input_is_a_pin_map_error(mock_factory):
    text = DEFAULT_PINMAP.read_text().replace('[pi.ringer]\nkind = "output"\nbcm = 23\nactive_high = true',
                        '[pi.ringer]\nbcm = 23\npull = "up"\nhigh_means = 0')
    # (an input has no load, vf or resistor: the pin map refuses those keys on one)
    text = re.sub(r'(\[pi\.ringer\][^\[]*?)load = "optocoupler"\nvf = 1.0\nresistor = 680\n', r"\1", text)
    with pytest.raises(PinMapError, match=r"\[pi.ringer\] must be an output"):
        Ringer(parse_pinmap(text), mock_factory)


def test_closing_frees_the_pin(mock_factory, clock):
    ringer, _ = _make(mock_factory, clock)
    ringer.close()
    again, _ = _make(mock_factory, clock)     # the pin can be taken again
    again.close()


class LoggedSwitch:
    def __init__(self, clock, fail_on=None):
        self.clock = clock
        self.log = []
        self.fail_on = fail_on

    def on(self):
        if self.fail_on == sum(1 for _, what in self.log if what == "on"):
            raise OSError("the phone on /dev/ttyACM0 did not answer ringer=1")
        self.log.append((self.clock.t, "on"))

    def off(self):
        self.log.append((self.clock.t, "off"))


def test_a_handed_in_switch_rings_in_the_same_cadence(clock):
    switch = LoggedSwitch(clock)
    ringer = Ringer(switch=switch, cadence="uk", wait=FakeWait(clock), clock=clock, strike_hz=20)
    assert ringer.strike_hz == 0          # only the cadence crosses the cable: the Pico strikes
    ringer.ring(times=1)
    ringer._thread.join(5)
    assert [(round(t, 3), s) for t, s in switch.log] == [(0.0, "off"),   # ring() first stops any ring
                                                         (0.0, "on"), (0.4, "off"), (0.6, "on"), (1.0, "off")]
    ringer.close()
    assert switch.log[-1][1] == "off" and ringer.pin is None


def test_a_failing_switch_is_logged_and_stop_still_works(clock, caplog):
    switch = LoggedSwitch(clock, fail_on=2)          # the third "on" fails
    ringer = Ringer(switch=switch, wait=FakeWait(clock, block_after=10), clock=clock)
    ringer.ring()
    ringer._thread.join(5)
    assert "the ringer failed" in caplog.text and not ringer.is_ringing
    ringer.stop()
    assert switch.log[-1][1] == "off"
    ringer.close()


# --- the solenoid is struck, not held ---

def test_the_default_strikes_the_solenoid_twenty_times_a_second_through_each_ring(mock_factory, clock):
    ringer, wait = _make(mock_factory, clock, strike_hz=STRIKE_HZ)
    assert STRIKE_HZ == 20 and 15 <= STRIKE_HZ <= 25
    ringer.ring(times=2)
    ringer._thread.join(5)
    history = _history(ringer.pin)
    ons = [s for s in ringer.pin.states[1:] if s.state]
    assert len(ons) == 2 * 40                               # 2 s of ring at 20 Hz, twice
    # each strike: 20 ms on, 30 ms off; the last one's rest runs on into the 4 s silence
    assert history[:4] == [(0.0, True), (0.02, False), (0.03, True), (0.02, False)]
    assert history[79] == (0.02, False) and history[80] == (4.03, True)
    assert sum(wait.asked) == pytest.approx(2 * ringer.period)
    assert not ringer.pin.state
    ringer.close()


def test_strikes_stay_on_their_deadlines_when_the_waits_run_late(mock_factory, clock):
    class LateWait(FakeWait):
        def __call__(self, stop, seconds):
            self.clock.t += 0.004              # every wake-up comes 4 ms late
            return super().__call__(stop, seconds)

    ringer = Ringer(load_pinmap(), mock_factory, wait=LateWait(clock), clock=clock, strike_hz=20)
    ringer.pin.clear_states()
    ringer.ring(times=1)
    ringer._thread.join(5)
    stamps = []
    t = 0.0
    for s in ringer.pin.states[1:]:
        t += s.timestamp
        stamps.append(round(t, 3))
    rises = stamps[0::2]
    # each change comes 4 ms late, but the lateness doesn't add up: strike 40 is 4 ms late too
    assert rises[:3] == [0.0, 0.054, 0.104] and rises[39] == pytest.approx(1.954, abs=0.001)
    ringer.close()


@pytest.mark.parametrize("hz", [-1, 3, 41, "fast", None])
def test_a_strike_rate_outside_the_range_is_refused(mock_factory, hz):
    with pytest.raises(ConfigError, match="strike"):
        Ringer(load_pinmap(), mock_factory, strike_hz=hz)


# --- leaving: the line is driven off before it is let go of ---

class WatchedPin(MockPin):
    """A mock pin that writes down, in order, each level it is set to and each change of its
    function: what the line did as the ringer let go of it."""

    def __init__(self, factory, info):
        self.log = []
        super().__init__(factory, info)

    def _set_function(self, value):
        self.log.append(("function", value))
        super()._set_function(value)

    def _change_state(self, value):
        self.log.append(("level", bool(value)))
        return super()._change_state(value)


def _let_go_low(pin):
    """The line's last level while it was still an output, before it went back to an input."""
    released = max(i for i, entry in enumerate(pin.log) if entry == ("function", "input"))
    levels = [value for kind, value in pin.log[:released] if kind == "level"]
    assert ("level", True) in pin.log[:released], pin.log       # it did strike
    return levels[-1] is False


def test_closing_mid_strike_drives_the_line_low_before_letting_it_go(clock):
    factory = MockFactory(pin_class=WatchedPin)
    try:
        ringer, wait = _make(factory, clock, block_after=0)      # held on: blocks with the coil on
        ringer.ring()
        assert wait.blocking.wait(5) and ringer.pin.state
        pin = ringer.pin
        ringer.close()
        assert _let_go_low(pin)
        ringer.close()                                           # twice is harmless
    finally:
        factory.close()


def test_the_box_closing_mid_ring_leaves_the_bell_line_low(config):
    """What SIGTERM or Ctrl-C to newsdesk serve ends in: the box's close, while the bell rings."""
    from controller.app import Newsdesk
    factory = MockFactory(pin_class=WatchedPin)
    try:
        desk = Newsdesk(config, pin_factory=factory)
        pin = factory.pin(load_pinmap().line("ringer").bcm)
        desk.sounds.ring(times=None)
        assert wait_for(lambda: pin.state)
        desk.close()
        assert _let_go_low(pin)
    finally:
        factory.close()


EXIT_MID_STRIKE = """
import sys
from gpiozero.pins.mock import MockFactory, MockPin
from controller.hw.ringer import Ringer
from controller.pinmap import load_pinmap

class Loud(MockPin):
    def _change_state(self, value):
        print("level", int(bool(value)), flush=True)
        return super()._change_state(value)

ringer = Ringer(load_pinmap(), MockFactory(pin_class=Loud), strike_hz=0)
ringer.ring()
while not ringer.pin.state:
    pass
print("exit", flush=True)
sys.exit(0)                # never closed: an exit that skips the close
"""


def test_a_process_that_exits_mid_strike_without_closing_leaves_the_line_low():
    done = subprocess.run([sys.executable, "-c", EXIT_MID_STRIKE], cwd=REPO, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert "exit" in out and out[out.index("exit") - 1] == "level 1"     # exited mid-strike
    after = out[out.index("exit") + 1:]
    assert after[:1] == ["level 0"] and "level 1" not in after               # and the line went low


# the coil's heat budget and the ring's timeout, on the fake clock (no real sleeping)

def test_a_warm_coil_rests_the_bell_until_its_estimate_has_cooled(mock_factory, clock, caplog):
    from controller.hw.bell import COIL_CEILING_C, COIL_REST_C

    told = []
    ringer, wait = _make(mock_factory, clock, strike_hz=STRIKE_HZ, on_rest=told.append)
    ringer.heat.temp_c = COIL_CEILING_C - 0.1          # as a ring just before this one left it
    ringer.heat._at = clock.t
    with caplog.at_level("WARNING", logger="controller.hw.ringer"):
        ringer.ring(times=1)
        ringer._thread.join(5)
    rest = ringer.heat.figures.cooling_time(COIL_CEILING_C - 0.1, COIL_CEILING_C - COIL_REST_C)
    assert rest > 10
    assert wait.asked[0] == pytest.approx(rest)        # silent first, the line low
    assert _history(ringer.pin)[0] == (pytest.approx(rest, abs=1e-3), True)
    assert told == [True, False]
    assert not ringer.resting
    assert [r.getMessage() for r in caplog.records if "rests" in r.getMessage()] == [
        "the bell rests %.0f s: by its estimate the coil would pass %g °C (%.0f °C now)"
        % (rest, COIL_CEILING_C, COIL_CEILING_C - 0.1)]
    ringer.close()


def test_a_long_ring_keeps_the_estimate_under_its_ceiling(mock_factory, clock):
    from controller.hw.bell import COIL_CEILING_C

    told = []
    ringer, wait = _make(mock_factory, clock, strike_hz=5, on_rest=told.append)
    hottest = []
    advance = ringer.heat.advance
    ringer.heat.advance = lambda share=0.0: hottest.append(advance(share)) or hottest[-1]
    ringer.ring(times=100)                              # 10 minutes of the strikes' worst duty
    ringer._thread.join(10)
    assert not ringer.is_ringing
    assert ringer.heat.figures.settle(0.4 * 2 / 6) > COIL_CEILING_C + 5   # unbudgeted it would settle hotter
    assert max(hottest) <= COIL_CEILING_C
    assert told[:2] == [True, False] and len(told) >= 4
    ringer.close()


def test_a_ring_until_answered_ends_at_the_ring_timeout(mock_factory, clock):
    from controller.hw.ringer import RING_TIMEOUT_S

    told = []                                           # held on through each ring: 2 s of every 6, so
    ringer, wait = _make(mock_factory, clock, on_rest=told.append)     # it rests on the way too
    ringer.ring()
    ringer._thread.join(5)
    assert not ringer.is_ringing                        # it stopped by itself, a rest counted in its time
    assert told[:2] == [True, False]
    assert RING_TIMEOUT_S <= clock.t <= RING_TIMEOUT_S + ringer.period
    assert ringer.pin.state == 0
    ringer.close()
