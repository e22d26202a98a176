"""Every screen usable by everyone: each page of the panel, and the table screen during each game
with something on it, audited by axe-core (WCAG 2.1 A and AA and axe's best practices) in Debian's
Chromium at a tablet's and a phone's size; and the parts an automatic audit can't judge, tried
by hand: the simulated phone's dial and where focus goes after a move, by keyboard only.

axe-core comes from npm (tests/axe/package.json, a pinned version), installed with ``npm ci`` on
first use and injected into each page from the disk: no CDN, nothing from the network.
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import lan_address, launched_chromium, picture
from PIL import Image

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
WAIT = 10000  # ms: generous for a loaded CI machine; conditions, never sleeps
W = {"X-Newsdesk": "1"}

pytestmark = [pytest.mark.browser, pytest.mark.slow]


# ---------------------------------------------------------------- axe-core and the browser

@pytest.fixture(scope="module")
def axe_js():
    """axe.min.js on the disk; ``npm ci`` in tests/axe on first use (offline once it's there)."""
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            why = "node/npm are not installed: the accessibility audit needs axe-core from npm (apt-get install nodejs npm)"
            if os.environ.get("NEWSDESK_REQUIRE_NODE"):
                pytest.fail(why)
            pytest.skip(why)
        run = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=AXE_DIR,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, "npm ci in tests/axe failed:\n" + run.stderr
    return AXE_JS


@pytest.fixture(scope="module")
def browser():
    with launched_chromium() as b:
        yield b


@pytest.fixture
def pages(screens):
    """A page at each size, borrowed from the module's screens (each test its own server)."""
    with contextlib.ExitStack() as borrowed:
        made = {name: borrowed.enter_context(screens.page(size, timeout=WAIT)) for name, size in SIZES.items()}
        yield made
        errors = [e for page in made.values() for e in page.errors]
    assert not errors, errors


@pytest.fixture
def server(panel_server):
    return "http://127.0.0.1:%d" % panel_server


def preload_axe(context, axe_js):
    """axe-core in every page the context opens from now on, before the page's own scripts (it
    only adds ``window.axe``). Sent to Chromium once for the context, and compiled from V8's cache
    after the first page, rather than 550 KB sent and compiled after each navigation: that took
    about 0.2 s a page, two thirds of an audit's time."""
    if not getattr(context, "axe_preloaded", False):
        context.add_init_script(path=str(axe_js))
        context.axe_preloaded = True


def begin_audit(page, axe_js, within=None):
    """Start axe on the page as it is now (the whole document, or the part ``within`` selects);
    the pages of both sizes are audited at once, each in its own renderer."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_js))
    page.evaluate("""([within, tags]) => { window.axeFound = axe.run(within ? document.querySelector(within) : document,
        {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})
        .then(r => r.violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(" "))])); }""", [within, TAGS])


def audit_result(page):
    """The violations the audit begun on ``page`` found, [(id, help, [targets])]."""
    return [(vid, words, targets) for vid, words, targets in page.evaluate("() => window.axeFound")]


def report(where, violations):
    lines = []
    for vid, words, targets in violations:
        more = " and %d more" % (len(targets) - 8) if len(targets) > 8 else ""
        lines.append("%s: %s (%s): %s%s" % (where, vid, words, ", ".join(targets[:8]), more))
    return "\n".join(lines)


class Auditor:
    """Audits each page it is shown at both sizes and gathers every violation, so one run says
    everything that is wrong rather than the first thing."""

    def __init__(self, pages, axe_js):
        self.pages = pages
        self.axe_js = axe_js
        self.found = []
        self.audited = []
        for page in pages.values():
            preload_axe(page.context, axe_js)

    def visit(self, url, ready=None, then=None, label=None):
        for page in self.pages.values():
            page.goto(url)
            if ready:
                page.wait_for_function(ready)
            if then:
                then(page)
        self.check(label or url.split("/", 3)[-1] or "/")

    def check(self, where, within=None):
        """Audit both pages as they are now."""
        for page in self.pages.values():
            begin_audit(page, self.axe_js, within)
        for size, page in self.pages.items():
            violations = audit_result(page)
            self.audited.append("%s @%s" % (where, size))
            if violations:
                print(report("%s @%s" % (where, size), violations))
                self.found.append(report("%s @%s" % (where, size), violations))

    def assert_clean(self):
        assert self.audited
        assert not self.found, "axe-core found violations:\n" + "\n".join(self.found)


@pytest.fixture
def auditor(pages, axe_js):
    return Auditor(pages, axe_js)




# ---------------------------------------------------------------- games through the API

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]
LIVE = "document.getElementById('link') && document.getElementById('link').textContent === 'live'"


def start(client, engine, players, options=None):
    r = client.post("/api/games", json={"engine": engine, "options": options or {},
                                        "players": [{"name": n} for n in PLAYERS[:players]]}, headers=W)
    assert r.status_code == 201, r.get_data(as_text=True)


def current(client):
    return client.get("/api/games/current").get_json()["game"]


def act(client, action):
    r = client.post("/api/games/current/actions", json={"action": action, "version": current(client)["version"]},
                    headers=W)
    assert r.status_code == 200, (action, r.get_data(as_text=True))


def shown(version):
    return "document.body.dataset.version === '%d' && %s" % (version, LIVE)


GAMES = {
    # engine: (players, options, moves made through the API, what the screen shows then)
    "scoop1956": (3, {}, [{"type": "claim", "player": 0, "story_type": "sport"},
                          {"type": "verdict", "signal": "EXTRA", "digit": 5}], ".verdict-box"),
    "get_the_scoop": (4, {}, [], ".gts-board"),
    "scoop2002": (2, {}, [{"type": "move", "player": 0}, {"type": "roll", "player": 0, "value": 3},
                          {"type": "arrive", "player": 0, "place": 3}, {"type": "roll", "player": 0, "value": 3}],
                  ".locations"),
    "scan": (4, {"variant": "team"}, [{"type": "hand", "taken": {
        "Ann & Cat": {"spades": 10, "hearts": 5, "diamonds": 3, "clubs": 6},
        "Bob & Dan": {"spades": 3, "hearts": 8, "diamonds": 10, "clubs": 7}}}], "[data-num]"),
    "star_reporter": (3, {}, None, ".throw-box"),
}


def play_star_reporter(client):
    """Throw for who moves first (ties throw again), then the first player drives."""
    while current(client)["offers"][0]["type"] == "throw" and "method" not in current(client)["offers"][0]:
        act(client, {"type": "throw", "player": current(client)["offers"][0]["player"]})
    p = current(client)["offers"][0]["player"]
    act(client, {"type": "throw", "player": p, "method": "automobile"})


# ---------------------------------------------------------------- the audit

@pytest.mark.parametrize("engine", list(GAMES))
def test_the_table_screen_during_each_game_has_no_axe_violations(engine, client, server, auditor):
    players, options, moves, content = GAMES[engine]
    if engine == "star_reporter":
        from controller.games import registry
        try:
            registry.load("star_reporter")
        except registry.EngineUnavailable as e:
            pytest.skip(str(e))
    start(client, engine, players, options)
    if moves is None:
        play_star_reporter(client)
    else:
        for move in moves:
            act(client, move)
    version = current(client)["version"]
    auditor.visit(server + "/", ready=shown(version), label=engine,
                  then=lambda page: page.wait_for_selector("#game-area " + content))
    for size, page in auditor.pages.items():
        picture(page, "a11y-%s-%s.png" % (engine, size), full_page=True)
    auditor.assert_clean()


def test_scans_time_is_up_question_with_time_left_has_no_axe_violations(client, server, auditor):
    """SCAN's "Time is up" with time left on the countdown asks first: audited with the question
    and its answers showing."""
    ends = (datetime.now(timezone.utc) + timedelta(minutes=30)).isoformat()
    start(client, "scan", 4, {"variant": "team", "time_limit": 30, "ends_at": ends})

    def ask(page):
        page.click("#time-up")
        page.wait_for_selector("#time-up-question", state="visible")

    auditor.visit(server + "/", ready=shown(1), label="scan time is up, asked", then=ask)
    for size, page in auditor.pages.items():
        picture(page, "a11y-scan-time-up-%s.png" % size, full_page=True)
    auditor.assert_clean()


def test_the_scoop_claim_forms_with_reserve_cards_on_the_table_have_no_axe_violations(client, server, auditor):
    """While reserves hold cards, each SCOOP claim and advertisement asks where its cards come
    from (a select per offer, the ad's value beside it): audited as the turn shows them."""
    start(client, "scoop1956", 3)
    for move in ({"type": "reserve", "player": 0, "cards": 2, "space": 1},
                 {"type": "reserve", "player": 1, "cards": 1, "space": 2},
                 {"type": "exchange", "player": 2}):
        act(client, move)
    version = current(client)["version"]
    auditor.visit(server + "/", ready=shown(version), label="scoop1956 claims from the reserve",
                  then=lambda page: page.wait_for_selector("#game-area form.scoop-cards select"))
    for size, page in auditor.pages.items():
        picture(page, "a11y-scoop1956-reserve-%s.png" % size, full_page=True)
    auditor.assert_clean()


# Each drop-down's choices measured in its own font (DejaVu Sans here, as on the Pi) against the
# room its box leaves beside the arrow (20 px): a wider one is cut off mid-word, as "— (the last
# player, so the first plays" was on a phone.
CUT_CHOICES = """() => { const pen = document.createElement('canvas').getContext('2d'); const cut = [];
  for (const box of document.querySelectorAll('#game-area select')) {
    if (!box.getClientRects().length) continue;
    const s = getComputedStyle(box);
    pen.font = s.font;
    const room = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
    for (const o of box.options) if (pen.measureText(o.textContent).width > room) cut.push([box.id, o.textContent]);
  }
  return cut; }"""


def test_every_page_has_no_axe_violations(app, client, server, auditor):
    # the start form, for each game the box can start: the whole page once, then the form for each
    for page in auditor.pages.values():
        page.goto(server + "/")
        page.wait_for_function(LIVE)
        page.wait_for_selector("#start-game")
    auditor.check("start form")
    engines = auditor.pages["tablet"].eval_on_selector_all("input[name=engine]:not(:disabled)", "rs => rs.map(r => r.value)")
    assert len(engines) >= 5, engines
    cut = []
    for engine in engines:
        for page in auditor.pages.values():
            page.check("input[name=engine][value='%s']" % engine)
        auditor.check("start form: " + engine, within="#game-area")
        cut += [(engine, *choice) for choice in auditor.pages["phone"].evaluate(CUT_CHOICES)]
    assert not cut, "choices cut off at a phone's width: %r" % cut
    # a kept game (a short SCOOP, abandoned), then its page and the history
    start(client, "scoop1956", 2)
    act(client, {"type": "claim", "player": 0, "story_type": "sport"})
    r = client.post("/api/games/current/abandon", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200, r.get_data(as_text=True)
    kept = r.get_json()["id"]
    auditor.visit(server + "/games/%d" % kept, then=lambda page: page.wait_for_selector(".end-card .chart-box"))
    auditor.visit(server + "/history", then=lambda page: page.wait_for_selector("#history a"))
    auditor.visit(server + "/oracles")
    auditor.visit(server + "/workbench")
    auditor.visit(server + "/games/999999", label="not found")
    auditor.visit(server + "/join")
    auditor.visit(server + "/join/host")
    lan = lan_address()
    if lan and "newsdesk.security" in app.extensions:          # a phone that hasn't joined yet
        auditor.visit(server.replace("127.0.0.1", lan) + "/join", label="join (a guest)")
        auditor.visit(server.replace("127.0.0.1", lan) + "/", label="table (a guest)", ready=LIVE)
    auditor.assert_clean()


def test_the_players_statistics_scroll_by_keyboard_on_the_narrowest_phone(client, server, screens, axe_js):
    """At 320 px the players' table is wider than the page and scrolls inside its box: a box
    that scrolls must take the focus, or a keyboard can't read the columns past the edge (axe:
    scrollable-region-focusable), and must show the eye that it goes on."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                           "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
    r = client.post("/api/games/current/finish", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200, r.get_data(as_text=True)
    with screens.page({"width": 320, "height": 640}, timeout=WAIT) as page:
        preload_axe(page.context, axe_js)
        page.goto(server + "/history")
        box = page.locator("#stats").locator("xpath=..")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")        # it does scroll here
        begin_audit(page, axe_js)
        violations = audit_result(page)
        assert not violations, report("history @320", violations)
        picture(page, "history-320.png", full_page=True)
        # the eye sees it goes on: a band of the accent at the right edge, gone once the end is in
        # view (the words were cut, "Best, pe", with no sign); read with the table's ink made clear
        page.add_style_tag(content="#stats, #stats * { color: transparent !important; "
                                   "border-color: transparent !important; box-shadow: none !important; }")

        def right_edge():
            shot = Image.open(io.BytesIO(box.screenshot())).convert("RGB")
            return shot.getpixel((shot.width - 3, shot.height // 2))

        red, _, blue = right_edge()
        assert red - blue > 40, "no sign at the right edge that the table goes on: %r" % (right_edge(),)
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        red, _, blue = right_edge()
        assert abs(red - blue) < 20, "a sign of more at the right edge of the table's end: %r" % (right_edge(),)
        box.evaluate("b => { b.scrollLeft = 0; }")
        box.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle())


# Each target the selectors name, as it lies on the page: its own box, and the label row it
# stands in (a checkbox's words are part of its target).
TARGETS = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).map(e => {
  const own = e.getBoundingClientRect(), row = (e.closest('label') || e).getBoundingClientRect();
  return [e.id || e.textContent.trim().slice(0, 40), Math.round(own.width), Math.round(own.height), Math.round(row.height)]; })"""
SMALL = ("input[type=checkbox], input[type=radio], input[type=file], summary, a[download]")


def test_the_small_controls_are_24px_targets_on_a_phone(client, server, screens):
    """Targets under 24 px (WCAG 2.2, 2.5.8), found on a phone: History's "with the panel's secret
    key" checkbox (13 px, its label 20 px high) and its file field (21 px); the Workbench's
    "Download the recording" link (16 px); the end card's "The numbers, move by move" and "What
    happened" (20 px); the start form's checkboxes (13 px) and SCAN's variants, squeezed to 13 px
    wide by their words. Each is 24 px square at least, and a checkbox's label row as high."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                           "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
    r = client.post("/api/games/current/finish", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200, r.get_data(as_text=True)
    kept = r.get_json()["id"]
    found = []
    with screens.page({"width": 360, "height": 740}, timeout=WAIT) as page:
        def measure(where):
            found.extend((where, *t) for t in page.evaluate(TARGETS, SMALL))

        page.goto(server + "/")
        page.wait_for_function(LIVE)
        for engine in ("scoop2002", "scan"):
            page.check("input[name=engine][value='%s']" % engine)
            measure("start form: " + engine)
        page.goto(server + "/games/%d" % kept)
        page.wait_for_selector(".end-card .chart-box summary")
        measure("the end card")
        page.goto(server + "/history")
        page.wait_for_selector("#backup-secret")
        measure("history")
        page.goto(server + "/workbench")
        page.click("[data-sim=dial1]")
        page.wait_for_selector(".digit-test a[download]", timeout=15000)
        measure("workbench")
    places = {where.split(":")[0] for where, *_ in found}
    assert places == {"start form", "the end card", "history", "workbench"}, found
    assert any(name == "backup-secret" for _, name, *_ in found) and any(name == "restore-file" for _, name, *_ in found), found
    small = [t for t in found if min(t[2], t[3], t[4]) < 24]
    assert not small, "targets under 24 px (where, name, width, height, its row's height): %r" % small


def test_the_table_against_the_box_reads_as_the_players_table_does(client, server, auditor):
    """The Lonely City's N. Ickel, the box's reporter, is counted apart from the players in a
    table of his own: audited as the players' is, at every size."""
    start(client, "scoop2002", 1, {"variants": ["lonely_city"], "ickel_rolls": "table"})
    for _ in range(5):                  # N. Ickel sells a story a turn from Downtown, and wins
        for move in ({"type": "move", "player": 0}, {"type": "roll", "player": 0, "value": 1},
                     {"type": "arrive", "player": 0, "place": "street"}, {"type": "roll", "player": 0, "value": 2},
                     {"type": "roll", "player": 1, "value": 1}, {"type": "roll", "player": 1, "value": 3}):
            act(client, move)
    r = client.post("/api/games/current/finish", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200, r.get_data(as_text=True)
    auditor.visit(server + "/history", then=lambda page: page.wait_for_selector("#against-the-box"))
    for size, page in auditor.pages.items():
        picture(page, "a11y-history-against-the-box-%s.png" % size, full_page=True)
    auditor.assert_clean()


def test_the_strong_offer_keeps_its_contrast_under_the_pointer(server, auditor):
    """A tablet keeps :hover on the button last tapped (Start the game, refused; Finish; New
    game): its words must stay readable there too."""
    for page in auditor.pages.values():
        page.goto(server + "/")
        page.wait_for_function(LIVE)
        page.hover("#start-game")
    auditor.check("the start button under the pointer", within="#start-form")
    auditor.assert_clean()


def test_the_league_page_has_no_axe_violations(auditor):
    from werkzeug.serving import make_server

    from controller.mqtt.league import League
    from web_ui.league import create_league_app

    league = League()
    league.take("newsdesk/t1/state/game", json.dumps({"table": "Corner table", "game": {
        "id": 3, "engine": "scoop1956", "title": "SCOOP (Parker Brothers, 1956)", "version": 7, "unit": "$",
        "players": ["Ann", "Bob"], "leader": "Ann", "leaders": ["Ann"],
        "standings": [{"name": "Ann", "score": 3500, "winner": False}, {"name": "Bob", "score": 1200, "winner": False}]}}))
    league.take("newsdesk/t2/state/results", json.dumps({"table": "Window", "games": [
        {"id": 1, "title": "Get the Scoop! (2011)", "status": "finished", "standings": [
            {"name": "Cat", "score": 41, "winner": True}, {"name": "Ann", "score": 12, "winner": False}]}]}))

    class Still:
        version = 1

        def snapshot(self):
            return dict(league.snapshot(), version=1, broker="mqtt://b:1883", following="newsdesk/+",
                        connected=True, problem=None)

        def changed(self, after, timeout):
            return 1

    srv = make_server("127.0.0.1", 0, create_league_app(Still()), threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        for page in auditor.pages.values():
            page.route("**/api/league/stream", lambda route: route.abort())     # the picture served is enough
        auditor.visit("http://127.0.0.1:%d/" % srv.server_port, label="league",
                      then=lambda page: page.wait_for_selector("#tables li"))
    finally:
        for page in auditor.pages.values():
            page.unroute("**/api/league/stream")
        srv.shutdown()
    auditor.assert_clean()


# ---------------------------------------------------------------- the dial, for everyone

DIALED = """() => { window.dialed = [];
  document.querySelector('rotary-dial').addEventListener('dial', (e) => window.dialed.push(e.detail.digit)); }"""
IDLE = "() => !document.querySelector('rotary-dial')._busy"
FOCUSED = "() => { const a = document.activeElement; return a ? (a.getAttribute('aria-label') || a.id || a.textContent.trim()) : null; }"


def _fresh(page, url):
    page.goto(url)
    page.wait_for_function(LIVE)
    page.evaluate(DIALED)


def test_the_dial_works_by_keyboard_alone(server, pages, desk):
    """Tab reaches the dial once (a roving tabindex), the arrows go round it, Enter and Space dial."""
    page = pages["tablet"]
    _fresh(page, server + "/")
    for _ in range(80):                       # Tab through the page until a finger hole has focus
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED).startswith("Dial "):
            break
    assert page.evaluate(FOCUSED) == "Dial 1"
    assert page.eval_on_selector_all(".dial-hole", "hs => hs.filter(h => h.tabIndex === 0).length") == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == "Dial 3"
    picture(page.locator("rotary-dial"), "a11y-dial-focus.png")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 3'")
    page.wait_for_function(IDLE)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    page.wait_for_function(IDLE)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")          # round past the 1 to the 0
    assert page.evaluate(FOCUSED) == "Dial 0"
    page.keyboard.press("Enter")
    assert page.evaluate("window.dialed") == [3, 2, 0]
    # one tab stop: the hole last used; Tab leaves the dial, Shift+Tab comes back to that hole
    page.keyboard.press("Tab")
    assert not page.evaluate(FOCUSED).startswith("Dial ")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == "Dial 0"


def test_a_plain_click_or_a_tap_on_a_digit_dials_it_once(server, pages, browser):
    """A click with no pointer before it (a screen reader's, voice control's) dials; a mouse
    click and a finger's tap dial once, not twice."""
    page = pages["phone"]
    _fresh(page, server + "/")
    page.dispatch_event(".dial-hole[data-digit='5']", "click")
    assert page.evaluate("window.dialed") == [5]
    page.wait_for_function(IDLE)
    page.get_by_role("button", name="Dial 4", exact=True).click()
    page.wait_for_function(IDLE)
    assert page.evaluate("window.dialed") == [5, 4]
    assert page.evaluate(FOCUSED) == "Dial 4"
    touch = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    try:
        phone = touch.new_page()
        phone.set_default_timeout(WAIT)
        _fresh(phone, server + "/")
        phone.tap(".dial-hole[data-digit='8']")
        phone.wait_for_function(IDLE)
        assert phone.evaluate("window.dialed") == [8]
    finally:
        touch.close()


def test_the_dial_does_not_spin_for_reduced_motion_and_still_dials(server, pages):
    page = pages["tablet"]
    page.emulate_media(reduced_motion="reduce")
    try:
        _fresh(page, server + "/")
        page.evaluate("""() => { window.turns = [];
          new MutationObserver(() => window.turns.push(document.querySelector('.dial-wheel').getAttribute('transform')))
            .observe(document.querySelector('.dial-wheel'), {attributes: true}); }""")
        page.focus(".dial-hole[data-digit='1']")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")                     # the 0: the longest spin there is
        page.get_by_role("button", name="Dial 9", exact=True).click()
        page.keyboard.press("7")
        page.wait_for_function("document.getElementById('verdict-meta').textContent.startsWith('Dialed')")
        assert page.evaluate("window.dialed") == [0, 9, 7]          # no wait for a spin between digits
        turns = page.evaluate("window.turns")
        assert all(t is None or t.startswith("rotate(0 ") for t in turns), turns
    finally:
        page.emulate_media(reduced_motion="no-preference")


# ---------------------------------------------------------------- focus after a move

def test_focus_stays_with_the_controls_after_a_move_and_the_change_is_said(client, server, pages):
    start(client, "scoop1956", 2)
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    for _ in range(80):                       # by keyboard: Tab to the offer, Enter
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == "Claim a Sport story":
            break
    assert page.evaluate(FOCUSED) == "Claim a Sport story"
    page.keyboard.press("Enter")              # the offer goes: the editor's signals take its place
    page.wait_for_function(shown(2))
    # on the offers themselves, not on the signal that happens to stand where the claim stood: a
    # second Enter (a double press, a switch) recorded SYND there, a move nobody chose
    assert page.evaluate("document.activeElement.id") == "offers"
    # the move and what comes next, said politely as one sentence
    page.wait_for_function("document.getElementById('announce').textContent === 'Ann claimed a sport story. 1 move. ' "
                           "+ document.getElementById('waiting').textContent")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    page.wait_for_function("document.querySelector('#game-area [data-settling]') === null")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.version") == "2"         # Enter on the offers makes no move
    # the next move by keyboard alone: Tab to the first offer, Enter
    page.keyboard.press("Tab")
    assert page.evaluate("Boolean(document.activeElement.closest('.offers-card'))")
    page.keyboard.press("Enter")
    page.wait_for_function(shown(3))
    assert page.evaluate("document.activeElement.id") != "game-title"
    assert page.evaluate("Boolean(document.activeElement.closest('#game-area'))")


def test_letting_the_box_roll_instead_of_the_dice_button_keeps_the_focus_on_the_throw(client, server, pages, desk):
    """Star Reporter's "The next throw uses the dice button's 5 + 2: let the box roll instead":
    the button took its notice, and itself, away, and the focus fell to the page's top: a
    keyboard or a screen reader started the page over. The focus goes on to the throw."""
    if getattr(desk, "sim_buttons", None) is None:
        pytest.skip("this newsdesk has no simulated dice button")
    start(client, "star_reporter", 3)
    while current(client)["offers"][0]["type"] == "throw" and "method" not in current(client)["offers"][0]:
        act(client, {"type": "throw", "player": current(client)["offers"][0]["player"]})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(current(client)["version"]))
    page.click("#sim-dice")
    page.wait_for_selector("#forget-dice")
    page.focus("#forget-dice")
    page.keyboard.press("Enter")
    page.wait_for_selector("#forget-dice", state="detached")
    assert page.evaluate("document.activeElement.matches('#offers .offer-throw')"), page.evaluate(FOCUSED)
    assert page.evaluate(FOCUSED).startswith("By automobile"), page.evaluate(FOCUSED)


def test_the_same_words_under_another_heading_are_another_move_and_keep_no_focus(client, server, pages):
    """Scoop! (2002) with That's My Beat: Ann's "Stopwatch showed 3" is followed by Bob's roll,
    whose digits have the same names. The focus stayed on Bob's "3", and a second Enter (a
    double press, a switch) rolled his beat for him."""
    start(client, "scoop2002", 2, {"variants": ["thats_my_beat"]})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    page.get_by_role("button", name="Stopwatch showed 3", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_function(shown(2))
    assert "Bob rolls for a beat" in page.inner_text("#offers")
    assert page.evaluate("document.activeElement.id") == "offers", page.evaluate(FOCUSED)
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.version") == "2"         # Enter on the offers rolls nothing


def test_after_a_move_on_a_phone_what_has_the_focus_is_in_view(client, server, pages):
    """On a phone the focus stayed on the control used (or went to the offers) without bringing it
    into view: in Get the Scoop! each move's line in the log above pushed "Move the Journalist"
    up, and by the fifth move it was off the top of the screen."""
    start(client, "get_the_scoop", 4)
    page = pages["phone"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    where = """() => { const a = document.activeElement, f = a.id === 'offers' ? a.querySelector('button:not([disabled])') : a;
        const r = f.getBoundingClientRect(); return [f.textContent.trim().slice(0, 40), r.top, r.bottom, innerHeight]; }"""
    for version in range(1, 9):
        page.locator("#offers button:not([disabled])").first.click()
        page.wait_for_function(shown(version + 1))
        page.wait_for_function("document.querySelector('#game-area [data-settling]') === null")
        name, top, bottom, height = page.evaluate(where)
        assert -1 <= top and bottom <= height + 1, (version, name, top, bottom, height)


# ---------------------------------------------------------------- each change told once

HEARD = """() => { window.heard = [];
  for (const box of document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]'))
    new MutationObserver(() => { const t = box.textContent.trim(); if (t) window.heard.push([box.id, t]); })
      .observe(box, {childList: true, subtree: true, characterData: true}); }"""


def _told(page, words):
    """The live regions that said something holding ``words`` since HEARD was set up (a region
    emptied then filled again, as a repeat is made heard, counts once)."""
    return sorted({box for box, text in page.evaluate("window.heard") if words in text})


def _scan_heard(client, server, pages):
    """A team SCAN started, on the tablet's page, with every live region's words noted (HEARD)."""
    start(client, "scan", 4, {"variant": "team"})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    page.evaluate(HEARD)
    return page


def test_a_refusal_and_an_undo_are_each_told_once_and_a_refusal_goes_with_the_next_move(client, server, pages, desk):
    """A refusal shows as a red toast and is said at once; an undo shows as a toast and is said.
    Each is heard from one live region only: the toast was one itself, so a screen reader heard
    each of them twice. And a refusal's toast goes as soon as this page's next move is made,
    where it stayed its 9 s beside the move that followed (over SCAN's Finish button); so does
    the refusal in the assertive region, which still held it at the end screen. A move is one
    announcement, the move and what comes next together (two polite regions each said half).
    And Undo's "Took back ..." is heard when the handset's busy tone starts in the same moment:
    the busy sentence replaced it before a screen reader had it."""
    page = _scan_heard(client, server, pages)

    def hand(counts):
        for side, suits in enumerate(counts):
            for suit, n in zip(("spades", "hearts", "diamonds", "clubs"), suits):
                page.fill("#hand-%d-%s" % (side, suit), str(n))
        page.get_by_role("button", name="Score hand", exact=False).click()

    hand([(13, 0, 0, 0), (0, 0, 0, 0)])                        # 13 of the 26 cards: refused
    page.wait_for_selector("#toast.toast-bad:not([hidden])")
    refusal = page.inner_text("#toast")
    page.wait_for_function("words => window.heard.some(([, t]) => t.includes(words))", arg=refusal[:40])
    page.wait_for_timeout(300)                                  # a second region would have spoken by now
    assert _told(page, refusal[:40]) == ["alert"], page.evaluate("window.heard")
    # in the main landmark (axe's region rule), with room under the page to scroll its last
    # controls (Finish, Time is up) above it: it covered them
    assert page.evaluate("Boolean(document.getElementById('toast').closest('main'))")
    assert page.evaluate("document.body.classList.contains('toasting')")
    before = len(page.evaluate("window.heard"))
    hand([(10, 5, 3, 6), (3, 8, 10, 7)])
    page.wait_for_function(shown(2))
    assert page.is_hidden("#toast") or "toast-bad" not in page.get_attribute("#toast", "class")
    assert page.text_content("#alert") == ""
    page.wait_for_function("n => window.heard.length > n", arg=before)
    page.wait_for_timeout(300)                                  # a second region would have spoken by now
    move = page.evaluate("window.heard")[before:]
    assert len(move) == 1 and move[0][0] == "announce", move
    assert move[0][1].startswith("Hand 1: ") and "1 move. " in move[0][1], move

    # the handset lifted, and its busy tone starting as the undo's answer comes
    assert client.post("/api/sim/hook", json={"state": "off"}, headers=W).status_code == 202
    page.wait_for_function("document.body.dataset.hook === 'off'")
    page.evaluate("""() => { window.spoken = []; const box = document.getElementById('announce');
        new MutationObserver(() => { const t = box.textContent.trim(); if (t) window.spoken.push([t, performance.now()]); })
            .observe(box, {childList: true, subtree: true, characterData: true}); }""")
    busy = page.get_attribute("#hook-note", "data-busy")

    def undo_then_busy(route):
        answer = route.fetch()
        desk.bus.publish({"type": "phone.sound", "data": {"receiver": "busy", "ringing": False, "verdict": None, "resting": False}})
        route.fulfill(response=answer)

    page.route("**/api/games/current/undo", undo_then_busy)
    page.wait_for_function("document.querySelector('#game-area [data-settling]') === null")
    page.get_by_role("button", name="Undo", exact=False).first.click()
    page.wait_for_function(shown(3))
    page.wait_for_function("() => window.heard.some(([, t]) => /^Took back/.test(t))")
    page.wait_for_function("b => window.spoken.some(([t]) => t.includes(b))", arg=busy)
    page.wait_for_timeout(300)
    page.unroute("**/api/games/current/undo")
    assert _told(page, "Took back") == ["announce"], page.evaluate("window.heard")
    # what the region held stayed there long enough to be read (a frame and more) before other words
    # took its place: the undo's sentence was replaced in the same frame
    spoken = page.evaluate("window.spoken")
    for (_, at), (_, then) in zip(spoken, spoken[1:]):
        assert then - at >= 50, spoken


# ---------------------------------------------------------------- focus at a game's end

def test_after_a_hand_the_next_hands_first_field_has_focus_and_after_the_last_finish_has(client, server, pages):
    """SCAN by keyboard: a hand scored from its form puts the focus in the next hand's form (it
    stayed on the button below it, 16 Tabs from the first field), and the winning hand puts it on
    Finish, where it fell to the first control left (Undo: one Enter took the win back)."""
    start(client, "scan", 4, {"variant": "team"})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))

    def hand(counts, version):
        for side, suits in enumerate(counts):
            for suit, n in zip(("spades", "hearts", "diamonds", "clubs"), suits):
                page.fill("#hand-%d-%s" % (side, suit), str(n))
        page.get_by_role("button", name="Score hand", exact=False).focus()
        page.keyboard.press("Enter")
        page.wait_for_function(shown(version))
        page.wait_for_function("document.querySelector('#game-area [data-settling]') === null")

    hand([(10, 5, 3, 6), (3, 8, 10, 7)], 2)
    assert page.evaluate("document.activeElement.id") == "hand-0-spades"
    hand([(13, 13, 2, 0), (0, 0, 11, 13)], 3)                   # Ann & Cat past 155
    assert page.evaluate("document.activeElement.id") == "finish"


def test_a_game_finished_on_another_device_leaves_the_focus_on_the_end(client, server, pages):
    """The game ends while this page's focus is in it (another device finished it): the end
    card takes the focus, where it fell to the page's body with the controls it was on."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                           "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(2))
    page.focus("#undo")
    r = client.post("/api/games/current/finish", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200, r.get_data(as_text=True)
    page.wait_for_selector("#end-h")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'end-h'")
    # the heading the focus lands on says how the game ended, not only its title
    from playwright.sync_api import expect
    expect(page.locator("#end-h")).to_have_accessible_description("Ann and Cat won!")


def test_the_editors_verdict_and_a_roll_are_each_told_once_and_a_new_game_says_nothing_of_the_editor(client, server, pages, desk):
    """The editor's card was itself a live region, assertive: a new game's reset of it ("— No call
    to the editor in this game yet.") was cried out at every start, SCAN's and Star Reporter's
    too, which have no editor. A verdict is one polite announcement: in a game that takes it, its
    move and what comes next (the verdict was also cried out assertively, and what comes next
    said by a second polite region: three at once); else the editor's words. The dice's result,
    which sat in a polite region and was announced as well, is said once; the stopwatch's start,
    shown as "Stopwatch running…", was never said. After THREE STARS the two printed-value
    boxes, one for each story, were both named "Printed value ($)"."""
    if getattr(desk, "sim_buttons", None) is None:
        pytest.skip("this newsdesk has no simulated dice button")
    start(client, "scoop1956", 2)
    act(client, {"type": "claim", "player": 0, "story_type": "sport"})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(2))
    page.evaluate(HEARD)
    assert client.post("/api/sim/hook", json={"state": "off"}, headers=W).status_code == 202
    page.wait_for_function("() => window.heard.some(([, t]) => t.startsWith('Handset lifted'))")
    before = len(page.evaluate("window.heard"))
    assert client.post("/api/sim/dial", json={"digit": 3}, headers=W).status_code == 202
    page.wait_for_function(shown(3))
    page.wait_for_function("n => window.heard.length > n", arg=before)
    page.wait_for_timeout(400)                                  # a second region would have spoken by now
    verdict = page.evaluate("window.heard")[before:]
    assert len(verdict) == 1 and verdict[0][0] == "announce", verdict
    assert verdict[0][1].startswith("The editor said ") and " 2 moves. " in verdict[0][1], verdict

    # the same verdict entered by hand, THREE STARS: a box for each story, each named for its story
    assert client.post("/api/games/current/undo", json={"version": current(client)["version"]}, headers=W).status_code == 200
    act(client, {"type": "verdict", "signal": "THREE STARS", "digit": 3})
    page.wait_for_function(shown(current(client)["version"]))
    names = page.eval_on_selector_all("#offers input[type=number]", "xs => xs.map(x => x.labels[0].textContent)")
    assert names == ["Printed value of the Three Star story ($)", "Printed value of the sport story ($)"], names

    page.click("#sim-dice")
    page.wait_for_function("() => window.heard.some(([, t]) => t.startsWith('Dice:'))")
    page.click("#sim-stopwatch")
    page.wait_for_function("() => window.heard.some(([, t]) => t === 'Stopwatch running.')")
    page.click("#sim-stopwatch")
    page.wait_for_function("() => window.heard.some(([, t]) => t.startsWith('Stopwatch:'))")
    page.wait_for_timeout(400)
    assert _told(page, "Dice:") == ["announce"] and not _told(page, "Dice "), page.evaluate("window.heard")
    assert _told(page, "Stopwatch running") == ["announce"], page.evaluate("window.heard")
    assert not _told(page, "The editor says"), page.evaluate("window.heard")
    assert {box for box, _ in page.evaluate("window.heard")} == {"announce"}, page.evaluate("window.heard")
    r = client.post("/api/games/current/abandon", json={"version": current(client)["version"]}, headers=W)
    assert r.status_code == 200
    start(client, "scan", 4, {"variant": "team"})
    page.wait_for_function(shown(1))
    page.wait_for_timeout(400)
    assert not _told(page, "No call to the editor"), page.evaluate("window.heard")
    assert page.inner_text("#verdict-message") == "No call to the editor in this game yet."
    # a game that doesn't take the editor's calls: the editor's own words, politely, once
    assert client.post("/api/sim/dial", json={"digit": 5}, headers=W).status_code == 202
    page.wait_for_function("() => window.heard.some(([, t]) => t.startsWith('The editor says'))")
    page.wait_for_timeout(400)
    editor = [(box, t) for box, t in page.evaluate("window.heard") if t.startswith("The editor says")]
    assert len(editor) == 1 and editor[0][0] == "announce", editor


def test_lifting_the_handset_and_an_invitation_are_said(server, pages):
    """Two changes a screen reader heard nothing of: the handset lifted (from the page or the
    real phone), and an invitation's QR code appearing on the host's page."""
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(LIVE)
    page.evaluate(HEARD)
    page.get_by_role("button", name="Lift the handset").click()
    page.wait_for_function("() => window.heard.some(([, t]) => t === 'Handset lifted: it stays off the hook until you hang up.')")
    page.goto(server + "/join/host")
    page.evaluate(HEARD)
    page.get_by_role("button", name="Invite a player").click()
    page.wait_for_function("() => window.heard.some(([, t]) => t.startsWith('An invitation for a player is below'))")
    assert _told(page, "An invitation for a player") == ["announce"]
    # a tablet uses it: the page no longer shows it as good, and says who joined
    url = page.inner_text("#invite-url")
    token = url.split("token=")[1]
    lan = lan_address()
    if lan:
        import urllib.request
        port = int(server.rsplit(":", 1)[1])
        opener = urllib.request.build_opener(urllib.request.HTTPRedirectHandler())
        try:
            opener.open("http://%s:%d/join?token=%s" % (lan, port, token), timeout=10).read()
        except OSError:
            pass
    else:
        pytest.skip("no LAN address here for a second device to join from")
    page.wait_for_function("() => document.getElementById('invite-left').textContent.startsWith('Used: ')", timeout=10000)
    assert page.inner_text("#invite-qr") == "" and "Works once" not in page.inner_text("#invite")


# ---------------------------------------------------------------- a toast goes; the end leaves no stale news

WON = {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                 "Bob & Dan": {"diamonds": 11, "clubs": 13}}}
TOAST_UP = "!document.getElementById('toast').hidden"


def _undo_then_redo(page, version):
    """Undo and Redo by the page's own buttons (each says what it did in a toast); the version after."""
    page.get_by_role("button", name="Undo", exact=False).first.click()
    page.wait_for_function(shown(version + 1))
    page.get_by_role("button", name="Redo", exact=False).first.click()
    page.wait_for_function(shown(version + 2))
    page.wait_for_function("document.getElementById('toast').textContent.startsWith('Put back')")
    return version + 2


def _pause(page):
    """The page's clock stopped where it is (Playwright takes Unix time in seconds), a moment
    ahead, since it can only go forward: on a busy machine the moment can pass before the pause
    arrives ("Cannot fast-forward to the past"), and the next try looks further ahead."""
    from playwright.sync_api import Error
    for ahead in (50, 200, 800):
        try:
            page.clock.pause_at((page.evaluate("Date.now()") + ahead) / 1000)
            return
        except Error as e:
            if "to the past" not in str(e):
                raise
    raise AssertionError("the page's clock could not be paused 0.8 s ahead of it")


def test_a_toast_goes_after_a_time_its_length_asks_and_the_end_card_clears_it(client, server, browser):
    """After Undo then Redo in SCAN, Redo's toast ("Put back: hand 1: Ann & Cat took ...", some
    thirty words) replaced Undo's, then stayed through Finish onto the end card, over the middle
    of its chart. A toast stays long enough to read (4 s and 60 ms a word, capped), then goes;
    the end card takes any toast away, however the game ended."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, WON)
    context = browser.new_context(viewport=SIZES["tablet"])      # its own: the clock is faked in it
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.clock.install()
        page.goto(server + "/")
        page.wait_for_function(shown(2))
        version = _undo_then_redo(page, 2)
        assert page.locator("#toast").count() == 1
        text = page.inner_text("#toast")
        words = len(text.split())
        assert words > 20, text
        _pause(page)
        page.clock.run_for(5200)              # a long sentence is still there past 5 s ...
        assert page.evaluate(TOAST_UP), "a %d-word toast went within 5.2 s" % words
        assert page.evaluate("document.body.classList.contains('toasting')")
        page.clock.run_for(15000)             # ... and goes within the cap
        assert not page.evaluate(TOAST_UP), text
        assert not page.evaluate("document.body.classList.contains('toasting')")
        page.clock.resume()

        version = _undo_then_redo(page, version)
        _pause(page)
        assert page.evaluate(TOAST_UP)
        # Finish from another device: the end card this page draws from the live feed clears it
        # (this page's own Finish, a write that went through, drops the toast it showed before)
        r = client.post("/api/games/current/finish", json={"version": current(client)["version"]}, headers=W)
        assert r.status_code == 200, r.get_data(as_text=True)
        page.wait_for_selector("#end-h")
        assert not page.evaluate(TOAST_UP), page.inner_text("#toast")
        assert not page.evaluate("document.body.classList.contains('toasting')")
    finally:
        context.close()


def test_after_finish_the_page_holds_no_sentence_asking_for_finish(client, server, pages):
    """What the next move waits for is said in the polite live region: after Finish, the end
    card's page still said "Ann and Cat won! Finish to keep the result." in it."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, WON)
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(2))
    _undo_then_redo(page, 2)
    page.wait_for_function("document.getElementById('announce').textContent.includes('Finish to keep the result')")
    page.wait_for_function("document.querySelector('#game-area [data-settling]') === null")
    page.click("#finish")
    page.wait_for_selector("#end-h")
    assert "Finish to keep" not in page.text_content("main")
    assert page.text_content("#announce") == "" and page.text_content("#alert") == ""


def test_scans_time_running_out_is_said_once_politely_and_not_again_when_the_game_is_drawn_again(client, server, pages):
    """The countdown is a timer no screen reader follows (aria-live off, or it would speak every
    second), so "Time is up" changed on the page unheard. It is said once, politely (#announce),
    as the countdown reaches zero; a move after it draws the game again and says only the move."""
    ends = (datetime.now(timezone.utc) + timedelta(seconds=3)).isoformat()
    start(client, "scan", 4, {"variant": "team", "time_limit": 30, "ends_at": ends})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    page.evaluate("""() => { window.said = []; const polite = document.getElementById('announce');
        new MutationObserver(() => { if (polite.textContent) window.said.push(polite.textContent); })
            .observe(polite, {childList: true, characterData: true, subtree: true}); }""")
    time_up = "Time is up: tap “Time is up” to end the game."
    page.wait_for_function("t => window.said.includes(t)", arg=time_up, timeout=WAIT)
    assert page.text_content(".countdown") == time_up
    assert page.get_attribute(".countdown", "aria-live") == "off"          # the seconds stay unsaid
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                           "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
    page.wait_for_function(shown(2))
    page.wait_for_function("t => window.said.some((s) => s !== t)", arg=time_up, timeout=WAIT)    # the move, said
    assert page.text_content(".countdown") == time_up
    said = page.evaluate("window.said")
    assert said.count(time_up) == 1 and not any(s.startswith("Time left") for s in said), said


def test_scans_count_of_cards_entered_is_said_when_typing_pauses_and_agrees_with_its_number(client, server, pages):
    """SCAN's hand form counts the cards entered: its "N cards entered; this game takes 52." was a
    polite live region, said at every key (eight times for four fields) and "1 cards" for one.
    It shows at every key and is said once typing pauses."""
    page = _scan_heard(client, server, pages)
    counted = "() => window.heard.filter(([, t]) => t.includes(' entered; ')).map(([box, t]) => [box, t])"

    def type_in(field, digits):
        page.focus(field)
        page.keyboard.press("Control+A")
        page.keyboard.type(digits)

    type_in("#hand-0-spades", "1")
    page.wait_for_function(counted + ".length > 0")
    for field, digits in (("#hand-0-hearts", "12"), ("#hand-1-spades", "10"), ("#hand-1-hearts", "3")):
        type_in(field, digits)
    assert page.inner_text(".hand-form p.small").startswith("26 cards entered; ")     # shown at once
    page.wait_for_function(counted + ".length > 1")
    page.wait_for_timeout(1500)                                 # a pause: nothing more to say
    said = page.evaluate(counted)
    assert [box for box, _ in said] == ["announce", "announce"], said
    assert said[0][1].startswith("1 card entered; this game takes ") and said[1][1].startswith("26 cards entered; "), said


# From the page's first script on: every live region's words as they change, with its id (a region
# emptied then filled again, as a repeat is made heard, records the words once more).
HEARD_FROM_THE_START = """window.heard = [];
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]'))
    new MutationObserver(() => { const t = box.textContent.trim(); if (t) window.heard.push([box.id, t]); })
      .observe(box, {childList: true, subtree: true, characterData: true}); });"""


def test_scans_time_already_up_is_said_once_politely_to_a_page_opened_after_it_and_not_again_when_drawn_again(
        client, server, browser):
    """A page opened (or reloaded) after a SCAN game's countdown ended showed "Time is up" on its
    timer, which no screen reader follows, and said nothing: only a page open as the countdown
    crossed zero said it, so a screen-reader player who opened the panel late never heard that
    the time was up. Such a page says it once, politely (#announce), in the running page's words;
    a move from another device draws the game again and says only the move; a reload is a new
    page and says it once again."""
    ends = (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat()
    start(client, "scan", 4, {"variant": "team", "time_limit": 30, "ends_at": ends})
    time_up = "Time is up: tap “Time is up” to end the game."
    context = browser.new_context(viewport=SIZES["tablet"])      # its own: a script runs before the page's
    try:
        context.add_init_script(HEARD_FROM_THE_START)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        page.wait_for_function(shown(1))
        assert page.text_content(".countdown") == time_up
        assert page.get_attribute(".countdown", "aria-live") == "off"
        told = "t => window.heard.some(([box, s]) => box === 'announce' && s === t)"
        try:
            page.wait_for_function(told, arg=time_up, timeout=3000)
        except Exception:
            raise AssertionError("a page opened after the time ran out never said %r; its live regions said %r"
                                 % (time_up, page.evaluate("window.heard"))) from None
        act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                               "Bob & Dan": {"diamonds": 11, "clubs": 13}}})
        page.wait_for_function(shown(2))
        page.wait_for_function("t => window.heard.some(([box, s]) => box === 'announce' && s !== t)",
                               arg=time_up)                                  # the move, said
        assert page.text_content(".countdown") == time_up
        heard = page.evaluate("window.heard")
        assert [box for box, s in heard if s == time_up] == ["announce"], heard
        assert not any(time_up in s and s != time_up for box, s in heard), heard

        page.reload()                                                        # a new page: said once more
        page.wait_for_function(shown(2))
        page.wait_for_function(told, arg=time_up)
        heard = page.evaluate("window.heard")
        assert [box for box, s in heard if s == time_up] == ["announce"], heard
        assert not errors, errors
    finally:
        context.close()


def test_the_confirm_questions_safe_answer_shows_its_focus_after_a_tap_and_comes_first(client, server, pages):
    """SCAN's "Time is up" with time left, and Abandon, ask with "No, keep playing" focused. After
    a tap the focus wore no outline (only :focus-visible had one) while "Yes, end the game now"
    wore the strong border, so the table could take Yes for the default; and Yes came first in
    the page, so Tab from No went on to "Abandon game…" rather than to Yes."""
    ends = (datetime.now(timezone.utc) + timedelta(minutes=30)).isoformat()
    start(client, "scan", 4, {"variant": "team", "time_limit": 30, "ends_at": ends})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(1))
    ring = """() => { const s = getComputedStyle(document.activeElement);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"""
    for ask, no, yes in (("#time-up", "time-up-no", "time-up-yes"), ("#abandon", "abandon-no", "abandon-yes")):
        page.click(ask)                                     # a pointer, not a key
        page.wait_for_selector("#" + no, state="visible")
        assert page.evaluate("document.activeElement.id") == no
        assert page.evaluate(ring), "the focused %s shows no outline after a tap" % no
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == yes
        page.keyboard.press("Escape")
        assert page.evaluate("document.activeElement.id") == ask[1:]


def test_abandoning_asks_in_words_and_ends_with_no_places_and_its_name_on_the_other_device(client, server, pages):
    """Abandon asked with its two answers alone; the abandoned game's table ranked a "1st" as a
    result would; and the other tablet's start form, after its New game, said "Last game: ,
    abandoned" (the live feed's end carried no title)."""
    start(client, "scan", 4, {"variant": "team"})
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 10, "hearts": 5, "diamonds": 3, "clubs": 6},
                                           "Bob & Dan": {"spades": 3, "hearts": 8, "diamonds": 10, "clubs": 7}}})
    here, there = pages["tablet"], pages["phone"]
    for page in (here, there):
        page.goto(server + "/")
        page.wait_for_function(shown(2))
    here.click("#abandon")
    question = here.locator("#abandon-question")
    assert question.is_visible() and question.inner_text().startswith("Abandon this game?")
    assert "abandon-question" in here.get_attribute("#abandon-no", "aria-describedby")
    here.click("#abandon-yes")
    for page in (here, there):
        page.wait_for_function("(document.getElementById('winner') || {}).textContent === 'Abandoned: no winner.'")
        page.wait_for_selector(".final-table tbody tr")
        table = page.inner_text(".final-table")
        assert "1st" not in table and "Where it stood when it was abandoned" in table, table
    there.click("#new-game")
    there.wait_for_selector("#start-form")
    assert "Last game: SCAN (Parker Brothers, 1988), abandoned" in there.inner_text("#start-form")


def test_each_points_box_has_its_own_name_and_a_refusal_is_shown_once(client, server, pages):
    """Star Reporter after a throw with two Disasters and the Catastrophe open: every points box
    was named "Points on the card". Each is named for its card now (the offer's "labels"), and
    a refused submit shows its sentence once, under the form where the focus goes (it was a
    toast as well)."""
    from controller.games import registry
    try:
        registry.load("star_reporter")
    except registry.EngineUnavailable as e:
        pytest.skip(str(e))
    start(client, "star_reporter", 3, {"disasters": 2, "first": 0})
    for seat in (0, 1, 2):                                  # double sixes: two Disasters, then the Catastrophe
        act(client, {"type": "throw", "player": seat, "method": "automobile", "dice": [6, 6]})
    act(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]})
    page = pages["tablet"]
    page.goto(server + "/")
    page.wait_for_function(shown(current(client)["version"]))
    names = page.evaluate("""() => [...document.querySelectorAll('#offers input[type=number]')]
        .map(e => [e.closest('form').querySelector('button[type=submit]').textContent, e.labels[0].textContent])""")
    singles = [label for button, label in names if "too" not in button]
    assert singles == ["Points on the News card", "Points on Disaster #1", "Points on Disaster #2",
                       "Points on the Catastrophe card"], names
    assert [label for button, label in names if "too" in button] == [
        "Points on the Catastrophe card, with the News card", "Points on the News card, with the Catastrophe",
        "Points on the Catastrophe card, with Disaster #1", "Points on Disaster #1, with the Catastrophe",
        "Points on the Catastrophe card, with Disaster #2", "Points on Disaster #2, with the Catastrophe",
        "Points on the Catastrophe card, with the News card and Disaster #1",
        "Points on the News card, with the Catastrophe and Disaster #1",
        "Points on Disaster #1, with the Catastrophe and the News card",
        "Points on the Catastrophe card, with the News card and Disaster #2",
        "Points on the News card, with the Catastrophe and Disaster #2",
        "Points on Disaster #2, with the Catastrophe and the News card"], names
    # the Disaster's own box (the Catastrophe at its city too asks for its points as well)
    box = page.locator("form:has(button:text-is('Reached Disaster #2'))").get_by_role(
        "spinbutton", name="Points on Disaster #2", exact=True)
    assert box.count() == 1
    box.locator("xpath=ancestor::form").get_by_role("button").click()     # empty: the box refuses it
    page.wait_for_function("document.activeElement.getAttribute('aria-invalid') === 'true'")
    problem = page.locator("#offers .field-problem:not([hidden])")
    assert problem.count() == 1 and "Disaster" in problem.inner_text(), problem.all_inner_texts()
    page.wait_for_timeout(300)                                  # a toast would be up by now
    assert page.is_hidden("#toast"), page.inner_text("#toast")


# ---------------------------------------------------------------- the host removes a device

def test_removing_a_device_leaves_the_focus_on_the_list_not_the_page(app, server, pages):
    """After Remove and its question, the list was drawn anew and the focus fell to the page's
    body: a keyboard user started again from the top. It goes to the button that took the removed
    one's place (and a redraw every few seconds keeps it where it was)."""
    from web_ui.security import guard

    devices = guard(app).devices
    for address in ("10.0.0.21", "10.0.0.22"):
        token, _ = devices.issue_token("player", "host", ttl=600)
        devices.redeem(token, "Tablet", address)
    page = pages["tablet"]
    page.goto(server + "/join/host")
    page.wait_for_function("document.querySelectorAll('#devices button[data-revoke]').length === 2")
    page.on("dialog", lambda dialog: dialog.accept())
    first = page.locator("#devices button[data-revoke]").first
    first.focus()
    first.press("Enter")
    page.wait_for_function("document.querySelectorAll('#devices button[data-revoke]').length === 1")
    page.wait_for_function("document.activeElement && document.activeElement.matches('#devices button[data-revoke]')")
    left = page.locator("#devices button[data-revoke]").get_attribute("aria-label")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == left
