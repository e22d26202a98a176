"""Joining by dialing: the machine that matches dialed digits against waiting codes
(controller/dial_join.py), and the table that asks the join service about every digit and hook
change. The service and its timer (controller/joins.py) are tested in test_joins.py."""

import pytest

from controller.devices import Devices
from controller.dial.decoder import DialEvent
from controller.dial_join import CODE_DIGITS, DIAL_FAILURES, DIAL_GAP, DialJoin, DialOutcome


@pytest.fixture
def devices(tmp_path, clocks):
    kept = Devices(tmp_path / "devices.sqlite3", clock=clocks.wall)
    yield kept
    kept.close()


def waiting(devices, n=1):
    """``n`` waiting devices, each from its own address."""
    return [devices.request_dial("Kindle", "192.168.1.%d" % (30 + i)) for i in range(n)]


def dial(joiner, code, t0=0.0, step=1.5):
    outcomes = [joiner.on_digit(int(d), t0 + i * step) for i, d in enumerate(code)]
    return outcomes[-1]


def _astray(codes):
    """A code that begins like a waiting one for three digits, then differs from all of them."""
    code = sorted(codes)[0]
    return next(code[:3] + d for d in "0123456789" if code[:3] + d not in codes)


def test_dial_join_without_the_web(devices):
    """DialJoin on its own: the clock it is handed only measures the gaps between digits."""
    joiner = DialJoin(devices, gap=2.0, failures=2)
    [device] = waiting(devices)
    assert joiner.on_digit(int(device.code[0]), 0.0).kind == DialOutcome.COLLECTING
    outcome = None
    for i, d in enumerate(device.code):
        outcome = joiner.on_digit(int(d), 5.0 + i)  # the first digit above is >2 s old: forgotten
    assert outcome.kind == DialOutcome.JOINED and outcome.device.id == device.id
    assert devices.device(device.id).status == "joined"


def test_each_digit_of_a_code_is_held_and_the_last_joins(devices):
    joiner = DialJoin(devices)
    [device] = waiting(devices)
    outcomes = [joiner.on_digit(int(d), 10.0 + i) for i, d in enumerate(device.code)]
    assert [o.kind for o in outcomes] == [DialOutcome.COLLECTING] * (CODE_DIGITS - 1) + [DialOutcome.JOINED]
    assert [o.held for o in outcomes] == [True] * CODE_DIGITS
    assert outcomes[-1].device.role == "player" and outcomes[-1].device.via == "dial"


def test_digits_count_only_while_a_code_waits(devices):
    joiner = DialJoin(devices)
    assert joiner.on_digit(3, 0.0) is None
    with pytest.raises(ValueError):
        joiner.on_digit(10, 0.0)
    with pytest.raises(ValueError):
        joiner.on_digit(True, 0.0)


def test_a_digit_that_starts_no_code_is_a_call_at_once(devices):
    joiner = DialJoin(devices)
    [device] = waiting(devices)
    other = next(d for d in range(10) if str(d) != device.code[0])
    outcome = joiner.on_digit(other, 0.0)
    assert outcome.kind == DialOutcome.PASS and not outcome.held and outcome.release == (other,)


def test_a_long_pause_starts_the_code_again(devices):
    joiner = DialJoin(devices)
    [device] = waiting(devices)
    code = device.code
    assert joiner.on_digit(int(code[0]), 0.0).kind == DialOutcome.COLLECTING
    # a pause longer than DIAL_GAP: that digit was a call to the editor; the code starts again
    first = joiner.on_digit(int(code[0]), DIAL_GAP + 0.1)
    assert first.release == (int(code[0]),)
    assert dial(joiner, code[1:], t0=DIAL_GAP + 1.0).kind == DialOutcome.JOINED


def test_flush_gives_back_only_digits_whose_gap_ran_out(devices):
    joiner = DialJoin(devices)
    [device] = waiting(devices)
    joiner.on_digit(int(device.code[0]), 0.0)
    assert joiner.flush(DIAL_GAP) == []
    assert joiner.flush(DIAL_GAP + 0.1) == [int(device.code[0])]
    assert joiner.flush() == []


def test_hanging_up_gives_back_the_held_digits(devices):
    joiner = DialJoin(devices)
    [device] = waiting(devices)
    joiner.on_digit(int(device.code[0]), 0.0)
    assert joiner.on_hook("off") == []
    assert joiner.on_hook("on") == [int(device.code[0])]
    assert dial(joiner, device.code, t0=1.0).kind == DialOutcome.JOINED


def test_wrong_codes_withdraw_every_waiting_code(devices):
    joiner = DialJoin(devices)
    ones = waiting(devices, 2)
    wrong = _astray({d.code for d in ones})
    outcomes = [dial(joiner, wrong, t0=100.0 * i) for i in range(DIAL_FAILURES)]
    assert [o.kind for o in outcomes] == [DialOutcome.WRONG] * (DIAL_FAILURES - 1) + [DialOutcome.CLOSED]
    assert outcomes[-1].release == tuple(map(int, wrong))         # they were calls: the editor hears them
    assert devices.waiting_count() == 0
    assert [devices.device(d.id).status for d in ones] == ["lapsed", "lapsed"]
    assert dial(joiner, ones[0].code, t0=1000.0) is None          # nothing waits any more


def test_a_right_code_clears_the_wrong_count(devices):
    joiner = DialJoin(devices)
    a, b = waiting(devices, 2)
    wrong = _astray({a.code, b.code})
    for i in range(DIAL_FAILURES - 1):
        assert dial(joiner, wrong, t0=100.0 * i).kind == DialOutcome.WRONG
    assert dial(joiner, a.code, t0=1000.0).kind == DialOutcome.JOINED
    assert dial(joiner, _astray({b.code}), t0=2000.0).kind == DialOutcome.WRONG  # counting starts again
    assert devices.device(b.id).status == "waiting"


# -- the table asks the box's service ------------------------------------------------------------

@pytest.mark.slow
def test_hanging_up_sends_the_held_digits_to_the_editor(desk):
    device = desk.joins.devices.request_dial("Kindle", "192.168.1.31")
    code = device.code
    before = len(desk.table.recent_verdicts(50))
    desk.table.on_dial_event(DialEvent(100.0, "digit", int(code[0])))
    assert len(desk.table.recent_verdicts(50)) == before          # held: the start of the code
    desk.table.on_dial_event(DialEvent(100.5, "hook", "on"))      # hanging up: it was a call, the editor answers
    assert [v["data"]["digit"] for v in desk.table.recent_verdicts(50)[:1]] == [int(code[0])]
    assert len(desk.table.recent_verdicts(50)) == before + 1
    desk.table.on_dial_event(DialEvent(101.0, "hook", "off"))
    for i, d in enumerate(code):
        desk.table.on_dial_event(DialEvent(102.0 + i, "digit", int(d)))
    assert desk.joins.devices.device(device.id).status == "joined"
    assert len(desk.table.recent_verdicts(50)) == before + 1
