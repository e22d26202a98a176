"""A new user's first hour, in Debian's Chromium: a fresh data folder, a SCOOP (1956) game for
three started on the host's screen, the editor dialed on the simulated phone, the verdict moving
the money, an undo, a second device joining by the invitation's QR link and making a move, the
end of the game, the history and the CSV.

Every page on the way is laid out at a tablet's landscape (1024x768) and portrait (768x1024)
sizes and a phone's (390x844) (photographed into test-artifacts/first-hour-*.png by ``make
screenshots``), and checked there for what a new user would trip on: a page that scrolls
sideways, text cut off by its box, a field too narrow for its own example, and any console
error or failed request (a missing icon counts).
"""

from pathlib import Path

import pytest
from conftest import picture, signal_button
from test_browser import WAIT, browser, server  # noqa: F401  (the same browser and server fixtures)

from controller.config import load_config

SIZES = {"tablet": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024},
         "phone": {"width": 390, "height": 844}}
PLAYERS = ("Ann", "Bob", "Cat")

pytestmark = pytest.mark.browser


@pytest.fixture
def config(tmp_path):
    """A fresh data folder. The editor is in fair mode with every weight on EXTRA, so the call
    this walk makes has one known outcome ($200 to the caller from each other player); the odds
    themselves have tests of their own."""
    return load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "editor_mode": "fair", "editor_weights": "EXTRA=1"})


# What a page must not do at any size. Returns sentences, one per problem found.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1)
    problems.push(`the page scrolls sideways (${root.scrollWidth} px wide in ${window.innerWidth})`);
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.visibility !== "hidden" && s.display !== "none" && r.width > 0 && r.height > 0 && !el.closest("[hidden], .sr-only");
  };
  const name = (el) => el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el) || el.closest(".table-scroll, svg, rotary-dial")) continue;
    const s = getComputedStyle(el);
    const clips = ["hidden", "clip"].includes(s.overflowX) || s.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim())
      problems.push(`text is cut off in ${name(el)}: "${el.textContent.trim().slice(0, 40)}"`);
    // a word broken inside itself ("Au / dio", "Histor / y"): one word whose text takes more
    // than one line box, whatever the element's display
    const words = el.childElementCount === 0 ? el.textContent.trim() : "";
    if (words && !/\\s/.test(words) && words.length <= 20) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1)
        problems.push(`the word "${words}" in ${name(el)} breaks over ${tops.size} lines`);
    }
  }
  const ctx = document.createElement("canvas").getContext("2d");
  for (const input of document.querySelectorAll("input[placeholder]")) {
    if (!visible(input)) continue;
    const s = getComputedStyle(input);
    ctx.font = `${s.fontSize} ${s.fontFamily}`;
    // a number field keeps room on its right for the up/down arrows Chromium draws there
    const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - (input.type === "number" ? 24 : 0);
    if (ctx.measureText(input.placeholder).width > room + 1)
      problems.push(`${name(input)} is too narrow for its example "${input.placeholder}"`);
  }
  return problems;
}"""


class Visitor:
    """One device: a browser context of a given size, collecting every console error, failed
    request and uncaught exception on its pages."""

    def __init__(self, browser, size, name):  # noqa: F811
        self.name = name
        self.context = browser.new_context(viewport=SIZES[size])
        self.page = self.context.new_page()
        self.troubles = []
        # (a failed load is also a console error without its address: the response names it)
        self.page.on("console", lambda m: m.type == "error" and not m.text.startswith("Failed to load resource")
                     and self.troubles.append("console: " + m.text))
        self.page.on("pageerror", lambda e: self.troubles.append("uncaught: %s" % e))
        self.page.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
                     and self.troubles.append("request failed: %s %s" % (r.url, r.failure)))
        self.page.on("response", lambda r: r.status >= 400 and self.troubles.append(
            "%d from %s" % (r.status, r.url)))

    def close(self):
        self.context.close()


def look_at_every_size(visitor, label):
    """Lay the page out at the three sizes (the device's own last, so it carries on as it was;
    ``make screenshots`` photographs each) and return every layout problem found at any of them."""
    page = visitor.page
    own = page.viewport_size
    problems = []
    for size_name, size in list(SIZES.items()) + [("own", own)]:
        page.set_viewport_size(size)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        if size_name == "own":
            break
        page.add_style_tag(content=".undo-bar { position: static !important; }")
        picture(page, "first-hour-%s-%s.png" % (label, size_name), full_page=True)
        problems += ["%s at %s: %s" % (label, size_name, p) for p in page.evaluate(LAYOUT_PROBLEMS)]
    return problems


def money(page):
    return {n.split("=")[0]: int(n.split("=")[1]) for n in page.evaluate(
        "[...document.querySelectorAll('#game-area [data-num]')].map(e => e.dataset.num + '=' + e.dataset.value)")}


def wait_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version, timeout=WAIT)


def test_the_first_hour_of_a_new_user(browser, server, desk):  # noqa: F811
    host = Visitor(browser, "tablet", "host")
    guest = Visitor(browser, "phone", "guest")
    problems = []
    try:
        page = host.page
        base = "http://127.0.0.1:%d" % server
        page.goto(base + "/")
        page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        problems += look_at_every_size(host, "empty-table")
        empty = page.locator("#calls li.empty")
        assert empty.inner_text() == "No calls yet."
        assert empty.evaluate("li => getComputedStyle(li).listStyleType") == "none"   # not "1. No calls yet."
        assert page.inner_text("#hardware").lower().count("simulated") == 1

        # start SCOOP (1956) for three
        page.get_by_label("SCOOP (Parker Brothers, 1956)").check()
        while page.locator(".player-row").count() < len(PLAYERS):
            page.click("#add-player")
        for i, name in enumerate(PLAYERS):
            page.fill("#player-%d" % i, name)
        problems += look_at_every_size(host, "start-form")
        page.click("#start-game")
        wait_version(page, 1)
        start = money(page)
        assert [start["cash:p%d" % i] for i in range(3)] == [3000, 3000, 3000]

        # Ann claims a story and dials the editor on the simulated phone
        page.get_by_role("button", name="Claim a Sport story").click()
        wait_version(page, 2)
        page.focus("rotary-dial")
        page.keyboard.press("7")
        # the call's list keeps it; the sidebar goes on to follow the call in progress
        page.wait_for_function("(document.querySelector('#calls li:first-child .call-digit') || {}).textContent"
                               " === ' dialed 7'", timeout=WAIT)
        assert page.inner_text("#calls li:first-child .call-signal") == "EXTRA"
        wait_version(page, 3)
        assert page.inner_text("#verdict-signal") == "EXTRA"
        after = money(page)
        assert (after["cash:p0"], after["cash:p1"], after["cash:p2"]) == (3400, 2800, 2800)
        assert sum(after["cash:p%d" % i] for i in range(3)) == 9000
        problems += look_at_every_size(host, "verdict")

        # the story's printed value, then undo it: the undo says what it takes back, in words
        page.fill("input[name=value]", "500")
        problems += look_at_every_size(host, "printed-value")
        page.get_by_role("button", name="Take the Sport story").click()
        wait_version(page, 4)
        assert money(page)["worth:p0"] == 3900
        undo = page.inner_text("#undo")
        assert undo.startswith("↶ Undo: ") and "version" not in undo
        page.click("#undo")
        wait_version(page, 5)
        assert "worth:p0" not in money(page) or money(page)["worth:p0"] == 3400
        assert "Took back" in page.inner_text("#game-area")

        # a second device joins by the invitation's QR link
        page.goto(base + "/join/host")
        page.get_by_role("button", name="Invite a player").click()
        page.wait_for_selector("#invite-qr svg", timeout=WAIT)
        link = page.inner_text("#invite-url")
        assert "/join?token=" in link and page.locator("#invite-warning").is_hidden()
        problems += look_at_every_size(host, "invite")
        guest.page.goto(link)
        guest.page.fill("#device-name", "Bob's phone")
        guest.page.get_by_role("button", name="Save the name").click()
        guest.page.wait_for_selector("#name-saved:not([hidden])", timeout=WAIT)
        assert guest.page.inner_text("#name-saved") == "Saved: the host sees this device as \u201cBob's phone\u201d."
        problems += look_at_every_size(guest, "joined")
        guest_base = link.split("/join?", 1)[0]
        guest.page.goto(guest_base + "/")
        guest.page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=WAIT)
        wait_version(guest.page, 5)
        # the guest takes the story again (redo is the table's move too) and Bob plays on
        guest.page.fill("input[name=value]", "500")
        guest.page.get_by_role("button", name="Take the Sport story").click()
        wait_version(guest.page, 6)
        problems += look_at_every_size(guest, "guest-move")

        # Bob claims a story, the editor's PRESS is entered by hand, and Bob goes to press
        page.goto(base + "/")
        wait_version(page, 6)
        for version, words in enumerate(("Claim a Crime story", signal_button("PRESS"), "Bob goes to press!"), start=7):
            page.get_by_role("button", name=words, exact=True).click()
            wait_version(page, version)

        # finish: the end card, its chart, the history and the CSV
        page.click("#finish")
        page.wait_for_selector("#winner", timeout=WAIT)
        page.wait_for_selector(".end-card .chart-box, .end-card .end-bar", timeout=WAIT)
        assert page.inner_text("#winner") == "Bob won!"      # $2,800 + $1,500 for going to press
        ticks = [int(t.replace("$", "").replace(",", "").replace("\u2212", "-"))
                 for t in page.locator(".end-card svg.chart text.axis").all_text_contents() if t.startswith(("$", "-"))]
        steps = {b - a for a, b in zip(ticks, ticks[1:])}
        assert len(steps) == 1 and steps.pop() in (100, 200, 250, 500, 1000, 2000, 2500, 5000), ticks
        problems += look_at_every_size(host, "end")
        with page.expect_download() as download:
            page.click("#export-csv")
        csv = Path(download.value.path()).read_text(encoding="utf-8")
        assert "Ann" in csv and "Bob" in csv and "Cat" in csv
        page.goto(base + "/history")
        assert "SCOOP" in page.inner_text("#history")
        stats = page.inner_text("#stats")
        assert "$4,300" in stats and "$3,900" in stats and "avg" not in stats
        problems += look_at_every_size(host, "history")
        page.goto(base + "/oracles")
        problems += look_at_every_size(host, "odds")
        page.set_viewport_size(SIZES["phone"])
        cut = page.evaluate("[...document.querySelectorAll('.table-scroll')].filter(d => d.scrollWidth > d.clientWidth + 1).length")
        assert cut == 0, "an odds table scrolls sideways on a phone"
        page.set_viewport_size(SIZES["tablet"])
        page.goto(base + "/games/999")
        assert page.get_by_role("link", name="Back to the table").is_visible()
        host.troubles = [t for t in host.troubles if "/games/999" not in t]   # the 404 asked for
    finally:
        host.close()
        guest.close()
    assert not problems, "\n".join(problems)
    assert not host.troubles and not guest.troubles, host.troubles + guest.troubles
