"""JSON API for the games at the table: start, act, undo/redo, finish/abandon, and the games kept
(history, statistics per player, a game's record, its chart, and its exports).

Every write names the game version the tablet was showing and may carry an idempotency key
(a tablet reuses the key when it retries, so a move lands once). Refusals are JSON with one
sentence a person can act on: 400 for a malformed request, 409 when the table has moved on
(stale version, no game, another game still being played), 422 when the rules refuse the move.
"""

import json
from urllib.parse import quote

from flask import Blueprint, Response, jsonify

from controller.game_session import NAME_MAX
from controller.games import base, registry
from controller.games.catalogue import start_form
from controller.history import HISTORY_LIMIT
from controller.oracles import NAMES as ORACLES

from .apidoc import (
    ANY,
    BOOL,
    GAME_ID,
    INT,
    KEY,
    LIMIT,
    OBJ,
    STR,
    VERSION,
    arr,
    json_response,
    nullable,
    obj,
    read,
    ref,
    route,
    schemas,
    schemas_from,
    write,
)
from .helpers import desk, json_body, limit_arg

bp = Blueprint("games_api", __name__, url_prefix="/api/games")

BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def _session():
    return desk().table.games


def _camel(name):
    return "".join(part.title() for part in name.split("_"))


def game_schemas():
    """Each game's "options" and the numbers its offers ask for, from its engine's declaration
    (its options and panel facts' "numbers"); StartRequest's options are one of the games' option objects."""
    out, starts = {}, []
    for name in registry.names():
        try:
            engine = registry.load(name)
        except registry.EngineUnavailable:
            continue
        key = "Options" + _camel(name)
        out[key] = dict(base.options_schema(engine.options),
                        description="%s's options (engine %s); null or missing: the default." % (engine.title, name))
        starts.append(ref(key))
        numbers = base.panel(engine)["numbers"]
        if numbers:
            out["Numbers" + _camel(name)] = dict(obj(**{
                field: dict(INT, minimum=b["minimum"], maximum=b["maximum"], description=b["label"])
                for field, b in numbers.items()}), description="The numbers %s's offers ask to be entered, "
                "with their bounds; past them the move is refused (422) with a sentence." % engine.title)
    out["StartRequest"] = obj(["engine", "players"], engine={"enum": list(registry.names())},
                              players=arr(ref("Player"), minItems=1, maxItems=base.SEATS_MOST),
                              options=dict(nullable({"anyOf": starts}) if starts else nullable(OBJ),
                                           description="The game's settings, as its engine declares them "
                                                       "(OptionsScan, OptionsScoop1956, ...)."),
                              key=KEY)
    return out


# a final table row's "needed" (controller/games/base.py's result_of)
NEEDED = ("Only in a game won by reaching a score: the score this row needed to win (Scoop! (2002): 3 "
          "stories sold, N. Ickel 5), so a score is read against it.")
# the table's "since" (controller/table.py), as the state and the game being played say it
SINCE = ("The id of the newest event that started or ended a game (null before the first game): the editor's "
         "calls and the buttons' rolls before it belong to another game.")

schemas(
    bp,
    Player=obj(["name"], extra=False, name=dict(STR, minLength=1, maxLength=NAME_MAX),
               colour=nullable(dict(STR, maxLength=NAME_MAX)), team=nullable(dict(STR, maxLength=NAME_MAX))),
    Action=dict(obj(["type"], extra=True, type=dict(STR, description="One of the offers' types.")),
                description="One of the offers the game shows, with any fields it asks to be entered."),
    ActionRequest=obj(["action", "version"], action=ref("Action"), version=VERSION, key=KEY),
    VersionRequest=obj(["version"], version=VERSION, key=KEY),
    Game=obj(["id", "engine", "version", "moves", "players", "options", "created", "started_event", "problem",
              "title", "view", "offers", "undo", "redo"], extra=False,
             id=INT, engine=STR, version=INT,
             moves=dict(INT, description="The moves in force: an undo takes one back (the version counts every "
                                         "entry, undos too)."),
             players=arr(OBJ), options=OBJ, created=STR,
             started_event=nullable(dict(INT, description="The id of the event that started this game: the "
                                         "editor's calls before it belong to other games.")),
             problem=nullable(STR), title=STR, view=nullable(OBJ), offers=arr(OBJ),
             undo=nullable(dict(STR, description="What an undo would take back, in words.")),
             redo=nullable(STR),
             hand_verdicts=dict(arr(obj(["id", "signal"], extra=False, id=INT, signal=STR)),
                                description="A game the editor judges: the editor's verdicts entered by hand (not "
                                            "dialed) in the moves in force, oldest first, each with the id of the "
                                            "event that stored it.")),
    Current=obj(["game", "last_event_id", "since"], game=nullable(ref("Game")), last_event_id=INT,
                since=nullable(dict(INT, description=SINCE))),
    Outcome=obj(["game", "entry", "said", "repeat", "event_id"], extra=True,
                game=INT, entry=INT, said=STR, repeat=BOOL, event_id=INT, engine=STR, version=INT, moves=INT,
                view=nullable(OBJ), offers=arr(OBJ), undo=nullable(STR), redo=nullable(STR)),
    Standing=obj(["name", "score", "winner"], name=STR, score=nullable(INT), winner=BOOL,
                 automated=dict(BOOL, description="True, and only there, on a seat the box itself plays: an "
                                "automated opponent (Scoop!'s N. Ickel in The Lonely City), no person, so not "
                                "among the statistics' players."),
                 needed=dict(INT, description=NEEDED)),
    Summary=obj(["id", "engine", "title", "status", "created", "ended", "version", "players", "winners",
                 "standings"], extra=True,
                id=INT, engine=STR, title=STR, status={"enum": ["active", "finished", "abandoned"]},
                created=STR, ended=nullable(STR), version=INT, players=arr(nullable(STR)), winners=arr(STR),
                standings=nullable(arr(ref("Standing"))), repeat=BOOL),
    Place=obj(["name", "score", "winner", "place", "tied"], name=STR, score=nullable(INT), winner=BOOL,
              place=dict(INT, description="Standard competition ranking: tied players share a place and "
                                          "the next is skipped (1, 1, 3)."),
              tied=dict(BOOL, description="The place is shared with a player of another side."),
              needed=dict(INT, description=NEEDED)),
    Record={"allOf": [ref("Summary"), obj(["final", "log", "places"], extra=True, final=nullable(OBJ),
                                          places=arr(ref("Place")),
                                          log=arr(obj(["version", "type", "said", "at"], version=INT,
                                                      type=nullable(STR), said=STR, at=STR)))]},
    History=obj(["games"], games=arr(ref("Summary"))),
    Stats=obj(["players", "games_counted", "against_the_box"], games_counted=INT, players=arr(obj(
        ["name", "played", "won", "win_rate", "by_game"], name=STR, played=INT, won=INT, win_rate={"type": "number"},
        by_game=arr(obj(["engine", "title", "played", "won", "best", "average"], engine=STR, title=STR, played=INT,
                        won=INT, best=nullable(INT), average=nullable({"type": "number"}))))),
        against_the_box=dict(arr(obj(
            ["player", "opponent", "engine", "title", "played", "won", "lost"], player=STR, opponent=STR, engine=STR,
            title=STR, played=INT, won=dict(INT, description="The games the player won."),
            lost=dict(INT, description="The games the opponent won."))),
            description="Per player and opponent the box plays (a seat marked automated), the finished games "
                        "between them: the opponent is no player, so it has no line among the players.")),
    Chart=obj(["game", "engine", "unit", "prefix", "players", "colours", "points", "problem"], game=INT, engine=STR,
              unit=nullable(STR), prefix=STR, players=arr(STR), problem=nullable(STR),
              colours=dict(arr(nullable(STR)), description="Each line's player's colour as set at the start "
                                                           "(null: none, or a team's line)."),
              points=arr(obj(["version", "move", "said", "values"], version=INT, said=STR,
                             move=dict(INT, description="The moves in force up to this point (0: the setup); "
                                                        "the version counts undone moves and undos too."),
                             values=arr(nullable(INT))))),
    BGStats=obj(["play", "link"], link=dict(STR, description="Opens BG Stats' import dialog on a phone."),
                play=dict(OBJ, description="BG Stats' createPlay data: board, durationMin, comments, game, "
                                           "location, playDate, players.")),
    Option=obj(["name", "kind", "default", "label", "rule", "newsdesk", "form", "or_name"], extra=True,
               name=STR, kind={"enum": list(base.KINDS)}, default=ANY,
               label=dict(STR, description="How the start form asks for it."),
               rule=dict(STR, description="The rule text's line the option comes from."),
               newsdesk=dict(BOOL, description="True: the rules are silent and the default is newsdesk's choice."),
               form=dict(BOOL, description="False: only the API sets it."), or_name=BOOL,
               minimum=INT, maximum=INT, choices=OBJ,
               choice_order=dict(arr(STR), description="In the start form's catalogue: the choices' ids in the "
                                                      "order declared."), items=arr(INT),
               variant={"anyOf": [STR, arr(STR)], "description": "The variant it belongs to, or a list of them: the "
                        "start form shows it only with one of them chosen (absent: every variant's)."},
               schema=OBJ, help=STR),
    PanelFacts=obj(["score", "chart", "no_chart", "teams", "seats_by_variant", "listens", "numbers", "words"],
                   extra=True, score=nullable({"enum": ["money", "points"]}), chart=nullable(OBJ),
                   no_chart=nullable(STR), teams=BOOL, seats_by_variant=nullable(OBJ),
                   listens=dict(arr({"enum": list(ORACLES)}), description="The oracles whose results the game "
                                "takes (\"editor\": the editor on the phone judges its claims)."),
                   team_variants=nullable(dict(arr(STR), description="The variants played in teams, where "
                                                                    "only some are (null: all of them).")),
                   team_seats=nullable(dict(OBJ, description="variant -> [players, ...]: the numbers of "
                                                             "players a variant plays in teams with, where "
                                                             "not every number it seats (null: none such).")),
                   teams_optional=nullable(dict(OBJ, description="variant -> [players, ...]: the numbers of "
                                                                  "players a variant takes teams or none with, "
                                                                  "each playing alone with none (null: none such).")),
                   numbers=dict(OBJ, description="field -> {minimum, maximum, label}: the bounds of "
                                                 "each number an offer asks to be entered"),
                   words=OBJ),
    Catalogue=obj(["games"], games=arr(obj(
        ["name", "title", "variants", "available", "problem", "players", "colours", "teams", "timed",
         "variant_option", "variant_choice", "variant_order", "options", "panel"], name=STR, title=STR, variants=OBJ,
        variant_order=dict(arr(STR), description="The variants' ids in the order the game declares them "
                                                 "(a browser lists an object's whole-number keys sorted)."),
        available=BOOL, options=arr(ref("Option")), panel=ref("PanelFacts"),
        problem=nullable(STR),
        players=nullable(obj(["min", "max", "by_variant"], min=INT, max=INT, by_variant=nullable(OBJ))),
        colours=nullable(arr(STR)), teams=BOOL, timed=BOOL, variant_option=nullable(STR),
        variant_choice=nullable({"enum": ["one", "many"]})))),
)
schemas_from(bp, game_schemas)      # worked out with the document: the engines are loaded then


def _write(summary, request, response, op, *errs, ok="200", more=None):
    return write("post", summary, response, *errs, op=op, request=request, ok=ok, more=more)


# ---------------------------------------------------------------- reading

@route(bp, "/catalogue", read("The games newsdesk keeps, for the start form.", "Catalogue", op="catalogue"))
def catalogue():
    """Every game for the start form: title, variants, seats, colours, availability."""
    return jsonify(games=start_form())


@route(bp, "/current", read("The game being played (null with none).", "Current", op="currentGame"))
def current():
    """The game being played (null with none), the id of the newest event (a tablet opens its
    stream after that id so nothing falls between this read and the live feed) and the table's
    ``since``: a page that read the table again after missing a game's end keeps no call of it."""
    nd = desk()
    last = nd.last_event_id()       # read first: an event landing meanwhile is replayed, never lost
    return jsonify(game=_session().current(), last_event_id=last, since=nd.table.since())


def _kept():
    return desk().table.kept


@route(bp, "/history", read("Finished and abandoned games, newest first.", "History", "400", params=LIMIT,
                           op="history"))
def history():
    return jsonify(games=_kept().history(limit_arg(100, HISTORY_LIMIT)))


@route(bp, "/stats", read("Statistics per player over the finished games.", "Stats", op="stats"))
def stats():
    """Simple statistics per player over the finished games: played, won, and per game the best
    and average final number."""
    return jsonify(_kept().stats())


@route(bp, "/<int:game_id>", read("One game as kept, move by move.", "Record", "404", params=GAME_ID,
                                 op="record"))
def record(game_id):
    """A game as kept: summary, final table and what happened, move by move."""
    return jsonify(_kept().record(game_id))


@route(bp, "/<int:game_id>/chart", read("Each player's money or score after every move.", "Chart", "404",
                                       params=GAME_ID, op="chart"))
def chart(game_id):
    """Money or score of each player after every move still in force (undone moves drop out)."""
    return jsonify(_kept().chart(game_id))


@route(bp, "/<int:game_id>/export.csv", read(
    "A kept game's final table as CSV.", None, "404", "409", params=GAME_ID, op="exportCsv",
    content={"description": "One row per player.", "content": {"text/csv": {"schema": STR}}}))
def export_csv(game_id):
    name, text = _kept().export_csv(game_id)
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": "attachment; filename=" + name})


@route(bp, "/<int:game_id>/bgstats.json", read("A kept game in BG Stats' import format.", "BGStats", "404",
                                              "409", params=GAME_ID, op="exportBgStats"))
def export_bgstats(game_id):
    """The game in BG Stats' documented format for pushing a play from another app
    (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/),
    and the link that opens the BG Stats app on a phone with it."""
    play = _kept().bgstats(game_id)
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return jsonify(play=play, link=BGSTATS_LINK + quote(data, safe=""))


# ---------------------------------------------------------------- writing

@route(bp, "", _write("Start a game.", "StartRequest", "Outcome", "startGame", "409", "422", ok="201",
                     more={"200": json_response(ref("Outcome"), "The same start, sent again with its key.")}))
def start():
    """The checks of a start (the players, the options, the key) are the game session's, once."""
    data = json_body()
    outcome = _session().start(data.get("engine"), data.get("players"), data.get("options"), data.get("key"))
    return jsonify(outcome), 200 if outcome["repeat"] else 201


@route(bp, "/current/actions", _write("Make a move (one of the offers).", "ActionRequest", "Outcome", "act",
                                     "409", "422"))
def act():
    data = json_body()
    return jsonify(_session().act(data.get("action"), data.get("version"), data.get("key")))


@route(bp, "/current/undo", _write("Take back the newest move still in force.", "VersionRequest", "Outcome",
                                  "undo", "409", "422"))
def undo():
    data = json_body()
    return jsonify(_session().undo(data.get("version"), data.get("key")))


@route(bp, "/current/redo", _write("Put back the newest move undone.", "VersionRequest", "Outcome", "redo",
                                  "409", "422"))
def redo():
    data = json_body()
    return jsonify(_session().redo(data.get("version"), data.get("key")))


@route(bp, "/current/finish", _write("Keep the game as finished, with its winners.", "VersionRequest",
                                    "Summary", "finish", "409", "422"))
def finish():
    data = json_body()
    return jsonify(_session().finish(data.get("version"), data.get("key")))


@route(bp, "/current/abandon", _write("Stop the game without a winner.", "VersionRequest", "Summary",
                                     "abandon", "409", "422"))
def abandon():
    data = json_body()
    return jsonify(_session().abandon(data.get("version"), data.get("key")))
