"""The table's vocabulary: every kind of message on the bus, spelled once.

Each message is {"type": one of these, "data": {...}}, published on the bus (controller/bus.py);
the stored ones also carry the store's "id" and go to every page's live feed, the MQTT bridge and
the display. A module that publishes or reads one names it from here, so a reader finds every
producer and consumer of "editor.verdict" by looking for ``events.VERDICT``.

``STORED`` ones are kept in the store's events table (decided, stored, then published; a page
that reconnects is replayed them); ``LIVE`` ones are published as they happen and not kept.
"""

# -- the oracles ------------------------------------------------------------------------------
VERDICT = "editor.verdict"          # the editor's verdict on a dialed number: signal, words, claim
DICE_ROLL = "dice.roll"             # a roll of the dice: faces, total, source (button/panel/sim)
DICE_SET = "dice.set"               # the dice's count and sides changed
STOPWATCH_ROLL = "stopwatch.roll"   # the stopwatch stopped: hundredths digit, elapsed, source
STOPWATCH_STARTED = "stopwatch.started"   # (live)
STOPWATCH_RESET = "stopwatch.reset"       # (live)
STOPWATCH_SET = "stopwatch.set"     # the stopwatch's mode changed
ORACLE_FAULT = "oracle.fault"       # (live) a roll decided but not stored: it doesn't count

# -- the games --------------------------------------------------------------------------------
GAME_STARTED = "game.started"
GAME_CHANGED = "game.changed"       # a move, an undo or a redo: the game's new version
GAME_FINISHED = "game.finished"
GAME_ABANDONED = "game.abandoned"
GAME_ENDED = {"finished": GAME_FINISHED, "abandoned": GAME_ABANDONED}   # by the game's end status
GAME_REFUSED = "game.refused"       # (live) a verdict the game in play could not take, and why

# -- the phone (published as they happen; not stored) -----------------------------------------
PHONE_HOOK = "phone.hook"           # the handset lifted ("off") or put down ("on")
PHONE_DIGIT = "phone.digit"         # a digit dialed ("taken": held for a join, not a call)
PHONE_FAULT = "phone.fault"         # a contact fault on the dial, or its clearing
PHONE_LINK = "phone.link"           # the phone in a box (the Pico's link) connected or not
PHONE_SOUND = "phone.sound"         # what the handset plays: receiver, ringing, verdict
PHONE_ANSWERED = "phone.answered"   # a ringing phone was picked up

STORED = frozenset((VERDICT, DICE_ROLL, DICE_SET, STOPWATCH_ROLL, STOPWATCH_SET, GAME_STARTED, GAME_CHANGED,
                    GAME_FINISHED, GAME_ABANDONED))
LIVE = frozenset((STOPWATCH_STARTED, STOPWATCH_RESET, ORACLE_FAULT, GAME_REFUSED, PHONE_HOOK, PHONE_DIGIT,
                  PHONE_FAULT, PHONE_LINK, PHONE_SOUND, PHONE_ANSWERED))
ALL = STORED | LIVE
