"""A person at the table, played onto MockFactory pins: lifting the handset, dialing, pressing
the dice and stopwatch buttons.

Both drive the very pins that PhonePins and ButtonPins listen to, in real time, so the decoder,
the button logic, the listeners and everything above them run exactly as they would on a Pi.
One driver, ``SimulatedContacts``, queues a person's actions and plays them one at a time on a
thread of its own; the phone and the buttons each say what one action is. Pulse trains come from
dial.pulses.

A person is never far ahead of their finger: a few digits waiting (DIGITS_AHEAD) and a couple
of presses (PRESSES_AHEAD) are all the panel may ask for before the person has caught up; more
are refused (TooSoon), so that a burst of requests can't keep the phone dialing for minutes.
And hanging up is at once, as on a real phone: the digits not yet dialed are dropped.
"""

import logging
import queue
import threading
import time

from ..dial.pulses import digit_edges
from ..errors import TooSoon

log = logging.getLogger(__name__)

DIGITS_AHEAD = 3    # digits waiting behind the one being dialed: a quick finger on the panel's dial
PRESSES_AHEAD = 2   # presses waiting behind the one being played
RETRY_AFTER_S = 2   # about one digit's time (a 0 is a second of pulses, with the wind-up and return)


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


class SimulatedContacts:
    """Queues a person's actions on ``pins`` (a ContactPins) and plays them, one at a time, on a
    thread called ``name``. Every contact starts at rest (logical 0). A subclass says what one
    action does in ``_play``; an action that fails is logged and the next one is played.

    ``ahead``: how many actions may wait behind the one being played, a person's reach; past it
    an action is refused with TooSoon. None: no limit, for a script that queues a whole number
    at once (``newsdesk dial record --simulate``).

    Closing drops what is still queued and cuts short the action being played (its sleeps end at
    once, and the pins it drives may already be closed): the person has left the table, and a
    stop with digits still queued is not a fault to log."""

    def __init__(self, pins, name, sleep=None, ahead=None):
        self._pins = pins
        self.ahead = ahead
        self._closed = threading.Event()
        self._cut = threading.Event()               # set by a close, or by what drops the queue
        self._sleep = sleep or self._cut.wait       # a pause that a close (or a cut) ends at once
        self._pause = sleep or self._closed.wait    # a pause that only a close ends
        self._lock = threading.Lock()               # one request at a time counts what waits
        self._resume = None                         # the action that ends a cut (see _put_first)
        self._last = None                           # the last action queued, played or not
        self._actions: queue.Queue[tuple[object, ...] | None] = queue.Queue()   # None: closing
        for line in pins.names:
            self._drive(line, 0)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def is_idle(self):
        """True once every queued action has been played."""
        return self._actions.unfinished_tasks == 0

    def idle(self):
        """Wait until every queued action has been played (for tests and the CLI)."""
        self._actions.join()

    def close(self, timeout=2.0):
        """Stop playing: drop what is queued, end the action in progress, and wait (``timeout``
        seconds at most) for the thread, so nothing drives the pins once their owner closes them."""
        self._closed.set()
        self._cut.set()
        self._actions.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _put(self, action, bounded=True):
        """Queue ``action``, unless it adds nothing to what is queued (``_adds_nothing``) or,
        when ``bounded``, ``ahead`` actions already wait (TooSoon says so)."""
        with self._lock:
            if self._adds_nothing(action, self._last):
                return
            waiting = self._actions.qsize()
            if bounded and self.ahead is not None and waiting >= self.ahead:
                raise TooSoon(self._too_soon(waiting), RETRY_AFTER_S)
            self._actions.put(action)
            self._last = action

    def _adds_nothing(self, action, last):
        """True if ``action``, queued after ``last``, would change nothing (none does, by default)."""
        return False

    def _too_soon(self, waiting):
        """The sentence refusing an action while ``waiting`` actions wait."""
        raise NotImplementedError

    def _put_first(self, action):
        """Drop every action not yet begun, cut short the one being played (``_cut`` ends its
        pauses; ``_play`` says what else cutting it does) and queue ``action`` to be played next."""
        with self._lock:
            closing = False
            while True:
                try:
                    dropped = self._actions.get_nowait()
                except queue.Empty:
                    break
                closing = closing or dropped is None
                self._actions.task_done()
            self._cut.set()
            self._resume = action       # the cut is over when this is played
            self._actions.put(action)
            self._last = action
            if closing:                 # a close under way still ends the thread, after this
                self._actions.put(None)

    def _drive(self, line, state, at=None):
        """Put ``line`` in logical ``state``; ``at``: the time its edge is stamped with."""
        pin = self._pins.pin(line)
        high = self._pins.spec(line).level(state)
        if at is not None and hasattr(pin, "_last_change"):
            _drive_at(pin, high, at)
        elif high:
            pin.drive_high()
        else:
            pin.drive_low()

    def _play(self, action):
        raise NotImplementedError

    def _run(self):
        while True:
            action = self._actions.get()
            try:
                if action is None:
                    return
                if action is self._resume and not self._closed.is_set():
                    self._cut.clear()
                if not self._closed.is_set():
                    self._play(action)
            except Exception:
                if self._closed.is_set():   # cut short by the close: the pins went with it
                    log.debug("%s stopped in the middle of %r", self._thread.name, action)
                else:
                    log.exception("%s failed to play %r", self._thread.name, action)
            finally:
                self._actions.task_done()


class SimulatedPhone(SimulatedContacts):
    """A person with the handset and the dial. ``play_clock``, when given, is the PlayClock the
    phone's listener reads (see PlayClock)."""

    def __init__(self, phone_pins, pps=10.0, break_ratio=0.6, dial_map="standard", offnormal=True,
                 sleep=None, clock=time.monotonic, play_clock=None, ahead=DIGITS_AHEAD):
        self._play_clock = play_clock
        self.pps = pps
        self.break_ratio = break_ratio
        self.dial_map = dial_map
        self.offnormal = offnormal
        self._clock = clock
        self._hook = 0            # a phone at rest: on the cradle, dial home, pulse contacts closed
        super().__init__(phone_pins, "simulated-phone", sleep=sleep, ahead=ahead)

    @property
    def off_hook(self):
        return bool(self._hook)

    def lift(self):
        """Lift the handset (nothing to do if what is queued leaves it lifted: see _adds_nothing)."""
        self._put(("hook", 1))

    def hang_up(self, after_dialing=False):
        """Put the handset on the cradle at once, as a person does, ending the call: the digits
        not yet dialed are dropped and the one being dialed is cut short (see ``_train``).
        ``after_dialing``: once every digit queued has been dialed instead (a script's last step)."""
        if after_dialing:
            self._put(("hook", 0), bounded=False)
        else:
            self._put_first(("hook", 0))

    def dial(self, digit):
        """Dial ``digit`` (0-9); lifts the handset first if it is on the cradle."""
        if not (isinstance(digit, int) and not isinstance(digit, bool) and 0 <= digit <= 9):
            raise ValueError("a dial digit is 0 to 9, not %r" % (digit,))
        self._put(("digit", digit))

    def _adds_nothing(self, action, last):
        """A lift after anything but a hang-up: a digit lifts the handset and leaves it up, so the
        handset is already up once what is queued is played (and a page may ask again and again)."""
        return action == ("hook", 1) and last is not None and last != ("hook", 0)

    def _too_soon(self, waiting):
        return ("The simulated phone still has %d %s to dial before this one: a finger dials one digit at a "
                "time, so try again in a moment, or hang up to drop them." % (waiting, "digit" if waiting == 1 else "digits"))

    def _train(self, edges):
        """Each edge at its time in the schedule, stamped with that time (see PlayClock).

        A hang-up (a cut) before the finger lets go abandons the digit: the dial goes home with
        no pulse, which the decoder takes for no digit at all. Once the pulses have begun the
        dial runs home on its spring whatever the hand does, so they are played to the end
        (stopping them half-way would be read as a smaller digit the person never dialed)."""
        start = self._clock()
        t0 = edges[0][0]
        pulled = let_go = False
        try:
            for t, line, state in edges:
                due = start + (t - t0)
                if self._play_clock is not None:
                    self._play_clock.hold(due)
                delay = due - self._clock()
                if delay > 0:
                    (self._pause if let_go else self._sleep)(delay)
                if self._cut.is_set() and not let_go:
                    if pulled:
                        self._drive("offnormal", 0, at=self._clock())
                    return
                self._drive(line, state, at=due)
                pulled = True
                let_go = let_go or line == "pulse"
        finally:
            if self._play_clock is not None:
                self._play_clock.release()

    def _play(self, action):
        kind, value = action
        if kind == "hook":
            if value != self._hook:
                self._drive("hook", value)
                self._hook = value
                self._sleep(0.3)  # a person doesn't dial the instant the handset moves
            return
        if self._cut.is_set():      # taken off the queue just before a hang-up dropped it
            return
        if not self._hook:
            self._drive("hook", 1)
            self._hook = 1
            self._sleep(0.4)
        edges, _ = digit_edges(value, pps=self.pps, break_ratio=self.break_ratio,
                               dial_map=self.dial_map, offnormal=self.offnormal, wind_up=0.25)
        self._train(edges)
        self._sleep(0.35)  # the finger goes back to the next hole


class SimulatedButtons(SimulatedContacts):
    """A person pressing the dice and stopwatch buttons: a tap, or a long press (over the
    listener's hold_time), with the contact's bounce if asked for."""

    def __init__(self, button_pins, sleep=None, tap=0.08, long=1.3, gap=0.05, ahead=PRESSES_AHEAD):
        self.tap = tap              # how long a quick press holds the button down
        self.long = long            # and a long one
        self.gap = gap              # a finger needs this long before it presses again
        super().__init__(button_pins, "simulated-buttons", sleep=sleep, ahead=ahead)

    def press(self, name, long=False, bounce=()):
        """Press and release ``name``; ``bounce``: offsets (s) of extra edges after each change,
        as a real contact makes."""
        if name not in self._pins.names:
            raise ValueError("there is no button %r (buttons: %s)" % (name, ", ".join(self._pins.names)))
        self._put((name, self.long if long else self.tap, tuple(bounce)))

    def _too_soon(self, waiting):
        return ("The simulated buttons still have %d %s to play before this one: a finger presses one at a time, "
                "so press again in a moment." % (waiting, "press" if waiting == 1 else "presses"))

    def _change(self, name, state, bounce):
        self._drive(name, state)
        flip = state
        waited = 0.0
        for offset in bounce:
            self._sleep(max(0.0, offset - waited))
            waited = offset
            flip = 1 - flip
            self._drive(name, flip)
        if flip != state:
            self._drive(name, state)

    def _play(self, action):
        name, hold, bounce = action
        self._change(name, 1, bounce)
        self._sleep(hold)
        self._change(name, 0, bounce)
        self._sleep(self.gap)
