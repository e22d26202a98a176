"""A push button's raw edges in, presses out: debounced, but stamped with the FIRST edge's time.

A contact bounces for a few milliseconds when it closes or opens. gpiozero's lgpio backend
debounces by reporting an edge only once the level has been stable for the bounce time, and
stamps it then: late by the bounce, which would skew the stopwatch. Here the change is also
confirmed only after the level has held for ``settle`` seconds (so a spike shorter than that
is ignored), but the press keeps the time of the edge that began it:

    raw     ────┐ ┌┐ ┌──────────────────┐┌┐ ┌────────
                └─┘└─┘                  └┘└─┘
                ^ t_down       ^ held   ^ t_up
    pressed ────┐      ·                ·      ┌─────     decided when the level has held for
                └──────·─────────────── ·──────┘          ``settle`` after the last bounce,
                |<--->|                 |<--->|           stamped at the burst's first edge
                 bounce+settle           bounce+settle

``held`` fires when the button has been down for ``hold_time`` (a long press), at
t_down + hold_time. Pure: feed it (t, state) and advance it to ``deadline()``; it never reads a
clock. States are logical (1 = pressed), as the pin map defines them.
"""

DOWN, UP, HELD = "down", "up", "held"


class Press:
    """One thing a button did: ``kind`` is down, held or up; ``t`` when (the first edge of a
    change, or t_down + hold_time for held); ``decided`` when the debouncer was sure;
    ``duration`` (for up) how long it was down; ``long`` (for up) whether held fired."""

    __slots__ = ("button", "kind", "t", "decided", "duration", "long")

    def __init__(self, button: str, kind: str, t: float, decided: float, duration: float | None = None,
                 long: bool = False) -> None:
        self.button = button
        self.kind = kind
        self.t = t
        self.decided = decided
        self.duration = duration
        self.long = long

    def as_dict(self) -> dict[str, object]:
        return {"button": self.button, "kind": self.kind, "t": self.t, "decided": self.decided,
                "duration": self.duration, "long": self.long}

    def __repr__(self) -> str:
        return "<Press %s %s t=%.6f>" % (self.button, self.kind, self.t)


class ButtonLogic:
    """Debounce and long-press detection for one button."""

    __slots__ = ("name", "settle", "hold_time", "state", "_level", "_burst", "_last_edge", "_down_at",
                 "_held")

    def __init__(self, name: str, settle: float = 0.005, hold_time: float = 1.0, state: int = 0) -> None:
        if not settle >= 0 or not hold_time > 0:
            raise ValueError("button %s: settle must be >= 0 and hold_time > 0 seconds, got %r, %r"
                             % (name, settle, hold_time))
        self.name = name
        self.settle = settle
        self.hold_time = hold_time
        self.state = state            # the debounced state
        self._level = state           # the last raw level seen
        self._burst: float | None = None         # first edge of an unconfirmed change
        self._last_edge = 0.0         # the last raw edge (read only while a change is unconfirmed)
        self._down_at: float | None = None
        self._held = False

    def feed(self, t: float, state: int) -> list[Press]:
        """A raw edge: logical ``state`` (1 pressed) at ``t``. Returns what is decided by then."""
        if state not in (0, 1):
            raise ValueError("button %s: a state is 0 or 1, not %r" % (self.name, state))
        out = self.advance(t)
        if state == self._level:
            return out
        self._level = state
        self._last_edge = t
        if self._burst is None and state != self.state:
            self._burst = t
        return out + self.advance(t)

    def deadline(self) -> float | None:
        """When ``advance`` next has something to decide, or None."""
        times: list[float] = []
        if self._burst is not None:
            times.append(self._last_edge + self.settle)
        if self.state == 1 and not self._held and self._down_at is not None:
            hold = self._down_at + self.hold_time
            if self._burst is None or self._burst >= hold:
                times.append(hold)
        return min(times) if times else None

    def advance(self, now: float) -> list[Press]:
        out: list[Press] = []
        if self._burst is not None and now >= self._last_edge + self.settle:
            t = self._burst
            decided = self._last_edge + self.settle
            self._burst = None
            if self._level != self.state:
                if self.state == 1:
                    out += self._hold_check(t, decided)   # held long enough before the release began
                self.state = self._level
                if self.state == 1:
                    self._down_at = t
                    self._held = False
                    out.append(Press(self.name, DOWN, t, decided))
                else:
                    down, self._down_at = self._down_at, None
                    # a button already down when watching began was held for no known time
                    length = None if down is None else t - down
                    out.append(Press(self.name, UP, t, decided, length, self._held))
        if self._burst is None or self.state == 0:
            out += self._hold_check(now, now)
        else:
            # a release may be under way: only a hold reached before it began counts
            out += self._hold_check(min(now, self._burst), now)
        return out

    def _hold_check(self, upto: float, decided: float) -> list[Press]:
        if self.state == 1 and not self._held and self._down_at is not None \
                and upto >= self._down_at + self.hold_time:
            self._held = True
            return [Press(self.name, HELD, self._down_at + self.hold_time, decided)]
        return []
