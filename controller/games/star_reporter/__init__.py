"""Star Reporter (Parker Brothers, 1937): reporters travel a map of Urbania by automobile, train
and airplane, telephone in for assignments, and race to Disasters and the Catastrophe.

The board, the pins, the planes and the card piles stay on the table. The panel keeps what the
table has to remember and read off the dice: each player's method of travel and what the throw
allows for it (even totals for trains, doubles for planes, seven for telephoning), the chartered
plane and the airport it stands at, the telephone attempts, the Disasters turned up by double
sixes and the Catastrophe after them, the points of every card won, and the Star Reporter.

Seats are 0-based in the order given to setup; play passes to the left (the next seat). Dice:
an action may carry the two dice ("dice": [a, b], from the box's dice button); without them the
box rolls with the rng handed in, and the throw's event records the dice either way.

    {"type": "throw", "player": p}                      at the start: throw for who moves first
    {"type": "throw", "player": p, "method": M,         a turn: M is automobile, train, airplane
     "purpose": "news"|"plane", "at": airport}          or telephone (purpose: a new assignment
                                                        or the plane); "at": the airport the pin
                                                        stands at, for an airplane throw before
                                                        the plane is chartered
    {"type": "land", "player": p, "airport": A}         where the plane flew, or was called to
    {"type": "draw", "player": p, "city": C,            a new News assignment (back at Urbania,
     "points": n, "event": E, "grid": G}                or by telephone); all details optional
    {"type": "news", "player": p, "points": n}          reached the assignment's city ("same_city":
                                                        true after a Disaster won on this move, at
                                                        its city: the move ended there)
    {"type": "disaster", "player": p, "points": n,      reached a Disaster's city (card: its
     "card": k}                                         number, when more than one is open)
    {"type": "catastrophe", "player": p, "points": n}   reached the Catastrophe: the game ends
    {"type": "catastrophe", "player": p, "points": n,    ... at the city of the mover's News card
     "news": true, "news_points": n}                    too: both won on the one move (the News
                                                        card's points if not entered when drawn)
    {"type": "catastrophe", "player": p, "points": n,    ... at the city of open Disaster #k too:
     "disaster": k, "disaster_points": n}               both won on the one move
    ... "news": true, "disaster": k                     the News card's city and Disaster #k's too:
                                                        all three won on the one move
    ... "same_city": true                               a Disaster or the Catastrophe whose city
                                                        is the one a Disaster (or the News card)
                                                        won on this move names: both won on the
                                                        one move

News, Disaster and Catastrophe points may be entered only after the player's own move (a move
by car, by train on an even total, or a flight): the panel offers them then, until the next
player throws. One move ends in one city: a News card drawn at Urbania is reported after a later
move (not the one that drew it), a card is not drawn on the move that reported News at its city,
one Disaster's city (or the Catastrophe's) is reached a move ("must be reached by an exact
throw"): a second card is won on it only when the table says it names that same city
("same_city"; the first player reaching the scene wins each card), and a card whose points were
entered when drawn earns those points. A move that reaches the Catastrophe at the mover's News
city earns both, whichever the table taps: the News first and then the Catastrophe, or the
Catastrophe with "news" (the game ends on it, so News can't follow it). So does a move that
reaches the Catastrophe at an open Disaster's city: the Disaster first and then the Catastrophe
("same_city"), or the Catastrophe with "disaster" (the panel offers one such for each open
Disaster); either way the events are the Disaster's card, then the Catastrophe's "same_city".
A city that is the News card's, an open Disaster's and the Catastrophe's is offered with all
three in one tap ("news" and "disaster"): either pair alone ends the game without the third
card. In one action the cards after the first carry "same_city", as when tapped one by one.

Throw offers carry "needs" (what the dice must show for that method); offers that need a name or
points printed on a card carry "enter", the fields the panel must ask for, and "labels", each
field's words (the News card, Disaster #k, the Catastrophe card, and on an offer of more than one
card the cards it is with: "Points on Disaster #1, with the Catastrophe"), so that no two boxes
shown at once have one name. Each throw's event carries the facts the table looks for: total, doubles,
even, seven, double_sixes, and a "reading" in the rules' words.

Events: setup, order_thrown, order_decided, thrown, landed, drew, won_card, turn_passed, ended.

Options (declared in OPTIONS): "disasters", "airports" (the board's airports: a plane flies only
to these, matched without regard to case; the rules name only Baytown's, the default), "first".
A flight, and a plane telephoned for, go to another airport than the one the plane stands at:
the "land" offer's choices leave that one out. A game that knows one airport (the default) has
no flights: no airplane throw or telephone call for the plane is offered, either is refused
saying why, and the view's "no_flights" says it (None where planes fly).

Where the rules are silent, newsdesk's choices:
* the number of Disasters before the Catastrophe is an option, 1-9 (the pile holds 9; the rules'
  "usually 3 to 5"), default 4;
* a tie for the highest throw at the start is thrown again by the tied players; a seat may be
  named as "first" instead;
* double sixes after the Catastrophe is up turn up nothing and read as an ordinary throw;
* a second Disaster may be turned up while an earlier one is still unclaimed; both stay open;
* a tie for the most points shares the title of Star Reporter.
"""

from ..game import Game
from . import rules, view, words

# The declaration the registry finds (the entry point "star_reporter" in pyproject.toml).
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
            min_players=rules.MIN_PLAYERS,
            max_players=rules.MAX_PLAYERS,
            describe=words.describe,
            rings=view.rings,
            order=20)
