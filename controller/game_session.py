"""The game being played at the table (the games kept after it: controller/history.py).

Every change follows one order: check the request (its idempotency key, then the version it was
made on), let the engine decide, fold its events into the state, store the entry (committed), and
only then tell the tablets. The state is always the fold of the stored entries, so a restart
resumes the unfinished game by folding them again; that is why the events are folded before they
are stored: a game's own code that fails on them (a plug-in's bug) refuses the move (GameFault)
and keeps nothing, where stored first they would fail again at every restart and end the game.
The game as the pages show it (its view, offers and result) is made before storing too, for the
same reason; a game already stored that its code can no longer show (a plug-in updated since) is
shown with a sentence saying so, and can still be undone or abandoned.

Undo and redo work like an editor's: undo takes back the newest move still in force, redo puts
back the newest move undone, and a new move forgets what could have been redone (its events
were decided on a state that no longer holds).
"""

import contextlib
import json
import logging
import time
import unicodedata
from typing import Any

from .errors import BadRequest, Conflict, GameFault, NewsdeskError
from .games import base, ledger, registry
from .games.game import SAID_MOST, SLOW_S, Game, no_description
from .history import stack, summary
from .standings import final_table, rows, sides
from .store import GameInPlay, GameNotActive, GameRecord, KeyReused, StaleVersion, check_key
from .visible import visible

READ_WAIT = 0.25   # seconds a read waits for a change in progress before showing the last committed state
NAME_MAX = 40           # a player's name, colour or team (the API document says the same)
log = logging.getLogger(__name__)

# What an undo or a redo says it did, before the words of the move it takes back or puts back:
# the table's words ("Took back: Cy paid Ann $50"), not the store's versions.
UNDO_WORDS = {"undo": "Took back: ", "redo": "Put back: "}


def clean_players(players):
    """The players a start asks for, checked once for every way in (the panel, the API, a
    test): 1 to base.SEATS_MOST (more than any game seats) of {"name", "colour", "team"}, names and the two short texts
    trimmed and at most NAME_MAX characters, with nothing the table can't see in them (a line
    break, a tab, an invisible character); empty colours and teams dropped. Two names the table
    would read as one ("Ann" and "ann") are refused: the panel says whose turn it is by name.
    Each engine then checks the seats its rules take."""
    if not isinstance(players, list) or not players or len(players) > base.SEATS_MOST:
        raise BadRequest("list the people at the table as \"players\" (1 to %d), each as {\"name\": ...}"
                         % base.SEATS_MOST)
    clean = []
    seen: dict[str, tuple[int, str]] = {}
    for i, p in enumerate(players, 1):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"].strip():
            raise BadRequest("player %d needs a name: each player is {\"name\": ..., \"colour\": ..., "
                             "\"team\": ...}" % i)
        name = p["name"].strip()
        if len(name) > NAME_MAX:
            raise BadRequest("player %d's name is longer than %d characters; shorten it" % (i, NAME_MAX))
        visible(name, "player %d's name" % i)
        same = _as_read(name)
        if same in seen:
            first, earlier = seen[same]
            also = "" if earlier == name else " (%s and %s are one name at the table)" % (earlier, name)
            raise BadRequest("players %d and %d are both called %s%s: give each player a different name"
                             % (first, i, earlier, also))
        seen[same] = (i, name)
        row = {"name": name}
        for field in ("colour", "team"):
            value = p.get(field)
            if value not in (None, "") and (not isinstance(value, str) or len(value) > NAME_MAX):
                raise BadRequest("%s's %s is a short text (up to %d characters), got %r" % (name, field, NAME_MAX, value))
            if value not in (None, ""):
                visible(value, "%s's %s" % (name, field))
                row[field] = value.strip()
        clean.append(row)
    return clean




def _as_read(name):
    """A name as the table reads it: the same letters whatever their case, spacing or Unicode
    form ("Ann", "ann" and "ANN" are one name; so are an accent typed as one character or two)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


VIEW_MOST = 1_000_000     # characters of JSON a game's view (and its result) may take: the largest of
                          # newsdesk's own, a long SCOOP (1956), is about 5 KB


def _plain(value, sort=False):
    """``value`` as it will read back from the store (tuples become lists, keys strings; with
    ``sort``, keys in the store's sorted order: events are folded in that order live, so the game
    folded again after a restart is the same, offers and page order included)."""
    return json.loads(json.dumps(value, sort_keys=sort))


# what a game's own code may raise that is its bug, not the box's end: SystemExit too (a plug-in's
# exit() or sys.exit() in a move stopped the panel, and in the game being played, at every start)
GAME_FAULTS = (Exception, SystemExit)


_SAID_SLOW: set[tuple[str, str]] = set()      # (game, what it was doing) said slow in this process: once each, not every move


@contextlib.contextmanager
def games_own_code(engine, doing, kept, clock=time.monotonic):
    """Around a call into a game's own code: a refusal its rules mean (a GameError, any
    NewsdeskError) goes through as it is; anything else is a bug in the game, said as a
    GameFault naming the game, ``doing`` and what was ``kept`` (the cause logged in full).

    A call past the kit's SLOW_S is said in the log, once for each game and doing: nothing can
    cut a plug-in's code short, and every tablet's writes wait while it runs, so the owner
    should at least learn which game makes the table wait."""
    began = clock()
    try:
        yield
    except NewsdeskError:
        raise
    except GAME_FAULTS as e:
        cause = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
        raise GameFault("the %s game's rules failed on %s (%s); %s" % (engine.title, doing, cause, kept)) from e
    finally:
        took = clock() - began
        if took > SLOW_S and (engine.title, doing) not in _SAID_SLOW:
            _SAID_SLOW.add((engine.title, doing))
            log.warning("the %s game's rules took %.1f s on %s, and every tablet waited for them: a game's call "
                        "should take milliseconds (its plug-in's own tests time each call: pytest --newsdesk-game)",
                        engine.title, took, doing)


def _why(e):
    """An exception in words: its message, or its kind when it has none (a bare KeyError: 'x')."""
    return "%s: %s" % (type(e).__name__, e) if not isinstance(e, NewsdeskError) else str(e)


SHOW_FAILED = "the %s game's rules failed on showing the game (%s); undo the last move, or abandon the game"


def look(engine, state, seated=None):
    """(view carrying the result, offers) of ``state``, as the pages get them: plain JSON, or
    TypeError/ValueError saying what isn't. The game's own code is called as it is (a caller
    wraps this in games_own_code): a plug-in's view or offers that fail, or that JSON can't
    carry, must cost a move or a screen, never every page of the panel.

    ``seated``: the names of the players at the table, when known. A result whose rows name
    someone else, not marked as a seat the box plays (result_of's automated), or whose winners
    are not among its rows, is refused: kept, it made a stranger a winner for good and the
    history counted him as the box. A view past VIEW_MOST is refused too: every move sends it
    to every page, and a finished game keeps it (one of 30 MB took a second a move)."""
    view = engine.view(state)
    if not isinstance(view, dict):
        raise TypeError("view() gave a %s, not a JSON object" % type(view).__name__)
    offers = engine.offers(state)
    if not isinstance(offers, list) or not all(isinstance(o, dict) and isinstance(o.get("type"), str)
                                               for o in offers):
        raise TypeError("offers() gave %s, not a list of actions (each a JSON object with its type)"
                        % ("a %s" % type(offers).__name__ if not isinstance(offers, list) else "a list of other things"))
    result = engine.result(state)
    if not (isinstance(result, dict) and isinstance(result.get("over"), bool)
            and isinstance(result.get("winners"), list) and isinstance(result.get("standings"), list)
            and all(isinstance(r, dict) and isinstance(r.get("name"), str)
                    and (r.get("score") is None or (isinstance(r.get("score"), (int, float))
                                                    and not isinstance(r.get("score"), bool)))
                    for r in result["standings"])):
        raise TypeError("result() gave %s, not a result (over, winners, and standings: a row per player "
                        "with a name and a number or no score)" % type(result).__name__)
    named = [r["name"] for r in result["standings"]]
    strangers = [n for n, r in zip(named, result["standings"]) if seated is not None and n not in seated
                 and r.get("automated") is not True]
    if strangers:
        raise ValueError("result() names %s, who %s not at the table (%s), in its standings: a seat the box plays "
                         "is marked automated (result_of's automated=)" % (
                             ", ".join(map(repr, strangers)), "is" if len(strangers) == 1 else "are",
                             ", ".join(seated)))
    if not all(isinstance(w, str) and w in named for w in result["winners"]):
        raise ValueError("result() names the winners %s, not all among its standings (%s)" % (
            base.quoted(result["winners"], 80), ", ".join(named)))
    text = json.dumps(dict(view, result=result))
    if len(text) > VIEW_MOST:
        size = "%.1f MB" % (len(text) / 1e6) if len(text) >= 1e6 else "%d KB" % (len(text) // 1000)
        raise ValueError("view() gave %s of JSON: a game's view goes to every page after every move and is kept "
                         "with a finished game; keep it under %d KB" % (size, VIEW_MOST // 1000))
    return json.loads(text), _plain(offers)


def final_or_plain(engine, state, players, abandoned):
    """The final table kept when a game ends (standings.final_table), as plain JSON. When the
    game's own code can't make all of it (or makes what JSON can't carry), what it can make is
    kept and a ``problem`` says what was lost: its result without the final view, else the
    players without scores; so a game can always be abandoned, and its record says why it is
    bare. With ``abandoned``, nobody is kept as a winner."""
    def why(e):
        cause = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
        log.error("the final table of a %s game couldn't be made: %s", getattr(engine, "name", "?"), cause)
        return "the %s game's rules failed on its final table (%s)" % (engine.title, cause)
    try:
        table = _plain(final_table(engine, state))
    except GAME_FAULTS as e:
        problem = why(e)
        try:
            result = engine.result(state)
            table = _plain({"winners": list(result["winners"]), "standings": rows(result),
                            "teams": sides(result), "view": None,
                            "problem": problem + "; it was kept without its final view"})
        except GAME_FAULTS as e:
            table = {"winners": [], "view": None, "teams": {},
                     "standings": [{"name": p.get("name"), "score": None, "winner": False} for p in players],
                     "problem": why(e) + "; it was kept without scores or winners"}
    if abandoned:
        table["winners"] = []
        for row in table["standings"]:
            row["winner"] = False
    return table


def describe(action, events, names, accounts=None):
    """A move in plain words: who did what, and any money it moved. ``accounts`` names the
    ledger accounts that aren't the players' names (e.g. "p0" -> "Ann")."""
    accounts = dict(accounts or {}, **{ledger.BANK: "the bank"})
    who = action.get("player")
    what = str(action.get("type", "move")).replace("_", " ")
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
        what = "%s's %s" % (names[who], what)
    details = ["%s %s" % (k, v) for k, v in action.items()
               if k not in ("type", "player") and isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    text = "%s (%s)" % (what, ", ".join(details)) if details else what
    money = ["%s paid %s %s" % (accounts.get(ev["from"], ev["from"]), accounts.get(ev["to"], ev["to"]),
                                ledger.dollars(ev["amount"]))
             for ev in events if ev.get("type") == ledger.TRANSFER]
    return "; ".join([text] + money)


def say(game, state, action, events, plain):
    """A move in a sentence the table understands: the game's own ``describe(state, action,
    events)`` (``state`` as it was before the move), else ``plain()``, today's plain words, for
    a game that keeps Game's describe (it has no words of its own). A describe that fails never
    costs the move: it is logged and the plain words stand in."""
    told = game.describe
    if told is no_description:
        return plain()
    try:
        text = told(base.copied(state), base.copied(action), base.copied(events))
    except GAME_FAULTS:
        log.exception("%s's describe() failed on a %r move; it is kept with plainer words",
                      game.name, action.get("type"))
    else:
        if isinstance(text, str) and text.strip():
            said = " ".join(text[:SAID_MOST * 4].split())     # past a sentence's length: cut, not kept whole
            if len(text) <= SAID_MOST * 4 and len(said) <= SAID_MOST:
                return said
            log.error("%s's describe() gave %d characters for a %r move; it is kept cut to %d",
                      game.name, len(text), action.get("type"), SAID_MOST)
            return said[:SAID_MOST - 1] + "…"
        log.error("%s's describe() gave %r for a %r move, not a sentence; it is kept with "
                  "plainer words", game.name, text, action.get("type"))
    return plain()


class GameSession:
    """Holds the active game (at most one) and applies requests to it; thread-safe."""

    def __init__(self, journal, rng, engines=None):
        """``journal``: the table's (journal.py), whose lock every change holds; ``engines``: name ->
        Game, consulted before the registry (tests bring their own)."""
        self.journal = journal
        self.store = journal.store
        self._rng = rng
        extra = dict(engines or {})
        self._load = lambda name: extra[name] if name in extra else registry.load(name)
        self._lock = journal.lock
        self.on_ring = None   # called when a move means the table should pick up the phone
        self._clear()         # _shown: what current() last returned, served while a write is stuck
        self.resume()

    def _clear(self):
        self._game: GameRecord | None = None
        self._engine: Game | None = None
        self._entries = []        # (version, entry), oldest first: add to it with _took
        self._done, self._undone = [], []     # history.stacks of _entries, moved on as each is taken
        self._said = {}           # version -> its entry's words
        self._by_hand = {}        # version -> {"id", "signal"} of a verdict entered by hand (_hand_verdicts)
        self._state: dict[str, Any] | None = None
        self._problem: str | None = None
        self._started_event = None   # the id of the event that started the game (see _current)
        self._shown = None
        self._shown_for = None    # (game, version, problem) _shown was computed for
        self._looked = None       # (state, look()) of the last state looked at

    # ------------------------------------------------------------ reading

    @property
    def version(self):
        """The active game's version (its number of entries); 0 with no game."""
        return len(self._entries)

    @property
    def state(self):
        """The active game's folded state (None with no game); a copy, to look at."""
        with self._lock:
            return base.copied(self._state)

    @property
    def engine(self):
        return self._engine

    @property
    def game_id(self):
        return self._game.id if self._game else None

    @property
    def engine_name(self):
        return self._game.engine if self._game else None

    def resume(self):
        """Load the unfinished game from the store and fold its entries; returns its id or None."""
        with self._lock:
            self._clear()
            game = self.store.active_game()
            if game is None:
                return None
            self._game = game
            stored = self.store.entries(game.id)
            self._started_event = stored[0].event_id if stored else None
            taken = False
            try:
                # an entry that can't be taken (an undo of a move not in force: a store that came
                # from elsewhere) is a game that can't be resumed, never a box that can't start
                for e in stored:
                    self._took(e.version, e.entry, e.event_id)
                taken = True
                self._engine = self._load(game.engine)
                self._state = base.fold(self._engine, self._entries)
            except GAME_FAULTS as e:
                self._engine, self._state = None, None
                self._entries = [(s.version, s.entry) for s in stored]      # the version stays the store's
                if not taken:               # its moves in force stay counted when only its game failed
                    self._done, self._undone = [], []
                # a plug-in taken away (or failing to import) comes back with its game installed again,
                # one whose name another came to declare with that one uninstalled: as the cause says
                if isinstance(e, registry.EngineUnavailable):
                    again = ", or %s to go on with it" % e.again
                elif game.engine not in registry.names():       # its plug-in uninstalled: no distribution names it
                    again = ", or %s to go on with it" % registry.EngineUnavailable.again
                else:
                    again = ""
                self._problem = ("game #%d (%s) can't be resumed: %s. Abandon it to start another%s"
                                 % (game.id, game.engine, _why(e), again))
                log.error("%s", self._problem)
            self._seen()
            return game.id

    def current(self):
        """What the panel shows of the active game, or None.

        While a change holds the lock for longer than READ_WAIT (its write waits on a slow or
        frozen disk), this is the last state shown, which is the last committed one: a page
        never waits on the disk to read the table."""
        if not self._lock.acquire(timeout=READ_WAIT):
            return base.copied(self._shown)
        try:
            return base.copied(self._seen())
        finally:
            self._lock.release()

    def _seen(self):
        """_current(), worked out once per version of the game: a move's answer, its message to
        every page and the next page load share one view and one list of offers."""
        key = (self.game_id, self.version, self._problem)
        if self._shown_for != key:
            self._shown, self._shown_for = self._current(), key
        return self._shown

    def headline(self):
        """What the game being played wants shown in big type after a reload too (SCOOP's newest
        verdict, with whose claim it judged): its engine's own ``headline(events)`` of the events
        still in force; None with no game, or a game without a headline (Game's default)."""
        if not self._lock.acquire(timeout=READ_WAIT):
            return None
        try:
            if self._game is None or self._engine is None:   # no game, or one that can't be resumed
                return None
            try:
                return _plain(self._engine.headline([ev for _, entry in base.effective(self._entries)
                                                     for ev in entry.get("events", ())]))
            except GAME_FAULTS:           # a plug-in's headline that fails costs its big type, not the page
                log.exception("game #%d (%s): its headline() failed", self._game.id, self._game.engine)
                return None
        finally:
            self._lock.release()

    def _current(self):
        if self._game is None:
            return None
        # started_event: what came before it (the editor's calls among it) belongs to other
        # games, and a page must not show an older verdict as this game's
        # moves: the moves in force (an undo takes one back), where the version counts every entry
        out = {"id": self._game.id, "engine": self._game.engine, "version": self.version, "moves": len(self._done),
               "players": self._game.players, "options": self._game.options,
               "created": self._game.created, "started_event": self._started_event,
               "problem": self._problem}
        if self._problem:
            return dict(out, title=self._game.engine, view=None, offers=[], undo=None, redo=None)
        engine, state = self._playing()
        undo = self._said[self._done[-1]] if self._done else None
        redo = self._said[self._undone[-1]] if self._undone else None
        try:
            # the view carries the game's own result, so a page asks it, not the view's shape, if the game is over
            view, offers = self._look(engine, state)
        except GAME_FAULTS as e:          # a game stored before its code changed: said, and still undone or abandoned
            cause = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
            log.exception("game #%d (%s) can't be shown", self._game.id, self._game.engine)
            return dict(out, title=engine.title, view=None, offers=[], undo=undo, redo=redo,
                        problem=SHOW_FAILED % (engine.title, cause))
        return dict(out, title=engine.title, view=view, offers=offers, undo=undo, redo=redo,
                    hand_verdicts=self._hand_verdicts(engine))

    def _hand_verdicts(self, engine):
        """The editor's verdicts the table entered by hand in the moves in force, oldest first, each
        {"id": the id of the event that stored it, "signal"}: a game the editor judges takes the
        phone's verdicts as {"type": "verdict", "signal", "digit"} actions (base.panel), and one
        entered without dialing has no digit. The panel lists them with the calls to the editor,
        which are the phone's; [] for a game the editor doesn't judge. Kept as each move is taken
        (``_took``), so a long game's moves don't cost more: only the few verdicts are looked at."""
        if not self._by_hand or "editor" not in base.panel(engine)["listens"]:
            return []
        return [said for version, said in self._by_hand.items() if version in self._done]

    def _look(self, engine, state, seated=None):
        """look(engine, state), made once per state: a move's check before it is stored and the
        page it then shows share one. Once per state *object*: a game's apply that changes the
        state it was given and gives that back (the kit's "pure" rule refuses it, but a plug-in
        need not have run the kit) hands over the object already looked at, so ``act`` forgets
        the look then, or the table went on seeing the game as it was before the move."""
        if self._looked is not None and self._looked[0] is state:
            return self._looked[1]
        made = look(engine, state, seated if seated is not None else
                    [str(p.get("name")) for p in self._game.players] if self._game is not None else None)
        self._looked = (state, made)
        return made

    def _took(self, version, entry, event_id=None):
        """One more entry of the game being played (stored): kept, with the undo and redo stacks
        moved on by it (never worked out again from every entry: a move costs the same in the
        500th move as in the 5th)."""
        self._entries.append((version, entry))
        self._said[version] = entry.get("said")
        action = entry.get("action") if entry.get("type") == "action" else None
        if (isinstance(action, dict) and action.get("type") == "verdict" and action.get("digit") is None
                and event_id is not None):
            self._by_hand[version] = {"id": event_id, "signal": action.get("signal")}
        stack(self._done, self._undone, version, entry)

    def _names(self):
        """(names by seat, ledger account -> name) for describing a move."""
        engine, state = self._playing()
        try:
            players = self._look(engine, state)[0].get("players")
        except GAME_FAULTS:               # a game it can't show still has its players' names
            players = None
        if isinstance(players, list) and all(isinstance(p, dict) and "name" in p for p in players):
            names = [str(p["name"]) for p in players]
            accounts = {p["account"]: str(p["name"]) for p in players if isinstance(p.get("account"), str)}
            return names, accounts
        return [str(p.get("name")) for p in self._held().players], {}

    # ------------------------------------------------------------ checks

    def _require(self):
        self._held()
        if self._problem:
            raise registry.EngineUnavailable(self._problem)

    def _held(self) -> GameRecord:
        """The game being played, for the steps that need one; refused with none."""
        if self._game is None:
            raise GameNotActive("no game is being played; start one first")
        return self._game

    def _playing(self) -> tuple[Game, dict[str, Any]]:
        """The engine of the game being played and its folded state; refused with no game, or one
        that can't be resumed."""
        game = self._held()
        if self._engine is None or self._state is None:
            raise registry.EngineUnavailable(self._problem or "game #%d (%s) has no engine loaded"
                                             % (game.id, game.engine))
        return self._engine, self._state

    def _check_version(self, expected):
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise BadRequest("say which version of game #%d this tablet was showing (a whole number; "
                             "the game is at version %d)" % (self._held().id, self.version))
        if expected != self.version:
            raise self._stale(expected)

    def _stale(self, expected):
        latest = self._entries[-1][1].get("said") if self._entries else None
        return StaleVersion("game #%d has moved on since this tablet looked: it showed version %s, the "
                            "game is at version %d (latest: %s). Look at the board again and retry"
                            % (self._held().id, expected, self.version, latest or "the setup"),
                            self._held().id, expected, self.version)

    def _repeat(self, key, kind, action=None, found=None):
        """The outcome of the request this key already made, or None if the key is new."""
        found = found or self.store.entry_by_key(key)
        if found is None:
            return None
        same = found.entry.get("type") == kind
        if kind == "action":
            same = same and found.entry.get("action") == _plain(action)
        if not same:
            raise KeyReused("the request key %r was already used for a different request (game #%d, "
                            "version %d: %s); send a new key" % (key, found.game, found.version,
                                                                found.entry.get("said", "")))
        return self._outcome(found.version, found.entry, found.event_id, repeat=True, game_id=found.game)

    def _append(self, expected, entry, key):
        try:
            return self.store.append_entry(self._held().id, expected, entry, key)
        except (StaleVersion, GameNotActive):
            # another writer got there first; take the store's word for the state, then refuse
            game_id = self._held().id
            self.resume()
            if self._game is None or self._game.id != game_id:
                raise GameNotActive("game #%d is no longer being played; look at the board again" % game_id) from None
            raise self._stale(expected) from None

    def _outcome(self, version, entry, event_id, repeat=False, game_id=None, shown=None):
        """What a request did: the entry it wrote (``entry``, ``said``) and, when its game is the
        one being played, where that game is now (``version``, ``view``, ``offers``). ``shown``:
        current() as the move's message to the pages already carries it (one copy, read by both)."""
        game_id = self.game_id if game_id is None else game_id
        out = {"game": game_id, "entry": version, "said": entry.get("said", ""), "repeat": repeat,
               "event_id": event_id}
        current = shown if shown is not None else self.current()
        if current is not None and current["id"] == game_id:
            out.update(engine=current["engine"], version=current["version"], moves=current["moves"],
                       view=current["view"], offers=current["offers"], undo=current["undo"], redo=current["redo"],
                       hand_verdicts=current.get("hand_verdicts", []))
        return out

    def _announce(self, event):
        """The move's message to the pages, with the game as it now stands; returns that (a copy
        of current(), which its answer shares: neither is changed once made)."""
        current = self.current()
        self.journal.announce(event, view=current["view"], offers=current["offers"],
                              undo=current["undo"], redo=current["redo"], moves=current["moves"],
                              hand_verdicts=current.get("hand_verdicts", []))
        return current

    # ------------------------------------------------------------ changing

    def start(self, engine_name, players, options=None, key=None):
        """Set up a new game of ``engine_name``; refused while another is being played."""
        with self._lock:
            key = check_key(key)
            if not isinstance(engine_name, str) or not engine_name:
                raise BadRequest("say which game to start: \"engine\" is one of %s" % ", ".join(registry.names()))
            players = clean_players(players)
            if options is None:
                options = {}
            if not isinstance(options, dict):
                raise BadRequest("send the game's settings as \"options\", a JSON object (or leave it out)")
            if key is not None:
                found = self.store.entry_by_key(key)
                if found is not None:
                    game = self.store.game(found.game)
                    if found.version != 1 or game.engine != engine_name:
                        raise KeyReused("the request key %r was already used for a different request "
                                        "(game #%d); send a new key" % (key, found.game))
                    return self._outcome(1, found.entry, found.event_id, repeat=True, game_id=found.game)
            if self._game is not None:
                raise GameInPlay(self._game.id, self._game.engine)
            engine = self._load(engine_name)
            players, options = _plain(players), _plain(options)
            with games_own_code(engine, "setting it up", "no game was started"):
                events = _plain(engine.setup(players, options), sort=True)
                names = ", ".join(str(p.get("name")) for p in players)
                entry = {"type": "setup", "events": events,
                         "said": "set up %s for %s" % (engine.title, names or "nobody")}
                state = base.fold(engine, [(1, entry)])     # before it is stored: see the module's docstring
            with games_own_code(engine, "showing the game it sets up", "no game was started"):
                self._looked = None
                self._look(engine, state, [str(p.get("name")) for p in players])
            game, stored, event = self.store.start_game(engine_name, players, options, entry, key)
            if event is None:      # the key was used between our look and the write
                return self._outcome(1, stored.entry, stored.event_id, repeat=True, game_id=stored.game)
            self._clear()          # nothing of a game before it stays
            self._game, self._engine, self._problem = game, engine, None
            self._took(1, entry, event.id)
            self._started_event = event.id
            self._state = state
            shown = self._announce(event)
            log.info("game #%d: %s", game.id, entry["said"])
            return self._outcome(1, entry, event.id, shown=shown)

    def act(self, action, expected_version, key=None):
        """Apply one move a tablet (or the phone) asked for, made on ``expected_version``."""
        with self._lock:
            key = check_key(key)
            if base.action_type(action) is None:
                raise BadRequest("an action is a JSON object with a \"type\", such as one of the "
                                 "offers the panel shows")
            if key is not None:
                done = self._repeat(key, "action", action)
                if done is not None:
                    return done
            self._require()
            self._check_version(expected_version)
            action = _plain(action)
            engine, state = self._playing()
            not_made = "the move was not made and the game is as it was"
            with games_own_code(engine, "this move", not_made):
                events = _plain(engine.decide(base.copied(state), action, self._rng), sort=True)
                if not base.are_events(events):
                    raise TypeError("decide() must give %s" % base.EVENTS)
                entry = {"type": "action", "action": action, "events": events,
                         "said": say(engine, state, action, events,
                                      lambda: describe(action, events, *self._names()))}
            after = self._applied(engine, state, events, not_made)     # before it is stored: see the module's docstring
            if after is state:      # given back by the game's apply, perhaps changed in place: looked at again
                self._looked = None
            try:
                with games_own_code(engine, "showing the game after this move", not_made):
                    self._look(engine, after)
            except NewsdeskError:
                self._state = base.fold(engine, self._entries)     # as it was, had its apply changed it
                raise
            stored, event = self._append(expected_version, entry, key)
            if event is None:
                return self._repeat(key, "action", action, found=stored)
            self._state = after
            self._took(stored.version, entry, event.id)
            shown = self._announce(event)
            self._ring_if_wanted(events)
            return self._outcome(stored.version, entry, event.id, shown=shown)

    def _applied(self, engine, state, events, kept):
        """``state`` after ``events``. When the game's own apply fails (or refuses), the state is
        folded again from the stored entries, in case it changed the state it was given."""
        try:
            with games_own_code(engine, "this move", kept):
                for ev in events:
                    state = engine.apply(state, ev)
                return state
        except NewsdeskError:
            self._state = base.fold(engine, self._entries)
            raise

    def _ring_if_wanted(self, events):
        """The engine's ``rings(events)`` says when its moves ring the phone (a Star Reporter
        Disaster breaking; Game's default never does); the bell never stops a move."""
        if self.on_ring is None:
            return
        try:
            if self._playing()[0].rings(events):
                self.on_ring()
        except GAME_FAULTS:
            log.exception("game #%s: ringing the phone failed", self.game_id)

    def undo(self, expected_version, key=None):
        """Take back the newest move still in force; the outcome's "said" names it."""
        return self._reverse("undo", expected_version, key)

    def redo(self, expected_version, key=None):
        """Put back the newest move undone, if nothing new was played since."""
        return self._reverse("redo", expected_version, key)

    def _reverse(self, kind, expected_version, key):
        with self._lock:
            key = check_key(key)
            if key is not None:
                done = self._repeat(key, kind)
                if done is not None:
                    return done
            self._require()
            self._check_version(expected_version)
            pool = self._done if kind == "undo" else self._undone
            if not pool:       # the request is sound; the game has nothing to take (or put) back
                raise Conflict("nothing to %s in game #%d: %s" % (kind, self._held().id, {
                    "undo": "no move is in force since the setup",
                    "redo": "no move was undone since the last one played"}[kind]))
            target = pool[-1]
            said = self._said[target] or ""
            entry = {"type": kind, "target": target,
                     "said": UNDO_WORDS[kind] + said}
            base.effective(self._entries + [(self.version + 1, entry)])   # refuses a double undo
            stored, event = self._append(expected_version, entry, key)
            if event is None:
                return self._repeat(key, kind, found=stored)
            self._took(stored.version, entry, event.id)
            self._state = base.fold(self._engine, self._entries)
            shown = self._announce(event)
            log.info("game #%d: %s", self._held().id, entry["said"])
            return self._outcome(stored.version, entry, event.id, shown=shown)

    def finish(self, expected_version, key=None):
        """Keep the game as finished, with the winners the engine's result names."""
        with self._lock:
            key = check_key(key)
            if key is not None:
                repeat = self._ended_by(key)
                if repeat is not None:
                    return repeat
            self._require()
            self._check_version(expected_version)
            engine, state = self._playing()
            with games_own_code(engine, "its final table", "the game goes on: undo the last move, or abandon it"):
                table = _plain(final_table(engine, state))
            if not table["winners"]:
                raise BadRequest("game #%d (%s) has no winner yet: play on, or abandon it"
                                 % (self._held().id, engine.title))
            return self._end("finished", expected_version, table, key)

    def abandon(self, expected_version, key=None):
        """Stop the game without a winner; it is kept in the history as abandoned."""
        with self._lock:
            key = check_key(key)
            if key is not None:
                repeat = self._ended_by(key)
                if repeat is not None:
                    return repeat
            if self._game is None:
                raise GameNotActive("no game is being played, so there is nothing to abandon")
            self._check_version(expected_version)
            table = None
            if not self._problem:
                table = final_or_plain(self._engine, self._state, self._game.players, abandoned=True)
            return self._end("abandoned", expected_version, table, key)

    def _ended_by(self, key):
        game = self.store.game_by_end_key(key)
        return None if game is None else dict(summary(game, self._load), repeat=True)

    def _end(self, status, expected_version, table, key):
        try:
            game, event = self.store.end_game(self._held().id, expected_version, status,
                                              table["winners"] if table else [], table, key)
        except StaleVersion:
            self.resume()
            raise self._stale(expected_version) from None
        if event is None:
            return dict(summary(game, self._load), repeat=True)
        self._clear()
        self.journal.announce(event, final=table)
        log.info("game #%d %s; winners: %s", game.id, status, ", ".join(game.winners or []) or "none")
        return dict(summary(game, self._load), repeat=False)

