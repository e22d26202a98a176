"""The OpenAPI document of the panel's JSON API, served at /api/openapi.json.

Put together here from what each blueprint describes beside its views (web_ui/apidoc.py's
``route``, with ``read`` and ``write``), and kept beside as web_ui/openapi.json for reading without
a server (``python -m web_ui.openapi`` rewrites it; a test checks it is current). The tests fuzz
the API from this document, so every request body says exactly what the server accepts. A change
(``write``) documents the X-Newsdesk header every write must carry and the role it needs
(security scheme "device": a joined device's session cookie; the box's own screen, on loopback,
is the host). The live feed, /stream, is described too: each of its messages is a StreamMessage.

Imports point one way: the blueprints import apidoc to describe themselves, this module imports
them to put the document together; apidoc imports no blueprint.
"""

import json
import sys
import threading
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from controller.games import registry

from . import api, backups, games_api, join, live, oracles, workbench
from .apidoc import BOOL, COMPONENTS, INT, OBJ, STR, described, obj, read, route

bp = Blueprint("openapi", __name__, url_prefix="/api")

FILE = Path(__file__).with_name("openapi.json")

SCHEMAS = {
    "Error": obj(["error", "message"], error=STR, message=dict(STR, description="One sentence a person can act on."),
                 stale=BOOL, game=INT, version=INT),
}

# The blueprints create_app registers, for the document built without an app (the file beside the
# code); a test holds it equal to the document of a running panel.
PANEL = (api.bp, games_api.bp, bp, live.bp, oracles.bp, workbench.bp, join.bp, backups.bp)


def _merge(doc, fragment, source):
    """Add a blueprint's paths and components; a name described twice, differently, is a bug."""
    parts = [(doc["paths"], fragment.get("paths") or {}, "path")]
    for kind, items in (fragment.get("components") or {}).items():
        parts.append((doc["components"].setdefault(kind, {}), items, kind))
    for target, items, kind in parts:
        for key, value in items.items():
            if key in target and target[key] != value:
                raise ValueError("%s describes the %s %r again, differently" % (source, kind, key))
            target[key] = value


def document(app=None):
    """The OpenAPI 3.1 document (a fresh dict), put together from what each blueprint of ``app``
    (or of the panel, PANEL) describes beside its views (apidoc.route)."""
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "newsdesk table panel", "version": "1",
                 "description": "The JSON API behind the table panel. Errors are JSON {error, message}, "
                                "the message one sentence a person can act on. Anyone on the table's "
                                "Wi-Fi may read; a change needs the header X-Newsdesk: 1 and, unless it "
                                "says otherwise, a joined device (security scheme \"device\"). Live "
                                "changes arrive on /stream (Server-Sent Events; each event's data is a "
                                "StreamMessage); the join pages (/join, /join/host) are HTML."},
        "paths": {},
        "components": {"schemas": dict(SCHEMAS), **json.loads(json.dumps(COMPONENTS))},
    }
    for blueprint in (app.blueprints.values() if app is not None else PANEL):
        mine = described(blueprint)
        fragment = {"paths": mine["paths"], "components": mine["components"]}
        for work_out in mine["later"]:
            fragment["components"] = {"schemas": dict(fragment["components"]["schemas"], **work_out())}
        _merge(doc, json.loads(json.dumps(fragment)), blueprint.name)
    return doc


class Schemas(dict):
    """The component schemas of ``app``'s document, for holding a write's body to its schema
    (helpers.request_object): each blueprint's own at once, and those worked out later (the
    games' options, for which every engine is loaded) only when a schema names one, so a press
    of the dice or a dialed digit loads no game. Read-only, and shared by the view threads."""

    def __init__(self, app):
        super().__init__(SCHEMAS)
        for blueprint in app.blueprints.values():
            self.update(described(blueprint)["components"]["schemas"])
        self._later = [work_out for blueprint in app.blueprints.values() for work_out in described(blueprint)["later"]]
        self._lock = threading.Lock()

    def __missing__(self, name):
        with self._lock:
            later, self._later = self._later, []
            for work_out in later:
                self.update(work_out())
        if not dict.__contains__(self, name):
            raise KeyError(name)
        return dict.__getitem__(self, name)


@route(bp, "/openapi.json", read("This document.", None, op="openapi",
                                 content={"description": "OpenAPI 3.1", "content": {"application/json": {
                                     "schema": OBJ}}}))
def served():
    return jsonify(document(current_app))


def shipped():
    """The document as newsdesk ships it (web_ui/openapi.json): with its own games only, whatever
    else is installed beside it (a plug-in's game is in the document the panel serves)."""
    with registry.only():
        return document()


def main(argv=None):
    text = json.dumps(shipped(), indent=1, ensure_ascii=False) + "\n"
    FILE.write_text(text, encoding="utf-8")
    print("wrote %s (%d bytes)" % (FILE.name, len(text)), file=sys.stderr)


if __name__ == "__main__":
    main()
