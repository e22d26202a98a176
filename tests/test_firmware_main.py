"""The firmware's glue (firmware/main.py) in the emulator: boot, watchdog, pins, maintenance."""

import importlib.util
import time

import pytest
import serial
from pico_emulator import TOOLS, WRAP, Board, Clock, Emulator, Reset, flashed, load_firmware, stage

from controller.serial import protocol as p

WAIT = 5.0


def ask(port, *frames, want="H"):
    """Send frames as a bare host would and return the first answer of kind ``want``."""
    with serial.Serial(port, timeout=0.05) as ser:
        for frame in frames:
            ser.write(frame)
        reader = p.FrameReader()
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            for fields in reader.feed(ser.read(256)):
                if fields[0] == want:
                    return fields
    raise AssertionError("no %s frame within %.0f s" % (want, WAIT))


def test_boot_arms_the_watchdog_and_listens_to_the_pins_interrupts():
    with Emulator() as emu:
        assert emu.board.watchdog.timeout == emu.modules["main"].WATCHDOG_MS <= 8388
        pins = emu.modules["pins"]
        for line, (gp, pull, _) in pins.INPUTS.items():
            pin = emu.board.pins[gp]
            assert pin.hard is True and pin.handler is not None, line
            assert pin.pull == (1 if pull == "up" else 2 if pull == "down" else None)
        assert emu.board.kbd_intr == -1


@pytest.mark.slow
def test_a_handset_lifted_before_boot_is_reported_off_hook():
    with Emulator() as emu:
        emu.set_line("hook", 1)
        emu.reboot()
        emu.settle(50)
        hello = ask(emu.port, p.encode(p.QUERY, 1))
        assert hello[9].startswith("hook=1")
        event = ask(emu.port, p.encode(p.QUERY, 1), want="E")
        assert event[4:6] == ["hook", "off"] and event[2] == "1"


def test_outputs_follow_the_pin_maps_polarity():
    """The ringer held on (strike 0), so its level doesn't depend on where in a 20 Hz strike a
    busy machine happens to look; the strikes have tests of their own."""
    with Emulator() as emu:
        ask(emu.port, p.encode(p.QUERY, 1), p.encode(p.COMMAND, "2", "strike", "0"),
            p.encode(p.COMMAND, "1", "ringer", "1"), want="K")
        gp, active_high = emu.modules["pins"].OUTPUTS["ringer"]
        end = time.monotonic() + WAIT                  # the ringer's command may still be on its way
        while emu.board.levels.get(gp) != (1 if active_high else 0) and time.monotonic() < end:
            emu.settle(1)
        assert emu.board.levels[gp] == (1 if active_high else 0)
        emu.settle(100)                                # held on: still at its active level
        assert emu.board.levels[gp] == (1 if active_high else 0)


def test_the_led_flashes_without_a_host():
    with Emulator() as emu:
        seen = set()
        for _ in range(12):
            emu.settle(100)
            seen.add(emu.output("status_led"))
        assert seen == {True, False}


def test_maintenance_reboots_to_the_repl_once():
    with Emulator() as emu:
        try:
            assert ask(emu.port, p.encode(p.COMMAND, "7", "maint", "1"), want="K") == ["K", "7", "ok"]
        except serial.SerialException:
            pass                                       # the reset unplugged it before we read the answer
        end = time.monotonic() + WAIT
        while emu.stopped != "maintenance" and time.monotonic() < end:
            time.sleep(0.01)
        assert emu.stopped == "maintenance"
        assert emu.board.watchdog is None              # no watchdog while mpremote works
        assert not (emu.board.folder / "maintenance").exists()
        emu.reboot()                                   # `mpremote reset`
        assert emu.stopped is None and len(emu.boots) == 2


@pytest.mark.slow
def test_flash_asks_running_firmware_for_maintenance():
    spec = importlib.util.spec_from_file_location("flash", TOOLS / "flash.py")
    flash = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flash)
    with Emulator() as emu:
        assert flash.ask_for_maintenance(emu.port) is True
        end = time.monotonic() + WAIT
        while emu.stopped != "maintenance" and time.monotonic() < end:
            time.sleep(0.01)
        assert emu.stopped == "maintenance"
        assert flash.ask_for_maintenance(emu.port, timeout=0.3) is False   # the REPL doesn't answer


def test_uptime_runs_on_across_the_tick_wrap(tmp_path):
    folder = stage(tmp_path)
    board = Board(folder, Clock())
    ticks = load_firmware(folder, board)["ticks"]
    now = [WRAP - 1000]
    ticks.source = lambda: now[0]
    uptime = ticks.Uptime()
    assert ticks.ticks_us() == WRAP - 1000
    now[0] += 1500
    assert ticks.ticks_us() == 500
    assert uptime.now() == 1500
    assert uptime.at(WRAP - 200) == 800                 # an edge stamped before the wrap
    assert uptime.at(600) == 1600
    for _ in range(5):
        now[0] += WRAP // 3
        uptime.now()
    assert uptime.now() == 1500 + 5 * (WRAP // 3)
    assert ticks.ticks_diff(5, WRAP - 5) == 10 and ticks.ticks_add(WRAP - 1, 2) == 1


def test_the_edge_ring_counts_what_it_could_not_keep(tmp_path):
    folder = stage(tmp_path)
    edges = load_firmware(folder, Board(folder, Clock()))["edges"]
    ring = edges.EdgeRing(4)
    for i in range(5):
        ring.push(i, i)
    assert ring.lost == 2
    assert [ring.pop() for _ in range(4)] == [(0, 0), (1, 1), (2, 2), None]
    ring.push(9, 1)
    assert ring.pop() == (9, 1)


# --- a real Pico: what went wrong is said, and deliberate resets aren't crashes ---

def test_a_full_edge_ring_is_reported_and_the_contacts_read_again():
    with Emulator() as emu:
        ask(emu.port, p.encode(p.QUERY, 1))
        hook = emu.board.pins[emu.modules["pins"].INPUTS["hook"][0]]
        with emu.lock:                                 # the loop is held off: edges pile up
            for n in range(emu.modules["main"].EDGE_RING + 9):
                hook.drive(n % 2)                      # chatter; it ends LOW: handset lifted
            lost = emu.fw.ring.lost
            assert lost > 0
        event = ask(emu.port, p.encode(p.QUERY, 1), want="E")
        while event[4] != "fault":
            event = ask(emu.port, p.encode(p.ACK, emu.fw.link.boot, event[2]), want="E")
        assert event[5].startswith("%d contact edge(s) lost" % lost)
        emu.settle(50)
        assert emu.fw.link.states["hook"] == 1         # read again: the handset is up


def test_a_deliberate_reset_after_maintenance_is_not_called_a_crash():
    with Emulator() as emu:
        assert ask(emu.port, p.encode(p.QUERY, 1))[8] == "power"
        try:
            ask(emu.port, p.encode(p.COMMAND, "7", "maint", "1"), want="K")
        except serial.SerialException:
            pass
        end = time.monotonic() + WAIT
        while emu.stopped != "maintenance" and time.monotonic() < end:
            time.sleep(0.01)
        # `mpremote reset` is machine.reset(), which the RP2040 reports as a watchdog reset
        wdt_reset = emu.board.reset_cause = 3
        emu.reboot(cause=wdt_reset)
        assert ask(emu.port, p.encode(p.QUERY, 1))[8] == "reset"
        emu.reboot(cause=wdt_reset)                    # the flag is used up: a bite is a bite
        assert ask(emu.port, p.encode(p.QUERY, 1))[8] == "watchdog"


def test_the_watchdog_and_ctrl_c_guard_are_set_before_the_heavy_imports(tmp_path):
    folder = stage(tmp_path)
    board = Board(folder, Clock())
    modules = load_firmware(folder, board)
    main = modules["main"]
    seen = {}

    def load():
        seen["watchdog"], seen["kbd_intr"] = board.watchdog, board.kbd_intr
        raise ImportError("no module named 'link'")

    main._load_modules = load
    flag = folder / main.MAINTENANCE_FLAG
    try:
        main.boot(None, maintenance_flag=str(flag), reset_flag=str(folder / main.RESET_FLAG))
    except Reset:
        pass
    else:
        raise AssertionError("a firmware whose files don't load must reset")
    assert seen["watchdog"] is not None and seen["kbd_intr"] == -1
    assert flag.exists()                               # the next boot waits at the REPL, for flashing
    assert main.boot(None, maintenance_flag=str(flag), reset_flag=str(folder / main.RESET_FLAG)) is None
    # main.py itself imports nothing heavy before boot() has armed the watchdog
    import ast
    top = ast.parse((folder / "main.py").read_text()).body
    imported = {a.name for n in top if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in top if isinstance(n, ast.ImportFrom)}
    assert imported == {"os", "select", "sys", "machine", "micropython"}


def test_a_pico_w_lights_its_led_by_name_not_gp25(tmp_path):
    folder = stage(tmp_path)
    board = Board(folder, Clock())
    modules = load_firmware(folder, board)
    main, pins = modules["main"], modules["pins"]
    assert main.wireless("Raspberry Pi Pico W with RP2040") and main.wireless("Raspberry Pi Pico 2 W with RP2350")
    assert not main.wireless("Raspberry Pi Pico with RP2040") and not main.wireless("Raspberry Pi Pico2")
    led_gp = pins.OUTPUTS["status_led"][0]
    with flashed(modules):
        main._load_modules()
        main.board_name = lambda: "Raspberry Pi Pico W with RP2040"
        fw = main.Firmware(None, None)
    assert "status_led" in pins.BOARD_LEDS
    assert "LED" in board.pins and led_gp not in board.pins
    fw._set("status_led", True)
    assert board.levels["LED"] == 1
