from controller.audio.tones import (PLANS, RATE, VERDICT_NOTES, call_progress, goertzel_power, tone,
                                    verdict_figure, wav_bytes)


def _strongest(samples, candidates):
    return sorted(candidates, key=lambda f: goertzel_power(samples, f), reverse=True)


def test_dial_tone_holds_exactly_its_two_frequencies():
    s = call_progress("dial", 0.5)
    probe = [300.0, 350.0, 400.0, 440.0, 480.0, 620.0]
    assert set(_strongest(s, probe)[:2]) == {350.0, 440.0}
    assert goertzel_power(s, 350.0) > 50 * goertzel_power(s, 480.0)


def test_busy_cadence_is_half_a_second_on_and_off():
    s = call_progress("busy", 2.0)
    window = int(0.05 * RATE)
    loud = [max(abs(x) for x in s[i:i + window]) > 1000 for i in range(0, len(s), window)]
    # 0.5 s = 10 windows on, 10 off, twice
    assert loud == ([True] * 10 + [False] * 10) * 2


def test_ringback_is_two_on_four_off():
    s = call_progress("ringback", 6.0)
    on = sum(1 for x in s if abs(x) > 0) / RATE
    assert 1.95 < on < 2.0 and set(_strongest(s[:RATE], [440.0, 480.0, 620.0, 350.0])[:2]) == {440.0, 480.0}


def test_every_verdict_has_its_own_figure():
    assert len(set(VERDICT_NOTES.values())) == len(VERDICT_NOTES)
    for signal, (a, b) in VERDICT_NOTES.items():
        s = verdict_figure(signal)
        first, second = s[:int(0.25 * RATE)], s[int(0.3 * RATE):]
        assert goertzel_power(first, a) > 10 * goertzel_power(first, b)
        assert goertzel_power(second, b) > 10 * goertzel_power(second, a)


def test_wav_header_is_well_formed():
    w = wav_bytes(tone((440.0,), 0.1))
    assert w[:4] == b"RIFF" and w[8:12] == b"WAVE" and len(w) == 44 + 2 * int(0.1 * RATE)


def test_unknown_tone_is_refused():
    import pytest
    with pytest.raises(ValueError, match="no 'hum' tone"):
        call_progress("hum", 1.0)
    assert "uk" in PLANS
