"""The host's end of the link (controller/serial/session.py) against the firmware's own Link,
both pure: no port, no thread, time moved by hand, and a wire that loses and repeats frames
as the test says. What the pseudo-terminal tests (test_serial_bridge.py) show through real
ports, these show exactly, frame by frame."""

import random

import pytest
from pico_emulator import Board, Clock, load_firmware, stage

from controller.dial.pulses import digit_edges
from controller.serial import protocol as p
from controller.serial.errors import PhoneLinkError, ProtocolMismatch
from controller.serial.session import COMMAND_RESEND, HELLO_RETRY, SILENCE, HostSession

S = 1_000_000
OFFSET = 500.0          # the host's clock reads this much more than the device's


@pytest.fixture(scope="module")
def fw(tmp_path_factory):
    folder = stage(tmp_path_factory.mktemp("pico"))
    return load_firmware(folder, Board(folder, Clock()))


class Wire:
    """A Link and a HostSession joined by a wire; ``drop(frame bytes) -> bool`` loses frames,
    ``repeat`` sends each device frame twice."""

    def __init__(self, fw, boot="0badcafe", settings=None, **kw):
        self.fw = fw
        self.link = fw["link"].Link(boot, 0)
        self.host = HostSession(settings, **kw)
        self.us = 0
        self.offset = OFFSET      # host clock = device clock + offset
        self.drop = lambda frame: False
        self.repeat = False
        self.got = []
        self.host.connect("/dev/ttyACM0", self.now)

    @property
    def now(self):
        return self.us / S + self.offset

    def step(self, us=10_000):
        """Time moves on by ``us``; both ends poll and what each sent crosses the wire."""
        self.us += us
        self.link.poll(self.us)
        self.host.poll(self.now)
        for frame in _split(self.host.take()):
            if not self.drop(frame):
                self.link.received(frame, self.us)
        for frame in _split(self.link.take()):
            if not self.drop(frame):
                self.got += self.host.received(frame * (2 if self.repeat else 1), self.now)

    def run(self, seconds):
        for _ in range(int(seconds * 100)):
            self.step()

    def dial(self, digit):
        edges, last = digit_edges(digit)
        t0 = self.us
        for t, line, state in edges:
            self.link.edge(t0 + int(t * S), line, state)
        self.us = t0 + int(last * S)
        self.run(0.5)

    def digits(self):
        return [item[1].value for item in self.got if item[0] == "event" and item[1].kind == "digit"]


def _split(data):
    return [line + b"\n" for line in data.split(b"\n") if line]


def test_the_handshake_connects_and_sends_the_settings_which_the_phone_applies(fw):
    wire = Wire(fw, settings={"dial_map": "sweden", "strike": "25"})
    assert not wire.host.connected
    wire.step()
    assert wire.host.connected
    hello = [item for item in wire.got if item[0] == "hello"]
    assert hello == [("hello", {"boot": "0badcafe", "firmware": fw["link"].FIRMWARE,
                                "caps": fw["link"].CAPS.split("+"), "reset": "power",
                                "states": {"hook": 0, "pulse": 0, "offnormal": 0}})]
    wire.run(0.1)
    assert wire.link.dial_map == "sweden" and wire.link.strike_hz == 25


def test_every_digit_arrives_once_and_in_order_through_a_wire_that_loses_and_repeats(fw):
    rng = random.Random(17)
    wire = Wire(fw)
    wire.step()
    wire.drop = lambda frame: rng.random() < 0.3         # both ways: events, acks, beats
    wire.repeat = True
    dialed = [rng.randrange(10) for _ in range(12)]
    for d in dialed:
        wire.dial(d)
    wire.drop = lambda frame: False
    wire.run(5)                                          # resends at their backed-off pace
    assert wire.digits() == dialed
    assert wire.host.stats["duplicates"] > 0 and wire.host.stats["delivered"] >= len(dialed)
    assert wire.link._pending == []                      # everything acknowledged


def test_a_replug_delivers_what_was_missed_and_nothing_twice(fw):
    wire = Wire(fw)
    wire.step()
    wire.dial(3)
    wire.drop = lambda frame: True                       # unplugged: the phone keeps dialing
    wire.dial(5)
    wire.dial(8)
    wire.host.disconnect()
    wire.drop = lambda frame: False
    wire.host.connect("/dev/ttyACM0", wire.now)
    wire.run(0.5)
    assert wire.digits() == [3, 5, 8]
    assert len([item for item in wire.got if item[0] == "hello"]) == 2


def test_a_reboot_starts_the_count_again_and_its_clock_afresh(fw):
    wire = Wire(fw)
    wire.step()
    wire.dial(4)
    rebooted = wire.now
    wire.link = fw["link"].Link("feedf00d", 0, reset_cause="watchdog")
    wire.us, wire.offset = 0, rebooted                   # a new boot's clock starts at zero
    wire.step()                                          # its heartbeat names a boot we don't know
    wire.run(0.1)
    wire.dial(6)
    assert wire.digits() == [4, 6]
    assert wire.host.device["boot"] == "feedf00d" and wire.host.device["reset"] == "watchdog"
    (six,) = [item[1] for item in wire.got if item[0] == "event" and item[1].value == 6]
    assert rebooted < six.t < wire.now                   # dated on the host's clock, not at 0


def test_no_answer_to_the_handshake_and_then_silence_each_end_the_connection(fw):
    host = HostSession(hello_timeout=1.0)
    host.connect("/dev/ttyACM9", 10.0)
    host.poll(10.0)
    host.poll(10.0 + HELLO_RETRY / 2)
    host.poll(10.0 + HELLO_RETRY)
    assert [f[0] for f in p.FrameReader().feed(host.take())] == ["Q", "Q"]   # asked again
    with pytest.raises(PhoneLinkError, match="no newsdesk phone answers on /dev/ttyACM9"):
        host.poll(11.01)
    wire = Wire(fw)
    wire.step()
    wire.drop = lambda frame: True
    with pytest.raises(PhoneLinkError, match="no heartbeat for 3.5"):
        wire.run(SILENCE + 0.1)


def test_a_command_is_resent_until_answered_and_its_reply_comes_once(fw):
    wire = Wire(fw)
    wire.step()
    lost = [True]

    def drop(frame):                                     # the first sending is lost
        if frame.startswith(b"$C") and lost:
            lost.pop()
            return True
        return False
    wire.drop = drop
    cid = wire.host.command("raw", "1", wire.now)
    wire.run(COMMAND_RESEND + 0.05)
    (reply,) = [item for item in wire.got if item[0] == "reply"]
    assert reply[:3] == ("reply", cid, True) and p.parse_states(reply[3]) == {"hook": 0, "pulse": 0, "offnormal": 0}
    assert wire.link.raw
    refused = wire.host.command("led", "disco", wire.now)
    wire.run(0.05)
    assert ("reply", refused, False, "unknown command led=disco") in wire.got
    forgotten = wire.host.command("led", "on", wire.now)
    wire.host.forget(forgotten)
    wire.run(0.05)
    assert not any(item[0] == "reply" and item[1] == forgotten for item in wire.got)


def test_a_refused_setting_is_logged_not_handed_on(fw, caplog):
    wire = Wire(fw, settings={"offnormal": "sometimes"})
    wire.run(0.1)
    assert [item for item in wire.got if item[0] == "reply"] == []
    assert "refused offnormal=sometimes" in caplog.text


def test_malformed_frames_are_counted_and_a_bad_event_does_not_block_the_next(fw):
    wire = Wire(fw)
    wire.step()
    boot = wire.link.boot
    seq = wire.link._seq + 1
    got = wire.host.received(p.encode(p.EVENT, boot, seq, "soon", "digit", "7"), wire.now)
    assert got == [] and wire.host.stats["malformed"] == 1
    got = wire.host.received(p.encode(p.EVENT, boot, seq + 1, 5_000, "digit", "7", 7, 4_000),
                             wire.now)
    assert [(item[0], item[1].value) for item in got] == [("event", 7)]
    assert wire.host.received(b"$E,garbage*0000\r\n\x00\xff", wire.now) == []
    wire.host.disconnect()
    assert wire.host.stats["bad_frames"] + wire.host.stats["skipped_bytes"] > 0


def test_a_phone_speaking_another_protocol_is_told_to_be_flashed():
    host = HostSession()
    host.connect("/dev/ttyACM0", 0.0)
    hello = p.encode(p.HELLO, p.PROTOCOL + 1, "0badcafe", 0, 1, 1, "9.0", "dial", "power", "hook=0")
    with pytest.raises(ProtocolMismatch, match="speaks protocol 2 .*make flash"):
        host.received(hello, 0.0)
