"""Race to Three: the smallest whole game newsdesk can keep, written as a plug-in would be.

Players score points on the table (a goal, a trick, a coin called right: the table decides) and
tap who scored; the first to reach the target wins. It has one option (the target), says who
won through ``result``, and ships its own screen (screen.js beside this file). It is a test
fixture for the contract between a game and newsdesk, not a product game.
"""

import random
from typing import Any

from controller.games.kit import (
    Action,
    Event,
    Game,
    Result,
    State,
    check_declared,
    check_players,
    guard,
    option,
    player_name,
    result_of,
    seat,
)

NAME = "race_to_three"
TITLE = "Race to Three"
OPTIONS = (option("target", "integer", 3, "The first to reach the target wins.", "Points to win",
                  minimum=1, maximum=9),)
PANEL = {"score": "points", "chart": {"unit": "points", "prefix": ""}}


def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    names = check_players(TITLE, players, 2, 6)
    options = check_declared(TITLE, OPTIONS, options, len(names))
    return [{"type": "setup", "players": names, "target": options["target"]}]


def initial() -> State:
    return {"started": False, "players": [], "target": 3}


def apply(state: State, event: Event) -> State:
    if event["type"] == "setup":
        return {"started": True, "target": event["target"],
                "players": [{"name": n, "points": 0} for n in event["players"]]}
    players = [dict(p) for p in state["players"]]
    players[event["player"]]["points"] += 1
    return dict(state, players=players)


def result(state: State) -> Result:
    players = state["players"]
    over = any(p["points"] >= state["target"] for p in players)
    return result_of(over, [(p["name"], p["points"], p["points"] >= state["target"]) for p in players], PANEL)


def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    guard(state, action, title=TITLE, actions=("point",), result=result)
    return [{"type": "point", "player": seat(state, action.get("player"))}]


def offers(state: State) -> list[Action]:
    if not state["started"] or result(state)["over"]:
        return []
    return [{"type": "point", "player": i} for i in range(len(state["players"]))]


def view(state: State) -> dict[str, Any]:
    return {"game": NAME, "target": state["target"], "players": state["players"],
            "waiting_for": "" if result(state)["over"] else "tap who scored"}


def describe(state: State, action: Action, events: list[Event]) -> str:
    return "a point to %s" % player_name(state, events[0]["player"])


GAME = Game(name=NAME, title=TITLE, setup=setup, initial=initial, decide=decide, apply=apply, offers=offers,
            view=view, result=result, options=OPTIONS, panel=PANEL, describe=describe)
