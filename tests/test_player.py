import logging
import shutil
import sys

import pytest

from controller.audio import tones
from controller.audio.errors import SpeechError
from controller.audio.player import (
    VOLUME_MAX,
    AplayOutput,
    CaptureOutput,
    NullOutput,
    Player,
    open_output,
    scale_pcm,
    synthesized_loop,
)
from controller.errors import ConfigError
from tests.conftest import wait_for

RATE = tones.RATE


def _strongest(samples, candidates):
    return sorted(candidates, key=lambda f: tones.goertzel_power(samples, f), reverse=True)


def _loud(samples, window_s=0.05):
    w = int(window_s * RATE)
    return [max(abs(x) for x in samples[i:i + w]) > 1000 for i in range(0, len(samples) - w + 1, w)]


# --- the player, on a captured output -------------------------------------------------------------

def test_tones_go_on_with_their_frequencies_and_cadence():
    out = CaptureOutput(keep=6.0)
    player = Player(out)
    player.play("dial")
    player.play("busy")
    player.play("ringback")
    assert out.labels == ["dial", "busy", "ringback"]
    dial, busy, ringback = (p.samples() for p in out.plays)
    assert len(dial) == 6 * RATE and all(_loud(dial)[1:])       # continuous, past its fade-in
    assert set(_strongest(dial[3 * RATE:4 * RATE], [350.0, 440.0, 480.0, 620.0])[:2]) == {350.0, 440.0}
    assert _loud(busy) == ([True] * 10 + [False] * 10) * 6        # 0.5/0.5 for six cycles
    assert set(_strongest(busy[:RATE // 2], [350.0, 440.0, 480.0, 620.0])[:2]) == {480.0, 620.0}
    assert _loud(ringback) == [True] * 40 + [False] * 80
    player.play("silence")
    assert out.stops == 1 and player.now == "silence"


def test_warming_up_synthesizes_each_tone_once_for_every_player_of_the_same_settings(monkeypatch):
    """The box, and each test, builds players again; a tone is pure arithmetic of its name, plan,
    rate and volume, so it is synthesized once per process, not once per player."""
    synthesized_loop.cache_clear()
    made = []
    real = tones.loop
    monkeypatch.setattr(tones, "loop", lambda *a: made.append(a) or real(*a))
    first, second = Player(NullOutput(), plan="uk", volume=37), Player(NullOutput(), plan="uk", volume=37)
    first.warm()
    second.warm()
    second.play("busy")
    assert sorted(name for name, *_ in made) == ["busy", "dial", "ringback"]
    louder = Player(NullOutput(), plan="uk", volume=38)
    louder.play("busy")                                  # other settings: its own synthesis
    assert len(made) == 4
    assert louder._loop("busy") != second._loop("busy")


def test_the_volume_scales_every_sound_down_and_never_past_the_wirings_loudest():
    full, half = CaptureOutput(keep=1.0), CaptureOutput(keep=1.0)
    Player(full).play("dial")
    Player(half, volume=50, speech=FakeSpeech()).play("dial")
    loud, soft = full.plays[0].samples(), half.plays[0].samples()
    assert max(map(abs, soft)) == pytest.approx(max(map(abs, loud)) / 2, abs=1)
    assert [a * 50 // 100 for a in loud[:500]] == soft[:500]
    spoken = Player(CaptureOutput(), speech=FakeSpeech(), volume=30).verdict_clip("OK", "Passed.")
    assert set(tones_of(spoken.pcm)) == {100 * 30 // 100}                # speech is scaled too
    figure = Player(CaptureOutput(), volume=10).verdict_clip("X", "")
    assert max(map(abs, tones_of(figure.pcm))) <= 32767 // 10 + 1
    for bad in (0, 101, 150, -5, 50.5, True, "60"):
        with pytest.raises(ValueError, match="1-100 percent"):
            Player(NullOutput(), volume=bad)
    assert VOLUME_MAX == 100 and scale_pcm(tones.pcm_bytes([32767, -32768]), 100) == tones.pcm_bytes([32767, -32768])


def tones_of(pcm):
    import array
    a = array.array("h")
    a.frombytes(pcm)
    return a.tolist()


def test_the_uk_plan_sounds_british():
    out = CaptureOutput(keep=3.0)
    Player(out, plan="uk").play("ringback")
    s = out.plays[0].samples()
    assert _loud(s) == [True] * 8 + [False] * 4 + [True] * 8 + [False] * 40
    assert set(_strongest(s[:int(0.4 * RATE)], [400.0, 440.0, 450.0, 480.0])[:2]) == {400.0, 450.0}


def test_without_speech_a_verdict_is_its_figure():
    out = CaptureOutput()
    player = Player(out)
    clip = player.verdict_clip("X", "Story Libelous — Cannot Use It.")
    assert clip.label == "figure:X" and abs(clip.seconds - 0.7) < 0.01
    player.play("verdict", clip)
    played = out.plays[0]
    assert played.label == "figure:X" and played.pcm == clip.pcm
    a, b = tones.VERDICT_NOTES["X"]
    s = played.samples()
    assert _strongest(s[:int(0.25 * RATE)], [a, b])[0] == a
    assert _strongest(s[int(0.3 * RATE):], [a, b])[0] == b
    assert player.verdict_clip("X", "Story Libelous — Cannot Use It.") is clip   # rendered once


class FakeSpeech:
    def __init__(self, fail=False):
        self.fail = fail
        self.said = []

    def render(self, text):
        self.said.append(text)
        if self.fail:
            raise SpeechError("espeak-ng exited with 1: no voice")
        return 22050, tones.pcm_bytes([100] * 22050)


def test_with_speech_the_verdict_is_its_message_spoken():
    player = Player(CaptureOutput(), speech=FakeSpeech())
    clip = player.verdict_clip("OK", "Your Story Has Been Passed For Publication.")
    assert player.speech.said == ["Your Story Has Been Passed For Publication."]
    assert clip.label == "speech:OK" and clip.rate == 22050 and clip.seconds == 1.0


def test_speech_that_fails_falls_back_to_figures_and_is_not_tried_again(caplog):
    speech = FakeSpeech(fail=True)
    player = Player(CaptureOutput(), speech=speech)
    with caplog.at_level(logging.WARNING, "controller.audio.player"):
        assert player.verdict_clip("OK", "Take your story.").label == "figure:OK"
        assert player.verdict_clip("X", "No.").label == "figure:X"
    assert speech.said == ["Take your story."]
    assert [r.getMessage() for r in caplog.records] == [
        "the editor speaks in tones from now on: espeak-ng exited with 1: no voice"]


def test_the_player_refuses_what_it_cannot_play():
    with pytest.raises(ConfigError, match="no tone plan 'mars'"):
        Player(NullOutput(), plan="mars")
    player = Player(NullOutput())
    with pytest.raises(ValueError, match="no sound 'howler'"):
        player.play("howler")
    with pytest.raises(ValueError, match="needs its clip"):
        player.play("verdict")


# --- aplay, played by a stand-in program ---------------------------------------------------------------

FAKE_APLAY = """#!{python}
import sys
open({argv!r}, "a").write(" ".join(sys.argv[1:]) + "\\n")
if {fail!r}:
    sys.stderr.write("ALSA lib pcm.c: Unknown PCM default\\naplay: main:831: audio open error: No such file or directory\\n")
    sys.exit(1)
with open({pcm!r}, "ab") as f:
    while True:
        chunk = sys.stdin.buffer.read(4096)
        if not chunk:
            break
        f.write(chunk)
        f.flush()
"""


def _fake_aplay(tmp_path, fail=False):
    script = tmp_path / ("aplay-fails" if fail else "aplay")
    script.write_text(FAKE_APLAY.format(python=sys.executable, argv=str(tmp_path / "argv.txt"),
                                        pcm=str(tmp_path / "pcm.raw"), fail=fail))
    script.chmod(0o755)
    return str(script)


def test_aplay_gets_raw_pcm_at_the_clip_rate_on_the_chosen_device(tmp_path):
    out = AplayOutput(device="plughw:1,0", program=_fake_aplay(tmp_path))
    clip_pcm = tones.pcm_bytes(tones.verdict_figure("OK"))
    out.start(22050, [clip_pcm], "figure:OK")
    assert wait_for(lambda: not out.playing)
    out.close()
    assert (tmp_path / "pcm.raw").read_bytes() == clip_pcm
    assert (tmp_path / "argv.txt").read_text() == "-q -t raw -f S16_LE -c 1 -r 22050 -D plughw:1,0 -\n"


def test_an_endless_tone_stops_at_once_and_the_next_replaces_it(tmp_path, caplog):
    out = AplayOutput(program=_fake_aplay(tmp_path))
    player = Player(out)
    with caplog.at_level(logging.WARNING, "controller.audio.player"):
        player.play("dial")
        assert wait_for(lambda: (tmp_path / "pcm.raw").exists() and (tmp_path / "pcm.raw").stat().st_size > 64000)
        assert out.playing
        player.play("busy")                   # kills the dial tone's aplay, starts another
        assert out.playing
        assert wait_for(lambda: (tmp_path / "argv.txt").read_text().count("-r 16000") == 2)
        player.play("silence")
        assert not out.playing
    player.close()
    assert caplog.records == []               # a sound we stopped is no failure


def test_a_failing_aplay_is_said_once_and_the_game_goes_on(tmp_path, caplog):
    out = AplayOutput(program=_fake_aplay(tmp_path, fail=True))
    with caplog.at_level(logging.WARNING, "controller.audio.player"):
        for _ in range(3):
            out.start(16000, [b"\0\0" * 100], "figure:OK")
            assert wait_for(lambda: not out.playing)
        out.close()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1
    assert "exited with 1 playing figure:OK: aplay: main:831: audio open error" in messages[0]
    assert "ALSA's default device" in messages[0]


def test_open_output_without_aplay_turns_audio_off_and_says_so(caplog):
    with caplog.at_level(logging.INFO, "controller.audio.player"):
        assert isinstance(open_output(enabled=False), NullOutput)
        assert isinstance(open_output(program="no-such-aplay-here"), NullOutput)
    assert [r.getMessage() for r in caplog.records] == [
        "handset audio is off (setting)",
        "handset audio is off: no-such-aplay-here (alsa-utils) is not installed"]


@pytest.mark.skipif(shutil.which("aplay") is None, reason="alsa-utils is not installed")
def test_real_aplay_plays_to_alsas_null_device(caplog):
    out = open_output(device="null")
    assert isinstance(out, AplayOutput)
    with caplog.at_level(logging.WARNING, "controller.audio.player"):
        out.start(16000, [tones.pcm_bytes(tones.call_progress("busy", 0.5))], "busy")
        assert wait_for(lambda: not out.playing)
        out.close()
    assert caplog.records == []
