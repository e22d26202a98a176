"""A game's final table: who played, what each ended with (money or points), and who won.

The engine says so itself: every engine's ``result(state)`` (games/base.py's Result) works out
from the game's state, by its rules, whether it is over, who won and each player's score.
Nothing here reads a game's view, so a view can change for the panel without changing what the
history, the exports, the league and Home Assistant keep.

The places (``places``) are worked out here and nowhere else: the end card shows them and the
BG Stats export sends them, so the two never disagree about who came where.
"""

from collections.abc import Mapping, Sequence
from typing import Any


def final_table(engine, state):
    """{"winners": [names], "standings": [{"name", "score", "winner"}], "teams": {name: side},
    "view": the final view}: what the games row keeps when a game ends, from the engine's result.
    ``teams`` names each player's side in a game played by sides (SCAN), so partners who share
    a side's total are not said to be tied with each other."""
    result = engine.result(state)
    return {"winners": list(result["winners"]), "standings": rows(result), "teams": sides(result),
            "view": engine.view(state)}


def rows(result: dict) -> list[dict]:
    """A Result's standings as the games row keeps them (copies: a caller may strike the winners
    of an abandoned game)."""
    return [{"name": r["name"], "score": r["score"], "winner": r["winner"]} for r in result["standings"]]


def sides(result: dict) -> dict[str, str]:
    """player -> their side's name, for a Result played by sides ({} otherwise)."""
    return {member: team["side"] for team in result.get("teams") or () for member in team["members"]}


def places(standings: Sequence[Mapping[str, Any]], teams: Mapping[str, object] | None = None) -> list[dict]:
    """The final table in its order, each row with its ``place`` and whether it is ``tied``.

    Standard competition ranking ("1, 1, 3"): the winners first, then the others by score, the
    highest first, and a row without a score after every scored one; a row's place is one more
    than the number of sides ahead of it, so rows that nobody can tell apart share a place and
    the next place is skipped. A side is a player, or in a game played by sides (``teams``:
    player -> side; SCAN's partners share their side's total) the partners, who share its place
    without being tied with each other: Team SCAN's losers are 2nd, not 3rd. Rows that share a
    place are ``tied`` when another side shares it. Rows come in the order given where they are
    level (seats)."""
    teams = teams or {}

    def key(row: Mapping[str, Any]) -> tuple[bool, bool, int]:
        score = row.get("score")
        if isinstance(score, int) and not isinstance(score, bool):
            return bool(row.get("winner")), True, score
        return bool(row.get("winner")), False, 0

    keys = [key(r) for r in standings]
    side = [teams.get(str(r.get("name")), r.get("name")) for r in standings]
    out = []
    for i, row in enumerate(standings):
        ahead = len({side[j] for j, k in enumerate(keys) if k > keys[i]})
        tied = any(side[j] != side[i] for j, k in enumerate(keys) if k == keys[i])
        out.append({"name": row.get("name"), "score": row.get("score"), "winner": bool(row.get("winner")),
                    "place": ahead + 1, "tied": tied})
    order = sorted(range(len(out)), key=lambda i: (out[i]["place"], i))
    return [out[i] for i in order]
