"""Clean pulse trains: the edges an ideal dial's contacts make for one digit."""

import pytest

from controller.dial.pulses import digit_edges


def test_a_digit_is_its_pulses_at_the_dials_speed_and_break():
    edges, last = digit_edges(3, t0=1.0, pps=10.0, break_ratio=0.6, wind_up=0.35)
    breaks = [t for t, line, state in edges if line == "pulse" and state == 1]
    makes = [t for t, line, state in edges if line == "pulse" and state == 0]
    assert breaks == pytest.approx([1.35, 1.45, 1.55]) and makes == pytest.approx([1.41, 1.51, 1.61])
    assert last == pytest.approx(1.61)
    assert edges[0] == (1.0, "offnormal", 1)                       # the finger pulls the dial off rest
    assert edges[-1][1:] == ("offnormal", 0) and edges[-1][0] == pytest.approx(1.81)   # two steps after


def test_the_dial_map_and_the_off_normal_wiring_are_followed():
    edges, _ = digit_edges(0, dial_map="sweden", offnormal=False)
    assert [line for _, line, _ in edges] == ["pulse"] * 2
    assert len(digit_edges(0)[0]) == 2 * 10 + 2


@pytest.mark.parametrize("kw", [dict(pps=0.5), dict(pps=40.0), dict(break_ratio=0.95)])
def test_what_no_rotary_dial_does_is_refused(kw):
    with pytest.raises(ValueError, match="rotary dial"):
        digit_edges(1, **kw)
