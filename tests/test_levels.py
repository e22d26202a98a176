"""The levels at the handset's receiver (schematics/levels.py): worked out from the tones' own
amplitude, the volume's default and the parts, and shown in docs/build.md."""

import math
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from schematics import generate, levels  # noqa: E402
from schematics.parts import load_parts  # noqa: E402

PARTS = load_parts()


def test_the_dial_tone_is_worked_out_from_the_tone_code_the_amplifier_and_the_pad():
    """Two notes of 0.15 of full scale each (0.3 split), against a full-scale sine; the amplifier
    at 2.1 dBV + 9 dB for full scale; 300 ohms behind 2 x 10 kohms."""
    share = math.sqrt(2 * 0.15 ** 2 / 2) / math.sqrt(0.5)
    assert levels.tone_level() == 0.3
    assert levels.share_of_fullscale((350.0, 440.0)) == pytest.approx(share)
    volts = 10 ** ((2.1 + 9) / 20) * share
    assert levels.amplifier_vrms(PARTS, share, 100) == pytest.approx(volts)
    assert levels.receiver_mv(PARTS, volts, 300) == pytest.approx(volts * 300 / 20300 * 1000)
    assert levels.receiver_mv(PARTS, volts * 0.6, 300) == pytest.approx(6.8, abs=0.1)    # the old default: ~7 mV


def test_a_louder_tone_or_a_lower_volume_shows_in_the_table(monkeypatch):
    rows = {(name, volume): mv for name, volume, _, mv, _line in levels.table(PARTS)}
    half = rows[("dial tone", 50)]
    full = rows[("dial tone", 100)]
    assert all(full[z] == pytest.approx(2 * half[z]) for z in full)
    monkeypatch.setattr(levels.tones, "DIAL_LEVEL", 0.45)
    quieter = {(name, volume): mv for name, volume, _, mv, _line in levels.table(PARTS)}
    assert all(quieter[("dial tone", 100)][z] == pytest.approx(full[z] / 2) for z in full)
    monkeypatch.setattr(levels, "tone_level", lambda: 0.6)
    figure = {(name, volume): mv for name, volume, _, mv, _line in levels.table(PARTS)}
    assert all(figure[("a verdict's figure (each note)", 100)][z] == pytest.approx(2 * rows[
        ("a verdict's figure (each note)", 100)][z]) for z in full)


def test_the_default_volume_is_not_far_too_quiet():
    """At the receiver's impedance at speech frequencies, the dial tone at the default volume
    reaches a real line's range (its long loop's end, by the estimate), was 11 mV, 10 dB under
    it; and the loudest sound at 100 % stays under half the 100 mV ceiling the pad is sized for."""
    z = float(PARTS.audio["receiver_ohms_max"])
    rows = {(name, volume): (mv, line) for name, volume, _, mv, line in levels.table(PARTS)}
    mv, line = rows[("dial tone", levels.default_volume())]
    assert mv[z] >= 0.95 * line[z][0] and mv[z] >= 30.0
    assert max(mv[z] for (_, volume), (mv, _) in rows.items() if volume == 100) < float(PARTS.audio["receiver_max_mv"]) / 2


def test_a_real_lines_level_is_worked_out_from_the_plan():
    """-13 dBm into 600 ohms is 173.4 mV; at 300 ohms through an ideal transformer 122 mV, less 3 dB
    87 mV; a long loop's 8 dB less, 35 mV. A verdict's figure has no real line's level."""
    low, high = levels.real_line_mv("dial", 300.0)
    assert high == pytest.approx(173.4 * math.sqrt(0.5) * 10 ** (-3 / 20), rel=1e-3)
    assert low == pytest.approx(high * 10 ** (-8 / 20))
    assert levels.real_line_mv(None, 300.0) is None


def test_the_levels_in_build_md_are_the_codes_own():
    text = (REPO / generate.BUILD).read_text(encoding="utf-8")
    start = text.index(generate.LEVELS_BEGIN)
    end = text.index(generate.LEVELS_END) + len(generate.LEVELS_END)
    assert text[start:end] == generate.levels_block(PARTS)
    assert "| dial tone | 100 % |" in text[start:end]
