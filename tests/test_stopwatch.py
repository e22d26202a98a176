"""The stopwatch: start and stop from edge times, the hundredths digit as the roll, d10 mode, and
100,000 rolls with human press timings checked for fairness (and a 60 Hz polled stamp caught)."""

import math
import random
import secrets
from collections import Counter

import pytest

from controller.oracles.errors import OracleBusy, OracleSettingError
from controller.oracles.fairness import ALPHA, chi_square
from controller.oracles.stopwatch import Stopwatch, centiseconds, shown

DRAWS = 100_000
DIGITS = {d: 1 for d in range(10)}


def test_two_presses_make_a_roll_from_the_edge_times():
    sw = Stopwatch()
    assert sw.press(100.0) == {"started": 100.0} and sw.running
    assert sw.reading(101.5) == 1.5
    r = sw.press(102.3456)
    assert r["digit"] == 4 and r["centiseconds"] == 234 and r["shown"] == "2.34"
    assert r["started"] == 100.0 and r["stopped"] == 102.3456 and r["elapsed"] == pytest.approx(2.3456)
    assert not sw.running and sw.reading(103) is None


@pytest.mark.parametrize("elapsed, centis", [(0.29, 29), (0.57, 57), (1.13, 113), (0.009999, 0),
                                             (0.0099999, 1), (-0.001, 0), (12.999, 1299)])
def test_centiseconds_truncate_like_a_stopwatch_without_float_slips(elapsed, centis):
    assert centiseconds(elapsed) == centis


def test_float_edge_times_never_lose_a_hundredth():
    # 0.29 s measured between two large monotonic stamps is still 29 hundredths
    for base in (0.0, 1234.5, 98765.4321):
        for c in range(300):
            sw = Stopwatch()
            sw.press(base)
            assert sw.press(base + c / 100)["centiseconds"] == c


def test_face():
    assert shown(0) == "0.00" and shown(735) == "7.35" and shown(6204) == "1:02.04"


def test_d10_mode_takes_one_press_and_the_source():
    sw = Stopwatch(mode="d10")
    r = sw.press(5.0, random.Random(3))
    assert r["mode"] == "d10" and 0 <= r["digit"] <= 9 and not sw.running


def test_mode_checks():
    with pytest.raises(OracleSettingError, match="stopwatch_mode"):
        Stopwatch(mode="hourglass")
    sw = Stopwatch()
    sw.press(1.0)
    with pytest.raises(OracleBusy, match="running"):
        sw.mode = "d10"
    sw.reset()
    sw.mode = "d10"
    assert sw.mode == "d10"


def human_waits(rng, n):
    """"Start the stopwatch, wait for a moment, and then stop it": waits of about 0.4 to 6 s
    (log-normal, median 1.5 s), between presses at arbitrary times of a long evening."""
    for _ in range(n):
        start = rng.uniform(0, 4 * 3600)
        yield start, start + rng.lognormvariate(math.log(1.5), 0.6)


def digits(stamp, rng, n=DRAWS):
    sw = Stopwatch()
    counts = Counter()
    for start, stop in human_waits(rng, n):
        sw.press(stamp(start))
        counts[sw.press(stamp(stop))["digit"]] += 1
    return counts


@pytest.mark.slow
def test_human_presses_give_a_fair_digit_over_100000_rolls():
    rng = random.Random(2002)
    assert chi_square(digits(lambda t: t, rng), DIGITS)[2] >= ALPHA


@pytest.mark.slow
def test_edge_stamps_at_lgpio_resolution_are_fair_too():
    rng = random.Random(20020515)
    assert chi_square(digits(lambda t: round(t * 1e9) / 1e9, rng), DIGITS)[2] >= ALPHA


@pytest.mark.slow
def test_the_test_catches_a_stamp_from_a_60hz_polling_loop():
    # software that notices the press on its next 1/60 s tick can only stop on multiples of
    # 1.67 hundredths: the digits 2, 4, 7 and 9 never come up
    rng = random.Random(2002)
    counts = digits(lambda t: math.ceil(t * 60) / 60, rng)
    assert chi_square(counts, DIGITS)[2] < ALPHA
    assert {2, 4, 7, 9}.isdisjoint(counts)


@pytest.mark.slow
def test_the_test_catches_a_too_regular_human():
    # someone who always waits 1.00 s, give or take 20 ms, rolls mostly 8s, 9s, 0s, 1s and 2s
    rng = random.Random(5)
    sw, counts = Stopwatch(), Counter()
    for _ in range(DRAWS):
        t = rng.uniform(0, 1000)
        sw.press(t)
        counts[sw.press(t + rng.gauss(1.0, 0.02))["digit"]] += 1
    assert chi_square(counts, DIGITS)[2] < ALPHA


@pytest.mark.slow
def test_d10_mode_is_fair_over_100000_rolls():
    sw = Stopwatch(mode="d10")
    rng = secrets.SystemRandom()
    fair = any(chi_square(Counter(sw.press(0.0, rng)["digit"] for _ in range(DRAWS)), DIGITS)[2] >= ALPHA
               for _ in range(2))
    assert fair
