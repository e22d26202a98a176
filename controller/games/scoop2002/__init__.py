"""Scoop! (Invisible City Productions, 2002): research stories at ten Locations, pitch them to
the Action City Times, sell three to win.

The board (grid, subways, coins) stays on the table; the panel keeps what pencil and paper kept:
the marks at each Location, every Steno Pad, the stories sold, and whose turn it is and which
part of it. Rolls come from the stopwatch's hundredths digit (0-9); an action without a value
lets the box roll. newsdesk numbers the Locations 1-10 and marks a 0 at the tenth (its reading:
the rules name a "Location #1" and a "next-highest number", and mark "the Location that matches
the number you rolled", but print no board). Against a pitch's sum (and N. Ickel's Location)
and for odd/even, the "zero" option decides: "as_read" (the default, the rules' words: the
digit as read, "That's the number you've 'rolled'", so a 0 is the lowest roll, and N. Ickel at
#9 sells on any roll) or "ten" (newsdesk's option, as a ten-sided die's 0 face reads: a 0 at #9 then
misses, and he moves on to #10, where every roll sells). Games stored before the option existed
counted a 0 as 10 and still do.

Every action names its player by seat (0-based, in the order given to setup; play passes left).

    {"type": "move",   "player": p}                 Part 1: move (then roll)
    {"type": "stay",   "player": p}                 Part 1: stay on the scene (+1 Steno mark)
    {"type": "pitch",  "player": p, "story": n}     Part 1: pitch story n, 1-10 (then roll)
    {"type": "roll",   "player": p, "value": 0-9}   the roll the turn is waiting for: a beat at
                                                    setup, the move, the pitch or Part 2's mark;
                                                    leave out "value" and the box rolls
    {"type": "arrive", "player": p, "place": P}     where the coin stopped after moving:
                                                    a Location 1-10, "times" or "street"

Events: setup, beat_rolled, chose, move_rolled, arrived, stayed, pitch_rolled, marked,
ickel_pitched, turn_passed, won. In The Lonely City the box plays N. Ickel (the last seat):
the roll that ends your turn also returns his whole turn, rolls included.

Options (declared in OPTIONS): "variants" (list), "locations" (the board's ten names, #1 first),
"street_chart" (roll -> the chart's words), "ickel_start" (a Location's number or name), "resell"
(bool), "zero" ("ten" or "as_read"), "ickel_rolls" ("box", or "table": the player enters N.
Ickel's rolls, or presses the stopwatch, for a roll offered on his seat).

Where the rules are silent, these are newsdesk's choices, not the original's:
  * a roll of 0 can count as 10 against a sum when "zero" is "ten", and marks the tenth
    Location (see above);
  * the default Location names are placeholders (the rules print none; only Downtown is named,
    and putting it at #1 is a guess), and the default On the Street entries only say to read
    the board's chart: give "locations" and "street_chart" from your board;
  * every coin starts "on the street" (the red-bordered squares are not Locations);
  * the Action City Times, though a named space ("Spaces with names on them are Locations"),
    has no story: a stay there ("add a mark to your Steno Pad for that story") is refused, and
    only the ten numbered Locations are researched, marked and pitched;
  * the On the Street chart's words are shown, and the table carries them out: the engine
    only knows where the coin stopped;
  * "resell" (default true): after a sale a Location's marks start again, and a new story
    there can be researched and sold again, counting as another sale; set it false to let
    each player sell each Location's story once;
  * the seller's own Steno Pad marks for a story sold go with it (the rules have the seller
    circle the story and the others cross out theirs; newsdesk spends the circled marks, so a
    story sold again is researched again);
  * with "ickel_rolls" "table", N. Ickel's seat takes only his two rolls ("all he ever does
    is try to sell a story");
  * N. Ickel's sale doesn't clear the Location's marks or anyone's Steno Pad (the rules only
    say "mark off a story on his Steno Pad"), he has no beat in That's My Beat, and you take
    the first turn.
"""

from ..game import Game
from . import rules, view, words

# The declaration the registry finds (the entry point "scoop2002" in pyproject.toml).
GAME = Game(name=rules.NAME,
            title=rules.TITLE,
            setup=rules.setup,
            initial=rules.initial,
            decide=rules.decide,
            apply=rules.apply,
            offers=rules.offers,
            view=view.view,
            result=rules.result,
            variants=rules.VARIANTS,
            options=rules.OPTIONS,
            panel=view.PANEL,
            min_players=rules.MIN_PLAYERS,
            max_players=rules.MAX_PLAYERS,
            describe=words.describe,
            order=30)
