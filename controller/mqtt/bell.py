"""The one command the box takes from MQTT: ring the bell. Pure: a payload and a time in, a
decision out. At most one ring request a second is taken (newsdesk's choice, so a stuck
automation or a stranger on the broker can't keep the bell going); the rest are refused and
counted."""

import collections
import math

from .topics import PRESS

RING_TIMES = 2          # ring cycles per request: a doorbell's worth (newsdesk's choice)
MIN_GAP = 1.0           # seconds between two ring requests taken
REFUSAL_LOG_EVERY = 60.0    # seconds: a refusal is logged whole, those in the minute after it as one count
REFUSAL_EVENT_GAP = 1.0     # seconds between two "refused" events sent to Home Assistant, at least
REFUSAL_WINDOW = 60.0       # seconds of refusals counted for the health strip ("in the last minute")


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


class Refusals:
    """How refused requests are told. Anyone who may publish on the bell's topic can send a
    thousand in a second, and a line in the log and an event to Home Assistant for each would
    bury the log and load the broker; a single refusal still matters (an automation sending the
    wrong payload), so the first is told whole at once, and the ones after it make one event a
    second at most and one line with their count a minute. How many were refused in the last
    minute is kept too, by the second (sixty-one counts at most, however many are sent)."""

    def __init__(self, log_every: float = REFUSAL_LOG_EVERY, event_gap: float = REFUSAL_EVENT_GAP,
                 window: float = REFUSAL_WINDOW) -> None:
        self.log_every = log_every
        self.event_gap = event_gap
        self.window = window
        self._seconds: collections.deque[list[int]] = collections.deque()     # [whole second, refusals in it]
        self._latest_why = ""
        self._minute_from: float | None = None     # when the refusals now being counted began, or None
        self._evented_at: float | None = None
        self._uncounted = 0
        self._last_why = ""

    def refused(self, why: str, now: float) -> tuple[bool, bool]:
        """(log this one whole now, send its event now) for a request refused at ``now``."""
        second = math.floor(now)
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        while self._seconds[0][0] + 1 <= now - self.window:
            self._seconds.popleft()
        self._latest_why = why
        log_it = self._minute_from is None
        if log_it:
            self._minute_from = now
        else:
            self._uncounted += 1
            self._last_why = why
        event_it = self._evented_at is None or now - self._evented_at >= self.event_gap
        if event_it:
            self._evented_at = now
        return log_it, event_it

    def count_due(self, now: float) -> tuple[int, str] | None:
        """Once a minute of counting is over: (how many refusals were not logged, the last one's
        why), and counting starts again; None before, or when there were none (the next refusal
        is then logged whole)."""
        if self._minute_from is None or now - self._minute_from < self.log_every:
            return None
        count, why = self._uncounted, self._last_why
        self._uncounted = 0
        self._minute_from = now if count else None
        return (count, why) if count else None

    def recent(self, now: float) -> tuple[int, str]:
        """(how many requests were refused in the last minute, why the last one was), or (0, "").
        Counted by the second: a refusal counts until its whole second is a minute old."""
        count = sum(n for second, n in self._seconds if second + 1 > now - self.window)
        return (count, self._latest_why) if count else (0, "")
