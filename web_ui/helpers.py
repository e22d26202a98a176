"""Small helpers the blueprints share."""

from flask import abort, current_app, request


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]


def request_object(allow_empty=False):
    """The request's JSON object, {} for no body at all when ``allow_empty``, else None (anything
    that isn't an object, including JSON nested deeper than the parser goes)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is None and allow_empty and not request.get_data():
        return {}
    return data if isinstance(data, dict) else None


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
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= most:
        abort(400, "limit must be a whole number from 1 to %d, got %r." % (most, raw))
    return int(raw)
