"""The editor's voice: espeak-ng, run as a program, when it is installed.

``espeak-ng --stdout --stdin`` reads the text on its input and writes a WAV file (22050 Hz mono
with the usual voices) on its output; nothing is downloaded and no library is linked. Without
espeak-ng the player says a verdict with its two-note figure instead (tones.verdict_figure).
"""

import shutil
import subprocess

from .errors import BadWav, SpeechError
from .tones import read_wav


class Speech:
    """Renders text to PCM with espeak-ng. ``voice`` and ``speed`` (words a minute) are passed
    through as -v and -s; None keeps espeak-ng's own defaults."""

    __slots__ = ("program", "voice", "speed", "timeout", "_run")

    def __init__(self, program="espeak-ng", voice=None, speed=None, timeout=10.0, run=subprocess.run):
        self.program = program
        self.voice = voice
        self.speed = speed
        self.timeout = timeout
        self._run = run

    @classmethod
    def find(cls, program="espeak-ng", **kwargs):
        """A Speech for ``program`` if it is on PATH, else None."""
        path = shutil.which(program)
        return cls(path, **kwargs) if path else None

    def argv(self):
        argv = [self.program, "--stdout", "--stdin"]
        if self.voice:
            argv += ["-v", str(self.voice)]
        if self.speed:
            argv += ["-s", str(int(self.speed))]
        return argv

    def render(self, text):
        """(rate, mono 16-bit PCM bytes) of ``text`` spoken. SpeechError names the program."""
        try:
            done = self._run(self.argv(), input=text.encode("utf-8"), capture_output=True,
                             timeout=self.timeout)
        except (OSError, subprocess.SubprocessError) as e:
            raise SpeechError("%s could not be run: %s" % (self.program, e)) from None
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SpeechError("%s exited with %d%s" % (self.program, done.returncode,
                                                       (": " + said[-1]) if said else ""))
        try:
            rate, pcm = read_wav(done.stdout)
        except BadWav as e:
            raise SpeechError("%s gave no usable sound: %s" % (self.program, e)) from None
        if not pcm:
            raise SpeechError("%s gave no sound for %r" % (self.program, text))
        return rate, pcm
