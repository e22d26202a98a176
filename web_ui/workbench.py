"""The Workbench: a dial tester and a guided bring-up, for whoever wires or restores the phone.

    GET  /workbench                          the page
    GET  /api/workbench[?standard=bell|gpo]  the bring-up checklist and the digits dialed lately, measured
    GET  /api/workbench/digit/<id>.svg       one digit's pulse train, drawn as a logic analyser does
    GET  /api/workbench/digit/<id>.csv       the recording of that digit, a dial trace file
    POST /api/workbench/bringup/reset        start the checklist again
    POST /api/workbench/bringup/confirm      the builder's answer: did the bell ring, was the tone heard
    POST /api/workbench/ring                 ring the bell once (a bring-up step)
    POST /api/workbench/profile              keep what was measured as a phone's profile (the host)

The box's raw phone edges (GPIO, or the Pico's raw edges over USB, or the virtual phone's mock
pins) are kept in a bounded buffer here; the measuring, drawing and checklist are pure
(controller.dial.tester, controller.bringup).
"""

import bisect
import collections
import logging
import threading
import time

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from controller import bringup
from controller.audio.player import AplayOutput, NullOutput
from controller.bringup import Checklist
from controller.dial import tester
from controller.dial.decoder import LINES, OFFNORMAL_MODES, DialDecoder
from controller.dial.profile import ProfileError, check_name
from controller.dial.trace import Edge
from controller.doctor import sound_cards

from .apidoc import BOOL, INT, OBJ, STR, arr, nullable, obj, read, route, schemas, write
from .helpers import desk, json_body

log = logging.getLogger(__name__)

bp = Blueprint("workbench", __name__, template_folder="templates")

# ---------------------------------------------------------------- the OpenAPI description

NUM = {"type": "number"}
_DIGIT_ID = [{"name": "ident", "in": "path", "required": True, "schema": dict(INT, minimum=0),
              "description": "The digit's id from GET /api/workbench (its first break's time in ms)."}]
_NO_DIGIT = ("404", "No such digit in the recording kept: dial it again.")
_STANDARD = {"enum": sorted(tester.STANDARDS)}
_PROFILE = obj(["pps", "break_pct", "ratio", "digits", "standard", "dial_map", "updated"], extra=True,
               pps=NUM, break_pct=NUM, ratio=nullable(NUM), digits=INT, standard=STR, dial_map=STR, updated=STR)
_STEP = obj(
    ["id", "title", "seen", "at", "hint", "check"],
    {"sent": dict(nullable(obj(["at", "count", "what"], at=NUM, count=INT, what=STR)),
                  description="What newsdesk last did for a step the builder confirms, and how many times."),
     "answer": dict(nullable({"enum": ["yes", "no"]}), description="The builder's answer, if given."),
     "ask": dict(arr(STR), description="The two answers to offer: it did, it didn't."),
     "blocked": dict(nullable(STR), description="Why the step can't be done here at all, and what to do.")},
    id=STR, title=STR, seen=BOOL, at=nullable(NUM), hint=nullable(STR),
    check=dict({"enum": [bringup.AUTO, bringup.BUILDER]},
               description="Who ticks the step: the box (auto) or the builder's answer (builder)."))
schemas(
    bp,
    Workbench=obj(
        ["steps", "digits", "standard", "standards", "dial_map", "board", "profile_name", "profile", "summary"],
        steps=arr(_STEP),
        digits=arr(obj(["id", "digit", "pulses", "pps", "break_pct", "passed", "notes"], extra=True,
                       id=INT, digit=INT, pulses=INT, pps=nullable(NUM), break_pct=nullable(NUM),
                       passed=nullable(BOOL), notes=arr(STR))),
        standard=_STANDARD, standards=OBJ, dial_map=STR, board={"enum": ["pi", "pico"]}, profile_name=STR,
        profile=nullable(_PROFILE), summary=nullable(OBJ)),
    WorkbenchReset=obj(["reset"], reset=BOOL),
    WorkbenchConfirmRequest=obj(
        ["step", "happened"],
        step=dict({"enum": list(bringup.BUILDER_STEPS)}, description="A step only a person can sense."),
        happened=dict(BOOL, description="true: it rang / I heard it; false: it didn't.")),
    WorkbenchConfirm=obj(["step"], step=_STEP),
    WorkbenchProfileRequest=obj(name=dict(STR, description="The phone's name (default: the phone_profile "
                                                           "setting)."), standard=_STANDARD),
    WorkbenchProfile=obj(["name", "profile", "in_use"], name=STR, profile=_PROFILE, in_use=BOOL),
)
EXTENSION = "newsdesk.workbench"
MAX_EDGES = 20000      # raw edges kept (a few minutes of dialing; bounce makes many)
SHOWN = 8              # digits shown, newest first
KEEP_DIGITS = 32       # digits measured and kept (the picture and the recording need their edges too)
PAD_BEFORE, PAD_AFTER = 0.3, 0.4   # seconds of recording around a digit
SETTLED = 0.1          # seconds: edges stamped earlier may still be on their way (a busy thread)
SOUND_CARDS = "/proc/asound/cards"   # ALSA's list of the sound cards here (Linux)


class Workbench(object):
    """The edge buffer, a decoder of its own measuring each digit as it is decided, and the
    checklist; fed from the box's threads (locked)."""

    def __init__(self, nd, clock=time.monotonic):
        config = nd.config
        self.dial_map = config["dial_map"]
        self.offnormal = OFFNORMAL_MODES[config["offnormal"]]
        self.board = "pico" if config["phone"] == "serial" else "pi"
        self.profile_name = config["phone_profile"]
        self.standard = config["dial_standard"]
        self.profiles = nd.dial_profiles
        self._clock = clock
        self._lock = threading.Lock()
        initial = nd.phone_pins.states() if nd.phone_pins is not None else {}
        self._edges: collections.deque[Edge] = collections.deque()
        self._dropped = None      # the time of the newest edge let go (the buffer is bounded)
        self._before = dict((line, initial.get(line, 0)) for line in LINES)   # levels before the oldest kept edge
        self._decoder = DialDecoder(dial_map=self.dial_map, offnormal=self.offnormal, initial=initial,
                                    ratio=self.profiles.ratio(self.profile_name))
        self._tests: collections.deque[tester.DigitTest] = collections.deque(maxlen=KEEP_DIGITS)
        self.checklist = Checklist(nd.pinmap, self.board, audio=_audio(nd.sounds),
                                   bell_strikes=_strikes(nd.sounds))
        self._sub = nd.bus.subscribe(kinds=bringup.FED)
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._pump, name="workbench", daemon=True)
        self._thread.start()

    def edge(self, t, line, state):
        with self._lock:
            if self._edges and t < self._edges[-1][0]:     # two threads' edges crossed: keep time order
                edges = list(self._edges)
                bisect.insort(edges, (t, line, state))
                self._edges = collections.deque(edges)
            else:
                self._edges.append((t, line, state))
            while len(self._edges) > MAX_EDGES:
                self._dropped, old_line, old_state = self._edges.popleft()
                self._before[old_line] = old_state
            try:
                self._take(self._decoder.feed(t, line, state))
            except ValueError as e:
                log.info("the workbench's tester skipped an edge that came too late: %s", e)

    def _take(self, events):
        for ev in events:
            test = tester.digit_test(ev)
            if test is not None:
                self._tests.append(test)

    def _pump(self):
        while not self._closed.is_set():
            message = self._sub.get()      # None: closed (close() wakes it)
            if message is not None:
                with self._lock:
                    self.checklist.feed(message, time.time())

    def close(self):
        self._closed.set()
        self._sub.close()

    def reset_checklist(self):
        with self._lock:
            self.checklist.reset()

    def confirm(self, step, happened):
        """The builder's answer; the step as it then stands."""
        with self._lock:
            self.checklist.confirm(step, happened, time.time())
            return next(s for s in self.checklist.state() if s["id"] == step)

    def tests(self):
        """The digits measured so far (oldest first), and the recording with its levels before."""
        with self._lock:
            self._take(self._decoder.advance(self._clock() - SETTLED))
            return list(self._tests), list(self._edges), dict(self._before)

    def state(self, standard):
        tests, _, _ = self.tests()
        with self._lock:
            steps = self.checklist.state()
        shown = []
        for t in reversed(tests[-SHOWN:]):
            d = t.as_dict(standard)
            d["id"] = digit_id(t)
            shown.append(d)
        return {"steps": steps, "digits": shown, "standard": standard,
                "standards": {k: {"title": v["title"], "nominal": v["nominal"], "pps": v["pps"],
                                  "adjust": v["adjust"], "break_pct": v["break_pct"]}
                              for k, v in tester.STANDARDS.items()},
                "dial_map": self.dial_map, "board": self.board, "profile_name": self.profile_name,
                "profile": self.profiles.get(self.profile_name), "summary": tester.summary(tests)}

    def find(self, ident):
        tests, edges, before = self.tests()
        for t in tests:
            if digit_id(t) == ident and (self._dropped is None or self._dropped < t.start - PAD_BEFORE):
                return t, edges, before
        abort(404, "No digit %d in the recording kept (it keeps the last %d edges): dial it again." % (ident, MAX_EDGES))


def _audio(sounds, read_cards=lambda: _read_text(SOUND_CARDS)):
    """Whether the handset can play the dial tone: True, False (the audio setting is off) or why
    not (no aplay; aplay but no sound card, or audio_device naming one that isn't here)."""
    output = getattr(getattr(sounds, "player", None), "output", None)
    if isinstance(output, NullOutput):
        return False if output.off else bringup.AUDIO_MISSING
    if isinstance(output, AplayOutput):
        text = read_cards()
        return bringup.no_audio_device(None if text is None else sound_cards(text), output.device) or True
    return True


def _read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _strikes(sounds):
    """The solenoid's strikes in one ring, or None where the far end (the Pico) makes them."""
    ringer = getattr(sounds, "ringer", None)
    if ringer is None or not ringer.strike_hz:
        return None
    return sum(1 for level, _ in ringer.steps if level)


def digit_id(test):
    """A digit's id in the recording: its first break's time in whole milliseconds."""
    return int(round(test.start * 1000))


def bench():
    wb = current_app.extensions.get(EXTENSION)
    if wb is None:
        abort(404, "The workbench isn't running.")
    return wb


def _standard():
    standard = request.args.get("standard") or bench().standard
    if standard not in tester.STANDARDS:
        abort(400, "standard must be one of %s, got %r." % (", ".join(tester.STANDARDS), standard))
    return standard


@bp.get("/workbench")
def page():
    wb = bench()
    nd = desk()
    boot = {"simulated": bool(nd.table.hardware.get("simulated")), "virtualPhone": nd.sim_phone is not None,
            "virtualButtons": nd.sim_buttons is not None, "state": wb.state(wb.standard)}
    return render_template("pages/workbench.html", boot=boot)


@route(bp, "/api/workbench", read(
    "The bring-up checklist and the digits dialed lately, measured against a standard.", "Workbench",
    "400", op="workbench",
    params=[{"name": "standard", "in": "query", "required": False, "schema": _STANDARD,
             "description": "Judge the dial by this standard (default: the dial_standard setting)."}]))
def state():
    return jsonify(bench().state(_standard()))


@route(bp, "/api/workbench/digit/<int:ident>.svg", read(
    "One digit's pulse train, drawn as a logic analyser does.", None, _NO_DIGIT, op="workbenchDigitPicture",
    params=_DIGIT_ID, content={"description": "The picture.", "content": {"image/svg+xml": {}}}))
def digit_svg(ident):
    t, edges, before = bench().find(ident)
    start, end = t.start - 0.05, t.decided + 0.05
    cut, initial = tester.cut(edges, start, end, before)
    return Response(tester.svg(cut, start, end, initial, test=t), mimetype="image/svg+xml")


@route(bp, "/api/workbench/digit/<int:ident>.csv", read(
    "The recording of one digit, as a dial trace file.", None, _NO_DIGIT, op="workbenchDigitTrace",
    params=_DIGIT_ID, content={"description": "A dial trace (docs/dial-trace.md).", "content": {"text/csv": {}}}))
def digit_trace(ident):
    wb = bench()
    t, edges, before = wb.find(ident)
    start = t.start - PAD_BEFORE
    cut, initial = tester.cut(edges, start, t.decided + PAD_AFTER, before)
    shifted = [(round(e[0] - start, 6), e[1], e[2]) for e in cut]
    text = tester.trace_text(shifted, initial, wb.dial_map,
                             note="recorded on the newsdesk Workbench: digit %d, %d pulses" % (t.digit, t.pulses))
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": "attachment; filename=dial-digit-%d-%d.csv" % (t.digit, ident)})


@route(bp, "/api/workbench/bringup/reset", write(
    "post", "Start the bring-up checklist again.", "WorkbenchReset", op="workbenchReset",
    request="EmptyRequest", body_required=False))
def reset():
    json_body(allow_empty=True)
    bench().reset_checklist()
    return jsonify(reset=True)


@route(bp, "/api/workbench/bringup/confirm", write(
    "post", "The builder's answer for a step only a person can sense (the bell rang, the dial tone was heard).",
    "WorkbenchConfirm", ("409", "newsdesk hasn't rung the bell or played the tone yet, or can't here (the "
                                "message says why and what to do)."),
    op="workbenchConfirm", request="WorkbenchConfirmRequest"))
def confirm():
    data = json_body()
    step, happened = data.get("step"), data.get("happened")
    if not isinstance(step, str) or step not in bringup.BUILDER_STEPS:
        abort(400, "step must be one of %s (the other steps are ticked by the box itself)."
              % ", ".join(bringup.BUILDER_STEPS))
    if not isinstance(happened, bool):
        abort(400, "happened must be true (it did) or false (it didn't).")
    return jsonify(step=bench().confirm(step, happened))


@route(bp, "/api/workbench/ring", write(
    "post", "Ring the bell once (a bring-up step).", "Accepted", op="workbenchRing",
    request="EmptyRequest", body_required=False, ok="202"))
def ring():
    json_body(allow_empty=True)
    desk().sounds.ring(1)
    return jsonify(accepted=True, ringing=True), 202


@route(bp, "/api/workbench/profile", write(
    "post", "Keep what the tester measured as a phone's profile (the decoder's starting point).",
    "WorkbenchProfile", op="workbenchKeepProfile", request="WorkbenchProfileRequest",
    body_required=False, role="host"))
def keep_profile():
    wb = bench()
    data = json_body(allow_empty=True)
    try:
        name = check_name(data.get("name", wb.profile_name))
        standard = data.get("standard", wb.standard)
        tests, _, _ = wb.tests()
        kept = wb.profiles.save(name, tester.summary(tests), standard, wb.dial_map)
    except ProfileError as e:
        abort(400, str(e)[:1].upper() + str(e)[1:] + ".")
    except OSError as e:
        abort(503, "The profile could not be written: %s." % (e.strerror or e))
    return jsonify(name=name, profile=kept, in_use=name == wb.profile_name)


def init_app(app):
    """Register the Workbench and start its edge tap and checklist."""
    nd = app.extensions["newsdesk"]
    wb = Workbench(nd, clock=nd.phone_clock)
    app.extensions[EXTENSION] = wb
    nd.phone_taps.append(wb.edge)
    nd.on_close(wb.close)
    app.register_blueprint(bp)
