"""The lines of requirements.txt that pip should take from PyPI on this interpreter.

    python3 deploy/wheels.py requirements.txt > .venv/requirements-here.txt

Everywhere but 32-bit ARM that is every line. On 32-bit Raspberry Pi OS (armhf: the image for a
Pi Zero W, 2 and 3, and still offered for the others) PyPI has no wheels of two pins, Pillow and
cbor2 (cbor2 6 is written in Rust: a build from source would need a Rust toolchain on the Pi).
Both are only luma.core's (the phone's window), which asks for pillow>=9.2 and any cbor2, and
Debian has both (python3-pil, python3-cbor2); so on armhf they are left out here, `make install`
installs Debian's, and the venv, made with --system-site-packages, sees them.

An environment marker can't say this: 32-bit Raspberry Pi OS on a Pi 4 or 5 runs a 64-bit kernel,
so `platform_machine` (uname) says aarch64 for a 32-bit Python. The pointer size can.

Standard library only: the installer, `make run`'s venv rule and `make update` all run it.
"""

import platform
import re
import struct
import sys

FROM_DEBIAN_ON_ARMHF = {"pillow": "python3-pil", "cbor2": "python3-cbor2"}


def is_32bit_arm(machine: str | None = None, pointer_bytes: int | None = None) -> bool:
    machine = platform.machine() if machine is None else machine
    pointer_bytes = struct.calcsize("P") if pointer_bytes is None else pointer_bytes
    return pointer_bytes == 4 and (machine.startswith("arm") or machine == "aarch64")


def _name(line: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else ""


def lines_here(text: str, arm32: bool) -> list[str]:
    """requirements.txt's lines, less those Debian provides on armhf (they become comments)."""
    out = []
    for line in text.splitlines():
        name = _name(line.split("#")[0])
        if arm32 and name in FROM_DEBIAN_ON_ARMHF:
            out.append("# %s: Debian's %s on 32-bit ARM (deploy/wheels.py)" % (line.strip(), FROM_DEBIAN_ON_ARMHF[name]))
        else:
            out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    path = argv[0] if argv else "requirements.txt"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print("deploy/wheels.py: can't read %s: %s" % (path, e.strerror or e), file=sys.stderr)
        return 2
    print("\n".join(lines_here(text, is_32bit_arm())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
