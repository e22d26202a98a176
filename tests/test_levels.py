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
    rows = {(name, volume): mv for name, volume, _, mv in levels.table(PARTS)}
    half = rows[("dial tone", 50)]
    full = rows[("dial tone", 100)]
    assert all(full[z] == pytest.approx(2 * half[z]) for z in full)
    monkeypatch.setattr(levels, "tone_level", lambda: 0.6)
    louder = {(name, volume): mv for name, volume, _, mv in levels.table(PARTS)}
    assert all(louder[("dial tone", 100)][z] == pytest.approx(2 * full[z]) for z in full)


def test_the_default_volume_is_not_far_too_quiet():
    """At the receiver's impedance at speech frequencies, the dial tone at the default volume
    reaches at least 10 mV (at 60 % it was 6.8 mV: a fraction of a telephone's tens of mV), and
    the loudest sound at 100 % stays far under the 100 mV ceiling the pad is sized for."""
    z = float(PARTS.audio["receiver_ohms_max"])
    rows = {(name, volume): mv for name, volume, _, mv in levels.table(PARTS)}
    assert rows[("dial tone", levels.default_volume())][z] >= 10.0
    assert max(mv[z] for (_, volume), mv in rows.items() if volume == 100) < float(PARTS.audio["receiver_max_mv"]) / 4


def test_the_levels_in_build_md_are_the_codes_own():
    text = (REPO / generate.BUILD).read_text(encoding="utf-8")
    start = text.index(generate.LEVELS_BEGIN)
    end = text.index(generate.LEVELS_END) + len(generate.LEVELS_END)
    assert text[start:end] == generate.levels_block(PARTS)
    assert "| dial tone | 100 % |" in text[start:end]
