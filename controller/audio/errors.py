"""The audio package's exceptions: each names the program, device or file involved."""

from ..errors import NewsdeskError


class AudioError(NewsdeskError, RuntimeError):
    """Sound could not be made: the player or the speech engine failed."""


class SpeechError(AudioError):
    """espeak-ng could not be run or gave nothing usable."""


class BadWav(NewsdeskError, ValueError):
    """Bytes that are not a mono 16-bit PCM WAV file."""
