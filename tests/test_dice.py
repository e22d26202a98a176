"""The dice: parsing NdM, the facts games read from a throw, the long-press list, and 100,000
throws per die from the box's own source checked for fairness (and a loaded source caught)."""

import random
import secrets
from collections import Counter

import pytest

from controller.oracles.dice import DEFAULT_CHOICES, Dice, DiceChoices, Roll, parse_choices
from controller.oracles.errors import OracleSettingError
from controller.oracles.fairness import ALPHA, chi_square

DRAWS = 100_000


def looks_fair(sample, shares, tries=2):
    """True unless ``tries`` independent samples all fail the test at ALPHA: a fair source fails
    with probability ALPHA ** tries (1e-6), a loaded one keeps failing."""
    return any(chi_square(sample(), shares)[2] >= ALPHA for _ in range(tries))


def face_counts(dice, rng, throws):
    counts = Counter()
    for _ in range(throws):
        counts.update(dice.roll(rng).faces)
    return counts


@pytest.mark.parametrize("text, count, sides", [("2d6", 2, 6), ("d4", 1, 4), ("1D10", 1, 10),
                                                (" 3 d 6 ", 3, 6), ("d100", 1, 100)])
def test_parse(text, count, sides):
    d = Dice.parse(text)
    assert (d.count, d.sides) == (count, sides) and Dice.parse(d.name) == d


# "1d" and 5,000 nines: Python refuses to read past 4,300 digits (a ValueError, not the dice's sentence);
# "\u0663d6" is an Arabic-Indic three, a digit to a regular expression but not NdM as anyone types it
@pytest.mark.parametrize("text", ["", "2x6", "d1", "0d6", "11d6", "d101", "2d", None, 7, "-1d6",
                                  "1d" + "9" * 5000, "9" * 5000 + "d6", "\u0663d6", "2d\u00b2"])
def test_bad_dice_are_refused_with_the_text(text):
    with pytest.raises(OracleSettingError, match="dice"):
        Dice.parse(text)


def test_flags_games_read():
    two = Dice(2, 6)
    assert Roll(two, (6, 6)).flags == {"doubles": True, "all_same": True, "seven": False,
                                       "double_sixes": True, "even": True}
    assert Roll(two, (3, 4)).flags["seven"] and not Roll(two, (3, 4)).flags["doubles"]
    assert Roll(two, (2, 2)).flags["doubles"] and not Roll(two, (2, 2)).flags["double_sixes"]
    assert not Roll(Dice(2, 10), (6, 6)).flags["double_sixes"]        # sixes on d10 are not Star Reporter's
    three = Roll(Dice(3, 6), (5, 5, 5))
    assert three.flags["all_same"] and not three.flags["doubles"]
    d = Roll(two, (6, 6)).as_dict()
    assert d["dice"] == "2d6" and d["faces"] == [6, 6] and d["total"] == 12
    assert d["said"] == "6 + 6 = 12  (double sixes)"
    assert Roll(Dice(1, 10), (7,)).as_dict()["said"] == "7  (seven)"


def test_rolls_use_the_source_handed_in():
    a = [Dice(2, 6).roll(random.Random(5)).faces for _ in range(3)]
    assert len(set(a)) == 1                       # same seed, same throw: nothing else is random
    faces = Dice(3, 4).roll(random.Random(9)).faces
    assert len(faces) == 3 and all(1 <= f <= 4 for f in faces)


def test_total_shares_of_two_dice():
    ways = Dice(2, 6).total_shares()
    assert ways == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert sum(Dice(3, 4).total_shares().values()) == 4 ** 3


def test_long_press_list():
    c = DiceChoices()
    assert c.current.name == "2d6" and [d.name for d in c.choices] == list(DEFAULT_CHOICES)
    assert [c.next().name for _ in range(4)] == ["1d6", "1d10", "1d4", "2d6"]
    assert c.set("d20").name == "1d20" and c.choices[-1].name == "1d20"
    c2 = DiceChoices(["d6", "2d6", "d6"], current="3d6")
    assert [d.name for d in c2.choices] == ["3d6", "1d6", "2d6"] and c2.current.name == "3d6"
    assert parse_choices("") == DEFAULT_CHOICES and parse_choices("2d6, d8") == ("2d6", "d8")
    with pytest.raises(OracleSettingError):
        DiceChoices([])


@pytest.mark.slow
@pytest.mark.parametrize("sides", [4, 6, 10, 20])
def test_each_die_is_fair_over_100000_throws(sides):
    die = Dice(1, sides)
    rng = secrets.SystemRandom()
    assert looks_fair(lambda: face_counts(die, rng, DRAWS), die.face_shares())


@pytest.mark.slow
def test_two_dice_totals_are_fair_over_100000_throws():
    dice = Dice(2, 6)
    rng = secrets.SystemRandom()
    assert looks_fair(lambda: Counter(dice.roll(rng).total for _ in range(DRAWS)), dice.total_shares())


class ModuloBiased(random.Random):
    """The classic mistake: one random byte modulo the sides. 256 isn't a multiple of 10, so
    faces 1-6 of a d10 come up 26 times in 256 and faces 7-10 only 25."""

    def randrange(self, n):
        return self.getrandbits(8) % n


class Loaded(random.Random):
    """A d6 whose six comes up 18 % of the time instead of 16.7 %."""

    def randrange(self, n):
        if n == 6 and self.random() < 0.016:
            return 5
        return super().randrange(n)


@pytest.mark.slow
def test_the_test_catches_a_modulo_biased_d10():
    die = Dice(1, 10)
    rng = ModuloBiased(1)
    assert not looks_fair(lambda: face_counts(die, rng, DRAWS), die.face_shares())


@pytest.mark.slow
def test_the_test_catches_a_loaded_d6():
    die = Dice(1, 6)
    rng = Loaded(2)
    assert not looks_fair(lambda: face_counts(die, rng, DRAWS), die.face_shares())
