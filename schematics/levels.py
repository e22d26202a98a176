"""The level each sound reaches at the handset's receiver, worked out from the code that makes
the sound: the tones' own amplitude (controller/audio/tones.py), the player's volume
(controller/audio/player.py, controller/config.py's default), the amplifier's full scale and
gain and the pad and receiver (hardware/parts.toml). docs/build.md shows the figures (a block
written by ``python -m schematics.generate``), so a change of any of them shows up there.

A sound is a sum of sines of ``tones.tone``'s level split between its notes: its rms, as a
share of a full-scale sine's, times the amplifier's output for a full-scale sine at its gain,
times the volume, through the pad into the receiver as a resistance of its impedance. The
amplifier is taken at its nominal gain (its datasheet's ±0.6 dB not added: these are the
levels to expect and to measure, not the worst case; the electrical rules and the simulations
hold the worst case).
"""

import inspect
import math

from controller.audio import tones
from controller.audio.player import VOLUME_MAX

# the sounds that reach the receiver, as the player makes them: name -> (its notes, in Hz)
SOUNDS = (
    ("dial tone", tones.PLANS["north-america"]["dial"][0]),
    ("ringback", tones.PLANS["north-america"]["ringback"][0]),
    ("busy", tones.PLANS["north-america"]["busy"][0]),
    ("a verdict's figure (each note)", (tones.VERDICT_NOTES["OK"][0],)),
)


def tone_level():
    """The level ``tones.tone`` gives a sound when the caller names none (its default): a share
    of digital full scale, split between the sound's notes."""
    return float(inspect.signature(tones.tone).parameters["level"].default)


def default_volume():
    from controller.config import DEFAULTS
    return int(DEFAULTS["audio_volume"])


def share_of_fullscale(notes, level=None):
    """The rms of ``len(notes)`` sines of ``level / len(notes)`` each (they don't share a
    frequency, so their powers add), over a full-scale sine's rms."""
    level = tone_level() if level is None else level
    each = level / len(notes)
    return math.sqrt(len(notes) * each ** 2 / 2) / (1 / math.sqrt(2))


def gain_db(parts):
    amp = parts.part("amplifier")
    return float(amp.get("gain_default_db", amp["gains_db"][len(amp["gains_db"]) // 2]))


def amplifier_vrms(parts, share, volume):
    """The amplifier's bridged output, volts rms, for a sound at ``share`` of full scale, scaled
    to ``volume`` percent, at its default gain, clipped where its supply stops it."""
    amp = parts.part("amplifier")
    full = 10 ** ((float(amp["fullscale_dbv"]) + gain_db(parts)) / 20.0)
    return min(full * share * volume / VOLUME_MAX, float(parts.audio["amp_max_vrms"]))


def receiver_mv(parts, vrms, ohms):
    """Millivolts rms across a receiver of ``ohms`` through the pad (a resistor in each leg)."""
    pad = 2 * float(parts.audio.get("pad_ohms", 0))
    return vrms * ohms / (ohms + pad) * 1000.0


def table(parts, volumes=None):
    """[(sound, volume, amplifier V rms, {receiver ohms: mV rms})], for the default volume, 100 %
    and half of it (what turning it down does)."""
    volumes = volumes or sorted({VOLUME_MAX // 2, default_volume(), VOLUME_MAX})
    zs = sorted({float(parts.audio["receiver_ohms"]), float(parts.audio["receiver_ohms_max"])})
    out = []
    for name, notes in SOUNDS:
        share = share_of_fullscale(notes)
        for volume in volumes:
            vrms = amplifier_vrms(parts, share, volume)
            out.append((name, volume, vrms, {z: receiver_mv(parts, vrms, z) for z in zs}))
    return out


def markdown(parts):
    rows = table(parts)
    zs = list(rows[0][3])
    amp = parts.part("amplifier")
    out = ["From the code and the parts: every tone made at %g of digital full scale, split between its notes "
           "(`controller/audio/tones.py`), the volume at %s (`audio_volume`, default %d %%); the "
           "amplifier at its default %g dB (GAIN unconnected) on the datasheet's %g dBV for a full-scale sine; the "
           "pad's 2 x %g Ω; the receiver at its DC ohms and at its impedance at speech frequencies:"
           % (tone_level(), " and ".join("%d %%" % v for v in sorted({r[1] for r in rows})), default_volume(),
              gain_db(parts), float(amp["fullscale_dbv"]),
              float(parts.audio["pad_ohms"])),
           "", "| sound | volume | amplifier out | %s |" % " | ".join("at %g Ω" % z for z in zs),
           "| --- | ---: | ---: | %s |" % " | ".join("---:" for _ in zs)]
    for name, volume, vrms, mv in rows:
        out.append("| %s | %d %% | %.2f V | %s |" % (name, volume, vrms, " | ".join("%.1f mV" % mv[z] for z in zs)))
    return "\n".join(out)
