"""The odds page cries wolf no more often than it says: for fair sources, at every number of
draws from 1 to 300, the share of sessions it calls "unlikely to be fair" is at most ALPHA.

Two ways: exactly (each face's chance of crossing its line, summed: an upper bound on the
false-alarm rate), and by 2,000 simulated sessions of each source. The simulation walks every
session draw by draw and reads each face's lines from tables computed once with the page's own
test, checked against ``judge`` wherever an alarm rings and at the end of every session.
"""

import math
import random

import pytest
from conftest import binomial_upper

from controller.oracles.dice import Dice
from controller.oracles.editor import default_weights
from controller.oracles.fairness import ALPHA, _tail, draws_needed, judge

N_MAX = 300
SESSIONS = 2000
SOURCES = {
    "stopwatch d10": {d: 1 for d in range(10)},
    "one d6": {d: 1 for d in range(1, 7)},
    "2d6 totals": Dice(2, 6).total_shares(),
    "the editor's disc": default_weights(),
}


def _pmf(n, p):
    lg = math.lgamma(n + 1)
    return [math.exp(lg - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p))
            for k in range(n + 1)]


def _lines(shares):
    """Per n, per face, the counts at which the page rings: (low, high), a count <= low or >= high."""
    faces = [f for f in shares if shares[f] > 0]
    total = float(sum(shares.values()))
    k = len(faces)
    lines = {}
    prev = [(-1, 0)] * k            # the lines move little from one n to the next: start from the last
    for n in range(draws_needed(shares), N_MAX + 1):
        row = []
        for i, f in enumerate(faces):
            p = shares[f] / total
            mean = n * p
            low = min(prev[i][0] + 1, math.floor(mean))
            while low >= 0 and 2 * k * _tail(low, n, p) >= ALPHA:
                low -= 1
            high = max(prev[i][1], math.ceil(mean))
            while high > mean and high - 1 >= math.ceil(mean) and 2 * k * _tail(high - 1, n, p) < ALPHA:
                high -= 1
            while high <= n and 2 * k * _tail(high, n, p) >= ALPHA:
                high += 1
            row.append((low, high))
        lines[n] = prev = row
    return faces, lines


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SOURCES))
def test_a_fair_source_is_called_unfair_at_most_alpha_of_the_time(name):
    shares = SOURCES[name]
    faces, lines = _lines(shares)
    total = float(sum(shares.values()))
    probs = [shares[f] / total for f in faces]
    first = draws_needed(shares)

    # exactly: the chance that some face crosses its line is at most the sum of each face's chance
    for n, row in lines.items():
        bound = sum((_tail(low, n, p) if low >= 0 else 0.0) + (_tail(high, n, p) if high <= n else 0.0)
                    for p, (low, high) in zip(probs, row))
        assert bound <= ALPHA, "%s: %d draws, false alarms up to %.5f" % (name, n, bound)

    # simulated: 2,000 sessions of 300 draws. rings[i][c] marks the n at which count c of face i rings.
    rings = [[bytearray(N_MAX + 2) for _ in range(N_MAX + 2)] for _ in faces]
    for n, row in lines.items():
        for i, (low, high) in enumerate(row):
            for c in list(range(low + 1)) + list(range(high, n + 1)):
                rings[i][c][n] = 1
    rng = random.Random(sum(map(ord, name)))
    cum, acc = [], 0.0
    for p in probs:
        acc += p
        cum.append(acc)
    alarms = [0] * (N_MAX + 1)
    for _ in range(SESSIONS):
        counts, since, rang = [0] * len(faces), [1] * len(faces), set()
        draws = rng.choices(range(len(faces)), cum_weights=cum, k=N_MAX)
        for n, i in enumerate(draws, 1):      # face i held counts[i] for n = since[i] .. n - 1
            if 1 in rings[i][counts[i]][since[i]:n]:
                rang.update(m for m in range(since[i], n) if rings[i][counts[i]][m])
            counts[i] += 1
            since[i] = n
        for i in range(len(faces)):
            if 1 in rings[i][counts[i]][since[i]:N_MAX + 1]:
                rang.update(m for m in range(since[i], N_MAX + 1) if rings[i][counts[i]][m])
        for n in rang:
            alarms[n] += 1
        final = judge(dict(zip(faces, counts)), shares)[0]
        assert (final == "unfair") == (N_MAX in rang)        # the tables are the page's own test
    assert judge({faces[0]: first - 1}, shares)[0] == "few"   # before enough draws: no verdict at all
    assert all(a == 0 for a in alarms[:first])
    # the simulation agrees with the exact bound: at no n do more sessions ring than chance allows a
    # page ringing ALPHA of the time (the 99 % band, shared among the 300 numbers of draws looked at)
    assert max(alarms) <= binomial_upper(SESSIONS, ALPHA, 1 - 0.01 / N_MAX), alarms
