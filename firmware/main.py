"""The phone in a box: the Pico's glue between its pins, its USB port and the pure modules.

The only firmware file that imports ``machine``. What to send and when is link.Link's business,
what the contacts mean is decoder.DialDecoder's (the Pi's own decoder, copied beside this file
by the flash step); here edges are stamped in interrupts, the watchdog is fed, bytes are moved
and pins are set.

At power-up the watchdog is armed and Ctrl-C turned into a plain byte before anything else is
imported, then the loop runs forever. If the file ``maintenance`` exists (the host's
``C,n,maint,1`` wrote it and rebooted), it is deleted and the board stays at the REPL for one
boot, with no watchdog and Ctrl-C working, so ``mpremote`` can copy new files.
"""

import os
import select
import sys

import machine
import micropython

WATCHDOG_MS = 8000            # the RP2040's watchdog can't wait longer than 8388 ms
MAINTENANCE_FLAG = "maintenance"
RESET_FLAG = "reset-intended"  # the next reset is a deliberate one (mpremote's, after maintenance)
WAIT_MAX_MS = 5               # the loop runs at least this often (LED, resends, edges)
EDGE_RING = 256

micropython.alloc_emergency_exception_buf(100)

# Filled by _load_modules(), after the watchdog is armed: an import that hangs or fails must not
# leave the board at the REPL with Ctrl-C live and nobody feeding a watchdog.
pins = LINES = EdgeRing = Link = Uptime = ticks_us = None


def _load_modules():
    global pins, LINES, EdgeRing, Link, Uptime, ticks_us
    import pins as _pins
    from decoder import LINES as _lines
    from edges import EdgeRing as _ring
    from link import Link as _link
    from ticks import Uptime as _uptime, ticks_us as _ticks_us
    pins, LINES, EdgeRing, Link, Uptime, ticks_us = _pins, _lines, _ring, _link, _uptime, _ticks_us


def boot_id():
    """A random id for this boot, so the host tells a rebooted phone's frame 1 from the last one's."""
    return "".join(["%02x" % b for b in os.urandom(4)])


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _flag(path, why):
    with open(path, "w") as f:
        f.write(why + "\n")


def reset_cause(reset_flag=RESET_FLAG):
    """Why this boot happened: "reset" (a deliberate one: the flag says so, and is used up),
    "watchdog" or "power". The RP2040 reports machine.reset() as a watchdog reset too (it resets
    through the watchdog), so without the flag every flash would read as a crash."""
    if _exists(reset_flag):
        os.remove(reset_flag)
        return "reset"
    if machine.reset_cause() == getattr(machine, "WDT_RESET", -1):
        return "watchdog"
    return "power"


def board_name():
    """The board MicroPython was built for, e.g. "Raspberry Pi Pico W with RP2040"."""
    return getattr(sys.implementation, "_machine", "")


def wireless(name):
    """A Pico W or Pico 2 W: there the plain Pico's LED pin is the wireless chip's select line,
    and the LED hangs off the wireless chip (MicroPython's Pin("LED"))."""
    return " W " in name + " "


class UsbSerial(object):
    """The USB serial port as MicroPython's stdin/stdout. With no host reading, MicroPython's
    USB CDC keeps the newest bytes in its buffer (256 bytes on the rp2 port) and drops older
    ones; while the host holds DTR set but doesn't read, a write waits for room (up to about
    500 ms) before giving up, so the loop can stall that long (the watchdog allows 8 s, and the
    pins' interrupts keep stamping edges meanwhile). Reads just find nothing."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 64 and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data):
        self._out.write(data)

    def wait(self, ms):
        self._poll.poll(ms)


class Firmware(object):
    """The pins from pins.py (generated from hardware/pinmap.toml), one Link, one loop."""

    def __init__(self, usb, watchdog, cause="power", maintenance_flag=MAINTENANCE_FLAG):
        self.usb = usb
        self.uptime = Uptime()
        self.ring = EdgeRing(EDGE_RING)
        self.watchdog = watchdog
        self.reset_cause = cause
        self.link = None
        self._flag = maintenance_flag
        pull = {"up": machine.Pin.PULL_UP, "down": machine.Pin.PULL_DOWN, "none": None}
        self._inputs = []           # (line, pin, high_means); an edge's code is index * 2 + level
        for line in LINES:
            gp, pin_pull, high_means = pins.INPUTS[line]
            self._inputs.append((line, machine.Pin(gp, machine.Pin.IN, pull[pin_pull]), high_means))
        self._outputs = {}
        for name in ("ringer", "status_led"):
            gp, active_high = pins.OUTPUTS[name]
            if name in pins.BOARD_LEDS and wireless(board_name()):
                pin = machine.Pin("LED", machine.Pin.OUT, value=0)   # by name on a Pico W
            else:
                pin = machine.Pin(gp, machine.Pin.OUT, value=0 if active_high else 1)
            self._outputs[name] = (pin, active_high)
        self._handlers = []

    def start(self):
        self.link = Link(boot_id(), self.uptime.now(), self.reset_cause)
        edges = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
        for index in range(len(self._inputs)):
            pin = self._inputs[index][1]
            handler = self._handler(index, pin)
            self._handlers.append(handler)
            pin.irq(handler=handler, trigger=edges, hard=True)
        self._read_levels()

    def _read_levels(self):
        """Each line's level now, through the ring so it stays in order with the interrupts'."""
        irq = machine.disable_irq()
        try:
            for index in range(len(self._inputs)):
                self.ring.push(ticks_us(), index * 2 + self._inputs[index][1].value())
        finally:
            machine.enable_irq(irq)

    def _handler(self, index, pin):
        ring, code = self.ring, index * 2

        def edge(_pin):             # hard interrupt: allocates nothing
            ring.push(ticks_us(), code + pin.value())
        return edge

    def step(self):
        """One turn of the loop: feed the dog, hand edges and bytes to the link, send, set pins."""
        self.watchdog.feed()
        now = self.uptime.now()
        link = self.link
        while True:
            item = self.ring.pop()
            if item is None:
                break
            line, _, high_means = self._inputs[item[1] >> 1]
            level = item[1] & 1
            link.edge(self.uptime.at(item[0]), line, level if high_means else 1 - level)
        if self.ring.lost != link.lost_edges:
            # the ring was full and edges are gone: say so, and read every contact again
            link.lost(self.ring.lost, now)
            self._read_levels()
        data = self.usb.read()
        if data:
            link.received(data, now)
        link.poll(now)
        out = link.take()
        if out:
            self.usb.write(out)
        ringer, led = link.outputs(now)
        self._set("ringer", ringer)
        self._set("status_led", led)
        if link.maintenance:
            self.maintenance()

    def wait_ms(self):
        """How long the loop may wait for the host before its next step."""
        wait = (self.link.deadline() - self.uptime.now() + 999) // 1000
        return 0 if wait < 0 else min(wait, WAIT_MAX_MS)

    def _set(self, name, on):
        pin, active_high = self._outputs[name]
        pin.value(1 if on == active_high else 0)

    def maintenance(self):
        """Reboot to the REPL for one boot (the host is about to copy files)."""
        self._set("ringer", False)
        _flag(self._flag, "boot to the REPL once, for mpremote")
        machine.reset()

    def run(self):
        self.start()
        while True:
            self.step()
            self.usb.wait(self.wait_ms())


def boot(usb, maintenance_flag=MAINTENANCE_FLAG, watchdog_ms=WATCHDOG_MS, reset_flag=RESET_FLAG):
    """The firmware for this boot, or None for a maintenance boot (the flag is used up).

    Before anything heavy is imported, Ctrl-C is made a plain byte and the watchdog is armed:
    a 0x03 from the host during the imports can't stop the board at the REPL, and an import
    that hangs is reset. An import that fails (a bad or half-copied file) sets the maintenance
    flag and resets, so the next boot waits at the REPL for `make flash` to put it right."""
    if _exists(maintenance_flag):
        os.remove(maintenance_flag)
        _flag(reset_flag, "the reset that ends a maintenance boot is a deliberate one")
        return None
    micropython.kbd_intr(-1)        # a 0x03 from the host is data, not KeyboardInterrupt
    watchdog = machine.WDT(timeout=watchdog_ms)
    cause = reset_cause(reset_flag)
    try:
        _load_modules()
    except Exception as e:          # ImportError, SyntaxError, MemoryError: the files are wrong
        print("newsdesk phone: the firmware's files don't load (%r); maintenance boot next" % (e,))
        _flag(maintenance_flag, "the firmware's files did not load: boot to the REPL for mpremote")
        machine.reset()
    return Firmware(usb, watchdog, cause, maintenance_flag)


def main():
    firmware = boot(UsbSerial())
    if firmware is None:
        print("newsdesk phone: maintenance boot; the REPL is free until the next reset")
        return
    firmware.run()


if __name__ == "__main__":
    main()
