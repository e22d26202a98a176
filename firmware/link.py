"""The device's end of the protocol: decoded events and raw edges out, reliably; commands in.

Pure: it is told the time (integer microseconds since boot, from ticks.Uptime) and handed the
bytes that came in; it hands back the bytes to send and the levels the outputs should have.
main.py does the pins and the USB port; the tests' emulator runs this module under CPython.

Every E (event) and R (raw edge) frame takes the next sequence number of this boot and stays
pending until the host acknowledges it; "A,boot,n" acknowledges everything up to n. Pending
frames go again, oldest first, when the oldest has waited RESEND_US, then at doubling
intervals while nobody answers; a handshake from a (re)connected host sends them at once::

    E 5 ─┐ E 6 ─┐                    resend 5,6 ─┐        A 6: nothing pending
         x      x (no host)                      └──────> host delivers 5, 6
         |<------- RESEND_US ------->|

With no host at all the queue keeps the last QUEUE_SIZE frames (raw edges are dropped before
events) and the heartbeat's ``low`` tells a later host where the kept ones begin.
"""

from decoder import LINES, DialDecoder
from protocol import (
    ACK,
    BEAT,
    COMMAND,
    EDGE,
    EVENT,
    HELLO,
    PROTOCOL,
    QUERY,
    REPLY,
    FrameReader,
    encode,
    event_fields,
    format_states,
    number,
)

FIRMWARE = "1.1.0"
CAPS = "dial+raw+ringer+led+maint+strike"
QUEUE_SIZE = 128          # pending frames kept for the host (about 60 bytes each)
RESEND_US = 250000        # first resend of an unacknowledged frame
RESEND_MAX_US = 2000000   # resends back off to this while nobody answers
RESEND_BURST = 32         # frames sent again per resend
BEAT_US = 1000000         # heartbeat period
HOST_GONE_US = 3500000    # no frame from the host this long (it acks every beat): host gone
LED_MODES = ("auto", "on", "off", "blink")
STRIKE_HZ = 20            # the solenoid's strikes a second while the ringer is on (the host's
STRIKE_DUTY_PCT = 40      # bell_strike_hz, sent at each connection, replaces it); 0 = held on
RING_ON_MOST_US = 12000000   # an "on" rings this long at most without another: the host's cadence
                             # rings 10 s at a time at most (controller/hw/ringer.py MAX_ON_S), so an
                             # "off" lost on the cable strikes the coil seconds more, not until its
                             # thermal cutoff opens
OFFNORMAL = {"auto": "auto", "wired": True, "none": False}


class Link(object):
    """One boot's protocol state. ``boot`` is this boot's random id (8 hex digits)."""

    def __init__(self, boot, now, reset_cause="power", dial_map="standard", offnormal="auto"):
        self.boot = boot
        self.reset_cause = reset_cause
        self.dial_map = dial_map
        self.offnormal = offnormal
        self.ratio = None         # the phone's profile, from the host's "ratio" command
        self.decoder = DialDecoder(dial_map=dial_map, offnormal=OFFNORMAL[offnormal],
                                   ticks_per_second=1000000)
        self.reader = FrameReader()
        self.states = {}
        for line in LINES:
            self.states[line] = 0
        self.raw = False
        self.ringer = False
        self.strike_hz = STRIKE_HZ
        self._ring_at = 0
        self._ring_said = 0       # when the host last said "on"
        self._now = None          # the last poll's time
        self.lost_edges = 0       # edges the pins' ring could not keep, as last reported
        self.led = "auto"
        self.maintenance = False
        self.dropped = 0          # pending frames thrown away because the queue was full
        self.bad_edges = 0        # edges the decoder refused (out of time order)
        self._out = []
        self._pending = []        # (seq, frame, is_raw), oldest first
        self._seq = 0
        self._resend_at = None
        self._backoff = RESEND_US
        self._beat_at = now
        self._host_at = None

    # ------------------------------------------------------------ from the pins

    def edge(self, t, line, state):
        """A contact's logical level changed (or was read) at ``t``."""
        self.states[line] = state
        try:
            events = self.decoder.feed(t, line, state)
        except ValueError:
            self.bad_edges += 1
            return
        self._events(events, t)
        if self.raw:
            self._data(t, EDGE, [t, line, state], True)

    def poll(self, now):
        """Let time run to ``now``: digits the decoder decides, resends, the heartbeat."""
        self._now = now
        self._events(self.decoder.advance(now), now)
        if self._host_at is not None and now - self._host_at > HOST_GONE_US:
            self._host_gone()
        if self.ringer and now - self._ring_said > RING_ON_MOST_US:
            self.ringer = False
        if self._resend_at is not None and now >= self._resend_at:
            self._resend(now)
        if now >= self._beat_at:
            self._out.append(encode(BEAT, self.boot, now, self._low(), self._seq + 1, self.dropped))
            self._beat_at = now + BEAT_US

    def deadline(self):
        """When ``poll`` next has something to do."""
        due = self._beat_at
        for t in (self.decoder.deadline(), self._resend_at, self._strike_due(),
                  None if self._host_at is None else self._host_at + HOST_GONE_US,
                  self._ring_said + RING_ON_MOST_US + 1 if self.ringer else None):
            if t is not None and t < due:
                due = t
        return due

    # ------------------------------------------------------------ from the host

    def received(self, data, now):
        """Bytes from the USB port: garbage is skipped, each good frame is acted on."""
        for fields in self.reader.feed(data):
            kind = fields[0]
            try:
                if kind == QUERY:
                    self._hello(now)
                elif kind == ACK:
                    self._ack(fields[1], number(fields[2]), now)
                elif kind == COMMAND:
                    self._command(fields[1], fields[2], fields[3], now)
                else:
                    continue          # a device message (an echo?): not for us
            except ValueError:
                self.reader.bad += 1
                continue
            self._host_at = now

    def take(self):
        """The bytes to write now."""
        if not self._out:
            return b""
        out = b"".join(self._out)
        self._out = []
        return out

    def lost(self, total, now):
        """The pins' edge ring has lost ``total`` edges since boot (it was full): say so once per
        new loss, as a fault the host logs and shows. main.py then re-reads every contact's
        level, so the decoder's idea of each line is right again."""
        if total <= self.lost_edges:
            return
        fresh = total - self.lost_edges
        self.lost_edges = total
        self._data(now, EVENT, [now, "fault", "%d contact edge(s) lost: the edge ring on the Pico "
                                "was full; the contacts were read again" % fresh], False)

    def outputs(self, now):
        """(ringer on, status LED on) at ``now``. While the ringer is on, the line strikes the
        solenoid ``strike_hz`` times a second (held on when 0). The LED, left on auto, is lit
        while a host is there and flashes once a second without one."""
        led = self.led
        if led == "auto":
            lit = self._host_at is not None or now % 1000000 < 100000
        elif led == "blink":
            lit = (now // 250000) % 2 == 0
        else:
            lit = led == "on"
        ringer = self.ringer
        if ringer and self.strike_hz:
            period = 1000000 // self.strike_hz
            ringer = (now - self._ring_at) % period < period * STRIKE_DUTY_PCT // 100
        return ringer, lit

    @property
    def host(self):
        """True while a host is talking to us."""
        return self._host_at is not None

    # ------------------------------------------------------------ inside

    def _strike_due(self):
        """When the ringer line next changes within a strike, or None while it is steady."""
        if not (self.ringer and self.strike_hz):
            return None
        period = 1000000 // self.strike_hz
        pulse = period * STRIKE_DUTY_PCT // 100
        now = self._ring_at if self._now is None else self._now
        into = (now - self._ring_at) % period
        return now - into + (pulse if into < pulse else period)

    def _low(self):
        return self._pending[0][0] if self._pending else self._seq + 1

    def _events(self, events, now):
        for ev in events:
            self._data(now, EVENT, event_fields(ev), False)

    def _data(self, now, kind, fields, raw):
        self._seq += 1
        frame = encode(kind, self.boot, self._seq, *fields)
        if len(self._pending) >= QUEUE_SIZE:
            self._drop_one()
        self._pending.append((self._seq, frame, raw))
        self._out.append(frame)
        if self._resend_at is None:
            self._schedule(now)

    def _drop_one(self):
        pending = self._pending
        for i in range(len(pending)):
            if pending[i][2]:
                del pending[i]
                break
        else:
            del pending[0]
        self.dropped += 1

    def _resend(self, now):
        for item in self._pending[:RESEND_BURST]:
            self._out.append(item[1])
        if self._pending:
            self._schedule(now)
        else:
            self._resend_at = None

    def _schedule(self, now):
        """The next resend: RESEND_US from the first sending, then twice as long each time."""
        self._resend_at = now + self._backoff
        self._backoff = min(self._backoff * 2, RESEND_MAX_US)

    def _hello(self, now):
        self._out.append(encode(HELLO, PROTOCOL, self.boot, now, self._low(), self._seq + 1,
                                FIRMWARE, CAPS, self.reset_cause, format_states(self.states, LINES)))
        self._backoff = RESEND_US
        self._resend(now)

    def _ack(self, boot, seq, now):
        if boot != self.boot:
            return                    # meant for an earlier boot of ours
        pending = self._pending
        n = 0
        while n < len(pending) and pending[n][0] <= seq:
            n += 1
        if n:
            self._pending = pending[n:]
            self._backoff = RESEND_US
            self._resend_at = None
            if self._pending:
                self._schedule(now)

    def _command(self, cmd, name, value, now):
        text = None
        if name == "ringer" and value in ("0", "1"):
            if value == "1" and not self.ringer:
                self._ring_at = now           # each ring starts with a whole strike
            if value == "1":
                self._ring_said = now
            self.ringer = value == "1"
        elif name == "strike":
            hz = number(value) if value.isdigit() else -1
            if hz != 0 and not 5 <= hz <= 40:
                return self._reply(cmd, "err", "strike is 0 (held on) or 5-40 strikes a second, not %s" % value)
            self.strike_hz = hz
        elif name == "led" and value in LED_MODES:
            self.led = value
        elif name == "raw" and value in ("0", "1"):
            self.raw = value == "1"
            text = format_states(self.states, LINES)
        elif name == "dial_map" or name == "offnormal":
            dial_map = value if name == "dial_map" else self.dial_map
            offnormal = value if name == "offnormal" else self.offnormal
            if offnormal not in OFFNORMAL:
                return self._reply(cmd, "err", "offnormal is auto, wired or none, not %s" % value)
            if dial_map != self.dial_map or offnormal != self.offnormal:
                try:
                    decoder = DialDecoder(dial_map=dial_map, offnormal=OFFNORMAL[offnormal],
                                          ticks_per_second=1000000, initial=self.states, ratio=self.ratio)
                except ValueError as e:
                    return self._reply(cmd, "err", str(e))
                self.decoder = decoder
                self.dial_map, self.offnormal = dial_map, offnormal
        elif name == "ratio":   # the phone's profile: the dial's make/break ratio, a starting point
            try:
                self.decoder.set_ratio(float(value))
            except ValueError as e:
                return self._reply(cmd, "err", str(e))
            self.ratio = float(value)
        elif name == "maint" and value == "1":
            self.maintenance = True
        else:
            return self._reply(cmd, "err", "unknown command %s=%s" % (name, value))
        self._reply(cmd, "ok", text)

    def _reply(self, cmd, result, text):
        if text is None:
            self._out.append(encode(REPLY, cmd, result))
        else:
            self._out.append(encode(REPLY, cmd, result, text[:120]))

    def _host_gone(self):
        self._host_at = None
        self.ringer = False
        self.raw = False
        self.led = "auto"
