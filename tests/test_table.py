"""The table: the phone's verdicts in a SCOOP game, and digits a joining device takes before the
editor. Played on test_game_session.py's Desk (a store, a bus and a table, as the product wires
them) and its stand-in for SCOOP (1956)."""

import logging
import random
import types

import pytest
from test_game_session import PLAYERS, desk  # noqa: F401  (the desk fixture)

from controller.bus import Bus
from controller.games import registry
from controller.oracles.editor import Editor
from controller.store import Store
from controller.table import Table

# ---------------------------------------------------------------- the editor on the phone

def test_a_verdict_with_no_claim_is_stored_and_shown_and_the_refusal_logged(desk, caplog):  # noqa: F811
    desk.games.start("scoop1956", PLAYERS)
    desk.messages()
    with caplog.at_level(logging.INFO, logger="controller.table"):
        event = desk.table.call_editor(4)
    assert desk.store.latest("editor.verdict")[0].id == event.id
    assert desk.games.version == 1
    types_ = [m["type"] for m in desk.messages()]
    assert types_ == ["editor.verdict", "game.refused"]
    assert "no story claim is waiting for the editor" in caplog.text


def test_a_verdict_on_a_pending_claim_goes_into_the_game_once(desk):  # noqa: F811
    desk.games.start("scoop1956", PLAYERS)
    desk.games.act({"type": "claim", "player": 1}, 1)
    event = desk.table.call_editor(7)
    signal = event.payload["signal"]
    assert desk.games.current()["view"]["judged"] == [signal]
    stored = desk.store.entries(1)[-1]
    assert stored.key == "editor.verdict:%d" % event.id
    assert stored.entry["action"] == {"type": "verdict", "signal": signal, "digit": 7}
    assert stored.event_id > event.id


def test_verdicts_leave_other_games_alone(desk):  # noqa: F811
    desk.games.start("purse", PLAYERS)
    desk.table.call_editor(3)
    assert desk.games.version == 1


def test_the_phone_judges_a_claim_in_the_real_scoop_1956_engine(tmp_path):
    try:
        registry.load("scoop1956")
    except registry.EngineUnavailable as e:
        pytest.skip(str(e))
    store = Store(tmp_path / "s.sqlite3")
    try:
        table = Table(store, Bus(), Editor(), random.Random(3), hardware={})
        table.games.start("scoop1956", [{"name": "Ann"}, {"name": "Bob"}])
        table.games.act({"type": "claim", "player": 0, "story_type": "sport"}, 1)
        verdict = table.call_editor(5)
        view = table.games.current()["view"]
        assert table.games.version == 3
        assert view["verdict"]["signal"] == verdict.payload["signal"]
        assert view["money_total"] == 0
        said = store.entries(1)[-1].entry["said"]
        assert said.startswith("the editor said %s: " % verdict.payload["signal"])
        if not verdict.payload["story_passed"]:       # a refused story: Ann buys her cards again
            assert "Ann pays $300 for new cards" in said
    finally:
        store.close()


@pytest.mark.slow
def test_a_digit_taken_by_an_interceptor_does_not_reach_the_editor(tmp_path):
    """A device joining by dialing its code: those digits are not calls to the editor."""
    import random as _random

    from controller.bus import Bus
    from controller.dial.decoder import DialEvent
    from controller.dial_join import DialOutcome
    from controller.events import VERDICT
    from controller.oracles.editor import Editor
    from controller.store import Store
    from controller.table import Table

    store = Store(tmp_path / "s.sqlite3")
    try:
        bus = Bus()
        sub = bus.subscribe()
        table = Table(store, bus, Editor(), _random.Random(1), hardware={"simulated": True, "pins": "mock"})
        seen, hooks = [], []
        table.joins = types.SimpleNamespace(       # 4 joins a device: it is no call
            on_digit=lambda d, t: seen.append(d) or (DialOutcome(DialOutcome.JOINED) if d == 4 else None),
            on_hook=lambda state, t: hooks.append(state) or ())
        table.on_dial_event(DialEvent(1.0, "digit", 4))
        table.on_dial_event(DialEvent(2.0, "digit", 7))
        table.on_dial_event(DialEvent(3.0, "hook", "on"))
        assert seen == [4, 7] and hooks == ["on"]
        assert [e.payload["digit"] for e in store.latest(VERDICT, 5)] == [7]
        digits = [m for m in iter(lambda: sub.get(timeout=0.5), None) if m["type"] == "phone.digit"]
        assert [m["data"]["digit"] for m in digits] == [4, 7]
    finally:
        store.close()


def test_the_phones_wiring_fault_is_kept_until_its_line_behaves(desk):  # noqa: F811
    """What a start of the MQTT publisher reads (controller/mqtt/publisher.py, _health_now)."""
    from controller.dial.decoder import DialEvent
    assert desk.table.phone_fault is None
    desk.table.on_dial_event(DialEvent(1.0, "fault", "the pulse contacts have been open for 5 s"))
    assert desk.table.phone_fault == "the pulse contacts have been open for 5 s"
    desk.table.on_dial_event(DialEvent(2.0, "fault_cleared", "pulse"))
    assert desk.table.phone_fault is None
