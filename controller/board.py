"""Which board this is: the device-tree model a Raspberry Pi's firmware writes at boot.

A Pi says so in /proc/device-tree/model ("Raspberry Pi 4 Model B Rev 1.4"); a laptop, a
desktop or a container on one has no such file. Three things follow from it: the panel listens
on the LAN (tablets reach it) rather than on loopback, gpiozero's real pin library is loaded
rather than MockFactory, and `make install` goes ahead.

An emulated Pi (the emulated-Pi test lane: a Debian arm64 or armhf root booted with
systemd-nspawn under qemu-user-static, docs/install.md) has no device tree to say so. For that
one case there is one test hook, a file a real box never has: EMULATED_PI_FILE, whose first
line is the model to pretend. It makes the box a Pi for the network and the installer, and
keeps the pins simulated (there are none to drive). The lane writes it; nothing else does.

Standard library only: the installer imports this before anything is installed.
"""

import os

MODEL_FILE = "/proc/device-tree/model"
EMULATED_PI_FILE = "/etc/newsdesk/emulated-pi"
SERIAL_FILE = "/proc/device-tree/serial-number"     # the Pi's SoC serial: one per board
MACHINE_ID_FILE = "/etc/machine-id"                 # systemd's, where there is no device tree


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(256).split(b"\0")[0].split(b"\n")[0].decode("utf-8", "replace").strip()
    except OSError:
        return ""


def model(model_file: str = MODEL_FILE, emulated_file: str = EMULATED_PI_FILE) -> str:
    """The board's model line, "" when there is none (not a Pi, or a Pi with no device tree)."""
    found = _read(model_file)
    if found or os.path.exists(model_file):
        return found
    pretend = _read(emulated_file)
    return "%s (emulated: %s)" % (pretend, emulated_file) if pretend else ""


def is_emulated(model_file: str = MODEL_FILE, emulated_file: str = EMULATED_PI_FILE) -> bool:
    """True only on the emulated-Pi lane's box: no device tree, and the hook file is there."""
    return not os.path.exists(model_file) and bool(_read(emulated_file))


def is_raspberry_pi(model_file: str = MODEL_FILE, emulated_file: str = EMULATED_PI_FILE) -> bool:
    return "Raspberry Pi" in model(model_file, emulated_file)


def machine(serial_file: str = SERIAL_FILE, machine_id_file: str = MACHINE_ID_FILE) -> str | None:
    """A short digest telling this machine from another holding a copy of its SD card: of the
    Pi's SoC serial number, else of systemd's machine id (which a copied card copies too, so a
    copy is told apart only on a Pi); None where neither can be read. A digest, so the serial
    itself is never shown or sent."""
    import hashlib

    for path in (serial_file, machine_id_file):
        found = _read(path)
        if found:
            return hashlib.sha256(("newsdesk machine " + found).encode()).hexdigest()[:12]
    return None

