"""Realistic dial recordings, made up: what real, worn, dirty phones do, with the ground truth.

The benchmark decodes hundreds of these and the property tests draw them by the thousand. Each
condition in docs/dial-trace.md is a knob, so a test can turn one on alone. Seeded: the same
``random.Random`` gives the same trace. Pure (no clock, no I/O).

A trace is a person's session: lift the handset, dial some digits (a pause to re-wind between
them, sometimes a hook flash or a pull without pulses), hang up.

``Phone.worn`` (and ``worn_corpus``) is a tired old phone on a quick dialer: the first pulse of a
train off in both break and make, a finger resting on the returning dial, a governor drifting
along the train, long bursts of bounce, repeated same-level rows and about half a second between
digits. The decoder must be right on it too.
"""

import random
from random import Random
from typing import Any

from .dialmaps import DIAL_MAPS, pulses_for

CHATTER_MAX = 0.0015  # seconds: "a toggle of a millisecond or so"
Edge = tuple[float, str, int]   # (t, line, state)


class Phone(object):
    """One phone's character: how its dial runs and how dirty its contacts are."""

    def __init__(self, pps: float = 10.0, ratio: float = 0.6, jitter: float = 0.03, first_break: float = 1.0,
                 bounce: float = 0.004, hook_bounce: float = 0.012, chatter: float = 0.0, spikes: float = 0.0,
                 offnormal: bool = True, early_rest: bool = False, dial_map: str = "standard",
                 first_make: tuple[float, float] = (1.0, 1.0), drag: tuple[float, float] = (0.0, 0.0),
                 drift: float = 0.0, toggles: int = 0, repeats: float = 0.0,
                 gap: tuple[float, float] = (0.4, 1.8)) -> None:
        self.pps = pps                  # pulses per second
        self.ratio = ratio              # break / period
        self.jitter = jitter            # per-pulse, as a fraction of the period
        self.first_break = first_break  # the first break's length relative to the others
        self.bounce = bounce            # seconds of toggling after each dial-contact edge (0: clean)
        self.hook_bounce = hook_bounce
        self.chatter = chatter          # chance of a ~1 ms toggle inside each break or make
        self.spikes = spikes            # idle spikes per second on each line
        self.offnormal = offnormal      # off-normal contacts wired
        self.early_rest = early_rest    # off-normal reaches rest just before the last make
        self.dial_map = dial_map
        self.first_make = first_make    # the first make's length relative to the others: (lo, hi)
        self.drag = drag                # a finger on the dial slows the first two pulses: (lo, hi)
        self.drift = drift              # the governor drifts up to this much along a train (+-)
        self.toggles = toggles          # most toggles in one burst of bounce (0: the old 2-8)
        self.repeats = repeats          # chance of a row repeating the level just written
        self.gap = gap                  # seconds from one digit's end to the next pull

    @classmethod
    def random(cls, rng: Random, dial_map: str | None = None, offnormal: bool | None = None,
               pps: float | None = None) -> "Phone":
        """A phone from anywhere in the range real ones cover."""
        return cls(pps=pps if pps is not None else rng.uniform(7.0, 13.0),
                   ratio=rng.uniform(0.55, 0.72), jitter=rng.uniform(0.0, 0.04),
                   first_break=rng.choice((1.0, rng.uniform(0.85, 0.9), rng.uniform(1.1, 1.15))),
                   bounce=rng.uniform(0.0, 0.006), hook_bounce=rng.uniform(0.002, 0.02),
                   chatter=rng.choice((0.0, 0.1, 0.3)), spikes=rng.choice((0.0, 0.5, 2.0)),
                   offnormal=rng.random() < 0.5 if offnormal is None else offnormal,
                   early_rest=rng.random() < 0.3,
                   dial_map=dial_map or rng.choice(DIAL_MAPS))

    @classmethod
    def worn(cls, rng: Random, dial_map: str | None = None, offnormal: bool | None = None) -> "Phone":
        """A tired phone: every condition of a worn dial at once (see the module's docstring)."""
        return cls(pps=rng.uniform(7.0, 14.0), ratio=rng.uniform(0.52, 0.75),
                   jitter=rng.uniform(0.0, 0.03),
                   first_break=rng.choice((rng.uniform(0.8, 0.9), rng.uniform(1.1, 1.25))),
                   first_make=(0.75, 1.5), drag=rng.choice(((0.0, 0.0), (0.10, 0.35))),
                   drift=rng.uniform(0.0, 0.10), bounce=rng.uniform(0.001, 0.008),
                   toggles=rng.randint(1, 8), hook_bounce=rng.uniform(0.002, 0.02),
                   chatter=0.08, spikes=rng.choice((0.5, 2.0)), repeats=rng.choice((0.0, 0.05)),
                   offnormal=rng.random() < 0.5 if offnormal is None else offnormal,
                   early_rest=rng.random() < 0.4, dial_map=dial_map or rng.choice(DIAL_MAPS),
                   gap=(0.1, 0.3))

    def describe(self) -> str:
        return ("%.1f pps, %d %% break, %s, %s" % (self.pps, round(self.ratio * 100), self.dial_map,
                "off-normal wired" if self.offnormal else "no off-normal"))


class Recording(object):
    """Edges plus the truth: digits, each digit's last pulse edge, and the hook's states."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.edges: list[Edge] = []
        self.digits: list[int] = []
        self.digit_end: list[float] = []
        self.hook: list[str] = []
        self.repeat_at: list[float] = []   # fractions of the rows after which a repeated-level row follows

    def sorted_edges(self) -> list[Edge]:
        """Edges in time order with each line's repeated levels removed (as a GPIO library gives),
        then the phone's repeated same-level rows put back in (as some libraries give)."""
        out: list[Edge] = []
        level: dict[str, int] = {}
        for t, line, state in sorted(self.edges, key=lambda e: e[0]):
            if level.get(line, 0) != state:
                level[line] = state
                out.append((round(t, 6), line, state))
        if self.repeat_at and out:
            for at in sorted(set(int(f * len(out)) for f in self.repeat_at), reverse=True):
                t, line, state = out[min(at, len(out) - 1)]
                out.insert(min(at, len(out) - 1) + 1, (t, line, state))
        return out


def _bouncy_edge(rng: Random, edges: list[Edge], t: float, line: str, state: int, bounce: float,
                 toggles: int = 0) -> None:
    """A contact meeting or leaving: the new level, then a few toggles back within ``bounce``
    (``toggles``: at most this many toggles, in blips of the old level up to a millisecond)."""
    edges.append((t, line, state))
    if bounce <= 0:
        return
    if toggles:
        blips = rng.randint(1, max(1, toggles // 2))
        starts = sorted(rng.uniform(0.00005, max(0.0001, bounce - 0.001)) for _ in range(blips))
        end = t
        for s in starts:
            u = max(t + s, end + 0.00003)
            if u - t > bounce:
                break
            end = min(u + rng.uniform(0.00003, 0.001), t + bounce)
            edges.append((u, line, 1 - state))
            edges.append((end, line, state))
        return
    u = t
    for _ in range(rng.randint(1, 4)):
        u += rng.uniform(0.00005, bounce / 3)
        if u - t > bounce:
            break
        edges.append((u, line, 1 - state))
        u += rng.uniform(0.00003, 0.0008)
        edges.append((u, line, state))


def _chatter(rng: Random, edges: list[Edge], start: float, end: float, line: str, level: int,
             chance: float) -> None:
    """A dirty contact: a ~1 ms toggle inside a break or a make."""
    if chance and rng.random() < chance and end - start > 0.012:
        mid = rng.uniform(start + 0.005, end - 0.006)
        edges.append((mid, line, 1 - level))
        edges.append((mid + rng.uniform(0.0002, CHATTER_MAX), line, level))


def dial_digit(rng: Random, rec: Recording, t: float, digit: int, hold: float | None = None) -> float:
    """One digit, the finger pulling the dial from ``t``; returns when the dial is back at rest."""
    p = rec.phone
    n = pulses_for(digit, p.dial_map)
    period = 1.0 / p.pps
    edges = rec.edges
    if p.offnormal:
        _bouncy_edge(rng, edges, t, "offnormal", 1, p.bounce, p.toggles)
    t += rng.uniform(0.25, 0.7) if hold is None else hold   # the pull round to the finger stop
    last_make = t                     # set again by each pulse's make (a digit has one or more)
    worn = p.drift or p.drag[1] or p.first_make != (1.0, 1.0)
    drift = first_make = 0.0
    drag: tuple[float, float] = (1, 1)
    if worn:   # drawn only for worn phones, so the plain corpus stays what it was
        drift = rng.uniform(-p.drift, p.drift)
        first_make = rng.uniform(*p.first_make)
        if p.drag[1] and rng.random() < 0.7:
            drag = (1 + rng.uniform(*p.drag), 1 + rng.uniform(*p.drag))
    for i in range(n):
        slow = (1 + drift * i / max(1, n - 1)) * (drag[i] if i < 2 else 1)
        brk = period * slow * (p.ratio + rng.uniform(-p.jitter, p.jitter))
        if i == 0:
            brk *= p.first_break
        _bouncy_edge(rng, edges, t, "pulse", 1, p.bounce, p.toggles)
        _chatter(rng, edges, t, t + brk, "pulse", 1, p.chatter)
        t += brk
        _bouncy_edge(rng, edges, t, "pulse", 0, p.bounce, p.toggles)
        last_make = t
        make = period * slow * (1 - p.ratio + rng.uniform(-p.jitter, p.jitter))
        if i == 0 and worn:
            make *= first_make
        if i < n - 1:
            _chatter(rng, edges, t, t + make, "pulse", 0, p.chatter)
        t += make
    rec.digits.append(digit)
    rec.digit_end.append(round(last_make, 6))
    if p.offnormal:
        if p.early_rest:
            rest = last_make - rng.uniform(0.001, 0.006)
        else:
            rest = last_make + rng.uniform(0.15, 0.35)
        _bouncy_edge(rng, edges, rest, "offnormal", 0, p.bounce, p.toggles)
        return max(t, rest + 0.01)
    return t


def pull_without_pulses(rng: Random, rec: Recording, t: float) -> float:
    """A dial pulled a little and let go: the off-normal contact moves, no pulse is sent."""
    if rec.phone.offnormal:
        _bouncy_edge(rng, rec.edges, t, "offnormal", 1, rec.phone.bounce, rec.phone.toggles)
        t += rng.uniform(0.1, 0.3)
        _bouncy_edge(rng, rec.edges, t, "offnormal", 0, rec.phone.bounce, rec.phone.toggles)
    return t + 0.05


def _hook(rng: Random, rec: Recording, t: float, state: int) -> None:
    _bouncy_edge(rng, rec.edges, t, "hook", state, rec.phone.hook_bounce)
    rec.hook.append("off" if state else "on")


def _spikes(rng: Random, rec: Recording, start: float, end: float) -> list[tuple[float, str]]:
    """Isolated sub-millisecond spikes on idle lines: (time, line), in no order."""
    found: list[tuple[float, str]] = []
    if not rec.phone.spikes:
        return found
    for line in ("pulse", "hook") + (("offnormal",) if rec.phone.offnormal else ()):
        t = start
        while True:
            t += rng.expovariate(rec.phone.spikes)
            if t >= end:
                break
            found.append((t, line))
    return found


def session(rng: Random, phone: Phone | None = None, digits: list[int] | None = None, flashes: bool = True,
            pulls: bool = True) -> Recording:
    """A whole call: lift, dial ``digits`` (random if None), maybe flash or pull, hang up."""
    phone = phone or Phone.random(rng)
    rec = Recording(phone)
    t = rng.uniform(0.3, 1.0)
    start = t
    _hook(rng, rec, t, 1)
    t += rng.uniform(0.6, 1.5)
    digits = [rng.randrange(10) for _ in range(rng.randint(1, 6))] if digits is None else digits
    busy: list[tuple[float, float]] = []   # (start, end, line) spans where a spike would touch a moving contact
    for i, d in enumerate(digits):
        if pulls and phone.offnormal and rng.random() < 0.1:
            t = pull_without_pulses(rng, rec, t) + rng.uniform(0.4, 0.8)
        begin = t
        hold = rng.uniform(0.2, 0.3) if phone.gap[1] < 0.4 else None   # a quick dialer's pull
        t = dial_digit(rng, rec, t, d, hold=hold)
        busy.append((begin - 0.02, t + 0.02))
        t += rng.uniform(*phone.gap)     # the finger goes back to the next hole
        if flashes and i < len(digits) - 1 and rng.random() < 0.15:
            _hook(rng, rec, t, 0)
            t += rng.uniform(0.15, 0.8)   # a flash: the cradle tapped
            _hook(rng, rec, t, 1)
            busy.append((t - 0.9, t + 0.05))
            t += rng.uniform(0.6, 1.2)
    _hook(rng, rec, t, 0)
    end = t + rng.uniform(0.3, 1.0)
    for s, line in _spikes(rng, rec, start, end):
        if line != "hook" and any(a <= s <= b for a, b in busy):
            continue
        if any(e[1] == line and abs(s - e[0]) < 0.05 for e in rec.edges):
            continue   # isolated: nowhere near another edge of that line
        level = _level_at(rec.edges, line, s)
        width = rng.uniform(0.00005, 0.0008)
        rec.edges.append((s, line, 1 - level))
        rec.edges.append((s + width, line, level))
    if phone.repeats:
        rows = len(rec.edges)
        rec.repeat_at = [rng.random() for _ in range(int(rows * phone.repeats))]
    return rec


def _level_at(edges: list[Edge], line: str, t: float) -> int:
    level, when = 0, -1.0
    for e in edges:
        if e[1] == line and when <= e[0] <= t:
            level, when = e[2], e[0]
    return level


def to_csv(rec: Recording) -> str:
    """The recording in the trace format (docs/dial-trace.md)."""
    p = rec.phone
    rows = ["# newsdesk dial trace v1",
            "# generated: %s" % p.describe(),
            "# dial-map: %s" % p.dial_map,
            "# off-normal contacts: %s" % ("wired" if p.offnormal else "not wired"),
            "t,line,state"]
    rows += ["%.6f,%s,%d" % e for e in rec.sorted_edges()]
    return "\n".join(rows) + "\n"


def worn_corpus(seed: int, count: int, **phone_kw: Any) -> list[Recording]:
    """``count`` sessions of quick dialing on worn phones (``Phone.worn``), from one seed."""
    rng = random.Random(seed)
    return [session(rng, Phone.worn(rng, **phone_kw)) for _ in range(count)]


def corpus(seed: int, count: int, **phone_kw: Any) -> list[Recording]:
    """``count`` sessions from one seed, each on its own random phone."""
    rng = random.Random(seed)
    return [session(rng, Phone.random(rng, **phone_kw)) for _ in range(count)]
