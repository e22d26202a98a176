"""The table panel: a Flask application factory with one blueprint per area.

pages     - the HTML the tablets load (the table, a kept game, the history)
api       - JSON reads (state, verdicts, health) and the simulated phone
games_api - the games: start, act, undo/redo, finish/abandon, history, statistics, exports
openapi   - the OpenAPI document describing the JSON API (apidoc: how an endpoint is described)
live      - Server-Sent Events: every change, live, to every open tablet (the feed on the event loop)
oracles   - the dice and stopwatch buttons' and the editor's history, distributions, simulated presses
security  - watching is open; changing the game needs a joined device
join      - joining the table: QR codes, dialed codes, the devices list
errors    - how an error reaches a tablet (one set of handlers)
workbench - the dial tester and the guided bring-up, for whoever wires or restores the phone
"""

import logging
import os
import secrets

from flask import Flask

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024     # the largest JSON a tablet sends is a SCAN hand or a setup: a few hundred bytes


def _secret_key(data_dir):
    """One random key per install, kept beside the store (never a shared example value)."""
    path = data_dir / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except (OSError, ValueError):        # ValueError: not ASCII (UnicodeDecodeError), not a key this wrote
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
    from .url_rules import LazyBuildRule
    app.url_rule_class = LazyBuildRule      # each URL builder compiled at its first use, not at start
    from .safejson import SafeJSONProvider
    app.json = SafeJSONProvider(app)        # a kept out-of-range number never breaks a page
    app.config.from_mapping(
        SECRET_KEY=_secret_key(newsdesk.config.data_dir),
        STREAM_KEEPALIVE=15.0,
        MAX_CONTENT_LENGTH=MAX_REQUEST,
        HOST_ON_LOOPBACK=newsdesk.config.get("host_on_loopback", "yes") == "yes",   # see docs/security.md
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["newsdesk"] = newsdesk
    # "/api/devices/%2Fx" arrives as /api/devices//x: never redirect it to /api/devices/x, another
    # resource (werkzeug merges slashes by default); it is simply not found
    app.url_map.merge_slashes = False

    from . import api, app_shell, errors, games_api, join, live, openapi, oracles, pages, security
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games_api.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(live.bp)         # /stream: Flask's check of each live page
    app.register_blueprint(oracles.bp)
    app.register_blueprint(app_shell.bp)    # the home-screen app: manifest, icons, service worker, static caching
    from . import workbench
    workbench.init_app(app)                 # the dial tester and the guided bring-up
    errors.init_app(app)                    # how an error reaches a tablet: one set of handlers
    security.init_app(app)
    app.register_blueprint(join.bp)         # joining the table: QR codes, dialed codes, devices
    from . import backups
    app.register_blueprint(backups.bp)      # the host's backups: download, and restore from a tablet
    app.extensions["api_schemas"] = openapi.Schemas(app)     # a write's body is held to its schema (helpers.request_object)
    return app
