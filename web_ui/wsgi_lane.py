"""Flask's views under the panel's ASGI server: a pool of worker threads, small answers handed back whole.

Why not a general ASGI-to-WSGI bridge (a2wsgi, which the panel used before): it lets a view read
its body and write its answer piece by piece, so it crosses between the view's thread and the
event loop for each piece and waits for the loop each time (the body, the status, each chunk and
the end: four round trips for one move, each a wake-up of the loop and of the thread). Under a Pi
Zero 2 W's CPU budget a wake-up can land where the budget has run out and wait for the next
slice (the likely reason, not measured apart). Under that budget a move's median fell from 61-80
ms to 51-70 ms (three sittings) and its CPU by about a tenth (two); unthrottled, its CPU did not change
measurably (docs/benchmarks.md, "A Pi Zero 2 W's budget").

Here a request crosses once each way. The panel reads every body on the loop before a thread is
given to it (web_ui/live.py, ``read_body``), so the view gets it from memory; a view runs on its
thread and, when its answer declares a length of at most ``BUFFER_MAX`` (Flask declares one for
every answer it makes at once), the whole answer comes back with the thread's result and the loop
sends it. An answer that declares no length or a longer one (a backup being downloaded, a feed a
view keeps open) is not held whole: the loop sends its status, then takes it a chunk at a time
from the worker pool, sending each before asking for the next, so a chunk goes out as soon as it
is made and a slow reader holds one chunk, not the file. Every call into the app for one request
(the view, each chunk, the close) runs in one ``contextvars`` context, so a streamed answer sees
the request it was made for whichever worker takes its next chunk.

What a view publishes while it makes its answer (a move's message to the open pages) waits for
that answer: ``in_a_view()`` tells the panel's hub so, and ``answered`` (given by the panel) is
called on the loop as soon as the answer has left. On a Pi Zero 2 W's CPU budget the loop woken
by the message in the middle of the view would encode and write it to every page while the view
waited for the interpreter, so the tablet that tapped heard back last (docs/benchmarks.md).
"""

import asyncio
import contextvars
import io
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

BUFFER_MAX = 256 * 1024      # bytes: a declared length up to this is answered whole, else a chunk at a time
END = object()              # what next_chunk gives once an answer has ended

_here = threading.local()


def in_a_view() -> bool:
    """True on a lane's worker thread while it runs a view (up to its answer's first chunk)."""
    return getattr(_here, "view", False)


def environ_for(scope, body):
    """The WSGI environ of an ASGI HTTP ``scope`` whose whole body (bytes) was already read."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if path_info.startswith(script_name):
        path_info = path_info[len(script_name):]
    server, port = scope.get("server") or ("localhost", 80)
    environ = {
        "asgi.scope": scope,
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope["query_string"].decode("ascii"),
        "SERVER_PROTOCOL": "HTTP/%s" % scope["http_version"],
        "SERVER_NAME": server,
        "SERVER_PORT": str(port or 0),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,      # the whole body, declared length or chunked: read it to its end
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client is not None:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for name, value in scope.get("headers", ()):
        name = name.decode("latin1")
        key = ("CONTENT_LENGTH" if name == "content-length" else "CONTENT_TYPE" if name == "content-type"
               else "HTTP_" + name.upper().replace("-", "_"))
        value = value.decode("latin1")
        environ[key] = environ[key] + "," + value if key in environ else value
    return environ


def _call_soon(loop, callback):
    """``callback`` on ``loop`` from another thread; nothing once the loop has closed."""
    try:
        loop.call_soon_threadsafe(callback)
    except RuntimeError:
        pass


class _Answer:
    """One request's answer as its view makes it (each method runs on a worker thread)."""

    def __init__(self, app, environ):
        self.app, self.environ = app, environ
        self.start = None           # the http.response.start message, once the view has called start_response
        self.chunks = []
        self.iterable = None
        self._iterator: Iterator[bytes] = iter(())      # the view's answer, once it has been called

    def start_response(self, status, headers, exc_info=None):
        if exc_info is not None and self.start is not None:
            raise exc_info[1].with_traceback(exc_info[2])     # too late to change a status already made
        self.start = {"type": "http.response.start", "status": int(status.split(" ", 1)[0]),
                      "headers": [(k.strip().encode("latin1").lower(), v.strip().encode("latin1")) for k, v in headers]}
        return self.chunks.append           # WSGI's legacy write(): kept before the rest

    def run(self):
        """Call the view; True when its whole answer is now held in ``chunks`` (a length declared
        and at most BUFFER_MAX), False when it is to be taken a chunk at a time."""
        _here.view = True
        try:
            self.iterable = self.app(self.environ, self.start_response)
            self._iterator = iter(self.iterable)
            if self.start is None:
                self.next_chunk()           # a view may call start_response with its first chunk
        finally:
            _here.view = False
        if self.start is None:
            raise RuntimeError("the WSGI app gave no status (start_response was never called)")
        length = next((v for k, v in self.start["headers"] if k == b"content-length"), None)
        if length is None or not length.isdigit() or int(length) > BUFFER_MAX:
            return False
        for chunk in self._iterator:
            self.chunks.append(chunk)
        self.close()
        return True

    def next_chunk(self):
        """The answer's next chunk, or ``END`` once it has ended (and been closed)."""
        for chunk in self._iterator:
            if chunk:
                return chunk
        self.close()
        return END

    def close(self):
        close = getattr(self.iterable, "close", None)
        self.iterable = None
        if close is not None:
            close()


class WsgiLane:
    """An ASGI application running the WSGI ``app`` on ``workers`` threads (HTTP only: the panel
    answers its lifespan itself and has no websockets). ``answered``: called on the loop once a
    view has run and its answer has left (its status and, when held whole, its body), or failed."""

    def __init__(self, app, workers, answered=None):
        self.app = app
        self.executor = ThreadPoolExecutor(thread_name_prefix="WSGI", max_workers=workers)
        self.answered = answered

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":         # a websocket: refused, as the panel has none
            await send({"type": "websocket.close", "code": 1000})
            return
        body = bytearray()
        while True:     # the panel hands the body over whole, read on the loop (web_ui/live.py)
            message = await receive()
            if message["type"] != "http.request":
                return          # the client left before its request was whole: nobody to answer
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        answer = _Answer(self.app, environ_for(scope, bytes(body)))

        def in_context(call):
            return loop.run_in_executor(self.executor, context.run, call)
        try:
            try:
                whole = await self._view(loop, context, answer)
                await send(answer.start)
                if whole:
                    await send({"type": "http.response.body", "body": b"".join(answer.chunks)})
                    return
            finally:
                if self.answered is not None:
                    self.answered()
            for chunk in answer.chunks:     # what a legacy write() gave before the iterable
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            while (chunk := await in_context(answer.next_chunk)) is not END:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            if answer.iterable is not None:       # the client left mid-answer, or a send failed
                await in_context(answer.close)

    async def _view(self, loop, context, answer):
        """``answer.run()`` on a worker. When the request is cancelled while its view still runs
        (the server stopping, a client gone), the view goes on on its thread: ``answered`` is then
        called again once it ends, so what it publishes after this moment reaches the pages too."""
        ran = self.executor.submit(context.run, answer.run)
        try:
            return await asyncio.wrap_future(ran, loop=loop)
        except asyncio.CancelledError:
            if self.answered is not None and not ran.done():
                ran.add_done_callback(lambda _: _call_soon(loop, self.answered))
            raise

    def shutdown(self):
        self.executor.shutdown(wait=False, cancel_futures=True)
