"""How an error reaches a tablet: the panel's one set of error handlers.

- An HTTP error (a 404, a 405, an ``abort`` with a sentence): JSON {error, message} under /api/,
  else the panel's own error page with the same sentence and a way back to the table.
- A NewsdeskError: the status its class carries (controller/errors.py: 400 malformed, 409 the
  table moved on, 422 the rules say no, 429 too soon, 503 the box can't now) and one sentence,
  plus any fields it adds (a stale version says which version the game is at) and the
  Retry-After a TooSoon carries.
- Anything else is a bug: logged in full, answered with a plain 500 and no details.

Every sentence is at most SENTENCE_MOST characters (``clipped``): a refusal that quotes what was
sent ("digit must be ..., got [0, 1, 2, ...]") would otherwise echo a whole 64 KB body.
"""

import logging
import re
from types import SimpleNamespace

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from controller.errors import NewsdeskError, TooSoon

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong on the box; it has been logged. Try again, or restart newsdesk."


def _file_name(word):
    """True if ``word`` (a sentence's first) is a file's name or path ("case.zip", "/var/lib/x"),
    whose case is the file's own."""
    word = word.rstrip(",;:")
    return "/" in word or bool(re.search(r"\w\.\w", word))


SENTENCE_MOST = 1000    # characters; the panel's longest own sentences (a SCAN hand's count) are about 350


def clipped(text):
    """``text`` cut to SENTENCE_MOST characters, in the middle, where a long one holds the value
    it quotes: its beginning (what was wrong) and its end (the end of the sentence) are kept."""
    if len(text) <= SENTENCE_MOST:
        return text
    head = SENTENCE_MOST * 2 // 3
    return text[:head] + " ... " + text[-(SENTENCE_MOST - head - 5):]


def sentence(text):
    """``text`` as a sentence: a capital first (unless it begins with a file's name, which keeps
    its case: "case.zip is damaged", not "Case.zip"), a full stop last."""
    text = str(text).strip()
    if not _file_name(text.split(None, 1)[0] if text else ""):
        text = text[:1].upper() + text[1:]
    return clipped(text if text.endswith((".", "!", "?")) else text + ".")


# What the API document describes (web_ui/openapi.py): the JSON API and the live feed, whose
# errors it promises as its Error object; everything else is a page.
DOCUMENTED = ("/api/", "/stream")


def _api():
    return request.path.startswith(DOCUMENTED)


def http_error(e):
    """API clients get a JSON error with one plain sentence; pages get the panel's own page with
    the same sentence and a way back to the table."""
    if _api():
        return jsonify(error=e.name, message=clipped(e.description or "")), e.code
    if e.code is None or e.code < 400:
        return e
    response = e.get_response()           # keeps the headers the error carries (Allow, Retry-After)
    shown = SimpleNamespace(name=e.name, description=clipped(e.description or ""))
    response.set_data(render_template("pages/error.html", error=shown))
    return response


def refused(e):
    """A refusal from the table, with the status its class carries (a page gets it as the
    panel's error page); a TooSoon also says when to ask again (Retry-After)."""
    status = e.status
    if status == 503:       # the box can't now (a full disk, a restore waiting): said once a request, as said
        log.warning("the panel could not do %s %s: %s", request.method, request.path, sentence(e))
    elif status >= 500:     # a bug (a game's own code failing): its cause in full
        log.error("the panel could not do %s %s: %s", request.method, request.path, sentence(e), exc_info=e)
    name = "Unprocessable Content" if status == 422 else HTTP_STATUS_CODES.get(status, "Error")  # RFC 9110's name
    body: object
    if not _api():
        body = render_template("pages/error.html", error=SimpleNamespace(name=name, description=sentence(e)))
    else:
        body = jsonify(dict(error=name, message=sentence(e), **e.details()))
    return (body, status, {"Retry-After": str(e.retry_after)}) if isinstance(e, TooSoon) else (body, status)


def unexpected(e):
    """Anything not meant: logged here in full, answered with a plain 500 and no details."""
    if isinstance(e, HTTPException):
        return e
    log.error("%s %s failed", request.method, request.path, exc_info=e)
    if _api():
        return jsonify(error="Internal Server Error", message=UNEXPECTED), 500
    return ("<!doctype html><meta charset=utf-8><title>newsdesk: something went wrong</title>"
            "<p>%s</p>" % UNEXPECTED, 500, {"Content-Type": "text/html; charset=utf-8"})


def init_app(app):
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(NewsdeskError, refused)
    app.register_error_handler(Exception, unexpected)
