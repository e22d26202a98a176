"""Finding the phone by its USB identity."""

from types import SimpleNamespace

import pytest

from controller.errors import ConfigError
from controller.serial.finder import PICO_USB_ID, UsbFinder, parse_usb_id, phone_port


def port(device, vid=0x2E8A, pid=0x0005, serial_number="E66058388B1D2F2B"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial_number)


def test_the_pico_is_found_among_other_ports():
    ports = [port("/dev/ttyAMA0", None, None, None), port("/dev/ttyUSB0", 0x1A86, 0x7523),
             port("/dev/ttyACM1")]
    assert UsbFinder(comports=lambda: ports)() == "/dev/ttyACM1"
    assert UsbFinder(comports=lambda: ports[:2])() is None


def test_two_picos_the_first_or_the_one_with_the_serial_number(caplog):
    ports = [port("/dev/ttyACM1", serial_number="B"), port("/dev/ttyACM0", serial_number="A")]
    finder = UsbFinder(comports=lambda: ports)
    assert finder() == "/dev/ttyACM0"
    assert "2 serial ports match USB 2E8A:0005" in caplog.text
    assert UsbFinder(serial_number="B", comports=lambda: ports)() == "/dev/ttyACM1"
    assert str(UsbFinder(serial_number="B")) == "USB 2E8A:0005 serial B"


def test_usb_ids():
    assert parse_usb_id(PICO_USB_ID) == (0x2E8A, 0x0005)
    assert parse_usb_id("2e8a:000a") == (0x2E8A, 0x000A)
    for bad in ("2E8A", "2E8A:zz", "12345:1", ""):
        with pytest.raises(ConfigError, match="VID:PID"):
            parse_usb_id(bad)


def test_a_configured_port_wins_over_the_finder():
    assert phone_port("/dev/ttyACM3") == "/dev/ttyACM3"
    finder = phone_port("", "1234:5678")
    assert (finder.vid, finder.pid) == (0x1234, 0x5678)
