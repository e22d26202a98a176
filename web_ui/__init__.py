"""The table panel: a Flask application factory with one blueprint per area.

pages  - the HTML the tablets load
api    - JSON reads and actions (the simulated phone's dial and hook, for now)
stream - Server-Sent Events: every change, live, to every open tablet
"""

import logging
import secrets

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

log = logging.getLogger("newsdesk.web")


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
    path.write_text(key + "\n", encoding="ascii")
    path.chmod(0o600)
    return key


def create_app(config=None, newsdesk=None, test_config=None):
    """Build the panel around a running Newsdesk (built from ``config`` unless handed in)."""
    from controller.app import Newsdesk
    from controller.config import load_config

    if newsdesk is None:
        newsdesk = Newsdesk(config or load_config())
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=_secret_key(newsdesk.config.data_dir),
        STREAM_KEEPALIVE=15.0,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["newsdesk"] = newsdesk

    from . import api, pages, stream
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)

    @app.errorhandler(HTTPException)
    def _json_error(e):
        """API clients get a JSON error with one plain sentence; pages get Flask's HTML."""
        from flask import request
        if request.path.startswith("/api/"):
            return jsonify(error=e.name, message=e.description), e.code
        return e

    return app
