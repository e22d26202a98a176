"""The bell's button on MQTT: a press is taken at most once a second, anything else refused."""

from controller.mqtt.bell import BellCommands


def test_bell_requests_are_taken_at_most_once_a_second():
    bell = BellCommands()
    assert bell.request(b"PRESS", 10.0) == (True, 2)
    assert bell.request(b"PRESS", 10.5)[0] is False
    assert bell.request(b"ring it", 12.0)[0] is False
    assert bell.request(b"PRESS", 11.0)[0] is True
    assert (bell.taken, bell.refused) == (2, 2)
