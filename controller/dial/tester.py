"""The dial tester: what a phone restorer's dial speed tester says about each digit dialed.

From one recording (raw contact edges, as a trace file holds them) it measures every digit's
pulses the way the decoder saw them - pulses per second, % break, their spread along the train -
judges them against the standard the dial was built to, draws the pulse train as a logic
analyser does (SVG), and cuts the recording of one digit out as a trace file of its own.

Pure: edges in, numbers and text out. The standards' figures and where they come from are in
docs/dial-tester.md; a figure no source gave us is marked as newsdesk's choice there and here.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from .decoder import LINES, DialDecoder, DialEvent
from .trace import HEADER, MAGIC, Edge, replay

# name -> what the dial is judged by. pps: the range an exchange accepts; adjust: the range a
# dial was adjusted to in service, where a source gives one; break_pct: the % break accepted.
STANDARDS: dict[str, dict[str, Any]] = {
    "bell": {
        "title": "Bell System (North America)",
        "nominal": "10 pps",
        "pps": (8.0, 11.0),
        "adjust": (9.5, 10.5),
        "break_pct": (57.0, 64.0),
        "break_source": "newsdesk's choice around the 60/40 of North American equipment",
    },
    "gpo": {
        "title": "British Post Office / BT (Strowger)",
        "nominal": "10 pps, 66 % break",
        "pps": (7.0, 12.0),
        "adjust": None,
        "break_pct": (63.0, 72.0),
        "break_source": "GPO figure (Atkinson, Telephony vol. 1)",
    },
}
DEFAULT_STANDARD = "bell"
SPREAD_LIMIT = 10.0   # % change of a pulse's speed along one train that is still "steady" (newsdesk's choice)


class DigitTest(object):
    """One dialed digit, measured. Lengths are seconds; ``pps``/``break_pct`` are over the whole
    pulses after the first (the first is often off); ``first_*`` is that first pulse alone."""

    def __init__(self, digit: int, breaks: Sequence[float], makes: Sequence[float], start: float, last_edge: float,
                 decided: float) -> None:
        self.digit = digit
        self.pulses = len(breaks)
        self.breaks = list(breaks)
        self.makes = list(makes)
        self.start = start            # the first break's edge
        self.last_edge = last_edge    # the last make's edge
        self.decided = decided        # when the decoder decided the digit
        periods = [b + m for b, m in zip(self.breaks, self.makes)]
        self.periods = periods
        steady = periods[1:] or periods
        steady_breaks = self.breaks[1:len(periods)] or self.breaks[:len(periods)]
        if steady:
            mean = sum(steady) / len(steady)
            self.pps: float | None = 1.0 / mean if mean > 0 else None
            self.break_pct: float | None = 100.0 * sum(steady_breaks) / sum(steady) if sum(steady) > 0 else None
            speeds = [1.0 / p for p in steady if p > 0]
            self.pps_min: float | None = min(speeds)
            self.pps_max: float | None = max(speeds)
            self.spread_pct: float | None = 100.0 * (self.pps_max - self.pps_min) / self.pps if self.pps else None
        else:                          # one pulse: no whole period to time
            self.pps = self.break_pct = self.pps_min = self.pps_max = self.spread_pct = None
        self.first_pps = 1.0 / periods[0] if periods and periods[0] > 0 else None
        self.first_break_pct = 100.0 * self.breaks[0] / periods[0] if periods and periods[0] > 0 else None
        self.ratio = (sum(self.makes[1:]) / sum(self.breaks[1:len(self.makes)])
                      if len(self.makes) > 1 and sum(self.breaks[1:len(self.makes)]) > 0 else None)

    def verdict(self, standard: str = DEFAULT_STANDARD) -> tuple[bool | None, list[str]]:
        """(passed, [sentences]): pass or fail against ``standard``, and why."""
        spec = STANDARDS[standard]
        notes: list[str] = []
        if self.pps is None:
            return None, ["one pulse has no whole period to time: dial a digit with more pulses (0 is best)"]
        ok = True
        lo, hi = spec["pps"]
        if not lo <= self.pps <= hi:
            ok = False
            notes.append("%.1f pps is %s the %g-%g pps %s accepts: the governor wants %s"
                         % (self.pps, "below" if self.pps < lo else "above", lo, hi, spec["title"],
                            "cleaning and lubricating (too slow)" if self.pps < lo else "adjusting (too fast)"))
        elif spec["adjust"] and not spec["adjust"][0] <= self.pps <= spec["adjust"][1]:
            notes.append("%.1f pps is accepted but outside the %g-%g pps dials were adjusted to"
                         % ((self.pps,) + spec["adjust"]))
        lo, hi = spec["break_pct"]
        assert self.break_pct is not None          # timed with the pps, just above
        if not lo <= self.break_pct <= hi:
            ok = False
            notes.append("%.0f %% break is outside %g-%g %%: the pulse springs want adjusting"
                         % (self.break_pct, lo, hi))
        if self.spread_pct is not None and self.spread_pct > SPREAD_LIMIT:
            notes.append("the speed wanders by %.0f %% along the train (a sticky governor?)" % self.spread_pct)
        if ok and not notes:
            notes.append("within %s limits" % spec["title"])
        return ok, notes

    def as_dict(self, standard: str = DEFAULT_STANDARD) -> dict[str, Any]:
        passed, notes = self.verdict(standard)
        def r(x: float | None, n: int = 1) -> float | None:
            return None if x is None else round(x, n)
        return {"digit": self.digit, "pulses": self.pulses, "pps": r(self.pps, 2),
                "break_pct": r(self.break_pct), "pps_min": r(self.pps_min, 2), "pps_max": r(self.pps_max, 2),
                "spread_pct": r(self.spread_pct), "first_pps": r(self.first_pps, 2),
                "first_break_pct": r(self.first_break_pct), "ratio": r(self.ratio, 3),
                "breaks_ms": [round(b * 1000, 1) for b in self.breaks],
                "makes_ms": [round(m * 1000, 1) for m in self.makes],
                "start": round(self.start, 6), "last_edge": round(self.last_edge, 6),
                "latency_ms": round((self.decided - self.last_edge) * 1000, 1),
                "standard": standard, "passed": passed, "notes": notes}


def measure(edges: Iterable[Edge], dial_map: str = "standard", offnormal: bool | str = "auto",
            initial: dict[str, int] | None = None, until: float | None = None) -> list[DigitTest]:
    """Every digit in a recording, measured: a list of DigitTest in time order. ``until``: the
    recording is still going on and this is the time now (a digit being dialed isn't one yet)."""
    out: list[DigitTest] = []
    events: list[DialEvent]
    if until is None:
        events = replay(edges, dial_map=dial_map, offnormal=offnormal, initial=initial)
    else:
        decoder = DialDecoder(dial_map=dial_map, offnormal=offnormal, initial=initial)
        events = []
        for t, line, state in edges:
            events.extend(decoder.feed(t, line, state))
        events.extend(decoder.advance(until))
    for ev in events:
        test = digit_test(ev)
        if test is not None:
            out.append(test)
    return out


def digit_test(event: DialEvent) -> DigitTest | None:
    """The DigitTest of a decoder's digit event, or None for any other event."""
    if event.kind != "digit" or not event.breaks:
        return None
    # a digit with its breaks always has its makes, last edge and a number for its value
    assert event.makes is not None and event.last_edge is not None and isinstance(event.value, int)
    start = event.last_edge - sum(event.breaks) - sum(event.makes)
    return DigitTest(event.value, event.breaks, event.makes, start, event.last_edge, event.t)


def summary(tests: Iterable[DigitTest]) -> dict[str, Any] | None:
    """What a phone's profile keeps from its tests: mean speed, % break and make/break ratio."""
    timed = [t for t in tests if t.pps is not None]
    if not timed:
        return None
    speeds = [t.pps for t in timed if t.pps is not None]
    breaks = [t.break_pct for t in timed if t.break_pct is not None]     # timed with the pps
    ratios = [t.ratio for t in timed if t.ratio is not None]
    return {"pps": round(sum(speeds) / len(timed), 2),
            "break_pct": round(sum(breaks) / len(timed), 1),
            "ratio": round(max(ratios), 3) if ratios else None,
            "digits": len(timed)}


def format_report(tests: Sequence[DigitTest], standard: str = DEFAULT_STANDARD) -> list[str]:
    """The tester's report as lines of text (the CLI prints them)."""
    lines = ["standard: %s (%s nominal)" % (STANDARDS[standard]["title"], STANDARDS[standard]["nominal"])]
    if not tests:
        lines.append("no digit in the recording: lift the handset and dial a 0")
    for t in tests:
        passed, notes = t.verdict(standard)
        word = {True: "PASS", False: "FAIL", None: "----"}[passed]
        if t.pps is None:
            lines.append("%s  digit %d: %d pulse, break %.0f ms  %s"
                         % (word, t.digit, t.pulses, t.breaks[0] * 1000, "; ".join(notes)))
            continue
        lines.append("%s  digit %d: %d pulses, %.2f pps, %.0f %% break, speed %.2f-%.2f pps along the "
                     "train (%.0f %%); first pulse %.2f pps, %.0f %% break  %s"
                     % (word, t.digit, t.pulses, t.pps, t.break_pct or 0, t.pps_min or 0, t.pps_max or 0,
                        t.spread_pct or 0,
                        t.first_pps or 0, t.first_break_pct or 0, "; ".join(notes)))
    return lines


# ------------------------------------------------------------------ the recording itself

def levels_at(edges: Iterable[Edge], t: float, initial: dict[str, int] | None = None) -> dict[str, int]:
    """Each line's raw level just before time ``t``."""
    level = dict((line, 0) for line in LINES)
    level.update(initial or {})
    for et, line, state in edges:
        if et >= t:
            break
        level[line] = state
    return level


def cut(edges: Sequence[Edge], start: float, end: float,
        initial: dict[str, int] | None = None) -> tuple[list[Edge], dict[str, int]]:
    """The edges in [start, end], times kept, and each line's level at ``start``."""
    return [e for e in edges if start <= e[0] <= end], levels_at(edges, start, initial)


def trace_text(edges: Iterable[Edge], initial: dict[str, int] | None = None, dial_map: str | None = None,
               note: object = None) -> str:
    """A trace file (docs/dial-trace.md) holding ``edges``."""
    rows = [MAGIC]
    if note:
        rows.append("# " + " ".join(str(note).split()))
    if dial_map:
        rows.append("# dial-map: %s" % dial_map)
    if initial and any(initial.values()):
        rows.append("# initial: %s" % ", ".join("%s=%d" % (k, v) for k, v in sorted(initial.items())))
    rows.append(HEADER)
    rows += ["%.6f,%s,%d" % (t, line, state) for t, line, state in edges]
    return "\n".join(rows) + "\n"


def svg(edges: Sequence[Edge], start: float, end: float, initial: dict[str, int] | None = None,
        test: DigitTest | None = None, width: int = 900) -> str:
    """The recording between ``start`` and ``end`` drawn as a logic analyser draws it: one
    trace per line, high = 1 (hook lifted, pulse contacts open, dial off rest), a millisecond
    scale, and each break and make of ``test`` (a DigitTest) labelled in ms."""
    if end <= start:
        end = start + 0.001
    left, right, row, top = 90, 10, 46, 24
    height = top + row * len(LINES) + 30
    span = end - start
    def x(t: float) -> float:
        return left + (t - start) / span * (width - left - right)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" role="img" '
           'aria-label="pulse train, %s" class="logic">' % (width, height, "digit %d" % test.digit if test else "recording"),
           '<rect x="0" y="0" width="%d" height="%d" fill="#10141a"/>' % (width, height)]
    # the millisecond scale
    step = _nice_step(span * 1000 / 10.0) / 1000.0
    k = int(start / step) + 1
    while k * step <= end:
        tx = x(k * step)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#2a323c"/>' % (tx, top - 6, tx, height - 22))
        out.append('<text x="%.1f" y="%d" fill="#8a96a3" font-size="10" text-anchor="middle">%d ms</text>'
                   % (tx, height - 8, round((k * step - start) * 1000)))
        k += 1
    level = levels_at(edges, start, initial)
    colours = {"hook": "#7fd1ff", "pulse": "#9dff7f", "offnormal": "#ffd27f"}
    for i, line in enumerate(LINES):
        hi, lo = top + row * i + 6, top + row * i + row - 14
        out.append('<text x="6" y="%d" fill="%s" font-size="12">%s</text>' % ((hi + lo) // 2 + 4, colours[line], line))
        state = level[line]
        points: list[tuple[float, int]] = []
        points.append((left, lo if not state else hi))
        for t, l2, s in edges:
            if l2 != line or t < start or t > end or s == state:
                continue
            px = x(t)
            points.append((px, lo if not state else hi))
            state = s
            points.append((px, lo if not state else hi))
        points.append((width - right, lo if not state else hi))
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                   % (colours[line], " ".join("%.1f,%d" % p for p in points)))
    if test is not None:
        hi = top + row * LINES.index("pulse") + 6
        t = test.start
        for n, b in enumerate(test.breaks):
            out.append('<text x="%.1f" y="%d" fill="#e8eef5" font-size="9" text-anchor="middle">%.0f</text>'
                       % (x(t + b / 2), hi - 3, b * 1000))
            t += b
            if n < len(test.makes):
                out.append('<text x="%.1f" y="%d" fill="#8a96a3" font-size="9" text-anchor="middle">%.0f</text>'
                           % (x(t + test.makes[n] / 2), hi + row - 24, test.makes[n] * 1000))
                t += test.makes[n]
    out.append("</svg>")
    return "\n".join(out)


def _nice_step(ms: float) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step >= ms:
            return step
    return 10000
