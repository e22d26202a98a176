"""The circuits simulated (schematics/spice.py, ngspice): the repo's parts keep the drain, the
gate, the coil's current, the optocoupler and the receiver's level inside the parts' limits at
every corner of their tolerances, and a copy of the parts broken on purpose shows the simulation
catching what it exists for. Without ngspice these skip (in CI, NEWSDESK_REQUIRE_NGSPICE makes
that a failure)."""

import copy
import math
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import need_ngspice, spice_answers_shared

from controller.pinmap import load_pinmap, parse_pinmap

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from schematics import generate, spice  # noqa: E402
from schematics.circuit import build  # noqa: E402
from schematics.parts import DEFAULT_PARTS, Parts  # noqa: E402

PARTS_DATA = tomllib.loads(DEFAULT_PARTS.read_text(encoding="utf-8"))
PINMAP = load_pinmap()


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    need_ngspice()
    with spice_answers_shared(tmp_path_factory):
        return spice.simulate(generate.circuits())


def broken(**changes):
    """The Pi's circuit from a copy of the parts with ``changes`` ({"part.solenoid": {...}} or
    {"bell_driver": {...}}) made to it."""
    data = copy.deepcopy(PARTS_DATA)
    for where, values in changes.items():
        table = data
        for key in where.split("."):
            table = table[key]
        table.update(values)
    return build(PINMAP, Parts(data, "broken parts.toml"), "pi")


@pytest.mark.slow
def test_both_boards_bell_drivers_and_the_receiver_are_simulated(results):
    assert set(results.bell) == set(results.opto) == set(generate.circuits())
    assert results.receiver is not None
    for result in results.bell.values():
        # every corner measured, both gate drives among them
        assert all(None not in (m["drain"], m["gate_max"], m["gate_min"], m["i_on"]) for _, m in result.rows)
        assert {c["drive"] for c, _ in result.rows} == {"weak", "strong"}


@pytest.mark.slow
def test_the_drain_peaks_under_the_mosfets_rating_with_margin(results):
    for board, result in results.bell.items():
        v = result.values
        assert result.drain_peak < v["vds_limit"] <= v["vds_max"], (board, result.worst("drain"))


@pytest.mark.slow
def test_the_drain_peak_is_the_supply_plus_what_the_flyback_path_drops(results):
    """A cross-check of the deck's wiring: at turn-off the coil's current flows on through the
    diode and its resistor, so the drain sits that drop above the supply, and no higher than the
    datasheet's diode drop and the resistor at the largest current allow."""
    for board, result in results.bell.items():
        v = result.values
        peak, corner = result.worst("drain")
        current = corner["supply"] / corner["rcoil"]
        diode_max = v["diode_rs"] * current + spice.THERMAL_V * math.log(current / v["diode_is"] + 1)
        assert corner["supply"] < peak <= corner["supply"] + current * corner["rsnub"] + diode_max, (board, corner)


@pytest.mark.slow
def test_the_gate_stays_within_its_limits(results):
    for board, result in results.bell.items():
        limit = result.values["vgs_max"]
        assert -limit < result.gate_min and result.gate_max < limit, (board, result.worst("gate_max"))


@pytest.mark.slow
def test_the_coil_reaches_its_pull_in_current_within_the_shortest_strike(results):
    for board, result in results.bell.items():
        assert result.pull_in_time is not None, (board, result.worst("i_on", min))
        assert result.pull_in_time < result.strike.on
        assert result.current_at_end >= result.values["pull_in"]


@pytest.mark.slow
def test_the_optocoupler_at_its_weakest_turns_the_mosfet_on(results):
    for board, result in results.opto.items():
        v = result.values
        corner = result.rows[0][0]
        assert corner["ctr"] == v["ctr"][0] and corner["vf"] == v["vf"][1] and corner["drive"] == "weak"
        assert result.gate >= v["vgs_on"], (board, result.gate)
        assert result.least_ctr is not None and result.least_ctr <= corner["ctr"], (board, result.least_ctr)


@pytest.mark.slow
def test_the_failsafe_passes_every_strike_of_a_train_at_every_rate(results):
    """Through the fail-safe's capacitor, a train of strikes at the slowest, the default and the
    fastest rate: at every corner the gate is still fully on at the end of the train's last
    strike (or, at a rate slower than the default, a default strike's on-time into it), and the
    coil pulls in on every strike."""
    from controller.hw.bell import STRIKE_HZ, STRIKE_HZ_RANGE
    from schematics import erc
    from schematics.erc import default_strike_on
    assert set(results.failsafe) == set(results.bell)
    for board, result in results.failsafe.items():
        assert result.rates == sorted({STRIKE_HZ_RANGE[0], STRIKE_HZ, STRIKE_HZ_RANGE[1]})
        for hz in result.rates:
            assert len(result.trains[hz]) == 4 and all(None not in m.values() for _, m in result.trains[hz])
            # fully on, with the rules' margin over the MOSFET's vgs_on
            assert result.least_gate(hz) >= erc.GATE_MARGIN * result.values["vgs_on"], (board, hz, result.trains[hz])
            assert result.pulls_in(hz), (board, hz)
        assert default_strike_on() == pytest.approx(0.020)


@pytest.mark.slow
def test_a_line_held_high_lets_the_coil_go_within_one_strike(results):
    """The line goes high and stays high (newsdesk killed mid-strike): the coil pulls in once,
    then its current falls under 1 % of its rating within one strike at the slowest rate, at
    every corner, and no later than the rules' own bound; at the limit it is all but nothing."""
    from schematics import erc
    circuits = generate.circuits()
    for board, result in results.failsafe.items():
        assert result.off_time is not None, (board, result.held)
        bound = erc.failsafe_timing(circuits[board])["off"]
        assert result.off_time <= bound <= result.limit == pytest.approx(0.2), (board, result.off_time, bound)
        assert result.current_at_limit < result.off_a / 100, board
        assert all(abs(m["gate_limit"]) < result.values["vth"][0] for _, m in result.held)


@pytest.mark.slow
def test_an_unclipped_sine_through_the_pad_is_the_divider(results):
    """A cross-check: where the amplifier doesn't clip, the receiver's level is the full-scale
    output times the gain, divided by the pad and the receiver."""
    rx = results.receiver
    v = rx.values
    checked = 0
    for corner, m in rx.rows:
        out_peak = v["fullscale"] * 10 ** ((corner["gain"] + v["gain_tol"]) / 20.0)
        if corner["signal"] != "sine" or out_peak >= v["rail"]:
            continue
        z = corner["z"]
        expected = out_peak / 2 ** 0.5 * z / (z + sum(v["pads"]) * corner["pad"])
        assert m["rx"] == pytest.approx(expected, rel=0.01), corner
        checked += 1
    assert checked


@pytest.mark.slow
def test_the_receiver_stays_under_the_ceiling_at_every_gain_and_impedance(results):
    rx = results.receiver
    loud, corner = rx.loudest()
    assert loud < rx.values["ceiling_mv"], (
        "the receiver can get %.0f mV (%s at %g dB into %g ohms): over the %g mV ceiling"
        % (loud, corner["signal"], corner["gain"], corner["z"], rx.values["ceiling_mv"]))


@pytest.mark.slow
def test_the_mosfets_heat_through_a_strike_stays_within_the_rules_bound(results):
    """The rules bound what a strike heats the MOSFET by (erc.fet_strike_heat: fully on, fading,
    turning off), and from it the tab through ringing; the strike trains measure the heat itself at
    the slowest, the default and the fastest rate, at every corner, and it stays within the bound."""
    from schematics import erc
    for board, failsafe in results.failsafe.items():
        circuit = generate.circuits()[board]
        for hz in failsafe.rates:
            simulated, bound = failsafe.fet_heat(hz), erc.fet_strike_heat(circuit, hz)
            assert 0 < simulated <= bound, (board, hz, simulated, bound)


# ------------------------------------------------------------------ parts broken on purpose


@pytest.mark.slow
def test_a_1_amp_coil_with_a_47_ohm_snubber_drives_the_drain_over_55_volts():
    need_ngspice()
    rated = PARTS_DATA["part"]["solenoid"]["rated_v"]
    result = spice.simulate_bell(broken(**{"part.solenoid": {"coil_ohms": rated / 1.0},
                                           "bell_driver": {"snubber_ohms": 47}}))
    assert result.drain_peak > result.values["vds_max"]


@pytest.mark.slow
def test_no_zener_on_a_24_volt_supply_puts_the_gate_over_its_limit():
    need_ngspice()
    result = spice.simulate_bell(broken(bell_driver={"gate_zener_v": 0, "supply_v": 24.0}))
    assert result.gate_max > result.values["vgs_max"]


def test_a_coil_too_slow_for_a_strike_never_pulls_in():
    need_ngspice()
    mh = PARTS_DATA["part"]["solenoid"]["coil_mh"]
    result = spice.simulate_bell(broken(**{"part.solenoid": {"coil_mh": mh * 100}}))
    assert result.pull_in_time is None
    assert result.current_at_end < result.values["pull_in"]


# a Schottky rectifier's figures: (description, VRRM, its datasheet's VF max at its test current, the
# test current, its rated current)
SCHOTTKY_1N5817 = {"number": "1N5817", "description": "Schottky rectifier, 20 V, 1 A (flyback across the solenoid)",
                   "vrrm_v": 20, "vf_max": 0.45, "vf_at_a": 1.0, "if_a": 1.0}


@pytest.mark.parametrize("vf, amps", [(1.1, 1.0), (0.45, 1.0), (0.55, 2.0), (0.3, 0.5), (0.9, 3.0)])
def test_the_flyback_diode_drops_its_datasheets_voltage_with_no_negative_resistance(vf, amps):
    """The diode is fitted to its datasheet's forward voltage at its test current: a silicon
    rectifier (1N4007, 1.1 V at 1 A) as SPICE's default junction with the series resistance that
    makes up the rest, a Schottky (1N5817, 0.45 V at 1 A; PMEG1020EH, 0.55 V at 2 A) as a junction of
    a lower barrier (a larger saturation current) and no series resistance. A fixed junction gave a
    Schottky a negative resistance, and ngspice failed on it."""
    values = spice.bell_values(broken(**{"part.diode": {"vf_max": vf, "vf_at_a": amps}}))
    rs, i_s = values["diode_rs"], values["diode_is"]
    assert rs >= 0 and 0 < i_s
    assert rs * amps + spice.THERMAL_V * math.log(amps / i_s + 1) == pytest.approx(vf, rel=1e-9)
    if vf > spice.THERMAL_V * math.log(amps / spice.SPICE_IS):
        assert i_s == spice.SPICE_IS and rs > 0         # silicon: the default junction, as before


def test_a_schottky_flyback_diode_is_simulated():
    """A 1N5817 across the coil (0.45 V at 1 A): the strike is simulated at every corner, and the
    drain's peak at turn-off sits the Schottky's small drop above the supply."""
    need_ngspice()
    result = spice.simulate_bell(broken(**{"part.diode": SCHOTTKY_1N5817}))
    assert all(m["drain"] is not None for _, m in result.rows)
    peak, corner = result.worst("drain")
    assert corner["supply"] < peak < corner["supply"] + 0.6, corner
    assert result.pull_in_time is not None


def test_an_optocoupler_starved_of_current_leaves_the_mosfet_half_on():
    need_ngspice()
    circuit = build(PINMAP, Parts(copy.deepcopy(PARTS_DATA), "parts.toml"), "pi")
    (series,) = [p for p in circuit.of(line=spice.bell_values(circuit)["line"]) if p.role == "series"]
    series.value *= 10
    result = spice.simulate_opto(circuit)
    assert result.gate < result.values["vgs_on"]
    assert result.least_ctr is None


def test_without_the_failsafe_a_held_line_keeps_the_coil_on():
    """The driver as first drawn (no capacitor): held high, the coil's current never falls, and
    at the limit it is still all of it; that is what the fail-safe is for."""
    need_ngspice()
    circuit = broken(failsafe={"coupling_uf": 0})
    assert spice.simulate_failsafe(circuit) is None
    rows = spice.simulate_held(circuit)
    values = spice.bell_values(circuit)
    assert rows and all(m["t_off"] is None for _, m in rows)
    assert min(m["i_limit"] for _, m in rows) > values["pull_in"]


def test_a_failsafe_capacitor_too_large_holds_the_coil_on_past_the_limit():
    """Three times the capacitor: held high, the coil is still on at the limit at some corner."""
    from schematics.erc import failsafe_limit
    need_ngspice()
    circuit = broken(failsafe={"coupling_uf": PARTS_DATA["failsafe"]["coupling_uf"] * 3})
    rows = spice.simulate_held(circuit)
    off = spice.bell_values(circuit)["rated_a"] * spice.OFF_SHARE
    assert any(m["t_off"] is None or m["t_off"] > failsafe_limit() for _, m in rows)
    assert max(m["i_limit"] for _, m in rows) > off


def test_a_small_pad_drives_the_receiver_over_the_ceiling():
    need_ngspice()
    circuit = broken(audio={"pad_ohms": PARTS_DATA["audio"]["pad_ohms"] // 10})
    result = spice.simulate_receiver(circuit)
    assert result.loudest()[0] > result.values["ceiling_mv"]


# ------------------------------------------------------------------ the figures in docs/build.md


@pytest.mark.slow
def test_the_figures_in_build_md_are_what_the_simulations_give():
    need_ngspice()
    text = (REPO / generate.BUILD).read_text(encoding="utf-8")
    start = text.index(generate.SIMULATIONS_BEGIN)
    end = text.index(generate.SIMULATIONS_END) + len(generate.SIMULATIONS_END)
    assert text[start:end] == generate.simulations_block(generate.circuits()), \
        "regenerate with `python -m schematics.generate`"


def test_a_deck_ngspice_cannot_run_is_an_error():
    need_ngspice()
    with pytest.raises(spice.SpiceError):
        spice.run("* not a circuit\nQ1 nowhere\n.tran 1u 1m\n.end\n")


# ------------------------------------------------------------------ the contact inputs' filter


@pytest.mark.slow
def test_the_pulse_contacts_filter_passes_the_fastest_and_slowest_dial(results):
    """At the GPIO, through the filter at both ends of its tolerances: the break and make of a worn
    dial at 20 pulses a second (35 ms, 15 ms) and of the slowest both outlast what the decoder
    needs, and no edge is late by more than its debounce."""
    from controller.dial import decoder
    result = results.contacts
    assert result is not None and {c["pps"] for c, _ in result.rows} == set(result.values["pps"])
    assert all(None not in m.values() for _, m in result.rows)
    settle = decoder.SETTLE[decoder.PULSE]
    for pps in result.values["pps"]:
        brk, make = result.dial(pps)
        assert max(settle, decoder.MIN_BREAK) <= result.least("seen_break", pps) <= brk
        assert max(settle, decoder.MIN_MAKE) <= make <= result.least("seen_make", pps)
        assert result.most("rise", pps) < settle and result.most("fall", pps) < settle
    assert result.dial(max(result.values["pps"])) == pytest.approx((0.035, 0.015))


@pytest.mark.slow
def test_the_simulated_edge_is_the_rules_own_formula(results):
    """A cross-check of the deck against schematics/erc.py: at the slowest corner the break's
    edge reaches the HIGH threshold when the rules' RC formula says it does."""
    v = results.contacts.values
    slow = [(c, m) for c, m in results.contacts.rows if c["filter"] == "slowest"][0]
    corner, measured = slow
    expected = corner["pull"] * corner["farads"] * math.log(v["rail"] / (v["rail"] - v["vih"]))
    assert measured["rise"] == pytest.approx(expected, rel=0.03)


def test_a_filter_a_hundred_times_too_slow_eats_the_worn_dials_break():
    need_ngspice()
    text = (REPO / "hardware" / "pinmap.toml").read_text(encoding="utf-8")
    slow = parse_pinmap(text.replace("filter_nf = 100\n", "filter_nf = 10000\n", 1))     # the pulse line's
    result = spice.simulate_contacts(build(slow, Parts(copy.deepcopy(PARTS_DATA), "parts.toml"), "pi"))
    fastest = max(result.values["pps"])
    seen = result.least("seen_break", fastest)
    assert seen is None or seen < result.dial(fastest)[0] / 2


# --- one failed part: a deck per single fault, with the coil's heat and the thermal cutoff ---

@pytest.fixture(scope="module")
def single_faults(tmp_path_factory):
    need_ngspice()
    from schematics import faults
    with spice_answers_shared(tmp_path_factory):
        return faults.simulate_faults(generate.circuits()["pi"])


HELD_ON = ("mosfet_short", "opto_short", "pulldown_open", "coupling_short")


@pytest.mark.slow
def test_every_single_fault_ends_with_the_coil_under_its_continuous_rating(single_faults):
    """Each fault has its deck; those that hold the coil on are cut off by the thermal cutoff
    within the rules' bound, the winding under its class; the rest never heat it."""
    from schematics import erc, faults
    assert [name for name, _, _ in faults.FAULTS] == list(single_faults.rows)
    assert single_faults.unsafe() == []
    for name in single_faults.rows:
        cut, hottest, end = single_faults.worst(name)
        assert end < single_faults.values["continuous_w"] / 100, name
        assert hottest < single_faults.values["insulation"], name
        fet_cut, tab, junction, fet_end = single_faults.fet_worst(name)
        assert tab <= erc.FET_TAB_MAX_C and junction < single_faults.values["tj_max"] and fet_end < 0.01, name
        if name in HELD_ON:
            assert cut is not None and cut < erc.CUTOFF_OPENS_MAX_S, name
        elif name == "gate_leak":
            # half on: the coil stays under its own cutoff, the one on the MOSFET's tab opens
            assert cut is None and fet_cut is not None and fet_cut < erc.CUTOFF_OPENS_MAX_S
            assert tab > 90 and hottest < single_faults.values["cutoff"]
        else:
            assert cut is None and hottest < 50, name
        if name != "gate_leak":
            assert fet_cut is None and tab < 40, name
    # the rules' own time (from 20 °C, at the weakest) is the longer: it bounds the simulation's (from 35 °C)
    slowest = max(single_faults.worst(name)[0] for name in HELD_ON)
    assert slowest < erc.cutoff_timing(single_faults_parts())["opens_s"]


def single_faults_parts():
    return Parts(copy.deepcopy(PARTS_DATA), "parts.toml")


def one_fault(fault, **bell_driver):
    """(thermal values, FaultResult) of ``fault``'s deck alone, on the Pi's circuit with
    ``bell_driver`` changed (a cutoff left out, say)."""
    need_ngspice()
    from schematics import faults
    values = faults.thermal_values(broken(bell_driver=bell_driver))
    corners = faults.fault_corners(values)
    kind = {name: wave for name, _, wave in faults.FAULTS}[fault]
    measured = spice._results(spice.run(faults.fault_deck(values, corners, fault, kind)), corners, faults.MEASURES)
    return values, faults.FaultResult("pi", values, {fault: measured})


@pytest.mark.slow
def test_without_the_cutoff_a_failed_mosfet_cooks_the_coil():
    """The decks catch what the cutoff is for: without it, the shorted MOSFET leaves the coil at
    several watts and its winding far over its class."""
    values, result = one_fault("mosfet_short", cutoff_c=0)
    cut, hottest, end = result.worst("mosfet_short")
    assert cut is None and end > 2 * values["continuous_w"] and hottest > 200
    assert result.unsafe()[0].startswith("with the MOSFET's drain and source shorted the coil still dissipates")


@pytest.mark.slow
def test_without_the_cutoff_on_its_tab_a_mosfet_held_half_on_is_a_heater():
    """The decks catch what the second cutoff is for: without it, a leak onto the gate leaves the
    MOSFET at watts for good, its tab far past newsdesk's ceiling, while the coil stays under its
    own cutoff."""
    from schematics import erc
    values, result = one_fault("gate_leak", fet_cutoff_c=0)
    (weak, m), _ = result.rows["gate_leak"]
    # at the weakest corner the coil never reaches its cutoff, the MOSFET takes a watt and more to the end
    assert weak["drive"] == "weak" and m["cut"] is None and m["fet_cut"] is None and m["fet_watts_end"] > 1.0
    assert values["ambient"] + m["tab"] > erc.FET_TAB_MAX_C
    # at the strongest its tab passes 130 °C before the coil's own cutoff ends it
    assert result.fet_worst("gate_leak")[1] > 130
    assert result.unsafe()[0].startswith("with a leak onto the gate holding the MOSFET half on the MOSFET's tab "
                                         "reaches")


# --- a line toggling instead of sticking: the coil's heat per rate, then its thermal model ---

@pytest.fixture(scope="module")
def toggled(tmp_path_factory):
    need_ngspice()
    from schematics import toggling
    with spice_answers_shared(tmp_path_factory):
        return toggling.simulate_toggling(generate.circuits()["pi"])


@pytest.mark.slow
def test_a_line_toggling_at_any_rate_keeps_the_winding_under_its_class(toggled):
    """Every rate at both corners, and the heat that settles the coil just under the cutoff: the
    winding stays under its insulation's class; where the cutoff never opens, the coil has settled
    under the cutoff's temperature, so no toggling heat between the rates swept does worse."""
    from schematics import faults, toggling
    v = toggled.values
    assert toggled.unsafe() == []
    assert {hz for hz, _, _, _ in toggled.rows} == set(toggling.RATES) | {"under"}
    rate, watts, drive = toggled.worst_rate()
    # the sweep brackets the worst: the weak corner's heat peaks inside it, not at either end
    weak = [w for hz, c, w, _ in toggled.rows if w is not None and c["drive"] == "weak"]
    assert max(weak) > max(weak[0], weak[-1])
    # no toggling line heats the coil more than the held-on faults do
    held = faults.thermal_values(generate.circuits()["pi"])
    assert 0 < watts < max(c["supply"] for c in faults.fault_corners(held)) ** 2 / min(held["rcoil"])
    for hz, _, _, m in toggled.rows:
        assert m["winding"] < v["insulation"], hz
        if m["cut"] is None:
            node = v["ambient"] + m["node_end"]
            assert node < v["cutoff"] and m["watts_end"] == pytest.approx((node - v["ambient"]) / v["theta"], rel=0.02)
    under = [m for hz, _, _, m in toggled.rows if hz == "under"][0]
    assert under["cut"] is None
    # issue 42 (b): whatever the rate or duty, the coil ends within its continuous rating (the cutoff
    # opened, or the heat that settles just under it holds the coil no hotter than the rating does, a
    # temperature): the 102 °C cutoff left 1.88 W, 101.5 °C
    assert all(v["ambient"] + v["theta"] * m["watts_end"] <= v["continuous_c"] + 0.1 for _, _, _, m in toggled.rows)
    assert under["watts_end"] == pytest.approx((v["cutoff"] - toggling.UNDER_C - v["ambient"]) / v["theta"], rel=0.01)
    assert any(m["cut"] is not None and m["cut"] < 300 for _, _, _, m in toggled.rows)


@pytest.mark.slow
def test_without_the_cutoff_a_toggling_line_cooks_the_coil():
    """The thermal deck catches what the cutoff is for: without it, the worst rate's heat takes the
    winding over its class."""
    need_ngspice()
    from schematics import toggling
    result = toggling.simulate_toggling(broken(bell_driver={"cutoff_c": 0}))
    assert result.hottest() > result.values["insulation"]
    assert any("at 5 Hz (strong corner) the winding reaches" in s for s in result.unsafe())


def test_the_optocouplers_gain_falls_at_small_currents_in_every_deck():
    """Not a constant CTR: each copy's output is its CTR at 5 mA times the datasheet curve's share
    at the LED's present current (parts.toml ctr_curve), straight between the points on a log
    scale and flat beyond them, as the rules take it."""
    from schematics import erc
    values = spice.bell_values(generate.circuits()["pi"])
    curve = PARTS_DATA["part"]["optocoupler"]["ctr_curve"]
    assert values["ctr_curve"] == [(float(a), float(b)) for a, b in curve] and curve[0] == [0.1, 0.25]
    deck = spice._failsafe_deck("test", spice.failsafe_corners(values), values, "DC 0", 1e-3, 1e-5, [])
    share = "pwl(log10(max(i(Vif0),1e-12)*1000),-9.0,0.25,-1.0,0.25,"
    (card,) = [c for c in deck.splitlines() if c.startswith("Bopto0 ")]
    assert share in card and "-0.6989700043360187,0.4,-0.3010299956639812,0.6," in card and "1.6989700043360187,0.6,9.0,0.6)" in card
    opto = PARTS_DATA["part"]["optocoupler"]
    assert erc.ctr_share(opto, 0.05) == 0.25 and erc.ctr_share(opto, 5.0) == 1.0
    assert erc.ctr_share(opto, math.sqrt(0.2 * 0.5)) == pytest.approx(0.5)


def test_the_optocouplers_led_is_an_exponential_junction_in_every_deck():
    """Not a fixed drop: a junction through each corner's forward voltage at the datasheet's test
    current, so its voltage falls as the fail-safe's current dies away (which lets the coil go
    later: the 10 kohm bleed drawn before held it past 200 ms at the strongest corner)."""
    values = spice.bell_values(generate.circuits()["pi"])
    corners = spice.failsafe_corners(values)
    deck = spice._failsafe_deck("test", corners, values, "DC 0", 1e-3, 1e-5, [])
    assert "Vled" not in deck and "DIDEAL" not in deck
    for i, c in enumerate(corners):
        is_ = 0.020 / math.exp(c["vf"] / (1.8 * spice.THERMAL_V))
        assert "Dled%d led%d ledc%d DLED%d" % (i, i, i, i) in deck
        assert ".model DLED%d D(is=%r n=1.8)" % (i, is_) in deck
    assert {c["vf"] for c in corners} == {1.0, 1.4}


def test_the_pin_sags_to_its_least_high_at_the_current_that_figure_is_given_at():
    """The simulations take the ringer's pin as a source behind (logic_v - voh_min) over a current.
    The Pi's voh_min, 2.6 V, is the BCM2711's at IOH = 4 mA (Raspberry Pi documentation, GPIO voltage
    specifications); divided by the 8 mA drive_ma it made the pin twice as stiff as its datasheet
    says (87.5 ohms), so the weak corner lit the optocoupler's LED harder than a Pi 4 does."""
    pi = build(PINMAP, Parts(copy.deepcopy(PARTS_DATA), "parts.toml"), "pi")
    assert PARTS_DATA["board"]["pi"]["voh_at_ma"] == 4
    assert spice.bell_values(pi)["rgpio"] == (pytest.approx((3.3 - 2.6) / 4 * 1000), 0.0)
    pico = build(PINMAP, Parts(copy.deepcopy(PARTS_DATA), "parts.toml"), "pico")    # the RP2040's VOH is given at its drive current
    assert spice.bell_values(pico)["rgpio"] == (pytest.approx((3.3 - 2.62) / 4 * 1000), 0.0)
