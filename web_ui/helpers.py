"""Small helpers the blueprints share."""

from flask import abort, current_app, request


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]


def json_body():
    """The request's JSON object, or a 400 that says what to send."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if not isinstance(data, dict):
        abort(400, "Send a JSON object in the request body, with Content-Type: application/json.")
    return data
