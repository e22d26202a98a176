import math

import pytest

from controller.audio.tones import (
    PLANS,
    RATE,
    VERDICT_NOTES,
    call_progress,
    goertzel_power,
    loop,
    pcm_bytes,
    read_wav,
    tone,
    verdict_figure,
    wav_bytes,
)


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


def _loud_windows(samples, window_s=0.05):
    window = int(window_s * RATE)
    return [max(abs(x) for x in samples[i:i + window]) > 1000 for i in range(0, len(samples), window)]


def test_uk_ringback_is_the_double_ring_at_400_and_450_hz():
    s = call_progress("ringback", 3.0, plan="uk")
    # 0.4 on, 0.2 off, 0.4 on, 2.0 off: in 50 ms windows
    assert _loud_windows(s) == [True] * 8 + [False] * 4 + [True] * 8 + [False] * 40
    assert set(_strongest(s[:int(0.4 * RATE)], [350.0, 400.0, 440.0, 450.0, 480.0])[:2]) == {400.0, 450.0}


def test_uk_busy_is_one_400_hz_tone_three_eighths_on_and_off():
    s = call_progress("busy", 1.5, plan="uk")
    on = s[:int(0.375 * RATE)]
    assert _strongest(on, [350.0, 400.0, 450.0, 480.0])[0] == 400.0
    assert max(abs(x) for x in s[int(0.38 * RATE):int(0.745 * RATE)]) == 0
    assert max(abs(x) for x in s[int(0.76 * RATE):int(1.1 * RATE)]) > 1000


def test_a_looped_continuous_tone_joins_without_a_click():
    head, cycle = loop("dial")
    stream = head + cycle + cycle
    assert len(head) == len(cycle) == RATE
    # the biggest step between neighbouring samples anywhere (including the joins) is no bigger
    # than inside the steady tone: no discontinuity (and no ramp down into the loop)
    steps = [abs(b - a) for a, b in zip(stream, stream[1:])]
    inner = max(abs(b - a) for a, b in zip(cycle, cycle[1:]))
    assert head[0] == 0 and abs(head[-1] - cycle[0]) <= inner + 1 and max(abs(x) for x in head[-100:]) > 20000
    assert max(steps) <= inner + 1
    assert set(_strongest(stream, [350.0, 400.0, 440.0, 480.0])[:2]) == {350.0, 440.0}


def test_call_progress_tones_are_made_at_the_precise_tone_plans_steps():
    """The dial tone near full scale (a real line's is far louder than newsdesk's old 0.3 of it),
    ringback 6 dB and busy 11 dB under it, as the plan's -13, -19 and -24 dBm."""
    peaks = {name: max(abs(x) for x in call_progress(name, 1.0)) for name in ("dial", "ringback", "busy")}
    assert 0.85 * 32767 < peaks["dial"] <= 0.9 * 32767 + 1
    for name, below_db in (("ringback", 6), ("busy", 11)):
        assert 20 * math.log10(peaks["dial"] / peaks[name]) == pytest.approx(below_db, abs=0.2)


def test_a_looped_cadenced_tone_keeps_its_cadence_over_cycles():
    head, cycle = loop("busy")
    assert head == [] and len(cycle) == RATE
    assert _loud_windows(cycle * 3) == ([True] * 10 + [False] * 10) * 3
    head, cycle = loop("ringback", plan="uk")
    assert len(cycle) == 3 * RATE


def test_pcm_bytes_are_little_endian_16_bit():
    assert pcm_bytes([1, -2, 32767]) == b"\x01\x00\xfe\xff\xff\x7f"


def test_read_wav_takes_what_is_there_even_when_the_header_guessed_the_size():
    samples = tone((440.0,), 0.05)
    wav = wav_bytes(samples, rate=22050)
    rate, pcm = read_wav(wav)
    assert rate == 22050 and pcm == pcm_bytes(samples)
    # espeak-ng writing to a pipe can't seek back: its sizes are placeholders
    streamed = wav[:4] + b"\x24\xf0\xff\x7f" + wav[8:40] + b"\x00\xf0\xff\x7f" + wav[44:]
    assert read_wav(streamed) == (22050, pcm_bytes(samples))


def test_read_wav_refuses_what_it_cant_play():
    import pytest

    from controller.audio.errors import BadWav
    with pytest.raises(BadWav, match="not a WAV"):
        read_wav(b"hello")
    stereo = bytearray(wav_bytes([0, 0]))
    stereo[22] = 2
    with pytest.raises(BadWav, match="2 channel"):
        read_wav(bytes(stereo))


def test_unknown_plans_are_a_config_error():
    import pytest

    from controller.errors import ConfigError
    with pytest.raises(ConfigError, match="no tone plan 'mars'"):
        loop("dial", plan="mars")
