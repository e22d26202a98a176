"""The host's end of the phone link, pure: the mirror of the Pico's ``firmware/link.py``.

It is told the time (host seconds, on the clock events are dated on) and handed the bytes that
came in; it hands back what arrived and the bytes to send. ``bridge.py`` owns the port and the
thread around it, as pyserial's ReaderThread runs a Protocol; the tests drive this class
against the firmware's ``Link`` with no port at all. One connection, as it goes::

    connect(port, now)      Q every HELLO_RETRY until an H comes, or PhoneLinkError after
                            hello_timeout
    received(data, now)     frames in: the H makes the link ``connected`` and queues the
                            settings; E and R frames are delivered exactly once, in order
    poll(now)               the acknowledgement of what was delivered, commands resent,
                            PhoneLinkError after ``silence`` without a frame
    take()                  the bytes to write now
    disconnect()            the port is gone; what was delivered is remembered

Exactly once: the device numbers its frames per boot and resends until acknowledged; the
session delivers frame ``seq`` of boot ``boot`` only when it is the next one expected, and
acknowledges what it has. Its memory of (boot, seq) lives as long as the session, across
connections, so a frame resent after a replug is not delivered twice.

What ``received`` returns is a list of deliveries, tuples whose first item says what they are:

    ("hello", device)            a handshake: ``device`` has boot, firmware, caps, reset, states
    ("event", DialEvent)         a decoded event, its times on the host clock
    ("edge", t, line, state)     a raw edge, while recording
    ("reply", cid, ok, text)     the answer to a command someone waits for
"""

import collections
import logging
from typing import Any

from ..dial.decoder import DialEvent
from . import protocol as p
from .errors import PhoneLinkError, ProtocolMismatch

log = logging.getLogger(__name__)

Delivery = tuple[Any, ...]   # what ``received`` returns a list of (the module's docstring)

HELLO_TIMEOUT = 1.0       # a phone answers the handshake within this, or isn't one
HELLO_RETRY = 0.25
SILENCE = 3.5             # heartbeats come every second: this long without a frame, the link is dead
COMMAND_RESEND = 0.3      # a command not answered by then is sent again (commands are idempotent)
SYNC_WINDOW = 32          # clock samples (hello and heartbeats) the offset is the minimum of
EDGE_IDLE_US = 10_000_000  # after this long without an edge, edge times take up the current offset


class DeviceClock:
    """Maps one boot's device microseconds onto the host clock.

    offset = min(arrival - device time) over the last SYNC_WINDOW samples, taken from frames
    stamped as they are sent (hello and heartbeats): arrival is never before sending, and the
    window lets the offset follow the two crystals' drift. ``monotonic`` times (events, which
    the device sends in time order) never go backwards when the offset moves. ``edge`` times
    keep one offset through a burst of edges (until EDGE_IDLE_US pass without one), so a
    recording has the device's own intervals to the microsecond (the clocks drift apart by
    some 50 ppm: 3 ms in a minute of dialing).
    """

    __slots__ = ("_samples", "_offset", "_last", "_edge_offset", "_edge_last")

    def __init__(self) -> None:
        self._samples: collections.deque[float] = collections.deque(maxlen=SYNC_WINDOW)
        self._offset = 0.0
        self._last: float | None = None
        self._edge_offset = 0.0
        self._edge_last: int | None = None

    def sync(self, device_us: int, arrival: float) -> None:
        self._samples.append(arrival - device_us / 1e6)
        self._offset = min(self._samples)

    def __call__(self, device_us: int) -> float:
        return device_us / 1e6 + self._offset

    def monotonic(self, device_us: int) -> float:
        t = self(device_us)
        if self._last is not None and t < self._last:
            t = self._last
        self._last = t
        return t

    def edge(self, device_us: int) -> float:
        if self._edge_last is None or device_us - self._edge_last > EDGE_IDLE_US:
            self._edge_offset = self._offset
        self._edge_last = device_us
        return device_us / 1e6 + self._edge_offset


class _Command:
    """A command in flight: sent again every COMMAND_RESEND until its reply comes."""

    __slots__ = ("id", "name", "value", "waited", "sent")

    def __init__(self, cid: str, name: str, value: str, waited: bool) -> None:
        self.id = cid
        self.name = name
        self.value = value
        self.waited = waited      # someone waits for the reply; else a refusal is only logged
        self.sent: float | None = None


class HostSession:
    """The link's state on the host: the device's boot and clock, what was delivered, the
    commands in flight. ``settings`` (e.g. ``{"dial_map": "sweden"}``) are sent after every
    handshake, so a phone that rebooted decodes as configured."""

    def __init__(self, settings: dict[str, str] | None = None, silence: float = SILENCE,
                 hello_timeout: float = HELLO_TIMEOUT) -> None:
        self.settings = dict(settings or {})
        self.silence = silence
        self.hello_timeout = hello_timeout
        self.device: dict[str, Any] = {}    # from the last handshake: boot, firmware, caps, reset, states
        self.stats: collections.Counter[str] = collections.Counter()
        self.connected = False    # the handshake of this connection is done
        self._port: str | None = None
        self._reader = p.FrameReader()
        self._out: list[bytes] = []
        self._started = 0.0       # when this connection's handshake began
        self._asked: float | None = None
        self._last = 0.0          # when the last frame arrived
        self._boot: str | None = None
        self._expected = 0        # the next sequence number of this boot to deliver
        self._clock = DeviceClock()
        self._ack_due = False
        self._commands: dict[str, _Command] = {}
        self._next_command = 0

    # ------------------------------------------------------------ a connection

    def connect(self, port: str, now: float) -> None:
        """A port was opened: the handshake starts at the next ``poll``."""
        self._port = port
        self._reader = p.FrameReader()
        self._out = []
        self._started = self._last = now
        self._asked = None
        self._ack_due = False
        self.connected = False

    def disconnect(self) -> None:
        """The port is closed: its garbage counted, the commands kept for the next connection."""
        self.stats["bad_frames"] += self._reader.bad
        self.stats["skipped_bytes"] += self._reader.skipped
        self._reader = p.FrameReader()
        self._out = []
        self.connected = False

    def poll(self, now: float) -> None:
        """Let time run to ``now``. Raises PhoneLinkError when the phone doesn't answer the
        handshake or falls silent: the caller closes the port and tries again."""
        if not self.connected:
            if now - self._started > self.hello_timeout:
                raise PhoneLinkError("no newsdesk phone answers on %s (is its firmware flashed? "
                                     "`make flash`)" % self._port)
            if self._asked is None or now - self._asked >= HELLO_RETRY:
                self._out.append(p.encode(p.QUERY, p.PROTOCOL))
                self._asked = now
            return
        if self._ack_due:
            self._ack_due = False
            self._out.append(p.encode(p.ACK, self._boot, self._expected - 1))
        if now - self._last > self.silence:
            raise PhoneLinkError("no heartbeat for %.1f s" % (now - self._last))
        for cmd in list(self._commands.values()):
            if cmd.sent is None or now - cmd.sent >= COMMAND_RESEND:
                self._send(cmd, now)

    def take(self) -> bytes:
        """The bytes to write now."""
        out = b"".join(self._out)
        self._out = []
        return out

    # ------------------------------------------------------------ commands

    def command(self, name: str, value: str, now: float, waited: bool = True) -> str:
        """Queues ``name=value`` and returns its id; a reply to it comes out of ``received``."""
        self._next_command += 1
        cmd = _Command(str(self._next_command), name, str(value), waited)
        self._commands[cmd.id] = cmd
        self._send(cmd, now)
        return cmd.id

    def forget(self, cid: str) -> None:
        """Nobody waits for command ``cid`` any longer."""
        self._commands.pop(cid, None)

    def _send(self, cmd: _Command, now: float) -> None:
        cmd.sent = now
        self._out.append(p.encode(p.COMMAND, cmd.id, cmd.name, cmd.value))

    # ------------------------------------------------------------ frames in

    def received(self, data: bytes, now: float) -> list[Delivery]:
        """Bytes from the port: garbage skipped, each good frame acted on; what arrived is returned.
        Raises ProtocolMismatch when the phone speaks another protocol."""
        got: list[Delivery] = []
        for fields in self._reader.feed(data):
            if not self.connected and fields[0] != p.HELLO:
                continue                  # before the handshake: the phone resends after it
            self._last = now
            try:
                self._frame(fields, now, got)
            except (ValueError, IndexError) as e:
                self.stats["malformed"] += 1
                log.warning("a malformed %s frame from the phone on %s: %s", fields[0], self._port, e)
        return got

    def _frame(self, fields: list[str], now: float, got: list[Delivery]) -> None:
        kind = fields[0]
        if kind == p.EVENT or kind == p.EDGE:
            self._data(fields, got)
        elif kind == p.BEAT:
            if fields[1] != self._boot:
                self._out.append(p.encode(p.QUERY, p.PROTOCOL))
                return
            self._clock.sync(p.number(fields[2]), now)
            self._skip_to(p.number(fields[3]))
            self._ack_due = True      # also tells the phone a host is here
        elif kind == p.REPLY:
            self._reply(fields, got)
        elif kind == p.HELLO:
            self._hello(fields, now, got)

    def _hello(self, fields: list[str], now: float, got: list[Delivery]) -> None:
        proto = p.number(fields[1])
        if proto != p.PROTOCOL:
            raise ProtocolMismatch("the phone on %s speaks protocol %d and newsdesk %d: flash its "
                                   "firmware (`make flash`)" % (self._port, proto, p.PROTOCOL))
        boot, device_now, low = fields[2], p.number(fields[3]), p.number(fields[4])
        device = {"boot": boot, "firmware": fields[6], "caps": fields[7].split("+"),
                  "reset": fields[8], "states": p.parse_states(fields[9])}
        if boot != self._boot:
            if self._boot is not None:
                log.info("the phone rebooted (%s reset); its new boot is %s", fields[8], boot)
            self._boot, self._expected = boot, low
            self._clock = DeviceClock()
        else:
            self._skip_to(low)
        self.device = device
        self.connected = True
        self._clock.sync(device_now, now)
        self._ack_due = True
        for cid in [c.id for c in self._commands.values() if not c.waited]:
            del self._commands[cid]
        for name, value in self.settings.items():
            self.command(name, value, now, waited=False)
        got.append(("hello", device))

    def _skip_to(self, low: int) -> None:
        """The phone no longer holds anything before ``low``: what we never got is lost."""
        if low > self._expected:
            lost = low - self._expected
            self.stats["lost"] += lost
            log.warning("the phone dropped %d frame(s) nobody had acknowledged (its queue was full)", lost)
            self._expected = low

    def _data(self, fields: list[str], got: list[Delivery]) -> None:
        boot, seq = fields[1], p.number(fields[2])
        if boot != self._boot:
            self._out.append(p.encode(p.QUERY, p.PROTOCOL))   # a reboot we weren't told of
            return
        self._ack_due = True
        if seq < self._expected:
            self.stats["duplicates"] += 1
            return
        if seq > self._expected:
            self.stats["gaps"] += 1   # an earlier one went missing: wait for the resend
            return
        self._expected += 1           # taken, even if it proves malformed: it is acknowledged
        self.stats["delivered"] += 1
        if fields[0] == p.EVENT:
            t, kind, value, pulses, last_edge = p.parse_event(fields)
            clock = self._clock
            got.append(("event", DialEvent(clock.monotonic(t), kind, value, pulses=pulses,
                                           last_edge=None if last_edge is None else clock(last_edge))))
        else:
            line, state = fields[4], p.number(fields[5])
            got.append(("edge", self._clock.edge(p.number(fields[3])), line, state))

    def _reply(self, fields: list[str], got: list[Delivery]) -> None:
        cmd = self._commands.pop(fields[1], None)
        if cmd is None:
            return                    # an answer to a resent command, already answered
        ok = fields[2] == "ok"
        text = fields[3] if len(fields) > 3 else None
        if cmd.waited:
            got.append(("reply", cmd.id, ok, text))
        elif not ok:
            log.error("the phone on %s refused %s=%s: %s", self._port, cmd.name, cmd.value, text)
