"""The table: the one place that applies what happens (a dialed digit, a hook change, a move
from a tablet) to the game, stores it and tells every tablet.

Anything that changes state goes through the table's journal (journal.py): decide (pure),
append to the store (durable), then publish on the bus, under the one lock the oracle service and
the game session share.
"""

import logging

from . import events
from .dial_join import DialOutcome, TakesDigits
from .errors import NewsdeskError
from .game_session import GameSession
from .games import base, registry
from .games.base import GameError
from .history import KeptGames
from .journal import Journal
from .oracles.editor import ODDS_NOTE

log = logging.getLogger(__name__)

# How many calls to the editor the panel's "Calls to the editor" lists, newest first, the ones
# dialed on the phone and the ones the table entered by hand alike: the list is a glance at what
# the editor said lately, and on a phone (one column) it sits below the game and the dial, where a
# long game's every call made the page longer and longer. The state carries as many of the
# phone's calls; the page (index.html, sidebar.js) shows as many of both kinds together.
CALLS_SHOWN = 10


class Table:
    def __init__(self, store, bus, editor, rng, hardware, engines=None, joins: TakesDigits | None = None):
        """``engines``: name -> Game, for tests; the games the registry finds by default.
        ``joins``: asked about each dialed digit first, as a device may be dialing its join code
        (controller/joins.py); None: every digit is a call to the editor."""
        self.store = store
        self.bus = bus
        self.editor = editor
        self._rng = rng
        self.journal = Journal(store, bus)   # shared with the oracle service and the game session
        self.lock = self.journal.lock
        self.hardware = hardware  # {"simulated": bool, "pins": str}
        self.hook = "on"
        self.phone_link = None   # the serial phone's last status, when the phone is on USB
        self.phone_fault = None  # the phone's wiring fault being said, until its line behaves again
        self.joins = joins
        self._position = None    # the editor's disc: in memory only, never stored or shown (a secret)
        last = store.latest(events.VERDICT)
        self.last_digit = last[0].payload.get("digit") if last else None   # shown from a page's first paint
        self.games = GameSession(self.journal, rng, engines=engines)
        self.kept = KeptGames(store, engines)

    def _offer_to_joins(self, ev) -> DialOutcome | None:
        """What the join service made of a dialed digit; None (a call) if it failed on it."""
        if self.joins is None:
            return None
        try:
            return self.joins.on_digit(ev.value, ev.t)
        except Exception:
            log.exception("joining by dialing failed on digit %r", ev.value)
            return None

    def on_dial_event(self, ev):
        """Called by the dial listener's thread for each decoded event."""
        if ev.kind == "hook":
            self.hook = ev.value
            if self.joins is not None:      # digits held as the start of a join code were calls
                for digit in self.joins.on_hook(ev.value, ev.t):
                    self.call_editor(digit)
            self.journal.tell(events.PHONE_HOOK, {"state": ev.value, "t": ev.t})
        elif ev.kind == "digit":
            self.last_digit = ev.value
            taken = self._offer_to_joins(ev)
            self.journal.tell(events.PHONE_DIGIT, {     # taken: held for a join, not a call
                "digit": ev.value, "t": ev.t, "taken": taken.kind if taken is not None and taken.held else None})
            if taken is None:
                self.call_editor(ev.value)
            else:                   # digits held as the start of a join code that turned out to be calls
                for digit in taken.release:
                    self.call_editor(digit)
        elif ev.kind == "fault":
            log.warning("phone wiring: %s", ev.value)
            self.phone_fault = ev.value
            self.journal.tell(events.PHONE_FAULT, {"message": ev.value, "t": ev.t})
        elif ev.kind == "fault_cleared":
            log.info("phone wiring: the %s line is behaving again", ev.value)
            self.phone_fault = None
            self.journal.tell(events.PHONE_FAULT, {"message": "", "line": ev.value, "t": ev.t})

    def on_phone_status(self, status):
        """The phone on USB came or went (called on the serial bridge's thread)."""
        self.phone_link = status.as_dict()
        self.journal.tell(events.PHONE_LINK, self.phone_link)

    def call_editor(self, digit):
        """The editor's verdict on ``digit``: stored and shown whatever the game makes of it, then
        handed to a SCOOP (1956) game being played."""
        with self.journal:
            verdict = self.editor.call(digit, self._position, self._rng)
            event = self.journal.record(events.VERDICT, verdict.as_dict())
            self._position = verdict.position
            log.info("dialed %d: the editor says %s", digit, verdict.signal)
            self._verdict_to_game(verdict, event)
        return event

    def _verdict_to_game(self, verdict, event):
        engine = self.games.engine      # a game whose claims the editor decides says so (its panel "listens")
        if engine is None or "editor" not in base.panel(engine)["listens"]:
            return None
        action = {"type": "verdict", "signal": verdict.signal, "digit": verdict.digit}
        try:
            return self.games.act(action, self.games.version, key="%s:%d" % (events.VERDICT, event.id))
        except (GameError, registry.EngineUnavailable) as e:
            log.info("game #%s did not take the editor's %s on %d: %s",
                     self.games.game_id, verdict.signal, verdict.digit, e)
            self.journal.tell(events.GAME_REFUSED, {
                "game": self.games.game_id, "verdict_id": event.id, "action": action,
                "message": "The editor's %s was shown but not applied to the game: %s." % (verdict.signal, e)})
        except NewsdeskError:
            log.exception("game #%s: applying the editor's %s on %d failed",
                          self.games.game_id, verdict.signal, verdict.digit)
        return None

    def recent_verdicts(self, limit=CALLS_SHOWN):
        return [e.as_dict() for e in self.store.latest(events.VERDICT, limit)]

    def since(self):
        """The id of the newest event that started or ended a game (None before the first game):
        the editor's calls and the buttons' rolls before it belong to another game, so the panel's
        sidebar and the phone's window show only what came after it. While a game is played it is
        that game's ``started_event``; between games, the end of the last one (a start form that
        kept showing a SCOOP game's THREE STARS three games later told a newcomer nothing)."""
        ids = [e.id for kind in (events.GAME_STARTED, *events.GAME_ENDED.values()) for e in self.store.latest(kind)]
        return max(ids, default=None)

    def last_roll(self, since):
        """The newest roll of the dice or the stopwatch since ``since`` (an event as the feed sends
        it), with ``older``: True once a move of the game came after it, or None. The sidebar
        shows it as a live page shows it: a move the box rolled for itself (4 + 2) beside the
        button's earlier 4 + 6, unmarked, read as two answers to one throw."""
        rolls = [e for kind in (events.DICE_ROLL, events.STOPWATCH_ROLL) for e in self.store.latest(kind)]
        roll = max(rolls, key=lambda e: e.id, default=None)
        if roll is None or (since is not None and roll.id <= since):
            return None
        moved = self.store.latest(events.GAME_CHANGED)
        return dict(roll.as_dict(), older=bool(moved) and moved[0].id > roll.id)

    def state(self):
        verdicts = self.recent_verdicts()
        since = self.since()
        return {
            "hardware": self.hardware,
            "phone": {"hook": self.hook, "link": self.phone_link, "last_digit": self.last_digit},
            "editor": {"mode": self.editor.mode,
                       "odds_note": ODDS_NOTE},
            "last_verdict": verdicts[0] if verdicts else None,
            "verdicts": verdicts,
            "since": since,
            "last_roll": self.last_roll(since),
            "game": self.games.current(),
            "engines": registry.catalogue(),
            "last_event_id": self.store.last_id(),
        }
