"""The phone's window: the CPU a frame takes to draw (controller/hw/display.py, ``render``), for
this tree and any other (``--tree``, a git worktree of an older commit, say), side by side in one
run, and whether the trees draw the very same pixels. Prints figures; asserts nothing.

    .venv/bin/python bench/window_frames.py [--frames 300] [--tree DIR ...]

Each tree runs in a fresh interpreter of its own. The views are the ones the window shows: a
roll of 2d6 and of 1d10, a verdict, and the running stopwatch (drawn 20 times a second while it
runs, so its frame is the one a Pi Zero 2 W feels most). The pixels compared are those of every
verdict, dice and stopwatch view and the idle view with and without the panel's address.

Then what sending those frames to the Pi's SSD1306 costs (a serial interface that counts what
would go on the I2C bus stands in for the bus): luma.oled's own ``ssd1306`` (what the window used
before controller/hw/ssd1306.py) and the tree's window device, side by side: the CPU a frame and
the data bytes a frame, for the running stopwatch (two seconds of its frames, 20 a second) and
for a table's frames (a roll, a verdict, a roll...), with the time those bytes take on the bus at
the Pi's default 100 kHz (9 clocks a byte, the transaction's address and control byte included).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from panel_common import ROOT

I2C_HZ = 100_000        # the Pi's I2C bus at its default clock (docs/wiring.md, "The display")

PROBE = r'''
import hashlib, json, sys, time
from controller import events
from controller.hw import display
from controller.oracles.editor import SIGNALS

def view(message):
    return display.next_view(dict(display.IDLE), message)

timed = {
    "a roll of 2d6": (view({"type": events.DICE_ROLL, "data": {"dice": "2d6", "faces": [3, 5], "total": 8, "sides": 6}}), None),
    "a roll of 1d10": (view({"type": events.DICE_ROLL, "data": {"dice": "1d10", "faces": [7], "total": 7, "sides": 10}}), None),
    "a verdict": (view({"type": events.VERDICT, "data": {"signal": "SCOOP", "digit": 3}}), None),
    "the running stopwatch": (view({"type": events.STOPWATCH_STARTED,
                                    "data": {"mode": "stopwatch", "t": 0.0, "elapsed": 0.0}}), 12.34),
}
out = {}
for name, (v, now) in timed.items():
    for _ in range(3):
        display.render(v, now=now)
    start = time.process_time()
    for _ in range(FRAMES):
        display.render(v, now=now)
    out[name] = (time.process_time() - start) / FRAMES

pixels = hashlib.sha256()
shown = [{"type": events.VERDICT, "data": {"signal": s, "digit": d}} for s in SIGNALS for d in (None, 0, 7)]
shown += [{"type": events.DICE_ROLL, "data": {"dice": "%dd%d" % (n, k), "faces": [min(k, 1 + i) for i in range(n)],
                                              "total": 9, "sides": k}} for n in (1, 2, 3) for k in (4, 6, 10, 12, 20)]
shown += [{"type": events.DICE_SET, "data": {"dice": d}} for d in ("1d6", "2d6", "3d6", "1d10", "1d20")]
for message in shown:
    pixels.update(display.render(view(message)).tobytes())
running = view({"type": events.STOPWATCH_STARTED, "data": {"mode": "stopwatch", "t": 0.0, "elapsed": 0.0}})
for now in (0.0, 1.23, 59.99, 3600.5):
    pixels.update(display.render(running, now=now).tobytes())
pixels.update(display.render(dict(display.IDLE)).tobytes())
address = display.address_lines(["http://raspberrypi.local:8080/", "http://192.168.100.123:8080/"])
pixels.update(display.render(dict(display.IDLE, address=address)).tobytes())

import warnings
warnings.simplefilter("ignore")             # luma's ssd1306 reads pixels with a getdata Pillow deprecates
from luma.oled.device import ssd1306
devices = {"luma.oled's ssd1306": ssd1306}
try:
    from controller.hw.ssd1306 import SSD1306
    devices["this tree's window device"] = SSD1306
except ImportError:                         # a tree from before it
    pass

class Bus:
    """luma's serial interface, counting the data bytes and the transactions."""
    def __init__(self):
        self.bytes = self.writes = 0
    def command(self, *cmd):
        self.bytes += len(cmd)
        self.writes += 1
    def data(self, data):
        self.bytes += len(data)
        self.writes += 1
    def cleanup(self):
        pass

sequences = {
    "the running stopwatch": [display.render(running, now=i / 20) for i in range(40)],
    "a table's frames": [display.render(view(m)) for m in shown[::3]],
}
sent = {}
for device_name, make in devices.items():
    for name, images in sequences.items():
        bus = Bus()
        device = make(bus)
        for image in images[:3]:
            device.display(image)
        bus.bytes = bus.writes = 0
        rounds = max(1, FRAMES // len(images))
        start = time.process_time()
        for _ in range(rounds):
            for image in images:
                device.display(image)
        took = (time.process_time() - start) / (rounds * len(images))
        sent["%s|%s" % (device_name, name)] = (took, bus.bytes / (rounds * len(images)), bus.writes / (rounds * len(images)))
print(json.dumps({"ms": out, "pixels": pixels.hexdigest(), "frames": len(shown) + 6, "sent": sent}))
'''


def measure(tree, frames):
    done = subprocess.run([sys.executable, "-c", PROBE.replace("FRAMES", str(frames))], cwd=tree,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit("%s: %s" % (tree, done.stderr.strip().splitlines()[-1:]))
    return json.loads(done.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=300, help="frames drawn per view (default 300)")
    ap.add_argument("--tree", action="append", default=[], type=Path, help="another source tree (repeatable)")
    args = ap.parse_args(argv)
    trees = [ROOT] + [t.resolve() for t in args.tree]
    results = {tree: measure(tree, args.frames) for tree in trees}
    names = list(results[ROOT]["ms"])
    print("CPU a frame of the window (128 x 64, 1 bit), %d frames each, in a fresh interpreter per tree" % args.frames)
    print("%-28s" % "" + "".join("%24s" % n for n in names))
    for tree, got in results.items():
        print("%-28s" % ("this tree" if tree == ROOT else str(tree)[-28:])
              + "".join("%21.3f ms" % (got["ms"][n] * 1000) for n in names))
    print()
    print("Sending the frames to the Pi's SSD1306 (I2C at 100 kHz): each tree's window device beside luma.oled's own")
    print("%-28s %-28s %-22s %12s %14s %16s" % ("", "device", "frames", "CPU a frame", "bytes a frame", "bus a frame"))
    for tree, got in results.items():
        for key, (took, sent, writes) in got.get("sent", {}).items():
            device, frames = key.split("|")
            print("%-28s %-28s %-22s %9.3f ms %14.0f %13.1f ms" % (
                "this tree" if tree == ROOT else str(tree)[-28:], device, frames, took * 1000, sent,
                (sent + 2 * writes) * 9 / I2C_HZ * 1000))
    for tree, got in results.items():
        if tree != ROOT:
            same = got["pixels"] == results[ROOT]["pixels"]
            print("%s draws %s pixels as this tree (%d views compared)" % (
                tree, "the same" if same else "DIFFERENT", got["frames"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
