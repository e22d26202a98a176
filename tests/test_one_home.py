"""One home for each fact: the settings' modes, the games' limits, the editor's odds note, the
panel's money format. Each test fails when a second home comes back (a restated tuple, a bare
number, a second sentence)."""

import ast
import json
import re
from pathlib import Path

import pytest
from conftest import launched_chromium

from controller import config
from controller.dial.decoder import OFFNORMAL_MODES
from controller.errors import BadRequest
from controller.game_session import clean_players
from controller.games import base
from controller.hw import display
from controller.oracles import editor, stopwatch

REPO = Path(__file__).resolve().parents[1]


def test_the_settings_take_each_mode_from_the_module_that_owns_it():
    """Not an equal tuple written again in config.py: the very one the owner checks against."""
    assert config.CHOICES["editor_mode"] is editor.MODES
    assert config.CHOICES["stopwatch_mode"] is stopwatch.MODES
    assert config.CHOICES["display"] is display.DISPLAYS
    assert config.CHOICES["offnormal"] == tuple(OFFNORMAL_MODES)


def test_the_off_normal_words_are_turned_into_the_decoders_value_in_one_place():
    repo = Path(__file__).resolve().parents[1]
    writers = [str(path.relative_to(repo)) for package in ("newsdesk", "controller", "web_ui") for path in (repo / package).rglob("*.py")
               if '"wired": True, "none": False' in path.read_text()]
    assert writers == ["controller/dial/decoder.py"]


def test_a_start_refuses_more_players_than_the_games_seat_limit(monkeypatch):
    """The request's bound is games.base.SEATS_MOST itself, not a number of its own."""
    monkeypatch.setattr(base, "SEATS_MOST", 3)
    clean_players([{"name": n} for n in ("Ann", "Bob", "Cy")])
    with pytest.raises(BadRequest, match="1 to 3"):
        clean_players([{"name": n} for n in ("Ann", "Bob", "Cy", "Di")])


LIMIT_WORDS = re.compile(r"SEAT|PLAYER|TEXT")


def test_the_seat_and_text_limits_are_written_once():
    """Only games/base.py gives a seat or text limit a number (SEATS_MOST, TEXT_MOST); anywhere
    else a constant for either is a second home that can drift."""
    strays = []
    for path in sorted(p for package in ("newsdesk", "controller", "web_ui") for p in (REPO / package).rglob("*.py")):
        if path == REPO / "controller" / "games" / "base.py":
            continue
        for node in ast.parse(path.read_text(), str(path)).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            value = getattr(node, "value", None)
            for t in targets:
                if (isinstance(t, ast.Name) and LIMIT_WORDS.search(t.id) and isinstance(value, ast.Constant)
                        and value.value in (base.SEATS_MOST, base.TEXT_MOST)):
                    strays.append("%s:%d %s" % (path.relative_to(REPO), node.lineno, t.id))
    assert strays == []


def test_the_panels_scripts_take_their_lengths_from_the_page(client):
    """An offer's text field stops at the engines' TEXT_MOST, sent with the page as textMost;
    no script writes a length of its own."""
    html = client.get("/").get_data(as_text=True)
    boot = json.loads(re.search(r'<script[^>]*id="boot"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert boot["textMost"] == base.TEXT_MOST
    written = [(p.name, m.group(0)) for p in sorted((REPO / "web_ui" / "static" / "js").rglob("*.js"))
               for m in re.finditer(r'maxlength:\s*"\d+"', p.read_text())]
    assert written == []


def test_the_editors_odds_note_is_said_in_one_place():
    """editor.ODDS_NOTE, and no other module saying the odds are newsdesk's own in words of its own."""
    assert "newsdesk's own choice" in editor.ODDS_NOTE
    strays = [str(p.relative_to(REPO)) for p in sorted((REPO / "controller").rglob("*.py"))
              if p != REPO / "controller" / "oracles" / "editor.py" and "odds are newsdesk's own" in p.read_text()]
    assert strays == []


def test_money_is_written_as_dollars_by_dom_js_alone():
    """The panel's "−$1,200" is dom.js's dollars(); a script spelling the sign and the dollar
    itself is a second formatter."""
    js = REPO / "web_ui" / "static" / "js"
    assert '"−"' in (js / "dom.js").read_text()
    strays = [p.name for p in sorted(js.rglob("*.js")) if p.name != "dom.js" and '"−$"' in p.read_text()]
    assert strays == []


@pytest.mark.browser
@pytest.mark.slow
def test_an_offers_text_field_stops_where_the_engines_do(app, panel_server, monkeypatch):
    """The offer form's text input takes its maxlength from the page's textMost (set here to 12,
    so a length written in the script would show)."""
    import web_ui.pages
    monkeypatch.setattr(web_ui.pages, "TEXT_MOST", 12)
    with launched_chromium() as browser:
        page = browser.new_context().new_page()
        page.goto("http://127.0.0.1:%d/" % panel_server)
        page.wait_for_function("document.getElementById('boot') !== null", timeout=10000)
        length = page.evaluate("""() => import('/static/js/offers.js').then((m) => {
            const box = m.renderOffers([{type: 'news', player: 0, enter: ['city']}], {players: [{name: 'Ann'}]}, {}, () => null);
            return box.querySelector('input[name=city]').getAttribute('maxlength'); })""")
        assert length == "12"
