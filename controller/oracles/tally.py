"""Observed distributions of every oracle, for this session and for all time, from stored events.

Fed the stored events in order (``add(id, kind, payload)``); a session is the events after the
id the box started at. Results are grouped by what they should follow: dice by their NdM (each
die's faces, and the totals), the stopwatch by mode, the editor by mode and the odds the
verdict was drawn with (each verdict records them). Pure.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .. import events
from . import fairness
from .dice import Dice
from .editor import ODDS_NOTE, SIGNALS, default_weights

KINDS = (events.DICE_ROLL, events.STOPWATCH_ROLL, events.VERDICT)
DIGITS = tuple(range(10))



def _stopwatch_words(mode: str) -> str:
    """The stopwatch's group named by its mode where the mode says something: "Stopwatch (d10)";
    in its own mode plain "Stopwatch" (it read "Stopwatch (stopwatch)" on the Odds page)."""
    return "Stopwatch" if mode == "stopwatch" else "Stopwatch (%s)" % mode

class _Group:
    __slots__ = ("oracle", "label", "faces", "shares", "extra", "all_time", "session")

    def __init__(self, oracle: str, label: str, faces: Sequence[Any], shares: fairness.Shares,
                 extra: dict[str, Any] | None = None) -> None:
        self.oracle = oracle
        self.label = label
        self.faces = faces
        self.shares = shares
        self.extra = extra or {}
        self.all_time: Counter[object] = Counter()
        self.session: Counter[object] = Counter()

    def count(self, faces: Iterable[object], in_session: bool) -> None:
        self.all_time.update(faces)
        if in_session:
            self.session.update(faces)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"oracle": self.oracle, "label": self.label}
        d.update(self.extra)
        d["session"] = fairness.report(self.session, self.shares, self.faces)
        d["all_time"] = fairness.report(self.all_time, self.shares, self.faces)
        return d


class Tallies:
    def __init__(self, session_after: int = 0) -> None:
        self.session_after = session_after
        self.last_id = 0
        self._groups: dict[tuple[object, ...], _Group] = {}

    def _group(self, key: tuple[object, ...], make: Callable[[], _Group]) -> _Group:
        g = self._groups.get(key)
        if g is None:
            g = self._groups[key] = make()
        return g

    def add(self, event_id: int, kind: str, payload: object) -> None:
        """Count one stored event (others than the oracles' are ignored)."""
        self.last_id = max(self.last_id, event_id)
        if kind not in KINDS or not isinstance(payload, dict):
            return
        now = event_id > self.session_after
        try:
            if kind == events.DICE_ROLL:
                self._dice(payload, now)
            elif kind == events.STOPWATCH_ROLL:
                mode = payload["mode"]
                g = self._group(("stopwatch", mode), lambda: _Group(
                    "stopwatch", "%s: the digit rolled" % _stopwatch_words(mode), DIGITS, {d: 1 for d in DIGITS},
                    {"mode": mode}))
                g.count([payload["digit"]], now)
            else:
                self._verdict(payload, now)
        except (KeyError, TypeError, ValueError):
            pass        # an event written by an older newsdesk without these fields: not counted

    def _dice(self, payload: dict[str, Any], now: bool) -> None:
        dice = Dice.parse(payload["dice"])
        faces = tuple(range(1, dice.sides + 1))
        g = self._group(("dice", dice.name, "faces"), lambda: _Group(
            "dice", "%s: each die's faces" % dice.name, faces, dice.face_shares(),
            {"dice": dice.name, "what": "faces"}))
        g.count(payload["faces"], now)
        if dice.count > 1:
            totals = dice.total_shares()
            g = self._group(("dice", dice.name, "totals"), lambda: _Group(
                "dice", "%s: totals" % dice.name, tuple(sorted(totals)), totals,
                {"dice": dice.name, "what": "totals"}))
            g.count([payload["total"]], now)

    def _verdict(self, payload: dict[str, Any], now: bool) -> None:
        mode = payload["mode"]
        given = payload.get("odds")
        recorded = isinstance(given, dict)
        odds: Mapping[str, float] = given if isinstance(given, dict) else default_weights()
        key = ("editor", mode, tuple(sorted(odds.items())))
        note = ODDS_NOTE
        if mode == "mechanical":
            note += (" In mechanical mode the secret disc is spun between calls, so each signal comes "
                     "up with its share of the disc's windows.")
        if not recorded:
            note += " These verdicts did not record their odds; newsdesk's default ones are assumed."
        g = self._group(key, lambda: _Group(
            "editor", "Editor (%s): signals" % mode, tuple(SIGNALS), dict(odds),
            {"mode": mode, "odds": dict(odds), "note": note}))
        g.count([payload["signal"]], now)

    def report(self, oracle: str | None = None) -> dict[str, Any]:
        """Every group (of one oracle, if named) with its session and all-time report."""
        groups = [g for g in self._groups.values() if oracle is None or g.oracle == oracle]
        return {"session_after_event": self.session_after, "last_event": self.last_id,
                "groups": [g.as_dict() for g in groups]}
