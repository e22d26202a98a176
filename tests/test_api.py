from html import unescape

import pytest
from conftest import page_assets, wait_for

from controller.events import VERDICT

# the simulated dial runs in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

WRITE = {"X-Newsdesk": "1"}      # what the panel's pages send with every write


def test_index_says_the_hardware_is_simulated_and_shows_the_dial(client):
    r = client.get("/")
    assert r.status_code == 200
    html = unescape(r.get_data(as_text=True))
    assert "Simulated hardware" in html and "MockFactory" in html
    assert "<rotary-dial" in html
    assert "newsdesk's own choice" in html


@pytest.mark.slow
def test_static_assets_are_local(client):
    html = client.get("/").get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    for path in ("/static/js/panel.js", "/static/js/rotary-dial.js", "/static/css/panel.css",
                 "/static/js/game.js", "/static/js/games/scan.js"):
        r = client.get(path)
        r.close()  # static files are streamed; close them, as the server does
        assert r.status_code == 200, path


def test_state_reports_hardware_and_last_verdict(client, desk):
    desk.table.call_editor(6)
    s = client.get("/api/state").get_json()
    assert s["hardware"]["simulated"] is True
    assert s["last_verdict"]["data"]["digit"] == 6
    assert s["last_verdict"]["type"] == VERDICT


@pytest.mark.slow
def test_sim_dial_reaches_the_editor(client, desk):
    r = client.post("/api/sim/dial", json={"digit": 2}, headers=WRITE)
    assert r.status_code == 202
    assert wait_for(lambda: desk.store.latest(VERDICT), timeout=5.0)
    assert desk.store.latest(VERDICT)[0].payload["digit"] == 2


@pytest.mark.parametrize("body, words", [
    ({"digit": 10}, "digit must be a whole number from 0 to 9"),
    ({"digit": "7"}, "digit must be a whole number from 0 to 9"),
    ({"digit": True}, "digit must be a whole number from 0 to 9"),
    ({}, "digit must be"),
    ([1, 2], "Send a JSON object"),
])
@pytest.mark.slow
def test_bad_dial_requests_get_a_clear_400(client, body, words):
    r = client.post("/api/sim/dial", json=body, headers=WRITE)
    assert r.status_code == 400
    assert words in r.get_json()["message"]


@pytest.mark.slow
def test_non_json_body_gets_a_clear_400(client):
    r = client.post("/api/sim/dial", data="digit=3", content_type="application/x-www-form-urlencoded", headers=WRITE)
    assert r.status_code == 400 and "JSON object" in r.get_json()["message"]


@pytest.mark.slow
def test_bad_hook_state_and_unknown_routes(client):
    r = client.post("/api/sim/hook", json={"state": "sideways"}, headers=WRITE)
    assert r.status_code == 400 and "state must be" in r.get_json()["message"]
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.get_json()["error"] == "Not Found"
    r = client.get("/api/verdicts?limit=abc")
    assert r.status_code == 400 and "limit" in r.get_json()["message"]
    r = client.get("/stream", headers={"Last-Event-ID": "yesterday"})
    assert r.status_code == 400


@pytest.mark.slow
def test_a_real_phone_cannot_be_dialed_from_the_panel(client, desk):
    desk.sim_phone = None  # as on a Pi with real pins
    r = client.post("/api/sim/dial", json={"digit": 3}, headers=WRITE)
    assert r.status_code == 409 and "real hardware" in r.get_json()["message"]


@pytest.mark.slow
def test_every_script_the_pages_load_is_served_by_the_pi(client):
    """Each page's modules and their imports resolve to files served here (no CDN, no build)."""
    seen = set()
    for page in ("/", "/history"):
        seen |= set(page_assets(client, page))
    assert len([p for p in seen if p.endswith(".js")]) >= 10


def test_the_state_read_gives_the_event_id_to_stream_from(client, desk):
    desk.table.call_editor(5)
    assert client.get("/api/state").get_json()["last_event_id"] == desk.store.last_id()


def test_a_superscript_event_id_is_a_400(client):
    r = client.get("/stream?since=%C2%B2")
    assert r.status_code == 400 and b"event id" in r.data


def test_the_panel_rings_the_phone_and_stops_it(client, desk):
    rung = []
    desk.sounds.ring = lambda times=None: rung.append(times)
    desk.sounds.stop_ringing = lambda: rung.append("stop")
    assert client.post("/api/phone/ring", json={"times": 2}).status_code == 202
    assert client.post("/api/phone/ring", json={}).status_code == 202
    assert client.post("/api/phone/ring", json={"stop": True}).status_code == 202
    assert rung == [2, None, "stop"]
    # a stop the panel can't read rings nothing: neither a misspelt field nor a stop in words
    for body in ({"stpo": True}, {"stop": "true"}, {"stop": 1}):
        r = client.post("/api/phone/ring", json=body)
        assert r.status_code == 400 and r.get_json()["message"], body
    assert rung == [2, None, "stop"]


@pytest.mark.slow
def test_a_silly_ring_count_is_refused_in_words(client):
    r = client.post("/api/phone/ring", json={"times": 0})
    assert r.status_code == 400 and "rings 1 to" in r.get_json()["message"]
