"""What Scoop! (2002)'s panel shows: the Locations and their marks, every Steno Pad and the
stories sold, whose turn it is and which part of it, N. Ickel's nickel; and the panel's facts
about the game."""

from typing import Any

from ..base import State
from .rules import (
    ICKEL_BOX,
    ICKEL_SALES_TO_WIN,
    LOCATION_COUNT,
    NAME,
    SALES_TO_WIN,
    SCORE_KIND,
    TITLE,
    ZERO_READINGS,
    ZERO_READS_AS,
    ZERO_TEN,
    player_name,
    waiting_for,
    where,
)

PANEL = {"score": SCORE_KIND, "chart": {"unit": "stories sold", "prefix": ""}, "listens": ["stopwatch"],
         "numbers": {"value": {"minimum": 0, "maximum": 9, "label": "The stopwatch's hundredths digit"}},
         "seats_by_variant": {"lonely_city": {"min": 1, "max": 1}}}


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    locs = state["locations"]
    players = []
    for i, pl in enumerate(state["players"]):
        players.append({
            "seat": i, "name": pl["name"], "colour": pl["colour"], "box": pl["box"],
            "place": pl["place"] if not pl["box"] else None,
            "where": where(state, pl["place"]) if not pl["box"] else "at a desk at the Action City Times",
            "steno": [{"location": n, "name": locs[n - 1], "marks": m}
                      for n, m in enumerate(pl["steno"], 1) if m],
            "sales": [{"location": n, "name": locs[n - 1]} for n in pl["sales"]],
            "sold": len(pl["sales"]),
            "to_win": ICKEL_SALES_TO_WIN if pl["box"] else SALES_TO_WIN,
            "beat": pl["beat"], "blocked": pl["blocked"],
            # the failed story is barred on the player's next turn: until it begins, "next turn"
            "blocked_when": ("this turn" if state["turn"] == i and not pl.get("blocked_fresh")
                             else "next turn") if pl["blocked"] else None})
    out = {
        "game": NAME, "title": TITLE, "started": True, "variants": state["variants"],
        "locations": [{"number": n, "name": locs[n - 1], "marks": state["marks"][n - 1],
                       "here": [pl["name"] for pl in state["players"] if pl["place"] == n and not pl["box"]],
                       "beat_of": [pl["name"] for pl in state["players"] if pl["beat"] == n]}
                      for n in range(1, LOCATION_COUNT + 1)],
        "players": players, "turn": state["turn"], "turn_name": player_name(state, state["turn"]),
        "phase": state["phase"], "waiting_for": waiting_for(state) if state["phase"] != "over" else None,
        "pitching": state["pitch"], "last_roll": state["last"], "street_chart": state["street_chart"],
        "winner": state["winner"],
        "winner_name": player_name(state, state["winner"]) if state["winner"] is not None else None,
        "location_names": ("as set for this board" if state.get("locations_given", True) else
                           "newsdesk's placeholder names (the rules don't print the board's); "
                           "set your board's names when starting a game"),
        "zero_reads_as": ZERO_READS_AS if state.get("zero", ZERO_TEN) == ZERO_TEN else 0,
        "zero": ZERO_READINGS[state.get("zero", ZERO_TEN)],
        "ickel_rolls": state.get("ickel_rolls", ICKEL_BOX), "resell": state.get("resell", True),
    }
    if state["ickel_at"] is not None:
        out["ickel"] = {"nickel_on": state["ickel_at"], "nickel_on_name": locs[state["ickel_at"] - 1],
                        "last_turn": state["last_ickel"]}
    return out
