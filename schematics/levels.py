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

# the sounds that reach the receiver, as the player makes them: (name, its notes in Hz, the
# call-progress tone it is or None)
SOUNDS = (
    ("dial tone", tones.PLANS["north-america"]["dial"][0], "dial"),
    ("ringback", tones.PLANS["north-america"]["ringback"][0], "ringback"),
    ("busy", tones.PLANS["north-america"]["busy"][0], "busy"),
    ("a verdict's figure (each note)", (tones.VERDICT_NOTES["OK"][0],), None),
)
# A real line's tone at the receiver, for comparison: the Precise Tone Plan's level at the
# exchange (tones.PLAN_DBM, dBm into 600 ohms) less the loop's loss, LOOP_LOSS_DB (newsdesk's
# estimate of a short and a long subscriber loop; a PBX's station port gives about -20 dBm for
# dial tone, inside this range), then stepped down by the phone's own network to the receiver's
# impedance as a transformer would, less NETWORK_LOSS_DB (an estimate). Estimates throughout: a
# guide to "about as loud as a real line", not a measurement.
LINE_OHMS = 600.0
LOOP_LOSS_DB = (0.0, 8.0)
NETWORK_LOSS_DB = 3.0


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


def real_line_mv(tone, ohms):
    """(the least, the most) millivolts rms a real line's ``tone`` gives a receiver of ``ohms``
    (the estimate above); None for a sound a line doesn't make."""
    if tone is None:
        return None
    out = []
    for loss in (LOOP_LOSS_DB[1], LOOP_LOSS_DB[0]):
        line_v = math.sqrt(10 ** ((tones.PLAN_DBM[tone] - loss) / 10.0) / 1000.0 * LINE_OHMS)
        out.append(line_v * math.sqrt(ohms / LINE_OHMS) * 10 ** (-NETWORK_LOSS_DB / 20.0) * 1000.0)
    return tuple(out)


def table(parts, volumes=None):
    """[(sound, volume, amplifier V rms, {receiver ohms: mV rms}, {receiver ohms: a real line's
    (least, most) mV or None})], for the default volume, 100 % and half of it (what turning it
    down does)."""
    volumes = volumes or sorted({VOLUME_MAX // 2, default_volume(), VOLUME_MAX})
    zs = sorted({float(parts.audio["receiver_ohms"]), float(parts.audio["receiver_ohms_max"])})
    out = []
    for name, notes, tone in SOUNDS:
        share = share_of_fullscale(notes, tones.level_of(tone) if tone else None)
        for volume in volumes:
            vrms = amplifier_vrms(parts, share, volume)
            out.append((name, volume, vrms, {z: receiver_mv(parts, vrms, z) for z in zs},
                        {z: real_line_mv(tone, z) for z in zs}))
    return out


def markdown(parts):
    rows = table(parts)
    zs = list(rows[0][3])
    amp = parts.part("amplifier")
    out = ["From the code and the parts: the dial tone made at %g of digital full scale, ringback and busy "
           "below it by the Precise Tone Plan's steps (%s), a verdict's figure at %g, each split between its "
           "notes (`controller/audio/tones.py`), the volume at %s (`audio_volume`, default %d %%); the "
           "amplifier at its default %g dB (GAIN unconnected) on the datasheet's %g dBV for a full-scale sine; the "
           "pad's 2 x %g Ω; the receiver at its DC ohms and at its impedance at speech frequencies. Beside them, "
           "a real line's, estimated: the plan's level less a %g-%g dB loop, stepped down from %g Ω to the "
           "receiver less %g dB for the phone's network:"
           % (tones.DIAL_LEVEL, ", ".join("%s %g dBm" % kv for kv in tones.PLAN_DBM.items()), tone_level(),
              " and ".join("%d %%" % v for v in sorted({r[1] for r in rows})), default_volume(),
              gain_db(parts), float(amp["fullscale_dbv"]), float(parts.audio["pad_ohms"]),
              LOOP_LOSS_DB[0], LOOP_LOSS_DB[1], LINE_OHMS, NETWORK_LOSS_DB),
           "", "| sound | volume | amplifier out | %s | %s |" % (
               " | ".join("at %g Ω" % z for z in zs), " | ".join("a real line at %g Ω (est.)" % z for z in zs)),
           "| --- | ---: | ---: | %s |" % " | ".join("---:" for _ in zs * 2)]
    for name, volume, vrms, mv, line in rows:
        out.append("| %s | %d %% | %.2f V | %s | %s |" % (
            name, volume, vrms, " | ".join("%.1f mV" % mv[z] for z in zs),
            " | ".join("%.0f-%.0f mV" % line[z] if line[z] else "" for z in zs)))
    return "\n".join(out)
