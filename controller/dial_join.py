"""Joining the table by dialing: the digits dialed on the phone against the codes that waiting
devices show. A pure state machine: the caller hands in each digit with the time it was dialed,
and the devices file (controller/devices.py) says which codes wait; nothing here keeps a clock or
a thread. controller/joins.py runs it for the table, with the timer that ends a code dialed
half-way.
"""

from collections.abc import Sequence
from typing import Any, Protocol

CODE_DIGITS = 4          # the digits of a join code (controller/devices.py hands the codes out)
DIAL_GAP = 8.0           # seconds between two digits of one code, at most
DIAL_FAILURES = 3        # wrong codes dialed in a row before every waiting code is withdrawn


class WaitingCodes(Protocol):
    """What the machine needs of the devices file (controller/devices.py's Devices)."""

    def waiting_codes(self) -> list[str]: ...

    def complete_dial(self, code: str) -> Any: ...

    def withdraw_waiting(self) -> int: ...


class DialOutcome:
    """What one dialed digit did: collecting (n digits so far, all the start of a waiting code),
    joined (``device``), pass (not the start of any code: the digits go to the editor), wrong
    (several digits began a code but went astray: they go to the editor too), closed (too many
    wrong: every waiting code withdrawn). ``release``: the digits the editor is to hear now."""

    COLLECTING = "collecting"
    JOINED = "joined"
    PASS = "pass"
    WRONG = "wrong"
    CLOSED = "closed"

    __slots__ = ("kind", "digits", "device", "release")

    def __init__(self, kind: str, digits: int = 0, device: Any = None, release: Sequence[int] = ()) -> None:
        self.kind = kind
        self.digits = digits
        self.device = device
        self.release = tuple(release)

    @property
    def held(self) -> bool:
        """The digit was taken for a join, not a call: the editor does not hear it."""
        return self.kind in (self.COLLECTING, self.JOINED)

    def __repr__(self) -> str:
        return "<DialOutcome %s %d %r>" % (self.kind, self.digits, self.device)


class TakesDigits(Protocol):
    """What the table asks before a dialed digit or a hook change reaches the editor
    (controller/joins.py's JoinService, or a stand-in in a test)."""

    def on_digit(self, digit: int, now: float) -> DialOutcome | None:
        """None: the digit is a call; else what it did (its ``release`` goes to the editor)."""

    def on_hook(self, state: str, now: float) -> Sequence[int]:
        """The digits held for a code that turned out to be calls, for the editor."""


class DialJoin:
    """Turns digits dialed on the phone into dial-joins, without ever swallowing a call.

    A digit is held only while the digits held so far are the start of a waiting code, and only
    for DIAL_GAP seconds; a full match joins that device. Anything else is a call: digits that
    stop matching, a gap longer than DIAL_GAP (``flush``) or the handset put down (``on_hook``)
    give every held digit back, for the editor, late by the gap at most::

        waiting code 4719:  4 7 1 9 -> joined      4 7 3 -> the editor hears 4, 7 and 3
                            5       -> the editor hears 5 at once (no code starts with 5)

    Dialing DIAL_FAILURES codes that went astray after two or more matching digits withdraws
    every waiting code: the devices ask again. ``now`` is the caller's clock; it measures gaps.
    Not thread-safe on its own: controller/joins.py calls it under one lock.
    """

    def __init__(self, devices: WaitingCodes, gap: float = DIAL_GAP, failures: int = DIAL_FAILURES) -> None:
        self.devices = devices
        self.gap = gap
        self.max_failures = failures
        self._digits: list[int] = []
        self._last: float | None = None
        self._failures = 0

    def flush(self, now: float | None = None) -> list[int]:
        """The held digits whose gap ran out at ``now`` (or all, without ``now``): calls after all."""
        if not self._digits or (now is not None and self._last is not None and now - self._last <= self.gap):
            return []
        digits, self._digits, self._last = self._digits, [], None
        return digits

    def on_digit(self, digit: int, now: float) -> DialOutcome | None:
        """Feed one decoded digit; returns a DialOutcome, or None when no code is waiting."""
        if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
            raise ValueError("a dialed digit is a whole number from 0 to 9, got %r" % (digit,))
        stale: list[int] = []
        if self._last is not None and now - self._last > self.gap:
            stale, self._digits = self._digits, []
        codes = self.devices.waiting_codes()
        if not codes and not stale and not self._digits:
            self._failures = 0
            return None
        held = self._digits + [digit]
        typed = "".join(map(str, held))
        if any(code.startswith(typed) for code in codes):
            self._digits, self._last = held, now
            if len(held) < CODE_DIGITS:
                return DialOutcome(DialOutcome.COLLECTING, len(held), release=stale)
            self._digits, self._last = [], None
            self._failures = 0
            return DialOutcome(DialOutcome.JOINED, CODE_DIGITS, self.devices.complete_dial(typed), release=stale)
        self._digits, self._last = [], None
        release = stale + held
        if len(held) < 3:
            return DialOutcome(DialOutcome.PASS, len(held), release=release)
        self._failures += 1
        if self._failures >= self.max_failures:
            self._failures = 0
            self.devices.withdraw_waiting()
            return DialOutcome(DialOutcome.CLOSED, len(held), release=release)
        return DialOutcome(DialOutcome.WRONG, len(held), release=release)

    def on_hook(self, state: str) -> list[int]:
        """Putting the handset down ("on") ends the code being dialed: the held digits were calls."""
        return self.flush() if state == "on" else []
