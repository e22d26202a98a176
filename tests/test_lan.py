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


class Done:
    def __init__(self, code, out):
        self.returncode, self.stdout = code, out


def test_the_name_avahi_announces_is_asked_of_avahi():
    """Two boxes called raspberrypi on one network: avahi makes the second raspberrypi-2.local,
    and hostname + ".local" would send a tablet to the other box."""
    assert lan.announced_name(lambda *a, **k: Done(0, 's "raspberrypi-2.local"\n')) == "raspberrypi-2.local"
    for said in (Done(1, ""), Done(0, "s \"\"\n"), Done(0, 's "x; rm -rf /"\n'), Done(0, "garbage")):
        assert lan.announced_name(lambda *a, said=said, **k: said) is None

    def missing(*a, **k):
        raise FileNotFoundError(2, "No such file", "busctl")
    assert lan.announced_name(missing) is None
    assert lan.tablet_urls("raspberrypi", 8080, ["192.0.2.7"], local="raspberrypi-2.local")[0] == \
        "http://raspberrypi-2.local:8080/"


def test_the_log_says_the_name_avahi_gave_when_it_is_not_the_hostnames(caplog, monkeypatch):
    from newsdesk.cli import _say_announced_name
    monkeypatch.setattr(lan, "ipv4_addresses", lambda: ["192.0.2.7"])
    monkeypatch.setattr(lan, "announced_name", lambda run=None: "raspberrypi-2.local")
    monkeypatch.setattr(lan.socket, "gethostname", lambda: "raspberrypi")
    with caplog.at_level(logging.INFO, logger="newsdesk.cli"):
        _say_announced_name("0.0.0.0", 8080)
    assert "avahi announces this box as raspberrypi-2.local (another box on the network is raspberrypi.local)" \
        in caplog.text and "http://raspberrypi-2.local:8080/" in caplog.text
    caplog.clear()
    monkeypatch.setattr(lan, "announced_name", lambda run=None: "raspberrypi.local")
    with caplog.at_level(logging.INFO, logger="newsdesk.cli"):
        _say_announced_name("0.0.0.0", 8080)
    assert caplog.text == ""
