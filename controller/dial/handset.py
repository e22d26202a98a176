"""Telling a hook flash from hanging up, above the decoder.

The decoder reports debounced hook changes only. A player who taps the cradle (a flash) wants
a new call, not to leave; a flash is an on-hook shorter than ``flash_max``::

    hook   off ─────┐     ┌──────────      on for < flash_max: "flash" at the off edge
                    └─────┘
    hook   off ─────┐
                    └──────────────────  on for flash_max: "hang_up" at on + flash_max

Pure: fed the decoder's hook events and told the time, like the decoder.
"""


class HandsetEvent:
    __slots__ = ("t", "kind")

    def __init__(self, t: float, kind: str) -> None:
        self.t = t
        self.kind = kind  # "lift", "flash" or "hang_up"

    def as_dict(self) -> dict[str, object]:
        return {"t": self.t, "event": self.kind}

    def __repr__(self) -> str:
        return "HandsetEvent(%r, %r)" % (self.t, self.kind)


class Handset:
    def __init__(self, flash_max: float = 1.0) -> None:
        if not 0.05 <= flash_max <= 5.0:
            raise ValueError("flash_max %r s is not a hook flash" % (flash_max,))
        self.flash_max = flash_max
        self.off_hook = False
        self._on_since: float | None = None  # on the cradle since, while it may still be a flash

    def hook(self, t: float, state: str) -> list[HandsetEvent]:
        """A debounced hook change from the decoder: ``state`` is "off" (lifted) or "on"."""
        out = self.advance(t)
        if state == "on" and self.off_hook:
            self.off_hook = False
            self._on_since = t
        elif state == "off" and not self.off_hook:
            self.off_hook = True
            if self._on_since is not None:
                self._on_since = None
                out.append(HandsetEvent(t, "flash"))
            else:
                out.append(HandsetEvent(t, "lift"))
        return out

    def deadline(self) -> float | None:
        return None if self._on_since is None else self._on_since + self.flash_max

    def advance(self, t: float) -> list[HandsetEvent]:
        if self._on_since is not None and t >= self._on_since + self.flash_max:
            at = self._on_since + self.flash_max
            self._on_since = None
            return [HandsetEvent(at, "hang_up")]
        return []
