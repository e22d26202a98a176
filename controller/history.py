"""The games kept: the history, one game's record and chart, statistics per player, and the
exports (CSV, BG Stats). One home for what the table has played, read from the store; the
panel's handlers (web_ui/games_api.py, web_ui/pages.py) only turn these into HTTP.

A store written by an earlier version may hold a number past any real game: every answer here
still comes out (a sum too big for a float is averaged in whole numbers), so the history never
breaks on an old game.
"""

import csv
import io
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from .errors import Conflict, NotFound
from .games import base, registry
from .games.game import Game
from .standings import marked, places

HISTORY_LIMIT = 500          # games the history, the statistics and the history page look at
MAX_ID = 2 ** 53             # game numbers beyond this can't be in the store (and SQLite can't take them)
UNDO_KINDS = ("undo", "redo")

# The store and its rows (controller/store.py: GameRecord, Entry) are not typed yet: Any until they are.
JSON = dict[str, Any]


Load = Callable[[str], Game]       # name -> the game's declaration (the registry's, or a test's own)

log = logging.getLogger(__name__)


def title_of(engine: str, load: Load = registry.load) -> str:
    """A kept game's title, from its game's declaration (never from its view, which is the
    screen's to draw); the game's name when it is no longer installed."""
    try:
        return load(engine).title
    except (registry.EngineUnavailable, ValueError, LookupError):
        return engine


def summary(game: Any, load: Load = registry.load) -> JSON:
    """A kept (or ending) game as the history lists it (``load``: where its declaration is found)."""
    final = game.final or {}
    players = [p.get("name") for p in game.players]
    return {"id": game.id, "engine": game.engine, "title": title_of(game.engine, load), "status": game.status,
            "created": game.created, "ended": game.ended, "version": game.version,
            "players": players, "winners": game.winners or [],
            "standings": marked(final.get("standings"), players)}


def stacks(entries: Iterable[tuple[int, JSON]]) -> tuple[list[int], list[int]]:
    """(done, undone): versions of the moves in force, oldest first, and of the moves that can
    be redone, the next one to redo last. ``entries`` are (version, entry) pairs."""
    done: list[int] = []
    undone: list[int] = []
    for version, entry in entries:
        stack(done, undone, version, entry)
    return done, undone


def stack(done: list[int], undone: list[int], version: int, entry: JSON) -> None:
    """``stacks`` moved on by one more entry, in place: the game being played keeps its stacks
    this way, so a move costs the same in a long game as in a short one."""
    kind = entry.get("type")
    if kind == "undo":
        done.remove(entry["target"])
        undone.append(entry["target"])
    elif kind == "redo":
        undone.remove(entry["target"])
        done.append(entry["target"])
    elif kind != "setup":
        done.append(version)
        undone.clear()


def _csv_cell(value: object) -> str:
    """A spreadsheet must not run a player's name as a formula."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _average(scores: Sequence[int]) -> float | int | None:
    """The mean to one decimal, or None; a sum too big for a float (a value an earlier version
    kept) is averaged in whole numbers instead of failing."""
    if not scores:
        return None
    try:
        return round(sum(scores) / len(scores), 1)
    except OverflowError:
        return sum(scores) // len(scores)


def _score_kind(engine_name: str, load: Load = registry.load) -> str | None:
    """What a game's scores count, from its engine's panel facts: "money", "points", or None for a
    game without a score (and for a game whose engine is gone)."""
    try:
        kind: str | None = base.panel(load(engine_name))["score"]
    except (registry.EngineUnavailable, ValueError, LookupError):
        return None
    return kind


def _lower_wins(engine_name: str, load: Load = registry.load) -> bool:
    """Whether a game's lowest score is its best (its engine's panel facts' lower_wins); False for
    a game whose engine is gone, as the highest is every built-in game's best."""
    try:
        return base.lower_wins(load(engine_name))
    except (registry.EngineUnavailable, ValueError, LookupError):
        return False


def _rows(kept: JSON) -> list[JSON]:
    """A kept game's final table, or its players with no scores when it kept none."""
    return kept["standings"] or [{"name": n, "score": None, "winner": n in kept["winners"]} for n in kept["players"]]


def _teams(game: Any) -> dict[str, object]:
    """player -> side, for telling partners from tied players: as the game's end kept it (its
    result's sides), else the teams the players were given (a game kept before the sides were)."""
    kept = (game.final or {}).get("teams")
    if isinstance(kept, dict):
        return kept
    return {p["name"]: p["team"] for p in game.players if isinstance(p, dict) and p.get("name") and p.get("team")}


class KeptGames:
    """The games the store keeps, finished, abandoned or still being played."""

    def __init__(self, store: Any, engines: Mapping[str, Game] | None = None) -> None:
        """``engines``: name -> Game, consulted before the registry (tests bring their own)."""
        self.store = store
        extra = dict(engines or {})
        self._load: Load = lambda name: extra[name] if name in extra else registry.load(name)

    def history(self, limit: int = 100) -> list[JSON]:
        """Finished and abandoned games, the newest first."""
        return [summary(g, self._load) for g in self.store.games(limit=limit)]

    def game(self, game_id: object) -> Any:
        """The store's row for game ``game_id``; NotFound (404) when there is none."""
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise NotFound("a game is named by its number (a whole number), not %r" % (game_id,))
        game = self.store.game(game_id) if 0 <= game_id <= MAX_ID else None
        if game is None:
            raise NotFound("there is no game #%d; the games kept are listed in the history" % game_id)
        return game

    def _ended(self, game_id: object, what: str) -> Any:
        game = self.game(game_id)
        if game.status == "active":
            raise Conflict("game #%d is still being played; finish or abandon it to %s" % (game.id, what))
        return game

    def record(self, game_id: object) -> JSON:
        """One game as kept: its summary, final table (``places``: in order, with each row's place
        and whether it is tied) and what happened, move by move."""
        game = self.game(game_id)
        moves = [{"version": e.version, "type": e.entry.get("type"), "said": e.entry.get("said", ""),
                  "at": e.created} for e in self.store.entries(game.id)]
        kept = summary(game, self._load)
        return dict(kept, final=game.final, log=moves,
                    places=places(_rows(kept), _teams(game), lower=_lower_wins(game.engine, self._load)),
                    score_kind=_score_kind(game.engine, self._load))

    def stats(self, limit: int = HISTORY_LIMIT) -> JSON:
        """Per player over the finished games: played, won, and per game the best (the lowest in a
        game whose panel facts say lower_wins) and average final number; and ``against_the_box``, per person and opponent the box played (a seat
        the game's result marks ``automated``: The Lonely City's N. Ickel), how often they met,
        and how often each won. The box's opponent is no player: it has no row among them, no
        win rate, and is counted only against the people it played."""
        games = [g for g in self.history(limit) if g["status"] == "finished"]
        players: dict[str, JSON] = {}
        against: dict[tuple[str, str, str], JSON] = {}
        for g in games:
            people = [row for row in _rows(g) if not row.get("automated")]
            for box in (row for row in _rows(g) if row.get("automated")):
                for row in people:
                    met = against.setdefault((row["name"], box["name"], g["engine"]), {
                        "player": row["name"], "opponent": box["name"], "engine": g["engine"], "title": g["title"],
                        "played": 0, "won": 0, "lost": 0})
                    met["played"] += 1
                    met["won"] += 1 if row["winner"] else 0
                    met["lost"] += 1 if box["winner"] else 0
            for row in people:
                p = players.setdefault(row["name"], {"name": row["name"], "played": 0, "won": 0, "by_game": {}})
                p["played"] += 1
                p["won"] += 1 if row["winner"] else 0
                per = p["by_game"].setdefault(g["engine"], {"engine": g["engine"], "title": g["title"],
                                                            "played": 0, "won": 0, "scores": []})
                per["played"] += 1
                per["won"] += 1 if row["winner"] else 0
                if isinstance(row.get("score"), int):
                    per["scores"].append(row["score"])
        out: list[JSON] = []
        for p in sorted(players.values(), key=lambda p: (-p["won"], -p["played"], p["name"].lower())):
            per_game = []
            for per in p["by_game"].values():
                scores = per.pop("scores")
                lower = _lower_wins(per["engine"], self._load)
                per["best"] = (min(scores) if lower else max(scores)) if scores else None
                per["average"] = _average(scores)
                per_game.append(per)
            p["win_rate"] = round(p["won"] / p["played"], 3)
            p["by_game"] = per_game
            out.append(p)
        return {"players": out, "games_counted": len(games),
                "against_the_box": sorted(against.values(), key=lambda m: (m["player"].lower(), m["title"],
                                                                           m["opponent"].lower()))}

    def chart(self, game_id: object) -> JSON:
        """Each player's number after every move still in force (undone moves and the undo/redo
        entries left out), folding the game once. Each point has its entry's ``version`` and its
        ``move``: how many moves in force it stands after (0: the setup), which is what the chart
        counts; the version counts the undone moves and the undos too."""
        game = self.game(game_id)
        out: JSON = {"game": game.id, "engine": game.engine, "unit": "score", "prefix": "", "players": [],
               "colours": [], "points": [], "problem": None}
        try:
            engine = self._load(game.engine)
        except (registry.EngineUnavailable, ValueError) as e:
            out["problem"] = "No chart: %s." % e
            return out
        panel = base.panel(engine)
        if not panel.get("chart"):
            out["unit"] = None
            out["problem"] = panel.get("no_chart") or "This game keeps no score to chart."
            return out
        label = out["unit"] = panel["chart"].get("unit", "score")
        out["prefix"] = panel["chart"].get("prefix", "")
        entries = [(e.version, e.entry) for e in self.store.entries(game.id)]
        try:
            self._points(engine, entries, out)
        except (Exception, SystemExit) as e:     # the game's own code (an upgraded plug-in that can't replay it)
            log.exception("game #%d (%s): its chart couldn't be made", game.id, game.engine)
            cause = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
            return dict(out, players=[], colours=[], points=[],
                        problem="No chart: the %s game's rules failed on replaying it (%s)." % (engine.title, cause))
        if all(v is None for p in out["points"] for v in p["values"]):
            out["problem"] = "This game's view shows no %s to chart." % label
        # each line in its player's colour, as the table chose them (a team's line has none)
        colour = {p.get("name"): p.get("colour") for p in game.players if isinstance(p, dict)}
        out["colours"] = [colour.get(name) if isinstance(colour.get(name), str) else None for name in out["players"]]
        return out

    @staticmethod
    def _points(engine: Game, entries: list[tuple[int, JSON]], out: JSON) -> None:
        """``out``'s players and points: the game folded once, a point after each move in force."""
        done, _ = stacks(entries)
        in_force = set(done)
        state = engine.initial()
        moves = 0
        for version, entry in entries:
            # what the caption promises: only the moves in force; undone moves and the undos drop out
            if entry.get("type") in UNDO_KINDS or (entry.get("type") != "setup" and version not in in_force):
                continue
            for ev in entry.get("events", ()):
                state = engine.apply(state, ev)
            moves += entry.get("type") != "setup"
            rows = engine.result(state)["standings"]
            if not out["players"]:
                out["players"] = [r["name"] for r in rows]
            out["points"].append({"version": version, "move": moves, "said": entry.get("said", ""),
                                  "values": [r["score"] for r in rows]})

    def _moves(self, game_id: int) -> str:
        """"3 moves": the moves in force, as the panel and the chart count them (the version also
        counts the setup, the undone moves and the undos and redos)."""
        done, _ = stacks((e.version, e.entry) for e in self.store.entries(game_id))
        return "1 move" if len(done) == 1 else "%d moves" % len(done)

    def export_csv(self, game_id: object) -> tuple[str, str]:
        """A kept game's final table as CSV, one row per player: (file name, text)."""
        game = self._ended(game_id, "export it")
        kept = summary(game, self._load)
        date = datetime.fromisoformat(game.ended).astimezone().date().isoformat()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game", "title", "date", "status", "player", "score", "winner"])
        for row in _rows(dict(kept, winners=[])):
            writer.writerow([game.id, _csv_cell(kept["title"]), date, game.status, _csv_cell(row["name"]),
                             "" if row["score"] is None else row["score"], "yes" if row["winner"] else "no"])
        # the engine's name comes from the store: only its letters, digits and _ go into a header
        engine = re.sub(r"[^A-Za-z0-9_]", "", game.engine)[:64] or "game"
        return "newsdesk-game-%d-%s.csv" % (game.id, engine), out.getvalue()

    def bgstats(self, game_id: object) -> JSON:
        """One play as BG Stats' createPlay data (board, durationMin, comments, game, location,
        playDate, players: name, score, winner, rank, startPlayer, role, sourcePlayerId). The
        games' BoardGameGeek ids are left out (the format's bggId is "if any") rather than guessed."""
        game = self._ended(game_id, "export it")
        rec = self.record(game_id)
        started = datetime.fromisoformat(game.created).astimezone()
        ended = datetime.fromisoformat(game.ended).astimezone() if game.ended else started
        rows = _rows(rec)
        scored = [r["score"] for r in rows if isinstance(r.get("score"), int)]
        # the end card's places (tied players share one: 1, 1, 3); 0, BG Stats' "no rank", for
        # a player the game neither scored nor named a winner
        place = {r["name"]: r["place"] for r in rec["places"]}
        teams = {p.get("name"): p.get("team") for p in game.players if isinstance(p, dict)}
        players: list[JSON] = []
        for seat, row in enumerate(rows):
            rank = place[row["name"]] if isinstance(row.get("score"), int) or row["winner"] else 0
            players.append({"name": row["name"], "score": row["score"] if row["score"] is not None else "",
                            "winner": bool(row["winner"]), "rank": rank, "startPlayer": seat == 0,
                            "role": teams.get(row["name"]) or "", "sourcePlayerId": row["name"]})
        options = game.options or {}
        view = ((rec.get("final") or {}).get("view") or {})
        try:
            variant = base.variant_option(self._load(game.engine))
        except (registry.EngineUnavailable, ValueError, LookupError):
            variant = None
        chosen = options.get(variant[0]) if variant else None
        board = (view.get("variant_name") or (chosen if isinstance(chosen, str) else None)
                 or ", ".join(map(str, chosen if isinstance(chosen, list) else [])) or "")
        return {
            "sourceName": "newsdesk",
            "sourcePlayId": "newsdesk-%d-%s" % (game.id, game.created),
            "board": board,
            "durationMin": max(0, round((ended - started).total_seconds() / 60)),
            "comments": "Kept by newsdesk as game #%d (%s, %s)%s."
                        % (game.id, game.status, self._moves(game.id),
                           "" if game.status == "finished" else ", not finished"),
            "game": {"name": rec["title"], "highestWins": True, "noPoints": not scored,
                     "sourceGameId": game.engine},
            "location": "newsdesk",
            "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
            "players": players,
        }
