"""The phone's window on luma's dummy device: each view rendered and read back from the pixels
(pips counted, seven-segment digits decoded); the driver following the bus."""

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FakeClock, wait_for
from luma.core.device import dummy

from controller import events
from controller.bus import Bus
from controller.hw.display import (
    PIPS,
    SHOWN,
    SIZE,
    DisplayError,
    Window,
    WindowDriver,
    die_layout,
    next_view,
    open_device,
    pip_centres,
    render,
    segment_boxes,
    segment_layout,
    view_for,
)
from controller.hw.segments import SEGMENTS
from controller.oracles.editor import SIGNALS
from controller.pinmap import load_pinmap

REPO = Path(__file__).resolve().parents[1]
ALL_PIPS = sorted({pos for face in PIPS.values() for pos in face})


def lit(image, xy):
    return bool(image.getpixel(xy))


def read_segments(image, text_len_hint):
    """Read the seven-segment text drawn by draw_segments, trying the layouts of the lengths the
    window uses, and return the one whose marks are all where they should be."""
    for template in ("0.00", "00.00", "0:00.00", "00:00.00", "0"):
        layout = segment_layout(template)
        chars = []
        for c, x, y, w, h, t in layout:
            if c in ".:":
                chars.append(c if lit(image, (x + 1 + t // 2, y + h - 1 - t // 2 if c == "." else y + h // 3)) else "?")
                continue
            on = "".join(s for s, box in segment_boxes(x, y, w, h, t).items()
                         if lit(image, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)))
            match = [d for d, segs in SEGMENTS.items() if sorted(segs) == sorted(on) and d != " "]
            chars.append(match[0] if match else "?")
        text = "".join(chars)
        if "?" not in text and len(text) == len(template):
            # nothing may be lit left of the layout (a longer reading would be)
            left = layout[0][1]
            if not any(lit(image, (x, y)) for x in range(left - 1) for y in range(4, 44)):
                return text
    return None


@pytest.mark.parametrize("signal", list(SIGNALS))
def test_each_verdict_fits_the_window(signal):
    image = render({"kind": "verdict", "signal": signal, "digit": 7})
    left, top, right, bottom = image.getbbox()
    assert left >= 1 and right <= SIZE[0] - 1 and top >= 1 and bottom <= SIZE[1] - 1
    assert image.size == SIZE and image.mode == "1"


def test_different_verdicts_look_different():
    frames = {render({"kind": "verdict", "signal": s}).tobytes() for s in SIGNALS}
    assert len(frames) == len(SIGNALS)


@pytest.mark.parametrize("faces", [(1, 2), (3, 4), (5, 6), (6, 6), (2, 5, 1), (4,)])
def test_dice_pips_read_back(faces):
    image = render({"kind": "dice", "faces": list(faces), "total": sum(faces), "sides": 6, "dice": "%dd6" % len(faces),
                    "flags": {}})
    for face, (x, y, side) in zip(faces, die_layout(len(faces))):
        shown_pips = sum(lit(image, c) for c in pip_centres_all(x, y, side))
        assert shown_pips == face
        assert set(pip_centres(face, x, y, side)) <= {c for c in pip_centres_all(x, y, side) if lit(image, c)}


def pip_centres_all(x, y, side):
    step = side / 4
    return [(round(x + step * (1 + col)), round(y + step * (1 + row))) for col, row in ALL_PIPS]


def test_flags_are_spelled_out_under_the_dice():
    plain = render({"kind": "dice", "faces": [6, 5], "total": 11, "sides": 6, "flags": {}})
    sixes = render({"kind": "dice", "faces": [6, 5], "total": 11, "sides": 6,
                    "flags": {"doubles": True, "double_sixes": True}})
    # the dice are drawn the same; only the line below them differs, and it is wider
    assert plain.crop((0, 0, 128, 40)).tobytes() == sixes.crop((0, 0, 128, 40)).tobytes()
    assert sixes.crop((0, 48, 128, 64)).getbbox()[2] - sixes.crop((0, 48, 128, 64)).getbbox()[0] > \
        plain.crop((0, 48, 128, 64)).getbbox()[2] - plain.crop((0, 48, 128, 64)).getbbox()[0]


def test_the_running_stopwatch_reads_to_hundredths():
    view = {"kind": "stopwatch", "running": True, "t0": 100.0}
    assert read_segments(render(view, now=100.0), 4) == "0.00"
    assert read_segments(render(view, now=112.349), 5) == "12.34"
    assert read_segments(render(view, now=162.07), 7) == "1:02.07"


def test_the_stopped_stopwatch_underlines_the_roll():
    image = render({"kind": "stopwatch", "running": False, "shown": "3.58", "digit": 8})
    assert read_segments(image, 4) == "3.58"
    c, x, y, w, h, t = segment_layout("3.58")[-1]
    assert all(lit(image, (xx, y + h + 3)) for xx in range(x, x + w))


def test_d10_and_other_views():
    assert read_segments(render({"kind": "d10", "digit": 7}), 1) == "7"
    assert render({"kind": "dice_set", "dice": "1d10"}).getbbox() is not None
    assert render({"kind": "idle"}).getbbox() is not None


def test_view_for_bus_messages():
    assert view_for({"type": "editor.verdict", "data": {"signal": "OK", "digit": 3}}) == \
        {"kind": "verdict", "signal": "OK", "digit": 3}
    assert view_for({"type": "stopwatch.started", "data": {"t": 5.0}})["t0"] == 5.0
    assert view_for({"type": "stopwatch.roll", "data": {"mode": "d10", "digit": 4}}) == {"kind": "d10", "digit": 4}
    assert view_for({"type": "phone.hook", "data": {}}) is None


def test_a_games_start_or_end_clears_the_window_but_a_running_stopwatch():
    """A roll from the game before stayed on through the next ones (a stopwatch's 7.87 beside
    SCAN and Star Reporter): whose was it? The window starts each game, and the time between
    games, empty, as the panel's sidebar does; a stopwatch someone is timing now runs on."""
    dice = {"kind": "dice", "faces": [3, 4], "total": 7, "sides": 6, "dice": "2d6", "flags": {}}
    for kind in ("game.started", "game.finished", "game.abandoned"):
        message = {"type": kind, "data": {"game": 3, "engine": "scan"}}
        assert next_view(dice, message) == {"kind": "idle"}, kind
        assert next_view({"kind": "stopwatch", "running": False, "shown": "7.87", "digit": 7}, message) == {"kind": "idle"}
        assert next_view({"kind": "d10", "digit": 4}, message) == {"kind": "idle"}
        assert next_view({"kind": "verdict", "signal": "EXTRA", "digit": 7}, message) == {"kind": "idle"}
        assert next_view({"kind": "stopwatch", "running": True, "t0": 5.0}, message) is None       # runs on
        assert next_view({"kind": "idle", "address": ["box.local:5000"]}, message) is None
    assert next_view({"kind": "idle"}, {"type": "editor.verdict", "data": {"signal": "OK", "digit": 3}})["signal"] == "OK"


def test_a_move_of_the_game_marks_the_roll_in_the_window_as_earlier():
    """The box rolled 4 + 2 for the move while the window still said the button's = 10: after a
    move, a roll shown is marked "earlier" (drawn so); a verdict or a running stopwatch is not."""
    changed = {"type": "game.changed", "data": {"game": 4, "version": 6}}
    dice = {"kind": "dice", "faces": [4, 6], "total": 10, "sides": 6, "dice": "2d6", "flags": {}}
    stopped = {"kind": "stopwatch", "running": False, "shown": "7.87", "digit": 7}
    for view in (dice, stopped, {"kind": "d10", "digit": 4}):
        marked = next_view(view, changed)
        assert marked == dict(view, earlier=True)
        assert next_view(marked, changed) is None                  # once
        assert render(marked).tobytes() != render(view).tobytes()
    for view in ({"kind": "verdict", "signal": "EXTRA", "digit": 7}, {"kind": "stopwatch", "running": True, "t0": 5.0},
                 {"kind": "stopwatch", "running": False, "shown": "0.00", "digit": None}, {"kind": "idle"}):
        assert next_view(view, changed) is None, view
    assert next_view(dict(dice, earlier=True), {"type": "dice.roll", "data": dict(dice, faces=[1, 2], total=3)}).get("earlier") is None


def test_window_on_the_dummy_device_keeps_the_frame():
    window = Window(dummy(width=128, height=64, mode="1"))
    try:
        image = window.show({"kind": "verdict", "signal": "SYND"})
        assert window.device.image.tobytes() == image.tobytes() and window.frames == 1
        assert window.image().tobytes() == image.tobytes()
    finally:
        window.close()


def test_driver_follows_the_bus_and_runs_the_stopwatch():
    bus = Bus()
    clock = FakeClock(50.0)
    window = Window(dummy(width=128, height=64, mode="1"))
    driver = WindowDriver(window, bus, clock=clock, fps=200.0, poll=0.05)
    try:
        assert wait_for(lambda: window.frames >= 1)
        bus.publish({"type": "phone.digit", "data": {"digit": 3}})           # not for the window
        bus.publish({"type": "editor.verdict", "data": {"signal": "X", "digit": 3}})
        assert wait_for(lambda: driver.view.get("signal") == "X" and window.frames >= 2)
        bus.publish({"type": "stopwatch.started", "data": {"t": 50.0}})
        clock.t = 51.23
        assert wait_for(lambda: read_segments(window.image(), 4) == "1.23")
        clock.t = 53.5
        assert wait_for(lambda: read_segments(window.image(), 4) == "3.50")   # redrawn while it runs
        bus.publish({"type": "stopwatch.roll", "data": {"mode": "stopwatch", "shown": "3.51", "digit": 1}})
        assert wait_for(lambda: read_segments(window.image(), 4) == "3.51")
        frames = window.frames
        clock.t = 60.0
        bus.publish({"type": "bus.noise", "data": {}})
        bus.publish({"type": "dice.set", "data": {"dice": "1d4"}})
        # the view is set a moment before it is drawn: wait for both, then for no more frames
        assert wait_for(lambda: driver.view["kind"] == "dice_set" and window.frames >= frames + 1)
        assert not wait_for(lambda: window.frames > frames + 1, timeout=0.3)  # stopped: no redraws
    finally:
        driver.close()
        window.close()
    assert bus.subscriber_count == 0


def test_open_device_choices(caplog):
    spec = load_pinmap().line("display")
    assert open_device("none", spec) is None
    d = open_device("auto", spec, simulated=True)
    assert d.size == SIZE and d.mode == "1"
    d.cleanup()
    open_device("dummy", spec).cleanup()
    with caplog.at_level(logging.WARNING, logger="controller.hw.display"):
        assert open_device("auto", spec, simulated=False) is None            # no I2C bus on this machine
    assert "window display: off" in caplog.text and "0x%02X" % spec.address in caplog.text
    with pytest.raises(DisplayError, match="I2C bus %d" % spec.bus):
        open_device("ssd1306", spec)
    with pytest.raises(ValueError, match="display must be"):
        open_device("hologram", spec)


def test_a_new_game_clears_the_last_games_verdict_from_the_window():
    """The window shows only the game being played's calls to the editor, as the panel does: a
    verdict from the game before is gone the moment a new game starts."""
    bus = Bus()
    window = Window(dummy(width=128, height=64, mode="1"))
    driver = WindowDriver(window, bus, fps=200.0, poll=0.05)
    try:
        idle = render({"kind": "idle"}, window.device.size)
        assert wait_for(lambda: window.frames >= 1)
        bus.publish({"type": "editor.verdict", "data": {"signal": "EXTRA", "digit": 7}})
        assert wait_for(lambda: driver.view.get("signal") == "EXTRA")
        assert wait_for(lambda: window.image().tobytes() != idle.tobytes())
        bus.publish({"type": "game.started", "data": {"game": 2, "engine": "scoop1956"}})
        assert wait_for(lambda: driver.view == {"kind": "idle"})
        assert wait_for(lambda: window.image().tobytes() == idle.tobytes())
        bus.publish({"type": "editor.verdict", "data": {"signal": "SYND", "digit": 2}})
        assert wait_for(lambda: driver.view.get("signal") == "SYND")     # the new game's own calls show
    finally:
        driver.close()
        window.close()


def test_the_window_follows_every_kind_of_message_it_shows():
    """Its driver subscribes to display.SHOWN alone: a kind next_view acts on must be among them."""
    anything = {"signal": "OK", "digit": 3, "faces": [1, 2], "total": 3, "sides": 6, "dice": "2d6", "flags": {},
                "t": 0.0, "mode": "stopwatch", "shown": "0.12"}
    for kind in events.ALL:
        if next_view({"kind": "verdict", "signal": "OK", "digit": 3}, {"type": kind, "data": anything}) is not None:
            assert kind in SHOWN, kind


@pytest.mark.slow
def test_a_box_with_no_window_never_loads_pillow_or_luma(tmp_path):
    """display = none: the box is built, and the panel made, without importing either."""
    script = ("import sys\n"
              "from pathlib import Path\n"
              "from gpiozero.pins.mock import MockFactory\n"
              "from controller.app import Newsdesk\n"
              "from controller.config import load_config\n"
              "from web_ui import create_app\n"
              "config = load_config(Path(sys.argv[1]), environ={}, overrides={'display': 'none', 'audio': 'off', "
              "'speech': 'off'})\n"
              "desk = Newsdesk(config, pin_factory=MockFactory())\n"
              "create_app(newsdesk=desk)\n"
              "desk.close()\n"
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'PIL', 'luma'}))\n")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "data")], cwd=REPO, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_window_made_with_an_opener_looks_for_its_display_only_when_told(tmp_path):
    """The panel's start (the default setting, auto): the window waits for the panel's first
    answer, says so in the health strip meanwhile, then opens and draws."""
    bus, go, opened = Bus(), __import__("threading").Event(), []

    def opener():
        opened.append(1)
        return dummy(width=128, height=64, mode="1")
    window = Window(opener=opener)
    driver = WindowDriver(window, bus, poll=0.01, go=go)
    try:
        assert not wait_for(lambda: opened, timeout=0.1)
        assert window.opening and window.image() is None
        assert "looking for it" in window.health()["summary"]
        go.set()
        assert wait_for(lambda: window.frames >= 1)
        assert opened == [1] and not window.opening
        assert window.health()["summary"].startswith("Simulated window")
    finally:
        driver.close()
        window.close()


def test_a_late_window_that_finds_no_display_leaves_the_strip_saying_so():
    window = Window(opener=lambda: None)
    driver = WindowDriver(window, Bus(), poll=0.01)
    try:
        assert wait_for(lambda: not window.opening)
        assert window.health() is None and window.image() is None
    finally:
        driver.close()
        window.close()


def test_a_window_closed_while_it_opens_lets_its_device_go():
    let_go = []

    class Device:
        def cleanup(self):
            let_go.append(1)
    window = Window(opener=lambda: (window.close(), Device())[1])
    assert window.open() is False
    assert let_go == [1]


def test_the_idle_window_shows_where_a_tablet_finds_the_panel():
    """A box with no screen of its own: its window shows the addresses the log says, each line
    inside the window's width."""
    from PIL import ImageDraw

    from controller.hw.display import IDLE, _fit_text, address_lines

    lines = address_lines(["http://raspberrypi.local:8080/", "http://192.168.100.123:8080/", "http://x:1/"])
    assert lines == ["raspberrypi.local:8080", "192.168.100.123:8080"]
    plain, with_address = render(dict(IDLE)), render(dict(IDLE, address=lines))
    assert plain.tobytes() != with_address.tobytes()
    draw = ImageDraw.Draw(with_address)
    for line in lines:
        left, _, right, _ = draw.textbbox((0, 0), line, font=_fit_text(draw, line, SIZE[0] - 2, 12, 11, 6))
        assert right - left <= SIZE[0] - 2
    lit_rows = [y for y in range(SIZE[1]) if any(with_address.getpixel((x, y)) for x in range(SIZE[0]))]
    assert max(lit_rows) > 45                         # the second line, under the first


def test_the_driver_shows_the_address_when_idle_and_again_after_a_game_clears_a_verdict():
    from controller.hw.display import IDLE

    bus = Bus()
    window = Window(dummy(width=128, height=64, mode="1"))
    driver = WindowDriver(window, bus, poll=0.01)
    try:
        assert wait_for(lambda: window.frames >= 1)
        plain = window.image().tobytes()
        driver.show_address(["newsdesk.local:8080"])
        assert wait_for(lambda: window.frames >= 2)
        shown = window.image().tobytes()
        assert shown != plain
        bus.publish({"type": "editor.verdict", "data": {"signal": "X", "digit": 3}})
        assert wait_for(lambda: driver.view.get("kind") == "verdict")
        bus.publish({"type": "game.started", "data": {}})
        assert wait_for(lambda: driver.view == dict(IDLE, address=["newsdesk.local:8080"]))
        assert wait_for(lambda: window.image().tobytes() == shown)
    finally:
        driver.close()
        window.close()


def test_a_frame_drawn_again_makes_no_font_afresh(monkeypatch):
    """Pillow makes its default font from the data it carries each time it is asked; the window
    asks once per size and fits each text once (the running stopwatch draws 20 frames a second,
    and the fonts made afresh were most of a frame's CPU: bench/window_frames.py)."""
    from PIL import ImageFont

    from controller.hw import display

    made = []
    real = ImageFont.load_default

    def counted(*args, **kwargs):
        made.append(kwargs.get("size"))
        return real(*args, **kwargs)
    monkeypatch.setattr(ImageFont, "load_default", counted)

    def forget():           # what other tests left made
        for kept in (display._font, getattr(display, "_fit_size", None)):
            if hasattr(kept, "cache_clear"):
                kept.cache_clear()
    forget()
    views = [view_for({"type": "editor.verdict", "data": {"signal": "SCOOP", "digit": 3}}),
             view_for({"type": "dice.roll", "data": {"dice": "2d6", "faces": [2, 5], "total": 7, "sides": 6}})]
    first = [render(v).tobytes() for v in views]
    once = len(made)
    assert once > 0
    for _ in range(5):
        assert [render(v).tobytes() for v in views] == first
    assert len(made) == once
    forget()
