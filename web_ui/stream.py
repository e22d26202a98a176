"""Server-Sent Events: every stored event and every live phone change, pushed to each tablet.

A tablet that slept reconnects with Last-Event-ID (the browser sends it) or ``since=`` and first
gets everything the store holds after that id, then the live feed; ids make the overlap harmless.
When that is more than ``BACKLOG_MAX`` events, or the id is not one this store gave out, or the
tablet fell behind the live feed, it gets one ``resync`` event instead and reloads its state:
never a silent gap.

Under ``newsdesk serve`` the live feed itself runs on the event loop (web_ui/live.py): this view
then only checks the request (Host, the id) and says who is asking, so a thousand open tablets
hold no worker thread. The generator below is the same feed for a plain WSGI server (and the
Flask test client).
"""

from flask import Blueprint, Response, abort, current_app, request

from controller import events

from . import safejson
from .apidoc import INT, OBJ, STR, obj, read, ref, route, schemas
from .helpers import desk

bp = Blueprint("stream", __name__)

BACKLOG_MAX = 1000     # events replayed to a tablet that reconnects; past that it resyncs
GATE = "newsdesk.stream_gate"   # the ASGI scope key the event-loop feed asks this view through


def _message(kind):
    """One kind of message on the feed, as events.SAID describes it; a stored one has its id."""
    if kind in events.STORED:
        return obj(["id", "at", "type", "data"], id=dict(INT, description="The store's id: Last-Event-ID."),
                   at=dict(STR, description="When it was stored (ISO 8601)."), type={"const": kind}, data=OBJ,
                   description=events.SAID[kind])
    return obj(["type", "data"], type={"const": kind}, data=OBJ, description=events.SAID[kind])


schemas(bp, StreamMessage={"oneOf": [_message(kind) for kind in sorted(events.ALL)],
                           "description": "One message of the live feed: the JSON of an event's data line."})


def sse(message):
    lines = []
    if message.get("id") is not None:
        lines.append("id: %d" % message["id"])
    lines.append("data: " + safejson.dumps(message, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def resync_message(why, last_id):
    """Tells a page that it missed events it can't be sent one by one: reload the state."""
    return {"type": events.RESYNC, "data": {"why": why, "last_event_id": last_id}}


def catch_up(nd, since):
    """(events after ``since``, None) or ([], a resync message) when they can't all be replayed."""
    if since is None:
        return [], None
    last = nd.last_event_id()
    if since > last:
        return [], resync_message("This page's last event (#%d) is newer than the store's (#%d)." % (since, last),
                                  last)
    backlog = nd.events_after(since, BACKLOG_MAX + 1)
    if len(backlog) > BACKLOG_MAX:
        return [], resync_message("%d or more events happened while this page was away." % (BACKLOG_MAX + 1),
                                  last)
    return backlog, None


def _since():
    raw = request.headers.get("Last-Event-ID") or request.args.get("since")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        abort(400, "Last-Event-ID / since must be an event id (a whole number), got %r." % raw[:40])
    return int(raw)


@route(bp, "/stream", read(
    "The live feed: every stored event after the page's last, then each change as it happens.", None, "400",
    op="stream", params=[
        {"name": "Last-Event-ID", "in": "header", "required": False, "schema": dict(STR, pattern="^[0-9]+$"),
         "description": "The last event id this page had (the browser sends it when it reconnects)."},
        {"name": "since", "in": "query", "required": False, "schema": dict(STR, pattern="^[0-9]+$"),
         "description": "The same, for the first connection: the last_event_id the page's state came with."}],
    content={"description": "Server-Sent Events: a stored event has an id: line; every data: line is the "
                            "JSON of a StreamMessage; comment lines keep the connection alive.",
             "content": {"text/event-stream": {"schema": dict(STR, contentMediaType="application/json",
                                                              contentSchema=ref("StreamMessage"))}}}))
def stream():
    since = _since()
    gate = (request.environ.get("asgi.scope") or {}).get(GATE)
    if gate is not None:
        from .security import current_viewer
        gate["since"] = since
        gate["host"] = current_viewer().role == "host"
        return Response(status=204)
    nd = desk()
    keepalive = current_app.config["STREAM_KEEPALIVE"]

    sub = nd.bus.subscribe()  # before reading the backlog, so nothing falls between the two

    def events():
        last = since or 0
        try:
            backlog, resync = catch_up(nd, since)
            yield "retry: 2000\n\n"
            if resync is not None:
                yield sse(resync)
            for ev in backlog:
                last = ev.id
                yield sse(ev.as_dict())
            while True:
                message = sub.get(timeout=keepalive)
                if sub.lagged:
                    sub.lagged = False
                    missed, again = catch_up(nd, last)
                    if again is not None:
                        yield sse(again)
                    for ev in missed:
                        last = ev.id
                        yield sse(ev.as_dict())
                if message is None:
                    yield ": keepalive\n\n"
                    continue
                if message.get("id") is not None:
                    if message["id"] <= last:
                        continue
                    last = message["id"]
                yield sse(message)
        finally:
            sub.close()

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(sub.close)   # also when the body is never read (HEAD, a dropped client)
    return response
