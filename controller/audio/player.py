"""Plays the handset's sounds through ALSA, with `aplay` (alsa-utils) as a child process.

One sound at a time: starting one stops the last. Each sound is its own ``aplay`` reading raw
16-bit mono PCM on its input, fed by a small thread; stopping kills it, so a tone ends the
moment the call moves on, not when ALSA's buffer drains. A tone that goes on until stopped
(dial, ringback, busy) is fed as its head and then its cycle over and over (tones.loop).

The output is handed in, like a pin factory: AplayOutput on a Pi, CaptureOutput in tests (it
keeps what would have been played), NullOutput when there is no aplay (audio is off; said
once in the log).
"""

import array
import functools
import logging
import queue
import shutil
import subprocess
import threading

from . import tones
from .errors import SpeechError

log = logging.getLogger(__name__)

TONES = ("dial", "ringback", "busy")
VOLUME_MAX = 100            # percent: the loudest the wiring allows (the pad in docs/build.md sets it)


def check_volume(volume):
    """A volume is a whole percent 1-100; ValueError otherwise (it never goes above the wiring's)."""
    if isinstance(volume, bool) or not isinstance(volume, int) or not 1 <= volume <= VOLUME_MAX:
        raise ValueError("the handset's volume is 1-%d percent, not %r" % (VOLUME_MAX, volume))
    return volume


def scale_pcm(pcm, volume):
    """16-bit mono PCM at ``volume`` percent: every sample scaled down, never up (so it can't clip)."""
    if volume >= VOLUME_MAX:
        return bytes(pcm)
    samples = array.array("h")
    samples.frombytes(bytes(pcm))
    samples = array.array("h", [s * volume // VOLUME_MAX for s in samples])
    return samples.tobytes()


@functools.lru_cache(maxsize=16)
def synthesized_loop(name, plan, rate, volume):
    """Tone ``name`` of ``plan`` as PCM ``(head, cycle)`` at ``volume``: pure arithmetic of these four,
    so every player with them shares one synthesis (a slow Pi takes a moment over it; the box, and
    each test, may build players again with the same settings)."""
    head, cycle = tones.loop(name, plan, rate)
    return scale_pcm(tones.pcm_bytes(head), volume), scale_pcm(tones.pcm_bytes(cycle), volume)


class Clip:
    """A finite sound: mono 16-bit PCM at ``rate``; ``label`` says what it is, for logs and tests."""

    __slots__ = ("pcm", "rate", "label")

    def __init__(self, pcm, rate, label):
        self.pcm = pcm
        self.rate = rate
        self.label = label

    @property
    def seconds(self):
        return len(self.pcm) / (2.0 * self.rate)

    def __repr__(self):
        return "<Clip %s %.2f s at %d Hz>" % (self.label, self.seconds, self.rate)


class NullOutput:
    """No sound. ``off``: because the settings say audio = off (else aplay is missing)."""

    device = None

    def __init__(self, off=False):
        self.off = off
    """No sound device: everything is dropped."""

    def start(self, rate, chunks, label=""):
        pass

    def stop(self):
        pass

    def close(self):
        pass


class CaptureOutput:
    """Keeps what would be played: each start is a Played in ``plays`` and on a queue that a
    test waits on (``next(timeout)``). An endless sound is kept for its first ``keep`` seconds."""

    device = "memory (a capture)"

    def __init__(self, keep=8.0):
        self.keep = keep
        self.plays = []
        self.stops = 0
        self._q: queue.Queue[Played] = queue.Queue()

    def start(self, rate, chunks, label=""):
        limit = int(self.keep * rate) * 2
        pcm = bytearray()
        for chunk in chunks:
            pcm += chunk
            if len(pcm) >= limit:
                break
        played = Played(label, rate, bytes(pcm[:limit]))
        self.plays.append(played)
        self._q.put(played)

    def stop(self):
        self.stops += 1

    def close(self):
        pass

    def next(self, timeout=5.0):
        """The next sound started, or None after ``timeout`` seconds."""
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def labels(self):
        return [p.label for p in self.plays]


class Played:
    __slots__ = ("label", "rate", "pcm")

    def __init__(self, label, rate, pcm):
        self.label = label
        self.rate = rate
        self.pcm = pcm

    def samples(self):
        import array
        a = array.array("h")
        a.frombytes(self.pcm)
        return a.tolist()

    def __repr__(self):
        return "<Played %s %d bytes>" % (self.label, len(self.pcm))


class AplayOutput:
    """ALSA through ``aplay``. ``device`` is aplay's -D (e.g. "plughw:1,0" for a USB sound card);
    None is ALSA's default. A failing aplay (no sound card, device busy) is logged once per
    message; the game goes on without sound."""

    def __init__(self, device=None, program="aplay"):
        self.device = device
        self.program = program
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._feeder: threading.Thread | None = None
        self._stop: threading.Event | None = None
        self._said = set()

    def argv(self, rate):
        argv = [self.program, "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(int(rate))]
        if self.device:
            argv += ["-D", self.device]
        return argv + ["-"]

    def start(self, rate, chunks, label=""):
        with self._lock:
            self._stop_locked()
            try:
                proc = subprocess.Popen(self.argv(rate), stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            except OSError as e:
                self._warn_once(("start", str(e)), "no handset audio: %s could not be started: %s"
                                % (self.program, e))
                return
            stop = threading.Event()
            feeder = threading.Thread(target=self._feed, args=(proc, chunks, stop, label),
                                      name="audio-feed", daemon=True)
            self._proc, self._feeder, self._stop = proc, feeder, stop
            feeder.start()

    def stop(self):
        with self._lock:
            self._stop_locked()

    close = stop

    @property
    def playing(self):
        with self._lock:
            return self._proc is not None and self._proc.poll() is None

    def _stop_locked(self):
        if self._proc is None or self._feeder is None or self._stop is None:   # set together in start()
            return
        self._stop.set()
        if self._proc.poll() is None:
            try:
                self._proc.kill()
            except OSError:
                pass
        self._feeder.join()
        self._proc = self._feeder = self._stop = None

    def _feed(self, proc, chunks, stop, label):
        """Owns the process's pipes: writes the sound, then reaps aplay and says why it failed."""
        try:
            for chunk in chunks:
                if stop.is_set():
                    break
                proc.stdin.write(chunk)
            proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass  # killed, or aplay gave up: its exit status and stderr say which
        finally:
            try:
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        proc.wait()
        said = proc.stderr.read().decode("utf-8", "replace").strip()
        proc.stderr.close()
        if proc.returncode != 0 and not stop.is_set():
            last = said.splitlines()[-1] if said else "no message"
            self._warn_once((proc.returncode, last), "%s on %s exited with %d playing %s: %s"
                            % (self.program, self.device or "ALSA's default device",
                               proc.returncode, label or "a sound", last))

    def _warn_once(self, key, message):
        """The same failure at every call would flood the log: each is said once."""
        if key not in self._said:
            self._said.add(key)
            log.warning("%s", message)


def open_output(device=None, enabled=True, program="aplay"):
    """AplayOutput when audio is on and ``program`` is on PATH; else NullOutput, logged once here."""
    if not enabled:
        log.info("handset audio is off (setting)")
        return NullOutput(off=True)
    path = shutil.which(program)
    if path is None:
        log.warning("handset audio is off: %s (alsa-utils) is not installed", program)
        return NullOutput()
    log.info("handset audio through %s on %s", program, device or "ALSA's default device")
    return AplayOutput(device=device, program=path)


class Player:
    """The handset's receiver: call-progress tones of a ``plan`` and the editor's verdicts,
    spoken with ``speech`` (a Speech) or, without it, as each verdict's two-note figure."""

    def __init__(self, output, plan="north-america", speech=None, rate=tones.RATE, volume=VOLUME_MAX):
        for name in TONES:
            tones.cadence(name, plan)  # ConfigError now, not at the first call
        self.volume = check_volume(volume)
        self.output = output
        self.plan = plan
        self.speech = speech
        self.rate = rate
        self.now = "silence"
        self._clips = {}
        self._speech_failed = False

    def play(self, sound, clip=None):
        """Start ``sound``: "silence", a tone name, or "verdict" with its Clip."""
        if sound == "silence":
            self.output.stop()
        elif sound == "verdict":
            if clip is None:
                raise ValueError("a verdict needs its clip")
            self.output.start(clip.rate, [clip.pcm], clip.label)
        elif sound in TONES:
            head, cycle = self._loop(sound)
            self.output.start(self.rate, _endless(head, cycle), sound)
        else:
            raise ValueError("the player has no sound %r (sounds: silence, verdict, %s)"
                             % (sound, ", ".join(TONES)))
        self.now = sound

    @property
    def silent(self):
        """Whether nothing is heard from this player (no sound device, or audio = off)."""
        return isinstance(self.output, NullOutput)

    def warm(self):
        """Synthesize the tones now (a slow Pi takes a moment), not when the handset is lifted."""
        for name in TONES:
            self._loop(name)

    def verdict_clip(self, signal, message):
        """The verdict as it will be heard: ``message`` spoken, else the signal's figure."""
        key = (signal, message)
        if key not in self._clips:
            self._clips[key] = self._render(signal, message)
        return self._clips[key]

    def close(self):
        self.output.stop()
        self.output.close()

    def health(self):
        """The health strip's "audio" part (controller/health.py)."""
        if isinstance(self.output, NullOutput):
            if self.output.off:
                return {"status": "absent", "summary": "Turned off in the settings (audio = off)."}
            return {"status": "warn",
                    "summary": "No sound: aplay (alsa-utils) is not installed, so the handset stays silent."}
        voice = "spoken" if self.speech is not None else "as tones (espeak-ng is not installed)"
        device = self.output.device
        return {"status": "ok",
                "summary": "Handset sound through %s; verdicts %s." % (device or "ALSA's default device", voice)}

    def _render(self, signal, message):
        if self.speech is not None and message and not self._speech_failed:
            try:
                rate, pcm = self.speech.render(message)
                return Clip(scale_pcm(pcm, self.volume), rate, "speech:%s" % signal)
            except SpeechError as e:
                # once: a broken espeak-ng would otherwise cost a timeout at every call
                self._speech_failed = True
                log.warning("the editor speaks in tones from now on: %s", e)
        if signal in tones.VERDICT_NOTES:
            samples = tones.verdict_figure(signal, self.rate)
        else:
            samples = tones.tone((440.0,), 0.5, self.rate)  # a signal without a figure: one plain note
        return Clip(scale_pcm(tones.pcm_bytes(samples), self.volume), self.rate, "figure:%s" % signal)

    def _loop(self, name):
        return synthesized_loop(name, self.plan, self.rate, self.volume)


def _endless(head, cycle):
    if head:
        yield head
    while True:
        yield cycle
