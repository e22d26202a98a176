"""Each game's screen is found, not listed: the page's catalogue carries the URL of every game's
screen, a game installed in a distribution of its own brings a screen the panel serves beside
newsdesk's own, and no panel script, stylesheet or template names a game."""

import contextlib
import json
import re
from pathlib import Path

import pytest
from conftest import install_game, launched_chromium, picture, serve_panel

from controller.games import registry
from controller.table import CALLS_SHOWN
from web_ui import create_app
from web_ui.assets import folder_version, static_files

WEB_UI = Path(__file__).resolve().parents[1] / "web_ui"
SCREEN = b'// the sixth game\'s own screen\nexport function render() { return null; }\n'


def boot_of(client):
    html = client.get("/").get_data(as_text=True)
    return json.loads(re.search(r'<script[^>]*id="boot"[^>]*>(.*?)</script>', html, re.S).group(1))


def a_sixth_game(monkeypatch, tmp_path, name, screen, module=None):
    """Installs game ``name``, SCAN's rules under another name, from a package of its own on the
    path; its package ships ``screen`` as screen.js (None: no screen). ``module``: the entry point
    names that module of the package (``name.module:GAME``), not the package."""
    package = tmp_path / name
    package.mkdir()
    source = ("import dataclasses\nfrom controller.games import scan\n"
              "GAME = dataclasses.replace(scan.GAME, name=%r)\n" % name)
    (package / "__init__.py").write_text("" if module else source)
    if module:
        (package / (module + ".py")).write_text(source)
    if screen is not None:
        (package / "screen.js").write_bytes(screen)
    monkeypatch.syspath_prepend(str(tmp_path))
    install_game(monkeypatch, name, "%s%s:GAME" % (name, "." + module if module else ""))


def test_every_game_in_the_pages_catalogue_has_its_screens_versioned_url(client):
    boot = boot_of(client)
    version = client.application.extensions["newsdesk.assets"].version
    assert {g["name"]: g["screen"] for g in boot["catalogue"]} == {
        name: "/static/%s/js/games/%s.js" % (version, name) for name in registry.names()}


def served_with(monkeypatch, tmp_path, desk, name, screen):
    """A panel made with a game ``name`` installed (its package ships ``screen``, or none): the
    panel's test client, its static version, and the screen URL its page gives the game."""
    a_sixth_game(monkeypatch, tmp_path, name, screen)
    app = create_app(newsdesk=desk, test_config={"TESTING": True})
    client = app.test_client()
    url = {g["name"]: g["screen"] for g in boot_of(client)["catalogue"]}[name]
    return app, client, app.extensions["newsdesk.assets"].version, url


def test_a_game_in_its_own_distribution_has_its_screen_served_with_the_panels(monkeypatch, tmp_path, desk):
    app, client, version, screen = served_with(monkeypatch, tmp_path, desk, "sixth_game", SCREEN)
    assert screen == "/static/%s/js/games/sixth_game.js" % version
    r = client.get(screen)
    assert r.status_code == 200
    assert r.data == SCREEN
    assert r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"].endswith("immutable")
    # the screen counts in the version: a new release of the game's screen is a new URL
    assert version != folder_version(static_files(app.static_folder))


def test_a_game_whose_entry_point_names_a_module_has_the_screen_beside_it_served(monkeypatch, tmp_path, desk):
    """``pig.rules:GAME``: its screen.js in ``pig``, beside the module, was passed over without a
    word and the game drawn with the generic screen."""
    a_sixth_game(monkeypatch, tmp_path, "module_game", SCREEN, module="rules")
    app = create_app(newsdesk=desk, test_config={"TESTING": True})
    client = app.test_client()
    version = app.extensions["newsdesk.assets"].version
    screen = {g["name"]: g["screen"] for g in boot_of(client)["catalogue"]}["module_game"]
    assert screen == "/static/%s/js/games/module_game.js" % version
    assert client.get(screen).data == SCREEN


def test_a_game_with_no_screen_anywhere_is_shown_with_the_generic_one(monkeypatch, tmp_path, desk):
    before = create_app(newsdesk=desk, test_config={"TESTING": True}).extensions["newsdesk.assets"].version
    app, client, version, screen = served_with(monkeypatch, tmp_path, desk, "plain_game", None)
    assert screen == "/static/%s/js/games/generic.js" % version
    assert client.get("/static/%s/js/games/plain_game.js" % version).status_code == 404
    assert version == before        # it adds nothing to the version (whatever other games are installed)


@pytest.mark.browser
def test_a_screen_that_fails_to_load_gives_the_generic_one_and_says_why(panel_server, client):
    """Never a blank game area: the game is drawn plainly, and the console says which screen."""
    started(client, {"engine": "scoop1956", "options": {}, "players": [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]})
    errors = []
    with launched_chromium() as browser:
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.route("**/js/games/scoop1956.js", lambda route: route.abort())
        page.goto("http://127.0.0.1:%d/" % panel_server)
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        assert page.locator("#game-area .game-view .generic").count() == 1
        assert "Ann" in page.inner_text("#game-area .game-view")
        page.close()
    assert any("scoop1956 screen" in e and "didn't load" in e for e in errors), errors


@pytest.mark.browser
def test_a_screen_whose_own_words_throw_leaves_the_offers_undo_and_abandon(panel_server, client):
    """A plug-in's screen whose label() threw (a bug in it) emptied the whole game card: no offers,
    no Undo, no Abandon, and the table could only clear the game through the API."""
    started(client, {"engine": "scoop1956", "options": {}, "players": [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]})
    broken = ("export function render() { return null; }\n"
              "export function label() { throw new Error('label'); }\n"
              "export function group() { throw new Error('group'); }\n"
              "export function waiting() { throw new Error('waiting'); }\n")
    with launched_chromium() as browser:
        page = browser.new_page()
        page.route("**/js/games/scoop1956.js", lambda route: route.fulfill(body=broken, content_type="text/javascript"))
        page.goto("http://127.0.0.1:%d/" % panel_server)
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        assert page.locator("#offers button.offer").count() > 0           # the generic labels stand in
        assert page.get_by_role("button", name="Abandon game", exact=False).count() == 1
        page.close()


@contextlib.contextmanager
def table_page(panel_server, viewport=None):
    """The panel on the test's server, open in this worker's Chromium; closed on leaving."""
    with launched_chromium() as browser:
        page = browser.new_page(**({"viewport": viewport} if viewport else {}))
        page.goto("http://127.0.0.1:%d/" % panel_server)
        yield page


def started(client, body):
    """A game started through the API (``body`` as POST /api/games takes it)."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.get_data(as_text=True)
    return r


def act_on(client, *actions):
    for action in actions:
        version = client.get("/api/games/current").get_json()["game"]["version"]
        r = client.post("/api/games/current/actions", json={"action": action, "version": version})
        assert r.status_code == 200, (action, r.get_data(as_text=True))


@pytest.mark.browser
def test_scoop1956_screen_calls_an_advertisement_up_for_sale_an_advertisement(panel_server, client):
    """A bankrupt player sells 'one or more of the stories or advertisements which he has already
    completed': Cat's $150 ad was shown as "Cat's Advertisement story is for sale at $150" and
    offered as "Offer the Advertisement story ($150)". The screen says the engine's words."""
    started(client, {"engine": "scoop1956", "options": {"short_of_cash": "bankruptcy"},
                                        "players": [{"name": n} for n in ("Ann", "Bob", "Cat")]})
    exchanges = [{"type": "exchange", "player": 0}, {"type": "exchange", "player": 1}]
    refused = [{"type": "claim", "player": 2, "story_type": "sport"}, {"type": "verdict", "signal": "X", "digit": 9}]
    act_on(client, *(exchanges + refused) * 9)                            # Cat pays $300 nine times
    act_on(client, *exchanges, {"type": "advertise", "player": 2, "value": 150},
           {"type": "claim", "player": 0, "story_type": "sport"}, {"type": "verdict", "signal": "SYND", "digit": 4})
    view = client.get("/api/games/current").get_json()["game"]["view"]
    assert view["step"] == "bankrupt" and view["debts"][0]["owes"] == 500, view["waiting_for"]
    with table_page(panel_server) as page:
        offer = page.get_by_role("button", name="Offer the advertisement ($150)", exact=True)
        offer.wait_for(timeout=10000)
        offer.click()
        notice = page.locator("#game-area .scoop1956 .notice", has_text="for sale")
        notice.wait_for(timeout=10000)
        assert notice.inner_text() == "Cat's advertisement is for sale at $150 — Ann is asked."
        assert page.locator("#offers .offer-heading").all_inner_texts()[0] == "Buy the advertisement?"
        page.close()


def test_no_panel_script_stylesheet_or_template_names_a_game():
    """What a game is to the panel comes from its catalogue item (its screen, its panel facts):
    only a game's own screen, js/games/<name>.js, names it (and names no other game)."""
    names = registry.names()
    said = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, names)))
    static = WEB_UI / "static"
    files = [*(static / "js").rglob("*.js"), *(static / "css").rglob("*.css"), *(WEB_UI / "templates").rglob("*.html")]
    strays = []
    for path in sorted(files):
        own = path.stem if path.parent == static / "js" / "games" else None
        for n, line in enumerate(path.read_text().splitlines(), 1):
            strays += ["%s:%d %s" % (path.relative_to(WEB_UI), n, m.group(1))
                       for m in said.finditer(line) if m.group(1) != own]
    assert strays == []


@pytest.mark.browser
def test_scoop1956_screen_says_the_game_is_over_once_a_paper_has_gone_to_press(panel_server, client):
    """After PRESS, Ann goes to press: the game is over, and every paper counts up ("Ending the
    Game", "Winning the Game"). The verdict box and the sidebar's editor card still gave PRESS's
    own instruction, "Either take your story or go to press", which was no longer true."""
    started(client, {"engine": "scoop1956", "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "claim", "player": 0, "story_type": "sport"}, {"type": "verdict", "signal": "PRESS"},
           {"type": "go_to_press", "player": 0})
    view = client.get("/api/games/current").get_json()["game"]["view"]
    assert view["press"]["player"] == 0 and view["winner_names"] == ["Ann"]
    with table_page(panel_server) as page:
        page.locator("#game-area .scoop1956 .verdict-box .instruction").wait_for(timeout=10000)
        said = "Ann went to press: the game is over. Ann won, counting money and stories."
        assert page.inner_text("#game-area .verdict-box .instruction") == said
        page.wait_for_function("document.getElementById('verdict-signal').textContent === 'PRESS'", timeout=10000)
        assert page.inner_text("#verdict-instruction") == said
        page.close()


# Whether ``words``, the way chosen in an offer's form, can be read whole on the page: the
# drop-down shows them within its width (measured in its own font, less its arrow), or another
# element of the form shows them, not cut (nothing scrolls inside it) and inside the screen.
READ_WHOLE = """([form, words]) => {
  const fits = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && el.scrollWidth <= el.clientWidth + 1 && r.left >= 0 && r.right <= innerWidth + 0.5; };
  const select = form.querySelector('select');
  const cs = getComputedStyle(select);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  if (select.selectedOptions[0].textContent === words && pen.measureText(words).width <= room && fits(select)) return true;
  return [...form.querySelectorAll('*')].some((el) => !['OPTION', 'SELECT'].includes(el.tagName)
    && el.textContent.trim() === words && el.checkVisibility() && fits(el));
}"""


# The ways Cat's claim can make its three cards with two cards on Annabelle's space 1 and two on
# Bob's space 2, in the whole words the form says them in.
WAYS_FROM_ANNABELLE_AND_BOB = ["All from the hand", "SCOOP 2 cards from Annabelle's space 1 + 1 from the hand",
                               "SCOOP 1 card from Annabelle's space 1 + 2 from the hand",
                               "SCOOP 2 cards from Bob's space 2 + 1 from the hand", "SCOOP 1 card from Bob's space 2 + 2 from the hand"]


@pytest.mark.browser
def test_scoop1956_screens_long_claim_choices_are_read_whole_on_a_phone(panel_server, client):
    """With cards on other players' reserves, a claim asks where its cards come from. On a phone
    (375 px) the drop-down showed "SCOOP 2 cards from Annabelle's spa": the way chosen must be
    readable whole, each of them in turn."""
    started(client, {"engine": "scoop1956", "players": [{"name": n} for n in ("Annabelle", "Bob", "Cat")]})
    act_on(client, {"type": "reserve", "player": 0, "cards": 2, "space": 1},
           {"type": "reserve", "player": 1, "cards": 2, "space": 2})       # Cat to play
    with table_page(panel_server, viewport={"width": 375, "height": 667}) as page:
        form = page.locator("#game-area form.scoop-cards").first
        form.wait_for(timeout=10000)
        unread = []
        for i, way in enumerate(WAYS_FROM_ANNABELLE_AND_BOB):
            form.locator("select").select_option(str(i))
            if not page.evaluate(READ_WHOLE, [form.element_handle(), way]):
                unread.append(way)
            if i == 1:
                form.scroll_into_view_if_needed()
                picture(page, "scoop1956-claim-choice-phone.png")
        assert unread == []
        page.close()


@pytest.mark.browser
def test_scoop2002_screen_says_a_0_marks_the_tenth_location_on_a_roll_that_picks_one(panel_server, client):
    """Part 2's roll marks "the Location that matches the number you rolled": a 0 marks #10. Under
    a mark's roll the stopwatch's digits were headed "(0 counts as 0)", the "zero" option's words
    for a sum or odd/even, naming a Location #0 the board has none of. A move's roll keeps them."""
    started(client, {"engine": "scoop2002", "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "move", "player": 0})
    with table_page(panel_server) as page:
        hint = page.locator("#game-area .roll p.small")
        hint.wait_for(timeout=10000)
        assert hint.inner_text() == "…or the stopwatch's hundredths digit (0 counts as 0):"
        page.get_by_role("button", name="Stopwatch showed 5").click()
        page.get_by_role("button", name="#3 Harbor").click()
        page.get_by_text("Ann rolls to add a mark to a Location.").wait_for(timeout=10000)
        assert hint.inner_text() == "…or the stopwatch's hundredths digit (a 0 is #10 Industrial Park):"
        page.close()


@pytest.mark.browser
def test_get_the_scoop_screen_says_a_police_step_past_the_rules_is_newsdesks(panel_server, client):
    """The rules' police table stops after "on the next round they move diagonally, clockwise":
    round 3's step was shown as "Police this round (step 3)", as the game's own."""
    started(client, {"engine": "get_the_scoop", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    for first in (0, 1):
        act_on(client, {"type": "reveal", "plays": []},
               *({"type": "end_turn", "player": (first + k) % 4} for k in range(4)), {"type": "police", "player": first})
    with table_page(panel_server) as page:
        summary = page.locator("#game-area .gts details summary")
        summary.wait_for(timeout=10000)
        assert summary.inner_text().startswith("Police this round (step 3, newsdesk's reading):")
        summary.click()
        assert "newsdesk's default" in page.inner_text("#game-area .gts .gts-police-by")
        page.close()


@pytest.mark.browser
def test_get_the_scoop_screen_says_which_suit_is_on_which_side_is_newsdesks(panel_server, client):
    """The rules label the board's sides with the suits but not which is where: the board drawn
    with hearts on top said nothing of it, and a table labeling its own board otherwise saw
    Protesters go one way there and another on the box's board."""
    started(client, {"engine": "get_the_scoop", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    with table_page(panel_server) as page:
        caption = page.locator("#game-area .gts-board figcaption")
        caption.wait_for(timeout=10000)
        assert caption.inner_text().startswith("Which suit labels which side is newsdesk's choice")
        page.close()


@pytest.mark.browser
def test_a_throw_with_a_field_says_on_its_button_what_the_dice_must_show(panel_server, client):
    """Star Reporter's "By automobile" said "any throw: move the total" and "By train" "an even
    total, from a city", but "By airplane", which asks the airport the pin is at, said nothing of
    the double it needs: an offer with fields lost its "needs"."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "airports": ["Baytown", "Centreville"]},
                                        "players": [{"name": n} for n in ("Ann", "Bob")]})
    with table_page(panel_server) as page:
        plane = page.locator("#offers form.offer-form button.offer", has_text="By airplane")
        plane.wait_for(timeout=10000)
        assert plane.locator(".offer-needs").all_inner_texts() == ["a double, at an airport"]
        assert page.get_by_label("Airport the pin is at").input_value() == "Baytown"
        page.close()


@pytest.mark.browser
def test_the_plane_landing_form_reads_in_the_order_it_is_shown(panel_server, client):
    """The landing form showed its airport choice first and then a button "The plane lands at…",
    whose "…" pointed at nothing after it. The button follows the choice above it."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "airports": ["Baytown", "Centreville"]},
                                        "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "throw", "player": 0, "method": "airplane", "at": "Baytown", "dice": [2, 2]},
           {"type": "throw", "player": 1, "method": "automobile", "dice": [1, 2]},
           {"type": "throw", "player": 0, "method": "airplane", "dice": [3, 3]})
    with table_page(panel_server) as page:
        form = page.get_by_role("group", name="Ann's plane").locator("form.offer-form")
        form.wait_for(timeout=10000)
        assert [t.strip() for t in form.locator(".field-label, select, button").all_inner_texts()] == [
            "Airport", "Centreville", "Fly there"]
        page.close()


@pytest.mark.browser
def test_what_a_move_reached_is_headed_with_the_movers_name_whichever_card_it_is(panel_server, client):
    """Bob reported his News and could still report Disaster #1 on the same move; the Disaster's
    button had no heading, so it stood under "Cat: announce the method, then throw" and read as
    Cat's. A move's cards are headed with the mover's name, and the heading is said once."""
    started(client, {"engine": "star_reporter", "options": {"first": 0},
                                        "players": [{"name": n} for n in ("Ann", "Bob", "Cat")]})
    act_on(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 1, "method": "automobile", "dice": [1, 2]})
    with table_page(panel_server) as page:
        page.get_by_role("button", name="Reached Disaster #1").wait_for(timeout=10000)
        assert page.locator("#offers .offer-heading").all_inner_texts() == [
            "Cat: announce the method, then throw", "Bob: what the move reached"]
        act_on(client, {"type": "news", "player": 1, "points": 5})
        page.get_by_role("button", name="Reached the assignment's city").wait_for(state="detached", timeout=10000)
        # the News ended the move at its city: the Disaster is reported as in the same city
        assert page.get_by_role("group", name="Bob: what the move reached").get_by_role(
            "button", name="Disaster #1 is in the same city too").count() == 1
        assert page.locator("#offers .offer-heading").all_inner_texts() == [
            "Cat: announce the method, then throw", "Bob: what the move reached"]
        page.close()


@pytest.mark.browser
def test_a_scan_game_that_is_over_names_no_dealer(panel_server, client):
    """WE reached 155 on hand 3 and the line under the title still said "dealer: Dan", the dealer
    of a fourth hand that is never dealt."""
    started(client, {"engine": "scan", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    we, they = ({"spades": 13, "hearts": 13, "diamonds": 2, "clubs": 0}, {"spades": 0, "hearts": 0, "diamonds": 11, "clubs": 13})
    act_on(client, {"type": "hand", "taken": {"Ann & Cat": we, "Bob & Dan": they}})
    assert client.get("/api/games/current").get_json()["game"]["view"]["over"]
    with table_page(panel_server) as page:
        line = page.locator("#game-area .scan > p.small.muted").first
        line.wait_for(timeout=10000)
        assert line.inner_text() == ("Team SCAN · deal 7 · trump is the suit on top of the stock after everyone "
                                     "draws; no trump once the stock is gone")
        page.close()


@pytest.mark.browser
def test_the_news_after_a_disaster_on_one_move_is_offered_as_in_the_same_city(panel_server, client):
    """Ann reached Disaster #1's city, her News card's and the Catastrophe's, and tapped the
    Disaster first: the News card was still offered as "Reached the assignment's city" (its box
    "Points on the News card"), as if the move had reached another city, while the News tapped
    first had the Disaster offered "in the same city too". Both orders read alike now."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "disasters": 1},
                                        "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 1, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]},
           {"type": "disaster", "player": 0, "points": 20})
    with table_page(panel_server) as page:
        reached = page.get_by_role("group", name="Ann: what the move reached")
        news = reached.get_by_role("button", name="The News card is in the same city too", exact=True)
        news.wait_for(timeout=10000)
        assert reached.get_by_role("spinbutton", name="Points on the News card (the same city as Disaster #1)",
                                   exact=True).count() == 1
        assert reached.get_by_role("button", name="Reached the assignment's city").count() == 0
        # the Catastrophe with the News card, after the Disaster, says so as the Disaster's pair does
        assert reached.get_by_role("button", name="The Catastrophe and the News card are in the same city too!",
                                   exact=True).count() == 1
        page.close()


@pytest.mark.browser
def test_the_catastrophe_the_news_card_and_a_disaster_in_one_city_are_recorded_with_one_form(panel_server, client):
    """Ann's move reached a city named on her News card, on Disaster #1 and on the Catastrophe.
    The panel offered the Catastrophe with the News card, and with the Disaster: either ended the
    game, and the third card was never counted. One form records all three now."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "disasters": 1},
                                        "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 1, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]})
    with table_page(panel_server) as page:
        button = page.get_by_role("group", name="Ann: what the move reached").get_by_role(
            "button", name="Reached the Catastrophe at the News card's and Disaster #1's city too", exact=True)
        button.wait_for(timeout=10000)
        form = button.locator("xpath=ancestor::form")
        for field, points in (("points", "100"), ("news_points", "5"), ("disaster_points", "40")):
            form.locator("input[name=%s]" % field).fill(points)
        button.click()
        page.locator("#game-area .tag-win", has_text="Star Reporter").wait_for(timeout=10000)
        page.close()
    view = client.get("/api/games/current").get_json()["game"]["view"]
    assert view["phase"] == "over" and view["star_reporter"] == ["Ann"]
    assert [(c["card"], c["points"]) for c in view["players"][0]["cards"]] == [
        ("news", 5), ("disaster", 40), ("catastrophe", 100)]
    assert view["players"][0]["score"] == 145


# The roles of the fields a player fills in, as Chromium's accessibility tree names them.
FIELD_ROLES = {"spinbutton", "textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "slider", "switch"}


def field_names(page):
    """The accessible names, as Chromium computes them, of the page's form fields a screen reader
    reaches (the tree leaves hidden ones out)."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return [n.get("name", {}).get("value", "") for n in nodes
            if not n.get("ignored") and n.get("role", {}).get("value") in FIELD_ROLES]


@pytest.mark.browser
def test_every_points_box_shown_at_once_has_a_name_of_its_own(panel_server, client):
    """Ann's move with her News card, two Disasters and the Catastrophe open: the Catastrophe's
    offers with the News card or a Disaster named their boxes as the single offers did ("Points on
    Disaster #1" three times, "Points on the Catastrophe card" six), so a screen reader told them
    apart only by their form. Each name is unique on the page now and says the offer's cards."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "disasters": 2},
                                        "players": [{"name": n} for n in ("Ann", "Bob", "Cat")]})
    act_on(client, *({"type": "throw", "player": seat, "method": "automobile", "dice": [6, 6]} for seat in (0, 1, 2)),
           {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]})
    with table_page(panel_server) as page:
        reached = page.get_by_role("group", name="Ann: what the move reached")
        all3 = reached.get_by_role("button", name="Reached the Catastrophe at the News card's and Disaster #1's city too",
                                   exact=True)
        all3.wait_for(timeout=10000)
        names = field_names(page)
        assert len(names) == 16 and len(set(names)) == len(names), names
        assert all3.locator("xpath=ancestor::form").get_by_role(
            "spinbutton", name="Points on Disaster #1, with the Catastrophe and the News card", exact=True).count() == 1
        # Disaster #1 reported: the other offers name it too, and still no name twice
        act_on(client, {"type": "disaster", "player": 0, "points": 20, "card": 1})
        reached.get_by_role("button", name="The News card is in the same city too", exact=True).wait_for(timeout=10000)
        names = field_names(page)
        assert len(names) == 10 and len(set(names)) == len(names), names
        assert "Points on the News card, with the Catastrophe and Disaster #2 (the same city as Disaster #1)" in names


def _calls_shown(page):
    """The calls "Calls to the editor" shows, newest first, as a person sees them."""
    return page.locator("#calls li:visible").all_inner_texts()


@pytest.mark.browser
def test_calls_to_the_editor_shows_the_newest_ten_whether_dialed_or_entered_by_hand(panel_server, client, desk):
    """The list shows the newest CALLS_SHOWN calls, newest first, the phone's and those entered by
    hand alike, on the page that watched and on one loaded after. The phone's calls were capped at
    10 and the verdicts entered by hand not at all: a phone's list ran to 11 and 12 lines, and a
    page loaded after ten calls still listed a verdict entered by hand before all of them."""
    started(client, {"engine": "scoop1956", "players": [{"name": n} for n in ("Ann", "Bob")]})

    def by_hand(signal):
        turn = client.get("/api/games/current").get_json()["game"]["view"]["turn"]
        act_on(client, {"type": "claim", "player": turn, "story_type": "sport"}, {"type": "verdict", "signal": signal})

    by_hand("SCRAP IT")                                                 # version 3
    dialed = ["%s dialed %d" % (desk.table.call_editor(d).payload["signal"], d)          # no claim: calls all the same
              for d in (d % 9 + 1 for d in range(CALLS_SHOWN))][::-1]                      # newest first
    with table_page(panel_server, viewport={"width": 390, "height": 844}) as page:
        page.wait_for_function("document.body.dataset.version === '3'")
        assert _calls_shown(page) == dialed                             # the first SCRAP IT is the 11th
        by_hand("X")                                                    # version 5, watched live
        page.wait_for_function("document.body.dataset.version === '5'")
        fresh = page.context.browser.new_page(viewport={"width": 390, "height": 844})
        fresh.goto(page.url)
        fresh.wait_for_function("document.body.dataset.version === '5'")
        for p in (page, fresh):
            assert _calls_shown(p) == ["X entered by hand"] + dialed[:-1]
        picture(page.locator(".calls-card"), "scoop1956-calls-phone.png")
        version = client.get("/api/games/current").get_json()["game"]["version"]
        assert client.post("/api/games/current/undo", json={"version": version}).status_code == 200
        for p in (page, fresh):                                         # the X taken back: the tenth call again
            p.wait_for_function("document.body.dataset.version === '6'")
            assert _calls_shown(p) == dialed
        fresh.close()
        page.close()


# Whether the closed drop-down of an offer's form shows its chosen words whole: measured in its own
# font, within its width less its padding and its arrow (READ_WHOLE's measure).
CLOSED_WHOLE = """(form) => {
  const select = form.querySelector('select');
  const cs = getComputedStyle(select);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return pen.measureText(select.selectedOptions[0].textContent).width <= room;
}"""


@pytest.mark.browser
def test_scoop1956_claims_closed_drop_down_is_read_whole_on_a_phone(panel_server, client):
    """On a phone (390 x 844) a claim's drop-down, closed, showed "SCOOP 2 cards from Bob's space 2"
    of "... + 1 from the hand": it says each way in short now ("SCOOP 2 of Bob's space 2", "1 from
    reserve space 1"), whole, and the whole words stay on the line under it, which a screen reader
    hears as the drop-down's description."""
    started(client, {"engine": "scoop1956", "players": [{"name": n} for n in ("Annabelle", "Bob", "Cat")]})
    act_on(client, {"type": "reserve", "player": 0, "cards": 2, "space": 1},
           {"type": "reserve", "player": 1, "cards": 2, "space": 2},
           {"type": "reserve", "player": 2, "cards": 1, "space": 1}, {"type": "exchange", "player": 0},
           {"type": "exchange", "player": 1})       # Cat to play, with a card on her own space 1
    with table_page(panel_server, viewport={"width": 390, "height": 844}) as page:
        form = page.locator("#game-area form.scoop-cards").first
        form.wait_for(timeout=10000)
        select = form.locator("select")
        ways = WAYS_FROM_ANNABELLE_AND_BOB[:1] + ["2 from the hand + 1 card from reserve space 1"] + WAYS_FROM_ANNABELLE_AND_BOB[1:]
        cut, under, described = [], [], []
        for i in range(len(ways)):
            select.select_option(str(i))
            if not page.evaluate(CLOSED_WHOLE, form.element_handle()):
                cut.append(select.evaluate("(s) => s.selectedOptions[0].textContent"))
            if i:                                   # "All from the hand" is whole in the drop-down
                under.append(form.locator(".choice-words").inner_text())
                described.append(select.evaluate(
                    "(s) => document.getElementById(s.getAttribute('aria-describedby') || '')?.textContent"))
            if i == 2:
                form.scroll_into_view_if_needed()
                picture(page, "scoop1956-claim-closed-choice-phone.png")
        assert cut == []
        assert under == described == ways[1:]
        assert form.locator("option").all_inner_texts() == [
            "All from the hand", "1 from reserve space 1", "SCOOP 2 of Annabelle's space 1", "SCOOP 1 of Annabelle's space 1",
            "SCOOP 2 of Bob's space 2", "SCOOP 1 of Bob's space 2"]


def test_get_the_scoops_board_is_one_tab_stop_walked_by_the_arrow_keys_and_tapped_by_enter(panel_server, client):
    """The 12x12 board took taps only: a keyboard reached its squares through the move list beside
    it, not the board. It is an ARIA grid with one tab stop: the arrow keys (Home and End) walk
    it square by square, each square says where it is and what stands on it, and Enter picks a
    Journalist and then where it goes as two taps do; a tap still does, and moves the tab stop."""
    started(client, {"engine": "get_the_scoop", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    act_on(client, {"type": "reveal", "plays": []})                   # Ann's Journalists' turn
    focused = "() => { const a = document.activeElement; return [a.id, a.getAttribute('role'), a.getAttribute('aria-label')]; }"
    with table_page(panel_server) as page:
        page.locator("#gts-move").wait_for(timeout=10000)
        assert page.get_attribute(".gts-grid", "role") == "grid"
        assert page.locator(".gts-grid [tabindex='0']").count() == 1      # the board is one stop for Tab
        page.focus("#undo")
        page.keyboard.press("Tab")
        assert page.evaluate(focused) == ["gts-sq-a1", "gridcell", "a1: empty, Ann's camera van"]
        page.keyboard.press("Tab")                                         # and Tab leaves it at once
        assert not page.evaluate("document.activeElement.closest('.gts-grid')")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(focused)[0] == "gts-sq-a1"
        for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown"):
            page.keyboard.press(key)                                        # the edge holds; then to c3
        assert page.evaluate(focused) == ["gts-sq-c3", "gridcell", "c3: red Journalist"]
        page.keyboard.press("End")
        assert page.evaluate(focused)[0] == "gts-sq-l3"
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate(focused)[0] == "gts-sq-c3"
        page.keyboard.press("Enter")                                       # Ann's Journalist on c3, picked
        offered = sorted(page.eval_on_selector("#gts-move", """s => [...s.options].map(o => o.text)
            .filter(x => x.startsWith('c3 →')).map(x => x.split(' ')[2])"""))
        assert page.eval_on_selector_all(".gts-picked", "tds => tds.map(td => td.dataset.square)") == ["c3"]
        assert offered and sorted(page.eval_on_selector_all(".gts-can-go", "tds => tds.map(td => td.dataset.square)")) == offered
        page.keyboard.press("ArrowRight")
        assert page.evaluate(focused) == ["gts-sq-d3", "gridcell", "d3: empty"]
        page.keyboard.press(" ")                                           # Space as Enter: it goes to d3
        assert page.evaluate("document.activeElement.id") == "gts-move"
        assert page.eval_on_selector("#gts-move", "s => s.options[s.selectedIndex].text") == "c3 → d3 (step)"
        assert page.locator(".gts-can-go, .gts-picked").count() == 0
        assert page.get_attribute("#gts-sq-d3", "tabindex") == "0"          # Tab comes back to d3
        page.get_by_role("button", name="Move the Journalist", exact=True).click()
        page.wait_for_function("document.body.dataset.version === '3'", timeout=10000)
        assert client.get("/api/games/current").get_json()["game"]["view"]["board"]["pieces"]["red5"] == "d3"
        assert page.get_attribute("#gts-sq-d3", "tabindex") == "0"          # kept across the redraw
        page.click("[data-square='c1']")                                   # a tap: picks, and takes the stop
        assert page.eval_on_selector_all(".gts-picked", "tds => tds.map(td => td.dataset.square)") == ["c1"]
        assert page.eval_on_selector_all(".gts-grid [tabindex='0']", "tds => tds.map(td => td.id)") == ["gts-sq-c1"]
        page.close()


@pytest.mark.browser
def test_an_abandoned_four_player_games_chart_names_every_line_and_says_one_entry(panel_server, client):
    """A SCAN game abandoned before its first hand: its four lines all end at 0, at the chart's
    foot, and their labels, pushed apart downwards, put "Dan 0" below the chart, where nobody saw
    it. Its log of one entry was headed "What happened (1 entries)"."""
    started(client, {"engine": "scan", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    game_id = client.post("/api/games/current/abandon", json={"version": 1}).get_json()["id"]
    with launched_chromium() as browser:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto("http://127.0.0.1:%d/games/%d" % (panel_server, game_id))
        page.wait_for_selector(".chart-box .line-label", timeout=10000)
        labels = page.eval_on_selector_all(".chart .line-label", """ts => ts.map((t) => {
            const b = t.getBBox(), h = t.ownerSVGElement.viewBox.baseVal.height;
            return [t.textContent, b.y >= 0 && b.y + b.height <= h + 0.5]; })""")
        assert sorted(text for text, _ in labels) == ["Ann 0", "Bob 0", "Cat 0", "Dan 0"], labels
        assert all(inside for _, inside in labels), labels
        assert page.locator(".end-card summary", has_text="What happened").inner_text() == "What happened (1 entry)"
        page.close()


@pytest.mark.browser
def test_get_the_scoops_two_card_pickers_say_which_is_the_rank_and_which_the_suit(panel_server, client):
    """Ann directs Protester 1: two drop-downs appear beside hers, with no label on the screen, and
    both showed "Choose…", so a player couldn't tell the card's rank from its suit before opening
    them. Each shows what it asks."""
    started(client, {"engine": "get_the_scoop", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    with table_page(panel_server, viewport={"width": 390, "height": 844}) as page:
        page.get_by_label("Ann: Protester", exact=True).select_option("1", timeout=10000)
        shown = page.get_by_role("group", name="Ann (red)").locator("select:visible").evaluate_all(
            "ss => ss.map(s => s.selectedOptions[0].textContent)")
        assert shown == ["Protester 1", "Rank…", "Suit…"]
        page.close()


@pytest.mark.browser
def test_a_scored_scan_hand_says_what_the_number_in_brackets_is(panel_server, client):
    """After two hands the last move read "Hand 2 scored: WE +20 (65), THEY 0 (0)": the running
    total in brackets was not said to be one. It says so now, as the sheet's "= 65" does."""
    started(client, {"engine": "scan", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    act_on(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 9, "hearts": 8, "diamonds": 5, "clubs": 6},
                                              "Bob & Dan": {"spades": 4, "hearts": 5, "diamonds": 8, "clubs": 7}}},
           {"type": "hand", "taken": {"Ann & Cat": {"spades": 7, "hearts": 6, "diamonds": 6, "clubs": 5},
                                      "Bob & Dan": {"spades": 6, "hearts": 7, "diamonds": 7, "clubs": 8}}})
    with table_page(panel_server) as page:
        notice = page.locator("#last-move", has_text="scored")
        notice.wait_for(timeout=10000)
        assert notice.text_content() == "Last move: Hand 2 scored: WE +20 (total 65), THEY 0 (total 0)."
        page.close()


@pytest.mark.browser
def test_the_sidebar_says_the_dice_a_roll_came_from_in_words(panel_server, client, desk):
    """The dice button's roll was shown as "Dice 7 2d6: 2 + 5": "2d6" is role-playing games'
    shorthand, which a table playing Star Reporter need not know. The faces are said with the
    dice in words."""
    started(client, {"engine": "star_reporter", "options": {"first": 0}, "players": [{"name": n} for n in ("Ann", "Bob")]})
    with table_page(panel_server) as page:
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        roll = desk.oracles.roll().payload
        page.wait_for_function("document.getElementById('oracle-result').textContent.startsWith('Dice')", timeout=10000)
        faces = " + ".join(str(f) for f in roll["faces"])
        assert page.inner_text("#oracle-result") == "Dice %d %s on two 6-sided dice" % (roll["total"], faces)
        page.close()


@pytest.mark.browser
def test_a_tag_beside_words_is_set_apart_by_a_space_in_the_text_read_aloud(panel_server, client):
    """A tag's margin shows a gap on the screen, but its text ran on into the words before it in
    what a screen reader reads: "before the Catastrophe1 open to all" under Star Reporter's
    Disaster, and Get the Scoop!'s First Player "Ann ★ First3 cards"."""
    started(client, {"engine": "star_reporter", "options": {"first": 0}, "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [6, 6]})
    with table_page(panel_server) as page:
        line = page.locator("#game-area .star p.round")
        line.wait_for(timeout=10000)
        assert line.text_content() == "Disasters 1 of 4 before the Catastrophe 1 open to all"
        version = client.get("/api/games/current").get_json()["game"]["version"]
        assert client.post("/api/games/current/abandon", json={"version": version}).status_code == 200
        started(client, {"engine": "get_the_scoop", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
        chip = page.locator("#game-area .gts .player-chip.has-badge")
        chip.wait_for(timeout=10000)
        assert chip.text_content().endswith("(red) ★ First 3 cards")
        page.close()


@pytest.mark.browser
def test_a_story_taken_by_keyboard_leaves_the_focus_on_the_offers_not_in_the_next_players_form(panel_server, client):
    """Ann, on the keyboard, enters her story's value and presses Enter on "Take the Sport story":
    the focus went to the first field of the form standing where hers stood, Bob's advertisement's
    "Printed value", another player's move. Only a form under the same heading (SCAN's next hand)
    takes it; else the offers do, as after a button."""
    started(client, {"engine": "scoop1956", "players": [{"name": n} for n in ("Ann", "Bob", "Cat")]})
    act_on(client, {"type": "claim", "player": 0, "story_type": "sport"}, {"type": "verdict", "signal": "OK"})
    with table_page(panel_server) as page:
        page.get_by_label("Printed value of the sport story ($)").fill("500", timeout=10000)
        page.get_by_role("button", name="Take the Sport story").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.body.dataset.version === '4'", timeout=10000)
        page.wait_for_function("document.querySelector('#game-area [data-settling]') === null", timeout=10000)
        assert page.evaluate("document.activeElement.id") == "offers"
        page.close()


@pytest.mark.browser
def test_a_player_row_left_empty_that_can_be_removed_says_so(panel_server):
    """SCAN opens on Team SCAN's four rows; a table of three that picks No Trump SCAN (2-6
    players) and names three was told only "Player 4 needs a name.", with nothing of the row's ✕
    that drops it. A row that can't be removed (two players of two) is told as before."""
    with table_page(panel_server, viewport={"width": 390, "height": 844}) as page:
        page.locator("input[type=radio][value=scan]").check(timeout=10000)
        page.locator("#variant-no_trump").check()
        for i, name in enumerate(("Ann", "Bob", "Cat")):
            page.get_by_label("Player %d's name" % (i + 1)).fill(name)
        page.get_by_role("button", name="Start the game").click()
        error = page.locator("#start-error")
        error.wait_for(timeout=10000)
        assert error.inner_text() == "Player 4 needs a name; if you are fewer, remove the row with its ✕."
        page.get_by_role("button", name="Remove player 4").click()
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        page.close()


@pytest.mark.browser
def test_a_scan_winners_tag_is_set_apart_from_the_sides_name(panel_server, client):
    """The winning side's line on the race read "WE (Ann & Cat)winner" to a screen reader, and
    a player's alone "Annwinner": the tag's margin shows a gap the text didn't have."""
    started(client, {"engine": "scan", "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    act_on(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2, "clubs": 0},
                                              "Bob & Dan": {"spades": 0, "hearts": 0, "diamonds": 11, "clubs": 13}}})
    with table_page(panel_server) as page:
        label = page.locator("#game-area .race-row.is-winner .race-label")
        label.wait_for(timeout=10000)
        assert label.text_content() == "WE (Ann & Cat) winner"
        page.close()


@pytest.mark.browser
def test_a_star_reporter_game_that_is_over_leaves_no_disaster_open(panel_server, client):
    """Ann reached the Catastrophe and the game ended, but the line under the last throw still
    said Disaster #1 was "open to all", as if it could still be reached."""
    started(client, {"engine": "star_reporter", "options": {"first": 0, "disasters": 1},
                                        "players": [{"name": n} for n in ("Ann", "Bob")]})
    act_on(client, {"type": "throw", "player": 0, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 1, "method": "automobile", "dice": [6, 6]},
           {"type": "throw", "player": 0, "method": "automobile", "dice": [2, 3]},
           {"type": "catastrophe", "player": 0, "points": 100})
    assert client.get("/api/games/current").get_json()["game"]["view"]["phase"] == "over"
    with table_page(panel_server) as page:
        page.locator("#game-area .tag-win", has_text="Star Reporter").wait_for(timeout=10000)
        assert page.locator("#game-area .star p.round").text_content() == "Disasters 1 of 1 before the Catastrophe"
        page.close()


@pytest.mark.browser
def test_get_the_scoops_check_records_two_vans_at_once(panel_server, client):
    """"There can be multiple winners": with the table keeping the board, the check offered one
    van a button ("Ann's van holds a Protester") and no way to say that Ann's and Cat's both did.
    Two or more vans are ticked and recorded together; one van ticked there is told to use its
    button, and nothing is sent."""
    started(client, {"engine": "get_the_scoop", "options": {"board": "table"},
                     "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
    act_on(client, {"type": "reveal", "plays": []})
    with table_page(panel_server, viewport={"width": 390, "height": 844}) as page:
        vans = page.get_by_role("group", name="Two or more vans hold a Protester: tick each")
        vans.get_by_role("checkbox", name="Ann").check(timeout=10000)
        page.get_by_role("button", name="These vans hold a Protester").click()
        assert page.inner_text("#gts-vans-problem") == "Tick two or more vans here: one van has its own button above."
        assert page.evaluate("document.body.dataset.version") == "2"
        vans.get_by_role("checkbox", name="Cat").check()
        page.get_by_role("button", name="These vans hold a Protester").click()
        page.wait_for_function("document.body.dataset.version === '3'", timeout=10000)
        page.close()
    assert client.get("/api/games/current").get_json()["game"]["view"]["winners"] == [0, 2]


@pytest.mark.browser
def test_a_screen_whose_onoracle_throws_leaves_the_sidebar_showing_the_throw(panel_server, client, desk):
    """A plug-in's onOracle that threw (a bug in it) stopped the sidebar half way: the dice
    button's throw was never shown on the panel, though the box had thrown it."""
    started(client, {"engine": "star_reporter", "options": {"first": 0}, "players": [{"name": n} for n in ("Ann", "Bob")]})
    broken = ("export function render() { return null; }\n"
              "export function onOracle() { throw new Error('onOracle'); }\n")
    with launched_chromium() as browser:
        page = browser.new_page()
        page.route("**/js/games/star_reporter.js", lambda route: route.fulfill(body=broken, content_type="text/javascript"))
        page.goto("http://127.0.0.1:%d/" % panel_server)
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        roll = desk.oracles.roll().payload
        page.wait_for_function("document.getElementById('oracle-result').textContent.startsWith('Dice')", timeout=10000)
        assert page.inner_text("#oracle-result").startswith("Dice %d" % roll["total"])
        page.close()


@pytest.mark.browser
def test_a_screen_without_render_is_drawn_plainly_without_an_error(panel_server, client):
    """Every export of a screen is optional (docs/new-game.md): one with its labels alone was drawn
    plainly only after the panel had called the render it lacks and logged the TypeError, which
    sent its author looking for a bug in a screen that had none."""
    started(client, {"engine": "scoop1956", "options": {}, "players": [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]})
    errors = []
    labels_only = "export function label(offer) { return 'Do ' + offer.type; }\n"
    with launched_chromium() as browser:
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.route("**/js/games/scoop1956.js", lambda route: route.fulfill(body=labels_only, content_type="text/javascript"))
        page.goto("http://127.0.0.1:%d/" % panel_server)
        page.wait_for_function("document.body.dataset.version === '1'", timeout=10000)
        assert page.locator("#game-area .game-view .generic").count() == 1
        assert page.locator("#offers button.offer", has_text="Do ").count() > 0
        page.close()
    assert errors == []


TIMED_RACE = """import dataclasses
from controller.games.kit import check_declared, check_players, option
import race_to_three as race
OPTIONS = race.OPTIONS + (option("turn_minutes", "minutes", None, "A turn lasts at most this long.", "Minutes a turn",
                                 minimum=1, maximum=30, newsdesk=True),)
def setup(players, options=None):
    names = check_players(race.TITLE, players, 2, 6)
    options = check_declared(race.TITLE, OPTIONS, options, len(names))
    return [{"type": "setup", "players": names, "target": options["target"]}]
GAME = dataclasses.replace(race.GAME, name="timed_race", title="Timed Race", options=OPTIONS, setup=setup)
"""


def started_from_the_form(monkeypatch, tmp_path, desk, name, source, fill):
    """A game ``name`` (its package's ``source``, beside Race to Three on the path) installed and
    started from the panel's start form in the browser, ``fill(page)`` choosing it and its options
    before the players are named: the start form's refusal ("" when it started none)."""
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text(source)
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent / "sixth_game"))
    monkeypatch.syspath_prepend(str(tmp_path))
    install_game(monkeypatch, name, name + ":GAME")
    srv = serve_panel(create_app(newsdesk=desk, test_config={"TESTING": True}))
    try:
        with launched_chromium() as browser:
            page = browser.new_page()
            page.goto("http://127.0.0.1:%d/" % srv.port)
            fill(page)
            page.fill("#player-0", "Ann")
            page.fill("#player-1", "Bob")
            page.click("#start-game")
            page.wait_for_function("document.body.dataset.version === '1' || !document.getElementById('start-error').hidden",
                                   timeout=10000)
            refused = page.inner_text("#start-error") if page.locator("#start-error").is_visible() else ""
            page.close()
    finally:
        srv.close()
    return refused


@pytest.mark.browser
def test_a_plug_ins_minutes_option_is_set_from_the_start_form_by_its_own_name(monkeypatch, tmp_path, desk):
    """The start form's box for a game's minutes option sent what it held as SCAN's
    "time_limit", with SCAN's "ends_at" beside it: a plug-in whose minutes option had a name of
    its own was refused ("no option 'time_limit'") whenever the table filled the box in."""
    def fill(page):
        page.get_by_role("radio", name="Timed Race").click()
        page.get_by_label("Minutes a turn").fill("5")
    assert started_from_the_form(monkeypatch, tmp_path, desk, "timed_race", TIMED_RACE, fill) == ""
    game = desk.table.games.current()
    assert (game["engine"], game["options"]) == ("timed_race", {"turn_minutes": 5})


MANY_RACE = """import dataclasses
from controller.games.kit import check_declared, check_players, option
import race_to_three as race
VARIANTS = {"quick": "Quick: to the target", "long": "Long: to twice the target"}
OPTIONS = race.OPTIONS + (option("ways", "choices", ["quick"], "Play either way, or both.", "Ways to play",
                                 choices={"quick": "Quick", "long": "Long"}, newsdesk=True),)
def setup(players, options=None):
    names = check_players(race.TITLE, players, 2, 6)
    options = check_declared(race.TITLE, OPTIONS, options, len(names))
    return [{"type": "setup", "players": names, "target": options["target"] * (2 if "long" in options["ways"] else 1)}]
GAME = dataclasses.replace(race.GAME, name="many_race", title="Many Race", variants=VARIANTS, options=OPTIONS,
                           setup=setup)
"""


@pytest.mark.browser
def test_a_plug_ins_variants_picked_together_are_sent_as_its_list_whatever_its_name(monkeypatch, tmp_path, desk):
    """Variants the table may pick together (a "choices" option over the variants) were sent as a
    list only when the option was called "variants", as a built-in game's is: a plug-in's of
    another name was sent the first box ticked as a single word, and refused."""
    def fill(page):
        page.get_by_role("radio", name="Many Race").click()
        page.get_by_label("Long: to twice the target").check()
    assert started_from_the_form(monkeypatch, tmp_path, desk, "many_race", MANY_RACE, fill) == ""
    game = desk.table.games.current()
    assert (game["engine"], game["options"]) == ("many_race", {"ways": ["quick", "long"]})


TIMED_VARIANT = """import dataclasses
from controller.games.kit import check_declared, check_players, option
import race_to_three as race
VARIANTS = {"quick": "Quick: no clock", "timed": "Timed: a turn has a limit"}
OPTIONS = race.OPTIONS + (
    option("variant", "choice", "quick", "Play quick or timed.", "Variant", choices={"quick": "Quick", "timed": "Timed"},
           newsdesk=True),
    option("turn_minutes", "minutes", None, "A turn lasts at most this long.", "Minutes a turn", minimum=1,
           maximum=30, newsdesk=True, variant="timed"))
def setup(players, options=None):
    names = check_players(race.TITLE, players, 2, 6)
    options = check_declared(race.TITLE, OPTIONS, options, len(names))
    return [{"type": "setup", "players": names, "target": options["target"]}]
GAME = dataclasses.replace(race.GAME, name="timed_variant", title="Timed Variant", variants=VARIANTS, options=OPTIONS,
                           setup=setup)
"""


@pytest.mark.browser
def test_a_minutes_option_of_one_variant_is_asked_only_with_that_variant(monkeypatch, tmp_path, desk):
    """The box for a game's minutes option was shown whatever the variant, where every other
    option of one variant is shown with it alone: filled in with another variant chosen, the start
    was refused as giving an option of a variant not played."""
    seen = []

    def fill(page):
        page.get_by_role("radio", name="Timed Variant").click()
        seen.append(page.locator("#time-limit").is_visible())
        page.get_by_label("Timed: a turn has a limit").check()
        seen.append(page.locator("#time-limit").is_visible())
        page.get_by_label("Minutes a turn").fill("5")
    assert started_from_the_form(monkeypatch, tmp_path, desk, "timed_variant", TIMED_VARIANT, fill) == ""
    assert seen == [False, True]
    game = desk.table.games.current()
    assert (game["engine"], game["options"]) == ("timed_variant", {"variant": "timed", "turn_minutes": 5})
