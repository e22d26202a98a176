"""The dice and stopwatch buttons on the Pi's GPIO: raw timestamped edges in, debounced presses out.

Two parts, as for the phone:

* ``ButtonPins``: a gpiozero InputDevice per button with bounce_time None; gpiozero calls
  ``pin.when_changed(ticks, level)`` on its thread and the edge is handed on, stamped with the
  pin's own tick mapped onto our clock (TickClock), never with the time software noticed it.
* ``ButtonListener``: each button's pure ButtonLogic on one worker thread (controller/worker.py),
  fed the edges and advanced at its deadlines; it calls ``on_press(Press)``.
A person pressing them without a Pi is ``hw.simulated.SimulatedButtons``, played onto the
MockFactory pins ButtonPins listens to, so simulated presses run the same code as real ones.
"""

import logging
import time

from ..oracles.presses import ButtonLogic
from ..worker import Worker
from .contacts import ContactPins

log = logging.getLogger(__name__)

BUTTONS = ("dice_button", "stopwatch_button")


class ButtonPins(ContactPins):
    """The buttons named in ``names``, wired per the pin map. ``sink(t, name, state)`` gets every
    raw edge on gpiozero's thread, so it should only enqueue (ButtonListener.edge does)."""

    what = "buttons"

    def __init__(self, pinmap, sink, pin_factory, clock=time.monotonic, names=BUTTONS):
        super().__init__(pinmap, sink, pin_factory, clock=clock, names=names)


class ButtonListener:
    """Runs each button's ButtonLogic live: edges from any thread, deadlines on a real clock, on
    one worker thread (controller/worker.py) that owns every button's logic.

    ``lag`` holds a deadline back a little so an edge already on its way (stamped before the
    deadline, delivered after it) is still seen first.
    """

    def __init__(self, on_press, names=BUTTONS, clock=time.monotonic, settle=0.005, hold_time=1.0,
                 lag=0.002):
        self._on_press = on_press
        self._logic = {name: ButtonLogic(name, settle=settle, hold_time=hold_time) for name in names}
        self._worker = Worker("buttons", self._feed, self._advance, self._deadline, self._emit, clock=clock,
                              lag=lag, idle=1.0)

    def edge(self, t, name, state):
        self._worker.put((t, name, state))

    def start(self, initial=None):
        """Start the worker; ``initial`` maps buttons to their state now (one held at power-up
        counts as pressed, so its release isn't taken for a press)."""
        for name, state in (initial or {}).items():
            if name in self._logic:
                self._logic[name] = ButtonLogic(name, self._logic[name].settle, self._logic[name].hold_time,
                                                state=state)
        self._worker.start()

    def stop(self):
        self._worker.stop()

    def _feed(self, item):
        t, name, state = item
        logic = self._logic.get(name)
        return [] if logic is None else logic.feed(t, state)

    def _advance(self, now):
        return [press for logic in self._logic.values() for press in logic.advance(now)]

    def _deadline(self):
        times = [d for d in (logic.deadline() for logic in self._logic.values()) if d is not None]
        return min(times) if times else None

    def _emit(self, presses):
        for press in presses:
            try:
                self._on_press(press)
            except Exception:
                log.exception("handling %r failed", press)
