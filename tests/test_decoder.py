"""The dial decoder against what real contacts do (docs/dial-trace.md), case by case and by property."""

import json
import random

import pytest
from conftest import shared_dir
from hypothesis import HealthCheck, given, settings, strategies as st

from controller.dial import tracegen
from controller.dial.decoder import HOOK, MIN_FLASH, SETTLE, DialDecoder
from controller.dial.dialmaps import DIAL_MAPS, pulses_for
from controller.dial.trace import parse_trace, replay


def decode(edges, **kw):
    return replay(edges, **kw)


def digits(events):
    return [e.value for e in events if e.kind == "digit"]


def hooks(events):
    return [e.value for e in events if e.kind == "hook"]


def clean_train(t, n, pps=10.0, ratio=0.6):
    edges, period = [], 1.0 / pps
    for _ in range(n):
        edges += [(t, "pulse", 1), (t + period * ratio, "pulse", 0)]
        t += period
    return edges, edges[-1][0]


def test_the_shared_example_traces_decode_to_their_ground_truth():
    traces = shared_dir() / "traces"
    for line in (traces / "expected.jsonl").read_text().splitlines():
        want = json.loads(line)
        trace = parse_trace((traces / want["name"]).read_text(), want["name"])
        events = replay(trace.edges, dial_map=want["map"])
        assert digits(events) == want["digits"], want["name"]
        assert hooks(events) == want["hook"], want["name"]
        for ev, end in zip([e for e in events if e.kind == "digit"], want["digit_end"]):
            assert end <= ev.t < end + 0.15, (want["name"], ev.t, end)


@pytest.mark.parametrize("dial_map", DIAL_MAPS)
def test_every_digit_on_every_dial_map(dial_map):
    for digit in range(10):
        edges, last = clean_train(1.0, pulses_for(digit, dial_map))
        events = decode(edges, dial_map=dial_map)
        assert digits(events) == [digit]
        ev = events[0]
        assert ev.pulses == pulses_for(digit, dial_map) and ev.last_edge == pytest.approx(last)


def test_a_digit_is_decided_soon_after_its_last_make_and_never_before():
    """No off-normal: the make after the last break must clearly outlast the dial's makes (40 ms
    at 10 pps, 60/40), so the digit comes about 1.5 makes later - far sooner than 300 ms."""
    edges, last = clean_train(1.0, 5)
    ev = decode(edges)[0]
    assert last + 0.040 < ev.t < last + 0.080


def test_a_one_pulse_digit_waits_safely_then_learns_the_dial():
    edges, last = clean_train(1.0, 1)
    first = decode(edges)[0]
    assert first.value == 1 and last + 0.040 < first.t <= last + 0.25
    # after a longer digit from the same dial, its make/break ratio is known: a one-pulse digit
    # is decided sooner (still allowing a first make half as long again as the others)
    more, _ = clean_train(3.0, 4)
    one, last_one = clean_train(5.0, 1)
    ev = [e for e in decode(edges + more + one) if e.kind == "digit"][-1]
    assert ev.value == 1 and 0.060 < ev.t - last_one < 0.100 and ev.t - last_one < first.t - last - 0.02


def test_two_digits_half_a_second_apart_are_not_merged():
    a, _ = clean_train(1.0, 3)
    b, _ = clean_train(a[-1][0] + 0.4, 2)
    assert digits(decode(a + b)) == [3, 2]


def test_bounce_on_every_edge_is_not_counted():
    edges = []
    for t, line, state in clean_train(1.0, 4)[0]:
        edges += [(t, line, state), (t + 0.0007, line, 1 - state), (t + 0.0011, line, state),
                  (t + 0.0024, line, 1 - state), (t + 0.0030, line, state)]
    assert digits(decode(edges)) == [4]


def test_chatter_inside_breaks_and_makes_is_ignored():
    edges, _ = clean_train(1.0, 3)
    dirty = list(edges)
    for t, line, state in edges:
        dirty += [(t + 0.020, line, 1 - state), (t + 0.021, line, state)]
    assert digits(decode(sorted(dirty))) == [3]


def test_off_normal_ends_the_digit_early_even_when_it_rests_just_before_the_last_make():
    """At rest, the digit ends once a third of the expected make (40 ms here) has passed - not
    at the make's first edge, where a long burst of bounce could still be a blip of break."""
    train, last = clean_train(1.3, 6)
    edges = [(1.0, "offnormal", 1)] + train + [(last - 0.003, "offnormal", 0)]
    ev = decode(sorted(edges))[0]
    assert ev.value == 6 and last + 0.010 <= ev.t < last + 0.020
    timed = decode(train)[0]
    assert timed.t > ev.t + 0.030


def test_an_off_normal_contact_bouncing_on_its_way_to_rest_does_not_split_the_digit():
    train, last = clean_train(1.3, 5)
    rest = last - 0.004
    bounce = [(rest, "offnormal", 0), (rest + 0.0015, "offnormal", 1), (rest + 0.0030, "offnormal", 0),
              (rest + 0.0052, "offnormal", 1), (rest + 0.0058, "offnormal", 0), (rest + 0.0079, "offnormal", 1),
              (rest + 0.0080, "offnormal", 0)]
    # and the last make bounces too, leaving a 5 ms blip of break standing
    blip = [(last + 0.001, "pulse", 1), (last + 0.0062, "pulse", 0)]
    events = decode(sorted([(1.0, "offnormal", 1)] + train + bounce + blip))
    assert digits(events) == [5]


def test_a_long_burst_of_bounce_is_no_extra_pulse():
    """Up to 8 toggles in 8 ms: a wrong level can stand longer than the 4 ms settle."""
    edges = []
    for t, line, state in clean_train(1.0, 4)[0]:
        edges += [(t, line, state), (t + 0.0005, line, 1 - state), (t + 0.0055, line, state),
                  (t + 0.0062, line, 1 - state), (t + 0.0070, line, state)]
    assert digits(decode(edges)) == [4]


def worn_train(t, n, pps=10.0, ratio=0.6, first_break=1.0, first_make=1.0, drag=(1.0, 1.0), drift=0.0):
    edges, period, last = [], 1.0 / pps, None
    for i in range(n):
        slow = (1 + drift * i / max(1, n - 1)) * (drag[i] if i < 2 else 1.0)
        brk = period * ratio * slow * (first_break if i == 0 else 1.0)
        make = period * (1 - ratio) * slow * (first_make if i == 0 else 1.0)
        edges += [(t, "pulse", 1), (t + brk, "pulse", 0)]
        last = t + brk
        t = last + make
    return edges, last


def test_a_digit_after_a_two_pulse_digit_is_not_cut_short_by_its_single_make():
    """The miss in the issue: a 2 whose first break ran long (so its one make was short), then
    a 7 whose first make is long and whose first two pulses a finger slowed: a 7, not a 1 and a 6."""
    two, end = worn_train(1.0, 2, first_break=1.25, first_make=0.75)
    seven, _ = worn_train(end + 0.5, 7, first_break=1.2, first_make=1.5, drag=(1.35, 1.3), drift=0.1)
    assert digits(decode(two + seven)) == [2, 7]


@pytest.mark.parametrize("drift", [-0.1, 0.1])
def test_make_and_break_stretch_together_on_a_slowed_dial(drift):
    """A dial slowed to 7 pps by a finger and drifting along the train: the make after each break
    is judged by that break, so no long make is taken for the end of the digit."""
    edges, last = worn_train(1.0, 9, pps=7.0, ratio=0.52, first_break=0.8, first_make=1.5,
                             drag=(1.35, 1.35), drift=drift)
    events = decode(edges)
    assert digits(events) == [9]
    assert events[0].t - last < 0.110


def test_off_normal_resting_late_does_not_delay_the_digit():
    train, last = clean_train(1.3, 6)
    edges = [(1.0, "offnormal", 1)] + train + [(last + 0.300, "offnormal", 0)]
    ev = decode(edges)[0]
    assert ev.value == 6 and ev.t < last + 0.080


def test_a_pull_without_pulses_is_no_digit():
    events = decode([(1.0, "hook", 1), (2.0, "offnormal", 1), (2.2, "offnormal", 0)])
    assert digits(events) == [] and hooks(events) == ["off"]


def test_a_hook_flash_is_an_on_then_an_off_and_hook_bounce_is_filtered():
    edges = [(1.0, "hook", 1), (1.002, "hook", 0), (1.004, "hook", 1),
             (3.0, "hook", 0), (3.001, "hook", 1), (3.003, "hook", 0),
             (3.4, "hook", 1), (3.405, "hook", 0), (3.407, "hook", 1)]
    assert hooks(decode(edges)) == ["off", "on", "off"]


def test_a_stuck_open_pulse_line_is_a_fault_not_a_digit():
    events = decode([(1.0, "pulse", 1), (5.0, "pulse", 0)])
    assert digits(events) == []
    kinds = [e.kind for e in events]
    assert kinds == ["fault", "fault_cleared"] and "pulse contacts" in events[0].value


def test_more_pulses_than_any_digit_is_a_fault():
    edges, _ = clean_train(1.0, 12)
    events = decode(edges)
    assert digits(events) == [] and events[0].kind == "fault" and "12 pulses" in events[0].value


def test_integer_microseconds_decode_exactly_like_float_seconds():
    rng = random.Random(5)
    for _ in range(20):
        rec = tracegen.session(rng)
        edges = rec.sorted_edges()
        floats = decode(edges, dial_map=rec.phone.dial_map)
        micros = decode([(int(round(t * 1e6)), line, s) for t, line, s in edges],
                        decoder=DialDecoder(dial_map=rec.phone.dial_map, ticks_per_second=1000000))
        assert [(e.kind, e.value) for e in micros] == [(e.kind, e.value) for e in floats]
        for a, b in zip(micros, floats):
            assert abs(a.t / 1e6 - b.t) < 2e-6


def test_bad_edges_are_refused_with_a_value_error():
    d = DialDecoder()
    with pytest.raises(ValueError, match="unknown line"):
        d.feed(1.0, "bell", 1)
    with pytest.raises(ValueError, match="0 or 1"):
        d.feed(1.0, "pulse", 2)
    d.feed(2.0, "pulse", 1)
    with pytest.raises(ValueError, match="time order"):
        d.feed(1.0, "pulse", 0)
    with pytest.raises(ValueError, match="unknown dial map"):
        DialDecoder(dial_map="mars")


# ---------------------------------------------------------------- properties

phones = st.builds(
    tracegen.Phone,
    pps=st.floats(7.0, 13.0), ratio=st.floats(0.55, 0.72), jitter=st.floats(0.0, 0.04),
    first_break=st.sampled_from([0.85, 0.9, 1.0, 1.1, 1.15]), bounce=st.floats(0.0, 0.006),
    hook_bounce=st.floats(0.001, 0.02), chatter=st.sampled_from([0.0, 0.2, 0.5]),
    spikes=st.sampled_from([0.0, 1.0, 3.0]), offnormal=st.booleans(), early_rest=st.booleans(),
    dial_map=st.sampled_from(DIAL_MAPS))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phone=phones, seed=st.integers(0, 2**32 - 1),
       dialed=st.lists(st.integers(0, 9), min_size=1, max_size=5))
def test_generated_sessions_decode_right_and_on_time(phone, seed, dialed):
    rec = tracegen.session(random.Random(seed), phone, digits=dialed)
    events = decode(rec.sorted_edges(), dial_map=phone.dial_map)
    found = [e for e in events if e.kind == "digit"]
    assert [e.value for e in found] == dialed
    assert hooks(events) == rec.hook
    for ev, end in zip(found, rec.digit_end):
        assert end <= ev.t <= end + 0.26      # never before the last pulse; never slow


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dial_map=st.sampled_from(DIAL_MAPS), wired=st.booleans())
def test_worn_phones_dialed_quickly_decode_right_and_on_time(seed, dial_map, wired):
    rng = random.Random(seed)
    rec = tracegen.session(rng, tracegen.Phone.worn(rng, dial_map=dial_map, offnormal=wired))
    events = decode(rec.sorted_edges(), dial_map=dial_map)
    found = [e for e in events if e.kind == "digit"]
    assert [e.value for e in found] == rec.digits
    assert hooks(events) == rec.hook
    for ev, end in zip(found, rec.digit_end):
        assert end <= ev.t <= end + 0.26


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spikes=st.floats(0.5, 20.0), chatter_at=st.lists(
    st.tuples(st.floats(0.0, 30.0), st.floats(0.00005, 0.0025)), max_size=30))
def test_spikes_and_chatter_alone_never_make_a_digit(seed, spikes, chatter_at):
    rng = random.Random(seed)
    edges = []
    for line in ("pulse", "offnormal", "hook"):
        t = 0.0
        while t < 30.0:
            t += rng.expovariate(spikes)
            edges += [(t, line, 1), (t + rng.uniform(0.00005, 0.0009), line, 0)]
    for t, width in chatter_at:
        edges += [(t, "pulse", 1), (t + width, "pulse", 0)]
    events = decode(sorted(edges))
    assert digits(events) == [] and hooks(events) == []


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1e4, allow_nan=False), st.sampled_from(["hook", "pulse", "offnormal"]),
                          st.integers(0, 1)), max_size=200),
       st.sampled_from(DIAL_MAPS), st.sampled_from([True, False, "auto"]))
def test_no_sequence_of_edges_crashes_the_decoder(edges, dial_map, offnormal):
    events = decode(sorted(edges), dial_map=dial_map, offnormal=offnormal)
    times = [e.t for e in events]
    assert times == sorted(times)
    assert all(e.kind in ("digit", "hook", "fault", "fault_cleared") for e in events)
    assert all(0 <= e.value <= 9 for e in events if e.kind == "digit")


# ---------------------------------------------------------------- the minimum flash

def _call_with_a_hand_on_the_cradle(on_hook, bounce=0.0):
    """Lift, dial 2, the cradle pressed for ``on_hook`` seconds (with ``bounce`` of chatter at
    each end), dial 3, hang up: the edges, in time order."""
    edges = [(0.5, "hook", 1)]
    t = 1.0
    for digit in (2, 3):
        for _ in range(digit):
            edges += [(t, "pulse", 1), (t + 0.06, "pulse", 0)]
            t += 0.1
        t += 0.5
        if digit == 2:
            edges += [(t, "hook", 0)]
            if bounce:
                edges += [(t + bounce / 2, "hook", 1), (t + bounce, "hook", 0)]
            edges += [(t + on_hook, "hook", 1)]
            if bounce:
                edges += [(t + on_hook + bounce / 2, "hook", 0), (t + on_hook + bounce, "hook", 1)]
            t += on_hook + 0.6
    edges.append((t + 0.5, "hook", 0))
    return edges


@pytest.mark.parametrize("on_hook", [0.026, 0.035, 0.050, 0.080])
def test_a_hand_resting_on_the_cradle_is_no_hook_change(on_hook):
    """Held down 26-80 ms between two digits: before, reported as on then off (a flash: a new call,
    the dial tone again, a code being dialed started over)."""
    events = decode(sorted(_call_with_a_hand_on_the_cradle(on_hook, bounce=0.004)), dial_map="standard")
    assert [e.value for e in events if e.kind == "digit"] == [2, 3]
    assert hooks(events) == ["off", "on"]


def test_a_flash_and_a_hang_up_still_count_and_a_lift_is_as_quick_as_before():
    edges = sorted(_call_with_a_hand_on_the_cradle(0.25))
    events = decode(edges, dial_map="standard")
    assert hooks(events) == ["off", "on", "off", "on"]
    lift = next(e for e in events if e.kind == "hook")
    assert lift.t == pytest.approx(0.5 + SETTLE[HOOK])                     # the lift: after the settle only
    pressed = [t for t, line, state in edges if line == "hook" and state == 0][0]
    on = [e for e in events if e.kind == "hook" and e.value == "on"][0]
    assert on.t == pytest.approx(pressed + MIN_FLASH)                      # the on-hook: once it has lasted


def test_the_minimum_flash_is_a_setting_of_the_decoder():
    edges = sorted(_call_with_a_hand_on_the_cradle(0.050))
    assert hooks(decode(edges, dial_map="standard")) == ["off", "on"]
    shorter = DialDecoder(dial_map="standard", min_flash=0.030)
    assert hooks(replay(edges, decoder=shorter)) == ["off", "on", "off", "on"]
    with pytest.raises(ValueError):
        DialDecoder(min_flash=-1)
