"""Measures the serial link against the emulated Pico (firmware/tools/pico_emulator.py) over a
pseudo-terminal: delivery latency, how fast an unplug is noticed, and reconnection times.

    .venv/bin/python firmware/tools/bench_link.py
"""

import logging
import queue
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "firmware" / "tools")]

from pico_emulator import Emulator  # noqa: E402

from controller.serial.bridge import SerialBridge  # noqa: E402


def summary(xs):
    xs = sorted(xs)
    return "median %.1f ms, p95 %.1f ms, max %.1f ms" % (
        statistics.median(xs) * 1e3, xs[int(len(xs) * 0.95)] * 1e3, xs[-1] * 1e3)


def main():
    logging.disable(logging.WARNING)
    events, statuses = queue.Queue(), queue.Queue()

    def wait_status(connected):
        while statuses.get(timeout=5).connected != connected:
            pass

    with Emulator() as emu:
        with SerialBridge(lambda: emu.port, events.put, on_status=statuses.put) as bridge:
            wait_status(True)
            latency = []
            for i in range(200):
                emu.dial(i % 10)        # returns once the firmware has decided and written it
                t0 = time.monotonic()
                events.get(timeout=5)
                latency.append(time.monotonic() - t0)
            noticed, back = [], []
            for _ in range(100):
                t0 = time.monotonic()
                emu.unplug()
                wait_status(False)
                noticed.append(time.monotonic() - t0)
                t0 = time.monotonic()
                emu.plug()
                wait_status(True)
                back.append(time.monotonic() - t0)
            emu.unplug()
            wait_status(False)
            time.sleep(5)                   # long enough for the retries to back off to 1 s
            t0 = time.monotonic()
            emu.plug()
            wait_status(True)
            after_long = time.monotonic() - t0
            stats = dict(bridge.stats)
    print("digit decided on the device -> on_event on the host (200): %s" % summary(latency))
    print("unplug -> 'phone disconnected' (100): %s" % summary(noticed))
    print("replug -> 'phone connected' (100 short unplugs): %s" % summary(back))
    print("replug after a 5 s unplug (retries backed off to 1 s): %.0f ms" % (after_long * 1e3))
    print("bridge counters: %s (the emulator's clock leaps through each dial faster than an "
          "ack travels, so the device resends early; the bridge drops those)" % stats)


if __name__ == "__main__":
    main()
