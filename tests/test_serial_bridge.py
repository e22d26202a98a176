"""The host's serial bridge against the emulated Pico, over real pseudo-terminals: both ways,
through garbage, damage, unplugging and reboots, every digit arrives exactly once."""

import os
import queue
import random
import time

import pytest
import serial
from pico_emulator import Emulator

from controller.dial.decoder import DialEvent
from controller.dial.trace import TraceWriter, parse_trace, replay
from controller.errors import ConfigError
from controller.hw.ringer import Ringer
from controller.serial import protocol as p
from controller.serial.bridge import RingerSwitch, SerialBridge
from controller.serial.errors import CommandRefused, PhoneLinkError
from controller.serial.session import DeviceClock

# the emulated dial's pulses and the link's retries run in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

WAIT = 5.0


class Host:
    """A SerialBridge with its three callbacks feeding queues."""

    def __init__(self, port, **kw):
        self.events = queue.Queue()
        self.edges = queue.Queue()
        self.statuses = queue.Queue()
        self.bridge = SerialBridge(port, self.events.put, on_edge=lambda *e: self.edges.put(e),
                                   on_status=self.statuses.put, **kw)

    def __enter__(self):
        self.bridge.start()
        return self

    def __exit__(self, *exc):
        self.bridge.close()

    def status(self, connected, timeout=WAIT):
        end = time.monotonic() + timeout
        while True:
            status = self.statuses.get(timeout=max(0.0, end - time.monotonic()))
            if status.connected == connected:
                return status

    def event(self, timeout=WAIT):
        return self.events.get(timeout=timeout)

    def digits(self, n, timeout=WAIT):
        got = []
        while len(got) < n:
            ev = self.event(timeout)
            if ev.kind == "digit":
                got.append(ev.value)
        return got

    def no_more_events(self):
        """Nothing else arrives within a heartbeat and a resend or two."""
        try:
            ev = self.events.get(timeout=0.8)
        except queue.Empty:
            return True
        raise AssertionError("one event too many: %r" % ev)


@pytest.fixture
def emu():
    with Emulator() as e:
        yield e


@pytest.mark.slow
def test_digits_and_hooks_cross_as_the_dial_events_the_table_takes(emu):
    with Host(lambda: emu.port) as host:
        status = host.status(True)
        assert status.port == emu.port and "phone connected on %s" % emu.port in status.message
        assert status.boot == emu.boots[-1]
        emu.hook(True)
        for d in (4, 0, 7):
            emu.dial(d)
        emu.hook(False)
        events = [host.event() for _ in range(5)]
        assert all(type(ev) is DialEvent for ev in events)
        assert [(ev.kind, ev.value) for ev in events] == [
            ("hook", "off"), ("digit", 4), ("digit", 0), ("digit", 7), ("hook", "on")]
        assert [ev.pulses for ev in events[1:4]] == [4, 10, 7]
        assert all(ev.last_edge < ev.t for ev in events[1:4])
        times = [ev.t for ev in events]
        assert times == sorted(times)
        assert events[1].as_dict() == {"t": events[1].t, "event": "digit", "digit": 4}
        assert host.bridge.device["caps"] == ["dial", "raw", "ringer", "led", "maint", "strike"]
        host.no_more_events()


def test_raw_edges_while_recording(emu):
    with Host(lambda: emu.port) as host:
        host.status(True)
        emu.hook(True)
        assert host.event().value == "off"
        assert host.bridge.record(True) == {"hook": 1, "pulse": 0, "offnormal": 0}
        emu.dial(2)
        assert host.event().value == 2
        edges = [host.edges.get(timeout=WAIT) for _ in range(6)]
        assert [(line, state) for _, line, state in edges] == [
            ("offnormal", 1), ("pulse", 1), ("pulse", 0), ("pulse", 1), ("pulse", 0), ("offnormal", 0)]
        times = [t for t, _, _ in edges]
        assert times == sorted(times)
        assert host.bridge.record(False) == {"hook": 1, "pulse": 0, "offnormal": 0}
        emu.dial(1)
        assert host.event().value == 1
        assert host.edges.empty()


def test_a_recording_over_usb_replays_to_the_digits_dialed(emu, tmp_path):
    path = tmp_path / "usb.csv"
    dialed = [4, 0, 2, 9]
    with Host(lambda: emu.port) as host, open(path, "w") as f:
        host.status(True)
        emu.hook(True)
        writer = TraceWriter(f, dial_map="standard", initial=host.bridge.record(True))
        for d in dialed:
            emu.dial(d, pps=9.0 + d * 0.3)
            # each digit leaps the emulator's clock on by seconds; let the host's acks reach the
            # phone before the next, or it would take the host for gone and stop the raw edges
            assert host.digits(1) == [d]
        for _ in range(sum(2 * (d or 10) + 2 for d in dialed)):   # pulses, and off-normal out and back
            writer.edge(*host.edges.get(timeout=WAIT))
        assert host.edges.empty()
    trace = parse_trace(path.read_text())
    assert trace.initial == {"hook": 1, "pulse": 0, "offnormal": 0}
    events = replay(trace.edges, initial=trace.initial)
    assert [ev.value for ev in events if ev.kind == "digit"] == dialed
    pulses = [t for t, line, state in trace.edges if line == "pulse" and state == 1]
    gaps = [b - a for a, b in zip(pulses, pulses[1:4])]      # the first digit's, at 10.2 pps
    assert all(abs(g - 1 / 10.2) < 0.0005 for g in gaps), gaps


def test_commands_drive_the_ringer_and_the_led_and_settings_survive_a_reboot(emu):
    with Host(lambda: emu.port, settings={"dial_map": "sweden", "offnormal": "wired", "strike": "15"}) as host:
        host.status(True)
        host.bridge.set_ringer(True)
        assert emu.fw.link.strike_hz == 15            # the host's bell_strike_hz, sent at connection
        # the line strikes: on for part of each 1/15 s and off between. The device's clock runs in
        # real time, so one look could land in either part; look until both are seen
        seen = set()
        for _ in range(200):
            emu.settle(5)
            seen.add(emu.output("ringer"))
            if len(seen) == 2:
                break
        assert seen == {True, False}
        host.bridge.set_ringer(False)
        host.bridge.set_led("off")
        emu.settle(1)
        assert not emu.output("ringer") and not emu.output("status_led")
        with pytest.raises(CommandRefused, match="refused led=disco"):
            host.bridge.set_led("disco")
        emu.dial(5, dial_map="sweden")
        assert host.digits(1) == [5]
        emu.reboot()
        host.status(False)
        host.status(True)
        emu.dial(8, dial_map="sweden")                  # the new boot was told the dial map again
        assert host.digits(1) == [8]
        assert emu.fw.link.offnormal == "wired" and emu.fw.link.strike_hz == 15


def test_commands_to_an_absent_phone_fail_naming_it(emu):
    emu.unplug()
    with Host(lambda: emu.port) as host:
        status = host.status(False)
        assert "no phone found" in status.message
        with pytest.raises(PhoneLinkError, match="disconnected .*can't send ringer=1"):
            host.bridge.set_ringer(True)


def test_a_stray_ctrl_c_is_data_to_the_firmware(emu):
    with serial.Serial(emu.port, timeout=0.05) as port:
        port.write(b"\x03\x03\x03" + p.encode(p.QUERY, 1) + b"\x03")
        reader = p.FrameReader()
        end = time.monotonic() + WAIT
        hello = None
        while hello is None and time.monotonic() < end:
            hello = next((f for f in reader.feed(port.read(256)) if f[0] == "H"), None)
    assert hello is not None and emu.stopped is None
    assert emu.board.kbd_intr == -1


def test_without_kbd_intr_a_ctrl_c_would_stop_it(emu):
    """The check above can fail: firmware that forgot kbd_intr(-1) dies on the first 0x03."""
    with emu.lock:
        emu.board.kbd_intr = 3
    with serial.Serial(emu.port, timeout=0.05) as port:
        port.write(b"\x03")
        end = time.monotonic() + WAIT
        while emu.stopped is None and time.monotonic() < end:
            port.read(256)
    assert emu.stopped == "KeyboardInterrupt"


def _damage(rng):
    def tamper(data):
        out = bytearray()
        for frame in data.split(b"\n"):
            if not frame:
                continue
            frame += b"\n"
            roll = rng.random()
            if roll < 0.08:
                frame = frame[:rng.randrange(len(frame))]                     # cut short
            elif roll < 0.16:
                i = rng.randrange(len(frame))
                frame = frame[:i] + bytes([frame[i] ^ (1 << rng.randrange(8))]) + frame[i + 1:]
            elif roll < 0.24:
                i = rng.randrange(len(frame))
                frame = frame[:i] + frame[i + 1:]                              # a dropped byte
            elif roll < 0.32:
                frame = frame * 2                                              # duplicated
            elif roll < 0.40:
                frame = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + frame
            out += frame
        return bytes(out)
    return tamper


@pytest.mark.slow
def test_garbage_cut_corrupted_and_duplicated_frames_both_ways(emu):
    rng = random.Random(1956)
    emu.cable.tamper = _damage(rng)
    emu.cable.tamper_in = _damage(rng)
    dialed = [rng.randrange(10) for _ in range(30)]
    with Host(lambda: emu.port) as host:
        host.status(True, timeout=10)
        for d in dialed:
            emu.dial(d)
        assert host.digits(len(dialed), timeout=20) == dialed
        emu.cable.tamper = emu.cable.tamper_in = None
        host.no_more_events()
        stats = host.bridge.stats
    assert stats["duplicates"] > 0 and stats["gaps"] + stats["bad_frames"] > 0


@pytest.mark.slow
def test_garbage_from_the_port_between_frames(emu):
    with Host(lambda: emu.port) as host:
        host.status(True)
        for i in range(20):
            emu.cable.inject(bytes(random.Random(i).randrange(256) for _ in range(50)))
            emu.dial(i % 10)
        assert host.digits(20) == [i % 10 for i in range(20)]
        host.no_more_events()


@pytest.mark.slow
def test_the_port_closed_in_the_middle_of_a_frame(emu):
    with Host(lambda: emu.port) as host:
        host.status(True)
        cut = {"done": False}

        def half_then_unplug(data):
            if b"$E" in data and not cut["done"]:
                cut["done"] = True
                emu.cable._write(data[:data.index(b"$E") + 12])
                emu.cable.unplug()
                return b""
            return data
        emu.cable.tamper = half_then_unplug
        emu.dial(6)
        assert cut["done"]
        emu.cable.tamper = None
        host.status(False)
        emu.plug()
        host.status(True)
        assert host.digits(1) == [6]
        host.no_more_events()


@pytest.mark.slow
def test_the_emulated_dial_keeps_its_timing_when_the_machine_pauses_the_dialing_thread(emu, monkeypatch):
    """The emulator puts each edge of a digit on the pins at the device time it is meant for. A
    loaded machine once paused the dialing thread between two edges, the pulse came out long,
    and a 3 arrived as a 1 and a 1 (the hundred unplug cycles below failed now and then)."""
    put = emu.set_line
    edges = []

    def paused_once(line, state, at=None):
        edges.append(line)
        if len(edges) == 4:
            time.sleep(0.15)
        return put(line, state, at)

    with Host(lambda: emu.port) as host:
        host.status(True)
        monkeypatch.setattr(emu, "set_line", paused_once)
        emu.dial(3)
        monkeypatch.setattr(emu, "set_line", put)
        emu.dial(5)
        assert host.digits(2) == [3, 5]
        host.no_more_events()


@pytest.mark.slow
def test_a_hundred_unplug_replug_cycles(emu):
    rng = random.Random(2002)
    dialed = []
    reconnects = []
    # retrying every 5 ms rather than every 50 ms: the count of cycles is the test, not the wait
    # (test_after_a_long_unplug_... holds the box's own retries to their 2 s)
    with Host(lambda: emu.port, retry=(0.005, 0.05)) as host:
        host.status(True)
        for _cycle in range(100):
            if rng.random() < 0.5:
                dialed.append(rng.randrange(10))
                emu.dial(dialed[-1])                   # plugged in
            emu.unplug()
            host.status(False)
            dialed.append(rng.randrange(10))
            emu.dial(dialed[-1])                       # unplugged: kept on the device
            t0 = time.monotonic()
            emu.plug()
            host.status(True)
            reconnects.append(time.monotonic() - t0)
        assert host.digits(len(dialed), timeout=10) == dialed
        host.no_more_events()
    assert max(reconnects) < 2.0, max(reconnects)
    assert len(emu.boots) == 1


@pytest.mark.slow
def test_a_reboot_starts_a_new_sequence_that_is_not_taken_for_duplicates(emu):
    with Host(lambda: emu.port) as host:
        host.status(True)
        for d in (1, 2, 3):
            emu.dial(d)
        assert host.digits(3) == [1, 2, 3]
        emu.reboot()
        host.status(True)
        for d in (1, 2, 3):                            # seq 1, 2, 3 again, of a new boot
            emu.dial(d)
        assert host.digits(3) == [1, 2, 3]
        assert host.bridge.device["boot"] == emu.boots[-1] != emu.boots[0]
        host.no_more_events()


@pytest.mark.slow
def test_a_hang_is_noticed_by_its_silence_and_ended_by_the_watchdog():
    with Emulator(watchdog_ms=1000) as emu:
        with Host(lambda: emu.port, silence=0.4) as host:
            host.status(True)
            emu.dial(9)
            assert host.digits(1) == [9]
            emu.hang()
            status = host.status(False)
            assert "no heartbeat" in status.message
            status = host.status(True)
            assert status.boot == emu.boots[-1] != emu.boots[0]
            assert host.bridge.device["reset"] == "watchdog"
            emu.dial(3)
            assert host.digits(1) == [3]


def test_events_the_device_could_not_keep_are_counted_lost(emu):
    emu.modules["link"].QUEUE_SIZE = 4
    with Host(lambda: emu.port) as host:
        host.status(True)
        emu.unplug()
        host.status(False)
        for d in range(6):
            emu.dial(d)
        emu.plug()
        host.status(True)
        assert host.digits(4) == [2, 3, 4, 5]
        assert host.bridge.stats["lost"] == 2


@pytest.mark.slow
def test_a_port_where_no_phone_answers(tmp_path):
    master, slave = os.openpty()
    try:
        name = os.ttyname(slave)
        with Host(name, hello_timeout=0.3) as host:
            status = host.status(False)
            assert status.message == ("phone disconnected from %s: no newsdesk phone answers on %s "
                                      "(is its firmware flashed? `make flash`)" % (name, name))
            assert os.read(master, 100).startswith(p.encode(p.QUERY, p.PROTOCOL))
    finally:
        os.close(master)
        os.close(slave)


def test_firmware_speaking_another_protocol_is_told_to_be_flashed(emu):
    emu.modules["link"].PROTOCOL = 2
    with Host(lambda: emu.port) as host:
        status = host.status(False)
        assert "speaks protocol 2 and newsdesk 1: flash its firmware" in status.message


def test_the_phone_found_later_and_a_clean_close(emu):
    emu.unplug()
    host = Host(lambda: emu.port)
    host.bridge.start()
    try:
        assert "no phone found" in host.status(False).message
        emu.plug()
        host.status(True)
    finally:
        host.bridge.close()
        host.bridge.close()
    assert host.status(False).message == "phone disconnected: newsdesk closed the port"
    with serial.Serial(emu.port, timeout=0.05, exclusive=True):
        pass                                           # the bridge let go of it


def test_device_clock_offset_is_the_smallest_delay_and_follows_drift():
    clock = DeviceClock()
    clock.sync(1_000_000, 101.010)
    clock.sync(2_000_000, 102.002)
    clock.sync(3_000_000, 103.050)
    assert clock(2_500_000) == pytest.approx(102.502)
    for i in range(40):                                 # the device clock runs 1 ms/s slow
        clock.sync(4_000_000 + i * 1_000_000, 104.002 + i * 1.001)
    # the least delay of the last 32 samples (i = 8): a minimum kept for ever would say 100.002
    assert clock(43_000_000) == pytest.approx(43 + 100.010)
    first = clock.monotonic(43_000_000)
    assert clock.monotonic(42_000_000) == first         # never backwards


def test_a_bridge_needs_a_port():
    with pytest.raises(ConfigError, match="port is empty"):
        SerialBridge("", lambda ev: None)


def test_a_callback_cannot_wait_for_the_reader_it_runs_on(emu):
    refused = queue.Queue()
    bridge = None

    def on_status(status):
        if status.connected:
            try:
                bridge.set_led("on")
            except RuntimeError as e:
                refused.put(e)
    bridge = SerialBridge(lambda: emu.port, lambda ev: None, on_status=on_status)
    with bridge:
        assert "a callback can't call it" in str(refused.get(timeout=WAIT))


@pytest.mark.slow
def test_after_a_long_unplug_the_backed_off_retries_still_reconnect_within_2_s(emu):
    looked = queue.Queue()

    def finder():
        looked.put(time.monotonic())
        return emu.port
    with Host(finder) as host:
        host.status(True)
        emu.unplug()
        host.status(False)
        attempts = []
        while len(attempts) < 6:                       # 0.05, 0.1, 0.2, 0.4, 0.8, 1 s apart
            attempts.append(looked.get(timeout=WAIT))
        assert attempts[-1] - attempts[-2] > 0.5       # backed off
        t0 = time.monotonic()
        emu.plug()
        host.status(True)
        assert time.monotonic() - t0 < 2.0


def test_the_bell_rings_in_its_cadence_through_the_phones_ringer(emu):
    steps = queue.Queue()

    def wait(stop, seconds):                           # the cadence, stepped by the test
        steps.put(emu.output("ringer"))
        return stop.wait(0) if steps.qsize() < 4 else stop.wait(WAIT)
    # the line held on through each ring (strike 0): the cadence's on and off, not where a look
    # lands within a strike (the device's clock runs in real time)
    with Host(lambda: emu.port, settings={"strike": "0"}) as host:
        host.status(True)
        ringer = Ringer(switch=RingerSwitch(host.bridge), cadence=((2.0, 4.0),), wait=wait)
        try:
            ringer.ring()
            assert [steps.get(timeout=WAIT) for _ in range(4)] == [True, False, True, False]
            assert emu.fw.link.strike_hz == 0           # sent at connection, before the first ring
        finally:
            ringer.close()
        emu.settle(1)
        assert not emu.output("ringer")
        emu.unplug()
        host.status(False)
        RingerSwitch(host.bridge).off()                 # no error: the phone silences itself


def test_edge_times_keep_one_offset_through_a_burst():
    clock = DeviceClock()
    clock.sync(1_000_000, 101.000)
    first = clock.edge(1_500_000)
    clock.sync(2_000_000, 101.990)                      # a quicker sample: the offset moves 10 ms
    assert clock.edge(2_500_000) - first == pytest.approx(1.0)      # the device's interval
    assert clock.edge(20_000_000) == pytest.approx(20.0 + 99.990)   # after a pause: the new offset
