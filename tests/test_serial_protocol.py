"""Framing: every good frame comes through, nothing damaged does, and the reader is back in step
at the next frame whatever came before it."""

import random

import pytest
from hypothesis import given, settings, strategies as st
from pico_emulator import REPO

from controller.dial.decoder import DialEvent
from controller.serial import protocol as p

FRAMES = [
    p.encode(p.EVENT, "3fa2c901", 17, 52113000, "digit", 7, 7, 52009000),
    p.encode(p.EVENT, "3fa2c901", 18, 60000000, "fault", "the dial's pulse contacts, open: a $ * % \x03 é"),
    p.encode(p.BEAT, "3fa2c901", 61000000, 19, 19, 0),
    p.encode(p.ACK, "3fa2c901", 18),
    p.encode(p.COMMAND, "12", "ringer", "1"),
]


def test_crc_is_ccitt_false():
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16(b"") == 0xFFFF


def test_the_documented_example_frame_is_a_real_one():
    example = b"$E,3fa2c901,17,52113000,digit,7,7,52009000*059E\r\n"
    assert example == FRAMES[0]
    assert example[:-2].decode() + "\\r\\n" in (REPO / "docs" / "protocol.md").read_text()


def test_a_frame_is_one_printable_line_with_its_crc():
    frame = p.encode(p.ACK, "3fa2c901", 18)
    assert frame == b"$A,3fa2c901,18*%04X\r\n" % p.crc16(b"A,3fa2c901,18")
    for f in FRAMES:
        assert f.startswith(b"$") and f.endswith(b"\r\n")
        assert f.count(b"$") == 1 and f.count(b"\n") == 1
        assert all(0x20 <= b <= 0x7E for b in f[:-2])


def test_fields_round_trip_with_escapes():
    fields = p.FrameReader().feed(FRAMES[1])[0]
    assert fields == ["E", "3fa2c901", "18", "60000000", "fault",
                      "the dial's pulse contacts, open: a $ * % \x03 é"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=6), st.integers(min_value=-2**40, max_value=2**40)),
                min_size=1, max_size=4))
def test_any_text_and_numbers_round_trip(values):
    frame = p.encode(p.COMMAND, *(values + ["x"] * (3 - len(values)))[:3])
    got = p.FrameReader().feed(frame)
    assert got == [["C"] + [str(v) for v in (values + ["x"] * (3 - len(values)))[:3]]]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300), st.integers(min_value=1, max_value=64))
def test_garbage_around_frames_never_hides_them_and_chunking_does_not_matter(before, after, chunk):
    stream = before + b"\n" + b"".join(FRAMES) + after
    reader = p.FrameReader()
    got = []
    for i in range(0, len(stream), chunk):
        got.extend(reader.feed(stream[i:i + chunk]))
    assert got == p.FrameReader().feed(b"".join(FRAMES))


def test_every_single_byte_change_is_caught():
    for frame in FRAMES:
        for i in range(1, len(frame) - 2):
            for value in (0x00, 0x30, 0x41, 0x7A, frame[i] ^ 0x01, frame[i] ^ 0x20):
                if value == frame[i]:
                    continue
                damaged = frame[:i] + bytes([value]) + frame[i + 1:]
                reader = p.FrameReader()
                assert reader.feed(damaged) == [], (frame, i, value)
                assert reader.frames == 0


def test_every_dropped_byte_is_caught():
    for frame in FRAMES:
        for i in range(len(frame) - 2):     # the \r is optional: dropping it changes nothing
            reader = p.FrameReader()
            assert reader.feed(frame[:i] + frame[i + 1:]) == [], (frame, i)


def test_a_cut_frame_is_dropped_and_the_next_one_read():
    reader = p.FrameReader()
    got = reader.feed(FRAMES[0][:20] + FRAMES[2] + FRAMES[3][:-4])
    assert got == [p.parse(FRAMES[2][1:-1])]
    assert reader.bad == 1
    got = reader.feed(b"\x03\x03" + FRAMES[3])    # the cut frame ends at the next $
    assert got == [p.parse(FRAMES[3][1:-1])]
    assert reader.bad == 2


def test_a_line_without_a_start_is_skipped_whole():
    reader = p.FrameReader()
    assert reader.feed(FRAMES[0][1:] + FRAMES[2]) == [p.parse(FRAMES[2][1:-1])]
    assert reader.skipped == len(FRAMES[0]) - 3     # the \r\n of the headless line are not counted


def test_an_endless_line_is_dropped_without_growing():
    reader = p.FrameReader()
    assert reader.feed(b"$" + b"x" * 10000 + b"\n" + FRAMES[3]) == [p.parse(FRAMES[3][1:-1])]
    assert reader.bad == 1


def test_duplicated_frames_are_read_twice_the_host_drops_them_by_sequence():
    reader = p.FrameReader()
    assert len(reader.feed(FRAMES[0] * 3)) == 3


def test_lower_case_crc_and_wrong_shape_are_refused():
    body = b"A,3fa2c901,1"
    assert b"%04X" % p.crc16(body) != b"%04x" % p.crc16(body)
    assert p.FrameReader().feed(b"$%s*%04x\r\n" % (body, p.crc16(body))) == []
    assert p.FrameReader().feed(b"$%s*%04X\r\n" % (body, p.crc16(body))) != []
    body = b"A,3fa2c901"                      # an ack needs boot and seq
    assert p.FrameReader().feed(b"$%s*%04X\r\n" % (body, p.crc16(body))) == []
    body = b"Z,1"
    assert p.FrameReader().feed(b"$%s*%04X\r\n" % (body, p.crc16(body))) == []


def test_a_frame_longer_than_the_limit_is_refused_at_encoding():
    with pytest.raises(ValueError, match="longer than"):
        p.encode(p.REPLY, "1", "err", "x" * 300)
    with pytest.raises(ValueError, match="text or a whole number"):
        p.encode(p.REPLY, "1", 2.5)


def test_events_go_through_fields_and_back():
    digit = DialEvent(52113000, "digit", 7, pulses=7, last_edge=52009000)
    fields = p.FrameReader().feed(p.encode(p.EVENT, "b", 1, *p.event_fields(digit)))[0]
    assert p.parse_event(fields) == (52113000, "digit", 7, 7, 52009000)
    hook = DialEvent(5, "hook", "off")
    fields = p.FrameReader().feed(p.encode(p.EVENT, "b", 2, *p.event_fields(hook)))[0]
    assert p.parse_event(fields) == (5, "hook", "off", None, None)
    fault = DialEvent(6, "fault", "x, " * 100)
    fields = p.FrameReader().feed(p.encode(p.EVENT, "b", 3, *p.event_fields(fault)))[0]
    assert p.parse_event(fields)[2] == ("x, " * 100)[:p.MAX_TEXT]
    with pytest.raises(ValueError):
        p.parse_event(["E", "b", "4", "7", "digit", "12", "12", "5"])
    with pytest.raises(ValueError):
        p.parse_event(["E", "b", "4", "7", "hook", "maybe"])
    with pytest.raises(ValueError):
        p.parse_event(["E", "b", "4", "seven", "hook", "on"])


def test_states_text():
    assert p.format_states({"hook": 1}, ("hook", "pulse")) == "hook=1+pulse=0"
    assert p.parse_states("hook=1+pulse=0") == {"hook": 1, "pulse": 0}
    with pytest.raises(ValueError):
        p.parse_states("hook")


def test_random_noise_alone_yields_no_frame():
    rng = random.Random(7)
    reader = p.FrameReader()
    for _ in range(200):
        assert reader.feed(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))) == []
