import logging
import queue

import pytest

from controller import events, phone_sounds
from controller.audio import tones
from controller.audio.callprogress import CallProgress
from controller.audio.player import CaptureOutput, NullOutput, Player, synthesized_loop
from controller.bus import Bus
from controller.dial.decoder import DialDecoder, DialEvent
from controller.dial.listener import DialListener
from controller.errors import BadRequest
from controller.hw.phone import PhonePins
from controller.hw.ringer import Ringer
from controller.hw.simulated import SimulatedPhone
from controller.oracles.editor import SIGNALS
from controller.phone_sounds import PhoneSounds
from controller.pinmap import load_pinmap
from tests.conftest import FakeClock

# the tones and the dial run in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

OK = {"signal": "OK", "message": SIGNALS["OK"][0], "digit": 7}


class Heard:
    """The adapter's notifications, on a queue a test waits on."""

    def __init__(self):
        self.q = queue.Queue()

    def __call__(self, message):
        self.q.put(message)

    def next(self, timeout=5.0):
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("nothing was heard in %s s" % timeout) from None

    def receiver(self):
        message = self.next()
        assert message["type"] == "phone.sound", message
        return message["data"]["receiver"]

    def empty(self):
        return self.q.empty()


@pytest.fixture
def rig(mock_factory):
    """PhoneSounds on a fake clock, capturing audio, with a ringer on a mock pin."""
    clock = FakeClock(100.0)
    out = CaptureOutput(keep=1.0)
    heard = Heard()
    ringer = Ringer(load_pinmap(), mock_factory)
    sounds = PhoneSounds(Player(out), ringer, CallProgress(answer_after=2.5, busy_after=20.0),
                         clock=clock, notify=heard)
    yield sounds, clock, out, heard
    sounds.close()


def _hook(sounds, state):
    sounds.on_dial_event(DialEvent(0.0, "hook", state))


def test_a_call_heard_through_the_receiver(rig):
    sounds, clock, out, heard = rig
    _hook(sounds, "off")
    assert heard.receiver() == "dial"
    sounds.edge(0.0, "hook", 1)                 # not the dial: no change
    sounds.edge(0.0, "offnormal", 1)
    assert heard.receiver() == "silence"
    sounds.on_dial_event(DialEvent(0.0, "digit", 7))
    assert heard.receiver() == "ringback"
    sounds.on_verdict(OK)
    assert sounds.idle() and heard.empty()     # the editor answers after one ring
    clock.t += 2.5
    sounds.wake()
    message = heard.next()
    assert message["data"] == {"receiver": "verdict", "ringing": False, "verdict": "figure:OK", "resting": False}
    clock.t += 0.7                             # the figure lasts 0.7 s
    sounds.wake()
    assert heard.receiver() == "silence"
    clock.t += 20.0
    sounds.wake()
    assert heard.receiver() == "busy"
    _hook(sounds, "on")
    assert heard.receiver() == "silence"
    assert out.labels == ["dial", "ringback", "figure:OK", "busy"]
    assert out.stops == 3                      # silence after dial tone, after the verdict, after busy


def test_the_bell_rings_until_the_handset_is_lifted(rig):
    sounds, clock, out, heard = rig
    sounds.ring()
    assert heard.next()["data"]["ringing"] is True
    assert sounds.ringer.is_ringing and sounds.ringer.pin.state
    _hook(sounds, "off")
    assert heard.next()["data"]["ringing"] is False
    assert heard.next() == {"type": "phone.answered", "data": {}}
    assert not sounds.ringer.is_ringing and not sounds.ringer.pin.state
    assert sounds.idle() and sounds.receiver == "silence" and out.plays == []   # answered: no dial tone


def test_a_ring_until_answered_ends_at_the_ring_timeout(rig):
    """Issue 42: an unanswered ring had no end; now the panel hears it end with the bell's."""
    from controller.hw.ringer import RING_TIMEOUT_S
    sounds, clock, out, heard = rig
    sounds.ring()
    assert heard.next()["data"]["ringing"] is True
    clock.t += RING_TIMEOUT_S - 1
    sounds.wake()
    assert sounds.idle() and heard.empty()
    clock.t += 1
    sounds.wake()
    assert heard.next()["data"]["ringing"] is False
    assert not sounds.ringer.is_ringing


def test_the_panel_hears_when_the_bell_rests_and_rings_on(rig):
    sounds, clock, out, heard = rig
    sounds.ringer.on_rest(True)                 # as the ringer's heat budget calls it, from its thread
    assert heard.next()["data"] == {"receiver": "silence", "ringing": False, "verdict": None, "resting": True}
    sounds.ringer.on_rest(False)
    assert heard.next()["data"]["resting"] is False


def test_a_counted_ring_ends_after_its_cycles_and_a_lifted_phone_does_not_ring(rig):
    sounds, clock, out, heard = rig
    sounds.ring(times=2)
    assert heard.next()["data"]["ringing"] is True
    clock.t += 2 * 6.0
    sounds.wake()
    assert heard.next()["data"]["ringing"] is False
    _hook(sounds, "off")
    assert heard.receiver() == "dial"
    sounds.ring()
    assert sounds.idle() and heard.empty() and not sounds.ringer.is_ringing
    with pytest.raises(BadRequest, match="rings 1 to 100 times"):
        sounds.ring(times=0)


def test_a_verdict_nobody_can_hear_is_not_even_rendered(rig):
    sounds, clock, out, heard = rig
    rendered = []
    sounds.player.verdict_clip = lambda *a: rendered.append(a)
    sounds.on_verdict(OK)
    assert sounds.idle() and rendered == [] and heard.empty()


def test_a_failing_sound_device_does_not_stop_the_sounds(rig, caplog):
    sounds, clock, out, heard = rig

    def broken(*a):
        raise OSError("device gone")

    sounds.player.play = broken
    with caplog.at_level(logging.ERROR, "controller.phone_sounds"):
        _hook(sounds, "off")
        assert heard.receiver() == "dial"     # the machine went on; the panel still hears of it
        sounds.on_dial_event(DialEvent(0.0, "digit", 3))
        assert heard.receiver() == "ringback"
    assert [r.getMessage() for r in caplog.records] == ["phone sounds: playing dial failed",
                                                        "phone sounds: playing ringback failed"]


def test_following_the_bus(mock_factory):
    bus = Bus()
    heard = Heard()
    out = CaptureOutput(keep=0.5)
    sounds = PhoneSounds(Player(out), None, CallProgress(answer_after=0.0), notify=heard)
    try:
        sounds.follow(bus)
        with pytest.raises(RuntimeError):
            sounds.follow(bus)
        bus.publish({"type": "phone.hook", "data": {"state": "off", "t": 1.0}})
        assert heard.receiver() == "dial"
        bus.publish({"type": "phone.digit", "data": {"digit": 7, "t": 2.0}})
        assert heard.receiver() == "ringback"
        bus.publish({"type": "editor.verdict", "id": 12, "data": dict(OK, position=3, mode="mechanical")})
        assert heard.receiver() == "verdict"
        bus.publish({"type": "game.updated", "data": {}})      # not for the phone
        bus.publish({"type": "phone.hook", "data": {"state": "on", "t": 9.0}})
        assert heard.receiver() == "silence"
        sounds.ring()                                           # no ringer on this phone: logged, no bell
        assert sounds.idle() and heard.empty()
    finally:
        sounds.close()
    assert bus.subscriber_count == 0


@pytest.mark.slow
def test_on_the_simulated_phone_the_dial_tone_stops_as_the_dial_leaves_rest(mock_factory):
    """The panel's virtual phone drives mock pins; the same sounds follow, on the real clock."""
    heard = Heard()
    out = CaptureOutput(keep=0.5)
    sounds = PhoneSounds(Player(out), Ringer(load_pinmap(), mock_factory),
                         CallProgress(answer_after=0.0), notify=heard)
    listener = DialListener(DialDecoder(), sounds.on_dial_event)

    def edge(t, line, state):
        listener.edge(t, line, state)
        sounds.edge(t, line, state)

    pins = PhonePins(load_pinmap(), edge, mock_factory)
    sim = SimulatedPhone(pins)
    listener.start(initial=pins.states())
    try:
        sounds.ring(times=1)
        assert heard.next()["data"]["ringing"] is True
        sim.lift()
        assert heard.next()["data"]["ringing"] is False
        assert heard.next()["type"] == "phone.answered"
        sim.hang_up()
        sim.idle()
        sim.dial(1)                     # lifts, then pulls the dial round
        assert [heard.receiver() for _ in range(3)] == ["dial", "silence", "ringback"]
        sounds.on_verdict(OK)
        assert heard.receiver() == "verdict"
        sim.hang_up()
        assert heard.receiver() == "silence"
    finally:
        sim.close()
        listener.stop()
        pins.close()
        sounds.close()
    assert out.labels == ["dial", "ringback", "figure:OK"]


@pytest.mark.slow
def test_built_as_the_product_builds_it(mock_factory):
    from controller.audio.player import NullOutput
    from controller.errors import ConfigError
    from controller.phone_sounds import build_phone_sounds

    sounds = build_phone_sounds(load_pinmap(), mock_factory, audio=False, tone_plan="uk", speech=False,
                                busy_after=15)
    try:
        assert isinstance(sounds.player.output, NullOutput) and sounds.player.plan == "uk"
        assert sounds.player.speech is None
        assert sounds.ringer.cadence == ((0.4, 0.2), (0.4, 2.0)) and sounds._cp.busy_after == 15.0
    finally:
        sounds.close()
    with pytest.raises(ConfigError, match="no ring cadence 'mars'|no tone plan 'mars'"):
        build_phone_sounds(load_pinmap(), mock_factory, audio=False, tone_plan="mars")
    with pytest.raises(ConfigError, match="busy_after"):
        build_phone_sounds(load_pinmap(), mock_factory, audio=False, busy_after=0)
    # nothing was left holding the ringer's pin
    build_phone_sounds(load_pinmap(), mock_factory, audio=False).close()


def test_the_sounds_follow_every_kind_of_message_they_hear():
    """Their follower subscribes to phone_sounds.HEARD alone: a kind heard() acts on must be among them."""
    for kind in events.ALL:
        if phone_sounds.heard({"type": kind, "data": {"state": "off", "digit": 7, "signal": "OK"}}) is not None:
            assert kind in phone_sounds.HEARD, kind
    assert phone_sounds.heard({"type": events.PHONE_DIGIT, "data": {"digit": 7}}) == ("digit", 7)


def test_a_box_with_no_sound_synthesizes_no_tone_ahead(monkeypatch):
    """With audio off the tones are never heard: none is made at start (only what is played)."""
    synthesized_loop.cache_clear()
    made = []
    real = tones.loop
    monkeypatch.setattr(tones, "loop", lambda *a: made.append(a[0]) or real(*a))
    heard = Heard()
    sounds = PhoneSounds(Player(NullOutput(off=True)), None, CallProgress(), notify=heard)
    try:
        _hook(sounds, "off")
        assert heard.receiver() == "dial"           # the worker has started (and run anything first)
        assert made == ["dial"]
    finally:
        sounds.close()
