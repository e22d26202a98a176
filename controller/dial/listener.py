"""Runs the pure decoder live: edges arrive from any thread, timeouts fire on a real clock.

The only place the decoder meets time. GPIO callbacks and the serial bridge call ``edge``;
one worker thread owns the decoder, so it never needs a lock.
"""

import logging
import queue
import threading
import time

log = logging.getLogger(__name__)


class DialListener:
    """Feeds a DialDecoder from a queue and calls ``on_event(DialEvent)`` for what it decides.

    ``lag`` holds timeouts back a little so an edge already on its way (stamped before the
    deadline, delivered after it) is still counted in the digit it belongs to.
    """

    def __init__(self, decoder, on_event, clock=time.monotonic, lag=0.005):
        self._decoder = decoder
        self._on_event = on_event
        self._clock = clock
        self._lag = lag
        self._q = queue.Queue()
        self._stop = threading.Event()
        self._thread = None

    def edge(self, t, line, state):
        self._q.put((t, line, state))

    def start(self, initial=None):
        """Start the worker; ``initial`` maps lines to their state now (e.g. a lifted handset)."""
        now = self._clock()
        for line, state in (initial or {}).items():
            if state:
                self._q.put((now, line, state))
        self._thread = threading.Thread(target=self._run, name="dial-listener", daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._q.put(None)
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _emit(self, events):
        for ev in events:
            try:
                self._on_event(ev)
            except Exception:
                log.exception("handling %s failed", ev.as_dict())

    def _run(self):
        while not self._stop.is_set():
            deadline = self._decoder.deadline()
            timeout = 1.0 if deadline is None else max(0.0, deadline + self._lag - self._clock())
            try:
                item = self._q.get(timeout=timeout)
            except queue.Empty:
                self._emit(self._decoder.advance(self._clock() - self._lag))
                continue
            if item is None:
                break
            try:
                self._emit(self._decoder.feed(*item))
            except ValueError as e:
                log.warning("dropped a bad edge %r: %s", item, e)
