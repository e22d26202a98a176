"""Get the Scoop!'s rules: the pieces, the cards and the police table, the options and their
checks, and the round's three phases as setup, decide, apply and result. The words the table
reads about a move, and the names of players, pieces and cards its refusals say, are in
words.py; what the panel shows and offers in view.py; the board's geometry in board.py."""

import random
from typing import Any, Sequence

from ..base import (
    Action,
    Event,
    GameError,
    Result,
    State,
    choice_words,
    copied,
    declared,
    form_name,
    guard,
    option,
    result_of,
    seat_words,
    whole,
)
from . import board as grid
from .words import card_played_twice, piece_words, player_name, sides_refused

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
DISCARDS_PER_TURN = 3            # "change their hand of cards by (drawing and discarding no more than 3 cards)"
DEALT = 3                        # "Deal 3 cards to each player"
DIRECTIONS = tuple(grid.STEPS)
SIDE_NAMES = ("top", "right", "bottom", "left")
SIDE_WAY = {"top": "up", "right": "right", "bottom": "down", "left": "left"}

# The police movement tables, one step per police turn, cycling. The first step is the rules'
# ("1 & 2 move 1 square Right, 5 & 6 ... Left, 3 & 4 ... Down, 7 & 8 ... Up"), and the second
# follows their words ("on the next round they move diagonally, clockwise": each pair turns its
# corner). The table after that is missing. newsdesk's default goes on as the rules begin, "clockwise around the
# center of the board, creating a cordon": each pair turns another eighth clockwise every
# second round, so the officers go round the Protesters' four squares two squares out, never
# into them, and are back where they started after 16 rounds. (Alternating the first two steps,
# as newsdesk once did, walks every officer to an edge in six rounds, where all eight stay
# blocked.) Set "police_table" to your own.
CLOCKWISE = ("right", "down-right", "down", "down-left", "left", "up-left", "up", "up-right")
_FIRST_WAY = {1: 0, 2: 0, 3: 2, 4: 2, 5: 4, 6: 4, 7: 6, 8: 6}     # the rules' first step, as CLOCKWISE's
_TURNED = (0,) + tuple(k // 2 for k in range(2, 16)) + (0,)       # eighths turned by each round: 0,1,1,2,2,...,7,7,0
POLICE_STEPS_MOST = 32      # steps a police table may have (the default's 16 round a cordon once)
DEFAULT_POLICE_TABLE = tuple({o: CLOCKWISE[(way + turned) % 8] for o, way in _FIRST_WAY.items()}
                             for turned in _TURNED)

# Every option's default (an option given as null takes its default), and the choices of those
# that are one of a few.
DEFAULTS = {
    "first": 0, "police_table": DEFAULT_POLICE_TABLE, "board": "tracked", "sides": list(SUITS),
    "journalist_step": "any", "protester_push": "one", "jump_counts_mover": False, "jump_majority": "each",
}
CHOICES = {"board": ("tracked", "table"), "journalist_step": ("any", "orthogonal"),
           "protester_push": ("one", "once", "line"), "jump_counts_mover": (False, True),
           "jump_majority": ("each", "together")}
SCORE_KIND = None                # the game keeps no score (the result's score_kind, the panel's "score")


# What the panel's start form, API document and request check know of this game (base.option).
OPTIONS = (
    option("first", "seat", 0, "The person who last watched the news gets the First Player badge.",
           "Who has the First Player badge (who last watched the news)", newsdesk=True,
           help="Only the table knows who that is: the first player listed has it unless you choose."),
    option("board", "choice", "tracked", "game board: a 12x12 grid of 1” squares",
           "Who keeps the board", choices={"tracked": "the box keeps the board (newsdesk's default)",
                                           "table": "the pieces stay the table's; the box keeps the rounds"},
           newsdesk=True),
    option("journalist_step", "choice", "any", "one square in any one direction",
           "A Journalist's step", choices={"any": "any direction (diagonals too)",
                                           "orthogonal": "up, down, left or right only"}, newsdesk=True),
    option("protester_push", "choice", "one", "Pushing always happens in the direction of movement "
           "and only one square", "A pushing Protester (3, 6, 9) pushes",
           choices={"one": "one piece; a second piece behind it blocks",
                    "once": "one piece, by one square a card: pushed once, it blocks the rest of the move",
                    "line": "the whole line, as the Police do"}, newsdesk=True),
    option("jump_counts_mover", "boolean", False, "to any square with at least 2 of the player’s "
           "Journalists adjacent", "The jumping Journalist counts among the 2 adjacent", newsdesk=True,
           help="Adjacent is any of the eight squares around the one jumped to, diagonals too, whichever "
                "step a Journalist takes: the rules don't say, and that is newsdesk's reading."),
    option("jump_majority", "choice", "each", "but more of that player’s Journalists than any other "
           "players’ Journalists adjacent", "Whose Journalists next to the square a jump must outnumber",
           choices={"each": "each other player's", "together": "all the others' together"}, newsdesk=True,
           help="\"Any other players' Journalists\" can be read either way; the rules don't settle it."),
    option("sides", "mapping", None, "the four sides of the board labeled with suits from a poker deck "
           "(hearts, diamonds, clubs, spades)", "Which suit labels each side of the board", newsdesk=True,
           help="The rules say each side is labeled with a suit, not which is where: set these as your "
                "board's sides are labeled, so that a card moves a Protester the same way on both boards.",
           # the start form's object, one suit for each side; or, through the API, the four suits as a
           # list in the sides' order (top, right, bottom, left), as the rules list the suits
           schema={"type": ["object", "array"], "additionalProperties": False, "required": list(SIDE_NAMES),
                   "properties": {side: {"enum": list(SUITS), "default": suit} for side, suit in zip(SIDE_NAMES, SUITS)},
                   "items": {"enum": list(SUITS)}, "minItems": 4, "maxItems": 4, "uniqueItems": True}),
    option("police_table", "mapping", None, "At the Police Officers' turn on the next round they "
           "move diagonally, clockwise:",
           "The police movement tables", form=False, newsdesk=True,
           help="The table is not printed: newsdesk's default fills it.",
           schema={"type": "array", "minItems": 1, "maxItems": POLICE_STEPS_MOST,
                   "items": {"type": "object", "maxProperties": len(OFFICERS)}}),
)


def card(rank: str, suit: str, sides: Sequence[str] = SUITS) -> dict[str, Any]:
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
    table = clean_police_table(options.get("police_table", DEFAULT_POLICE_TABLE))
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
    if isinstance(sides, dict) and set(sides) == set(SIDE_NAMES):     # the start form's: {"top": "hearts", ...}
        sides = [sides[side] for side in SIDE_NAMES]
    if (not isinstance(sides, list) or len(sides) != 4 or any(_suit(s) is None for s in sides)
            or len({_suit(s) for s in sides}) != 4):
        found = [_suit(x) for x in sides] if isinstance(sides, list) else []
        twice = next((suit for suit in SUITS if found.count(suit) > 1), None)
        raise GameError(sides_refused(form_name(declared(OPTIONS, "sides")), SIDE_NAMES, SUITS, twice,
                                      options.get("sides")))
    rules["sides"] = [_suit(s) for s in sides]
    return [{"type": "setup", "players": [{"name": n, "colour": c} for n, c in zip(names, colours)],
             "first": first, "police_table": table, "rules": rules}]


def _word(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def clean_police_table(table: object) -> list[dict[str, str]]:
    """A police table as setup keeps it (officers named "1"-"8"), checked."""
    msg = ("police_table is a list of steps, one per police turn, each mapping officers 1-8 to "
           "a direction (%s)" % ", ".join(DIRECTIONS))
    if not isinstance(table, (list, tuple)) or not table or len(table) > POLICE_STEPS_MOST:
        raise GameError(msg)
    steps = []
    for step in table:
        if not isinstance(step, dict):
            raise GameError(msg)
        moves = {}
        for officer, way in step.items():
            k = whole(officer)
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


def board_tracked(state: State) -> bool:
    return bool(state["rules"]["board"] == "tracked")


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    kind = guard(state, action, title="Get the Scoop!", actions=_ACTIONS, result=result)
    handler = _ACTIONS[kind]
    if kind in ("move", "draw") and not board_tracked(state):
        raise GameError("the table keeps the board in this game (option board: table): move the "
                        "pieces and the cards by hand, then say the Journalists are done")
    if kind == "check" and board_tracked(state):
        raise GameError("the box checks the camera vans itself after the Protesters move")
    if state["phase"] != _PHASE_OF[kind]:
        raise GameError("that's not for now: %s" % waiting_for(state))
    return handler(state, action, rng)


def result(state: State) -> Result:
    """Over once a Protester stands in a camera van after the Protesters' turn ("If there is a
    Protester in a Player's corner (the camera van), that Player wins and the game is over!
    There can be multiple winners."). The game keeps no score: every score is None."""
    if not state.get("started"):
        return result_of(False, [], {"score": SCORE_KIND})
    won = set(state["winners"])
    return result_of(bool(won), [(pl["name"], None, i in won) for i, pl in enumerate(state["players"])], {"score": SCORE_KIND})


def _reveal(state: State, action: Action, rng: random.Random) -> list[Event]:
    plays = action.get("plays", [])
    if not isinstance(plays, list):
        raise GameError("\"plays\" lists the cards turned up, one per player who directed a Protester")
    seen_players, clean, bluffed = set(), [], []
    seen_cards: dict[tuple[str, str], int] = {}      # a card turned up -> the seat that turned it up
    for play in plays:
        if not isinstance(play, dict):
            raise GameError("each play is {player, protester, rank, suit}, or {player, bluff: true}")
        p = _seat(play.get("player"))
        who = player_name(state, p)
        if p in seen_players:
            raise GameError("%s played two cards; each player directs at most one Protester" % who)
        seen_players.add(p)
        if board_tracked(state) and state["hands"][p] < 1:
            raise GameError("%s has no card in hand to play; draw in the Journalists' turn" % who)
        if play.get("bluff") is not None:
            # "not putting down the die at all if the player wants to bluff and abstain": a card
            # face down and no d4, discarded with the rest
            if play.get("bluff") is not True or play.get("protester") is not None:
                raise GameError("%s: a bluff is a card put down with no d4 (\"bluff\": true and no "
                                "Protester)" % who)
            bluffed.append(p)
            continue
        protester = whole(play.get("protester"))
        if protester not in PROTESTERS:
            raise GameError("%s: the d4 shows a Protester 1-4, not %r" % (who, play.get("protester")))
        rank, suit = _rank(play.get("rank")), _suit(play.get("suit"))
        if rank is None or suit is None:
            raise GameError("%s: a card is a rank A-9 and a suit (%s), not %r of %r"
                            % (who, ", ".join(SUITS), play.get("rank"), play.get("suit")))
        # one poker deck, Ace to 9 of four suits: no two players turn up the same card in one
        # Protesters' turn (this action is the whole turn). A card may come back in a later round,
        # after the discards are reshuffled, which the rules don't detail: not refused across rounds
        if (rank, suit) in seen_cards:
            raise GameError(card_played_twice(state, p, seen_cards[(rank, suit)], rank, suit))
        seen_cards[(rank, suit)] = p
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
            seats = [whole(p) for p in order] if isinstance(order, list) else None
            if seats is None or sorted(seats, key=str) != sorted(directors, key=str):
                raise GameError("the agreed order for Protester %d must list exactly %s, by seat"
                                % (n, ", ".join(player_name(state, p) for p in directors)))
            order = seats
            how = "agreed"
        else:
            order = list(directors)
            rng.shuffle(order)        # the cards shuffled face down, turned over one at a time
            how = "drawn" if len(order) > 1 else "alone"
        orders.append({"protester": n, "players": order, "how": how})
        for p in order:
            resolution.append(next(c for c in clean if c["player"] == p))
    directed = {c["player"] for c in clean}
    abstained = [p for p in range(PLAYERS) if p not in directed]
    event = {"type": "revealed", "round": state["round"], "plays": resolution, "orders": orders,
             "abstained": abstained, "bluffed": sorted(bluffed)}
    if board_tracked(state):
        board = dict(state["board"])
        for c in resolution:
            c["moves"], c["stopped"] = _walk_protester(state, board, c)
        event["winners"] = _vans_holding_protesters(board)
    return [event]


def _walk_protester(state: State, board: grid.Board, c: dict[str, Any]) -> tuple[list[list[str]], str | None]:
    """Move the card's Protester square by square: "Unless directed with a 3, 6, or 9 card,
    Protesters end their movement when they are blocked by any other piece on the board"; with
    one, they push Protesters or Journalists "in the direction of movement and only one square",
    "but not Police Officers". Returns the moves made and why it stopped (None: went the
    distance). Under the option's "once" reading, "only one square" is how far a piece is pushed
    by one card: a piece already pushed a square blocks the rest of the move."""
    at, piece = grid.occupant(board), "P%d" % c["protester"]
    moves: list[list[str]] = []
    rule = state["rules"]["protester_push"]
    pushed: set[str] = set()
    for _ in range(c["distance"]):
        ahead = grid.step(grid.where(board[piece]), c["way"])
        if not grid.on_board(ahead):
            return moves, "the edge of the board"
        if ahead in at and not c["push"]:
            return moves, "blocked by %s" % piece_words(state, at[ahead])
        line = grid.push_line(at, ahead, c["way"], rule == "line")
        if line is None:
            return moves, "blocked by %s" % piece_words(state, at[ahead])
        if rule == "once" and pushed.intersection(line):
            return moves, "blocked by %s, pushed a square already" % piece_words(state, at[ahead])
        moves += grid.shove(board, at, piece, c["way"], line)
        pushed.update(line)
    return moves, None


def _vans_holding_protesters(board: grid.Board) -> list[int]:
    """"If there is a Protester in a Player's corner (the camera van), that Player wins"."""
    at = grid.occupant(board)
    return [seat for seat in range(PLAYERS)
            if any(grid.is_protester(at.get(rc, "")) for rc in grid.van(seat))]


def _check(state: State, action: Action, rng: random.Random) -> list[Event]:
    winners = action.get("winners")
    if not isinstance(winners, list):
        raise GameError("\"winners\" lists the seats whose camera van holds a Protester ([] if none)")
    seats = [_seat(w) for w in winners]
    if len(set(seats)) != len(seats):
        raise GameError("a player is named twice among the winners")
    return [{"type": "checked", "round": state["round"], "winners": sorted(seats)}]


def _whose_turn(state: State, action: Action, what: str) -> int:
    p = _seat(action.get("player"))
    if p != state["journalist"]:
        raise GameError("%s can't %s: it is %s's Journalists' turn"
                        % (player_name(state, p), what, player_name(state, state["journalist"])))
    return p


def _spent(state: State, p: int, events: list[Event]) -> list[Event]:
    """One action spent: the turn passes on when it was the third."""
    if state["actions_left"] <= 1:
        events.append({"type": "journalist_done", "round": state["round"], "player": p})
    return events


def _move(state: State, action: Action, rng: random.Random) -> list[Event]:
    p = _whose_turn(state, action, "move a Journalist")
    colour = state["players"][p]["colour"]
    src, dst = grid.parse(action.get("from")), grid.parse(action.get("to"))
    if src is None or dst is None:
        raise GameError("a move goes \"from\" a square \"to\" a square, named a1 to l12, not %r to %r"
                        % (action.get("from"), action.get("to")))
    move = journalist_moves(state, p).get((grid.name(src), grid.name(dst)))
    if move is None:
        at = grid.occupant(state["board"])
        piece = at.get(src)
        if piece is None or not piece.startswith(colour):
            raise GameError("%s has no %s Journalist on %s" % (player_name(state, p), colour, grid.name(src)))
        raise GameError("%s's Journalist on %s can't go to %s: %s" % (
            player_name(state, p), grid.name(src), grid.name(dst), _why_not(state, p, src, dst)))
    event = dict(move, type="journalist_moved", round=state["round"], player=p,
                 actions_left=state["actions_left"] - 1)
    return _spent(state, p, [event])


def journalist_moves(state: State, p: int) -> dict[tuple[str, str], dict[str, Any]]:
    """Every legal Journalist move for seat ``p``: (from, to) -> {"how", "moves"}."""
    colour, board, rules = state["players"][p]["colour"], state["board"], state["rules"]
    at = grid.occupant(board)
    ways = grid.ORTHOGONAL if rules["journalist_step"] == "orthogonal" else DIRECTIONS
    found = {}
    pieces = sorted(piece for piece in board if piece.startswith(colour))
    jumps = _jump_squares(colour, at, together=rules.get("jump_majority") == "together")
    for piece in pieces:
        src = grid.where(board[piece])
        around = grid.NEIGHBOURS[src]
        for way in ways:                    # "one square in any one direction"
            dst = around.get(way)
            if dst is None:                 # off the board
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


def _jump_squares(colour: str, at: dict[grid.Square, str], together: bool = False
                  ) -> list[tuple[grid.Square, int, int]]:
    """Each free square with a Journalist of ``colour`` next to it: (square, how many of
    ``colour``'s are next to it, the most any other colour has next to it; with ``together``,
    all the other colours' next to it added up: option jump_majority)."""
    near: dict[tuple[int, int], dict[str, int]] = {}
    for rc, piece in at.items():
        if grid.is_police(piece) or grid.is_protester(piece):
            continue
        who = piece.rstrip("0123456789")
        for there in grid.NEIGHBOURS[rc].values():      # every direction
            if there not in at:
                counts = near.setdefault(there, {})
                counts[who] = counts.get(who, 0) + 1
    theirs = sum if together else (lambda ns: max(ns, default=0))
    return [(rc, counts.get(colour, 0), theirs([n for c, n in counts.items() if c != colour]))
            for rc, counts in sorted(near.items()) if counts.get(colour, 0) >= 2]


def _why_not(state: State, p: int, src: grid.Square, dst: grid.Square) -> str:
    at = grid.occupant(state["board"])
    if src == dst:
        return "it is already there"
    diagonal = abs(dst[0] - src[0]) == 1 and abs(dst[1] - src[1]) == 1
    if dst in at:
        what = at[dst]
        if grid.is_protester(what) and diagonal and state["rules"]["journalist_step"] == "orthogonal":
            return "Journalists step orthogonally in this game (option journalist_step): a diagonal push is " \
                   "no step"
        if grid.is_protester(what) and max(abs(dst[0] - src[0]), abs(dst[1] - src[1])) == 1:
            return "Protester %s can't be pushed that way (blocked, or off the board)" % what[1]
        return "%s is there" % piece_words(state, what)
    than = ("all the other colours' together" if state["rules"].get("jump_majority") == "together"
            else "any other colour's")
    if state["rules"]["journalist_step"] == "orthogonal" and abs(dst[0] - src[0]) + abs(dst[1] - src[1]) == 2 \
            and abs(dst[0] - src[0]) == 1:
        return "Journalists step orthogonally in this game (option journalist_step), and a jump there " \
               "needs at least 2 of your Journalists next to it, more than %s" % than
    return "a Journalist steps one square, or jumps to a square with at least 2 of its player's " \
           "Journalists next to it and more of them than %s" % than


def _draw(state: State, action: Action, rng: random.Random) -> list[Event]:
    p = _whose_turn(state, action, "draw")
    discard = action.get("discard", 0)
    discard = whole(discard) if discard is not None else 0
    hand = state["hands"][p]
    if discard is None or not 0 <= discard <= hand:
        raise GameError("%s holds %d card%s: discard 0 to %d of them"
                        % (player_name(state, p), hand, "" if hand == 1 else "s", hand))
    done = discarded(state)
    if hand >= HAND_LIMIT and done >= DISCARDS_PER_TURN:
        raise GameError("%s holds %d cards and has discarded %d this turn, no more than a turn may: "
                        "no card can be drawn" % (player_name(state, p), hand, done))
    if done + discard > DISCARDS_PER_TURN:
        raise GameError("%s has discarded %d card%s this turn: a turn discards no more than %d"
                        % (player_name(state, p), done, "" if done == 1 else "s", DISCARDS_PER_TURN))
    if hand - discard + 1 > HAND_LIMIT:
        raise GameError("%s holds %d cards and may hold no more than %d: discard one to draw"
                        % (player_name(state, p), hand, HAND_LIMIT))
    event = {"type": "drew", "round": state["round"], "player": p, "discard": discard,
             "hand": hand - discard + 1, "actions_left": state["actions_left"] - 1}
    return _spent(state, p, [event])


def discarded(state: State) -> int:
    """The cards the Journalist whose turn it is has discarded this turn: the rules let a turn
    change the hand "by (drawing and discarding no more than 3 cards)", and the three actions
    only bound the drawing (a discard is free)."""
    return sum(ev["discard"] for ev in state["turn_log"] if ev["type"] == "drew")


def can_draw(state: State, p: int) -> bool:
    """Whether ``p`` may draw now: under the hand limit, or with a discard left to make room."""
    return state["hands"][p] < HAND_LIMIT or discarded(state) < DISCARDS_PER_TURN


def _end_turn(state: State, action: Action, rng: random.Random) -> list[Event]:
    p = _whose_turn(state, action, "end a turn")
    return [{"type": "journalist_done", "round": state["round"], "player": p}]


def _police(state: State, action: Action, rng: random.Random) -> list[Event]:
    p = _seat(action.get("player"))
    if p != state["first"]:
        raise GameError("%s can't move the police: the First Player, %s, does"
                        % (player_name(state, p), player_name(state, state["first"])))
    step = (state["round"] - 1) % len(state["police_table"])
    ways = dict(state["police_table"][step])
    event = {"type": "police_moved", "round": state["round"], "step": step + 1, "moves": ways}
    if board_tracked(state):
        event["shoves"], event["blocked"] = _move_police(state, ways)
    return [event, {"type": "round_ended", "round": state["round"], "first": (p + 1) % PLAYERS}]


def _move_police(state: State, ways: dict[str, str]) -> tuple[list[list[str]], list[str]]:
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
            ahead = grid.step(grid.where(board[officer]), way)
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

def _shift(s: State, moves: list[list[str]]) -> None:
    for piece, _frm, to in moves:
        s["board"][piece] = to


def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        # a game stored before the box kept the board has no "rules": the table kept it
        rules = dict(DEFAULTS, **event.get("rules", {"board": "table"}))
        rules.pop("first"), rules.pop("police_table")
        colours = [p["colour"] for p in event["players"]]
        return {"started": True, "players": copied(event["players"]), "first": event["first"],
                "police_table": copied(event["police_table"]), "rules": rules, "round": 1,
                "phase": "protesters", "journalist": None, "done": [], "last_reveal": None,
                "last_police": None, "winners": [], "board": grid.starting_board(colours),
                "hands": [DEALT] * PLAYERS, "actions_left": 0, "turn_log": []}
    if not state.get("started"):
        return state
    s = copied(state)
    if kind == "revealed":
        s["last_reveal"] = event
        if "winners" in event:                      # the box keeps the board
            for c in event["plays"]:
                _shift(s, c["moves"])
                s["hands"][c["player"]] -= 1        # "Cards are then discarded next to the deck"
            for p in event.get("bluffed", ()):      # (a bluffer's card too; stored games have none)
                s["hands"][p] -= 1
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


# ---------------------------------------------------------------- helpers

def _seat(value: object) -> int:
    seat = whole(value)
    if seat is None or not 0 <= seat < PLAYERS:
        raise GameError("a player is a seat number 0-%d, not %r" % (PLAYERS - 1, value))
    return seat


def _rank(value: object) -> str | None:
    text = str(value).strip().upper() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    if text in ("1", "ACE"):
        text = "A"
    return text if text in RANKS else None


def _suit(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    for s in SUITS:
        if text in (s, s[0], s[:-1]):
            return s
    return None


def waiting_for(state: State) -> str:
    phase = state["phase"]
    if phase == "protesters":
        return "round %d, Protesters' turn: turn up the cards" % state["round"]
    if phase == "check":
        return "check the camera vans: does any corner hold a Protester?"
    if phase == "journalists":
        if board_tracked(state):
            left = state["actions_left"]
            return "%s's Journalists' turn: %d of %d actions left" % (
                player_name(state, state["journalist"]), left, ACTIONS_PER_TURN)
        return "%s's Journalists' turn (%d actions)" % (player_name(state, state["journalist"]), ACTIONS_PER_TURN)
    if phase == "police":
        return "%s moves the police" % player_name(state, state["first"])
    return "the game is over"


