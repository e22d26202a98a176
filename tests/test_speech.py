"""Speech: text to PCM through espeak-ng, run here by a stand-in and, when installed, for real."""

import shutil
import subprocess

import pytest

from controller.audio import tones
from controller.audio.errors import SpeechError
from controller.audio.speech import Speech

# --- speech through a stand-in for espeak-ng --------------------------------------------------------

def _done(argv, rc=0, stdout=b"", stderr=b""):
    return subprocess.CompletedProcess(argv, rc, stdout, stderr)


def test_speech_passes_text_on_stdin_and_reads_the_wav():
    calls = []
    wav = tones.wav_bytes([5, -5, 7], rate=22050)

    def run(argv, **kw):
        calls.append((argv, kw["input"]))
        return _done(argv, stdout=wav)

    speech = Speech("espeak-ng", voice="en-us", speed=140, run=run)
    assert speech.render("Take your story.") == (22050, tones.pcm_bytes([5, -5, 7]))
    assert calls == [(["espeak-ng", "--stdout", "--stdin", "-v", "en-us", "-s", "140"],
                      "Take your story.".encode())]


@pytest.mark.parametrize("result, message", [
    (dict(rc=1, stderr=b"Failed to read voice 'xx'\n"), "espeak-ng exited with 1: Failed to read voice 'xx'"),
    (dict(stdout=b"garbage"), "espeak-ng gave no usable sound: not a WAV file"),
    (dict(stdout=tones.wav_bytes([])), "espeak-ng gave no sound for 'Hi.'"),
])
def test_speech_failures_name_the_program(result, message):
    speech = Speech("espeak-ng", run=lambda argv, **kw: _done(argv, **result))
    with pytest.raises(SpeechError) as e:
        speech.render("Hi.")
    assert str(e.value).startswith(message)


def test_speech_that_cannot_start_is_a_speech_error():
    def run(argv, **kw):
        raise FileNotFoundError(2, "No such file or directory")

    with pytest.raises(SpeechError, match="espeak-ng could not be run"):
        Speech("espeak-ng", run=run).render("Hi.")
    assert Speech.find("no-such-speech-engine-here") is None


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_real_espeak_ng_speaks_a_verdict():
    rate, pcm = Speech.find().render("Your Story Has Been Passed For Publication.")
    seconds = len(pcm) / 2 / rate
    assert rate in (16000, 22050, 24000) and 1.0 < seconds < 8.0
