"""The pages the tablets load. Each page carries what it shows at load as JSON (a script block
of type application/json, never run) and the stream keeps it current."""

from flask import Blueprint, abort, current_app, redirect, render_template, url_for

from .api import health_report
from .games_api import MAX_ID, catalogue_items
from .helpers import desk

bp = Blueprint("pages", __name__, template_folder="templates")


def can_write():
    """Whether this device may change the game: any device until web_ui.security is installed,
    then a joined one (the Pi's own screen counts as the host)."""
    if "newsdesk.security" not in current_app.extensions:
        return True
    from .security import current_viewer
    return current_viewer().role is not None


def _sim_buttons():
    """The simulated dice and stopwatch buttons' endpoints, when web_ui.oracles provides them."""
    found = []
    for rule in current_app.url_map.iter_rules():
        if "POST" in (rule.methods or ()) and rule.rule.startswith("/api/sim/") and not rule.arguments:
            name = rule.rule.rsplit("/", 1)[-1]
            if name not in ("dial", "hook"):
                found.append({"url": rule.rule, "name": name})
    return sorted(found, key=lambda b: b["url"])


@bp.get("/")
def index():
    nd = desk()
    last = nd.store.last_id()          # before the state: whatever lands meanwhile is replayed
    state = nd.table.state()
    history = nd.table.games.history(1)
    boot = {
        "lastEventId": last,
        "simulated": state["hardware"]["simulated"],
        "game": state["game"],
        "catalogue": catalogue_items(),
        "canWrite": can_write(),
        "health": health_report(nd),
        "lastGame": history[0] if history else None,
        "lastVerdict": state["last_verdict"],
    }
    return render_template("pages/index.html", state=state, boot=boot, sim_buttons=_sim_buttons())


@bp.get("/games/<int:game_id>")
def kept_game(game_id):
    nd = desk()
    game = nd.store.game(game_id) if game_id <= MAX_ID else None
    if game is None:
        abort(404, "There is no game #%d; the games kept are listed in the history." % game_id)
    if game.status == "active":
        return redirect(url_for("pages.index"))
    boot = {"lastEventId": nd.store.last_id(), "showEnd": game.id, "health": health_report(nd),
            "canWrite": can_write()}
    return render_template("pages/game.html", game=game, boot=boot)


@bp.get("/history")
def history():
    from .games_api import HISTORY_LIMIT, stats
    nd = desk()
    games = nd.table.games.history(HISTORY_LIMIT)
    per_player = stats().get_json()
    boot = {"lastEventId": nd.store.last_id(), "health": health_report(nd), "canWrite": can_write()}
    return render_template("pages/history.html", games=games, stats=per_player, boot=boot)
