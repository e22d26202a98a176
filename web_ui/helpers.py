"""Small helpers the blueprints share."""

from flask import current_app


def desk():
    """The running Newsdesk this app was built around."""
    return current_app.extensions["newsdesk"]
