"""The panel as an installed app, in Debian's Chromium: installable by Chromium's own check, and,
with its service worker, an offline page when the box can't be reached that never shows a
stale game, and the live page again once the box is back (web_ui/app_shell.py, web_ui/static/sw.js).

Served on loopback, as the box's own screen is: a secure context, where the worker may run."""

import pytest
from conftest import CHROMIUM_ARGS, FULL_CHROMIUM, launched_chromium, need_browser, worker_playwright

from web_ui.server import InThread

WAIT = 15000  # ms: generous for a loaded CI machine; conditions, never sleeps
PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def playwright():
    return worker_playwright()


@pytest.fixture(scope="module")
def browser():
    with launched_chromium(service_workers="allow") as b:
        yield b


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def _worker_in_charge(page):
    """Wait until the service worker is installed (its cache filled) and controls the page."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=WAIT)
    return page.evaluate("caches.keys()")


def test_chromium_finds_nothing_in_the_way_of_installing_the_panel(app, playwright, tmp_path):
    """A profile of its own, as a tablet's browser has: Chromium installs nothing from an incognito
    context (Playwright's new_context), which its check reports as the one error. The full
    browser, not the headless build the other browser tests drive: installing is its business."""
    need_browser(FULL_CHROMIUM)
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=FULL_CHROMIUM, headless=True, args=CHROMIUM_ARGS, viewport={"width": 1024, "height": 768})
    page = context.pages[0] if context.pages else context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with InThread(app) as srv, context:
        page.goto("http://127.0.0.1:%d/" % srv.port)
        _worker_in_charge(page)
        cdp = page.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    assert errors == []


def test_offline_the_box_cant_be_reached_page_never_a_stale_board_and_back_live_after(app, page):
    srv = InThread(app)
    port = srv.port
    base = "http://127.0.0.1:%d" % port
    try:
        page.goto(base + "/")
        kept = _worker_in_charge(page)
        assert len(kept) == 1 and kept[0].startswith("newsdesk-")
        started = page.evaluate("""(players) => fetch('/api/games', {method: 'POST',
            headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
            body: JSON.stringify({engine: 'scan', players})}).then(r => r.status)""", PLAYERS)
        assert started == 201
        page.reload()
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        assert "Dan" in page.inner_text("#game-area")          # the board, live
        kept = page.evaluate("""(name) => caches.open(name).then(c => c.keys())
            .then(keys => keys.map(r => new URL(r.url).pathname))""", kept[0])
        version = app.extensions["newsdesk.assets"].version
        assert "/offline" in kept and "/static/%s/js/panel.js" % version in kept
        # nothing else: no page, no /api/ answer, no stream, however much the page read meanwhile
        assert [p for p in kept if p != "/offline" and not p.startswith("/static/%s/" % version)] == []
        srv.close()
        srv = None

        page.reload()                                          # the box is gone
        page.wait_for_selector("#offline", timeout=WAIT)
        assert "can't be reached" in page.text_content("#offline-h")
        assert page.query_selector("#game-area") is None and "Dan" not in page.inner_text("body")
        # styled by panel.css from the worker's cache (the browser's default dark is another grey)
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 22, 26)"
        page.goto(base + "/history")                           # any page: the offline page, not a copy
        page.wait_for_selector("#offline", timeout=WAIT)

        page.goto(base + "/")
        page.wait_for_selector("#offline", timeout=WAIT)
        srv = InThread(app, port=port)                         # the box is back: the page returns on its own
        page.wait_for_selector("#game-area", timeout=WAIT)
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        assert "Dan" in page.inner_text("#game-area")
    finally:
        if srv is not None:
            srv.close()
    assert page.errors == []
