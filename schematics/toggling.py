"""A line that toggles instead of sticking, simulated on two time scales: what heat it puts in
the coil, and where that heat takes the coil over the long run.

The fail-safe's capacitor ends a line held high, but a line that keeps going low and high again
(the UART's TXD with the serial console on, newsdesk striking with no cadence, a program that
blinks the wrong pin) is emptied by the reset diode at each low and lights the LED again at each
rise. Strikes of 600 s can't be simulated at the electrical time step, so:

    electrical  the bell driver (schematics/spice.py, with its fail-safe) driven by a square wave
                at each rate in RATES (half high, half low), at the weakest and the strongest
                corner (schematics/faults.py): SETTLE_S for the capacitor to settle to what each
                low leaves it, then the coil's heat (its current squared times its resistance)
                averaged over whole periods. Each deck holds one rate, so each takes only the
                time steps its own edges need; they run JOBS at a time.
    thermal     the coil's thermal model (the one schematics/faults.py uses: its heat capacity,
                theta_c_per_w to the air, the winding's resistance rising with copper_alpha, the
                cutoff opening for good at its rated temperature), fed with that average as a
                share of the full power at the coil's present resistance, for LONG_S (over ten
                of its time constants, so it has settled); one copy for each rate and corner,
                and one more at the heat that settles the coil just under the cutoff's rated
                temperature (UNDER_C below it: some duty of toggling line gives that, since the
                heat a toggling line gives runs without a gap from nothing up to the held-on
                power; that copy is the one the cutoff never cuts off, its worst case).

Read back for each copy: when the cutoff opens (if ever), the winding's hottest, and the coil's
heat at the end. A toggling line is safe when in every copy the winding stays under its
insulation's class; the copies the cutoff doesn't open are compared with the coil's continuous
rating too (the temperature it holds the coil at: erc.coil_rating), in the table docs/build.md shows. Every thermal figure is an estimate (the same as
the single faults': docs/build.md says which).
"""


from . import spice
from .erc import UNDER_C
from .faults import bell_values

RATES = (1.25, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0)   # Hz, octaves either side of the strikes' 5-40
SETTLE_S = 0.25             # over six of the fail-safe's longest time constants (40 ms)
WINDOW_S = 0.1              # the heat is averaged over at least this long, and two whole periods
EDGE_S = 1e-5               # the wave's rise and fall: far quicker than the coil (L/R about 1 ms)
                            # or the gate (its pull-down x its capacitance, about 100 us), so they set the speed
LONG_S = 3000               # the thermal deck: 12 time constants of the coil's 240 s
LONG_STEP = 1.0             # seconds
MEASURES = ("cut", "winding", "watts_end", "node_end")


def _wave(values, hz):
    period = 1.0 / hz
    return "PULSE(0 %s 0 %s %s %s %s)" % (spice._g(values["logic_v"]), spice._g(EDGE_S), spice._g(EDGE_S),
                                         spice._g(period / 2 - EDGE_S), spice._g(period))


def window(hz):
    """(start, stop) of the averaging: whole periods after SETTLE_S."""
    periods = max(2, round(WINDOW_S * hz))
    return SETTLE_S, SETTLE_S + periods / hz


def electrical_deck(values, corners, hz):
    """The driver at ``hz``, one copy per corner: the coil's heat averaged over the window."""
    start, stop = window(hz)
    period = 1.0 / hz
    cards = spice._models("the bell driver, its line toggling at %g Hz" % hz, values)
    for i, c in enumerate(corners):
        cards += spice._driver_cards(i, c, values, _wave(values, hz))
    for i, c in enumerate(corners):
        cards.append(".meas tran watts_%d AVG par('i(Vcoil%d)*i(Vcoil%d)*%s') FROM=%s TO=%s" % (
            i, i, i, spice._g(c["rcoil"]), spice._g(start), spice._g(stop)))
    # the first step a hundredth of a period, the longest a twentieth (and never over 1 ms: the
    # coil's own time constant); gear integration, as the other bell decks, for the stiff edges
    cards += [".options method=gear", ".tran %s %s 0 %s" % (spice._g(min(period / 100, 1e-4)), spice._g(stop),
                                                             spice._g(min(period / 20, 1e-3))), ".end", ""]
    return "\n".join(cards)


def _r(values, c, node):
    """The winding's resistance at the thermal node's temperature (the node holds its rise over the air)."""
    return "%s*(1+%s*(v(%s)+%s-20))" % (spice._g(c["rcoil"]), spice._g(values["alpha"]), node,
                                        spice._g(values["ambient"]))


def share_for(values, c, node_c):
    """The share of full power (the supply across the cold-corner winding, scaled by its
    resistance) that settles the thermal node at ``node_c``."""
    watts = (node_c - values["ambient"]) / values["theta"]
    hot = c["rcoil"] * (1 + values["alpha"] * (node_c - 20))
    return watts * hot / c["supply"] ** 2


def thermal_deck(values, copies):
    """``copies``: [(corner, share)]; each its own thermal node, fed share x supply^2 / R(T)
    while its cutoff is closed."""
    cards = ["* the coil's heat from a toggling line: generated by schematics/toggling.py from "
             "hardware/pinmap.toml and hardware/parts.toml",
             ".model SCUT SW(vt=500 vh=500 ron=0.01 roff=1e9)"]
    for i, (c, share) in enumerate(copies):
        r = _r(values, c, "th%d" % i)
        cards += ["Vone%d one%d 0 DC 1" % (i, i),
                  "Rclosed%d closed%d 0 1" % (i, i)]
        if values["cutoff"]:
            cards += ["Btc%d tc%d 0 V = %s-v(th%d)" % (i, i, spice._g(values["cutoff"] - values["ambient"]), i),
                      "Scut%d one%d closed%d tc%d 0 SCUT ON" % (i, i, i, i)]
        else:
            cards.append("Vnocut%d one%d closed%d 0" % (i, i, i))
        cards += ["Bwatts%d watts%d 0 V = v(closed%d)*%s*%s/(%s)" % (i, i, i, spice._g(share),
                                                                    spice._g(c["supply"] ** 2), r),
                  "Bheat%d 0 th%d I = v(watts%d)" % (i, i, i),
                  "Cth%d th%d 0 %s" % (i, i, spice._g(values["tau"] / values["theta"])),
                  "Rth%d th%d 0 %s" % (i, i, spice._g(values["theta"])),
                  "Bwind%d wind%d 0 V = %s+v(th%d)+%s*v(watts%d)" % (i, i, spice._g(values["ambient"]), i,
                                                                 spice._g(values["theta_in"]), i)]
    for i in range(len(copies)):
        cards += [".meas tran cut_%d WHEN v(closed%d)=0.5 FALL=1" % (i, i),
                  ".meas tran winding_%d MAX v(wind%d)" % (i, i),
                  ".meas tran watts_end_%d FIND v(watts%d) AT=%s" % (i, i, spice._g(LONG_S)),
                  ".meas tran node_end_%d FIND v(th%d) AT=%s" % (i, i, spice._g(LONG_S))]
    cards += [".ic %s" % " ".join("v(th%d)=0" % i for i in range(len(copies))),
              ".tran %s %s 0 %s" % (spice._g(LONG_STEP), spice._g(LONG_S), spice._g(LONG_STEP)), ".end", ""]
    return "\n".join(card for card in cards if card)


class ToggleResult:
    """One board's toggling line: the coil's average heat at each rate and corner, and where the
    thermal model takes it. ``rows``: [(label, corner, electrical watts or None, measures)]."""

    def __init__(self, board, values, rows):
        self.board = board
        self.values = values
        self.rows = rows

    def swept(self):
        return [r for r in self.rows if r[2] is not None]

    def worst_rate(self):
        """(rate, watts, corner's drive) of the rate that heats the coil most."""
        label, corner, watts, _ = max(self.swept(), key=lambda r: r[2])
        return label, watts, corner["drive"]

    def hottest(self):
        return max(m["winding"] for _, _, _, m in self.rows)

    def unsafe(self):
        """A sentence for each copy whose winding passes its insulation's class."""
        return ["toggling %s the winding reaches %.0f °C" % (self.label(label, c), m["winding"])
                for label, c, _, m in self.rows if m["winding"] > self.values["insulation"]]

    @staticmethod
    def label(label, c):
        what = "at %g Hz" % label if isinstance(label, float) else "at the heat that settles under the cutoff"
        return "%s (%s corner)" % (what, c["drive"])


def simulate_toggling(circuit):
    """The sweep, then the thermal deck; None without a bell driver with its fail-safe."""
    bell = bell_values(circuit)
    if bell is None:
        return None
    values, corners = bell
    runs = spice.run_many([electrical_deck(values, corners, hz) for hz in RATES])
    copies, rows = [], []
    for hz, measured in zip(RATES, runs):
        for i, c in enumerate(corners):
            watts = measured["watts_%d" % i]
            copies.append((c, watts * c["rcoil"] / c["supply"] ** 2))
            rows.append((hz, c, watts))
    if values["cutoff"]:
        strong = corners[-1]
        copies.append((strong, share_for(values, strong, values["cutoff"] - UNDER_C)))
        rows.append(("under", strong, None))
    thermal = spice._results(spice.run(thermal_deck(values, copies)), [c for c, _ in copies], MEASURES)
    return ToggleResult(circuit.board, values, [row + (m,) for row, (_, m) in zip(rows, thermal)])


def markdown(result):
    """The toggling line's table for docs/build.md."""
    v = result.values
    label, watts, drive = result.worst_rate()
    out = ["The line toggling (half high, half low) at %s Hz, each rate's electrical deck up to %.0f ms long "
           "(the capacitor settling, then the coil's heat averaged over whole periods), at the weakest and the "
           "strongest corner; then the coil's thermal model (as for the single faults) fed that heat for %d s:" % (
               ", ".join("%g" % hz for hz in RATES), window(RATES[0])[1] * 1000, LONG_S),
           "", "| the line toggling | the coil's heat, weakest corner | strongest corner | the cutoff opens after "
           "(weakest, strongest) | the winding's hottest | the coil dissipates at the end, most |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    by_rate: dict = {}
    for hz, c, w, m in result.rows:
        by_rate.setdefault(hz, []).append((c, w, m))
    for hz, entries in by_rate.items():
        cuts = ", ".join("never" if m["cut"] is None else "%.0f s" % m["cut"] for _, _, m in entries)
        hottest = max(m["winding"] for _, _, m in entries)
        end = max(max(m["watts_end"], 0.0) for _, _, m in entries)
        if hz == "under":
            out.append("| the heat that settles the coil %g °C under the cutoff's %g °C (some duty of toggling) "
                       "| | %.2f W | %s | %.0f °C | %.2f W |" % (UNDER_C, v["cutoff"], entries[0][2]["watts_end"],
                                                              cuts, hottest, end))
        else:
            heat = {c["drive"]: w for c, w, _ in entries}
            out.append("| %g Hz | %.2f W | %.2f W | %s | %.0f °C | %.2f W |" % (hz, heat["weak"], heat["strong"],
                                                                              cuts, hottest, end))
    under = [m for hz, _, _, m in result.rows if hz == "under"]
    out += ["", "The worst rate: %g Hz, %.2f W at the %s corner. " % (label, watts, drive)]
    unsafe = result.unsafe()
    if unsafe:
        out[-1] += "**Not safe**: %s." % "; ".join(unsafe)
    else:
        out[-1] += ("At every rate and corner the winding stays under its %g °C insulation class (at most %.0f °C)"
                    % (v["insulation"], result.hottest()))
        if under:
            settled = v["ambient"] + under[0]["node_end"]
            out[-1] += ("; a toggling line whose heat settles just under the cutoff keeps the coil at %.1f °C (%.2f W) "
                        "for good, %s the %.0f °C its %.1f W continuous rating holds it at." % (
                            settled, under[0]["watts_end"], "over" if settled > v["continuous_c"] else "within",
                            v["continuous_c"], v["continuous_w"]))
        else:
            out[-1] += "."
    return "\n".join(out)
