"""Small helpers the blueprints share."""

from flask import abort, current_app, request


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]


def request_object(allow_empty=False):
    """The request's JSON object, {} for no body at all when ``allow_empty``, else None (anything
    that isn't an object, including JSON nested deeper than the parser goes). JSON that holds a
    lone surrogate ("\\ud800": valid JSON, but no text) is a 400 here: nothing can store or show it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is None and allow_empty and not request.get_data():
        return {}
    if isinstance(data, dict) and not _unicode(data):
        abort(400, "The request holds a lone surrogate (such as \\ud800), which is not text: send the words as "
                   "they are, in UTF-8.")
    return data if isinstance(data, dict) else None


def _unicode(value):
    """True when every string in ``value`` (keys too) is text UTF-8 can carry."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_unicode(k) and _unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_unicode(v) for v in value)
    return True


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
