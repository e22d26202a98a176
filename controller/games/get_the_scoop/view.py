"""What Get the Scoop!'s panel shows and offers: the round, the phase, the cards turned up,
the police step and, when the box keeps it, the board; the one-tap buttons of each phase; and
the panel's facts about the game."""

from typing import Any

from ..base import Action, State
from . import board as grid
from .rules import (
    ACTIONS_PER_TURN,
    DEFAULT_POLICE_TABLE,
    DISCARDS_PER_TURN,
    HAND_LIMIT,
    NAME,
    PLAYERS,
    PUSHING,
    SCORE_KIND,
    SIDE_NAMES,
    SUITS,
    TITLE,
    board_tracked,
    can_draw,
    clean_police_table,
    discarded,
    journalist_moves,
    waiting_for,
)
from .words import player_name

PANEL = {"score": SCORE_KIND, "chart": None,
         "no_chart": "This game keeps no score: the winner is whoever's camera van holds a Protester."}


def offers(state: State) -> list[Action]:
    if not state.get("started") or state["winners"]:
        return []
    phase = state["phase"]
    if phase == "protesters":
        return [{"type": "reveal", "plays": []}]
    if phase == "check":
        return [{"type": "check", "winners": []}] + [{"type": "check", "winners": [p]} for p in range(PLAYERS)]
    if phase == "journalists":
        p = state["journalist"]
        out = []
        if board_tracked(state):
            legal = journalist_moves(state, p)
            if legal:
                (frm, to), first = next(iter(legal.items()))
                out.append({"type": "move", "player": p, "from": frm, "to": to,
                            "choices": [{"from": f, "to": t, "how": m["how"], "piece": m["piece"]}
                                        for (f, t), m in legal.items()]})
            hand = state["hands"][p]
            if can_draw(state, p):
                out.append({"type": "draw", "player": p, "discard": 1 if hand >= HAND_LIMIT else 0})
        return out + [{"type": "end_turn", "player": p}]
    return [{"type": "police", "player": state["first"]}]


# Whose the round's police step is. The rules print the first round's, say the next round's goes
# "diagonally, clockwise", and stop: the rest of newsdesk's default table is its own reading, and
# the panel says so rather than show it as the game's.
POLICE_BY = {
    "rules": ("", "The rules' own step: \u201c1 & 2 move 1 square Right, 5 & 6 ... Left, 3 & 4 ... Down, "
                  "7 & 8 ... Up\u201d."),
    "reading": ("newsdesk's reading", "The rules say only \u201con the next round they move diagonally, "
                                      "clockwise\u201d: which diagonal each officer takes is newsdesk's reading."),
    "newsdesk": ("newsdesk's reading", "The rules' police table stops after the second round: newsdesk's default "
                                       "goes on clockwise around the Protesters' squares, back to the start after "
                                       "16 rounds (its own reading, not the game's)."),
    "table": ("this game's table", "The police table given when this game was set up."),
}


# The rules label the board's four sides with the suits but don't say which is where: newsdesk's
# default puts them on in the order the rules list them, from the top clockwise.
SIDES_SAID = ("Which suit labels which side is newsdesk's choice (the rules only say each side is labeled "
              "with a suit): hearts top, diamonds right, clubs bottom, spades left. Label your board's "
              "sides the same way, so that a card moves a Protester the same way on both boards.")

NEWSDESK_POLICE_TABLE = clean_police_table(DEFAULT_POLICE_TABLE)     # as a game keeps it


def police_source(state: State, step: int) -> dict[str, str]:
    """Whose the police step of the round is (the rules', newsdesk's reading of them, newsdesk's
    own, or the table given at setup), as the view's "source", a few words ("by") and a sentence."""
    if state["police_table"] != NEWSDESK_POLICE_TABLE:
        source = "table"
    else:
        source = "rules" if step == 0 else "reading" if step == 1 else "newsdesk"
    by, said = POLICE_BY[source]
    return {"source": source, "by": by, "said": said}


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    step = (state["round"] - 1) % len(state["police_table"])
    first = state["first"]
    tracked = board_tracked(state)
    out = {
        "game": NAME, "title": TITLE, "started": True, "round": state["round"], "phase": state["phase"],
        "waiting_for": waiting_for(state) if not state["winners"] else None,
        "players": [{"seat": i, "name": p["name"], "colour": p["colour"], "badge": i == first,
                     "done": i in state["done"], "hand": state["hands"][i] if tracked else None}
                    for i, p in enumerate(state["players"])],
        "first_player": first, "first_player_name": player_name(state, first),
        "journalists_order": [(first + k) % PLAYERS for k in range(PLAYERS)],
        "journalist": state["journalist"], "actions_per_turn": ACTIONS_PER_TURN, "hand_limit": HAND_LIMIT,
        "actions_left": state["actions_left"] if state["phase"] == "journalists" else None,
        "discards_left": (DISCARDS_PER_TURN - discarded(state)) if state["phase"] == "journalists" else None,
        "turn_log": state["turn_log"],
        "last_reveal": state["last_reveal"],
        "police_this_round": dict(police_source(state, step), step=step + 1, moves=state["police_table"][step]),
        "last_police": state["last_police"],
        "distance_chart": {"A-3": 1, "4-6": 2, "7-9": 3, "push": list(PUSHING)},
        "rules": state["rules"],
        "sides": dict(zip(SIDE_NAMES, state["rules"]["sides"])),
        "sides_said": SIDES_SAID if list(state["rules"]["sides"]) == list(SUITS) else None,
        "winners": state["winners"], "winner_names": [player_name(state, w) for w in state["winners"]],
        "board": None,
    }
    if tracked:
        at = grid.occupant(state["board"])
        vans = {grid.name(rc): seat for seat in range(PLAYERS) for rc in grid.van(seat)}
        out["board"] = {"size": grid.SIZE, "columns": grid.COLUMNS,
                        "pieces": dict(state["board"]), "vans": vans,
                        "rows": [[at.get((r, c)) for c in range(grid.SIZE)] for r in range(grid.SIZE)]}
    return out
