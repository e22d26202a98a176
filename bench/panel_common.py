"""What the panel benchmarks share: a panel served as `newsdesk serve` serves it (Hypercorn on an
event loop) on a fresh data folder (simulated pins), in this process or as the command in its own,
Debian's Chromium through Playwright, and a short game of each kind through the API."""

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def games():
    """The games the registry finds (no game is named here), in the start form's order."""
    from controller.games import registry
    return list(registry.names())


def players_for(engine):
    """Four players, or as many as the game's default variant seats (from its declaration)."""
    from controller.games import catalogue
    item = next(g for g in catalogue.start_form() if g["name"] == engine)
    seats = item["players"]
    variant = next((o["default"] for o in item["options"] if o["name"] == item["variant_option"]), None)
    if seats["by_variant"] and isinstance(variant, str) and variant in seats["by_variant"]:
        seats = seats["by_variant"][variant]
    return NAMES[:max(seats["min"], min(4, seats["max"]))]


@contextlib.contextmanager
def panel(overrides=None):
    """(base url, Newsdesk, server) of a panel on a free loopback port, closed afterwards;
    ``overrides``: settings as the command line gives them. ``server.panel.streams`` are the open
    live streams."""
    from gpiozero.pins.mock import MockFactory

    from controller.app import Newsdesk
    from controller.config import load_config
    from web_ui import create_app, server

    with tempfile.TemporaryDirectory() as data:
        factory = MockFactory()
        desk = Newsdesk(load_config(Path(data) / "data", environ={}, overrides=overrides), pin_factory=factory)
        app = create_app(newsdesk=desk)
        sys.setswitchinterval(server.SWITCH_INTERVAL)     # as `newsdesk serve` sets it
        srv = server.InThread(app)
        try:
            yield "http://127.0.0.1:%d" % srv.port, desk, srv
        finally:
            srv.close()
            desk.close()
            factory.close()


def call(base, path, body=None):
    req = urllib.request.Request(base + path, method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", "X-Newsdesk": "1"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def play_a_little(base, engine, moves=6):
    """Start a game of ``engine`` and make up to ``moves`` moves from its offers (values filled in)."""
    status, out = call(base, "/api/games", {"engine": engine, "players": [{"name": n} for n in players_for(engine)]})
    if status != 201:
        raise RuntimeError("can't start %s: %s" % (engine, out))
    for _ in range(moves):
        game = call(base, "/api/games/current")[1]["game"]
        offers = [o for o in game["offers"] if o["type"] not in ("go_to_press", "catastrophe")]
        if not offers:
            break
        offer = offers[0]
        action = {k: v for k, v in offer.items() if k not in ("enter", "needs", "sides", "suits")}
        for field in offer.get("enter", ()):
            action[field] = "Baytown" if field in ("at", "airport") else 300
        if offer["type"] == "hand":
            action["taken"] = {offer["sides"][0]: {"spades": 7, "hearts": 6, "diamonds": 6, "clubs": 7},
                               offer["sides"][1]: {"spades": 6, "hearts": 7, "diamonds": 7, "clubs": 6}}
        call(base, "/api/games/current/actions", {"action": action, "version": game["version"]})
    return call(base, "/api/games/current")[1]["game"]


def browser():
    from playwright.sync_api import sync_playwright
    p = sync_playwright().start()
    b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    return p, b


def pct(values, q):
    """The q-quantile of ``values``, interpolated between the two nearest (numpy's default)."""
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory(pid):
    """VmRSS and VmHWM (peak) of process ``pid``, in MB, from /proc."""
    out = {}
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024.0
    return out


class Api:
    """The JSON API on a port, a new connection for each call (the worst case: a page's own
    fetches reuse the connections the browser keeps open; see KeptApi). ``cookie``: the Cookie
    header every call sends (``join`` makes it a joined tablet's)."""

    def __init__(self, port, cookie=None):
        self.port = port
        self.cookie = cookie

    def call(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            return self._ask(conn, method, path, body)
        finally:
            conn.close()

    def _ask(self, conn, method, path, body):
        headers = {"Content-Type": "application/json", "X-Newsdesk": "1"} if body is not None else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if r.getheader("Content-Type", "").startswith("application/json") else data)


def join(port):
    """The Cookie header of a tablet that has joined the table as a player, as at a real table:
    an invitation made by the host (this machine, on loopback) and redeemed at /join. Every change
    that tablet makes then reads its device from the devices file (web_ui/security.py)."""
    status, made = Api(port).call("POST", "/api/join/tokens", {"role": "player"})
    if status != 201:
        raise SystemExit("can't invite a tablet: %s" % (made,))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/join?token=" + made["token"], headers={"User-Agent": "bench tablet"})
        r = conn.getresponse()
        r.read()
        cookies = [h.split(";", 1)[0] for k, h in r.getheaders() if k.lower() == "set-cookie"]
    finally:
        conn.close()
    if r.status != 303 or not cookies:
        raise SystemExit("the tablet couldn't join (%d)" % r.status)
    return "; ".join(cookies)


class KeptApi(Api):
    """The JSON API as an open page's fetches reach it: over a connection kept open between calls
    (HTTP/1.1 keep-alive; Chromium reuses its open connections to the panel for every fetch). A
    connection the server closed in between (its idle timeout) is opened again, as a browser does."""

    def __init__(self, port, cookie=None):
        super().__init__(port, cookie)
        self._conn = None

    def call(self, method, path, body=None):
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                return self._ask(self._conn, method, path, body)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def serve_command(data, port, tree=ROOT, env=None, **popen):
    """`newsdesk serve` from the source ``tree`` in a process of its own, as the command starts it:
    simulated pins (MockFactory), a fresh data folder ``data``, loopback on ``port``; ``env``: more
    NEWSDESK_* settings; ``popen``: more of Popen's arguments. Its stderr is a pipe."""
    env = dict(os.environ, NEWSDESK_PIN_FACTORY="mock", NEWSDESK_VOLATILE_DATA="allow", NEWSDESK_HOST="127.0.0.1",
               NEWSDESK_PORT=str(port), PYTHONPATH=str(tree), **(env or {}))
    # the command line's home: newsdesk/ now, controller/cli.py in trees from before it moved
    cli = "newsdesk" if (Path(tree) / "newsdesk" / "cli.py").is_file() else "controller.cli"
    return subprocess.Popen([sys.executable, "-m", cli, "--data", str(data), "serve"], cwd=tree, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)


def wait_up(api, proc, timeout=30, poll=0.1):
    """Wait for /api/health to answer 200; SystemExit (with the server's last words) if it stops."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit("the server stopped: %s" % proc.stderr.read().decode()[-2000:])
        try:
            if api.call("GET", "/api/health")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(poll)
    raise SystemExit("the server did not come up in %d s" % timeout)


class Tablet(threading.Thread):
    """A live stream, read to the end of every event, like an open panel. ``seen``: a queue that
    gets (time.perf_counter() at arrival, the event) for each event, for the benches that time one."""

    def __init__(self, port, seen=None):
        super().__init__(daemon=True)
        self.port = port
        self.seen = seen
        self.events = 0
        self.stop = False

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/stream")
        r = conn.getresponse()
        while not self.stop:
            line = r.fp.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                self.events += 1
                if self.seen is not None:
                    self.seen.put((time.perf_counter(), json.loads(line[6:])))
        conn.close()
