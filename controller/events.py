"""The table's vocabulary: every kind of message on the bus and the live feed, spelled once.

Each message is {"type": one of these, "data": {...}}, published on the bus (controller/bus.py);
the stored ones also carry the store's "id" and "at" and go to every page's live feed, the MQTT
bridge and the display. A module that publishes or reads one names it from here, so a reader
finds every producer and consumer of "editor.verdict" by looking for ``events.VERDICT``.

``STORED`` ones are kept in the store's events table (decided, stored, then published; a page
that reconnects is replayed them); ``LIVE`` ones are published as they happen and not kept;
``FEED`` ones are the live feed's own, sent by /stream to one page and never on the bus. ``SAID``
says what each one means: the OpenAPI document's StreamMessage is read off it.
"""

# -- the oracles ------------------------------------------------------------------------------
VERDICT = "editor.verdict"
DICE_ROLL = "dice.roll"
DICE_SET = "dice.set"
STOPWATCH_ROLL = "stopwatch.roll"
STOPWATCH_STARTED = "stopwatch.started"
STOPWATCH_RESET = "stopwatch.reset"
STOPWATCH_SET = "stopwatch.set"
ORACLE_FAULT = "oracle.fault"

# -- the games --------------------------------------------------------------------------------
GAME_STARTED = "game.started"
GAME_CHANGED = "game.changed"
GAME_FINISHED = "game.finished"
GAME_ABANDONED = "game.abandoned"
GAME_ENDED = {"finished": GAME_FINISHED, "abandoned": GAME_ABANDONED}   # by the game's end status
GAME_REFUSED = "game.refused"

# -- the phone (published as they happen; not stored) -----------------------------------------
PHONE_HOOK = "phone.hook"
PHONE_DIGIT = "phone.digit"
PHONE_FAULT = "phone.fault"
PHONE_LINK = "phone.link"
PHONE_SOUND = "phone.sound"
PHONE_ANSWERED = "phone.answered"

# -- the live feed's own ----------------------------------------------------------------------
RESYNC = "resync"

SAID = {
    VERDICT: "The editor's verdict on a dialed number: the signal, its words, the claim it decides.",
    DICE_ROLL: "A roll of the dice: the faces, the total and where it came from (button, panel, simulated).",
    DICE_SET: "The dice's count and sides changed.",
    STOPWATCH_ROLL: "The stopwatch stopped (or the d10 rolled): the hundredths digit, the time shown, the source.",
    STOPWATCH_STARTED: "The stopwatch started running.",
    STOPWATCH_RESET: "The stopwatch was stopped without a roll.",
    STOPWATCH_SET: "The stopwatch button's mode changed (stopwatch or d10).",
    ORACLE_FAULT: "A roll was decided but could not be stored, so it doesn't count: try again.",
    GAME_STARTED: "A game was set up; data has the game's view and offers after it.",
    GAME_CHANGED: "A move, an undo or a redo: the game's new version, the moves in force, its view and offers.",
    GAME_FINISHED: "The game was kept as finished, with its final table.",
    GAME_ABANDONED: "The game was stopped without a winner.",
    GAME_REFUSED: "A verdict the game in play could not take, and why (it was shown, not applied).",
    PHONE_HOOK: "The handset was lifted (\"off\") or put down (\"on\").",
    PHONE_DIGIT: "A digit was dialed (\"taken\": held for a join code, not a call).",
    PHONE_FAULT: "A contact fault on the dial, or (an empty message) its clearing.",
    PHONE_LINK: "The phone in a box (the Pico on USB) connected or went away.",
    PHONE_SOUND: "What the handset plays now: dial tone, ringback, the verdict, busy; the bell.",
    PHONE_ANSWERED: "A ringing phone was picked up.",
    RESYNC: "This page missed events it can't be sent one by one: read the state again.",
}

STORED = frozenset((VERDICT, DICE_ROLL, DICE_SET, STOPWATCH_ROLL, STOPWATCH_SET, GAME_STARTED, GAME_CHANGED,
                    GAME_FINISHED, GAME_ABANDONED))
LIVE = frozenset((STOPWATCH_STARTED, STOPWATCH_RESET, ORACLE_FAULT, GAME_REFUSED, PHONE_HOOK, PHONE_DIGIT,
                  PHONE_FAULT, PHONE_LINK, PHONE_SOUND, PHONE_ANSWERED))
FEED = frozenset((RESYNC,))
ALL = STORED | LIVE | FEED
