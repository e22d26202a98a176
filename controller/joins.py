"""The join service: how devices join the table, built once by the box (controller/app.py) and
handed to the table, which asks it about every dialed digit, and to the panel, which turns the
devices file's invitations, codes and list into HTTP (web_ui/join.py, web_ui/security.py).

    devices   the devices file (controller/devices.py): tokens, waiting codes, joined devices
    dialing   the pure machine that matches dialed digits against the waiting codes
              (controller/dial_join.py), run here under one lock
"""

import threading
from collections.abc import Callable

from .devices import Devices
from .dial_join import DIAL_FAILURES, DIAL_GAP, DialJoin, DialOutcome


class JoinService:
    """The devices file and the dial-join machine, for the table and the panel alike."""

    def __init__(self, devices: Devices, gap: float = DIAL_GAP, failures: int = DIAL_FAILURES,
                 timers: bool = True) -> None:
        self.devices = devices
        self.dialing = DialJoin(devices, gap=gap, failures=failures)
        self.pass_on: Callable[[int], object] | None = None   # the editor (the table's call_editor)
        self.timers = timers         # False in tests: they hand in the times and end codes by hanging up
        self._lock = threading.Lock()   # the dial listener's thread and the timer's
        self._timer: threading.Timer | None = None

    def on_digit(self, digit: int, now: float) -> DialOutcome | None:
        """The table's question for each dialed digit: None, or what the digit did."""
        with self._lock:
            outcome = self.dialing.on_digit(digit, now)
            if outcome is not None and outcome.kind == DialOutcome.COLLECTING:
                self._arm()
        return outcome

    def on_hook(self, state: str, now: float) -> list[int]:
        """The handset put down ends the code being dialed: the held digits, for the editor."""
        with self._lock:
            return self.dialing.on_hook(state)

    def _arm(self) -> None:
        """A timer per held code, because no digit may come to end it: someone dials the first
        digits of a number that happens to start a waiting code, then waits for the editor. When
        the gap runs out the held digits go to the editor unasked (``pass_on``), late by DIAL_GAP
        at most. The machine itself keeps no clock; this is the one place that waits."""
        if not self.timers:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.dialing.gap, self.flush)
        self._timer.daemon = True
        self._timer.start()

    def flush(self) -> list[int]:
        """Every held digit goes to the editor now (the timer's end of a code). Returns them."""
        with self._lock:
            digits = self.dialing.flush()
        if self.pass_on is not None:
            for digit in digits:
                self.pass_on(digit)
        return digits

    def close(self) -> None:
        """Stop a timer still waiting: the box is closing, the editor with it; and let the
        devices file's kept connection go."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self.devices.close()
