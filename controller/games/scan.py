"""SCAN (Parker Brothers, 1988): the WE/THEY scoresheet of a trick-taking game with suit values.

The cards are played at the table; the panel takes each hand as the cards every side took per
suit, checks them against the deck, scores them by cancel-out and keeps the race to 155 (or, in
a time-limit game, the scores until the table says time is up: the engine reads no clock).

Sides: two teams (Team SCAN), three teams (Triple SCAN) or each player alone (SCAN Without
Partners); No Trump SCAN plays individually, in three teams with 6 players, or in two teams
when 4 players give teams. A side is named by its players' shared "team", else by its players.

    {"type": "hand", "taken": {side: {"spades": n, "hearts": n, "diamonds": n, "clubs": n}}}
        every side's cards from the hand just played (a missing suit is 0)
    {"type": "time_up"}   the table's countdown ran out (time-limit games only)

Events: setup, hand_scored, time_up, won.
"""

import copy

from .base import GameError

NAME = "scan"
TITLE = "SCAN (Parker Brothers, 1988)"
VARIANTS = {
    "team": "Team SCAN: 4 players, partners opposite; deal 7.",
    "triple": "Triple SCAN: 6 players in 3 teams; deal 5.",
    "individual": "SCAN Without Partners: 2-6 players each scored alone; deal 7 (5 for 5 or 6 players).",
    "no_trump": "No Trump SCAN: 2-6 players, no trump suit; deal 2; the hand ends when the stock runs out. "
                "6 players play in 3 teams.",
}

SUIT_VALUES = {"spades": 10, "hearts": 5, "diamonds": -5, "clubs": -10}
CARDS_PER_SUIT = 13
DECK = CARDS_PER_SUIT * len(SUIT_VALUES)
TARGET = 155
DEAL = {"team": 7, "triple": 5, "individual": 7, "no_trump": 2}
DEAL_FIVE_FROM = 5          # Without Partners: "For 5 and 6 players, deal 5 cards to each."
DEAL_LARGE_TABLE = 5
PLAYERS = {"team": (4, 4), "triple": (6, 6), "individual": (2, 6), "no_trump": (2, 6)}
TRUMP = {
    "team": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "triple": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "individual": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "no_trump": "no trump: the highest card of the suit led wins",
}


def deal_size(variant, n):
    if variant == "individual" and n >= DEAL_FIVE_FROM:
        return DEAL_LARGE_TABLE
    return DEAL[variant]


def cards_out_of_play(variant, n):
    """(fewest, most) cards a hand can leave untaken.

    A trick takes one card from each player, so the last draw leaves ``stock % n`` cards that
    can't go round: Without Partners and No Trump put them aside. Triple SCAN's text says nothing,
    but 6 x 5 dealt leaves 22 in the stock, so newsdesk applies the same rule there. No Trump's hand
    "ends when the stock pile has been exhausted": whether the cards still in hand are played out
    is not said, so newsdesk accepts both readings.
    """
    deal = deal_size(variant, n)
    aside = (DECK - n * deal) % n
    if variant == "no_trump":
        return aside, aside + n * deal
    return aside, aside


def score(taken):
    """Cancel-out: +10/-10 and +5/-5 cards cancel; what's left is the side's score."""
    return sum(SUIT_VALUES[s] * taken.get(s, 0) for s in SUIT_VALUES)


# ---------------------------------------------------------------- setup

def setup(players, options=None):
    options = dict(options or {})
    unknown = set(options) - {"variant", "time_limit", "dealer"}
    if unknown:
        raise GameError("SCAN has no option %s; its options are variant, time_limit and dealer"
                        % ", ".join(sorted(unknown)))
    variant = options.get("variant", "team")
    if variant not in VARIANTS:
        raise GameError("SCAN has no variant %r; choose from %s" % (variant, ", ".join(VARIANTS)))
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name for the scoresheet")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    low, high = PLAYERS[variant]
    n = len(players)
    if not low <= n <= high:
        want = str(low) if low == high else "%d to %d" % (low, high)
        raise GameError("%s is for %s players, not %d" % (VARIANTS[variant].split(":")[0], want, n))
    limit = options.get("time_limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
        raise GameError("time_limit is a whole number of minutes (or leave it out to race to %d)" % TARGET)
    dealer = options.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise GameError("dealer is the seat (0-%d) of the player who cut the highest card" % (n - 1))
    sides = _sides(variant, players)
    return [{"type": "setup", "variant": variant, "players": names, "sides": sides,
             "time_limit": limit, "dealer": dealer}]


def _sides(variant, players):
    n = len(players)
    teams = [None if p.get("team") in (None, "") else str(p["team"]) for p in players]
    given = [t for t in teams if t not in (None, "")]
    if variant == "individual" or (variant == "no_trump" and not given and n != 6):
        return [{"name": p["name"], "players": [p["name"]]} for p in players]
    if given and len(given) != n:
        raise GameError("give every player a team, or none (partners then sit opposite)")
    want = n // 2
    if variant == "no_trump" and n not in (4, 6):
        raise GameError("No Trump SCAN plays in teams only with 4 or 6 players; with %d, leave "
                        "the teams out" % n)
    if not given:
        pairs = [(i, i + want) for i in range(want)]
        return [{"name": "%s & %s" % (players[a]["name"], players[b]["name"]),
                 "players": [players[a]["name"], players[b]["name"]]} for a, b in pairs]
    order = []
    for t in teams:
        if t not in order:
            order.append(t)
    sides = [{"name": t, "players": [p["name"] for p, pt in zip(players, teams) if pt == t]} for t in order]
    if len(sides) != want or any(len(s["players"]) != 2 for s in sides):
        raise GameError("%d players make %d teams of 2; the teams given are %s" % (
            n, want, ", ".join("%s (%d)" % (s["name"], len(s["players"])) for s in sides)))
    return sides


def initial():
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state, action, rng):
    if not state.get("started"):
        raise GameError("set up a game of SCAN first")
    if state["winners"]:
        raise GameError("the game is over: %s won" % " and ".join(state["winners"]))
    if not isinstance(action, dict):
        raise GameError("an action is a dict with a \"type\"")
    kind = action.get("type")
    if kind == "hand":
        return _hand(state, action)
    if kind == "time_up":
        if state["time_limit"] is None:
            raise GameError("this game races to %d; there is no time limit to run out" % TARGET)
        return [{"type": "time_up"}, {"type": "won", "sides": _leaders(state["totals"]), "reason": "time"}]
    raise GameError("SCAN has no action %r; try \"hand\" or \"time_up\"" % (kind,))


def _hand(state, action):
    number = len(state["sheet"]) + 1
    taken = action.get("taken")
    sides = [s["name"] for s in state["sides"]]
    if not isinstance(taken, dict):
        raise GameError("hand %d: give \"taken\", each side's cards per suit" % number)
    strange = [k for k in taken if k not in sides]
    if strange:
        raise GameError("hand %d: %s is not a side in this game; the sides are %s"
                        % (number, ", ".join(map(str, strange)), ", ".join(sides)))
    clean = {}
    for side in sides:
        counts = taken.get(side)
        if counts is None:
            raise GameError("hand %d: %s's cards are missing; enter 0s if they took none" % (number, side))
        if not isinstance(counts, dict) or set(counts) - set(SUIT_VALUES):
            raise GameError("hand %d: %s's cards are counted per suit: %s"
                            % (number, side, ", ".join(SUIT_VALUES)))
        row = {}
        for suit in SUIT_VALUES:
            c = counts.get(suit, 0)
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= CARDS_PER_SUIT:
                raise GameError("hand %d: %s's %s must be a count 0-%d, not %r"
                                % (number, side, suit, CARDS_PER_SUIT, c))
            row[suit] = c
        clean[side] = row
    for suit in SUIT_VALUES:
        total = sum(clean[s][suit] for s in sides)
        if total > CARDS_PER_SUIT:
            raise GameError("hand %d: the %s add up to %d, but the deck has %d; check the counts"
                            % (number, suit, total, CARDS_PER_SUIT))
    n = len(state["players"])
    fewest, most = cards_out_of_play(state["variant"], n)
    total = sum(sum(r.values()) for r in clean.values())
    if not DECK - most <= total <= DECK - fewest:
        expect = str(DECK - fewest) if fewest == most else "%d to %d" % (DECK - most, DECK - fewest)
        raise GameError("hand %d: %d cards entered, but this game takes %s of the %d; check the counts"
                        % (number, total, expect, DECK))
    if total % n:
        raise GameError("hand %d: %d cards entered, but every trick takes one card from each of the "
                        "%d players, so the count is a multiple of %d" % (number, total, n, n))
    values = {s: score(clean[s]) for s in sides}
    points = {s: max(0, v) for s, v in values.items()}
    events = [{"type": "hand_scored", "hand": number, "dealer": state["dealer"], "taken": clean,
               "values": values, "points": points}]
    if state["time_limit"] is None:
        totals = {s: state["totals"][s] + points[s] for s in sides}
        if max(totals.values()) >= TARGET:
            events.append({"type": "won", "sides": _leaders(totals), "reason": "target"})
    return events


def _leaders(totals):
    """The side(s) with the highest total; when two cross 155 in the same hand, the higher wins
    (newsdesk's ruling: the rules don't say), and equal totals share the win."""
    best = max(totals.values())
    return [s for s, t in totals.items() if t == best]


# ---------------------------------------------------------------- apply

def apply(state, event):
    kind = event.get("type")
    if kind == "setup":
        return {"started": True, "variant": event["variant"], "players": list(event["players"]),
                "sides": copy.deepcopy(event["sides"]), "time_limit": event["time_limit"],
                "dealer": event["dealer"], "sheet": [], "winners": [], "time_up": False,
                "totals": {s["name"]: 0 for s in event["sides"]}}
    if not state.get("started"):
        return state
    s = copy.deepcopy(state)
    if kind == "hand_scored":
        for side, pts in event["points"].items():
            s["totals"][side] = s["totals"].get(side, 0) + pts
        s["sheet"].append({"hand": event["hand"], "dealer": event["dealer"], "taken": event["taken"],
                           "values": event["values"], "points": event["points"], "totals": dict(s["totals"])})
        s["dealer"] = (event["dealer"] + 1) % len(s["players"])   # "The deal passes to the left"
    elif kind == "time_up":
        s["time_up"] = True
    elif kind == "won":
        s["winners"] = list(event["sides"])
        s["win_reason"] = event["reason"]
    return s


# ---------------------------------------------------------------- offers / view

def offers(state):
    if not state.get("started") or state["winners"]:
        return []
    out = [{"type": "hand", "sides": [s["name"] for s in state["sides"]], "suits": list(SUIT_VALUES)}]
    if state["time_limit"] is not None:
        out.append({"type": "time_up"})
    return out


def view(state):
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    sides = state["sides"]
    labels = ["WE", "THEY"] if len(sides) == 2 else [s["name"] for s in sides]
    n = len(state["players"])
    fewest, most = cards_out_of_play(state["variant"], n)
    return {
        "game": NAME, "title": TITLE, "started": True, "variant": state["variant"],
        "variant_name": VARIANTS[state["variant"]].split(":")[0],
        "columns": [{"label": lab, "side": s["name"], "players": s["players"]} for lab, s in zip(labels, sides)],
        "rows": [{"hand": r["hand"], "dealer": state["players"][r["dealer"]],
                  "points": [r["points"][s["name"]] for s in sides],
                  "values": [r["values"][s["name"]] for s in sides],
                  "totals": [r["totals"][s["name"]] for s in sides]} for r in state["sheet"]],
        "race": [{"side": s["name"], "total": state["totals"][s["name"]],
                  "to_go": max(0, TARGET - state["totals"][s["name"]]) if state["time_limit"] is None else None}
                 for s in sides],
        "target": TARGET if state["time_limit"] is None else None,
        "time_limit_minutes": state["time_limit"], "time_up": state["time_up"],
        "dealer": state["players"][state["dealer"]],
        "deal": deal_size(state["variant"], n), "trump": TRUMP[state["variant"]],
        "cards_per_hand": DECK - fewest if fewest == most else [DECK - most, DECK - fewest],
        "suit_values": dict(SUIT_VALUES),
        "winners": state["winners"], "over": bool(state["winners"]),
    }
