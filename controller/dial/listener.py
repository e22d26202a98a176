"""Runs the pure decoder live: edges arrive from any thread, timeouts fire on a real clock.

The only place the decoder meets time. GPIO callbacks and the serial bridge call ``edge``; one
worker thread (controller/worker.py) owns the decoder, so it never needs a lock.
"""

import logging
import time

from ..worker import Worker

log = logging.getLogger(__name__)


class DialListener:
    """Feeds a DialDecoder and calls ``on_event(DialEvent)`` for what it decides.

    ``lag`` holds timeouts back a little so an edge already on its way (stamped before the
    deadline, delivered after it) is still counted in the digit it belongs to.
    """

    def __init__(self, decoder, on_event, clock=time.monotonic, lag=0.005):
        self._decoder = decoder
        self._on_event = on_event
        self._clock = clock
        self._worker = Worker("dial-listener", lambda item: decoder.feed(*item), decoder.advance,
                              decoder.deadline, self._emit, clock=clock, lag=lag, idle=1.0)

    def edge(self, t, line, state):
        self._worker.put((t, line, state))

    def start(self, initial=None):
        """Start the worker; ``initial`` maps lines to their state now (e.g. a lifted handset)."""
        now = self._clock()
        for line, state in (initial or {}).items():
            if state:
                self._worker.put((now, line, state))
        self._worker.start()

    def stop(self):
        self._worker.stop()

    def _emit(self, events):
        for ev in events:
            try:
                self._on_event(ev)
            except Exception:
                log.exception("handling %s failed", ev.as_dict())
