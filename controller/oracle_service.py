"""The oracle service: a button press in, an oracle's result stored and then shown everywhere.

Through the table's journal (journal.py): decide (the pure oracle, with the box's random
source), append to the store (committed), then publish the stored event on the bus, under the
one lock, so the bus hands out events in the order of their ids. The dice button rolls on a short press
(decided at its release) and steps to the next dice on a long one; the stopwatch button starts
and stops the stopwatch (or rolls a d10) on each press, timed from the press's first edge.

Stored kinds: dice.roll, dice.set, stopwatch.roll, stopwatch.set. Live only (not stored; the
state endpoint says the same): stopwatch.started, stopwatch.reset, oracle.fault.
"""

import logging
import threading
import time

from . import events
from .errors import StoreError
from .oracles.dice import DEFAULT_CHOICES, DiceChoices
from .oracles.presses import DOWN, HELD, UP
from .oracles.stopwatch import MODES, Stopwatch, centiseconds, shown
from .oracles.tally import Tallies

log = logging.getLogger(__name__)

HISTORY = {"dice": events.DICE_ROLL, "stopwatch": events.STOPWATCH_ROLL, "editor": events.VERDICT}
DICE_BUTTON, STOPWATCH_BUTTON = "dice_button", "stopwatch_button"
BY_BUTTON = "button"    # a result's source when one of the table's buttons (or the simulated ones) made it


class OracleService:
    """``journal``: the table's (journal.py), so stored events reach the bus in id order; ``rng``:
    the random source (secrets.SystemRandom() in the box); ``leds``: OracleLeds or None;
    ``clock``: the clock the button edges are stamped on (for the running stopwatch's reading)."""

    def __init__(self, journal, rng, dice_choices=DEFAULT_CHOICES, dice=None, stopwatch_mode="stopwatch",
                 leds=None, clock=time.monotonic):
        self.journal = journal
        self.store = store = journal.store
        self._rng = rng
        self._lock = journal.lock
        self.leds = leds
        self._clock = clock
        last = store.latest(events.DICE_SET)
        if last and isinstance(last[0].payload.get("dice"), str):
            dice = last[0].payload["dice"]        # what was set last survives a restart
        self.dice = DiceChoices(dice_choices, current=dice)
        last = store.latest(events.STOPWATCH_SET)
        if last and last[0].payload.get("mode") in MODES:
            stopwatch_mode = last[0].payload["mode"]
        self.stopwatch = Stopwatch(stopwatch_mode)
        self._tallies = Tallies(session_after=store.last_id())
        self._tally_lock = threading.Lock()

    # ------------------------------------------------------------ the buttons

    def on_press(self, press):
        """Called by the button listener's thread with each debounced Press."""
        if press.button == DICE_BUTTON:
            if press.kind == HELD:
                self.next_dice(source=BY_BUTTON)
            elif press.kind == UP and not press.long:
                self.roll(source=BY_BUTTON)
        elif press.button == STOPWATCH_BUTTON and press.kind == DOWN:
            self.stopwatch_press(press.t, source=BY_BUTTON)

    # ------------------------------------------------------------ the oracles

    def _store_and_publish(self, kind, payload):
        try:
            return self.journal.record(kind, payload)
        except StoreError as e:
            log.error("a %s was decided but not stored: %s", kind, e)
            self.journal.tell(events.ORACLE_FAULT, {
                "kind": kind, "result": payload,
                "message": "The %s could not be saved, so it doesn't count: %s. Try again." % (kind, e)})
            raise

    def roll(self, source="panel"):
        """Roll the dice that are set; returns the stored event."""
        with self._lock:
            roll = self.dice.current.roll(self._rng)
            payload = roll.as_dict()
            payload["source"] = source
            event = self._store_and_publish(events.DICE_ROLL, payload)
        log.info("dice (%s): %s", source, payload["said"])
        if self.leds is not None:
            self.leds.rolled()
        return event

    def _dice_set(self, source):
        return self._store_and_publish(events.DICE_SET, {"dice": self.dice.current.name, "source": source,
                                                  "choices": [d.name for d in self.dice.choices]})

    def next_dice(self, source="panel"):
        with self._lock:
            self.dice.next()
            return self._dice_set(source)

    def set_dice(self, dice, source="panel"):
        """Set the dice to ``dice`` (NdM); OracleSettingError if it isn't dice."""
        with self._lock:
            self.dice.set(dice)
            return self._dice_set(source)

    def stopwatch_press(self, t, source="panel"):
        """A press at ``t`` (the edge's time on the box's clock): starts the stopwatch (returns
        None) or stops it / rolls the d10 (returns the stored event)."""
        with self._lock:
            result = self.stopwatch.press(t, self._rng)
            # The LED first, then the news: whoever hears "started" (or the roll) finds the LED
            # already saying so. Told first, a page, the window or a test could look between the two.
            if "digit" not in result:          # the first press: the stopwatch now runs
                if self.leds is not None:
                    self.leds.stopwatch(True)
                self.journal.tell(events.STOPWATCH_STARTED, {
                    "mode": "stopwatch", "t": t, "elapsed": max(0.0, self._clock() - t), "source": source})
                return None
            payload: dict[str, object] = {key: result[key] for key in ("mode", "digit", "centiseconds", "shown", "elapsed")
                       if key in result}
            payload["source"] = source
            if self.leds is not None:
                self.leds.stopwatch(False)
            event = self._store_and_publish(events.STOPWATCH_ROLL, payload)
        log.info("stopwatch (%s): %s -> %d", source, payload.get("shown", "d10"), payload["digit"])
        return event

    def reset_stopwatch(self):
        with self._lock:
            was = self.stopwatch.running
            self.stopwatch.reset()
            if was:
                self.journal.tell(events.STOPWATCH_RESET, {})
        if self.leds is not None:
            self.leds.stopwatch(False)
        return was

    def set_stopwatch_mode(self, mode, source="panel"):
        """OracleSettingError for an unknown mode, OracleBusy while the stopwatch runs."""
        with self._lock:
            self.stopwatch.mode = mode
            return self._store_and_publish(events.STOPWATCH_SET, {"mode": mode, "source": source})

    # ------------------------------------------------------------ what the panel reads

    def state(self):
        with self._lock:
            reading = self.stopwatch.reading(self._clock())
            return {
                "dice": {"current": self.dice.current.name, "choices": [d.name for d in self.dice.choices]},
                "stopwatch": {"mode": self.stopwatch.mode, "running": self.stopwatch.running,
                              "elapsed": reading, "shown": None if reading is None else shown(centiseconds(reading))},
            }

    def history(self, oracle, limit=50):
        """The newest ``limit`` results of ``oracle`` (dice, stopwatch or editor), newest first."""
        return [e.as_dict() for e in self.store.latest(HISTORY[oracle], limit)]

    def distributions(self, oracle=None):
        """Observed distributions for this session and all time, brought up to date from the store."""
        with self._tally_lock:
            while True:
                batch = self.store.since(self._tallies.last_id, limit=500)
                for ev in batch:
                    self._tallies.add(ev.id, ev.kind, ev.payload)
                if len(batch) < 500:
                    break
            return self._tallies.report(oracle)
