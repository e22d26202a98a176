"""The Workbench in a real browser (Debian's Chromium, driven by Playwright), against the panel
served as `newsdesk serve` serves it, on simulated hardware: what a builder bringing up a box
sees and touches. The waits are conditions (a selector, a number of the page's own refreshes),
never sleeps."""

import contextlib
import os
from pathlib import Path

import pytest
from conftest import launched_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 10000       # ms: generous for a loaded CI machine
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 360, "height": 740}
TOUCH = 44         # px: the smallest touch target (WCAG 2.5.5)
# axe-core as tests/test_a11y_browser.py installs it (tests/axe, npm ci): from the disk, no CDN
AXE_JS = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@pytest.fixture(scope="module")
def browser():
    with launched_chromium() as b:
        yield b


@pytest.fixture
def open_page(screens, panel_server, desk):
    """Opens the Workbench at a viewport size; fails the test on any script error."""
    pages = []
    with contextlib.ExitStack() as borrowed:
        def open_(viewport=TABLET):
            page = borrowed.enter_context(screens.page(viewport))
            pages.append(page)
            page.goto("http://127.0.0.1:%d/workbench" % panel_server)
            page.wait_for_selector("#step-lift")
            return page

        yield open_
        errors = [e for page in pages for e in page.errors]
    desk.sim_phone.idle()
    assert errors == []


def refreshes(page, n=2):
    """Let the page read the box ``n`` more times (it polls twice a second)."""
    for _ in range(n):
        with page.expect_response(lambda r: "/api/workbench?" in r.url, timeout=WAIT):
            pass


def test_the_bell_is_ticked_by_the_builder_and_the_answer_survives_a_reload(open_page):
    page = open_page()
    page.click("#ring")
    sent = page.wait_for_selector("#step-bell .sent", timeout=WAIT)
    assert "newsdesk switched the bell on" in sent.text_content()
    refreshes(page)
    assert page.locator("#step-bell.seen").count() == 0          # switched on is not heard
    page.click("#step-bell button:has-text(\"It didn't ring\")")
    failed = page.wait_for_selector("#step-bell .hint.failed", state="visible", timeout=WAIT)
    assert "GPIO23" in failed.text_content() and "heard no ring" in failed.text_content()
    page.focus("#step-bell button:has-text('It rang')")     # by keyboard: the focus stays on the step
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-bell.seen", timeout=WAIT)
    assert page.evaluate("() => document.activeElement.id") == "step-bell"
    assert "You confirmed it" in page.text_content("#step-bell")
    page.reload()
    page.wait_for_selector("#step-bell.seen", timeout=WAIT)
    assert page.locator("#step-bell [data-confirm]").count() == 0


def test_ringing_the_bell_says_so_and_where_the_question_waits_with_the_focus_left_on_ring(open_page):
    page = open_page()
    page.focus("#ring")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /switched the bell on.*\\. Did it work\\? .*It rang, or It didn't ring/"
                           ".test(document.getElementById('announce').textContent)", timeout=WAIT)
    assert page.evaluate("() => document.activeElement.id") == "ring"     # Enter again rings again
    assert "Ring the bell" in page.text_content("#announce")


def test_start_again_shows_no_advice_until_a_step_has_waited_as_a_reload_does(browser, panel_server, desk):
    """The wiring hints wait 15 s for a step to be tried; Playwright's clock skips the wait."""
    with contextlib.closing(browser.new_context(viewport=TABLET)) as context:   # its own: a fake clock stays on it
        _start_again_on(context.new_page(), panel_server)
    desk.sim_phone.idle()


def _start_again_on(page, panel_server):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()
    page.goto("http://127.0.0.1:%d/workbench" % panel_server)
    page.click("[data-sim=lift]")
    page.wait_for_selector("#step-lift.seen", timeout=WAIT)
    page.clock.fast_forward(20000)                      # past the hints' wait: the steps not done say what to check
    page.wait_for_selector("#step-dice .hint", state="visible", timeout=WAIT)
    shown = "() => [...document.querySelectorAll('#steps .hint')].filter((e) => !e.hidden).length"
    page.click("#reset")
    page.wait_for_selector("#step-lift:not(.seen)", timeout=WAIT)
    refreshes(page)
    assert page.evaluate(shown) == 0
    page.reload()
    page.wait_for_selector("#step-lift:not(.seen)", timeout=WAIT)
    assert page.evaluate(shown) == 0
    page.clock.fast_forward(20000)                      # after the reset too, a step that waited says it
    page.wait_for_selector("#step-lift .hint", state="visible", timeout=WAIT)
    page.click("#reset")                                # nothing done: the advice still goes, as at a reload
    page.wait_for_selector("#step-lift .hint", state="hidden", timeout=WAIT)
    assert errors == []


def test_the_lift_step_stays_automatic(open_page):
    page = open_page()
    page.click("[data-sim=lift]")
    page.wait_for_selector("#step-lift.seen", timeout=WAIT)
    assert page.locator("#step-lift [data-confirm]").count() == 0


def _controls(page):
    return page.eval_on_selector_all(
        "main button, main input, main select",
        """(els) => els.filter((e) => e.offsetParent !== null).map((e) => {
             const r = e.getBoundingClientRect(), s = getComputedStyle(e);
             return {name: e.textContent.trim() || e.id, w: r.width, h: r.height, radius: s.borderTopLeftRadius,
                     right: r.right};
           })""")


def _check_controls(controls, viewport):
    small = [c for c in controls if c["w"] < TOUCH or c["h"] < TOUCH]
    assert small == [], small
    assert all(c["radius"] != "0px" for c in controls), controls
    assert all(c["right"] <= viewport["width"] for c in controls), controls     # nothing off the side


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_every_control_is_styled_and_a_44px_touch_target(open_page, viewport):
    page = open_page(viewport)
    page.wait_for_selector("#virtual:not([hidden])", timeout=WAIT)
    controls = _controls(page)
    assert len(controls) >= 10
    _check_controls(controls, viewport)
    page.click("#ring")                                   # and the answers that then show
    page.wait_for_selector("#step-bell [data-confirm]", timeout=WAIT)
    _check_controls(_controls(page), viewport)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]


def test_with_audio_off_the_dial_tone_step_says_why_and_what_to_do_at_once(open_page):
    """The tests' box has audio = off: the step says so as the page opens, not after the wait
    the wiring hints have."""
    page = open_page()
    why = page.wait_for_selector("#step-tone .step-blocked", state="visible", timeout=3000)
    text = why.text_content()
    assert "audio setting is off" in text and "audio = auto" in text and "start newsdesk again" in text
    assert page.locator("#step-tone [data-confirm]").count() == 0


def test_the_virtual_phone_dials_any_digit(open_page):
    page = open_page()
    assert page.locator(".wb-keypad button").count() == 10
    page.click("[data-sim=dial7]")
    page.wait_for_selector(".digit-test h3:has-text('Digit 7: 7 pulses')", timeout=15000)
    page.click("[data-sim=dial3]")
    page.wait_for_selector(".digit-test h3:has-text('Digit 3: 3 pulses')", timeout=15000)


def test_a_refused_profile_name_stays_until_the_builder_changes_the_field(open_page):
    page = open_page()
    page.click("[data-sim=dial3]")                      # a digit measured: a good name can then be kept
    page.wait_for_selector(".digit-test h3:has-text('Digit 3: 3 pulses')", timeout=15000)
    page.fill("#profile-name", "no/slashes")
    page.click("#keep")
    error = page.wait_for_selector("#profile-error", state="visible", timeout=WAIT)
    assert "a phone's name is" in error.text_content().lower()
    refreshes(page, 3)
    assert page.is_visible("#profile-error") and "name" in page.text_content("#profile-error")
    assert page.get_attribute("#profile-name", "aria-invalid") == "true"
    page.type("#profile-name", "x")                     # the builder changes the field: the refusal goes
    page.wait_for_selector("#profile-error", state="hidden", timeout=WAIT)
    page.fill("#profile-name", "no/slashes")
    page.click("#keep")
    page.wait_for_selector("#profile-error", state="visible", timeout=WAIT)
    page.fill("#profile-name", "Desk phone")
    page.click("#keep")                                 # or succeeds
    page.wait_for_selector("#profile-error", state="hidden", timeout=WAIT)


def test_an_emptied_phone_field_is_left_empty_by_the_refresh(open_page):
    page = open_page()
    assert page.input_value("#profile-name") == "default"
    page.fill("#profile-name", "")
    refreshes(page, 3)
    assert page.input_value("#profile-name") == ""
    page.fill("#profile-name", "Bakelite 3")
    page.click("#standard")                             # focus elsewhere: still what was typed
    refreshes(page, 2)
    assert page.input_value("#profile-name") == "Bakelite 3"


def test_every_field_has_a_label_and_the_headings_are_in_order(open_page):
    page = open_page()
    page.click("[data-sim=dial0]")
    page.wait_for_selector(".digit-test", timeout=15000)
    unlabelled = page.eval_on_selector_all(
        "main input, main select, main button",
        "(els) => els.filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')"
        " && !e.textContent.trim()).map((e) => e.outerHTML)")
    assert unlabelled == []
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "(hs) => hs.map((h) => Number(h.tagName[1]))")
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_the_workbench_mid_bring_up_has_no_axe_violations(open_page, viewport):
    """With what only shows mid bring-up: the bell's answers, an "it didn't" hint, a refused
    name, a measured digit. (tests/test_a11y_browser.py audits the page as it opens.)"""
    if not AXE_JS.exists():
        why = "axe-core is not installed in tests/axe (tests/test_a11y_browser.py installs it with npm ci)"
        if os.environ.get("NEWSDESK_REQUIRE_NODE"):
            pytest.fail(why)
        pytest.skip(why)
    page = open_page(viewport)
    page.click("#ring")
    page.wait_for_selector("#step-bell [data-confirm]", timeout=WAIT)
    page.click("#step-bell .wb-no")
    page.wait_for_selector("#step-bell .hint.failed", timeout=WAIT)
    page.fill("#profile-name", "no/slashes")
    page.click("#keep")
    page.wait_for_selector("#profile-error", state="visible", timeout=WAIT)
    page.click("[data-sim=dial2]")
    page.wait_for_selector(".digit-test", timeout=15000)
    page.add_script_tag(path=str(AXE_JS))
    found = page.evaluate("""tags => axe.run(document, {runOnly: {type: "tag", values: tags}})
        .then(r => r.violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(" "))]))""", AXE_TAGS)
    assert found == []
