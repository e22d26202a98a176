"""Small helpers the blueprints share."""

import math

from flask import abort, current_app, request

from controller.plain_json import MOST_NESTING


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]


def request_object(allow_empty=False):
    """The request's JSON object, {} for no body at all when ``allow_empty``, else None (anything
    that isn't an object, including JSON nested deeper than the parser goes). JSON the store can't
    keep is a 400 here (not_plain says which): nothing can store or show it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is None and allow_empty and not request.get_data():
        return {}
    if isinstance(data, dict):
        problem = not_plain(data)
        if problem:
            abort(400, problem)
    return data if isinstance(data, dict) else None


def not_plain(data):
    """What in ``data`` (parsed JSON) the store can't keep, in a sentence, or None: a lone
    surrogate ("\\ud800": valid JSON, no text), a number JSON can't carry (Python reads NaN,
    Infinity and 1e309 as floats: stored, they made the store's own backups fail their check), or
    nesting past MOST_NESTING. Looked at without recursion, so depth itself is no 500."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return ("The request holds a lone surrogate (such as \\ud800), which is not text: send the words "
                        "as they are, in UTF-8.")
        elif isinstance(value, float):
            if not math.isfinite(value):
                return ("The request holds a number JSON can't carry (NaN, Infinity, or one past 1.8e308): send "
                        "plain numbers.")
        elif isinstance(value, (dict, list)):
            if depth > MOST_NESTING:
                return "The request's JSON is nested deeper than %d levels, which nothing here takes." % MOST_NESTING
            items = [x for kv in value.items() for x in kv] if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items)
    return None


def json_body(allow_empty=False):
    """The request's JSON object, or a 400 that says what to send."""
    data = request_object(allow_empty)
    if data is None:
        abort(400, "Send a JSON object in the request body, with Content-Type: application/json.")
    return data


def limit_arg(default, most):
    """The ?limit= of a list request: 1 to ``most`` in plain ASCII digits, or a 400 saying so
    ("²" is a digit to str.isdigit but no number to int)."""
    raw = request.args.get("limit", str(default))
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9 or not 1 <= int(raw) <= most:
        abort(400, "The limit must be a whole number from 1 to %d, got %r." % (most, raw if len(raw) <= 40 else raw[:40] + "..."))
    return int(raw)
