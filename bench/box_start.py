"""What it costs to build the box and close it again (``Newsdesk``, as `newsdesk serve` and every
test that needs a table build it), with the handset's tones synthesized once per process and,
side by side in the same run, synthesized afresh for each box as before.

    .venv/bin/python bench/box_start.py [--boxes N]

Each box gets a data folder of its own, gpiozero's MockFactory, and audio and speech off (as the
tests have them); a box's player synthesizes its tones on its worker thread, so CPU time is
counted for the whole process. "afresh" empties the tones' cache before each box, which is what
each box did when every player kept its own tones. Printed: the median CPU milliseconds and wall
milliseconds per box (build and close), alternating the two ways so a busy machine weighs on both.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from controller.app import Newsdesk  # noqa: E402
from controller.audio.player import synthesized_loop  # noqa: E402
from controller.config import load_config  # noqa: E402


def one_box(folder):
    config = load_config(Path(folder) / "data", environ={}, overrides={"audio": "off", "speech": "off"})
    factory = MockFactory()
    cpu, wall = time.process_time(), time.perf_counter()
    box = Newsdesk(config, pin_factory=factory)
    box.close()
    spent = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    factory.close()
    return spent


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boxes", type=int, default=40)
    args = parser.parse_args(argv)
    figures = {"afresh": [], "once": []}
    with tempfile.TemporaryDirectory() as tmp:
        one_box(Path(tmp) / "warm")                   # imports and first compilations, not counted
        for n in range(args.boxes):
            for way in ("afresh", "once"):
                if way == "afresh":
                    synthesized_loop.cache_clear()
                figures[way].append(one_box(Path(tmp) / ("%s-%d" % (way, n))))
    print("box build and close, median of %d each (audio off, MockFactory)" % args.boxes)
    for way, label in (("afresh", "tones synthesized for each box (before)"),
                       ("once", "tones synthesized once per process (now)")):
        cpu = statistics.median(c for c, _ in figures[way])
        wall = statistics.median(w for _, w in figures[way])
        print("  %-42s CPU %6.1f ms   wall %6.1f ms" % (label, cpu, wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
