"""How an error reaches a tablet (web_ui/errors.py): a refusal from the table with the status its
class carries (controller/errors.py) and one sentence, the unexpected logged in full and answered
with no details, an HTTP error with its own answer."""

import logging

import pytest
from test_security import LAN, client_at, guard, stranger  # noqa: F401  (the guard and stranger fixtures)

from controller.errors import BadRequest, Conflict, NewsdeskError, NotFound
from controller.store import StaleVersion
from web_ui import errors


@pytest.mark.slow
def test_an_unexpected_error_is_logged_and_answered_without_details(app, guard, caplog):  # noqa: F811
    @app.get("/api/boom")
    def boom():
        raise RuntimeError("secret detail 4711")

    @app.get("/boom")
    def page_boom():
        raise KeyError("another secret detail")

    c = client_at(app, LAN)
    with caplog.at_level(logging.ERROR):
        r = c.get("/api/boom")
        page = c.get("/boom")
    assert r.status_code == 500
    assert r.get_json()["error"] == "Internal Server Error"
    assert "logged" in r.get_json()["message"] or "log" in r.get_json()["message"]
    assert page.status_code == 500 and page.mimetype == "text/html"
    for text in (r.get_data(as_text=True), page.get_data(as_text=True)):
        assert "secret detail" not in text and "Traceback" not in text and "Error(" not in text
        assert "RuntimeError" not in text and "KeyError" not in text
    assert "secret detail 4711" in caplog.text and "Traceback" in caplog.text
    assert app.debug is False


@pytest.mark.slow
def test_the_catch_all_handler_hides_details_too(app, guard):  # noqa: F811
    """The panel's one handler for the unexpected (web_ui/errors.py), called directly."""
    with app.test_request_context("/api/x"):
        body, status = errors.unexpected(RuntimeError("secret"))
        assert status == 500 and "secret" not in body.get_data(as_text=True)
    with app.test_request_context("/page"):
        html, status, headers = errors.unexpected(RuntimeError("secret"))
        assert status == 500 and "secret" not in html and headers["Content-Type"].startswith("text/html")


@pytest.mark.slow
def test_http_errors_keep_their_own_answers(stranger):  # noqa: F811
    r = stranger.get("/api/nothing-here")
    assert r.status_code == 404 and r.get_json()["error"] == "Not Found"


def test_a_refusal_answers_with_its_classs_status_one_sentence_and_its_fields(app):
    refusals = [(BadRequest("send a version"), 400, "Bad Request", "Send a version."),
                (NotFound("no game #4"), 404, "Not Found", "No game #4."),
                (Conflict("game #1 is still being played!"), 409, "Conflict", "Game #1 is still being played!"),
                (NewsdeskError("the phone is not answering"), 503, "Service Unavailable", "The phone is not answering.")]
    with app.test_request_context("/api/games/current"):
        for error, status, name, message in refusals:
            body, said = errors.refused(error)
            assert said == status and body.get_json() == {"error": name, "message": message}, error
        body, said = errors.refused(StaleVersion("the game moved on", 1, 2, 3))
        assert said == 409 and body.get_json() == {"error": "Conflict", "message": "The game moved on.",
                                                   "stale": True, "game": 1, "version": 3}
    with app.test_request_context("/games/4"):        # a page gets the panel's error page, same sentence
        html, said = errors.refused(NotFound("no game #4"))
        assert said == 404 and "No game #4." in html


def test_a_503_is_logged_as_its_sentence_and_a_500_with_its_cause(app, caplog):
    """A full disk refuses every write with 503 until there is room: one line each, what it says,
    not a traceback each. A game's own code failing (500) is a bug: its cause in full."""
    from controller.errors import GameFault, StoreError
    with app.test_request_context("/api/games/current/actions", method="POST"):
        with caplog.at_level(logging.WARNING, logger="web_ui.errors"):
            errors.refused(StoreError("can't write to the store: database or disk is full"))
        assert "database or disk is full" in caplog.text and "Traceback" not in caplog.text
        caplog.clear()
        try:
            raise GameFault("the Purse game's rules failed on this move") from KeyError("taken")
        except GameFault as e:
            with caplog.at_level(logging.WARNING, logger="web_ui.errors"):
                errors.refused(e)
        assert "Traceback" in caplog.text and "KeyError: 'taken'" in caplog.text


def test_a_refusal_quoting_a_huge_value_is_still_a_short_sentence(client):
    """A refusal that quotes what was sent is cut to errors.SENTENCE_MOST characters, in the middle:
    its beginning and its end are kept. Before: a 64 KB body came back whole in the sentence (a
    field the view quotes with %r, an idempotency key, a version of 4,000 digits)."""
    client.post("/api/games", json={"engine": "scoop1956", "players": [{"name": "Ann"}, {"name": "Bob"}]})
    huge = list(range(9000))
    sent = [("/api/sim/dial", {"digit": huge}, 400, "digit must be a whole number"),             # a view's abort
            ("/api/games/current/undo", {"version": 1, "key": huge}, 400, "An idempotency key"),  # a NewsdeskError
            ("/api/games/current/undo", {"version": 10 ** 4000}, 409, "Game #1 has moved on"),
            ("/api/join/tokens", {"role": huge}, 400, "role must be"),                            # join's own answer
            ("/api/oracles/stopwatch/mode", {"mode": "x" * 60000}, 400, 'Send {"mode": "stopwatch"}')]

    for path, body, status, begins in sent:
        r = client.post(path, json=body)
        message = r.get_json()["message"]
        assert r.status_code == status and message.startswith(begins), (path, r.status_code, message[:200])
        assert len(message) <= errors.SENTENCE_MOST, (path, len(message))
    r = client.get("/api/health", headers={"Host": "x" * 10000})                       # the Host check's
    assert r.status_code == 400 and len(r.get_json()["message"]) <= errors.SENTENCE_MOST
    r = client.get("/api/games/current")
    assert r.get_json()["game"]["version"] == 1
    short = "Send a version."
    assert errors.clipped(short) == short
