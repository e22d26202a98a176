"""The controller's exceptions: each names the thing involved and subclasses the builtin it resembles."""


class NewsdeskError(Exception):
    """Base of every error newsdesk raises on purpose."""


class ConfigError(NewsdeskError, ValueError):
    """A setting, from a file, the environment or the command line, is not usable."""


class PinMapError(ConfigError):
    """hardware/pinmap.toml is missing a line, repeats a pin or holds a value that can't be wired."""


class BadRequest(NewsdeskError, ValueError):
    """An action from the panel or the API that can't be applied as asked."""


class StoreError(NewsdeskError, RuntimeError):
    """The durable store could not be opened or written."""
