"""A new release under a page left open (web_ui/release.py, web_ui/static/js/release.js), in
Debian's Chromium against the panel as `newsdesk serve` serves it: the box is updated and
restarted under the open page, which waits while a form is half-filled (and says a new version is
ready), and reloads itself into the new release once the table is quiet."""

import re
import shutil

import pytest
from conftest import REPO, launched_chromium
from test_app_shell import STATIC

from web_ui import assets, release
from web_ui.server import InThread

WAIT = 10000    # ms: generous for a loaded machine; conditions, never sleeps
SOURCE = (REPO / "web_ui" / "static" / "js" / "release.js").read_text(encoding="utf-8")
QUIET_MS, CHECK_EVERY = (int(re.search(r"const %s = (\d+);" % name, SOURCE).group(1)) for name in ("QUIET_MS", "CHECK_EVERY"))
MINE = "document.querySelector('meta[name=\"%s\"]').content" % release.META

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Box:
    """The panel on one port, restarted by the test as an update restarts it: the server stops,
    the static files are read again (changed, when the update changed them), it serves again."""

    def __init__(self, app, folder):
        self.app = app
        self.folder = folder
        self.server = InThread(app, host="127.0.0.1")
        self.port = self.server.port

    def update(self, words):
        """Stop, change panel.css (a release's new looks), start again on the same port."""
        self.server.close()
        css = self.folder / "css" / "panel.css"
        css.write_text(css.read_text(encoding="utf-8") + "/* %s */\n" % words, encoding="utf-8")
        self.app.extensions[assets.EXTENSION] = assets.Assets(self.folder)
        self.server = InThread(self.app, host="127.0.0.1", port=self.port)
        return release.current(self.app)

    def close(self):
        self.server.close()


@pytest.fixture
def box(app, tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    app.extensions[assets.EXTENSION] = assets.Assets(folder)
    b = Box(app, folder)
    yield b
    b.close()


def _open(page, port):
    page.goto("http://127.0.0.1:%d/" % port)
    page.wait_for_function("document.querySelector('#link').textContent === 'live'", timeout=WAIT)
    page.evaluate("window.loadedBefore = true")      # gone once the page has reloaded


def test_an_open_page_waits_for_a_half_filled_form_then_reloads_into_the_new_release(box):
    with launched_chromium() as browser:
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        _open(page, box.port)
        first = page.evaluate(MINE)
        name = page.locator("#start-form input[type=text]").first
        name.fill("Ann")                                  # a player's name typed, the form not sent
        page.evaluate("window.filledAt = performance.now()")
        page.evaluate("document.activeElement.blur()")    # the keyboard put away: only the form holds it

        second = box.update("the next release")
        assert second != first
        page.wait_for_selector("#new-release", state="visible", timeout=WAIT)
        assert "new version" in page.inner_text("#new-release")
        # longer than the page waits after a touch, and a few of its looks for quiet since
        page.wait_for_function("window.filledAt === undefined || performance.now() - window.filledAt > %d"
                               % (QUIET_MS + 3 * CHECK_EVERY), timeout=WAIT)
        assert page.evaluate("window.loadedBefore === true"), "reloaded under a half-filled form"
        assert page.evaluate(MINE) == first and name.input_value() == "Ann"

        name.fill("")                                 # the form as it was: nothing to lose now
        page.evaluate("document.activeElement.blur()")
        page.wait_for_function("window.loadedBefore === undefined && %s === '%s'" % (MINE, second), timeout=WAIT)
        page.wait_for_function("document.querySelector('#link').textContent === 'live'", timeout=WAIT)
        css = page.get_attribute("link[rel=stylesheet]", "href")
        assert css == "/static/%s/css/panel.css" % box.app.extensions[assets.EXTENSION].version
        assert not page.query_selector("#new-release")

        # a quiet page at the next update: it reloads at once, no one needs to touch it
        page.evaluate("window.loadedBefore = true")
        third = box.update("the one after")
        page.wait_for_function("window.loadedBefore === undefined && %s === '%s'" % (MINE, third), timeout=WAIT)
        assert errors == []
