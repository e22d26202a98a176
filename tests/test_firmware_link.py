"""The device's end of the protocol (firmware/link.py), as flashed, with time driven by hand."""

import pytest
from pico_emulator import Board, Clock, load_firmware, stage

from controller.dial.decoder import SETTLE
from controller.dial.pulses import digit_edges
from controller.serial import protocol as p

S = 1_000_000   # microseconds
HOOK_SETTLE = int(SETTLE["hook"] * S + 0.5)


@pytest.fixture(scope="module")
def fw(tmp_path_factory):
    folder = stage(tmp_path_factory.mktemp("pico"))
    return load_firmware(folder, Board(folder, Clock()))


@pytest.fixture
def link(fw):
    return fw["link"].Link("0badcafe", 0)


def frames(link):
    return p.FrameReader().feed(link.take())


def kinds(fs):
    return [f[0] for f in fs]


def send(link, now, kind, *fields):
    link.received(p.encode(kind, *fields), now)


def dial(link, digit, t0, **kw):
    edges, last = digit_edges(digit, **kw)
    for t, line, state in edges:
        link.edge(t0 + int(t * S), line, state)
    return t0 + int(last * S)


def test_a_decoded_event_goes_out_numbered_and_is_sent_again_until_acknowledged(fw, link):
    Link = fw["link"]
    assert kinds(frames(link)) == []
    link.poll(0)
    assert kinds(frames(link)) == ["B"]                     # a heartbeat at once
    link.edge(10_000, "hook", 1)
    link.poll(40_000)
    (event,) = frames(link)
    assert event[:6] == ["E", "0badcafe", "1", str(10_000 + HOOK_SETTLE), "hook", "off"]
    link.poll(40_000 + Link.RESEND_US - 1)
    assert frames(link) == []
    link.poll(40_000 + Link.RESEND_US)
    assert frames(link) == [event]                          # the same bytes again
    link.poll(40_000 + 2 * Link.RESEND_US)
    assert frames(link) == []                               # backing off: next after 2x
    link.poll(40_000 + 3 * Link.RESEND_US)
    assert frames(link) == [event]
    send(link, 900_000, p.ACK, "0badcafe", 1)
    link.poll(10 * Link.RESEND_US)
    assert [f for f in frames(link) if f[0] == "E"] == []


def test_an_ack_for_another_boot_acknowledges_nothing(fw, link):
    link.edge(10_000, "hook", 1)
    link.poll(40_000)
    link.take()
    send(link, 50_000, p.ACK, "11111111", 5)
    link.poll(40_000 + fw["link"].RESEND_US)
    assert kinds(frames(link)) == ["E"]


def test_a_digit_carries_its_pulses_and_last_edge(link):
    last = dial(link, 7, 1 * S)
    link.poll(last + 300_000)
    (digit,) = [f for f in frames(link) if f[0] == "E"]
    t, kind, value, pulses, last_edge = p.parse_event(digit)
    assert (kind, value, pulses, last_edge) == ("digit", 7, 7, last)
    assert last < t < last + 300_000


def test_the_handshake_answers_with_the_boot_and_sends_pending_frames_at_once(fw, link):
    link.edge(10_000, "hook", 1)
    link.poll(40_000)
    link.take()
    send(link, 60_000, p.QUERY, p.PROTOCOL)
    hello, event = frames(link)
    assert hello == ["H", str(p.PROTOCOL), "0badcafe", "60000", "1", "2", fw["link"].FIRMWARE,
                     fw["link"].CAPS, "power", "hook=1+pulse=0+offnormal=0"]
    assert event[0] == "E" and event[2] == "1"


def test_heartbeats_say_where_the_kept_frames_begin(fw, link):
    link.poll(0)
    assert frames(link)[0] == ["B", "0badcafe", "0", "1", "1", "0"]
    link.edge(10_000, "hook", 1)
    link.poll(S)
    beat = [f for f in frames(link) if f[0] == "B"]
    assert beat == [["B", "0badcafe", str(S), "1", "2", "0"]]
    send(link, S + 1, p.ACK, "0badcafe", 1)
    link.poll(2 * S)
    assert [f for f in frames(link) if f[0] == "B"] == [["B", "0badcafe", str(2 * S), "2", "2", "0"]]


def test_a_full_queue_drops_raw_edges_before_events(fw, link):
    Link = fw["link"]
    send(link, 0, p.COMMAND, "1", "raw", "1")
    link.edge(10_000, "hook", 1)
    link.poll(50_000)                                       # R 1, E 2 (hook off)
    t = 100_000
    for i in range(Link.QUEUE_SIZE + 10):
        link.edge(t, "offnormal", i % 2)                  # raw edges (the decoder debounces them away)
        t += 100
    assert link.dropped == 12                               # 140 frames for 128 places
    link.take()
    link.poll(t + Link.BEAT_US)
    beat = [f for f in frames(link) if f[0] == "B"][-1]
    assert beat[3] == "2" and beat[5] == "12"             # the hook event (2) kept; R 1 went first
    send(link, t + Link.BEAT_US, p.QUERY, 1)
    resent = [f for f in frames(link) if f[0] in "ER"]
    assert len(resent) == Link.RESEND_BURST
    assert [f[2] for f in resent[:3]] == ["2", "14", "15"]  # then the newest raw edges


def test_commands_set_outputs_and_decoding(fw, link):
    send(link, 0, p.COMMAND, "1", "ringer", "1")
    send(link, 0, p.COMMAND, "2", "led", "off")
    send(link, 0, p.COMMAND, "3", "dial_map", "new-zealand")
    send(link, 0, p.COMMAND, "4", "offnormal", "wired")
    send(link, 0, p.COMMAND, "5", "dial_map", "mars")
    send(link, 0, p.COMMAND, "6", "offnormal", "sometimes")
    send(link, 0, p.COMMAND, "7", "volume", "11")
    replies = [f for f in frames(link) if f[0] == "K"]
    assert [r[:3] for r in replies] == [["K", "1", "ok"], ["K", "2", "ok"], ["K", "3", "ok"],
                                        ["K", "4", "ok"], ["K", "5", "err"], ["K", "6", "err"],
                                        ["K", "7", "err"]]
    assert "mars" in replies[4][3]
    assert link.outputs(0) == (True, False)
    assert (link.dial_map, link.offnormal) == ("new-zealand", "wired")
    dial(link, 3, S, dial_map="new-zealand")
    link.poll(3 * S)
    digit = [f for f in frames(link) if f[0] == "E"][0]
    assert p.parse_event(digit)[1:3] == ("digit", 3)


def test_raw_edges_on_request_with_the_lines_states(link):
    link.edge(5_000, "hook", 1)
    send(link, 10_000, p.COMMAND, "9", "raw", "1")
    (reply,) = [f for f in frames(link) if f[0] == "K"]
    assert reply == ["K", "9", "ok", "hook=1+pulse=0+offnormal=0"]
    link.edge(20_000, "pulse", 1)
    link.edge(20_500, "pulse", 0)
    raw = [f for f in frames(link) if f[0] == "R"]
    assert [f[3:] for f in raw] == [["20000", "pulse", "1"], ["20500", "pulse", "0"]]
    send(link, 30_000, p.COMMAND, "10", "raw", "0")
    link.edge(40_000, "pulse", 1)
    assert [f for f in frames(link) if f[0] == "R"] == []


def test_a_silent_host_is_gone_the_ringer_stops_and_recording_ends(fw, link):
    Link = fw["link"]
    send(link, 0, p.COMMAND, "1", "ringer", "1")
    send(link, 0, p.COMMAND, "2", "raw", "1")
    send(link, 0, p.COMMAND, "3", "led", "blink")
    link.poll(Link.HOST_GONE_US)
    assert link.host and link.ringer
    link.poll(Link.HOST_GONE_US + 1)
    assert not link.host
    assert (link.ringer, link.raw, link.led) == (False, False, "auto")


def test_the_led(link):
    assert [link.outputs(t)[1] for t in (0, 50_000, 200_000, 999_999)] == [True, True, False, False]
    send(link, 0, p.QUERY, 1)
    assert link.outputs(500_000) == (False, True)          # a host: steady
    send(link, 0, p.COMMAND, "1", "led", "blink")
    assert [link.outputs(t)[1] for t in (0, 250_000, 500_000)] == [True, False, True]
    send(link, 0, p.COMMAND, "2", "led", "on")
    assert link.outputs(250_000)[1] is True


def test_garbage_and_ctrl_c_from_the_host_are_skipped(link):
    link.received(b"\x03\x03garbage\r\n$Q,1*0000\r\n\x03", 0)
    assert frames(link) == []
    assert link.reader.bad == 1 and link.reader.skipped >= 9
    assert not link.host
    send(link, 0, p.QUERY, 1)
    assert kinds(frames(link)) == ["H"]


def test_maintenance_is_asked_for_and_answered_before_main_acts(link):
    send(link, 0, p.COMMAND, "4", "maint", "1")
    assert link.maintenance
    assert frames(link) == [["K", "4", "ok"]]


def test_an_edge_out_of_time_order_is_counted_not_raised(link):
    link.edge(50_000, "hook", 1)
    link.edge(40_000, "hook", 0)
    assert link.bad_edges == 1


def test_deadline_is_the_next_thing_to_do(fw, link):
    Link = fw["link"]
    link.poll(0)
    assert link.deadline() == Link.BEAT_US
    link.edge(10_000, "hook", 1)
    assert link.deadline() == 10_000 + HOOK_SETTLE        # the hook's debounce
    link.poll(40_000)
    assert link.deadline() == 40_000 + Link.RESEND_US


# --- the bell: the Pico strikes the solenoid itself; only the cadence crosses the cable ---

def test_the_ringer_strikes_at_the_rate_the_host_sends(fw, link):
    Link = fw["link"]
    from controller.hw.bell import STRIKE_DUTY, STRIKE_HZ
    assert Link.STRIKE_HZ == STRIKE_HZ and Link.STRIKE_DUTY_PCT == round(STRIKE_DUTY * 100)
    send(link, 7 * S, p.COMMAND, "1", "ringer", "1")       # the ring starts on a whole strike
    on = [link.outputs(7 * S + ms * 1000)[0] for ms in range(0, 100, 5)]
    assert on == [True] * 4 + [False] * 6 + [True] * 4 + [False] * 6       # 20 ms of each 50 ms
    link.poll(7 * S + 3000)
    assert link.deadline() == 7 * S + 20_000                # the loop wakes for the strike's end
    send(link, 7 * S, p.COMMAND, "2", "strike", "25")
    assert [link.outputs(7 * S + us)[0] for us in (0, 15_999, 16_000, 40_000)] == [True, True, False, True]
    send(link, 7 * S, p.COMMAND, "3", "strike", "0")       # held on, for a driver that wants a level
    assert all(link.outputs(7 * S + ms * 1000)[0] for ms in range(0, 100, 7))
    for n, bad in enumerate(("4", "41", "fast", "-5", "")):
        send(link, 0, p.COMMAND, str(10 + n), "strike", bad)
    replies = [f for f in frames(link) if f[0] == "K"]
    assert [r[2] for r in replies] == ["ok"] * 3 + ["err"] * 5
    assert link.strike_hz == 0 and "5-40" in replies[-1][3]
    send(link, 8 * S, p.COMMAND, "20", "ringer", "0")
    assert link.outputs(8 * S)[0] is False


def test_lost_edges_are_reported_once_per_loss(link):
    link.lost(0, 1000)
    assert frames(link) == []
    link.lost(3, 2000)
    link.lost(3, 3000)                                      # nothing new lost: nothing said
    link.lost(5, 4000)
    faults = [f for f in frames(link) if f[0] == "E"]
    assert [p.parse_event(f)[:2] for f in faults] == [(2000, "fault"), (4000, "fault")]
    assert faults[0][5].startswith("3 contact edge(s) lost") and faults[1][5].startswith("2 contact")


def test_the_phones_profile_ratio_is_the_decoders_starting_point(fw):
    """The host sends the phone's profile ("ratio"): a one-pulse first digit is decided sooner,
    the ratio outlives a change of dial map, and a ratio no dial has is refused."""
    def one_pulse_deadline(link):
        last = dial(link, 1, S, offnormal=False)
        link.poll(last + 10_000)             # the make is under way, the digit not yet decided
        return link.decoder.deadline()

    plain, profiled = fw["link"].Link("0badcafe", 0), fw["link"].Link("0badcafe", 0)
    send(profiled, 0, p.COMMAND, "1", "ratio", "0.667")
    send(profiled, 0, p.COMMAND, "2", "dial_map", "sweden")
    send(profiled, 0, p.COMMAND, "3", "dial_map", "standard")
    send(profiled, 0, p.COMMAND, "4", "ratio", "7")
    send(profiled, 0, p.COMMAND, "5", "ratio", "fast")
    replies = [f[:3] for f in frames(profiled) if f[0] == "K"]
    assert replies == [["K", "1", "ok"], ["K", "2", "ok"], ["K", "3", "ok"], ["K", "4", "err"], ["K", "5", "err"]]
    assert one_pulse_deadline(profiled) < one_pulse_deadline(plain) - 20_000


def test_a_ring_whose_off_was_lost_stops_by_itself(fw, link):
    """The host turns the ringer on for each ring of its cadence (at most MAX_ON_S) and off after
    it; an "off" lost on the cable, with the host still there, would leave the Pico striking the
    coil until its thermal cutoff opened (and was spent). Each "on" lasts RING_ON_MOST_US at most."""
    Link = fw["link"]
    from controller.hw.ringer import MAX_ON_S
    assert MAX_ON_S * S < Link.RING_ON_MOST_US <= 2 * MAX_ON_S * S

    def host_there(start, end):
        """The host answers every second from ``start`` to ``end``, and says nothing of the bell."""
        for t in range(start + S, end + 1, S):
            send(link, t, p.QUERY, str(t))
            link.poll(t)
            assert link.host

    send(link, 0, p.COMMAND, "1", "ringer", "1")
    host_there(0, 6 * S)
    assert link.ringer
    send(link, 6 * S, p.COMMAND, "2", "ringer", "1")       # the next ring: as long again from here
    end = 6 * S + Link.RING_ON_MOST_US
    host_there(6 * S, end - end % S)
    link.poll(end)
    assert link.ringer and link.deadline() <= end + 1
    link.poll(end + 1)
    assert link.host and not link.ringer and link.outputs(end + 1)[0] is False
