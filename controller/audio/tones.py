"""Call-progress tones, synthesized: nothing is downloaded, and tests can check every frequency.

Pure: returns 16-bit mono PCM samples; the audio adapter plays them. Frequencies and cadences
are the North American precise tone plan (newsdesk's default; a UK plan is included too).

    dial tone   350+440 Hz, continuous          ringback 440+480 Hz, 2 s on / 4 s off
    busy        480+620 Hz, 0.5 s on / 0.5 s off
"""

import math
import struct

RATE = 16000

# name -> (frequencies in Hz, cadence as (on, off) seconds pairs; () = continuous)
PLANS = {
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

# A distinct two-note figure per editor verdict, for tablets and phones with no speech engine:
# favourable verdicts rise, refusals fall. newsdesk's own choice.
VERDICT_NOTES = {
    "THREE STARS": (523.25, 783.99), "EXTRA": (523.25, 698.46), "PRESS": (440.0, 880.0),
    "SYND": (587.33, 783.99), "OK": (523.25, 659.25),
    "SCRAP IT": (392.0, 329.63), "X": (349.23, 261.63), "!!!": (311.13, 233.08),
}


def tone(freqs, seconds, rate=RATE, level=0.3):
    """Samples of the sum of ``freqs`` for ``seconds``, with 5 ms ramps so nothing clicks."""
    n = int(round(seconds * rate))
    ramp = max(1, int(0.005 * rate))
    amp = level * 32767 / max(1, len(freqs))
    out = []
    for i in range(n):
        env = min(1.0, i / ramp, (n - 1 - i) / ramp) if n > 2 * ramp else 1.0
        v = sum(math.sin(2 * math.pi * f * i / rate) for f in freqs)
        out.append(int(round(amp * env * v)))
    return out


def silence(seconds, rate=RATE):
    return [0] * int(round(seconds * rate))


def call_progress(name, seconds, plan="north-america", rate=RATE):
    """``seconds`` of the named tone (dial, ringback, busy) with its cadence."""
    try:
        freqs, cadence = PLANS[plan][name]
    except KeyError:
        raise ValueError("no %r tone in the %r plan" % (name, plan)) from None
    if not cadence:
        return tone(freqs, seconds, rate)
    out = []
    total = int(round(seconds * rate))
    while len(out) < total:
        for on, off in cadence:
            out += tone(freqs, on, rate) + silence(off, rate)
    return out[:total]


def verdict_figure(signal, rate=RATE):
    """Two notes that say the verdict when no speech engine is installed."""
    a, b = VERDICT_NOTES[signal]
    return tone((a,), 0.25, rate) + silence(0.05, rate) + tone((b,), 0.4, rate)


def wav_bytes(samples, rate=RATE):
    """A complete mono 16-bit WAV file."""
    data = struct.pack("<%dh" % len(samples), *samples)
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, 1,
                         rate, rate * 2, 2, 16, b"data", len(data))
    return header + data


def goertzel_power(samples, freq, rate=RATE):
    """Relative power of ``freq`` in ``samples`` (how the tests and `doctor` check a tone)."""
    k = 2 * math.cos(2 * math.pi * freq / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + k * s1 - s2, s1
    return (s1 * s1 + s2 * s2 - k * s1 * s2) / max(1, len(samples)) ** 2
