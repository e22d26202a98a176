"""What JSON can't carry, put in words: a number no real game reaches, in a store an earlier
version wrote (a card's points of 4,300 digits, a story worth 1e309).

Python's json writes an infinite float as ``Infinity``, which no JSON reader (a browser's
JSON.parse, SQLite's json_valid, the store's own backup check) takes back, and can't write an int
past ~4,300 digits at all. ``shown`` replaces such a value by words saying what it is: the panel's
answers (web_ui/safejson.py) and a game's final table in the store (a game carrying one can still
be finished or abandoned) go through it.
"""

import math

TOO_LONG_BITS = 13_000          # ~3,900 digits: below Python's 4,300-digit limit for int -> text
MOST_NESTING = 64               # levels of JSON a request or a stored value may nest: no move, setting, name
                                # or game needs a tenth of it (a restore refuses a store nested deeper)


def shown(value):
    """``value`` with every number JSON can't carry replaced by words saying what it is."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if abs(value).bit_length() > TOO_LONG_BITS:
            return "%sa number of about %d digits" % ("-" if value < 0 else "", int(abs(value).bit_length() * 0.30103))
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"inf": "infinity", "-inf": "minus infinity"}.get(str(value), "not a number")
    if isinstance(value, dict):
        return {k: shown(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    return value
