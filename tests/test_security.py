"""The panel on the table's Wi-Fi: open to watch, a join to change, nothing cross-site, no
foreign Host, no debugger. No traceback reaches a tablet: test_web_ui_errors.py; each route's role
as its description names it: test_apidoc.py."""

import stat

import pytest
from conftest import Clocks
from flask import render_template_string

from controller.errors import ConfigError
from controller.events import VERDICT
from web_ui import create_app, security
from web_ui.security import Limiter, box_names, split_host

# the servers' timeouts run in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

LAN = "192.168.1.23"




@pytest.fixture
def guard(app, clocks):
    return security.init_app(app, clock=clocks.wall, monotonic=clocks.mono)


def client_at(app, address, write_header=True):
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    if write_header:
        c.environ_base["HTTP_X_NEWSDESK"] = "1"
    return c


@pytest.fixture
def host(app, guard):
    """The box's own screen (loopback), which is the host by default."""
    return client_at(app, "127.0.0.1")


@pytest.fixture
def stranger(app, guard):
    """A device on the Wi-Fi that hasn't joined."""
    return client_at(app, LAN)


def joined(app, guard, role="player", address="192.168.1.40"):
    token, _ = guard.devices.issue_token(role, "test")
    c = client_at(app, address)
    r = c.get("/join?token=" + token)
    assert r.status_code == 303, r.get_data(as_text=True)
    return c


# -- open to watch, a join to change -----------------------------------------------------------

@pytest.mark.slow
def test_anyone_may_watch(stranger):
    assert stranger.get("/").status_code == 200
    assert stranger.get("/api/state").status_code == 200
    assert stranger.get("/join").status_code == 200
    r = stranger.get("/static/js/join.js")
    r.close()
    assert r.status_code == 200
    assert stranger.head("/api/state").status_code == 200


def test_a_device_that_has_not_joined_cannot_change_anything(stranger, desk):
    r = stranger.post("/api/sim/dial", json={"digit": 4})
    assert r.status_code == 401
    body = r.get_json()
    assert body["error"] == "Unauthorized"
    assert "scan the QR code" in body["message"] and "/join" in body["message"]
    assert desk.store.latest(VERDICT) == []
    for method in ("put", "patch", "delete"):
        assert getattr(stranger, method)("/api/anything").status_code == 401


def test_a_joined_device_may_change_the_game(app, guard):
    player = joined(app, guard)
    assert player.post("/api/sim/dial", json={"digit": 4}).status_code == 202


def test_the_box_own_screen_is_the_host_unless_turned_off(app, host):
    assert host.post("/api/sim/hook", json={"state": "off"}).status_code == 202
    assert host.get("/api/join/me").get_json()["role"] == "host"
    for loopback in ("::1", "127.0.0.5", "::ffff:127.0.0.1"):
        assert client_at(app, loopback).get("/api/join/me").get_json()["role"] == "host", loopback
    app.config["HOST_ON_LOOPBACK"] = False
    assert host.post("/api/sim/hook", json={"state": "on"}).status_code == 401
    assert host.get("/api/join/me").get_json()["role"] is None


@pytest.mark.slow
def test_a_revoked_device_is_refused_on_its_next_write(app, guard, host):
    player = joined(app, guard)
    assert player.post("/api/sim/hook", json={"state": "off"}).status_code == 202
    device = player.get("/api/join/me").get_json()["device"]["id"]
    assert host.delete("/api/devices/" + device).status_code == 200
    r = player.post("/api/sim/hook", json={"state": "on"})
    assert r.status_code == 401 and "removed this device" in r.get_json()["message"]


@pytest.mark.slow
def test_host_only_views_refuse_players(app, guard):
    player = joined(app, guard)
    for r in (player.get("/api/devices"), player.post("/api/join/tokens", json={"role": "player"})):
        assert r.status_code == 403 and "Only the host" in r.get_json()["message"]
    assert client_at(app, LAN).get("/api/devices").status_code == 401
    host_device = joined(app, guard, role="host", address="192.168.1.41")
    assert host_device.get("/api/devices").status_code == 200


def test_require_role_takes_only_the_two_roles():
    with pytest.raises(ValueError, match="host"):
        security.require_role("admin")


def test_session_cookie_is_httponly_samesite_strict_and_signed(app, guard):
    token, _ = guard.devices.issue_token("player", "test")
    c = client_at(app, LAN)
    cookie = c.get("/join?token=" + token).headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Expires=" in cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    forged = client_at(app, "192.168.1.50")
    forged.set_cookie("session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert forged.post("/api/sim/hook", json={"state": "off"}).status_code == 401
    copied = client_at(app, "192.168.1.51")
    copied.set_cookie("session", value)  # the same cookie, signed: it is that device
    assert copied.post("/api/sim/hook", json={"state": "off"}).status_code == 202


@pytest.mark.slow
def test_a_cookie_signed_with_another_box_key_is_worthless(app, guard):
    import secrets

    from flask import Flask
    player = joined(app, guard)
    device_id = player.get("/api/join/me").get_json()["device"]["id"]
    other = Flask("another_box")
    other.secret_key = secrets.token_hex(32)
    value = other.session_interface.get_signing_serializer(other).dumps({"device": device_id})
    c = client_at(app, "192.168.1.60")
    c.set_cookie("session", value)
    assert c.post("/api/sim/hook", json={"state": "off"}).status_code == 401
    mine = app.session_interface.get_signing_serializer(app).dumps({"device": device_id})
    c.set_cookie("session", mine)
    assert c.post("/api/sim/hook", json={"state": "off"}).status_code == 202


# -- cross-site --------------------------------------------------------------------------------

def test_writes_need_the_custom_header_even_from_the_host(app, guard):
    bare = client_at(app, "127.0.0.1", write_header=False)
    r = bare.post("/api/sim/hook", json={"state": "off"})
    assert r.status_code == 403
    assert "X-Newsdesk: 1" in r.get_json()["message"]
    r = bare.post("/api/sim/hook", json={"state": "off"}, headers={"X-Newsdesk": "yes"})
    assert r.status_code == 403
    r = bare.post("/api/sim/hook", json={"state": "off"}, headers={"X-Newsdesk": "1"})
    assert r.status_code == 202


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost:8081"},
    {"Origin": "https://localhost"},
    {"Origin": "null"},
    {"Origin": "localhost"},
    {"Origin": "http://localhost", "Sec-Fetch-Site": "cross-site"},
])
@pytest.mark.slow
def test_cross_site_writes_are_refused(host, headers, desk):
    r = host.post("/api/sim/dial", json={"digit": 1}, headers=headers)
    assert r.status_code == 403
    assert "newsdesk's own pages" in r.get_json()["message"]
    assert desk.store.latest(VERDICT) == []


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://localhost:80"},
    {"Origin": "http://LOCALHOST"},
])
@pytest.mark.slow
def test_same_origin_writes_pass(host, headers):
    assert host.post("/api/sim/hook", json={"state": "off"}, headers=headers).status_code == 202


def test_same_origin_is_checked_against_the_port(app, host):
    app.config["ALLOWED_HOSTS"] = ["localhost", "box.local"]
    ok = {"Host": "box.local:8080", "Origin": "http://box.local:8080"}
    assert host.post("/api/sim/hook", json={"state": "off"}, headers=ok).status_code == 202
    for origin in ("http://box.local", "http://box.local:9999", "http://localhost:8080"):
        r = host.post("/api/sim/hook", json={"state": "on"}, headers={"Host": "box.local:8080", "Origin": origin})
        assert r.status_code == 403, origin


def test_cross_site_checks_cover_join_endpoints_too(stranger):
    r = stranger.post("/api/join/dial", json={}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    bare = stranger.post("/api/join/dial", json={}, headers={"X-Newsdesk": ""})
    assert bare.status_code == 403


@pytest.mark.slow
def test_a_plain_html_form_passes_with_the_session_csrf_token(app, guard):
    @app.get("/test-form")
    def form():
        return render_template_string("{{ csrf_token() }}")

    @app.post("/test-form")
    def posted():
        return "posted"

    c = client_at(app, "127.0.0.1", write_header=False)
    token = c.get("/test-form").get_data(as_text=True)
    assert len(token) >= 30
    r = c.post("/test-form", data={"csrf_token": "wrong" * 8})
    assert r.status_code == 403 and "csrf_token" in r.get_data(as_text=True)
    assert r.mimetype == "text/html"
    assert c.post("/test-form", data={"csrf_token": token}).get_data(as_text=True) == "posted"
    other = client_at(app, "127.0.0.1", write_header=False)  # another browser: another session
    assert other.post("/test-form", data={"csrf_token": token}).status_code == 403


@pytest.mark.slow
def test_no_cors_is_offered(host):
    r = host.open("/api/sim/dial", method="OPTIONS", headers={"Origin": "http://evil.example",
                                                             "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in r.headers


# -- Host header (DNS rebinding) ---------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("host_header", ["evil.example", "evil.example:8080", "192.168.1.99",
                                         "localhost.evil.example", "a b", "x:y:z", "[::1", "box:99999",
                                         "[::1]x"])
def test_foreign_host_is_refused_even_for_reads(app, guard, host_header):
    app.config["ALLOWED_HOSTS"] = ["localhost", "127.0.0.1", "::1", "box", "box.local", "192.168.1.10"]
    c = client_at(app, LAN)
    for r in (c.get("/api/state", headers={"Host": host_header}), c.get("/", headers={"Host": host_header})):
        assert r.status_code == 400
        assert "doesn't answer to the name" in r.get_json()["message"]


@pytest.mark.slow
@pytest.mark.parametrize("host_header", ["localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080",
                                         "box", "BOX.local:8080", "box.local.", "192.168.1.10:8080"])
def test_the_box_own_names_are_allowed(app, guard, host_header):
    app.config["ALLOWED_HOSTS"] = ["localhost", "127.0.0.1", "::1", "box", "box.local", "192.168.1.10"]
    assert client_at(app, LAN).get("/api/state", headers={"Host": host_header}).status_code == 200


def test_the_automatic_list_holds_the_hostname_and_every_address(monkeypatch):
    monkeypatch.setattr(security.socket, "gethostname", lambda: "NewsDesk")
    monkeypatch.setattr(security, "_interface_addresses", lambda: {"127.0.0.1", "192.168.4.1", "fd00::2"})
    names = box_names("10.1.2.3")
    assert {"localhost", "127.0.0.1", "::1", "newsdesk", "newsdesk.local", "192.168.4.1", "fd00::2",
            "10.1.2.3"} <= names
    assert "0.0.0.0" not in box_names("0.0.0.0")


def test_the_name_avahi_announces_is_allowed_when_it_is_not_the_hostnames(app, guard, clocks, monkeypatch):
    """avahi renamed the box raspberrypi-2.local (another box had the name first): a tablet that
    opens that name is let in, asked of avahi when such a name first comes (not at start, and at
    most every ADDRESS_REFRESH); any other .local name stays refused."""
    from controller import lan
    asked = []
    monkeypatch.setattr(security.socket, "gethostname", lambda: "raspberrypi")
    monkeypatch.setattr(lan, "announced_name", lambda run=None: asked.append(1) or "raspberrypi-2.local")
    c = client_at(app, LAN)
    assert c.get("/api/state", headers={"Host": "raspberrypi.local:8080"}).status_code == 200
    assert asked == []
    assert c.get("/api/state", headers={"Host": "raspberrypi-2.local:8080"}).status_code == 200
    assert c.get("/api/state", headers={"Host": "other.local:8080"}).status_code == 400
    assert c.get("/api/state", headers={"Host": "other.local:8080"}).status_code == 400
    assert len(asked) == 1


def test_the_box_real_addresses_are_found():
    found = security._interface_addresses()
    assert "127.0.0.1" in found or "::1" in found


@pytest.mark.slow
def test_a_new_address_of_the_box_is_picked_up(app, guard, clocks, monkeypatch):
    addresses = {"127.0.0.1"}
    monkeypatch.setattr(security, "_interface_addresses", lambda: set(addresses))
    c = client_at(app, LAN)
    assert c.get("/api/state", headers={"Host": "10.9.8.7:8080"}).status_code == 400
    addresses.add("10.9.8.7")  # a new DHCP lease
    assert c.get("/api/state", headers={"Host": "10.9.8.7:8080"}).status_code == 400  # looked 0 s ago
    clocks.advance(security.ADDRESS_REFRESH)
    assert c.get("/api/state", headers={"Host": "10.9.8.7:8080"}).status_code == 200
    assert c.get("/api/state", headers={"Host": "evil.example"}).status_code == 400


@pytest.mark.slow
def test_extra_hosts_are_added_to_the_automatic_list(app, guard):
    app.config["EXTRA_HOSTS"] = ["newsdesk.lan"]
    assert client_at(app, LAN).get("/api/state", headers={"Host": "newsdesk.lan"}).status_code == 200


@pytest.mark.parametrize("raw, parsed", [
    ("Box:8080", ("box", 8080)), ("[::1]:80", ("::1", 80)), ("[fe80::1]", ("fe80::1", None)),
    ("box.", ("box", None)), ("", None), (None, None), (":80", None), ("box:0", None),
    ("fe80::1", None), ("box:8o", None),
    # a superscript two is a digit to str.isdigit, not to int(); 5,000 digits are past what int() reads
    ("box:\u00b2", None), ("box:" + "1" * 5000, None), ("[::1]:" + "8" * 5000, None), ("box:\u0663", None),
])
def test_split_host(raw, parsed):
    assert split_host(raw) == parsed


@pytest.mark.parametrize("host", ["127.0.0.1:\u00b2", "127.0.0.1:" + "1" * 5000])
def test_a_host_whose_port_int_cannot_read_gets_the_sentence_not_a_500(app, host):
    """A Host header arrives as Latin-1, so its port may hold a superscript two, which
    str.isdigit takes for a digit and int() refuses."""
    r = client_at(app, "127.0.0.1").get("/api/state", headers={"Host": host})
    assert r.status_code == 400 and "doesn't answer to the name" in r.get_json()["message"]


# -- debugger, secret key ----------------------------------------------------------------------

def test_debug_is_forced_off(desk):
    app = create_app(newsdesk=desk, test_config={"DEBUG": True, "TESTING": True})
    security.init_app(app)
    assert app.debug is False


@pytest.mark.slow
def test_requests_under_the_interactive_debugger_are_refused(app, guard):
    from werkzeug.debug import DebuggedApplication
    from werkzeug.test import Client
    debugged = Client(DebuggedApplication(app, evalex=True))
    r = debugged.get("/api/state", environ_base={"REMOTE_ADDR": LAN})
    assert r.status_code == 500
    assert "does not run under a debugger" in r.get_data(as_text=True)


@pytest.mark.parametrize("key", [None, "", "dev", "short", b"dev", "changeme", "x" * 31])
def test_weak_secret_keys_are_refused(key):
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        security.check_secret_key(key)


def test_an_example_secret_key_is_refused_at_start(desk):
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        app = create_app(newsdesk=desk, test_config={"TESTING": True, "SECRET_KEY": "dev"})
        security.init_app(app)


def test_the_secret_key_is_generated_per_box_and_kept_private(tmp_path):
    from web_ui import _secret_key
    a, b = tmp_path / "box-a", tmp_path / "box-b"
    key_a, key_b = _secret_key(a), _secret_key(b)
    assert key_a != key_b and len(key_a) == 64
    security.check_secret_key(key_a)
    assert _secret_key(a) == key_a  # kept across restarts
    assert stat.S_IMODE((a / "secret_key").stat().st_mode) == 0o600


def test_a_key_file_the_box_cant_read_as_a_key_is_replaced_not_a_stop(tmp_path):
    """A key file holding other text (a stranger's, a damaged card's) must not stop the panel's start."""
    from web_ui import _secret_key
    tmp_path.joinpath("secret_key").write_bytes("é".encode() * 40)
    key = _secret_key(tmp_path)
    assert len(key) == 64 and tmp_path.joinpath("secret_key").read_text() == key + "\n"


@pytest.mark.slow
def test_security_headers(stranger):
    r = stranger.get("/api/state")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.slow
def test_init_app_twice_only_changes_the_clocks(app, guard, clocks):
    again = security.init_app(app, clock=lambda: 5.0)
    assert again is guard and guard.now() == 5.0


@pytest.mark.slow
def test_the_test_client_can_send_the_write_header_by_default(app, guard):
    c = app.test_client()
    c.environ_base["HTTP_X_NEWSDESK"] = "1"  # what tests/conftest.py's client does
    assert c.post("/api/sim/hook", json={"state": "off"}).status_code == 202


# -- the rate limiter --------------------------------------------------------------------------

def test_limiter_allows_a_handful_a_minute():
    clock = Clocks()
    limiter = Limiter(per_minute=5, lockout_after=10, lockout=600, clock=clock.mono)
    assert [limiter.attempt("a") for _ in range(5)] == [0.0] * 5
    assert limiter.attempt("a") == pytest.approx(60.0)
    assert limiter.attempt("b") == 0.0  # per address
    clock.advance(30)
    assert limiter.attempt("a") == pytest.approx(30.0)
    clock.advance(30)
    assert limiter.attempt("a") == 0.0


def test_limiter_locks_out_after_repeated_failures():
    clock = Clocks()
    limiter = Limiter(per_minute=5, lockout_after=10, lockout=600, clock=clock.mono)
    for i in range(10):
        assert limiter.attempt("a") == 0.0, i
        limiter.failed("a")
        clock.advance(20)  # slow enough never to meet the per-minute limit
    wait = limiter.attempt("a")
    assert wait == pytest.approx(580.0)
    clock.advance(579)
    assert limiter.attempt("a") > 0
    clock.advance(1)
    assert limiter.attempt("a") == 0.0


def test_limiter_forgets_failures_after_a_success_or_with_time():
    clock = Clocks()
    limiter = Limiter(per_minute=100, lockout_after=3, lockout=600, clock=clock.mono)
    limiter.failed("a"), limiter.failed("a")
    limiter.succeeded("a")
    limiter.failed("a"), limiter.failed("a")
    assert limiter.attempt("a") == 0.0
    clock.advance(601)
    limiter.failed("a")
    assert limiter.attempt("a") == 0.0


def test_limiter_memory_is_bounded():
    clock = Clocks()
    limiter = Limiter(clock=clock.mono, max_keys=50)
    for i in range(500):
        limiter.attempt("10.0.%d.%d" % (i // 256, i % 256))
        clock.advance(1)
    assert len(limiter._keys) <= 50
