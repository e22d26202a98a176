"""Dial traces (docs/dial-trace.md): reading the CSV, writing it as edges happen, and a malformed
file refused whole with its name and line."""

import io
import os

import pytest
from test_decoder import digits, hooks

from controller.dial import trace as trace_module
from controller.dial.trace import TraceError, TraceWriter, load_trace, parse_trace, replay


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


def test_a_bad_row_megabytes_long_is_quoted_short_and_a_time_past_a_floats_microseconds_refused():
    """10 MB of NUL bytes was said whole in one 40 MB line; t=1e300 was taken, its clock's
    microseconds lost (and said in 300 digits)."""
    with pytest.raises(TraceError) as caught:
        parse_trace("t,line,state\n" + "\0" * 10_000_000 + "\n", "zeros.csv")
    assert len(str(caught.value)) < 200 and "(10000000 characters)" in str(caught.value)
    with pytest.raises(TraceError, match="big.csv line 2: t must be within 1e\\+09 seconds of its clock's origin"):
        parse_trace("t,line,state\n1e300,hook,1\n", "big.csv")
    assert parse_trace("t,line,state\n-5e8,hook,1\n5e8,hook,0\n", "far.csv").edges[-1] == (5e8, "hook", 0)


def test_a_pipe_a_device_and_a_file_too_long_are_refused_unread(tmp_path, monkeypatch):
    """A FIFO waited for ever for a writer; /dev/zero filled the memory (4 GB in 5 s)."""
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    with pytest.raises(TraceError, match="fifo.csv is a pipe \\(FIFO\\), not a trace file"):
        load_trace(fifo)
    with pytest.raises(TraceError, match="/dev/zero is a device, not a trace file"):
        load_trace("/dev/zero")
    monkeypatch.setattr(trace_module, "MOST_BYTES", 100)
    long = tmp_path / "long.csv"
    long.write_text("t,line,state\n" + "1.0,hook,1\n" * 20)
    with pytest.raises(TraceError, match="long.csv is over 0 MB"):
        load_trace(long)
