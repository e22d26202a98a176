"""Are these dice fair? Counts per face against the shares a fair source would give.

Pearson's chi-square goodness of fit, its p-value from the regularized upper incomplete gamma
function (written out here, so the box needs no SciPy), and for each face the range of counts
a fair source lands in 95 % of the time. Pure: counts in, numbers and plain words out.

Reading the p-value: it is the chance that a fair source gives counts at least this far from
the expected ones. A tiny p-value (below ``ALPHA``) says the source is unlikely to be fair; a
large one only says these counts can't tell.

The verdict a page shows ("unlikely to be fair", "consistent with fair") is given only once
there are ``MIN_EXPECTED`` expected draws for the rarest face; before that the report says how
many more draws it needs. It rests on an exact test, so a fair source is called unfair at most
``ALPHA`` of the time at every number of draws (the chi-square approximation can't promise that
with few draws; its p-value is still shown): each face's count is checked against the exact
binomial tails, the smaller tail doubled and multiplied by the number of faces (Bonferroni), so
the chance that any face of a fair source crosses its line is at most ``ALPHA``.
"""

import math
from collections.abc import Iterable, Mapping
from typing import Any

ALPHA = 0.001          # newsdesk's threshold for calling a source "unlikely to be fair"
MIN_EXPECTED = 5       # the usual rule of thumb for the chi-square approximation
EXACT_UP_TO = 10000    # exact binomial ranges up to this many draws; normal approximation above
Z95 = 1.959963984540054

_EPS = 1e-15
_TINY = 1e-300

# face -> how many times it came up, and face -> its expected share (any scale); a face is a die's
# number or an editor's signal
Counts = Mapping[Any, int]
Shares = Mapping[Any, float]


def _log_prefactor(a: float, x: float) -> float:
    return -x + a * math.log(x) - math.lgamma(a)


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series; converges quickly for x < a + 1."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(_log_prefactor(a, x))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz); converges quickly for x >= a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(_log_prefactor(a, x)) * h


def gammaincc(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if not a > 0 or not x >= 0 or math.isinf(a):
        raise ValueError("Q(a, x) needs a > 0 and x >= 0, got a=%r, x=%r" % (a, x))
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return min(1.0, _upper_fraction(a, x))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a chi-square distribution needs at least 1 degree of freedom, got %r" % (df,))
    if x <= 0:
        return 1.0
    return gammaincc(df / 2.0, x / 2.0)


def chi_square(counts: Counts, shares: Shares) -> tuple[float, int, float]:
    """Pearson's statistic for ``counts`` (face -> count) against ``shares`` (face -> expected
    share, summing to 1). Returns (statistic, degrees of freedom, p-value).

    A face that can't come up (share 0) takes no part, unless it did come up: then the source
    is certainly not the one described, and p is 0.
    """
    n = sum(counts.get(face, 0) for face in set(counts) | set(shares))
    if n == 0:
        return 0.0, 0, 1.0
    total_share = float(sum(shares.values()))
    stat = 0.0
    live = 0
    impossible = False
    for face in set(counts) | set(shares):
        share = shares.get(face, 0) / total_share
        count = counts.get(face, 0)
        if share <= 0:
            impossible = impossible or count > 0
            continue
        expected = n * share
        stat += (count - expected) ** 2 / expected
        live += 1
    df = live - 1
    if impossible:
        return math.inf, df, 0.0
    if df < 1:
        return 0.0, 0, 1.0
    return stat, df, chi2_sf(stat, df)


# ---------------------------------------------------------------- the range a fair source gives

def _binomial_range_exact(n: int, p: float) -> tuple[int, int]:
    """The smallest and largest counts with at most 2.5 % of a Binomial(n, p) below / above."""
    if p <= 0:
        return 0, 0
    if p >= 1:
        return n, n
    log_p, log_q = math.log(p), math.log1p(-p)
    lg_n = math.lgamma(n + 1)
    lo, acc = 0, 0.0
    for k in range(n + 1):
        acc += math.exp(lg_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
        if acc > 0.025:
            lo = k
            break
    hi, acc = n, 0.0
    for k in range(n, -1, -1):
        acc += math.exp(lg_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
        if acc > 0.025:
            hi = k
            break
    return lo, hi


def fair_range(n: int, p: float) -> tuple[int, int, str]:
    """(low, high, method): the counts a fair source with share ``p`` lands between in 95 % of
    runs of ``n`` draws (exact binomial up to EXACT_UP_TO draws, the normal approximation above)."""
    if n <= EXACT_UP_TO:
        lo, hi = _binomial_range_exact(n, p)
        return lo, hi, "exact binomial"
    mean = n * p
    half = Z95 * math.sqrt(n * p * (1 - p))
    return max(0, math.floor(mean - half)), min(n, math.ceil(mean + half)), "normal approximation"


def _tail(count: int, n: int, p: float) -> float:
    """The smaller exact tail of Binomial(n, p) at ``count``: P(X <= count) if count is below the
    mean, else P(X >= count). Summed outwards from ``count``, where the terms fall fast."""
    if p <= 0:
        return 1.0 if count == 0 else 0.0
    if p >= 1:
        return 1.0 if count == n else 0.0
    term = math.exp(math.lgamma(n + 1) - math.lgamma(count + 1) - math.lgamma(n - count + 1)
                    + count * math.log(p) + (n - count) * math.log1p(-p))
    odds = p / (1.0 - p)
    total = 0.0
    k = count
    if count >= n * p:                      # upper tail: P(X = k + 1) = P(X = k) (n - k) / (k + 1) p / q
        while k <= n:
            total += term
            if term < total * 1e-17:
                break
            term *= (n - k) / (k + 1.0) * odds
            k += 1
    else:                                   # lower tail: P(X = k - 1) = P(X = k) k / (n - k + 1) q / p
        while k >= 0:
            total += term
            if term < total * 1e-17:
                break
            term *= k / (n - k + 1.0) / odds
            k -= 1
    return min(1.0, total)


def exact_p(counts: Counts, shares: Shares, faces: Iterable[Any] | None = None) -> float:
    """The exact test's p-value: the smallest face's two-sided binomial tail (2 x the smaller
    tail), times the number of faces that can come up. At most ALPHA for a fair source at most
    ALPHA of the time, at any number of draws. A face with share 0 that came up gives 0."""
    faces = list(faces if faces is not None else set(counts) | set(shares))
    n = sum(counts.get(f, 0) for f in faces)
    total_share = float(sum(shares.values())) or 1.0
    live = [f for f in faces if shares.get(f, 0) > 0]
    if any(counts.get(f, 0) > 0 for f in faces if shares.get(f, 0) <= 0):
        return 0.0
    if n == 0 or len(live) < 2:
        return 1.0
    smallest = min(_tail(counts.get(f, 0), n, shares[f] / total_share) for f in live)
    return min(1.0, 2.0 * smallest * len(live))


def draws_needed(shares: Shares) -> int:
    """How many draws make the rarest possible face's expected count reach MIN_EXPECTED."""
    total = float(sum(shares.values())) or 1.0
    rarest = min((w / total for w in shares.values() if w > 0), default=1.0)
    return int(math.ceil(MIN_EXPECTED / rarest - 1e-9))


def judge(counts: Counts, shares: Shares, faces: Iterable[Any] | None = None) -> tuple[str, float | None]:
    """(judgement, p): "none" (no draws), "few" (too few to judge), "unfair", "borderline" or
    "fair", from the exact test's p-value (None while there are too few draws). A face that can't
    come up but did is "unfair" at any count."""
    faces = list(faces if faces is not None else set(counts) | set(shares))
    n = sum(counts.get(f, 0) for f in faces)
    if n == 0:
        return "none", None
    if any(counts.get(f, 0) > 0 for f in faces if shares.get(f, 0) <= 0):
        return "unfair", 0.0
    if n < draws_needed(shares):
        return "few", None
    p = exact_p(counts, shares, faces)
    return ("unfair" if p < ALPHA else "borderline" if p < 0.01 else "fair"), p


def wilson(count: int, n: int) -> tuple[float, float]:
    """The Wilson 95 % interval of the observed share ``count / n``."""
    if n == 0:
        return 0.0, 1.0
    phat = count / n
    z2 = Z95 * Z95
    centre = (phat + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(counts: Counts, shares: Shares, faces: Iterable[Any] | None = None) -> dict[str, Any]:
    """Everything the panel shows for one oracle: per face the count, the observed share with its
    Wilson interval, the expected share and the 95 % range of counts a fair source gives; the
    chi-square statistic, degrees of freedom and p-value; and a sentence saying what they mean.

    ``faces`` orders the rows (default: the faces of ``shares``, then any other counted face).
    """
    faces = list(faces if faces is not None else shares)
    faces += [f for f in counts if f not in faces]
    n = sum(counts.get(f, 0) for f in faces)
    total_share = float(sum(shares.values())) or 1.0
    rows = []
    method = None
    for face in faces:
        count = counts.get(face, 0)
        share = shares.get(face, 0) / total_share
        lo, hi, method = fair_range(n, share)
        w_lo, w_hi = wilson(count, n)
        rows.append({"face": face, "count": count,
                     "observed_share": count / n if n else None,
                     "observed_interval95": [w_lo, w_hi],
                     "expected_share": share,
                     "expected_count": n * share,
                     "fair_range95": [lo, hi],
                     "outside": bool(n) and not lo <= count <= hi})
    stat, df, p = chi_square(counts, shares)
    judgement, exact = judge(counts, shares, faces)
    needed = max(0, draws_needed(shares) - n)
    level = "0.1 %" if ALPHA == 0.001 else "%g" % ALPHA
    if judgement == "none":
        words = "No draws yet: %d draws are needed before the odds can be judged." % draws_needed(shares)
    elif judgement == "few" or exact is None:     # judge gives no p only for "none" and "few"
        words = ("Too few draws to judge: %d more needed (at least %d expected for the rarest face)."
                 % (needed, MIN_EXPECTED))
    elif judgement == "unfair" and exact == 0.0:
        words = "Not this source: a face that can't come up did."
    elif judgement == "unfair":
        words = ("Unlikely to be fair: a fair source gives a face this far from its expected count "
                 "less than %s of the time (exact test, p = %.3g)." % (level, exact))
    elif judgement == "borderline":
        words = "Borderline (exact test, p = %.3g): keep counting before blaming the source." % exact
    else:
        words = ("Consistent with fair: nothing a fair source wouldn't give (exact test, p = %.3g; a fair "
                 "source is called unfair here at most %s of the time)." % (exact, level))
    return {"n": n, "faces": rows, "chi_square": stat if math.isfinite(stat) else None, "df": df,
            "p_value": p, "alpha": ALPHA, "enough_data": judgement not in ("none", "few"),
            "range_method": method, "judgement": judgement, "exact_p": exact, "draws_needed": needed,
            "verdict": words}
