"""The one command the box takes from MQTT: ring the bell. Pure: a payload and a time in, a
decision out. At most one ring request a second is taken (newsdesk's choice, so a stuck
automation or a stranger on the broker can't keep the bell going); the rest are refused and
counted."""

from .topics import PRESS

RING_TIMES = 2          # ring cycles per request: a doorbell's worth (newsdesk's choice)
MIN_GAP = 1.0           # seconds between two ring requests taken


class BellCommands:
    def __init__(self, min_gap: float = MIN_GAP) -> None:
        self.min_gap = min_gap
        self._last: float | None = None
        self.taken = 0
        self.refused = 0

    def request(self, payload: bytes | str, now: float) -> tuple[bool, int | str]:
        """(True, how many rings) to ring now, or (False, why not) for a request refused."""
        text = payload.decode("utf-8", "replace").strip() if isinstance(payload, bytes) else str(payload).strip()
        if text.upper() != PRESS:
            self.refused += 1
            return False, "a ring request's payload is PRESS, not %r" % text[:40]
        if self._last is not None and now - self._last < self.min_gap:
            self.refused += 1
            return False, "a ring request came %.2f s after the last one; at most one a second is taken" % (
                now - self._last)
        self._last = now
        self.taken += 1
        return True, RING_TIMES
