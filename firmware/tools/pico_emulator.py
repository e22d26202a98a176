"""The phone in a box without the box: the firmware's own files, run under CPython.

``load_firmware`` "flashes" the files of firmware/tools/flash.py's MANIFEST into a folder, as
the Pico gets them, and imports them there with a stub ``machine`` and ``micropython``: so
main.py, link.py and the shared decoder and protocol run unchanged. ``Emulator`` adds the
world around the board:

- the USB cable is a pseudo-terminal: the host opens the slave end (``port``) with pyserial,
  the firmware reads and writes the master end; ``unplug()`` closes the master, which the host
  sees as a USB unplug; ``plug()`` makes a new one. Output the host isn't reading is dropped,
  as the Pico's USB stack drops it.
- the phone's contacts are stub pins whose levels outlive a reboot; ``dial(7)`` drives a
  pulse train through them (the firmware's interrupt handlers stamp each edge) while the
  emulator's clock jumps from edge to edge, so dialing takes no real time. The device's time
  thus runs ahead of the host's: dial many digits without waiting for the host and the phone
  may hear nothing from it for HOST_GONE_US of its time, take it for gone, and stop raw edges.
- the clock is MicroPython's ticks_us, wrapping at 2**30, started a few seconds before the wrap.
- a stub watchdog that reboots the firmware when it isn't fed in time.
"""

import contextlib
import importlib
import os
import select
import shutil
import sys
import tempfile
import threading
import time
import tty
import types
from pathlib import Path

from controller.dial.pulses import digit_edges

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "firmware" / "tools"
WRAP = 1 << 30


def manifest():
    sys.path.insert(0, str(TOOLS))
    try:
        import flash
        return flash.MANIFEST
    finally:
        sys.path.remove(str(TOOLS))


def stage(dest):
    """Copy the firmware's files into ``dest`` as the flash step lays them out on the Pico."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name, path in manifest():
        shutil.copyfile(REPO / path, dest / name)
    return dest


# ---------------------------------------------------------------- the clock


class Clock:
    """Microseconds: real time since the start, plus jumps, from a start near the 2**30 wrap.

    While ``frozen`` the time moves only by jumps: a dialed digit's edges are put on the pins at
    the device times they are meant for, and a loaded machine that stops the dialing thread for
    a while between two edges must not stretch a pulse (a 3 once came out as a 1 and a 2)."""

    def __init__(self, start=WRAP - 3_000_000):
        self._t0 = time.monotonic_ns()
        self._start = start
        self._skew = 0
        self._frozen_at = None
        self._lock = threading.Lock()

    def _now(self):
        if self._frozen_at is not None:
            return self._frozen_at
        return self._start + (time.monotonic_ns() - self._t0) // 1000 + self._skew

    def us(self):
        with self._lock:
            return self._now()

    def jump_to(self, target):
        with self._lock:
            now = self._now()
            if target > now:
                if self._frozen_at is not None:
                    self._frozen_at = target
                else:
                    self._skew += target - now

    @contextlib.contextmanager
    def frozen(self):
        with self._lock:
            self._frozen_at = self._now()
        try:
            yield
        finally:
            with self._lock:          # real time runs on from where the device time stands
                self._start, self._skew, self._t0 = self._frozen_at, 0, time.monotonic_ns()
                self._frozen_at = None


# ---------------------------------------------------------------- stub machine and micropython


class Reset(BaseException):
    """machine.reset() was called."""


class WatchdogBite(Reset):
    """The watchdog was not fed in time."""


def make_machine(board):
    """A stub ``machine`` module whose pins live on ``board`` (levels by GP number)."""
    m = types.ModuleType("machine")
    m.PWRON_RESET, m.WDT_RESET = 1, 3

    class Pin:
        IN, OUT = 0, 1
        PULL_UP, PULL_DOWN = 1, 2
        IRQ_FALLING, IRQ_RISING = 4, 8

        def __init__(self, gp, mode=IN, pull=None, value=None):
            self.gp, self.mode, self.pull = gp, mode, pull
            self.handler = None
            self.trigger = 0
            self.hard = None
            if value is not None:
                board.levels[gp] = int(value)
            board.pins[gp] = self

        def value(self, level=None):
            if level is None:
                return board.levels.get(self.gp, 1 if self.pull == Pin.PULL_UP else 0)
            if self.mode != Pin.OUT:
                raise ValueError("GP%d is an input" % self.gp)
            board.levels[self.gp] = int(level)

        def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
            self.handler, self.trigger, self.hard = handler, trigger, hard

        def drive(self, level):
            """The outside world moves the pin: the interrupt runs at once, as a hard IRQ would."""
            old = self.value()
            board.levels[self.gp] = level
            if self.handler is not None and level != old:
                if self.trigger & (Pin.IRQ_RISING if level else Pin.IRQ_FALLING):
                    self.handler(self)

    class WDT:
        def __init__(self, timeout=5000):
            if not 1 <= timeout <= 8388:
                raise ValueError("the RP2040's watchdog takes 1-8388 ms, not %r" % timeout)
            self.timeout = timeout
            self.fed = board.clock.us()
            board.watchdog = self

        def feed(self):
            self.fed = board.clock.us()

    def reset():
        raise Reset()

    m.Pin = Pin
    m.WDT = WDT
    m.reset = reset
    m.reset_cause = lambda: board.reset_cause
    m.disable_irq = lambda: 0
    m.enable_irq = lambda state: None
    return m


def make_micropython(board):
    mp = types.ModuleType("micropython")
    mp.alloc_emergency_exception_buf = lambda size: None

    def kbd_intr(char):
        board.kbd_intr = char
    mp.kbd_intr = kbd_intr
    return mp


FIRMWARE_MODULES = None


def load_firmware(folder, board):
    """Import a flashed folder's modules afresh (a reboot's clean RAM) with the stubs in place.
    Returns the modules by name; sys.modules is left as it was."""
    names = [name[:-3] for name, _ in manifest()]
    saved = {name: sys.modules.get(name) for name in names + ["machine", "micropython"]}
    sys.modules["machine"] = make_machine(board)
    sys.modules["micropython"] = make_micropython(board)
    for name in names:
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        ticks = importlib.import_module("ticks")
        ticks.source = board.clock.us
        modules = {name: importlib.import_module(name) for name in names}
    finally:
        sys.path.remove(str(folder))
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return modules


class flashed:
    """While open, ``import link`` (and the rest) finds a loaded folder's modules, as on the Pico."""

    def __init__(self, modules):
        self.modules = modules
        self.saved = {}

    def __enter__(self):
        for name, module in self.modules.items():
            self.saved[name] = sys.modules.get(name)
            sys.modules[name] = module
        return self

    def __exit__(self, *exc):
        for name, module in self.saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class Board:
    """What survives a reboot: the pins' levels, the clock, the flash filesystem."""

    def __init__(self, folder, clock):
        self.folder = Path(folder)
        self.clock = clock
        self.levels = {}
        self.pins = {}
        self.watchdog = None
        self.kbd_intr = 3
        self.reset_cause = 1


# ---------------------------------------------------------------- the USB cable


class PtyCable:
    """The Pico's USB serial as a pseudo-terminal; the firmware's ``usb`` object."""

    def __init__(self, board):
        self._board = board
        self._master = None
        self._slave = None
        self._fd_lock = threading.Lock()
        self.port = None
        self.tamper = None            # bytes -> bytes, applied to what the device sends
        self.tamper_in = None         # bytes -> bytes, applied to what the device receives
        self.hung = threading.Event()
        self._unhang = threading.Event()
        self.sent = 0

    def plug(self):
        with self._fd_lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.port = os.ttyname(slave)

    def unplug(self):
        with self._fd_lock:
            if self._master is None:
                return
            os.close(self._master)
            os.close(self._slave)
            self._master = self._slave = None
            self.port = None

    @property
    def plugged(self):
        return self._master is not None

    def inject(self, data):
        """Bytes on the wire to the host, as if the device had sent them."""
        with self._fd_lock:
            if self._master is not None:
                self._write(data)

    def _write(self, data):
        try:
            n = os.write(self._master, data)
        except (BlockingIOError, OSError):
            return
        self.sent += n                # a partial write drops the rest: a half frame

    # the firmware's side
    def read(self):
        if self.hung.is_set():
            self._unhang.wait()       # the firmware is stuck here until the watchdog bites
            raise WatchdogBite()
        with self._fd_lock:
            if self._master is None:
                return b""
            try:
                data = os.read(self._master, 64)
            except (BlockingIOError, OSError):
                return b""
        if self.tamper_in is not None:
            data = self.tamper_in(data)
        if self._board.kbd_intr == 3 and b"\x03" in data:
            raise KeyboardInterrupt   # what MicroPython does unless kbd_intr(-1) was called
        return data

    def write(self, data):
        if self.tamper is not None:
            data = self.tamper(data)
        with self._fd_lock:
            if self._master is not None and data:
                self._write(data)

    def wait(self, ms):
        with self._fd_lock:
            fd = self._master
            if fd is not None:
                select.select([fd], [], [], ms / 1000.0)
                return
        time.sleep(ms / 1000.0)

    def release(self):
        self._unhang.set()


# ---------------------------------------------------------------- the emulator


class Emulator:
    """A Pico with the newsdesk firmware, in a phone, on a USB cable. Close it when done."""

    def __init__(self, watchdog_ms=None, folder=None):
        self._tmp = None
        if folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="pico-")
            folder = self._tmp.name
        self.clock = Clock()
        self.board = Board(stage(folder), self.clock)
        self.cable = PtyCable(self.board)
        self.lock = threading.RLock()
        self.watchdog_ms = watchdog_ms
        self.boots = []               # boot ids, in order
        self.stopped = None           # why the firmware stopped running, if it did
        self.modules = None
        self.fw = None
        self._generation = 0
        self._closing = threading.Event()
        self._thread = None
        self._dog = threading.Thread(target=self._watch, name="pico-watchdog", daemon=True)
        self._power_on()
        self._dog.start()

    # -------------------------------------------------------- power

    def _power_on(self):
        """Boot: fresh modules, main.boot(), start the loop; the cable is plugged in."""
        self.modules = load_firmware(self.board.folder, self.board)
        main = self.modules["main"]
        self._idle_levels()
        kwargs = {"maintenance_flag": str(self.board.folder / main.MAINTENANCE_FLAG),
                  "reset_flag": str(self.board.folder / main.RESET_FLAG)}
        if self.watchdog_ms:
            kwargs["watchdog_ms"] = self.watchdog_ms
        self.board.kbd_intr = 3
        self.board.watchdog = None
        with flashed(self.modules):     # main.boot imports the rest after arming the watchdog
            self.fw = main.boot(self.cable, **kwargs)
        self.cable.hung.clear()
        self.cable._unhang = threading.Event()
        self.cable.plug()
        if self.fw is None:
            self.stopped = "maintenance"
            return
        self.stopped = None
        self.fw.start()
        self.boots.append(self.fw.link.boot)
        self._generation += 1
        self._thread = threading.Thread(target=self._run, args=(self._generation, self.fw),
                                        name="pico", daemon=True)
        self._thread.start()

    def _idle_levels(self):
        pins = self.modules["pins"]
        for _line, (gp, _pull, high_means) in pins.INPUTS.items():
            self.board.levels.setdefault(gp, 0 if high_means else 1)   # every contact at logical 0

    def _run(self, generation, fw):
        while not self._closing.is_set():
            with self.lock:
                if generation != self._generation:
                    return
                try:
                    fw.step()
                except Reset as e:
                    self._reboot_locked(cause=3 if isinstance(e, WatchdogBite) else 1)
                    return
                except KeyboardInterrupt:
                    self.stopped = "KeyboardInterrupt"
                    self.board.watchdog = None
                    return
                wait = fw.wait_ms()
            self.cable.wait(wait)

    def _starved(self):
        dog = self.board.watchdog
        return dog is not None and self.clock.us() - dog.fed > dog.timeout * 1000

    def _watch(self):
        while not self._closing.wait(0.02):
            if not self._starved():
                continue
            if self.cable.hung.is_set():
                self.board.watchdog = None
                self.cable.release()          # the stuck loop wakes in a reset, and reboots
                continue
            with self.lock:
                if self._starved() and not self._closing.is_set():
                    self._reboot_locked(cause=3)

    def _reboot_locked(self, cause):
        self._generation += 1
        self.cable.unplug()
        self.board.reset_cause = cause
        self._power_on()

    def reboot(self, cause=1):
        with self.lock:
            self._reboot_locked(cause)

    def hang(self):
        """The firmware's loop gets stuck (in its next USB read) and stops feeding the watchdog."""
        self.cable.hung.set()

    def close(self):
        self._closing.set()
        self.cable.release()
        with self.lock:
            self._generation += 1
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._dog.join(timeout=2)
        self.cable.unplug()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -------------------------------------------------------- the cable

    @property
    def port(self):
        return self.cable.port

    def unplug(self):
        with self.lock:
            self.cable.unplug()

    def plug(self):
        with self.lock:
            self.cable.plug()

    # -------------------------------------------------------- the phone

    def _pin(self, line):
        gp, _, high_means = self.modules["pins"].INPUTS[line]
        return self.board.pins[gp], high_means

    def level(self, line):
        pin, high_means = self._pin(line)
        level = pin.value()
        return level if high_means else 1 - level

    def set_line(self, line, state, at=None):
        """Put a logical state on a contact at device time ``at`` (µs; default now) and let the
        firmware run once."""
        with self.lock:
            if at is not None:
                self.clock.jump_to(at)
            pin, high_means = self._pin(line)
            pin.drive(state if high_means else 1 - state)
            if self.fw is not None and self.stopped is None:
                self.fw.step()

    def settle(self, ms):
        """Let ``ms`` of device time pass at once, and the firmware run."""
        with self.lock:
            self.clock.jump_to(self.clock.us() + ms * 1000)
            if self.fw is not None and self.stopped is None:
                self.fw.step()

    def hook(self, off):
        self.set_line("hook", 1 if off else 0)
        self.settle(40)

    def dial(self, digit, pps=10.0, offnormal=True, **kw):
        """Dial one digit through the pins; returns when the firmware has decided it."""
        with self.lock, self.clock.frozen():
            start = self.clock.us() + 1000
            edges, _ = digit_edges(digit, pps=pps, offnormal=offnormal, **kw)
            for t, line, state in edges:
                self.set_line(line, state, at=start + int(t * 1e6))
            self.settle(400)

    def output(self, name):
        """The logical state of an output: True if it is switched on."""
        with self.lock:                 # not half way through a step
            gp, active_high = self.modules["pins"].OUTPUTS[name]
            return bool(self.board.levels.get(gp, 0)) == active_high
