"""The dial decoder: raw contact edges in, digits and hook changes out.

Pure and MicroPython-safe (the Pico firmware runs this very file): no clock, no pins, no
threads, no imports beyond dialmaps, no f-strings or dataclasses. It is fed ``(t, line, state)``
edges and told the time with ``advance(t)``; ``deadline()`` says when it next needs telling.
Times are in any unit: seconds as floats on the Pi, or integer microseconds on the Pico
(``ticks_per_second=1000000``), where single-precision floats could not hold a timestamp.

Debouncing. A contact's level is accepted once it has held for ``settle``; the edge is dated
at the *first* toggle of the burst, so bounce doesn't make pulses late, and any excursion
shorter than ``settle`` (chatter inside a break or make, a spike on an idle line) is dropped.
A longer burst of bounce can leave a wrong level standing for a few ms: a break shorter than
``MIN_BREAK`` or a make shorter than ``MIN_MAKE`` is such a blip and is taken back::

    raw     ──┐ ┌┐ ┌──────────────┐   ┌────  a 1 ms chatter in the make: dropped
              └─┘└─┘              └─┬─┘
    stable  ──┐                     no change
              └────────────────────────────
              ^ edge dated here     |<settle>|  (held for settle: accepted)

Digits. A digit is a train of breaks (pulse contacts open); it is over once the make after
the last break has clearly outlasted the make that break calls for::

    pulse   ___┌──┐__┌──┐__┌──┐_________________   1 = break, 0 = make
               |brk|mk|   |   |<-- end_after -->| digit decided here
                              ^ last pulse edge (latency is measured from here)

Never trust a single make. A worn dial is slowed by a finger resting on it, its governor
drifts along the train and its first pulse is off in both break and make, but the break and the
make of one pulse stretch together: the dial's make/break *ratio* holds while its speed wanders.
So the make to wait for is ``ratio * (the last break)``: the ratio learned from the pulses
between the first and the last (the first pulse is never evidence of it), from earlier digits
of the same call, or from the phone's profile, taking the largest seen (it is an upper bound
we want, not an average); ``end_after`` is that make times 1 + ``END_SLACK`` (more when the
ratios seen spread: a jittery dial gets the slack its jitter asks for), and never less than a
make the train has shown after its first two pulses (those a finger can drag). A train whose
only pulse so far is its first allows its make to be ``FIRST_MAKE_SLACK`` times that.
With nothing learned yet the ratio is the physical bound of a 52 % break. Never more than
``end_max``. A profile is only a starting point: never taken below ``START_FLOOR``, overruled by
the train's own first make, and a break coming within ``SPLIT_GAP`` of a digit's end (a digit
cut short) teaches the decoder the real ratio for the rest of the call. With an off-normal contact, its return to rest ends the digit as soon as the
last make has clearly begun (it can come back a few ms *before* that make; a contact bouncing
on its way back is debounced first, and a rest seen early in a make doesn't end the digit until
a third of the expected make has passed), and a pull without pulses is no digit. A break far longer
than any dial's (``stuck``) is a wiring fault: the train is dropped, not decoded.
"""

try:
    from .dialmaps import digit_for
except ImportError:  # MicroPython firmware: the modules sit side by side, not in a package
    from dialmaps import digit_for  # type: ignore[no-redef]

TYPE_CHECKING = False
if TYPE_CHECKING:   # the type checker's import only: the Pico's MicroPython has no typing module
    from typing import Callable  # noqa: F401 (named in the type comments, which ruff does not read)

HOOK, PULSE, OFFNORMAL = "hook", "pulse", "offnormal"
LINES = (HOOK, PULSE, OFFNORMAL)

# Seconds; scaled by ticks_per_second. Shortest real make is ~20 ms (13 pps, 72 % break).
SETTLE = {PULSE: 0.004, OFFNORMAL: 0.010, HOOK: 0.025}
# The shortest on-hook that counts as one: a hand resting on the cradle between two digits holds
# it down 25-50 ms, and exchanges ignore an on-hook shorter than about 80-100 ms (a deliberate
# tap of the cradle, a flash, lasts 200 ms or more). Shorter ones are no hook change at all; a
# lift is still reported after SETTLE[HOOK]. Settable per phone (the min_flash_ms setting).
MIN_FLASH = 0.100
END_SLACK = 0.30          # the last make may run this much past ratio * its break
SPREAD_PART = 0.5         # plus this much of how far the dial's ratios have spread (at most SPREAD_MAX)
SPREAD_MAX = 0.4
END_MARGIN = 0.004
END_MIN = 0.025
END_MAX = 0.250           # never wait longer than this after a make (digits are >= 0.3 s apart)
RATIO_MAX = 0.96          # make / break at a 52 % break, with a little jitter: the physical bound
FIRST_MAKE_SLACK = 2.1    # a first make may be this many times ratio * its break (1.5 / 0.8, jitter)
FIRST_RATIO_SLACK = 1.7   # the dial's ratio may be this many times the first pulse's (1.25 / 0.75)
REST_PART = 0.35          # off-normal at rest ends the digit after this much of the expected make
MIN_BREAK = 0.012         # a shorter break is a blip in a make: real ones are 25 ms or more
MIN_MAKE = 0.008          # a shorter make is a blip in a break: real ones are 12 ms or more
START_FLOOR = 0.45        # a profile's ratio is never taken below this (a 69 % break): a wrong one is safe
SPLIT_GAP = 0.2           # a break this soon after a digit ends means that digit was cut short
STUCK_BREAK = 0.6         # a break longer than this is a broken or unwired pulse contact
STUCK_OFFNORMAL = 20.0    # nobody holds a dial off rest this long
# the off-normal setting's words (config, `dial replay --offnormal`) and the decoder's value for each
OFFNORMAL_MODES = {"auto": "auto", "wired": True, "none": False}  # type: dict[str, bool | str]
PROFILE_SIZE = 16         # make/break ratios remembered from earlier digits of the same dial


class DialEvent(object):
    """One decision: ``kind`` is "hook" (value "off"/"on"), "digit" (value 0-9), "fault" (value:
    a sentence) or "fault_cleared". ``t`` is when the decoder decided; for a digit,
    ``last_edge`` is the time of its last pulse edge and ``pulses`` how many it counted; ``breaks``
    and ``makes`` are its pulses' lengths as the decoder measured them."""

    def __init__(self, t, kind, value, pulses=None, last_edge=None, breaks=None, makes=None):
        # type: (float, str, int | str, int | None, float | None, list[float] | None, list[float] | None) -> None
        self.t = t
        self.kind = kind
        self.value = value
        self.pulses = pulses
        self.last_edge = last_edge
        self.breaks = breaks    # a digit's breaks, debounced, in time order (the dial tester reads them)
        self.makes = makes      # and the makes between them (one fewer)

    def as_dict(self):
        # type: () -> dict[str, object]
        if self.kind == "digit":
            return {"t": self.t, "event": "digit", "digit": self.value}
        if self.kind == "hook":
            return {"t": self.t, "event": "hook", "state": self.value}
        return {"t": self.t, "event": self.kind, "message": self.value}

    def __repr__(self):
        # type: () -> str
        return "DialEvent(%r, %r, %r)" % (self.t, self.kind, self.value)


class _Contact(object):
    """One contact's debouncer: the accepted level, and a pending burst of raw toggles."""

    def __init__(self, settle):
        # type: (float) -> None
        self.settle = settle
        self.stable = 0
        self.raw = 0
        self.raw_t = 0.0     # time of the last raw toggle
        self.first = None    # type: float | None  # first raw toggle of the pending burst (None: nothing pending)
        self.since = None    # type: float | None  # when the stable level was entered (its first edge)

    def due(self):
        # type: () -> float | None
        return None if self.first is None else self.raw_t + self.settle

    def toggle(self, t, state):
        # type: (float, int) -> None
        if state == self.raw:
            return            # a repeated level: no edge
        self.raw = state
        self.raw_t = t
        if self.first is None:
            self.first = t

    def resolve(self):
        # type: () -> float | None
        """Settle the pending burst; returns the accepted edge time, or None if it came to nothing."""
        first = self.first
        self.first = None
        if self.raw == self.stable:
            return None
        self.stable = self.raw
        self.since = first
        return first


class DialDecoder(object):
    """Decodes one phone's contacts. ``offnormal``: True (wired), False (ignore it) or "auto"
    (used once the line is seen to move). ``settle`` overrides SETTLE per line, in seconds.
    ``ratio``: the dial's make/break ratio from its profile, a starting point only: once this
    call has shown its own pulses, they are what counts. ``min_flash``: the shortest on-hook, in
    seconds, that is reported (MIN_FLASH by default; shorter ones are no change at all)."""

    def __init__(self, dial_map="standard", offnormal="auto", ticks_per_second=1,
                 settle=None, initial=None, ratio=None, min_flash=None):
        # type: (str, bool | str, float, dict[str, float] | None, dict[str, int] | None, float | None, float | None) -> None
        digit_for(1, dial_map)  # raises ValueError for an unknown map
        if offnormal not in (True, False, "auto"):
            raise ValueError("offnormal must be True, False or 'auto', not %r" % (offnormal,))
        self.dial_map = dial_map
        self.offnormal = offnormal
        self._tps = ticks_per_second
        self._int = isinstance(ticks_per_second, int) and ticks_per_second > 1
        settle_s = dict(SETTLE)
        if settle:
            settle_s.update(settle)
        if min_flash is None:
            min_flash = MIN_FLASH
        if not 0 <= min_flash <= 2:
            raise ValueError("the shortest on-hook is 0 to 2 seconds, not %r" % (min_flash,))
        self._min_flash = self._ticks(min_flash)
        self._on_since = None     # type: float | None  # a debounced on-hook not yet long enough to report
        self._contacts = {}
        for line in LINES:
            self._contacts[line] = _Contact(self._ticks(settle_s[line]))
        self._end_margin = self._ticks(END_MARGIN)
        self._min_break = self._ticks(MIN_BREAK)
        self._min_make = self._ticks(MIN_MAKE)
        self._end_min = self._ticks(END_MIN)
        self._end_max = self._ticks(END_MAX)
        self._stuck_break = self._ticks(STUCK_BREAK)
        self._stuck_offnormal = self._ticks(STUCK_OFFNORMAL)
        # (type comments, not annotations: this file runs on the Pico's MicroPython too)
        self._now = None          # type: float | None
        self._start_ratio = None  # type: float | None
        self.set_ratio(ratio)     # from the phone's profile
        self._profile = []        # type: list[float]  # make/break ratios of mid-train pulses, from earlier digits
        self._ended = None        # type: tuple[float, float] | None  # (last make, last break) of the digit just ended
        self._split_gap = self._ticks(SPLIT_GAP)
        self._faults = {}         # type: dict[str, bool]  # line -> True while a fault stands
        self._last_make = None    # type: float | None
        self._prev_make = None    # type: float | None
        self._count = 0
        self._makes = []          # type: list[float]
        self._breaks = []         # type: list[float]
        self._break_start = 0.0
        self._offnormal_rested = False
        self._reset_train()
        for line, state in (initial or {}).items():
            if line not in self._contacts:
                raise ValueError("unknown line %r (the lines are %s)" % (line, ", ".join(LINES)))
            c = self._contacts[line]
            c.stable = c.raw = 1 if state else 0
        if initial and initial.get(HOOK):
            self.hook_off = True
        else:
            self.hook_off = False

    # ------------------------------------------------------------ time units

    def _ticks(self, seconds):
        # type: (float) -> float
        if self._int:
            return int(seconds * self._tps + 0.5)
        return seconds * self._tps

    def _scale(self, d, factor):
        # type: (float, float) -> float
        return int(d * factor + 0.5) if self._int else d * factor

    # ------------------------------------------------------------ public

    def set_ratio(self, ratio):
        # type: (float | None) -> None
        """A new starting point for the dial's make/break ratio (a phone's profile); what this
        call's own pulses show still counts first. None forgets it."""
        if ratio is not None and not (0.1 <= ratio <= RATIO_MAX):
            raise ValueError("a dial's make/break ratio is 0.1 to %.2f, not %r" % (RATIO_MAX, ratio))
        self._start_ratio = ratio

    def feed(self, t, line, state):
        # type: (float, str, int) -> list[DialEvent]
        """One raw edge: ``line`` is "hook", "pulse" or "offnormal", ``state`` 0 or 1 (the trace
        format's logical state). Returns the events decided up to ``t``, in time order."""
        contact = self._contacts.get(line)
        if contact is None:
            raise ValueError("unknown line %r (the lines are %s)" % (line, ", ".join(LINES)))
        if state not in (0, 1) or state is True or state is False:
            raise ValueError("a %s state is 0 or 1, not %r" % (line, state))
        if self._now is not None and t < self._now:
            raise ValueError("edge at %r is earlier than %r: edges must come in time order" % (t, self._now))
        out = self.advance(t)
        if line == OFFNORMAL and self.offnormal == "auto" and state != contact.raw:
            self.offnormal = True
        contact.toggle(t, state)
        return out

    def advance(self, t):
        # type: (float) -> list[DialEvent]
        """Let time run to ``t``: every debounce and timeout due by then is decided."""
        if self._now is not None and t < self._now:
            return []
        out = []  # type: list[DialEvent]
        while True:
            when, what = self._next_due()
            if when is None or what is None or when > t:
                break
            self._now = when
            what(when, out)
        self._now = t
        return out

    def deadline(self):
        # type: () -> float | None
        """When ``advance`` next has something to decide, or None if nothing is pending."""
        return self._next_due()[0]

    # ------------------------------------------------------------ scheduling

    def _next_due(self):
        # type: () -> tuple[float | None, Callable[[float, list[DialEvent]], None] | None]
        best, what = None, None
        for line in LINES:
            due = self._contacts[line].due()
            if due is not None and (best is None or due < best):
                best, what = due, self._settle_handler(line)
        for due, handler in ((self._flash_due(), self._hung_up),
                             (self._digit_due(), self._end_digit_timed),
                             (self._stuck_due(PULSE), self._stuck_pulse),
                             (self._stuck_due(OFFNORMAL), self._stuck_offnormal_fault)):
            if due is not None and (best is None or due < best):
                best, what = due, handler
        return best, what

    def _settle_handler(self, line):
        # type: (str) -> Callable[[float, list[DialEvent]], None]
        def handle(now, out):
            # type: (float, list[DialEvent]) -> None
            edge = self._contacts[line].resolve()
            if edge is not None:
                self._accepted(line, edge, now, out)
            elif line == PULSE:
                self._maybe_end(now, out)   # chatter in the last make: the digit may be over
        return handle

    def _stuck_due(self, line):
        # type: (str) -> float | None
        c = self._contacts[line]
        if c.stable != 1 or c.first is not None or line in self._faults or c.since is None:
            return None
        if line == OFFNORMAL and self.offnormal is not True:
            return None
        return c.since + (self._stuck_break if line == PULSE else self._stuck_offnormal)

    # ------------------------------------------------------------ decisions

    def _accepted(self, line, edge, now, out):
        # type: (str, float, float, list[DialEvent]) -> None
        """A debounced edge at time ``edge``, decided at ``now``."""
        state = self._contacts[line].stable
        if line in self._faults and state == 0:
            del self._faults[line]
            out.append(DialEvent(now, "fault_cleared", line))
            if line == PULSE:
                self._reset_train()
            return
        if line == HOOK:
            if state == 0:
                self._on_since = edge       # an on-hook: reported once it has lasted min_flash
                return
            if self._on_since is not None:
                held = edge - self._on_since
                self._on_since = None
                if held < self._min_flash:
                    return                  # lifted again sooner: a hand on the cradle, no change
                self.hook_off = False       # long enough, though its lift was still settling: a flash
                out.append(DialEvent(now, "hook", "on"))
            self.hook_off = True
            out.append(DialEvent(now, "hook", "off"))
        elif line == PULSE:
            if line in self._faults:
                return
            if state == 1:
                self._break(edge)
            else:
                self._make(edge, now, out)
        elif line == OFFNORMAL and self.offnormal is True:
            if state == 1:
                self._offnormal_rested = False
            elif self._count:
                self._offnormal_rested = True
                self._maybe_end(now, out)

    def _flash_due(self):
        # type: () -> float | None
        """When a standing on-hook has lasted min_flash; None while none stands, or while a lift
        that began before then is still settling (its debounce decides: a hand, or a flash)."""
        if self._on_since is None:
            return None
        due = self._on_since + self._min_flash
        hook = self._contacts[HOOK]
        if hook.first is not None and hook.first < due:
            return None
        return due if self._now is None or due > self._now else self._now

    def _hung_up(self, now, out):
        # type: (float, list[DialEvent]) -> None
        if self._on_since is None:
            return
        self._on_since = None
        self.hook_off = False
        out.append(DialEvent(now, "hook", "on"))

    def _break(self, edge):
        # type: (float) -> None
        if self._count and self._last_make is not None and edge - self._last_make < self._min_make:
            self._breaks.pop()           # a blip of make inside a break: the break goes on
            self._last_make = self._prev_make
            return
        if self._count and self._last_make is not None:
            self._makes.append(edge - self._last_make)
        elif self._ended is not None and edge - self._ended[0] < self._split_gap:
            # a break this soon after a digit ended: that digit was cut short (its make was no
            # end; a profile from another dial?). What that make was is evidence of the ratio.
            ratio = (edge - self._ended[0]) / self._ended[1] if self._ended[1] > 0 else RATIO_MAX
            self._profile = (self._profile + [ratio if ratio < RATIO_MAX else RATIO_MAX])[-PROFILE_SIZE:]
        self._ended = None
        self._count += 1
        self._break_start = edge

    def _make(self, edge, now, out):
        # type: (float, float, list[DialEvent]) -> None
        if not self._count:
            return
        if edge - self._break_start < self._min_break:
            self._count -= 1             # a blip of break inside a make: no pulse, the make goes on
            if self._makes:
                self._makes.pop()
            if not self._count:
                self._reset_train()
            self._maybe_end(now, out)
            return
        self._breaks.append(edge - self._break_start)
        self._prev_make = self._last_make
        self._last_make = edge
        self._maybe_end(now, out)

    def _maybe_end(self, now, out):
        # type: (float, list[DialEvent]) -> None
        """End the digit now if the make after its last break is under way and either the
        off-normal contact is back at rest or the make has outlasted what its break calls for."""
        due = self._digit_due()
        if due is not None and due <= now:
            self._end_digit(now, out)

    def _digit_due(self):
        # type: () -> float | None
        pulse = self._contacts[PULSE]
        if self._count == 0 or pulse.stable != 0 or pulse.first is not None:
            return None
        wait, expected = self._end_after()
        if self._offnormal_rested:
            part = self._scale(expected, REST_PART)
            if part < self._min_make:
                part = self._min_make
            if part < wait:
                wait = part
        return None if self._last_make is None else self._last_make + wait

    def _ratio(self):
        # type: () -> tuple[float, float]
        """An upper estimate of the dial's make/break ratio, and how much the ratios seen spread
        (a jittery dial, or a simulator on a busy machine, is given more slack)."""
        mids = [self._makes[i] / self._breaks[i] for i in range(1, len(self._makes)) if self._breaks[i] > 0]
        if mids or self._profile:
            seen = mids + self._profile
            top = max(seen)
            return top, (top - min(seen)) / top if top > 0 else 0
        if self._start_ratio is not None:   # the profile, unless this pulse's own make says more
            first = self._makes[0] / self._breaks[0] if self._makes and self._breaks[0] > 0 else 0
            start = self._start_ratio if self._start_ratio > START_FLOOR else START_FLOOR
            return max(start, first), 0
        if self._makes and self._breaks[0] > 0:
            first = self._makes[0] / self._breaks[0] * FIRST_RATIO_SLACK
            return (first if first < RATIO_MAX else RATIO_MAX), 0
        return RATIO_MAX, 0

    def _end_after(self):
        # type: () -> tuple[float, float]
        """How long the make after the last break must last to end the digit, and how long it
        is expected to last."""
        ratio, spread = self._ratio()
        expected = self._scale(self._breaks[-1], ratio) if self._breaks else self._end_max
        for make in self._makes[2:]:     # nor shorter than a make shown after the finger let go
            if make > expected:
                expected = make
        if spread > SPREAD_MAX:
            spread = SPREAD_MAX
        slack = FIRST_MAKE_SLACK if len(self._breaks) == 1 else 1 + END_SLACK + SPREAD_PART * spread
        wait = self._scale(expected, slack) + self._end_margin
        if wait < self._end_min:
            wait = self._end_min
        elif wait > self._end_max:
            wait = self._end_max
        return wait, expected

    def _end_digit_timed(self, now, out):
        # type: (float, list[DialEvent]) -> None
        self._end_digit(now, out)

    def _end_digit(self, now, out):
        # type: (float, list[DialEvent]) -> None
        count, last, breaks, makes = self._count, self._last_make, self._breaks, self._makes
        self._ended = (last, breaks[-1]) if breaks and last is not None else None
        mids = [self._makes[i] / self._breaks[i] for i in range(1, len(self._makes)) if self._breaks[i] > 0]
        if mids:
            self._profile = (self._profile + mids)[-PROFILE_SIZE:]
        self._reset_train()
        digit = digit_for(count, self.dial_map)
        if digit is None:
            out.append(DialEvent(now, "fault", "%d pulses in one train is no digit on a %s dial "
                                 "(dial map setting?)" % (count, self.dial_map)))
            return
        out.append(DialEvent(now, "digit", digit, pulses=count, last_edge=last, breaks=breaks, makes=makes))

    def _stuck_pulse(self, now, out):
        # type: (float, list[DialEvent]) -> None
        self._faults[PULSE] = True
        self._reset_train()
        out.append(DialEvent(now, "fault", "the dial's pulse contacts have stayed open for more "
                             "than %.1f s: a broken wire, or the pulse line's polarity is wrong"
                             % STUCK_BREAK))

    def _stuck_offnormal_fault(self, now, out):
        # type: (float, list[DialEvent]) -> None
        self._faults[OFFNORMAL] = True
        out.append(DialEvent(now, "fault", "the dial's off-normal contact has stayed off rest for "
                             "more than %d s: check its wiring, or set offnormal to none"
                             % STUCK_OFFNORMAL))

    def _reset_train(self):
        # type: () -> None
        self._count = 0
        self._makes = []
        self._breaks = []
        self._break_start = 0.0       # set by the train's first break, before anything reads it
        self._last_make = None
        self._prev_make = None
        self._offnormal_rested = False
