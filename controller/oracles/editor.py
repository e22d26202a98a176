"""The SCOOP (1956) editor on the telephone: a dialed digit in, one of eight signals out.

The 1956 rules name the signals and what each means, but not the toy's mechanism or its odds.
newsdesk offers two modes, both configurable; their defaults are newsdesk's choice, NOT the
original's:

* mechanical: a hidden signal disc of windows, advanced by the dialed digit's pulses, so (like a
  toy) the verdict depends on the digit and on everything dialed before. The disc's position is
  part of every verdict, so the state is derived from the stored verdicts.
* fair: each call draws a signal with a configurable weight per signal, from a random source
  handed in (cryptographically strong in the running product).

Pure: no clock, no I/O; randomness is passed in.
"""

from ..dial.dialmaps import pulses_for

# code -> (the signal's words in the phone's window, the editor's message as the rules print it,
#          what the rules say to do, whether the story is placed)
SIGNALS = {
    "THREE STARS": ("Congratulations — Your Story Given Three Star Status.",
                    "Take a Three Star Story Card or the story dialed for.", True),
    "EXTRA": ("Your Story Excellent — Warrants Special Edition — Receive $200 from Each Player.",
              "Take your story and in addition collect $200 from each player.", True),
    "PRESS": ("At Your Discretion You Can Instruct Every Paper To Go To Press And Count Up.",
              "Either take your story or go to press, thus ending the game.", True),
    "SYND": ("Story Syndicated — Receive Bonus of $500 From Each Newspaper.",
             "Take your story and in addition collect $500 from each player.", True),
    "OK": ("Your Story Has Been Passed For Publication.", "Take your story.", True),
    "SCRAP IT": ("Editor Does Not Like Your Story And Has Not Passed It For Publication.",
                 "Do not take a story.", False),
    "X": ("Story Libelous — Cannot Use It.", "Do not take a story.", False),
    "!!!": ("No Good — Editor Wants To See You.", "Do not take a story.", False),
}

# newsdesk's default disc: 16 windows, 11 favourable (5 OK, 2 THREE STARS, 2 EXTRA, SYND, PRESS)
# and 5 refusals (2 SCRAP IT, 2 X, !!!). A guess, documented as one.
DEFAULT_DISC = ("OK", "SCRAP IT", "THREE STARS", "OK", "X", "EXTRA", "OK", "!!!",
                "SYND", "OK", "SCRAP IT", "THREE STARS", "OK", "X", "PRESS", "EXTRA")


def default_weights():
    """Fair mode's default: the same shares as the default disc."""
    weights = {code: 0 for code in SIGNALS}
    for code in DEFAULT_DISC:
        weights[code] += 1
    return weights


class Verdict:
    """One call's outcome: the signal, the rules' words for it and the disc position after it."""

    __slots__ = ("digit", "signal", "position", "mode")

    def __init__(self, digit, signal, position, mode):
        self.digit = digit
        self.signal = signal
        self.position = position
        self.mode = mode

    @property
    def message(self):
        return SIGNALS[self.signal][0]

    @property
    def instruction(self):
        return SIGNALS[self.signal][1]

    @property
    def story_passed(self):
        return SIGNALS[self.signal][2]

    def as_dict(self):
        return {"digit": self.digit, "signal": self.signal, "message": self.message,
                "instruction": self.instruction, "story_passed": self.story_passed,
                "position": self.position, "mode": self.mode}


class Editor:
    """Gives a verdict for a dialed digit, given the disc position the previous call left."""

    def __init__(self, mode="mechanical", disc=DEFAULT_DISC, weights=None, dial_map="standard"):
        if mode not in ("mechanical", "fair"):
            raise ValueError("editor mode must be 'mechanical' or 'fair', got %r" % (mode,))
        disc = tuple(disc)
        unknown = [s for s in disc if s not in SIGNALS]
        if not disc or unknown:
            raise ValueError("the editor's disc needs windows from %s; bad: %r" % (", ".join(SIGNALS), unknown))
        weights = dict(default_weights() if weights is None else weights)
        bad = [k for k, w in weights.items()
               if k not in SIGNALS or not isinstance(w, (int, float)) or isinstance(w, bool) or w < 0]
        if bad or sum(weights.values()) <= 0:
            raise ValueError("fair-mode weights must be non-negative numbers per signal with a positive "
                             "total; bad: %r" % (bad,))
        self.mode = mode
        self.disc = disc
        self.weights = weights
        self.dial_map = dial_map

    def call(self, digit, position, rng):
        """The verdict for ``digit``; ``position`` is the disc's position before (None: not yet known,
        the disc starts somewhere at random, as a toy would); ``rng`` is a random.Random-like source."""
        if position is None:
            position = rng.randrange(len(self.disc))
        steps = pulses_for(digit, self.dial_map)
        new_position = (position + steps) % len(self.disc)
        if self.mode == "mechanical":
            signal = self.disc[new_position]
        else:
            codes = [c for c in SIGNALS if self.weights.get(c, 0) > 0]
            signal = rng.choices(codes, weights=[self.weights[c] for c in codes])[0]
        return Verdict(digit, signal, new_position, self.mode)
