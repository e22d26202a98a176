"""A ring of timestamped contact edges, filled by pin interrupts and emptied by the main loop.

``push`` runs in a hard interrupt, so it allocates nothing: the stamps live in a preallocated
array and the codes in a bytearray, and a full ring counts the edge as lost instead of growing.
"""

from array import array


class EdgeRing(object):
    def __init__(self, size=256):
        self._size = size
        self._ticks = array("i", [0] * size)
        self._codes = bytearray(size)
        self._head = 0      # next slot push writes (only push moves it)
        self._tail = 0      # next slot pop reads (only pop moves it)
        self.lost = 0

    def push(self, ticks, code):
        """From the interrupt: ``ticks`` is ``ticks_us()``, ``code`` a small number (line and level)."""
        head = self._head
        nxt = head + 1
        if nxt == self._size:
            nxt = 0
        if nxt == self._tail:
            self.lost += 1
            return
        self._ticks[head] = ticks
        self._codes[head] = code
        self._head = nxt

    def pop(self):
        """The oldest edge as (ticks, code), or None when the ring is empty."""
        tail = self._tail
        if tail == self._head:
            return None
        item = (self._ticks[tail], self._codes[tail])
        tail += 1
        self._tail = 0 if tail == self._size else tail
        return item
