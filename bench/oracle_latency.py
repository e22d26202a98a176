"""Oracle latency: from the button's pin edge to the result arriving on the live stream.

The whole path of the box, on gpiozero's MockFactory pins: the pin's edge (stamped by the pin),
the button listener and its debouncer, the oracle, the SQLite append (WAL, synchronous=FULL, in a
temporary folder), the bus, and the live feed's event loop (web_ui/live.py: the message crosses
onto the loop, is written as /stream's Server-Sent Events and queued for a page; the socket's
write is left out). Prints figures; asserts nothing.

    python bench/oracle_latency.py [--presses 200] [--settle 0.005]

For the stopwatch the edge is the stopping press's first edge; for the dice it is the release
that ends a short press (a short press is only known to be short once it is released).
"""

import argparse
import asyncio
import json
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gpiozero.pins.mock import MockFactory

from controller.bus import Bus
from controller.hw.buttons import ButtonListener, ButtonPins
from controller.journal import Journal
from controller.oracle_service import OracleService
from controller.pinmap import load_pinmap
from controller.store import Store
from web_ui import live


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def read_stream(bus, out, ready):
    """One open page's feed as the panel keeps it: the Hub takes each message onto an event loop,
    writes it as Server-Sent Events once and queues it for the page (the Feed)."""
    async def follow():
        hub = live.Hub(bus, asyncio.get_running_loop())
        feed = live.Feed(None, 0.0)
        hub.feeds.add(feed)
        ready.set()
        try:
            while True:
                await feed.ready.wait()
                feed.ready.clear()
                now = time.monotonic()
                while feed.queue:
                    _, data = feed.queue.popleft()
                    message = json.loads(data.decode("utf-8").split("data: ", 1)[1])
                    out.put((now, message))
                    if message.get("type") == "bench.done":
                        return
        finally:
            hub.close()

    asyncio.run(follow())


def drive(pins, name, state):
    pin = pins.pin(name)
    pin.drive_high() if pins.spec(name).level(state) else pin.drive_low()


def run(presses, settle, seed):
    rng = random.Random(seed)
    factory = MockFactory()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(os.path.join(folder, "bench.sqlite3"))
        bus = Bus()
        oracles = OracleService(Journal(store, bus), random.SystemRandom())
        listener = ButtonListener(oracles.on_press, settle=settle)
        pins = ButtonPins(load_pinmap(), listener.edge, factory)
        listener.start()
        got = queue.Queue()
        ready = threading.Event()
        reader = threading.Thread(target=read_stream, args=(bus, got, ready), daemon=True)
        reader.start()
        ready.wait(5)

        def wait_for(kind):
            while True:
                at, message = got.get(timeout=5)
                if message.get("type") == kind:
                    return at, message

        results = {"stopwatch": [], "dice": []}
        try:
            for _ in range(presses):
                # the stopwatch: press, release, wait a human moment, press (the edge timed), release
                drive(pins, "stopwatch_button", 1)
                wait_for("stopwatch.started")
                time.sleep(0.02)
                drive(pins, "stopwatch_button", 0)
                time.sleep(rng.uniform(0.03, 0.06))
                edge = time.monotonic()
                drive(pins, "stopwatch_button", 1)
                at, _ = wait_for("stopwatch.roll")
                results["stopwatch"].append(at - edge)
                time.sleep(0.02)
                drive(pins, "stopwatch_button", 0)
                time.sleep(0.02)
                # the dice: a short press, timed from its release
                drive(pins, "dice_button", 1)
                time.sleep(rng.uniform(0.03, 0.08))
                edge = time.monotonic()
                drive(pins, "dice_button", 0)
                at, _ = wait_for("dice.roll")
                results["dice"].append(at - edge)
                time.sleep(0.02)
        finally:
            bus.publish({"type": "bench.done", "data": {}})
            reader.join(timeout=5)
            listener.stop()
            pins.close()
            store.close()
            factory.close()
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=200)
    ap.add_argument("--settle", type=float, default=0.005, help="the debouncer's settle time (s)")
    ap.add_argument("--seed", type=int, default=1937)
    args = ap.parse_args(argv)
    results = run(args.presses, args.settle, args.seed)
    print("oracle latency, pin edge -> result on /stream (%d presses each, settle %.1f ms, "
          "SQLite synchronous=FULL)" % (args.presses, args.settle * 1000))
    print("%-10s %9s %9s %9s %9s" % ("oracle", "median", "p99", "max", "min"))
    for name, values in results.items():
        ms = [v * 1000 for v in values]
        print("%-10s %7.2f ms %6.2f ms %6.2f ms %6.2f ms" % (name, statistics.median(ms), quantile(ms, 0.99),
                                                             max(ms), min(ms)))


if __name__ == "__main__":
    main()
