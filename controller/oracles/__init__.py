"""The games' random oracles: the SCOOP editor on the phone, the dice button and the stopwatch.

Everything in this package is pure: events and times go in, results come out, and randomness is
handed in (``secrets.SystemRandom()`` in the running box, a seeded ``random.Random`` in tests).
Where the games' rules are silent (the editor's odds, the dice a long press cycles through),
the defaults are newsdesk's choice, never the original's, and every one can be set.
"""

# The oracles by name: the history API's paths, and what a game's panel facts say it "listens" to.
NAMES = ("editor", "dice", "stopwatch")
