"""The oracles' exceptions, under controller.errors.NewsdeskError and the builtin they resemble."""

from ..errors import BadRequest, ConfigError


class OracleSettingError(ConfigError):
    """An oracle's setting (the editor's disc or weights, the dice, the stopwatch's mode) is unusable."""


class OracleBusy(BadRequest):
    """An oracle was asked for something its state doesn't allow now (e.g. the stopwatch's mode
    changed while it runs)."""
