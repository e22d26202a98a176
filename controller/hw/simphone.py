"""The simulated phone: a person lifting the handset and dialing, played onto MockFactory pins.

It drives the very pins PhonePins listens to, in real time, so the decoder, the listener and
everything above run exactly as they would on a Pi. Pulse trains come from dial.pulses.
"""

import logging
import queue
import threading
import time

from ..dial.pulses import digit_edges

log = logging.getLogger(__name__)


class PlayClock:
    """The time as the simulated person's schedule has it, for whatever times the phone's edges.

    A pulse train is a schedule (break 60 ms, make 40 ms, ...), played by a thread that a busy
    machine can wake late. Left alone that has two effects no real dial has: the edges after a
    late one come in a rush (a make squeezed to nothing, read as bounce), and the listener,
    seeing silence, ends a digit in the middle of its train. So the phone stamps each edge with
    the time it was due, and this clock, while a train is playing, never runs past the next edge
    due: the decoder waits for that edge however late the thread is. Between trains (and on a
    real phone, which doesn't use it) it is the plain clock.
    """

    __slots__ = ("_clock", "_hold")

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._hold = None

    def __call__(self):
        now = self._clock()
        hold = self._hold
        return now if hold is None or now < hold else hold

    def hold(self, due):
        """Don't pass ``due`` (the next edge's time) until ``release`` or the next ``hold``."""
        self._hold = due

    def release(self):
        self._hold = None


def _drive_at(pin, high, at):
    """Drive a MockPin, its edge stamped ``at`` rather than the moment the thread got to it
    (gpiozero's MockPin stamps with monotonic() when driven, as its drive_high does)."""
    if pin._change_state(high):
        pin._last_change = at
        if pin._edges in ("both", "rising" if high else "falling") and pin._when_changed is not None:
            pin._call_when_changed()


class SimulatedPhone:
    """Queues a person's actions and plays them on a worker thread, one at a time.

    ``play_clock``, when given, is the PlayClock the phone's listener reads (see PlayClock)."""

    def __init__(self, phone_pins, pps=10.0, break_ratio=0.6, dial_map="standard", offnormal=True,
                 sleep=time.sleep, clock=time.monotonic, play_clock=None):
        self._pins = phone_pins
        self._play_clock = play_clock
        self.pps = pps
        self.break_ratio = break_ratio
        self.dial_map = dial_map
        self.offnormal = offnormal
        self._sleep = sleep
        self._clock = clock
        self._actions = queue.Queue()
        for line in phone_pins.states():
            self._drive(line, 0)  # a phone at rest: on the cradle, dial home, pulse contacts closed
        self._hook = 0
        self._busy = threading.Event()
        self._thread = threading.Thread(target=self._run, name="simulated-phone", daemon=True)
        self._thread.start()

    @property
    def off_hook(self):
        return bool(self._hook)

    def lift(self):
        self._actions.put(("hook", 1))

    def hang_up(self):
        self._actions.put(("hook", 0))

    def dial(self, digit):
        """Dial ``digit`` (0-9); lifts the handset first if it is on the cradle."""
        if not (isinstance(digit, int) and not isinstance(digit, bool) and 0 <= digit <= 9):
            raise ValueError("a dial digit is 0 to 9, not %r" % (digit,))
        self._actions.put(("digit", digit))

    def is_idle(self):
        """True once every queued action has been played."""
        return self._actions.unfinished_tasks == 0

    def idle(self):
        """Wait until every queued action has been played (for tests and the CLI)."""
        self._actions.join()

    def close(self):
        self._actions.put(None)

    def _drive(self, line, state, at=None):
        spec = self._pins.spec(line)
        pin = self._pins.pin(line)
        if at is not None and hasattr(pin, "_last_change"):
            _drive_at(pin, spec.level(state), at)
        elif spec.level(state):
            pin.drive_high()
        else:
            pin.drive_low()

    def _play(self, edges):
        """Each edge at its time in the schedule, stamped with that time (see PlayClock)."""
        start = self._clock()
        t0 = edges[0][0]
        try:
            for t, line, state in edges:
                due = start + (t - t0)
                if self._play_clock is not None:
                    self._play_clock.hold(due)
                delay = due - self._clock()
                if delay > 0:
                    self._sleep(delay)
                self._drive(line, state, at=due)
        finally:
            if self._play_clock is not None:
                self._play_clock.release()

    def _run(self):
        while True:
            action = self._actions.get()
            try:
                if action is None:
                    return
                kind, value = action
                if kind == "hook":
                    if value != self._hook:
                        self._drive("hook", value)
                        self._hook = value
                        self._sleep(0.3)  # a person doesn't dial the instant the handset moves
                else:
                    if not self._hook:
                        self._drive("hook", 1)
                        self._hook = 1
                        self._sleep(0.4)
                    edges, _ = digit_edges(value, pps=self.pps, break_ratio=self.break_ratio,
                                           dial_map=self.dial_map, offnormal=self.offnormal, wind_up=0.25)
                    self._play(edges)
                    self._sleep(0.35)  # the finger goes back to the next hole
            except Exception:
                log.exception("the simulated phone failed to play %r", action)
            finally:
                self._actions.task_done()
