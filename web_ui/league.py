"""The league page: a read-only screen following many tables over MQTT (``newsdesk league``).

A small Flask app of its own, apart from the table's panel: it has no table, no store and
takes no actions. ``/`` is the page, ``/api/league`` the picture as JSON, ``/api/league/stream``
the same pushed as Server-Sent Events at every change. Local assets only.
"""

import json

from flask import Flask, Response, jsonify, render_template

KEEPALIVE = 15.0


def create_league_app(follower, keepalive=KEEPALIVE):
    app = Flask(__name__)
    app.config.update(JSON_SORT_KEYS=False)
    app.extensions["newsdesk.league"] = follower

    @app.get("/")
    def page():
        return render_template("league.html", boot=follower.snapshot())

    @app.get("/api/league")
    def picture():
        return jsonify(follower.snapshot())

    @app.get("/api/league/stream")
    def stream():
        def events():
            seen = -1
            yield "retry: 2000\n\n"
            while True:
                version = follower.changed(seen, keepalive)
                if version == seen:
                    yield ": keepalive\n\n"
                    continue
                seen = version
                snap = follower.snapshot()
                seen = snap["version"]
                yield "data: %s\n\n" % json.dumps(snap, ensure_ascii=False, separators=(",", ":"))

        return Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app
