"""Dial traces (docs/dial-trace.md): reading and writing the CSV, and replaying it through the decoder.

A trace is checked whole before any of it is decoded, so a malformed file gives one error naming
the file and line and no partial guess.
"""

import json
import math
import os
from collections.abc import Iterable, Iterator
from typing import TextIO

from ..errors import NewsdeskError
from ..plain_file import NotPlainFile, open_plain
from .decoder import LINES, DialDecoder, DialEvent

MAGIC = "# newsdesk dial trace v1"
HEADER = "t,line,state"
Edge = tuple[float, str, int]   # (t, line, state)
MOST_BYTES = 64 << 20   # newsdesk's bound on a trace: a call is a few kilobytes, an evening's recording a few MB
MOST_T = 1e9            # seconds either side of the clock's origin: beyond, a float loses the microseconds
SHOWN = 60              # characters of a bad cell or row quoted in a refusal (a row may be megabytes long)


class TraceError(NewsdeskError, ValueError):
    """A dial trace that doesn't follow the format; the message names the file and line."""


class Trace(object):
    """A parsed trace: its edges ``(t, line, state)`` and what its comments say about the phone."""

    def __init__(self, name: str, edges: list[Edge], dial_map: str | None = None, offnormal: bool | None = None,
                 initial: dict[str, int] | None = None) -> None:
        self.name = name
        self.edges = edges
        self.dial_map = dial_map      # from "# dial-map: ...", or None
        self.offnormal = offnormal    # from "# off-normal contacts: wired|not wired", or None
        self.initial = initial or {}  # from "# initial: hook=1, ..." (every line 0 otherwise)


def _comment(text: str, trace: Trace, where: str) -> None:
    body = text[1:].strip()
    key, sep, value = body.partition(":")
    if not sep:
        return
    key, value = key.strip().lower(), value.strip().lower()
    if key == "dial-map":
        trace.dial_map = value
    elif key == "off-normal contacts":
        trace.offnormal = {"wired": True, "not wired": False}.get(value)
    elif key in ("initial", "initial state", "initial states", "start", "starting state"):
        for part in value.replace(",", " ").split():
            line, eq, state = part.partition("=")
            if line not in LINES or state not in ("0", "1"):
                raise TraceError("%s: '# initial:' takes line=0|1 pairs for %s, not %r"
                                 % (where, ", ".join(LINES), part))
            trace.initial[line] = int(state)


def parse_trace(text: str, name: str = "trace") -> Trace:
    trace = Trace(name, [])
    last_t: float | None = None
    seen_header = False
    for number, raw in enumerate(text.splitlines(), 1):
        where = "%s line %d" % (name, number)
        row = raw.strip()
        if not row:
            continue
        if row.startswith("#"):
            _comment(row, trace, where)
            continue
        if not seen_header and row.replace(" ", "") == HEADER:
            seen_header = True
            continue
        cells = [c.strip() for c in row.split(",")]
        if len(cells) != 3:
            raise TraceError("%s: expected 3 columns t,line,state, got %d: %s" % (where, len(cells), _shown(raw)))
        t_text, line, state_text = cells
        try:
            t = float(t_text)
        except ValueError:
            raise TraceError("%s: t must be a number of seconds, got %s" % (where, _shown(t_text))) from None
        if not math.isfinite(t):
            raise TraceError("%s: t must be a finite number of seconds, got %s" % (where, _shown(t_text)))
        if abs(t) > MOST_T:
            raise TraceError("%s: t must be within %.0e seconds of its clock's origin, got %s"
                             % (where, MOST_T, _shown(t_text)))
        if line not in LINES:
            raise TraceError("%s: line must be one of %s, got %s" % (where, ", ".join(LINES), _shown(line)))
        if state_text not in ("0", "1"):
            raise TraceError("%s: state must be 0 or 1, got %s" % (where, _shown(state_text)))
        if last_t is not None and t < last_t:
            raise TraceError("%s: t %r is earlier than the row before (%r); rows must be in time order"
                             % (where, t, last_t))
        last_t = t
        seen_header = True
        trace.edges.append((t, line, int(state_text)))
    return trace


def _shown(text: str) -> str:
    """A bad cell or row as a refusal quotes it: its first SHOWN characters (a row of 10 MB of NUL
    bytes was said whole, one 40 MB line)."""
    shown = repr(text)
    return shown if len(shown) <= SHOWN else "%s… (%d characters)" % (shown[:SHOWN], len(text))


def load_trace(path: str | os.PathLike[str]) -> Trace:
    """The trace at ``path``, read whole and checked, or TraceError. A pipe or a device (a FIFO
    waited for ever, /dev/zero filled the memory) and a file past MOST_BYTES are refused unread."""
    name = os.path.basename(str(path))
    try:
        with open_plain(path) as f:
            data = f.read(MOST_BYTES + 1)
    except NotPlainFile as e:
        raise TraceError("%s is %s, not a trace file" % (path, e.kind)) from None
    except OSError as e:
        raise TraceError("%s: can't read it: %s" % (path, e.strerror or e)) from None
    if len(data) > MOST_BYTES:
        raise TraceError("%s is over %d MB: a dial trace is a few kilobytes a call; is it the right file?"
                         % (name, MOST_BYTES >> 20))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TraceError("%s: not UTF-8 text (byte %d)" % (name, e.start)) from None
    return parse_trace(text, name)


def replay(edges: Iterable[Edge], dial_map: str = "standard", offnormal: bool | str = "auto",
           initial: dict[str, int] | None = None, decoder: DialDecoder | None = None,
           min_flash: float | None = None) -> list[DialEvent]:
    """Decode a whole recording; after the last edge, virtual time runs on until nothing is pending."""
    decoder = decoder or DialDecoder(dial_map=dial_map, offnormal=offnormal, initial=initial, min_flash=min_flash)
    events: list[DialEvent] = []
    for t, line, state in edges:
        events.extend(decoder.feed(t, line, state))
    for _ in range(100):
        due = decoder.deadline()
        if due is None:
            break
        events.extend(decoder.advance(due))
    return events


def replay_lines(trace: Trace, events: Iterable[DialEvent]) -> Iterator[str]:
    """The replay output: one JSON object per digit or hook change."""
    for ev in events:
        if ev.kind not in ("digit", "hook"):
            continue
        record = {"trace": trace.name, "t": round(ev.t, 6)}
        record.update((k, v) for k, v in ev.as_dict().items() if k != "t")
        yield json.dumps(record)


class TraceWriter(object):
    """Writes edges to a trace file as they happen (``newsdesk dial record``), flushed per row so
    a recording cut short is still a valid trace."""

    def __init__(self, f: TextIO, dial_map: str | None = None, offnormal: bool | None = None,
                 initial: dict[str, int] | None = None, note: str | None = None) -> None:
        self._f = f
        f.write(MAGIC + "\n")
        if note:
            f.write("# %s\n" % note)
        if dial_map:
            f.write("# dial-map: %s\n" % dial_map)
        if offnormal is not None:
            f.write("# off-normal contacts: %s\n" % ("wired" if offnormal else "not wired"))
        if initial:
            f.write("# initial: %s\n" % ", ".join("%s=%d" % (k, v) for k, v in sorted(initial.items())))
        f.write(HEADER + "\n")
        f.flush()
        self.rows = 0

    def edge(self, t: float, line: str, state: int) -> None:
        self._f.write("%.6f,%s,%d\n" % (t, line, state))
        self._f.flush()
        self.rows += 1
