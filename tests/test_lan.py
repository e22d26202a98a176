"""lan.py: the addresses a tablet types, said at install and in the log when the panel starts."""

import logging

from controller import lan
from newsdesk.cli import _say_where_tablets_go


def test_the_addresses_a_tablet_types():
    assert lan.tablet_urls("raspberrypi", 8080, ["192.0.2.7", "fd00::7"]) == [
        "http://raspberrypi.local:8080/", "http://192.0.2.7:8080/", "http://[fd00::7]:8080/"]
    assert not any(a.startswith("127.") for a in lan.ipv4_addresses())
    assert lan.listening_on_lan("0.0.0.0") and not lan.listening_on_lan("127.0.0.1")


def test_the_log_says_where_tablets_go_only_when_they_can(caplog, monkeypatch):
    monkeypatch.setattr(lan, "ipv4_addresses", lambda: ["192.0.2.7"])
    with caplog.at_level(logging.INFO, logger="newsdesk.cli"):
        _say_where_tablets_go("127.0.0.1", 8080)
        assert "tablets" not in caplog.text
        _say_where_tablets_go("0.0.0.0", 8080)
    assert ".local:8080/ or http://192.0.2.7:8080/" in caplog.text


def test_the_urls_said_are_handed_on_for_the_window(monkeypatch):
    monkeypatch.setattr(lan, "ipv4_addresses", lambda: ["192.0.2.7"])
    assert _say_where_tablets_go("127.0.0.1", 8080) == []
    urls = _say_where_tablets_go("0.0.0.0", 8080)
    assert urls[-1] == "http://192.0.2.7:8080/" and urls[0].endswith(".local:8080/")
