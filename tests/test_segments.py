"""Seven-segment digits: every character the window shows lights its own segments, a to g."""

from controller.hw.segments import SEGMENTS


def test_each_digit_lights_its_own_segments_and_eight_lights_them_all():
    digits = [SEGMENTS[d] for d in "0123456789"]
    assert all(set(segs) <= set("abcdefg") for segs in SEGMENTS.values())
    assert len({frozenset(segs) for segs in digits}) == 10          # no two digits look alike
    assert set(SEGMENTS["8"]) == set("abcdefg") and SEGMENTS["1"] == "bc" and SEGMENTS["-"] == "g"
