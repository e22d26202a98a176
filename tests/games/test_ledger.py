"""The ledger: money only moves between accounts, in whole dollars, and the sum stays zero."""

import pytest
from hypothesis import given, settings, strategies as st

from controller.games import ledger
from controller.games.base import GameError


def test_a_transfer_is_a_plain_event():
    assert ledger.transfer("bank", "p0", 3000, "start") == {
        "type": "transfer", "from": "bank", "to": "p0", "amount": 3000, "reason": "start"}


@pytest.mark.parametrize("amount", [0, -100, 12.5, "100", True, None])
def test_a_transfer_is_a_whole_number_of_dollars_above_zero(amount):
    with pytest.raises(GameError, match="whole number of dollars above zero"):
        ledger.transfer("bank", "p0", amount)


@pytest.mark.parametrize("frm,to", [("", "p0"), ("bank", None), (0, "p1")])
def test_a_transfer_needs_two_named_accounts(frm, to):
    with pytest.raises(GameError, match="needs two accounts"):
        ledger.transfer(frm, to, 100)


def test_nobody_pays_themselves():
    with pytest.raises(GameError, match=r"p0 can't pay \$100 to themselves"):
        ledger.transfer("p0", "p0", 100)


def test_balances_follow_the_transfers_and_ignore_other_events():
    events = [ledger.transfer("bank", "p0", 3000), {"type": "claimed", "player": 0},
              ledger.transfer("p0", "p1", 200)]
    assert ledger.balances(events) == {"bank": -3000, "p0": 2800, "p1": 200}
    assert ledger.total(ledger.balances(events)) == 0


def test_apply_transfer_leaves_the_old_balances_alone():
    old = {"bank": -100, "p0": 100}
    new = ledger.apply_transfer(old, ledger.transfer("p0", "bank", 100))
    assert old == {"bank": -100, "p0": 100} and new == {"bank": 0, "p0": 0}


def test_check_can_pay_names_the_player_and_the_sums():
    held = {"bank": -150, "p0": 150}
    ledger.check_can_pay(held, "p0", 150)
    ledger.check_can_pay(held, "bank", 10**6)            # the bank issues the paper money
    with pytest.raises(GameError, match=r"Ann has \$150 and can't pay \$1,500"):
        ledger.check_can_pay(held, "p0", 1500, "Ann")


@pytest.mark.parametrize("amount,text", [(0, "$0"), (100, "$100"), (1500, "$1,500"), (-3000, "-$3,000")])
def test_dollars_read_like_the_paper_money(amount, text):
    assert ledger.dollars(amount) == text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["bank", "p0", "p1", "p2"]),
                          st.sampled_from(["bank", "p0", "p1", "p2"]),
                          st.integers(1, 5000)), max_size=40))
def test_any_transfers_keep_the_total_at_zero(moves):
    events = [ledger.transfer(a, b, n) for a, b, n in moves if a != b]
    held = ledger.balances(events)
    assert ledger.total(held) == 0
    for a, b, n in moves:
        if a != b:
            held = ledger.apply_transfer(held, ledger.transfer(a, b, n))
            assert ledger.total(held) == 0
