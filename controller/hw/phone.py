"""The phone's contacts on the Pi's GPIO: dial pulse, off-normal and hook, as raw logical edges."""

import time

from ..pinmap import PHONE_LINES
from .contacts import ContactPins


class PhonePins(ContactPins):
    """The dial's pulse and off-normal contacts and the hook switch, wired per the pin map.

    ``sink(t, line, state)`` gets every raw edge; it is called on gpiozero's thread, so it should
    only enqueue (DialListener.edge does).
    """

    what = "phone"

    def __init__(self, pinmap, sink, pin_factory, clock=time.monotonic, lines=PHONE_LINES):
        super().__init__(pinmap, sink, pin_factory, clock=clock, names=lines)
