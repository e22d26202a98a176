"""The table: the one place that applies what happens (a dialed digit, a hook change) to the
game, stores it and tells every tablet.

Order for anything that changes state: decide (pure), append to the store (durable), then
publish on the bus. A tablet therefore never sees something the store could lose.
"""

import logging
import threading

log = logging.getLogger("newsdesk.table")

VERDICT = "editor.verdict"


class Table:
    def __init__(self, store, bus, editor, rng, hardware):
        self.store = store
        self.bus = bus
        self.editor = editor
        self._rng = rng
        self._lock = threading.Lock()
        self.hardware = hardware  # {"simulated": bool, "pins": str}
        self.hook = "on"
        last = store.latest(VERDICT)
        self._position = last[0].payload.get("position") if last else None

    def on_dial_event(self, ev):
        """Called by the dial listener's thread for each decoded event."""
        if ev.kind == "hook":
            self.hook = ev.value
            self.bus.publish({"type": "phone.hook", "data": {"state": ev.value, "t": ev.t}})
        elif ev.kind == "digit":
            self.bus.publish({"type": "phone.digit", "data": {"digit": ev.value, "t": ev.t}})
            self.call_editor(ev.value)
        elif ev.kind == "fault":
            log.warning("phone wiring: %s", ev.value)
            self.bus.publish({"type": "phone.fault", "data": {"message": ev.value, "t": ev.t}})

    def call_editor(self, digit):
        with self._lock:
            verdict = self.editor.call(digit, self._position, self._rng)
            event = self.store.append(VERDICT, verdict.as_dict())
            self._position = verdict.position
        log.info("dialed %d: the editor says %s", digit, verdict.signal)
        self.bus.publish(event.as_dict())
        return event

    def recent_verdicts(self, limit=10):
        return [e.as_dict() for e in self.store.latest(VERDICT, limit)]

    def state(self):
        verdicts = self.recent_verdicts()
        return {
            "hardware": self.hardware,
            "phone": {"hook": self.hook},
            "editor": {"mode": self.editor.mode,
                       "odds_note": "The editor's odds are newsdesk's own choice, not the 1956 original's."},
            "last_verdict": verdicts[0] if verdicts else None,
            "verdicts": verdicts,
            "last_event_id": self.store.last_id(),
        }
