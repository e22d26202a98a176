import pytest

from controller.audio.callprogress import CallProgress, Cue
from controller.errors import ConfigError


def R(t, sound, item=None):
    return Cue(t, "receiver", sound, item)


def B(t, sound, item=None):
    return Cue(t, "bell", sound, item)


def _run(cp, script, until=None):
    """Feed (t, method, args...) steps, advancing to each step's time first; then to ``until``."""
    out = []
    for t, what, *args in script:
        out += cp.advance(t)
        out += getattr(cp, what)(t, *args)
    if until is not None:
        out += cp.advance(until)
    return out


def test_a_whole_call_dial_tone_silence_ringback_verdict_silence_busy():
    cp = CallProgress(answer_after=2.5, busy_after=20.0)
    out = _run(cp, [
        (10.0, "hook", "off"),
        (13.0, "dial_moved"),
        (13.1, "dial_moved"),
        (14.0, "digit", 7),
        (14.01, "verdict", "clip-OK", 3.0),
    ], until=100.0)
    assert out == [R(10.0, "dial"), R(13.0, "silence"), R(14.0, "ringback"),
                   R(16.5, "verdict", "clip-OK"), R(19.5, "silence"), R(39.5, "busy")]
    assert cp.receiver == "busy" and cp.deadline() is None


def test_deadlines_say_when_to_come_back():
    cp = CallProgress(answer_after=2.5, busy_after=20.0)
    cp.hook(0.0, "off")
    assert cp.deadline() is None                      # dial tone holds until something happens
    cp.digit(1.0, 3)
    assert cp.deadline() == 31.0                      # no verdict yet: give up after 30 s
    cp.verdict(1.2, "v", 4.0)
    assert cp.deadline() == 3.5
    assert cp.advance(3.49) == []
    assert cp.advance(3.5) == [R(3.5, "verdict", "v")]
    assert cp.deadline() == 7.5
    assert cp.advance(7.5) == [R(7.5, "silence")]
    assert cp.deadline() == 27.5


def test_a_slow_verdict_is_said_when_it_comes_and_none_at_all_gives_busy():
    cp = CallProgress(answer_after=2.5, unanswered_after=30.0)
    out = _run(cp, [(0.0, "hook", "off"), (1.0, "digit", 1), (6.0, "verdict", "late", 1.0)], until=7.0)
    assert out == [R(0.0, "dial"), R(1.0, "ringback"), R(6.0, "verdict", "late"), R(7.0, "silence")]
    cp = CallProgress(unanswered_after=30.0)
    out = _run(cp, [(0.0, "hook", "off"), (1.0, "digit", 1)], until=40.0)
    assert out[-1] == R(31.0, "busy")


def test_digits_dialed_in_a_row_are_answered_in_order():
    cp = CallProgress(answer_after=2.0)
    out = _run(cp, [
        (0.0, "hook", "off"),
        (1.0, "digit", 4), (1.0, "verdict", "first", 1.5),
        (2.0, "digit", 5), (2.0, "verdict", "second", 1.5),
    ], until=10.0)
    # the second call's answer time (4.0) has passed when the first verdict ends: no ringback flicker
    assert out[:4] == [R(0.0, "dial"), R(1.0, "ringback"), R(3.0, "verdict", "first"),
                       R(4.5, "verdict", "second")]
    assert out[4] == R(6.0, "silence")


def test_hanging_up_is_silence_at_once_and_drops_the_call():
    cp = CallProgress(flash_max=1.0)
    out = _run(cp, [(0.0, "hook", "off"), (1.0, "digit", 2), (1.5, "hook", "on"),
                    (1.6, "verdict", "nobody hears this", 2.0)], until=60.0)
    assert out == [R(0.0, "dial"), R(1.0, "ringback"), R(1.5, "silence")]
    assert not cp.off_hook and cp.deadline() is None


def test_a_hook_flash_is_a_fresh_dial_tone_and_a_long_on_hook_is_a_hang_up():
    cp = CallProgress(flash_max=1.0, busy_after=5.0)
    out = _run(cp, [(0.0, "hook", "off"), (1.0, "digit", 2), (1.1, "verdict", "v", 0.5),
                    (4.0, "hook", "on"), (4.6, "hook", "off")], until=4.9)
    assert out[-2:] == [R(4.0, "silence"), R(4.6, "dial")]
    out = _run(cp, [(10.0, "hook", "on")], until=10.99)
    assert out == [R(10.0, "silence")] and cp.deadline() == 11.0
    assert cp.advance(11.0) == []     # the hang-up is certain; nothing more to hear
    assert cp.deadline() is None
    assert cp.hook(30.0, "off") == [R(30.0, "dial")]


def test_the_dial_moving_ends_busy_and_restarts_the_silence_timer():
    cp = CallProgress(busy_after=5.0)
    out = _run(cp, [(0.0, "hook", "off"), (1.0, "dial_moved")], until=6.0)
    assert out == [R(0.0, "dial"), R(1.0, "silence"), R(6.0, "busy")]
    out = _run(cp, [(7.0, "dial_moved"), (11.0, "dial_moved")], until=15.9)
    assert out == [R(7.0, "silence")] and cp.deadline() == 16.0
    assert cp.digit(15.0, 9) == [R(15.0, "ringback")]


def test_a_verdict_nobody_dialed_for_is_said_straight_away_off_hook_only():
    cp = CallProgress()
    assert cp.verdict(0.0, "v", 1.0) == []
    cp.hook(1.0, "off")
    assert cp.verdict(2.0, "v", 1.0) == [R(2.0, "verdict", "v")]
    assert cp.advance(3.0) == [R(3.0, "silence")]


def test_the_bell_rings_on_the_cradle_and_stops_when_lifted():
    cp = CallProgress(busy_after=20.0)
    assert cp.ring(0.0) == [B(0.0, "ring")]
    assert cp.ringing and cp.deadline() is None
    out = cp.hook(7.0, "off")
    assert out == [B(7.0, "quiet"), B(7.0, "answered")]
    assert not cp.ringing and cp.receiver == "silence"     # an answered call: no dial tone
    assert cp.advance(27.0) == [R(27.0, "busy")]


def test_a_counted_ring_ends_by_itself_and_an_off_hook_phone_does_not_ring():
    cp = CallProgress()
    assert cp.ring(0.0, times=2, seconds=12.0) == [B(0.0, "ring", 2)]
    assert cp.deadline() == 12.0
    assert cp.advance(12.0) == [B(12.0, "quiet")]
    assert cp.hook(13.0, "off") == [R(13.0, "dial")]
    assert cp.ring(14.0) == [] and not cp.ringing
    assert cp.stop_ringing(15.0) == []


def test_ringing_during_a_flash_window_and_lifting_answers():
    cp = CallProgress(flash_max=1.0)
    cp.hook(0.0, "off")
    cp.hook(5.0, "on")
    assert cp.ring(5.2) == [B(5.2, "ring")]
    assert cp.hook(5.5, "off") == [B(5.5, "quiet"), B(5.5, "answered")]
    assert cp.receiver == "silence"


def test_stop_ringing():
    cp = CallProgress()
    cp.ring(0.0)
    assert cp.stop_ringing(1.0) == [B(1.0, "quiet")]
    assert cp.hook(2.0, "off") == [R(2.0, "dial")]


def test_digits_on_the_cradle_are_not_calls():
    cp = CallProgress()
    assert cp.digit(0.0, 5) == [] and cp.dial_moved(0.0) == []
    assert cp.deadline() is None


@pytest.mark.parametrize("kwargs", [{"busy_after": 0}, {"answer_after": -1}, {"busy_after": "20"},
                                    {"flash_max": 0}, {"answer_after": 10, "unanswered_after": 5}])
def test_unusable_timings_are_refused_by_name(kwargs):
    with pytest.raises(ConfigError) as e:
        CallProgress(**kwargs)
    assert any(name in str(e.value) for name in kwargs)
