"""A write's body is held to the schema the API document gives it: a field the schema has no place
for (``additionalProperties: false``) is a 400 naming it, as the document promises, and a field
named twice is a 400 too; the panel's own writes send only the fields their schemas name."""

import json
import re
from pathlib import Path

import pytest

from web_ui import openapi
from web_ui.request_fields import stray_field

STATIC = Path(openapi.__file__).with_name("static")
STRAY = "zz_not_a_field"


def writes_with_a_body(doc):
    for path, ops in sorted(doc["paths"].items()):
        for method, op in sorted(ops.items()):
            if "requestBody" in op:
                yield path.replace("{", "").replace("}", "").replace("game_id", "1"), method, op


def joined_player(app, client):
    """A tablet on the LAN joined as a player (the box's own screen, on loopback, has no device
    to name)."""
    token = client.post("/api/join/tokens", json={"role": "player"}).get_json()["token"]
    player = app.test_client()
    player.environ_base.update(REMOTE_ADDR="192.168.1.30", HTTP_X_NEWSDESK="1")
    assert player.get("/join?token=" + token).status_code == 303
    return player


def test_every_write_refuses_a_field_its_schema_has_no_place_for(app, client):
    doc = openapi.document(app)
    player = joined_player(app, client)
    seen = 0
    for url, method, op in writes_with_a_body(doc):
        by = player if url == "/api/join/name" else client
        r = by.open(url, method=method.upper(), json={STRAY: 1})
        assert r.status_code == 400, (method, url, r.status_code, r.get_json())
        message = r.get_json()["message"]
        if "anyOf" in doc["components"]["schemas"][op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]:
            assert message == 'Send {"dice": "2d6"} (any NdM) or {"next": true}.', (method, url, message)
            r = by.open(url, method=method.upper(), json={"dice": "2d6", STRAY: 1})
            message = r.get_json()["message"]
        assert repr(STRAY) in message, (method, url, r.get_json())
        assert "400" in op["responses"], (method, url)
        seen += 1
    assert seen >= 20


def test_a_stray_field_is_found_where_it_is_and_its_neighbours_are_named(client):
    players = [{"name": "Ann", "nick": "A"}, {"name": "Bob"}]
    r = client.post("/api/games", json={"engine": "scoop1956", "players": players})
    assert r.status_code == 400
    message = r.get_json()["message"]
    assert "'players[0].nick'" in message and "'players[0]' takes only colour, name and team" in message
    assert client.get("/api/games/current").status_code == 404 or client.get("/api/games/current").get_json()["game"] is None
    # a move's own fields are the game's: open; the request around them is not
    r = client.post("/api/games", json={"engine": "scoop1956", "players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert r.status_code == 201
    version = r.get_json()["version"]
    r = client.post("/api/games/current/abandon", json={"version": version, "verison": version})
    assert r.status_code == 400 and "'verison'" in r.get_json()["message"]
    assert "takes only key and version" in r.get_json()["message"]
    assert client.get("/api/games/current").get_json()["game"]["version"] == version    # nothing happened


def test_a_games_options_are_told_by_its_engine_not_guessed_from_another_games(client):
    """Options are one object per game in the document: which one applies is the engine's to say."""
    r = client.post("/api/games", json={"engine": "scan", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                        "options": {"bogus": 1}})
    assert r.status_code == 422
    assert r.get_json()["message"].startswith("SCAN has no option bogus; its options are variant,")


def test_a_field_named_twice_is_refused_not_guessed(client):
    r = client.post("/api/games", json={"engine": "scoop1956", "players": [{"name": "Ann"}, {"name": "Bob"}]})
    version = r.get_json()["version"]
    raw = '{"version": %d, "version": %d}' % (version + 5, version)
    r = client.post("/api/games/current/abandon", data=raw, content_type="application/json")
    assert r.status_code == 400 and "'version' twice" in r.get_json()["message"]
    raw = '{"engine": "scoop1956", "players": [{"name": "Ann", "name": "Cy"}, {"name": "Bob"}]}'
    assert client.post("/api/games/current/abandon", data=raw, content_type="application/json").status_code == 400
    assert client.get("/api/games/current").get_json()["game"]["version"] == version


def test_an_unseen_character_in_a_stray_name_is_shown_escaped(client):
    r = client.post("/api/sim/dial", json={"digit": 1, "x\u202ey": 1})
    assert r.status_code == 400 and "\u202e" not in r.get_json()["message"] and "\\u202e" in r.get_json()["message"]


def test_anyof_takes_a_value_one_branch_of_its_kind_takes():
    schemas = {"A": {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
               "B": {"type": "object", "properties": {"b": {}}, "additionalProperties": False}}
    one = {"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "null"}]}
    two = {"anyOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}]}
    assert stray_field({"a": 1}, one, schemas) is None
    assert stray_field(None, one, schemas) is None
    assert stray_field({"c": 1}, one, schemas) == ("c", ["a"])       # null is no object: A's finding
    assert stray_field({"b": 1}, two, schemas) is None
    assert stray_field({"c": 1}, two, schemas) is None               # which one applies is the view's to say
    required = {"anyOf": [dict(schemas["A"], required=["a"]), dict(schemas["B"], required=["b"])]}
    assert stray_field({"a": 1, "c": 1}, required, schemas) == ("c", ["a"])     # the one whose fields it has
    assert stray_field({"c": 1}, required, schemas) is None
    listed = {"type": "array", "items": {"$ref": "#/components/schemas/A"}}
    assert stray_field([{"a": 1}, {"a": 2, "z": 3}], listed, schemas) == ("[1].z", ["a"])


def test_the_panels_writes_send_a_key_only_where_the_schema_names_one():
    """api.js's send adds an idempotency key unless told ``key: null``; the phone's and the
    Workbench's writes have no key in their schemas, so they must say so."""
    api = (STATIC / "js" / "api.js").read_text()
    assert "key === null ?" in api
    doc = openapi.document()
    keyed = {name for name, schema in doc["components"]["schemas"].items() if "key" in schema.get("properties", {})}
    assert keyed == {"ActionRequest", "VersionRequest", "StartRequest", "RestoreRequest"}
    for name in ("phone.js", "workbench.js"):
        text = (STATIC / "js" / name).read_text()
        calls = re.findall(r"\bsend\(([^;]*)\)", text)
        assert calls and all("key: null" in call for call in calls), (name, calls)


@pytest.mark.parametrize("body", [{"digit": 3}, {"digit": 3, "key": "k"}])
def test_the_virtual_phone_takes_what_its_schema_names(client, body):
    r = client.post("/api/sim/dial", data=json.dumps(body), content_type="application/json")
    assert (r.status_code == 202) == ("key" not in body), r.get_json()


def test_a_press_of_the_dice_loads_no_game_to_check_its_fields(app, client, monkeypatch):
    """The games' option schemas are worked out (every engine loaded) only when a body's schema
    names one: on a Pi Zero the first press after a start would otherwise wait for all five."""
    from controller.games import registry
    loaded = []
    real = registry.load
    monkeypatch.setattr(registry, "load", lambda name, *a, **kw: loaded.append(name) or real(name, *a, **kw))
    assert client.post("/api/oracles/sim/dice", json={}).status_code == 202
    assert client.post("/api/sim/dial", json={"digit": 4}).status_code == 202
    assert client.post("/api/oracles/sim/dice", json={"lng": True}).status_code == 400
    assert loaded == []
    r = client.post("/api/games", json={"engine": "scan", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                        "options": {"variant": "team", "zz": 1}})
    assert r.status_code in (400, 422) and set(loaded) >= set(registry.names())
