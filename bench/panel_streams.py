"""Panel benchmark: a room full of live pages, idle and trickling sockets, and the host's moves,
against the old server (waitress, a worker thread per open stream) and the new one (Hypercorn,
streams on the event loop), side by side in one run. Prints figures; asserts nothing.

    python bench/panel_streams.py [--pages 500] [--seconds 60] [--rate 20] [--idle 1000] [--trickle 200]
                                  [--servers old,new]

Each server runs in its own process on a fresh data folder (simulated pins), on loopback only.
1. Pages: ``--pages`` live pages (/stream), each from its own loopback source address
   (127.0.0.2 upward), while the host (127.0.0.1) makes ``--rate`` moves a second for
   ``--seconds`` (a move, then undo and redo in turn, in a game of SCAN). Counted: events lost,
   out of order or duplicated on any page; the delay from the move's acknowledgement to its
   arrival on each page; the host's move times; the server's resident memory at the start, with
   the pages open, and after they left.
2. Sockets: ``--idle`` connections that send nothing and ``--trickle`` that send a header line
   every 2 s, while the host loads its page twice a second: the slowest answer, and how many
   sockets the server had closed by the end.

The load side is one thread with non-blocking sockets (selectors), so it can hold thousands.
tests/test_server.py runs the same checks at a small size (150 pages, 300 idle sockets) against
the new server; on the old one they fail (24 pages served, then nothing answers).
"""

import argparse
import http.client
import json
import os
import re
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SERVER_ENV = {"NEWSDESK_PIN_FACTORY": "mock", "NEWSDESK_AUDIO": "off", "NEWSDESK_SPEECH": "off",
              "NEWSDESK_DISPLAY": "dummy", "NEWSDESK_VOLATILE_DATA": "allow"}
PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
HAND = {"type": "hand", "taken": {"Ann & Cat": {"spades": 7, "hearts": 6, "diamonds": 6, "clubs": 7},
                                  "Bob & Dan": {"spades": 6, "hearts": 7, "diamonds": 7, "clubs": 6}}}
ID = re.compile(rb"(?:^|\n)id: (\d+)\n")


# ---------------------------------------------------------------- the servers

class Server:
    """A panel in a child process: "new" is `newsdesk serve`, "old" is waitress as it used to be."""

    def __init__(self, kind, env=None, data=None):
        self.kind = kind
        self._tmp = None
        if data is None:
            self._tmp = tempfile.mkdtemp(prefix="newsdesk-bench-")
            data = Path(self._tmp) / "data"
        self.data = Path(data)
        child_env = dict(os.environ, **SERVER_ENV, **(env or {}))
        child_env["PYTHONPATH"] = str(REPO)
        if kind == "new":
            cmd = [sys.executable, "-m", "newsdesk", "--data", str(self.data), "serve", "--port", "0"]
        elif kind == "uvicorn":
            cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-uvicorn", str(self.data)]
        else:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-old", str(self.data)]
        # the log goes to a file: a pipe nobody reads would fill up and stall the server's logging
        self._log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, cwd=REPO, env=child_env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self._log)
        self.port = self._wait_for_port()

    def _wait_for_port(self, timeout=30):
        end = time.monotonic() + timeout
        lock = self.data / "serve.lock"
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("the %s server ended: %s" % (self.kind, self.log()[-2000:]))
            try:
                url = json.loads(lock.read_text()).get("url")
            except (OSError, ValueError):
                url = None
            if url:
                port = int(url.rstrip("/").rsplit(":", 1)[1])
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    return port
                except OSError:
                    pass
            time.sleep(0.05)
        raise RuntimeError("the %s server did not start in %d s" % (self.kind, timeout))

    def log(self):
        """What the server has written to its log so far."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def cpu_seconds(self):
        """User + system CPU time the server process has used."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)


def serve_old(data):
    """The thread-per-stream server as `newsdesk serve` ran it before: waitress, 24 threads."""
    sys.path.insert(0, str(REPO))
    from waitress import create_server

    from controller.app import Newsdesk
    from controller.config import load_config
    from controller.runlock import RunLock
    from web_ui import create_app

    config = load_config(data)
    with RunLock(config.data_dir) as lock:
        desk = Newsdesk(config)
        try:
            srv = create_server(thread_per_stream(create_app(newsdesk=desk)), host="127.0.0.1", port=0, threads=24,
                                ident="newsdesk", channel_timeout=120)
            lock.note(url="http://127.0.0.1:%s/" % srv.effective_port)
            import signal
            signal.signal(signal.SIGTERM, lambda *a: srv.close() or sys.exit(0))
            srv.run()
        finally:
            desk.close()


def thread_per_stream(flask_app):
    """The panel with /stream as the old server served it: a generator that holds one of
    waitress's threads for as long as its page stays open. The panel's own feed runs only on the
    event loop (web_ui/live.py); this is its catch-up and wire format the old way, kept here as
    the baseline the benchmark compares against."""
    from urllib.parse import parse_qs

    from web_ui import sse
    from web_ui.live import catch_up

    desk = flask_app.extensions["newsdesk"]
    keepalive = flask_app.config["STREAM_KEEPALIVE"]

    def app(environ, start_response):
        if environ["PATH_INFO"] != "/stream":
            return flask_app(environ, start_response)
        raw = environ.get("HTTP_LAST_EVENT_ID") or parse_qs(environ["QUERY_STRING"]).get("since", [""])[0]
        since = int(raw) if raw else None
        sub = desk.bus.subscribe()      # before reading the backlog, so nothing falls between the two
        backlog, resync = catch_up(desk, since)
        start_response("200 OK", [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")])

        def feed():
            last = backlog[-1].id if backlog else since or 0
            try:
                first = ([resync] if resync is not None else []) + [ev.as_dict() for ev in backlog]
                yield sse.RETRY + "".join(sse.frame(m) for m in first).encode()
                while True:
                    message = sub.get(timeout=keepalive)
                    if message is None:
                        yield sse.KEEPALIVE
                    elif message.get("id") is None or message["id"] > last:
                        last = message.get("id") or last
                        yield sse.frame(message).encode()
            finally:
                sub.close()
        return feed()
    return app


def serve_uvicorn(data):
    """The same ASGI panel under uvicorn instead of Hypercorn (the alternative weighed; needs
    `pip install uvicorn`, which newsdesk itself does not)."""
    sys.path.insert(0, str(REPO))
    import uvicorn

    from controller.app import Newsdesk
    from controller.config import load_config
    from controller.runlock import RunLock
    from web_ui import create_app
    from web_ui.server import bind, panel_for

    config = load_config(data)
    with RunLock(config.data_dir) as lock:
        sock = bind("127.0.0.1", 0)
        lock.note(url="http://127.0.0.1:%d/" % sock.getsockname()[1])
        desk = Newsdesk(config)
        try:
            panel = panel_for(create_app(newsdesk=desk), config)
            server = uvicorn.Server(uvicorn.Config(panel, lifespan="on", log_level="warning",
                                                   timeout_keep_alive=config["header_timeout"]))
            server.run(sockets=[sock])
        finally:
            desk.close()


# ---------------------------------------------------------------- the host (127.0.0.1)

def request(port, method, path, body=None, timeout=5.0):
    """(status, JSON or None, seconds) of one request from the host; status 0 when it timed out."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    t0 = time.monotonic()
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", "X-Newsdesk": "1"})
        resp = conn.getresponse()
        raw = resp.read()
        took = time.monotonic() - t0
        try:
            data = json.loads(raw) if resp.getheader("Content-Type", "").startswith("application/json") else None
        except ValueError:
            data = None
        return resp.status, data, took
    except OSError:
        return 0, None, time.monotonic() - t0
    finally:
        conn.close()


class Writer(threading.Thread):
    """The host making moves at ``rate`` a second: a hand of SCAN, then undo, redo, undo, ..."""

    def __init__(self, port, rate, seconds):
        super().__init__(daemon=True)
        self.port, self.rate, self.seconds = port, rate, seconds
        self.acked = {}          # event id -> monotonic time the host had the answer
        self.times = []          # seconds per move
        self.failed = 0

    def as_json(self):
        return json.dumps({"acked": list(self.acked.items()), "times": self.times, "failed": self.failed})

    @classmethod
    def from_json(cls, text):
        got = json.loads(text)
        writer = cls(0, 1, 0)
        writer.acked = {int(k): v for k, v in got["acked"]}
        writer.times, writer.failed = got["times"], got["failed"]
        return writer

    def run(self):
        start = time.monotonic()
        version = None
        while version is None and time.monotonic() - start < self.seconds:   # the game to play in
            status, out, _ = request(self.port, "POST", "/api/games", {"engine": "scan", "players": PLAYERS})
            status, out, _ = request(self.port, "POST", "/api/games/current/actions", {"action": HAND, "version": 1})
            if status == 200:
                version = out["version"]
            else:
                self.failed += 1
        step = 1.0 / self.rate
        pace = time.monotonic()
        n = 0
        while version is not None and time.monotonic() - start < self.seconds:
            path = "/api/games/current/undo" if n % 2 == 0 else "/api/games/current/redo"
            status, out, took = request(self.port, "POST", path, {"version": version})
            now = time.monotonic()
            if status == 200 and out and out.get("event_id"):
                self.acked[out["event_id"]] = now
                self.times.append(took)
                version += 1
            else:
                self.failed += 1
                got = request(self.port, "GET", "/api/games/current")[1]
                if got and got.get("game"):
                    version = got["game"]["version"]
            n += 1
            wait = pace + n * step - time.monotonic()
            if wait > 0:
                time.sleep(wait)


class HostProbe(threading.Thread):
    """The host's own page, loaded every ``every`` seconds until stopped: how long each took."""

    def __init__(self, port, every=0.5):
        super().__init__(daemon=True)
        self.port, self.every = port, every
        self.times = []
        self.failed = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            status, _, took = request(self.port, "GET", "/", timeout=5.0)
            self.times.append(took)
            if status != 200:
                self.failed += 1
            self.done.wait(self.every)


# ---------------------------------------------------------------- pages and sockets (one selector)

def source_address(i):
    """127.0.0.2 upward (127.0.0.2-254, then 127.0.1.2-254, ...; 127.0.0.1 is the host)."""
    return "127.0.%d.%d" % (i // 253, 2 + i % 253)


class Room:
    """Many sockets on one selector: live pages reading /stream, idle and trickling sockets."""

    def __init__(self, port):
        self.port = port
        self.sel = selectors.DefaultSelector()
        self.pages = []          # dicts: sock, buf, status, ids, times, closed
        self.quiet = []          # dicts: sock, trickle, closed

    def _connect(self, source):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", self.port))
        return s

    def open_pages(self, n, since=0, first=0):
        req = ("GET /stream?since=%d HTTP/1.0\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n"
               % (since, self.port)).encode()
        for i in range(first, first + n):
            s = self._connect(source_address(i))
            page = {"sock": s, "req": req, "buf": b"", "status": None, "ids": [], "times": [], "closed": False,
                    "headers_at": None}
            self.pages.append(page)
            self.sel.register(s, selectors.EVENT_WRITE, ("page", page))

    def open_quiet(self, n, trickle, first):
        for i in range(first, first + n):
            s = self._connect(source_address(i))
            q = {"sock": s, "trickle": trickle, "closed": False, "sent": 0, "next": 0.0}
            self.quiet.append(q)
            self.sel.register(s, selectors.EVENT_READ | (selectors.EVENT_WRITE if trickle else 0), ("quiet", q))

    def pump(self, seconds):
        """Serve every socket for ``seconds``."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            for key, events in self.sel.select(timeout=min(left, 0.2)):
                kind, item = key.data
                if kind == "page":
                    self._page(item, events)
                else:
                    self._quiet(item, events)
            now = time.monotonic()
            for q in self.quiet:
                if q["trickle"] and not q["closed"] and q["sent"] and now >= q["next"]:
                    self._trickle(q, now)

    def _page(self, page, events):
        s = page["sock"]
        if events & selectors.EVENT_WRITE and page["req"]:
            try:
                s.send(page["req"])
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return self._close_page(page)
            page["req"] = None
            self.sel.modify(s, selectors.EVENT_READ, ("page", page))
            return
        try:
            data = s.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            return self._close_page(page)
        now = time.monotonic()
        buf = page["buf"] + data
        if page["status"] is None:
            if b"\r\n\r\n" not in buf:
                page["buf"] = buf
                return
            head, buf = buf.split(b"\r\n\r\n", 1)
            page["status"] = int(head.split(b" ", 2)[1])
            page["headers_at"] = now
            buf = b"\n" + buf
        cut = buf.rfind(b"\n\n")
        if cut >= 0:
            for m in ID.finditer(buf, 0, cut + 2):
                page["ids"].append(int(m.group(1)))
                page["times"].append(now)
            buf = buf[cut + 1:]
        page["buf"] = buf[-65536:]

    def _close_page(self, page):
        if not page["closed"]:
            page["closed"] = True
            self.sel.unregister(page["sock"])
            page["sock"].close()

    def _quiet(self, q, events):
        if events & selectors.EVENT_WRITE and not q["sent"]:
            self.sel.modify(q["sock"], selectors.EVENT_READ, ("quiet", q))
            self._trickle(q, time.monotonic())
            return
        try:
            data = q["sock"].recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            q["closed"] = True
            self.sel.unregister(q["sock"])
            q["sock"].close()

    def _trickle(self, q, now):
        line = b"GET / HTTP/1.1\r\n" if not q["sent"] else b"X-Trickle-%d: a\r\n" % q["sent"]
        try:
            q["sock"].send(line)
        except OSError:
            pass
        q["sent"] += 1
        q["next"] = now + 2.0

    def close_pages(self):
        for page in self.pages:
            self._close_page(page)

    def close_all(self):
        self.close_pages()
        for q in self.quiet:
            if not q["closed"]:
                q["closed"] = True
                self.sel.unregister(q["sock"])
                q["sock"].close()
        self.sel.close()


# ---------------------------------------------------------------- the two runs

def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def ms(x):
    return "%.1f ms" % (x * 1000) if x == x else "n/a"


def run_pages(server, pages, seconds, rate, settle=3.0):
    """The pages scenario; returns a dict of figures."""
    port = server.port
    request(port, "GET", "/")
    rss_start = server.rss_mb()
    room = Room(port)
    room.open_pages(pages)
    room.pump(2.0)
    served = sum(1 for p in room.pages if p["status"] == 200)
    cpu0, t0 = server.cpu_seconds(), time.monotonic()
    # the host's moves come from a process of their own, so its timings don't wait on this one's
    # reading of hundreds of sockets (CLOCK_MONOTONIC is one clock for both processes)
    child = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--write", str(port), str(rate),
                              str(seconds)], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    while child.poll() is None:
        room.pump(0.5)
    cpu = (server.cpu_seconds() - cpu0) / (time.monotonic() - t0)
    writer = Writer.from_json(child.stdout.read())
    child.stdout.close()
    room.pump(settle)
    rss_open = server.rss_mb()
    acked = writer.acked
    lost = out_of_order = duplicated = 0
    delays = []
    for page in room.pages:
        ids = page["ids"]
        seen = set(ids)
        duplicated += len(ids) - len(seen)
        out_of_order += sum(1 for a, b in zip(ids, ids[1:]) if b < a)
        lost += sum(1 for i in acked if i not in seen)
        for i, t in zip(ids, page["times"]):
            if i in acked:
                delays.append(max(0.0, t - acked[i]))
    room.close_all()
    time.sleep(3.0)
    rss_after = server.rss_mb()
    return {"pages": pages, "served": served, "cpu": cpu, "moves": len(acked), "moves_failed": writer.failed,
            "lost": lost, "out_of_order": out_of_order, "duplicated": duplicated,
            "delivery_median": statistics.median(delays) if delays else float("nan"),
            "delivery_p99": pct(delays, 0.99), "move_median": statistics.median(writer.times) if writer.times else float("nan"),
            "move_p99": pct(writer.times, 0.99), "rss_start": rss_start, "rss_open": rss_open, "rss_after": rss_after}


def run_sockets(server, idle, trickle, seconds):
    """The sockets scenario; returns a dict of figures."""
    request(server.port, "GET", "/")        # the first page load compiles templates: not what is measured
    room = Room(server.port)
    room.open_quiet(idle, trickle=False, first=0)
    room.open_quiet(trickle, trickle=True, first=idle)
    probe = HostProbe(server.port)
    probe.start()
    room.pump(seconds)
    probe.done.set()
    probe.join()
    closed_idle = sum(1 for q in room.quiet if not q["trickle"] and q["closed"])
    closed_trickle = sum(1 for q in room.quiet if q["trickle"] and q["closed"])
    room.close_all()
    return {"idle": idle, "trickle": trickle, "seconds": seconds, "host_loads": len(probe.times),
            "host_failed": probe.failed, "host_max": max(probe.times) if probe.times else float("nan"),
            "host_p50": statistics.median(probe.times) if probe.times else float("nan"),
            "closed_idle": closed_idle, "closed_trickle": closed_trickle}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rate", type=float, default=20)
    ap.add_argument("--idle", type=int, default=1000)
    ap.add_argument("--trickle", type=int, default=200)
    ap.add_argument("--socket-seconds", type=float, default=30)
    ap.add_argument("--servers", default="old,new", help="old, new and/or uvicorn, comma-separated")
    ap.add_argument("--serve-old", metavar="DATA", help=argparse.SUPPRESS)
    ap.add_argument("--serve-uvicorn", metavar="DATA", help=argparse.SUPPRESS)
    ap.add_argument("--write", nargs=3, metavar=("PORT", "RATE", "SECONDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write:
        writer = Writer(int(args.write[0]), float(args.write[1]), float(args.write[2]))
        writer.run()
        print(writer.as_json())
        return 0
    if args.serve_old:
        return serve_old(args.serve_old)
    if args.serve_uvicorn:
        return serve_uvicorn(args.serve_uvicorn)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print("pages: %d live pages, host moves %g/s for %gs; sockets: %d idle + %d trickling for %gs"
          % (args.pages, args.rate, args.seconds, args.idle, args.trickle, args.socket_seconds))
    for kind in args.servers.split(","):
        label = {"old": "old (waitress, 24 threads)", "new": "new (Hypercorn, event loop)",
                 "uvicorn": "the same panel under uvicorn (weighed, not chosen)"}[kind]
        server = Server(kind)
        try:
            p = run_pages(server, args.pages, args.seconds, args.rate)
        finally:
            server.stop()
        server = Server(kind)
        try:
            s = run_sockets(server, args.idle, args.trickle, args.socket_seconds)
        finally:
            server.stop()
        print("\n%s" % label)
        print("  pages served a stream:   %d of %d" % (p["served"], p["pages"]))
        print("  host moves acknowledged: %d (%d failed or timed out after 5 s)" % (p["moves"], p["moves_failed"]))
        print("  events lost / out of order / duplicated (%d acknowledged x %d pages): %d / %d / %d"
              % (p["moves"], p["pages"], p["lost"], p["out_of_order"], p["duplicated"]))
        print("  delivery after the ack:  median %s, p99 %s" % (ms(p["delivery_median"]), ms(p["delivery_p99"])))
        print("  host's moves:            median %s, p99 %s" % (ms(p["move_median"]), ms(p["move_p99"])))
        print("  server CPU while moving: %.0f%% of one core" % (p["cpu"] * 100))
        print("  server RSS:              %.1f MB at start, %.1f MB with the pages, %.1f MB after they left"
              % (p["rss_start"], p["rss_open"], p["rss_after"]))
        print("  host page under %d idle + %d trickling sockets: %d loads, %d failed, median %s, slowest %s"
              % (s["idle"], s["trickle"], s["host_loads"], s["host_failed"], ms(s["host_p50"]), ms(s["host_max"])))
        print("  sockets the server closed by the end: %d of %d idle, %d of %d trickling"
              % (s["closed_idle"], s["idle"], s["closed_trickle"], s["trickle"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
