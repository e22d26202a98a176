"""Finds the phone among the serial ports by its USB identity, so it needs no configured port.

A Pico running MicroPython enumerates as USB 2E8A:0005 (Raspberry Pi's vendor id, MicroPython's
product id); that is newsdesk's default. Two phones, or another MicroPython board on the same
machine, need ``serial_number`` (see ``python -m serial.tools.list_ports -v``) or a fixed port.
"""

import logging

from serial.tools import list_ports

from ..errors import ConfigError

log = logging.getLogger(__name__)

PICO_USB_ID = "2E8A:0005"


def parse_usb_id(text: object) -> tuple[int, int]:
    """``"2E8A:0005"`` -> (0x2E8A, 0x0005)."""
    vid, sep, pid = str(text).partition(":")
    try:
        if not sep:
            raise ValueError(text)
        ids = int(vid, 16), int(pid, 16)
    except ValueError:
        raise ConfigError("a USB id is VID:PID in hex, like %s, not %r" % (PICO_USB_ID, text)) from None
    if not all(0 <= n <= 0xFFFF for n in ids):
        raise ConfigError("a USB id is VID:PID in hex, like %s, not %r" % (PICO_USB_ID, text))
    return ids


class UsbFinder:
    """Callable: the device path of the first serial port with this USB identity, or None."""

    __slots__ = ("vid", "pid", "serial_number", "_comports", "_warned")

    def __init__(self, usb_id=PICO_USB_ID, serial_number=None, comports=list_ports.comports):
        self.vid, self.pid = parse_usb_id(usb_id)
        self.serial_number = serial_number or None
        self._comports = comports
        self._warned = False

    def matches(self):
        found = [p for p in self._comports()
                 if p.vid == self.vid and p.pid == self.pid
                 and (self.serial_number is None or p.serial_number == self.serial_number)]
        return sorted(found, key=lambda p: p.device)

    def __call__(self):
        found = self.matches()
        if len(found) > 1 and not self._warned:
            self._warned = True
            log.warning("%d serial ports match %s (%s); using %s: set the phone's serial number "
                        "or port to choose", len(found), self, ", ".join(p.device for p in found),
                        found[0].device)
        return found[0].device if found else None

    def __str__(self):
        usb = "USB %04X:%04X" % (self.vid, self.pid)
        return usb + (" serial %s" % self.serial_number if self.serial_number else "")

    def __repr__(self):
        return "<UsbFinder %s>" % self


def phone_port(port="", usb_id=PICO_USB_ID, serial_number=None):
    """What SerialBridge takes: a configured port name as it is, else a finder for the USB id."""
    return port if port else UsbFinder(usb_id, serial_number)
