"""Get the Scoop! (Cardboard Jam demo, 2011): four news producers talk, push and shove protest
leaders into their camera vans.

By default the box keeps the board (option "board": "tracked"): it places every piece as the
rules' setup does, moves the Protesters from the cards turned up (distance, direction, pushes on
3, 6 and 9, and, when several players direct one Protester, an order drawn with the rng and
recorded in the event so a replay or undo is identical), counts each player's three actions in
the Journalists' turn, moves the Police by the round's step of the police table, passes the First
Player badge and checks the camera vans. With "board": "table" the pieces stay the table's
business: the panel shows the cards, the turns, the police step and the badge, and the table says
whose van holds a Protester.

Players are named by seat (0-3, clockwise, in the order given to setup); seat 0's corner is the
top-left one, and the corners go clockwise from there. Squares are named "a1" (top-left) to
"l12" (bottom-right); see get_the_scoop_board.

    {"type": "reveal", "plays": [{"player": p, "protester": 1-4, "rank": "A"|2-9,
                                  "suit": "hearts"|"diamonds"|"clubs"|"spades"}, ...],
                       "order": {"2": [p, q]}}      Protesters' turn: the cards turned up
                                                    (a player who abstained is left out);
                                                    "order" (optional) is an order the players
                                                    agreed for a Protester, else one is drawn
    {"type": "move", "player": p, "from": "c1", "to": "d2"}
                                                    tracked: one action, a Journalist steps
                                                    (pushing a Protester) or jumps
    {"type": "draw", "player": p, "discard": 0-3}   tracked: one action, discard (free) and draw
    {"type": "end_turn", "player": p}               the Journalists' turn is over (the rest of
                                                    its 3 actions unspent)
    {"type": "police", "player": badge}             the First Player moves the police; the
                                                    round ends and the badge passes clockwise
    {"type": "check", "winners": [p, ...]}          table only: whose camera van holds a
                                                    Protester after the Protesters moved

Events: setup, revealed, checked, journalist_moved, drew, journalist_done, police_moved,
round_ended.

Where the demo's rules are silent or incomplete, these are newsdesk's choices, each an option
(its default in brackets), not the original's:
  * "police_table": the rules give the first round's step and say the next round's is
    "diagonally, clockwise"; the table after that is missing. [the given step, then each officer
    turning its corner clockwise, alternating]
  * "sides": which side of the board each suit labels, listed top, right, bottom, left. The
    rules say the sides are labelled but not which is which. [hearts, diamonds, clubs, spades]
  * "journalist_step": a Journalist moves "one square in any one direction": "any" (diagonals
    too) or "orthogonal". [any]
  * "protester_push": a Protester moved by a 3, 6 or 9 pushes "only one square": "one" (it
    pushes one piece; a second piece behind it blocks) or "line" (the whole line, as Police
    push). [one]
  * "jump_counts_mover": whether the Journalist jumping counts among the "at least 2 of the
    player's Journalists adjacent" to the square it jumps to. [false]
  * "board": "tracked" or "table" (above). [tracked]
  * players who don't choose a colour get the free ones in the order red, blue, green, white;
  * the Police move one at a time in number order; an officer blocked by another that hasn't
    moved yet waits and tries again once it has ("Other Police Officers will continue to move
    clockwise, until blocked");
  * the deck itself stays on the table: the box counts cards in hand (3 dealt, one played per
    Protester directed, at most 3) but not the cards left in the deck.
"""

import copy
import random
from typing import Any

from . import get_the_scoop_board as grid
from .base import (
    Action,
    Event,
    GameError,
    Result,
    State,
    and_list,
    choice_words,
    declared,
    form_name,
    guard,
    result_of,
    seat_words,
)

NAME = "get_the_scoop"
TITLE = "Get the Scoop! (Cardboard Jam, 2011)"
VARIANTS: dict[str, str] = {}

COLOURS = ("red", "blue", "green", "white")
PLAYERS = len(COLOURS)
PROTESTERS = (1, 2, 3, 4)
OFFICERS = tuple(range(1, 9))
SUITS = ("hearts", "diamonds", "clubs", "spades")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9")
DISTANCE = {"A": 1, "2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 3, "8": 3, "9": 3}
PUSHING = ("3", "6", "9")        # "If the card value is 3, 6, or 9, Protesters will push ..."
ACTIONS_PER_TURN = 3             # "Each player has 3 actions"
HAND_LIMIT = 3                   # "Players can have no more than 3 cards in their hand"
DEALT = 3                        # "Deal 3 cards to each player"
DIRECTIONS = tuple(grid.STEPS)
SIDE_NAMES = ("top", "right", "bottom", "left")
SIDE_WAY = {"top": "up", "right": "right", "bottom": "down", "left": "left"}

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

# Every option's default (an option given as null takes its default), and the choices of those
# that are one of a few.
DEFAULTS = {
    "first": 0, "police_table": DEFAULT_POLICE_TABLE, "board": "tracked", "sides": list(SUITS),
    "journalist_step": "any", "protester_push": "one", "jump_counts_mover": False,
}
CHOICES = {"board": ("tracked", "table"), "journalist_step": ("any", "orthogonal"),
           "protester_push": ("one", "line"), "jump_counts_mover": (False, True)}


# What the panel's start form, API document and request check know of this game (base.option).
from .base import option as _option  # noqa: E402  (kept beside its one use, so this block stands alone)

OPTIONS = (
    _option("first", "seat", 0, "The person who last watched the news gets the First Player badge.",
            "Who has the First Player badge (who last watched the news)"),
    _option("board", "choice", "tracked", "game board: a 12x12 grid of 1” squares",
            "Who keeps the board", choices={"tracked": "the box keeps every piece (newsdesk's default)",
                                            "table": "the pieces stay the table's; the box keeps the rounds"},
            newsdesk=True),
    _option("journalist_step", "choice", "any", "one square in any one direction",
            "A Journalist's step", choices={"any": "any of the eight directions (diagonals too)",
                                            "orthogonal": "up, down, left or right only"}, newsdesk=True),
    _option("protester_push", "choice", "one", "Pushing always happens in the direction of movement "
            "and only one square", "A pushing Protester (3, 6, 9) pushes",
            choices={"one": "one piece; a second piece behind it blocks",
                     "line": "the whole line, as the Police do"}, newsdesk=True),
    _option("jump_counts_mover", "boolean", False, "to any square with at least 2 of the player’s "
            "Journalists adjacent", "The jumping Journalist counts among the 2 adjacent", newsdesk=True),
    _option("sides", "mapping", None, "the four sides of the board labeled with suits from a poker deck "
            "(hearts, diamonds, clubs, spades)", "Which suit labels each side (top, right, bottom, left)",
            form=False, newsdesk=True,
            schema={"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "string", "maxLength": 10}}),
    _option("police_table", "mapping", None, "At the Police Officers' turn on the next round they "
            "move diagonally, clockwise: (the table is not printed: newsdesk's default fills it)",
            "The police movement tables", form=False, newsdesk=True,
            schema={"type": "array", "minItems": 1, "maxItems": 8,
                    "items": {"type": "object", "maxProperties": len(OFFICERS)}}),
)
PANEL = {"score": None, "chart": None,
         "no_chart": "This game keeps no score: the winner is whoever's camera van holds a Protester."}


def card(rank, suit, sides=SUITS):
    """A revealed card as the panel shows it: how far the Protester goes, which way, and whether
    it pushes (A-3: 1, 4-6: 2, 7-9: 3; pushing on 3, 6, 9)."""
    side = SIDE_NAMES[list(sides).index(suit)]
    return {"rank": rank, "suit": suit, "distance": DISTANCE[rank], "push": rank in PUSHING,
            "toward": "the %s side" % suit, "way": SIDE_WAY[side]}


# ---------------------------------------------------------------- setup

def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("Get the Scoop!'s options are a dict: %s" % ", ".join(DEFAULTS))
    if not isinstance(players, (list, tuple)):
        raise GameError("players is a list of the %d players, each {\"name\": ..., \"colour\": ...}" % PLAYERS)
    unknown = set(map(str, options)) - set(DEFAULTS)
    if unknown:
        raise GameError("Get the Scoop! has no option %s; its options are %s"
                        % (", ".join(sorted(unknown)), ", ".join(DEFAULTS)))
    options = {k: v for k, v in options.items() if v is not None}
    if len(players) != PLAYERS:
        raise GameError("Get the Scoop! is for %d players, one per corner, not %d" % (PLAYERS, len(players)))
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    wanted = [c.lower() if isinstance(c := p.get("colour"), str) and c else None for p in players]
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
        raise GameError(form_name(declared(OPTIONS, "first")) + " is the seat of whoever last watched the news (%s)"
                        % seat_words(PLAYERS))
    table = _police_table(options.get("police_table", DEFAULT_POLICE_TABLE))
    rules = {}
    for key, allowed in CHOICES.items():
        value = options.get(key, DEFAULTS[key])
        if not any(value == a and type(value) is type(a) for a in allowed):
            opt = declared(OPTIONS, key)      # the form's words first, then what the API sends
            said = choice_words(opt) if opt["kind"] == "choice" else "yes or no"
            raise GameError("%s is %s (sent as %s is one of %s, not %r)"
                            % (form_name(opt), said, key, ", ".join(map(_word, allowed)), value))
        rules[key] = value
    sides = options.get("sides", DEFAULTS["sides"])
    if (not isinstance(sides, list) or len(sides) != 4 or any(_suit(s) is None for s in sides)
            or len({_suit(s) for s in sides}) != 4):
        raise GameError("sides lists the four suits in the order they label the board's top, "
                        "right, bottom and left sides, e.g. hearts, diamonds, clubs, spades")
    rules["sides"] = [_suit(s) for s in sides]
    return [{"type": "setup", "players": [{"name": n, "colour": c} for n, c in zip(names, colours)],
             "first": first, "police_table": table, "rules": rules}]


def _word(value):
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _police_table(table):
    msg = ("police_table is a list of steps, one per police turn, each mapping officers 1-8 to "
           "a direction (%s)" % ", ".join(DIRECTIONS))
    if not isinstance(table, (list, tuple)) or not table or len(table) > 100:
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


def initial() -> State:
    return {"started": False}


def _tracked(state):
    return state["rules"]["board"] == "tracked"


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    kind = guard(state, action, _ACTIONS, result, "set up a game of Get the Scoop! first",
                 lambda state: "the game is over: %s won" % " and ".join(_name(state, w) for w in state["winners"]),
                 lambda kind: "Get the Scoop! has no action %r; try one of: %s" % (kind, ", ".join(_ACTIONS)))
    handler = _ACTIONS[kind]
    if kind in ("move", "draw") and not _tracked(state):
        raise GameError("the table keeps the board in this game (option board: table): move the "
                        "pieces and the cards by hand, then say the Journalists are done")
    if kind == "check" and _tracked(state):
        raise GameError("the box checks the camera vans itself after the Protesters move")
    if state["phase"] != _PHASE_OF[kind]:
        raise GameError("that's not for now: %s" % _waiting_for(state))
    return handler(state, action, rng)


def result(state: State) -> Result:
    """Over once a Protester stands in a camera van after the Protesters' turn ("If there is a
    Protester in a Player's corner (the camera van), that Player wins and the game is over!
    There can be multiple winners."). The game keeps no score: every score is None."""
    if not state.get("started"):
        return result_of(False, [], PANEL)
    won = set(state["winners"])
    return result_of(bool(won), [(pl["name"], None, i in won) for i, pl in enumerate(state["players"])], PANEL)


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
        if _tracked(state) and state["hands"][p] < 1:
            raise GameError("%s has no card in hand to play; draw in the Journalists' turn" % who)
        seen_cards.add((rank, suit))
        clean.append(dict(card(rank, suit, state["rules"]["sides"]), player=p, protester=protester))
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
    event = {"type": "revealed", "round": state["round"], "plays": resolution, "orders": orders,
             "abstained": abstained}
    if _tracked(state):
        board = dict(state["board"])
        for c in resolution:
            c["moves"], c["stopped"] = _walk_protester(state, board, c)
        event["winners"] = _vans_holding_protesters(board)
    return [event]


def _walk_protester(state, board, c):
    """Move the card's Protester square by square: "Unless directed with a 3, 6, or 9 card,
    Protesters end their movement when they are blocked by any other piece on the board"; with
    one, they push Protesters or Journalists "in the direction of movement and only one square",
    "but not Police Officers". Returns the moves made and why it stopped (None: went the
    distance)."""
    at, piece = grid.occupant(board), "P%d" % c["protester"]
    moves: list[list[str]] = []
    chain = state["rules"]["protester_push"] == "line"
    for _ in range(c["distance"]):
        ahead = grid.step(grid.parse(board[piece]), c["way"])
        if not grid.on_board(ahead):
            return moves, "the edge of the board"
        if ahead in at and not c["push"]:
            return moves, "blocked by %s" % _piece_words(state, at[ahead])
        line = grid.push_line(at, ahead, c["way"], chain)
        if line is None:
            return moves, "blocked by %s" % _piece_words(state, at[ahead])
        moves += grid.shove(board, at, piece, c["way"], line)
    return moves, None


def _vans_holding_protesters(board):
    """"If there is a Protester in a Player's corner (the camera van), that Player wins"."""
    at = grid.occupant(board)
    return [seat for seat in range(PLAYERS)
            if any(grid.is_protester(at.get(rc, "")) for rc in grid.van(seat))]


def _check(state, action, rng):
    winners = action.get("winners")
    if not isinstance(winners, list):
        raise GameError("\"winners\" lists the seats whose camera van holds a Protester ([] if none)")
    seats = [_seat(w) for w in winners]
    if len(set(seats)) != len(seats):
        raise GameError("a player is named twice among the winners")
    return [{"type": "checked", "round": state["round"], "winners": sorted(seats)}]


def _whose_turn(state, action, what):
    p = _seat(action.get("player"))
    if p != state["journalist"]:
        raise GameError("%s can't %s: it is %s's Journalists' turn"
                        % (_name(state, p), what, _name(state, state["journalist"])))
    return p


def _spent(state, p, events):
    """One action spent: the turn passes on when it was the third."""
    if state["actions_left"] <= 1:
        events.append({"type": "journalist_done", "round": state["round"], "player": p})
    return events


def _move(state, action, rng):
    p = _whose_turn(state, action, "move a Journalist")
    colour = state["players"][p]["colour"]
    src, dst = grid.parse(action.get("from")), grid.parse(action.get("to"))
    if src is None or dst is None:
        raise GameError("a move goes \"from\" a square \"to\" a square, named a1 to l12, not %r to %r"
                        % (action.get("from"), action.get("to")))
    move = _journalist_moves(state, p).get((grid.name(src), grid.name(dst)))
    if move is None:
        at = grid.occupant(state["board"])
        piece = at.get(src)
        if piece is None or not piece.startswith(colour):
            raise GameError("%s has no %s Journalist on %s" % (_name(state, p), colour, grid.name(src)))
        raise GameError("%s's Journalist on %s can't go to %s: %s" % (
            _name(state, p), grid.name(src), grid.name(dst), _why_not(state, p, src, dst)))
    event = dict(move, type="journalist_moved", round=state["round"], player=p,
                 actions_left=state["actions_left"] - 1)
    return _spent(state, p, [event])


def _journalist_moves(state, p):
    """Every legal Journalist move for seat ``p``: (from, to) -> {"how", "moves"}."""
    colour, board, rules = state["players"][p]["colour"], state["board"], state["rules"]
    at = grid.occupant(board)
    ways = grid.ORTHOGONAL if rules["journalist_step"] == "orthogonal" else DIRECTIONS
    found = {}
    mine = sorted(piece for piece in board if piece.startswith(colour))
    jumps = _jump_squares(colour, at)
    for piece in mine:
        src = grid.parse(board[piece])
        for way in ways:                    # "one square in any one direction"
            dst = grid.step(src, way)
            if not grid.on_board(dst):
                continue
            if dst not in at:
                found[(board[piece], grid.name(dst))] = {"how": "step", "piece": piece,
                                                         "moves": [[piece, board[piece], grid.name(dst)]]}
            elif grid.is_protester(at[dst]):
                # "push a Protester to move it one square in the direction of movement, but
                # cannot push any Journalists or Police"
                if grid.push_line(at, dst, way, chain=False) is not None:
                    b, a = dict(board), dict(at)
                    found[(board[piece], grid.name(dst))] = {
                        "how": "push", "piece": piece,
                        "moves": grid.shove(b, a, piece, way, [at[dst]])}
        for dst, mine, others in jumps:     # "to any square with at least 2 of the player's
            key = (board[piece], grid.name(dst))    # Journalists adjacent, but more of that
            if key in found:                        # player's Journalists than any other"
                continue
            if not rules["jump_counts_mover"] and max(abs(dst[0] - src[0]), abs(dst[1] - src[1])) == 1:
                mine -= 1
            if mine >= 2 and mine > others:
                found[key] = {"how": "jump", "piece": piece, "moves": [[piece, board[piece], grid.name(dst)]]}
    return found


def _jump_squares(colour, at):
    """Each free square with a Journalist of ``colour`` next to it: (square, how many of
    ``colour``'s are next to it, the most any other colour has next to it)."""
    near: dict[tuple[int, int], dict[str, int]] = {}
    for rc, piece in at.items():
        if grid.is_police(piece) or grid.is_protester(piece):
            continue
        who = piece.rstrip("0123456789")
        for way in DIRECTIONS:
            there = grid.step(rc, way)
            if grid.on_board(there) and there not in at:
                counts = near.setdefault(there, {})
                counts[who] = counts.get(who, 0) + 1
    return [(rc, counts.get(colour, 0), max([n for c, n in counts.items() if c != colour] or [0]))
            for rc, counts in sorted(near.items()) if counts.get(colour, 0) >= 2]


def _why_not(state, p, src, dst):
    at = grid.occupant(state["board"])
    if src == dst:
        return "it is already there"
    if dst in at:
        what = at[dst]
        if grid.is_protester(what) and max(abs(dst[0] - src[0]), abs(dst[1] - src[1])) == 1:
            return "Protester %s can't be pushed that way (blocked, or off the board)" % what[1]
        return "%s is there" % _piece_words(state, what)
    if state["rules"]["journalist_step"] == "orthogonal" and abs(dst[0] - src[0]) + abs(dst[1] - src[1]) == 2 \
            and abs(dst[0] - src[0]) == 1:
        return "Journalists step orthogonally in this game (option journalist_step), and a jump there " \
               "needs at least 2 of your Journalists next to it, more than any other colour's"
    return "a Journalist steps one square, or jumps to a square with at least 2 of its player's " \
           "Journalists next to it and more of them than any other colour's"


def _draw(state, action, rng):
    p = _whose_turn(state, action, "draw")
    discard = action.get("discard", 0)
    discard = _whole(discard) if discard is not None else 0
    hand = state["hands"][p]
    if discard is None or not 0 <= discard <= hand:
        raise GameError("%s holds %d card%s: discard 0 to %d of them"
                        % (_name(state, p), hand, "" if hand == 1 else "s", hand))
    if hand - discard + 1 > HAND_LIMIT:
        raise GameError("%s holds %d cards and may hold no more than %d: discard one to draw"
                        % (_name(state, p), hand, HAND_LIMIT))
    event = {"type": "drew", "round": state["round"], "player": p, "discard": discard,
             "hand": hand - discard + 1, "actions_left": state["actions_left"] - 1}
    return _spent(state, p, [event])


def _end_turn(state, action, rng):
    p = _whose_turn(state, action, "end a turn")
    return [{"type": "journalist_done", "round": state["round"], "player": p}]


def _police(state, action, rng):
    p = _seat(action.get("player"))
    if p != state["first"]:
        raise GameError("%s can't move the police: the First Player, %s, does"
                        % (_name(state, p), _name(state, state["first"])))
    step = (state["round"] - 1) % len(state["police_table"])
    ways = dict(state["police_table"][step])
    event = {"type": "police_moved", "round": state["round"], "step": step + 1, "moves": ways}
    if _tracked(state):
        event["shoves"], event["blocked"] = _move_police(state, ways)
    return [event, {"type": "round_ended", "round": state["round"], "first": (p + 1) % PLAYERS}]


def _move_police(state, ways):
    """"Police Officers push any number of Protesters and/or Journalists if they are in the way
    ... If the line of Journalists and Protesters have already reached the edge of the board, the
    police are blocked. Other Police Officers will continue to move clockwise, until blocked in
    this manner or by other Police Officers." An officer blocked by one that has yet to move
    waits for it."""
    board = dict(state["board"])
    at = grid.occupant(board)
    waiting, moves = ["O%d" % o for o in OFFICERS], []
    progress = True
    while waiting and progress:
        progress, still = False, []
        for officer in waiting:
            way = ways[officer[1:]]
            ahead = grid.step(grid.parse(board[officer]), way)
            line = grid.push_line(at, ahead, way, chain=True) if grid.on_board(ahead) else None
            if line is None:
                still.append(officer)
                continue
            moves += grid.shove(board, at, officer, way, line)
            progress = True
        waiting = still
    return moves, waiting


_ACTIONS = {"reveal": _reveal, "move": _move, "draw": _draw, "end_turn": _end_turn,
            "police": _police, "check": _check}
_PHASE_OF = {"reveal": "protesters", "check": "check", "move": "journalists", "draw": "journalists",
             "end_turn": "journalists", "police": "police"}


# ---------------------------------------------------------------- apply

def _shift(s, moves):
    for piece, _frm, to in moves:
        s["board"][piece] = to


def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        # a game stored before the box kept the board has no "rules": the table kept it
        rules = dict(DEFAULTS, **event.get("rules", {"board": "table"}))
        rules.pop("first"), rules.pop("police_table")
        colours = [p["colour"] for p in event["players"]]
        return {"started": True, "players": copy.deepcopy(event["players"]), "first": event["first"],
                "police_table": copy.deepcopy(event["police_table"]), "rules": rules, "round": 1,
                "phase": "protesters", "journalist": None, "done": [], "last_reveal": None,
                "last_police": None, "winners": [], "board": grid.starting_board(colours),
                "hands": [DEALT] * PLAYERS, "actions_left": 0, "turn_log": []}
    if not state.get("started"):
        return state
    s = copy.deepcopy(state)
    if kind == "revealed":
        s["last_reveal"] = event
        if "winners" in event:                      # the box keeps the board
            for c in event["plays"]:
                _shift(s, c["moves"])
                s["hands"][c["player"]] -= 1        # "Cards are then discarded next to the deck"
            if event["winners"]:
                s["winners"], s["phase"] = list(event["winners"]), "over"
            else:
                s["phase"], s["journalist"], s["done"] = "journalists", s["first"], []
                s["actions_left"], s["turn_log"] = ACTIONS_PER_TURN, []
        else:
            s["phase"] = "check"
    elif kind == "checked":
        if event["winners"]:
            s["winners"] = list(event["winners"])
            s["phase"] = "over"
        else:
            s["phase"], s["journalist"], s["done"] = "journalists", s["first"], []
            s["actions_left"], s["turn_log"] = ACTIONS_PER_TURN, []
    elif kind == "journalist_moved":
        _shift(s, event["moves"])
        s["actions_left"] = event["actions_left"]
        s["turn_log"].append(event)
    elif kind == "drew":
        s["hands"][event["player"]] = event["hand"]
        s["actions_left"] = event["actions_left"]
        s["turn_log"].append(event)
    elif kind == "journalist_done":
        s["done"].append(event["player"])
        s["turn_log"] = []
        if len(s["done"]) >= PLAYERS:
            s["phase"], s["journalist"], s["actions_left"] = "police", None, 0
        else:
            s["journalist"], s["actions_left"] = (event["player"] + 1) % PLAYERS, ACTIONS_PER_TURN
    elif kind == "police_moved":
        s["last_police"] = event
        _shift(s, event.get("shoves", []))
    elif kind == "round_ended":
        s["round"] = event["round"] + 1
        s["first"] = event["first"]      # "the First Player badge is then passed ... clockwise"
        s["phase"], s["done"] = "protesters", []
    return s


# ---------------------------------------------------------------- offers / view

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
        if _tracked(state):
            legal = _journalist_moves(state, p)
            if legal:
                (frm, to), first = next(iter(legal.items()))
                out.append({"type": "move", "player": p, "from": frm, "to": to,
                            "choices": [{"from": f, "to": t, "how": m["how"], "piece": m["piece"]}
                                        for (f, t), m in legal.items()]})
            hand = state["hands"][p]
            out.append({"type": "draw", "player": p, "discard": 1 if hand >= HAND_LIMIT else 0})
        return out + [{"type": "end_turn", "player": p}]
    return [{"type": "police", "player": state["first"]}]


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    step = (state["round"] - 1) % len(state["police_table"])
    first = state["first"]
    tracked = _tracked(state)
    out = {
        "game": NAME, "title": TITLE, "started": True, "round": state["round"], "phase": state["phase"],
        "waiting_for": _waiting_for(state) if not state["winners"] else None,
        "players": [{"seat": i, "name": p["name"], "colour": p["colour"], "badge": i == first,
                     "done": i in state["done"], "hand": state["hands"][i] if tracked else None}
                    for i, p in enumerate(state["players"])],
        "first_player": first, "first_player_name": _name(state, first),
        "journalists_order": [(first + k) % PLAYERS for k in range(PLAYERS)],
        "journalist": state["journalist"], "actions_per_turn": ACTIONS_PER_TURN, "hand_limit": HAND_LIMIT,
        "actions_left": state["actions_left"] if state["phase"] == "journalists" else None,
        "turn_log": state["turn_log"],
        "last_reveal": state["last_reveal"],
        "police_this_round": {"step": step + 1, "moves": state["police_table"][step]},
        "last_police": state["last_police"],
        "distance_chart": {"A-3": 1, "4-6": 2, "7-9": 3, "push": list(PUSHING)},
        "rules": state["rules"],
        "sides": dict(zip(SIDE_NAMES, state["rules"]["sides"])),
        "winners": state["winners"], "winner_names": [_name(state, w) for w in state["winners"]],
        "board": None,
    }
    if tracked:
        at = grid.occupant(state["board"])
        vans = {grid.name(rc): seat for seat in range(PLAYERS) for rc in grid.van(seat)}
        out["board"] = {"size": grid.SIZE, "columns": grid.COLUMNS,
                        "pieces": dict(state["board"]), "vans": vans,
                        "rows": [[at.get((r, c)) for c in range(grid.SIZE)] for r in range(grid.SIZE)]}
    return out


def _piece_words(state, piece):
    if grid.is_protester(piece):
        return "Protester %s" % piece[1:]
    if grid.is_police(piece):
        return "Police Officer %s" % piece[1:]
    colour = piece.rstrip("0123456789")
    owner = next((p["name"] for p in state["players"] if p["colour"] == colour), colour)
    return "a Journalist of %s's (%s)" % (owner, colour)


# ---------------------------------------------------------------- describe

def describe(state: State, action: Action, events: list[Event]) -> str:
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
            if ev.get("winners"):
                names = [_name(state, w) for w in ev["winners"]]
                out.append("a Protester is in %s camera van%s: %s win%s" % (
                    and_list(["%s's" % n for n in names]), "s" if len(names) > 1 else "",
                    and_list(names), "" if len(names) > 1 else "s"))
        elif kind == "checked":
            if ev["winners"]:
                names = [_name(state, w) for w in ev["winners"]]
                out.append("round %d: a Protester is in %s camera van%s: %s win%s" % (
                    ev["round"], and_list(["%s's" % n for n in names]), "s" if len(names) > 1 else "",
                    and_list(names), "" if len(names) > 1 else "s"))
            else:
                out.append("round %d: no camera van holds a Protester" % ev["round"])
        elif kind == "journalist_moved":
            out.append("%s: %s (%d action%s left)" % (
                _name(state, ev["player"]), _moved_words(state, ev), ev["actions_left"],
                "" if ev["actions_left"] == 1 else "s"))
        elif kind == "drew":
            out.append("%s %sdrew a card (%d action%s left)" % (
                _name(state, ev["player"]), "discarded %d and " % ev["discard"] if ev["discard"] else "",
                ev["actions_left"], "" if ev["actions_left"] == 1 else "s"))
        elif kind == "journalist_done":
            out.append("%s's Journalists' turn is over" % _name(state, ev["player"]))
        elif kind == "police_moved":
            out.append("round %d: %s moved the police" % (ev["round"], _name(state, state["first"])))
            if ev.get("blocked"):
                out.append("Officer%s %s blocked" % ("s" if len(ev["blocked"]) > 1 else "",
                                                     and_list([o[1:] for o in ev["blocked"]])))
        elif kind == "round_ended":
            out.append("%s has the First Player badge" % _name(state, ev["first"]))
    return "; ".join(out)


def _moved_words(state, ev):
    frm, to = ev["moves"][-1][1], ev["moves"][-1][2]
    if ev["how"] == "push":
        pushed = ev["moves"][0]
        return "a Journalist stepped %s to %s, pushing %s to %s" % (
            frm, to, _piece_words(state, pushed[0]), pushed[2])
    return "a Journalist %s %s to %s" % ("jumped" if ev["how"] == "jump" else "stepped", frm, to)


def _rank_words(rank):
    return "ace" if rank == "A" else rank



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
        if _tracked(state):
            left = state["actions_left"]
            return "%s's Journalists' turn: %d of %d actions left" % (
                _name(state, state["journalist"]), left, ACTIONS_PER_TURN)
        return "%s's Journalists' turn (%d actions)" % (_name(state, state["journalist"]), ACTIONS_PER_TURN)
    if phase == "police":
        return "%s moves the police" % _name(state, state["first"])
    return "the game is over"
