import random
from collections import Counter

import pytest

from controller.oracles.editor import DEFAULT_DISC, SIGNALS, Editor, default_weights


def test_every_signal_carries_the_rules_words():
    assert set(SIGNALS) == {"THREE STARS", "EXTRA", "PRESS", "SYND", "OK", "SCRAP IT", "X", "!!!"}
    v = Editor().call(3, 0, random.Random(1))
    d = v.as_dict()
    assert d["message"] == SIGNALS[d["signal"]][0] and d["instruction"] == SIGNALS[d["signal"]][1]


def test_mechanical_disc_advances_by_the_digits_pulses():
    ed = Editor(mode="mechanical")
    rng = random.Random(0)
    v = ed.call(3, 0, rng)
    assert v.position == 3 and v.signal == DEFAULT_DISC[3]
    v0 = ed.call(0, v.position, rng)  # 0 is ten pulses on a standard dial
    assert v0.position == 13 and v0.signal == DEFAULT_DISC[13]
    sweden = Editor(dial_map="sweden").call(0, 0, rng)  # 0 is one pulse in Sweden
    assert sweden.position == 1


def test_mechanical_depends_on_history_not_only_the_digit():
    ed = Editor()
    rng = random.Random(0)
    signals = {ed.call(5, start, rng).signal for start in range(len(DEFAULT_DISC))}
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
