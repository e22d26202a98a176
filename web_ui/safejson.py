"""JSON the browser can always read, whatever a kept game holds.

A store written by an earlier version may hold a number no real game reaches (a card's points of
4,300 digits, a story worth 1e309). Python's json writes an infinite float as ``Infinity``, which
no browser's JSON.parse reads, and can't write an int past ~4,300 digits at all; either would
turn a page, a view or an export into an error. Here such a value is shown as words instead (the
table still sees it, and can undo the move that made it). Ordinary answers pass through as they
are: the walk runs only when plain JSON fails.
"""

import json
import math

from flask.json.provider import DefaultJSONProvider

TOO_LONG_BITS = 13_000          # ~3,900 digits: below Python's 4,300-digit limit for int -> text


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


def dumps(obj, **kw):
    """json.dumps that never writes NaN/Infinity nor fails on a huge int (see shown)."""
    kw["allow_nan"] = False
    try:
        return json.dumps(obj, **kw)
    except (ValueError, OverflowError):
        return json.dumps(shown(obj), **kw)


class SafeJSONProvider(DefaultJSONProvider):
    """Flask's JSON (jsonify, the pages' |tojson) through ``dumps`` above."""

    def dumps(self, obj, **kw):
        kw.setdefault("default", self.default)
        kw.setdefault("ensure_ascii", self.ensure_ascii)
        kw.setdefault("sort_keys", self.sort_keys)
        return dumps(obj, **kw)
