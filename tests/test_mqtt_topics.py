"""The table's topics and payloads, pure: an event as sent, ids safe for Home Assistant, and a
discovery config per entity under the table's one device. The broker round trips are in
test_mqtt.py."""

import json
import types

from controller.mqtt import topics as T


def test_an_event_is_sent_with_its_table_install_and_id():
    ev = types.SimpleNamespace(id=12, at="2026-01-01T10:00:00Z", kind="dice.roll", payload={"total": 7})
    assert json.loads(T.event_payload("Corner", ev, install="ab12")) == {
        "table": "Corner", "install": "ab12", "id": 12, "at": "2026-01-01T10:00:00Z", "type": "dice.roll",
        "data": {"total": 7}}


def test_ids_are_made_safe_for_home_assistant():
    assert T.node_id("cafe/tables/7") == "cafe_tables_7" and T.node_id("///") == "newsdesk"
    assert T.entity_slug("Corner Table!") == "newsdesk_corner_table"
    assert T.signal_id("!!!") == "see_the_editor" and T.signal_id("Take Your Story") == "take_your_story"


def test_discovery_is_one_device_and_the_bell_only_when_it_is_a_command():
    configs = T.discovery("homeassistant", "newsdesk/t1", "t1", "1.0", panel_url="http://box.local:8080/")
    topics = [t for t, _ in configs]
    assert len(topics) == len(set(topics)) and all(t.startswith("homeassistant/") for t in topics)
    devices = {json.dumps(c["device"], sort_keys=True) for _, c in configs if c}
    assert len(devices) == 1 and "http://box.local:8080/" in devices.pop()
    bell = [t for t, c in configs if c and c.get("command_topic") == "newsdesk/t1/" + T.BELL]
    assert bell and not [t for t, c in T.discovery("homeassistant", "newsdesk/t1", "t1", "1.0", commands=())
                         if c and c.get("command_topic")]
