"""The dice button: NdM dice rolled from a random source handed in, and the facts games check.

Star Reporter (1937) needs two six-sided dice and reads from a throw: its total, whether the
total is even (the train), a double (the plane), a total of seven (the telephone) and double
sixes (a Disaster). Other games want other dice, so any NdM can be set (2d6 by default). A long
press steps through a list of dice; that list is newsdesk's choice (DEFAULT_CHOICES) and can be
set. Pure: no clock, no I/O.
"""

import random
import re
from collections.abc import Iterable, Mapping, Sequence

from .errors import OracleSettingError

MAX_DICE = 10
MAX_SIDES = 100
DEFAULT_DICE = "2d6"
DEFAULT_CHOICES = ("2d6", "1d6", "1d10", "1d4")   # newsdesk's choice for what a long press cycles
# ASCII digits, at most three (MAX_SIDES): int() refuses past 4,300, and "\u0663" is no one's NdM
# (the API's schema gives the same pattern)
SPEC_PATTERN = r"^\s*([0-9]{0,3})\s*[dD]\s*([0-9]{1,3})\s*$"
_SPEC = re.compile(SPEC_PATTERN)


class Dice:
    """``count`` dice of ``sides`` faces each, numbered 1..sides."""

    __slots__ = ("count", "sides")

    def __init__(self, count: int, sides: int) -> None:
        for name, value, top in (("count", count, MAX_DICE), ("sides", sides, MAX_SIDES)):
            if isinstance(value, bool) or not isinstance(value, int) or not (2 if name == "sides" else 1) <= value <= top:
                raise OracleSettingError("dice: %s must be a whole number from %d to %d, got %r"
                                         % (name, 2 if name == "sides" else 1, top, value))
        self.count = count
        self.sides = sides

    @classmethod
    def parse(cls, text: "str | Dice") -> "Dice":
        """"2d6", "d10", "3D4" -> Dice. Raises OracleSettingError naming the text."""
        if isinstance(text, Dice):
            return text
        m = _SPEC.match(text) if isinstance(text, str) else None
        if m is None:
            raise OracleSettingError("dice are written NdM (like 2d6, d4, d10), not %r" % (text,))
        return cls(int(m.group(1) or 1), int(m.group(2)))

    @property
    def name(self) -> str:
        return "%dd%d" % (self.count, self.sides)

    def face_shares(self) -> dict[int, int]:
        """Each face's expected share on one die: 1/sides each."""
        return {face: 1 for face in range(1, self.sides + 1)}

    def total_shares(self) -> dict[int, int]:
        """Ways to make each total with ``count`` dice (relative shares of the totals)."""
        ways = {0: 1}
        for _ in range(self.count):
            nxt: dict[int, int] = {}
            for total, w in ways.items():
                for face in range(1, self.sides + 1):
                    nxt[total + face] = nxt.get(total + face, 0) + w
            ways = nxt
        return ways

    def roll(self, rng: random.Random) -> "Roll":
        """One throw; ``rng`` is a random.Random-like source (secrets.SystemRandom() in the box)."""
        return Roll(self, tuple(rng.randrange(self.sides) + 1 for _ in range(self.count)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and (self.count, self.sides) == (other.count, other.sides)

    def __hash__(self) -> int:
        return hash((self.count, self.sides))

    def __repr__(self) -> str:
        return "<Dice %s>" % self.name


class Roll:
    """A throw: the faces shown and what the games read from them."""

    __slots__ = ("dice", "faces")

    def __init__(self, dice: Dice, faces: Iterable[int]) -> None:
        self.dice = dice
        self.faces = tuple(faces)

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def flags(self) -> dict[str, bool]:
        """The facts the games check. ``doubles``: two dice showing the same face (Star Reporter's
        plane); ``all_same``: every die alike, for throws of two or more; ``seven``: a total of
        seven (its telephone); ``double_sixes``: two sixes on 2d6 (a Disaster); ``even``: an
        even total (its train)."""
        two = len(self.faces) == 2
        same = len(self.faces) >= 2 and len(set(self.faces)) == 1
        return {"doubles": two and same, "all_same": same, "seven": self.total == 7,
                "double_sixes": two and same and self.dice.sides == 6 and self.faces[0] == 6,
                "even": self.total % 2 == 0}

    def as_dict(self) -> dict[str, object]:
        flags = self.flags
        return {"dice": self.dice.name, "count": self.dice.count, "sides": self.dice.sides,
                "faces": list(self.faces), "total": self.total, "flags": flags,
                "said": describe(self.faces, flags)}


def describe(faces: Sequence[int], flags: Mapping[str, bool]) -> str:
    """The throw in words, for the panel's log and the display."""
    words = " + ".join(str(f) for f in faces)
    if len(faces) > 1:
        words += " = %d" % sum(faces)
    marks = [label for key, label in (("double_sixes", "double sixes"), ("doubles", "doubles"),
                                      ("seven", "seven")) if flags.get(key)]
    if flags.get("double_sixes"):
        marks.remove("doubles")
    if flags.get("all_same") and not flags.get("doubles"):
        marks.append("all alike")
    return words + ("  (%s)" % ", ".join(marks) if marks else "")


class DiceChoices:
    """The dice a long press steps through, and which is set now."""

    __slots__ = ("choices", "index")

    def __init__(self, choices: Iterable[str | Dice] = DEFAULT_CHOICES, current: str | Dice | None = None) -> None:
        parsed: list[Dice] = []
        for c in choices:
            d = Dice.parse(c)
            if d not in parsed:
                parsed.append(d)
        if not parsed:
            raise OracleSettingError("dice_choices needs at least one kind of dice (like 2d6, d10)")
        self.choices = tuple(parsed)
        chosen = parsed[0] if current is None else Dice.parse(current)
        if chosen not in self.choices:
            self.choices = (chosen,) + self.choices
        self.index = self.choices.index(chosen)

    @property
    def current(self) -> Dice:
        return self.choices[self.index]

    def next(self) -> Dice:
        """Step to the next dice in the list (after the last, the first); returns them."""
        self.index = (self.index + 1) % len(self.choices)
        return self.current

    def set(self, dice: str | Dice) -> Dice:
        """Set ``dice`` (NdM or Dice), adding them to the list if they are not in it."""
        chosen = Dice.parse(dice)
        if chosen not in self.choices:
            self.choices = self.choices + (chosen,)
        self.index = self.choices.index(chosen)
        return chosen


def parse_choices(text: object) -> tuple[str, ...]:
    """A list of dice from a setting: "2d6, d6, d10, d4". Empty: newsdesk's default list."""
    if not isinstance(text, str):
        raise OracleSettingError("dice_choices is text like \"2d6, d10\", not %r" % (text,))
    if not text.strip():
        return DEFAULT_CHOICES
    return tuple(part.strip() for part in text.split(","))
