"""The live dial listener: the decoder's timeouts fire on the real clock, a handset already
lifted at the start counts, and a handler that fails is logged without stopping the dialing."""

import queue
import time

from controller.dial.decoder import DialDecoder
from controller.dial.listener import DialListener
from controller.dial.pulses import digit_edges


def test_a_digit_is_decided_on_the_real_clock_and_a_failing_handler_stops_nothing(caplog):
    heard = queue.Queue()

    def on_event(ev):
        heard.put((ev.kind, ev.value))
        if ev.kind == "hook":
            raise RuntimeError("the panel went away")

    listener = DialListener(DialDecoder(), on_event)
    listener.start(initial={"hook": 1, "pulse": 0})
    try:
        for edge in digit_edges(4, t0=time.monotonic(), wind_up=0.05)[0]:
            listener.edge(*edge)
        assert heard.get(timeout=3) == ("hook", "off")
        assert heard.get(timeout=3) == ("digit", 4)      # no edge follows: only the clock decides it
    finally:
        listener.stop()
    assert "handling" in caplog.text and "failed" in caplog.text
