"""Panel benchmark: the server's resident memory after an evening-length game. Prints figures;
asserts nothing.

    python bench/panel_memory.py [--moves 1000] [--tablets 12] [--seed 1956]

Starts `newsdesk serve` in its own process (simulated pins, a fresh data folder), connects
``--tablets`` live streams that read every event, and plays one long game of SCOOP (1956) through
the JSON API the panel uses: a seeded random pick among the offers each time (never going to
press, so it stays one game), an undo now and then, every move read back as a tablet would. Then
it reads the game's chart, record and the history (the heaviest reads) and finishes it. The
server's VmRSS and VmHWM (peak) come from /proc.
"""

import argparse
import random
import tempfile
import time
from pathlib import Path

from panel_common import Api, Tablet, free_port, memory, serve_command, wait_up

PLAYERS = [{"name": n, "colour": c} for n, c in (("Ann", "red"), ("Bob", "blue"), ("Cat", "green"), ("Dan", "white"))]


def fill(offer, rng):
    action = {k: v for k, v in offer.items() if k not in ("enter", "needs")}
    for field in offer.get("enter", ()):
        action[field] = rng.choice([100, 200, 300, 400, 500, 600, 800, 1000])
    return action


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--tablets", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1956)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        proc = serve_command(data, port, env={"NEWSDESK_THREADS": str(max(24, args.tablets + 8))})
        try:
            api = Api(port)
            wait_up(api, proc)
            api.call("GET", "/")
            at_start = memory(proc.pid)
            tablets = [Tablet(port) for _ in range(args.tablets)]
            for t in tablets:
                t.start()
            status, out = api.call("POST", "/api/games", {"engine": "scoop1956", "players": PLAYERS})
            assert status == 201, out
            t0 = time.monotonic()
            moves = refused = undos = 0
            games = 1
            while moves < args.moves:
                status, cur = api.call("GET", "/api/games/current")
                game = cur["game"]
                if not [o for o in game["offers"] if o["type"] != "go_to_press"]:
                    # the game ended by itself (everyone else bankrupt): keep it and start the next
                    kind = "finish" if not game["offers"] else "abandon"
                    api.call("POST", "/api/games/current/" + kind, {"version": game["version"]})
                    status, out = api.call("POST", "/api/games", {"engine": "scoop1956", "players": PLAYERS})
                    assert status == 201, out
                    games += 1
                    continue
                if rng.random() < 0.05 and game["undo"]:
                    status, _ = api.call("POST", "/api/games/current/undo", {"version": game["version"]})
                    undos += status == 200
                    moves += status == 200
                    continue
                offers = [o for o in game["offers"] if o["type"] != "go_to_press"]
                action = fill(rng.choice(offers), rng)
                status, _ = api.call("POST", "/api/games/current/actions", {"action": action, "version": game["version"]})
                if status == 200:
                    moves += 1
                else:
                    refused += 1
            played = time.monotonic() - t0
            after_game = memory(proc.pid)
            game_id = api.call("GET", "/api/games/current")[1]["game"]["id"]
            for path in ("/api/games/%d/chart" % game_id, "/api/games/%d" % game_id, "/", "/history"):
                api.call("GET", path)
            version = api.call("GET", "/api/games/current")[1]["game"]["version"]
            api.call("POST", "/api/games/current/abandon", {"version": version})
            for path in ("/api/games/%d/chart" % game_id, "/api/games/%d/bgstats.json" % game_id,
                         "/games/%d" % game_id, "/api/games/stats"):
                api.call("GET", path)
            at_end = memory(proc.pid)
            events = min(t.events for t in tablets)
            for t in tablets:
                t.stop = True
            store = Path(data) / "newsdesk.sqlite3"
            size = sum(p.stat().st_size for p in store.parent.glob("newsdesk.sqlite3*"))
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    print("SCOOP (1956), 4 players: %d moves in %d game%s (%d undos, %d refused by the rules) in %.1f s; "
          "%d live streams, each got %d events" % (moves, games, "" if games == 1 else "s", undos, refused, played,
                                                   args.tablets, events))
    print("server resident memory (MB):  at start %.1f   after the game %.1f   after chart/history/abandon %.1f   "
          "peak %.1f" % (at_start["VmRSS"], after_game["VmRSS"], at_end["VmRSS"], at_end["VmHWM"]))
    print("store on disk: %.1f MB (SQLite file and WAL)" % (size / 1e6))


if __name__ == "__main__":
    main()
