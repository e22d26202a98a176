"""The dial tester (pure measuring, verdicts, pictures, cut recordings), phone profiles,
`newsdesk dial test` and the Workbench page on the panel. The bring-up checklist is in
test_bringup.py."""

import json
import random
import xml.etree.ElementTree as ET

import pytest
from conftest import launched_chromium, need_browser, page_assets, unversioned, wait_for

from controller.dial import tester, tracegen
from controller.dial.decoder import DialDecoder
from controller.dial.profile import Profiles
from controller.dial.trace import parse_trace, replay
from newsdesk import cli

# the virtual phone dials at ten pulses a second: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits


def dialed(digits, pps=10.0, ratio=0.6, seed=1, **kw):
    phone = tracegen.Phone(pps=pps, ratio=ratio, jitter=0.005, chatter=0.0, spikes=0.0, **kw)
    return tracegen.session(random.Random(seed), phone, digits=digits, flashes=False, pulls=False)


# ---------------------------------------------------------------- measuring


def test_a_digit_is_measured_as_the_dial_ran():
    rec = dialed([0, 4], pps=9.0, ratio=0.66)
    tests = tester.measure(rec.sorted_edges())
    assert [t.digit for t in tests] == [0, 4] and [t.pulses for t in tests] == [10, 4]
    zero = tests[0]
    assert zero.pps == pytest.approx(9.0, rel=0.02) and zero.break_pct == pytest.approx(66, abs=1.5)
    assert zero.pps_min <= zero.pps <= zero.pps_max and zero.spread_pct < 5
    assert zero.last_edge == pytest.approx(rec.digit_end[0], abs=1e-6)
    assert zero.ratio == pytest.approx(34 / 66, rel=0.05)


@pytest.mark.parametrize("standard,passed", [("bell", False), ("gpo", True)])
def test_a_slow_dial_fails_bell_limits_but_passes_the_gpo_range(standard, passed):
    zero = tester.measure(dialed([0], pps=7.6, ratio=0.66).sorted_edges())[0]
    ok, notes = zero.verdict(standard)
    assert ok is passed
    if not passed:
        assert "below the 8-11 pps" in notes[0] and "too slow" in notes[0]


def test_a_wrong_break_ratio_fails_and_says_so():
    zero = tester.measure(dialed([0], ratio=0.75).sorted_edges())[0]
    ok, notes = zero.verdict("bell")
    assert ok is False and any("% break is outside 57-64" in n for n in notes)


def test_a_one_pulse_digit_has_no_speed_to_judge():
    one = tester.measure(dialed([1]).sorted_edges())[0]
    assert one.pps is None and one.verdict("bell")[0] is None
    assert "one pulse" in tester.format_report([one])[1]


def test_the_report_and_the_summary_a_profile_keeps():
    tests = tester.measure(dialed([0, 5, 1]).sorted_edges())
    lines = tester.format_report(tests, "bell")
    assert lines[0].startswith("standard: Bell System") and lines[1].startswith("PASS  digit 0: 10 pulses")
    summary = tester.summary(tests)
    assert summary["digits"] == 2 and summary["pps"] == pytest.approx(10, rel=0.02)
    assert tester.summary([]) is None


def test_the_picture_is_svg_with_a_trace_per_line_and_the_pulses_labelled():
    rec = dialed([3], bounce=0.0)     # a logic analyser shows bounce too; none here, to count edges
    edges = rec.sorted_edges()
    three = tester.measure(edges)[0]
    svg = tester.svg(edges, three.start - 0.05, three.decided + 0.05, test=three)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(ns + "polyline")) == 3
    labels = [t.text for t in root.findall(ns + "text")]
    assert {"hook", "pulse", "offnormal"} <= set(labels)
    assert labels.count("%.0f" % (three.breaks[1] * 1000)) >= 1
    pulse = root.findall(ns + "polyline")[1].get("points").split()
    assert len(pulse) == 2 + 2 * 6        # three breaks: six edges, two points each


def test_a_cut_recording_is_a_trace_that_decodes_to_the_same_digit():
    rec = dialed([7, 2])
    edges = rec.sorted_edges()
    seven = tester.measure(edges)[0]
    cut, initial = tester.cut(edges, seven.start - 0.3, seven.decided + 0.3)
    assert initial["hook"] == 1
    trace = parse_trace(tester.trace_text(cut, initial, "standard", note="digit 7"), "cut.csv")
    assert trace.initial == {"hook": 1, "offnormal": 1, "pulse": 0} and trace.dial_map == "standard"
    events = replay(trace.edges, initial=trace.initial)
    assert [e.value for e in events if e.kind == "digit"] == [7]


# ---------------------------------------------------------------- profiles


def test_the_profile_is_the_decoders_starting_point_and_the_call_still_counts():
    """A first digit of one pulse: without a profile the decoder must allow any dial's make;
    with the dial's ratio it decides sooner. Bad ratios are refused."""
    edges = [(1.0, "pulse", 1), (1.06, "pulse", 0)]
    plain = replay(edges)[0]
    known = replay(edges, decoder=DialDecoder(ratio=0.667))[0]
    assert plain.value == known.value == 1 and known.t < plain.t - 0.02
    with pytest.raises(ValueError, match="ratio"):
        DialDecoder(ratio=2.0)
    # a profile from another dial (67 % break) on this one (55 %): no digit is cut short
    rec = dialed([2, 8, 1, 3], ratio=0.55)
    events = replay(rec.sorted_edges(), decoder=DialDecoder(ratio=0.5))
    assert [e.value for e in events if e.kind == "digit"] == [2, 8, 1, 3]


def test_a_digit_cut_short_by_a_wrong_profile_teaches_the_decoder_at_once():
    """The worst case: a profile far too small, on a 52 % break dial whose first make runs long.
    The first digit is cut (the price of a wrong profile); the break that follows it so soon
    tells the decoder the dial's real ratio, and the next digits are right."""
    def train(t, n, first_make=1.3):
        edges = []
        for i in range(n):
            edges += [(t, "pulse", 1), (t + 0.052, "pulse", 0)]
            t += 0.052 + 0.048 * (first_make if i == 0 else 1.0)
        return edges, t
    first, t = train(1.0, 2)
    second, t = train(t + 0.5, 2)
    third, _ = train(t + 0.5, 5)
    events = replay(first + second + third, decoder=DialDecoder(ratio=0.1))
    assert [e.value for e in events if e.kind == "digit"] == [1, 1, 2, 5]


# ---------------------------------------------------------------- the CLI


def test_dial_test_measures_trace_files_and_keeps_a_profile(tmp_path, capsys):
    good, slow, bad = tmp_path / "good.csv", tmp_path / "slow.csv", tmp_path / "bad.csv"
    good.write_text(tracegen.to_csv(dialed([0, 5])))
    slow.write_text(tracegen.to_csv(dialed([0], pps=7.5, ratio=0.66)))
    bad.write_text("# newsdesk dial trace v1\nt,line,state\n1.0,bell,1\n")
    data = ["--data", str(tmp_path / "data")]
    assert cli.main(data + ["dial", "test", str(good), "--keep", "Bakelite"]) == 0
    out, err = capsys.readouterr()
    assert "PASS  digit 0: 10 pulses" in out and "PASS  digit 5" in out and "Bakelite" in err
    assert Profiles(tmp_path / "data").get("Bakelite")["digits"] == 2
    assert cli.main(data + ["dial", "test", str(slow), "--json"]) == 1
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["passed"] is False and row["digit"] == 0 and row["standard"] == "bell"
    assert cli.main(data + ["dial", "test", "--standard", "gpo", str(slow)]) == 0
    capsys.readouterr()
    assert cli.main(data + ["dial", "test", str(bad)]) == 2
    assert "bad.csv line 3" in capsys.readouterr().err


# ---------------------------------------------------------------- the Workbench


@pytest.mark.slow
def test_the_workbench_measures_a_digit_from_the_virtual_phone(desk, client):
    page = client.get("/workbench")
    assert page.status_code == 200 and b'href="/workbench"' in page.data and b"js/workbench.js" in page.data
    desk.sim_phone.dial(0)
    desk.sim_phone.idle()                  # played; the box decides it a few ms later

    def steps():
        return {s["id"]: s["seen"] for s in client.get("/api/workbench").get_json()["steps"]}

    def pulses():
        return sum(d["pulses"] for d in client.get("/api/workbench").get_json()["digits"])

    assert wait_for(lambda: pulses() == 10, timeout=5)
    state = client.get("/api/workbench").get_json()
    assert len(state["digits"]) == 1
    zero = state["digits"][0]
    assert zero["digit"] == 0 and zero["pps"] == pytest.approx(10, rel=0.02)
    assert zero["break_pct"] == pytest.approx(60, abs=1) and zero["passed"] is True
    assert wait_for(lambda: steps()["dial0"])
    assert steps()["lift"] and not steps()["dice"]
    svg = client.get("/api/workbench/digit/%d.svg" % zero["id"])
    assert svg.mimetype == "image/svg+xml" and ET.fromstring(svg.data).tag.endswith("svg")
    csv = client.get("/api/workbench/digit/%d.csv" % zero["id"])
    assert "attachment" in csv.headers["Content-Disposition"]
    trace = parse_trace(csv.get_data(as_text=True), "download.csv")
    assert [e.value for e in replay(trace.edges, initial=trace.initial) if e.kind == "digit"] == [0]
    assert client.get("/api/workbench/digit/12.svg").status_code == 404
    assert client.get("/api/workbench?standard=mars").status_code == 400
    kept = client.post("/api/workbench/profile", json={"name": "Desk phone"})
    assert kept.status_code == 200 and kept.get_json()["profile"]["digits"] == 1
    assert client.post("/api/workbench/profile", json={"name": ""}).status_code == 400
    desk.sim_buttons.press("dice_button")
    assert wait_for(lambda: steps()["dice"])
    assert client.post("/api/workbench/bringup/reset").status_code == 200
    assert not any(s["seen"] for s in client.get("/api/workbench").get_json()["steps"])


@pytest.mark.slow
def test_the_workbench_page_loads_only_what_the_box_serves(client):
    assets = page_assets(client, "/workbench")
    assert {"/static/js/workbench.js", "/static/js/api.js"} <= unversioned(assets)


@pytest.mark.browser
def test_the_workbench_in_a_browser_ticks_steps_and_draws_the_train(panel_server, desk):
    """The page itself, served as `newsdesk serve` serves it: the virtual phone's buttons, a tick,
    a measured digit with its picture."""
    need_browser()
    try:
        with launched_chromium() as browser:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("http://127.0.0.1:%d/workbench" % panel_server)
            page.click("[data-sim=dice]")
            page.wait_for_selector("#step-dice.seen", timeout=10000)
            page.click("[data-sim=dial0]")
            page.wait_for_selector(".digit-test img.logic", timeout=15000)
            assert page.wait_for_function(
                "() => [...document.querySelectorAll('img.logic')].some((i) => i.complete && i.naturalWidth > 0)",
                timeout=10000)
            assert page.locator("#step-lift.seen").count() == 1
            assert page.locator(".digit-test a[download]").count() >= 1
            assert errors == []
    finally:
        desk.sim_phone.idle()


@pytest.mark.slow
def test_dial_test_live_records_the_virtual_phone_then_measures_it(tmp_path, capsys, monkeypatch):
    """No file: `dial test` records first (as `dial record` does), measures, keeps the recording
    only when asked (--save), and says what it measured."""
    monkeypatch.setenv("NEWSDESK_PIN_FACTORY", "mock")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    saved = tmp_path / "kept.csv"
    status = cli.main(["--data", str(tmp_path / "data"), "dial", "test", "--simulate", "4",
                       "--save", str(saved), "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and [(r["digit"], r["pulses"], r["passed"]) for r in rows] == [(4, 4, True)]
    assert rows[0]["trace"] == "kept.csv"
    assert parse_trace(saved.read_text(), "kept.csv").edges
    assert cli.main(["--data", str(tmp_path / "data"), "dial", "test", "--simulate", "2"]) == 0
    assert "PASS  digit 2: 2 pulses" in capsys.readouterr().out
    assert not list(tmp_path.glob("dial-test-*.csv"))       # the unsaved recording is gone


def _keep_profile(data_dir, ratio=0.4 / 0.6):
    Profiles(data_dir).save("default", {"pps": 10.0, "break_pct": 60.0, "ratio": round(ratio, 3), "digits": 3},
                            "bell", "standard")


@pytest.mark.slow
def test_the_phones_profile_starts_the_boxs_decoder(config, mock_factory, monkeypatch):
    from controller import app as app_module
    made = []

    def decoder(**kw):
        made.append(kw)
        return DialDecoder(**kw)

    monkeypatch.setattr(app_module, "DialDecoder", decoder)
    app_module.Newsdesk(config, pin_factory=mock_factory).close()
    assert made[-1]["ratio"] is None                      # no profile kept: the decoder starts from nothing
    _keep_profile(config.data_dir)
    app_module.Newsdesk(config, pin_factory=mock_factory).close()
    assert made[-1]["ratio"] == pytest.approx(0.667)


def test_the_phone_in_a_box_is_sent_the_profile_over_the_link(tmp_path, mock_factory, monkeypatch):
    from controller.app import Newsdesk
    from controller.config import load_config
    from controller.serial import bridge

    sent = {}

    class Link:
        def __init__(self, port, on_event, settings=None, **kw):
            sent.update(settings)

        def start(self):
            pass

        def close(self):
            pass

    monkeypatch.setattr(bridge, "SerialBridge", Link)
    config = load_config(tmp_path / "data", environ={}, overrides={"audio": "off", "speech": "off", "phone": "serial",
                                                                   "phone_port": "/dev/null"})
    _keep_profile(config.data_dir)
    Newsdesk(config, pin_factory=mock_factory).close()
    assert sent["ratio"] == "0.667" and sent["dial_map"] == "standard"


@pytest.mark.parametrize("text", ["[" * 200000 + "]" * 200000, '{"a": ' + "[" * 5000 + "]" * 5000 + "}", "{", "[]"])
def test_a_profiles_file_nested_past_pythons_depth_is_read_as_none(tmp_path, text):
    """A restore lets the dial profiles through unread (the box reads a damaged file as none): one
    nested 200,000 deep stopped the box starting with a RecursionError."""
    (tmp_path / "dial-profiles.json").write_text(text, encoding="utf-8")
    assert Profiles(tmp_path).load() == {} and Profiles(tmp_path).ratio("any") is None
