"""JSON the browser can always read, whatever a kept game holds.

A store written by an earlier version may hold a number no real game reaches (an infinite float,
an int of thousands of digits: controller/plain_json.py); written as is, it would turn a page, a
view or an export into an error. Here such a value is shown as words instead (the table still
sees it, and can undo the move that made it). Ordinary answers pass through as they are: the walk
runs only when plain JSON fails.
"""

import json

from flask.json.provider import DefaultJSONProvider

from controller.plain_json import shown

__all__ = ["SafeJSONProvider", "dumps", "shown"]


def dumps(obj, **kw):
    """json.dumps that never writes NaN/Infinity nor fails on a huge int (see shown)."""
    kw["allow_nan"] = False
    try:
        return json.dumps(obj, **kw)
    except (ValueError, OverflowError):
        return json.dumps(shown(obj), **kw)


class SafeJSONProvider(DefaultJSONProvider):
    """Flask's JSON (jsonify, the pages' |tojson) through ``dumps`` above, keeping each object's
    keys in the order they were made: a game's variants and an option's choices come out as the
    game declared them (its first variant is its default), where Flask's provider sorts them.
    (Flask 3 reads this attribute; its old JSON_SORT_KEYS setting is ignored.) Written compact
    wherever it isn't indented, as Flask's answers already are: the pages' |tojson too, whose
    ", " and ": " were about a twentieth of the table page's catalogue. Jinja's |tojson asks for
    sorted keys by name (its json.dumps_kwargs policy), and is not let: a page's boot data keeps
    the declared order as an answer does."""

    sort_keys = False

    def dumps(self, obj, **kw):
        kw.setdefault("default", self.default)
        kw.setdefault("ensure_ascii", self.ensure_ascii)
        kw["sort_keys"] = self.sort_keys
        if kw.get("indent") is None:
            kw.setdefault("separators", (",", ":"))
        return dumps(obj, **kw)
