"""A game's final table: who played, what each ended with (money or points), and who won.

The engine says so itself: every engine's ``result(state)`` (games/base.py's Result) works out
from the game's state, by its rules, whether it is over, who won and each player's score.
Nothing here reads a game's view, so a view can change for the panel without changing what the
history, the exports, the league and Home Assistant keep.

The places (``places``) are worked out here and nowhere else: the end card shows them and the
BG Stats export sends them, so the two never disagree about who came where.

Which seats the box plays (an automated opponent) is the engine's to say: its result marks those
rows ``automated``, and they are kept so. ``marked`` reads the one kind of row that has no mark,
a game kept before results carried it, so that the statistics count no box as a person.
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
    of an abandoned game), a seat the box plays still marked ``automated``, and the score a row
    needed kept where the game gave it (``needed``)."""
    return [dict({"name": r["name"], "score": r["score"], "winner": r["winner"]},
                 **({"automated": True} if r.get("automated") is True else {}), **_needed(r))
            for r in result["standings"]]


def _needed(row: Mapping[str, Any]) -> dict[str, int]:
    """A row's ``needed`` (the score that would have won it the game), where its game gave one."""
    goal = row.get("needed")
    return {"needed": goal} if isinstance(goal, int) and not isinstance(goal, bool) else {}


def marked(standings: object, seated: Sequence[object]) -> object:
    """A kept final table's rows with every seat the box played marked ``automated``, whenever
    the game was kept. The engine's result marks them (base.result_of), and a final table kept
    since carries the mark as it is. One kept before has none: there a game that seated more
    than the players the table gave (``seated``, the start's names) seated the rest itself, and
    those rows, the ones the table never named, are the box's (The Lonely City's N. Ickel); a
    person is always one of the names the table gave. Anything but a list of rows (no final
    table) comes back as it is."""
    if not isinstance(standings, list) or any(isinstance(r, dict) and r.get("automated") for r in standings):
        return standings
    named = set(seated)
    if len(standings) <= len(named):
        return standings
    return [dict(r, automated=True) if isinstance(r, dict) and r.get("name") not in named else r for r in standings]


def sides(result: dict) -> dict[str, str]:
    """player -> their side's name, for a Result played by sides ({} otherwise)."""
    return {member: team["side"] for team in result.get("teams") or () for member in team["members"]}


def places(standings: Sequence[Mapping[str, Any]], teams: Mapping[str, object] | None = None,
           lower: bool = False) -> list[dict]:
    """The final table in its order, each row with its ``place`` and whether it is ``tied``.

    Standard competition ranking ("1, 1, 3"): the winners first, then the others by score, the
    highest first, and a row without a score after every scored one; a row's place is one more
    than the number of sides ahead of it, so rows that nobody can tell apart share a place and
    the next place is skipped. A side is a player, or in a game played by sides (``teams``:
    player -> side; SCAN's partners share their side's total) the partners, who share its place
    without being tied with each other: Team SCAN's losers are 2nd, not 3rd. Rows that share a
    place are ``tied`` when another side shares it. Rows come in the order given where they are
    level (seats). ``lower``: the game's lowest score is its best (its panel facts' lower_wins),
    so after the winners the lowest comes first."""
    teams = teams or {}

    def key(row: Mapping[str, Any]) -> tuple[bool, bool, int]:
        score = row.get("score")
        if isinstance(score, int) and not isinstance(score, bool):
            return bool(row.get("winner")), True, -score if lower else score
        return bool(row.get("winner")), False, 0

    keys = [key(r) for r in standings]
    side = [teams.get(str(r.get("name")), r.get("name")) for r in standings]
    out = []
    for i, row in enumerate(standings):
        ahead = len({side[j] for j, k in enumerate(keys) if k > keys[i]})
        tied = any(side[j] != side[i] for j, k in enumerate(keys) if k == keys[i])
        out.append(dict({"name": row.get("name"), "score": row.get("score"), "winner": bool(row.get("winner")),
                         "place": ahead + 1, "tied": tied}, **_needed(row)))
    order = sorted(range(len(out)), key=lambda i: (out[i]["place"], i))
    return [out[i] for i in order]
