"""Oracle latency: from the button's pin edge to the result arriving on the live stream.

The whole path of the box, on gpiozero's MockFactory pins: the pin's edge (stamped by the pin),
the button listener and its debouncer, the oracle, the SQLite append (WAL, synchronous=FULL, in a
temporary folder), the bus, and /stream's Server-Sent Events read by a client. Prints figures;
asserts nothing.

    python bench/oracle_latency.py [--presses 200] [--settle 0.005]

For the stopwatch the edge is the stopping press's first edge; for the dice it is the release
that ends a short press (a short press is only known to be short once it is released).
"""

import argparse
import json
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from flask import Flask
from gpiozero.pins.mock import MockFactory

from controller.bus import Bus
from controller.hw.buttons import ButtonListener, ButtonPins
from controller.journal import Journal
from controller.oracle_service import OracleService
from controller.pinmap import load_pinmap
from controller.store import Store
from web_ui import stream


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def read_stream(client, out, ready):
    resp = client.get("/stream", buffered=False)
    ready.set()
    try:
        for chunk in resp.response:
            now = time.monotonic()
            for line in chunk.decode("utf-8").splitlines():
                if line.startswith("data: "):
                    message = json.loads(line[6:])
                    out.put((now, message))
                    if message.get("type") == "bench.done":
                        return
    finally:
        resp.close()


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
        app = Flask("bench")
        app.config.update(STREAM_KEEPALIVE=0.5, TESTING=True)
        app.extensions["newsdesk"] = types.SimpleNamespace(store=store, bus=bus)
        app.register_blueprint(stream.bp)
        got = queue.Queue()
        ready = threading.Event()
        reader = threading.Thread(target=read_stream, args=(app.test_client(), got, ready), daemon=True)
        reader.start()
        ready.wait(5)
        deadline = time.monotonic() + 5
        while bus.subscriber_count == 0 and time.monotonic() < deadline:
            time.sleep(0.001)        # the stream subscribes when its response first runs

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
