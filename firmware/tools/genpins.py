"""Writes firmware/pins.py from the [pico.*] lines of hardware/pinmap.toml, the one source of pins.

    python firmware/tools/genpins.py           # write it
    python firmware/tools/genpins.py --check   # exit 1 if the checked-in file has drifted
"""

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "firmware" / "pins.py"
FIRMWARE_OUTPUTS = ("ringer", "status_led")   # the outputs main.py drives

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from controller.errors import PinMapError  # noqa: E402
from controller.pinmap import PHONE_LINES, load_pinmap  # noqa: E402


def render(pinmap):
    """The text of pins.py for ``pinmap``."""
    inputs = [spec for spec in pinmap.lines("input", board="pico")]
    outputs = [spec for spec in pinmap.lines("output", board="pico")]
    for name in PHONE_LINES:
        pinmap.line(name, board="pico")           # raises PinMapError naming the missing line
    for name in FIRMWARE_OUTPUTS:
        spec = pinmap.line(name, board="pico")
        if spec.kind != "output":
            raise PinMapError("%s: [pico.%s] must be an output" % (pinmap.source, name))
    out = [
        '"""The Pico\'s pins. Generated from hardware/pinmap.toml by firmware/tools/genpins.py:',
        "edit the pin map and run `make firmware-pins`, never this file.",
        "",
        "INPUTS: line -> (GPn, pull, the logical state a HIGH level means).",
        "OUTPUTS: line -> (GPn, True if driving the pin HIGH switches it on).",
        "What each line is wired to is said once, in the pin map.",
        '"""',
        "",
        "INPUTS = {",
    ]
    for spec in inputs:
        out.append("    %r: (%d, %r, %d)," % (spec.name, spec.bcm, spec.pull, spec.high_means))
    out.append("}")
    out.append("")
    out.append("OUTPUTS = {")
    for spec in outputs:
        out.append("    %r: (%d, %r)," % (spec.name, spec.bcm, spec.active_high))
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if firmware/pins.py is out of date")
    parser.add_argument("--pinmap", help="the pin map (default: hardware/pinmap.toml)")
    args = parser.parse_args(argv)
    text = render(load_pinmap(args.pinmap))
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    if args.check:
        if current != text:
            print("firmware/pins.py is out of date with the pin map: run `make firmware-pins`",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        OUTPUT.write_text(text, encoding="utf-8")
        print("wrote firmware/pins.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
