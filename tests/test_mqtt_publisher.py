"""The publisher's settings, read from the Config, and the panel's address it gives Home
Assistant. The publisher against a real broker is in test_mqtt.py."""

import socket

from controller.mqtt.publisher import Settings, panel_url


def test_the_panel_link_is_none_on_loopback_and_the_hosts_name_otherwise():
    assert panel_url("127.0.0.1", 8080) is None and panel_url("localhost", 8080) is None
    assert panel_url("0.0.0.0", 8081) == "http://%s.local:8081/" % socket.gethostname().split(".")[0]


def test_discovery_off_and_no_commands_are_said_as_none():
    s = Settings("mqtt://b", "newsdesk/t1", "t1", discovery="off", commands=())
    assert s.discovery is None and s.commands == ()
    assert Settings("mqtt://b", "newsdesk/t1", "t1").discovery == "homeassistant"
