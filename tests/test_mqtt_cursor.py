"""Where the publisher got to, kept beside the store per broker and topic and read back; a damaged
file is a fresh start rather than a crash."""

import json

from controller.mqtt.cursor import CURSOR_FILE, Cursor


def test_each_broker_and_topic_keeps_its_own_position(tmp_path):
    Cursor(tmp_path, "mqtt://a:1883 newsdesk/t1").save(41)
    other = Cursor(tmp_path, "mqtt://b:1883 newsdesk/t1")
    assert other.saved is None
    other.save(7)
    assert json.loads((tmp_path / CURSOR_FILE).read_text()) == {"mqtt://a:1883 newsdesk/t1": 41,
                                                                "mqtt://b:1883 newsdesk/t1": 7}
    assert Cursor(tmp_path, "mqtt://a:1883 newsdesk/t1").saved == 41


def test_a_damaged_cursor_file_starts_from_nothing(tmp_path, caplog):
    (tmp_path / CURSOR_FILE).write_text("{not json")
    assert Cursor(tmp_path, "k").saved is None and "can't read" in caplog.text
    (tmp_path / CURSOR_FILE).write_text('{"k": true, "j": "3"}')
    assert Cursor(tmp_path, "k").saved is None and Cursor(tmp_path, "j").saved is None
