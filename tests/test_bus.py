from controller.bus import Bus


def test_every_subscriber_gets_every_message():
    bus = Bus()
    a, b = bus.subscribe(), bus.subscribe()
    bus.publish({"type": "x", "n": 1})
    assert a.get(0.1) == {"type": "x", "n": 1}
    assert b.get(0.1) == {"type": "x", "n": 1}
    assert a.get(0.01) is None


def test_a_slow_subscriber_is_marked_lagged_not_blocking():
    bus = Bus()
    slow = bus.subscribe(maxsize=2)
    for n in range(5):
        bus.publish({"type": "x", "n": n})
    assert slow.lagged
    assert [slow.get(0.1)["n"], slow.get(0.1)["n"]] == [0, 1]


def test_closed_subscriptions_stop_receiving():
    bus = Bus()
    with bus.subscribe() as sub:
        assert bus.subscriber_count == 1
    assert bus.subscriber_count == 0
    bus.publish({"type": "x"})
    assert sub.get(0.01) is None


def test_a_subscriber_of_some_kinds_gets_only_those():
    bus = Bus()
    some, every = bus.subscribe(kinds={"dice.roll"}), bus.subscribe()
    bus.publish({"type": "game.changed", "n": 1})
    bus.publish({"type": "dice.roll", "n": 2})
    assert some.get(0.1) == {"type": "dice.roll", "n": 2}
    assert some.get(0.01) is None
    assert [every.get(0.1)["n"], every.get(0.1)["n"]] == [1, 2]
