"""The league at a convention's scale, measured: 100 tables each playing a game at once, one table
reinstalled on a fresh data folder mid-evening, the broker restarted while the second round of
games is being played. Prints figures; asserts nothing.

    python bench/league_scale.py [--tables 100] [--moves 20] [--rate 200]

`newsdesk league` runs as a person runs it (its own process, Hypercorn), following Debian's
mosquitto (started here on a free port). A page's live stream is read here over HTTP, as a
browser's EventSource would read it, and each move is timed from its commit to the first picture
the stream pushes showing that table at that move or later (same machine, same clock). Each table
is a store of its own (fsync off: this measures the league, not the disk; `bench/mqtt_cost.py`
writes with fsync), announced on a bus, with its own publisher. Moves go round the tables at
--rate moves a second in all.

At the end: the leaderboard against what the tables finished (nothing dropped or counted twice),
each table's events seen, repeats dropped and ids skipped, the league's log lines, and how long it
took to stop after SIGTERM with the broker gone.
"""

import argparse
import http.client
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from league_table import Table
from panel_common import pct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]


class Page:
    """A page's live stream, read over HTTP: when each (table, version) was first shown."""

    def __init__(self, port):
        self.shown = {}           # (base, version) -> time first shown
        self.last = None
        self.pictures = 0
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self._conn.request("GET", "/api/league/stream")
        self._reply = self._conn.getresponse()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        try:
            for line in self._reply:
                if not line.startswith(b"data:"):
                    continue
                now = time.time()
                snap = json.loads(line[5:])
                self.pictures += 1
                self.last = snap
                for t in snap["tables"]:
                    if t["game"]:
                        self.shown.setdefault((t["base"], t["game"]["version"]), now)
        except (OSError, ValueError, AttributeError):     # the page closed while reading
            return

    def close(self):
        try:
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):      # closed already
            pass
        self._conn.close()


def play_round(tables, rng, moves, rate, made, during=None):
    """Every table starts a game, makes ``moves`` moves (round-robin at ``rate`` in all) and
    finishes it; ``during`` runs once, halfway."""
    for t in tables:
        t.start(rng.sample(NAMES, 3))
    gap, at = 1.0 / rate, time.monotonic()
    for m in range(moves):
        if during is not None and m == moves // 2:
            during()
        for t in tables:
            version, committed = t.move(rng)
            made.append((t.base, version, committed))
            at += gap
            time.sleep(max(0.0, at - time.monotonic()))
    for t in tables:
        t.finish()


def wait(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def main():
    from mosquitto import Mosquitto, free_port

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--moves", type=int, default=20, help="moves in each table's game")
    ap.add_argument("--rate", type=float, default=200.0, help="moves a second, over all tables")
    args = ap.parse_args()
    logging.getLogger("controller").setLevel(logging.ERROR)    # the tables' own reconnect warnings are expected
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        broker = Mosquitto(tmp / "broker").start()
        port = free_port()
        league = subprocess.Popen([sys.executable, "-m", "newsdesk", "--data", str(tmp / "league"), "league",
                                   "--mqtt-url", broker.url, "--host", "127.0.0.1", "--port", str(port)],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=dict(os.environ, PYTHONUNBUFFERED="1"),
                                  cwd=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        tables, made, page = [], [], None
        try:
            assert wait(lambda: _up(port), 20), "the league did not start"
            page = Page(port)
            tables = [Table(tmp / ("t%03d" % i), broker, "newsdesk/t%03d" % i, "Table %d" % (i + 1), fsync=False)
                      for i in range(args.tables)]
            assert wait(lambda: all(t.publisher.connected for t in tables), 30), "tables did not connect"
            started = time.monotonic()
            play_round(tables, rng, args.moves, args.rate, made)
            first_round = time.monotonic() - started
            in_first = len(made)
            first_shown = dict(page.shown)
            page.shown.clear()                  # the second round's games have the same versions

            # mid-evening: table 1 is set up again on a fresh data folder under the same name
            old = tables[0]
            old.close()
            retired = old.history
            tables[0] = Table(tmp / "t000-reinstalled", broker, old.base, "Table 1", fsync=False)
            assert wait(lambda: tables[0].publisher.connected, 30)

            def restart_broker():
                broker.restart()

            play_round(tables, rng, args.moves, args.rate, made, during=restart_broker)
            expected_games = args.tables * 2
            settled = wait(lambda: page.last and page.last["leaderboard"]["games_counted"] >= expected_games
                           and all(t.publisher.backlog == 0 for t in tables), 60)
            time.sleep(1.0)          # anything counted twice would arrive now
            snap = page.last
            rounds = ((made[:in_first], first_shown), (made[in_first:], page.shown))
            delays = [sorted((shown[(b, v)] - c) * 1000 for b, v, c in part if (b, v) in shown)
                      for part, shown in rounds]
            never = sum(1 for part, shown in rounds for b, v, c in part if (b, v) not in shown and not any(
                base == b and ver >= v for (base, ver) in shown))
            truth = {}
            for history in [retired] + [t.history for t in tables]:
                for game in history:
                    for row in game["standings"]:
                        truth[row["name"]] = truth.get(row["name"], 0) + 1
            board = {r["player"]: r["played"] for r in snap["leaderboard"]["by_player"]}
            per_table = [t["events"] for t in snap["tables"]]

            broker.stop()
            assert wait(lambda: page.last and page.last["connected"] is False, 30)
            page.close()
            stop_at = time.monotonic()
            league.send_signal(signal.SIGTERM)
            out, _ = league.communicate(timeout=30)
            stopped = time.monotonic() - stop_at
        finally:
            if page is not None:
                page.close()
            for t in tables:
                t.close()
            if league.poll() is None:
                league.kill()
                league.communicate()
            broker.stop()
    print("league at scale: %d tables, %d moves each per game, %d moves at %.0f a second in all; "
          "the broker restarted mid-round, table 1 reinstalled between rounds" % (
              args.tables, args.moves, len(made), args.rate))
    print("first round (every table at once): %.1f s" % first_round)
    for name, part in zip(("first round", "second round (broker restarted)"), delays):
        if part:
            print("%-31s move committed -> on the page  median %6.1f ms   p90 %6.1f ms   p99 %6.1f ms   "
                  "max %6.1f ms" % (name, pct(part, 0.5), pct(part, 0.9), pct(part, 0.99), max(part)))
    print("moves never shown (nor a later move of that table; a game that ended while the broker was away "
          "shows its end instead): %d; pictures pushed to the page: %d" % (
        never, page.pictures))
    print("settled: %s; games counted %d of %d finished; players' games played match the tables: %s" % (
        settled, snap["leaderboard"]["games_counted"], expected_games, board == truth))
    print("events seen %d, repeats dropped %d, ids skipped %d, tables with 2 installs: %d" % (
        sum(e["seen"] for e in per_table), sum(e["repeats"] for e in per_table),
        sum(e["skipped"] for e in per_table), sum(1 for e in per_table if e["installs"] == 2)))
    lines = [line for line in out.splitlines() if line.strip()]
    print("the league's log: %d lines (%d warnings, %d tracebacks); stopped %.2f s after SIGTERM, exit %s" % (
        len(lines), sum("WARNING" in line for line in lines), sum("Traceback" in line for line in lines),
        stopped, league.returncode))


def _up(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    main()
