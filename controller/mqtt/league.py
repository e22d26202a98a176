"""A league: many tables followed at once, for the screen on a cafe's or a convention's wall.

Pure: each message a table sends (topic and payload) goes in, the league's picture comes out.
Per table: its name, whether it is online, the game being played and its standings, the last
event; and the count of events seen, repeats dropped (by event id) and ids skipped. Across
tables: a leaderboard of finished games by game and player (played, won, best score), and one
by player over all games. A player is the same person at two tables when the name matches,
ignoring case and spaces around it (a convention's badge names); a seat the box played (a row
marked "automated", the game's own word for it) is nobody's, and counts in neither.

Finished games come from two places: each table's retained results (its last 20 games, so a
league started late catches up) and each game's end on the events topic (so a long day's games
all count while the league runs). Each counts once, by table, game id and the moment it ended.

A table's event ids and game ids start again at 1 when it is reinstalled on a fresh data folder
under the same name, so everything it sends carries its ``install`` (the data folder's id): ids
are repeats or skips only within one install, a new install starts a new numbering, and the games
the table finished before stay counted. A table too old to send an install is one numbering.

A game is not known by its install, though. A store restored from a backup (a new SD card, or the
box put back to last week) gets a new install too: its event ids may already have been used for
other events since the backup, so the table sends its whole log again under the new one. Its
games then come again with their ids and the moments they ended, and count once; a reinstalled
table's new game #1 ended at another moment, and counts as the new game it is. A game sent
without the moment it ended (a table too old to send it) is known by its install instead.
"""

import json
from typing import Any

from .. import events

SUFFIXES = ("availability", "events", "state/game", "state/results")
# the last event in a passer-by's words, where its payload says nothing itself
WORDS: dict[object, str] = {events.GAME_STARTED: "A game began", events.GAME_FINISHED: "Game over", events.GAME_ABANDONED:
         "Game stopped", events.DICE_ROLL: "Dice rolled", events.STOPWATCH_ROLL: "Stopwatch stopped",
         events.VERDICT: "The editor spoke"}

JSON = dict[str, Any]   # a payload as json.loads read it


class TableView:
    __slots__ = ("base", "name", "online", "game", "results", "last_id", "seen", "repeats", "skipped", "last",
                 "install", "installs")

    def __init__(self, base: str) -> None:
        self.base = base
        self.name = base.rsplit("/", 1)[-1]
        self.online: bool | None = None
        self.game: JSON | None = None
        self.results: list[JSON] = []
        self.last_id: int | None = None
        self.seen = 0
        self.repeats = 0
        self.skipped = 0
        self.last: JSON | None = None
        self.install: str | None = None     # the install whose events came last
        self.installs: dict[str | None, int] = {}   # install -> the last event id taken from it

    def as_dict(self) -> JSON:
        return {"base": self.base, "name": self.name, "online": self.online, "game": self.game,
                "last_event": self.last, "events": {"seen": self.seen, "repeats": self.repeats,
                                                    "skipped": self.skipped, "last_id": self.last_id,
                                                    "installs": len(self.installs)}}


def split(topic: str) -> tuple[str, str] | tuple[None, None]:
    """(table's base topic, what) for a topic the league follows; (None, None) otherwise."""
    for suffix in SUFFIXES:
        if topic.endswith("/" + suffix) and len(topic) > len(suffix) + 1:
            return topic[:-len(suffix) - 1], suffix
    return None, None


def _install(data: JSON) -> str | None:
    value = data.get("install")
    return value if isinstance(value, str) and value else None


def _game_key(base: str, install: str | None, game_id: object, when: object) -> tuple[str, object, object]:
    """How the league knows a finished game: by its table, its id and the moment it ended, under
    any install; by its table, install and id when the moment isn't sent."""
    if isinstance(when, str) and when:
        return (base, game_id, when)
    return (base, install, game_id)


def _key(name: object) -> str:
    return " ".join(str(name).split()).casefold()


class League:
    def __init__(self) -> None:
        self.tables: dict[str, TableView] = {}
        self.ignored = 0          # messages that were not a table's (bad JSON, unknown topic)
        self.ended: dict[tuple[str, object, object], JSON] = {}    # _game_key -> {"title", "status", "standings", "table"}
        self._titles: dict[object, str] = {}       # engine -> title, as the tables' game states name them

    def take(self, topic: str, payload: bytes | str) -> bool:
        """Fold one message in; True if the picture changed."""
        base, what = split(topic)
        if base is None:
            self.ignored += 1
            return False
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)
        table = self.tables.get(base)
        if table is None:
            table = self.tables[base] = TableView(base)
        if what == "availability":
            table.online = text == "online"
            return True
        if not text:                   # a retained message cleared
            return False
        try:
            data = json.loads(text)
        except ValueError:
            self.ignored += 1
            return False
        if not isinstance(data, dict):
            self.ignored += 1
            return False
        if isinstance(data.get("table"), str) and data["table"].strip():
            table.name = data["table"].strip()
        if what == "events":
            return self._event(table, data)
        if what == "state/game":
            table.game = data.get("game") if isinstance(data.get("game"), dict) else None
            if table.game and isinstance(table.game.get("engine"), str) and table.game.get("title"):
                self._titles[table.game["engine"]] = str(table.game["title"])
            return True
        games = data.get("games")
        table.results = [g for g in games if isinstance(g, dict)] if isinstance(games, list) else []
        for game in table.results:
            self._ended(table, _install(data), game.get("id"), game.get("ended"), game.get("engine"),
                        game.get("title"), game.get("status"), game.get("standings"), game.get("lower_wins"))
        return True

    def _ended(self, table: TableView, install: str | None, game_id: object, when: object, engine: object,
               title: object, status: object, standings: object, lower: object = False) -> None:
        """A finished or abandoned game, from the retained results (``when``: the game's ``ended``)
        or from its end on the events topic (``when``: that event's ``at``, the same moment).
        ``lower``: the game's lower_wins as its table sent it (its lowest score is its best); a
        table too old to send it plays no such game."""
        if engine and title:
            self._titles[str(engine)] = str(title)
        key = _game_key(table.base, install, game_id, when)
        if not isinstance(game_id, int) or isinstance(game_id, bool) or key in self.ended:
            return
        self.ended[key] = {
            "title": str(title or self._titles.get(engine) or engine or "?"), "status": status,
            "standings": [r for r in standings if isinstance(r, dict)] if isinstance(standings, list) else [],
            "table": table, "lower_wins": lower is True}

    def _event(self, table: TableView, data: JSON) -> bool:
        event_id = data.get("id")
        if not isinstance(event_id, int) or isinstance(event_id, bool):
            self.ignored += 1
            return False
        install = _install(data)
        last = table.installs.get(install)
        if last is not None and event_id <= last:
            table.repeats += 1
            return False
        if last is not None and event_id > last + 1:
            table.skipped += event_id - last - 1
        table.installs[install] = event_id
        table.install, table.last_id = install, event_id
        table.seen += 1
        payload: JSON = data["data"] if isinstance(data.get("data"), dict) else {}
        said = payload.get("said") or payload.get("signal") or WORDS.get(data.get("type")) or ""
        table.last = {"id": event_id, "type": data.get("type"), "at": data.get("at"), "said": str(said)}
        if data.get("type") in (events.GAME_FINISHED, events.GAME_ABANDONED):
            self._ended(table, install, payload.get("game"), data.get("at"), payload.get("engine"), None,
                        payload.get("status"), payload.get("standings"), payload.get("lower_wins"))
        return True

    def leaderboard(self) -> JSON:
        """{"by_game": [...], "by_player": [...]} over every table's finished games, each game once.

        A player's ``best`` in a game is the best final score: the highest, or the lowest in a game
        whose lowest score wins (its ``lower_wins``, as its tables sent it), and ties in wins are
        ranked by it. Over all games (``by_player``) only the games won by the highest score
        give a best: a golf score and a points total can't be weighed against each other."""
        by_game: dict[Any, JSON] = {}      # (title, player's key) -> the player's line for that game
        by_player: dict[Any, JSON] = {}      # player's key -> the player's line over every game
        counted = 0
        for game in self.ended.values():
            if game["status"] != "finished":
                continue
            counted += 1
            table, title, lower = game["table"], game["title"], game["lower_wins"]
            for row in game["standings"]:
                # a seat the box played (an automated opponent: Scoop!'s N. Ickel) is no player
                if not isinstance(row, dict) or not isinstance(row.get("name"), str) or row.get("automated"):
                    continue
                score = row.get("score") if isinstance(row.get("score"), int) else None
                won = bool(row.get("winner"))
                for board, key in ((by_game, (title, _key(row["name"]))), (by_player, _key(row["name"]))):
                    entry = board.setdefault(key, {"player": " ".join(row["name"].split()), "played": 0,
                                                   "won": 0, "best": None, "tables": set()})
                    entry["played"] += 1
                    entry["won"] += won
                    entry["tables"].add(table.name)
                    down = lower and board is by_game
                    if score is None or (lower and board is by_player):
                        continue
                    if entry["best"] is None or (score < entry["best"] if down else score > entry["best"]):
                        entry["best"] = score
                by_game[(title, _key(row["name"]))].update(game=title, lower_wins=lower)

        def rows(board: dict[Any, JSON]) -> list[JSON]:
            return [dict(entry, tables=sorted(entry["tables"])) for entry in board.values()]

        def rank(e: JSON) -> tuple[Any, ...]:
            best = e["best"]
            if best is None:
                return (-e["won"], True, 0, e["player"])       # no score: after every scored one
            return (-e["won"], False, best if e.get("lower_wins") else -best, e["player"])

        games = sorted(rows(by_game), key=lambda e: (e["game"],) + rank(e))
        players = sorted(rows(by_player), key=rank)
        return {"by_game": games, "by_player": players, "games_counted": counted}

    def snapshot(self) -> JSON:
        tables = sorted(self.tables.values(), key=lambda t: t.name.casefold())
        return {"tables": [t.as_dict() for t in tables], "leaderboard": self.leaderboard()}
