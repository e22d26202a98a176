"""The chi-square machinery: the incomplete gamma function against known values, the fair
ranges, and the report the panel shows."""

import math
import random
from collections import Counter

import pytest

from controller.oracles.fairness import ALPHA, chi2_sf, chi_square, fair_range, gammaincc, report, wilson

# chi-square critical values from the standard tables: (df, x, upper-tail probability)
TABLE = [
    (1, 3.841458820694124, 0.05), (1, 6.634896601021214, 0.01), (1, 10.827566170662733, 0.001),
    (2, 5.991464547107979, 0.05), (5, 11.070497693516351, 0.05), (5, 20.515005652432873, 0.001),
    (9, 16.918977604620448, 0.05), (9, 21.665994333461924, 0.01), (9, 27.877164871256568, 0.001),
    (10, 18.307038053275146, 0.05), (19, 30.14352720564616, 0.05), (99, 123.22522145336181, 0.05),
]


@pytest.mark.parametrize("df, x, p", TABLE)
def test_chi2_sf_matches_the_tables(df, x, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 2.5, 7.0, 30.0, 200.0])
def test_closed_forms(x):
    # Q(1, x) = e^-x; Q(1/2, x) = erfc(sqrt x); for even df the sf is a finite Poisson sum
    assert gammaincc(1, x) == pytest.approx(math.exp(-x), rel=1e-12, abs=1e-300)
    assert gammaincc(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10, abs=1e-300)
    for df in (2, 4, 10, 40):
        half = x / 2
        poisson = math.exp(-half) * sum(half ** k / math.factorial(k) for k in range(df // 2))
        assert chi2_sf(x, df) == pytest.approx(poisson, rel=1e-10, abs=1e-300)


def test_edges_and_bad_arguments():
    assert chi2_sf(0, 3) == 1.0 and gammaincc(2, 0) == 1.0 and gammaincc(2, math.inf) == 0.0
    for a, x in ((0, 1), (-1, 1), (1, -0.5), (math.nan, 1)):
        with pytest.raises(ValueError):
            gammaincc(a, x)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi_square_statistic_by_hand():
    stat, df, p = chi_square({1: 10, 2: 20, 3: 30}, {1: 1, 2: 1, 3: 1})
    assert stat == pytest.approx((100 + 0 + 100) / 20) and df == 2
    assert p == pytest.approx(math.exp(-stat / 2))
    assert chi_square({}, {1: 1, 2: 1}) == (0.0, 0, 1.0)
    # a face that can't come up, coming up, can't be a fair draw of these shares
    assert chi_square({1: 5, 2: 5, 3: 1}, {1: 1, 2: 1, 3: 0})[2] == 0.0


def test_fair_range_exact_and_approximate():
    lo, hi, method = fair_range(600, 1 / 6)
    assert method == "exact binomial" and (lo, hi) == (82, 118)
    # the exact range holds at least 95 % of a Binomial(600, 1/6)
    pmf = [math.comb(600, k) * (1 / 6) ** k * (5 / 6) ** (600 - k) for k in range(601)]
    assert sum(pmf[lo:hi + 1]) >= 0.95 and sum(pmf[:lo]) <= 0.025 and sum(pmf[hi + 1:]) <= 0.025
    lo, hi, method = fair_range(100000, 0.1)
    assert method == "normal approximation" and lo == 9814 and hi == 10186
    assert fair_range(50, 0) == (0, 0, "exact binomial")


def test_fair_range_covers_a_fair_source_about_95_percent_of_the_time():
    rng = random.Random(7)
    lo, hi, _ = fair_range(300, 0.25)
    inside = sum(lo <= sum(rng.random() < 0.25 for _ in range(300)) <= hi for _ in range(2000))
    assert 0.93 < inside / 2000 < 0.98


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_for_the_panel():
    shares = {f: 1 for f in range(1, 7)}
    counts = Counter({1: 100, 2: 98, 3: 105, 4: 97, 5: 101, 6: 99})
    r = report(counts, shares)
    assert r["n"] == 600 and r["df"] == 5 and r["enough_data"]
    assert [row["face"] for row in r["faces"]] == [1, 2, 3, 4, 5, 6]
    row = r["faces"][0]
    assert row["count"] == 100 and row["expected_share"] == pytest.approx(1 / 6)
    assert row["fair_range95"] == [82, 118] and not row["outside"]
    assert r["p_value"] > 0.9 and r["verdict"].startswith("Consistent with fair")

    loaded = report(Counter({1: 60, 2: 60, 3: 60, 4: 60, 5: 60, 6: 300}), shares)
    assert loaded["p_value"] < ALPHA and loaded["verdict"].startswith("Unlikely to be fair")
    assert loaded["faces"][5]["outside"]

    few = report(Counter({1: 2, 2: 1}), shares)
    assert not few["enough_data"] and few["verdict"].startswith("Too few")
    assert report(Counter(), shares)["verdict"].startswith("No draws yet: 30 draws are needed")
    # a face nobody expected is listed after the expected ones
    assert report(Counter({7: 1}), shares)["faces"][-1]["face"] == 7


def test_eight_presses_get_no_verdict_however_lopsided():
    """The issue's case: 8 stopwatch presses, all the same digit. A chi-square p of 1e-13 would say
    "unfair"; the page says it needs 42 more draws (5 expected per digit)."""
    digits = {d: 1 for d in range(10)}
    r = report(Counter({7: 8}), digits)
    assert r["judgement"] == "few" and r["draws_needed"] == 42 and not r["enough_data"]
    assert r["verdict"].startswith("Too few draws to judge: 42 more needed")
    assert r["p_value"] < ALPHA                    # the approximate test still shown, but not believed
    assert report(Counter({0: 5, 1: 45}), {0: 1, 1: 1})["judgement"] == "unfair"
    assert report(Counter({3: 1}), {0: 1, 1: 1})["verdict"].startswith("Not this source")
