"""SCAN (Parker Brothers, 1988): the WE/THEY scoresheet of a trick-taking game with suit values.

The cards are played at the table; the panel takes each hand as the cards every side took per
suit, checks them against the deck, scores them by cancel-out and keeps the race to 155 (or, in
a time-limit game, the scores until time is up).

A time-limit game: the engine reads no clock. Setup is given the countdown's end ("ends_at",
an ISO 8601 time with its UTC offset, worked out by the panel when the game starts) and/or its
length ("time_limit", minutes); the panel shows the countdown, and when it runs out the table
(or the panel) sends "time_up", with the table's clock when it was pressed ("at"). Pressed
before the countdown's end, the game is ended early: the highest score still wins, and the
words say the game was ended before its time ran out, not that time ran out (the panel asks
first). The view says so under "countdown".

Sides: two teams (Team SCAN), three teams (Triple SCAN) or each player alone (SCAN Without
Partners); No Trump SCAN plays individually, or in three teams with 6 players. A side is named
by its players' shared "team", else by its players.

    {"type": "hand", "taken": {side: {"spades": n, "hearts": n, "diamonds": n, "clubs": n}}}
        every side's cards from the hand just played (a missing suit is 0)
    {"type": "time_up", "at": time}   the countdown ran out, or the table ends the game before
        it does (time-limit games only; "at", ISO 8601 with its UTC offset, is optional: without
        it, or without a countdown's end to compare it with, time ran out)

Events: setup, hand_scored, time_up, won.

Options: "variant" (team, triple, individual, no_trump), "dealer" (seat), "time_limit"
(minutes), "ends_at" (the countdown's end), "target_tie" ("highest" or "all"), "plus_scores"
("each" or "best"), "whole_tricks" (a boolean, on by default), "no_trump_last" ("either",
"ended" or "played"; No Trump SCAN's only). The players are listed in their seats around the
table (the deal passes to the next): in Team SCAN, teams given must put partners opposite
("Sit opposite your partner"), two apart in the list.

A hand is checked against the deck (13 of each suit, the variant's 52, 51, 50, 48 or 45
cards) and, with "whole_tricks" on (the default), against the tricks: "Every player must follow
suit", so a trick is one card from each player and goes whole to the side that took it, and a
side's cards are a multiple of the number of players. A table that counts differently (a
misdeal played out, a card dropped) can switch the check off: that is a house rule, not the
original's.

Where the rules are silent, these are newsdesk's choices, not the original's:
  * with no teams given, partners are the players opposite each other in the order given
    (Team SCAN says "Sit opposite your partner"; Triple SCAN and 6-player No Trump don't say);
  * Triple SCAN's text says only "Deal 5 cards to each player.", so by default all 52 cards
    are played out; "put_aside" (an option, off by default) applies Without Partners' rule
    there too: the stock cards that can't go round are put aside, and 48 are taken;
  * No Trump SCAN "ends when the stock pile has been exhausted": whether the cards each
    player still holds are played out isn't said; "no_trump_last" decides: "either" (the
    default: a hand is accepted either way), "ended" (not played) or "played" (played out);
    nor is when the stock cards that can't go round are put aside: at the last draw that goes
    round (each player holds two) or at the next, a trick later, when the players come to draw
    them (each holds one): a hand not played out is taken either way;
  * No Trump SCAN with 4 players may be played in two teams when teams are given;
  * when two or more sides reach 155 in the same hand, "target_tie" decides: "highest"
    (the default: the highest total wins, equal totals share) or "all" (all of them win);
  * "The team with a + score scores that amount; the other team scores nothing" is said of two
    teams taking all 52 cards, whose values cancel to 0: only one can be +. With cards out of
    play (No Trump SCAN's stock put aside, its last cards not played out) or three or more
    sides, more than one side can come out +: "plus_scores" decides: "each" (the default:
    every side with a + score scores it) or "best" (only the best + score scores; equal bests
    each score);
  * a time-limit game ends when time is up with the scores entered by then (the rules' "the
    highest score at the end of that time"; a hand not entered doesn't count), and sides
    tied on the highest score share the win; a game the table ends before its time runs out
    is won the same way, on the scores entered by then.
"""

from ..game import Game
from . import rules, view, words

# The declaration the registry finds (the entry point "scan" in pyproject.toml).
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
            players=rules.PLAYERS,
            describe=words.describe,
            order=40)
