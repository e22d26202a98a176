"""Random legal play of every game, as a table might tap it: one of the offers the panel shows,
with what a card prints (a value, points, an airport) filled in from the offer's choices or a
few likely numbers; SCAN's hands played from a shuffled deck in whole tricks (and Time up, when
timed). A move the rules refuse is skipped, as the panel would show the refusal and the table tap
again."""

import random

from controller.games import get_the_scoop, scan, scoop1956, scoop2002, star_reporter
from controller.games.base import GameError

# what a printed card says, by the field an offer asks for ("enter")
PRINTED = {"value": (100, 200, 300, 500, 1000, 1500), "points": (5, 10, 20, 50, 100), "news_points": (5, 10, 20), "disaster_points": (10, 25),
           "airport": ("Baytown",), "at": ("Baytown",)}
SUITS = tuple(scan.rules.SUIT_VALUES)

# (engine, names, options) a walk may start from
TABLES = [
    (scoop1956.GAME, ["Ann", "Bob"], {}), (scoop1956.GAME, ["Ann", "Bob", "Cy"], {}),
    (scoop2002.GAME, ["Ann", "Bob"], {}), (scoop2002.GAME, ["Ann", "Bob", "Cy"], {}),
    (star_reporter.GAME, ["Ann", "Bob"], {"disasters": 1}), (star_reporter.GAME, ["Ann", "Bob", "Cy"], {}),
    (scan.GAME, ["Ann", "Bob", "Cy", "Dee"], {"variant": "team"}), (scan.GAME, ["Ann", "Bob", "Cy"], {"variant": "individual"}),
    (scan.GAME, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], {"variant": "triple"}),
    (scan.GAME, ["Ann", "Bob"], {"variant": "individual", "time_limit": 30}),
    (get_the_scoop.GAME, ["Ann", "Bob", "Cy", "Dee"], {"board": "table"}),
    (get_the_scoop.GAME, ["Ann", "Bob", "Cy", "Dee"], {}),
]


def start(engine, names, options):
    state = engine.initial()
    for ev in engine.setup([{"name": n} for n in names], dict(options)):
        state = engine.apply(state, ev)
    return state


def _scan_hand(rng, state):
    """A hand as the table plays it: tricks of one card from each player, each won whole by one
    side, and the cards that don't go round (when a deal plays them) as one short last trick."""
    n = len(state["players"])
    deck = [suit for suit in SUITS for _ in range(scan.rules.CARDS_PER_SUIT)]
    rng.shuffle(deck)
    sides = [s["name"] for s in state["sides"]]
    taken = {s: dict.fromkeys(SUITS, 0) for s in sides}
    played = deck[:rng.choice(scan.rules.hand_sizes(state["variant"], n, state.get("put_aside", False),
                                                     state.get("no_trump_last", "either")))]
    for first in range(0, len(played), n):
        winner = taken[rng.choice(sides)]
        for suit in played[first:first + n]:
            winner[suit] += 1
    return {"type": "hand", "taken": taken}


def action_for(engine, state, offer, rng):
    """A filled-in action for ``offer`` (an entry of engine.offers(state))."""
    if engine is scan.GAME and offer["type"] == "hand":
        return _scan_hand(rng, state)
    action = {k: v for k, v in offer.items() if k not in ("enter", "needs", "choices", "labels")}
    choices = offer.get("choices")
    if isinstance(choices, list) and choices:                 # Get the Scoop!'s moves
        action.update({k: v for k, v in rng.choice(choices).items() if k in ("from", "to")})
    for field in offer.get("enter", ()):
        options = (choices or {}).get(field) if isinstance(choices, dict) else None
        action[field] = rng.choice(list(options or PRINTED[field]))
    return action


def walk(engine, state, rng, steps):
    """Yield each state of up to ``steps`` legal moves from ``state`` (the first yielded is
    ``state`` itself); stops early when the panel offers nothing."""
    yield state
    for _ in range(steps):
        offers = engine.offers(state)
        if not offers:
            return
        if engine is scan.GAME and state.get("time_limit") and rng.random() < 0.1:
            offer = {"type": "time_up"}
        else:
            offer = rng.choice(offers)
        action = action_for(engine, state, offer, rng)
        try:
            events = engine.decide(state, action, random.Random(rng.randrange(2**32)))
        except GameError:
            continue
        for ev in events:
            state = engine.apply(state, ev)
        yield state
