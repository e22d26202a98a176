"""`newsdesk dial record`: the live contacts to a trace file, with a running view of each edge.

For an owner whose wiring misbehaves: record, replay (`newsdesk dial replay`), attach the file to a
bug report. The file is flushed row by row, so a recording stopped with Ctrl-C is still valid.
The decoder runs alongside only to show what it makes of the edges; the file holds the raw truth.
"""

import queue
import time

from .decoder import DialDecoder
from .trace import TraceWriter

MEANING = {("hook", 1): "handset lifted", ("hook", 0): "handset down",
           ("pulse", 1): "break", ("pulse", 0): "make",
           ("offnormal", 1): "dial off rest", ("offnormal", 0): "dial at rest"}


class Recorder(object):
    """Takes edges from any thread (``edge``), writes and shows them from ``run``."""

    def __init__(self, view, clock=time.monotonic):
        self._q = queue.Queue()   # edges may arrive before the file is open: they wait here
        self._view = view
        self._clock = clock
        self._t0 = clock()
        self._last = 0.0
        self.writer = self.decoder = None

    def begin(self, f, dial_map="standard", offnormal="auto", initial=None, note=None):
        """Open the recording: the header, and each line's state now."""
        initial = {k: v for k, v in (initial or {}).items() if v}
        self.writer = TraceWriter(f, dial_map=dial_map, initial=initial, note=note)
        self.decoder = DialDecoder(dial_map=dial_map, offnormal=offnormal, initial=initial)

    def edge(self, t, line, state):
        self._q.put((t, line, state))

    def _show_events(self, events):
        for ev in events:
            if ev.kind == "digit":
                self._view("            -> digit %d (%d pulses)" % (ev.value, ev.pulses))
            elif ev.kind == "hook":
                self._view("            -> hook %s" % ev.value)
            else:
                self._view("            -> %s: %s" % (ev.kind, ev.value))

    def run(self, until):
        """Record until ``until()`` is true; returns the number of rows written."""
        while not until():
            try:
                t, line, state = self._q.get(timeout=0.05)
            except queue.Empty:
                now = max(self._last, self._clock() - self._t0)
                self._show_events(self.decoder.advance(now))
                continue
            rel = max(self._last, t - self._t0)   # the file's rows never go back in time
            self._last = rel
            self.writer.edge(rel, line, state)
            self._view("%10.6f  %-9s %d  %s" % (rel, line, state, MEANING.get((line, state), "")))
            try:
                self._show_events(self.decoder.feed(rel, line, state))
            except ValueError as e:
                self._view("            !! %s" % e)
        return self.writer.rows
