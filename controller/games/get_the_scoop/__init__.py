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
"l12" (bottom-right); see board.py.

    {"type": "reveal", "plays": [{"player": p, "protester": 1-4, "rank": "A"|2-9,
                                  "suit": "hearts"|"diamonds"|"clubs"|"spades"}, ...],
                       "order": {"2": [p, q]}}      Protesters' turn: the cards turned up
                                                    (a player who abstained is left out;
                                                    one who bluffed, a card put down with no
                                                    d4, is {"player": p, "bluff": true}: the
                                                    card is discarded, no one moves);
                                                    "order" (optional) is an order the players
                                                    agreed for a Protester, else one is drawn
    {"type": "move", "player": p, "from": "c1", "to": "d2"}
                                                    tracked: one action, a Journalist steps
                                                    (pushing a Protester) or jumps
    {"type": "draw", "player": p, "discard": 0-3}   tracked: one action, discard (free) and draw
                                                    (a turn discards at most 3 cards)
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
    "diagonally, clockwise"; the table after that is missing. [the given step, then each pair
    turning its corner diagonally, and on around the Protesters' four squares, turning another
    eighth clockwise every second round: back to the start after 16 rounds]
  * "sides": which suit labels each side of the board, {"top": ..., "right": ..., "bottom":
    ..., "left": ...}, a drop-down for each side on the start form (a list of the four, top
    first and clockwise, is taken too). The rules say the sides are labelled but not which is
    which. [hearts, diamonds, clubs, spades]
  * "journalist_step": a Journalist moves "one square in any one direction": "any" (diagonals
    too) or "orthogonal". [any]
  * "protester_push": a Protester moved by a 3, 6 or 9 pushes "only one square": "one" (it
    pushes one piece; a second piece behind it blocks), "once" (one piece, and by one square a
    card: once pushed, the piece blocks the rest of the move) or "line" (the whole line, as
    Police push). [one]
  * "jump_counts_mover": whether the Journalist jumping counts among the "at least 2 of the
    player's Journalists adjacent" to the square it jumps to. [false]
  * "jump_majority": a jump needs "more of that player's Journalists than any other players'
    Journalists adjacent": more than "each" other player has there, or more than the others
    have "together". [each]
  * "board": "tracked" or "table" (above). [tracked]
  * "adjacent", for a jump, is the eight squares around (diagonals too) whichever way
    Journalists step: the rules' "any one direction" is the only neighbourhood they describe;
  * players who don't choose a colour get the free ones in the order red, blue, green, white;
  * the Police move one at a time in number order; an officer blocked by another that hasn't
    moved yet waits and tries again once it has ("Other Police Officers will continue to move
    clockwise, until blocked");
  * the deck itself stays on the table: the box counts cards in hand (3 dealt, one played per
    Protester directed, at most 3) but not the cards left in the deck.
"""

from ..game import Game
from . import rules, view, words

# The declaration the registry finds (the entry point "get_the_scoop" in pyproject.toml).
GAME = Game(name=rules.NAME,
            title=rules.TITLE,
            setup=rules.setup,
            initial=rules.initial,
            decide=rules.decide,
            apply=rules.apply,
            offers=view.offers,
            view=view.view,
            result=rules.result,
            variants=rules.VARIANTS,
            options=rules.OPTIONS,
            panel=view.PANEL,
            colours=rules.COLOURS,
            players=rules.PLAYERS,
            describe=words.describe,
            order=50)
