"""Get the Scoop!'s 12x12 board: where the rules' setup puts every piece, and how pieces move
and push. Pure geometry, kept apart from the round-and-turn rules in rules.py so each
file holds one thing.

Squares are named like a chess board seen from the red corner: columns a-l left to right,
rows 1-12 top to bottom ("a1" is the top-left corner). Inside, a square is (row, column), 0-11.

Pieces are named "P1"-"P4" (Protesters), "O1"-"O8" (Police Officers) and "<colour>1"-"<colour>5"
(Journalists). A board is a dict piece -> square name.
"""

Square = tuple[int, int]          # (row, column), 0-11
Board = dict[str, str]           # piece -> square name

SIZE = 12
COLUMNS = "abcdefghijkl"

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
         "up-left": (-1, -1), "up-right": (-1, 1), "down-left": (1, -1), "down-right": (1, 1)}
ORTHOGONAL = ("up", "down", "left", "right")

# The corners, one per seat, clockwise from the top-left (seat 0). Each corner's 2x2 block is
# that player's camera van ("Place 5 Journalists ... in each of the corners, surrounding a 2x2
# block on two sides").
CORNERS = ((0, 0), (0, 1), (1, 1), (1, 0))      # (0 = top / left, 1 = bottom / right)

# "Place 4 Protesters (P1-P4) in the center 2x2 block": P1 P2 over P4 P3, as the rules draw it.
PROTESTER_START = {"P1": (5, 5), "P2": (5, 6), "P3": (6, 6), "P4": (6, 5)}

# "Place 8 Police Officers, each 2 spaces orthogonal from each of the Protesters." The rules'
# drawing of the numbers is lost in the text; they are numbered clockwise from the top-left one,
# the only numbering under which the first police step ("1 & 2 move 1 square Right, 5 & 6 ...
# Left, 3 & 4 ... Down, 7 & 8 ... Up") walks them clockwise round the Protesters.
OFFICER_START = {"O1": (3, 5), "O2": (3, 6), "O3": (5, 8), "O4": (6, 8),
                 "O5": (8, 6), "O6": (8, 5), "O7": (6, 3), "O8": (5, 3)}


def _spelled(rc: Square) -> str:
    return "%s%d" % (COLUMNS[rc[1]], rc[0] + 1)


# Every square's name and back, made once: the offers look up every piece's square and every
# square round it on each move (a Pi's few hundred microseconds a move)
NAMES: dict[Square, str] = {(r, c): _spelled((r, c)) for r in range(SIZE) for c in range(SIZE)}
SQUARES: dict[str, Square] = {text: rc for rc, text in NAMES.items()}


def name(rc: Square) -> str:
    try:
        return NAMES[rc]
    except (KeyError, TypeError):       # off the board, or a list
        return _spelled(rc)


def parse(square: object) -> Square | None:
    """A square's name ("c3", "C3") as (row, column), or None."""
    if not isinstance(square, str):
        return None
    if square in SQUARES:
        return SQUARES[square]
    text = square.strip().lower()
    digits = text[1:]       # at most 3 (a row is 1-12): int() refuses past 4,300 with a ValueError
    if len(text) < 2 or text[0] not in COLUMNS or not digits.isascii() or not digits.isdigit() or len(digits) > 3:
        return None
    row = int(digits) - 1
    return (row, COLUMNS.index(text[0])) if 0 <= row < SIZE else None


def where(square: str) -> Square:
    """(row, column) of a square the board itself wrote (a piece's square): one it can parse."""
    rc = parse(square)
    if rc is None:
        raise ValueError("%r is not a square of the board" % square)
    return rc


def on_board(rc: Square) -> bool:
    return 0 <= rc[0] < SIZE and 0 <= rc[1] < SIZE


def van(seat: int) -> list[Square]:
    """The four squares of the camera van in ``seat``'s corner."""
    down, right = CORNERS[seat]
    rows = (10, 11) if down else (0, 1)
    cols = (10, 11) if right else (0, 1)
    return [(r, c) for r in rows for c in cols]


def journalist_start(seat: int) -> list[Square]:
    """The five squares round the van, on its two sides that face the board."""
    down, right = CORNERS[seat]
    edge_r, edge_c = (9 if down else 2), (9 if right else 2)
    rows = (10, 11) if down else (0, 1)
    cols = (10, 11) if right else (0, 1)
    squares = [(r, edge_c) for r in rows] + [(edge_r, c) for c in cols] + [(edge_r, edge_c)]
    return sorted(squares)


def starting_board(colours: list[str]) -> Board:
    board = {p: name(rc) for p, rc in PROTESTER_START.items()}
    board.update({o: name(rc) for o, rc in OFFICER_START.items()})
    for seat, colour in enumerate(colours):
        for k, rc in enumerate(journalist_start(seat)):
            board["%s%d" % (colour, k + 1)] = name(rc)
    return board


def occupant(board: Board) -> dict[Square, str]:
    """square (row, column) -> piece."""
    return {where(sq): piece for piece, sq in board.items()}


def is_police(piece: str) -> bool:
    return piece.startswith("O")


def is_protester(piece: str) -> bool:
    return piece.startswith("P")


def step(rc: Square, way: str) -> Square:
    dr, dc = STEPS[way]
    return (rc[0] + dr, rc[1] + dc)


# Each square's neighbours on the board, by the way to them (made once, as NAMES)
NEIGHBOURS: dict[Square, dict[str, Square]] = {
    rc: {way: step(rc, way) for way in STEPS if on_board(step(rc, way))} for rc in NAMES}


def push_line(at: dict[Square, str], rc: Square, way: str, chain: bool,
              pushes_police: bool = False) -> list[str] | None:
    """The pieces pushed when something enters ``rc`` going ``way``: [] if ``rc`` is free, the
    line of pieces in the way (nearest first) if they can all move one square, or None if it is
    blocked (the edge, a Police Officer, or, unless ``chain``, a second piece behind the first)."""
    line, here = [], rc
    while here in at:
        piece = at[here]
        if is_police(piece) and not pushes_police:
            return None
        line.append(piece)
        here = step(here, way)
        if not on_board(here):
            return None                   # "No pieces may be pushed off the board"
        if here in at and not chain:
            return None
    return line


def shove(board: Board, at: dict[Square, str], mover: str, way: str, line: list[str]) -> list[list[str]]:
    """Move ``mover`` and the pushed ``line`` one square ``way``; the [piece, from, to] moves."""
    moves = []
    for piece in reversed(line):
        src = where(board[piece])
        moves.append([piece, board[piece], name(step(src, way))])
    src = where(board[mover])
    moves.append([mover, board[mover], name(step(src, way))])
    for _piece, frm, _to in moves:
        del at[where(frm)]
    for piece, _frm, to in moves:
        board[piece] = to
        at[where(to)] = piece
    return moves
