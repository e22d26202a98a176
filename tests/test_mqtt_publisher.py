"""The publisher's settings, read from the Config, and the panel's address it gives Home
Assistant. The publisher against a real broker is in test_mqtt.py."""

import socket
from dataclasses import replace

from controller.games import registry
from controller.games.scan import GAME as SCAN
from controller.mqtt import publisher
from controller.mqtt.publisher import Settings, panel_url


def test_the_panel_link_is_none_on_loopback_and_the_hosts_name_otherwise():
    assert panel_url("127.0.0.1", 8080) is None and panel_url("localhost", 8080) is None
    assert panel_url("0.0.0.0", 8081) == "http://%s.local:8081/" % socket.gethostname().split(".")[0]


def test_discovery_off_and_no_commands_are_said_as_none():
    s = Settings("mqtt://b", "newsdesk/t1", "t1", discovery="off", commands=())
    assert s.discovery is None and s.commands == ()
    assert Settings("mqtt://b", "newsdesk/t1", "t1").discovery == "homeassistant"


def test_a_finished_game_is_sent_with_its_engines_lower_wins(monkeypatch):
    """What the table tells the league of a finished game: whether its engine's lowest score
    wins (False for an engine that is gone, or for a game id that is no engine's name)."""
    countdown = replace(SCAN, panel=dict(SCAN.panel, lower_wins=True))
    real = registry.load
    monkeypatch.setattr(registry, "load", lambda name, *more: countdown if name == "darts_golf" else real(name, *more))
    assert publisher._engine_lower_wins("darts_golf") is True
    assert publisher._engine_lower_wins("scan") is False
    assert publisher._engine_lower_wins("no_such_game") is False and publisher._engine_lower_wins(None) is False
