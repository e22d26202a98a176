"""Installs the firmware on a Pico running MicroPython, with mpremote (`make flash`).

    python firmware/tools/flash.py [--port /dev/ttyACM0] [--dry-run]

The Pico gets the files of MANIFEST, flat in its root: firmware/ itself plus the pure modules
it shares with the Pi (the decoder, its dial maps, the protocol), copied as they are, so there
is one copy of that logic in the repository. If the newsdesk firmware is already running, it
is first asked (over the protocol) to reboot to the REPL once, since it ignores Ctrl-C.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parents[1]
for _path in (str(REPO), str(TOOLS)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

# name on the Pico -> file in the repository
MANIFEST = (
    ("main.py", "firmware/main.py"),
    ("link.py", "firmware/link.py"),
    ("edges.py", "firmware/edges.py"),
    ("ticks.py", "firmware/ticks.py"),
    ("pins.py", "firmware/pins.py"),
    ("protocol.py", "controller/serial/protocol.py"),
    ("decoder.py", "controller/dial/decoder.py"),
    ("dialmaps.py", "controller/dial/dialmaps.py"),
)
REBOOT_WAIT = 15.0     # seconds for the Pico to come back after its maintenance reboot


def mpremote_command(port):
    """One mpremote run: copy every file, then reset so main.py starts."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port]
    for name, path in MANIFEST:
        cmd += ["cp", str(REPO / path), ":" + name, "+"]
    return cmd + ["reset"]


def ask_for_maintenance(port, timeout=1.5):
    """If the newsdesk firmware answers on ``port``, have it reboot to the REPL; True if it did."""
    import serial

    from controller.serial import protocol as p

    reader = p.FrameReader()
    asked = False
    with serial.Serial(port, 115200, timeout=0.05) as ser:
        ser.write(p.encode(p.QUERY, p.PROTOCOL))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                data = ser.read(256)
            except serial.SerialException:
                return asked          # gone as it reset: its answer was lost with the port
            for fields in reader.feed(data):
                if fields[0] == p.HELLO and not asked:
                    asked = True
                    ser.write(p.encode(p.COMMAND, "1", "maint", "1"))
                elif fields[0] == p.REPLY and fields[1] == "1":
                    return fields[2] == "ok"
    return False


def wait_for_port(finder, gone_first, timeout=REBOOT_WAIT):
    deadline = time.monotonic() + timeout
    seen_gone = not gone_first
    while time.monotonic() < deadline:
        port = finder()
        if port is None:
            seen_gone = True
        elif seen_gone:
            return port
        time.sleep(0.2)
    return None


def pins_refusal():
    """Why the Pico must not be flashed with firmware/pins.py as it is, in sentences (none: it may):
    the pin map can't be read, pins.py is out of date with it, or the Pico's circuit breaks the
    electrical rules (the same rules, run the same way, as `make firmware-pins` and `python -m
    schematics.generate --check`)."""
    from genpins import OUTPUT, render, rule_errors

    from controller.errors import ConfigError
    from controller.pinmap import load_pinmap
    try:
        pinmap = load_pinmap()
        if OUTPUT.read_text(encoding="utf-8") != render(pinmap):
            return ["flash: firmware/pins.py is out of date with hardware/pinmap.toml; run `make firmware-pins`"]
        problems = rule_errors(pinmap)
    except ConfigError as e:
        return ["flash: %s" % e]
    if problems:
        return ["electrical rules: %s" % p for p in problems] + [
            "flash: not flashing a Pico whose circuit breaks the electrical rules: fix hardware/pinmap.toml (or "
            "hardware/parts.toml) first"]
    return []


def main(argv=None):
    from controller.serial.finder import PICO_USB_ID, UsbFinder

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", help="the Pico's serial port (default: found by its USB id)")
    parser.add_argument("--usb-id", default=PICO_USB_ID, help="VID:PID to look for (default %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote command, change nothing")
    args = parser.parse_args(argv)

    refusal = pins_refusal()
    if refusal:
        print("\n".join(refusal), file=sys.stderr)
        return 1
    for _, path in MANIFEST:
        if not (REPO / path).is_file():
            print("flash: %s is missing" % path, file=sys.stderr)
            return 1
    if args.port:
        def finder():
            return args.port if os.path.exists(args.port) else None
    else:
        finder = UsbFinder(args.usb_id)
    port = finder() or ("/dev/ttyACM0" if args.dry_run else None)
    if port is None:
        print("flash: no Pico found (%s); plug it in, or give --port" % UsbFinder(args.usb_id), file=sys.stderr)
        return 1
    cmd = mpremote_command(port)
    if args.dry_run:
        print(" ".join(cmd))
        return 0
    if shutil.which("mpremote") is None and subprocess.run(
            [sys.executable, "-m", "mpremote", "version"], capture_output=True).returncode != 0:
        print("flash: mpremote is not installed (pip install -r requirements-dev.txt)", file=sys.stderr)
        return 1
    if ask_for_maintenance(port):
        print("flash: the firmware on %s is rebooting to the REPL" % port)
        port = wait_for_port(finder, gone_first=True)
        if port is None:
            print("flash: the Pico did not come back within %d s" % REBOOT_WAIT, file=sys.stderr)
            return 1
    print("flash: copying %d files to %s" % (len(MANIFEST), port))
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
