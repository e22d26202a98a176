"""The one runner of the pure machines (controller/worker.py): items in order on one thread,
the machine told the time at its deadline (held back by ``lag``), a bad item dropped with a
warning and the worker going on, and ``done`` called even when an item failed."""

import logging
import threading

from controller.worker import Worker


class Countdown:
    """A machine that answers each item with itself, and "due" once the clock passes its deadline."""

    def __init__(self):
        self.due_at = None
        self.seen_now = []

    def handle(self, item):
        if item == "bad":
            raise ValueError("not an item")
        if item == "boom":
            raise RuntimeError("a bug")
        if isinstance(item, tuple):
            self.due_at = item[1]
            return []
        return [item]

    def advance(self, now):
        self.seen_now.append(now)
        if self.due_at is not None and now >= self.due_at:
            self.due_at = None
            return ["due"]
        return []

    def deadline(self):
        return self.due_at


def test_items_in_order_deadlines_on_time_and_failures_survived(caplog):
    machine, out, finished = Countdown(), [], []
    clock = [100.0]
    arrived = threading.Event()

    def emit(outputs):
        out.extend(outputs)
        if "due" in outputs:
            arrived.set()

    worker = Worker("test-worker", machine.handle, machine.advance, machine.deadline, emit,
                    clock=lambda: clock[0], lag=0.5, idle=None, done=finished.append)
    worker.start()
    with caplog.at_level(logging.WARNING, logger="controller.worker"):
        for item in ("a", "bad", "b", "boom", "c"):
            worker.put(item)
        clock[0] = 101.0
        worker.put(("wake me at", 100.2))      # due at 100.2, told at 101.0 - 0.5 lag = 100.5
        assert arrived.wait(5)
        worker.stop()
    assert out == ["a", "b", "c", "due"]
    assert finished == ["a", "bad", "b", "boom", "c", ("wake me at", 100.2)]
    assert machine.seen_now[-1] == 100.5
    assert "dropped 'bad': not an item" in caplog.text and "handling 'boom' failed" in caplog.text
