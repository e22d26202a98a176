"""Runs the panel for ``newsdesk serve``: Hypercorn on one asyncio event loop (web_ui/live.py);
``run_on_loop`` is the one run loop, the league page's (``newsdesk league``) too.

Why Hypercorn (docs/architecture.md has the measurements): it is pure Python (on a Pi Zero 2 W
nothing is compiled), and it times out a connection from the moment it opens until its request's
headers are in (``keep_alive_timeout``), so a socket that sends nothing, or trickles a header
every few seconds, is closed after ``header_timeout`` seconds and never piles up.

Lifecycle: SIGTERM and SIGINT end the open streams, let requests in flight finish (a few seconds
at most) and return, so the caller closes the store (which checkpoints it). The port is bound
here before anything else is opened, so a busy port is one sentence, not a traceback.
"""

import asyncio
import errno
import json
import logging
import signal
import socket
import sys
import threading

from controller.errors import NewsdeskError

from .live import Limits, Panel

log = logging.getLogger(__name__)

MAX_HEADERS = 16 * 1024     # bytes of request line and headers; a tablet sends well under 2 KB
GRACE = 3.0                 # seconds requests in flight get to finish when the server stops
BACKLOG = 1024
# How long a thread may hold the interpreter before another gets it (Python's default: 5 ms). A
# move is handed between the event loop and a Flask thread several times; while the loop is busy
# writing to many pages, each hand-over waited up to the full 5 ms.
SWITCH_INTERVAL = 0.001


class PortBusy(NewsdeskError, OSError):
    """The panel's port is taken by another program."""


def bind(host, port):
    """A listening socket on ``host:port``; PortBusy (one sentence naming the setting) if taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise PortBusy("port %d on %s is already in use by another program; stop it, or give the panel "
                           "another port: --port, NEWSDESK_PORT or port = ... in config.toml" % (port, host)) from None
        if e.errno == errno.EACCES:
            raise PortBusy("port %d on %s needs privileges this user lacks; pick a port above 1023: --port, "
                           "NEWSDESK_PORT or port = ... in config.toml" % (port, host)) from None
        raise PortBusy("can't listen on %s port %d: %s; check the host and port settings"
                       % (host, port, e.strerror or e)) from None
    return sock


def raise_open_files_limit():
    """Every open page and idle socket is a file descriptor: use what the system allows."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = hard if hard != resource.RLIM_INFINITY else 65536
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, ValueError, OSError):
        return None


def close_at_the_clients_close():
    """Hypercorn (0.18) keeps a connection its client has closed open until its idle timer ends
    (``header_timeout``, 10 s): the reading stops at the end of the stream, but the connection's
    task group waits for the timer. A guest opening and closing connections in a loop thus held
    every one of them for 10 s, about 12 KB each: 4,400 in 3 s from one client on loopback, 53 MB
    more for the server. Nothing more can come from a client after its end of the stream, so the
    timer is stopped there; the connection closes as soon as what it asked is answered."""
    from hypercorn.asyncio.tcp_server import TCPServer

    read = TCPServer._read_data
    if getattr(read, "stops_idling", False):
        return

    async def read_then_stop_idling(self):
        await read(self)
        await self.idle_task.stop()

    # a patch of Hypercorn's method on purpose (why: above), marked so a second call leaves it be;
    # mypy types neither a function's own attribute nor a method replaced on its class
    read_then_stop_idling.stops_idling = True  # type: ignore[attr-defined]
    TCPServer._read_data = read_then_stop_idling  # type: ignore[method-assign]


# What a request h11 can't read is answered (by the status h11 hints), before the panel sees it.
# A transfer coding it doesn't take (h11's 501) is the sender's mistake like any other malformed
# request, and the panel's vocabulary keeps 5xx for the box's own trouble (RFC 9112 has 501 as a
# SHOULD): a 400 too.
UNREADABLE = {
    400: (400, "Bad Request", "The request is not HTTP/1.1 the panel can read (its request line or a header is "
                              "malformed, or the Host header is missing); send it as a browser would."),
    431: (431, "Request Header Fields Too Large", "The request's line and headers are larger than the %d bytes "
                                                  "the panel takes; send them shorter." % MAX_HEADERS),
    501: (400, "Bad Request", "The request's Transfer-Encoding is not one the panel takes; send the body with a "
                              "Content-Length, or chunked."),
}


def refuse_unreadable_in_words():
    """Hypercorn (0.18) answers a request h11 can't read (a malformed header, no Host, headers past
    MAX_HEADERS, an unknown Transfer-Encoding) with a status and an empty body, and a 501 for the
    last: the one answer from the panel with no sentence, and a 5xx for the sender's mistake.
    Each is answered here as every other refusal is, {error, message} as JSON (UNREADABLE), and
    the connection closed as before."""
    import h11
    from hypercorn.protocol.h11 import H11Protocol

    if getattr(H11Protocol._send_error_response, "in_words", False):
        return

    async def send_error_in_words(self, status_code):
        status, name, sentence = UNREADABLE.get(status_code, UNREADABLE[400])
        body = json.dumps({"error": name, "message": sentence}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
                   (b"connection", b"close"), (b"cache-control", b"no-store")]
        await self._send_h11_event(h11.Response(status_code=status,
                                                headers=headers + self.config.response_headers("h11")))
        await self._send_h11_event(h11.Data(data=body))
        await self._send_h11_event(h11.EndOfMessage())

    # a patch of Hypercorn's method on purpose (why: above), marked so a second call leaves it be
    send_error_in_words.in_words = True  # type: ignore[attr-defined]
    H11Protocol._send_error_response = send_error_in_words  # type: ignore[method-assign]


def hypercorn_config(sock, settings):
    from hypercorn.config import Config

    close_at_the_clients_close()
    refuse_unreadable_in_words()
    hc = Config()
    hc.bind = ["fd://%d" % sock.detach()]
    hc.keep_alive_timeout = settings["header_timeout"]   # also the time to send a request's headers
    hc.h11_max_incomplete_size = MAX_HEADERS
    hc.graceful_timeout = GRACE
    hc.backlog = BACKLOG
    hc.include_server_header = False
    hc.accesslog = None
    hc.errorlog = log
    return hc


def panel_for(flask_app, settings):
    return Panel(flask_app, settings["threads"],
                 Limits(settings["streams_max"], settings["streams_per_address"], settings["streams_host_reserve"]),
                 body_timeout=settings["header_timeout"])


def quiet_when_cancelled(loop, context):
    """The loop's exception handler: a connection's task cancelled as the server stops is not an
    error. (Python 3.11's streams report a cancelled connection task as "Exception in callback
    ... CancelledError" with a traceback; everything else goes to the default handler.)"""
    if isinstance(context.get("exception"), asyncio.CancelledError):
        log.debug("cancelled as the server stopped: %s", context.get("message"))
        return
    loop.default_exception_handler(context)


async def run_on_loop(app, hc, shutdown_trigger, started=None):
    """Serve the ASGI ``app`` with Hypercorn on the running loop until ``shutdown_trigger`` returns:
    the one run loop of the panel (``serve``, ``InThread``) and the league page
    (web_ui/league.py). ``app`` keeps what lives on the loop: ``start(loop)`` before the first
    connection, ``begin_stop()`` as the server begins to stop (open streams end at once; the
    caller calls it with the trigger) and ``stop()`` once it has stopped. ``started`` (a
    threading.Event) is set once the app has started, for a caller on another thread."""
    from hypercorn.asyncio import serve as hypercorn_serve

    loop = asyncio.get_running_loop()
    loop.set_exception_handler(quiet_when_cancelled)
    app.start(loop)
    if started is not None:
        started.set()
    try:
        await hypercorn_serve(app, hc, shutdown_trigger=shutdown_trigger)
    finally:
        app.stop()


def serve_until_signalled(app, hc, what):
    """``run_on_loop`` on a loop of its own until SIGTERM or SIGINT (logged as ``what`` stopping);
    returns once the server has stopped."""
    async def run():
        stop = asyncio.Event()

        def on_signal(signum):
            log.info("%s: %s is stopping", signal.Signals(signum).name, what)
            app.begin_stop()
            stop.set()

        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, on_signal, signum)
        await run_on_loop(app, hc, stop.wait)

    asyncio.run(run())


def serve(flask_app, settings, sock):
    """Serve until SIGTERM or SIGINT; returns once the server has stopped."""
    panel = panel_for(flask_app, settings)
    hc = hypercorn_config(sock, settings)
    sys.setswitchinterval(SWITCH_INTERVAL)
    serve_until_signalled(panel, hc, "the panel")


class InThread:
    """The panel served as ``serve`` serves it (Hypercorn on an event loop, web_ui/live.py), but
    on a thread of this process, so the tests and the benchmarks can reach its Newsdesk. ``port``
    is where it listens (0: a free one). ``close`` ends the open streams, stops the server and
    waits for its thread, so nothing is left writing to a closed socket."""

    def __init__(self, flask_app, host="127.0.0.1", port=0):
        sock = bind(host, port)
        self.port = sock.getsockname()[1]
        self._listening = sock.fileno()     # Hypercorn listens on this same descriptor
        settings = flask_app.extensions["newsdesk"].config
        self.panel = panel_for(flask_app, settings)
        self._hc = hypercorn_config(sock, settings)
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None   # made on the loop, before the server starts
        started = threading.Event()

        async def run():
            self._stop = asyncio.Event()
            await run_on_loop(self.panel, self._hc, self._stop.wait, started)

        self._thread = threading.Thread(target=lambda: self._loop.run_until_complete(run()),
                                        name="panel-server", daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the panel's server did not start within 10 s")

    def close(self):
        asyncio.run_coroutine_threadsafe(self._stop_taking_then_stop(), self._loop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()

    async def _stop_taking_then_stop(self, rounds=10):
        """Take no new connection, let those already accepted start, then stop the server.

        Stopped at once, a connection accepted in the loop's last rounds is lost to everyone:
        Hypercorn has closed asyncio's Server by the time its transport is made, Python 3.11's
        ``Server._attach`` asserts, ``_accept_connection2`` swallows that, and the accepted socket
        is left open for the garbage collector (a ResourceWarning in whatever runs next, and a
        client left hanging). Each round here is one turn of the loop; a connection needs about
        three to get from its accept to its task."""
        self._loop.remove_reader(self._listening)
        for _ in range(rounds):
            await asyncio.sleep(0)
        self.panel.begin_stop()
        if self._stop is not None:
            self._stop.set()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
