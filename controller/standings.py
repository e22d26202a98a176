"""A game's final table: who played, what each ended with (money or points), and who won.

The engine says so itself: every engine's ``result(state)`` (games/base.py's Result) works out
from the game's state, by its rules, whether it is over, who won and each player's score.
Nothing here reads a game's view, so a view can change for the panel without changing what the
history, the exports, the league and Home Assistant keep.
"""


def final_table(engine, state):
    """{"winners": [names], "standings": [{"name", "score", "winner"}], "view": the final view}:
    what the games row keeps when a game ends, from the engine's result."""
    result = engine.result(state)
    return {"winners": list(result["winners"]), "standings": rows(result), "view": engine.view(state)}


def rows(result: dict) -> list[dict]:
    """A Result's standings as the games row keeps them (copies: a caller may strike the winners
    of an abandoned game)."""
    return [{"name": r["name"], "score": r["score"], "winner": r["winner"]} for r in result["standings"]]
