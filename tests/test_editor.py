import random
import secrets
from collections import Counter

import pytest

from controller.oracles.editor import (
    DEFAULT_DISC,
    EFFECTS,
    ODDS_NOTE,
    RULES_TEXT,
    SIGNALS,
    Editor,
    default_weights,
    disc_windows,
    parse_disc,
    parse_weights,
)
from controller.oracles.errors import OracleSettingError
from controller.oracles.fairness import ALPHA, chi_square


def test_every_signal_carries_the_rules_words():
    assert set(SIGNALS) == {"THREE STARS", "EXTRA", "PRESS", "SYND", "OK", "SCRAP IT", "X", "!!!"}
    v = Editor().call(3, 0, random.Random(1))
    d = v.as_dict()
    assert d["message"] == SIGNALS[d["signal"]][0] and d["instruction"] == SIGNALS[d["signal"]][1]


def test_mechanical_disc_advances_by_the_digits_pulses():
    ed = Editor(mode="mechanical")
    rng = random.Random(0)
    v = ed.call(3, 0, rng, spin=False)
    assert v.position == 3 and v.signal == DEFAULT_DISC[3]
    v0 = ed.call(0, v.position, rng, spin=False)  # 0 is ten pulses on a standard dial
    assert v0.position == 13 and v0.signal == DEFAULT_DISC[13]
    sweden = Editor(dial_map="sweden").call(0, 0, rng, spin=False)  # 0 is one pulse in Sweden
    assert sweden.position == 1


def test_mechanical_depends_on_history_not_only_the_digit():
    ed = Editor()
    rng = random.Random(0)
    signals = {ed.call(5, start, rng, spin=False).signal for start in range(len(DEFAULT_DISC))}
    assert len(signals) > 3


def test_fair_mode_follows_its_weights():
    weights = {"OK": 3, "X": 1}
    ed = Editor(mode="fair", weights=weights)
    rng = random.Random(42)
    counts = Counter(ed.call(d % 10, None, rng).signal for d in range(4000))
    assert set(counts) == {"OK", "X"}
    assert 0.70 < counts["OK"] / 4000 < 0.80


def test_default_weights_match_the_disc():
    w = default_weights()
    assert sum(w.values()) == len(DEFAULT_DISC) and w["OK"] == DEFAULT_DISC.count("OK")


@pytest.mark.parametrize("kwargs", [
    {"mode": "psychic"},
    {"disc": ("OK", "MAYBE")},
    {"disc": ()},
    {"weights": {"OK": -1}},
    {"weights": {"OK": 0}},
])
def test_bad_editor_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        Editor(**kwargs)


def test_verdict_carries_the_rules_full_text_and_effects():
    d = Editor().call(3, 2, random.Random(1), spin=False).as_dict()   # window 5 of the default disc: EXTRA
    assert d["signal"] == "EXTRA"
    assert d["text"] == ('EXTRA: "Your Story Excellent — Warrants Special Edition — Receive $200 from Each '
                         'Player." Take your story and in addition collect $200 from each player.')
    assert d["effects"] == {"take_story": True, "collect_from_each": 200}
    assert d["odds"] == disc_windows(DEFAULT_DISC)
    # the keys tables and games already read are still there
    assert {"digit", "signal", "message", "instruction", "story_passed", "mode"} <= set(d)
    assert "position" not in d          # a secret: it would tell the next verdict


def test_every_signal_has_text_and_effects_the_engine_can_apply():
    assert set(RULES_TEXT) == set(EFFECTS) == set(SIGNALS)
    for code, (words, todo, passed) in SIGNALS.items():
        assert RULES_TEXT[code].startswith('%s: "%s" %s' % (code, words, todo))
        assert EFFECTS[code]["take_story"] is passed
    assert EFFECTS["SYND"]["collect_from_each"] == 500 and EFFECTS["PRESS"]["may_go_to_press"]
    assert "$100 for each card" in RULES_TEXT["X"] and "Ending The Game" in RULES_TEXT["PRESS"]


def test_describe_says_the_odds_are_ours():
    info = Editor(mode="fair", weights={"OK": 3, "X": 1}).describe()
    assert info["odds_note"] == ODDS_NOTE and "newsdesk's own choice" in ODDS_NOTE
    assert info["shares"]["OK"] == 0.75 and info["shares"]["SYND"] == 0
    assert len(info["signals"]) == 8


def test_settings_from_text():
    assert parse_disc("") == DEFAULT_DISC and parse_disc("ok, x ,!!!") == ("OK", "X", "!!!")
    assert parse_weights("") == default_weights()
    w = parse_weights("OK=5, scrap it=2.5, !!!=0")
    assert w["OK"] == 5 and w["SCRAP IT"] == 2.5 and w["!!!"] == 0 and w["SYND"] == 0
    for bad in ("OK", "MAYBE=2", "OK=-1", "OK=lots", "OK=inf"):
        with pytest.raises(OracleSettingError, match="editor_weights"):
            parse_weights(bad)
    with pytest.raises(OracleSettingError, match="editor_disc"):
        Editor(disc=parse_disc("OK, MAYBE"))
    with pytest.raises(OracleSettingError, match="dial_map"):
        Editor(dial_map="mars")


@pytest.mark.slow
def test_fair_mode_is_fair_over_100000_calls():
    ed = Editor(mode="fair")
    rng = secrets.SystemRandom()
    fair = any(chi_square(Counter(ed.call(7, 0, rng).signal for _ in range(100_000)), ed.weights)[2] >= ALPHA
               for _ in range(2))
    assert fair


class Skewed(random.Random):
    """A source whose random() leans low: the first signals in the list come up a little more."""

    def random(self):
        return super().random() ** 1.03


@pytest.mark.slow
def test_the_test_catches_a_skewed_source_in_fair_mode():
    ed = Editor(mode="fair")
    rng = Skewed(1956)
    counts = Counter(ed.call(7, 0, rng).signal for _ in range(100_000))
    assert chi_square(counts, ed.weights)[2] < ALPHA


def test_the_disc_is_spun_between_calls_so_the_last_position_tells_nothing():
    """Knowing where the last call left the disc and the next digit, the signal still follows the
    disc's shares: every one of the 16 windows comes up for the same start and digit."""
    ed = Editor()
    rng = random.Random(7)
    seen = Counter(ed.call(5, 0, rng).position for _ in range(800))
    assert set(seen) == set(range(len(DEFAULT_DISC)))


def test_describe_gives_the_shares_but_not_the_discs_order():
    d = Editor().describe()
    assert "disc" not in d and d["disc_windows"] == len(DEFAULT_DISC)
    assert d["odds"] == disc_windows(DEFAULT_DISC)
    assert abs(d["shares"]["OK"] - 5 / 16) < 1e-12
