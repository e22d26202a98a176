"""Call-progress tones, synthesized: nothing is downloaded, and tests can check every frequency.

Pure: returns 16-bit mono PCM samples; the audio adapter plays them. Frequencies and cadences
are the North American precise tone plan (newsdesk's default; a UK plan is included too).

    dial tone   350+440 Hz, continuous          ringback 440+480 Hz, 2 s on / 4 s off
    busy        480+620 Hz, 0.5 s on / 0.5 s off
"""

import math
import struct
from collections.abc import Sequence

from ..errors import ConfigError
from .errors import BadWav

RATE = 16000

# name -> (frequencies in Hz, cadence as (on, off) seconds pairs; () = continuous)
Tone = tuple[tuple[float, ...], tuple[tuple[float, float], ...]]
PLANS: dict[str, dict[str, Tone]] = {
    "north-america": {
        "dial": ((350.0, 440.0), ()),
        "ringback": ((440.0, 480.0), ((2.0, 4.0),)),
        "busy": ((480.0, 620.0), ((0.5, 0.5),)),
    },
    "uk": {
        "dial": ((350.0, 450.0), ()),
        "ringback": ((400.0, 450.0), ((0.4, 0.2), (0.4, 2.0))),
        "busy": ((400.0,), ((0.375, 0.375),)),
    },
}

# How loud each call-progress tone is made. A real exchange's dial tone is far louder than the
# 0.3 of full scale ``tone`` gives by default (docs/build.md, "What each sound gives at the
# receiver", compares them), so the dial tone is made at DIAL_LEVEL of digital full scale (both
# notes together: 1 dB of headroom), and the others below it by the steps of the North American
# Precise Tone Plan's levels (AT&T, Notes on Distance Dialing, 1968: dial tone -13 dBm, ringback
# -19 dBm, busy -24 dBm). The UK plan's tones take the same steps (its own levels aren't known here).
DIAL_LEVEL = 0.9
PLAN_DBM = {"dial": -13.0, "ringback": -19.0, "busy": -24.0}


def level_of(name: str) -> float:
    """The share of digital full scale the named call-progress tone is made at."""
    return DIAL_LEVEL * 10 ** ((PLAN_DBM[name] - PLAN_DBM["dial"]) / 20.0)


# A distinct two-note figure per editor verdict, for tablets and phones with no speech engine:
# favourable verdicts rise, refusals fall. newsdesk's own choice.
VERDICT_NOTES = {
    "THREE STARS": (523.25, 783.99), "EXTRA": (523.25, 698.46), "PRESS": (440.0, 880.0),
    "SYND": (587.33, 783.99), "OK": (523.25, 659.25),
    "SCRAP IT": (392.0, 329.63), "X": (349.23, 261.63), "!!!": (311.13, 233.08),
}


def tone(freqs: Sequence[float], seconds: float, rate: int = RATE, level: float = 0.3, ramp_in: bool = True,
         ramp_out: bool = True) -> list[int]:
    """Samples of the sum of ``freqs`` for ``seconds``, with 5 ms ramps so nothing clicks.

    ``ramp_in=False`` / ``ramp_out=False`` leave an end at full level, for a piece that joins
    another seamlessly (the repeating part of a continuous tone).
    """
    n = int(round(seconds * rate))
    ramp = max(1, int(0.005 * rate))
    amp = level * 32767 / max(1, len(freqs))
    out: list[int] = []
    for i in range(n):
        env = 1.0
        if n > 2 * ramp:
            env = min(1.0, i / ramp if ramp_in else 1.0, (n - 1 - i) / ramp if ramp_out else 1.0)
        v = sum(math.sin(2 * math.pi * f * i / rate) for f in freqs)
        out.append(int(round(amp * env * v)))
    return out


def silence(seconds: float, rate: int = RATE) -> list[int]:
    """Zero samples: the gaps of a cadence."""
    return [0] * int(round(seconds * rate))


def call_progress(name: str, seconds: float, plan: str = "north-america", rate: int = RATE) -> list[int]:
    """``seconds`` of the named tone (dial, ringback, busy) with its cadence."""
    freqs, steps = cadence(name, plan)
    level = level_of(name)
    if not steps:
        return tone(freqs, seconds, rate, level)
    out: list[int] = []
    total = int(round(seconds * rate))
    while len(out) < total:
        for on, off in steps:
            out += tone(freqs, on, rate, level) + silence(off, rate)
    return out[:total]


def cadence(name: str, plan: str = "north-america") -> Tone:
    """The (frequencies, cadence) of a named tone; ConfigError (a ValueError) names what is missing."""
    if plan not in PLANS:
        raise ConfigError("no tone plan %r (plans: %s)" % (plan, ", ".join(sorted(PLANS))))
    try:
        return PLANS[plan][name]
    except KeyError:
        raise ConfigError("no %r tone in the %r plan" % (name, plan)) from None


def loop(name: str, plan: str = "north-america", rate: int = RATE) -> tuple[list[int], list[int]]:
    """A tone that goes on until stopped, as ``(head, cycle)``: play ``head`` once, then
    ``cycle`` over and over, and the result is the tone with its cadence from its start::

        ringback  head = []            cycle = 2 s on, 4 s off (each burst ramped)
        dial      head = 1 s ramped in cycle = 1 s at full level, joining itself seamlessly

    A continuous tone's cycle is a whole second, so any whole-Hz frequency completes whole
    periods in it and the joins don't click.
    """
    freqs, steps = cadence(name, plan)
    if steps:
        return [], call_progress(name, sum(on + off for on, off in steps), plan, rate)
    level = level_of(name)
    return (tone(freqs, 1.0, rate, level, ramp_out=False),
            tone(freqs, 1.0, rate, level, ramp_in=False, ramp_out=False))


def verdict_figure(signal: str, rate: int = RATE) -> list[int]:
    """Two notes that say the verdict when no speech engine is installed."""
    a, b = VERDICT_NOTES[signal]
    return tone((a,), 0.25, rate) + silence(0.05, rate) + tone((b,), 0.4, rate)


def pcm_bytes(samples: Sequence[int]) -> bytes:
    """Samples as the little-endian 16-bit PCM that ``aplay -f S16_LE`` reads."""
    return struct.pack("<%dh" % len(samples), *samples)


def wav_bytes(samples: Sequence[int], rate: int = RATE) -> bytes:
    """A complete mono 16-bit WAV file."""
    data = pcm_bytes(samples)
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, 1,
                         rate, rate * 2, 2, 16, b"data", len(data))
    return header + data


def read_wav(data: bytes | bytearray) -> tuple[int, bytes]:
    """(rate, PCM bytes) of a mono 16-bit WAV file. The data chunk runs to the end of what is
    there when its size says more: espeak-ng writing to a pipe can't go back to fill it in."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise BadWav("not a WAV file (%d bytes starting %r)" % (len(data), bytes(data[:12])))
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        kind, size = struct.unpack_from("<4sI", data, pos)
        body = data[pos + 8:pos + 8 + size]
        if kind == b"fmt ":
            if len(body) < 16:
                raise BadWav("the WAV file's fmt chunk is %d bytes, too short" % len(body))
            fmt = struct.unpack_from("<HHIIHH", body)
        elif kind == b"data":
            if fmt is None:
                raise BadWav("the WAV file has data before its fmt chunk")
            encoding, channels, rate, _, _, bits = fmt
            if encoding != 1 or channels != 1 or bits != 16:
                raise BadWav("the WAV file is %d channel(s) of %d-bit format %d; newsdesk plays "
                             "mono 16-bit PCM" % (channels, bits, encoding))
            return rate, bytes(body[:len(body) - len(body) % 2])
        pos += 8 + size + (size & 1)
    raise BadWav("the WAV file has no data chunk")


def goertzel_power(samples: Sequence[float], freq: float, rate: int = RATE) -> float:
    """Relative power of ``freq`` in ``samples`` (how the tests and `doctor` check a tone)."""
    k = 2 * math.cos(2 * math.pi * freq / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + k * s1 - s2, s1
    return (s1 * s1 + s2 * s2 - k * s1 * s2) / max(1, len(samples)) ** 2
