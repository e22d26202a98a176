"""SCOOP (Parker Brothers, 1956): edit a newspaper page with stories the editor on the dial
telephone passes, and go to press with the best and financially strongest paper.

The SCOOP cards, the hands and the reserves stay on the table: a reserve play says how many cards
go on which space, never what they are, so "Each set of cards held in reserve must pertain to a
particular type of story or advertisement" is the table's to keep. The panel keeps the money (every
dollar moves through ledger transfers), what each newspaper page holds and the value printed on
each story, whose turn it is and what the turn waits for: the editor's verdict, the story the
player takes, a Star Story's sale or a bankrupt player's sales.

Accounts: "bank" and "p<seat>" for each player ("p0", "p1", ...). Seats are 0-based in the order
given to setup; play and every offer to buy pass to the left (the next seat).

    {"type": "claim", "player": p, "story_type": T,     call "Story" for a story of type T (or
     "cards_from_hand": 1-3, "scooped_from": q,          "star"). cards_from_hand: how many of
     "space": 1|2}                                       the story's three cards come from the
                                                         hand (default 3); the rest come from
                                                         one reserve space, p's own or, with a
                                                         SCOOP card, q's (then 1 or 2 from the
                                                         hand, none by default: say it). The
                                                         SCOOP card is not one of the three:
                                                         the refill (paid for after a refusal
                                                         or a block) is the hand's cards plus
                                                         the SCOOP card. space: which reserve
                                                         space, when both hold enough
    {"type": "verdict", "signal": S, "digit": d}        the editor's signal for the pending
                                                         claim (S a key of editor.SIGNALS)
    {"type": "lines_down", "player": q}                  q blocks the pending call
    {"type": "place", "player": p, "value": v,          the story taken after a favourable
     "slot": T}                                          verdict: its printed value; slot is
                                                         the claimed type, or "three_star"
                                                         after THREE STARS
    {"type": "go_to_press", "player": p}                 after PRESS, instead of the story
    {"type": "advertise", "player": p, "ad_type": A,    three cards for an advertisement:
     "value": v, "cards_from_hand": 1-3,                 no call, a free refill; the ad's printed
     "scooped_from": q, "space": 1|2}                    value; its cards as a claim's
    {"type": "reserve", "player": p, "cards": 1|2,      cards to reserve space 1 or 2 (default:
     "space": 1|2}                                       the first with room), bought back: "two
                                                         cards on each of his two reserve
                                                         spaces"; a story or an ad made with
                                                         them takes them off again
    {"type": "exchange", "player": p}                    one card swapped with the pile, free
    {"type": "buy", "player": q} / {"type": "pass", "player": q}
                                                         the player asked about a story for sale
    {"type": "sell", "player": p, "story": id}           a bankrupt player offers a story
    {"type": "drop_out", "player": p}                    a bankrupt player nobody would buy from

Offers that need something printed on a card carry "enter": the fields the panel must ask for.
While any reserve on the table holds cards, each claim and advertisement offer carries "choices":
the ways the page can make its three cards (rules.ways_of), each the fields to add to the action
({"cards_from_hand": 3} first, then p's own reserve spaces, then SCOOPs from the left).

Events: setup, transfer, claimed, verdict, blocked, placed, reserved, exchanged, offered, bought,
passed, unsold, bankrupt, settled, dropped_out, turn_passed, went_to_press, counted.

Where the rules are silent, newsdesk's choices (options where sensible):
* page: the rules name the Three Star space and the two Star Story spaces, a "sport story" and
  advertisements, and say a page holds "two stories of any one type"; the other types are
  newsdesk's guess (DEFAULT_STORIES, DEFAULT_ADS). Set "page" to your layouts.
* short_of_cash: a player who can't pay all of an EXTRA or SYND pays what they hold
  ("pays_what_they_hold", the default: the rules' bankruptcy is about buying cards) or goes
  through the bankruptcy path ("bankruptcy").
* A story's or an ad's reserve cards come from one reserve space (the rules speak of "one or
  more cards on another player's reserve space"); a reserve play of two cards goes on one space,
  or one on each ("space": "both").
* A claim stored before the reserve spaces were told apart is folded as it was then: three
  cards less those from the hand came off the reserve, the spaces in order.
* Voluntary purchases (reserve plays, calling Lines Down) need the cash in hand; forced ones (the
  refill after a refused or blocked story) send a player who can't pay into bankruptcy.
* A bankrupt player drops out only when every story they hold has been offered round the table
  and refused; what cash they still hold goes to whoever they owed (the rules say only that his
  cards go to the bottom of their piles).
* A Three Star story may be sold in a bankruptcy sale like any story (the rules' "sell ... one
  or more of the stories"), though Three Star stories are otherwise "obtained only as a result
  of [the editor's] decision over the telephone".
* Substitution of copy applies to advertisements too; on equal values the story already in
  place stays. A third Three Star story keeps the two most valuable.
* While the second Three Star story fills the Star Story spaces, no Star story can be claimed
  or bought, and a bought Three Star story that would need to displace Star stories can't be.
* An unsold Star story counts at half its printed value, rounded down to the dollar.
* When only one paper is left in the game, the game ends: "last_paper" says whether it goes to
  press with the bonus ("bonus", the default) or without ("no_bonus": the rules' two ways of
  ending are neither); a last paper whose page is full goes to press as a full page, bonus and all.
* A tie for the highest total shares the win.
"""

from ..game import Game
from . import rules, view, words

# The declaration the registry finds (the entry point "scoop1956" in pyproject.toml).
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
            headline=view.headline,
            order=10)
