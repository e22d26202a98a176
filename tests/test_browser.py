"""The panel in a real browser: Debian's Chromium, driven by Playwright, against the panel served
as `newsdesk serve` serves it (Hypercorn).

Each game is played through the UI on two pages at once: the host tablet (the box's own
address) and a phone that joined the table as a guest's phone does (over the box's LAN address,
redeeming an invitation the host made; the join page itself is test_join.py's). After every
move both pages must show the same game. Screenshots of each screen at phone and tablet sizes
go to test-artifacts/ for review (``make screenshots``).
"""

import contextlib
import re
import time

import pytest
from conftest import lan_address, launched_chromium, picture, signal_button

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 720}       # Playwright's own size for a page opened without one
WAIT = 10000  # ms: generous for a loaded CI machine; conditions, never sleeps

pytestmark = pytest.mark.browser




@pytest.fixture
def server(panel_server):
    """The port of the panel served as `newsdesk serve` serves it (Hypercorn), on every
    address, as on a Pi (conftest's serve_panel)."""
    return panel_server


@pytest.fixture(scope="module")
def browser():
    with launched_chromium() as b:
        yield b


class Table:
    """The host tablet and a joined phone, each in its own browser context (own cookies)."""

    def __init__(self, screens, app, port):
        self.host_url = "http://127.0.0.1:%d" % port
        lan = lan_address()
        secured = "newsdesk.security" in app.extensions
        self.phone_url = "http://%s:%d" % (lan, port) if (lan and secured) else self.host_url
        self.requests = []
        self.borrowed = contextlib.ExitStack()      # the two devices, given back cleared at close()
        try:
            self.host, self.phone = (self._borrow(screens, size) for size in (TABLET, PHONE))
            self._open()
        except BaseException:
            self.close()
            raise

    def _borrow(self, screens, size):
        page = self.borrowed.enter_context(screens.page(size))
        page.on("request", self._requested)
        self.borrowed.callback(page.remove_listener, "request", self._requested)
        return page

    def _requested(self, request):
        self.requests.append(request.url)

    def _open(self):
        self.host.goto(self.host_url + "/")
        self.joined = False
        if self.phone_url != self.host_url:
            # the invitation the host makes, opened by the phone (its page is test_join.py's)
            invite = self.host.evaluate("""() => fetch('/api/join/tokens', {method: 'POST',
                headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
                body: JSON.stringify({role: 'player'})}).then(r => r.json())""")
            joined = self.phone.context.request.get("%s/join?token=%s" % (self.phone_url, invite["token"]))
            assert joined.ok and "/join?" not in joined.url, (joined.status, joined.url)
            self.joined = True
        self.phone.goto(self.phone_url + "/")
        for page in self.pages:
            page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)

    @property
    def pages(self):
        return (self.host, self.phone)

    @property
    def errors(self):
        return self.host.errors + self.phone.errors

    def close(self):
        self.borrowed.close()

    def version(self, page):
        return int(page.evaluate("document.body.dataset.version || 0"))

    def settle(self, version):
        """Both pages show ``version`` of the game, and show it the same way."""
        for page in self.pages:
            page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version, timeout=WAIT)
        self.agree()

    def agree(self):
        seen = [page.evaluate("""() => ({
            version: document.body.dataset.version,
            waiting: (document.getElementById('waiting') || {}).textContent,
            undo: (document.getElementById('undo') || {}).textContent,
            numbers: [...document.querySelectorAll('#game-area [data-num]')].map(e => e.dataset.num + '=' + e.dataset.value),
            offers: [...document.querySelectorAll('#game-area .offer')].map(e => e.textContent).sort(),
        })""") for page in self.pages]
        assert seen[0] == seen[1]
        return seen[0]

    def tap(self, page, name, exact=True):
        """Tap an offer (or any button) by its words and wait for both pages to show the move."""
        before = self.version(self.host)
        page.get_by_role("button", name=name, exact=exact).first.click()
        self.settle(before + 1)

    def shot(self, name):
        """Full-page screenshots of both pages. The undo bar sticks to the top while scrolling,
        which a full-page image can't show: it is drawn in its place for the picture."""
        for page in self.pages:
            page.add_style_tag(content=".undo-bar { position: static !important; } .toast { display: none !important; }")
        picture(self.host, "%s-tablet.png" % name, full_page=True)
        picture(self.phone, "%s-phone.png" % name, full_page=True)

    def check_phone_fits(self):
        assert self.phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
            "the phone page scrolls sideways"

    def start(self, title, players, variant=None, minutes=None):
        page = self.host
        page.get_by_label(title).check()
        if variant:
            page.get_by_label(variant).check()
        if minutes:
            page.fill("#time-limit", str(minutes))
        rows = page.locator(".player-row")
        while rows.count() < len(players):
            page.click("#add-player")
        for i, (name, team) in enumerate(players):
            page.fill("#player-%d" % i, name)
            if team:
                page.fill("#team-%d" % i, team)
        page.click("#start-game")
        self.settle(1)

    def finish(self, page, winner_words):
        page.click("#finish")
        for p in self.pages:
            p.wait_for_function("w => (document.getElementById('winner') || {}).textContent === w",
                                arg=winner_words, timeout=WAIT)
            p.wait_for_selector(".end-card .chart-box, .end-card .end-bar", timeout=WAIT)

    def abandon(self, page):
        page.click("#abandon")
        page.click("#abandon-yes")
        for p in self.pages:
            p.wait_for_function("(document.getElementById('winner') || {}).textContent === 'Abandoned: no winner.'",
                                timeout=WAIT)


@pytest.fixture
def table(screens, app, server):
    t = Table(screens, app, server)
    yield t
    errors = t.errors
    t.close()
    assert not errors, errors
    origins = {t.host_url, t.phone_url}
    strays = [u for u in t.requests if not any(u.startswith(o) for o in origins)]
    assert not strays, strays          # nothing from the internet: no CDN, fonts or scripts


# ---------------------------------------------------------------- a short game of each

def test_scoop_1956_on_two_devices(table):
    t = table
    t.start("SCOOP (Parker Brothers, 1956)", [("Ann", None), ("Bob", None), ("Cat", None)])
    t.tap(t.host, "Claim a Sport story")
    t.tap(t.phone, signal_button("EXTRA"))                              # the editor's signal, entered by hand
    t.phone.fill("input[name=value]", "500")
    t.tap(t.phone, "Take the Sport story")
    nums = dict(n.split("=") for n in t.agree()["numbers"])
    assert nums["cash:p0"] == "3400" and nums["cash:p1"] == "2800" and nums["worth:p0"] == "3900"
    t.tap(t.host, "Exchange a card")                     # Bob's turn
    assert t.host.inner_text("#undo") == "↶ Undo: Bob exchanged a card with the draw pile"
    t.tap(t.phone, "Undo: Bob exchanged a card with the draw pile")
    t.tap(t.phone, "Claim a Crime story")
    t.shot("scoop1956")
    t.check_phone_fits()
    t.tap(t.host, signal_button("PRESS"))
    t.tap(t.phone, "Bob goes to press!")
    t.finish(t.host, "Bob won!")          # $2,800 + the $1,500 press bonus beats $3,900
    t.shot("scoop1956-end")


def test_a_second_enter_or_tap_on_an_offer_makes_one_move(table):
    """Enter pressed twice (or a double tap) on an offer: the move puts the focus on a control of
    its own in the offer's place (here the editor's signals, which would refuse the story just
    claimed), and the second press would land there. The controls a move draws take no press for
    a moment, and say so (aria-disabled) while they settle."""
    t = table
    t.start("SCOOP (Parker Brothers, 1956)", [("Ann", None), ("Bob", None), ("Cat", None)])
    t.host.get_by_role("button", name="Claim a Sport story", exact=True).focus()
    t.host.keyboard.press("Enter")
    t.host.wait_for_function("document.body.dataset.version === '2'", timeout=WAIT)
    t.host.keyboard.press("Enter")                       # the second press, on whatever has the focus now
    assert t.host.evaluate("document.activeElement.closest('#game-area') !== null")
    t.host.wait_for_timeout(700)                         # a second move, had one been sent, would be back by now
    assert t.host.evaluate("document.body.dataset.version") == "2"
    assert t.host.evaluate("document.querySelector('#game-area [data-settling]') === null")
    t.settle(2)


def test_abandoning_asks_and_can_be_taken_back_by_a_button_or_escape(table):
    t = table
    t.start("SCOOP (Parker Brothers, 1956)", [("Ann", None), ("Bob", None), ("Cat", None)])
    page = t.host
    # the question's focus is on the safe answer: Enter, Enter keeps the game (it threw one away)
    for take_back in (lambda: page.keyboard.press("Escape"), lambda: page.click("#abandon-no"),
                      lambda: page.keyboard.press("Enter")):
        page.click("#abandon")
        assert page.is_visible("#abandon-yes") and page.is_visible("#abandon-no")
        assert page.evaluate("document.activeElement.id") == "abandon-no"
        take_back()
        assert page.is_visible("#abandon") and not page.is_visible("#abandon-yes")
        assert page.evaluate("document.activeElement.id") == "abandon"
    assert page.evaluate("document.body.dataset.version") == "1"       # still being played


def test_a_control_drawn_while_the_move_settles_waits_too(table, desk):
    """A roll's offer drawn in the moment after a move (the stopwatch's digit arriving) takes no
    press until that moment is over, and says so, as every control then does: one that looked
    ready would have its press dropped. (The page's clock is held, so the moment lasts.)"""
    if getattr(desk, "sim_buttons", None) is None:
        pytest.skip("this newsdesk has no simulated dice and stopwatch buttons")
    t = table
    t.start("Scoop! (Invisible City Productions, 2002)", [("Ann", None), ("Bob", None)])
    # installed, the page's clock still runs with the real one: paused, it holds the moment however
    # slowly a busy machine brings the digit (it ran past the 400 ms once, and the test failed)
    t.phone.clock.install()
    t.phone.clock.pause_at(time.time() + 1)
    try:
        t.tap(t.host, "Move")                          # the phone draws the move: its controls settle
        t.host.click("#sim-stopwatch")
        t.host.click("#sim-stopwatch")                 # the digit arrives and the phone draws its offer
        t.phone.wait_for_selector("#use-stopwatch", state="attached", timeout=WAIT)
        assert t.phone.get_attribute("#use-stopwatch", "aria-disabled") == "true"
        t.phone.clock.run_for(1000)
    finally:
        t.phone.clock.resume()                         # the page goes on to the module's next tests
    t.phone.wait_for_function("document.querySelector('#game-area [data-settling]') === null", timeout=WAIT)
    digit = desk.store.latest("stopwatch.roll")[0].payload["digit"]
    t.tap(t.phone, "Use the stopwatch: %d" % digit)


def test_scoop_2002_on_two_devices(table):
    t = table
    t.start("Scoop! (Invisible City Productions, 2002)", [("Ann", None), ("Bob", None)])
    t.tap(t.host, "Move")
    t.tap(t.phone, "Stopwatch showed 3")                 # odd: up to three spaces
    t.tap(t.host, "#3 Harbor")
    t.tap(t.phone, "Stopwatch showed 3")                 # Part 2: a mark at Harbor
    assert "Harbor" in t.host.inner_text(".locations li:nth-child(3)")
    t.tap(t.host, "Move")                                # Bob
    t.tap(t.host, "Stopwatch showed 4")
    t.tap(t.phone, "#3 Harbor")
    t.tap(t.host, "Roll (the box rolls)")
    t.shot("scoop2002")
    t.check_phone_fits()
    t.abandon(t.phone)
    t.shot("scoop2002-end")


def test_scan_on_two_devices(table):
    t = table
    t.start("SCAN (Parker Brothers, 1988)", [("Ann", "North"), ("Bob", "East"), ("Cat", "North"), ("Dan", "East")],
            variant="Team SCAN: 4 players, partners opposite; deal 7.")

    def hand(page, counts):
        for side, suits in enumerate(counts):
            for suit, n in zip(("spades", "hearts", "diamonds", "clubs"), suits):
                page.fill("#hand-%d-%s" % (side, suit), str(n))
        t.tap(page, "Score hand", exact=False)

    hand(t.host, [(10, 5, 3, 6), (3, 8, 10, 7)])         # WE +50, THEY -50 counts as 0 (6 and 7 tricks)
    assert t.agree()["numbers"] == ["total:North=50", "total:East=0"]
    hand(t.phone, [(2, 2, 2, 2), (11, 11, 11, 11)])
    t.shot("scan")
    t.check_phone_fits()
    t.tap(t.host, "Undo: hand 2:", exact=False)
    hand(t.phone, [(13, 13, 2, 0), (0, 0, 11, 13)])      # North reach 235: over 155
    t.finish(t.phone, "Ann and Cat won!")
    t.shot("scan-end")


def test_a_scan_game_against_the_clock_counts_down_on_both_devices(table):
    """SCAN: "a time-limit game with a countdown and the highest score at the end"."""
    t = table
    t.start("SCAN (Parker Brothers, 1988)", [("Ann", "North"), ("Bob", "East"), ("Cat", "North"), ("Dan", "East")],
            variant="Team SCAN: 4 players, partners opposite; deal 7.", minutes=30)
    for p in t.pages:
        p.wait_for_function("/^Time left: (30:00|29:\\d\\d)$/.test((document.querySelector('.countdown') || {}).textContent || '')",
                            timeout=WAIT)
    # with time left, "Time is up" asks first (as Abandon does), the safe answer focused
    phone = t.phone
    phone.get_by_role("button", name="Time is up: the highest score wins", exact=True).click()
    phone.wait_for_selector("#time-up-no", state="visible", timeout=WAIT)
    assert phone.evaluate("document.activeElement.id") == "time-up-no"
    assert re.match(r"^Time hasn't run out: (30:00|29:\d\d) left\. End the game now\?",
                    phone.inner_text("#time-up-question")), phone.inner_text("#time-up-question")
    phone.keyboard.press("Enter")                            # Enter on the focused "No" keeps the game
    assert phone.evaluate("document.activeElement.id") == "time-up"
    assert not phone.is_visible("#time-up-yes") and t.version(t.host) == 1
    phone.click("#time-up")
    phone.keyboard.press("Escape")                           # and so does Escape
    assert phone.evaluate("document.activeElement.id") == "time-up" and t.version(t.host) == 1
    phone.click("#time-up")
    t.tap(phone, "Yes, end the game now")
    for p in t.pages:       # the words don't say time ran out: it did not
        p.wait_for_function("(document.querySelector('.countdown') || {}).textContent === "
                            "'The game was ended before its time ran out.'", timeout=WAIT)
        assert "time ran out;" not in p.inner_text("#game-area").replace("before its time ran out", "")


def test_get_the_scoop_on_two_devices(table):
    """The box keeps the board: three rounds from the rules' setup to Ann's win (the engine's
    whole-game test, shortened), with a Journalist moved from the panel."""
    t = table

    def reveal(page, *plays):
        for seat, protester, *card in plays:
            page.select_option("#gts-%d-p" % seat, str(protester))
            if card:                                        # a bluff turns up no card to read
                page.select_option("#gts-%d-r" % seat, card[0])
                page.select_option("#gts-%d-s" % seat, card[1])
        t.tap(page, "Reveal the cards")

    def journalists_done(first):
        for k in range(4):
            seat = (first + k) % 4
            t.tap((t.host, t.phone)[seat % 2], "%s's Journalists are done" % ("Ann", "Bob", "Cat", "Dan")[seat])

    t.start("Get the Scoop! (Cardboard Jam, 2011)", [("Ann", None), ("Bob", None), ("Cat", None), ("Dan", None)])
    reveal(t.host, (0, 1, "9", "hearts"), (2, "bluff"))    # P1 up: f5, then Officer 1 blocks; Cat bluffs
    assert "blocked by Police Officer 1" in t.phone.inner_text(".gts")
    assert "Bluffed (a card, no die; the card is discarded): Cat" in t.phone.inner_text(".gts")
    police = t.phone.locator(".gts details").first                 # its arrows are for the eye only
    assert "1→" in police.inner_text() and "→" not in police.aria_snapshot(), police.aria_snapshot()
    assert t.phone.get_attribute("[data-square='f5']", "aria-label") == "f5: Protester 1"
    t.host.click("[data-square='c3']")                     # tap a Journalist, then where it goes
    # the squares it can go to are marked: those the move list offers from c3, and only those
    offered = sorted(t.host.eval_on_selector("#gts-move", """s => [...s.options].map(o => o.text)
        .filter(x => x.startsWith('c3 →')).map(x => x.split(' ')[2])"""))
    assert offered and sorted(t.host.eval_on_selector_all(".gts-can-go", "tds => tds.map(td => td.dataset.square)")) == offered
    t.host.click("[data-square='d4']")
    assert t.host.locator(".gts-can-go").count() == 0 and t.host.locator(".gts-picked").count() == 0
    assert t.host.eval_on_selector("#gts-move", "s => s.options[s.selectedIndex].text") == "c3 → d4 (step)"
    t.tap(t.host, "Move the Journalist")
    assert "2 of 3 actions left" in t.phone.inner_text(".gts-actions")
    t.tap(t.host, "Ann's Journalists are done")
    # Bob holds three cards: a draw discards one first, and no more than the three a turn may
    assert t.phone.eval_on_selector("#gts-discard", "s => [...s.options].map(o => o.text)") == [
        "discard 1", "discard 2", "discard 3"]
    for seat in (1, 2, 3):
        t.tap((t.host, t.phone)[seat % 2], "%s's Journalists are done" % ("Ann", "Bob", "Cat", "Dan")[seat])
    t.shot("get_the_scoop")
    t.check_phone_fits()
    t.tap(t.host, "Ann moves the police")                 # the box moves them on its board
    assert "Bob" in t.phone.inner_text(".badge-first")     # the badge passed clockwise
    reveal(t.phone, (0, 1, "8", "hearts"), (3, 1, "A", "spades"))
    assert "order drawn by the box" in t.host.inner_text(".gts")
    journalists_done(1)
    t.tap(t.phone, "Bob moves the police")
    reveal(t.host, (0, 1, "9", "spades"))                  # e2 to b2, pushing Ann's own Journalist
    t.finish(t.phone, "Ann won!")
    t.shot("get_the_scoop-end")


def test_star_reporter_on_two_devices(table):
    from controller.games import registry
    try:
        engine = registry.load("star_reporter")
    except registry.EngineUnavailable as e:
        pytest.skip(str(e))
    t = table
    t.start(engine.title, [("Ann", None), ("Bob", None), ("Cat", None)])
    pages = [t.host, t.phone]
    while t.host.get_by_role("button", name="Throw for who moves first").count():   # ties throw again
        t.tap(pages[t.version(t.host) % 2], "Throw for who moves first")
    first = t.host.inner_text("#waiting").split()[0]
    t.tap(t.host, "By automobile", exact=False)
    assert first in t.phone.inner_text(".throw-box")          # the throw, in the rules' words
    if t.phone.get_by_role("button", name="Reached the assignment's city").count():   # not on double sixes
        t.phone.fill("input[name=points]", "3")
        t.tap(t.phone, "Reached the assignment's city")
        assert any(n.endswith("=3") for n in t.agree()["numbers"])
    t.tap(t.phone, "By train", exact=False)
    t.shot("star_reporter")
    t.check_phone_fits()
    t.abandon(t.host)
    t.shot("star_reporter-end")


# ---------------------------------------------------------------- several devices, one truth

def test_a_stale_tap_is_refused_in_words_and_the_view_catches_up(table):
    t = table
    t.start("SCOOP (Parker Brothers, 1956)", [("Ann", None), ("Bob", None)])
    t.phone.evaluate("window.NEWSDESK_PANEL.stream.close()")     # the phone stops listening
    t.host.get_by_role("button", name="Exchange a card", exact=True).click()
    t.host.wait_for_function("document.body.dataset.version === '2'", timeout=WAIT)
    t.phone.get_by_role("button", name="Exchange a card", exact=True).click()   # made on version 1
    t.phone.wait_for_function("document.getElementById('toast').textContent.includes('Someone else moved first')",
                              timeout=WAIT)
    t.phone.wait_for_function("document.body.dataset.version === '2'", timeout=WAIT)
    t.agree()


def test_a_device_that_slept_catches_up_on_wake(table, desk):
    t = table
    t.start("SCAN (Parker Brothers, 1988)", [("Ann", None), ("Bob", None), ("Cat", None), ("Dan", None)],
            variant="Team SCAN: 4 players, partners opposite; deal 7.")
    t.phone.evaluate("window.NEWSDESK_PANEL.stream.close()")     # asleep
    taken = {"Ann & Cat": {"spades": 13, "hearts": 3}, "Bob & Dan": {"hearts": 10, "diamonds": 13, "clubs": 13}}
    desk.table.games.act({"type": "hand", "taken": taken}, 1)   # from another device, or the box
    t.host.wait_for_function("document.body.dataset.version === '2'", timeout=WAIT)
    assert t.version(t.phone) == 1
    t.phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")   # wakes up
    t.settle(2)


# ---------------------------------------------------------------- the phone and the editor

def test_dialing_on_one_tablet_shows_the_verdict_on_another(table, desk):
    t = table
    watcher, dialer = t.host, t.phone
    assert "Simulated hardware" in dialer.inner_text("#hardware")
    dialer.focus("rotary-dial")
    dialer.keyboard.press("7")
    watcher.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 7'", timeout=WAIT)
    signal = watcher.inner_text("#verdict-signal")
    assert signal == desk.store.latest("editor.verdict")[0].payload["signal"]
    dialer.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 7'", timeout=WAIT)
    assert watcher.inner_text("#calls li:first-child .call-signal") == signal
    t.shot("panel")
    t.check_phone_fits()


def test_the_verdict_is_still_there_after_a_reload(server, screens, desk):
    event = desk.table.call_editor(3)
    with screens.page(DESKTOP) as page:
        page.goto("http://127.0.0.1:%d/" % server)
        assert page.inner_text("#verdict-signal") == event.payload["signal"]
        assert page.inner_text("#verdict-meta") == "Dialed 3"


def test_the_history_page_lists_games_and_players(table, desk):
    t = table
    # a short game: Get the Scoop! with the board kept by the table, which says who won
    status = t.host.evaluate("""() => fetch('/api/games', {method: 'POST',
        headers: {'X-Newsdesk': '1', 'Content-Type': 'application/json'},
        body: JSON.stringify({engine: 'get_the_scoop', options: {board: 'table'},
                              players: ['Ann', 'Bob', 'Cat', 'Dan'].map(name => ({name}))})}).then(r => r.status)""")
    assert status == 201
    t.settle(1)
    t.tap(t.host, "Reveal the cards")
    t.tap(t.host, "Dan's van holds a Protester")
    t.finish(t.host, "Dan won!")
    t.phone.goto(t.phone_url + "/history")
    assert "Get the Scoop!" in t.phone.inner_text("#history")
    assert "Dan" in t.phone.inner_text("#stats")
    t.phone.click("#history a")
    t.phone.wait_for_function("(document.getElementById('winner') || {}).textContent === 'Dan won!'", timeout=WAIT)
    t.check_phone_fits()
    picture(t.phone, "history-game-phone.png", full_page=True)


def test_on_a_phone_each_row_of_the_player_statistics_keeps_its_players_name_in_view(server, screens, desk):
    """At a phone's width the statistics scroll sideways; scrolled to their right edge, each row
    still shows its player's name at the left (the name scrolled away, leaving numbers without
    a player), over the cells that pass under it. The list of games never scrolls sideways."""
    from conftest import play_a_game
    for winner in (1, 2):
        play_a_game(desk, winner)
    with screens.page({"width": 390, "height": 844}) as page:
        page.goto("http://127.0.0.1:%d/history" % server)
        box = page.locator("#stats").locator("xpath=..")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth"), "the statistics no longer scroll at 390 px"
        box.scroll_into_view_if_needed()
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        shown = page.evaluate("""() => {
            const box = document.querySelector('#stats').parentElement.getBoundingClientRect();
            return [...document.querySelectorAll('#stats tr > :first-child')].map(th => {
              const r = th.getBoundingClientRect();
              const top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
              return r.left >= box.left - 1 && r.left <= box.left + 20 && th.contains(top); }); }""")
        assert shown == [True] * 5, shown       # the heading row and each of the four players
        assert page.evaluate("""() => document.documentElement.scrollWidth <= innerWidth
            && [...document.querySelectorAll('#history, #history li')].every(e => e.scrollWidth <= e.clientWidth)""")
        assert not page.errors, page.errors


def test_on_a_phone_the_charts_numbers_keep_each_moves_name_in_view(server, screens):
    """"The numbers, move by move" under a chart of six players scrolls sideways on a phone, and
    its move column scrolled away with the first player's, as the statistics' names did."""
    with screens.page(PHONE) as page:
        page.goto("http://127.0.0.1:%d/" % server)
        shown = page.evaluate("""() => import('/static/js/endgame.js').then((m) => {
            const names = ["Annabel", "Bartholomew", "Catriona", "Dominique", "Evangeline", "Fitzgerald"];
            const data = {unit: "score", prefix: "", players: names, colours: names.map(() => null),
                          points: [0, 1, 2].map((move) => ({move, said: "", values: names.map((_, i) => move * i)}))};
            const box = document.createElement("div");
            box.style.width = "350px";
            box.append(m.chart(data, 350));
            document.body.prepend(box);
            box.querySelector("details").open = true;
            const scroller = box.querySelector(".table-scroll");
            if (scroller.scrollWidth <= scroller.clientWidth) return "does not scroll";
            scroller.scrollLeft = scroller.scrollWidth;
            const edge = scroller.getBoundingClientRect().left;
            return [...scroller.querySelectorAll("tr > :first-child")].map((cell) => {
              const r = cell.getBoundingClientRect();
              const top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
              return r.left >= edge - 1 && r.left <= edge + 20 && cell.contains(top); }); })""")
    assert shown == [True] * 4, shown       # the heading row and each move's


def test_the_simulated_buttons_roll_on_the_panel_and_feed_a_roll(table, desk):
    if getattr(desk, "sim_buttons", None) is None:
        pytest.skip("this newsdesk has no simulated dice and stopwatch buttons")
    t = table
    t.phone.click("#sim-dice")
    t.host.wait_for_function("(document.querySelector('.oracle-kind') || {}).textContent === 'Dice'", timeout=WAIT)
    total = desk.store.latest("dice.roll")[0].payload["total"]
    assert t.host.inner_text(".oracle-value") == str(total)
    # a long press changes the dice, said in words a table reads ("1d6" alone was jargon)
    t.host.click("#sim-press")
    t.host.wait_for_function("/The dice are now/.test((document.getElementById('toast') || {}).textContent)", timeout=WAIT)
    dice = desk.store.latest("dice.set")[0].payload["dice"]
    count, sides = dice.split("d")
    words = {"1": "one %s-sided die", "2": "two %s-sided dice", "3": "three %s-sided dice"}[count] % sides
    assert t.host.inner_text("#toast") == "The dice are now %s (%s)." % (words, dice)
    t.start("Scoop! (Invisible City Productions, 2002)", [("Ann", None), ("Bob", None)])
    t.tap(t.host, "Move")
    t.host.click("#sim-stopwatch")      # start ...
    t.host.click("#sim-stopwatch")      # ... and stop: the hundredths digit is the roll
    t.phone.wait_for_selector("#use-stopwatch", timeout=WAIT)
    digit = desk.store.latest("stopwatch.roll")[0].payload["digit"]
    assert t.phone.inner_text("#use-stopwatch") == "Use the stopwatch: %d" % digit
    t.tap(t.phone, "Use the stopwatch: %d" % digit)
    assert desk.table.games.state["last"]["value"] == digit


def test_a_page_loaded_mid_call_is_true_from_its_first_paint(server, screens, desk, client):
    """The handset lifted and 4 dialed before the page loads: it shows both, and Hang up hangs up."""
    from conftest import wait_for
    assert client.post("/api/sim/hook", json={"state": "off"}).status_code == 202
    assert wait_for(lambda: desk.table.hook == "off")
    assert client.post("/api/sim/dial", json={"digit": 4}).status_code == 202
    assert wait_for(lambda: desk.store.latest("editor.verdict"))
    with screens.page(DESKTOP) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        assert page.inner_text("#hook-state") == "lifted"
        assert page.inner_text("#last-digit") == "4"
        assert page.inner_text("#verdict-meta") == "Dialed 4"
        assert page.inner_text("#hook-button") == "Hang up"
        page.click("#hook-button")
        page.wait_for_function("document.getElementById('hook-state').textContent === 'on the cradle'")
        assert page.inner_text("#hook-button") == "Lift the handset"
        assert desk.table.hook == "on"


def test_a_digit_dialed_on_the_simulated_phone_leaves_the_handset_off_the_hook_and_says_so(server, screens, desk):
    """Dialing with the handset on the cradle lifts it first, as a person would, and it stays
    lifted after the digit as a real handset does (the editor speaks into it, a join code is
    several digits dialed without hanging up): the page says it is off the hook and why, offers
    Hang up beside the sentence, and says so again when the line goes busy. Hang up puts it back."""
    desk.sounds._cp.busy_after = 1.0     # config's busy_after (20 s) at its least, before any call
    with screens.page(DESKTOP) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.getElementById('link').textContent === 'live'")
        assert page.inner_text("#hook-note") == "On the cradle. Dialing lifts it first, as you would."
        page.focus("rotary-dial")
        page.keyboard.press("7")
        page.wait_for_function("document.getElementById('last-digit').textContent === '7'")
        assert desk.table.hook == "off"
        assert page.inner_text("#hook-state") == "lifted"
        note = page.inner_text("#hook-note")
        assert note == ("Off the hook: a real handset stays lifted after dialing, to hear the editor or "
                        "dial more. Hang up when the call is over.")
        button = page.get_by_role("button", name="Hang up")
        assert button.is_visible()
        assert button.get_attribute("aria-describedby") == "hook-note"
        # the line goes busy after busy_after (1 s here) of silence with the handset still lifted
        page.wait_for_function("document.getElementById('hook-note').textContent.startsWith('The line is busy')")
        assert page.inner_text("#hook-note") == "The line is busy: the call is over. Hang up."
        button.click()
        page.wait_for_function("document.getElementById('hook-state').textContent === 'on the cradle'")
        assert page.inner_text("#hook-note") == "On the cradle. Dialing lifts it first, as you would."
        assert desk.table.hook == "on"
        assert not page.errors


def _scoop_game(client, *actions):
    w = {"X-Newsdesk": "1"}
    r = client.post("/api/games", json={"engine": "scoop1956", "options": {}, "players": [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]}, headers=w)
    assert r.status_code == 201, r.get_data(as_text=True)
    for action in actions:
        version = client.get("/api/games/current").get_json()["game"]["version"]
        r = client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=w)
        assert r.status_code == 200, (action, r.get_data(as_text=True))


def _reserve_shown(page, name, words):
    """Wait until ``name``'s paper shows its reserve as ``words`` ("space 1 0/2 · space 2 0/2")."""
    page.wait_for_function("([name, words]) => { const p = document.querySelector(`article[aria-label=\"${name}'s paper\"]`);"
                           " return p && p.textContent.includes('Reserve: ' + words); }", arg=[name, words])


@pytest.mark.slow
def test_a_story_from_the_reserve_and_a_scooped_one_are_claimed_on_the_panel(server, screens, desk, client):
    """'When a player has one or more cards in his reserve pile and holds in his hand the
    additional card or cards necessary to make a story, he may play them', and with a SCOOP card
    'capture the card or cards which he wants' from another player's reserve: the claim's form
    offers where the cards come from, and the reserve counts on the page follow the claim."""
    _scoop_game(client, {"type": "reserve", "player": 0, "cards": 2, "space": 1},
                {"type": "reserve", "player": 1, "cards": 1, "space": 1})
    w = {"X-Newsdesk": "1"}

    def api(action):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        r = client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=w)
        assert r.status_code == 200, (action, r.get_data(as_text=True))

    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        _reserve_shown(page, "Bob", "space 1 1/2 · space 2 0/2")
        claim = page.locator("form[aria-label='Claim a Sport story']")
        claim.wait_for()
        assert claim.locator("select option").all_inner_texts() == [          # in short; whole under it
            "All from the hand", "2 from reserve space 1", "1 from reserve space 1", "SCOOP 1 of Bob's space 1"]
        claim.locator("select").select_option(label="SCOOP 1 of Bob's space 1")
        assert claim.locator(".choice-words").inner_text() == "SCOOP 1 card from Bob's space 1 + 2 from the hand"
        claim.get_by_role("button", name="Claim a Sport story").click()
        _reserve_shown(page, "Bob", "space 1 0/2 · space 2 0/2")
        _reserve_shown(page, "Ann", "space 1 2/2 · space 2 0/2")
        said = client.get("/api/games/current").get_json()["game"]["view"]["claim"]
        assert (said["cards_from_hand"], said["scooped_from"]) == (2, 1)
        api({"type": "verdict", "signal": "SCRAP IT", "digit": 5})
        api({"type": "exchange", "player": 1})
        ad = page.locator("form[aria-label='Place an advertisement']")
        ad.locator("select").select_option(label="2 from reserve space 1")
        ad.get_by_role("button", name="Place an advertisement").click()      # no printed value: refused
        ad.locator(".field-problem:not([hidden])").wait_for()
        assert ad.locator(".field-problem").inner_text().startswith("Ann: enter the value printed on the advertisement")
        claim = page.locator("form[aria-label='Claim a Crime story']")
        claim.locator("select").select_option(label="2 from reserve space 1")
        claim.get_by_role("button", name="Claim a Crime story").click()
        _reserve_shown(page, "Ann", "space 1 0/2 · space 2 0/2")
        said = client.get("/api/games/current").get_json()["game"]["view"]["claim"]
        assert (said["story_type"], said["cards_from_hand"], said["scooped_from"]) == ("crime", 1, None)
        picture(page, "scoop1956-reserve-claim-tablet.png", full_page=True)


# Each claim form's choice of cards, measured against the room its select gives it: how wide the
# select would be with no limit (every choice whole), and the width of the choice now shown.
_CARD_CHOICES = """() => [...document.querySelectorAll('#offers form select[name=from]')].map(s => {
    const free = s.cloneNode(true);
    free.style.cssText = 'width: auto; max-width: none; min-width: 0';
    const box = document.createElement('div');
    box.style.cssText = 'position: absolute; left: 0; top: 0; width: 4000px; visibility: hidden';
    box.appendChild(free); document.body.appendChild(box);
    const whole = free.getBoundingClientRect().width;
    box.remove();
    const cs = getComputedStyle(s), c = document.createElement('canvas').getContext('2d');
    c.font = cs.font;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;  // the arrow
    return {form: s.form.getAttribute('aria-label'), width: s.getBoundingClientRect().width, whole,
            shown: s.options[s.selectedIndex].text, fits: c.measureText(s.options[s.selectedIndex].text).width <= room};
})"""


@pytest.mark.parametrize("size", [TABLET, {"width": 390, "height": 844}], ids=["tablet", "phone"])
def test_the_cards_a_claim_is_made_from_read_whole(server, screens, desk, client, size):
    """With cards in a reserve, each claim asks where its three cards come from. Five claims in a
    grid of buttons gave each select a cell's width, and it read "All from the ha" on a tablet
    and a phone: a player could not read the choice before making it. A claim with a choice
    takes a whole row: on a tablet every choice reads whole, on a phone the one shown does."""
    _scoop_game(client, {"type": "reserve", "player": 0, "cards": 2, "space": 1})
    with screens.page(size) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        _reserve_shown(page, "Ann", "space 1 2/2 · space 2 0/2")
        page.locator("form[aria-label='Claim a Crime story'] select").wait_for()
        seen = page.evaluate(_CARD_CHOICES)
        assert len(seen) == 6, seen           # five stories and the advertisement
        assert all(s["shown"] == "All from the hand" and s["fits"] for s in seen), seen
        if size is TABLET:
            assert all(s["width"] >= s["whole"] - 0.5 for s in seen), seen
        picture(page, "scoop1956-card-choices-%dx%d.png" % (size["width"], size["height"]), full_page=True)


def test_scans_suits_wear_the_colours_of_its_deck(server, screens, client):
    """The SCAN deck is colour-coded: "Spades, Black ... Hearts, Red ... Diamonds, Blue ...
    Clubs, Green". The panel drew Diamonds red like Hearts and Clubs in plain ink: a table
    matching the screen to its cards by colour read Diamonds as Hearts. Each suit's symbol wears
    its card's colour (Spades the page's ink: black on a dark page can't be read)."""
    r = client.post("/api/games", json={"engine": "scan", "options": {"variant": "team"}, "players": [
        {"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]}, headers={"X-Newsdesk": "1"})
    assert r.status_code == 201, r.get_data(as_text=True)
    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.locator(".legend .suit-clubs").wait_for()
        rgb = page.evaluate("""() => Object.fromEntries(['spades', 'hearts', 'diamonds', 'clubs'].map(s => [s,
            getComputedStyle(document.querySelector('.legend .suit-' + s + ' .suit-symbol')).color
              .match(/\\d+/g).slice(0, 3).map(Number)]))""")
    hue = {suit: ("grey" if max(r, g, b) - min(r, g, b) < 40 else "red" if r > max(g, b)
                  else "green" if g > max(r, b) else "blue" if b > max(r, g) else "?")
           for suit, (r, g, b) in rgb.items()}
    assert (hue["hearts"], hue["diamonds"], hue["clubs"]) == ("red", "blue", "green"), rgb
    assert hue["spades"] == "grey", rgb


def test_the_sidebar_follows_the_call_and_a_hand_entered_signal(server, screens, desk, client):
    desk.table.call_editor(5)                         # an earlier call's verdict, from the phone
    _scoop_game(client, {"type": "claim", "player": 0, "story_type": "sport"})
    with screens.page(DESKTOP) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        assert page.inner_text("#verdict-signal") == "Calling…"          # from the first paint
        assert page.inner_text("#verdict-message") == "Ann claims a Sport story: dial the editor."
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": {"type": "verdict", "signal": "PRESS"},
                                                        "version": version}, headers={"X-Newsdesk": "1"})
        page.wait_for_function("document.getElementById('verdict-signal').textContent === 'PRESS'")
        assert page.inner_text("#verdict-meta") == "On Ann's Sport story"
        page.reload()                                                     # and so after a reload
        assert page.inner_text("#verdict-signal") == "PRESS"


def test_a_finished_games_chart_leaves_out_the_undone_move(server, screens, desk, client):
    _scoop_game(client, {"type": "claim", "player": 0, "story_type": "sport"},
                {"type": "verdict", "signal": "EXTRA", "digit": 5},
                {"type": "place", "player": 0, "slot": "sport", "value": 400})
    w = {"X-Newsdesk": "1"}
    version = client.get("/api/games/current").get_json()["game"]["version"]
    r = client.post("/api/games/current/undo", json={"version": version}, headers=w)
    assert r.status_code == 200
    r = client.post("/api/games/current/abandon", json={"version": r.get_json()["version"]}, headers=w)
    assert r.status_code == 200, r.get_data(as_text=True)
    game_id = r.get_json()["id"]
    with screens.page(DESKTOP) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/games/%d" % (server, game_id))
        page.wait_for_selector(".chart-box")
        said = page.eval_on_selector_all(".chart-box tbody th[scope=row]", "ths => ths.map(t => t.title)")
        assert len(said) == 3 and not any("undid" in s or "place" in s.lower() for s in said), said
        assert "undone moves drop out" in page.inner_text(".chart-box figcaption")
        # Ann (red) and Bob (blue) drawn in their colours, lightened for the dark card (Ann was gold)
        assert page.eval_on_selector_all(".chart polyline", "ls => ls.map(l => l.getAttribute('stroke'))") == [
            "#ff7b7b", "#6cb6ff"]


@pytest.mark.parametrize("size", [PHONE, {"width": 768, "height": 1024}], ids=["phone", "tablet"])
def test_a_finished_games_chart_labels_stay_inside_it_with_long_names(server, screens, desk, client, size):
    """Each line ends with its player's name and value: a long name is cut, never the value, and
    nothing runs off the chart."""
    w = {"X-Newsdesk": "1"}
    names = ["Maximiliana Wolkenstein-Oberhausen", "Zoë"]
    r = client.post("/api/games", json={"engine": "scoop1956", "options": {}, "players": [{"name": n} for n in names]},
                    headers=w)
    assert r.status_code == 201, r.get_data(as_text=True)
    r = client.post("/api/games/current/abandon", json={"version": 1}, headers=w)
    game_id = r.get_json()["id"]
    with screens.page(size) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/games/%d" % (server, game_id))
        page.wait_for_selector(".chart-box .line-label")
        labels = page.eval_on_selector_all(".chart .line-label", """ts => ts.map((t) => {
            const b = t.getBBox(), w = t.ownerSVGElement.viewBox.baseVal.width;
            return [t.textContent, b.x + b.width <= w + 0.5]; })""")
        assert all(inside for _, inside in labels), labels
        assert sorted(text.rsplit(" ", 1)[1] for text, _ in labels) == ["$3,000", "$3,000"], labels
        long_one = next(text for text, _ in labels if text.startswith("Max"))
        assert long_one.endswith("… $3,000") and any(text == "Zoë $3,000" for text, _ in labels), labels


def test_a_short_name_that_fits_is_never_cut_at_a_lines_end(server, screens):
    """At a phone's width "Ann $4,500" was drawn "A… $4,500": the label room was the widest
    label's width rounded to the nearest pixel, down as often as up, and the label then didn't fit."""
    with screens.page(PHONE) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        labels = page.evaluate("""() => import('/static/js/endgame.js').then((m) => {
            const out = [];
            for (const names of [["Ann", "Bob"], ["Cat", "Dan"], ["Eve", "Zoë"], ["Max", "Ian"], ["Jo", "Al"]])
              for (const money of [3000, 4500, 3600, 12345, 999]) {
                const data = {unit: "worth", prefix: "$", players: names, colours: [null, null],
                              points: [{move: 0, said: "", values: [3000, 3000]}, {move: 1, said: "", values: [money, 3000]}]};
                const box = document.createElement("div");
                box.append(m.chart(data, 300));
                document.body.append(box);
                out.push(...[...box.querySelectorAll(".line-label")].map((t) => t.textContent));
                box.remove();
              }
            return out; })""")
    assert labels and not [text for text in labels if "…" in text], labels


def test_a_new_game_opens_without_the_last_games_verdict(server, browser, screens, desk, client):
    """The editor's calls from before a game started are not this game's: neither the page that
    watched them live nor one loaded afterwards shows them in big type, in the sidebar or in
    "Calls to the editor"; a call made during the game is shown as usual."""
    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.getElementById('link').textContent === 'live'")
        desk.table.call_editor(4)                         # before the game, with the page watching
        page.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 4'")
        _scoop_game(client)
        page.wait_for_function("document.body.dataset.version === '1'")
        fresh = browser.new_page(viewport=TABLET)
        fresh.set_default_timeout(WAIT)
        fresh.goto("http://127.0.0.1:%d/" % server)
        fresh.wait_for_function("document.body.dataset.version === '1'")
        for p in (page, fresh):
            assert p.inner_text(".verdict-box .signal") == "—"
            assert "Last verdict" not in p.inner_text("#game-area")
            assert p.inner_text("#verdict-signal") == "—"
            assert p.inner_text("#verdict-message") == "No call to the editor in this game yet."
            assert p.inner_text("#verdict-meta") == ""
            assert p.inner_text("#calls") == "No calls in this game yet."
        picture(fresh, "new-game-no-old-verdict-tablet.png", full_page=True)
        event = desk.table.call_editor(7)                 # a call during the game is this game's
        for p in (page, fresh):
            p.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 7'")
            assert p.inner_text("#calls .call-signal") == event.payload["signal"]
            assert p.locator("#calls li").count() == 1
    fresh.close()


def test_calls_to_the_editor_lists_the_verdicts_entered_by_hand(server, browser, screens, desk, client):
    """The table may enter the editor's verdict by hand instead of dialing: "Calls to the editor"
    lists it, marked so, among the phone's calls and newest first, on the page that watched it
    and on one loaded afterwards; an undo takes it off. It said "No calls in this game yet"."""
    _scoop_game(client)
    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.body.dataset.version === '1'")
        assert page.inner_text("#calls") == "No calls in this game yet."
        page.get_by_role("button", name="Claim a Sport story", exact=True).click()
        page.wait_for_function("document.body.dataset.version === '2'")
        page.get_by_role("button", name=signal_button("SCRAP IT")).click()      # entered by hand
        page.wait_for_function("document.body.dataset.version === '3'")
        assert page.locator("#calls li").all_inner_texts() == ["SCRAP IT entered by hand"]
        dialed = desk.table.call_editor(4)       # no claim pending: a call all the same, and listed
        page.wait_for_function("document.getElementById('verdict-meta').textContent === 'Dialed 4'")
        listed = ["%s dialed 4" % dialed.payload["signal"], "SCRAP IT entered by hand"]
        assert page.locator("#calls li").all_inner_texts() == listed
        fresh = browser.new_page(viewport=TABLET)
        fresh.set_default_timeout(WAIT)
        fresh.goto("http://127.0.0.1:%d/" % server)
        fresh.wait_for_function("document.body.dataset.version === '3'")
        assert fresh.locator("#calls li").all_inner_texts() == listed
        page.click("#undo")                      # the verdict taken back
        for p in (page, fresh):
            p.wait_for_function("document.body.dataset.version === '4'")
            assert p.locator("#calls li").all_inner_texts() == listed[:1]
    fresh.close()


def test_a_page_loaded_after_a_call_in_the_game_shows_it_as_the_last_verdict(server, screens, desk, client):
    """A reload draws SCOOP's screen as the page that watched had it: the verdict the phone gave
    during the game, and later the verdict a claim was judged by once the turn has moved on, stay
    in big type as "Last verdict". Before, the page heard them and its first draw forgot them."""
    _scoop_game(client)
    event = desk.table.call_editor(7)
    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.body.dataset.version === '1'")
        assert page.inner_text(".verdict-box .small") == "Last verdict (dialed 7)"
        assert page.inner_text(".verdict-box .signal-last") == event.payload["signal"]
        w = {"X-Newsdesk": "1"}
        for action in ({"type": "claim", "player": 0, "story_type": "sport"},
                       {"type": "verdict", "signal": "EXTRA", "digit": 5},
                       {"type": "place", "player": 0, "slot": "sport", "value": 400}):
            version = client.get("/api/games/current").get_json()["game"]["version"]
            r = client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=w)
            assert r.status_code == 200, r.get_data(as_text=True)
        page.reload()
        page.wait_for_function("document.body.dataset.version === '4'")
        assert page.inner_text(".verdict-box .small") == "Last verdict (Ann's Sport story)"
        assert page.inner_text(".verdict-box .signal-last") == "EXTRA"
        picture(page, "reload-keeps-the-last-verdict-tablet.png")


# Every word on the page that is drawn on more than one line: a word broken inside itself
# ("THRE / E / STARS"). Words are split at spaces, hyphens, dashes and slashes, where a line may
# rightly end.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style, noscript, [hidden]") || !el.getClientRects().length) continue;
    const words = /[^\\s\\-–—\\/·]+/g;
    let m;
    while ((m = words.exec(n.data))) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.bottom)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("size", [TABLET, {"width": 768, "height": 1024}, {"width": 390, "height": 844}],
                         ids=["1024x768", "768x1024", "390x844"])
def test_no_word_is_broken_inside_itself(server, screens, desk, client, size):
    """THREE STARS in big type, in the game and in the sidebar, at a tablet's two orientations
    and a phone's size: every word whole on its line."""
    _scoop_game(client, {"type": "claim", "player": 0, "story_type": "sport"},
                {"type": "verdict", "signal": "THREE STARS"})
    with screens.page(size) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.body.dataset.version === '3'")
        assert page.inner_text("#verdict-signal") == "THREE STARS"
        assert page.inner_text(".verdict-box .signal") == "THREE STARS"
        picture(page, "three-stars-%dx%d.png" % (size["width"], size["height"]), full_page=True)
        assert page.evaluate(BROKEN_WORDS) == []


def test_each_signal_button_is_named_by_what_the_editor_says(server, screens, desk, client):
    """A claim waiting for the editor offers his eight signals as buttons for a table with no
    phone at hand. "X" and "!!!" alone tell a screen reader nothing: each button's name is its
    signal and the editor's message, as the rules print it."""
    from controller.oracles.editor import SIGNALS
    _scoop_game(client, {"type": "claim", "player": 0, "story_type": "sport"})
    with screens.page(TABLET) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        group = page.get_by_role("group", name="No phone at hand? Enter the editor's signal")
        group.wait_for()
        for code, (words, _, _) in SIGNALS.items():
            button = group.get_by_role("button", name=re.compile(signal_button(code).pattern + re.escape(words) + "$"))
            assert button.count() == 1, (code, group.aria_snapshot())
            # what shows is the phone's window; the message takes no room
            assert button.evaluate("b => b.firstChild.textContent") == code
            box = button.locator(".sr-only").bounding_box()
            assert box is not None and box["width"] <= 1 and box["height"] <= 1, box
        group.get_by_role("button", name=signal_button("X")).click()
        page.wait_for_function("document.body.dataset.version === '3'")
        # the refusal is the verdict shown and told (#verdict is a live region), in the sidebar and
        # in the game, not the call's "Calling..." nor a verdict from before it
        page.wait_for_function("document.getElementById('verdict-signal').textContent === 'X'")
        assert page.inner_text("#verdict-message") == SIGNALS["X"][0]
        assert page.inner_text("#verdict-meta") == "On Ann's Sport story"
        assert page.inner_text(".verdict-box .signal-last") == "X"
        game = client.get("/api/games/current").get_json()["game"]["id"]
        said = client.get("/api/games/%d" % game).get_json()["log"][-1]
        assert said["version"] == 3 and said["said"].startswith("the editor said X:"), said


def test_names_the_table_would_read_as_one_are_refused_on_the_start_form(table):
    """"Ann" and "ann" are one player's name at the table: the start form says so in words and no
    game starts."""
    t = table
    page = t.host
    page.get_by_label("SCOOP (Parker Brothers, 1956)").check()
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "ann")
    page.click("#start-game")
    page.wait_for_selector("#start-error:not([hidden])", timeout=WAIT)
    said = page.inner_text("#start-error")
    assert said.startswith("Players 1 and 2 are both called Ann (Ann and ann are one name at the table)"), said
    assert "{" not in said and "name\"" not in said
    assert t.version(page) == 0
    # both names' fields are marked, told by the sentence, and the first has the focus
    for field in ("#player-0", "#player-1"):
        assert page.get_attribute(field, "aria-invalid") == "true"
        assert page.get_attribute(field, "aria-describedby") == "start-error"
    assert page.evaluate("document.activeElement.id") == "player-0"
    page.fill("#player-1", "")
    page.click("#start-game")
    page.wait_for_function("document.getElementById('start-error').textContent === 'Player 2 needs a name.'")
    assert page.get_attribute("#player-0", "aria-invalid") is None
    assert page.get_attribute("#player-1", "aria-invalid") == "true"


def test_a_refusal_goes_to_the_field_it_names_or_says_itself_where_the_focus_is(table):
    """The players' sentence is put by their names, not by a number out of its range elsewhere
    on the form; the teams' by the teams; and a sentence naming no field takes the focus itself
    (it was left on the page's body: the next Tab went to the sidebar)."""
    page = table.host
    page.get_by_label("Star Reporter (Parker Brothers, 1937)").check()
    page.fill("#opt-disasters", "12")
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "Ann")
    page.click("#start-game")
    page.wait_for_function("(document.getElementById('start-error').textContent || '').startsWith('Players 1 and 2')")
    assert page.evaluate("document.activeElement.id") == "player-0"
    page.get_by_label("SCAN (Parker Brothers, 1988)").check()
    rows = page.locator(".player-row")
    while rows.count() < 4:
        page.click("#add-player")
    for i, (name, team) in enumerate((("Ann", "x"), ("Bob", "x"), ("Cat", "y"), ("Dan", "y"))):
        page.fill("#player-%d" % i, name)
        page.fill("#team-%d" % i, team)
    page.click("#start-game")
    page.wait_for_function("(document.getElementById('start-error').textContent || '').includes('partners sit opposite')")
    assert page.evaluate("document.activeElement.id") == "team-0"
    assert page.get_attribute("#team-1", "aria-invalid") == "true"
    assert table.version(page) == 0


@pytest.mark.parametrize("size", [TABLET, {"width": 768, "height": 1024}, {"width": 390, "height": 844}],
                         ids=["1024x768", "768x1024", "390x844"])
def test_a_long_unbroken_name_leaves_its_colour_whole(server, screens, client, size):
    """A 40-letter name with no space breaks where it must, but its colour beside it stays one
    word on one line (it was squeezed into a column a letter wide)."""
    from controller.game_session import NAME_MAX
    long = "W" * NAME_MAX
    r = client.post("/api/games", json={"engine": "scoop1956", "options": {}, "players": [
        {"name": long, "colour": "green"}, {"name": "Bob", "colour": "blue"}]}, headers={"X-Newsdesk": "1"})
    assert r.status_code == 201, r.get_data(as_text=True)
    with screens.page(size) as page:
        page.set_default_timeout(WAIT)
        page.goto("http://127.0.0.1:%d/" % server)
        page.wait_for_function("document.body.dataset.version === '1'")
        picture(page, "long-name-%dx%d.png" % (size["width"], size["height"]), full_page=True)
        colours = page.evaluate("""() => [...document.querySelectorAll('.who-colour')].map((el) => {
            const r = document.createRange();
            r.selectNodeContents(el);
            return [el.textContent, new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.bottom))).size];
        })""")
        assert colours and all(lines == 1 for _, lines in colours), colours
        broken = [w for w in page.evaluate(BROKEN_WORDS) if long not in w]     # the name itself must break
        assert broken == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
