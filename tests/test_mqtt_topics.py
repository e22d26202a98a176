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


def test_a_games_end_and_the_games_kept_say_whether_its_lowest_score_wins():
    """The league, on another machine that may never have installed a plug-in game, learns from
    the table whether a finished game's best score is its lowest (its panel facts' lower_wins)."""
    end = types.SimpleNamespace(id=13, at="2026-01-01T11:00:00Z", kind="game.finished",
                                payload={"game": 4, "engine": "darts_golf", "status": "finished"})
    final = {"standings": [{"name": "Ann", "score": 3, "winner": True}]}
    sent = json.loads(T.event_payload("Corner", end, final, install="ab12", lower=True))["data"]
    assert sent == dict(end.payload, standings=final["standings"], lower_wins=True)
    assert json.loads(T.event_payload("Corner", end, final))["data"]["lower_wins"] is False
    kept = [{"id": 4, "engine": "darts_golf", "status": "finished", "winners": ["Ann"]},
            {"id": 3, "engine": "tally", "status": "finished", "winners": ["Bob"]}]
    results = T.results_state("Corner", kept, "ab12", lower=lambda engine: engine == "darts_golf")
    assert [g["lower_wins"] for g in results["games"]] == [True, False]
    assert [g["lower_wins"] for g in T.results_state("Corner", kept)["games"]] == [False, False]


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


INSTALL = "5f2c9a61d0be"


def _table(name):
    """What a table called ``name`` is on the broker and in Home Assistant."""
    from controller.config import DEFAULTS, Config
    base = Config(".", dict(DEFAULTS, table_name=name)).mqtt_topic
    return {"base": base, "node": T.node_id(base), "client": T.client_id(base, INSTALL), "slug": T.entity_slug(name),
            "unique_ids": {c["unique_id"] for _, c in T.discovery("homeassistant", base, name, "") if c and "unique_id" in c}}


def test_tables_named_in_other_scripts_get_topics_ids_and_client_ids_of_their_own():
    tokyo, osaka = _table("東京"), _table("大阪")
    assert all(tokyo[k] != osaka[k] for k in ("base", "node", "client", "slug"))
    assert not tokyo["unique_ids"] & osaka["unique_ids"]
    assert tokyo == _table("東京") and tokyo["base"].isascii() and tokyo["base"].startswith("newsdesk/table-")
    assert _table("Tromsø")["base"] != _table("Troms")["base"]      # a letter with no ASCII spelling is not dropped


def test_an_accented_name_keeps_its_letters_and_one_typed_decomposed_is_the_same():
    import unicodedata
    assert _table("Café")["base"] == "newsdesk/cafe-f42445" and _table("Ålesund")["base"] == "newsdesk/alesund-9edbf0"
    assert T.entity_slug("Café") == "newsdesk_cafe_f42445"
    assert _table(unicodedata.normalize("NFD", "Café")) == _table("Café")
    assert _table(unicodedata.normalize("NFD", "東京 Café")) == _table("東京 Café")


def test_names_that_differ_only_by_accents_are_tables_of_their_own():
    """Café and Cafe at one broker: one base topic had the second box send nothing at all."""
    tables = [_table(n) for n in ("Café", "Cafe", "Cafè", "ℌall", "Hall")]
    for k in ("base", "node", "client", "slug"):
        assert len({t[k] for t in tables}) == len(tables), k
    assert _table("Cafe")["base"] == "newsdesk/cafe" and _table("Hall")["base"] == "newsdesk/hall"
    # case and punctuation still fold away, as they do for a plain ASCII name (Kitchen, KITCHEN)
    assert _table("CAFÉ") == _table("Café") and _table("Corner – table")["base"] == "newsdesk/corner-table"


def test_a_plain_ascii_name_keeps_the_topic_and_ids_it_always_had():
    """Boxes already on a broker must not move: their topics, device and entities stay put."""
    assert [_table(n)["base"] for n in ("Corner table", "Table 7!", "!!!", "A_b-C")] == [
        "newsdesk/corner-table", "newsdesk/table-7", "newsdesk/table", "newsdesk/a_b-c"]
    assert _table("Corner table")["client"] == "newsdesk-newsdesk_corner-table-" + INSTALL
    assert T.entity_slug("!!!") == "newsdesk" and T.node_id("cafe/Tables/7") == "cafe_Tables_7"
