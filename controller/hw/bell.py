"""What the bell driver's line does through one ring cycle: pure, no pins, no clock.

A telephone bell rings because its clapper is struck again and again, some 15 to 25 times a
second, for as long as the ring lasts (the ring voltage of a line alternates at that rate). A
12 V push solenoid held on for a whole 2 s ring strikes the gong once and then rests on it,
damping it: so the solenoid is pulsed instead, ``strike_hz`` times a second through each "on"
step of the cadence, and left off through each "off" step::

    cadence   ┌────────── 2 s ──────────┐
              ┘                         └──────── 4 s ────────
    strikes   ┌┐ ┌┐ ┌┐ ┌┐ ┌┐ ... ┌┐ ┌┐
              ┘└─┘└─┘└─┘└─┘└─     ┘└─┘└──────────────────────   (strike_hz, STRIKE_DUTY on)

``strike_hz = 0`` holds the line on for each whole ring: for a driver that makes its own ring
signal from a steady enable (not newsdesk's drawn circuit). hw.ringer.Ringer walks these steps
on a pin; the Pico's firmware makes the same strikes itself (firmware/link.py), so only the
cadence crosses the USB cable.
"""

from collections.abc import Iterable

from ..errors import ConfigError

STRIKE_HZ = 20.0            # newsdesk's default: inside the 15-25 Hz of a ringing line
STRIKE_HZ_RANGE = (5.0, 40.0)
STRIKE_DUTY = 0.4           # of each strike period the solenoid is on; the rest lets the plunger return


def check_strike_hz(hz: float | str) -> float:
    """The strike rate in Hz: 0 (hold the line on through each ring) or 5-40; ConfigError otherwise."""
    try:
        hz = float(hz)
    except (TypeError, ValueError):
        raise ConfigError("the bell's strike rate is a number of strikes a second, got %r" % (hz,)) from None
    low, high = STRIKE_HZ_RANGE
    if hz != 0 and not low <= hz <= high:
        raise ConfigError("the bell's strike rate must be 0 (held on) or %g-%g Hz, got %g" % (low, high, hz))
    return hz


def ring_steps(cadence: Iterable[tuple[float, float]], strike_hz: float | str = STRIKE_HZ,
               duty: float = STRIKE_DUTY) -> list[tuple[bool, float]]:
    """One cycle of ``cadence`` ((on, off) second pairs) as (level, seconds) steps for the
    driver's line. Each "on" step becomes whole strikes (at least one) at ``strike_hz``; the
    last strike's rest runs into the silence, so a cycle lasts exactly as long as the cadence."""
    strike_hz = check_strike_hz(strike_hz)
    steps: list[tuple[bool, float]] = []
    for on, off in cadence:
        if strike_hz == 0:
            steps += [(True, on), (False, off)]
            continue
        period = 1.0 / strike_hz
        count = max(1, int(round(on * strike_hz)))
        pulse = period * duty
        last_rest = max(0.0, on - (count - 1) * period - pulse) + off
        for n in range(count):
            steps.append((True, pulse))
            steps.append((False, period - pulse if n < count - 1 else last_rest))
    return _merged(steps)


def _merged(steps: Iterable[tuple[bool, float]]) -> list[tuple[bool, float]]:
    """Adjacent steps at the same level joined (a held cadence's silences stay one step)."""
    out: list[tuple[bool, float]] = []
    for level, seconds in steps:
        if seconds <= 0:
            continue
        if out and out[-1][0] == level:
            out[-1] = (level, out[-1][1] + seconds)
        else:
            out.append((level, seconds))
    return out


def strikes_per_cycle(cadence: Iterable[tuple[float, float]], strike_hz: float | str = STRIKE_HZ) -> int:
    return sum(1 for level, _ in ring_steps(cadence, strike_hz) if level)
