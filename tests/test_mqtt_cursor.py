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


def test_a_data_folder_copied_to_another_machine_is_a_new_install_there(tmp_path, caplog):
    """Twenty tables for a convention are made by copying one SD card: each copy's mqtt-kept.json
    named the first box's install, so the boxes shared one client id at the broker (each
    connection dropping the other's) and each took the other's messages for its own."""
    from controller.mqtt.cursor import KEPT_FILE, Kept
    first = Kept(tmp_path, machine=lambda: "aaaa")
    install = first.install
    assert Kept(tmp_path, machine=lambda: "aaaa").install == install          # the same box, restarted
    first.put("announced", {"base": "newsdesk/kitchen", "discovery": "homeassistant", "node": "newsdesk_" + install})
    first.put("retired", [{"base": "newsdesk/old", "discovery": "homeassistant", "node": "newsdesk_" + install}])
    copied = Kept(tmp_path, machine=lambda: "bbbb")                          # the card in another Pi
    assert copied.install != install and "made on another machine" in caplog.text
    # where the first box announced itself is the first box's: this one clears nothing of it
    assert copied.get("announced") is None and copied.get("retired") is None
    assert Kept(tmp_path, machine=lambda: "bbbb").install == copied.install   # and that is its own now
    assert json.loads((tmp_path / KEPT_FILE).read_text())["machine"] == "bbbb"


def test_an_install_from_before_the_machine_was_kept_stays_and_learns_its_machine(tmp_path):
    from controller.mqtt.cursor import KEPT_FILE, Kept
    (tmp_path / KEPT_FILE).write_text(json.dumps({"install": "0123456789ab", "number": "7"}))
    assert Kept(tmp_path, machine=lambda: "aaaa").install == "0123456789ab"
    assert json.loads((tmp_path / KEPT_FILE).read_text()) == {"install": "0123456789ab", "number": "7",
                                                               "machine": "aaaa"}
    assert Kept(tmp_path, machine=lambda: None).install == "0123456789ab"    # nothing to tell by: kept
