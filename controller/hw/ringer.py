"""The phone's bell: the pin map's ringer line, pulsed in the ring cadence.

The line lights the optocoupler of the isolated bell driver (a MOSFET and a 12 V solenoid that
strikes the gong; never the bell's own ring voltage). Within each ring the solenoid is struck
``strike_hz`` times a second (hw.bell.ring_steps, pure and tested on its own): held on, it would
strike once and then rest on the gong. One cadence cycle, North American and British::

    north-america  ┌──── 2 s ────┐                         ┌────
                   ┘             └───────── 4 s ───────────┘
    uk             ┌ 0.4 ┐     ┌ 0.4 ┐                     ┌──
                   ┘     └ 0.2 ┘     └─────── 2.0 ─────────┘

A small thread walks the steps against ``clock`` (each step ends at its own deadline, so the
strikes don't drift) and waits on an Event, so ``stop()`` silences the bell at once (mid-ring
too). ``wait`` and ``clock`` can be handed in: tests pass a wait that moves a fake clock instead
of sleeping, and read the steps back from the mock pin's state history.

Leaving: ``close()`` drives the line to off and only then lets go of it, and a ringer that is
never closed (an exception, Ctrl-C or a SystemExit that skips the close) is silenced when the
interpreter exits (SIGTERM and Ctrl-C to ``newsdesk serve`` end in the box's close, which
closes the ringer). On a Pi the kernel keeps a line's last level when a process lets go of it,
so a line let go of mid-strike would hold the solenoid on for as long as the box is powered.
A process killed outright (SIGKILL, a hang, a crash of the interpreter) runs none of this:
only the bell driver's hardware can cover that (docs/build.md, the fail-safe).

The phone-in-a-box variant has its ringer line on the Pico: hand in ``switch``, anything with
``on()`` and ``off()`` (e.g. one that calls the serial bridge's ``set_ringer``), instead of a
pin map. Only the cadence goes over USB then (the switch is held on through each ring); the
Pico's firmware strikes the solenoid itself, at the rate the bridge sends it.

The coil's heat budget: the ringer keeps a running estimate of the coil's temperature
(hw.bell.CoilHeat, with parts.toml's figures at the electrical rules' worst corner). Before each
cycle it looks at where the cycle would take the estimate; past hw.bell.COIL_CEILING_C, the bell
rests (silent, one log line, ``on_rest(True)``) until the estimate has cooled, then rings on
(``on_rest(False)``). And a ring "until answered" ends after RING_TIMEOUT_S, as an exchange's
ring times out. With the Pico's switch the far end strikes at STRIKE_DUTY of each ring, which is
what the estimate counts then.
"""

import atexit
import logging
import threading
import time
import weakref

from gpiozero import OutputDevice

from ..errors import BadRequest, ConfigError, PinMapError
from .bell import STRIKE_DUTY, STRIKE_HZ, CoilHeat, check_strike_hz, load_coil_figures, ring_steps

log = logging.getLogger(__name__)

# (on, off) seconds pairs of one cycle
CADENCES = {
    "north-america": ((2.0, 4.0),),
    "uk": ((0.4, 0.2), (0.4, 2.0)),
}
MAX_RINGS = 100
MAX_ON_S = 10               # seconds a cadence's step may ring (the Pico's firmware stops a ring past it)
RING_TIMEOUT_S = 180.0      # newsdesk's choice: an unanswered ring "until answered" ends after 3 minutes,
                            # about as long as a telephone exchange lets a call ring before it gives up


def _cadence(cadence):
    if isinstance(cadence, str):
        try:
            return CADENCES[cadence]
        except KeyError:
            raise ConfigError("no ring cadence %r (cadences: %s)"
                              % (cadence, ", ".join(sorted(CADENCES)))) from None
    try:
        steps = tuple((float(on), float(off)) for on, off in cadence)
    except (TypeError, ValueError):
        raise ConfigError("a ring cadence is (on, off) pairs of seconds, got %r" % (cadence,)) from None
    if not steps or any(not (0.05 <= on <= MAX_ON_S and 0.05 <= off <= 30) for on, off in steps):
        raise ConfigError("a ring cadence's steps must be 0.05-%d s on and 0.05-30 s off, got %r"
                          % (MAX_ON_S, cadence))
    return steps


def check_times(times):
    """A ring count is 1-100 cycles, or None for until answered; BadRequest otherwise."""
    if times is not None and (isinstance(times, bool) or not isinstance(times, int)
                              or not 1 <= times <= MAX_RINGS):
        raise BadRequest("the phone rings 1 to %d times, or until answered; not %r" % (MAX_RINGS, times))


def _wait(stop, seconds):
    return stop.wait(seconds)


class Ringer:
    """Rings the bell in ``cadence`` (a name from CADENCES, or (on, off) pairs) on the pin map's
    ringer line. ``ring(times)`` rings that many cycles, or until ``stop()`` (RING_TIMEOUT_S at
    most) when None. ``coil``: the coil's thermal figures for the heat budget (hw.bell.CoilFigures;
    hardware/parts.toml's by default); ``on_rest``: told True as the budget rests the bell, False
    as it rings on (from the ringer's thread)."""

    __slots__ = ("cadence", "strike_hz", "steps", "heat", "resting", "on_rest", "_on_share", "_device",
                 "_wait", "_clock", "_lock", "_thread", "_stop", "__weakref__")

    def __init__(self, pinmap=None, pin_factory=None, cadence="north-america", wait=_wait, switch=None,
                 strike_hz=STRIKE_HZ, clock=time.monotonic, coil=None, on_rest=None):
        self.cadence = _cadence(cadence)
        # a handed-in switch is held on through each ring: the far end makes the strikes
        self.strike_hz = 0.0 if switch is not None else check_strike_hz(strike_hz)
        self.steps = ring_steps(self.cadence, self.strike_hz)
        self._on_share = STRIKE_DUTY if switch is not None else 1.0
        self.heat = CoilHeat(coil if coil is not None else load_coil_figures(), clock)
        self.resting = False
        self.on_rest = on_rest         # told True as the bell rests, False as it rings on
        self._wait = wait
        self._clock = clock
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()   # the ring in progress's; each ring() makes its own
        if switch is not None:
            self._device = _Switch(switch)
            return
        spec = pinmap.line("ringer")
        if spec.kind != "output":
            raise PinMapError("%s: [pi.ringer] must be an output, it is %s" % (pinmap.source, spec.kind))
        self._device = OutputDevice(spec.bcm, active_high=spec.active_high, initial_value=False,
                                    pin_factory=pin_factory)
        log.info("ringer on %s (%s)", spec.gpio, "active high" if spec.active_high else "active low")
        # the ringer's thread is a daemon: at exit it stops wherever it is, perhaps mid-strike
        _open.add(self)

    @property
    def period(self):
        """Seconds of one cycle of the cadence."""
        return sum(on + off for on, off in self.cadence)

    @property
    def is_ringing(self):
        with self._lock:
            return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    @property
    def pin(self):
        return self._device.pin

    def ring(self, times=None):
        """Ring ``times`` cycles (1-100), or until stopped; a ring in progress starts over."""
        check_times(times)
        with self._lock:
            self._halt()
            self._stop = stop = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(times, stop), name="ringer",
                                            daemon=True)
            self._thread.start()

    def stop(self):
        """Silence the bell now."""
        with self._lock:
            self._halt()

    def close(self):
        """Silence the bell, drive its line to off, and only then let go of it: whatever fails on
        the way, the line is driven off before it is released."""
        with self._lock:
            _open.discard(self)
            try:
                self._halt()
            finally:
                if not self._device.closed:
                    try:
                        self._device.off()
                    finally:
                        self._device.close()

    def _halt(self):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        if not self._device.closed:
            self._device.off()

    def _run(self, times, stop):
        done = 0
        heat = self.heat
        heat.advance(0.0)               # the coil cooled since the last ring
        started = due = self._clock()
        device = self._device
        share = 0.0                     # the coil's share of on-time since the estimate's last step
        try:
            while times is None or done < times:
                if times is None and self._clock() - started >= RING_TIMEOUT_S:
                    log.info("the phone rang %.0f s unanswered: the bell stops, as an exchange's ring times out",
                             RING_TIMEOUT_S)
                    return
                rest = heat.rest_needed(self.steps, self._on_share)
                if rest and times is None:      # a rest counts towards the ring's timeout
                    rest = min(rest, started + RING_TIMEOUT_S - self._clock())
                if rest:
                    device.off()
                    heat.advance(share)
                    share = 0.0
                    self._rest(True, rest)
                    if self._wait(stop, rest):
                        return
                    heat.advance(0.0)
                    due = self._clock()
                    self._rest(False, rest)
                for level, seconds in self.steps:
                    heat.advance(share)
                    if level:
                        device.on()
                    else:
                        device.off()
                    share = self._on_share if level else 0.0
                    due += seconds
                    if self._wait(stop, max(0.0, due - self._clock())):
                        return
                done += 1
        except Exception:
            # a switch over a serial link can fail mid-ring: say so, and leave the bell to stop()
            log.exception("the ringer failed")
        finally:
            heat.advance(share)
            if self.resting:
                self._rest(False, 0.0)

    def _rest(self, resting, seconds):
        """Say that the bell rests (or rings on again), once each way."""
        self.resting = resting
        if resting:
            log.warning("the bell rests %.0f s: by its estimate the coil would pass %g °C (%.0f °C now)",
                        seconds, self.heat.ceiling_c, self.heat.temp_c)
        if self.on_rest is not None:
            try:
                self.on_rest(resting)
            except Exception:
                log.exception("telling that the bell rests failed")


# ringers on pins not yet closed: silenced at the interpreter's exit
_open: "weakref.WeakSet[Ringer]" = weakref.WeakSet()


@atexit.register
def _silence_at_exit():
    """A ringer nobody closed, silenced as the interpreter exits (before gpiozero's own exit
    hook releases the pins, atexit running last-registered first)."""
    for ringer in list(_open):
        try:
            ringer.close()
        except Exception:
            log.exception("silencing the bell at exit failed")


class _Switch:
    """A handed-in on/off switch, dressed as the little of OutputDevice the Ringer uses."""

    __slots__ = ("_switch", "closed")

    def __init__(self, switch):
        self._switch = switch
        self.closed = False

    def on(self):
        self._switch.on()

    def off(self):
        self._switch.off()

    def close(self):
        self.closed = True

    @property
    def pin(self):
        return None
