"""The phone's contacts on the Pi's GPIO: raw, timestamped edges as logical (t, line, state).

Debouncing is the decoder's job, from raw timestamps, so the pins have bounce_time=None
(gpiozero's backends debounce differently, and lgpio's drops short pulses). gpiozero calls
``pin.when_changed(ticks, level)`` on its own thread; we convert to the listener's clock and
hand the edge on, nothing more.
"""

import logging
import time

from gpiozero import InputDevice

from ..pinmap import PHONE_LINES

log = logging.getLogger("newsdesk.hw")


class TickClock:
    """Maps a pin factory's edge ticks onto the listener's clock.

    lgpio stamps edges with its own clock; the decoder is advanced with ``clock()``. The
    offset is the smallest (arrival - tick) seen: arrival is never earlier than the edge.
    A jump of more than a second (the other clock was stepped) re-seeds it.
    """

    __slots__ = ("_clock", "_offset")

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._offset = None

    def __call__(self, ticks):
        arrival = self._clock()
        if ticks is None:
            return arrival
        diff = arrival - ticks
        if self._offset is None or diff < self._offset or diff - self._offset > 1.0:
            self._offset = diff
        return ticks + self._offset


class _Line:
    """One contact: a gpiozero InputDevice and what its levels mean. Owns the handler gpiozero
    holds by weak reference, so it must stay referenced (PhonePins keeps it)."""

    __slots__ = ("spec", "device", "_sink", "_clock", "__weakref__")

    def __init__(self, spec, sink, clock, pin_factory):
        self.spec = spec
        self._sink = sink
        self._clock = clock
        self.device = InputDevice(spec.bcm, pull_up=spec.pull_up,
                                  active_state=None if spec.pull_up is not None else True,
                                  pin_factory=pin_factory)
        try:
            self.device.pin.bounce = None
            self.device.pin.edges = "both"
            self.device.pin.when_changed = self._changed
        except Exception:
            self.device.close()
            raise

    def _changed(self, ticks, level):
        self._sink(self._clock(ticks), self.spec.name, self.spec.logical(level))

    @property
    def state(self):
        return self.spec.logical(self.device.pin.state)

    def close(self):
        self.device.pin.when_changed = None
        self.device.close()


class PhonePins:
    """The dial's pulse and off-normal contacts and the hook switch, wired per the pin map.

    ``sink(t, line, state)`` gets every raw edge; it is called on gpiozero's thread, so it should
    only enqueue (DialListener.edge does).
    """

    def __init__(self, pinmap, sink, pin_factory, clock=time.monotonic, lines=PHONE_LINES):
        self._lines = {}
        tick_clock = TickClock(clock)
        try:
            for name in lines:
                self._lines[name] = _Line(pinmap.line(name), sink, tick_clock, pin_factory)
        except Exception:
            self.close()
            raise
        log.info("phone on %s", ", ".join("%s=%s" % (n, l.spec.gpio) for n, l in self._lines.items()))

    def states(self):
        """Each line's current logical state: fed to the decoder at start, so a lifted handset counts."""
        return {name: line.state for name, line in self._lines.items()}

    def pin(self, name):
        return self._lines[name].device.pin

    def spec(self, name):
        return self._lines[name].spec

    def close(self):
        for line in self._lines.values():
            line.close()
        self._lines = {}
