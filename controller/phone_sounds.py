"""The phone's sounds, live: what the phone and the editor do, turned into the handset's sound
and the bell.

A thin adapter around the pure CallProgress machine, like DialListener around the decoder: one
worker thread (controller/worker.py, the runner both share) owns the machine, takes inputs from
a queue, reads the clock, and wakes at the machine's deadlines; it hands each Cue to the Player (the receiver) or the Ringer (the bell).

Inputs, from any thread:

* ``follow(bus)``: the table's "phone.hook", "phone.digit" and "editor.verdict" messages, read
  by a small pump thread, so the table needs no change (or call ``on_dial_event`` and
  ``on_verdict`` yourself; not both);
* ``edge(t, line, state)``: the phone's raw contact edges (PhonePins' sink), so the dial tone
  stops as the dial leaves rest, not a second later when the digit is decoded;
* ``ring(times)`` / ``stop_ringing()``: the game wants the player to pick up.

``notify`` (e.g. Bus.publish) hears {"type": "phone.sound", "data": {"receiver", "ringing",
"verdict", "resting"}} at every change (``resting``: the bell's heat budget has it resting a
while within a ring, hw.ringer) and {"type": "phone.answered"} when a ringing phone is picked up, so
the panel's virtual phone can show what the handset would sound like.
"""

import logging
import threading
import time

from . import events
from .audio.callprogress import BUSY_AFTER, CallProgress
from .audio.errors import AudioError
from .audio.player import VOLUME_MAX, Player, open_output
from .audio.speech import Speech
from .hw.bell import STRIKE_HZ
from .hw.ringer import RING_TIMEOUT_S, Ringer, check_times
from .worker import Worker

log = logging.getLogger(__name__)

DIAL_LINES = ("pulse", "offnormal")
# the bus messages heard() acts on: the sounds' follower is never woken for the others
HEARD = frozenset((events.PHONE_HOOK, events.PHONE_DIGIT, events.VERDICT))


def heard(message):
    """The sounds' job for a bus message (a hook change, a digit, a verdict), or None."""
    kind, data = message.get("type"), message.get("data") or {}
    if kind == events.PHONE_HOOK:
        return ("hook", data.get("state"))
    if kind == events.PHONE_DIGIT:
        return ("digit", data.get("digit"))
    if kind == events.VERDICT:
        return ("verdict", data)
    return None


class PhoneSounds:
    """Drives ``player`` (a Player) and ``ringer`` (a Ringer, or None for a phone without a bell)
    from the phone's events; closes both when closed."""

    def __init__(self, player, ringer=None, progress=None, clock=time.monotonic, notify=None):
        self.player = player
        self.ringer = ringer
        self._cp = progress if progress is not None else CallProgress()
        self._clock = clock
        self._notify = notify
        self._closing = threading.Event()
        self._sub = None
        self._pump = None
        self.receiver = "silence"
        self.ringing = False
        self.verdict = None
        self.resting = False
        if ringer is not None:
            ringer.on_rest = self._bell_rests
        # a silent player's tones are never heard: none is synthesized ahead (on a Pi Zero 2 W that
        # was CPU the panel's start waited for; docs/benchmarks.md, "A Pi Zero 2 W's budget")
        self._worker = Worker("phone-sounds", self._apply, lambda now: self._cp.advance(now), self._cp.deadline,
                              self._perform, clock=clock, bad=(),
                              first=None if player.silent else player.warm, done=self._synced)
        self._worker.start()

    # --- inputs (any thread) -------------------------------------------------------------------

    def follow(self, bus):
        """Take the phone's hook changes and digits and the editor's verdicts from ``bus``.
        Subscribe before the dial listener starts, so a handset already lifted is heard."""
        if self._sub is not None:
            raise AudioError("the phone's sounds already follow a bus")
        self._sub = bus.subscribe(kinds=HEARD)
        self._pump = threading.Thread(target=self._pump_bus, args=(self._sub,), name="phone-sounds-bus",
                                      daemon=True)
        self._pump.start()

    def on_dial_event(self, ev):
        """A DialEvent from the decoder (hook changes and digits; faults are not heard)."""
        if ev.kind == "hook":
            self._worker.put(("hook", ev.value))
        elif ev.kind == "digit":
            self._worker.put(("digit", ev.value))

    def on_verdict(self, data):
        """The editor's verdict, as the bus carries it: {"signal": ..., "message": ..., ...}."""
        self._worker.put(("verdict", data))

    def edge(self, t, line, state):
        """A raw contact edge: the dial leaving rest or breaking the line means dialing."""
        if line in DIAL_LINES and state:
            self._worker.put(("moved",))

    def ring(self, times=None):
        """Ring ``times`` cycles (None: until lifted or stopped); a lifted handset can't ring.
        Raises the ringer's BadRequest at once for a silly count."""
        if self.ringer is None:
            log.warning("asked to ring, but this phone has no ringer")
            return
        check_times(times)
        self._worker.put(("ring", times))

    def stop_ringing(self):
        self._worker.put(("stop_ring",))

    def wake(self):
        """Look at the clock now (tests move a fake clock, then wake the worker)."""
        self._worker.put(("wake",))

    def idle(self, timeout=5.0):
        """Wait until everything handed in so far has been heard (for tests and the CLI);
        False if that took longer than ``timeout``."""
        done = threading.Event()
        self._worker.put(("sync", done))
        return done.wait(timeout)

    def close(self):
        self._closing.set()
        if self._pump is not None and self._sub is not None:   # both set by start()
            self._sub.close()       # wakes the pump from its wait for a message
            self._pump.join()
        self._worker.stop(timeout=None)
        try:
            self.player.close()
        finally:
            if self.ringer is not None:
                self.ringer.close()

    # --- the worker ----------------------------------------------------------------------------

    def _pump_bus(self, sub):
        while not self._closing.is_set():
            message = sub.get()        # None: closed (close() wakes it)
            if message is None:
                continue
            job = heard(message)
            if job is not None:
                self._worker.put(job)

    @staticmethod
    def _synced(item):
        if item[0] == "sync":          # idle(): everything handed in before it has been heard
            item[1].set()

    def _apply(self, item):
        kind = item[0]
        if kind == "hook":
            return self._cp.hook(self._clock(), item[1])
        if kind == "moved":
            return self._cp.dial_moved(self._clock())
        if kind == "digit":
            return self._cp.digit(self._clock(), item[1])
        if kind == "verdict":
            data = item[1]
            if not self._cp.off_hook:
                return self._cp.advance(self._clock())   # nobody listening: don't render it
            clip = self.player.verdict_clip(data.get("signal"), data.get("message"))
            return self._cp.verdict(self._clock(), clip, clip.seconds)
        if kind == "ring":
            times = item[1]
            # a ring until answered ends at the ringer's own timeout, as an exchange's does
            seconds = RING_TIMEOUT_S if times is None else times * self.ringer.period
            return self._cp.ring(self._clock(), times, seconds)
        if kind == "stop_ring":
            return self._cp.stop_ringing(self._clock())
        return self._cp.advance(self._clock())

    def _perform(self, cues):
        for cue in cues:
            log.debug("%s", cue)
            if cue.channel == "receiver":
                self.receiver = cue.sound
                self.verdict = cue.item.label if cue.sound == "verdict" else None
                self._safely("playing " + cue.sound, self.player.play, cue.sound, cue.item)
            elif cue.sound == "ring":
                self.ringing = True
                self._safely("ringing the bell", self.ringer.ring, cue.item)
            elif cue.sound == "quiet":
                self.ringing = False
                self._safely("stopping the bell", self.ringer.stop)
            elif cue.sound == "answered":
                self._tell({"type": events.PHONE_ANSWERED, "data": {}})
                continue
            self._tell_sound()

    def _tell_sound(self):
        self._tell({"type": events.PHONE_SOUND, "data": {"receiver": self.receiver, "ringing": self.ringing,
                                                    "verdict": self.verdict, "resting": self.resting}})

    def _bell_rests(self, resting):
        """The ringer's heat budget rests the bell (True) or rings on (False): from its thread."""
        self.resting = resting
        self._tell_sound()

    def _safely(self, what, action, *args):
        """A sound device that fails must not stop the game: log it and go on."""
        try:
            action(*args)
        except Exception:
            log.exception("phone sounds: %s failed", what)

    def _tell(self, message):
        if self._notify is not None:
            self._safely("telling the panel", self._notify, message)


def build_phone_sounds(pinmap, pin_factory, audio=True, audio_device=None, tone_plan="north-america",
                       speech=True, speech_voice=None, busy_after=BUSY_AFTER, flash_max=1.0,
                       clock=time.monotonic, notify=None, ringer_switch=None, strike_hz=STRIKE_HZ,
                       volume=VOLUME_MAX):
    """The phone's sounds as the running product has them: aplay when installed (else silent),
    espeak-ng when installed (else figures), the ringer on the pin map's line, one ``tone_plan``
    for the tones and the ring cadence. Either all of it is built or nothing stays open."""
    progress = CallProgress(flash_max=flash_max, busy_after=busy_after)
    voice = Speech.find(voice=speech_voice) if speech else None
    player = Player(open_output(audio_device, enabled=audio), plan=tone_plan, speech=voice, volume=volume)
    try:
        ringer = Ringer(pinmap, pin_factory, cadence=tone_plan, switch=ringer_switch, strike_hz=strike_hz)
    except Exception:
        player.close()
        raise
    try:
        return PhoneSounds(player, ringer, progress, clock=clock, notify=notify)
    except Exception:
        ringer.close()
        player.close()
        raise
