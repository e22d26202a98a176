"""The health strip: each part of the box in one vocabulary (ok, warn, fault, absent), the worst
as the overall, a part that knows its own state taken at its word; pure, then on the panel."""

import pytest

from controller import health
from controller.pinmap import load_pinmap


def test_each_part_is_read_off_the_settings_and_the_pin_map():
    strip = health.report(load_pinmap(), simulated=False, pins_said="lgpio", buttons="wired", display_setting="none")
    parts = {p["part"]: p for p in strip["parts"]}
    assert list(parts) == ["phone", "buttons", "display", "audio"]
    assert parts["phone"]["status"] == "ok" and "GPIO17" in parts["phone"]["summary"]
    assert parts["display"]["status"] == "absent" and parts["audio"]["status"] == "absent"
    assert strip["overall"] == "ok"


def test_the_worst_part_is_the_overall_and_a_part_speaks_for_itself():
    class Player:
        def health(self):
            return {"status": "warn", "summary": "No sound card answered."}

    strip = health.report(load_pinmap(), simulated=True, pins_said="mock", player=Player())
    assert strip["parts"][-1] == {"part": "audio", "status": "warn", "summary": "No sound card answered."}
    assert strip["overall"] == "warn"
    stuck = health.report(load_pinmap(), simulated=True, pins_said="mock", stuck_for=12.0)
    assert stuck["parts"][-1]["part"] == "store" and stuck["overall"] == "fault"
    assert health.worst(["ok", "absent"]) == "ok" and health.part_of("hook") == "phone"
    assert health.part_of("port") is None


def test_a_nearly_full_disk_is_said_before_a_move_cant_be_kept():
    low = health.report(load_pinmap(), simulated=True, pins_said="mock", disk_free=150 * 2**20)
    assert low["parts"][-1]["part"] == "store" and low["parts"][-1]["status"] == "warn"
    assert "Only 150 MB left on the disk" in low["parts"][-1]["summary"] and low["overall"] == "warn"
    roomy = health.report(load_pinmap(), simulated=True, pins_said="mock", disk_free=health.LOW_SPACE)
    assert "store" not in [p["part"] for p in roomy["parts"]]
    # a write stuck on the disk says more than the room left on it
    both = health.report(load_pinmap(), simulated=True, pins_said="mock", stuck_for=12.0, disk_free=1)
    assert [p["status"] for p in both["parts"] if p["part"] == "store"] == ["fault"]


def test_the_panels_strip_shows_the_disk_filling_up(client, monkeypatch):
    from collections import namedtuple

    from controller import app as box
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(box.shutil, "disk_usage", lambda path: usage(2**34, 2**34 - 40 * 2**20, 40 * 2**20))
    parts = {p["part"]: p for p in client.get("/api/health").get_json()["parts"]}
    assert parts["store"]["status"] == "warn" and "Only 40 MB left" in parts["store"]["summary"]

    def gone(path):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(box.shutil, "disk_usage", gone)
    assert "store" not in [p["part"] for p in client.get("/api/health").get_json()["parts"]]


# ---------------------------------------------------------------- on the panel

@pytest.mark.slow
def test_the_health_strip_reports_each_part_in_plain_words(client):
    h = client.get("/api/health").get_json()
    parts = {p["part"]: p for p in h["parts"]}
    assert set(parts) == {"phone", "buttons", "display", "audio"}
    assert parts["phone"]["status"] == "ok" and "Simulated" in parts["phone"]["summary"]
    for name in ("buttons", "display", "audio"):
        assert parts[name]["status"] in ("ok", "absent", "warn", "fault")
        assert parts[name]["summary"]
    assert h["overall"] in ("ok", "warn", "fault")


def test_a_part_that_reports_on_itself_is_taken_at_its_word(client, desk):
    class Display:
        def health(self):
            return {"status": "fault", "summary": "The display doesn't answer on I2C address 0x3C."}
    desk.window = Display()
    parts = {p["part"]: p for p in client.get("/api/health").get_json()["parts"]}
    assert parts["display"] == {"part": "display", "status": "fault",
                                "summary": "The display doesn't answer on I2C address 0x3C."}
    assert client.get("/api/health").get_json()["overall"] == "fault"


def test_a_phone_on_usb_shows_its_link_and_says_when_it_is_gone(client, desk):
    from controller.serial.bridge import PhoneStatus, SerialBridge
    desk.phone_link = SerialBridge("/dev/ttyACM0", lambda ev: None)     # not started: its status is set here
    desk.phone_link.status = PhoneStatus(True, "/dev/ttyACM0", "connected", "1.2", "7")
    phone = client.get("/api/health").get_json()["parts"][0]
    assert phone["status"] == "ok" and phone["link"] == "USB" and "/dev/ttyACM0" in phone["summary"]
    assert phone["heartbeat"]
    desk.phone_link.status = PhoneStatus(False, "/dev/ttyACM0", "phone disconnected: device reports readiness to "
                                                          "read but returned no data")
    phone = client.get("/api/health").get_json()["parts"][0]
    assert phone["status"] == "fault" and phone["summary"].startswith("Phone disconnected")
    assert "USB cable" in phone["summary"]
    assert client.get("/api/health").get_json()["overall"] == "fault"
