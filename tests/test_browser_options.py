"""Every game started from the panel's start form with every option the form asks changed from
its default, the options checked as the engine stored them, and the game played from the panel
to its end (Get the Scoop! with the table keeping the board, so the table says who won; its
whole game on the box's own board, with the default options, is test_browser's).

One page, one browser: kept short. The options asked are the engines' own declarations, so a
game whose declaration grows an option the form can't set fails here (CHANGED must name it).
"""

import pytest
from conftest import picture, signal_button
from test_browser import browser, server  # noqa: F401  (fixtures)

from controller.games import base, registry

WAIT = 10000
pytestmark = pytest.mark.browser

# engine -> what the test sets on the form for every option the form asks (form: true)
CHANGED = {
    "scan": {"variant": "triple", "put_aside": True, "dealer": 2, "target_tie": "all", "time_limit": 45,
             "whole_tricks": False, "plus_scores": "best"},
    "scoop1956": {"dealer": 0, "short_of_cash": "bankruptcy", "last_paper": "no_bonus",
                  "page": {"stories": {"sport": 1, "crime": 2}, "advertisements": {"want ad": 1}}},
    "star_reporter": {"disasters": 1, "airports": ["Baytown", "Lakeport", "Summit"], "first": 1},
    "scoop2002": {"variants": ["lonely_city"], "zero": "ten", "resell": False, "ickel_rolls": "table",
                  "ickel_start": 3, "locations": ["L%d" % i for i in range(1, 11)]},
    "get_the_scoop": {"first": 2, "board": "table", "journalist_step": "orthogonal", "protester_push": "line",
                      "jump_counts_mover": True, "jump_majority": "together",
                      "sides": {"top": "spades", "right": "hearts", "bottom": "diamonds", "left": "clubs"}},
}


class Sixes:
    """The box's dice for Star Reporter: always double sixes (a Disaster, then the Catastrophe)."""

    def randrange(self, n):
        return n - 1

    def random(self):
        return 0.5


@pytest.fixture
def page(screens, app, server):  # noqa: F811
    with screens.page({"width": 1024, "height": 900}) as p:
        p.base = "http://127.0.0.1:%d" % server
        p.goto(p.base + "/")
        p.wait_for_selector("#start-form", timeout=WAIT)
        yield p
        errors = p.errors
    assert not errors, errors


def version(page):
    return page.evaluate("(window.NEWSDESK_PANEL.game || {}).version || 0")


def tap(page, name, exact=True):
    before = version(page)
    page.get_by_role("button", name=name, exact=exact).first.click()
    page.wait_for_function("v => (window.NEWSDESK_PANEL.game || {}).version > v", arg=before, timeout=WAIT)


def current(page):
    return page.evaluate("fetch('/api/games/current').then(r => r.json())")["game"]


def fill_options(page, engine, names):
    """Pick the game, its variant(s), the players, and change every option the form asks."""
    game = next(g for g in registry.catalogue() if g["name"] == engine)
    page.get_by_label(game["title"]).check()
    want = CHANGED[engine]
    variant_option = {"scan": "variant", "scoop2002": "variants"}.get(engine)
    if variant_option:
        for v in ([want[variant_option]] if isinstance(want[variant_option], str) else want[variant_option]):
            page.check("#variant-%s" % v)
    rows = page.locator(".player-row")
    while rows.count() < len(names):
        page.click("#add-player")
    for i, name in enumerate(names):
        page.fill("#player-%d" % i, name)
    chosen = [] if not variant_option else [want[variant_option]] if isinstance(want[variant_option], str) \
        else want[variant_option]
    # an option of a variant not chosen is not asked: the form hides it and sends nothing for it
    other = [o for o in game["options"] if o["form"] and base.option_variants(o)
             and not set(base.option_variants(o)) & set(chosen)]
    for opt in other:
        assert page.locator("#opt-%s" % opt["name"]).is_hidden(), opt["name"]
    asked = [o for o in game["options"] if o["form"] and o["name"] != variant_option and o not in other]
    assert {o["name"] for o in asked} == set(want) - {variant_option}, "CHANGED must set every option the form asks"
    for opt in asked:
        value, sel = want[opt["name"]], "#opt-%s" % opt["name"]
        assert value != opt["default"], opt["name"]
        if opt["kind"] == "minutes":
            page.fill("#time-limit", str(value))
        elif opt["kind"] == "boolean":
            page.set_checked(sel, value)
        elif opt["kind"] in ("choice", "seat"):
            if opt["kind"] == "choice":                 # the form says which choice is the default
                assert page.inner_text("%s option[value='%s']" % (sel, opt["default"])).endswith("(default)")
            page.select_option(sel, str(value))
        elif opt["kind"] == "names":
            page.fill(sel, ", ".join(value))
        elif opt["kind"] == "mapping":
            for part, counts in value.items():
                if opt["schema"]["properties"][part].get("enum"):       # a drop-down at its default
                    assert page.input_value("%s-%s" % (sel, part)) == opt["schema"]["properties"][part]["default"]
                    page.select_option("%s-%s" % (sel, part), counts)
                else:
                    page.fill("%s-%s" % (sel, part), ", ".join("%s %d" % kv for kv in counts.items()))
        else:
            page.fill(sel, str(value))
    picture(page.locator("#start-form"), "start-options-%s.png" % engine)
    page.click("#start-game")
    page.wait_for_function("(window.NEWSDESK_PANEL.game || {}).version === 1", timeout=WAIT)
    stored = current(page)["options"]
    for key, value in want.items():
        assert stored[key] == value, (key, stored)
    for opt in other:
        assert stored.get(opt["name"]) in (None, opt["default"]), (opt["name"], stored)
    return stored


def test_every_game_starts_with_every_option_changed_and_plays_to_its_end(page, desk):
    # SCAN, Triple with put-aside (48 cards), all past 155 win, against the clock: time runs out
    fill_options(page, "scan", ["A", "B", "C", "D", "E", "F"])
    assert current(page)["view"]["cards_per_hand"] == 48
    # only the best + side scores ("plus_scores": "best"), and the hand form's preview says so (it
    # said every + side's worth)
    page.fill("#hand-0-spades", "10")
    page.fill("#hand-1-hearts", "6")
    assert page.locator(".hand-side .preview").all_inner_texts() == [
        "scores 100", "scores 0 (cards worth 30; only the best + side scores)", "scores 0"]
    page.get_by_role("button", name="Time is up: the highest score wins", exact=True).click()   # time left: it asks
    tap(page, "Yes, end the game now")
    assert current(page)["view"]["over"]
    page.click("#finish")
    page.wait_for_selector("#winner", timeout=WAIT)
    # three sides tied on time share the win: listed as a sentence lists names, not "A and D and B and E ..."
    assert page.inner_text("#winner") == "A, D, B, E, C and F shared the win!"
    page.goto(page.base + "/")
    page.wait_for_selector("#start-form", timeout=WAIT)
    assert "Last game: SCAN (Parker Brothers, 1988), A, D, B, E, C and F won" in page.inner_text("#start-form")

    # SCOOP (1956): Ann deals, so Bob plays first; his claim is met by PRESS and he goes to press
    fill_options(page, "scoop1956", ["Ann", "Bob"])
    view = current(page)["view"]
    assert view["turn_name"] == "Bob" and {s["slot"] for s in view["players"][0]["page"]} == {"three_star", "star", "sport", "crime", "want ad"}
    tap(page, "Claim a Sport story")
    tap(page, signal_button("PRESS"))
    tap(page, "Bob goes to press!")
    assert current(page)["view"]["step"] == "over"
    page.click("#finish")
    page.wait_for_selector("#winner", timeout=WAIT)
    page.goto(page.base + "/")

    # Star Reporter: one Disaster, then the Catastrophe; Bob moves first; the board's airports
    desk.table.games._rng = Sixes()
    fill_options(page, "star_reporter", ["Ann", "Bob", "Cat"])
    assert current(page)["view"]["airports"] == ["Baytown", "Lakeport", "Summit"]
    tap(page, "By automobile", exact=False)             # Bob: double sixes turn up the Disaster
    tap(page, "By automobile", exact=False)             # Cat: the Catastrophe (one Disaster only)
    tap(page, "By automobile", exact=False)             # Ann: an ordinary throw now, she moves
    # she reaches the Disaster's city, which the Catastrophe names too: the panel offers both cards
    # in one tap (the Catastrophe tapped alone would end the game without the Disaster's card)...
    at_once = page.locator("form:has(button:text(\"Reached the Catastrophe at Disaster #1's city too\"))")
    assert at_once.get_by_label("Points on the Catastrophe card").count() == 1
    assert at_once.get_by_label("Points on Disaster #1").count() == 1
    # ...or the Disaster first, then the Catastrophe as the same city
    won = page.locator("form:has(button:text('Reached Disaster #1'))")
    won.locator("input[name=points]").fill("20")
    tap(page, "Reached Disaster #1")
    page.get_by_role("button", name="The Catastrophe is in the same city too!", exact=True).wait_for(timeout=WAIT)
    # the Catastrophe's city is her News card's too: both on this move, the game ending on it (the
    # Disaster's city, so in the same city too)
    both = page.locator("form:has(button:text(\"The Catastrophe and the News card are in the same city too!\"))")
    both.locator("input[name=points]").fill("50")
    both.get_by_label("Points on the News card").fill("7")
    tap(page, "The Catastrophe and the News card are in the same city too!")
    assert current(page)["view"]["star_reporter"] == ["Ann"]
    assert [p["score"] for p in current(page)["view"]["players"]] == [77, 0, 0]
    # the winner by name (the game gives its winners as seats: it said "0 won!")
    assert page.inner_text("#waiting") == "Ann won! Finish to keep the result."
    page.click("#finish")
    page.wait_for_selector("#winner", timeout=WAIT)
    # a kept game's own page: New game goes to the table's start form (it drew an empty one there)
    game_id = page.evaluate("document.body.dataset.ended")
    page.goto(page.base + "/games/" + game_id)
    page.click("#new-game")
    page.wait_for_selector("#start-form label:has-text('Get the Scoop!')", timeout=WAIT)
    assert page.url.rstrip("/") == page.base.rstrip("/")
    page.goto(page.base + "/")

    # Scoop!, The Lonely City: the player rolls for N. Ickel (a 0 read as 10: newsdesk's option)
    fill_options(page, "scoop2002", ["Ann"])
    assert current(page)["view"]["ickel"]["nickel_on"] == 3
    tap(page, "Move")
    tap(page, "Stopwatch showed 1")
    tap(page, "#1 L1")
    tap(page, "Stopwatch showed 1")
    for _ in range(5):
        tap(page, "Stopwatch showed 1")                 # Ickel's sale: 1 <= any Location
        tap(page, "Stopwatch showed 2")                 # his mark
        if current(page)["view"]["phase"] == "over":
            break
        tap(page, "Stay on the scene (+1 mark)")
        tap(page, "Stopwatch showed 4")
    view = current(page)["view"]
    assert view["winner_name"] == "N. Ickel" and view["players"][1]["sold"] == 5
    assert page.inner_text(".offers-card") == "The game is over: Finish below keeps the result."
    page.click("#finish")
    page.wait_for_selector("#winner", timeout=WAIT)
    page.goto(page.base + "/")

    # Get the Scoop!: the First Player badge with Cat (seat 2), the table's board, to its end
    fill_options(page, "get_the_scoop", ["Ann", "Bob", "Cat", "Dan"])
    tap(page, "Reveal the cards")
    tap(page, "Dan's van holds a Protester")
    page.click("#finish")
    page.wait_for_function("(document.getElementById('winner') || {}).textContent === 'Dan won!'", timeout=WAIT)
    for path in ("/", "/history", "/api/games/stats", "/api/games/history"):
        assert page.evaluate("u => fetch(u).then(r => r.status)", path) == 200, path


def test_scans_ties_are_asked_in_every_variant_but_team_scan(page):
    """Team SCAN's two sides cancel to 0 over the 52 cards: one comes out + a hand, and one can
    reach 155 in it. The form asked how to settle both there anyway; now only with another variant."""
    page.get_by_label(registry.load("scan").title).check()
    ties = ("#opt-target_tie", "#opt-plus_scores")
    assert page.is_checked("#variant-team") and all(page.is_hidden(t) for t in ties)
    for variant in ("triple", "individual", "no_trump"):
        page.check("#variant-%s" % variant)
        assert all(page.is_visible(t) for t in ties), variant
    page.check("#variant-team")
    assert all(page.is_hidden(t) for t in ties)


def test_the_start_form_picks_each_games_default_variant_and_shows_teams_only_where_played(page):
    """Each game's variant preselected is the one its engine plays when none is sent (SCAN: Team
    SCAN), whatever order the catalogue lists them in; SCAN's team fields and their hint are there
    for the variants played in teams and gone for SCAN Without Partners."""
    for item in registry.catalogue():
        game = registry.load(item["name"])
        declared = base.variant_option(game)
        if not declared:
            continue
        default = next(o["default"] for o in game.options if o["name"] == declared[0])
        page.get_by_label(item["title"]).check()
        checked = page.eval_on_selector_all(".variants input:checked", "xs => xs.map(x => x.value)")
        assert checked == ([default] if isinstance(default, str) else list(default)), item["name"]
    page.get_by_label(registry.load("scan").title).check()
    assert page.is_checked("#variant-team")
    assert page.is_visible("#team-0") and "Teams:" in page.inner_text("#seat-hint")
    page.check("#variant-individual")
    page.wait_for_function("document.getElementById('team-0').hidden")
    assert "Teams" not in page.inner_text("#seat-hint")
    picture(page.locator("#start-form"), "start-scan-without-partners.png")
    page.check("#variant-no_trump")
    page.wait_for_function("!document.getElementById('team-0').hidden")
    # No Trump plays in teams with 4 or 6 alone: with 3 each plays alone, no team fields, no "partners"
    page.click("[aria-label='Remove player 4']")
    page.wait_for_function("document.getElementById('team-0').hidden")
    assert "partners" not in page.inner_text("#seat-hint")
    page.click("#add-player")
    page.wait_for_function("!document.getElementById('team-0').hidden")
    # and with 4 its teams are the table's choice: empty teams have each play alone, not partners
    assert "or leave teams empty (each then plays alone)." in page.inner_text("#seat-hint")
    page.check("#variant-team")
    assert "or leave teams empty (partners sit opposite)." in page.inner_text("#seat-hint")
    # a seat option with no seat as its default says what empty means (it said "— (the default)")
    page.get_by_label(registry.load("scoop1956").title).check()
    # and each part of the page layout suggests its own kind (the advertisements' box said "sport 2, crime 1"),
    # in the order its schema's example has them, as the refusals' "e.g. “sport 2, crime 1”"
    assert [page.get_attribute("#opt-page-%s" % key, "placeholder") for key in ("stories", "advertisements")] == [
        "sport 2, crime 1", "advertisement 2"]
    assert page.eval_on_selector("#opt-dealer option", "o => o.textContent") == "— (the last player)"
    # and its label says what "—" means in a drop-down's words: "(empty: ...)" had the table
    # looking for an empty box, and a drop-down is never empty
    for engine, option in (("scoop1956", "dealer"), ("star_reporter", "first"), ("scan", "dealer")):
        page.get_by_label(registry.load(engine).title).check()
        words = page.inner_text("label[for='opt-%s']" % option)
        assert "(if nobody is picked: " in words and "empty" not in words, (engine, words)
    # a seat option whose default is a seat names its player once the name is typed: "Player 1
    # (the default)" above "Ann" read as two players
    page.get_by_label(registry.load("get_the_scoop").title).check()
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "Bob")
    page.focus("#opt-first")
    assert page.eval_on_selector_all("#opt-first option", "xs => xs.map(x => x.textContent)")[:3] == [
        "Ann (the default)", "Ann", "Bob"]


def test_the_seat_choices_follow_a_name_as_it_is_typed(page):
    """"Who moves first" named a typed player only once the name field lost its focus: typing "Ann",
    the drop-down beside still offered "Player 1 (the default)" and "Player 1"."""
    page.get_by_label(registry.load("get_the_scoop").title).check()
    page.click("#player-0")
    page.keyboard.type("Ann")
    assert page.evaluate("document.activeElement.id") == "player-0"      # still typing: no "change" yet
    assert page.eval_on_selector_all("#opt-first option", "xs => xs.map(x => x.textContent)")[:2] == [
        "Ann (the default)", "Ann"]


def test_a_plug_ins_variants_and_choices_with_number_ids_are_listed_as_it_declared_them(page):
    """A darts plug-in's variants "501", "301" and "cricket", and its finish's choices "2" and "1",
    are listed as declared, its first variant checked: a browser lists an object's whole-number
    keys first and sorted, so the catalogue's objects alone gave 301 before 501."""
    variants = {"501": "501 down", "301": "301 down", "cricket": "Cricket"}
    finish = {"2": "Double out", "1": "Single out"}
    game = {"name": "darts", "title": "Darts", "available": True, "problem": None, "variants": variants,
            "variant_order": list(variants), "variant_option": "variant", "variant_choice": "one",
            "players": {"min": 1, "max": 4, "by_variant": None}, "colours": None, "teams": False, "timed": False,
            "panel": {"listens": [], "team_variants": None},
            "options": [{"name": "variant", "kind": "choice", "default": None, "label": "Variant", "rule": "",
                         "newsdesk": False, "form": True, "choices": variants, "choice_order": list(variants)},
                        {"name": "finish", "kind": "choice", "default": "2", "label": "Finish", "rule": "",
                         "newsdesk": False, "form": True, "choices": finish, "choice_order": list(finish)}]}
    shown = page.evaluate("""(game) => import('/static/js/start.js').then((m) => {
        const area = document.createElement("div");
        document.body.append(area);
        m.renderStart(area, [game], {canWrite: false, nameMax: 40, lastGame: null});
        return {variants: [...area.querySelectorAll(".variants input")].map((x) => [x.value, x.checked]),
                finish: [...area.querySelectorAll("select#opt-finish option")].map((o) => o.value)}; })""", game)
    assert shown == {"variants": [["501", True], ["301", False], ["cricket", False]], "finish": ["2", "1"]}, shown


def test_a_page_layout_the_table_mistyped_is_refused_in_the_forms_words(page):
    """SCOOP's page layout typed as "sport lots": the refusal names the field as the form does and
    shows how to write it, never the JSON the API takes."""
    page.get_by_label(registry.load("scoop1956").title).check()
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "Bob")
    page.fill("#opt-page-stories", "sport lots")
    page.click("#start-game")
    page.wait_for_selector("#start-error:not([hidden])", timeout=WAIT)
    assert page.inner_text("#start-error") == "The game was not started: see “The newspaper page's layout” above."
    said = page.inner_text("#opt-page-problem")          # the sentence itself, beside the field
    picture(page.locator("#start-form"), "start-page-layout-refused.png")
    assert said.startswith("“The newspaper page's layout”: Stories has “sport lots”, not a type and its number of "
                           "spaces; list each a type and its number of spaces (1-6)"), said
    assert "e.g. “sport 2, crime 1”" in said
    assert "{" not in said and "stories" not in said and "page is" not in said, said
    assert version(page) == 0


def test_enter_in_a_name_field_moves_to_the_next_name_and_never_starts_the_game(page):
    """A table typing its names presses Enter after each: the focus moves to the next name, and
    from the last to "Start the game" without pressing it. Before, Enter submitted the form: with
    a name still empty the table was told it needs one, and with the rows shown filled the game
    started before the next player was added."""
    page.get_by_label(registry.load("scoop1956").title).check()
    page.click("#add-player")
    page.fill("#player-0", "Ann")
    page.press("#player-0", "Enter")
    assert page.evaluate("document.activeElement.id") == "player-1"
    assert page.is_hidden("#start-error")     # not "Player 2 needs a name." from a start asked for
    page.keyboard.type("Bob")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "player-2"
    page.keyboard.type("Cy")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "start-game"
    page.wait_for_timeout(300)          # a start would have been asked for by now
    assert page.is_visible("#start-form") and current(page) is None
    assert page.input_value("#player-2") == "Cy"
    page.keyboard.press("Enter")        # the button itself starts it
    page.wait_for_function("(window.NEWSDESK_PANEL.game || {}).version >= 1", timeout=WAIT)
    assert [p["name"] for p in current(page)["players"]] == ["Ann", "Bob", "Cy"]


def test_enter_in_any_field_of_the_start_form_never_starts_the_game(page):
    """Enter in a team field goes on to the next team, and from the last to "Start the game";
    Enter in an option's box or on a checkbox goes to "Start the game": none of them starts the
    game. Only the name fields were mended before: Enter in SCAN's last team field, or in SCOOP's
    page layout half typed, started the game with what was there."""
    page.get_by_label(registry.load("scan").title).check()
    for i, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        page.fill("#player-%d" % i, name)
    page.fill("#team-0", "Reds")
    page.press("#team-0", "Enter")
    assert page.evaluate("document.activeElement.id") == "team-1"
    for box in ("#team-3", "#time-limit"):
        page.focus(box)
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "start-game", box
    kinds = set()
    for item in registry.catalogue():
        page.get_by_label(item["title"]).check()
        boxes = page.eval_on_selector_all(
            "#start-form input:not([type=radio]):not([id^=player-]):not([id^=team-])",
            "xs => xs.filter(x => x.offsetParent).map(x => [x.id, x.type])")
        for box, kind in boxes:
            kinds.add(kind)
            page.focus("#" + box)
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.id") == "start-game", (item["name"], box)
    assert {"checkbox", "number", "text"} <= kinds, kinds
    page.get_by_label(registry.load("scoop1956").title).check()
    page.fill("#opt-page-stories", "sport")
    page.press("#opt-page-stories", "Enter")
    page.wait_for_timeout(300)          # a start would have been asked for by now
    assert page.is_visible("#start-form") and page.is_hidden("#start-error") and current(page) is None
