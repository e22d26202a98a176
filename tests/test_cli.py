import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import shared_dir

from newsdesk.cli import main

# `record` listens to the virtual phone dialing in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits


def _expected():
    traces = shared_dir() / "traces"
    return traces, [json.loads(line) for line in (traces / "expected.jsonl").read_text().splitlines() if line.strip()]


def test_replay_reproduces_the_shared_traces_digits_and_hooks(capsys):
    traces, expected = _expected()
    files = [str(traces / e["name"]) for e in expected]
    assert main(["dial", "replay", *files]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for e in expected:
        mine = [o for o in out if o["trace"] == e["name"]]
        assert [o["digit"] for o in mine if o["event"] == "digit"] == e["digits"], e["name"]
        assert [o["state"] for o in mine if o["event"] == "hook"] == e["hook"], e["name"]
        times = [o["t"] for o in mine]
        assert times == sorted(times), "events of %s are not in time order" % e["name"]
        for o, end in zip([o for o in mine if o["event"] == "digit"], e["digit_end"]):
            assert end <= o["t"] < end + 0.35, (e["name"], o, end)


def test_replay_of_a_malformed_trace_exits_2_naming_file_and_line(tmp_path, capsys):
    good = tmp_path / "good.csv"
    good.write_text("t,line,state\n1.0,pulse,1\n1.06,pulse,0\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("# newsdesk dial trace v1\nt,line,state\n0.5,hook,1\n0.6,pulse,7\n")
    status = main(["dial", "replay", str(bad), str(good)])
    captured = capsys.readouterr()
    assert status == 2
    assert "bad.csv" in captured.err and "line 4" in captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert all(o["trace"] == "good.csv" for o in lines)  # no partial guess for bad.csv
    assert [o["digit"] for o in lines if o["event"] == "digit"] == [1]


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["dial", "replay", str(tmp_path / "nope.csv")]) == 2
    assert "nope.csv" in capsys.readouterr().err


def test_the_console_script_is_installed():
    exe = Path(sys.executable).with_name("newsdesk")
    if not exe.exists():
        pytest.skip("newsdesk is not installed in this environment")
    r = subprocess.run([str(exe), "dial", "replay", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--dial-map" in r.stdout


@pytest.mark.slow
def test_record_writes_a_trace_that_replays_to_the_dialed_digits(tmp_path, capsys, monkeypatch):
    """`dial record` on simulated hardware, with the virtual phone dialing: the file is a valid
    trace, the live view shows the edges, and replaying the file gives the digits back."""
    monkeypatch.setenv("NEWSDESK_PIN_FACTORY", "mock")
    out = tmp_path / "rec.csv"
    assert main(["--data", str(tmp_path / "data"), "dial", "record", str(out), "--simulate", "20"]) == 0
    err = capsys.readouterr().err
    assert "break" in err and "-> digit 2" in err and "-> digit 0" in err
    assert out.read_text().startswith("# newsdesk dial trace v1\n")
    assert main(["dial", "replay", str(out)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["digit"] for o in lines if o["event"] == "digit"] == [2, 0]
    assert [o["state"] for o in lines if o["event"] == "hook"] == ["off", "on"]


@pytest.mark.parametrize("digits", ["4a", "4\u00b2"])     # a superscript two: isdigit, not int()
def test_record_refuses_bad_simulated_digits(tmp_path, capsys, monkeypatch, digits):
    monkeypatch.setenv("NEWSDESK_PIN_FACTORY", "mock")
    assert main(["--data", str(tmp_path), "dial", "record", str(tmp_path / "x.csv"), "--simulate", digits]) == 2
    assert "--simulate takes digits" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["--data", "DIR", "serve", "--port", "8081"],
    ["serve", "--port", "8081", "--data", "DIR"],      # what make run ARGS="--port 8081 --data DIR" builds
    ["serve", "--data", "OTHER", "--port", "8081", "--data", "DIR"],
])
def test_the_global_options_are_taken_before_or_after_the_command(argv):
    from newsdesk.cli import build_parser
    args = build_parser().parse_args(argv)
    assert (args.command, args.data, args.port, args.verbose) == ("serve", "DIR", 8081, False)


def test_a_global_option_before_the_command_is_not_undone_by_the_command():
    from newsdesk.cli import build_parser
    args = build_parser().parse_args(["--data", "DIR", "-v", "dial", "replay", "a.csv"])
    assert (args.data, args.verbose, args.files) == ("DIR", True, ["a.csv"])
    args = build_parser().parse_args(["dial", "replay", "a.csv", "--data", "DIR", "-v"])
    assert (args.data, args.verbose, args.files) == ("DIR", True, ["a.csv"])
