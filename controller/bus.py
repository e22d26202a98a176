"""The in-process event bus: one publisher side, many subscribers (one per open tablet).

A slow subscriber never blocks the publisher: its queue is bounded and, when full, it is
marked as lagged and must catch up from the store (every stored event has an id).

A subscriber that follows only some kinds of message says which (``kinds``): the others never
reach its queue, so its thread is not woken for each move of a game it ignores (on a Pi Zero 2 W
every wake-up is CPU a move waits for; docs/benchmarks.md, "A Pi Zero 2 W's budget").
"""

import queue
import threading
from typing import Any


class Subscription:
    def __init__(self, bus, maxsize, kinds=None):
        self._bus = bus
        self._q: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize)   # None: closed
        self._kinds = frozenset(kinds) if kinds is not None else None
        self.lagged = False

    def _offer(self, message):
        if self._kinds is not None and message.get("type") not in self._kinds:
            return
        try:
            self._q.put_nowait(message)
        except queue.Full:
            self.lagged = True

    def get(self, timeout=None):
        """The next message, or None after ``timeout`` seconds without one, or at once after a
        ``wake`` or a ``close``. A reader with nothing to do on a clock waits with no timeout:
        an idle box's threads then sleep until something happens (tests/test_idle_box.py)."""
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self):
        """The reader's ``get`` returns None at once, as on a timeout: for whoever changed what
        the reader should do (its thread looks again), instead of the reader polling for it."""
        try:
            self._q.put_nowait(None)
        except queue.Full:      # a full queue wakes its reader anyway
            pass

    def close(self):
        """Stop receiving; a thread waiting in ``get`` wakes at once (with None), so whoever
        closes it need not wait out a poll."""
        self._bus._unsubscribe(self)
        self.wake()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Bus:
    def __init__(self):
        self._subs = set()
        self._lock = threading.Lock()

    def subscribe(self, maxsize=256, kinds=None):
        """A queue of the messages published from now on; ``kinds``: only messages of these types."""
        sub = Subscription(self, maxsize, kinds)
        with self._lock:
            self._subs.add(sub)
        return sub

    def attach(self, subscriber):
        """Add a subscriber of one's own: anything with ``_offer(message)``, called on the
        publisher's thread, which must return at once (the panel's event loop uses this)."""
        with self._lock:
            self._subs.add(subscriber)

    def detach(self, subscriber):
        self._unsubscribe(subscriber)

    def _unsubscribe(self, sub):
        with self._lock:
            self._subs.discard(sub)

    @property
    def subscriber_count(self):
        with self._lock:
            return len(self._subs)

    def publish(self, message):
        """Hand ``message`` (a JSON-able dict with at least "type") to every subscriber."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub._offer(message)
