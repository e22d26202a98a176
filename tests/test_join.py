"""Joining the table over HTTP: QR invitations, codes asked for and dialed on the phone, rate
limits, the host's list of devices, and the join pages. The dial-join machine is tested in
test_dial_join.py, the devices file in test_devices.py."""

import re
import sqlite3
import time
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from html import unescape

import pytest
import segno
from conftest import launched_chromium
from itsdangerous import URLSafeTimedSerializer

from controller.devices import MAX_WAITING
from controller.dial_join import CODE_DIGITS, DialOutcome
from web_ui import create_app, security
from web_ui.join import qr_svg
from web_ui.server import InThread


@pytest.fixture
def guard(app, clocks):
    app.config["JOIN_BASE_URL"] = None
    return security.init_app(app, clock=clocks.wall, monotonic=clocks.mono)


def client_at(app, address):
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    c.environ_base["HTTP_X_NEWSDESK"] = "1"
    return c


@pytest.fixture
def host(app, guard):
    return client_at(app, "127.0.0.1")


def invite(host, role="player"):
    r = host.post("/api/join/tokens", json={"role": role})
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()


def dial(guard, code, t0=0.0, step=1.5):
    outcomes = [guard.joins.on_digit(int(d), t0 + i * step) for i, d in enumerate(code)]
    return outcomes[-1]


def can_write(c):
    return c.post("/api/sim/hook", json={"state": "off"}).status_code == 202


# -- QR invitations ----------------------------------------------------------------------------

@pytest.mark.slow
def test_the_host_invites_a_player_with_a_qr_code(app, guard, host):
    body = invite(host)
    assert body["role"] == "player" and body["expires_in"] == 600
    assert re.fullmatch(r"http://[^/]+/join\?token=[A-Za-z0-9_-]{32}", body["url"])
    assert body["token"] in body["url"]
    assert body["qr_svg"].startswith("<svg") and "QR code to join the table" in body["qr_svg"]
    assert body["qr_svg"] == qr_svg(body["url"])
    assert segno.make(body["url"], error="m").designator  # the URL fits a QR code
    player = client_at(app, "192.168.1.30")
    assert not can_write(player)
    r = player.get("/join?token=" + body["token"])
    assert r.status_code == 303 and r.headers["Location"] == "/join"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert can_write(player)
    me = player.get("/api/join/me").get_json()
    assert me["role"] == "player" and me["device"]["via"] == "token" and me["device"]["address"] == "192.168.1.30"
    page = player.get("/join").get_data(as_text=True)
    assert "has joined the table as <strong>player</strong>" in page


def test_a_joined_tablet_gets_its_cookie_again_once_a_day_not_with_every_answer(app, guard, host):
    """Signing the session afresh and sending it with every answer was about a tenth of a
    move's CPU (web_ui/security.py, DailySessions); once a day still slides its 180 days on."""
    player = client_at(app, "192.168.1.30")
    assert "session=" in player.get("/join?token=" + invite(host)["token"]).headers["Set-Cookie"]
    for _ in range(3):
        r = player.post("/api/sim/hook", json={"state": "off"})
        assert r.status_code == 202 and "Set-Cookie" not in r.headers
    app.session_interface.clock = lambda: time.time() + 86400 + 60     # a day later
    r = player.post("/api/sim/hook", json={"state": "on"})
    assert r.status_code == 202
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    assert abs((expires - datetime.now(timezone.utc)).total_seconds() - 180 * 86400) < 120
    assert can_write(player)
    assert player.get("/api/join/me").get_json()["role"] == "player"


def test_a_tablets_cookie_is_checked_once_and_its_age_every_time(app, guard, host, monkeypatch):
    """The event loop (to pick a request's lane) and Flask both read a tablet's cookie for each
    of its requests: its signature is checked once (web_ui/security.py, DailySessions.read)."""
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    cookie = "session=" + player.get_cookie("session").value
    checks = []
    real = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **k: checks.append(a) or real(self, *a, **k))
    for _ in range(5):
        assert can_write(player)
        assert security.is_host_request(app, "192.168.1.30", cookie) is False
    assert len(checks) <= 1
    # one character of the signature changed: not its last, whose low bits base64 leaves unused
    # (a cookie ending "A" or "B" there decodes to the same signature)
    forged = cookie[:-5] + ("A" if cookie[-5] != "A" else "B") + cookie[-4:]
    assert security.is_host_request(app, "192.168.1.30", forged) is False
    stranger = client_at(app, "192.168.1.31")
    stranger.set_cookie("session", forged.split("=", 1)[1])
    assert not can_write(stranger)
    app.session_interface.clock = lambda: time.time() + 181 * 86400      # past the cookie's 180 days
    assert not can_write(player)


def test_a_token_works_once(app, guard, host):
    token = invite(host)["token"]
    assert client_at(app, "192.168.1.30").get("/join?token=" + token).status_code == 303
    second = client_at(app, "192.168.1.31")
    r = second.get("/join?token=" + token)
    assert r.status_code == 410 and "already used" in r.get_data(as_text=True)
    assert not can_write(second)


def test_the_host_page_learns_when_its_invitation_is_used_or_runs_out(app, guard, host, clocks):
    """The host's page showed an invitation as good for its ten minutes after a tablet had used
    it: it asks the box by the invitation's id (no secret: a prefix of the token's hash)."""
    body = invite(host)
    state = host.get("/api/join/tokens/" + body["invite"])
    assert state.status_code == 200 and state.get_json() == {"status": "waiting", "device": None}
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + body["token"])
    name = player.get("/api/join/me").get_json()["device"]["name"]
    assert host.get("/api/join/tokens/" + body["invite"]).get_json() == {"status": "used", "device": name}
    late = invite(host)["invite"]
    clocks.advance(600)
    assert host.get("/api/join/tokens/" + late).get_json() == {"status": "expired", "device": None}
    for junk in ("0" * 16, "zz", "A" * 400):
        r = host.get("/api/join/tokens/" + junk)
        assert r.status_code == 404 and "no invitation" in r.get_json()["message"]
    assert client_at(app, "192.168.1.31").get("/api/join/tokens/" + body["invite"]).status_code in (401, 403)


def test_a_token_expires_after_ten_minutes(app, guard, host, clocks):
    early, late = invite(host)["token"], invite(host)["token"]
    clocks.advance(599)
    assert client_at(app, "192.168.1.30").get("/join?token=" + early).status_code == 303
    clocks.advance(1)
    r = client_at(app, "192.168.1.31").get("/join?token=" + late)
    assert r.status_code == 410 and "expired" in r.get_data(as_text=True)


@pytest.mark.slow
@pytest.mark.parametrize("token", ["", "x", "A" * 32, "A" * 400])
def test_an_unknown_token_is_refused(app, guard, token):
    r = client_at(app, "192.168.1.30").get("/join?token=" + token)
    assert r.status_code == 400 and "not one the host made" in r.get_data(as_text=True)


@pytest.mark.slow
def test_a_host_invitation_makes_a_host(app, guard, host):
    token = invite(host, "host")["token"]
    second_host = client_at(app, "192.168.1.30")
    second_host.get("/join?token=" + token)
    assert second_host.get("/api/join/me").get_json()["role"] == "host"
    assert invite(second_host)["role"] == "player"
    made_by = sqlite3.connect(guard.devices.path).execute("SELECT made_by FROM tokens ORDER BY created DESC").fetchall()
    assert ("loopback",) in made_by


@pytest.mark.parametrize("body, words", [
    ({"role": "admin"}, "role must be"), ([1], "JSON object"), ({"role": None}, "role must be"),
])
@pytest.mark.slow
def test_bad_invitation_requests(host, body, words):
    r = host.post("/api/join/tokens", json=body)
    assert r.status_code == 400 and words in r.get_json()["message"]


@pytest.mark.slow
def test_an_empty_body_invites_a_player(host):
    r = host.post("/api/join/tokens")
    assert r.status_code == 201 and r.get_json()["role"] == "player"


@pytest.mark.slow
def test_the_qr_code_points_at_an_address_tablets_reach(app, guard, host, monkeypatch):
    monkeypatch.setattr(guard, "lan_address", lambda: "192.168.4.1")
    assert invite(host)["url"].startswith("http://192.168.4.1:8080/join?token=")
    lan = client_at(app, "192.168.4.9")
    app.config["EXTRA_HOSTS"] = ["newsdesk.local"]
    lan.get("/join?token=" + invite(host, "host")["token"], headers={"Host": "newsdesk.local:8080"})
    r = lan.post("/api/join/tokens", json={"role": "player"}, headers={"Host": "newsdesk.local:8080"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["url"].startswith("http://newsdesk.local:8080/join?token=")
    monkeypatch.setattr(guard, "lan_address", lambda: "fd00::2")
    assert invite(host)["url"].startswith("http://[fd00::2]:8080/join?token=")
    app.config["JOIN_BASE_URL"] = "http://table.example:9000/"
    assert invite(host)["url"].startswith("http://table.example:9000/join?token=")


@pytest.mark.parametrize("listening, reachable", [
    ("127.0.0.1", False), ("::1", False), ("localhost", False),     # a laptop's default: loopback only
    ("0.0.0.0", True), ("192.168.4.1", True), (None, True),        # every address, the LAN one, unknown
])
@pytest.mark.slow
def test_an_invitation_says_when_a_tablet_cant_reach_the_panel(app, guard, host, monkeypatch, listening, reachable):
    monkeypatch.setattr(guard, "lan_address", lambda: "192.168.4.1")
    app.config["LISTEN_HOST"] = listening
    answer = invite(host)
    assert answer["url"].startswith("http://192.168.4.1:8080/join?token=")
    assert answer["reachable"] is reachable
    if reachable:
        assert answer["warning"] is None
    else:
        assert "listens on %s only" % listening in answer["warning"] and "--host 0.0.0.0" in answer["warning"]
    app.config["JOIN_BASE_URL"] = "http://127.0.0.1:8080"          # a link to loopback itself is fine
    assert invite(host)["reachable"] is True


@pytest.mark.slow
def test_the_lan_address_is_a_private_one(guard, monkeypatch):
    monkeypatch.setattr(security, "_interface_addresses", lambda: {"127.0.0.1", "169.254.1.2", "192.168.4.1", "fd00::1"})
    assert guard.lan_address() == "192.168.4.1"
    monkeypatch.setattr(security, "_interface_addresses", lambda: {"127.0.0.1"})
    monkeypatch.setattr(security.socket, "gethostname", lambda: "newsdesk")
    assert guard.lan_address() == "newsdesk.local"


# -- rate limits --------------------------------------------------------------------------------

@pytest.mark.slow
def test_token_guesses_are_limited_to_a_handful_a_minute(app, guard, host, clocks):
    good = invite(host)["token"]
    guesser = client_at(app, "192.168.1.66")
    for i in range(5):
        assert guesser.get("/join?token=guess%030d" % i).status_code == 400
    r = guesser.get("/join?token=" + good)
    assert r.status_code == 429
    assert "Try again in 60 seconds" in r.get_data(as_text=True) and r.headers["Retry-After"] == "61"
    assert client_at(app, "192.168.1.67").get("/join?token=x" * 20).status_code == 400  # others may try
    clocks.advance(60)
    assert guesser.get("/join?token=" + good).status_code == 303


@pytest.mark.slow
def test_repeated_failures_lock_an_address_out_for_ten_minutes(app, guard, host, clocks):
    good = invite(host)["token"]
    guesser = client_at(app, "192.168.1.66")
    for i in range(10):
        if i:
            clocks.advance(15)  # under the per-minute limit
        assert guesser.get("/join?token=guess%030d" % i).status_code == 400, i
    r = guesser.get("/join?token=" + good)
    assert r.status_code == 429 and "10 minutes" in r.get_data(as_text=True)
    clocks.advance(599)
    assert guesser.get("/join?token=" + good).status_code == 429
    clocks.advance(1)
    assert guesser.get("/join?token=" + good).status_code == 410  # expired meanwhile: ask again
    assert guesser.get("/join?token=" + invite(host)["token"]).status_code == 303


@pytest.mark.slow
def test_asking_for_dial_codes_is_limited_too(app, guard):
    c = client_at(app, "192.168.1.70")
    for _ in range(5):
        assert c.post("/api/join/dial").status_code == 201
    r = c.post("/api/join/dial")
    assert r.status_code == 429 and "Try again in" in r.get_json()["message"]
    assert guard.devices.waiting_count() == 1  # each ask replaced the last code


# -- dialing in ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_device_without_a_camera_joins_by_dialing_its_code(app, guard, clocks):
    tablet = client_at(app, "192.168.1.30")
    page = tablet.get("/join").get_data(as_text=True)
    assert 'id="dial-button"' in page
    r = tablet.post("/api/join/dial")
    assert r.status_code == 201
    body = r.get_json()
    assert body["status"] == "waiting" and re.fullmatch(r"\d{%d}" % CODE_DIGITS, body["code"])
    assert body["expires_in"] == 180
    w = tablet.post("/api/sim/hook", json={"state": "off"})
    assert w.status_code == 401 and "hasn't been dialed yet" in w.get_json()["message"]
    assert body["code"] in tablet.get("/join").get_data(as_text=True)  # a reload shows it again

    code = body["code"]
    outcomes = [guard.joins.on_digit(int(d), 10.0 + i) for i, d in enumerate(code)]
    assert [o.kind for o in outcomes] == [DialOutcome.COLLECTING] * (CODE_DIGITS - 1) + [DialOutcome.JOINED]
    assert outcomes[-1].device.role == "player" and outcomes[-1].device.via == "dial"
    assert tablet.get("/api/join/dial").get_json()["status"] == "joined"
    assert can_write(tablet)
    assert tablet.get("/api/join/me").get_json()["role"] == "player"


@pytest.mark.slow
def test_a_dial_code_lapses_after_three_minutes(app, guard, clocks):
    tablet = client_at(app, "192.168.1.30")
    code = tablet.post("/api/join/dial").get_json()["code"]
    clocks.advance(179)
    assert tablet.get("/api/join/dial").get_json()["status"] == "waiting"
    clocks.advance(2)
    assert tablet.get("/api/join/dial").get_json()["status"] == "lapsed"
    assert dial(guard, code) is None
    assert not can_write(tablet)


@pytest.mark.slow
def test_only_a_few_codes_wait_at_once(app, guard):
    for i in range(MAX_WAITING):
        assert client_at(app, "192.168.1.%d" % (30 + i)).post("/api/join/dial").status_code == 201
    r = client_at(app, "192.168.1.99").post("/api/join/dial")
    assert r.status_code == 409 and "already waiting" in r.get_json()["message"]
    codes = [d.code for d in guard.devices.list() if d.status == "waiting"]
    assert len(set(codes)) == MAX_WAITING


@pytest.mark.slow
def test_asking_again_replaces_the_code_and_cancel_gives_it_up(app, guard):
    tablet = client_at(app, "192.168.1.30")
    first = tablet.post("/api/join/dial").get_json()["code"]
    second = tablet.post("/api/join/dial").get_json()["code"]
    assert guard.devices.waiting_count() == 1
    assert [d.code for d in guard.devices.list() if d.status == "waiting"] == [second]
    if first != second:
        # not a join (the end of the old code may start the new one: then its digits are held)
        assert dial(guard, first).kind in (DialOutcome.PASS, DialOutcome.WRONG, DialOutcome.COLLECTING)
        assert [d.code for d in guard.devices.list() if d.status == "waiting"] == [second]
    assert tablet.delete("/api/join/dial").get_json() == {"status": "none"}
    assert guard.devices.waiting_count() == 0
    assert tablet.get("/api/join/dial").get_json() == {"status": "none"}


@pytest.mark.slow
def test_a_joined_device_or_the_host_needs_no_code(app, guard, host):
    assert host.post("/api/join/dial").status_code == 409
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    r = player.post("/api/join/dial")
    assert r.status_code == 409 and "already joined" in r.get_json()["message"]


# -- the host's list ---------------------------------------------------------------------------

@pytest.mark.slow
def test_the_host_lists_and_removes_devices(app, guard, host):
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    waiting = client_at(app, "192.168.1.31")
    waiting.post("/api/join/dial")
    devices = host.get("/api/devices").get_json()["devices"]
    assert sorted(d["status"] for d in devices) == ["joined", "waiting"]
    page = host.get("/join/host").get_data(as_text=True)
    assert all(d["id"] in page for d in devices) and "Invite a player" in page
    joined_id = next(d["id"] for d in devices if d["status"] == "joined")

    r = host.delete("/api/devices/" + joined_id)
    assert r.status_code == 200 and r.get_json()["revoked"]["status"] == "revoked"
    assert host.delete("/api/devices/" + joined_id).status_code == 200  # again: no harm
    assert not can_write(player)
    assert [d["status"] for d in host.get("/api/devices").get_json()["devices"]] == ["waiting"]
    assert "revoked" in [d["status"] for d in host.get("/api/devices?all=1").get_json()["devices"]]
    assert "removed this device" in player.get("/join").get_data(as_text=True)
    player.get("/join?token=" + invite(host)["token"])  # the host may invite it again
    assert can_write(player)

    r = host.delete("/api/devices/nosuchdevice")
    assert r.status_code == 404 and "No device" in r.get_json()["message"]


def test_the_host_page_is_the_host_only(app, guard, host):
    assert host.get("/join/host").status_code == 200
    r = client_at(app, "192.168.1.30").get("/join/host")
    assert r.status_code == 403 and "Only the host" in r.get_data(as_text=True)


def test_a_device_names_itself_and_leaves(app, guard, host):
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"], headers={"User-Agent": "Mozilla/5.0 (iPad; CPU OS 17_0)"})
    assert player.get("/api/join/me").get_json()["device"]["name"] == "iPad"
    r = player.post("/api/join/name", json={"name": "  Ann's   iPad "})
    assert r.status_code == 200 and r.get_json()["device"]["name"] == "Ann's iPad"
    for bad in ({"name": ""}, {"name": "x" * 61}, {"name": 3}):
        r = player.post("/api/join/name", json=bad)
        assert r.status_code == 400 and r.get_json()["message"].endswith(".")
    assert host.post("/api/join/name", json={"name": "box"}).status_code == 409
    assert "Ann's iPad" in unescape(host.get("/join/host").get_data(as_text=True))
    device_id = player.get("/api/join/me").get_json()["device"]["id"]
    assert player.post("/api/join/leave").get_json() == {"left": device_id}
    assert not can_write(player)
    assert client_at(app, "192.168.1.31").post("/api/join/leave").get_json() == {"left": None}


@pytest.mark.parametrize("name, said", [
    ("\u0000", "a line break, tab or other control character in it (U+0000)"),
    ("a\u0007b", "a line break, tab or other control character in it (U+0007)"),
    ("\u202eevil", "an invisible character in it (U+202E)"),
    ("Ann\u200b", "an invisible character in it (U+200B)"),
    ("\ufeff", "an invisible character in it (U+FEFF)"),
])
def test_a_device_name_with_what_nobody_sees_in_it_is_refused_as_a_players_is(app, guard, host, name, said):
    """A joined player could name their device "\u202eevil" (shown backwards in the host's list),
    a NUL or a zero-width space, where a player's name refuses each."""
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    r = player.post("/api/join/name", json={"name": name})
    assert r.status_code == 400 and r.get_json()["message"] == "A device's name has %s: type it again without it." \
        % said, r.get_json()
    assert player.post("/api/join/name", json={"name": "Ann's 📱"}).status_code == 200


def test_a_browser_that_joins_again_gives_up_its_old_device(app, guard, host):
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    first = player.get("/api/join/me").get_json()["device"]["id"]
    player.get("/join?token=" + invite(host, "host")["token"])
    me = player.get("/api/join/me").get_json()
    assert me["role"] == "host" and me["device"]["id"] != first
    assert guard.devices.device(first).status == "revoked"


def test_pages_say_where_the_device_stands(app, guard, host):
    assert "it is the host and needs no join" in host.get("/join").get_data(as_text=True)
    stranger = client_at(app, "192.168.1.30").get("/join").get_data(as_text=True)
    assert "Anyone can watch" in stranger and "Scan the QR code" in stranger


# -- a restart --------------------------------------------------------------------------------------

@pytest.mark.slow
def test_joined_devices_survive_a_restart(app, guard, host, desk, clocks):
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    pending = invite(host)["token"]
    cookie = player.get_cookie("session")
    restarted = create_app(newsdesk=desk, test_config={"TESTING": True})
    security.init_app(restarted, clock=clocks.wall, monotonic=clocks.mono)
    again = client_at(restarted, "192.168.1.30")
    again.set_cookie("session", cookie.value)
    assert can_write(again)
    late = client_at(restarted, "192.168.1.31")
    assert late.get("/join?token=" + pending).status_code == 303  # invitations too


# -- in a real browser -------------------------------------------------------------------------

@pytest.fixture
def browser():
    with launched_chromium() as b:
        yield b


@pytest.fixture
def served(app, guard):
    srv = InThread(app)                     # as `newsdesk serve` serves it
    url = "http://127.0.0.1:%d" % srv.port
    app.config["JOIN_BASE_URL"] = url
    app.config["HOST_ON_LOOPBACK"] = False  # every page here is on loopback: make them devices
    yield url
    srv.close()


@pytest.mark.browser
def test_joining_in_a_browser(served, browser, guard, app):
    token, _ = guard.devices.issue_token("host", "test")
    host = browser.new_context().new_page()
    host.goto(served + "/join?token=" + token)
    assert "joined the table as host" in host.inner_text("#join-state")
    host.goto(served + "/join/host")
    host.click("[data-invite=player]")
    host.wait_for_selector("#invite-qr svg")
    url = host.inner_text("#invite-url")
    assert url.startswith(served + "/join?token=")

    player = browser.new_context().new_page()
    player.goto(url)
    assert "joined the table as player" in player.inner_text("#join-state")
    assert player.url == served + "/join"

    tablet = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    tablet.goto(served + "/join")
    tablet.click("#dial-button")
    tablet.wait_for_function("document.getElementById('dial-box').dataset.code")
    code = tablet.evaluate("document.getElementById('dial-box').dataset.code")
    assert tablet.inner_text("#dial-code").replace(" ", "") == code
    for i, d in enumerate(code):
        guard.joins.on_digit(int(d), float(i))
    tablet.wait_for_selector("#join-state[data-state=joined]", timeout=10000)
    assert tablet.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    host.reload()
    assert host.locator("#devices li").count() == 3
    # each Remove button says which, as the list numbers it (two devices may share a name and address)
    labels = host.eval_on_selector_all("[data-revoke]", "bs => bs.map((b) => b.getAttribute('aria-label'))")
    assert [label.split(":")[0] for label in labels] == ["Remove device 1", "Remove device 2", "Remove device 3"]
    assert all("(player, " in label or "(host, " in label for label in labels), labels
    name = tablet.evaluate("fetch('/api/join/me').then(r => r.json()).then(m => m.device.id)")
    host.on("dialog", lambda d: d.accept())
    host.click("[data-revoke='%s']" % name)
    host.wait_for_function("!document.querySelector(\"[data-revoke='%s']\")" % name)
    status = tablet.evaluate("""fetch('/api/sim/hook', {method: 'POST',
        headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
        body: JSON.stringify({state: 'off'})}).then(r => r.status)""")
    assert status == 401
    status = player.evaluate("""fetch('/api/sim/hook', {method: 'POST',
        headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
        body: JSON.stringify({state: 'off'})}).then(r => r.status)""")
    assert status == 202
    no_header = player.evaluate("""fetch('/api/sim/hook', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({state: 'on'})}).then(r => r.status)""")
    assert no_header == 403
    cookie = next(c for c in player.context.cookies() if c["name"] == "session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"


# what the page's live regions said (each region emptied then filled counts once)
HEARD = """() => { window.heard = [];
  for (const box of document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert]'))
    new MutationObserver(() => { const t = box.textContent.trim(); if (t) window.heard.push([box.id, t]); })
      .observe(box, {childList: true, subtree: true, characterData: true}); }"""


def heard(page, words):
    return [text for _, text in page.evaluate("window.heard") if words in text]


def joined_guest(browser, served, guard):
    """A second device's page on /join, joined as a player with a host's invitation."""
    token, _ = guard.devices.issue_token("player", "test")
    guest = browser.new_context().new_page()
    guest.goto(served + "/join?token=" + token)
    assert guest.locator("#join-state").get_attribute("data-state") == "joined"
    return guest, guest.evaluate("fetch('/api/join/me').then(r => r.json()).then(m => m.device.id)")


@pytest.mark.browser
def test_a_removed_devices_join_page_says_so_when_saving_its_name_is_refused(served, browser, guard):
    guest, device = joined_guest(browser, served, guard)
    guest.clock.install()
    guest.clock.pause_at((guest.evaluate("Date.now()") + 50) / 1000)   # no look of its own: the write finds out
    guest.fill("#device-name", "Ann's phone")
    guest.click("#name-form button[type=submit]")
    guest.wait_for_selector("#name-saved:not([hidden])")
    guard.devices.revoke(device)
    guest.click("#name-form button[type=submit]")
    guest.wait_for_selector("#join-state[data-state=watching]", timeout=5000)
    assert "removed this device" in guest.inner_text("#join-revoked")
    assert "Get a code to dial" in guest.inner_text("#join-state")
    assert guest.inner_text("#join-role") == "Watching"
    assert not guest.locator("#name-saved").count() and "joined the table" not in guest.inner_text("main")
    assert guest.locator("#join-error").is_hidden()       # no refusal saying to open the page it is on
    assert guest.evaluate("document.activeElement.id") == "join-revoked"   # the form it was in is gone
    guest.click("#dial-button")                            # the ways to join again work
    guest.wait_for_function("document.getElementById('dial-box').dataset.code")


@pytest.mark.browser
def test_a_removed_devices_join_page_notices_within_a_few_seconds_without_a_write(served, browser, guard):
    guest, device = joined_guest(browser, served, guard)
    guest.evaluate(HEARD)
    guard.devices.revoke(device)
    guest.wait_for_selector("#join-state[data-state=watching]", timeout=10000)
    assert guest.inner_text("#join-role") == "Watching" and guest.locator("#join-revoked").is_visible()
    guest.wait_for_function("window.heard.length > 0")
    assert [box for box, _ in guest.evaluate("window.heard")] == ["announce"]
    assert heard(guest, "removed this device")


@pytest.fixture
def host_page(served, browser, app):
    """The host's page on the box's own screen (the host without being a device)."""
    app.config["HOST_ON_LOOPBACK"] = True
    page = browser.new_context().new_page()
    page.goto(served + "/join/host")
    page.evaluate(HEARD)
    return page


@pytest.mark.browser
def test_a_used_invitation_says_so_without_a_link_sentence_or_a_name_that_goes_stale(host_page, guard):
    host_page.click("[data-invite=player]")
    host_page.wait_for_selector("#invite-qr svg")
    token = host_page.inner_text("#invite-url").split("token=")[1]
    assert "Scan it, or open" in host_page.inner_text("#invite")
    device = guard.devices.redeem(token, "Linux computer", "10.0.0.21")
    host_page.wait_for_function("document.getElementById('invite-left').textContent.startsWith('Used: ')",
                                timeout=10000)
    assert "Scan it, or open" not in host_page.inner_text("#invite")
    guard.devices.rename(device.id, "Ann's phone")
    host_page.wait_for_function("document.getElementById('devices').textContent.includes(\"Ann's phone\")",
                                timeout=10000)
    assert "Linux computer" not in host_page.inner_text("#invite")


@pytest.mark.browser
def test_the_host_page_says_once_who_joined_and_who_is_gone_and_that_none_is_joined_now(host_page, guard):
    token, _ = guard.devices.issue_token("player", "test")
    guard.devices.redeem(token, "Ann's phone", "10.0.0.21")
    host_page.wait_for_function("document.querySelectorAll('#devices [data-revoke]').length === 1", timeout=10000)
    host_page.wait_for_function("window.heard.some(([, t]) => t.includes('joined the table'))")
    host_page.on("dialog", lambda d: d.accept())
    host_page.click("#devices [data-revoke]")
    host_page.wait_for_function("window.heard.some(([, t]) => t.includes('no longer at the table'))")
    assert host_page.inner_text("#devices") == "No device is joined now."
    host_page.wait_for_timeout(5500)                       # a redraw of the list says nothing again
    assert heard(host_page, "joined the table") == ["Ann's phone joined the table as a player."]
    assert heard(host_page, "no longer at the table") == ["Ann's phone is no longer at the table."]
    assert {box for box, _ in host_page.evaluate("window.heard")} == {"announce"}


def test_the_host_page_says_no_device_is_joined_now_not_yet(app, guard, host):
    player = client_at(app, "192.168.1.30")
    player.get("/join?token=" + invite(host)["token"])
    host.delete("/api/devices/" + player.get("/api/join/me").get_json()["device"]["id"])
    page = host.get("/join/host").get_data(as_text=True)
    assert "No device is joined now." in page and "yet" not in page


@pytest.mark.slow
def test_a_flood_of_code_requests_cant_hijack_the_phone(app, guard, clocks, desk):
    """200 requests for codes from 50 addresses: the waiting codes stay bounded (one per address),
    a genuine device still gets a code within a minute and joins by dialing it, and the table's
    calls reach the editor all the while."""
    def flood():
        for i in range(200):
            client_at(app, "10.0.%d.%d" % (i % 50 // 10, i % 50)).post("/api/join/dial")
        waiting = [d for d in guard.devices.list() if d.status == "waiting"]
        assert len(waiting) <= MAX_WAITING
        assert len({d.address for d in waiting}) == len(waiting)      # one per address

    flood()
    genuine = client_at(app, "192.168.1.77")
    code = None
    for _second in range(0, 61, 5):                 # keeps asking, while the flood keeps coming
        r = genuine.post("/api/join/dial")
        if r.status_code == 201:
            code = r.get_json()["code"]
            break
        assert r.status_code in (409, 429) and "message" in r.get_json()
        clocks.advance(5)
        flood()
    assert code is not None, "no code within a minute"
    flood()                                          # a fresh flood can't push a new code out
    assert genuine.get("/api/join/dial").get_json()["status"] == "waiting"

    # the table's calls still reach the editor: three calls, each a digit and the handset put down
    # (with 51 codes waiting every digit starts one, so each is held until the handset goes down)
    before = len(desk.table.recent_verdicts(50))
    for i, digit in enumerate((4, 7, 1)):
        desk.table.on_dial_event(type("Ev", (), {"kind": "digit", "value": digit, "t": 10.0 * i})())
        desk.table.on_dial_event(type("Ev", (), {"kind": "hook", "value": "on", "t": 10.0 * i + 1})())
    assert [v["data"]["digit"] for v in desk.table.recent_verdicts(3)] == [1, 7, 4]
    assert len(desk.table.recent_verdicts(50)) == before + 3

    assert dial(guard, code, t0=50.0).kind == DialOutcome.JOINED
    assert can_write(genuine)


def test_two_tablets_of_one_make_are_told_apart_on_the_host_page(app, guard, host):
    """Both say "Linux computer" in their User-Agent: the list and the used invitation number the second."""
    agent = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"}
    names = []
    for address in ("192.168.1.30", "192.168.1.31"):
        made = invite(host)
        client_at(app, address).get("/join?token=" + made["token"], headers=agent)
        names.append(host.get("/api/join/tokens/" + made["invite"]).get_json()["device"])
    assert names == ["Linux computer", "Linux computer 2"]
    assert sorted(d["name"] for d in host.get("/api/devices").get_json()["devices"]) == names
    # the same browser joining again gives up its old device, and keeps its name
    again = client_at(app, "192.168.1.31")
    again.get("/join?token=" + invite(host)["token"], headers=agent)
    again.get("/join?token=" + invite(host)["token"], headers=agent)
    assert again.get("/api/join/me").get_json()["device"]["name"] == "Linux computer 3"
    assert sorted(d["name"] for d in host.get("/api/devices").get_json()["devices"]) == names + ["Linux computer 3"]
