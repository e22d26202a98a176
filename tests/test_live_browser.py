"""The panel's live side in Chromium against `newsdesk serve` (Hypercorn): a page turned away
because the newsdesk serves as many live pages as it may keeps itself up to date by asking, and
says so; a page told to resync reads the table again."""

import importlib.util
import time
from pathlib import Path

import pytest
from conftest import launched_chromium, need_browser

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("panel_streams", REPO / "bench" / "panel_streams.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
WAIT = 10000    # ms

# a turned-away page's poll runs every 5 s: the waiting lane (tests/lanes.py)
pytestmark = [pytest.mark.browser, pytest.mark.waits]


def test_a_page_turned_away_polls_and_a_page_told_to_resync_reads_again(tmp_path):
    need_browser()
    server = bench.Server("new", data=tmp_path / "data",
                          env={"NEWSDESK_STREAMS_MAX": "1", "NEWSDESK_STREAMS_HOST_RESERVE": "0"})
    room = bench.Room(server.port)
    url = "http://127.0.0.1:%d/" % server.port
    try:
        room.open_pages(1)                       # a guest's tab takes the only place
        end = time.monotonic() + 5
        while room.pages[0]["status"] != 200 and time.monotonic() < end:
            room.pump(0.05)
        assert room.pages[0]["status"] == 200
        with launched_chromium() as browser:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("document.querySelector('#link').textContent === 'updating every 5 s'",
                                   timeout=WAIT)
            status, started, _ = bench.request(server.port, "POST", "/api/games",
                                               {"engine": "scan", "players": bench.PLAYERS})
            assert status == 201
            page.wait_for_function("window.NEWSDESK_PANEL.game && window.NEWSDESK_PANEL.game.id === %d"
                                   % started["game"], timeout=WAIT)     # found by asking, not streamed

            room.close_all()                 # the place is free again
            again = browser.new_page()
            again.goto(url)
            again.wait_for_function("document.querySelector('#link').textContent === 'live'", timeout=WAIT)
            again.evaluate("""() => { window.NEWSDESK_PANEL.lastEventId = 999999;
                                      window.NEWSDESK_PANEL.stream.close();
                                      document.dispatchEvent(new Event('visibilitychange')); }""")
            again.wait_for_function("document.querySelector('#announce').textContent.includes("
                                    "'missed some changes')", timeout=WAIT)
            assert again.evaluate("window.NEWSDESK_PANEL.lastEventId") == started["event_id"]
    finally:
        room.close_all()
        server.stop()
