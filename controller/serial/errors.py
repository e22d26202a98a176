"""The serial phone's exceptions: each names the port, and subclasses the builtin it resembles."""

from ..errors import NewsdeskError


class PhoneLinkError(NewsdeskError, ConnectionError):
    """The phone on USB serial is unplugged, silent, or not speaking newsdesk's protocol."""


class ProtocolMismatch(PhoneLinkError):
    """The phone's firmware speaks another version of the protocol: flash it again."""


class CommandRefused(NewsdeskError, ValueError):
    """The phone answered a command with an error (an unknown dial map, say)."""
