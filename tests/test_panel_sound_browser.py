"""The panel's tones (web_ui/static/js/sound.js) in Chromium: an audio context is made only when
the table has sound on, and it sleeps between tunes, since a running one renders silence all the
time (on a tablet: the audio hardware kept awake, and a few percent of a core for as long as the
page is open). A tune after the sleep still sounds, with no tap before it: a verdict from the
phone reaches tablets nobody is touching."""

import pytest
from conftest import launched_chromium

# the tones sleep after 2 s: the waiting lane (tests/lanes.py)
pytestmark = [pytest.mark.browser, pytest.mark.waits]

WAIT = 10000        # ms: generous for a loaded CI machine
REST = 2            # s: sound.js's REST, the silence before its context sleeps
LIVE = "document.getElementById('link') && document.getElementById('link').textContent === 'live'"
# Every audio context the page makes, and each tone it starts, kept where the test can see them.
WATCH = """(() => {
  const Real = window.AudioContext;
  window.contexts = [];
  window.tones = 0;
  window.AudioContext = function (...args) {
    const made = new Real(...args);
    const osc = made.createOscillator.bind(made);
    made.createOscillator = () => { window.tones += 1; return osc(); };
    window.contexts.push(made);
    return made;
  };
})()"""
STATES = "() => window.contexts.map(c => c.state)"
# A slow live feed: every message reaches the page half a second late, after the answer to its write.
SLOW_FEED = """(() => {
  const Real = window.EventSource;
  window.EventSource = class extends Real {
    set onmessage(f) { super.onmessage = f && ((e) => setTimeout(() => f(e), 500)); }
    get onmessage() { return super.onmessage; }
  };
})()"""


@pytest.fixture
def page(panel_server):
    with launched_chromium() as browser:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.add_init_script(WATCH)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.base = "http://127.0.0.1:%d" % panel_server
        yield page


def start(client, page):
    r = client.post("/api/games", json={"engine": "scoop1956", "options": {},
                                        "players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert r.status_code == 201, r.get_data(as_text=True)
    page.goto(page.base + "/")
    page.wait_for_function(LIVE)


def undo_elsewhere(client, page):
    """The last move taken back from another tablet: this page only hears of it."""
    version = client.get("/api/games/current").get_json()["game"]["version"]
    r = client.post("/api/games/current/undo", json={"version": version})
    assert r.status_code == 200, r.get_data(as_text=True)
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version + 1)


def test_with_sound_off_no_tap_or_move_makes_an_audio_context(client, page):
    page.add_init_script("localStorage.setItem('newsdesk.sound', 'off')")
    start(client, page)
    assert page.inner_text("#sound") == "Tablet sounds: off" and page.get_attribute("#sound", "aria-pressed") == "false"
    # one name whatever its state (the toggle's state is aria-pressed), and it names whose sounds
    assert page.get_by_role("button", name="Tablet sounds", exact=True).count() == 1
    page.get_by_role("button", name="Claim a Sport story", exact=True).click()     # a tap, and a write
    page.wait_for_function("document.body.dataset.version === '2'")
    undo_elsewhere(client, page)
    assert page.evaluate(STATES) == []


def test_the_audio_context_sleeps_between_tunes_and_a_tune_wakes_it(client, page):
    start(client, page)
    page.get_by_role("button", name="Claim a Sport story", exact=True).click()     # the tap that allows sound
    page.wait_for_function("document.body.dataset.version === '2'")
    page.wait_for_function("window.tones >= 1")                                     # the move's tune
    assert page.evaluate(STATES) == ["running"]
    page.wait_for_function("window.contexts[0].state === 'suspended'", timeout=(REST + 3) * 1000)
    page.evaluate("""() => { window.woke = false;
        window.contexts[0].addEventListener('statechange', () => { if (window.contexts[0].state === 'running') window.woke = true; }); }""")
    tones = page.evaluate("window.tones")
    undo_elsewhere(client, page)                                         # no tap: a change from elsewhere
    page.wait_for_function("t => window.woke && window.tones > t", arg=tones)
    page.wait_for_function("window.contexts[0].state === 'suspended'", timeout=(REST + 3) * 1000)
    assert len(page.evaluate(STATES)) == 1                               # the same context, woken again


def test_the_tablet_that_tapped_hears_its_move_once_whichever_comes_first(client, page):
    """The move's tune plays for the first of the two ways a page learns of its own move: the
    answer to its write, or the live feed's message. With the feed slower than the answer the
    page used to stay silent (it took the version from the answer, then the feed's message was
    old news); the tune plays once, not once for each."""
    page.add_init_script(SLOW_FEED)
    start(client, page)
    page.get_by_role("button", name="Claim a Sport story", exact=True).click()
    page.wait_for_function("document.body.dataset.version === '2'")
    page.wait_for_function("window.tones >= 1")                 # the answer's tune
    page.wait_for_timeout(1500)                                 # the feed's message has come too, late
    assert page.evaluate("window.tones") == 1
