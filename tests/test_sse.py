"""The live feed's wire format (web_ui/sse.py): a stored event goes out with its id, so a page
that reconnects can say what it had, and every message is one line of JSON a browser reads."""

import json

import pytest

from web_ui.sse import frame


def test_the_live_feed_carries_a_kept_out_of_range_value_as_json_a_browser_reads():
    from web_ui.sse import frame
    line = frame({"id": 7, "type": "game.changed", "data": {"view": {"worth": float("inf"), "points": 10 ** 4299,
                                                                      "huge": 10 ** 4400}}})
    body = line.split("data: ", 1)[1]
    data = json.loads(body, parse_constant=lambda c: pytest.fail("the feed sent %s" % c))
    assert data["data"]["view"]["worth"] == "infinity" and data["data"]["view"]["huge"].startswith("a number of about")


def test_a_stored_event_carries_its_id_and_a_message_never_stored_none():
    stored = frame({"id": 12, "type": "editor.verdict", "data": {"digit": 4}})
    assert stored.startswith("id: 12\ndata: {") and stored.endswith("}\n\n") and stored.count("\n") == 3
    unstored = frame({"type": "phone.digit", "data": {"digit": "é"}})
    assert unstored == 'data: {"type":"phone.digit","data":{"digit":"é"}}\n\n'
