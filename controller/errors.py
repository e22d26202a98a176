"""The controller's exceptions: each names the thing involved and subclasses the builtin it resembles.

Each carries ``status``, the HTTP status the panel answers with when one reaches a request (one
handler, web_ui/errors.py): 400 the request is malformed, 409 the table has moved on or is busy
with something else (re-read it), 422 the rules say no, 429 asked again too soon (wait as long
as its Retry-After says), 500 a game's own code failed (a bug in the game, said in a sentence),
503 the box can't do it now.
"""


class NewsdeskError(Exception):
    """Base of every error newsdesk raises on purpose."""

    status = 503

    def details(self) -> dict[str, object]:
        """Fields the panel's JSON answer carries beside the sentence (none by default)."""
        return {}


class ConfigError(NewsdeskError, ValueError):
    """A setting, from a file, the environment or the command line, is not usable."""


class PinMapError(ConfigError):
    """hardware/pinmap.toml is missing a line, repeats a pin or holds a value that can't be wired."""


class BadRequest(NewsdeskError, ValueError):
    """An action from the panel or the API that can't be applied as asked."""

    status = 400


class NotFound(BadRequest, LookupError):
    """What was asked for isn't kept here (a game number that was never played)."""

    status = 404


class Conflict(BadRequest):
    """The table has moved on, or is busy with something else (a game still being played): look
    at it again before asking."""

    status = 409


class TooSoon(NewsdeskError):
    """Asked again before what was asked before is done, and further ahead than a person could
    be (a simulated finger with digits still to dial): ask again after ``retry_after`` seconds,
    which the panel sends as Retry-After."""

    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class GameFault(NewsdeskError, RuntimeError):
    """A game's own code (its rules' apply, a plug-in's bug) failed on a move: the move is not
    kept, so the game stays as it was and can go on; the cause is logged in full."""

    status = 500


class StoreError(NewsdeskError, RuntimeError):
    """The durable store could not be opened or written."""
