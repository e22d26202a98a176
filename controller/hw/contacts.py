"""Contacts on GPIO pins as raw, timestamped edges in logical states: the phone's and the buttons'.

Debouncing is the pure logic's job (the decoder, the button logic), from raw timestamps, so the
pins have bounce_time=None (gpiozero's backends debounce differently, and lgpio's drops short
pulses). gpiozero calls ``pin.when_changed(ticks, level)`` on its own thread; a contact converts
the tick to our clock and the level to the pin map's logical state and hands the edge on.
"""

import logging
import time

from gpiozero import InputDevice

log = logging.getLogger(__name__)


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


class Contact:
    """One contact: a gpiozero InputDevice and what its levels mean. Owns the handler gpiozero
    holds by weak reference, so it must stay referenced (ContactPins keeps it)."""

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


class ContactPins:
    """The contacts named in ``names``, wired per the pin map. ``sink(t, name, state)`` gets every
    raw edge on gpiozero's thread, so it should only enqueue."""

    what = "contacts"

    def __init__(self, pinmap, sink, pin_factory, clock=time.monotonic, names=()):
        self._contacts = {}
        tick_clock = TickClock(clock)
        try:
            for name in names:
                self._contacts[name] = Contact(pinmap.line(name), sink, tick_clock, pin_factory)
        except Exception:
            self.close()
            raise
        log.info("%s on %s", self.what, ", ".join("%s=%s" % (n, c.spec.gpio) for n, c in self._contacts.items()))

    @property
    def names(self):
        return tuple(self._contacts)

    def states(self):
        """Each contact's logical state now: fed to the logic at start, so a lifted handset or a
        held button counts."""
        return {name: c.state for name, c in self._contacts.items()}

    def pin(self, name):
        return self._contacts[name].device.pin

    def spec(self, name):
        return self._contacts[name].spec

    def close(self):
        for c in self._contacts.values():
            c.close()
        self._contacts = {}
