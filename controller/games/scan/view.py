"""What the panel shows of a game of SCAN: the WE/THEY scoresheet and the race to 155 (or the
countdown), the buttons it offers now, and its facts about the game."""

from typing import Any

from ..base import Action, State, or_list
from .rules import (
    CARDS_PER_SUIT,
    DECK,
    NAME,
    NO_TRUMP_TEAM_SEATS,
    NO_TRUMP_TEAMS_OPTIONAL,
    SCORE,
    SUIT_VALUES,
    TARGET,
    TEAM_VARIANTS,
    TITLE,
    TRUMP,
    VARIANTS,
    cards_out_of_play,
    deal_size,
    hand_sizes,
    headings,
    side_word,
    timed,
)

PANEL = {"score": SCORE, "chart": {"unit": "points", "prefix": ""}, "teams": True,
         "team_variants": TEAM_VARIANTS, "team_seats": {"no_trump": list(NO_TRUMP_TEAM_SEATS)},
         "teams_optional": {"no_trump": list(NO_TRUMP_TEAMS_OPTIONAL)},
         "numbers": {"cards": {"minimum": 0, "maximum": CARDS_PER_SUIT, "label": "Cards of a suit"}}}


def offers(state: State) -> list[Action]:
    if not state.get("started") or state["winners"]:
        return []
    out: list[Action] = [{"type": "hand", "sides": [s["name"] for s in state["sides"]], "suits": list(SUIT_VALUES)}]
    if timed(state):
        out.append({"type": "time_up"})
    return out


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    sides = state["sides"]
    labels = headings(sides)
    n = len(state["players"])
    fewest, most = cards_out_of_play(state["variant"], n, state.get("put_aside", False),
                                    state.get("no_trump_last", "either"))
    sizes = hand_sizes(state["variant"], n, state.get("put_aside", False), state.get("no_trump_last", "either"))
    is_timed = timed(state)
    countdown = None
    if is_timed:
        countdown = {
            "minutes": state["time_limit"], "ends_at": state.get("ends_at"), "time_up": state["time_up"],
            # ended by the table before the countdown's end: time did not run out
            "early": bool(state.get("ended_early", False)),
            "said": ("The game was ended before its time ran out." if state.get("ended_early")
                     else "Time is up." if state["time_up"] else None),
            "clock": "newsdesk keeps no clock for this game: the panel counts down%s, and when time "
                     "runs out the table taps Time up; the highest score entered by then wins, and "
                     "sides tied on it share the win" % (
                         " to %s" % state["ends_at"] if state.get("ends_at") else
                         " %d minutes from the start" % state["time_limit"])}
    return {
        "game": NAME, "title": TITLE, "started": True, "variant": state["variant"],
        "variant_name": VARIANTS[state["variant"]].split(":")[0],
        # what the hand form calls a side: a player where each plays alone (Without Partners, No
        # Trump played individually: "cards each side took" read as teams), else a side (a team)
        "side_word": side_word(sides),
        "columns": [{"label": lab, "side": s["name"], "players": s["players"]} for lab, s in zip(labels, sides)],
        "rows": [{"hand": r["hand"], "dealer": state["players"][r["dealer"]],
                  "points": [r["points"][s["name"]] for s in sides],
                  "values": [r["values"][s["name"]] for s in sides],
                  "totals": [r["totals"][s["name"]] for s in sides]} for r in state["sheet"]],
        "race": [{"side": s["name"], "total": state["totals"][s["name"]],
                  "to_go": max(0, TARGET - state["totals"][s["name"]]) if not is_timed else None}
                 for s in sides],
        "target": TARGET if not is_timed else None,
        "target_tie": state.get("target_tie", "highest") if not is_timed else None,
        "countdown": countdown, "ends_at": state.get("ends_at"),
        "time_limit_minutes": state["time_limit"], "time_up": state["time_up"],
        "dealer": state["players"][state["dealer"]],
        "deal": deal_size(state["variant"], n), "trump": TRUMP[state["variant"]],
        "cards_per_hand": DECK - fewest if fewest == most else [DECK - most, DECK - fewest],
        "cards_per_hand_choices": sizes,
        # the hand form's "this game takes 45, 48 or 51", as the refusal says it ("45 or 48 or 51" read as a riddle)
        "cards_per_hand_said": or_list(map(str, sizes)),
        "cards_aside": fewest,
        "whole_tricks": state.get("whole_tricks", True),
        "plus_scores": state.get("plus_scores", "each"),      # the hand form's preview scores as the hand will
        "suit_values": dict(SUIT_VALUES),
        "winners": state["winners"], "over": bool(state["winners"]),
    }
