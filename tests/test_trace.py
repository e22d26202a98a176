"""Dial traces (docs/dial-trace.md): reading the CSV, writing it as edges happen, and a malformed
file refused whole with its name and line."""

import io

import pytest
from test_decoder import digits, hooks

from controller.dial.trace import TraceError, TraceWriter, parse_trace, replay


def test_a_trace_can_say_the_handset_was_already_lifted():
    """"Every line starts at state 0 ... unless the file says otherwise": a recording that starts
    with the handset up has no lift in it, only the hang-up."""
    text = "# newsdesk dial trace v1\n# initial state: hook=1\nt,line,state\n1.0,pulse,1\n1.06,pulse,0\n3.0,hook,0\n"
    trace = parse_trace(text, "lifted.csv")
    assert trace.initial == {"hook": 1}
    events = replay(trace.edges, initial=trace.initial)
    assert digits(events) == [1] and hooks(events) == ["on"]


def test_what_the_writer_writes_reads_back_as_the_same_recording():
    f = io.StringIO()
    writer = TraceWriter(f, dial_map="sweden", offnormal=True, initial={"hook": 1}, note="the hall phone")
    writer.edge(1.0, "pulse", 1)
    writer.edge(1.0625, "pulse", 0)
    trace = parse_trace(f.getvalue(), "hall.csv")
    assert writer.rows == 2 and trace.edges == [(1.0, "pulse", 1), (1.0625, "pulse", 0)]
    assert (trace.dial_map, trace.offnormal, trace.initial) == ("sweden", True, {"hook": 1})


@pytest.mark.parametrize("row, words", [
    ("1.0,pulse", "expected 3 columns"),
    ("soon,pulse,1", "t must be a number"),
    ("1.0,bell,1", "line must be one of"),
    ("1.0,pulse,2", "state must be 0 or 1"),
    ("0.5,pulse,1", "t 0.5 is earlier than the row before"),
])
def test_a_malformed_row_is_refused_naming_the_file_and_line(row, words):
    text = "# newsdesk dial trace v1\nt,line,state\n0.9,hook,1\n%s\n" % row
    with pytest.raises(TraceError, match="bad.csv line 4: " + words):
        parse_trace(text, "bad.csv")
