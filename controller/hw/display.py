"""The phone's window: an SSD1306-class OLED through luma.oled, showing the editor's verdict, the
dice or the stopwatch (running to hundredths).

* ``render(view, size, now)`` draws a view into a 1-bit PIL image (pure, apart from Pillow);
* ``Window`` puts it on a luma device: ``ssd1306`` on the Pi's I2C bus per the pin map's
  [pi.display], luma's ``dummy`` device in simulation and tests (it keeps the last frame);
* ``WindowDriver`` follows the bus on one thread: each verdict, roll or stopwatch event becomes
  the view, and a running stopwatch is redrawn ``fps`` times a second.

luma.oled is optional: without it (or without a display on the bus, in "auto") the box runs with
no window, and says so once in the log. Pillow and luma are imported only when a window is drawn
or opened: a box with display = none never loads them (where they are loaded, about 9 % of the
CPU the panel's start takes; docs/benchmarks.md, "A Pi Zero 2 W's budget").
"""

import functools
import logging
import threading
import time
from typing import Any

from .. import events
from ..config import CHOICES
from ..errors import NewsdeskError
from ..oracles.stopwatch import centiseconds, shown
from .segments import SEGMENTS

log = logging.getLogger(__name__)

SIZE = (128, 64)
DISPLAYS = CHOICES["display"]     # the setting's choices live with the other settings


class DisplayError(NewsdeskError, OSError):
    """The window display could not be opened (names the bus and address)."""


# ---------------------------------------------------------------- drawing

@functools.lru_cache(maxsize=None)
def _font(size):
    """Pillow's default font at ``size``, made once per size (Pillow makes it from the font data
    it carries each time it is asked: most of a frame's CPU when it was asked afresh)."""
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError):      # a Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def _fit_text(draw, text, box_w, box_h, largest=30, smallest=8):
    """The default font at the largest size (down to ``smallest``) at which ``text`` fits the
    box, drawn as ``draw`` draws text."""
    return _font(_fit_size(text, box_w, box_h, largest, smallest, draw.fontmode))


@functools.lru_cache(maxsize=256)
def _fit_size(text, box_w, box_h, largest, smallest, fontmode):
    """Worked out once for each text and box: the window shows a few texts (the verdicts, the
    dice, its name) again and again, and measuring each size afresh was most of a frame's CPU."""
    from PIL import Image, ImageDraw
    draw = ImageDraw.Draw(Image.new("1", (1, 1)))
    draw.fontmode = fontmode
    for size in range(largest, smallest - 1, -1):
        left, top, right, bottom = draw.textbbox((0, 0), text, font=_font(size))
        if right - left <= box_w and bottom - top <= box_h:
            return size
    return smallest


def _centred(draw, text, font, cx, cy):
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((cx - (left + right) / 2, cy - (top + bottom) / 2), text, font=font, fill=1)


def segment_boxes(x, y, w, h, t):
    """Rectangles (x0, y0, x1, y1) of segments a to g of a digit cell."""
    mid = y + h // 2
    return {"a": (x + t, y, x + w - t - 1, y + t - 1),
            "b": (x + w - t, y + t, x + w - 1, mid - 1),
            "c": (x + w - t, mid + 1, x + w - 1, y + h - t - 1),
            "d": (x + t, y + h - t, x + w - t - 1, y + h - 1),
            "e": (x, mid + 1, x + t - 1, y + h - t - 1),
            "f": (x, y + t, x + t - 1, mid - 1),
            "g": (x + t, mid - t // 2, x + w - t - 1, mid - t // 2 + t - 1)}


def segment_layout(text, size=SIZE, top=4, height=40):
    """Where each character of a seven-segment ``text`` ("1:02.34") goes, right-aligned:
    a list of (char, x, y, w, h, t). Digits are cells; "." and ":" are narrow marks."""
    width, _ = size
    cell_w, gap, thick = 18, 4, 4
    mark_w = 6
    widths = [mark_w if c in ".:" else cell_w for c in text]
    total = sum(widths) + gap * (len(text) - 1)
    if total > width - 4:
        scale = (width - 4) / total
        cell_w, gap, thick, mark_w = int(cell_w * scale), max(1, int(gap * scale)), max(2, int(thick * scale)), max(3, int(mark_w * scale))
        widths = [mark_w if c in ".:" else cell_w for c in text]
        total = sum(widths) + gap * (len(text) - 1)
    x = width - 2 - total
    out = []
    for c, w in zip(text, widths):
        out.append((c, x, top, w, height, thick))
        x += w + gap
    return out


def draw_segments(draw, text, size=SIZE, top=4, height=40):
    for c, x, y, w, h, t in segment_layout(text, size, top, height):
        if c == ".":
            draw.rectangle((x + 1, y + h - t, x + t, y + h - 1), fill=1)
        elif c == ":":
            draw.rectangle((x + 1, y + h // 3 - t // 2, x + t, y + h // 3 + t // 2), fill=1)
            draw.rectangle((x + 1, y + 2 * h // 3 - t // 2, x + t, y + 2 * h // 3 + t // 2), fill=1)
        else:
            for s in SEGMENTS[c]:
                draw.rectangle(segment_boxes(x, y, w, h, t)[s], fill=1)


PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


def die_layout(count, size=SIZE, side=36, top=2):
    """(x, y, side) of each die face, centred in a row."""
    width, _ = size
    gap = 8
    side = min(side, (width - gap * (count + 1)) // count)
    x = (width - (count * side + (count - 1) * gap)) // 2
    return [(x + i * (side + gap), top, side) for i in range(count)]


def pip_centres(face, x, y, side):
    step = side / 4
    return [(round(x + step * (1 + col)), round(y + step * (1 + row))) for col, row in PIPS[face]]


def _draw_die(draw, face, x, y, side):
    draw.rounded_rectangle((x, y, x + side - 1, y + side - 1), radius=5, outline=1, width=2)
    r = max(2, side // 12)
    for cx, cy in pip_centres(face, x, y, side):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=1)


def render(view, size=SIZE, now=None):
    """A 1-bit image of ``view`` (a dict with "kind"); ``now`` reads a running stopwatch."""
    from PIL import Image, ImageDraw
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    width, height = size
    kind = view.get("kind", "idle")
    small = _font(11)
    if kind == "verdict":
        font = _fit_text(draw, view["signal"], width - 6, 36)
        _centred(draw, view["signal"], font, width / 2, 24)
        digit = view.get("digit")
        if digit is not None:
            _centred(draw, "dialed %s" % digit, small, width / 2, height - 8)
    elif kind == "dice":
        faces = view["faces"]
        if view.get("sides", 0) <= 6 and len(faces) <= 3:
            for face, (x, y, side) in zip(faces, die_layout(len(faces), size)):
                _draw_die(draw, face, x, y, side)
        else:
            text = "  ".join(str(f) for f in faces)
            _centred(draw, text, _fit_text(draw, text, width - 6, 34), width / 2, 20)
        flags = view.get("flags", {})
        words = [w for key, w in (("double_sixes", "DOUBLE SIXES"), ("doubles", "DOUBLES"), ("seven", "SEVEN"))
                 if flags.get(key)]
        if "DOUBLE SIXES" in words:
            words.remove("DOUBLES")
        if view.get("earlier"):
            words = ["earlier"]
        line = ("= %d" % view["total"]) if len(faces) > 1 else view.get("dice", "")
        _centred(draw, "  ".join([line] + words), small, width / 2, height - 8)
    elif kind == "stopwatch":
        if view.get("running"):
            reading = max(0.0, (now if now is not None else view["t0"]) - view["t0"])
            text = shown(centiseconds(reading))
        else:
            text = view.get("shown") or "0.00"
        draw_segments(draw, text, size)
        digit = view.get("digit")
        if not view.get("running") and digit is not None:
            c, x, y, w, h, t = segment_layout(text, size)[-1]
            draw.rectangle((x, y + h + 3, x + w - 1, y + h + 4), fill=1)     # underline the roll
            _centred(draw, "roll %d" % digit, small, 30, height - 8)
            if view.get("earlier"):
                _centred(draw, "earlier", small, width - 22, height - 8)
        elif view.get("running"):
            _centred(draw, "running", small, 30, height - 8)
    elif kind == "d10":
        draw_segments(draw, str(view["digit"]), size)
        _centred(draw, "d10", small, 30, height - 8)
        if view.get("earlier"):
            _centred(draw, "earlier", small, width - 22, height - 8)
    elif kind == "dice_set":
        _centred(draw, view["dice"], _fit_text(draw, view["dice"], width - 6, 34), width / 2, 24)
        _centred(draw, "dice set", small, width / 2, height - 8)
    else:
        lines = view.get("address") or []
        if not lines:
            _centred(draw, "NEWSDESK", _fit_text(draw, "NEWSDESK", width - 10, 24), width / 2, 26)
        else:       # the box's first screen: where a tablet finds the panel
            _centred(draw, "NEWSDESK", _fit_text(draw, "NEWSDESK", width - 10, 20), width / 2, 13)
            for row, line in enumerate(lines[:2]):
                _centred(draw, line, _fit_text(draw, line, width - 2, 12, largest=11, smallest=6),
                         width / 2, 37 + 15 * row)
    return image


# what the window shows, clears or marks (view_for, next_view): the window's thread never wakes for the rest
SHOWN = frozenset((events.VERDICT, events.DICE_ROLL, events.DICE_SET, events.STOPWATCH_STARTED, events.STOPWATCH_ROLL,
                   events.STOPWATCH_RESET, events.GAME_STARTED, events.GAME_CHANGED, *events.GAME_ENDED.values()))
ROLLS = frozenset(("dice", "d10"))      # views of a roll, with the stopwatch's once stopped on one


def view_for(message):
    """The view a bus message puts in the window, or None for messages the window ignores."""
    kind = message.get("type")
    data = message.get("data") or {}
    if kind == events.VERDICT:
        return {"kind": "verdict", "signal": data["signal"], "digit": data.get("digit")}
    if kind == events.DICE_ROLL:
        return {"kind": "dice", "faces": data["faces"], "total": data["total"], "sides": data["sides"],
                "dice": data["dice"], "flags": data.get("flags", {})}
    if kind == events.DICE_SET:
        return {"kind": "dice_set", "dice": data["dice"]}
    if kind == events.STOPWATCH_STARTED:
        return {"kind": "stopwatch", "running": True, "t0": data["t"]}
    if kind == events.STOPWATCH_ROLL:
        if data.get("mode") == "d10":
            return {"kind": "d10", "digit": data["digit"]}
        return {"kind": "stopwatch", "running": False, "shown": data["shown"], "digit": data["digit"]}
    if kind == events.STOPWATCH_RESET:
        return {"kind": "stopwatch", "running": False, "shown": "0.00", "digit": None}
    return None


IDLE: dict[str, Any] = {"kind": "idle"}     # with "address": up to two lines a tablet types, under the name


def address_lines(urls):
    """What the window shows of the panel's URLs (controller/lan.py's tablet_urls): host:port,
    without the scheme and the slash, the first two."""
    return [u.split("://", 1)[-1].rstrip("/") for u in urls][:2]


def next_view(current, message):
    """What the window shows after ``message`` when it shows ``current``: the message's own view;
    for a game's start or end, nothing of what came before (the panel's sidebar shows only what
    came after the table's ``since`` too: a stopwatch's 7.87 stayed on through two other games,
    and a newcomer couldn't tell whose it was), unless the stopwatch is running, which someone is
    timing now; for a move of the game, a roll marked "earlier" (the box may have rolled the move
    itself, 4 + 2 under the button's 4 + 6); or None to keep ``current``."""
    kind = message.get("type")
    if kind == events.GAME_STARTED or kind in events.GAME_ENDED.values():
        return None if current.get("kind") == "idle" or current.get("running") else dict(IDLE)
    if kind == events.GAME_CHANGED:
        roll = current.get("kind") in ROLLS or (current.get("kind") == "stopwatch" and current.get("digit") is not None)
        return dict(current, earlier=True) if roll and not current.get("earlier") else None
    return view_for(message)


# ---------------------------------------------------------------- the device

def open_device(setting, spec=None, simulated=False):
    """A luma device for the ``display`` setting, or None for no window.

    auto: the dummy device with simulated pins; on real pins an SSD1306 at the pin map's bus and
    address, or no window (logged) when luma.oled is missing or nothing answers there.
    """
    if setting not in DISPLAYS:
        raise ValueError("display must be one of %s, got %r" % (", ".join(DISPLAYS), setting))
    if setting == "none":
        return None
    try:
        from luma.core.device import dummy
    except ImportError:
        if setting == "auto":
            log.warning("window display: off (luma.oled is not installed; pip install luma.oled)")
            return None
        raise DisplayError("display=%s needs luma.oled (pip install luma.oled)" % setting) from None
    if setting == "dummy" or (setting == "auto" and simulated):
        return dummy(width=SIZE[0], height=SIZE[1], mode="1")
    where = "I2C bus %s address 0x%02X" % (getattr(spec, "bus", "?"), getattr(spec, "address", 0))
    try:
        from luma.core.interface.serial import i2c

        from .ssd1306 import SSD1306
        return SSD1306(i2c(port=spec.bus, address=spec.address), width=SIZE[0], height=SIZE[1])
    except Exception as e:       # luma raises its own errors, OSError and friends for a missing device
        if setting == "auto":
            log.warning("window display: off (no SSD1306 on %s: %s)", where, e)
            return None
        raise DisplayError("can't open the SSD1306 window display on %s: %s" % (where, e)) from None


class Window:
    """Shows views on a luma device and keeps the last frame (for the panel's picture of it).

    Made with a ``device``, or with an ``opener`` that finds one later (``open``, on the window's
    own thread): the display setting's default, "auto", looks for its display only once the panel
    answers. Importing luma and Pillow and drawing the first frame was about a tenth of the CPU the
    panel's start took, which on a Pi Zero 2 W kept the table waiting for its first page a few
    tenths of a second longer for a window nobody reads before then (docs/benchmarks.md, "A Pi
    Zero 2 W's budget"). An explicit setting (ssd1306, dummy) opens at start, so a display that
    was asked for and can't be opened stops the start with a sentence."""

    def __init__(self, device=None, opener=None):
        if (device is None) == (opener is None):
            raise ValueError("a window needs a device or an opener, not both")
        self.device = device
        self._opener = opener
        self._lock = threading.Lock()
        self._last = None
        self.frames = 0
        self.failing = None     # why the last frame didn't reach the display, while frames fail

    @property
    def opening(self):
        """True until an opener has been tried."""
        return self._opener is not None

    def open(self):
        """Find the device through the opener (once); False when there is none."""
        opener = self._opener
        if opener is not None:
            device = opener()
            with self._lock:
                if self._opener is None:        # closed meanwhile: let the device go at once
                    if device is not None:
                        device.cleanup()
                    return False
                self.device, self._opener = device, None
        return self.device is not None

    def show(self, view, now=None):
        """Draw ``view`` and send it to the display. A frame the display doesn't take (its bus
        failed: a loose cable, a glitch) is said once in the log and in the health strip, and the
        window goes on: the next frame tries again (the whole of it: controller/hw/ssd1306.py)."""
        image = render(view, self.device.size, now)
        with self._lock:
            try:
                self.device.display(image.convert(self.device.mode))
            except Exception as e:
                if self.failing is None:
                    log.warning("the window display didn't take a frame (%s: %s); trying again with the next",
                                type(e).__name__, e)
                self.failing = "%s: %s" % (type(e).__name__, e)
                return image
            if self.failing is not None:
                log.info("the window display takes frames again")
                self.failing = None
            self._last = image
            self.frames += 1
        return image

    def image(self):
        with self._lock:
            return None if self._last is None else self._last.copy()

    def health(self):
        """The health strip's "display" part (controller/health.py); None when it looked and found
        no display (the strip then says what a missing window means)."""
        if self.opening:
            return {"status": "ok", "summary": "Window display: looking for it now the panel is up."}
        if self.device is None:
            return None
        if self.failing is not None:
            return {"status": "warn", "summary": "The window display didn't take its last frame (%s): check the "
                    "OLED's wiring and the cable to the phone; it is tried again with each frame." % self.failing}
        from luma.core.device import dummy
        if isinstance(self.device, dummy):
            return {"status": "ok", "summary": "Simulated window: the phone's display, drawn in memory."}
        return {"status": "ok", "summary": "Window display working (%s)." % type(self.device).__name__}

    def close(self):
        with self._lock:
            self._opener = None
            if self.device is None:
                return
            try:
                self.device.cleanup()
            except Exception:
                log.exception("closing the window display failed")


class WindowDriver:
    """Follows the bus on one thread and keeps the window showing the latest oracle."""

    def __init__(self, window, bus, clock=time.monotonic, fps=20.0, poll=0.25, go=None):
        """``go``: a threading.Event the thread waits for before opening a window made with an
        opener (the panel sets it once it answers); None: at once. ``poll``: how often it looks
        up from that wait to see if it should stop. Once open it waits for a message (or, while
        the stopwatch runs, for its next frame): nothing else wakes it."""
        self.window = window
        self._go = go
        self._clock = clock
        self._period = 1.0 / fps
        self._poll = poll
        self._stop = threading.Event()
        self._sub = bus.subscribe(maxsize=64, kinds=SHOWN)
        self.idle = dict(IDLE)
        self.view = dict(IDLE)
        self._redraw = False
        self._thread = threading.Thread(target=self._run, name="window", daemon=True)
        self._thread.start()

    def _run(self):
        try:
            if self.window.opening:
                if self._go is not None:
                    while not self._go.wait(self._poll):
                        if self._stop.is_set():
                            return
                if self._stop.is_set() or not self.window.open():
                    return
            self.window.show(self.view)
            while not self._stop.is_set():
                running = self.view.get("running")
                message = self._sub.get(timeout=self._period if running else None)
                if message is not None:
                    try:
                        view = next_view(self.view, message)
                    except (KeyError, TypeError):
                        log.warning("the window can't show %r", message.get("type"))
                        view = None
                    if view is not None and view.get("kind") == "idle":
                        view = dict(self.idle)
                    if view is None:
                        if not running:
                            continue
                    else:
                        self.view = view
                elif not running:
                    if not self._redraw:
                        continue
                self._redraw = False
                self.window.show(self.view, self._clock())
        except Exception:
            log.exception("the window display stopped")

    def show_address(self, lines):
        """Show the addresses a tablet types (``address_lines``) under the idle view's name: on a
        box with no screen of its own, the window is where its owner reads them."""
        self.idle = dict(IDLE, address=list(lines)[:2])
        if self.view.get("kind") == "idle":
            self.view = dict(self.idle)
            self._redraw = True
            self._sub.wake()            # the thread draws it now

    def close(self):
        self._stop.set()
        self._sub.close()           # wakes the thread from its wait for a message
        self._thread.join(timeout=2)
