"""Circuits simulated, not only computed: ngspice decks (text netlists) generated from the same
circuit model the schematics, the netlists and the electrical rules read (schematics/circuit.py,
so the pin map and hardware/parts.toml), run by ngspice in batch mode, and read back.

    bell       the bell driver through one strike at the fastest strike rate newsdesk allows (the
               shortest strike): the GPIO, its resistor and the optocoupler's LED, the
               optocoupler's output pulling the gate up against its pull-down and zener, the
               MOSFET (threshold, on-resistance and capacitances), the coil (resistance and
               inductance) and the flyback diode with its series resistor. Read back: the coil's
               current at the end of the strike and when it reaches the pull-in current, the
               drain's peak at turn-off, the gate's highest and lowest voltage.
    receiver   the amplifier's bridged output for a full-scale sine and a full-scale square at each
               GAIN strap setting, clipped at its supply rail, through the pad into a receiver of
               the DC ohms up to receiver_ohms_max (each a resistance of that many ohms). Read
               back: the rms level at the receiver.
    failsafe   the same driver lit through the fail-safe's capacitor (its reset diode and bleed
               resistor): trains of strikes at the slowest, the default and the fastest rate, and
               the line held high. Read back: the gate through the train's last strike, whether
               the coil pulls in on every strike, and when a held line lets the coil go.
    opto       the driver's input side at its weakest (least CTR, highest LED forward voltage,
               lowest GPIO high level): the LED's current and the gate voltage it gives, and the
               least CTR that still turns the MOSFET on.
    contacts   the dial's pulse contacts through their filter (pull-up, capacitor, series
               resistor) to the GPIO, at the fastest, most worn dial and at the slowest ([dial] in
               parts.toml), the filter at both ends of its parts' tolerances and the contact at
               its worst resistance: the edges at the GPIO, and the break and make as the pin
               sees them (between its HIGH and LOW thresholds).

Why simulate what erc.py computes: the rules take each part at one value and each circuit as a
formula; a simulation takes the circuit with the parts' dynamics (a coil's inductance, a
MOSFET's threshold and capacitances, a diode's drop, the clamps) and every part at both ends of
its tolerance at once, so the figures docs/build.md gives are what the circuit does at its worst.
Worst-case corners rather than Monte Carlo: the corners bound every draw a Monte Carlo could
make, in a few dozen copies of a circuit, and give the same figures every time.

Every value comes from the circuit and hardware/parts.toml; the numbers written here are the
simulator's own settings (time steps, the count of sweep points) and the SPICE defaults named
where they are used. An analysis holds its corners as separate copies of the circuit in one
deck (or JOBS decks run side by side), so a run or two covers them all.
"""

import itertools
import math
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from controller.audio.tones import RATE as TONE_RATE
from controller.hw.bell import STRIKE_DUTY, STRIKE_HZ, STRIKE_HZ_RANGE

from . import erc

NGSPICE = "ngspice"
TIMEOUT = 60                # seconds one ngspice run may take before it counts as hung
STEPS = 200                 # output steps per strike (the bell) or per period (the receiver);
                            # ngspice takes finer ones where the circuit moves fast
JOBS = 2                    # ngspice runs at once: a deck's corners are split over this many
SWEEP = 20                  # CTR points between the datasheet's least and nothing
# SPICE's default junction saturation current, a silicon pn junction's: the flyback diode is fitted
# from it (flyback_model)
SPICE_IS = 1e-14
THERMAL_V = 0.025865        # kT/q at SPICE's default 27 °C


class SpiceError(Exception):
    """ngspice is missing, took too long, or failed on a deck."""


def available():
    return shutil.which(NGSPICE) is not None


_MEASURED = re.compile(r"^(\w+)\s*=\s*([-+0-9.eE]+)", re.M)
_CACHE: dict[str, dict[str, float]] = {}


def run_many(decks):
    """``run`` for each deck, JOBS side by side (ngspice uses one core); their results in order."""
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        return list(pool.map(run, decks))


def run(deck, timeout=TIMEOUT):
    """Runs one deck with ``ngspice -b`` in a temporary folder; returns {measure: value} for the
    ``.meas`` lines it printed (a measure that found nothing, a WHEN never met, is absent).
    The same deck gives the same answer, so each is run once per process."""
    if deck in _CACHE:
        return dict(_CACHE[deck])
    exe = shutil.which(NGSPICE)
    if exe is None:
        raise SpiceError("ngspice is not installed (apt-get install ngspice)")
    with tempfile.TemporaryDirectory(prefix="newsdesk-spice-") as tmp:
        path = Path(tmp) / "deck.cir"
        path.write_text(deck, encoding="utf-8")
        try:
            proc = subprocess.run([exe, "-b", "-n", path.name], cwd=tmp, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise SpiceError("ngspice took longer than %d s on %s" % (timeout, deck.splitlines()[0])) from None
    if proc.returncode != 0 or "Measurements for" not in proc.stdout:
        raise SpiceError("ngspice failed on %s:\n%s" % (deck.splitlines()[0], (proc.stderr or proc.stdout)[-2000:]))
    values = {name: float(v) for name, v in _MEASURED.findall(proc.stdout.split("Measurements for", 1)[1])}
    _CACHE[deck] = values
    return dict(values)


def _corners(value, tol):
    """(low, high) of a value with a fractional tolerance."""
    return value * (1 - tol), value * (1 + tol)


def _g(x):
    """A number as ngspice reads it, exactly."""
    return repr(float(x))


# ------------------------------------------------------------------ the bell driver


class Strike:
    """The strike simulated: the shortest newsdesk makes (its fastest rate, STRIKE_DUTY on)."""

    def __init__(self):
        self.hz = STRIKE_HZ_RANGE[1]
        self.period = 1.0 / self.hz
        self.on = STRIKE_DUTY * self.period
        self.step = self.on / STEPS
        # a GPIO switches in nanoseconds: an edge much shorter than a step, so the driver's own
        # parts (the gate's capacitance and pull-down) set how fast the MOSFET turns off
        self.edge = self.step / STEPS


def _ringer(circuit):
    """The ringer line's parts on this board, by role; None if it has no optocoupler."""
    isolators = [p for p in circuit.parts if p.role == "isolator"]
    if not isolators:
        return None
    line = isolators[0].line
    return line, {p.role: p for p in circuit.of(line=line)}


def bell_values(circuit):
    """The bell driver's parameters from the circuit and parts, each as (low, high) where the
    parts give it a tolerance: what the corners are drawn from."""
    found = _ringer(circuit)
    if found is None:
        return None
    line, roles = found
    data = circuit.parts_data
    bell, opto, fet = data.bell, data.part("optocoupler"), data.part("mosfet")
    diode, zener, sol = data.part("diode"), data.part("zener"), data.part("solenoid")
    rtol = float(data.part("resistor")["tolerance"])
    spec = circuit.board_lines[line]
    zener_v = float(bell.get("gate_zener_v") or 0)
    snubber = float(bell.get("snubber_ohms") or 0)
    return {
        "line": line,
        "logic_v": float(circuit.limits["logic_v"]),
        # the pin as a source behind the resistance that sags it to its least HIGH level at its
        # default drive current, or as a perfect source
        "rgpio": ((float(circuit.limits["logic_v"]) - float(circuit.limits["voh_min"]))
                  / float(circuit.limits.get("voh_at_ma", circuit.limits["drive_ma"])) * 1000.0, 0.0),
        "rser": _corners(float(roles["series"].value), rtol),
        "vf": (float(spec.vf), float(opto["vf_max"])),
        # the LED as an exponential junction through each corner's forward voltage at the datasheet's test current
        "led_n": float(opto["led_n"]),
        "led_test_a": float(opto["vf_at_ma"]) / 1000.0,
        # the least: the datasheet's at 5 mA, derated for the lower current, heat and ageing
        "ctr": (float(opto["ctr_min"]) * float(opto.get("ctr_derate", 1.0)), float(opto["ctr_max"])),
        "ctr_datasheet": float(opto["ctr_min"]),
        # and its share of that at the LED's present current: the datasheet's curve (erc.ctr_share)
        "ctr_curve": erc.ctr_curve(opto),
        "vce_sat": float(opto["vce_sat"]),
        "rpd": _corners(float(roles["pulldown"].value), rtol),
        "vz": _corners(zener_v, float(zener["tolerance"])) if zener_v else None,
        "iz_test": float(zener["iz_test_ma"]) / 1000.0,
        "vth": (float(fet["vgs_th_min"]), float(fet["vgs_th_max"])),
        "vgs_on": float(fet["vgs_on"]),
        "vgs_max": float(fet["vgs_max"]),
        "vds_max": float(fet["vds_max"]),
        "vds_use": float(fet.get("vds_use", 1.0)),
        "vds_limit": float(fet["vds_max"]) * float(fet.get("vds_use", 1.0)),
        "rds_on": float(fet["rds_on"]),
        "ciss": float(fet["ciss_pf"]) * 1e-12,
        "coss": float(fet["coss_pf"]) * 1e-12,
        "crss": float(fet["crss_pf"]) * 1e-12,
        "supply": _corners(float(bell["supply_v"]), float(bell.get("supply_tol", 0))),
        "rcoil": _corners(float(sol["coil_ohms"]), float(sol["coil_ohms_tol"])),
        "lcoil": _corners(float(sol["coil_mh"]) / 1000.0, float(sol["coil_mh_tol"])),
        "rsnub": _corners(snubber, rtol) if snubber else (0.0, 0.0),
        **dict(zip(("diode_is", "diode_rs"), flyback_model(float(diode["vf_max"]), float(diode["vf_at_a"])))),
        "pull_in": float(sol["pull_in_fraction"]) * float(sol["rated_v"]) / float(sol["coil_ohms"]),
        "rated_a": float(sol["rated_v"]) / float(sol["coil_ohms"]),
        **_failsafe_values(circuit, roles, rtol),
    }


def flyback_model(vf, amps):
    """(IS, RS) of the flyback diode, a SPICE junction (N = 1) that drops ``vf``, its datasheet's
    maximum forward voltage, at ``amps``, its test current.

    A diode's forward voltage is its junction's, THERMAL_V x ln(I / IS + 1), plus its bulk's
    I x RS. IS is set by the barrier: a silicon pn junction's is about SPICE's default, 1e-14 A,
    which alone drops 0.83 V at 1 A, so a silicon rectifier's larger figure (a 1N4007's 1.1 V at
    1 A) is that junction and the series resistance that makes up the rest (0.27 ohm). A Schottky's
    metal-semiconductor barrier is lower, its IS many decades larger: a 1N5817 drops 0.45 V at 1 A,
    under what that junction alone drops, and the rest would be a negative resistance, which no
    part has (and on which ngspice's steps diverged). So a diode whose figure is under the default
    junction's is fitted by its junction alone: IS from its drop at its test current, RS = 0 (the
    datasheet's maximum drop is then all the junction's; at smaller currents it drops less, as a
    Schottky does). Either way the model drops the datasheet's figure at its test current, the
    drain's peak at turn-off the rules take."""
    junction = THERMAL_V * math.log(amps / SPICE_IS)        # (the -1 of SPICE's law is 1e-14 of it here)
    if vf >= junction:
        return SPICE_IS, (vf - junction) / amps
    return amps / math.expm1(vf / THERMAL_V), 0.0


def led_is(values, vf):
    """The LED junction's saturation current that puts ``vf`` across it at the test current."""
    return values["led_test_a"] / math.exp(vf / (values["led_n"] * THERMAL_V))


def _failsafe_values(circuit, roles, rtol):
    """The fail-safe's capacitor, bleed resistor and reset diode, as (low, high) pairs; None for a
    driver without them (the GPIO straight through its resistor to the LED)."""
    if "coupling" not in roles:
        return {"coupling": None, "bleed": None, "reset_is": None}
    data = circuit.parts_data
    cap, schottky = data.part("coupling"), data.part("schottky")
    bleed = roles.get("bleed")
    return {
        "coupling": _corners(float(roles["coupling"].value.split()[0]) * 1e-6, float(cap["tolerance"])),
        "bleed": _corners(float(bleed.value), rtol) if bleed else None,
        # the reset diode: a junction with the datasheet's maximum forward voltage at its test current
        "reset_is": float(schottky["vf_at_a"]) / math.exp(float(schottky["vf_max"]) / THERMAL_V),
    }


def _drive(values, weak):
    """The input side at its weakest (the least gate drive: the MOSFET slow and barely on) or
    its strongest (the highest gate voltage, the fastest switching)."""
    pick = 0 if weak else 1
    out = {"rgpio": values["rgpio"][pick], "rser": values["rser"][1 - pick], "vf": values["vf"][1 - pick],
           "ctr": values["ctr"][pick], "rpd": values["rpd"][pick], "vth": values["vth"][1 - pick]}
    out["vz"] = values["vz"][pick] if values["vz"] else None
    # the fail-safe at its quickest to fade for the weak drive, its slowest for the strong
    out["cpl"] = values["coupling"][pick] if values["coupling"] else None
    out["bleed"] = values["bleed"][pick] if values["bleed"] else None
    out["drive"] = "weak" if weak else "strong"
    return out


def bell_corners(values):
    """Every combination of the bell side's tolerances (supply, coil resistance and inductance,
    snubber resistor), each with the gate drive at its weakest and at its strongest."""
    out = []
    sides = [sorted(set(values[k])) for k in ("supply", "rcoil", "lcoil", "rsnub")]
    for weak in (True, False):
        for supply, rcoil, lcoil, rsnub in itertools.product(*sides):
            corner = _drive(values, weak)
            corner.update(supply=supply, rcoil=rcoil, lcoil=lcoil, rsnub=rsnub)
            out.append(corner)
    return out


def _strikes(values, strike):
    """The GPIO's strikes: high for each strike's on-time, low for its rest, from the start."""
    return "PULSE(0 %s 0 %s %s %s %s)" % (_g(values["logic_v"]), _g(strike.edge), _g(strike.edge), _g(strike.on),
                                          _g(strike.period))


def _driver_cards(i, c, values, wave):
    """One copy of the bell driver, its nodes suffixed with ``i``, its GPIO making ``wave``;
    ground (0) is the bell driver's own ground (each copy has its own supply, so the copies
    don't meet). With the fail-safe, the resistor reaches the LED through its capacitor, with
    the reset diode and the bleed resistor across the LED."""
    vf, ctr, vsat = c["vf"], c["ctr"], values["vce_sat"]
    kp = 1.0 / (values["rds_on"] * (values["vgs_on"] - c["vth"]))
    if c.get("cpl"):
        front = ["Rser%d gpio%d cpl%d %s" % (i, i, i, _g(c["rser"])),
                 "Ccpl%d cpl%d led%d %s" % (i, i, i, _g(c["cpl"])),
                 "Dreset%d 0 led%d DRESET" % (i, i)]
        if c.get("bleed"):
            front.append("Rbleed%d led%d 0 %s" % (i, i, _g(c["bleed"])))
    else:
        front = ["Rser%d gpio%d led%d %s" % (i, i, i, _g(c["rser"]))]
    cards = [
        "* corner %d: %s" % (i, ", ".join("%s=%s" % (k, c[k]) for k in sorted(c))),
        "Vgpio%d pin%d 0 %s" % (i, i, wave),
        ("Rgpio%d pin%d gpio%d %s" % (i, i, i, _g(c["rgpio"])) if c["rgpio"] else "Vpin%d pin%d gpio%d 0" % (i, i, i)),
        *front,
        # the LED as an exponential junction: its forward voltage at the test current, falling
        # as its current does (so it keeps conducting as the fail-safe's current dies away)
        "Dled%d led%d ledc%d DLED%d" % (i, i, i, i),
        ".model DLED%d D(is=%s n=%s)" % (i, _g(led_is(values, vf)), _g(values["led_n"])),
        "Vif%d ledc%d 0 0" % (i, i),
        # the phototransistor: CTR times the LED's current, the CTR falling at small currents as
        # the datasheet's curve does, the output falling to nothing as it saturates
        "Bopto%d vcc%d g%d I = %s*%s*max(i(Vif%d),0)*tanh(max(v(vcc%d,g%d),0)/%s)" % (
            i, i, i, _g(ctr), _ctr_share(values, i), i, i, i, _g(vsat)),
        "Rpd%d g%d 0 %s" % (i, i, _g(c["rpd"])),
        "Vsup%d vcc%d 0 DC %s" % (i, i, _g(c["supply"])),
        "Cgs%d g%d 0 %s" % (i, i, _g(values["ciss"] - values["crss"])),
        "Cgd%d g%d dm%d %s" % (i, i, i, _g(values["crss"])),
        "Cds%d dm%d 0 %s" % (i, i, _g(values["coss"] - values["crss"])),
        "M%d dm%d g%d 0 0 NFET%d W=1u L=1u" % (i, i, i, i),
        # the MOSFET's own drain (dm) behind a probe from the coil's end (d): its heat is v(dm) x i(Vq)
        "Vq%d d%d dm%d 0" % (i, i, i),
        ".model NFET%d NMOS(level=1 vto=%s kp=%s)" % (i, _g(c["vth"]), _g(kp)),
        "Vcoil%d vcc%d coil%d 0" % (i, i, i),
        "Lcoil%d coil%d coilr%d %s" % (i, i, i, _g(c["lcoil"])),
        "Rcoil%d coilr%d d%d %s" % (i, i, i, _g(c["rcoil"])),
    ]
    if c["rsnub"]:
        cards += ["Dfly%d d%d snub%d DFLY" % (i, i, i), "Rsnub%d snub%d vcc%d %s" % (i, i, i, _g(c["rsnub"]))]
    else:
        cards.append("Dfly%d d%d vcc%d DFLY" % (i, i, i))
    if c["vz"]:
        cards += ["Dz%d 0 g%d DZ%d" % (i, i, i), ".model DZ%d D(bv=%s ibv=%s)" % (i, _g(c["vz"]), _g(values["iz_test"]))]
    return cards


def _ctr_share(values, i):
    """The curve's share of the CTR at copy ``i``'s LED current, as ngspice reads it: straight
    between the points on a log scale of current (as erc.ctr_share), flat beyond the ends."""
    curve = values["ctr_curve"]
    points = [(-9.0, curve[0][1])] + [(math.log10(ma), share) for ma, share in curve] + [(9.0, curve[-1][1])]
    return "pwl(log10(max(i(Vif%d),1e-12)*1000),%s)" % (i, ",".join("%s,%s" % (_g(x), _g(y)) for x, y in points))


BELL_MEASURES = ("drain", "gate_max", "gate_min", "i_on", "t_pull", "i_left", "gate_on", "drain_on", "led")


def _bell_meas(i, values, strike):
    return [
        ".meas tran drain_%d MAX v(d%d)" % (i, i),
        ".meas tran gate_max_%d MAX v(g%d)" % (i, i),
        ".meas tran gate_min_%d MIN v(g%d)" % (i, i),
        ".meas tran i_on_%d FIND i(Vcoil%d) AT=%s" % (i, i, _g(strike.on)),
        ".meas tran t_pull_%d WHEN i(Vcoil%d)=%s RISE=1" % (i, i, _g(values["pull_in"])),
        ".meas tran i_left_%d FIND i(Vcoil%d) AT=%s" % (i, i, _g(strike.period)),
        ".meas tran gate_on_%d FIND v(g%d) AT=%s" % (i, i, _g(strike.on)),
        ".meas tran drain_on_%d FIND v(d%d) AT=%s" % (i, i, _g(strike.on)),
        ".meas tran led_%d FIND i(Vif%d) AT=%s" % (i, i, _g(strike.on)),
    ]


def _models(title, values):
    cards = ["* %s: generated by schematics/spice.py from hardware/pinmap.toml and hardware/parts.toml" % title,
             ".model DFLY D(is=%s rs=%s)" % (_g(values["diode_is"]), _g(values["diode_rs"]))]
    if values.get("reset_is"):
        cards.append(".model DRESET D(is=%s)" % _g(values["reset_is"]))
    return cards


def _bell_deck(title, corners, values, strike, tstop):
    cards = _models(title, values)
    for i, c in enumerate(corners):
        cards += _driver_cards(i, c, values, _strikes(values, strike))
    for i in range(len(corners)):
        cards += _bell_meas(i, values, strike)
    # Gear integration: the switching edges are stiff, and the trapezoidal rule rings on them and
    # takes twice the steps for the same figures
    cards += [".options method=gear", ".tran %s %s" % (_g(strike.step), _g(tstop)), ".end", ""]
    return "\n".join(cards)


def _results(measured, corners, names):
    """[(corner, {measure: value or None})] from a run's {name_i: value}."""
    return [(c, {n: measured.get("%s_%d" % (n, i)) for n in names}) for i, c in enumerate(corners)]


def _run_bell(title, corners, values, strike, tstop):
    """The corners split over JOBS decks run side by side (ngspice uses one core, and in one
    deck every copy takes the time steps the busiest copy needs); their rows in corner order."""
    size = -(-len(corners) // JOBS)
    chunks = [corners[k:k + size] for k in range(0, len(corners), size)]
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        runs = list(pool.map(lambda chunk: run(_bell_deck(title, chunk, values, strike, tstop)), chunks))
    rows = []
    for chunk, measured in zip(chunks, runs):
        rows += _results(measured, chunk, BELL_MEASURES)
    return rows


class BellResult:
    """One board's bell driver through one strike, at every corner."""

    def __init__(self, board, values, strike, rows):
        self.board = board
        self.values = values
        self.strike = strike
        self.rows = rows            # [(corner, measures)]

    def worst(self, measure, pick=max):
        """(value, corner) of the corner where ``measure`` is at its worst by ``pick``."""
        row = pick(self.rows, key=lambda r: r[1][measure])
        return row[1][measure], row[0]

    @property
    def drain_peak(self):
        return self.worst("drain")[0]

    @property
    def gate_max(self):
        return self.worst("gate_max")[0]

    @property
    def gate_min(self):
        return self.worst("gate_min", min)[0]

    @property
    def pull_in_time(self):
        """The latest the coil reaches its pull-in current, in seconds; None if at some corner
        it never does within the strike."""
        times = [m["t_pull"] for _, m in self.rows]
        if any(t is None or t > self.strike.on for t in times):
            return None
        return max(times)

    @property
    def current_at_end(self):
        """The least coil current at the end of the strike."""
        return self.worst("i_on", min)[0]


def _simulate_driver(circuit, what, corners_of, until):
    """(values, strike, rows) of the bell driver's deck titled ``what % board``, run over
    ``corners_of(values)`` until ``until(strike)`` seconds; None on a board without a bell driver."""
    values = bell_values(circuit)
    if values is None:
        return None
    strike = Strike()
    rows = _run_bell(what % circuit.board, corners_of(values), values, strike, until(strike))
    return values, strike, rows


def simulate_bell(circuit):
    ran = _simulate_driver(circuit, "the bell driver (%s), one strike", bell_corners, lambda strike: strike.period)
    return None if ran is None else BellResult(circuit.board, *ran)


# ------------------------------------------------------------------ the optocoupler


class OptoResult:
    """The driver's input side at its weakest, and the least CTR that still turns the MOSFET on."""

    def __init__(self, board, values, rows):
        self.board = board
        self.values = values
        self.rows = rows            # [(corner, measures)], the datasheet's least CTR first

    @property
    def led_ma(self):
        return self.rows[0][1]["led"] * 1000.0

    @property
    def gate(self):
        return self.rows[0][1]["gate_on"]

    @property
    def drain_on(self):
        return self.rows[0][1]["drain_on"]

    @property
    def least_ctr(self):
        """The least CTR at which the gate still reaches the MOSFET's vgs_on by the strike's end,
        between the two sweep points either side of it (the gate follows the CTR in a straight
        line there: the output is a current into the pull-down); None if even the datasheet's
        least CTR doesn't, 0 if the least swept still does."""
        want = self.values["vgs_on"]
        sweep = [(c["ctr"], m["gate_on"]) for c, m in self.rows[1:]]
        if sweep[0][1] < want:
            return None
        for (hi, v_hi), (lo, v_lo) in zip(sweep, sweep[1:]):
            if v_lo < want <= v_hi:
                return lo + (hi - lo) * (want - v_lo) / (v_hi - v_lo)
        return 0.0


def opto_corners(values):
    """The weakest drive (its derated CTR) on the slowest coil (the supply low, the coil's
    resistance and inductance high); then the same with the CTR stepped down from the
    datasheet's least towards nothing."""
    weak = _drive(values, weak=True)
    weak.update(supply=values["supply"][0], rcoil=values["rcoil"][1], lcoil=values["lcoil"][1],
                rsnub=values["rsnub"][1])
    least = values["ctr_datasheet"]
    return [weak] + [dict(weak, ctr=least * k / SWEEP) for k in range(SWEEP, 0, -1)]


def simulate_opto(circuit):
    ran = _simulate_driver(circuit, "the optocoupler (%s), weakest drive", opto_corners, lambda strike: strike.on)
    if ran is None:
        return None
    values, _, rows = ran
    return OptoResult(circuit.board, values, rows)


# ------------------------------------------------------------------ the fail-safe

TRAIN_STEPS = 20            # output steps per strike in a train (the gate moves slowly there)
TRAIN_S = 0.5               # a train's length: over ten of the fail-safe's time constants, so its
                            # capacitor has settled to what each strike leaves it, as in a whole ring
OFF_SHARE = 0.01            # "off": the coil's current under this share of its rated current
FAILSAFE_MEASURES = ("gate_first", "gate_last", "i_last", "pulled", "t_off", "i_limit", "gate_limit", "fet_heat")


def failsafe_corners(values):
    """The drive at its weakest on the slowest coil and at its strongest on the quickest, each
    with the fail-safe's capacitor at both ends of its tolerance (a small one fades sooner within
    a strike, a large one empties more slowly between strikes and lets a held line on longer)."""
    out = []
    for weak in (True, False):
        for cpl in sorted(set(values["coupling"])) if values["coupling"] else [None]:
            corner = _drive(values, weak)
            side = 0 if weak else 1
            corner.update(cpl=cpl, supply=values["supply"][side], rcoil=values["rcoil"][1 - side],
                          lcoil=values["lcoil"][1 - side], rsnub=values["rsnub"][1 - side])
            out.append(corner)
    return out


def _failsafe_deck(title, corners, values, wave, tstop, step, marks):
    """``marks``: (name, .meas card body with {i}) measured on every copy."""
    cards = _models(title, values)
    for i, c in enumerate(corners):
        cards += _driver_cards(i, c, values, wave)
    for i in range(len(corners)):
        cards += [".meas tran %s_%d %s" % (name, i, body.format(i=i)) for name, body in marks]
    cards += [".options method=gear", ".tran %s %s" % (_g(step), _g(tstop)), ".end", ""]
    return "\n".join(cards)


def train_strikes(hz):
    """The strikes of a train at ``hz``."""
    return max(1, int(round(TRAIN_S * hz)))


def _train(values, corners, hz, full):
    """A train of strikes at ``hz``: the gate ``full`` seconds into the first and the
    last strike (or at its end, if sooner: the default strike's on-time, which the drive must
    last), the coil's current then, whether the coil reached pull-in on every strike, and the
    MOSFET's heat averaged over the last strike's period (the capacitor settled)."""
    strike = Strike()
    strike.hz, strike.period = hz, 1.0 / hz
    strike.on = STRIKE_DUTY * strike.period
    strike.step = strike.on / STEPS
    count = train_strikes(hz)
    at = min(full, strike.on)
    last = (count - 1) * strike.period + at
    marks = [("gate_first", "FIND v(g{i}) AT=%s" % _g(at)),
             ("gate_last", "FIND v(g{i}) AT=%s" % _g(last)),
             ("i_last", "FIND i(Vcoil{i}) AT=%s" % _g(last)),
             ("pulled", "WHEN i(Vcoil{i})=%s RISE=%d" % (_g(values["pull_in"]), count)),
             ("fet_heat", "AVG par('v(dm{i})*i(Vq{i})') FROM=%s TO=%s" % (
                 _g((count - 1) * strike.period), _g(count * strike.period)))]
    deck = _failsafe_deck("the bell's fail-safe, %d strikes at %g Hz" % (count, hz), corners, values,
                          _strikes(values, strike), count * strike.period, strike.on / TRAIN_STEPS, marks)
    return _results(run(deck), corners, [m for m, _ in marks])


def _held(values, corners, limit):
    """The line goes high and stays high: when the coil's current falls under OFF_SHARE of its
    rated current, and what is left of it and of the gate at the limit."""
    edge = Strike().edge
    off = values["rated_a"] * OFF_SHARE
    marks = [("t_off", "WHEN i(Vcoil{i})=%s FALL=1" % _g(off)),
             ("i_limit", "FIND i(Vcoil{i}) AT=%s" % _g(limit)),
             ("gate_limit", "FIND v(g{i}) AT=%s" % _g(limit))]
    wave = "PWL(0 0 %s %s)" % (_g(edge), _g(values["logic_v"]))
    deck = _failsafe_deck("the bell's fail-safe, the line held high", corners, values, wave, limit * 1.25,
                          limit / STEPS, marks)
    return _results(run(deck), corners, [m for m, _ in marks])


class FailsafeResult:
    """One board's fail-safe: strike trains at each rate, and the line held high."""

    def __init__(self, board, values, rates, trains, held, limit, fet_bound=None):
        self.board = board
        self.fet_bound = fet_bound or {}    # hz -> the rules' bound on a strike's heat in the MOSFET, J
        self.values = values
        self.rates = rates          # strike rates simulated, Hz
        self.trains = trains        # hz -> [(corner, measures)]
        self.held = held            # [(corner, measures)]
        self.limit = limit          # seconds: the longest a held line may keep the coil on
        self.off_a = values["rated_a"] * OFF_SHARE

    def least_gate(self, hz):
        """The lowest gate voltage at the end of any corner's last strike at ``hz``."""
        return min(m["gate_last"] for _, m in self.trains[hz])

    def fet_heat(self, hz):
        """The most one strike of the train at ``hz`` heats the MOSFET, over the corners, joules."""
        return max(m["fet_heat"] for _, m in self.trains[hz]) / hz

    def pulls_in(self, hz):
        """True if at every corner the coil reaches pull-in on each strike of the train."""
        return all(m["pulled"] is not None for _, m in self.trains[hz])

    @property
    def off_time(self):
        """The latest, over the corners, the coil's current falls to "off" with the line held
        high; None if at some corner it never does within the simulated time."""
        times = [m["t_off"] for _, m in self.held]
        return None if None in times else max(times)

    @property
    def current_at_limit(self):
        return max(abs(m["i_limit"]) for _, m in self.held)


def simulate_held(circuit):
    """The line held high, with the fail-safe or without it (the driver as first drawn):
    [(corner, measures)], or None for a board without a bell driver."""
    from .erc import failsafe_limit
    values = bell_values(circuit)
    if values is None:
        return None
    return _held(values, failsafe_corners(values), failsafe_limit())


def simulate_failsafe(circuit):
    """Strike trains at the slowest, the default and the fastest rate, and the line held high,
    through the fail-safe; None for a driver without it."""
    from .erc import default_strike_on, failsafe_limit
    values = bell_values(circuit)
    if values is None or values["coupling"] is None:
        return None
    corners = failsafe_corners(values)
    rates = sorted({STRIKE_HZ_RANGE[0], STRIKE_HZ, STRIKE_HZ_RANGE[1]})
    limit = failsafe_limit()
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        trains = dict(zip(rates, pool.map(lambda hz: _train(values, corners, hz, default_strike_on()), rates)))
    figures = erc.strike_figures(circuit)
    bound = {hz: erc.fet_strike_heat(circuit, hz, figures) for hz in rates}
    return FailsafeResult(circuit.board, values, rates, trains, simulate_held(circuit), limit, bound)


# ------------------------------------------------------------------ the receiver


class ReceiverResult:
    """The level at the receiver for each signal, GAIN setting, receiver impedance and pad corner."""

    def __init__(self, values, rows):
        self.values = values
        self.rows = rows            # [(corner, {"rx": V rms, "out": V rms})]

    def loudest(self, **match):
        """(mV rms, corner) of the loudest row whose corner matches ``match``."""
        rows = [r for r in self.rows if all(r[0][k] == v for k, v in match.items())]
        row = max(rows, key=lambda r: r[1]["rx"])
        return row[1]["rx"] * 1000.0, row[0]


def receiver_values(circuit):
    amps = [p for p in circuit.parts if p.kind == "amplifier"]
    if not amps or not circuit.parts_data.audio:
        return None
    amp = amps[0]
    data = circuit.parts_data
    audio, part = data.audio, data.part("amplifier")
    pads = [float(p.value) for p in circuit.of(line=amp.line) if p.role == "pad"]
    rtol = float(data.part("resistor")["tolerance"])
    dc, zmax = float(audio["receiver_ohms"]), float(audio["receiver_ohms_max"])
    return {
        "line": amp.line,
        "rail": circuit.rails[amp.pins["VIN"]],    # the bridge swings the load by its supply either way
        "fullscale": 10 ** (float(part["fullscale_dbv"]) / 20.0) * math.sqrt(2.0),   # volts peak
        "gains": [float(g) for g in part["gains_db"]],
        "gain_tol": float(part.get("gain_tol_db", 0)),
        "pads": pads,
        "pad_corners": (1 - rtol, 1 + rtol),
        "dc": dc,
        "impedances": sorted({dc, (dc + zmax) / 2.0, zmax}),
        "hz": float(audio["receiver_z_hz"]),
        "rate": float(TONE_RATE),
        "ceiling_mv": float(audio["receiver_max_mv"]),
    }


def receiver_corners(values):
    return [{"signal": signal, "gain": gain, "z": z, "pad": pad}
            for signal in ("sine", "square") for gain in values["gains"]
            for z in values["impedances"] for pad in values["pad_corners"]]


def _square(hz, rate):
    """A full-scale square wave as the amplifier's DAC makes it from samples at ``rate``: its odd
    harmonics up to half the sample rate, no more (samples can't carry them), so it overshoots
    full scale a little at each edge, as a real one does, before the amplifier clips it."""
    terms = ["sin(%s*time)/%d" % (_g(2 * math.pi * hz * n), n) for n in range(1, int(rate / 2 / hz) + 1, 2)
             if n * hz < rate / 2]
    return "%s*(%s)" % (_g(4 / math.pi), " + ".join(terms))


def receiver_deck(values, corners):
    """Each copy: the amplifier's bridged output as one source (its digital full scale times the
    GAIN setting at its highest, clipped at the supply rail either way), the pad's legs, and the
    receiver as a resistance of its impedance ``z``. A real receiver's impedance is partly an
    inductance, which would take a little more of a square's harmonics: the figures are for
    the impedance the builder states, at the test tone."""
    period = 1.0 / values["hz"]
    step = period / STEPS
    w = 2 * math.pi * values["hz"]
    cards = ["* the receiver through the pad: generated by schematics/spice.py from hardware/pinmap.toml and "
             "hardware/parts.toml"]
    for i, c in enumerate(corners):
        peak = values["fullscale"] * 10 ** ((c["gain"] + values["gain_tol"]) / 20.0)
        wave = "sin(%s*time)" % _g(w) if c["signal"] == "sine" else _square(values["hz"], values["rate"])
        rail = _g(values["rail"])
        cards.append("* corner %d: %s" % (i, ", ".join("%s=%s" % (k, c[k]) for k in sorted(c))))
        cards.append("Bamp%d out%d 0 V = max(min(%s*%s, %s), -%s)" % (i, i, _g(peak), wave, rail, rail))
        legs = values["pads"]
        if len(legs) == 2:
            cards.append("Rpa%d out%d rxp%d %s" % (i, i, i, _g(legs[0] * c["pad"])))
            cards.append("Rpb%d rxn%d 0 %s" % (i, i, _g(legs[1] * c["pad"])))
        else:
            cards += ["Vpa%d out%d rxp%d 0" % (i, i, i), "Vpb%d rxn%d 0 0" % (i, i)]
        cards.append("Rrx%d rxp%d rxn%d %s" % (i, i, i, _g(c["z"])))
        cards.append("Erx%d rx%d 0 rxp%d rxn%d 1" % (i, i, i, i))     # the receiver's voltage, to measure
    for i in range(len(corners)):
        cards.append(".meas tran rx_%d RMS v(rx%d) FROM=%s TO=%s" % (i, i, _g(period), _g(2 * period)))
        cards.append(".meas tran out_%d RMS v(out%d) FROM=%s TO=%s" % (i, i, _g(period), _g(2 * period)))
    cards += [".tran %s %s" % (_g(step), _g(2 * period)), ".end", ""]
    return "\n".join(cards)


def simulate_receiver(circuit):
    values = receiver_values(circuit)
    if values is None:
        return None
    corners = receiver_corners(values)
    measured = run(receiver_deck(values, corners))
    return ReceiverResult(values, _results(measured, corners, ("rx", "out")))


# ------------------------------------------------------------------ the contact inputs

CONTACT_MEASURES = ("rise", "fall", "seen_break", "seen_make")
CONTACT_RIN = 1e9           # the GPIO's input, a high impedance (its leakage), so the pin's node has a DC path
CONTACT_RON_MIN = 0.01      # a clean contact, closed: as good as a short (a switch needs some resistance)


def contact_values(circuit, line="pulse"):
    """The pulse line's filter from the circuit (None if it has none), the dial's figures from
    parts.toml [dial], the input thresholds from the board, the tolerances from the parts."""
    parts = {p.role: p for p in circuit.of(line=line)}
    if not {"filter", "filter_pull", "input_series"} <= set(parts) or not circuit.parts_data.dial:
        return None
    data = circuit.parts_data
    dial = data.dial
    limits = circuit.limits
    rail = data.rails[parts["filter_pull"].pins["2"]]
    return {
        "line": line, "rail": rail,
        "pull": float(parts["filter_pull"].value), "series": float(parts["input_series"].value),
        "farads": float(parts["filter"].value.split()[0]) * 1e-9,
        "r_tol": float(data.part("resistor").get("tolerance", 0)),
        "c_tol": float(data.part("capacitor").get("tolerance", 0)),
        "contact_max": float(data.part("contact").get("ohms_max", 0)),
        "vih": float(limits.get("vih_min", rail * 0.65)), "vil": float(limits.get("vil_max", rail * 0.25)),
        "pps": (float(dial.get("pps_min", dial["pps_max"])), float(dial["pps_max"])),
        "break_ratio": float(dial["break_ratio"]),
    }


def contact_corners(values):
    """The fastest and the slowest dial, each with the filter at its slowest (every part high, the
    contact at its worst) and at its quickest (every part low, a clean contact)."""
    out = []
    for pps in sorted(set(values["pps"]), reverse=True):
        for slow in (True, False):
            k = 1 if slow else -1
            out.append({"pps": pps, "filter": "slowest" if slow else "quickest",
                        "pull": values["pull"] * (1 + k * values["r_tol"]),
                        "farads": values["farads"] * (1 + k * values["c_tol"]),
                        "ron": values["contact_max"] if slow else CONTACT_RON_MIN})
    return out


def contact_deck(values, corners):
    """Each copy: the contact as a switch driven by the dial's pulse train (closed at rest, the
    make; then a break, a make and a break), the pull-up from the rail, the capacitor to GND, the
    series resistor on to the GPIO. Measured from the first break: how late its edge reaches the
    pin's HIGH threshold, how late the next make's reaches its LOW one, and the break and make as
    the pin sees them, threshold to threshold."""
    cards = ["* the contact inputs' filter: generated by schematics/spice.py from hardware/pinmap.toml and "
             "hardware/parts.toml",
             "Vrail rail 0 %s" % _g(values["rail"])]
    tmax, tstop = None, 0.0
    for i, c in enumerate(corners):
        period = 1.0 / c["pps"]
        brk = period * values["break_ratio"]
        make = period - brk
        edge = min(brk, make) / 1e4
        tau = c["pull"] * c["farads"]
        tmax = min(tmax or tau, tau)
        tstop = max(tstop, make + 2 * period)
        cards.append("* corner %d: %s" % (i, ", ".join("%s=%s" % (k, c[k]) for k in sorted(c))))
        cards.append(".model SW%d SW(vt=0.5 vh=0 ron=%s roff=1e12)" % (i, _g(c["ron"])))
        # 1 = closed (a make), 0 = open (a break): rest, then break, make, break ...
        cards.append("Vctl%d ctl%d 0 PULSE(1 0 %s %s %s %s %s)" % (i, i, _g(make), _g(edge), _g(edge),
                                                                    _g(brk - edge), _g(period)))
        cards.append("S%d node%d 0 ctl%d 0 SW%d" % (i, i, i, i))
        cards.append("Rpull%d rail node%d %s" % (i, i, _g(c["pull"])))
        cards.append("Cf%d node%d 0 %s" % (i, i, _g(c["farads"])))
        cards.append("Rser%d node%d gpio%d %s" % (i, i, i, _g(values["series"])))
        cards.append("Rin%d gpio%d 0 %s" % (i, i, _g(CONTACT_RIN)))
    vih, vil = _g(values["vih"]), _g(values["vil"])
    for i in range(len(corners)):
        cards += [".meas tran rise_%d TRIG v(ctl%d) VAL=0.5 FALL=1 TARG v(gpio%d) VAL=%s RISE=1" % (i, i, i, vih),
                  ".meas tran fall_%d TRIG v(ctl%d) VAL=0.5 RISE=1 TARG v(gpio%d) VAL=%s FALL=1" % (i, i, i, vil),
                  ".meas tran seen_break_%d TRIG v(gpio%d) VAL=%s RISE=1 TARG v(gpio%d) VAL=%s FALL=1" % (i, i, vih, i, vil),
                  ".meas tran seen_make_%d TRIG v(gpio%d) VAL=%s FALL=1 TARG v(gpio%d) VAL=%s RISE=2" % (i, i, vil, i, vih)]
    cards += [".tran %s %s 0 %s" % (_g(tmax / 50), _g(tstop), _g(tmax / 20)), ".end", ""]
    return "\n".join(cards)


class ContactResult:
    """The pulse line's filter at the fastest and slowest dial, at every corner."""

    def __init__(self, values, rows):
        self.values = values
        self.rows = rows            # [(corner, measures)]

    def least(self, measure, pps):
        """The shortest of ``measure`` at that dial speed (None where the pin never saw it)."""
        found = [m[measure] for c, m in self.rows if c["pps"] == pps]
        return None if None in found else min(found)

    def most(self, measure, pps):
        found = [m[measure] for c, m in self.rows if c["pps"] == pps]
        return None if None in found else max(found)

    def dial(self, pps):
        """(break, make) of that dial, seconds."""
        period = 1.0 / pps
        return period * self.values["break_ratio"], period * (1 - self.values["break_ratio"])


def simulate_contacts(circuit):
    values = contact_values(circuit)
    if values is None:
        return None
    corners = contact_corners(values)
    return ContactResult(values, _results(run(contact_deck(values, corners)), corners, CONTACT_MEASURES))


# ------------------------------------------------------------------ all of them


class Results:
    def __init__(self, bell, opto, receiver, contacts=None, failsafe=None):
        self.bell = bell            # board -> BellResult
        self.opto = opto            # board -> OptoResult
        self.receiver = receiver    # ReceiverResult of the Pi's amplifier, or None
        self.contacts = contacts    # ContactResult of the Pi's pulse line (the cable's), or None
        self.failsafe = failsafe or {}  # board -> FailsafeResult


def simulate(all_circuits):
    """Every simulation for every board's circuit ({board: Circuit}), JOBS at a time (the
    receiver's only for the Pi: the Pico variant's sound is the Pi's amplifier too; the contacts'
    filter only where a board has one: the Pi build, whose contacts come over the cable)."""
    kinds = {"bell": simulate_bell, "opto": simulate_opto, "receiver": simulate_receiver,
             "contacts": simulate_contacts, "failsafe": simulate_failsafe}
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        jobs = {(kind, board): pool.submit(fn, circuit) for board, circuit in all_circuits.items()
                for kind, fn in kinds.items() if kind not in ("receiver", "contacts") or board == "pi"}
        done = {key: job.result() for key, job in jobs.items()}

    def of(kind):
        return {board: r for (k, board), r in done.items() if k == kind and r is not None}
    return Results(of("bell"), of("opto"), of("receiver").get("pi"), of("contacts").get("pi"), of("failsafe"))


# ------------------------------------------------------------------ the figures for docs/build.md


def _v(x):
    return "%.1f V" % x


def _ms(seconds):
    return "%.1f ms" % (seconds * 1000.0)


def markdown(results, names):
    """The simulations' figures as docs/build.md shows them; ``names`` maps a board to its title."""
    out = []
    bells = results.bell
    if bells:
        boards = list(bells)
        first = bells[boards[0]]
        v, s = first.values, first.strike
        out += ["The bell driver, through one %s strike (the fastest rate newsdesk allows, %g a second, "
                "%g %% on) and the %s rest after it, at %d corners per board: every combination of the "
                "supply (±%g %%), the coil's resistance (%g Ω ±%g %%) and inductance (%g mH ±%g %%)%s, "
                "each with the gate drive at its weakest and at its strongest."
                % (_ms(s.on), s.hz, STRIKE_DUTY * 100, _ms(s.period - s.on), len(first.rows),
                   _pct(v["supply"]), _mid(v["rcoil"]), _pct(v["rcoil"]), _mid(v["lcoil"]) * 1000, _pct(v["lcoil"]),
                   " and the snubber resistor (%g Ω ±%g %%)" % (_mid(v["rsnub"]), _pct(v["rsnub"]))
                   if v["rsnub"][1] else ", the flyback diode straight across the coil (no snubber resistor)"),
                "", "| | %s | limit |" % " | ".join(names[b] for b in boards),
                "| --- | %s | --- |" % " | ".join("---:" for _ in boards)]
        fet = first.values
        rows = [
            ("drain's peak at turn-off", lambda r: _v(r.drain_peak),
             "under %g V (%g %% of the MOSFET's %g V)" % (fet["vds_limit"], fet["vds_use"] * 100, fet["vds_max"])),
            ("gate, highest and lowest", lambda r: "%.1f V, %.1f V" % (r.gate_max, r.gate_min),
             "within ±%g V" % fet["vgs_max"]),
            ("coil current at the strike's end, least", lambda r: "%.2f A" % r.current_at_end,
             "pull-in %.2f A" % fet["pull_in"]),
            ("coil reaches pull-in after, at the latest",
             lambda r: _ms(r.pull_in_time) if r.pull_in_time is not None else "never", "within the strike"),
            ("coil current left when the next strike begins, most",
             lambda r: "%.3f A" % r.worst("i_left")[0], ""),
        ]
        for label, fn, limit in rows:
            out.append("| %s | %s | %s |" % (label, " | ".join(fn(bells[b]) for b in boards), limit))
    optos = results.opto
    if optos:
        boards = list(optos)
        first = optos[boards[0]]
        v = first.values
        out += ["", "The optocoupler at its weakest: its CTR at %g %% at 5 mA (the datasheet's least, %g %%, derated; "
                "less at smaller currents, by the datasheet's curve), "
                "its LED at %g V (the datasheet's most), the GPIO sagging to its least HIGH level, every "
                "resistor at the end that gives less, the MOSFET's threshold at its highest, on the slowest coil."
                % (v["ctr"][0] * 100, v["ctr_datasheet"] * 100, v["vf"][1]),
                "", "| | %s | limit |" % " | ".join(names[b] for b in boards),
                "| --- | %s | --- |" % " | ".join("---:" for _ in boards)]
        rows = [
            ("LED current", lambda r: "%.2f mA" % r.led_ma, ""),
            ("gate at the strike's end", lambda r: _v(r.gate), "at least %g V (fully on)" % v["vgs_on"]),
            ("drain while on", lambda r: "%.3f V" % r.drain_on, ""),
            ("turns the MOSFET on down to a CTR of",
             lambda r: "%.0f %%" % (r.least_ctr * 100) if r.least_ctr is not None else "not at all",
             "under the %g %% it is taken at" % (v["ctr"][0] * 100)),
        ]
        for label, fn, limit in rows:
            out.append("| %s | %s | %s |" % (label, " | ".join(fn(optos[b]) for b in boards), limit))
    if results.failsafe:
        out += [""] + _failsafe_markdown(results.failsafe, names)
    rx = results.receiver
    if rx is not None:
        v = rx.values
        zs = v["impedances"]
        out += ["", "The receiver (%s), the loudest of each: the amplifier's full-scale %g Hz sine and square "
                "(the square as its DAC makes it, harmonics to half the %g Hz sample rate), each gain at its "
                "datasheet's highest (+%g dB), clipped at its %g V supply either way, through the pad (%s, each "
                "at -%g %%) into the receiver as a resistance of its impedance:"
                % (names.get("pi", "pi"), v["hz"], v["rate"], v["gain_tol"], v["rail"],
                   " + ".join("%g Ω" % p for p in v["pads"]) or "none", (1 - v["pad_corners"][0]) * 100),
                "", "| GAIN | signal | amplifier out | %s |" % " | ".join("%g Ω" % z for z in zs),
                "| --- | --- | ---: | %s |" % " | ".join("---:" for _ in zs)]
        for gain in v["gains"]:
            for signal in ("sine", "square"):
                amp = max(m["out"] for c, m in rx.rows if c["gain"] == gain and c["signal"] == signal)
                cells = ["%.0f mV" % rx.loudest(signal=signal, gain=gain, z=z)[0] for z in zs]
                out.append("| %g dB | %s | %.2f V | %s |" % (gain, signal, amp, " | ".join(cells)))
        loud, corner = rx.loudest()
        out += ["", "Loudest: %.0f mV (%s, %g dB, %g Ω): %s newsdesk's %g mV ceiling."
                % (loud, corner["signal"], corner["gain"], corner["z"],
                   "under" if loud < v["ceiling_mv"] else "OVER", v["ceiling_mv"])]
    if results.contacts is not None:
        out += [""] + _contacts_markdown(results.contacts, names)
    return "\n".join(out)


def _failsafe_markdown(results, names):
    """The fail-safe: strike trains at each rate, and the line held high."""
    from .erc import default_strike_on
    boards = list(results)
    first = results[boards[0]]
    v = first.values
    full = default_strike_on()
    out = ["The fail-safe (the optocoupler lit through %g µF ±%g %%, with the bleed resistor and the reset "
           "diode): a %g s train of strikes at %s a second, the capacitor empty as the train starts and settling "
           "to what each rest leaves it; and the line held high. Four corners per board: the drive at its weakest on the slowest coil and at its strongest "
           "on the quickest, each with the capacitor at both ends of its tolerance."
           % (_mid(v["coupling"]) * 1e6, _pct(v["coupling"]), TRAIN_S, ", ".join("%g" % hz for hz in first.rates)),
           "", "| | %s | limit |" % " | ".join(names[b] for b in boards),
           "| --- | %s | --- |" % " | ".join("---:" for _ in boards)]
    rows = []
    for hz in first.rates:
        on = STRIKE_DUTY / hz
        at = "its end" if on <= full else "%s in (of %s)" % (_ms(full), _ms(on))
        rows.append(("gate at %s, %g a second, the train's last strike, least" % (at, hz),
                     lambda r, hz=hz: _v(r.least_gate(hz)),
                     "at least %g V (%g V fully on, and newsdesk's %.0f %% margin)" % (
                         erc.GATE_MARGIN * v["vgs_on"], v["vgs_on"], (erc.GATE_MARGIN - 1) * 100)))
        rows.append(("coil pulls in on every strike, %g a second" % hz,
                     lambda r, hz=hz: "yes" if r.pulls_in(hz) else "NO", ""))
        rows.append(("the MOSFET's heat through one strike, %g a second, most" % hz,
                     lambda r, hz=hz: "%.2f mJ (the rules: %.1f)" % (r.fet_heat(hz) * 1000, r.fet_bound[hz] * 1000),
                     "within the rules' bound (`fet_strike_heat`)"))
    rows += [
        ("line held high: coil under %.0f mA after, at the latest" % (first.off_a * 1000),
         lambda r: _ms(r.off_time) if r.off_time is not None else "never",
         "within %s (one strike at %g a second)" % (_ms(first.limit), 1 / first.limit)),
        ("line held high: coil current at %s, most" % _ms(first.limit), lambda r: "%.3f A" % r.current_at_limit, ""),
    ]
    for label, fn, limit in rows:
        out.append("| %s | %s | %s |" % (label, " | ".join(fn(results[b]) for b in boards), limit))
    return out


def _contacts_markdown(result, names):
    """The pulse line's filter at the fastest and slowest dial: the edges and the break and make
    at the GPIO, against what the decoder needs."""
    from controller.dial import decoder
    v = result.values
    settle = decoder.SETTLE[v["line"]]

    def ms(x):
        return "%.2f ms" % (x * 1000.0) if x is not None else "never"

    speeds = sorted(set(v["pps"]), reverse=True)
    out = ["The dial's pulse contacts (%s) through their filter to the GPIO: %g Ω pull-up and %g nF (each at "
           "both ends of its ±%g %% and ±%g %%), %g Ω in series; the contact closed at %g Ω at worst; the "
           "pin's thresholds %g V (HIGH) and %g V (LOW). The dial at %s pulses a second, %g %% break:"
           % (names.get("pi", "pi"), v["pull"], v["farads"] * 1e9, v["r_tol"] * 100, v["c_tol"] * 100, v["series"],
              v["contact_max"], v["vih"], v["vil"], " and ".join("%g" % p for p in speeds), v["break_ratio"] * 100),
           "", "| | %s | the decoder needs |" % " | ".join("%g pps" % p for p in speeds),
           "| --- | %s | --- |" % " | ".join("---:" for _ in speeds)]
    rows = [
        ("break, make", lambda p: "%s, %s" % tuple(ms(x) for x in result.dial(p)), ""),
        ("break's edge late at the pin, most", lambda p: ms(result.most("rise", p)),
         "within %s (SETTLE)" % _ms(settle)),
        ("make's edge late at the pin, most", lambda p: ms(result.most("fall", p)), "within %s" % _ms(settle)),
        ("break as the pin sees it, least", lambda p: ms(result.least("seen_break", p)),
         "at least %s (MIN_BREAK)" % _ms(max(settle, decoder.MIN_BREAK))),
        ("make as the pin sees it, least", lambda p: ms(result.least("seen_make", p)),
         "at least %s (MIN_MAKE)" % _ms(max(settle, decoder.MIN_MAKE))),
    ]
    for label, fn, need in rows:
        out.append("| %s | %s | %s |" % (label, " | ".join(fn(p) for p in speeds), need))
    return out


def _mid(pair):
    return (pair[0] + pair[1]) / 2.0


def _pct(pair):
    mid = _mid(pair)
    return round((pair[1] - mid) / mid * 100, 6) if mid else 0
