"""Small helpers the blueprints share."""

import json
import math

from flask import abort, current_app, request

from controller.plain_json import MOST_NESTING

from .request_fields import stray_field, stray_sentence


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]


class _Twice(ValueError):
    """One JSON object names a field twice."""


def _once(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _Twice(key)
        seen[key] = value
    return seen


def request_object(allow_empty=False):
    """The request's JSON object, {} for no body at all when ``allow_empty``, else None (anything
    that isn't an object, including JSON nested deeper than the parser goes). A 400 here, with its
    sentence: JSON the store can't keep (not_plain says which: nothing can store or show it), an
    object naming a field twice (parsers differ on which one counts, so neither is guessed), and a
    field the view's schema has no place for (request_fields.stray_field)."""
    data = None
    if request.is_json:
        try:
            data = json.loads(request.get_data(cache=True), object_pairs_hook=_once)
        except _Twice as e:
            abort(400, "The request names the field %r twice; send each field once."
                  % (e.args[0] if len(e.args[0]) <= 80 else e.args[0][:80] + "...",))
        except (ValueError, RecursionError):
            data = None
    if data is None and allow_empty and not request.get_data():
        return {}
    if not isinstance(data, dict):
        return None
    problem = not_plain(data)
    if problem:
        abort(400, problem)
    schema = getattr(current_app.view_functions.get(request.endpoint or ""), "request_schema", None)
    if schema is not None:
        schemas = current_app.extensions["api_schemas"]         # openapi.Schemas
        found = stray_field(data, schemas[schema], schemas)
        if found:
            abort(400, stray_sentence(found))
    return data


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
