"""What a move costs the box when a joined tablet makes it, beside the same moves made by the host
on the box's loopback (which has no device to look up): the server's CPU per move, all its
threads, for this tree and any other (``--tree``), side by side in one run. Prints figures;
asserts nothing.

    .venv/bin/python bench/tablet_moves.py [--moves 200] [--rounds 2] [--tree DIR ...]

Each server is `newsdesk serve` on a fresh data folder (bench/panel_common.py, serve_command),
unthrottled, with one page's stream open. The tablet is invited by the host and redeems the
invitation through the panel (panel_common.join); its session cookie goes with each move, over a
connection kept open. The moves are SCOOP (1956)'s, picked from each answer's offers as the page
does, 20 ms apart; the CPU is read from /proc over the timed moves, less the idle draw of the
same stretch (measured on the server before the moves, as pi_budget.py does). The runs of the
trees and of host and tablet alternate, so a machine that speeds up or slows down during the run
weighs on all of them alike.
"""

import argparse
import queue
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from panel_common import ROOT, Api, KeptApi, Tablet, free_port, join, serve_command, wait_up
from pi_budget import QUIET, cpu_seconds, fill, offers_of, run_ns


def per_move(tree, as_tablet, moves, seed):
    """The server's CPU per move (ms), its idle draw taken off."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        proc = serve_command(Path(data) / "data", port, tree=tree, env=QUIET)
        try:
            wait_up(Api(port), proc, timeout=60, poll=0.01)
            api = KeptApi(port, join(port) if as_tablet else None)
            page = Tablet(port, queue.Queue())
            page.start()
            time.sleep(1.0)
            before = run_ns(proc.pid)
            time.sleep(1.0)
            idle = (run_ns(proc.pid) - before) / 1e9        # CPU-s a second
            game = None

            def play(count):
                nonlocal game
                done = 0
                while done < count:
                    game, offers = offers_of(api, game)
                    time.sleep(0.02)
                    status, out = api.call("POST", "/api/games/current/actions",
                                           {"action": fill(rng.choice(offers), rng), "version": game["version"]})
                    if status == 200:
                        done += 1
                        game = out
                    else:
                        game = api.call("GET", "/api/games/current")[1]["game"]

            play(20)
            cpu, start = cpu_seconds(proc.pid), time.perf_counter()
            play(moves)
            cpu, took = cpu_seconds(proc.pid) - cpu, time.perf_counter() - start
            page.stop = True
            api.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return (cpu - idle * took) / moves * 1000


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=200, help="moves timed per server (default 200)")
    ap.add_argument("--rounds", type=int, default=2, help="servers per tree and player (default 2)")
    ap.add_argument("--tree", action="append", default=[], type=Path, help="another source tree (repeatable)")
    ap.add_argument("--seed", type=int, default=1956)
    args = ap.parse_args(argv)
    trees = [ROOT] + [t.resolve() for t in args.tree]
    got = {}
    for _ in range(args.rounds):
        for tree in trees:
            for as_tablet in (False, True):
                got.setdefault((tree, as_tablet), []).append(per_move(tree, as_tablet, args.moves, args.seed))
    print("the server's CPU per move (ms, all threads, unthrottled, idle draw taken off), %d moves a server: "
          "the median of %d servers (each one's)" % (args.moves, args.rounds))
    for who, as_tablet in (("the host on loopback", False), ("a joined tablet", True)):
        print(who)
        for tree in trees:
            runs = got[(tree, as_tablet)]
            print("  %-38s %5.2f  (%s)" % ("this tree" if tree == ROOT else str(tree)[-38:], statistics.median(runs),
                                          " ".join("%.2f" % v for v in runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
