"""The game wing's speed, side by side with an earlier commit, in one run: the same random legal
games played through each tree's own engines, and the start form's catalogue built from each
tree's registry.

    .venv/bin/python bench/game_wing.py [--base REV] [--games N] [--rounds R]

The earlier commit (default: the last one before the games became packages found by entry point)
is checked out into a temporary git worktree; each tree is measured in a child process of its
own, with its own tests/games/play.py (the random player the tests use), after a first run that
compiles each tree's bytecode, alternating old and new ``--rounds`` times so a busy machine
weighs on both alike. Printed: per game, the median
microseconds per move (decide + apply) over the same seeded walks; the catalogue's milliseconds;
the median of a SCAN hand through the game session and its store (as the panel makes one);
and the cold import of the registry with every game loaded (importlib.metadata already imported,
as Flask and gpiozero have it in the panel's process).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASE = "d098d21"        # the last commit with one module per game and a hard-coded list of games
HAND = {"type": "hand", "taken": {"Ann & Cat": {"spades": 7, "hearts": 6, "diamonds": 6, "clubs": 7},
                                  "Bob & Dan": {"spades": 6, "hearts": 7, "diamonds": 7, "clubs": 6}}}


def measure(games, seed=7, steps=150):
    """In the child: this tree's figures, as JSON on stdout."""
    import importlib.metadata  # noqa: F401  (as in the panel, where Flask and gpiozero have imported it already)
    started = time.perf_counter()
    from controller.games import catalogue, registry
    for name in registry.names():
        registry.load(name)
    cold_ms = (time.perf_counter() - started) * 1000
    sys.path.insert(0, str(Path.cwd() / "tests" / "games"))
    import random

    import play
    per_move, counted = {}, {}
    for engine, names, options in play.TABLES:
        key = getattr(engine, "NAME", None) or getattr(engine, "name", None) or engine.GAME.name
        rng = random.Random(seed)
        moves, took = 0, 0.0
        for _ in range(games):
            state = play.start(engine, names, options)
            t0 = time.perf_counter()
            moves += sum(1 for _ in play.walk(engine, state, rng, steps)) - 1
            took += time.perf_counter() - t0
        per_move.setdefault(key, []).append(took / max(1, moves) * 1e6)
        counted[key] = counted.get(key, 0) + moves
    t0 = time.perf_counter()
    for _ in range(20):
        catalogue.start_form()
    form_ms = (time.perf_counter() - t0) / 20 * 1000
    print(json.dumps({"cold_ms": cold_ms, "form_ms": form_ms, "session_ms": session_moves(),
                      "move_us": {k: statistics.mean(v) for k, v in per_move.items()}, "moves": counted}))


def session_moves(moves=60):
    """The median milliseconds of a move through the game session, as the panel makes one: the
    engine's decision, the store's fsync'd write, the view and offers read again (a SCAN hand that
    leaves the scores where they were, so the game never ends)."""
    import random
    import tempfile

    from controller.bus import Bus
    from controller.game_session import GameSession
    from controller.journal import Journal
    from controller.store import Store
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite3")
        try:
            games = GameSession(Journal(store, Bus()), random.Random(1))
            games.start("scan", [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")], {"variant": "team"})
            took = []
            for _ in range(moves):
                t0 = time.perf_counter()
                games.act(HAND, games.version)
                took.append((time.perf_counter() - t0) * 1000)
            return statistics.median(took)
        finally:
            store.close()


def run(tree, games):
    # one hash seed for both: a set's order decides which offer a seeded walk takes, so without it
    # each process would play other games, some longer than others
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", "--games", str(games)],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit("measuring %s failed:\n%s" % (tree, done.stderr[-3000:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help="the earlier commit to compare with (default %(default)s)")
    parser.add_argument("--games", type=int, default=20, help="seeded random games per table per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.games)
        return
    with tempfile.TemporaryDirectory(prefix="newsdesk-base-") as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet", str(old), args.base],
                       check=True)
        try:
            rounds = {"old": [], "new": []}
            run(old, 1), run(REPO, 1)         # a first run compiles each tree's bytecode: not measured
            for _ in range(args.rounds):
                rounds["old"].append(run(old, args.games))
                rounds["new"].append(run(REPO, args.games))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old)], check=True)
    median = {side: dict({key: statistics.median(r[key] for r in runs) for key in ("cold_ms", "form_ms", "session_ms")},
                         move_us={k: statistics.median(r["move_us"][k] for r in runs) for k in runs[0]["move_us"]})
              for side, runs in rounds.items()}
    print("game wing, %s (old) vs the working tree (new): medians of %d rounds, %d seeded games per table"
          % (args.base, args.rounds, args.games))
    print("%-28s %10s %10s %8s" % ("", "old", "new", "new/old"))
    rows = [("registry + 5 games, cold (ms)", "cold_ms"), ("start form catalogue (ms)", "form_ms"),
            ("a move through the session (ms)", "session_ms")]
    for label, key in rows:
        o, n = median["old"][key], median["new"][key]
        print("%-28s %10.2f %10.2f %8.2f" % (label, o, n, n / o))
    for name, o in median["old"]["move_us"].items():
        n = median["new"]["move_us"].get(name)
        if n is not None:
            print("%-28s %10.1f %10.1f %8.2f" % ("%s: per move (µs)" % name, o, n, n / o))
    same = rounds["old"][0]["moves"] == rounds["new"][0]["moves"]
    print("moves played per round: %s (%s)" % (rounds["new"][0]["moves"], "the same games in both trees" if same
                                               else "OTHER GAMES: old played %s" % rounds["old"][0]["moves"]))


if __name__ == "__main__":
    main()
