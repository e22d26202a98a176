"""The pages themselves (web_ui/pages.py): what each carries at load, who may write from it, and the basics of
access (labels, landmarks, language) and weight, checked on the HTML and assets the Pi serves."""

import json
import re
from html.parser import HTMLParser

import pytest

WRITE = {"X-Newsdesk": "1"}
PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
GUEST = {"REMOTE_ADDR": "192.0.2.77"}      # a phone on the Wi-Fi that hasn't joined the table


def boot_of(html):
    return json.loads(html.split('<script type="application/json" id="boot">', 1)[1].split("</script>", 1)[0])


def finished_game(client):
    client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE)
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": [3]}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
    return client.post("/api/games/current/finish", json={"version": 3}, headers=WRITE).get_json()


def test_the_table_page_carries_the_game_the_games_and_the_health(client):
    client.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE)
    boot = boot_of(client.get("/").get_data(as_text=True))
    assert boot["game"]["engine"] == "scan" and boot["game"]["version"] == 1
    assert {g["name"] for g in boot["catalogue"]} >= {"scoop1956", "scan", "scoop2002", "get_the_scoop"}
    assert boot["canWrite"] is True
    assert {p["part"] for p in boot["health"]["parts"]} == {"phone", "buttons", "display", "audio"}


def test_a_kept_game_has_its_own_page_and_the_history_lists_it(client):
    done = finished_game(client)
    r = client.get("/games/%d" % done["id"])
    assert r.status_code == 200 and boot_of(r.get_data(as_text=True))["showEnd"] == done["id"]
    html = client.get("/history").get_data(as_text=True)
    assert "Get the Scoop! (Cardboard Jam, 2011)" in html and "Dan won" in html
    assert re.search(r'<th scope="row">Dan</th><td>1</td><td>1</td><td>100%</td>', html)
    assert client.get("/games/12345").status_code == 404


def test_the_game_being_played_has_no_page_of_its_own(client):
    game = client.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE).get_json()["game"]
    r = client.get("/games/%d" % game)
    assert r.status_code == 302 and r.headers["Location"].endswith("/")


@pytest.mark.slow
def test_a_device_that_has_not_joined_watches_and_is_told_how_to_play(app, client):
    if "newsdesk.security" not in app.extensions:
        pytest.skip("web_ui.security is not installed: every device may write")
    guest = app.test_client()
    html = guest.get("/", environ_base=GUEST).get_data(as_text=True)
    assert boot_of(html)["canWrite"] is False
    r = guest.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE, environ_base=GUEST)
    assert r.status_code == 401 and "join" in r.get_json()["message"].lower()
    assert guest.get("/api/games/current", environ_base=GUEST).status_code == 200      # watching is open
    # the simulated phone and buttons change the table: a watcher is told to join, not shown
    # controls whose every press came back refused
    assert 'id="sim-watching"' in html and "Join the table</a> to dial" in html
    assert 'id="sim-dice"' not in html and 'id="hook-button"' not in html and "<rotary-dial" not in html
    host = client.get("/").get_data(as_text=True)
    assert 'id="sim-dice"' in host and "<rotary-dial" in host and 'id="sim-watching"' not in host


class _Audit(HTMLParser):
    """Collects what the access checks need from a page."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.buttons = []       # (attrs, text)
        self.inputs = []
        self.labels_for = set()
        self.ids = []
        self.landmarks = set()
        self.lang = None
        self.viewport = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "meta" and a.get("name") == "viewport":
            self.viewport = "width=device-width" in (a.get("content") or "")
        if tag in ("main", "nav", "header"):
            self.landmarks.add(tag)
        if tag == "label" and a.get("for"):
            self.labels_for.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") != "hidden":
            self.inputs.append(a)
        if tag == "button":
            self.buttons.append([a, ""])
        if tag not in ("input", "meta", "link", "br", "img"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if "button" in self.stack and self.buttons:
            self.buttons[-1][1] += data


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/", "/history", "/games/1"])
def test_pages_have_a_language_landmarks_labels_and_unique_ids(client, path):
    finished_game(client)
    audit = _Audit()
    audit.feed(client.get(path).get_data(as_text=True))
    assert audit.lang == "en" and audit.viewport
    assert {"main", "nav", "header"} <= audit.landmarks
    for attrs, text in audit.buttons:
        assert text.strip() or attrs.get("aria-label"), attrs
    for attrs in audit.inputs:
        assert attrs.get("aria-label") or attrs.get("id") in audit.labels_for, attrs
    assert len(audit.ids) == len(set(audit.ids)), [i for i in audit.ids if audit.ids.count(i) > 1]


@pytest.mark.parametrize("path, words", [("/", "Skip to the game"), ("/games/1", "Skip to the game"),
                                         ("/history", "Skip to the main content"), ("/oracles", "Skip to the main content"),
                                         ("/join", "Skip to the main content"), ("/workbench", "Skip to the main content")])
def test_the_skip_link_says_where_it_goes(client, path, words):
    """A page with no game on it doesn't offer to skip to the game."""
    finished_game(client)
    assert '<a class="skip" href="#content">%s</a>' % words in client.get(path).get_data(as_text=True)


def test_every_control_the_scripts_build_is_labelled():
    """The screens are built in JavaScript: each input or select it creates carries an aria-label
    or sits in a <label for=...> (checked on the source, the browser tests drive them by name)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "web_ui" / "static" / "js"
    for path in list(root.glob("*.js")) + list(root.glob("games/*.js")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'h\("(input|select)", \{([^}]*)\}', text):
            attrs = m.group(2)
            if '"hidden"' in attrs:
                continue
            assert "aria-label" in attrs or "id" in attrs, "%s: %s" % (path.name, attrs)


@pytest.mark.slow
def test_the_simulated_buttons_show_when_the_hardware_is_simulated(client, desk):
    html = client.get("/").get_data(as_text=True)
    if getattr(desk, "sim_buttons", None) is None:
        assert 'id="sim-dice"' not in html
        return
    for words in ("Roll the dice", "Change the dice (long press)", "Press the stopwatch"):
        assert words in html
    desk.sim_buttons = None                    # as on a Pi with real buttons
    assert "Roll the dice" not in client.get("/").get_data(as_text=True)


def test_a_reloaded_scoop_screen_still_has_the_last_verdict(client):
    client.post("/api/games", json={"engine": "scoop1956", "players": PLAYERS[:2]}, headers=WRITE)
    for action in ({"type": "claim", "player": 0, "story_type": "crime"},
                   {"type": "verdict", "signal": "SYND", "digit": 4},
                   {"type": "place", "player": 0, "slot": "crime", "value": 300}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        r = client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
        assert r.status_code == 200, r.get_json()
    boot = boot_of(client.get("/").get_data(as_text=True))
    assert boot["game"]["view"]["verdict"] is None           # the turn moved on ...
    assert boot["gameVerdict"]["signal"] == "SYND"            # ... the page still knows
    assert boot["gameVerdict"]["player"] == 0 and boot["gameVerdict"]["story_type"] == "crime"


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/games/999", "/games/99999999999999999999", "/no-such-page"])
def test_a_page_that_isnt_there_says_so_in_the_panel_with_a_way_back(client, path):
    r = client.get(path)
    html = r.get_data(as_text=True)
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert 'href="/">Back to the table</a>' in html and 'href="/history"' in html
    assert 'class="masthead"' in html                     # the panel's own page, not Flask's bare one
    if path == "/games/999":
        assert "There is no game #999; the games kept are listed in the history." in html


@pytest.mark.slow
def test_an_api_path_that_isnt_there_still_answers_json(client):
    r = client.get("/api/no-such-thing")
    assert r.status_code == 404 and r.get_json()["error"] == "Not Found"


def test_the_icon_is_served_so_no_page_asks_in_vain(client):
    with client.get("/favicon.ico") as r:          # a file answer: closed when read
        assert r.status_code == 200 and r.mimetype == "image/svg+xml" and b"<svg" in r.data
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").get_data(as_text=True)


def test_history_shows_money_in_dollars_and_scores_in_their_unit(client):
    client.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE)
    version = client.get("/api/games/current").get_json()["game"]["version"]
    client.post("/api/games/current/actions", headers=WRITE, json={"version": version, "action": {
        "type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                  "Bob & Dan": {"diamonds": 11, "clubs": 13}}}})
    client.post("/api/games/current/finish", json={"version": version + 1}, headers=WRITE)
    html = client.get("/history").get_data(as_text=True)
    assert re.search(r"SCAN: best -?[\d,]+ points, average -?[\d,.]+ points", html), html
    assert "avg" not in html


def test_the_history_lists_three_winners_as_a_sentence_does(client):
    """A Get the Scoop! round won by three players at once was listed "Ann and Bob and Cat won":
    the names are listed as every engine lists them, "Ann, Bob and Cat won"."""
    client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE)
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": [0, 1, 2]}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        assert client.post("/api/games/current/actions", json={"action": action, "version": version},
                           headers=WRITE).status_code == 200
    assert client.post("/api/games/current/finish", json={"version": 3}, headers=WRITE).status_code == 200
    html = client.get("/history").get_data(as_text=True)
    assert "<strong>Ann, Bob and Cat won</strong>" in html
