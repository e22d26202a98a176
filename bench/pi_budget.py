"""A Pi Zero 2 W's budget: `newsdesk serve` unthrottled and inside a cgroup CPU quota (1 ms of CPU
in every 10 ms, a Pi Zero 2 W's approximation on a laptop or CI machine), side by side in one run.
Prints figures; asserts nothing.

    sudo .venv/bin/python bench/pi_budget.py [--moves 80] [--presses 30] [--tree DIR ...]

Each server is the command as `make run` starts it (web_ui/server.py: Hypercorn on an event loop),
from a source tree, on a fresh data folder, with simulated pins (MockFactory, as on a laptop: the
window is luma's dummy device) and audio and speech off. For each it measures:

* ready: from starting the process to the first 200 from /api/health, and the CPU time the
  server had used by then (the figure a busy machine changes least);
* a move: a POST of one action to /api/games/current/actions until its answer (a seeded pick
  among SCOOP (1956)'s offers, never going to press), as the panel's page sends it: the next
  move is picked from that answer's offers, as the page does (web_ui/static/js/panel.js, act),
  after a person's pause (``--pause``), with the page's /stream open; and the server's CPU per move (all its
  threads, from /proc, over the moves and the pauses between them: the page's event included);
* a press on an open page: the panel's virtual dice button (POST /api/oracles/sim/dice, which
  presses and releases the simulated pin, holding it down for a tap's 80 ms as a finger does)
  until the roll arrives on the open /stream;
* idle: the server's CPU in each second it waits with a page open and nobody at the table
  (``--idle`` seconds, after a second's settling; every thread's run time, from /proc's
  schedstat): what a box left on draws, and what a move or a press arriving then shares the
  CPU with;
* RSS: the server's VmRSS after all of that.

The moves and presses go over a connection kept open between them, as an open page's fetches do
(Chromium reuses the connections it keeps to the panel: checked with ``ss`` while a page made
eight fetches, all on the six connections it had opened with the page). ``--connection-per-call``
opens a new one for each instead, the worst case (and how this bench measured before). They are
made by the host on this machine's loopback, which has no device to look up; ``--tablet`` makes
them as a tablet that joined as a player (invited and redeemed through the panel, its session
cookie sent with each), as at a real table, where each change reads the tablet's device. One page
has the stream open; ``--pages 4`` opens three more, as the other players' tablets at a table of
four (each message then goes to every page).

Only the server is throttled; the bench (the tablet) is not. The quota goes in a cgroup made for
the run and removed after it: cgroup v2's cpu.max where the cpu controller is on the unified
hierarchy, else v1's cpu.cfs_quota_us and cpu.cfs_period_us. That needs root; without a cgroup
the unthrottled figures are printed alone, and it says why. ``--tree`` adds another source tree
(a git worktree of an older commit, say) measured the same way in the same run, for a before and
after; ``--rounds`` runs each server that many times and keeps every measurement.

``--charges`` also prints what the quota charges for work that is not newsdesk's: the CPU time
and the wall time of whole fresh processes (three of each, unthrottled and under the quota) of an
interpreter that does nothing, one importing Flask and Hypercorn, one importing gpiozero too,
one importing the modules `newsdesk serve` imports before it starts anything (this tree's: the
floor under "ready" that no change to its start-up lowers), and a tight arithmetic loop. On the machine the
figures in docs/benchmarks.md come from, the imports and the loop alike cost more CPU under the
quota than without it: the quota makes any work dearer by itself. With it comes the floor under a
move: ``--moves`` requests to a Flask route that answers at once, served by Hypercorn
(bench/bare_panel.py: no game, store or page), made as the moves are made, unthrottled and under
the quota, with that server's CPU a request. A press made through the panel (the simulated
button's POST, then the tap's 80 ms) sits on the same floor.
"""

import argparse
import os
import queue
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from panel_common import ROOT, Api, KeptApi, Tablet, free_port, join, memory, pct, serve_command, wait_up

from controller import events

PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
QUIET = {"NEWSDESK_AUDIO": "off", "NEWSDESK_SPEECH": "off"}
GOALS = {"ready": 3.0, "move": 0.050, "press": 0.120, "rss": 60.0}   # issue 45, under the quota


class CpuQuota:
    """A cgroup that holds its processes to ``quota_us`` of CPU time in every ``period_us``; made
    on entering, removed on leaving (after its processes have ended). ``why_not`` says why there
    is none (the ``join`` of a process is then a no-op)."""

    def __init__(self, quota_us, period_us):
        self.quota_us, self.period_us = quota_us, period_us
        self.path = None
        self.kind = ""
        self.why_not = ""
        self._enabled = None        # a v2 parent whose cpu controller this run switched on (and off after)

    def __enter__(self):
        name = "newsdesk-pi-budget-%d" % os.getpid()
        tried = []
        for kind, root in self._hierarchies():
            path = root / name
            try:
                if kind == "v2" and "cpu" not in (root / "cgroup.subtree_control").read_text().split():
                    (root / "cgroup.subtree_control").write_text("+cpu\n")     # its children get cpu.max
                    self._enabled = root
                path.mkdir()
            except OSError as e:
                tried.append("%s (%s): %s" % (root, kind, e.strerror or e))
                continue
            try:
                if kind == "v2":
                    (path / "cpu.max").write_text("%d %d\n" % (self.quota_us, self.period_us))
                else:
                    (path / "cpu.cfs_period_us").write_text("%d\n" % self.period_us)
                    (path / "cpu.cfs_quota_us").write_text("%d\n" % self.quota_us)
            except OSError as e:
                path.rmdir()
                tried.append("%s (%s): %s" % (root, kind, e.strerror or e))
                continue
            self.path, self.kind = path, kind
            return self
        self.why_not = "; ".join(tried) or "no cgroup hierarchy with a cpu controller is mounted"
        return self

    @staticmethod
    def _hierarchies():
        """cgroup v2 mounts whose cpu controller is on, then v1 mounts of the cpu controller."""
        try:
            mounts = [line.split() for line in Path("/proc/self/mounts").read_text().splitlines()]
        except OSError:
            return []
        found = []
        for m in mounts:
            if m[2] == "cgroup2":
                root = Path(m[1])
                try:
                    if "cpu" in (root / "cgroup.controllers").read_text().split():
                        found.append(("v2", root))
                except OSError:
                    pass
        for m in mounts:
            if m[2] == "cgroup" and "cpu" in m[3].split(","):
                found.append(("v1", Path(m[1])))
        return found

    def join(self):
        """Move the calling process into the cgroup (Popen's preexec_fn: the child, before exec)."""
        if self.path is not None:
            with open(self.path / "cgroup.procs", "w") as f:
                f.write("0\n")

    def __exit__(self, *exc):
        if self.path is not None:
            for _ in range(50):          # the last threads of a process that has ended leave a moment later
                try:
                    self.path.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                print("could not remove the cgroup %s (still in use?)" % self.path, file=sys.stderr)
        if self._enabled is not None:
            try:
                (self._enabled / "cgroup.subtree_control").write_text("-cpu\n")
            except OSError:             # another cgroup uses it now: it stays on
                pass


def cpu_seconds(pid):
    """User and system CPU time process ``pid`` has used, all its threads (from /proc)."""
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_ns(pid):
    """The nanoseconds of CPU every thread of process ``pid`` has run (/proc's schedstat: finer
    than /proc/<pid>/stat's clock ticks, which an idle second's few milliseconds fall between)."""
    total = 0
    for task in Path("/proc/%d/task" % pid).iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):       # a thread that ended between the listing and the read
            pass
    return total


def fill(offer, rng):
    action = {k: v for k, v in offer.items() if k not in ("enter", "needs")}
    for field in offer.get("enter", ()):
        action[field] = rng.choice([100, 200, 300, 400, 500, 600, 800, 1000])
    return action


def offers_of(api, game):
    """(the game to move in, its offers but going to press): ``game`` while it has some; else,
    with no game yet or one that ended by itself or can only go to press, that one finished or
    abandoned and the next started."""
    while True:
        offers = [o for o in game["offers"] if o["type"] != "go_to_press"] if game else []
        if offers:
            return game, offers
        if game:
            api.call("POST", "/api/games/current/" + ("finish" if not game["offers"] else "abandon"),
                     {"version": game["version"]})
        status, game = api.call("POST", "/api/games", {"engine": "scoop1956", "players": PLAYERS})
        if status != 201:
            raise SystemExit("can't start a game: %s" % (game,))


def wait_for(seen, kind, timeout=10):
    end = time.monotonic() + timeout
    while True:
        at, event = seen.get(timeout=max(0.01, end - time.monotonic()))
        if event.get("type") == kind:
            return at


def measure(tree, cgroup, args):
    """One server from ``tree`` (in ``cgroup`` if given): {"ready": s, "move": [s], "press": [s], "rss": MB}."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        api = Api(port)
        t0 = time.perf_counter()
        proc = serve_command(Path(data) / "data", port, tree=tree, env=QUIET,
                             preexec_fn=cgroup.join if cgroup is not None else None)
        try:
            wait_up(api, proc, timeout=120, poll=0.01)
            ready = time.perf_counter() - t0
            ready_cpu = cpu_seconds(proc.pid)
            cookie = join(port) if args.tablet else None
            api = Api(port, cookie) if args.connection_per_call else KeptApi(port, cookie)
            seen = queue.Queue()
            page = Tablet(port, seen)
            page.start()
            others = [Tablet(port) for _ in range(args.pages - 1)]     # the other players' pages
            for other in others:
                other.start()
            time.sleep(1.0)             # the page's first messages and the window's first frame
            before = run_ns(proc.pid)
            time.sleep(args.idle)
            idle = (run_ns(proc.pid) - before) / 1e6 / args.idle
            moves = []
            game = None
            moves_cpu = cpu_seconds(proc.pid)
            while len(moves) < args.moves:
                game, offers = offers_of(api, game)
                time.sleep(rng.uniform(*args.pause))     # a person between taps
                body = {"action": fill(rng.choice(offers), rng), "version": game["version"]}
                start = time.perf_counter()
                status, out = api.call("POST", "/api/games/current/actions", body)
                took = time.perf_counter() - start
                if status == 200:
                    moves.append(took)
                    game = out
                else:           # refused by the rules (a value they don't take): look again
                    game = api.call("GET", "/api/games/current")[1]["game"]
            moves_cpu = (cpu_seconds(proc.pid) - moves_cpu) / len(moves)
            presses = []
            while not seen.empty():
                seen.get()
            for _ in range(args.presses):
                time.sleep(rng.uniform(0.15, 0.3))      # a person between presses (and past the button's gap)
                start = time.perf_counter()
                status, out = api.call("POST", "/api/oracles/sim/dice", {})
                if status != 202:
                    raise SystemExit("the simulated dice button refused: %s" % (out,))
                presses.append(wait_for(seen, events.DICE_ROLL) - start)
            rss = memory(proc.pid)["VmRSS"]
            page.stop = True
            for other in others:
                other.stop = True
            if isinstance(api, KeptApi):
                api.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except Exception:
                proc.kill()
                proc.wait()
    return {"ready": ready, "ready_cpu": ready_cpu, "idle": idle, "move": moves, "move_cpu": moves_cpu, "press": presses, "rss": rss}


CHARGES = {
    "an interpreter that does nothing": "pass",
    "import flask, hypercorn.asyncio": "import flask, hypercorn.asyncio",
    "import flask, hypercorn.asyncio, gpiozero": "import flask, hypercorn.asyncio, gpiozero",
    "import what newsdesk serve imports (this tree)":
        "import newsdesk.cli, web_ui.server, controller.app, hypercorn.asyncio, hypercorn.asyncio.tcp_server",
    "a loop of 3,000,000 additions": "s = 0\nfor i in range(3_000_000):\n    s += i",
}


def charges(cgroup, repeat=3):
    """{what: ((unthrottled CPU-s, wall s), (quota CPU-s, wall s))}: the medians of ``repeat``
    fresh processes each, timed from outside (the whole process: the interpreter's own start
    too, as "ready" counts it)."""
    out = {}
    for what, code in CHARGES.items():
        took = {}
        for throttled in (False, True):
            runs = []
            for _ in range(repeat):
                start = time.perf_counter()
                proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                                        preexec_fn=cgroup.join if throttled else None)
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                if proc.returncode:
                    raise SystemExit("the probe %r failed (%d)" % (code, proc.returncode))
                runs.append((usage.ru_utime + usage.ru_stime, time.perf_counter() - start))
            took[throttled] = (sorted(r[0] for r in runs)[repeat // 2], sorted(r[1] for r in runs)[repeat // 2])
        out[what] = (took[False], took[True])
    return out


def bare_route(cgroup, args):
    """The floor under a move: requests to bench/bare_panel.py (a Flask route that answers at once,
    under Hypercorn), made as the moves are made (one after another over a kept connection, a
    person's pause between them). {"cpu": the server's CPU a request, "wall": [s]}."""
    rng = random.Random(args.seed)
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("bare_panel.py")), str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=cgroup.join if cgroup is not None else None)
    try:
        wait_up(Api(port), proc, timeout=120, poll=0.01)
        api = KeptApi(port)
        walls = []
        version = 0
        for _ in range(5):          # the connection made and the first requests' lazy work done
            api.call("POST", "/act", {"version": version})
        cpu = cpu_seconds(proc.pid)
        while len(walls) < args.moves:
            time.sleep(rng.uniform(*args.pause))
            start = time.perf_counter()
            status, out = api.call("POST", "/act", {"version": version})
            walls.append(time.perf_counter() - start)
            if status != 200:
                raise SystemExit("the bare route answered %d: %s" % (status, out))
            version = out["version"]
        cpu = (cpu_seconds(proc.pid) - cpu) / len(walls)
        api.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"cpu": cpu, "wall": walls}


def row(label, runs):
    ready = [r["ready"] for r in runs]
    ready_cpu = [r["ready_cpu"] for r in runs]
    move = [m for r in runs for m in r["move"]]
    press = [p for r in runs for p in r["press"]]
    move_cpu = [r["move_cpu"] for r in runs]
    rss = max(r["rss"] for r in runs)
    idle = [r["idle"] for r in runs]
    return "%-34s %6.2f s  %5.2f s  %5.0f / %4.0f ms  %5.1f ms  %5.0f / %4.0f ms  %5.1f MB  %5.2f ms/s" % (
        label, pct(ready, 0.5), pct(ready_cpu, 0.5), pct(move, 0.5) * 1000, pct(move, 0.95) * 1000,
        pct(move_cpu, 0.5) * 1000, pct(press, 0.5) * 1000, pct(press, 0.95) * 1000, rss, pct(idle, 0.5))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=80, help="moves timed per server (default 80)")
    ap.add_argument("--presses", type=int, default=30, help="dice presses timed per server (default 30)")
    ap.add_argument("--rounds", type=int, default=1, help="servers started per tree and setting (default 1)")
    ap.add_argument("--quota-us", type=int, default=1000, help="CPU microseconds allowed per period (default 1000)")
    ap.add_argument("--period-us", type=int, default=10000, help="the period (default 10000)")
    ap.add_argument("--tree", action="append", default=[], type=Path,
                    help="another source tree to measure beside this one (repeatable)")
    ap.add_argument("--pause", type=float, nargs=2, default=(0.15, 0.3), metavar=("LEAST", "MOST"),
                    help="seconds between moves, drawn between these (default: a person's, 0.15 0.3)")
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of an idle box measured per server (default 5)")
    ap.add_argument("--seed", type=int, default=1956)
    ap.add_argument("--charges", action="store_true",
                    help="also time a bare import of the panel's libraries, a tight loop and requests to a Flask route "
                         "that answers at once (bench/bare_panel.py), with and without the quota")
    ap.add_argument("--connection-per-call", action="store_true",
                    help="a new connection for each move and press (default: one kept open, as a page's fetches)")
    ap.add_argument("--pages", type=int, default=1,
                    help="pages open on the panel's stream (default 1; a table of four tablets: 4)")
    ap.add_argument("--tablet", action="store_true",
                    help="make the moves and presses as a tablet that joined as a player, as at a real table "
                         "(default: as the host on this machine's loopback, which has no device to look up)")
    args = ap.parse_args(argv)
    trees = [ROOT] + [t.resolve() for t in args.tree]
    for tree in trees:      # the command line is newsdesk/cli.py, or controller/cli.py in trees from before it moved
        if not any((tree / home / "cli.py").is_file() for home in ("newsdesk", "controller")):
            ap.error("%s is not a newsdesk source tree (no newsdesk/cli.py or controller/cli.py)" % tree)
    for tree in trees:      # as a box runs: its first start writes the bytecode; the bench times the next ones
        packages = [p for p in ("newsdesk", "controller", "web_ui") if (tree / p).is_dir()]
        if subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *packages], cwd=tree,
                          stdout=subprocess.DEVNULL).returncode:
            print("could not compile %s's modules: each start below compiles them again" % tree, file=sys.stderr)
    load = os.getloadavg()[0]
    results = {}
    with CpuQuota(args.quota_us, args.period_us) as quota:
        for _ in range(args.rounds):
            for tree in trees:
                results.setdefault((tree, False), []).append(measure(tree, None, args))
                if quota.path is not None:
                    results.setdefault((tree, True), []).append(measure(tree, quota, args))
        charged = charges(quota) if args.charges and quota.path is not None else {}
        floor = {throttled: bare_route(quota if throttled else None, args) for throttled in (False, True)} \
            if args.charges and quota.path is not None else {}
    print("`newsdesk serve` on a fresh data folder, MockFactory pins, audio and speech off; %d moves of SCOOP "
          "(1956) and %d dice presses per server, %s, %s, %d server%s per row (ready: the median)" % (
              args.moves, args.presses, "a new connection for each" if args.connection_per_call
              else "over a connection kept open", "by a joined tablet" if args.tablet else "by the host on loopback",
              args.rounds, "" if args.rounds == 1 else "s"))
    if args.pages != 1:
        print("%d pages open on the stream (the timed one and %d more)" % (args.pages, args.pages - 1))
    if quota.path is None:
        print("no CPU quota: could not make a cgroup (%s); unthrottled figures only" % quota.why_not)
    else:
        print("quota: %.1f ms of CPU in every %.0f ms (cgroup %s, removed afterwards)" % (
            args.quota_us / 1000, args.period_us / 1000, quota.kind))
    print("%-34s %8s  %7s  %17s  %8s  %17s  %8s  %9s" % ("", "ready", "its CPU", "move p50 / p95", "its CPU",
                                                            "press p50 / p95", "RSS", "idle CPU"))
    for tree in trees:
        name = "this tree" if tree == ROOT else str(tree)
        for throttled in (False, True):
            if (tree, throttled) in results:
                print(row("%s, %s" % (name, "quota" if throttled else "unthrottled"), results[(tree, throttled)]))
    for what, ((free, free_wall), (throttled, throttled_wall)) in charged.items():
        print("what the quota charges: %s: %.3f CPU-s unthrottled, %.3f under the quota (x%.2f); "
              "wall %.2f s and %.2f s" % (what, free, throttled, throttled / free, free_wall, throttled_wall))
    if floor:
        print("what the quota charges: a Flask route that answers at once, under Hypercorn (bench/bare_panel.py), "
              "%d requests made as the moves are: %.1f ms of CPU a request unthrottled, %.1f under the quota; "
              "p50 / p95 %.0f / %.0f ms and %.0f / %.0f ms" % (
                  args.moves, floor[False]["cpu"] * 1000, floor[True]["cpu"] * 1000,
                  pct(floor[False]["wall"], 0.5) * 1000, pct(floor[False]["wall"], 0.95) * 1000,
                  pct(floor[True]["wall"], 0.5) * 1000, pct(floor[True]["wall"], 0.95) * 1000))
    print("load average (1 min) before and after: %.1f, %.1f on %d CPUs" % (load, os.getloadavg()[0], os.cpu_count()))
    print("goals under the quota: ready <= %.0f s, move p95 <= %.0f ms, press p95 <= %.0f ms, RSS <= %.0f MB"
          % (GOALS["ready"], GOALS["move"] * 1000, GOALS["press"] * 1000, GOALS["rss"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
