"""The oracles page ("are these dice fair?"): what it carries at load, its place in the nav, its
weight, and in a real browser its tables (captions, headers, a face outside its fair range said
in words) and their update when a roll arrives on the stream, at phone and tablet sizes."""

import json
from html.parser import HTMLParser

import pytest
from conftest import launched_chromium, page_assets, picture, unversioned

from web_ui.server import InThread

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
WAIT = 10000      # ms: generous for a loaded machine; conditions, never sleeps
WRITE = {"X-Newsdesk": "1"}


class LoadedDie:
    """A random source that always gives the highest face: what the page is there to catch."""

    def randrange(self, n):
        return n - 1


EARLIER = 5         # 1d6 rolls kept from an earlier evening: all time, not this session


@pytest.fixture
def desk(config, mock_factory):
    """The box started again after an evening that rolled 1d6 (then set the dice back to 2d6)."""
    from controller.app import Newsdesk
    first = Newsdesk(config, pin_factory=mock_factory)
    try:
        first.oracles.set_dice("1d6")
        for _ in range(EARLIER):
            first.oracles.roll()
        first.oracles.set_dice("2d6")
    finally:
        first.close()
    nd = Newsdesk(config, pin_factory=mock_factory)
    yield nd
    nd.close()


def boot_of(html):
    return json.loads(html.split('<script type="application/json" id="boot">', 1)[1].split("</script>", 1)[0])


@pytest.mark.slow
def test_the_page_carries_each_oracles_history_and_distributions(client, desk):
    rolls = [desk.oracles.roll() for _ in range(3)]
    desk.table.call_editor(4)
    r = client.get("/oracles")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Are these dice fair?" in html and 'id="oracles"' in html
    boot = boot_of(html)
    assert boot["lastEventId"] == desk.store.last_id()
    found = boot["oracles"]
    dice = [e["id"] for e in found["history"]["dice"]]
    assert dice[:3] == [e.id for e in reversed(rolls)] and len(dice) == 3 + EARLIER        # newest first
    assert found["history"]["stopwatch"] == []
    assert found["history"]["editor"][0]["data"]["digit"] == 4
    groups = {g["label"]: g for g in found["distributions"]["groups"]}
    assert groups["2d6: each die's faces"]["all_time"]["n"] == 6
    assert groups["2d6: totals"]["session"]["n"] == 3
    assert groups["1d6: each die's faces"]["session"]["n"] == 0
    assert groups["1d6: each die's faces"]["all_time"]["n"] == EARLIER
    editor = next(g for g in groups.values() if g["oracle"] == "editor")
    if editor["mode"] == "mechanical":
        assert "each signal comes up with its share of the disc's windows" in editor["note"]


@pytest.mark.slow
def test_every_page_links_to_it(client):
    for path in ("/", "/history", "/oracles"):
        assert '<a href="/oracles">Odds</a>' in client.get(path).get_data(as_text=True), path


@pytest.mark.slow
def test_a_device_that_has_not_joined_may_look(app):
    r = app.test_client().get("/oracles", environ_base={"REMOTE_ADDR": "192.0.2.77"})
    assert r.status_code == 200 and boot_of(r.get_data(as_text=True))["canWrite"] is ("newsdesk.security" not in app.extensions)


@pytest.mark.slow
def test_without_the_oracles_the_page_says_so(client, desk):
    oracles = desk.oracles
    desk.oracles = None
    try:
        html = client.get("/oracles").get_data(as_text=True)
    finally:
        desk.oracles = oracles
    assert boot_of(html)["oracles"] is None
    assert "aren't set up on this box" in html


class _Audit(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = []
        self.tags = set()
        self.lang = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "html":
            self.lang = a.get("lang")


@pytest.mark.slow
def test_the_page_has_a_language_landmarks_and_unique_ids(client):
    audit = _Audit()
    audit.feed(client.get("/oracles").get_data(as_text=True))
    assert audit.lang == "en" and {"main", "nav", "header"} <= audit.tags
    assert len(audit.ids) == len(set(audit.ids))


@pytest.mark.slow
def test_the_page_and_all_its_assets_weigh_under_200_kb(client):
    """Uncompressed: the HTML, the stylesheet and every module it imports, followed import by import."""
    assets = page_assets(client, "/oracles")
    assert {"/static/js/oracles.js", "/static/js/panel.js"} <= unversioned(assets)
    total = sum(len(body) for body in assets.values())
    assert total < 200 * 1024, total


# ---------------------------------------------------------------- in a real browser


@pytest.fixture
def server(app):
    """The panel served as `newsdesk serve` serves it, on a free loopback port."""
    srv = InThread(app)
    yield "http://127.0.0.1:%d" % srv.port
    srv.close()


@pytest.fixture
def chromium():
    with launched_chromium() as b:
        yield b


SESSION_FACES = "#oracles table[data-oracle='dice'][data-scope='session']"


@pytest.mark.browser
def test_the_counts_update_live_when_the_dice_button_is_pressed(chromium, server, desk, monkeypatch):
    monkeypatch.setattr(desk.oracles, "_rng", LoadedDie())          # every die shows 6
    for _ in range(12):
        desk.oracles.roll()
    for t in (1.0, 1.37):
        desk.oracles.stopwatch_press(t)
    for digit in (1, 4, 7):
        desk.table.call_editor(digit)
    errors = []
    context = chromium.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: errors.append("%d %s" % (r.status, r.url)) if r.status >= 400 else None)
        page.goto(server + "/oracles")
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        page.evaluate("window.notReloaded = true")

        earlier = page.locator("#oracles table[data-oracle='dice'][data-scope='all_time']")
        assert earlier.count() == 1 and earlier.get_attribute("data-n") == str(EARLIER)     # 1d6, all time
        assert "All time" in earlier.locator("caption").inner_text()
        faces = page.locator(SESSION_FACES).first        # 2d6: each die's faces
        assert faces.get_attribute("data-n") == "24"
        assert "This session" in faces.locator("caption").inner_text()
        assert faces.locator("thead th[scope='col']").count() == 5
        assert faces.locator("tbody th[scope='row']").count() == 6
        six = faces.locator("tr[data-face='6']")
        assert "▲ too many" in six.inner_text()                         # in words, not colour alone
        assert "▼ too few" in faces.locator("tr[data-face='1']").inner_text()
        assert "outside the fair range" in six.text_content()             # and so for a screen reader
        sections = page.locator("[data-oracle='dice'] .odds-group h3")
        # the dice in a table's words, as the sidebar says them ("2d6" alone was jargon), and the
        # stopwatch in its own mode without "Stopwatch (stopwatch)"
        assert sections.all_inner_texts() == ["Two 6-sided dice (2d6): each die's faces", "Two 6-sided dice (2d6): totals",
                                              "One 6-sided die (1d6): each die's faces"]
        assert page.locator("[data-oracle='stopwatch'] .odds-group h3").first.inner_text() == "Stopwatch: the digit rolled"
        # 24 faces are too few for a verdict, however lopsided: the page says how many more it needs
        assert "Too few draws to judge: 6 more needed" in page.locator(
            "[data-oracle='dice'] .verdict-line").first.inner_text()
        assert "disc's windows" in page.locator("[data-oracle='editor'] .note").first.inner_text()
        assert page.locator("[data-oracle='stopwatch'] .rolls li").first.inner_text().startswith("7")
        newest = page.locator("[data-oracle='dice'] .rolls li").first.get_attribute("data-event-id")
        picture(page, "oracles-phone.png", full_page=True)

        r = page.request.post(server + "/api/oracles/sim/dice", headers=WRITE, data={})
        assert r.status == 202, r.text()
        page.wait_for_function("sel => document.querySelector(sel).dataset.n === '26'", arg=SESSION_FACES, timeout=WAIT)
        page.wait_for_function("n => document.querySelector(\"[data-oracle='dice'] .rolls li\").dataset.eventId !== n",
                               arg=newest, timeout=WAIT)
        assert six.locator("[data-count]").inner_text() == "26"
        assert "changed" in six.locator("[data-count]").get_attribute("class")
        assert page.locator(SESSION_FACES).last.get_attribute("data-n") == "13"        # 2d6: totals
        assert page.evaluate("window.notReloaded") is True
        # no sideways scrolling at 360 px: a wide table scrolls in its own box
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        page.set_viewport_size(TABLET)
        picture(page, "oracles-tablet.png", full_page=True)
    finally:
        context.close()
    assert errors == []
