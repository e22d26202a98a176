"""The SCOOP (1956) editor on the telephone: a dialed digit in, one of eight signals out.

The 1956 rules name the signals and what each means, but not the toy's mechanism or its odds.
newsdesk offers two modes, both configurable; their defaults are newsdesk's choice, NOT the
original's:

* mechanical: a hidden signal disc of windows, turned by the dialed digit's pulses. Between calls
  the disc is given a secret random spin (as a toy's disc slips when the handset is hung up), so
  nobody at the table can steer it: the order of its windows and its position are never
  published, stored or logged, and each call shows window k with chance (windows showing k) /
  (all windows). Only the disc's shares (windows per signal) are shown, as the odds.
* fair: each call draws a signal with a configurable weight per signal, from a random source
  handed in (cryptographically strong in the running product).

Every verdict carries the rules' full text for its signal (RULES_TEXT), what the game must
apply (EFFECTS, e.g. {"collect_from_each": 200}) and the odds it was drawn with, so the panel's
"is the editor fair?" table groups verdicts by the odds in force when they were given.

Pure: no clock, no I/O; randomness is passed in.
"""

import random
from collections.abc import Iterable, Mapping
from typing import Any

from ..dial.dialmaps import DIAL_MAPS, pulses_for
from .errors import OracleSettingError

# code -> (the editor's message as the rules print it, what the rules say to do, whether the
#          story is placed); the code itself is what the phone's window shows
SIGNALS: dict[str, tuple[str, str, bool]] = {
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

# Each signal's entry in the rules, word for word ("Use of the Telephone"), and the rules' words a
# refused story brings with it ("The Play", a).
RULES_TEXT = {code: '%s: "%s" %s' % (code, words, todo) for code, (words, todo, _) in SIGNALS.items()}
RULES_TEXT["PRESS"] += ' (See paragraph headed "Ending The Game.")'
REFUSED_TEXT = ("If the story is not acceptable to the editor he is not entitled to take a card from a "
                "story pile. He still must discard the three cards which made up his story and draw "
                "three new cards from the draw pile. In this case, however, he must pay $100 for each "
                "card that he draws.")
for _code, (_words, _todo, _passed) in SIGNALS.items():
    if not _passed:
        RULES_TEXT[_code] += " " + REFUSED_TEXT

# What the game must apply for each signal (the SCOOP engine does; these say it in data).
EFFECTS: dict[str, dict[str, Any]] = {
    "THREE STARS": {"take_story": True, "may_take_three_star": True},
    "EXTRA": {"take_story": True, "collect_from_each": 200},
    "PRESS": {"take_story": True, "may_go_to_press": True},
    "SYND": {"take_story": True, "collect_from_each": 500},
    "OK": {"take_story": True},
    "SCRAP IT": {"take_story": False, "pay_per_card_drawn": 100},
    "X": {"take_story": False, "pay_per_card_drawn": 100},
    "!!!": {"take_story": False, "pay_per_card_drawn": 100},
}

ODDS_NOTE = ("The editor's odds (the mechanical disc and the fair-mode weights) are newsdesk's own "
             "choice: the 1956 rules give neither the phone's mechanism nor its odds.")
MODES = ("mechanical", "fair")

# newsdesk's default disc: 16 windows, 11 favourable (5 OK, 2 THREE STARS, 2 EXTRA, SYND, PRESS)
# and 5 refusals (2 SCRAP IT, 2 X, !!!). A guess, documented as one.
DEFAULT_DISC = ("OK", "SCRAP IT", "THREE STARS", "OK", "X", "EXTRA", "OK", "!!!",
                "SYND", "OK", "SCRAP IT", "THREE STARS", "OK", "X", "PRESS", "EXTRA")


def default_weights() -> Mapping[str, float]:
    """Fair mode's default: the same shares as the default disc."""
    return disc_windows(DEFAULT_DISC)


def disc_windows(disc: Iterable[str]) -> dict[str, int]:
    """How many windows of ``disc`` show each signal."""
    windows = {code: 0 for code in SIGNALS}
    for code in disc:
        windows[code] += 1
    return windows


def parse_disc(text: object) -> tuple[str, ...]:
    """A disc from a setting: the signals in its windows, in order, separated by commas
    ("OK, SCRAP IT, THREE STARS, ..."). Empty: newsdesk's default disc."""
    if not isinstance(text, str):
        raise OracleSettingError("editor_disc is a comma-separated list of signals, not %r" % (text,))
    if not text.strip():
        return DEFAULT_DISC
    return tuple(part.strip().upper() for part in text.split(","))


def parse_weights(text: object) -> Mapping[str, float]:
    """Fair-mode weights from a setting: "OK=5, SCRAP IT=2, ..."; a signal left out weighs 0.
    Empty: newsdesk's default weights."""
    if not isinstance(text, str):
        raise OracleSettingError("editor_weights is text like \"OK=5, X=2\", not %r" % (text,))
    if not text.strip():
        return default_weights()
    weights: dict[str, float] = {code: 0 for code in SIGNALS}
    for part in text.split(","):
        code, sep, raw = part.partition("=")
        code = code.strip().upper()
        try:
            weight = float(raw)
        except ValueError:
            weight = None
        if not sep or code not in SIGNALS or weight is None or not weight >= 0 or weight == float("inf"):
            raise OracleSettingError("editor_weights: %r is not SIGNAL=weight with a signal from %s and "
                                     "a weight of 0 or more" % (part.strip(), ", ".join(SIGNALS)))
        weights[code] = int(weight) if weight == int(weight) else weight
    return weights


class Verdict:
    """One call's outcome: the signal, the rules' words for it and the disc position after it.

    ``position`` stays in memory: ``as_dict`` (what is stored, streamed and served) leaves it out,
    because a known position would tell the next verdict."""

    __slots__ = ("digit", "signal", "position", "mode", "odds")

    def __init__(self, digit: int, signal: str, position: int, mode: str,
                 odds: Mapping[str, float] | None = None) -> None:
        self.digit = digit
        self.signal = signal
        self.position = position
        self.mode = mode
        self.odds = odds        # signal -> weight this verdict was drawn with (disc windows in mechanical)

    @property
    def message(self) -> str:
        return SIGNALS[self.signal][0]

    @property
    def instruction(self) -> str:
        return SIGNALS[self.signal][1]

    @property
    def story_passed(self) -> bool:
        return SIGNALS[self.signal][2]

    @property
    def text(self) -> str:
        return RULES_TEXT[self.signal]

    @property
    def effects(self) -> dict[str, Any]:
        return dict(EFFECTS[self.signal])

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"digit": self.digit, "signal": self.signal, "message": self.message,
             "instruction": self.instruction, "story_passed": self.story_passed,
             "mode": self.mode, "text": self.text, "effects": self.effects}
        if self.odds is not None:
            d["odds"] = dict(self.odds)
        return d


class Editor:
    """Gives a verdict for a dialed digit, given the disc position the previous call left.

    Bad settings raise OracleSettingError (a ConfigError, so a ValueError) naming the setting.
    """

    def __init__(self, mode: str = "mechanical", disc: Iterable[str] = DEFAULT_DISC,
                 weights: Mapping[str, float] | None = None, dial_map: str = "standard") -> None:
        if mode not in MODES:
            raise OracleSettingError("editor_mode must be 'mechanical' or 'fair', got %r" % (mode,))
        if dial_map not in DIAL_MAPS:
            raise OracleSettingError("dial_map must be one of %s, got %r" % (", ".join(DIAL_MAPS), dial_map))
        windows = tuple(disc)
        unknown = [s for s in windows if s not in SIGNALS]
        if not windows or unknown:
            raise OracleSettingError("editor_disc needs windows from %s; bad: %r" % (", ".join(SIGNALS), unknown))
        given = dict(default_weights() if weights is None else weights)
        bad = [k for k, w in given.items()
               if k not in SIGNALS or not isinstance(w, (int, float)) or isinstance(w, bool) or not w >= 0
               or w == float("inf")]
        if bad or sum(given.values()) <= 0:
            raise OracleSettingError("editor_weights must be numbers of 0 or more per signal with a positive "
                                     "total; bad: %r" % (bad,))
        self.mode = mode
        self.disc = windows
        self.weights = {code: given.get(code, 0) for code in SIGNALS}
        self.dial_map = dial_map
        self._codes = [c for c in SIGNALS if self.weights[c] > 0]
        self._cum: list[float] = []
        total: float = 0
        for c in self._codes:
            total += self.weights[c]
            self._cum.append(total)

    @property
    def odds(self) -> Mapping[str, float]:
        """signal -> weight: the fair-mode weights, or in mechanical mode the disc's windows per signal."""
        return disc_windows(self.disc) if self.mode == "mechanical" else dict(self.weights)

    def describe(self) -> dict[str, Any]:
        """The settings and what they mean, for the panel (with the note that the odds are ours).

        Public: the mode, the odds and shares and the disc's size, never the order of its windows."""
        odds = self.odds
        total = float(sum(odds.values()))
        return {"mode": self.mode, "disc_windows": len(self.disc), "weights": dict(self.weights),
                "dial_map": self.dial_map, "odds": odds,
                "shares": {code: w / total for code, w in odds.items()},
                "signals": [{"signal": code, "text": RULES_TEXT[code], "effects": EFFECTS[code]}
                            for code in SIGNALS],
                "odds_note": ODDS_NOTE}

    def call(self, digit: int, position: int | None, rng: random.Random, spin: bool = True) -> Verdict:
        """The verdict for ``digit``; ``rng`` is a random.Random-like source (secret in the box).

        ``position`` is where the previous call left the disc; in mechanical mode the disc is then
        spun by a secret random number of windows before the digit's pulses turn it (pass
        ``spin=False`` only to test the disc's geometry), so what was seen can't tell what comes."""
        if position is None:
            position = rng.randrange(len(self.disc))
        elif spin and self.mode == "mechanical":
            position = (position + rng.randrange(len(self.disc))) % len(self.disc)
        steps = pulses_for(digit, self.dial_map)
        new_position = (position + steps) % len(self.disc)
        if self.mode == "mechanical":
            signal = self.disc[new_position]
        else:
            signal = rng.choices(self._codes, cum_weights=self._cum)[0]
        return Verdict(digit, signal, new_position, self.mode, self.odds)
