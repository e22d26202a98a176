"""The host's backups in a real browser (Debian's Chromium, Playwright), against the panel as
`newsdesk serve` serves it: the history page's Backups section downloads a backup, and restores
it from the tablet in two steps (check, then confirm) while the table went on meanwhile."""

import pytest
from conftest import launched_chromium, need_browser, play_a_game, wait_for
from gpiozero.pins.mock import MockFactory

from controller import backup
from controller.app import Newsdesk
from controller.config import load_config
from web_ui.server import InThread

WAIT = 10000    # ms: generous for a loaded machine; conditions, never sleeps

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_downloads_a_backup_and_restores_it_from_the_tablet(app, desk, tmp_path):
    need_browser()
    play_a_game(desk, 3)
    restarts = []
    app.config["RESTART"] = lambda: restarts.append(True)
    srv = InThread(app)
    try:
        with launched_chromium() as browser:
            page = browser.new_context(accept_downloads=True).new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("http://127.0.0.1:%d/history" % srv.port)
            page.locator("#backup-secret").check()
            assert page.locator("#backup-secret-note").is_visible()
            page.locator("#backup-secret").uncheck()
            with page.expect_download() as downloading:
                page.locator("#backup-download").click()
            file = tmp_path / downloading.value.suggested_filename
            downloading.value.save_as(file)
            assert backup.NAME_PATTERN.match(file.name), file.name

            page.locator("#restore-file").set_input_files(str(file))
            # the table goes on while the file is chosen: a game the backup doesn't have, whose end
            # reaches this page on its live feed (which used to reload it and empty the form)
            play_a_game(desk, 1)
            page.wait_for_function("() => document.body.dataset.restoring === 'yes'", timeout=WAIT)
            page.wait_for_timeout(1000)   # the live feed's message arrives within it (a reload would follow)
            page.locator("#restore-check-button").click()
            words = page.locator("#restore-words")
            words.wait_for(state="visible", timeout=WAIT)
            page.locator("#restore-cancel").click()            # first the host thinks better of it
            page.wait_for_function("() => document.querySelector('#restore-status').textContent"
                                   " === 'Nothing was changed.'", timeout=WAIT)
            assert not (desk.config.data_dir / backup.STAGING).exists()
            page.locator("#restore-check-button").click()      # then restores it after all
            words.wait_for(state="visible", timeout=WAIT)
            said = words.inner_text()
            assert "has 2 kept games" in said and "has 1 kept game" in said and file.name in said, said
            page.locator("#restore-confirm").click()
            page.wait_for_function("() => document.querySelector('#restore-status').textContent"
                                   ".includes('restarts now')", timeout=WAIT)
            assert page.locator("#restore-check").is_hidden() and not errors, errors
        assert wait_for(lambda: restarts, timeout=5)
    finally:
        srv.close()
    data = desk.config.data_dir
    desk.close()                                   # what the restart does: stop, then the start finishes it
    assert backup.finish_restore(data)
    factory = MockFactory()
    again = Newsdesk(load_config(data, environ={}, overrides={"audio": "off", "speech": "off"}), pin_factory=factory)
    try:
        assert [g["winners"] for g in again.table.kept.history()] == [["Dee"]]
    finally:
        again.close()
        factory.close()


def test_a_screen_reader_hears_what_a_restore_replaces_and_then_that_it_worked(app, desk, tmp_path):
    """The check's comparison (what is here, what the backup has) is said once as it comes and
    describes the button that restores it, where the focus goes. Once the box has restarted and
    the page come back by itself, a lasting line says what was restored and takes the focus; a
    later reload doesn't say it again. (The restart is the box going quiet for a moment: its
    health answers are cut off in the browser.)"""
    need_browser()
    play_a_game(desk, 3)
    file = tmp_path / "backup1.zip"
    backup.make_backup(desk.config.data_dir, file)
    play_a_game(desk, 1)
    restarts = []
    app.config["RESTART"] = lambda: restarts.append(True)
    srv = InThread(app)
    cut = []

    def health(route):
        # the box down for two answers once it was told to restart, then back
        if restarts and len(cut) < 2:
            cut.append(True)
            route.abort()
        else:
            route.continue_()
    try:
        with launched_chromium() as browser:
            page = browser.new_context().new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.route("**/api/health", health)
            page.goto("http://127.0.0.1:%d/history" % srv.port)
            page.locator("#restore-file").set_input_files(str(file))
            page.locator("#restore-check-button").click()
            page.locator("#restore-words").wait_for(state="visible", timeout=WAIT)
            words = page.locator("#restore-words").inner_text()
            assert "backup1.zip" in words and "has 1 kept game" in words, words
            page.wait_for_function("w => document.querySelector('#restore-said').textContent === w",
                                   arg=words, timeout=WAIT)
            assert page.evaluate("document.activeElement.id") == "restore-confirm"
            described = page.evaluate("""() => document.activeElement.getAttribute('aria-describedby')
                .split(' ').map(id => document.getElementById(id).textContent).join(' ')""")
            assert described == words

            page.locator("#restore-confirm").click()
            page.wait_for_function("() => document.querySelector('#restore-said').textContent === ''", timeout=WAIT)
            done = page.locator("#restore-done")
            done.wait_for(state="visible", timeout=3 * WAIT)      # after the page came back by itself
            said = done.inner_text()
            assert said.startswith("Restored from backup1.zip: 1 kept game (the last ended "), said
            assert page.evaluate("document.activeElement.id") == "restore-done"
            assert len(cut) == 2 and restarts
            page.reload()
            page.locator("#restore-form").wait_for(state="visible", timeout=WAIT)
            assert done.is_hidden() and not errors, errors
    finally:
        srv.close()


def test_a_page_of_another_site_cant_make_the_box_build_a_backup(app, monkeypatch):
    """A page from elsewhere, open in the box's own browser (the host, by loopback), asks for the
    backup with its secret key by fetch and by an <img>: Chromium says where the request came
    from, and the box refuses before it builds anything. Its own page's download still works."""
    import http.server
    import threading

    need_browser()
    made = []
    monkeypatch.setattr(backup, "make_backup", lambda data_dir, dest, **kw: made.append(dest) or
                        dest.write_bytes(b"PK"))
    srv = InThread(app)
    target = "http://127.0.0.1:%d/api/backups/download?secret=yes" % srv.port
    html = ("<!doctype html><title>elsewhere</title><script>"
            "window.done = Promise.all(["
            " fetch(%r, {credentials: 'include', mode: 'no-cors'}).then(() => 'fetched', e => 'fetch: ' + e),"
            " new Promise(r => { const i = new Image(); i.onload = i.onerror = () => r('img'); i.src = %r; })]);"
            "</script>" % (target, target)).encode()

    class Elsewhere(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *args):
            pass
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with launched_chromium() as browser:
            page = browser.new_context().new_page()
            page.goto("http://localhost:%d/" % other.server_address[1])    # another site than 127.0.0.1
            assert page.evaluate("() => window.done") == ["fetched", "img"]
            assert made == []
            page.goto("http://127.0.0.1:%d/history" % srv.port)            # the box's own page
            status = page.evaluate("(u) => fetch(u).then(r => r.status)", target)
            assert status == 200 and len(made) == 1
    finally:
        other.shutdown()
        other.server_close()
        srv.close()
