"""The phone in a box on USB serial, from the host's side: keeps the link up through unplugging
and hands on what the phone decided, as if it were wired to the GPIO.

One reader thread owns the port (as pyserial's ReaderThread does) and runs, forever::

    find port ─> open ─> handshake (Q / H) ─> read frames, deliver, acknowledge ─┐
        ^                                                                         │ unplugged, serial
        └──── "phone disconnected", wait 0.05 s, 0.1 s ... at most 1 s <───────────┘ error or silence

Events reach ``on_event`` as the DialEvents a DialListener hands on (times on ``clock``), so
the table cannot tell a serial phone from a wired one; raw edges, while recording, reach
``on_edge(t, line, state)``; link changes reach ``on_status(PhoneStatus)``. Every callback runs
on the reader thread; one that raises is logged and the frame still counts as delivered.

Exactly once: the device numbers its frames per boot and resends until acknowledged; the bridge
delivers frame ``seq`` of boot ``boot`` only when it is the next one expected, and acknowledges
what it has. Its memory of (boot, seq) lives as long as the bridge, across reconnections.
"""

import collections
import logging
import threading
import time

import serial

from ..dial.decoder import DialEvent
from ..errors import ConfigError
from . import protocol as p
from .errors import CommandRefused, PhoneLinkError, ProtocolMismatch

log = logging.getLogger(__name__)

BAUDRATE = 115200         # USB CDC ignores it; a UART bridge in its place would need it
READ_TIMEOUT = 0.05       # how often the reader looks up from the port
HELLO_TIMEOUT = 1.0       # a phone answers the handshake within this, or isn't one
HELLO_RETRY = 0.25
SILENCE = 3.5             # heartbeats come every second: this long without a frame, the link is dead
RETRY = (0.05, 1.0)       # first and longest wait between attempts to reconnect
COMMAND_RESEND = 0.3      # a command not answered by then is sent again (commands are idempotent)
SYNC_WINDOW = 32          # clock samples (hello and heartbeats) the offset is the minimum of
EDGE_IDLE_US = 10_000_000  # after this long without an edge, edge times take up the current offset


class PhoneStatus:
    """What the panel shows about the link: ``connected``, the ``port`` and a sentence."""

    __slots__ = ("connected", "port", "message", "firmware", "boot")

    def __init__(self, connected, port, message, firmware=None, boot=None):
        self.connected = connected
        self.port = port
        self.message = message
        self.firmware = firmware
        self.boot = boot

    def as_dict(self):
        return {"phone": "connected" if self.connected else "disconnected", "port": self.port,
                "message": self.message, "firmware": self.firmware, "boot": self.boot}

    def __repr__(self):
        return "<PhoneStatus %s>" % self.message


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

    def __init__(self):
        self._samples = collections.deque(maxlen=SYNC_WINDOW)
        self._offset = None
        self._last = None
        self._edge_offset = None
        self._edge_last = None

    def sync(self, device_us, arrival):
        self._samples.append(arrival - device_us / 1e6)
        self._offset = min(self._samples)

    def __call__(self, device_us):
        return device_us / 1e6 + self._offset

    def monotonic(self, device_us):
        t = self(device_us)
        if self._last is not None and t < self._last:
            t = self._last
        self._last = t
        return t

    def edge(self, device_us):
        if self._edge_last is None or device_us - self._edge_last > EDGE_IDLE_US:
            self._edge_offset = self._offset
        self._edge_last = device_us
        return device_us / 1e6 + self._edge_offset


class RingerSwitch:
    """The phone's ringer output as the on/off switch hw.ringer.Ringer(switch=...) takes, so the
    bell rings in the same cadence on a serial phone. Switching off a phone that is away is no
    error: the phone switches its ringer off by itself when the host goes quiet."""

    __slots__ = ("_bridge",)

    def __init__(self, bridge):
        self._bridge = bridge

    def on(self):
        self._bridge.set_ringer(True)

    def off(self):
        try:
            self._bridge.set_ringer(False)
        except PhoneLinkError as e:
            log.debug("ringer off: %s", e)


class _Command:
    __slots__ = ("id", "name", "value", "sent", "done", "ok", "text", "waited")

    def __init__(self, cid, name, value, waited):
        self.id = cid
        self.name = name
        self.value = value
        self.sent = None
        self.done = threading.Event()
        self.ok = None
        self.text = None
        self.waited = waited


class SerialBridge:
    """The phone on ``port``: a device name or URL, or a finder (a callable returning one or None).

    ``clock`` is the host clock events are dated on (the listener's, time.monotonic) and the one
    the handshake and silence timeouts run on; the waits between reconnections are real time.
    ``settings`` (e.g. ``{"dial_map": "sweden", "offnormal": "wired"}``) are sent to the phone
    after every handshake, so a phone that rebooted decodes as configured.
    """

    def __init__(self, port, on_event, on_edge=None, on_status=None, clock=time.monotonic,
                 settings=None, retry=RETRY, silence=SILENCE, hello_timeout=HELLO_TIMEOUT):
        if not port:
            raise ConfigError("the phone's serial port is empty: give a port name, or a finder "
                              "that looks for it by USB id")
        self._port = port
        self._on_event = on_event
        self._on_edge = on_edge
        self._on_status = on_status
        self._clock = clock
        self._settings = dict(settings or {})
        self._retry = retry
        self._silence = silence
        self._hello_timeout = hello_timeout
        self._stop = threading.Event()
        self._thread = None
        self._ser = None
        self._ser_name = None
        self._write_lock = threading.Lock()
        self._commands = {}
        self._command_lock = threading.Lock()
        self._next_command = 0
        self._boot = None
        self._expected = None
        self._device_clock = None
        self._ack_due = False
        self.device = {}          # from the last handshake: firmware, caps, reset, states
        self.status = PhoneStatus(False, None, "phone not connected yet")
        self.stats = collections.Counter()

    # ------------------------------------------------------------ life

    def start(self):
        if self._thread is not None:
            raise RuntimeError("the serial bridge is already running")
        self._thread = threading.Thread(target=self._run, name="phone-serial", daemon=True)
        self._thread.start()
        return self

    def close(self):
        """Stop the reader and close the port; safe to call twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            if self._thread.is_alive():
                log.error("the phone's serial reader did not stop")
            self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    @property
    def connected(self):
        return self.status.connected

    def _where(self):
        return self._port if isinstance(self._port, str) else str(self._port)

    # ------------------------------------------------------------ commands

    def command(self, name, value, timeout=1.0):
        """Sends ``name=value`` to the phone and returns its answer's text (or None).
        Raises PhoneLinkError if the phone is away or doesn't answer within ``timeout``,
        CommandRefused if it says no."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("command() waits for the reader thread, so a callback can't call it")
        if not self.connected:
            raise PhoneLinkError("the phone is disconnected (%s): can't send %s=%s"
                                 % (self._where(), name, value))
        cmd = self._queue_command(name, value, waited=True)
        self._send_command(cmd)
        if not cmd.done.wait(timeout):
            with self._command_lock:
                self._commands.pop(cmd.id, None)
            raise PhoneLinkError("the phone on %s did not answer %s=%s within %.1f s"
                                 % (self.status.port or self._where(), name, value, timeout))
        if not cmd.ok:
            raise CommandRefused("the phone on %s refused %s=%s: %s"
                                 % (self.status.port, name, value, cmd.text))
        return cmd.text

    def set_ringer(self, on):
        self.command("ringer", "1" if on else "0")

    def set_led(self, mode):
        """``auto`` (lit with a host, a flash a second without), ``on``, ``off`` or ``blink``."""
        self.command("led", mode)

    def record(self, on):
        """Start or stop raw edges; starting returns each line's logical state now (a trace's initial)."""
        text = self.command("raw", "1" if on else "0")
        return p.parse_states(text) if text else {}

    def _queue_command(self, name, value, waited):
        with self._command_lock:
            self._next_command += 1
            cmd = _Command(str(self._next_command), name, str(value), waited)
            self._commands[cmd.id] = cmd
        return cmd

    def _send_command(self, cmd):
        cmd.sent = self._clock()
        try:
            self._write(p.encode(p.COMMAND, cmd.id, cmd.name, cmd.value))
        except (serial.SerialException, OSError) as e:
            log.debug("sending %s=%s failed (%s); the reader will retry", cmd.name, cmd.value, e)

    def _resend_commands(self, now):
        with self._command_lock:
            due = [c for c in self._commands.values() if c.sent is None or now - c.sent >= COMMAND_RESEND]
        for cmd in due:
            self._send_command(cmd)

    def _reply(self, fields):
        with self._command_lock:
            cmd = self._commands.pop(fields[1], None)
        if cmd is None:
            return                    # an answer to a resent command, already answered
        cmd.ok = fields[2] == "ok"
        cmd.text = fields[3] if len(fields) > 3 else None
        if not cmd.ok and not cmd.waited:
            log.error("the phone on %s refused %s=%s: %s", self.status.port, cmd.name, cmd.value, cmd.text)
        cmd.done.set()

    # ------------------------------------------------------------ the reader thread

    def _find(self):
        if isinstance(self._port, str):
            return self._port
        try:
            return self._port()
        except Exception as e:
            log.warning("looking for the phone (%s) failed: %s", self._port, e)
            return None

    def _run(self):
        delay = self._retry[0]
        while not self._stop.is_set():
            port = self._find()
            if port is None:
                self._disconnected(None, "phone disconnected: no phone found (%s)" % self._where())
            else:
                try:
                    self._session(port)
                except (serial.SerialException, OSError, PhoneLinkError, ValueError) as e:
                    reason = str(e) or type(e).__name__
                except Exception as e:    # keep the reader alive, whatever happened
                    log.exception("the phone's serial reader failed on %s", port)
                    reason = "%s: %s" % (type(e).__name__, e)
                else:
                    reason = None         # stopped
                if self.connected:
                    delay = self._retry[0]
                if reason is not None:
                    self._disconnected(port, "phone disconnected from %s: %s" % (port, reason))
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self._retry[1])
        if self.connected:
            self._disconnected(self.status.port, "phone disconnected: newsdesk closed the port")

    def _session(self, port):
        ser = serial.serial_for_url(port, do_not_open=True)
        ser.baudrate = BAUDRATE
        ser.timeout = READ_TIMEOUT
        ser.write_timeout = 1.0
        if hasattr(ser, "exclusive"):
            ser.exclusive = True      # a second newsdesk (or ModemManager) can't share it
        ser.open()
        reader = p.FrameReader()
        try:
            with self._write_lock:
                self._ser, self._ser_name = ser, port
            self._handshake(ser, reader, port)
            self._read(ser, reader, port)
        finally:
            with self._write_lock:
                self._ser = None
            self.stats["bad_frames"] += reader.bad
            self.stats["skipped_bytes"] += reader.skipped
            try:
                ser.close()
            except Exception:
                pass

    def _handshake(self, ser, reader, port):
        start = self._clock()
        asked = None
        while not self._stop.is_set():
            now = self._clock()
            if now - start > self._hello_timeout:
                raise PhoneLinkError("no newsdesk phone answers on %s (is its firmware flashed? "
                                     "`make flash`)" % port)
            if asked is None or now - asked >= HELLO_RETRY:
                self._write(p.encode(p.QUERY, p.PROTOCOL))
                asked = now
            for fields in reader.feed(ser.read(ser.in_waiting or 1)):
                if fields[0] == p.HELLO:
                    self._hello(fields, self._clock(), port)
                    return

    def _read(self, ser, reader, port):
        last = self._clock()
        while not self._stop.is_set():
            data = ser.read(ser.in_waiting or 1)
            now = self._clock()
            if data:
                for fields in reader.feed(data):
                    last = now
                    try:
                        self._frame(fields, now, port)
                    except ValueError as e:
                        self.stats["malformed"] += 1
                        log.warning("a malformed %s frame from the phone on %s: %s", fields[0], port, e)
                if self._ack_due:
                    self._ack_due = False
                    self._write(p.encode(p.ACK, self._boot, self._expected - 1))
            if now - last > self._silence:
                raise PhoneLinkError("no heartbeat for %.1f s" % (now - last))
            self._resend_commands(now)

    def _write(self, frame):
        with self._write_lock:
            if self._ser is None:
                raise PhoneLinkError("the phone's port is closed")
            self._ser.write(frame)

    # ------------------------------------------------------------ frames

    def _frame(self, fields, now, port):
        kind = fields[0]
        if kind == p.EVENT or kind == p.EDGE:
            self._data(fields, now)
        elif kind == p.BEAT:
            if fields[1] != self._boot:
                self._write(p.encode(p.QUERY, p.PROTOCOL))
                return
            self._device_clock.sync(p.number(fields[2]), now)
            self._skip_to(p.number(fields[3]))
            self._ack_due = True      # also tells the phone a host is here
        elif kind == p.REPLY:
            self._reply(fields)
        elif kind == p.HELLO:
            self._hello(fields, now, port)

    def _hello(self, fields, now, port):
        proto = p.number(fields[1])
        if proto != p.PROTOCOL:
            raise ProtocolMismatch("the phone on %s speaks protocol %d and newsdesk %d: flash its "
                                   "firmware (`make flash`)" % (port, proto, p.PROTOCOL))
        boot, device_now, low = fields[2], p.number(fields[3]), p.number(fields[4])
        self.device = {"boot": boot, "firmware": fields[6], "caps": fields[7].split("+"),
                       "reset": fields[8], "states": p.parse_states(fields[9])}
        if boot != self._boot:
            if self._boot is not None:
                log.info("the phone rebooted (%s reset); its new boot is %s", fields[8], boot)
            self._boot, self._expected = boot, low
            self._device_clock = DeviceClock()
        else:
            self._skip_to(low)
        self._device_clock.sync(device_now, now)
        self._ack_due = True
        with self._command_lock:
            for cid in [c.id for c in self._commands.values() if not c.waited]:
                del self._commands[cid]
        for name, value in self._settings.items():
            self._send_command(self._queue_command(name, value, waited=False))
        if not self.connected or self.status.boot != boot:
            self._set_status(PhoneStatus(True, port, "phone connected on %s (firmware %s)"
                                         % (port, fields[6]), fields[6], boot))

    def _skip_to(self, low):
        """The phone no longer holds anything before ``low``: what we never got is lost."""
        if low > self._expected:
            lost = low - self._expected
            self.stats["lost"] += lost
            log.warning("the phone dropped %d frame(s) nobody had acknowledged (its queue was full)", lost)
            self._expected = low

    def _data(self, fields, now):
        boot, seq = fields[1], p.number(fields[2])
        if boot != self._boot:
            self._write(p.encode(p.QUERY, p.PROTOCOL))   # a reboot we weren't told of
            return
        self._ack_due = True
        if seq < self._expected:
            self.stats["duplicates"] += 1
            return
        if seq > self._expected:
            self.stats["gaps"] += 1   # an earlier one went missing: wait for the resend
            return
        self._expected += 1
        self.stats["delivered"] += 1
        clock = self._device_clock
        if fields[0] == p.EVENT:
            t, kind, value, pulses, last_edge = p.parse_event(fields)
            ev = DialEvent(clock.monotonic(t), kind, value, pulses=pulses,
                           last_edge=None if last_edge is None else clock(last_edge))
            self._call(self._on_event, ev)
        elif self._on_edge is not None:
            line, state = fields[4], p.number(fields[5])
            self._call(self._on_edge, clock.edge(p.number(fields[3])), line, state)

    def _call(self, callback, *args):
        try:
            callback(*args)
        except Exception:
            log.exception("handling %r from the phone failed", args)

    # ------------------------------------------------------------ status

    def _disconnected(self, port, message):
        if self.status.connected or self.status.message != message:
            self._set_status(PhoneStatus(False, port, message))

    def _set_status(self, status):
        was = self.status
        self.status = status
        if status.connected != was.connected:
            (log.info if status.connected else log.warning)("%s", status.message)
        if self._on_status is not None:
            self._call(self._on_status, status)
