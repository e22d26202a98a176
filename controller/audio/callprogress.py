"""What the handset should sound like and whether the bell rings: the call-progress machine.

Pure, like the decoder: fed the phone's decoded events, the editor's verdicts and ring requests,
each with the time; told the time with ``advance(t)``; ``deadline()`` says when it next needs
telling. It returns Cues (what to play from when) and never sleeps, plays or reads a clock.

One call, as the player hears it (newsdesk's choices for the timings, all configurable)::

    handset  cradle ┐ lifted                                                    ┌ cradle
                    └───────────────────────────────────────────────────────────┘
    dial                    ┌┐┌┐┌┐┌┐
    receiver        │ dial  │silence │ringback │ verdict   │ silence   │ busy   │
                    ^lift   ^moved   ^digit    ^           ^said       ^
                                     |<------->| answer_after          |
                                                           |<--------->| busy_after

* dial tone from the lift (or a hook flash) until the dial moves;
* silence while dialing;
* ringback from the digit until the editor "answers" ``answer_after`` later (one ring of the
  cadence, then the verdict; the verdict itself is decided at once), or until it comes;
* the verdict, for as long as saying it takes (the adapter tells how long);
* silence, and after ``busy_after`` of silence with the handset still off the hook, busy,
  until the handset goes back or the dial moves again (a digit always places a new call).

An on-hook is silence at once; the Handset tells a flash (new dial tone) from hanging up. The
bell rings only while the handset is on the cradle and stops the moment it is lifted: that
lift is "answered" (the line then stays silent, and goes busy like any silence).
"""

from ..dial.handset import Handset
from ..errors import ConfigError

RECEIVER = ("silence", "dial", "ringback", "verdict", "busy")
BELL = ("ring", "quiet", "answered")

ANSWER_AFTER = 2.5      # seconds of ringback before the verdict: a full 2 s ring, then a breath
BUSY_AFTER = 20.0       # seconds of off-hook silence before busy (newsdesk's choice)
UNANSWERED_AFTER = 30.0  # ringback with no verdict this long: give up, busy


class Cue:
    """One change: on the ``channel`` "receiver", ``sound`` (one of RECEIVER) plays from ``t``
    (a cadence starts at ``t``); ``item`` is the verdict's clip for "verdict". On "bell",
    "ring" (``item``: how many rings, None = until stopped), "quiet", or "answered"."""

    __slots__ = ("t", "channel", "sound", "item")

    def __init__(self, t: float, channel: str, sound: str, item: object = None) -> None:
        self.t = t
        self.channel = channel
        self.sound = sound
        self.item = item

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Cue) and (self.t, self.channel, self.sound, self.item)
                == (other.t, other.channel, other.sound, other.item))

    def __repr__(self) -> str:
        if self.item is None:
            return "Cue(%r, %r, %r)" % (self.t, self.channel, self.sound)
        return "Cue(%r, %r, %r, %r)" % (self.t, self.channel, self.sound, self.item)


class _Call:
    """A dialed digit waiting for the editor: answered at ``answer_at`` once its clip is in."""

    __slots__ = ("placed", "answer_at", "clip", "seconds", "arrived")

    def __init__(self, placed: float, answer_at: float) -> None:
        self.placed = placed
        self.answer_at = answer_at
        self.clip: object = None
        self.seconds = 0.0          # the clip's length, once it is in
        self.arrived = 0.0          # when the clip came, once it is in

    def ready_at(self) -> float | None:
        return None if self.clip is None else max(self.answer_at, self.arrived)


def _seconds(name: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError("%s must be %g to %g seconds, got %r" % (name, low, high, value))
    return float(value)


class CallProgress:
    """The receiver's sound and the bell's state, from events and the time."""

    def __init__(self, flash_max: float = 1.0, answer_after: float = ANSWER_AFTER, busy_after: float = BUSY_AFTER,
                 unanswered_after: float = UNANSWERED_AFTER) -> None:
        self.answer_after = _seconds("answer_after", answer_after, 0.0, 30.0)
        self.busy_after = _seconds("busy_after", busy_after, 1.0, 600.0)
        self.unanswered_after = _seconds("unanswered_after", unanswered_after, self.answer_after, 600.0)
        try:
            self._handset = Handset(flash_max)
        except ValueError as e:
            raise ConfigError("flash_max: %s" % e) from None
        self.receiver = "silence"
        self.ringing = False
        self._phase = "idle"      # idle | dial | dialing | ringback | verdict | quiet | busy
        self._calls: list[_Call] = []        # digits waiting for (or holding) the editor's verdict
        self._said_at: float | None = None   # the verdict being played ends then
        self._quiet_since: float | None = None   # off the hook and silent since (busy after busy_after)
        self._ring_until: float | None = None

    @property
    def off_hook(self) -> bool:
        """The handset is off the cradle (a possible flash counts as on)."""
        return self._handset.off_hook

    # --- inputs -------------------------------------------------------------------------------

    def hook(self, t: float, state: str) -> list[Cue]:
        """A debounced hook change from the decoder: "off" (lifted) or "on"."""
        out = self.advance(t)
        was_off = self._handset.off_hook
        was_ringing = self.ringing
        events = self._handset.hook(t, state)
        if state == "off" and not was_off:
            if self.ringing:
                self._bell(t, "quiet", out)
                out.append(Cue(t, "bell", "answered"))
            for ev in events:
                if ev.kind == "hang_up":  # a late lift: the hang-up became certain first
                    self._hang_up(ev.t, out)
                elif was_ringing:
                    self._start_silence(t, out)
                else:
                    self._calls = []
                    self._phase = "dial"
                    self._receive(t, "dial", out)
        elif state == "on" and was_off:
            self._calls = []
            self._phase = "idle"
            self._quiet_since = None
            self._receive(t, "silence", out)
        return out

    def dial_moved(self, t: float) -> list[Cue]:
        """The dial left rest or broke the line (a raw pulse or off-normal edge): silence, and
        the silence timer starts again, at every call."""
        out = self.advance(t)
        if self.off_hook and self._phase in ("dial", "dialing", "quiet", "busy"):
            self._start_silence(t, out, phase="dialing")
        return out

    def digit(self, t: float, digit: int) -> list[Cue]:
        """A decoded digit: a call to the editor, answered with the verdict that comes for it."""
        out = self.advance(t)
        if not self.off_hook:
            return out
        self._calls.append(_Call(t, t + self.answer_after))
        if self._phase not in ("ringback", "verdict"):
            self._phase = "ringback"
            self._quiet_since = None
            self._receive(t, "ringback", out)
        return out

    def verdict(self, t: float, clip: object, seconds: float) -> list[Cue]:
        """The editor's verdict, as ``clip`` (whatever the player plays) lasting ``seconds``.
        It answers the oldest call still waiting; with none waiting, it is said straight away."""
        out = self.advance(t)
        if not self.off_hook:
            return out
        call = next((c for c in self._calls if c.clip is None), None)
        if call is None:
            call = _Call(t, t)
            self._calls.append(call)
        call.clip, call.seconds, call.arrived = clip, max(0.0, float(seconds)), t
        if self._phase not in ("ringback", "verdict"):
            self._next_call(t, out)
        out += self.advance(t)
        return out

    def ring(self, t: float, times: int | None = None, seconds: float | None = None) -> list[Cue]:
        """The game wants the player: ring for ``seconds`` (None = until lifted or stopped).
        ``times`` is handed on to the bell. A handset already off the hook can't ring: []."""
        out = self.advance(t)
        if self.off_hook:
            return out
        self._ring_until = None if seconds is None else t + seconds
        self.ringing = True
        out.append(Cue(t, "bell", "ring", times))
        return out

    def stop_ringing(self, t: float) -> list[Cue]:
        out = self.advance(t)
        if self.ringing:
            self._bell(t, "quiet", out)
        return out

    # --- time ---------------------------------------------------------------------------------

    def deadline(self) -> float | None:
        """When ``advance`` next has something to do, or None."""
        due = self._due()
        return None if due is None else due[0]

    def advance(self, t: float) -> list[Cue]:
        """Everything due by ``t``, each at the time it fell due."""
        out: list[Cue] = []
        while True:
            due = self._due()
            if due is None or due[0] > t:
                return out
            when, what = due
            if what == "handset":
                for ev in self._handset.advance(when):
                    self._hang_up(ev.t, out)
            elif what == "ring_over":
                self._bell(when, "quiet", out)
            elif what == "answer":
                self._next_call(when, out)
            elif what == "unanswered":
                self._calls = []
                self._go_busy(when, out)
            elif what == "said":
                self._said_at = None
                self._next_call(when, out)
            elif what == "busy":
                self._go_busy(when, out)

    def _due(self) -> tuple[float, str] | None:
        dues: list[tuple[float, str]] = []
        handset = self._handset.deadline()
        if handset is not None:
            dues.append((handset, "handset"))
        if self.ringing and self._ring_until is not None:
            dues.append((self._ring_until, "ring_over"))
        if self._phase == "ringback" and self._calls:
            head = self._calls[0]
            ready = head.ready_at()
            if ready is not None:
                dues.append((ready, "answer"))
            else:
                dues.append((head.placed + self.unanswered_after, "unanswered"))
        elif self._phase == "verdict" and self._said_at is not None:
            dues.append((self._said_at, "said"))
        elif self._phase in ("dialing", "quiet") and self._quiet_since is not None:
            dues.append((self._quiet_since + self.busy_after, "busy"))
        return min(dues, key=lambda d: d[0]) if dues else None

    # --- transitions --------------------------------------------------------------------------

    def _receive(self, t: float, sound: str, out: list[Cue], item: object = None) -> None:
        if sound != self.receiver or sound == "verdict":
            self.receiver = sound
            out.append(Cue(t, "receiver", sound, item))

    def _bell(self, t: float, sound: str, out: list[Cue]) -> None:
        self.ringing = False
        self._ring_until = None
        out.append(Cue(t, "bell", sound))

    def _start_silence(self, t: float, out: list[Cue], phase: str = "quiet") -> None:
        self._phase = phase
        self._quiet_since = t
        self._receive(t, "silence", out)

    def _go_busy(self, t: float, out: list[Cue]) -> None:
        self._phase = "busy"
        self._quiet_since = None
        self._receive(t, "busy", out)

    def _hang_up(self, t: float, out: list[Cue]) -> None:
        self._calls = []
        self._phase = "idle"
        self._said_at = None
        self._quiet_since = None
        self._receive(t, "silence", out)

    def _next_call(self, t: float, out: list[Cue]) -> None:
        """After a verdict (or when one comes unasked): the next call's verdict if it is due,
        its ringback if not, or silence when no call is waiting."""
        if not self._calls:
            self._start_silence(t, out)
            return
        head = self._calls[0]
        ready = head.ready_at()
        if ready is not None and ready <= t:
            self._calls.pop(0)
            self._phase = "verdict"
            self._said_at = t + head.seconds
            self._receive(t, "verdict", out, head.clip)
        else:
            self._phase = "ringback"
            self._quiet_since = None
            self._receive(t, "ringback", out)
