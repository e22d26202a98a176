"""The box as controller/app.py wires it (Newsdesk), tested whole on mock pins: pulse train ->
decoder -> editor -> store -> bus (and on to a tablet's live feed: tests/test_panel_stream.py),
the phone on USB, a restart, and a tablet joining by dialing."""

import pytest
from conftest import FakeClock, drive, wait_for

from controller.app import Newsdesk
from controller.dial.pulses import digit_edges
from controller.events import VERDICT

# the simulated phone dials through the pins in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits


def _messages(sub, until_type, timeout=3.0):
    out = []
    while True:
        m = sub.get(timeout=timeout)
        assert m is not None, "no %s message; got %r" % (until_type, out)
        out.append(m)
        if m["type"] == until_type:
            return out


def test_a_pulse_train_on_the_pins_becomes_a_stored_verdict_on_the_bus(config, mock_factory, monkeypatch):
    clock = FakeClock(100.0)
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", clock)
    nd = Newsdesk(config, pin_factory=mock_factory, clock=clock)
    try:
        sub = nd.bus.subscribe()
        edges, last_edge = digit_edges(7, t0=101.0, offnormal=False)
        for t, line, state in [(100.5, "hook", 1)] + edges:
            clock.t = t
            drive(nd.phone_pins, line, state)
        clock.t = last_edge + 0.3   # past any end-of-digit timeout; the listener wakes and decides
        got = _messages(sub, VERDICT)
        kinds = [m["type"] for m in got]
        assert kinds[0] == "phone.hook" and got[0]["data"]["state"] == "off"
        digit_msg = next(m for m in got if m["type"] == "phone.digit")
        assert digit_msg["data"]["digit"] == 7
        assert last_edge <= digit_msg["data"]["t"] < last_edge + 0.3
        verdict = got[-1]
        assert verdict["data"]["digit"] == 7 and verdict["id"] >= 1
        stored = nd.store.latest(VERDICT)[0]
        assert stored.id == verdict["id"] and stored.payload == verdict["data"]
    finally:
        nd.close()


@pytest.mark.slow
def test_the_simulated_phone_dials_through_the_same_pins(desk):
    sub = desk.bus.subscribe()
    desk.sim_phone.dial(0)  # ten pulses, in real time, lifting the handset first
    got = _messages(sub, VERDICT, timeout=5.0)
    assert [m["data"]["digit"] for m in got if m["type"] == "phone.digit"] == [0]
    assert any(m["type"] == "phone.hook" and m["data"]["state"] == "off" for m in got)


@pytest.mark.slow
def test_verdicts_survive_a_restart_without_storing_the_disc(config, mock_factory):
    nd = Newsdesk(config, pin_factory=mock_factory)
    first = nd.table.call_editor(4)
    nd.close()
    nd2 = Newsdesk(config, pin_factory=mock_factory)
    try:
        state = nd2.table.state()
        assert state["last_verdict"]["id"] == first.id
        second = nd2.table.call_editor(2)
        assert nd2.table.editor.mode == "mechanical"
        assert "position" not in first.payload and "position" not in second.payload
        assert second.payload["signal"] in nd2.table.editor.describe()["odds"]
    finally:
        nd2.close()


def test_a_stuck_pulse_line_is_a_wiring_fault_on_the_bus_not_a_digit(config, mock_factory, monkeypatch):
    clock = FakeClock(100.0)
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", clock)
    nd = Newsdesk(config, pin_factory=mock_factory, clock=clock)
    try:
        sub = nd.bus.subscribe()
        drive(nd.phone_pins, "pulse", 1)     # the pulse contacts open ... and stay open
        clock.t = 102.0
        fault = next(m for m in iter(lambda: sub.get(timeout=3.0), None) if m["type"] == "phone.fault")
        assert "pulse contacts" in fault["data"]["message"]
        drive(nd.phone_pins, "pulse", 0)
        clock.t = 102.5
        cleared = next(m for m in iter(lambda: sub.get(timeout=3.0), None) if m["type"] == "phone.fault")
        assert cleared["data"]["message"] == "" and cleared["data"]["line"] == "pulse"
        assert nd.store.latest(VERDICT) == []
    finally:
        nd.close()


def test_with_the_phone_on_usb_and_unplugged_the_panel_says_so_and_the_rest_runs(tmp_path, mock_factory):
    """phone = serial: no pins for the phone; a missing port is "phone disconnected" on the bus,
    and the server goes on (it keeps retrying)."""
    from controller.config import load_config
    config = load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "phone": "serial", "phone_port": str(tmp_path / "no-such-port")})
    nd = Newsdesk(config, pin_factory=mock_factory)
    try:
        assert nd.phone_pins is None and nd.sim_phone is None and nd.phone_link is not None
        assert wait_for(lambda: nd.table.phone_link is not None)
        link = nd.table.state()["phone"]["link"]
        assert link["phone"] == "disconnected" and "no-such-port" in link["message"]
        assert nd.table.call_editor(3).payload["digit"] == 3
    finally:
        nd.close()


@pytest.mark.slow
def test_a_tablet_joins_by_dialing_its_code_on_the_phone_and_those_digits_are_no_calls(app, desk):
    """The join code reaches the devices through the same decoded digits as the editor's calls,
    and while it is being dialed the editor is not called."""
    from controller.dial.decoder import DialEvent

    tablet = app.test_client()
    tablet.environ_base.update(REMOTE_ADDR="192.168.1.30", HTTP_X_NEWSDESK="1")
    code = tablet.post("/api/join/dial").get_json()["code"]
    assert tablet.post("/api/sim/hook", json={"state": "off"}).status_code == 401
    for i, d in enumerate(code):
        desk.table.on_dial_event(DialEvent(50.0 + i, "digit", int(d)))
    assert tablet.get("/api/join/me").get_json()["role"] == "player"
    assert tablet.post("/api/sim/hook", json={"state": "off"}).status_code == 202
    assert desk.store.latest(VERDICT) == []
    desk.table.on_dial_event(DialEvent(70.0, "digit", 5))     # no code waits: a call again
    assert desk.store.latest(VERDICT)[0].payload["digit"] == 5


@pytest.mark.slow
@pytest.mark.parametrize("asked", [True, False], ids=["first answer", "nobody asks"])
def test_served_the_window_opens_only_once_the_panel_answers(config, mock_factory, monkeypatch, asked):
    """`newsdesk serve` builds the desk with late_window: its window (display = auto) is looked for
    after the panel's first answer (or, with no tablet yet, PARTS_WAIT after the start), and the
    health strip says so until then."""
    import urllib.request

    from web_ui import create_app, live
    from web_ui.server import InThread

    monkeypatch.setattr(live, "PARTS_WAIT", 600.0 if asked else 0.05)

    desk = Newsdesk(config, pin_factory=mock_factory, late_window=True)
    try:
        assert desk.window.opening
        part = next(p for p in desk.health()["parts"] if p["part"] == "display")
        assert "looking for it" in part["summary"]
        assert not wait_for(lambda: desk.window.frames, timeout=0.2)
        server = InThread(create_app(newsdesk=desk, test_config={"TESTING": True}))
        try:
            if asked:
                with urllib.request.urlopen("http://127.0.0.1:%d/api/health" % server.port, timeout=10) as r:
                    assert r.status == 200
            assert wait_for(lambda: desk.window.frames >= 1)
        finally:
            server.close()
        part = next(p for p in desk.health()["parts"] if p["part"] == "display")
        assert part["summary"].startswith("Simulated window")
    finally:
        desk.close()


def test_a_late_window_that_finds_no_display_is_a_warning_in_the_strip(config, mock_factory, monkeypatch):
    import controller.app as app_module

    monkeypatch.setattr(app_module, "open_device", lambda *a, **kw: None)
    desk = Newsdesk(config, pin_factory=mock_factory, late_window=True)
    try:
        desk.panel_up()
        assert wait_for(lambda: not desk.window.opening)
        part = next(p for p in desk.health()["parts"] if p["part"] == "display")
        assert part["status"] == "warn" and "No window display answered" in part["summary"]
    finally:
        desk.close()
