"""The pure button debouncer: a press keeps its first edge's time, a spike shorter than the settle
time is no press, and a long press fires HELD at its time."""

import pytest
from hypothesis import given, settings, strategies as st

from controller.oracles.presses import DOWN, HELD, UP, ButtonLogic


def kinds(presses):
    return [(p.kind, round(p.t, 6)) for p in presses]


def run(logic, edges, until):
    out = []
    for t, s in edges:
        out += logic.feed(t, s)
    out += logic.advance(until)
    return out


def test_a_bouncy_press_is_stamped_at_its_first_edge():
    b = ButtonLogic("dice_button", settle=0.005, hold_time=1.0)
    out = b.feed(10.000, 1) + b.feed(10.0004, 0) + b.feed(10.0009, 1) + b.feed(10.0015, 0) + b.feed(10.002, 1)
    assert out == [] and b.deadline() == pytest.approx(10.007)
    assert b.advance(10.0069) == []
    [down] = b.advance(b.deadline())
    assert down.kind == DOWN and down.t == 10.000 and down.decided == pytest.approx(10.007)
    out = run(b, [(10.300, 0), (10.3003, 1), (10.301, 0)], 10.4)
    assert kinds(out) == [(UP, 10.3)] and out[0].duration == pytest.approx(0.3) and not out[0].long


def test_a_spike_shorter_than_settle_is_not_a_press():
    b = ButtonLogic("b", settle=0.005)
    assert run(b, [(1.0, 1), (1.001, 0)], 2.0) == [] and b.state == 0 and b.deadline() is None


def test_long_press_fires_held_at_its_time_and_marks_the_release():
    b = ButtonLogic("b", settle=0.005, hold_time=1.0)
    out = run(b, [(5.0, 1)], 5.5)
    assert kinds(out) == [(DOWN, 5.0)] and b.deadline() == 6.0
    [held] = b.advance(6.0)
    assert held.kind == HELD and held.t == 6.0
    out = run(b, [(7.0, 0)], 7.1)
    assert kinds(out) == [(UP, 7.0)] and out[0].long


def test_a_release_just_before_the_hold_time_is_a_short_press():
    b = ButtonLogic("b", settle=0.01, hold_time=1.0)
    run(b, [(0.0, 1)], 0.5)
    out = b.feed(0.995, 0)
    out += b.advance(1.0)              # the hold time passes while the release is being confirmed
    assert out == [] and b.deadline() == pytest.approx(1.005)
    out = b.advance(1.005)
    assert kinds(out) == [(UP, 0.995)] and not out[0].long


def test_a_glitch_during_a_long_hold_doesnt_end_it():
    b = ButtonLogic("b", settle=0.01, hold_time=1.0)
    run(b, [(0.0, 1)], 0.5)
    out = run(b, [(0.995, 0), (0.996, 1)], 1.0)
    assert out == []
    assert b.deadline() == pytest.approx(1.006)
    out = b.advance(1.006)             # the glitch is dropped, then the hold is due
    assert kinds(out) == [(HELD, 1.0)]


def test_a_release_confirmed_late_still_counts_as_long():
    b = ButtonLogic("b", settle=0.01, hold_time=1.0)
    run(b, [(0.0, 1)], 0.5)
    out = b.feed(1.2, 0) + b.advance(1.3)     # nobody advanced it at 1.0
    assert [p.kind for p in out] == [HELD, UP] and out[1].long and out[0].t == 1.0


def test_bad_settings_and_states():
    with pytest.raises(ValueError, match="button b"):
        ButtonLogic("b", settle=-1)
    with pytest.raises(ValueError, match="button b"):
        ButtonLogic("b").feed(1.0, 2)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(gaps=st.lists(st.lists(st.floats(0.00005, 0.003), min_size=0, max_size=8), min_size=1, max_size=6),
       holds=st.lists(st.floats(0.03, 2.0), min_size=6, max_size=6))
def test_any_bounce_shorter_than_the_gap_gives_one_press_per_press_at_its_first_edge(gaps, holds):
    """Each change is a burst of bounces (an odd number of edges ending in the new state)."""
    b = ButtonLogic("b", settle=0.005, hold_time=1.0)
    t = 100.0
    firsts, out = [], []
    state = 0
    for i, burst in enumerate(gaps):
        for target in (1, 0):
            firsts.append((target, t))
            edges = [t]
            for g in burst[: len(burst) // 2 * 2]:
                edges.append(edges[-1] + g)
            for j, et in enumerate(edges):
                out += b.feed(et, target if j % 2 == 0 else 1 - target)
            state = target
            t = edges[-1] + (holds[i] if target == 1 else 0.05)
    out += b.advance(t + 2)
    ups_downs = [(1 if p.kind == DOWN else 0, p.t) for p in out if p.kind != HELD]
    assert ups_downs == firsts and state == 0
    assert all(p.t < p.decided for p in out if p.kind != HELD)
