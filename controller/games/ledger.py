"""Money as transfers between accounts, so no dollar is ever made or lost by a bug.

Every account (each player, and the bank) starts at zero; money only moves from one account to
another in whole dollars. The bank is the one account allowed below zero (it issues the paper
money), so the sum over all accounts is zero by construction, whatever happens::

    transfer bank -> Ann 3000     bank -3000   Ann 3000           sum 0
    transfer Ann -> Bob   200     bank -3000   Ann 2800  Bob 200  sum 0

A player's balance never goes below zero here: a game that lets a player owe more than they
hold takes its bankruptcy path first (and says so), instead of asking for an impossible transfer.

Pure and JSON-only: a transfer is a plain event dict, balances are a plain dict.
"""

from typing import Any, Iterable

from .base import Event, GameError

BANK = "bank"
TRANSFER = "transfer"


def transfer(frm: str, to: str, amount: int, reason: str = "") -> Event:
    """The event that moves ``amount`` whole dollars from account ``frm`` to account ``to``."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise GameError("a transfer is a whole number of dollars above zero, not %r" % (amount,))
    if not isinstance(frm, str) or not isinstance(to, str) or not frm or not to:
        raise GameError("a transfer needs two accounts, got %r and %r" % (frm, to))
    if frm == to:
        raise GameError("%s can't pay %s to themselves" % (frm, dollars(amount)))
    return {"type": TRANSFER, "from": frm, "to": to, "amount": amount, "reason": reason}


def apply_transfer(balances: dict[str, int], event: Event) -> dict[str, int]:
    """New balances after one transfer event (the old dict is left alone)."""
    out = dict(balances)
    amount = event["amount"]
    out[event["from"]] = out.get(event["from"], 0) - amount
    out[event["to"]] = out.get(event["to"], 0) + amount
    return out


def balances(events: Iterable[Event]) -> dict[str, int]:
    """Balances after the transfer events among ``events`` (other events are ignored)."""
    out: dict[str, int] = {}
    for ev in events:
        if ev.get("type") == TRANSFER:
            out = apply_transfer(out, ev)
    return out


def total(balances: dict[str, int]) -> int:
    """The sum over every account, the bank's included: zero unless something bypassed transfers."""
    return sum(balances.values())


def check_can_pay(balances: dict[str, int], who: str, amount: int, name: str | None = None) -> None:
    """Raise GameError unless account ``who`` (not the bank) holds ``amount``."""
    if who == BANK:
        return
    held = balances.get(who, 0)
    if held < amount:
        raise GameError("%s has %s and can't pay %s" % (name or who, dollars(held), dollars(amount)))


def dollars(amount: Any) -> str:
    """$1,500 the way the paper money reads."""
    sign = "-" if amount < 0 else ""
    return "%s$%s" % (sign, format(abs(amount), ","))
