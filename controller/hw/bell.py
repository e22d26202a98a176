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

import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


# The bell's heat budget. A ring has no natural end ("until answered"), and rings can follow each
# other: at the strikes' worst duty the coil settles some 36 °C over the air, close to what the
# thermal cutoff taped on it may hold for good. So the ringer keeps a running estimate of the
# coil's temperature with the same figures the electrical rules use (hardware/parts.toml
# [part.solenoid], at the rules' worst corner: the supply at its highest, the winding at its least
# resistance, the warmest air) and rests the bell before the estimate passes COIL_CEILING_C.
COIL_CEILING_C = 60.0       # newsdesk's ceiling on the estimate: well under the cutoff's holding
                            # temperature ([part.cutoff] th_c), the rules check the room (schematics/erc.py)
COIL_REST_C = 5.0           # a rest lasts until the estimate is this far under the ceiling again
DEFAULT_PARTS = Path(__file__).resolve().parents[2] / "hardware" / "parts.toml"


@dataclass(frozen=True)
class CoilFigures:
    """The coil's thermal figures at the worst corner: ``volts`` across it when on, its winding's
    ``ohms20`` at 20 °C (rising ``alpha`` per °C), ``theta`` °C per watt over ``ambient`` air, and
    its time constant ``tau`` in seconds. Every one but alpha is an estimate (docs/build.md)."""

    volts: float
    ohms20: float
    alpha: float
    theta: float
    tau: float
    ambient: float

    def watts(self, temp_c: float, share: float) -> float:
        """The coil's heat on for ``share`` of the time, its winding at ``temp_c``."""
        return share * self.volts ** 2 / (self.ohms20 * (1 + self.alpha * (temp_c - 20)))

    def after(self, temp_c: float, share: float, seconds: float) -> float:
        """The temperature ``seconds`` later, on for ``share`` of the time: first order, the heat
        taken at the start's resistance (it only falls as the winding warms, so this errs hot)."""
        settle = self.ambient + self.theta * self.watts(temp_c, share)
        return settle + (temp_c - settle) * math.exp(-max(0.0, seconds) / self.tau)

    def settle(self, share: float) -> float:
        """Where the coil settles on for ``share`` of the time for good (the resistance rising with it)."""
        temp = self.ambient
        for _ in range(200):
            temp = self.ambient + self.theta * self.watts(temp, share)
        return temp

    def cooling_time(self, temp_c: float, target_c: float) -> float:
        """Seconds off for the coil to cool from ``temp_c`` to ``target_c`` (0 if it is there)."""
        if temp_c <= target_c:
            return 0.0
        return self.tau * math.log((temp_c - self.ambient) / max(target_c - self.ambient, 1e-9))


def coil_figures(bell_driver: Mapping[str, Any], solenoid: Mapping[str, Any], supply12: Mapping[str, Any]) -> CoilFigures:
    """The figures from parts.toml's [bell_driver], [part.solenoid] and [part.supply12] tables, as
    the electrical rules take them: a regulated supply at the top of its tolerance, an unregulated
    one unloaded; the winding at the low end of its tolerance."""
    try:
        supply = float(bell_driver["supply_v"])
        if bell_driver.get("regulated", False):
            volts = supply * (1 + float(bell_driver.get("supply_tol", 0)))
        else:
            volts = supply * float(supply12.get("unloaded_ratio", 1))
        return CoilFigures(volts=volts,
                           ohms20=float(solenoid["coil_ohms"]) * (1 - float(solenoid["coil_ohms_tol"])),
                           alpha=float(solenoid["copper_alpha"]), theta=float(solenoid["theta_c_per_w"]),
                           tau=float(solenoid["tau_s"]), ambient=float(bell_driver["ambient_c"]))
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError("parts.toml lacks a usable figure for the bell coil's heat (%s)" % e) from None


def load_coil_figures(path: str | Path | None = None) -> CoilFigures:
    """The coil's figures from hardware/parts.toml (or ``path``); ConfigError if unreadable."""
    path = Path(path) if path else DEFAULT_PARTS
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError("can't read the bell coil's figures from %s: %s" % (path, e)) from None
    part = data.get("part", {})
    return coil_figures(data.get("bell_driver", {}), part.get("solenoid", {}), part.get("supply12", {}))


class CoilHeat:
    """The running estimate of the coil's temperature against ``clock``. ``advance(share)`` runs
    it up to now with the coil on for ``share`` of the time since the last call (0 between rings).
    It starts at the air's temperature: a restarted newsdesk forgets a warm coil (docs/build.md)."""

    def __init__(self, figures: CoilFigures, clock: Callable[[], float], ceiling_c: float = COIL_CEILING_C,
                 rest_c: float = COIL_REST_C):
        self.figures = figures
        self.ceiling_c = ceiling_c
        self.rest_c = rest_c
        self._clock = clock
        self._at = clock()
        self.temp_c = figures.ambient

    def advance(self, share: float = 0.0) -> float:
        now = self._clock()
        self.temp_c = self.figures.after(self.temp_c, share, now - self._at)
        self._at = now
        return self.temp_c

    def peak(self, steps: Iterable[tuple[bool, float]], on_share: float = 1.0) -> float:
        """The warmest the estimate gets through ``steps`` from now (it is left as it is)."""
        temp = hottest = self.temp_c
        for level, seconds in steps:
            temp = self.figures.after(temp, on_share if level else 0.0, seconds)
            hottest = max(hottest, temp)
        return hottest

    def rest_needed(self, steps: Iterable[tuple[bool, float]], on_share: float = 1.0) -> float:
        """Seconds of rest before ``steps`` may run without the estimate passing the ceiling: 0
        if they may run now, else until it has cooled to rest_c under the ceiling."""
        if self.peak(steps, on_share) <= self.ceiling_c:
            return 0.0
        return self.figures.cooling_time(self.temp_c, self.ceiling_c - self.rest_c)
