"""The OpenAPI document of the panel's JSON API, served at /api/openapi.json.

Built here, in Python, and kept beside as web_ui/openapi.json for reading without a server
(``python -m web_ui.openapi`` rewrites it; a test checks it is current). The tests fuzz the API
from this document, so every request body says exactly what the server accepts.

Another blueprint's module describes its own endpoints with a module-level ``OPENAPI`` dict
({"paths": {...}, "components": {"schemas": {...}, ...}}), built with web_ui/apidoc.py's ``read``
and ``write``; the document merges it in (the panel's own such modules always, PANEL_MODULES, so
the file beside the code has them too). A change (``write``) documents the X-Newsdesk header
every write must carry and the role it needs (security scheme "device": a joined device's
session cookie; the box's own screen, on loopback, is the host).

Imports point one way: the blueprints import apidoc to describe themselves, this module imports
them to put the document together; apidoc imports no blueprint.
"""

import json
import sys
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from controller import health
from controller.game_session import MAX_PLAYERS_SENT, NAME_MAX
from controller.games import base, registry

from . import join, oracles, workbench
from .apidoc import (
    ANY,
    BOOL,
    COMPONENTS,
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
    write,
)

bp = Blueprint("openapi", __name__, url_prefix="/api")

FILE = Path(__file__).with_name("openapi.json")

SCHEMAS = {
    "Error": obj(["error", "message"], error=STR, message=dict(STR, description="One sentence a person can act on."),
                 stale=BOOL, game=INT, version=INT),
    "Player": obj(["name"], extra=False, name=dict(STR, minLength=1, maxLength=NAME_MAX),
                  colour=nullable(dict(STR, maxLength=NAME_MAX)), team=nullable(dict(STR, maxLength=NAME_MAX))),
    "StartRequest": obj(["engine", "players"], engine=dict(STR, minLength=1),
                        players=arr(ref("Player"), minItems=1, maxItems=MAX_PLAYERS_SENT),
                        options=nullable(dict(OBJ, description="The game's settings: variant(s), dealer, ...")),
                        key=KEY),
    "Action": dict(obj(["type"], extra=True, type=dict(STR, description="One of the offers' types.")),
                   description="One of the offers the game shows, with any fields it asks to be entered."),
    "ActionRequest": obj(["action", "version"], action=ref("Action"), version=VERSION, key=KEY),
    "VersionRequest": obj(["version"], version=VERSION, key=KEY),
    "Game": obj(["id", "engine", "version", "players", "options", "created", "problem", "title", "view",
                 "offers", "undo", "redo"], extra=False,
                id=INT, engine=STR, version=INT, players=arr(OBJ), options=OBJ, created=STR,
                problem=nullable(STR), title=STR, view=nullable(OBJ), offers=arr(OBJ),
                undo=nullable(dict(STR, description="What an undo would take back, in words.")),
                redo=nullable(STR)),
    "Current": obj(["game", "last_event_id"], game=nullable(ref("Game")), last_event_id=INT),
    "Outcome": obj(["game", "entry", "said", "repeat", "event_id"], extra=True,
                   game=INT, entry=INT, said=STR, repeat=BOOL, event_id=INT, engine=STR, version=INT,
                   view=nullable(OBJ), offers=arr(OBJ), undo=nullable(STR), redo=nullable(STR)),
    "Standing": obj(["name", "score", "winner"], name=STR, score=nullable(INT), winner=BOOL),
    "Summary": obj(["id", "engine", "title", "status", "created", "ended", "version", "players", "winners",
                    "standings"], extra=True,
                   id=INT, engine=STR, title=STR, status={"enum": ["active", "finished", "abandoned"]},
                   created=STR, ended=nullable(STR), version=INT, players=arr(nullable(STR)), winners=arr(STR),
                   standings=nullable(arr(ref("Standing"))), repeat=BOOL),
    "Record": {"allOf": [ref("Summary"), obj(["final", "log"], extra=True, final=nullable(OBJ),
                                             log=arr(obj(["version", "type", "said", "at"], version=INT,
                                                         type=nullable(STR), said=STR, at=STR)))]},
    "History": obj(["games"], games=arr(ref("Summary"))),
    "Stats": obj(["players", "games_counted"], games_counted=INT, players=arr(obj(
        ["name", "played", "won", "win_rate", "by_game"], name=STR, played=INT, won=INT, win_rate={"type": "number"},
        by_game=arr(obj(["engine", "title", "played", "won", "best", "average"], engine=STR, title=STR, played=INT,
                        won=INT, best=nullable(INT), average=nullable({"type": "number"})))))),
    "Chart": obj(["game", "engine", "unit", "prefix", "players", "points", "problem"], game=INT, engine=STR,
                 unit=nullable(STR), prefix=STR, players=arr(STR), problem=nullable(STR),
                 points=arr(obj(["version", "said", "values"], version=INT, said=STR,
                                values=arr(nullable(INT))))),
    "BGStats": obj(["play", "link"], link=dict(STR, description="Opens BG Stats' import dialog on a phone."),
                   play=dict(OBJ, description="BG Stats' createPlay data: board, durationMin, comments, game, "
                                              "location, playDate, players.")),
    "Option": obj(["name", "kind", "default", "label", "rule", "newsdesk", "form", "or_name"], extra=True,
                  name=STR, kind={"enum": list(base.KINDS)}, default=ANY,
                  label=dict(STR, description="How the start form asks for it."),
                  rule=dict(STR, description="The rule text's line the option comes from."),
                  newsdesk=dict(BOOL, description="True: the rules are silent and the default is newsdesk's choice."),
                  form=dict(BOOL, description="False: only the API sets it."), or_name=BOOL,
                  minimum=INT, maximum=INT, choices=OBJ, items=arr(INT), variant=STR, schema=OBJ, help=STR),
    "PanelFacts": obj(["score", "chart", "no_chart", "teams", "seats_by_variant", "editor", "numbers", "words"],
                      extra=True, score=nullable({"enum": ["money", "points"]}), chart=nullable(OBJ),
                      no_chart=nullable(STR), teams=BOOL, seats_by_variant=nullable(OBJ), editor=BOOL,
                      numbers=dict(OBJ, description="field -> {minimum, maximum, label}: the bounds of "
                                                    "each number an offer asks to be entered"),
                      words=OBJ),
    "Catalogue": obj(["games"], games=arr(obj(
        ["name", "title", "variants", "available", "problem", "players", "colours", "teams", "timed",
         "variant_option", "variant_choice", "options", "panel"], name=STR, title=STR, variants=OBJ,
        available=BOOL, options=arr(ref("Option")), panel=ref("PanelFacts"),
        problem=nullable(STR),
        players=nullable(obj(["min", "max", "by_variant"], min=INT, max=INT, by_variant=nullable(OBJ))),
        colours=nullable(arr(STR)), teams=BOOL, timed=BOOL, variant_option=nullable(STR),
        variant_choice=nullable({"enum": ["one", "many"]})))),
    "Health": obj(["simulated", "pins", "overall", "parts"], simulated=BOOL, pins=STR,
                  overall={"enum": [health.OK, health.WARN, health.FAULT]},
                  parts=arr(obj(["part", "status", "summary"], extra=True, part=STR,
                                status={"enum": list(health.STATUSES)}, summary=STR))),
    "State": obj(["hardware", "phone", "editor", "last_verdict", "verdicts", "game", "engines", "last_event_id"],
                 extra=True, hardware=OBJ, phone=OBJ, editor=OBJ, last_verdict=nullable(OBJ), verdicts=arr(OBJ),
                 game=nullable(ref("Game")), engines=arr(OBJ), last_event_id=INT),
    "Verdicts": obj(["verdicts"], verdicts=arr(OBJ)),
    "DialRequest": obj(["digit"], digit=dict(INT, minimum=0, maximum=9)),
    "HookRequest": obj(["state"], state={"enum": ["off", "on"]}),
    "RingRequest": obj([], times=dict(INT, minimum=1, maximum=100), stop=BOOL),
    "Accepted": obj(["accepted"], extra=True, accepted=BOOL),
}


def _post(summary, request, response, op, ok="200", more=None, *errs):
    return write("post", summary, response, *errs, op=op, request=request, ok=ok, more=more)


# The modules of the blueprints every panel registers that describe themselves (OPENAPI); the
# document built without an app (the file beside the code) includes them too.
PANEL_MODULES = (oracles, join, workbench)
MINE = ("api", "games_api", "openapi")      # the blueprints this module describes


def _merge(doc, fragment, source):
    """Add an OPENAPI fragment's paths and components; a name described twice, differently, is a bug."""
    parts = [(doc["paths"], fragment.get("paths") or {}, "path")]
    for kind, items in (fragment.get("components") or {}).items():
        parts.append((doc["components"].setdefault(kind, {}), items, kind))
    for target, items, kind in parts:
        for key, value in items.items():
            if key in target and target[key] != value:
                raise ValueError("%s describes the %s %r again, differently" % (source, kind, key))
            target[key] = value


def _camel(name):
    return "".join(part.title() for part in name.split("_"))


def game_schemas():
    """Each game's "options" and the numbers its offers ask for, from its engine's declaration
    (OPTIONS, PANEL["numbers"]); StartRequest's options are one of the games' option objects."""
    out, starts = {}, []
    for name in registry.names():
        try:
            engine = registry.load(name)
        except registry.EngineUnavailable:
            continue
        key = "Options" + _camel(name)
        out[key] = dict(base.options_schema(getattr(engine, "OPTIONS", ())),
                        description="%s's options (engine %s); null or missing: the default." % (engine.TITLE, name))
        starts.append(ref(key))
        numbers = base.panel(engine)["numbers"]
        if numbers:
            out["Numbers" + _camel(name)] = dict(obj(**{
                field: dict(INT, minimum=b["minimum"], maximum=b["maximum"], description=b["label"])
                for field, b in numbers.items()}), description="The numbers %s's offers ask to be entered, "
                "with their bounds; past them the move is refused (422) with a sentence." % engine.TITLE)
    out["StartRequest"] = obj(["engine", "players"], engine={"enum": list(registry.names())},
                              players=arr(ref("Player"), minItems=1, maxItems=MAX_PLAYERS_SENT),
                              options=dict(nullable({"anyOf": starts}) if starts else nullable(OBJ),
                                           description="The game's settings, as its engine declares them "
                                                       "(OptionsScan, OptionsScoop1956, ...)."),
                              key=KEY)
    return out


def document(app=None):
    """The OpenAPI 3.1 document (a fresh dict): this module's endpoints, those of the panel's
    modules that describe theirs (PANEL_MODULES), and those any other blueprint of ``app``
    describes in its module's OPENAPI."""
    paths = {
        "/api/state": read("Everything a tablet shows at load: hardware, phone, editor, game.", "State",
                           op="state"),
        "/api/verdicts": read("The editor's latest verdicts, newest first.", "Verdicts", "400", params=LIMIT,
                              op="verdicts"),
        "/api/health": read("The health strip: phone, buttons, display, audio.", "Health", op="health"),
        "/api/sim/dial": _post("Dial a digit on the simulated phone.", "DialRequest", "Accepted", "simDial", "202",
                               None, ("409", "The phone is real hardware here: dial it, the panel can't.")),
        "/api/sim/hook": _post("Lift or hang up the simulated phone's handset.", "HookRequest", "Accepted",
                               "simHook", "202", None,
                               ("409", "The phone is real hardware here: lift it, the panel can't.")),
        "/api/phone/ring": _post("Ring the phone so the table picks up (times cycles, or until lifted), or "
                                 "stop it ({\"stop\": true}).", "RingRequest", "Accepted", "ringPhone", "202"),
        "/api/games/catalogue": read("The games newsdesk keeps, for the start form.", "Catalogue", op="catalogue"),
        "/api/games/current": read("The game being played (null with none).", "Current", op="currentGame"),
        "/api/games": _post("Start a game.", "StartRequest", "Outcome", "startGame", "201",
                            {"200": json_response(ref("Outcome"), "The same start, sent again with its key.")}, "409", "422"),
        "/api/games/current/actions": _post("Make a move (one of the offers).", "ActionRequest", "Outcome",
                                            "act", "200", None, "409", "422"),
        "/api/games/current/undo": _post("Take back the newest move still in force.", "VersionRequest", "Outcome",
                                         "undo", "200", None, "409", "422"),
        "/api/games/current/redo": _post("Put back the newest move undone.", "VersionRequest", "Outcome",
                                         "redo", "200", None, "409", "422"),
        "/api/games/current/finish": _post("Keep the game as finished, with its winners.", "VersionRequest",
                                           "Summary", "finish", "200", None, "409", "422"),
        "/api/games/current/abandon": _post("Stop the game without a winner.", "VersionRequest", "Summary",
                                            "abandon", "200", None, "409", "422"),
        "/api/games/history": read("Finished and abandoned games, newest first.", "History", "400", params=LIMIT,
                                   op="history"),
        "/api/games/stats": read("Statistics per player over the finished games.", "Stats", op="stats"),
        "/api/games/{game_id}": read("One game as kept, move by move.", "Record", "404", params=GAME_ID,
                                     op="record"),
        "/api/games/{game_id}/chart": read("Each player's money or score after every move.", "Chart", "404",
                                           params=GAME_ID, op="chart"),
        "/api/games/{game_id}/export.csv": read(
            "A kept game's final table as CSV.", None, "404", "409", params=GAME_ID, op="exportCsv",
            content={"description": "One row per player.", "content": {"text/csv": {"schema": STR}}}),
        "/api/games/{game_id}/bgstats.json": read("A kept game in BG Stats' import format.", "BGStats", "404",
                                                  "409", params=GAME_ID, op="exportBgStats"),
        "/api/openapi.json": read("This document.", None, op="openapi",
                                  content={"description": "OpenAPI 3.1", "content": {"application/json": {
                                      "schema": OBJ}}}),
    }
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "newsdesk table panel", "version": "1",
                 "description": "The JSON API behind the table panel. Errors are JSON {error, message}, "
                                "the message one sentence a person can act on. Anyone on the table's "
                                "Wi-Fi may read; a change needs the header X-Newsdesk: 1 and, unless it "
                                "says otherwise, a joined device (security scheme \"device\"). Live "
                                "changes arrive on /stream (Server-Sent Events, not described here); "
                                "the join pages (/join, /join/host) are HTML."},
        "paths": paths,
        "components": {"schemas": dict(SCHEMAS, **game_schemas()), **json.loads(json.dumps(COMPONENTS))},
    }
    modules = list(PANEL_MODULES)
    for name, blueprint in (app.blueprints.items() if app is not None else ()):
        if name not in MINE:
            modules.append(sys.modules.get(blueprint.import_name))
    done = set()
    for module in modules:
        fragment = getattr(module, "OPENAPI", None)
        if isinstance(fragment, dict) and module.__name__ not in done:
            done.add(module.__name__)
            _merge(doc, json.loads(json.dumps(fragment)), module.__name__)
    return doc


@bp.get("/openapi.json")
def served():
    return jsonify(document(current_app))


def main(argv=None):
    text = json.dumps(document(), indent=1, ensure_ascii=False) + "\n"
    FILE.write_text(text, encoding="utf-8")
    print("wrote %s (%d bytes)" % (FILE.name, len(text)), file=sys.stderr)


if __name__ == "__main__":
    main()
