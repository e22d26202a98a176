"""One failed part of the bell driver, simulated: an ngspice deck per single fault, each with a
thermal model of the coil and the thermal cutoff against it, and of the MOSFET's tab and the
thermal cutoff clamped to it.

A shorted MOSFET or optocoupler output, or an unsoldered gate pull-down, holds the coil on at
full power; neither the fuse (it carries the coil's current) nor the fail-safe (it sits before
the failed part) ends that. The thermal cutoff does. The other faults (the fail-safe's parts
shorted or open) leave a line held high to die away, or the coil dark. Each deck shows where the
coil ends up: its heat at the end holding it no hotter than its continuous rating does (a
temperature: erc.coil_rating) and its winding under its insulation's class, and, where the cutoff
has to act, when it opens.

The thermal model (every figure an estimate from hardware/parts.toml [part.solenoid], stated so
in docs/build.md): the coil's heat flows into one thermal node (its heat capacity tau_s /
theta_c_per_w) and through theta_c_per_w to the air at [bell_driver] ambient_c; its winding's
resistance rises by copper_alpha per °C from 20 °C (the node's temperature; cold at the start,
the winding at the low end of its tolerance, or the high end for the slowest case); the winding's
inside runs theta_inner_c_per_w per watt above the node, where the cutoff sits. The cutoff is a
switch that opens for good when the node reaches its rated temperature (cutoff_c).

A leak onto the gate can hold the MOSFET half on instead: the coil then limits the current and
the MOSFET takes the heat, up to a quarter of the coil's at full drive, which may leave the coil
under its own cutoff. The MOSFET's tab is a second thermal node (its capacity tab_tau_s over its
resistance to the air, theta_ja - theta_jc from [part.mosfet]; its junction theta_jc per watt
above it), heated by the drain's volts times its current, with the second cutoff (fet_cutoff_c)
in the drain lead opening when the tab reaches its rating. The leak is planted where it hurts
most: a current into the gate that sets the MOSFET's current to half what the coil would take
at full drive (the drain at half the supply: the most the MOSFET can dissipate).

Each deck has two copies of the driver: the weakest (the supply at its lowest, the winding at its
highest resistance: the slowest to heat, so the cutoff's longest time) and the strongest (the
supply at its highest, the winding at its lowest: the hottest winding when it opens).
"""


from . import spice
from .erc import CUTOFF_OPENS_MAX_S, FET_TAB_MAX_C, coil_rating

SECONDS = 600               # simulated: the rules' bound on the cutoff's time (CUTOFF_OPENS_MAX_S)
MAX_STEP = 1.0              # seconds: the thermal node moves over minutes
LEAK_OHMS = 1e12            # the MOSFET's gate with its pull-down gone: only its leakage (typically
                            # nanoamps and less; the datasheet's 100 nA is a most, not a least), so it holds its charge
OPTO_STUCK_A = 0.05         # the optocoupler's output failed conducting: at its collector's rating (PC817: 50 mA)
FAULTS = (
    # name, words, the line's wave ("low", "strike": one strike then low, "held": high for good)
    ("mosfet_short", "the MOSFET's drain and source shorted", "low"),
    ("opto_short", "the optocoupler's output failed conducting", "low"),
    ("pulldown_open", "the gate pull-down open (unsoldered)", "strike"),
    ("coupling_short", "the fail-safe's capacitor shorted, the line held high", "held"),
    ("schottky_open", "the reset Schottky open, the line held high", "held"),
    ("schottky_short", "the reset Schottky shorted, the line held high", "held"),
    ("bleed_open", "the bleed resistor open, the line held high", "held"),
    ("gate_leak", "a leak onto the gate holding the MOSFET half on", "low"),
)
MEASURES = ("cut", "peak", "winding", "watts_end", "amps_end", "fet_cut", "tab", "junction", "fet_watts_end")


def thermal_values(circuit):
    """The coil's and the cutoff's thermal figures from the parts; None without a bell driver."""
    values = spice.bell_values(circuit)
    if values is None:
        return None
    data = circuit.parts_data
    sol = data.part("solenoid")
    cutoff = float(data.bell.get("cutoff_c") or 0)
    fet = data.part("mosfet")
    continuous_w, continuous_c = coil_rating(data)
    values.update(theta=float(sol["theta_c_per_w"]), tau=float(sol["tau_s"]),
                  theta_in=float(sol["theta_inner_c_per_w"]), alpha=float(sol["copper_alpha"]),
                  ambient=float(data.bell["ambient_c"]), cutoff=cutoff or None,
                  insulation=float(sol["insulation_c"]),
                  continuous_w=continuous_w, continuous_c=continuous_c,
                  theta_tab=float(fet["theta_ja"]) - float(fet["theta_jc"]), theta_jc=float(fet["theta_jc"]),
                  tab_tau=float(fet["tab_tau_s"]), tj_max=float(fet["tj_max"]),
                  fet_cutoff=float(data.bell.get("fet_cutoff_c") or 0) or None)
    return values


def fault_corners(values):
    """The weakest and the strongest copy (see the module's docstring)."""
    out = []
    for weak in (True, False):
        corner = spice._drive(values, weak)
        side = 0 if weak else 1
        corner.update(supply=values["supply"][side], rcoil=values["rcoil"][1 - side],
                      lcoil=values["lcoil"][1 - side], rsnub=values["rsnub"][1 - side])
        out.append(corner)
    return out


def _wave(values, kind):
    strike, high = spice.Strike(), spice._g(values["logic_v"])
    if kind == "low":
        return "DC 0"
    if kind == "held":
        return "PWL(0 0 %s %s)" % (spice._g(strike.edge), high)
    return "PWL(0 0 %s %s %s %s %s 0)" % (spice._g(strike.edge), high, spice._g(strike.on), high,
                                         spice._g(strike.on + strike.edge))


def leak_amps(values, c):
    """The leak into copy ``c``'s gate that holds its MOSFET where it dissipates the most: its
    current half the coil's at full drive (the coil at the air's temperature, as the deck starts),
    the gate voltage that gives it in the deck's level-1 model, over the gate pull-down."""
    kp = 1.0 / (values["rds_on"] * (values["vgs_on"] - c["vth"]))
    amps = c["supply"] / (2 * c["rcoil"] * (1 + values["alpha"] * (values["ambient"] - 20)))
    return (c["vth"] + (2 * amps / kp) ** 0.5) / c["rpd"]


def _faulted(cards, i, fault, values, c):
    """The driver's cards with ``fault`` planted in copy ``i`` (corner ``c``)."""
    def drop(prefix):
        return [card for card in cards if not card.startswith("%s%d " % (prefix, i))]
    if fault == "mosfet_short":
        return cards + ["Rfault%d dm%d 0 0.001" % (i, i)]
    if fault == "gate_leak":
        return cards + ["Ileak%d vcc%d g%d DC %s" % (i, i, i, spice._g(leak_amps(values, c)))]
    if fault == "opto_short":
        return cards + ["Bfault%d vcc%d g%d I = %s*tanh(max(v(vcc%d,g%d),0)/0.2)" % (
            i, i, i, spice._g(OPTO_STUCK_A), i, i)]
    if fault == "pulldown_open":
        return drop("Rpd") + ["Rleak%d g%d 0 %s" % (i, i, spice._g(LEAK_OHMS))]
    if fault == "coupling_short":
        return drop("Ccpl") + ["Rfault%d cpl%d led%d 0.001" % (i, i, i)]
    if fault == "schottky_open":
        return drop("Dreset")
    if fault == "schottky_short":
        return drop("Dreset") + ["Rfault%d led%d 0 0.001" % (i, i)]
    if fault == "bleed_open":
        return drop("Rbleed")
    raise ValueError(fault)


def _thermal_cards(i, c, values):
    """The coil's winding as a resistance that rises with the thermal node's temperature, the
    node itself, and the cutoff between the supply and the coil."""
    r20 = "%s*(1+%s*(v(th%d)+%s-20))" % (spice._g(c["rcoil"]), spice._g(values["alpha"]), i,
                                         spice._g(values["ambient"]))
    cards = ["Bcoil%d coilr%d d%d I = v(coilr%d,d%d)/(%s)" % (i, i, i, i, i, r20),
             "Bheat%d 0 th%d I = v(coilr%d,d%d)*v(coilr%d,d%d)/(%s)" % (i, i, i, i, i, i, r20),
             "Cth%d th%d 0 %s" % (i, i, spice._g(values["tau"] / values["theta"])),
             "Rth%d th%d 0 %s" % (i, i, spice._g(values["theta"])),
             "Bwatts%d watts%d 0 V = v(coilr%d,d%d)*v(coilr%d,d%d)/(%s)" % (i, i, i, i, i, i, r20),
             "Bwind%d wind%d 0 V = %s+v(th%d)+%s*v(watts%d)" % (i, i, spice._g(values["ambient"]), i,
                                                            spice._g(values["theta_in"]), i)]
    if values["cutoff"]:
        cards += ["Btc%d tc%d 0 V = %s-v(th%d)" % (i, i, spice._g(values["cutoff"] - values["ambient"]), i),
                  "Scut%d vcc%d top%d tc%d 0 SCUT ON" % (i, i, i, i)]
    else:
        cards.append("Vnocut%d vcc%d top%d 0" % (i, i, i))
    # the MOSFET's tab: heated by the drain's volts times its current, the junction above it
    watts = "max(v(dm%d),0)*i(Vq%d)" % (i, i)
    cards += ["Bqheat%d 0 thq%d I = %s" % (i, i, watts),
              "Cthq%d thq%d 0 %s" % (i, i, spice._g(values["tab_tau"] / values["theta_tab"])),
              "Rthq%d thq%d 0 %s" % (i, i, spice._g(values["theta_tab"])),
              "Bqwatts%d qwatts%d 0 V = %s" % (i, i, watts),
              "Bjunction%d junction%d 0 V = %s+v(thq%d)+%s*v(qwatts%d)" % (
                  i, i, spice._g(values["ambient"]), i, spice._g(values["theta_jc"]), i)]
    if values["fet_cutoff"]:
        cards += ["Btcq%d tcq%d 0 V = %s-v(thq%d)" % (i, i, spice._g(values["fet_cutoff"] - values["ambient"]), i),
                  "Scutq%d d%d dq%d tcq%d 0 SCUT ON" % (i, i, i, i)]
    else:
        cards.append("Vnocutq%d d%d dq%d 0" % (i, i, i))
    return cards


def fault_deck(values, corners, fault, kind):
    """One fault's deck: both copies, each its driver with the fault planted and the coil's heat."""
    cards = spice._models("the bell driver with %s" % fault, values)
    # the cutoff: closed until the node reaches its rated temperature, then open for good (a
    # hysteresis wider than any temperature, so it never closes again)
    cards.append(".model SCUT SW(vt=500 vh=500 ron=0.01 roff=1e9)")
    for i, c in enumerate(corners):
        driver = spice._driver_cards(i, c, values, _wave(values, kind))
        # the coil, fed through the cutoff, its resistance the thermal model's
        driver = [card.replace("Vcoil%d vcc%d coil%d 0" % (i, i, i), "Vcoil%d top%d coil%d 0" % (i, i, i))
                  for card in driver if not card.startswith("Rcoil%d " % i)]
        driver = [card.replace("Dfly%d d%d vcc%d DFLY" % (i, i, i), "Dfly%d d%d top%d DFLY" % (i, i, i))
                  for card in driver]
        # the MOSFET's own drain (dm) beyond its cutoff (d stays the coil's bottom end): its probe
        # from dq, the cutoff's far side
        driver = [card.replace("Vq%d d%d dm%d 0" % (i, i, i), "Vq%d dq%d dm%d 0" % (i, i, i)) for card in driver]
        cards += _faulted(driver, i, fault, values, c) + _thermal_cards(i, c, values)
    for i in range(len(corners)):
        cards += [".meas tran cut_%d WHEN v(tc%d)=1 FALL=1" % (i, i) if values["cutoff"] else "",
                  ".meas tran peak_%d MAX v(th%d)" % (i, i),
                  ".meas tran winding_%d MAX v(wind%d)" % (i, i),
                  ".meas tran watts_end_%d FIND v(watts%d) AT=%s" % (i, i, spice._g(SECONDS)),
                  ".meas tran amps_end_%d FIND i(Vcoil%d) AT=%s" % (i, i, spice._g(SECONDS)),
                  ".meas tran fet_cut_%d WHEN v(tcq%d)=1 FALL=1" % (i, i) if values["fet_cutoff"] else "",
                  ".meas tran tab_%d MAX v(thq%d)" % (i, i),
                  ".meas tran junction_%d MAX v(junction%d)" % (i, i),
                  ".meas tran fet_watts_end_%d FIND v(qwatts%d) AT=%s" % (i, i, spice._g(SECONDS))]
    cards += [".ic %s" % " ".join("v(th%d)=0 v(thq%d)=0" % (i, i) for i in range(len(corners))),
              ".options method=gear", ".tran %s %s 0 %s" % (spice._g(spice.Strike().step), spice._g(SECONDS),
                                                             spice._g(MAX_STEP)), ".end", ""]
    return "\n".join(card for card in cards if card)


class FaultResult:
    """One board's single faults: fault -> [(corner, measures)]."""

    def __init__(self, board, values, rows):
        self.board = board
        self.values = values
        self.rows = rows

    def worst(self, fault):
        """(the latest the cutoff opens or None if it never has to, the hottest winding, °C; the most
        the coil dissipates at the end, W)."""
        rows = [m for _, m in self.rows[fault]]
        cuts = [m["cut"] for m in rows]
        cut = None if all(c is None for c in cuts) else max(c for c in cuts if c is not None)
        ends = [m["watts_end"] for m in rows]
        return cut, max(m["winding"] for m in rows), max(ends)

    def fet_worst(self, fault):
        """(the latest the MOSFET's cutoff opens or None if it never does, its tab's hottest and its
        junction's hottest, °C; the most it dissipates at the end, W)."""
        rows = [m for _, m in self.rows[fault]]
        cuts = [m["fet_cut"] for m in rows if m["fet_cut"] is not None]
        return (max(cuts) if cuts else None, self.values["ambient"] + max(m["tab"] for m in rows),
                max(m["junction"] for m in rows), max(m["fet_watts_end"] for m in rows))

    def settles_c(self, watts):
        """Where ``watts`` for good holds the coil's surface, °C."""
        return self.values["ambient"] + self.values["theta"] * watts

    def unsafe(self):
        """A sentence for each fault whose heat at the end would hold the coil hotter than its
        continuous rating does,
        lets the cutoff open later than the rules' bound, or takes the winding over its class; or
        takes the MOSFET's tab over newsdesk's ceiling for a part in the box, or its junction over
        its maximum."""
        out = []
        words = {name: text for name, text, _ in FAULTS}
        for name in self.rows:
            cut, hottest, end = self.worst(name)
            if self.settles_c(end) > self.values["continuous_c"]:
                out.append("with %s the coil still dissipates %.1f W after %d s, which holds it at %.0f °C: over the "
                           "%.0f °C of its continuous rating" % (words[name], end, SECONDS, self.settles_c(end),
                                                                 self.values["continuous_c"]))
            elif cut is not None and cut > CUTOFF_OPENS_MAX_S:
                out.append("with %s the cutoff opens only after %.0f s" % (words[name], cut))
            if hottest > self.values["insulation"]:
                out.append("with %s the winding reaches %.0f °C" % (words[name], hottest))
            _, tab, junction, _ = self.fet_worst(name)
            if tab > FET_TAB_MAX_C:
                out.append("with %s the MOSFET's tab reaches %.0f °C" % (words[name], tab))
            if junction > self.values["tj_max"]:
                out.append("with %s the MOSFET's junction reaches %.0f °C" % (words[name], junction))
        return out


def bell_values(circuit):
    """(the thermal values, the corners) of a board's bell driver with its fail-safe, or None
    without one: what the single faults' and the toggling line's decks are made from."""
    values = thermal_values(circuit)
    if values is None or values["coupling"] is None:
        return None
    return values, fault_corners(values)


def simulate_faults(circuit):
    """Every single fault's deck for one board, run JOBS at a time; None without a bell driver."""
    bell = bell_values(circuit)
    if bell is None:
        return None
    values, corners = bell
    runs = spice.run_many([fault_deck(values, corners, name, fault) for name, _, fault in FAULTS])
    rows = {name: spice._results(measured, corners, MEASURES) for (name, _, _), measured in zip(FAULTS, runs)}
    return FaultResult(circuit.board, values, rows)


def markdown(result):
    """The faults' table for docs/build.md."""
    v = result.values
    out = ["Each fault in its own ngspice deck, %d s of it, the coil's heat by the thermal model above "
           "(the air at %g °C; the coil's continuous rating %.1f W, which holds it at %.0f °C, its insulation %g °C; "
           "the cutoff %s), at the weakest and the strongest corner:" % (
               SECONDS, v["ambient"], v["continuous_w"], v["continuous_c"], v["insulation"],
               "opening at %g °C" % v["cutoff"] if v["cutoff"] else "not fitted"),
           "", "| single fault | the cutoff opens after | the winding's hottest | the coil dissipates at the end |",
           "| --- | ---: | ---: | ---: |"]
    words = {name: text for name, text, _ in FAULTS}
    for name in result.rows:
        cut, hottest, end = result.worst(name)
        out.append("| %s | %s | %.0f °C | %.2f W |" % (words[name], "%.0f s" % cut if cut is not None else "(never needs to)",
                                                     hottest, max(end, 0.0)))
    out += ["", "And the MOSFET, its tab in the same air (%g °C per watt to it, a time constant of %g s; its "
            "junction %g °C per watt above the tab, at most %g °C; the cutoff on its tab %s):" % (
                v["theta_tab"], v["tab_tau"], v["theta_jc"], v["tj_max"],
                "opening at %g °C" % v["fet_cutoff"] if v["fet_cutoff"] else "not fitted"),
            "", "| single fault | the tab's cutoff opens after | the tab's hottest | the junction's hottest "
            "| the MOSFET dissipates at the end |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in result.rows:
        cut, tab, junction, end = result.fet_worst(name)
        out.append("| %s | %s | %.0f °C | %.0f °C | %.2f W |" % (
            words[name], "%.0f s" % cut if cut is not None else "(never needs to)", tab, junction, max(end, 0.0)))
    unsafe = result.unsafe()
    if unsafe:
        out += ["", "**Not safe**: %s." % "; ".join(unsafe)]
    else:
        out += ["", "In every case the coil ends within %d s (the rules' bound) on a heat that holds it under the "
                "%.0f °C of its continuous rating, its winding under %g °C, and the MOSFET's tab under %g °C." % (
                    CUTOFF_OPENS_MAX_S, v["continuous_c"], v["insulation"], FET_TAB_MAX_C)]
    return "\n".join(out)
