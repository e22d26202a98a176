"""`newsdesk dial record`'s recorder: each edge is written to the trace as it comes and shown
with its meaning, and the decoder's view runs alongside on the clock."""

import io
import itertools

from controller.dial.recorder import Recorder
from controller.dial.trace import parse_trace


def test_edges_are_written_and_shown_and_the_digit_is_seen_when_the_clock_runs_on():
    shown = []
    clock = itertools.count(100.0)                     # a second a tick: the digit is due by the second
    recorder = Recorder(shown.append, clock=lambda: next(clock))
    f = io.StringIO()
    recorder.begin(f, initial={"hook": 1, "pulse": 0}, note="hall phone")
    for edge in [(101.0, "pulse", 1), (101.06, "pulse", 0), (101.1, "pulse", 1), (101.16, "pulse", 0)]:
        recorder.edge(*edge)
    polls = itertools.count()
    rows = recorder.run(lambda: any("-> digit" in s for s in shown) or next(polls) > 100)
    trace = parse_trace(f.getvalue(), "rec.csv")
    assert rows == 4 and trace.initial == {"hook": 1}
    assert [t for t, _, _ in trace.edges] == [1.0, 1.06, 1.1, 1.16]
    assert shown[0] == "  1.000000  pulse     1  break" and shown[1].endswith("make")
    assert "            -> digit 2 (2 pulses)" in shown
