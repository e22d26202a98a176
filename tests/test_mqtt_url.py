"""Broker addresses: mqtt:// and mqtts:// URLs parsed, and a bad one said without its password."""

import pytest

from controller.errors import ConfigError
from controller.mqtt.url import parse_mqtt_url


def test_broker_addresses_parse_and_bad_ones_say_why_without_the_password():
    b = parse_mqtt_url("mqtts://ann:s%40cret@broker.lan")
    assert (b.host, b.port, b.tls, b.username, b.password) == ("broker.lan", 8883, True, "ann", "s@cret")
    assert str(b) == "mqtts://ann@broker.lan:8883"
    assert parse_mqtt_url("mqtt://10.0.0.2:1884").port == 1884
    for bad in ("http://ann:hunter2@host", "mqtt://", "mqtt://host:99999", "mqtt://host/path", "host:1883"):
        with pytest.raises(ConfigError) as e:
            parse_mqtt_url(bad)
        assert "hunter2" not in str(e.value)
