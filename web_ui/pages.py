"""The pages the tablets load. Each page carries what it shows at load as JSON (a script block
of type application/json, never run) and the stream keeps it current."""

from flask import Blueprint, current_app, redirect, render_template, url_for

from controller.game_session import NAME_MAX
from controller.games.base import TEXT_MOST, and_list
from controller.games.catalogue import chart_units, start_form
from controller.history import HISTORY_LIMIT
from controller.table import CALLS_SHOWN

from .assets import screen_url
from .helpers import desk

bp = Blueprint("pages", __name__, template_folder="templates")
# names in a sentence as the engines list them ("Ann, Bob and Cat"): the history's winners read
# "Ann and Bob and Cat won"
bp.add_app_template_filter(and_list, "and_list")


def can_write():
    """Whether this device may change the game: any device until web_ui.security is installed,
    then a joined one (the Pi's own screen counts as the host)."""
    if "newsdesk.security" not in current_app.extensions:
        return True
    from .security import current_viewer
    return current_viewer().role is not None


SIM_BUTTONS: tuple[tuple[str, dict[str, bool], str], ...] = (      # (endpoint path, body, words): the oracles' simulated buttons, when web_ui.oracles has them
    ("/api/oracles/sim/dice", {}, "Roll the dice"),
    ("/api/oracles/sim/dice", {"long": True}, "Change the dice (long press)"),
    ("/api/oracles/sim/stopwatch", {}, "Press the stopwatch"),
)


def _sim_buttons():
    """The simulated dice and stopwatch buttons, when the hardware is simulated and web_ui.oracles
    provides their endpoints."""
    if desk().sim_buttons is None:
        return []
    routes = {r.rule for r in current_app.url_map.iter_rules() if "POST" in (r.methods or ())}
    return [{"url": url, "body": body, "words": words, "id": "sim-" + words.split()[-1].strip(")").lower()}
            for url, body, words in SIM_BUTTONS if url in routes]


# The modules panel.js imports for a first frame that isn't a game's screen (its LATER): named
# here only to be fetched beside it (_scripts.html)
START_FORM, END_CARD = "js/start.js", "js/endgame.js"


def catalogue():
    """The start form's catalogue, each game with the URL of its screen (``screen``) for the
    panel to import: the page's scripts name no game."""
    return [dict(item, screen=screen_url(item["name"])) for item in start_form()]


def listens(games, engine):
    """The oracles the game ``engine`` takes, from its catalogue item's panel facts ([] for a
    game not in ``games``)."""
    return next((item["panel"]["listens"] for item in games if item["name"] == engine), [])


@bp.get("/")
def index():
    nd = desk()
    last = nd.last_event_id()          # before the state: whatever lands meanwhile is replayed
    state = nd.table.state()
    history = nd.table.kept.history(1)
    games = catalogue()
    boot = {
        "lastEventId": last,
        "simulated": state["hardware"]["simulated"],
        "game": state["game"],
        "catalogue": games,
        "nameMax": NAME_MAX,        # the start form's name and team fields stop where the API does
        "textMost": TEXT_MOST,      # an offer's text field (a city, an airport) stops where the engines do
        "canWrite": can_write(),
        "health": nd.health(),
        "lastGame": history[0] if history else None,
        "lastVerdict": state["last_verdict"],
        "since": state["since"],            # what came before it is another game's (controller/table.py)
        "lastRoll": state["last_roll"],
        "gameVerdict": nd.table.games.headline(),
    }
    window = (nd.table.hardware.get("simulated") and nd.window is not None
              and any(r.rule == "/api/oracles/window.png" for r in current_app.url_map.iter_rules()))
    editor = bool(state["game"]) and "editor" in listens(games, state["game"]["engine"])
    first = screen_url(state["game"]["engine"]) if state["game"] else url_for("static", filename=START_FORM)
    return render_template("pages/index.html", state=state, boot=boot, sim_buttons=_sim_buttons(), window=window,
                           editor=editor, can_write=boot["canWrite"], calls_shown=CALLS_SHOWN, first_module=first)




@bp.get("/favicon.ico")
def favicon():
    """The icon a browser asks for on its own, where a page's <link rel="icon"> isn't read
    (a JSON answer opened in a tab, a bookmark): the same drawing, so no request ends in 404."""
    return current_app.send_static_file("favicon.svg")


@bp.get("/games/<int:game_id>")
def kept_game(game_id):
    nd = desk()
    game = nd.table.kept.game(game_id)       # NotFound: the panel's 404 page, with a way back
    if game.status == "active":
        return redirect(url_for("pages.index"))
    boot = {"lastEventId": nd.last_event_id(), "showEnd": game.id, "health": nd.health(),
            "canWrite": can_write()}
    return render_template("pages/game.html", game=game, boot=boot, first_module=url_for("static", filename=END_CARD))


@bp.get("/history")
def history():
    nd = desk()
    games = nd.table.kept.history(HISTORY_LIMIT)
    per_player = nd.table.kept.stats()
    boot = {"lastEventId": nd.last_event_id(), "health": nd.health(), "canWrite": can_write()}
    return render_template("pages/history.html", games=games, stats=per_player, boot=boot, units=chart_units())


ORACLE_HISTORY = 12         # results per oracle the oracles page lists (the stream adds newer ones)


@bp.get("/oracles")
def oracles():
    """Are these dice fair? Each oracle's recent results and its observed distribution, this
    session and all time, against what a fair one gives (the JSON of /api/oracles/distributions)."""
    from controller.oracle_service import HISTORY
    from controller.oracles.fairness import ALPHA
    nd = desk()
    last = nd.last_event_id()          # before the tallies: whatever lands meanwhile is replayed
    found = None
    if nd.oracles is not None:         # a box without the buttons' oracles: the page says so
        found = {"distributions": nd.oracles.distributions(),
                 "history": {name: nd.oracles.history(name, ORACLE_HISTORY) for name in HISTORY},
                 "historyLimit": ORACLE_HISTORY}
    boot = {"lastEventId": last, "health": nd.health(), "canWrite": can_write(), "oracles": found}
    return render_template("pages/oracles.html", boot=boot, alpha=ALPHA)
