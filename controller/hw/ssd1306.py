"""The window's SSD1306 on the I2C bus: each frame packed by Pillow and only what changed sent.

luma.oled's ``ssd1306.display`` packs a frame into the controller's memory layout one pixel at a
time in Python (8,192 pixels a frame, read with a Pillow call Pillow 13 deprecates) and sends all
1,024 bytes every time. For the window that is the wrong way round on a Pi Zero 2 W:

* the packing is ten times the CPU of this module's (bench/window_frames.py prints both), on the
  thread that competes with a roll on its way to the open pages;
* the Pi's I2C bus runs at its default 100 kHz (it goes through the phone's cable, which is why
  it isn't raised to 400: docs/wiring.md, "The display"), where 1,024 bytes take about 93 ms. A
  running stopwatch, redrawn 20 times a second, changes a few digits: sending whole frames it
  could not keep up, and it kept the bus busy all the time.

So ``SSD1306`` (a luma ``ssd1306``, set up by luma exactly as before) packs a frame with Pillow's
own C code (``pack``), compares it with the frame the display already holds, and sends only the
rectangle of columns and pages that differ (``changed``): the SSD1306 keeps what was written in
its display RAM (GDDRAM) and, in the horizontal addressing mode luma sets up, writes data into
the column and page window the last COLUMNADDR and PAGEADDR commands set. A frame the display
already shows sends nothing.

If a write fails (a loose cable, a glitch on the bus), what the display holds is no longer known,
and a display whose power went with the phone's cable has lost its settings too (after a reset
the SSD1306 is off, its charge pump with it): the next frame is sent whole, after the commands
luma set the display up with, sent again. (A display unplugged and plugged back while nothing
was being drawn can't be told from one that stayed: the SSD1306 on I2C can't be read. It stays
dark until a frame fails or newsdesk restarts.)
"""

from luma.oled.device import ssd1306 as _luma_ssd1306
from PIL import Image

# Each byte's bits reversed: Pillow packs 8 pixels to a byte with the first in the top bit, the
# SSD1306 wants the top pixel of a page's column in the lowest bit.
_REVERSED = bytes(int("{:08b}".format(b)[::-1], 2) for b in range(256))


def pack(image):
    """A mode "1" image (``width`` x ``height``, height a multiple of 8) as the SSD1306 holds it:
    ``height // 8`` pages of ``width`` bytes, each byte a column of 8 pixels with the top one in
    bit 0. The same bytes luma's ``ssd1306.display`` makes, made by Pillow's C code."""
    width, height = image.size
    pages = height // 8
    # transposed, each row is one column of the frame, top to bottom: ``pages`` bytes a row
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return b"".join(columns[page::pages] for page in range(pages))


def changed(old, new, width):
    """The rectangle of ``new`` that differs from ``old`` (both as ``pack`` gives them, ``width``
    bytes a page): (first column, last column, first page, last page), or None if they are the
    same. ``old`` None: all of it."""
    pages = len(new) // width
    if old is None or len(old) != len(new):
        return 0, width - 1, 0, pages - 1
    first, last, rows = width, -1, []
    for page in range(pages):
        # the bytes that differ, as the bits of one number (the page's first byte the highest)
        diff = (int.from_bytes(old[page * width:(page + 1) * width], "big")
                ^ int.from_bytes(new[page * width:(page + 1) * width], "big"))
        if diff:
            rows.append(page)
            first = min(first, width - 1 - (diff.bit_length() - 1) // 8)
            last = max(last, width - 1 - ((diff & -diff).bit_length() - 1) // 8)
    if not rows:
        return None
    return first, last, rows[0], rows[-1]


class SSD1306(_luma_ssd1306):
    """luma's ssd1306, sending each frame as ``pack`` makes it and only what changed. ``sent`` is
    the frame the display holds (None: not known, so the next frame goes whole); ``bytes_sent``
    counts the data bytes written, for the bench and the tests; ``setup``: the commands luma set
    the display up with, sent again before the frame after a write that failed."""

    def __init__(self, serial_interface=None, width=128, height=64, rotate=0, **kwargs):
        self.sent = None
        self.bytes_sent = 0
        self._lost = False          # a write failed: the display may have lost its settings too
        self._recording: list[tuple[int, ...]] | None = []     # luma's set-up commands, as it sends them
        self._drawing = False
        super().__init__(serial_interface, width=width, height=height, rotate=rotate, **kwargs)
        self.setup, self._recording = self._recording, None

    def command(self, *cmd):
        if self._recording is not None and not self._drawing:
            self._recording.append(cmd)
        super().command(*cmd)

    def display(self, image):
        if image.mode != self.mode or image.size != self.size:
            raise ValueError("the window takes a %s image of %dx%d, not a %s one of %dx%d"
                             % (self.mode, *self.size, image.mode, *image.size))
        frame = pack(self.preprocess(image))
        where = changed(self.sent, frame, self._w)
        if where is None:
            return
        first, last, top, bottom = where
        self.sent = None            # until the write is done: a failed one leaves the display unknown
        self._drawing = True
        try:
            if self._lost:
                for cmd in self.setup:
                    self.command(*cmd)
            self.command(self._const.COLUMNADDR, self._colstart + first, self._colstart + last,
                         self._const.PAGEADDR, top, bottom)
            data = b"".join(frame[page * self._w + first:page * self._w + last + 1]
                            for page in range(top, bottom + 1))
            self.data(list(data))
        except BaseException:
            self._lost = True
            raise
        finally:
            self._drawing = False
        self._lost = False
        self.bytes_sent += len(data)
        self.sent = frame
