"""Microsecond ticks that wrap, and an uptime that doesn't.

MicroPython's ``time.ticks_us()`` wraps at 2**30 (about 18 minutes) and must be compared with
``ticks_diff``. Under CPython (the tests' emulator) the same three functions are built here over
``source``, a microsecond counter the emulator may replace, wrapping at the same period so the
wrap is exercised off the Pico too.
"""

try:
    from time import ticks_add, ticks_diff, ticks_us
except ImportError:
    import time

    PERIOD = 1 << 30
    _HALF = PERIOD >> 1

    def source():
        return time.monotonic_ns() // 1000

    def ticks_us():
        return source() & (PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (PERIOD - 1)) - _HALF

    def ticks_add(a, delta):
        return (a + delta) & (PERIOD - 1)


class Uptime(object):
    """Microseconds since it was made, as a plain integer that never wraps.

    ``now()`` must be called at least every nine minutes (half the wrap); the firmware's loop
    calls it every few milliseconds. ``at(ticks)`` dates a raw ``ticks_us()`` stamp taken near
    the last ``now()`` (an edge's, stamped in its interrupt) on the same scale.
    """

    def __init__(self):
        self._last = ticks_us()
        self._us = 0

    def now(self):
        t = ticks_us()
        self._us += ticks_diff(t, self._last)
        self._last = t
        return self._us

    def at(self, ticks):
        return self._us + ticks_diff(ticks, self._last)
