"""The panel as an ASGI application: Flask for every page and API call, the live feed on the loop.

Why: a Server-Sent Events stream stays open for as long as a tablet is on the table. Under a WSGI
server each one holds a worker thread, so a room's worth of tablets (or a guest's open tabs)
starves every other request. Here ``/stream`` is a coroutine: an open tablet costs a few
kilobytes and no thread, and Flask's views run in a small thread pool (web_ui/wsgi_lane.py) that
only ever holds short requests. This is the panel's one live feed; its wire format is web_ui/sse.py.

Flask still decides who may watch: each new stream is first put to the Flask view at /stream
(Host check, the Last-Event-ID, who is asking; it also carries the feed's OpenAPI description),
then followed here. A plain WSGI server can't hold a feed open, so that view refuses a request
that did not come through here (503, and the page keeps itself up to date by polling).

The feed's rules: a tablet that slept reconnects with Last-Event-ID (the browser sends it) or
``since=`` and first gets everything the store holds after that id, then the live feed; ids make
the overlap harmless. When that is more than ``BACKLOG_MAX`` events, or the id is not one this
store gave out, or the tablet fell behind the live feed, it gets one ``resync`` event instead and
reloads its state: never a silent gap.

Limits that keep the table usable (all settings in controller/config.py):
- ``streams_max`` open streams in all, ``streams_per_address`` from one address; past either the
  answer is 503 with Retry-After, and the page polls until it may stream again. The last
  ``streams_host_reserve`` of ``streams_max`` are kept for the host (the box's own screen).
- Flask's views run in two thread pools: ``threads`` for everyone, and ``HOST_THREADS`` kept for
  the host (the box's own screen, a joined host device; security.is_host_request), so guests
  whose requests fill every shared thread never make the host's page or moves wait.
- a page that stops reading is dropped: its queue holds ``QUEUE_MAX`` messages (past that it
  gets a resync) and a write that can't go out within ``SEND_TIMEOUT`` seconds ends its stream,
  so memory never grows with it.
- a request's body is read here, on the loop, before any thread is given to it (``read_body``):
  one over the panel's limit (Flask's MAX_CONTENT_LENGTH, declared or chunked) is answered 413
  at once, and one that trickles longer than ``header_timeout`` seconds 408; either way the
  connection is closed and nothing is held for it. A view's thread never waits on a slow body.
  A host's request to a route in the app's HOST_BODIES ({path: (bytes, seconds)}: the backup
  upload, web_ui/backups.py) has that limit instead; anyone else's has the panel's.
"""

import asyncio
import collections
import gc
import json
import logging
import threading
from typing import Any
from urllib.parse import unquote

from flask import Blueprint, Response, abort, request

from controller import events

from . import sse
from .apidoc import INT, OBJ, STR, obj, read, ref, route, schemas
from .security import current_viewer, is_host_request
from .wsgi_lane import WsgiLane, in_a_view

log = logging.getLogger(__name__)

QUEUE_MAX = 256        # messages waiting for one page; past that it is behind and resyncs
SEND_TIMEOUT = 20.0    # seconds one write to a page may take before the page counts as gone
RETRY_AFTER = 30       # seconds a page refused a stream waits before asking again
HOST_THREADS = 2       # Flask threads only the host's requests use (its page, its moves)
BODY_TIMEOUT = 10.0    # seconds a request's body may take to arrive (settings: header_timeout)
PARTS_WAIT = 1.0       # seconds after the start that parts waiting for the first answer start anyway
RESTART_RETRY = 2      # seconds a page asking while the panel stops waits (it is back in a few)
REQUESTS_PER_ADDRESS = 16   # a guest address's requests under way at once (a page makes a handful); past it, 503
STOPPING = "The newsdesk is restarting; this page tries again by itself in a moment."
BUSY = ("This device has %d requests under way, as many as one device may have; wait for their answers, then "
        "ask again." % REQUESTS_PER_ADDRESS)
UPLOADING = ("Another large upload (a backup being checked) is under way; send this one once it is done. One "
             "at a time: each is held whole while it is checked.")
BACKLOG_MAX = 1000     # events replayed to a tablet that reconnects; past that it resyncs
GATE = "newsdesk.stream_gate"   # the ASGI scope key the feed asks Flask's /stream view through
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
           (b"x-accel-buffering", b"no")]
NO_LOOP = ("The live feed runs only under the panel's own server (newsdesk serve), not this one; this "
           "page keeps itself up to date by asking every few seconds.")


# ---------------------------------------------------------------- Flask's part: who may watch, and from where

bp = Blueprint("stream", __name__)


def _message(kind):
    """One kind of message on the feed, as events.SAID describes it; a stored one has its id."""
    if kind in events.STORED:
        return obj(["id", "at", "type", "data"], id=dict(INT, description="The store's id: Last-Event-ID."),
                   at=dict(STR, description="When it was stored (ISO 8601)."), type={"const": kind}, data=OBJ,
                   description=events.SAID[kind])
    return obj(["type", "data"], type={"const": kind}, data=OBJ, description=events.SAID[kind])


schemas(bp, StreamMessage={"oneOf": [_message(kind) for kind in sorted(events.ALL)],
                           "description": "One message of the live feed: the JSON of an event's data line."})


def _since():
    raw = request.headers.get("Last-Event-ID") or request.args.get("since")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        abort(400, "Last-Event-ID / since must be an event id (a whole number), got %r." % raw[:40])
    return int(raw)


@route(bp, "/stream", read(
    "The live feed: every stored event after the page's last, then each change as it happens.", None, "400",
    ("503", "No live feed for this page now: the panel has as many open as it serves, or it is restarting "
            "(Retry-After says when to ask again), or it runs without its own server. The page keeps "
            "itself up to date by asking every few seconds."),
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
    """Checks a stream request for the feed (Panel._stream), which hands in a gate to fill: the
    id to follow from, and whether the host is asking. Without the gate the request came through
    a plain WSGI server, which would hold a thread for as long as the page stays open: refused."""
    since = _since()
    gate = (request.environ.get("asgi.scope") or {}).get(GATE)
    if gate is None:
        abort(503, NO_LOOP)
    gate["since"] = since
    gate["host"] = current_viewer().role == "host"
    return Response(status=204)


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


# ---------------------------------------------------------------- the feed on the event loop


class Limits:
    """Who may open one more stream: a total, a share per address, and a reserve for the host."""

    def __init__(self, total, per_address, host_reserve):
        self.total = total
        self.per_address = per_address
        self.host_reserve = min(host_reserve, total)
        self.open = 0
        self.by_address: collections.Counter[str] = collections.Counter()

    def admit(self, address, host):
        """None when admitted (call ``release``), else the sentence saying why not."""
        if self.by_address[address] >= self.per_address and not host:
            return ("This device already has %d live pages open (the most one device may have); close "
                    "one, or this page keeps itself up to date by asking every few seconds." % self.per_address)
        room = self.total if host else self.total - self.host_reserve
        if self.open >= room:
            return ("The newsdesk has %d live pages open, as many as it serves; this page keeps itself "
                    "up to date by asking every few seconds." % self.open)
        self.open += 1
        self.by_address[address] += 1
        return None

    def release(self, address):
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class Feed:
    """One open page's queue of (event id or None, SSE bytes): filled on the loop by the hub,
    emptied by the page's stream. The bytes are shared by every feed (encoded once per message)."""

    __slots__ = ("queue", "ready", "lagged", "ping", "sending_since", "last_write", "task", "dropped")

    def __init__(self, task, now):
        self.queue: collections.deque[tuple[int | None, bytes]] = collections.deque()
        self.ready = asyncio.Event()
        self.lagged = False
        self.ping = False            # the ticker asks for a keepalive line
        self.sending_since = None    # loop time the write in progress began
        self.last_write = now
        self.task = task
        self.dropped = False

    def offer(self, item):
        if len(self.queue) >= QUEUE_MAX:
            self.queue.clear()       # it will resync: what it missed is in the store
            self.lagged = True
        else:
            self.queue.append(item)
        self.ready.set()


class Hub:
    """The bus, brought onto the event loop: one bus subscriber for every open page.

    The bus publishes on whichever thread made the change; each message crosses to the loop
    once, is encoded once, and is handed to every feed there in the bus's order (which is the
    store's id order).

    Why in slices: handing a message to 500 pages wakes 500 writers, and a reply to the host
    (the answer to the very move being published) queued behind all of them waited for every
    page's write. Messages are handed out ``SLICE`` feeds at a time, one message after another
    in order, with the loop free between slices for anything else that is ready.
    """

    SLICE = 32

    def __init__(self, bus, loop):
        self._loop = loop
        self._bus = bus
        self.feeds: set[Feed] = set()
        # (item, the feeds still to be handed it; None: every feed open when its turn comes)
        self._pending: collections.deque[tuple[tuple[int | None, bytes], list[Feed] | None]] = collections.deque()
        self._inbox: collections.deque[dict[str, Any]] = collections.deque()   # published, not yet on the loop
        self._inbox_lock = threading.Lock()
        self._called = False        # a take_in is already on its way to the loop
        bus.attach(self)

    def _offer(self, message):     # the publisher's thread
        """Into the inbox, in the bus's order. A view's thread (web_ui/wsgi_lane.py) leaves it
        there: the lane takes it in once the view's answer has left (Panel._answered), so the
        tablet that made the move hears back before the pages do. Any other thread wakes the
        loop (once for however many messages arrive before it looks), and that takes in what a
        view left there too, so no page gets the messages out of order."""
        with self._inbox_lock:
            self._inbox.append(message)
            if self._called or in_a_view():
                return
            self._called = True
        try:
            self._loop.call_soon_threadsafe(self.take_in)
        except RuntimeError:       # the loop has closed: the server is stopping
            pass

    def take_in(self):
        """Hand every message in the inbox to the pages, in order (on the loop)."""
        with self._inbox_lock:
            messages = list(self._inbox)
            self._inbox.clear()
            self._called = False
        for message in messages:
            self._arrived(message)

    def _arrived(self, message):
        if not self.feeds:
            return
        self._pending.append(((message.get("id"), sse.frame(message).encode()), None))
        if len(self._pending) == 1:
            self._pump()

    def _pump(self):
        item, feeds = self._pending[0]
        if feeds is None:          # its turn has come: every page open now gets it
            feeds = list(self.feeds)
        for feed in feeds[:self.SLICE]:
            feed.offer(item)
        rest = feeds[self.SLICE:]
        if rest:
            self._pending[0] = (item, rest)
        else:
            self._pending.popleft()
        if self._pending:
            self._loop.call_soon(self._pump)

    def close(self):
        self._bus.detach(self)


def _malloc_trim():
    """Hand memory freed by pages that left back to the system (glibc only; elsewhere a no-op)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


async def _gate(wsgi, scope, receive):
    """Put the stream request to Flask's /stream view; (admitted info, or the response to relay)."""
    gate: dict[str, Any] = {}
    sent = []

    async def capture(message):
        sent.append(message)

    await wsgi(dict(scope, **{GATE: gate}), receive, capture)
    start = sent[0] if sent else {"status": 500, "headers": []}
    if start.get("status") == 204 and "since" in gate:
        return gate, None
    return None, sent


async def _refuse(send, sentence):
    body = json.dumps({"error": "Service Unavailable", "message": sentence}).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", str(RETRY_AFTER).encode()),
                            (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


class Refusal(Exception):
    """A request the panel answers itself and closes: a body it will not take, or any request
    while it stops; ``status`` and the sentence saying why."""

    def __init__(self, status, reason, sentence):
        super().__init__(sentence)
        self.status = status
        self.reason = reason
        self.sentence = sentence


def _declared_length(scope):
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:      # h11 refuses a malformed length before the app sees it
                return None
    return None


async def read_body(scope, receive, most, timeout, stopping=None):
    """The whole body of a request, read on the loop: at most ``most`` bytes, within ``timeout``
    seconds. Refusal past either, or when ``stopping`` (an asyncio.Event) is set first; a
    declared length over the limit is refused unread.

    Why here: a body read lazily by a Flask thread (as a general ASGI-to-WSGI bridge lets it) holds
    that thread for as long as the sender trickles, and a view that refuses a large body stops
    reading it, which left Hypercorn waiting to hand over the rest for ever (its queue to the app
    is full, and the connection is only released once that queue takes one more message)."""
    too_large = Refusal(413, b"Content Too Large",
                            "The request body is larger than the %d bytes the panel takes." % most)
    declared = _declared_length(scope)
    if declared is not None and declared > most:
        raise too_large
    body = bytearray()

    async def gather():
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message              # the client went away mid-body
            body.extend(message.get("body", b""))
            if len(body) > most:
                raise too_large
            if not message.get("more_body", False):
                return None

    reading = asyncio.ensure_future(gather())
    waits = {reading}
    if stopping is not None:
        waits.add(asyncio.ensure_future(stopping.wait()))
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waits:
            if not task.done():
                task.cancel()
    if reading.done() and not reading.cancelled():
        return bytes(body), reading.result()        # raises the Refusal it met, if it met one
    if stopping is not None and stopping.is_set():
        raise Refusal(503, b"Service Unavailable", STOPPING)
    raise Refusal(408, b"Request Timeout", "The request body took longer than %g seconds to arrive; "
                      "send it again." % timeout)


def _replayed(body, gone, receive):
    """A receive that hands over the body already read, then whatever the connection says next."""
    first = [gone if gone is not None else {"type": "http.request", "body": body, "more_body": False}]

    async def replay():
        if first:
            return first.pop()
        return await receive()
    return replay


async def _refuse_and_close(send, receive, refusal):
    """Answer ``refusal`` and close the connection, reading (and dropping) what the client still
    sends while the answer goes out, so Hypercorn can release the connection at once."""
    body = json.dumps({"error": refusal.reason.decode(), "message": refusal.sentence}).encode()
    later = [(b"retry-after", str(RESTART_RETRY).encode())] if refusal.status == 503 else []

    async def drain():
        while (await receive())["type"] != "http.disconnect":
            pass

    drainer = asyncio.ensure_future(drain())
    try:
        await send({"type": "http.response.start", "status": refusal.status,
                    "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                                (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]
                    + later})
        await send({"type": "http.response.body", "body": body})
    finally:
        drainer.cancel()


def _the_feed(path):
    """True if ``path`` is the live feed's: "/stream", or with its slash doubled ("//stream"), which
    Flask's routing merges into the same view. Only here is a stream held open; one passed to the
    view on a thread was refused as if the panel ran without its own server (a 503)."""
    return path.startswith("/") and path.lstrip("/") == "stream"


def origin_form(scope):
    """``scope`` with a request target in absolute form ("GET http://box.local/api/health") made
    the path it names, and its host the Host header, as RFC 9112 (3.2.2) has a server take it:
    Hypercorn hands the whole URL on as the path, which no route matches, so an API request sent
    that way got the HTML page for "not found" instead of its answer. The Host check then judges
    the host the URL names, whatever Host header came with it."""
    raw = scope.get("raw_path") or b""
    if not raw[:8].lower().startswith((b"http://", b"https://")):
        return scope
    authority, _, path = raw.split(b"://", 1)[1].partition(b"/")
    path = b"/" + path
    host = authority.rpartition(b"@")[2]
    headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() != b"host"] + [(b"host", host)]
    return dict(scope, raw_path=path, path=unquote(path.decode("ascii", "replace")), headers=headers)


class Panel:
    """The ASGI application ``newsdesk serve`` runs: /stream here, everything else through Flask."""

    def __init__(self, flask_app, threads, limits, body_timeout=BODY_TIMEOUT):
        self.flask = flask_app
        self.body_most = flask_app.config["MAX_CONTENT_LENGTH"]
        self.body_timeout = body_timeout
        self.desk = flask_app.extensions["newsdesk"]
        self.wsgi = WsgiLane(flask_app, workers=threads, answered=self._answered)
        self.host_wsgi = WsgiLane(flask_app, workers=HOST_THREADS, answered=self._answered)
        self.limits = limits
        self.hub: Hub | None = None
        self._ticker = None
        self._stopping = None
        self.streams = set()      # tasks, so a stopping server can end them at once
        self.under_way: collections.Counter[str] = collections.Counter()   # a guest address's requests now
        self.uploading = False    # a body past body_most (the host's backup upload) being read or answered
        self._up_timer = None     # until the first answer, or PARTS_WAIT after the start

    def _answered(self):
        """A view's answer has left: what it published goes to the pages now (Hub.take_in)."""
        if self.hub is not None:
            self.hub.take_in()

    def _answering(self):
        """The panel has answered (or PARTS_WAIT has passed): the desk's parts that wait for
        that (the window display, controller/app.py) may start."""
        if self._up_timer is not None:
            self._up_timer.cancel()
            self._up_timer = None
            self.desk.panel_up()

    def start(self, loop):
        self._up_timer = loop.call_later(PARTS_WAIT, self._answering)
        self.hub = hub = Hub(self.desk.bus, loop)
        self._stopping = asyncio.Event()
        self._ticker = loop.create_task(self._tick(hub))

    def begin_stop(self):
        """The server is stopping (on the loop): open pages end at once, and a body still arriving
        is answered 503 and its connection closed, rather than cancelled mid-read when the
        server's grace runs out (which asyncio logs as an error with a traceback)."""
        if self._stopping is not None:
            self._stopping.set()
        for task in list(self.streams):
            task.cancel()       # open pages reconnect to whoever serves next

    def stop(self):
        if self._stopping is not None:
            self._stopping.set()        # its threads are going: a late request is answered here
        for task in list(self.streams):
            task.cancel()
        if self._ticker is not None:
            self._ticker.cancel()
        if self.hub is not None:
            self.hub.close()
        for lane in (self.wsgi, self.host_wsgi):
            lane.shutdown()

    def lane(self, scope):
        """The host's own threads for the host's requests, the shared ones for everyone else."""
        cookie = b"; ".join(v for k, v in scope.get("headers", ()) if k == b"cookie")
        client = scope.get("client")
        host = is_host_request(self.flask, client[0] if client else None, cookie.decode("latin-1"))
        return self.host_wsgi if host else self.wsgi

    async def _tick(self, hub: Hub) -> None:
        """Once a second (or sooner): keepalives for quiet pages, and pages that stopped reading
        (a write pending for SEND_TIMEOUT seconds) dropped. One timer for all pages, so an open
        page costs no timer of its own."""
        loop = asyncio.get_running_loop()
        keepalive = self.flask.config["STREAM_KEEPALIVE"]
        peak = 0
        while True:
            await asyncio.sleep(min(1.0, keepalive / 2, SEND_TIMEOUT / 2))
            now = loop.time()
            for feed in list(hub.feeds):
                if feed.sending_since is not None:
                    if now - feed.sending_since > SEND_TIMEOUT and not feed.dropped:
                        feed.dropped = True
                        feed.task.cancel()
                elif now - feed.last_write >= keepalive:
                    feed.ping = True
                    feed.ready.set()
            peak = max(peak, len(hub.feeds))
            if peak - len(hub.feeds) >= 50:     # many pages left: give their memory back
                gc.collect()
                _malloc_trim()
                peak = len(hub.feeds)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)

        raw_send = send

        async def send_named(message):     # `newsdesk doctor` knows its panel by this header
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", ())) + [(b"server", b"newsdesk")])
            await raw_send(message)

        if scope["type"] != "http":
            return await self.wsgi(scope, receive, send_named)
        scope = origin_form(scope)
        if self._stopping is not None and self._stopping.is_set():
            # a tablet reconnecting during a restart: its threads may be gone already
            return await _refuse_and_close(send_named, receive, Refusal(503, b"Service Unavailable", STOPPING))
        lane = self.lane(scope)
        guest = None
        if lane is self.wsgi and not _the_feed(scope["path"]):     # (a page's live feed has limits of its own)
            guest = (scope.get("client") or ("?", 0))[0]
            if self.under_way[guest] >= REQUESTS_PER_ADDRESS:
                return await _refuse_and_close(send_named, receive, Refusal(503, b"Service Unavailable", BUSY))
            self.under_way[guest] += 1
        try:
            return await self._answer(lane, scope, receive, send_named)
        finally:
            if guest is not None:
                self.under_way[guest] -= 1
                if self.under_way[guest] <= 0:
                    del self.under_way[guest]

    async def _answer(self, lane, scope, receive, send_named):
        most, timeout = self.body_most, self.body_timeout
        if lane is self.host_wsgi:      # a route of the host's with a larger body of its own (an upload)
            most, timeout = self.flask.config.get("HOST_BODIES", {}).get(scope["path"], (most, timeout))
        large = most > self.body_most
        if large:
            # one at a time, refused unread: each is held whole, read and then checked, and eight
            # backups of 31 MB sent at once took a Pi Zero's panel from 100 MB to 575
            if self.uploading:
                return await _refuse_and_close(send_named, receive, Refusal(503, b"Service Unavailable", UPLOADING))
            self.uploading = True
        try:
            return await self._answered_with(lane, scope, receive, send_named, most, timeout)
        finally:
            if large:
                self.uploading = False

    async def _answered_with(self, lane, scope, receive, send_named, most, timeout):
        try:
            body, gone = await read_body(scope, receive, most, timeout, self._stopping)
        except Refusal as refusal:
            return await _refuse_and_close(send_named, receive, refusal)
        receive = _replayed(body, gone, receive)
        if _the_feed(scope["path"]) and scope["method"] in ("GET", "HEAD") and self.hub:
            return await self._stream(self.hub, lane, scope, receive, send_named)
        try:
            return await lane(scope, receive, send_named)
        finally:
            if self._up_timer is not None:
                self._answering()

    async def _lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self.hub is None:
                    self.start(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _stream(self, hub: Hub, lane, scope, receive, send):
        gate, answer = await _gate(lane, scope, receive)
        if gate is None:
            for message in answer:
                await send(message)
            return
        if scope["method"] == "HEAD":        # the headers a stream would have; nothing opened
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return
        address = (scope.get("client") or ("?", 0))[0]
        refused = self.limits.admit(address, gate["host"])
        if refused is not None:
            return await _refuse(send, refused)
        task = asyncio.current_task()
        self.streams.add(task)
        feed = Feed(task, asyncio.get_running_loop().time())
        hub.feeds.add(feed)   # before reading the backlog, so nothing falls between the two
        gone = asyncio.Event()
        watcher = asyncio.ensure_future(_watch_disconnect(receive, gone, feed))
        try:
            await self._follow(send, feed, gate["since"], gone)
        except (asyncio.CancelledError, OSError):
            if feed.dropped:
                log.info("dropped a live page at %s: it stopped reading", address)
        finally:
            watcher.cancel()
            hub.feeds.discard(feed)
            self.limits.release(address)
            self.streams.discard(task)

    async def _follow(self, send, feed, since, gone):
        loop = asyncio.get_running_loop()

        async def write(body):
            feed.sending_since = loop.time()
            await send({"type": "http.response.body", "body": body, "more_body": True})
            feed.sending_since = None
            feed.last_write = loop.time()

        backlog, resync = await loop.run_in_executor(None, catch_up, self.desk, since)
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        last = since or 0
        chunk = []
        if resync is not None:
            chunk.append(sse.frame(resync))
        for ev in backlog:
            last = ev.id
            chunk.append(sse.frame(ev.as_dict()))
        await write(sse.RETRY + "".join(chunk).encode())
        while not gone.is_set():
            if not (feed.queue or feed.lagged or feed.ping):
                feed.ready.clear()
                await feed.ready.wait()
                continue
            out = []
            if feed.lagged:
                feed.lagged = False
                out.append(sse.frame(resync_message("This page fell behind the live feed.", None)).encode())
            while feed.queue:
                event_id, data = feed.queue.popleft()
                if event_id is not None:
                    if event_id <= last:
                        continue
                    last = event_id
                out.append(data)
            if feed.ping and not out:
                out.append(sse.KEEPALIVE)
            feed.ping = False
            if out:
                await write(b"".join(out))


async def _watch_disconnect(receive, gone, feed):
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            gone.set()
            feed.ready.set()
            return
