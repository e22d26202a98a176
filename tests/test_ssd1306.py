"""The window's SSD1306 (controller/hw/ssd1306.py) against a model of the controller's display RAM
as its datasheet describes it: what it holds after every frame is the frame, byte for byte as
luma's own ssd1306 packs it, whatever was sent before, and only what changed goes on the bus."""

import logging
import random
import warnings

import pytest
from conftest import wait_for
from luma.core.device import dummy
from luma.core.interface.serial import noop
from luma.oled.device import ssd1306 as luma_ssd1306
from PIL import Image, ImageDraw

from controller import events
from controller.bus import Bus
from controller.hw.display import IDLE, Window, WindowDriver, next_view, render
from controller.hw.ssd1306 import SSD1306, changed, pack

COLUMNADDR, PAGEADDR = 0x21, 0x22


def view(message):
    """The window's view of a bus message, as its driver makes it."""
    return next_view(dict(IDLE), message)


class Controller:
    """An SSD1306 on its bus, as luma's serial interface sees it: the display RAM (``pages`` of
    ``width`` bytes) written in the horizontal addressing mode (luma sets it up): data fills the
    column window left to right, then the next page, wrapping to the window's first page."""

    def __init__(self, width=128, pages=8):
        self.width, self.pages = width, pages
        self.ram = bytearray(width * pages)
        self.window = (0, width - 1, 0, pages - 1)
        self.col = self.page = 0
        self.data_bytes = 0
        self.commands = []

    def command(self, *cmd):
        self.commands.append(cmd)
        if len(cmd) == 6 and cmd[0] == COLUMNADDR and cmd[3] == PAGEADDR:
            self.window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self.col, self.page = cmd[1], cmd[4]

    def data(self, data):
        for byte in data:
            self.ram[self.page * self.width + self.col] = byte
            first, last, top, bottom = self.window
            self.col += 1
            if self.col > last:
                self.col = first
                self.page = top if self.page >= bottom else self.page + 1
            self.data_bytes += 1

    def cleanup(self):
        pass


class Glitchy(Controller):
    """A bus whose next ``fail`` data writes stop half way, with the error smbus2 raises then."""

    fail = 0

    def data(self, data):
        if not self.fail:
            return super().data(data)
        self.fail -= 1
        data = list(data)
        super().data(data[:len(data) // 2])
        raise OSError(121, "Remote I/O error")


def frames(seed, count=40):
    """Frames a window shows, and frames no window would: noise, all lit, nothing lit, a few
    pixels changed from the one before (a stopwatch's digits)."""
    rng = random.Random(seed)
    image = Image.new("1", (128, 64))
    for _ in range(count):
        kind = rng.choice(["noise", "text", "tweak", "tweak", "same", "full", "empty"])
        if kind == "noise":
            image = Image.frombytes("1", (128, 64), bytes(rng.getrandbits(8) for _ in range(128 * 64 // 8)))
        elif kind == "text":
            image = Image.new("1", (128, 64))
            ImageDraw.Draw(image).text((rng.randrange(100), rng.randrange(50)), "%05.2f" % rng.uniform(0, 99), fill=1)
        elif kind == "tweak":
            image = image.copy()
            for _ in range(rng.randrange(1, 6)):
                image.putpixel((rng.randrange(128), rng.randrange(64)), rng.randrange(2))
        elif kind == "full":
            image = Image.new("1", (128, 64), 1)
        elif kind == "empty":
            image = Image.new("1", (128, 64), 0)
        yield image


def luma_bytes(image):
    """The bytes luma's own ssd1306 sends for ``image``."""
    sent = []

    class Recorder(noop):
        def data(self, data):
            sent.extend(data)

    with warnings.catch_warnings():     # luma reads the pixels with Pillow's getdata, deprecated in Pillow 13
        warnings.simplefilter("ignore", DeprecationWarning)
        device = luma_ssd1306(Recorder())
        sent.clear()
        device.display(image)
    return bytes(sent)


@pytest.mark.parametrize("seed", range(3))
def test_a_frame_is_packed_as_luma_packs_it(seed):
    for image in frames(seed, 12):
        assert pack(image) == luma_bytes(image)


@pytest.mark.parametrize("seed", range(4))
def test_the_display_holds_each_frame_whatever_was_sent_before(seed):
    bus = Controller()
    device = SSD1306(bus)
    for image in frames(seed):
        device.display(image)
        assert bytes(bus.ram) == luma_bytes(image)


def test_only_what_changed_goes_on_the_bus():
    bus = Controller()
    device = SSD1306(bus)
    image = render(view({"type": events.DICE_ROLL, "data": {"dice": "2d6", "faces": [3, 5], "total": 8, "sides": 6}}))
    device.display(image)
    sent = bus.data_bytes
    device.display(image.copy())
    assert bus.data_bytes == sent                       # the same frame again: nothing sent
    tweaked = image.copy()
    tweaked.putpixel((70, 20), 1 - image.getpixel((70, 20)))
    device.display(tweaked)
    assert bus.data_bytes == sent + 1                   # one pixel: the one byte that holds it
    assert bus.window == (70, 70, 2, 2)
    assert bytes(bus.ram) == luma_bytes(tweaked)


def test_a_running_stopwatch_sends_a_small_part_of_each_frame():
    bus = Controller()
    device = SSD1306(bus)
    running = view({"type": events.STOPWATCH_STARTED, "data": {"mode": "stopwatch", "t": 0.0, "elapsed": 0.0}})
    assert bus.data_bytes == 128 * 8        # luma clears the display as it sets it up
    device.display(render(running, now=0.0))
    started = bus.data_bytes
    for tick in range(1, 41):               # two seconds at 20 frames a second
        device.display(render(running, now=tick / 20))
        assert bytes(bus.ram) == luma_bytes(render(running, now=tick / 20))
    assert (bus.data_bytes - started) / 40 < 128 * 8 / 4


def test_after_a_write_that_failed_the_display_is_set_up_again_and_sent_the_whole_frame():
    bus = Glitchy()
    device = SSD1306(bus)
    setup = list(bus.commands)
    assert device.setup == [cmd for cmd in setup if cmd[0] != COLUMNADDR]   # all but the first frame's window
    first = render(view({"type": events.VERDICT, "data": {"signal": "SCOOP", "digit": 3}}))
    device.display(first)
    second = render(view({"type": events.VERDICT, "data": {"signal": "SYND", "digit": 4}}))
    bus.commands.clear()
    bus.fail = 2                # the cable out: this frame and the next fail half way
    for _ in range(2):
        with pytest.raises(OSError):
            device.display(second)
    assert bytes(bus.ram) != luma_bytes(second)       # half of it reached the display
    assert bus.commands[-len(device.setup) - 1:-1] == device.setup     # tried again as after a reset
    bus.ram[:] = bytes(len(bus.ram))                  # back in: a display that lost its power is blank
    bus.commands.clear()
    sent = bus.data_bytes
    device.display(second)
    assert bus.commands == device.setup + [(COLUMNADDR, 0, 127, PAGEADDR, 0, 7)]
    assert bus.data_bytes - sent == 128 * 8
    assert bytes(bus.ram) == luma_bytes(second)
    bus.commands.clear()
    third = render(view({"type": events.VERDICT, "data": {"signal": "EXTRA", "digit": 5}}))
    device.display(third)                             # and from then on, only what changed again
    assert len(bus.commands) == 1 and bus.commands[0][0] == COLUMNADDR
    assert bytes(bus.ram) == luma_bytes(third)


def test_changed_finds_the_rectangle():
    old = bytes(256)
    assert changed(None, old, 128) == (0, 127, 0, 1)
    assert changed(old, old, 128) is None
    new = bytearray(old)
    new[5] = 1
    new[128 + 100] = 0x80
    assert changed(old, bytes(new), 128) == (5, 100, 0, 1)
    new = bytearray(old)
    new[127] = 4
    assert changed(old, bytes(new), 128) == (127, 127, 0, 0)


def test_a_frame_of_the_wrong_size_is_refused_with_a_sentence():
    device = SSD1306(Controller())
    with pytest.raises(ValueError, match="128x64"):
        device.display(Image.new("1", (64, 32)))


class FailingDummy(dummy):
    """luma's dummy device whose next ``fail`` frames don't reach the display."""

    fail = 0

    def display(self, image):
        if self.fail:
            self.fail -= 1
            raise OSError(121, "Remote I/O error")
        super().display(image)


def test_a_frame_the_display_does_not_take_leaves_the_window_going(caplog):
    bus = Bus()
    device = FailingDummy(width=128, height=64, mode="1")
    window = Window(device)
    driver = WindowDriver(window, bus, fps=200.0, poll=0.05)
    try:
        assert wait_for(lambda: window.frames >= 1)
        device.fail = 2
        with caplog.at_level(logging.INFO, logger="controller.hw.display"):
            bus.publish({"type": "editor.verdict", "data": {"signal": "X", "digit": 3}})
            # the window says so once the frame has failed (the device's count drops a moment before)
            assert wait_for(lambda: window.health()["status"] == "warn")
            assert device.fail == 1 and "cable" in window.health()["summary"]
            bus.publish({"type": "editor.verdict", "data": {"signal": "SYND", "digit": 4}})
            assert wait_for(lambda: device.fail == 0)
            bus.publish({"type": "editor.verdict", "data": {"signal": "SCOOP", "digit": 1}})
            assert wait_for(lambda: window.frames == 2)
        assert window.health()["status"] == "ok"
        assert device.image.tobytes() == render(driver.view).tobytes()
        warned = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warned) == 1 and "Remote I/O error" in warned[0].getMessage()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        driver.close()
        window.close()
