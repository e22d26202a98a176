"""The league page: a read-only screen following many tables over MQTT (``newsdesk league``).

A small Flask app of its own, apart from the table's panel: it has no table, no store and
takes no actions. ``/`` is the page, ``/api/league`` the picture as JSON, ``/api/league/stream``
the same pushed as Server-Sent Events at every change. Local assets only.

``newsdesk league`` serves it with ``serve_league``: Hypercorn on one event loop, the stream a
coroutine there (``LeagueApp``) and the rest Flask on a few threads, as the panel is served. A
stream served through WSGI held a thread per page, never heard that a page had gone (so every
change wrote to a dead socket: asyncio's "socket.send() raised exception" in the log) and kept
the server from stopping until each thread's wait ran out. On the loop a stream ends when its
page goes or the server stops, and sends at most one picture per ``MIN_GAP`` (a busy evening's
changes are drawn together; each picture is encoded once for every page).
"""

import asyncio
import json
import logging

from flask import Flask, Response, jsonify, render_template

from .safejson import SafeJSONProvider

log = logging.getLogger(__name__)

KEEPALIVE = 15.0        # seconds between comments on an idle stream (proxies drop silent ones)
MIN_GAP = 0.1           # seconds between two pictures sent to a page: changes in between are drawn together
WSGI_THREADS = 4        # Flask's threads: the page and /api/league only, each answered at once
STREAM = "/api/league/stream"


def _encode(snap):
    return ("data: %s\n\n" % json.dumps(snap, ensure_ascii=False, separators=(",", ":"))).encode()


def create_league_app(follower, keepalive=KEEPALIVE):
    app = Flask(__name__)
    app.json = SafeJSONProvider(app)    # as the panel's: keys unsorted, /api/league in the stream's order
    app.extensions["newsdesk.league"] = follower

    @app.get("/")
    def page():
        return render_template("league.html", boot=follower.snapshot())

    @app.get("/api/league")
    def picture():
        return jsonify(follower.snapshot())

    @app.get(STREAM)
    def stream():
        """The stream for a WSGI server (tests; ``newsdesk league`` serves LeagueApp's instead)."""
        def events():
            seen = -1
            yield "retry: 2000\n\n"
            while True:
                version = follower.changed(seen, keepalive)
                if version == seen:
                    yield ": keepalive\n\n"
                    continue
                snap = follower.snapshot()
                seen = snap["version"]
                yield _encode(snap).decode()

        return Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app


class LeagueApp:
    """ASGI: ``/api/league/stream`` on the event loop, everything else into Flask."""

    def __init__(self, flask_app, keepalive=KEEPALIVE, min_gap=MIN_GAP, threads=WSGI_THREADS):
        from .wsgi_lane import WsgiLane

        self.follower = flask_app.extensions["newsdesk.league"]
        self.wsgi = WsgiLane(flask_app, workers=threads)
        self.keepalive = keepalive
        self.min_gap = min_gap
        self.stopping: asyncio.Event | None = None   # made on the loop by start()
        self._cache = (None, b"")     # (version, encoded picture): encoded once for every page

    def start(self, loop=None) -> asyncio.Event:
        """Before the first connection (web_ui/server.py's run_on_loop; ``loop`` is not needed);
        returns the event that ends every open stream."""
        self.stopping = asyncio.Event()
        return self.stopping

    def begin_stop(self):
        """End every open stream (called on the loop as the server begins to stop)."""
        if self.stopping is not None:
            self.stopping.set()

    def stop(self):
        """The server has stopped: Flask's threads go too, as the panel's do."""
        self.begin_stop()
        self.wsgi.shutdown()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"] == STREAM and scope["method"] == "GET":
            await self._stream(receive, send)
        elif scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        else:
            await self.wsgi(scope, receive, send)

    def _picture(self):
        snap = self.follower.snapshot()
        if self._cache[0] != snap["version"]:
            self._cache = (snap["version"], _encode(snap))
        return self._cache[1]

    async def _stream(self, receive, send):
        stopping = self.stopping or self.start()
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        forget = self.follower.watch(lambda: loop.call_soon_threadsafe(changed.set))

        async def gone():
            while (await receive())["type"] != "http.disconnect":
                pass

        left = asyncio.ensure_future(gone())
        ended = asyncio.ensure_future(stopping.wait())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no")]})
            await send({"type": "http.response.body", "body": b"retry: 2000\n\n", "more_body": True})
            while True:
                changed.clear()
                await send({"type": "http.response.body", "body": self._picture(), "more_body": True})
                while not changed.is_set():
                    woke = asyncio.ensure_future(changed.wait())
                    done, _ = await asyncio.wait({woke, left, ended}, timeout=self.keepalive,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    woke.cancel()
                    if left in done or ended in done:
                        return
                    if not done:
                        await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                done, _ = await asyncio.wait({left, ended}, timeout=self.min_gap)
                if done:
                    return
        except OSError:
            return                    # the page went as we wrote to it
        finally:
            forget()
            page_left = left.done()
            left.cancel()
            ended.cancel()
            if not page_left:         # the server stops: end the response, so the page reconnects later
                try:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                except OSError:
                    log.debug("league stream: the page went as the server stopped")


def serve_league(flask_app, sock, header_timeout=10):
    """Serve until SIGTERM or SIGINT, on the panel's run loop (web_ui/server.py); every stream
    ends at once, so the server is gone within its grace period whatever the pages do."""
    from .server import hypercorn_config, serve_until_signalled

    app = LeagueApp(flask_app)
    hc = hypercorn_config(sock, {"header_timeout": header_timeout})
    hc.graceful_timeout = 1.0         # streams end at once; a page or API answer takes milliseconds
    serve_until_signalled(app, hc, "the league page")
