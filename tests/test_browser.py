"""The panel in a real browser: Debian's Chromium, driven by Playwright, against waitress."""

import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

pytestmark = pytest.mark.browser


def _need_browser():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "playwright is not installed"
    else:
        if shutil.which(CHROMIUM) or os.path.exists(CHROMIUM):
            return
        reason = "Debian's chromium is not installed (apt-get install chromium)"
    if os.environ.get("NEWSDESK_REQUIRE_BROWSER"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def server(app):
    """The panel served by waitress on a free loopback port, as `newsdesk serve` does."""
    from waitress import create_server
    srv = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % int(srv.effective_port)
    srv.close()
    thread.join(timeout=5)


@pytest.fixture
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update"])
        yield b
        b.close()


def test_dialing_on_one_tablet_shows_the_verdict_on_another(server, browser, desk):
    ARTIFACTS.mkdir(exist_ok=True)
    watcher = browser.new_page(viewport={"width": 1024, "height": 768})
    dialer = browser.new_page(viewport={"width": 360, "height": 740})
    requests = []
    for page in (watcher, dialer):
        page.on("request", lambda r: requests.append(r.url))
        page.goto(server + "/")
    for page in (watcher, dialer):
        page.wait_for_function("document.getElementById('link').textContent === 'live'")
    assert "Simulated hardware" in dialer.inner_text("#hardware")

    dialer.focus("rotary-dial")
    dialer.keyboard.press("7")
    watcher.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 7'",
                              timeout=10000)
    signal = watcher.inner_text("#verdict-signal")
    assert signal == desk.store.latest("editor.verdict")[0].payload["signal"]
    dialer.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 7'")
    assert watcher.inner_text("#calls li:first-child .call-signal") == signal
    watcher.screenshot(path=str(ARTIFACTS / "panel-1024.png"), full_page=True)
    dialer.screenshot(path=str(ARTIFACTS / "panel-360.png"), full_page=True)

    # No horizontal scrolling on a phone, and nothing fetched from anywhere but the Pi.
    assert dialer.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert all(url.startswith(server) for url in requests), [u for u in requests if not u.startswith(server)]


def test_the_verdict_is_still_there_after_a_reload(server, browser, desk):
    event = desk.table.call_editor(3)
    page = browser.new_page()
    page.goto(server + "/")
    assert page.inner_text("#verdict-signal") == event.payload["signal"]
    assert page.inner_text("#verdict-meta") == "Dialed 3"
