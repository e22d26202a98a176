"""The floor under a move: a Flask app whose one route answers at once, served by Hypercorn on
one event loop with Hypercorn's own WSGI adapter. No game, no store, no page, none of newsdesk:
what any request to a panel made of the libraries the brief names costs before the panel does
anything. bench/pi_budget.py (``--charges``) times requests to it with and without the CPU quota,
the way it times the panel's moves.

    python bench/bare_panel.py PORT
"""

import asyncio
import sys

from flask import Flask, jsonify, request
from hypercorn.asyncio import serve
from hypercorn.config import Config

PATH = "/act"


def make_app():
    app = Flask(__name__)

    @app.post(PATH)
    def act():
        body = request.get_json(silent=True) or {}
        return jsonify(version=body.get("version", 0) + 1)

    @app.get("/api/health")
    def health():
        return jsonify(ok=True)

    return app


def main(argv):
    config = Config()
    config.bind = ["127.0.0.1:%d" % int(argv[0])]
    config.accesslog = None
    config.errorlog = None
    asyncio.run(serve(make_app(), config, mode="wsgi"))


if __name__ == "__main__":
    main(sys.argv[1:])
