"""The phone in a box on USB serial, from the host's side: the port and the thread around the
link's pure session (``session.py``), as pyserial's ReaderThread runs a Protocol.

One reader thread owns the port and runs, forever::

    find port ─> open ─> session: handshake (Q / H) ─> read, deliver, acknowledge ─┐
        ^                                                                           │ unplugged, serial
        └──── "phone disconnected", wait 0.05 s, 0.1 s ... at most 1 s <─────────────┘ error or silence

Events reach ``on_event`` as the DialEvents a DialListener hands on (times on ``clock``), so
the table cannot tell a serial phone from a wired one; raw edges, while recording, reach
``on_edge(t, line, state)``; link changes reach ``on_status(PhoneStatus)``. Every callback runs
on the reader thread, after the lock is let go and before what it got is acknowledged; one that
raises is logged and the frame still counts as delivered.
"""

import logging
import threading
import time

import serial

from ..errors import ConfigError
from . import protocol as p
from .errors import CommandRefused, PhoneLinkError
from .session import HELLO_TIMEOUT, SILENCE, HostSession

log = logging.getLogger(__name__)

BAUDRATE = 115200         # USB CDC ignores it; a UART bridge in its place would need it
READ_TIMEOUT = 0.05       # how often the reader looks up from the port
RETRY = (0.05, 1.0)       # first and longest wait between attempts to reconnect


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


class _Waiter:
    """A thread waiting for a command's reply."""

    __slots__ = ("done", "ok", "text")

    def __init__(self):
        self.done = threading.Event()
        self.ok = None
        self.text = None


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
        self._retry = retry
        self._session = HostSession(settings, silence=silence, hello_timeout=hello_timeout)
        self._lock = threading.Lock()     # the session and the port's writes
        self._ser = None
        self._waiters = {}                # command id -> _Waiter
        self._stop = threading.Event()
        self._thread = None
        self.status = PhoneStatus(False, None, "phone not connected yet")

    @property
    def device(self):
        """From the last handshake: boot, firmware, caps, reset, states."""
        return self._session.device

    @property
    def stats(self):
        """The link's counters: delivered, duplicates, gaps, lost, malformed, bad frames..."""
        return self._session.stats

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

    def health(self):
        """The health strip's "phone" part (controller/health.py) while the phone is on USB."""
        status = self.status
        if status.connected:
            firmware = " (firmware %s)" % status.firmware if status.firmware else ""
            return {"status": "ok", "link": "USB", "port": status.port,
                    "summary": "Phone on USB at %s%s." % (status.port, firmware),
                    "heartbeat": "within the last %.1f s" % self._session.silence,
                    "detail": "The link drops itself after %.1f s without a heartbeat." % self._session.silence}
        message = str(status.message or "the phone is not connected")
        return {"status": "fault", "link": "USB", "port": status.port, "heartbeat": None,
                "summary": message[:1].upper() + message[1:] + ": check its USB cable.",
                "detail": "newsdesk keeps looking for it and reconnects by itself."}

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
        waiter = _Waiter()
        with self._lock:
            cid = self._session.command(name, value, self._clock())
            self._waiters[cid] = waiter
            try:
                self._flush()
            except (serial.SerialException, OSError, PhoneLinkError) as e:
                log.debug("sending %s=%s failed (%s); the reader will retry", name, value, e)
        if not waiter.done.wait(timeout):
            with self._lock:
                self._session.forget(cid)
                self._waiters.pop(cid, None)
            raise PhoneLinkError("the phone on %s did not answer %s=%s within %.1f s"
                                 % (self.status.port or self._where(), name, value, timeout))
        if not waiter.ok:
            raise CommandRefused("the phone on %s refused %s=%s: %s"
                                 % (self.status.port, name, value, waiter.text))
        return waiter.text

    def set_ringer(self, on):
        self.command("ringer", "1" if on else "0")

    def set_led(self, mode):
        """``auto`` (lit with a host, a flash a second without), ``on``, ``off`` or ``blink``."""
        self.command("led", mode)

    def record(self, on):
        """Start or stop raw edges; starting returns each line's logical state now (a trace's initial)."""
        text = self.command("raw", "1" if on else "0")
        return p.parse_states(text) if text else {}

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
                    self._connection(port)
                except (serial.SerialException, OSError, PhoneLinkError, ValueError) as e:
                    reason: str | None = str(e) or type(e).__name__
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

    def _connection(self, port):
        """One connection, from opening the port to losing it (or being closed)."""
        ser = serial.serial_for_url(port, do_not_open=True)
        ser.baudrate = BAUDRATE
        ser.timeout = READ_TIMEOUT
        ser.write_timeout = 1.0
        if hasattr(ser, "exclusive"):
            ser.exclusive = True      # a second newsdesk (or ModemManager) can't share it
        ser.open()
        session = self._session
        try:
            with self._lock:
                self._ser = ser
                session.connect(port, self._clock())
            while not self._stop.is_set():
                with self._lock:
                    session.poll(self._clock())
                    self._flush()
                data = ser.read(ser.in_waiting or 1)
                if data:
                    with self._lock:
                        got = session.received(data, self._clock())
                    for item in got:
                        self._deliver(item, port)
        finally:
            with self._lock:
                self._ser = None
                session.disconnect()
            try:
                ser.close()
            except Exception:
                pass

    def _flush(self):
        """Writes what the session has to send (the caller holds the lock)."""
        data = self._session.take()
        if data:
            if self._ser is None:
                raise PhoneLinkError("the phone's port is closed")
            self._ser.write(data)

    def _deliver(self, item, port):
        kind = item[0]
        if kind == "event":
            self._call(self._on_event, item[1])
        elif kind == "edge":
            if self._on_edge is not None:
                self._call(self._on_edge, *item[1:])
        elif kind == "reply":
            with self._lock:
                waiter = self._waiters.pop(item[1], None)
            if waiter is not None:
                waiter.ok, waiter.text = item[2], item[3]
                waiter.done.set()
        elif kind == "hello":
            device = item[1]
            if not self.connected or self.status.boot != device["boot"]:
                self._set_status(PhoneStatus(True, port, "phone connected on %s (firmware %s)"
                                             % (port, device["firmware"]), device["firmware"], device["boot"]))

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
