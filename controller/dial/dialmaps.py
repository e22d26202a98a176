"""Dial maps: how many pulses a digit gives, by the country the dial was made for.

Pure and MicroPython-safe: the firmware imports this module too.
"""

DIAL_MAPS = ("standard", "sweden", "new-zealand")


def pulses_for(digit, dial_map="standard"):
    # type: (int, str) -> int
    """Pulses a dial of ``dial_map`` sends for ``digit`` (0-9)."""
    if not (isinstance(digit, int) and 0 <= digit <= 9):
        raise ValueError("a dial digit is 0 to 9, not %r" % (digit,))
    if dial_map == "standard":
        return 10 if digit == 0 else digit
    if dial_map == "sweden":
        return digit + 1
    if dial_map == "new-zealand":
        return 10 - digit
    raise ValueError("unknown dial map %r (choose from %s)" % (dial_map, ", ".join(DIAL_MAPS)))


def digit_for(pulses, dial_map="standard"):
    # type: (int, str) -> int | None
    """The digit that ``pulses`` pulses mean on a dial of ``dial_map``, or None if none does."""
    if not (isinstance(pulses, int) and 1 <= pulses <= 10):
        if dial_map not in DIAL_MAPS:
            raise ValueError("unknown dial map %r (choose from %s)" % (dial_map, ", ".join(DIAL_MAPS)))
        return None
    if dial_map == "standard":
        return 0 if pulses == 10 else pulses
    if dial_map == "sweden":
        return pulses - 1
    if dial_map == "new-zealand":
        return 10 - pulses
    raise ValueError("unknown dial map %r (choose from %s)" % (dial_map, ", ".join(DIAL_MAPS)))
