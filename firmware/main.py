"""The phone in a box: the Pico's glue between its pins, its USB port and the pure modules.

The only firmware file that imports ``machine``. What to send and when is link.Link's business,
what the contacts mean is decoder.DialDecoder's (the Pi's own decoder, copied beside this file
by the flash step); here edges are stamped in interrupts, the watchdog is fed, bytes are moved
and pins are set.

At power-up the loop runs forever. If the file ``maintenance`` exists (the host's
``C,n,maint,1`` wrote it and rebooted), it is deleted and the board stays at the REPL for one
boot, with no watchdog and Ctrl-C working, so ``mpremote`` can copy new files.
"""

import os
import select
import sys

import machine
import micropython

import pins
from decoder import LINES
from edges import EdgeRing
from link import Link
from ticks import Uptime, ticks_us

WATCHDOG_MS = 8000            # the RP2040's watchdog can't wait longer than 8388 ms
MAINTENANCE_FLAG = "maintenance"
WAIT_MAX_MS = 5               # the loop runs at least this often (LED, resends, edges)
EDGE_RING = 256

micropython.alloc_emergency_exception_buf(100)


def boot_id():
    """A random id for this boot, so the host tells a rebooted phone's frame 1 from the last one's."""
    return "".join(["%02x" % b for b in os.urandom(4)])


def reset_cause():
    if machine.reset_cause() == getattr(machine, "WDT_RESET", -1):
        return "watchdog"
    return "power"


class UsbSerial(object):
    """The USB serial port as MicroPython's stdin/stdout. With no host attached, writes are
    dropped by the USB stack; reads just find nothing."""

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

    def __init__(self, usb, watchdog_ms=WATCHDOG_MS, maintenance_flag=MAINTENANCE_FLAG):
        self.usb = usb
        self.uptime = Uptime()
        self.ring = EdgeRing(EDGE_RING)
        self.watchdog = None
        self.link = None
        self._watchdog_ms = watchdog_ms
        self._flag = maintenance_flag
        pull = {"up": machine.Pin.PULL_UP, "down": machine.Pin.PULL_DOWN, "none": None}
        self._inputs = []           # (line, pin, high_means); an edge's code is index * 2 + level
        for line in LINES:
            gp, pin_pull, high_means = pins.INPUTS[line]
            self._inputs.append((line, machine.Pin(gp, machine.Pin.IN, pull[pin_pull]), high_means))
        self._outputs = {}
        for name in ("ringer", "status_led"):
            gp, active_high = pins.OUTPUTS[name]
            pin = machine.Pin(gp, machine.Pin.OUT, value=0 if active_high else 1)
            self._outputs[name] = (pin, active_high)
        self._handlers = []

    def start(self):
        micropython.kbd_intr(-1)    # a 0x03 from the host is data, not KeyboardInterrupt
        self.watchdog = machine.WDT(timeout=self._watchdog_ms)
        self.link = Link(boot_id(), self.uptime.now(), reset_cause())
        edges = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
        for index in range(len(self._inputs)):
            pin = self._inputs[index][1]
            handler = self._handler(index, pin)
            self._handlers.append(handler)
            pin.irq(handler=handler, trigger=edges, hard=True)
        # Each line's level now, through the ring so it stays in order with the interrupts'.
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
        with open(self._flag, "w") as f:
            f.write("boot to the REPL once, for mpremote\n")
        machine.reset()

    def run(self):
        self.start()
        while True:
            self.step()
            self.usb.wait(self.wait_ms())


def boot(usb, maintenance_flag=MAINTENANCE_FLAG, watchdog_ms=WATCHDOG_MS):
    """The firmware for this boot, or None for a maintenance boot (the flag is used up)."""
    try:
        os.stat(maintenance_flag)
    except OSError:
        return Firmware(usb, watchdog_ms, maintenance_flag)
    os.remove(maintenance_flag)
    return None


def main():
    firmware = boot(UsbSerial())
    if firmware is None:
        print("newsdesk phone: maintenance boot; the REPL is free until the next reset")
        return
    firmware.run()


if __name__ == "__main__":
    main()
