"""Scoop! (2002)'s randomiser: a stopwatch read to hundredths, or a ten-sided die.

The rules: "just start the stopwatch, wait for a moment, and then stop it. Look at the number
indicating 100ths of a second ... That's the number you've 'rolled'." They allow a ten-sided die
instead, which is the one-press "d10" mode here.

        press              press
    ────┐ ┌────────────────┐ ┌────     button (1 = pressed)
        └─┘                └─┘
        t0                 t1          times of each press's FIRST edge (from the debouncer)
        ├──── elapsed ─────┤           shown as s.hh, truncated like a stopwatch's display
                                       roll = the hundredths digit of elapsed

Times are the button's edge times, not when software noticed the press: a stamp taken by a
loop polling at 60 Hz can only end in a few hundredths digits and would load the die (the
fairness tests show it). Pure: the times and, for d10, the random source are handed in.
"""

import random

from .errors import OracleBusy, OracleSettingError

MODES = ("stopwatch", "d10")


def centiseconds(elapsed: float) -> int:
    """Whole hundredths in ``elapsed`` seconds, truncated as a stopwatch shows them.

    Rounded to the microsecond first, so 0.29 s (0.28999999... as a float) reads 29, not 28.
    """
    micro = int(round(max(0.0, elapsed) * 1e6))
    return micro // 10000


def shown(centis: int) -> str:
    """What the stopwatch's face shows: "7.35" under a minute, "1:02.04" from then on."""
    seconds, hundredths = divmod(centis, 100)
    minutes, seconds = divmod(seconds, 60)
    if minutes:
        return "%d:%02d.%02d" % (minutes, seconds, hundredths)
    return "%d.%02d" % (seconds, hundredths)


class Stopwatch:
    """Start on one press, stop on the next: ``press(t, rng)`` returns what happened.

    In "stopwatch" mode the first press returns ``{"started": t}`` and the second the result;
    in "d10" mode every press returns a result drawn from ``rng``.
    """

    __slots__ = ("_mode", "started")

    def __init__(self, mode: str = "stopwatch") -> None:
        self._mode: str | None = None
        self.started: float | None = None
        self.mode = mode

    @property
    def mode(self) -> str | None:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise OracleSettingError("stopwatch_mode must be one of %s, got %r" % (", ".join(MODES), mode))
        if self.started is not None and mode != self._mode:
            raise OracleBusy("the stopwatch is running; stop it before switching to %s mode" % mode)
        self._mode = mode

    @property
    def running(self) -> bool:
        return self.started is not None

    def reading(self, now: float) -> float | None:
        """Seconds on the face at ``now`` while running, else None."""
        return None if self.started is None else max(0.0, now - self.started)

    def reset(self) -> None:
        """Stop without a roll (a start pressed by mistake)."""
        self.started = None

    def press(self, t: float, rng: random.Random | None = None) -> dict[str, object]:
        if self._mode == "d10":
            if rng is None:
                raise TypeError("the d10 mode rolls with the random generator it is handed; none was")
            return {"mode": "d10", "digit": rng.randrange(10), "pressed": t}
        if self.started is None:
            self.started = t
            return {"started": t}
        t0, self.started = self.started, None
        elapsed = t - t0
        centis = centiseconds(elapsed)
        return {"mode": "stopwatch", "digit": centis % 10, "centiseconds": centis, "shown": shown(centis),
                "elapsed": max(0.0, elapsed), "started": t0, "stopped": t}
