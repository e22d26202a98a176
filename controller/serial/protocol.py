"""The phone-in-a-box wire protocol (docs/protocol.md): frames, their CRC-16, and the messages.

Pure and MicroPython-safe: the flash step copies this very file onto the Pico beside the
firmware, so the host and the device frame their bytes with one piece of code. No f-strings,
no dataclasses, no imports (but the type checker's, which never run).

A frame is one line of printable ASCII::

    $E,3fa2c901,17,52113000,digit,7,7,52009000*059E\\r\\n
    ^ start     fields, comma separated          ^ CRC-16/CCITT-FALSE of the bytes between $ and *

``$`` only ever starts a frame and ``\\n`` only ever ends one (fields escape ``$ * , %`` and
every byte outside printable ASCII as ``%XX``), so a reader that meets garbage, a half-written
frame or a dropped byte throws that much away and is in step again at the next ``$``.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:   # the type checker's imports only: the Pico runs this file alone, with no typing module
    from typing import Iterable  # noqa: F401 (named in the type comments, which ruff does not read)

    from ..dial.decoder import DialEvent  # noqa: F401

PROTOCOL = 1          # bumped when a message changes meaning; both ends must agree
START = 0x24          # "$"
STAR = 0x2A           # "*"
LF = 0x0A
CR = 0x0D
MAX_FRAME = 256       # bytes between "$" and the end of line; anything longer is garbage
MAX_TEXT = 120        # characters of a fault message or reply text that are sent

# Device -> host
HELLO = "H"       # H,proto,boot,now,low,next,firmware,caps,reset,states   answer to Q
EVENT = "E"       # E,boot,seq,t,kind,value[,pulses,last_edge]            a decoded event (acked)
EDGE = "R"        # R,boot,seq,t,line,state                               a raw edge (acked)
BEAT = "B"        # B,boot,now,low,next,dropped                           heartbeat, every second
REPLY = "K"       # K,cmd,ok|err[,text]                                   answer to C
# Host -> device
QUERY = "Q"       # Q,proto                                               handshake
ACK = "A"         # A,boot,seq                                            everything up to seq arrived
COMMAND = "C"     # C,cmd,name,value                                      ringer, led, raw, maint

ARITY = {HELLO: (10, 10), EVENT: (6, 8), EDGE: (6, 6), BEAT: (6, 6), REPLY: (3, 4),
         QUERY: (2, 2), ACK: (3, 3), COMMAND: (4, 4)}

_SAFE_MIN, _SAFE_MAX = 0x20, 0x7E
_ESCAPED = b"$*,%"
_HEX = b"0123456789ABCDEF"


def _crc_table():
    # type: () -> list[int]
    table = []  # type: list[int]
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    # type: (bytes | bytearray, int) -> int
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16(b"123456789") == 0x29B1."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def _escape(value, out):
    # type: (object, bytearray) -> None
    if isinstance(value, int) and not isinstance(value, bool):
        out.extend(str(value).encode())
        return
    if not isinstance(value, str):
        raise ValueError("a frame field is text or a whole number, not %r" % (value,))
    for b in value.encode("utf-8"):
        if b < _SAFE_MIN or b > _SAFE_MAX or b in _ESCAPED:
            out.append(0x25)
            out.append(_HEX[b >> 4])
            out.append(_HEX[b & 15])
        else:
            out.append(b)


def encode(kind, *fields):
    # type: (str, *object) -> bytes
    """One frame, ready to write: ``encode("A", "3fa2c901", 17)`` -> ``b"$A,3fa2c901,17*XXXX\\r\\n"``."""
    body = bytearray()
    _escape(kind, body)
    for value in fields:
        body.append(0x2C)
        _escape(value, body)
    if len(body) + 5 > MAX_FRAME:
        raise ValueError("a %s frame of %d bytes is longer than %d" % (kind, len(body), MAX_FRAME))
    crc = crc16(body)
    frame = bytearray(b"$")
    frame.extend(body)
    frame.append(STAR)
    for shift in (12, 8, 4, 0):
        frame.append(_HEX[(crc >> shift) & 15])
    frame.extend(b"\r\n")
    return bytes(frame)


def _unescape(raw):
    # type: (bytes | bytearray) -> str
    if 0x25 not in raw:
        return bytes(raw).decode("utf-8")
    out = bytearray()
    i, n = 0, len(raw)
    while i < n:
        b = raw[i]
        if b == 0x25:
            if i + 2 >= n:
                raise ValueError("a cut-off %XX escape")
            out.append(int(bytes(raw[i + 1:i + 3]).decode(), 16))
            i += 3
        else:
            out.append(b)
            i += 1
    return bytes(out).decode("utf-8")


def parse(line):
    # type: (bytes | bytearray) -> list[str] | None
    """The fields of one frame's bytes between ``$`` and the end of line, or None if the CRC,
    the escapes or the shape is wrong. ``fields[0]`` is the message type."""
    n = len(line)
    while n and line[n - 1] == CR:
        n -= 1
    if n < 6 or line[n - 5] != STAR:
        return None
    body = bytes(line[:n - 5])
    crc = 0
    for b in line[n - 4:n]:
        digit = _HEX.find(bytes((b,)))
        if digit < 0:
            return None               # only the upper-case hex encode() writes
        crc = (crc << 4) | digit
    if crc != crc16(body):
        return None
    try:
        fields = [_unescape(part) for part in body.split(b",")]
    except (ValueError, UnicodeError):
        return None
    arity = ARITY.get(fields[0])
    if arity is None or not arity[0] <= len(fields) <= arity[1]:
        return None
    return fields


class FrameReader(object):
    """Bytes in, whole frames out; everything else is counted and thrown away.

    ``skipped``: bytes outside any frame (line noise, a stray Ctrl-C); ``bad``: frames that
    were cut short, too long, or failed their CRC or shape; ``frames``: good ones.
    """

    def __init__(self, max_frame=MAX_FRAME):
        # type: (int) -> None
        self._max = max_frame
        self._buf = None  # type: bytearray | None
        self.frames = 0
        self.bad = 0
        self.skipped = 0

    def reset(self):
        # type: () -> None
        """Forget a partial frame (the port was closed under it)."""
        if self._buf is not None:
            self.bad += 1
        self._buf = None

    def feed(self, data):
        # type: (bytes | bytearray) -> list[list[str]]
        """Returns the frames completed by ``data``, each as its list of fields."""
        out = []  # type: list[list[str]]
        buf = self._buf
        for b in data:
            if b == START:
                if buf is not None:
                    self.bad += 1          # a frame cut short by the next one
                buf = bytearray()
            elif buf is None:
                if b != CR and b != LF:
                    self.skipped += 1
            elif b == LF:
                fields = parse(buf)
                buf = None
                if fields is None:
                    self.bad += 1
                else:
                    self.frames += 1
                    out.append(fields)
            elif len(buf) >= self._max:
                self.bad += 1
                buf = None
            else:
                buf.append(b)
        self._buf = buf
        return out


def number(text):
    # type: (str) -> int
    """A whole-number field; ValueError names it if it is not one."""
    if not text or not (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        raise ValueError("%r is not a whole number" % (text,))
    return int(text)


def event_fields(ev):
    # type: (DialEvent) -> list[object]
    """The fields after boot and seq of an E frame for a decoder's DialEvent (times in device ticks)."""
    value = ev.value
    if ev.kind == "digit":
        return [ev.t, "digit", value, ev.pulses, ev.last_edge]
    return [ev.t, ev.kind, str(value)[:MAX_TEXT]]


def parse_event(fields):
    # type: (list[str]) -> tuple[int, str, int | str, int | None, int | None]
    """(t, kind, value, pulses, last_edge) from an E frame's fields (ValueError if malformed)."""
    t = number(fields[3])
    kind = fields[4]
    if kind == "digit":
        value = number(fields[5])
        if not 0 <= value <= 9 or len(fields) != 8:
            raise ValueError("a digit event needs a digit 0-9, its pulses and last edge")
        return t, kind, value, number(fields[6]), number(fields[7])
    if kind == "hook" and fields[5] not in ("off", "on"):
        raise ValueError("a hook event is off or on, not %r" % (fields[5],))
    if kind not in ("hook", "fault", "fault_cleared"):
        raise ValueError("unknown event kind %r" % (kind,))
    return t, kind, fields[5], None, None


def format_states(states, lines):
    # type: (dict[str, int], Iterable[str]) -> str
    """``hook=1+pulse=0+offnormal=0``: the contacts' logical states, in ``lines`` order."""
    return "+".join(["%s=%d" % (line, states.get(line, 0)) for line in lines])


def parse_states(text):
    # type: (str) -> dict[str, int]
    states = {}  # type: dict[str, int]
    for part in text.split("+"):
        pair = part.split("=")
        if len(pair) != 2:
            raise ValueError("%r is not line=state" % (part,))
        states[pair[0]] = number(pair[1])
    return states
