"""The table panel: a Flask application factory with one blueprint per area.

pages     - the HTML the tablets load (the table, a kept game, the history)
api       - JSON reads (state, verdicts, health) and the simulated phone
games_api - the games: start, act, undo/redo, finish/abandon, history, statistics, exports
openapi   - the OpenAPI document describing the JSON API
stream    - Server-Sent Events: every change, live, to every open tablet
oracles   - the dice and stopwatch buttons' and the editor's history, distributions, simulated presses
security  - watching is open; changing the game needs a joined device (join: tokens, dialed codes)
workbench - the dial tester and the guided bring-up, for whoever wires or restores the phone
"""

import logging
import os
import secrets

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024     # the largest JSON a tablet sends is a SCAN hand or a setup: a few hundred bytes


def _secret_key(data_dir):
    """One random key per install, kept beside the store (never a shared example value)."""
    path = data_dir / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except OSError:
        pass
    key = secrets.token_hex(32)
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        path.unlink()   # a short or unreadable key file is replaced, never reused
    except FileNotFoundError:
        pass
    # created readable by its owner only from the first byte (no window where others could read it)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
        f.flush()
        os.fsync(f.fileno())
    return key


def create_app(config=None, newsdesk=None, test_config=None):
    """Build the panel around a running Newsdesk (built from ``config`` unless handed in)."""
    from controller.app import Newsdesk
    from controller.config import load_config

    if newsdesk is None:
        newsdesk = Newsdesk(config or load_config())
    app = Flask(__name__)
    from .safejson import SafeJSONProvider
    app.json = SafeJSONProvider(app)        # a kept out-of-range number never breaks a page
    app.config.from_mapping(
        SECRET_KEY=_secret_key(newsdesk.config.data_dir),
        STREAM_KEEPALIVE=15.0,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=MAX_REQUEST,
        HOST_ON_LOOPBACK=newsdesk.config.get("host_on_loopback", "yes") == "yes",   # see docs/security.md
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["newsdesk"] = newsdesk

    from . import api, games_api, openapi, oracles, pages, security, stream
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games_api.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(oracles.bp)
    from . import workbench
    workbench.init_app(app)                 # the dial tester and the guided bring-up
    _error_handlers(app)
    security.init_app(app)                  # after ours: its catch-all for the unexpected wins
    dial = security.guard(app).dial         # a device joins by dialing the code it shows
    dial.pass_on = newsdesk.table.call_editor   # held digits that were calls after all
    newsdesk.table.intercept_dialing(dial.on_digit, dial.on_hook)
    return app


def _error_handlers(app):
    from controller.errors import BadRequest, NewsdeskError
    from controller.games.base import GameError
    from controller.games.registry import EngineUnavailable
    from controller.store import GameNotActive, KeyReused, StaleVersion

    def _sentence(text):
        text = str(text).strip()
        text = text[:1].upper() + text[1:]
        return text if text.endswith((".", "!", "?")) else text + "."

    def _api():
        return request.path.startswith("/api/")

    @app.errorhandler(HTTPException)
    def _json_error(e):
        """API clients get a JSON error with one plain sentence; pages get the panel's own page
        with the same sentence and a way back to the table."""
        if _api():
            return jsonify(error=e.name, message=e.description), e.code
        if e.code is None or e.code < 400:
            return e
        response = e.get_response()           # keeps the headers the error carries (Allow, Retry-After)
        response.set_data(render_template("pages/error.html", error=e))
        return response

    @app.errorhandler(NewsdeskError)
    def _refused(e):
        """A refusal from the table, mapped to the status that says whose move it is:
        409 the table moved on (re-read it), 422 the rules say no, 400 the request is malformed."""
        if isinstance(e, StaleVersion):
            body = dict(error="Conflict", message=_sentence(e), stale=True, game=e.game, version=e.current)
            return jsonify(body), 409
        if isinstance(e, (GameNotActive, EngineUnavailable)):
            return jsonify(error="Conflict", message=_sentence(e)), 409
        if isinstance(e, (GameError, KeyReused)):
            return jsonify(error="Unprocessable Content", message=_sentence(e)), 422
        if isinstance(e, BadRequest):
            return jsonify(error="Bad Request", message=_sentence(e)), 400
        log.exception("the panel could not do %s %s", request.method, request.path)
        return jsonify(error="Service Unavailable", message=_sentence(e)), 503

    @app.errorhandler(Exception)
    def _crash(e):
        if isinstance(e, HTTPException):
            return _json_error(e)
        log.exception("unexpected error on %s %s", request.method, request.path)
        if _api():
            return jsonify(error="Internal Server Error",
                           message="Something went wrong on the newsdesk; it is in the log. Reload and try again."), 500
        return InternalServerError(original_exception=e)
