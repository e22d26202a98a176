"""The one way a change is written down and told: decide, store, publish, under one lock.

Every writer at the table (the editor's verdicts in table.py, the dice and the stopwatch in
oracle_service.py, the game's moves in game_session.py) does the same three steps in the same order:

1. decide, purely (the editor, the dice, the engine), while holding ``lock``;
2. append what was decided to the store, committed and durable before anything is told;
3. publish the stored event on the bus.

So a tablet never sees what the store could lose, and, as all three writers share the one lock,
the bus hands out stored events in the order of their ids (a tablet's stream skips any id at or
below the last it sent). Live-only messages (a digit, the stopwatch started) go through ``tell``
and are not stored.
"""

import threading
from typing import Any


class Journal:
    """The store and the bus behind one lock. ``with journal:`` holds the lock for a decision."""

    __slots__ = ("store", "bus", "lock")

    # The store and the bus are adapters, not typed yet: Any until they are.
    def __init__(self, store: Any, bus: Any, lock: "threading.RLock | None" = None) -> None:
        self.store = store
        self.bus = bus
        self.lock = lock if lock is not None else threading.RLock()

    def __enter__(self) -> "Journal":
        self.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()

    def record(self, kind: str, payload: dict[str, Any]) -> Any:
        """Store an event of ``kind`` and publish it; returns the stored event. A StoreError is
        raised before anything is published."""
        with self.lock:
            event = self.store.append(kind, payload)
            self.bus.publish(event.as_dict())
            return event

    def announce(self, event: Any, **extra: object) -> None:
        """Publish an event the store has already committed (a game's entry, written with its
        version by the store's own method), its data with ``extra`` that is not stored: the
        game's view and offers after it, worked out once."""
        message = event.as_dict()
        if extra:
            message["data"] = dict(event.payload, **extra)
        self.bus.publish(message)

    def tell(self, kind: str, data: object) -> None:
        """Publish a live message that is not stored (the vocabulary in events.py says which)."""
        self.bus.publish({"type": kind, "data": data})
