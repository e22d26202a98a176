"""Server-Sent Events: every stored event and every live phone change, pushed to each tablet.

A tablet that slept reconnects with Last-Event-ID (the browser sends it) and first gets what
the store holds after that id, then the live feed; ids make the overlap harmless.
"""

import json

from flask import Blueprint, Response, abort, current_app, request

from .helpers import desk

bp = Blueprint("stream", __name__)


def _sse(message):
    lines = []
    if message.get("id") is not None:
        lines.append("id: %d" % message["id"])
    lines.append("data: " + json.dumps(message, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def _since():
    raw = request.headers.get("Last-Event-ID") or request.args.get("since")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()):
        abort(400, "Last-Event-ID / since must be an event id (a whole number), got %r." % raw)
    return int(raw)


@bp.get("/stream")
def stream():
    nd = desk()
    since = _since()
    keepalive = current_app.config["STREAM_KEEPALIVE"]
    sub = nd.bus.subscribe()  # before reading the backlog, so nothing falls between the two
    backlog = nd.store.since(since) if since is not None else []

    def events():
        last = since or 0
        try:
            yield "retry: 2000\n\n"
            for ev in backlog:
                last = ev.id
                yield _sse(ev.as_dict())
            while True:
                message = sub.get(timeout=keepalive)
                if sub.lagged:
                    sub.lagged = False
                    for ev in nd.store.since(last):
                        last = ev.id
                        yield _sse(ev.as_dict())
                if message is None:
                    yield ": keepalive\n\n"
                    continue
                if message.get("id") is not None:
                    if message["id"] <= last:
                        continue
                    last = message["id"]
                yield _sse(message)
        finally:
            sub.close()

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
