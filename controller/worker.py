"""One thread that runs a pure machine live: the one runner of the dial's decoder, the buttons'
logic and the phone's sounds.

Items (edges, commands) are handed in from any thread and queued; the worker thread alone gives
them to the machine and, at the machine's own deadlines, tells it the time on a real clock, so
the machine needs no lock and never reads a clock itself. What the machine answers (digits,
presses, sound cues) goes to ``emit`` on the worker thread, in order.
"""

import logging
import queue
import threading
import time

log = logging.getLogger(__name__)

_STOP = object()


class Worker:
    """``handle(item)`` and ``advance(now)`` return the machine's outputs (a list, handed to
    ``emit``); ``deadline()`` is when it next wants the time (None: only when an item comes).

    ``lag`` holds a deadline back a little, so an item already on its way (stamped before the
    deadline, delivered just after it) is still handled first. ``idle`` is how long the worker
    waits with no deadline before looking again (None: until an item comes). An item that
    raises one of ``bad`` is dropped with a warning naming it; any other failure is logged in
    full; either way the worker goes on. ``first()`` runs on the thread before any item;
    ``done(item)`` after each item has been handled and its outputs emitted, even if that failed
    (a caller waiting for the worker to catch up hands in an item that says so)."""

    def __init__(self, name, handle, advance, deadline, emit, clock=time.monotonic, lag=0.0, idle=None,
                 bad=(ValueError,), first=None, done=None):
        self.name = name
        self._handle = handle
        self._advance = advance
        self._deadline = deadline
        self._emit = emit
        self._clock = clock
        self._lag = lag
        self._idle = idle
        self._bad = bad
        self._first = first
        self._done = done
        self._q: queue.Queue[object] = queue.Queue()   # the items handed in, and _STOP
        self._thread = None

    def put(self, item):
        """Hand ``item`` to the machine (any thread; never blocks)."""
        self._q.put(item)

    def start(self):
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout=2.0):
        """Let the items handed in so far be handled, then end the thread."""
        self._q.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None

    def _run(self):
        if self._first is not None:
            self._guard("starting", self._first)
        while True:
            deadline = self._deadline()
            timeout = self._idle if deadline is None else max(0.0, deadline + self._lag - self._clock())
            try:
                item = self._q.get(timeout=timeout)
            except queue.Empty:
                self._guard("advancing", lambda: self._emit(self._advance(self._clock() - self._lag)))
                continue
            if item is _STOP:
                return
            try:
                self._emit(self._handle(item))
            except self._bad as e:
                log.warning("%s: dropped %r: %s", self.name, item, e)
            except Exception:
                log.exception("%s: handling %r failed", self.name, item)
            finally:
                if self._done is not None:
                    self._guard("finishing an item", lambda item=item: self._done(item))

    def _guard(self, what, action):
        try:
            action()
        except Exception:
            log.exception("%s: %s failed", self.name, what)
