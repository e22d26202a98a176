"""The oracle oracles: presses become stored results published in id order; the stopwatch times
from the pins' edges; distributions for the session and all time. The panel's endpoints are in
test_oracles.py."""

import random
import threading
import time

import pytest
from conftest import FakeClock, wait_for
from gpiozero.pins import mock as gpiozero_mock

from controller.bus import Bus
from controller.errors import StoreError
from controller.hw.buttons import ButtonListener, ButtonPins
from controller.hw.leds import OracleLeds
from controller.hw.simulated import SimulatedButtons
from controller.journal import Journal
from controller.oracle_service import OracleService
from controller.oracles.editor import Editor
from controller.oracles.errors import OracleBusy, OracleSettingError
from controller.oracles.presses import DOWN, HELD, UP, Press
from controller.pinmap import load_pinmap
from controller.store import Store

# the simulated buttons are pressed and held in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "oracles.sqlite3")
    yield s
    s.close()


def messages(sub, n, timeout=5):
    out = [sub.get(timeout=timeout) for _ in range(n)]
    assert None not in out, out
    return out


def test_a_roll_is_stored_then_published(store):
    bus = Bus()
    oracles = OracleService(Journal(store, bus), random.Random(3))
    with bus.subscribe() as sub:
        event = oracles.roll(source="button")
        [msg] = messages(sub, 1)
    assert msg == event.as_dict() and msg["type"] == "dice.roll"
    stored = store.latest("dice.roll")[0]
    assert stored.id == event.id and stored.payload == event.payload
    d = event.payload
    assert d["dice"] == "2d6" and len(d["faces"]) == 2 and d["total"] == sum(d["faces"])
    assert set(d["flags"]) == {"doubles", "all_same", "seven", "double_sixes", "even"} and d["source"] == "button"


def test_dice_changes_are_stored_and_survive_a_restart(store):
    bus = Bus()
    oracles = OracleService(Journal(store, bus), random.Random(1))
    assert oracles.next_dice().payload["dice"] == "1d6"
    assert oracles.set_dice("d20").payload["choices"][-1] == "1d20"
    assert oracles.roll().payload["dice"] == "1d20"
    with pytest.raises(OracleSettingError):
        oracles.set_dice("2x6")
    again = OracleService(Journal(store, bus), random.Random(1))
    assert again.dice.current.name == "1d20" and again.state()["dice"]["current"] == "1d20"


def test_presses_map_to_the_oracles(store):
    bus = Bus()
    oracles = OracleService(Journal(store, bus), random.Random(1))
    with bus.subscribe() as sub:
        oracles.on_press(Press("dice_button", DOWN, 1.0, 1.005))          # nothing until it's released
        oracles.on_press(Press("dice_button", UP, 1.1, 1.105, 0.1, False))
        assert sub.get(timeout=5)["type"] == "dice.roll"
        oracles.on_press(Press("dice_button", HELD, 3.0, 3.0))
        assert sub.get(timeout=5)["data"]["dice"] == "1d6"
        oracles.on_press(Press("dice_button", UP, 3.5, 3.505, 1.5, True))  # the end of a long press: no roll
        oracles.on_press(Press("stopwatch_button", DOWN, 10.0, 10.005))
        assert sub.get(timeout=5)["type"] == "stopwatch.started"
        oracles.on_press(Press("stopwatch_button", UP, 10.1, 10.105, 0.1, False))
        oracles.on_press(Press("stopwatch_button", DOWN, 12.3456, 12.35))
        msg = sub.get(timeout=5)
        assert sub.get(timeout=0.05) is None
    assert msg["type"] == "stopwatch.roll"
    assert msg["data"] == {"mode": "stopwatch", "digit": 4, "centiseconds": 234, "shown": "2.34",
                           "elapsed": pytest.approx(2.3456), "source": "button"}


def test_stopwatch_modes_and_reset(store):
    bus = Bus()
    oracles = OracleService(Journal(store, bus), random.Random(4), clock=lambda: 7.5)
    oracles.stopwatch_press(5.0)
    assert oracles.state()["stopwatch"] == {"mode": "stopwatch", "running": True, "elapsed": 2.5, "shown": "2.50"}
    with pytest.raises(OracleBusy):
        oracles.set_stopwatch_mode("d10")
    with bus.subscribe() as sub:
        assert oracles.reset_stopwatch() is True
        assert sub.get(timeout=5)["type"] == "stopwatch.reset"
    assert oracles.set_stopwatch_mode("d10").payload == {"mode": "d10", "source": "panel"}
    event = oracles.stopwatch_press(9.0)
    assert event.payload["mode"] == "d10" and 0 <= event.payload["digit"] <= 9
    assert OracleService(Journal(store, bus), random.Random(4)).stopwatch.mode == "d10"
    with pytest.raises(OracleSettingError):
        oracles.set_stopwatch_mode("sundial")


class BrokenStore:
    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    def append(self, kind, payload):
        raise StoreError("can't write to the store test.sqlite3: disk I/O error")


def test_a_result_the_store_lost_is_not_shown_as_one(store):
    bus = Bus()
    oracles = OracleService(Journal(BrokenStore(store), bus), random.Random(1))
    with bus.subscribe() as sub:
        with pytest.raises(StoreError):
            oracles.roll()
        msg = sub.get(timeout=5)
    assert msg["type"] == "oracle.fault" and "doesn't count" in msg["data"]["message"] and "id" not in msg
    assert store.latest("dice.roll") == []


def test_shared_lock_keeps_the_bus_in_id_order(store):
    bus = Bus()
    lock = threading.RLock()
    oracles = OracleService(Journal(store, bus, lock), random.Random(1))

    def table_side():
        for _i in range(150):
            with lock:
                bus.publish(store.append("editor.verdict", {"signal": "OK", "mode": "fair", "digit": 1}).as_dict())

    with bus.subscribe(maxsize=1000) as sub:
        t = threading.Thread(target=table_side)
        t.start()
        for _ in range(150):
            oracles.roll()
        t.join()
        ids = [sub.get(timeout=5)["id"] for _ in range(300)]
    assert ids == sorted(ids)


def test_distributions_for_the_session_and_all_time(store):
    bus = Bus()
    before = OracleService(Journal(store, bus), random.Random(1))
    for _ in range(30):
        before.roll()
    editor = Editor(mode="fair")
    rng = random.Random(2)
    for _ in range(20):
        store.append("editor.verdict", editor.call(5, None, rng).as_dict())
    store.append("editor.verdict", {"signal": "OK", "mode": "mechanical", "digit": 1})   # an old verdict, no odds
    oracles = OracleService(Journal(store, bus), random.Random(5))     # a restart: a new session
    for _ in range(12):
        oracles.roll()
    oracles.stopwatch_press(1.0)
    oracles.stopwatch_press(2.57)
    report = oracles.distributions()
    groups = {(g["oracle"], g["label"]): g for g in report["groups"]}
    faces = groups[("dice", "2d6: each die's faces")]
    assert faces["all_time"]["n"] == 2 * 42 and faces["session"]["n"] == 2 * 12
    totals = groups[("dice", "2d6: totals")]
    assert totals["all_time"]["n"] == 42 and [r["face"] for r in totals["all_time"]["faces"]] == list(range(2, 13))
    assert totals["all_time"]["faces"][5]["expected_share"] == pytest.approx(6 / 36)
    watch = groups[("stopwatch", "Stopwatch: the digit rolled")]
    assert watch["session"]["n"] == 1 and watch["session"]["faces"][7]["count"] == 1
    fair = groups[("editor", "Editor (fair): signals")]
    assert fair["all_time"]["n"] == 20 and fair["session"]["n"] == 0 and "newsdesk" in fair["note"]
    old = groups[("editor", "Editor (mechanical): signals")]
    assert "did not record their odds" in old["note"]
    for g in report["groups"]:
        for r in (g["session"], g["all_time"]):
            assert {"n", "faces", "chi_square", "df", "p_value", "verdict", "enough_data"} <= set(r)
    # incremental: only what's new is read
    oracles.roll()
    assert {g["label"]: g for g in oracles.distributions("dice")["groups"]}["2d6: totals"]["session"]["n"] == 13


def test_history_newest_first(store):
    oracles = OracleService(Journal(store, Bus()), random.Random(1))
    events = [oracles.roll() for _ in range(3)]
    assert [e["id"] for e in oracles.history("dice", 2)] == [events[2].id, events[1].id]


# ---------------------------------------------------------------- from the pins

def drive(pins, name, state):
    pin = pins.pin(name)
    pin.drive_high() if pins.spec(name).level(state) else pin.drive_low()


def test_stopwatch_times_from_the_pins_edges_not_from_when_it_was_noticed(store, mock_factory, monkeypatch):
    clock = FakeClock(200.0)
    monkeypatch.setattr(gpiozero_mock, "monotonic", clock)
    bus = Bus()
    pinmap = load_pinmap()
    leds = OracleLeds(pinmap, mock_factory)
    lit = leds.stopwatch

    def slow_led(running):          # an LED slow to answer: the news must still find it lit (or dark);
        time.sleep(0.05)            # it was told first, and a listener could look between the two
        lit(running)
    leds.stopwatch = slow_led
    oracles = OracleService(Journal(store, bus), random.Random(1), leds=leds, clock=clock)
    listener = ButtonListener(oracles.on_press, clock=clock, settle=0.005)
    pins = ButtonPins(pinmap, listener.edge, mock_factory, clock=clock)
    listener.start(initial=pins.states())
    try:
        with bus.subscribe() as sub:
            for t, s in ((200.000, 1), (200.0007, 0), (200.0012, 1)):      # a bouncy first press
                clock.t = t
                drive(pins, "stopwatch_button", s)
            clock.t = 200.3                                                # noticed much later
            assert sub.get(timeout=5)["type"] == "stopwatch.started"
            assert leds.led("stopwatch_led").is_lit
            drive(pins, "stopwatch_button", 0)
            clock.t = 201.2371
            drive(pins, "stopwatch_button", 1)
            clock.t = 201.9
            msg = sub.get(timeout=5)
        assert msg["type"] == "stopwatch.roll"
        assert msg["data"]["shown"] == "1.23" and msg["data"]["digit"] == 3
        assert msg["data"]["elapsed"] == pytest.approx(1.2371)
        assert not leds.led("stopwatch_led").is_lit
    finally:
        listener.stop()
        pins.close()
        leds.close()


@pytest.mark.slow
def test_simulated_dice_button_rolls_and_changes_the_dice(store, mock_factory):
    bus = Bus()
    pinmap = load_pinmap()
    leds = OracleLeds(pinmap, mock_factory, blink_time=0.005)
    oracles = OracleService(Journal(store, bus), random.Random(1), leds=leds)
    listener = ButtonListener(oracles.on_press, settle=0.005, hold_time=0.5)
    pins = ButtonPins(pinmap, listener.edge, mock_factory)
    listener.start()
    sim = SimulatedButtons(pins, tap=0.01, long=0.6)
    dice_led = leds.led("dice_led").pin
    try:
        with bus.subscribe() as sub:
            sim.press("dice_button")
            assert sub.get(timeout=5)["type"] == "dice.roll"
            assert wait_for(lambda: sum(s.state for s in dice_led.states) >= 3)   # it blinked
            sim.press("dice_button", long=True)
            msg = sub.get(timeout=5)
            assert msg["type"] == "dice.set" and msg["data"] == {"dice": "1d6", "source": "button",
                                                                 "choices": ["2d6", "1d6", "1d10", "1d4"]}
            sim.idle()
            assert sub.get(timeout=0.05) is None                       # the long press didn't also roll
    finally:
        sim.close()
        listener.stop()
        pins.close()
        leds.close()
