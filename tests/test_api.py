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


def test_the_state_says_what_the_last_games_start_or_end_leaves_behind(client, desk):
    """``since`` is the newest start or end of a game: before the first game, nothing; while one
    is played, its start; after it, its end (the start form went on showing an abandoned SCOOP
    game's THREE STARS three games later). ``last_roll`` is the newest roll after it, marked
    ``older`` once a move of the game came after it (the box's own 4 + 2 beside the button's
    4 + 6 read as two answers to one throw)."""
    four = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]
    assert client.get("/api/state").get_json()["since"] is None
    desk.table.call_editor(3)
    roll = desk.oracles.roll()
    s = client.get("/api/state").get_json()
    assert s["last_roll"]["id"] == roll.id and s["last_roll"]["older"] is False
    started = desk.table.games.start("get_the_scoop", four, {"board": "table"})
    s = client.get("/api/state").get_json()
    assert s["since"] == started["event_id"] == s["game"]["started_event"]
    assert s["last_roll"] is None                       # the roll before the game is not this game's
    in_game = desk.oracles.roll()
    assert client.get("/api/state").get_json()["last_roll"]["older"] is False
    desk.table.games.act({"type": "reveal", "plays": []}, 1)
    s = client.get("/api/state").get_json()
    assert s["last_roll"]["id"] == in_game.id and s["last_roll"]["older"] is True
    assert client.get("/api/games/current").get_json()["since"] == started["event_id"]
    desk.table.games.abandon(2)
    ended = desk.store.latest("game.abandoned")[0].id
    s = client.get("/api/state").get_json()
    assert s["since"] == ended and s["last_roll"] is None and s["game"] is None
    assert client.get("/api/games/current").get_json()["since"] == ended


def test_the_start_form_shows_no_call_of_the_game_that_ended(client, desk):
    """The page's first paint between games: the editor's card and "Calls to the editor" hold
    the calls made since the last game ended, not an abandoned game's THREE STARS."""
    four = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]
    desk.table.games.start("get_the_scoop", four, {"board": "table"})
    old = desk.table.call_editor(3)
    desk.table.games.abandon(1)
    html = unescape(client.get("/").get_data(as_text=True))
    assert 'data-event-id="%d"' % old.id not in html
    assert "Dial the editor to hear about your story." in html and "No calls yet." in html
    new = desk.table.call_editor(5)
    html = unescape(client.get("/").get_data(as_text=True))
    assert 'data-event-id="%d"' % new.id in html and "Dialed 5" in html
