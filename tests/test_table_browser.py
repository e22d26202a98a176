"""The table screen as a group of friends met it on a tablet held either way and on a phone
(1024x768, 768x1024, 390x844): where the simulated dial sits, what the undo bar covers, the box
out of reach, Get the Scoop!'s board and reveal form, and the start form's words and refusals.
Each test measures what a person sees (bounding boxes, what is disabled, the words beside a
field) in Debian's Chromium, against the panel served as `newsdesk serve` serves it."""

import contextlib
import time

import pytest
from conftest import picture, serve_panel, signal_button
from test_browser import browser, server  # noqa: F401  (fixtures)

from controller.games import base
from web_ui.server import InThread

WAIT = 10000
SIZES = {"tablet": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024},
         "phone": {"width": 390, "height": 844}}
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@contextlib.contextmanager
def open_page(screens, port, size):
    """The module's page of that size, on the panel at ``port``, live; given back cleared."""
    with screens.page(SIZES[size]) as page:
        page.base = "http://127.0.0.1:%d" % port
        page.goto(page.base + "/")
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        yield page


def start_game(page, engine, names, options=None):
    """A game started as the start form starts it (its POST), then the page read afresh."""
    r = page.evaluate("""([engine, names, options]) => fetch('/api/games', {method: 'POST',
        headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
        body: JSON.stringify({engine, players: names.map((name) => ({name})), options})}).then(r => r.status)""",
                      [engine, names, options or {}])
    assert r == 201
    page.reload()
    page.wait_for_function("document.body.dataset.version === '1'", timeout=WAIT)


def tap(page, name):
    before = int(page.evaluate("document.body.dataset.version"))
    page.get_by_role("button", name=name, exact=True).first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=WAIT)


def box(page, selector):
    """The element's box in page coordinates (scrolling left out)."""
    return page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right, height: r.height}; }""", selector)


# ---------------------------------------------------------------- point 4: the dial beside the game

@pytest.mark.parametrize("size", list(SIZES))
def test_the_dial_is_within_a_screen_of_the_offers_and_nothing_sticks_over_the_verdict(screens, server, size):  # noqa: F811
    with open_page(screens, server, size) as page:
        start_game(page, "scoop1956", ["Ann", "Bob", "Cat"])
        tap(page, "Claim a Sport story")
        tap(page, signal_button("EXTRA"))                                   # the verdict, shown big in the game
        page.wait_for_selector(".game-view .verdict-box", timeout=WAIT)
        screen = SIZES[size]["height"]
        offers, dial = box(page, ".offers-card"), box(page, "#dial")
        gap = max(0, dial["top"] - offers["bottom"], offers["top"] - dial["bottom"])
        picture(page, "table-dial-%s.png" % size, full_page=True)
        # the offers and the whole dial on one screen: no scrolling between the game and the phone
        span = max(offers["bottom"], dial["bottom"]) - min(offers["top"], dial["top"])
        assert gap + dial["height"] <= screen, (size, offers, dial)
        if size != "phone":
            assert span <= screen, (size, offers, dial)
        # scrolled anywhere, the undo bar never lies over the verdict
        height = page.evaluate("document.documentElement.scrollHeight")
        for y in range(0, height, 60):
            page.evaluate("y => window.scrollTo(0, y)", y)
            over = page.evaluate("""() => { const a = document.getElementById('undo').getBoundingClientRect();
                const b = document.querySelector('.game-view .verdict-box').getBoundingClientRect();
                return a.bottom > b.top && a.top < b.bottom && a.right > b.left && a.left < b.right; }""")
            assert not over, (size, y)
        assert not page.errors, page.errors


# ---------------------------------------------------------------- point 5: the box out of reach

def test_the_box_out_of_reach_is_said_plainly_and_clears_within_a_second(screens, app):
    srv = serve_panel(app, host="127.0.0.1")
    port = srv.port
    try:
        with open_page(screens, port, "tablet") as page:
            start_game(page, "scoop1956", ["Ann", "Bob", "Cat"])
            assert "OK" in page.inner_text("#health")
            srv.close()                                                       # the box switched off
            srv = None
            page.wait_for_selector("#offline:not([hidden])", timeout=WAIT)
            said = page.inner_text("#offline")
            assert "The box can't be reached" in said and "is it on" in said, said
            assert "OK" not in page.inner_text("#health")
            held = page.eval_on_selector_all(".offer, #hook-button, [data-sim-post]", """els => els.map((e) => [e.textContent,
                e.disabled, e.getAttribute('aria-disabled'),
                (document.getElementById(e.getAttribute('aria-describedby') || '') || {}).textContent || ''])""")
            assert held and all(d and a == "true" and "can't be reached" in why for _, d, a, why in held), held
            picture(page, "table-offline-tablet.png")
            srv = InThread(app, port=port)                                    # back on
            back = time.monotonic()
            page.wait_for_function("""() => { const b = document.getElementById('offline');
                return (!b || b.hidden) && !document.querySelector('.offer:disabled, #hook-button:disabled')
                    && /OK/.test(document.getElementById('health').textContent) && document.getElementById('toast').hidden; }""",
                                   timeout=WAIT, polling=20)
            took = time.monotonic() - back
            assert took < 1.0, took
            page.get_by_role("button", name="Claim a Sport story", exact=True).click()
            page.wait_for_function("document.body.dataset.version === '2'", timeout=WAIT)
            assert not page.errors, page.errors
    finally:
        if srv is not None:
            srv.close()


# ---------------------------------------------------------------- point 9: the start form's words and sizes

def choose(page, engine):
    from controller.games import registry
    page.get_by_label(registry.load(engine).title).check()


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_the_start_forms_choices_are_short_said_once_and_explained_under_the_field(screens, server, size):  # noqa: F811
    from controller.games.catalogue import start_form
    with open_page(screens, server, size) as page:
        page.wait_for_selector("#start-form", timeout=WAIT)
        for game in start_form():
            choices = [o for o in game["options"] if o["form"] and o["kind"] == "choice" and o["name"] != game["variant_option"]]
            if not choices:
                continue
            choose(page, game["name"])
            for opt in choices:
                if base.option_variants(opt):
                    page.check("#variant-%s" % base.option_variants(opt)[0])
                sel = "#opt-%s" % opt["name"]
                shown = page.eval_on_selector_all(sel + " option", "os => os.map((o) => [o.value, o.textContent])")
                for value, text in shown:
                    assert text.count("default") == (1 if value == opt["default"] else 0), text
                # no choice cut off: the drop-down is as wide as it would be with room for its longest
                # choice, and inside the screen
                room = page.eval_on_selector(sel, """s => { const c = s.cloneNode(true);
                    c.style.cssText = 'position:absolute; max-width:none; width:auto'; s.after(c);
                    const need = c.getBoundingClientRect().width; c.remove();
                    const r = s.getBoundingClientRect(); return [r.width, need, r.right, innerWidth]; }""")
                assert room[0] >= room[1] - 1 and room[2] <= room[3], (size, opt["name"], room)
                for value, words in opt["choices"].items():       # the whole words under the field
                    page.select_option(sel, value)
                    assert page.inner_text(sel + "-hint") == words
        choose(page, "scoop2002")
        locations = page.locator("#opt-locations")
        assert locations.evaluate("e => e.tagName") == "TEXTAREA" and int(locations.get_attribute("rows")) >= 10
        assert locations.bounding_box()["height"] >= 10 * 20
        picture(page.locator("#start-form"), "start-form-words-%s.png" % size)
        choose(page, "scoop1956")                                   # "Who deals" offers "Player 1", "Player 2"
        page.click("#add-player")
        numbers = page.eval_on_selector_all(".player-row", "rs => rs.map((r) => r.querySelector('.player-no').innerText)")
        assert len(numbers) >= 3 and numbers == ["Player %d" % (i + 1) for i in range(len(numbers))], numbers
        assert not page.errors, page.errors


def test_removing_a_player_leaves_the_focus_on_the_next_row_or_the_one_before(screens, server):  # noqa: F811
    """"Remove player N" dropped the focus to the page's body. It goes to the next row's name, or
    the previous row's when the last row went; the rows that move up take their new numbers."""
    with open_page(screens, server, "tablet") as page:
        page.wait_for_selector("#start-form", timeout=WAIT)
        choose(page, "scoop1956")
        while page.locator(".player-row").count() < 5:
            page.click("#add-player")
        for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"]):
            page.fill("#player-%d" % i, name)
        page.get_by_role("button", name="Remove player 2", exact=True).click()      # Bob
        focused = "[document.activeElement.id, document.activeElement.value]"
        assert page.evaluate(focused) == ["player-1", "Cat"]
        labels = page.eval_on_selector_all(".player-row .remove", "bs => bs.map((b) => b.getAttribute('aria-label'))")
        assert labels == ["Remove player %d" % n for n in range(1, 5)], labels
        page.get_by_role("button", name="Remove player 4", exact=True).click()      # Eve, the last row
        assert page.evaluate(focused) == ["player-2", "Dan"]
        page.click("#add-player")                                   # a new row takes a number not in use
        assert page.eval_on_selector_all(".player-row input[type=text]:not(.team-input)", "is => is.map((i) => i.id)") == [
            "player-0", "player-1", "player-2", "player-3"]
        assert page.evaluate("document.activeElement.id") == "player-3"
        assert not page.errors, page.errors


def test_the_name_fields_stop_where_the_box_does(screens, app, server, monkeypatch):  # noqa: F811
    """The names' limit is the server's NAME_MAX, sent with the page, not a number in the script."""
    import web_ui.pages
    monkeypatch.setattr(web_ui.pages, "NAME_MAX", 12)
    with open_page(screens, server, "tablet") as page:
        page.wait_for_selector("#player-0", timeout=WAIT)
        assert page.evaluate("JSON.parse(document.getElementById('boot').textContent).nameMax") == 12
        assert page.get_attribute("#player-0", "maxlength") == "12" and page.get_attribute("#team-0", "maxlength") == "12"


# ---------------------------------------------------------------- point 8: refusals in the table's words

@pytest.mark.parametrize("engine,names,field,typed,options", [
    ("scan", ["Ann", "Bob", "Cat", "Dan"], "#time-limit", "9999", {"time_limit": 9999}),
    ("star_reporter", ["Ann", "Bob"], "#opt-disasters", "99", {"disasters": 99}),
    ("scoop2002", ["Ann", "Bob"], "#opt-locations", "Harbor, Docks", {"locations": ["Harbor", "Docks"]}),
])
def test_a_number_out_of_range_gets_the_boxs_sentence_beside_its_field(screens, server, engine, names, field, typed, options):  # noqa: F811
    with open_page(screens, server, "phone") as page:
        page.wait_for_selector("#start-form", timeout=WAIT)
        choose(page, engine)
        for i, name in enumerate(names):
            page.fill("#player-%d" % i, name)
        page.fill(field, typed)
        page.click("#start-game")
        problem = page.locator(field + "-problem")
        problem.wait_for(state="visible", timeout=WAIT)
        said = problem.inner_text()
        server_said = page.evaluate("""([engine, names, options]) => fetch('/api/games', {method: 'POST',
            headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
            body: JSON.stringify({engine, players: names.map((name) => ({name})), options})}).then(r => r.json())""",
                                    [engine, names, options])["message"]
        assert said == server_said, (said, server_said)             # the box's own sentence, on the page
        # said once: the alert by "Start the game" points to the field, where the focus reads it out
        name = said[:said.index("”") + 1]
        assert page.inner_text("#start-error") == "The game was not started: see %s above." % name
        assert said.startswith("“") and "_" not in said.split("”")[0], said   # the field as the form names it
        assert page.get_attribute(field, "aria-invalid") == "true"
        assert (field + "-problem")[1:] in page.get_attribute(field, "aria-describedby")
        assert page.evaluate("document.activeElement.id") == field[1:]
        # the sentence sits beside its field: just below it, on the same screen
        a, b = page.locator(field).bounding_box(), problem.bounding_box()
        assert 0 <= b["y"] - (a["y"] + a["height"]) < 80, (a, b)
        assert page.evaluate("(window.NEWSDESK_PANEL.game || {}).version || 0") == 0
        picture(page.locator("#start-form"), "start-refused-%s.png" % engine)
        assert not page.errors, page.errors


# ---------------------------------------------------------------- point 7: Get the Scoop! at the table

@pytest.mark.parametrize("size", list(SIZES))
def test_get_the_scoops_board_is_tapped_with_a_finger_and_its_reveal_form_reads_right(screens, server, size):  # noqa: F811
    with open_page(screens, server, size) as page:
        start_game(page, "get_the_scoop", ["Ann", "Bob", "Cat", "Dan"])
        page.wait_for_selector(".gts-grid", timeout=WAIT)
        sizes = page.eval_on_selector_all(".gts-sq", "tds => tds.map((t) => [t.getBoundingClientRect().width, t.getBoundingClientRect().height])")
        assert len(sizes) == 144 and min(min(w, hgt) for w, hgt in sizes) >= 44, (size, min(sizes))
        fits = page.evaluate("""() => { const s = document.querySelector('.gts-board .table-scroll');
            return [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth, innerWidth]; }""")
        assert fits[2] <= fits[3], (size, fits)                      # the page never scrolls sideways
        if size != "phone":
            assert fits[0] <= fits[1], (size, fits)                  # a tablet shows the whole board
        # whose corner is whose, as the box's board has the vans
        corners = page.inner_text("#gts-corners")
        for name, where in (("Ann", "top-left"), ("Bob", "top-right"), ("Cat", "bottom-right"), ("Dan", "bottom-left")):
            assert "%s (" % name in corners and corners.split(name)[1].split(",")[0].endswith(where), corners
        # an abstaining player shows no card; one who plays shows its rank and suit
        for seat in range(4):
            assert page.is_hidden("#gts-%d-r" % seat) and page.is_hidden("#gts-%d-s" % seat)
        page.select_option("#gts-1-p", "2")
        assert page.is_visible("#gts-1-r") and page.is_visible("#gts-1-s") and page.is_hidden("#gts-0-r")
        page.select_option("#gts-1-p", "")
        assert page.is_hidden("#gts-1-r")
        picture(page, "table-gts-%s.png" % size, full_page=True)
        assert not page.errors, page.errors


def test_a_players_card_starts_unpicked_and_an_unpicked_card_is_said_beside_its_row_and_sends_nothing(screens, server):  # noqa: F811
    """Every card picker started on the ace of hearts, so the defaults were refused ("Bob: the A
    of hearts was already played this turn"): each starts on what it asks ("Rank…"), and a card left unpicked
    is said beside its player's row, the field marked and focused, and nothing is sent."""
    with open_page(screens, server, "phone") as page:
        start_game(page, "get_the_scoop", ["Ann", "Bob", "Cat", "Dan"])
        page.select_option("#gts-0-p", "1")
        page.select_option("#gts-1-p", "2")
        for seat in (0, 1):
            for part in "rs":
                picker = "#gts-%d-%s" % (seat, part)
                asks = "Rank…" if part == "r" else "Suit…"
                assert page.eval_on_selector(picker, "s => [s.value, s.options[0].textContent, s.required]") == ["", asks, True]
        page.select_option("#gts-0-r", "3")
        page.select_option("#gts-0-s", "spades")
        page.select_option("#gts-1-r", "5")                     # Bob's suit left unpicked
        sent = []
        page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
        page.get_by_role("button", name="Reveal the cards", exact=True).click()
        problem = page.locator("#gts-1-problem")
        problem.wait_for(state="visible", timeout=WAIT)
        assert problem.inner_text() == "Bob: choose the card's suit, as it will be turned up."
        assert page.get_attribute("#gts-1-s", "aria-invalid") == "true"
        assert page.get_attribute("#gts-1-s", "aria-describedby") == "gts-1-problem"
        assert page.get_attribute("#gts-1-r", "aria-invalid") is None and page.is_hidden("#gts-0-problem")
        assert page.evaluate("document.activeElement.id") == "gts-1-s"
        a, b = page.locator("#gts-1-s").bounding_box(), problem.bounding_box()
        assert 0 <= b["y"] - (a["y"] + a["height"]) < 80, (a, b)
        assert sent == [] and page.evaluate("document.body.dataset.version") == "1"
        page.select_option("#gts-1-s", "hearts")                 # picked: the cards go
        tap(page, "Reveal the cards")
        assert page.is_hidden("#gts-1-problem") or not page.locator("#gts-1-problem").count()
        assert not page.errors, page.errors


@pytest.mark.parametrize("size", ["phone-375", "tablet"])
def test_get_the_scoops_board_says_it_scrolls_on_a_phone_and_its_side_labels_frame_it(screens, server, size):  # noqa: F811
    """At 375 px the 12 columns of finger-sized squares can't fit: the board scrolls within itself,
    a sentence above says so, the edge with more board fades, and the scroller is a named region
    holding the board's one tab stop (axe's scrollable-region-focusable), so the arrow keys,
    moving the focus square by square, bring column l into view. Each
    side label sits at its own edge of the board, over no square: outside the scroller the right
    one lay over column g, as if the board ended there. A tablet shows it all, with no hint."""
    viewport = {"width": 375, "height": 740} if size == "phone-375" else SIZES[size]
    with screens.page(viewport) as page:
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        start_game(page, "get_the_scoop", ["Ann", "Bob", "Cat", "Dan"])
        page.wait_for_selector(".gts-grid", timeout=WAIT)
        region = page.get_by_role("region", name="The board's squares")
        assert region.get_attribute("tabindex") is None          # not a second stop: its squares take the focus
        assert region.locator("[role=gridcell][tabindex='0']").count() == 1
        overlaps = page.evaluate("""() => {
            const boxes = (s) => Array.from(document.querySelectorAll(s), (e) => [e, e.getBoundingClientRect()]);
            const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            const out = [];
            for (const [label, l] of boxes('.gts-side'))
              for (const [cell, c] of boxes('.gts-grid th, .gts-grid td'))
                if (meet(l, c)) out.push(label.className + ' over ' + (cell.dataset.square || cell.textContent));
            return out; }""")
        assert overlaps == [], overlaps
        sides = page.evaluate("""() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
            const grid = r('.gts-grid');
            return [r('.gts-side-left').right <= grid.left, r('.gts-side-right').left >= grid.right,
                    r('.gts-side-top').bottom <= grid.top, r('.gts-side-bottom').top >= grid.bottom]; }""")
        assert sides == [True, True, True, True], sides
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")   # the page never scrolls sideways
        hint = page.locator("#gts-scroll-hint")
        wrap = page.locator(".gts-scroll-wrap")
        if size == "tablet":
            assert hint.is_hidden()
            assert wrap.get_attribute("class") == "gts-scroll-wrap"          # no fade: nothing beyond either edge
        else:
            assert hint.is_visible()
            assert hint.inner_text() == ("Wider than the screen: swipe the board sideways (or use the arrow keys) "
                                         "to reach columns a to l.")
            assert region.get_attribute("aria-describedby") == "gts-scroll-hint"
            assert "gts-more-right" in wrap.get_attribute("class") and "gts-more-left" not in wrap.get_attribute("class")
            picture(page.locator(".gts-board"), "table-gts-board-375-start.png")
            region.locator("[role=gridcell][tabindex='0']").focus()
            for _ in range(20):
                page.keyboard.press("ArrowRight")
            page.wait_for_function("""() => { const s = document.querySelector('.gts-scroll');
                return s.scrollLeft >= s.scrollWidth - s.clientWidth - 1; }""", timeout=WAIT)
            page.wait_for_function("!document.querySelector('.gts-scroll-wrap').classList.contains('gts-more-right')",
                                   timeout=WAIT)
            assert "gts-more-left" in wrap.get_attribute("class")
            assert page.locator("[data-square=l12]").is_visible()
            # scrolled to the right edge, each row still shows its number at the board's left edge
            # (they scrolled away with column a, and a square was a letter without its row)
            edge = page.evaluate("""() => { const s = document.querySelector('.gts-scroll').getBoundingClientRect();
                return [...document.querySelectorAll('.gts-grid tbody th')].map(th => {
                  const r = th.getBoundingClientRect(); return r.left >= s.left - 1 && r.right <= s.left + 60; }); }""")
            assert edge == [True] * 12, edge
        picture(page.locator(".gts-board"), "table-gts-board-%s.png" % size)
        assert not page.errors, page.errors


def test_a_printed_value_out_of_range_gets_the_boxs_sentence_beside_the_field(screens, server):  # noqa: F811
    with open_page(screens, server, "phone") as page:
        start_game(page, "scoop1956", ["Ann", "Bob", "Cat"])
        tap(page, "Claim a Sport story")
        tap(page, signal_button("EXTRA"))
        page.fill("input[name=value]", "0")
        page.get_by_role("button", name="Take the Sport story", exact=True).click()
        problem = page.locator(".offer-form .field-problem")
        problem.wait_for(state="visible", timeout=WAIT)
        said = problem.inner_text()
        assert said.startswith("Ann: enter the value printed on the story") and said.endswith("not 0."), said
        field = page.locator("input[name=value]")
        assert field.get_attribute("aria-invalid") == "true" and field.get_attribute("aria-describedby") == problem.get_attribute("id")
        a, b = field.bounding_box(), problem.bounding_box()
        assert 0 <= b["y"] - (a["y"] + a["height"]) < 120, (a, b)
        assert page.evaluate("document.body.dataset.version") == "3"     # nothing was done
        assert not page.errors, page.errors


def test_the_airports_words_say_how_the_form_reads_the_list(screens, server):  # noqa: F811
    """Star Reporter's airports: the label said "(one a line)" on a text area while the help
    said "Add them, comma-separated". The form takes either (it splits on lines and commas), and
    both now say what the table may type."""
    with open_page(screens, server, "tablet") as page:
        page.wait_for_selector("#start-form", timeout=WAIT)
        choose(page, "star_reporter")
        option = page.locator("[data-option=airports]")
        assert "(one a line)" in option.locator(".option-label").inner_text()
        help_words = option.locator(".option-rule").inner_text()
        assert "one a line or separated by commas" in help_words and "comma-separated" not in help_words, help_words
        page.fill("#player-0", "Ann")
        page.fill("#player-1", "Bob")
        page.fill("#opt-airports", "Baytown\nLakeport, Summit\n")
        page.click("#start-game")
        page.wait_for_function("(window.NEWSDESK_PANEL.game || {}).version === 1", timeout=WAIT)
        airports = page.evaluate("fetch('/api/games/current').then(r => r.json())")["game"]["view"]["airports"]
        assert airports == ["Baytown", "Lakeport", "Summit"], airports
        assert not page.errors, page.errors


def test_a_text_area_shows_the_same_focus_ring_as_every_other_field(screens, server):  # noqa: F811
    """The start form's lists (Star Reporter's airports) took the browser's thin outline: the
    panel's focus rule left text areas out."""
    with open_page(screens, server, "tablet") as page:
        page.wait_for_selector("#start-form", timeout=WAIT)
        choose(page, "star_reporter")
        page.focus("#opt-airports")
        assert page.evaluate("document.activeElement.tagName") == "TEXTAREA"
        ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }")
        assert ring == ["solid", "3px"], ring


# ---------------------------------------------------------------- the weight of a screen

WEIGHT_MOST = 200 * 1024        # the panel's target, as bench/panel_weight.py prints it


def weighed(browser, url):  # noqa: F811
    """The bytes a fresh tablet fetches to show ``url``, live (the stream left out: it never ends),
    by URL: what the browser asked for, dynamic imports too."""
    context = browser.new_context(viewport=SIZES["tablet"])
    page = context.new_page()
    fetched = {}

    def took(response):
        if "/stream" not in response.url:
            with contextlib.suppress(Exception):
                fetched[response.url] = len(response.body())
    page.on("response", took)
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
    page.wait_for_load_state("networkidle")
    context.close()
    return fetched


def test_the_start_form_and_each_games_screen_with_all_they_load_weigh_under_200_kb(screens, server):  # noqa: F811
    """Everything a tablet fetches to show the screen, as bench/panel_weight.py weighs it. The test
    before this one followed the page's static imports only, and passed at 203 KB while a tablet
    fetched 256 to 263 KB: the start form and every game's screen also loaded all five games'
    screens, and a game's screen the start form's script and the end card's."""
    from controller.games import registry
    heavy = {}
    heavy["start form"] = weighed(screens.browser, "http://127.0.0.1:%d/" % server)
    with open_page(screens, server, "tablet") as page:
        for item in registry.catalogue():
            start_game(page, item["name"], ["Ann", "Bob", "Cat", "Dan"])
            heavy[item["name"]] = weighed(screens.browser, page.base + "/")
            assert any(item["name"] + ".js" in url for url in heavy[item["name"]]), item["name"]   # its own screen
            version = page.evaluate("Number(document.body.dataset.version)")
            assert page.evaluate("""v => fetch('/api/games/current/abandon', {method: 'POST', headers: {'X-Newsdesk': '1',
                'Content-Type': 'application/json'}, body: JSON.stringify({version: v})}).then(r => r.status)""", version) == 200
    over = {screen: sum(f.values()) for screen, f in heavy.items() if sum(f.values()) >= WEIGHT_MOST}
    assert not over, over


def requested(browser, url):  # noqa: F811
    """The URLs a fresh tablet asks for to show ``url``, in the order it asks (the stream left out)."""
    context = browser.new_context(viewport=SIZES["tablet"])
    page = context.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/stream" not in r.url else None)
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
    context.close()
    return asked


def test_the_first_frames_module_is_fetched_once_beside_the_panels_script_not_after_it(screens, server):  # noqa: F811
    """The start form (no game on), a game's own screen (one on) and a finished game's end card
    are each drawn by a module panel.js imports only once it and its own imports have run: a
    round trip more on the first frame, on the box's slowest moment. The page names it beside
    panel.js (modulepreload), so it is asked for before panel.js's imports, and once."""
    def order(asked, first):
        ours = [u for u in asked if u.endswith(first)]
        assert len(ours) == 1, (first, asked)
        before = asked[:asked.index(ours[0])]
        assert not any(u.endswith("/js/game.js") for u in before), (first, asked)   # one of panel.js's imports
    base = "http://127.0.0.1:%d" % server
    order(requested(screens.browser, base + "/"), "/js/start.js")
    with open_page(screens, server, "tablet") as page:
        start_game(page, "scan", ["Ann", "Bob", "Cat", "Dan"])
        order(requested(screens.browser, base + "/"), "/js/games/scan.js")
        version = page.evaluate("Number(document.body.dataset.version)")
        assert page.evaluate("""v => fetch('/api/games/current/abandon', {method: 'POST', headers: {'X-Newsdesk': '1',
            'Content-Type': 'application/json'}, body: JSON.stringify({version: v})}).then(r => r.status)""", version) == 200
        finished = page.evaluate("fetch('/api/games/history?limit=1').then(r => r.json())")["games"][0]["id"]
    order(requested(screens.browser, "%s/games/%d" % (base, finished)), "/js/endgame.js")
