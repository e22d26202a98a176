"""What checking a backup before a restore costs (controller/backup.py, ``stage``: unpack, every
checksum, SQLite's integrity check, the shape, every JSON value, the games' rows, and the copy of
each database into newsdesk's own schema), for this tree and any other (``--tree``, a git
worktree of an older commit), side by side in one run. Prints figures; asserts nothing.

    .venv/bin/python bench/restore_check.py [--events 200000] [--rounds 3] [--tree DIR ...]

One backup is made once, by this tree, of a store holding ``--events`` events (a long-lived box:
games of a few dozen moves each, every move an entry and its event, and the dice and verdicts
between them), and each tree stages it into a fresh folder in a fresh interpreter, ``--rounds``
times; the figure is the median wall time and CPU of ``stage``, with the store's size.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from panel_common import ROOT

MAKE = r'''
import random, sys
from pathlib import Path
from controller import backup
from controller.store import Store, STORE_FILE

data, events, out = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
data.mkdir(parents=True, exist_ok=True)
store = Store(data / STORE_FILE)
rng = random.Random(7)
made = 0
while made < events:
    game, _, _ = store.start_game("scoop1956", [{"name": "Ann"}, {"name": "Bob"}], {},
                                  {"type": "setup", "events": [{"type": "setup", "players": ["Ann", "Bob"]}]})
    made += 1
    for version in range(2, 40):
        store.append_entry(game.id, version - 1, {"type": "claim", "player": rng.randrange(2),
                                                  "said": "Ann claimed a story", "events": [{"n": version}]})
        store.append("dice.roll", {"faces": [rng.randint(1, 6), rng.randint(1, 6)], "total": 7})
        made += 2
    store.end_game(game.id, 39, "finished", ["Ann"], {"standings": [{"name": "Ann", "score": 3}]})
store.close()
backup.make_backup(data, out)
print((data / STORE_FILE).stat().st_size)
'''

STAGE = r'''
import json, sys, time
from controller import backup
wall, cpu = time.perf_counter(), time.process_time()
backup.stage(sys.argv[1], sys.argv[2])
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
'''


def run(tree, code, *args):
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=tree, check=True,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}).stdout


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tree", action="append", default=[], help="another checkout to measure beside this one")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        size = int(run(ROOT, MAKE, tmp / "box", args.events, tmp / "b.zip"))
        print("staging one backup (a store of %d events, %.0f MB, %.1f MB packed) for a restore, %d rounds each: "
              "the median" % (args.events, size / 1e6, (tmp / "b.zip").stat().st_size / 1e6, args.rounds))
        print("%-30s %10s %10s" % ("", "wall", "CPU"))
        trees = [ROOT] + [Path(t) for t in args.tree]
        figures = {tree: [] for tree in trees}
        for n in range(args.rounds):
            for tree in trees:              # alternated, so the machine's moods fall on both
                figures[tree].append(json.loads(run(tree, STAGE, tmp / ("into-%s-%d" % (tree.name, n)), tmp / "b.zip")))
        for tree in trees:
            wall = statistics.median(w for w, _ in figures[tree])
            cpu = statistics.median(c for _, c in figures[tree])
            print("%-30s %9.2fs %9.2fs" % ("this tree" if tree == ROOT else tree, wall, cpu))


if __name__ == "__main__":
    main()
