"""The oracles' JSON endpoints (web_ui/oracles.py): their settings and state, each one's history,
the distributions, the phone's window as a picture, and the simulated buttons, refused on real
hardware. The page itself is in test_panel_oracles.py."""

import io
import random

import pytest
from luma.core.device import dummy
from PIL import Image

from controller.hw.buttons import ButtonListener, ButtonPins
from controller.hw.display import Window
from controller.hw.simulated import SimulatedButtons
from controller.oracle_service import OracleService
from controller.pinmap import load_pinmap
from web_ui import create_app


@pytest.fixture
def oracle_client(desk, mock_factory):
    """The panel around a Newsdesk, with the oracle service, buttons and window attached as the
    Newsdesk builds them (kept here until it does)."""
    closers = []
    if getattr(desk, "oracles", None) is None:
        pinmap = load_pinmap()
        desk.oracles = OracleService(desk.table.journal, random.Random(8))
        listener = ButtonListener(desk.oracles.on_press, settle=0.005, hold_time=0.5)
        pins = ButtonPins(pinmap, listener.edge, mock_factory)
        listener.start()
        desk.sim_buttons = SimulatedButtons(pins, tap=0.01, long=0.6)
        desk.window = Window(dummy(width=128, height=64, mode="1"))
        closers += [desk.window.close, desk.sim_buttons.close, listener.stop, pins.close]
    app = create_app(newsdesk=desk, test_config={"TESTING": True, "STREAM_KEEPALIVE": 0.2})
    if "oracles" not in app.blueprints:
        from web_ui import oracles
        app.register_blueprint(oracles.bp)
    client = app.test_client()
    client.environ_base["HTTP_X_NEWSDESK"] = "1"      # what the panel's pages send with every write
    yield client, desk
    for close in closers:
        close()


def test_state_endpoint_says_the_odds_are_newsdesks(oracle_client):
    client, _ = oracle_client
    r = client.get("/api/oracles")
    assert r.status_code == 200
    s = r.get_json()
    assert s["dice"]["current"] == "2d6" and s["stopwatch"]["mode"] == "stopwatch" and s["simulated"]
    assert "newsdesk's own choice" in s["odds_note"] and s["editor"]["odds_note"] == s["odds_note"]


def test_simulated_buttons_over_http(oracle_client):
    client, desk = oracle_client
    with desk.bus.subscribe() as sub:
        r = client.post("/api/oracles/sim/dice", json={})
        assert r.status_code == 202 and r.get_json() == {"accepted": True, "button": "dice_button", "long": False}
        msg = sub.get(timeout=5)
        assert msg["type"] == "dice.roll"
        assert client.post("/api/oracles/sim/stopwatch").status_code == 202
        assert sub.get(timeout=5)["type"] == "stopwatch.started"
        desk.sim_buttons.idle()
        client.post("/api/oracles/sim/stopwatch", json={})
        roll = sub.get(timeout=5)
    assert roll["type"] == "stopwatch.roll" and roll["data"]["elapsed"] >= 0.01
    assert client.post("/api/oracles/sim/dice", json={"long": "yes"}).status_code == 400
    h = client.get("/api/oracles/stopwatch/history?limit=5").get_json()
    assert h["oracle"] == "stopwatch" and h["results"][0]["id"] == roll["id"]
    assert client.get("/api/oracles/dice/history").get_json()["results"][0]["id"] == msg["id"]


def test_settings_over_http(oracle_client):
    client, _ = oracle_client
    r = client.post("/api/oracles/dice", json={"dice": "3d6"})
    assert r.status_code == 200 and r.get_json()["dice"] == "3d6"
    assert client.post("/api/oracles/dice", json={"next": True}).get_json()["dice"] == "2d6"
    bad = client.post("/api/oracles/dice", json={"dice": "3x6"})
    assert bad.status_code == 400 and "3x6" in bad.get_json()["message"]
    assert client.post("/api/oracles/dice", json={}).status_code == 400
    long = client.post("/api/oracles/dice", json={"dice": "1d" + "9" * 5000})     # past what int() reads
    assert long.status_code == 400 and long.get_json()["message"].startswith("dice")
    assert client.post("/api/oracles/stopwatch/mode", json={"mode": "d10"}).get_json()["mode"] == "d10"
    bad = client.post("/api/oracles/stopwatch/mode", json={"mode": "egg timer"})
    # the field sent, not config.toml's stopwatch_mode behind it
    assert bad.status_code == 400 and bad.get_json()["message"] == ('Send {"mode": "stopwatch"} or {"mode": "d10"}, '
                                                                    'not "egg timer".')
    assert client.post("/api/oracles/stopwatch/reset").get_json() == {"was_running": False}


@pytest.mark.slow
def test_distributions_and_errors_over_http(oracle_client):
    client, desk = oracle_client
    for _ in range(5):
        desk.oracles.roll()
    r = client.get("/api/oracles/distributions?oracle=dice").get_json()
    assert {g["label"] for g in r["groups"]} == {"2d6: each die's faces", "2d6: totals"}
    assert r["groups"][0]["session"]["n"] in (5, 10)
    assert client.get("/api/oracles/distributions?oracle=tarot").status_code == 400
    assert client.get("/api/oracles/tarot/history").status_code == 404
    assert client.get("/api/oracles/dice/history?limit=0").status_code == 400
    assert client.post("/api/oracles/dice", data="nope", content_type="application/json").status_code == 400


@pytest.mark.slow
def test_window_picture(oracle_client):
    client, desk = oracle_client
    desk.window.show({"kind": "verdict", "signal": "PRESS"})
    r = client.get("/api/oracles/window.png")
    assert r.status_code == 200 and r.mimetype == "image/png"
    image = Image.open(io.BytesIO(r.data))
    assert image.size == (128, 64) and image.getbbox() is not None


def test_real_buttons_refuse_simulated_presses(oracle_client):
    client, desk = oracle_client
    sim, desk.sim_buttons = desk.sim_buttons, None
    try:
        r = client.post("/api/oracles/sim/dice", json={})
        assert r.status_code == 409 and "real hardware" in r.get_json()["message"]
    finally:
        desk.sim_buttons = sim
