"""The sidebar beside the game in Debian's Chromium, as a new player met it after a few games:
what it shows (the editor's card and calls, the dice's and the stopwatch's last result) belongs
to the game being played, or, between games, to the time since the last one ended; a roll the
game has moved on from says so. A page that watched live and one loaded afterwards agree."""

import pytest
from conftest import picture
from test_browser import browser, server  # noqa: F401  (fixtures)

WAIT = 10000
TABLET = {"width": 1024, "height": 768}
PAIR = [{"name": "Cleo"}, {"name": "Dan"}]
pytestmark = pytest.mark.browser


def open_page(page, port):
    page.set_default_timeout(WAIT)
    page.goto("http://127.0.0.1:%d/" % port)
    page.wait_for_function("document.getElementById('link').textContent === 'live'")


def sidebar(page):
    return {"signal": page.inner_text("#verdict-signal"), "message": page.inner_text("#verdict-message"),
            "calls": page.inner_text("#calls"), "roll": page.inner_text("#oracle-result")}


def test_a_games_calls_and_rolls_leave_with_it(server, browser, screens, desk):  # noqa: F811
    """A SCOOP (1956) game's THREE STARS and its dice stayed in the sidebar after it was
    abandoned, on the start form and beside the next games. Gone now, live and on a reload; and
    the start form's editor's cards (with their note on the 1956 rules' odds) follow the game
    chosen there: beside Star Reporter, which has no editor, they are not shown."""
    with screens.page(TABLET) as page:
        open_page(page, server)
        desk.table.games.start("scoop1956", PAIR, {})
        page.wait_for_function("document.body.dataset.version === '1'")
        call = desk.table.call_editor(3)
        roll = desk.oracles.roll()
        page.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 3'")
        page.wait_for_function("document.getElementById('oracle-result').textContent.startsWith('Dice')")
        assert page.inner_text("#calls .call-signal") == call.payload["signal"]
        assert str(roll.payload["total"]) in page.inner_text("#oracle-result")
        desk.table.games.abandon(desk.table.games.version)
        page.wait_for_function("document.body.dataset.ended")
        page.get_by_role("button", name="New game").click()
        page.wait_for_selector("#start-form")
        fresh = browser.new_page(viewport=TABLET)
        try:
            open_page(fresh, server)
            for p in (page, fresh):
                assert sidebar(p) == {"signal": "—", "message": "Dial the editor to hear about your story.",
                                      "calls": "No calls yet.", "roll": ""}, p
                p.check("#pick-star_reporter")
                p.wait_for_function("document.body.dataset.editor === 'off'")
                assert not p.is_visible(".verdict-card") and not p.is_visible(".calls-card")
                picture(p, "sidebar-star-form-tablet.png", full_page=True)
                p.check("#pick-scoop1956")
                p.wait_for_function("document.body.dataset.editor === 'on'")
                assert "1956 rules" in p.inner_text(".verdict-card")
            later = desk.table.call_editor(5)           # a call between games is the table's now
            for p in (page, fresh):
                p.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 5'")
                assert p.inner_text("#calls .call-signal") == later.payload["signal"]
                assert p.locator("#calls li").count() == 1
        finally:
            fresh.close()


def test_a_roll_the_game_moved_on_from_says_so(server, browser, screens, desk):  # noqa: F811
    """The dice button's 4 + 6 stayed in the side panel, unmarked, after the box rolled 4 + 2 for
    the next throw: two totals for one throw. Once a move comes after it, the roll says it came
    before the game's last move, live and on a reload; the next game starts with none, and its
    screen offers no throw of the game before."""
    with screens.page(TABLET) as page:
        open_page(page, server)
        desk.table.games.start("star_reporter", PAIR, {})
        page.wait_for_function("document.body.dataset.version === '1'")
        desk.oracles.roll()
        page.wait_for_function("document.getElementById('oracle-result').textContent.startsWith('Dice')")
        assert "before the game's last move" not in page.inner_text("#oracle-result")
        page.wait_for_selector("text=The next throw uses the dice button's")
        desk.table.games.act({"type": "throw", "player": 0}, 1)       # the box rolls for Cleo
        page.wait_for_function("document.body.dataset.version === '2'")
        page.wait_for_function("document.getElementById('oracle-result').classList.contains('older')")
        fresh = browser.new_page(viewport=TABLET)
        try:
            open_page(fresh, server)
            fresh.wait_for_function("document.body.dataset.version === '2'")
            for p in (page, fresh):
                assert p.inner_text("#oracle-result").endswith("before the game's last move"), p
                assert p.eval_on_selector("#oracle-result", "e => e.classList.contains('older')")
            picture(fresh, "sidebar-older-roll-tablet.png")
        finally:
            fresh.close()
        desk.table.games.abandon(desk.table.games.version)
        page.wait_for_selector("#end-h")
        desk.table.games.start("star_reporter", PAIR, {})
        page.wait_for_function("document.body.dataset.version === '1' && !document.body.dataset.ended")
        assert page.inner_text("#oracle-result") == ""
        assert page.locator("text=The next throw uses the dice button's").count() == 0


def test_a_new_game_offers_no_stopwatch_of_the_game_before(server, screens, desk):  # noqa: F811
    """Scoop! (2002)'s "Use the stopwatch: 7" came back in the next game of it, for a press made
    in the game before; the sidebar's stopwatch went with that game too."""
    with screens.page(TABLET) as page:
        open_page(page, server)
        desk.table.games.start("scoop2002", PAIR, {})
        desk.table.games.act({"type": "move", "player": 0}, 1)        # Cleo's roll is asked for
        page.wait_for_function("document.body.dataset.version === '2'")
        desk.oracles.stopwatch_press(1.0)
        desk.oracles.stopwatch_press(8.87)
        page.wait_for_selector("#use-stopwatch")
        desk.table.games.abandon(desk.table.games.version)
        page.wait_for_selector("#end-h")
        desk.table.games.start("scoop2002", PAIR, {})
        desk.table.games.act({"type": "move", "player": 0}, 1)
        page.wait_for_function("document.body.dataset.version === '2' && !document.body.dataset.ended")
        assert page.locator("#use-stopwatch").count() == 0
        assert page.inner_text("#oracle-result") == ""


# counts the bgstats answers the page has read, a task after it read each (so after whatever its
# reader did with it in the same turn)
READ_BGSTATS = """(() => { const json = Response.prototype.json;
  Response.prototype.json = function () { const p = json.call(this);
    if (this.url.includes("bgstats")) p.finally(() => setTimeout(() => { window.bgstatsRead = (window.bgstatsRead || 0) + 1; }, 0));
    return p; }; })();"""


def test_a_games_end_card_never_covers_the_next_game(server, browser, desk):  # noqa: F811
    """The end card loads the ended game's record, chart and export before it draws: a new game
    started meanwhile (on another device) was drawn, then covered by the old game's end card."""
    page = browser.new_page(viewport=TABLET)
    try:
        page.add_init_script(READ_BGSTATS)
        held = []
        page.route("**/bgstats.json", lambda route: held.append(route))     # the end card's last read waits
        open_page(page, server)
        desk.table.games.start("star_reporter", PAIR, {})
        page.wait_for_function("document.body.dataset.version === '1'")
        with page.expect_request("**/bgstats.json"):
            desk.table.games.abandon(1)
        desk.table.games.start("scoop2002", PAIR, {})
        page.wait_for_function("document.body.dataset.version === '1' && !document.body.dataset.ended")
        assert len(held) == 1
        held[0].continue_()
        page.wait_for_function("window.bgstatsRead >= 1")
        assert page.locator("#end-h").count() == 0
        assert page.inner_text("#game-area").startswith("Scoop! (Invisible City Productions, 2002)")
    finally:
        page.close()
