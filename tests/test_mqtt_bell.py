"""The bell's button on MQTT: a press is taken at most once a second, anything else refused."""

from controller.mqtt.bell import BellCommands, Refusals


def test_bell_requests_are_taken_at_most_once_a_second():
    bell = BellCommands()
    assert bell.request(b"PRESS", 10.0) == (True, 2)
    assert bell.request(b"PRESS", 10.5)[0] is False
    assert bell.request(b"ring it", 12.0)[0] is False
    assert bell.request(b"PRESS", 11.0)[0] is True
    assert (bell.taken, bell.refused) == (2, 2)


def test_a_flood_of_refusals_is_told_once_then_counted_a_minute_and_evented_a_second_at_most():
    told = Refusals(log_every=60.0, event_gap=1.0)
    assert told.refused("first", 100.0) == (True, True)       # a refusal on its own: told whole
    assert told.refused("second", 100.5) == (False, False)
    assert told.refused("third", 101.0) == (False, True)      # a second on: one more event
    assert told.count_due(159.9) is None
    assert told.count_due(160.0) == (2, "third")              # the minute over: its count, once
    assert told.count_due(220.0) is None                      # a quiet minute: nothing to say
    assert told.refused("after", 230.0) == (True, True)       # and the next is told whole again
