"""Get the Scoop! (Cardboard Jam demo, 2011): four news producers talk, push and shove protest
leaders into their camera vans.

The 12x12 grid and its pieces stay on the table. The panel keeps the round and its phase, the
First Player badge, the cards revealed in the Protesters' turn with the distance and push each
gives, the fair random order when several players direct the same Protester (drawn here, with
the rng, and recorded in the event so a replay is identical), the police's moves for the round,
and the winners.

Players are named by seat (0-3, clockwise, in the order given to setup).

    {"type": "reveal", "plays": [{"player": p, "protester": 1-4, "rank": "A"|2-9,
                                  "suit": "hearts"|"diamonds"|"clubs"|"spades"}, ...],
                       "order": {"2": [p, q]}}      Protesters' turn: the cards turned up
                                                    (a player who abstained is left out);
                                                    "order" (optional) is an order the players
                                                    agreed for a Protester, else one is drawn
    {"type": "check", "winners": [p, ...]}          after the Protesters moved: whose camera
                                                    van holds a Protester ([] = nobody's)
    {"type": "end_turn", "player": p}               a Journalists' turn (3 actions) is over
    {"type": "police", "player": badge}             the First Player moved the police; the
                                                    round ends and the badge passes clockwise

Events: setup, revealed, checked, journalist_done, police_moved, round_ended.

Options: "first" (the seat of whoever last watched the news: the First Player badge) and
"police_table" (the police's moves, one step per round).

Where the demo's rules are silent or incomplete, these are newsdesk's choices, not the
original's:
  * the police table: the rules give the first round's moves and say the next round's are
    diagonal, clockwise, but the table after that is missing. newsdesk's default alternates the
    given step with one where each officer turns its corner clockwise; set "police_table" to
    your own;
  * players who don't choose a colour get the free ones in the order red, blue, green, white;
  * when several players direct the same Protester and don't agree an order, the box shuffles
    them (every order equally likely), as shuffling their cards face down would;
  * the camera vans are checked once a round, after the Protesters move ("Check to see if
    anyone won!"), by the table, which says whose corner holds a Protester.
"""

import copy

from .base import GameError

NAME = "get_the_scoop"
TITLE = "Get the Scoop! (Cardboard Jam, 2011)"
VARIANTS = {}

COLOURS = ("red", "blue", "green", "white")
PLAYERS = len(COLOURS)
PROTESTERS = (1, 2, 3, 4)
OFFICERS = tuple(range(1, 9))
SUITS = ("hearts", "diamonds", "clubs", "spades")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9")
DISTANCE = {"A": 1, "2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 3, "8": 3, "9": 3}
PUSHING = ("3", "6", "9")        # "If the card value is 3, 6, or 9, Protesters will push ..."
ACTIONS_PER_TURN = 3
HAND_LIMIT = 3
DIRECTIONS = ("up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right")

# The police movement tables, one step per police turn, cycling. The first step is the rules'
# ("1 & 2 move 1 square Right, 5 & 6 ... Left, 3 & 4 ... Down, 7 & 8 ... Up"). The rules then
# say the next round "they move diagonally, clockwise" and the table is missing: the second
# step is newsdesk's default (each officer turns the corner clockwise), and alternating the two
# is newsdesk's guess too. Set "police_table" to your own.
DEFAULT_POLICE_TABLE = (
    {1: "right", 2: "right", 3: "down", 4: "down", 5: "left", 6: "left", 7: "up", 8: "up"},
    {1: "down-right", 2: "down-right", 3: "down-left", 4: "down-left",
     5: "up-left", 6: "up-left", 7: "up-right", 8: "up-right"},
)


def card(rank, suit):
    """A revealed card as the panel shows it: how far the Protester goes, which way, and whether
    it pushes (A-3: 1, 4-6: 2, 7-9: 3; pushing on 3, 6, 9)."""
    return {"rank": rank, "suit": suit, "distance": DISTANCE[rank], "push": rank in PUSHING,
            "toward": "the %s side" % suit}


# ---------------------------------------------------------------- setup

def setup(players, options=None):
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("Get the Scoop!'s options are a dict: first, police_table")
    if not isinstance(players, (list, tuple)):
        raise GameError("players is a list of the %d players, each {\"name\": ..., \"colour\": ...}" % PLAYERS)
    unknown = set(map(str, options)) - {"first", "police_table"}
    if unknown:
        raise GameError("Get the Scoop! has no option %s; its options are first and police_table"
                        % ", ".join(sorted(unknown)))
    if len(players) != PLAYERS:
        raise GameError("Get the Scoop! is for %d players, one per corner, not %d" % (PLAYERS, len(players)))
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    wanted = [p.get("colour").lower() if isinstance(p.get("colour"), str) and p.get("colour") else None
              for p in players]
    for name, p, c in zip(names, players, wanted):
        if c is None and p.get("colour"):
            c = p.get("colour")
        if c is not None and c not in COLOURS:
            raise GameError("%s's colour %r has no Journalists; the colours are %s" % (name, c, ", ".join(COLOURS)))
    chosen = [c for c in wanted if c]
    if len(set(chosen)) != len(chosen):
        raise GameError("two players chose the same colour; each corner has its own colour")
    free = [c for c in COLOURS if c not in chosen]
    colours = [c if c else free.pop(0) for c in wanted]
    first = options.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < PLAYERS:
        raise GameError("first is the seat (0-3) of whoever last watched the news")
    table = _police_table(options.get("police_table", DEFAULT_POLICE_TABLE))
    return [{"type": "setup", "players": [{"name": n, "colour": c} for n, c in zip(names, colours)],
             "first": first, "police_table": table}]


def _police_table(table):
    msg = ("police_table is a list of steps, one per police turn, each mapping officers 1-8 to "
           "a direction (%s)" % ", ".join(DIRECTIONS))
    if not isinstance(table, (list, tuple)) or not table:
        raise GameError(msg)
    steps = []
    for step in table:
        if not isinstance(step, dict):
            raise GameError(msg)
        moves = {}
        for officer, way in step.items():
            k = _whole(officer)
            if k not in OFFICERS or not isinstance(way, str) or way not in DIRECTIONS:
                raise GameError(msg)
            if str(k) in moves:
                raise GameError("police_table names officer %d twice in one step" % k)
            moves[str(k)] = way
        if len(moves) != len(OFFICERS):
            raise GameError("every step of police_table moves all %d officers" % len(OFFICERS))
        steps.append(moves)
    return steps


def initial():
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state, action, rng):
    if not state.get("started"):
        raise GameError("set up a game of Get the Scoop! first")
    if state["winners"]:
        raise GameError("the game is over: %s won" % " and ".join(_name(state, w) for w in state["winners"]))
    if not isinstance(action, dict):
        raise GameError("an action is a dict with a \"type\"")
    kind = action.get("type")
    handler = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise GameError("Get the Scoop! has no action %r; try one of: %s" % (kind, ", ".join(_ACTIONS)))
    if state["phase"] != _PHASE_OF[kind]:
        raise GameError("that's not for now: %s" % _waiting_for(state))
    return handler(state, action, rng)


def _reveal(state, action, rng):
    plays = action.get("plays", [])
    if not isinstance(plays, list):
        raise GameError("\"plays\" lists the cards turned up, one per player who directed a Protester")
    seen_players, seen_cards, clean = set(), set(), []
    for play in plays:
        if not isinstance(play, dict):
            raise GameError("each play is {player, protester, rank, suit}")
        p = _seat(play.get("player"))
        who = _name(state, p)
        if p in seen_players:
            raise GameError("%s played two cards; each player directs at most one Protester" % who)
        seen_players.add(p)
        protester = _whole(play.get("protester"))
        if protester not in PROTESTERS:
            raise GameError("%s: the d4 shows a Protester 1-4, not %r" % (who, play.get("protester")))
        rank, suit = _rank(play.get("rank")), _suit(play.get("suit"))
        if rank is None or suit is None:
            raise GameError("%s: a card is a rank A-9 and a suit (%s), not %r of %r"
                            % (who, ", ".join(SUITS), play.get("rank"), play.get("suit")))
        if (rank, suit) in seen_cards:
            raise GameError("%s: the %s of %s was already played this turn; the deck has one"
                            % (who, rank, suit))
        seen_cards.add((rank, suit))
        clean.append(dict(card(rank, suit), player=p, protester=protester))
    agreed = action.get("order") or {}
    if not isinstance(agreed, dict):
        raise GameError("\"order\" maps a Protester to the seats in the order the players agreed")
    agreed = {str(k): v for k, v in agreed.items()}
    strange = sorted(k for k in agreed if k not in {str(n) for n in PROTESTERS})
    if strange:
        raise GameError("\"order\" is given per Protester 1-4, not for %s" % ", ".join(map(repr, strange)))
    orders, resolution = [], []
    for n in PROTESTERS:              # "resolved in the order of lowest number Protester to highest"
        directors = [c["player"] for c in clean if c["protester"] == n]
        if not directors:
            if str(n) in agreed:
                raise GameError("nobody directed Protester %d, so there is no order to agree" % n)
            continue
        if str(n) in agreed:
            order = agreed[str(n)]
            seats = [_whole(p) for p in order] if isinstance(order, list) else None
            if seats is None or sorted(seats, key=str) != sorted(directors, key=str):
                raise GameError("the agreed order for Protester %d must list exactly %s, by seat"
                                % (n, ", ".join(_name(state, p) for p in directors)))
            order = seats
            how = "agreed"
        else:
            order = list(directors)
            rng.shuffle(order)        # the cards shuffled face down, turned over one at a time
            how = "drawn" if len(order) > 1 else "alone"
        orders.append({"protester": n, "players": order, "how": how})
        for p in order:
            resolution.append(next(c for c in clean if c["player"] == p))
    abstained = [p for p in range(PLAYERS) if p not in seen_players]
    return [{"type": "revealed", "round": state["round"], "plays": resolution, "orders": orders,
             "abstained": abstained}]


def _check(state, action, rng):
    winners = action.get("winners")
    if not isinstance(winners, list):
        raise GameError("\"winners\" lists the seats whose camera van holds a Protester ([] if none)")
    seats = [_seat(w) for w in winners]
    if len(set(seats)) != len(seats):
        raise GameError("a player is named twice among the winners")
    return [{"type": "checked", "round": state["round"], "winners": sorted(seats)}]


def _end_turn(state, action, rng):
    p = _seat(action.get("player"))
    if p != state["journalist"]:
        raise GameError("%s can't end a turn: it is %s's Journalists' turn"
                        % (_name(state, p), _name(state, state["journalist"])))
    return [{"type": "journalist_done", "round": state["round"], "player": p}]


def _police(state, action, rng):
    p = _seat(action.get("player"))
    if p != state["first"]:
        raise GameError("%s can't move the police: the First Player, %s, does"
                        % (_name(state, p), _name(state, state["first"])))
    step = (state["round"] - 1) % len(state["police_table"])
    return [{"type": "police_moved", "round": state["round"], "step": step + 1,
             "moves": dict(state["police_table"][step])},
            {"type": "round_ended", "round": state["round"], "first": (p + 1) % PLAYERS}]


_ACTIONS = {"reveal": _reveal, "check": _check, "end_turn": _end_turn, "police": _police}
_PHASE_OF = {"reveal": "protesters", "check": "check", "end_turn": "journalists", "police": "police"}


# ---------------------------------------------------------------- apply

def apply(state, event):
    kind = event.get("type")
    if kind == "setup":
        return {"started": True, "players": copy.deepcopy(event["players"]), "first": event["first"],
                "police_table": copy.deepcopy(event["police_table"]), "round": 1, "phase": "protesters",
                "journalist": None, "done": [], "last_reveal": None, "last_police": None, "winners": []}
    if not state.get("started"):
        return state
    s = copy.deepcopy(state)
    if kind == "revealed":
        s["last_reveal"], s["phase"] = event, "check"
    elif kind == "checked":
        if event["winners"]:
            s["winners"] = list(event["winners"])
            s["phase"] = "over"
        else:
            s["phase"], s["journalist"], s["done"] = "journalists", s["first"], []
    elif kind == "journalist_done":
        s["done"].append(event["player"])
        if len(s["done"]) >= PLAYERS:
            s["phase"], s["journalist"] = "police", None
        else:
            s["journalist"] = (event["player"] + 1) % PLAYERS
    elif kind == "police_moved":
        s["last_police"] = event
    elif kind == "round_ended":
        s["round"] = event["round"] + 1
        s["first"] = event["first"]      # "the First Player badge is then passed ... clockwise"
        s["phase"], s["done"] = "protesters", []
    return s


# ---------------------------------------------------------------- offers / view

def offers(state):
    if not state.get("started") or state["winners"]:
        return []
    phase = state["phase"]
    if phase == "protesters":
        return [{"type": "reveal", "plays": []}]
    if phase == "check":
        return [{"type": "check", "winners": []}] + [{"type": "check", "winners": [p]} for p in range(PLAYERS)]
    if phase == "journalists":
        return [{"type": "end_turn", "player": state["journalist"]}]
    return [{"type": "police", "player": state["first"]}]


def view(state):
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    step = (state["round"] - 1) % len(state["police_table"])
    first = state["first"]
    return {
        "game": NAME, "title": TITLE, "started": True, "round": state["round"], "phase": state["phase"],
        "waiting_for": _waiting_for(state) if not state["winners"] else None,
        "players": [{"seat": i, "name": p["name"], "colour": p["colour"], "badge": i == first,
                     "done": i in state["done"]} for i, p in enumerate(state["players"])],
        "first_player": first, "first_player_name": _name(state, first),
        "journalists_order": [(first + k) % PLAYERS for k in range(PLAYERS)],
        "journalist": state["journalist"], "actions_per_turn": ACTIONS_PER_TURN, "hand_limit": HAND_LIMIT,
        "last_reveal": state["last_reveal"],
        "police_this_round": {"step": step + 1, "moves": state["police_table"][step]},
        "last_police": state["last_police"],
        "distance_chart": {"A-3": 1, "4-6": 2, "7-9": 3, "push": list(PUSHING)},
        "winners": state["winners"], "winner_names": [_name(state, w) for w in state["winners"]],
    }


# ---------------------------------------------------------------- describe

def describe(state, action, events):
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    out = []
    for ev in events:
        kind = ev["type"]
        if kind == "revealed":
            if not ev["plays"]:
                out.append("round %d: nobody directed a Protester" % ev["round"])
                continue
            cards = ["%s's %s of %s on Protester %d" % (_name(state, c["player"]), _rank_words(c["rank"]),
                                                        c["suit"], c["protester"]) for c in ev["plays"]]
            out.append("round %d: the Protesters moved (%s)" % (ev["round"], ", ".join(cards)))
        elif kind == "checked":
            if ev["winners"]:
                names = [_name(state, w) for w in ev["winners"]]
                out.append("round %d: a Protester is in %s camera van%s: %s win%s" % (
                    ev["round"], _and(["%s's" % n for n in names]), "s" if len(names) > 1 else "",
                    _and(names), "" if len(names) > 1 else "s"))
            else:
                out.append("round %d: no camera van holds a Protester" % ev["round"])
        elif kind == "journalist_done":
            out.append("%s's Journalists' turn is over" % _name(state, ev["player"]))
        elif kind == "police_moved":
            out.append("round %d: %s moved the police" % (ev["round"], _name(state, state["first"])))
        elif kind == "round_ended":
            out.append("%s has the First Player badge" % _name(state, ev["first"]))
    return "; ".join(out)


def _rank_words(rank):
    return "ace" if rank == "A" else rank


def _and(items):
    return items[0] if len(items) == 1 else "%s and %s" % (", ".join(items[:-1]), items[-1])


# ---------------------------------------------------------------- helpers

def _whole(value):
    """A whole number given as an int or as its digits; None for anything else."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _seat(value):
    seat = _whole(value)
    if seat is None or not 0 <= seat < PLAYERS:
        raise GameError("a player is a seat number 0-%d, not %r" % (PLAYERS - 1, value))
    return seat


def _rank(value):
    text = str(value).strip().upper() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    if text in ("1", "ACE"):
        text = "A"
    return text if text in RANKS else None


def _suit(value):
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    for s in SUITS:
        if text in (s, s[0], s[:-1]):
            return s
    return None


def _name(state, p):
    return state["players"][p]["name"]


def _waiting_for(state):
    phase = state["phase"]
    if phase == "protesters":
        return "round %d, Protesters' turn: turn up the cards" % state["round"]
    if phase == "check":
        return "check the camera vans: does any corner hold a Protester?"
    if phase == "journalists":
        return "%s's Journalists' turn (%d actions)" % (_name(state, state["journalist"]), ACTIONS_PER_TURN)
    if phase == "police":
        return "%s moves the police" % _name(state, state["first"])
    return "the game is over"
