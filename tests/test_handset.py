import pytest

from controller.dial.handset import Handset


def _kinds(events):
    return [(round(e.t, 3), e.kind) for e in events]


def test_lift_flash_and_hang_up():
    h = Handset(flash_max=1.0)
    out = h.hook(1.0, "off")
    out += h.hook(5.0, "on")
    assert h.deadline() == 6.0
    out += h.advance(5.5)
    out += h.hook(5.6, "off")          # back within a second: a flash
    out += h.hook(8.0, "on")
    out += h.advance(8.9)
    assert h.deadline() == 9.0
    out += h.advance(12.0)             # stayed down: hung up, at the moment it became certain
    assert _kinds(out) == [(1.0, "lift"), (5.6, "flash"), (9.0, "hang_up")]
    assert h.deadline() is None


def test_repeated_states_change_nothing():
    h = Handset()
    assert _kinds(h.hook(1.0, "off") + h.hook(1.2, "off")) == [(1.0, "lift")]
    assert h.hook(2.0, "on") == [] and h.hook(2.1, "on") == []


def test_a_late_lift_after_the_deadline_is_hang_up_then_lift():
    h = Handset(flash_max=0.8)
    h.hook(0.0, "off")
    h.hook(1.0, "on")
    assert _kinds(h.hook(3.0, "off")) == [(1.8, "hang_up"), (3.0, "lift")]


def test_silly_flash_limits_are_refused():
    with pytest.raises(ValueError):
        Handset(flash_max=0)


def test_the_flash_boundary_is_flash_max_on_the_cradle():
    h = Handset(flash_max=1.0)
    h.hook(0.0, "off")
    h.hook(2.0, "on")
    assert _kinds(h.hook(2.999, "off")) == [(2.999, "flash")]      # just under: a flash
    h.hook(5.0, "on")
    assert _kinds(h.hook(6.0, "off")) == [(6.0, "hang_up"), (6.0, "lift")]   # a full second: hung up
