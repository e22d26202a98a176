"""The OpenAPI document: served by the Pi, kept current beside the code, and true to the routes."""

import json
import re

from web_ui import openapi

MINE = {"api", "games_api", "openapi"}     # the blueprints whose routes the document describes


def _rule_to_path(rule):
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def test_the_document_is_served_and_the_file_beside_the_code_is_current(client):
    served = client.get("/api/openapi.json").get_json()
    assert served == openapi.document()
    on_disk = json.loads(openapi.FILE.read_text(encoding="utf-8"))
    assert on_disk == served, "web_ui/openapi.json is stale: run python -m web_ui.openapi"
    assert served["openapi"].startswith("3.1")


def test_every_route_of_the_api_is_documented_and_nothing_else(app):
    doc = openapi.document()
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] not in MINE:
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((_rule_to_path(rule.rule), method.lower()))
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented


def test_every_reference_resolves_and_every_operation_has_an_id(client):
    doc = client.get("/api/openapi.json").get_json()
    text = json.dumps(doc)
    for name in re.findall(r'"#/components/schemas/([A-Za-z]+)"', text):
        assert name in doc["components"]["schemas"], name
    ids = [op["operationId"] for ops in doc["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids)) and all(ids)
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert "200" in op["responses"] or "201" in op["responses"] or "202" in op["responses"], (path, method)
            if method == "post":
                assert {"400", "413"} <= set(op["responses"]), path


def test_the_example_responses_match_their_schemas(client):
    """A small validator of the schema subset the document uses, run on real answers."""
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]

    def check(value, schema, where):
        if "$ref" in schema:
            return check(value, schemas[schema["$ref"].rsplit("/", 1)[1]], where)
        if "anyOf" in schema:
            errors = []
            for option in schema["anyOf"]:
                try:
                    return check(value, option, where)
                except AssertionError as e:
                    errors.append(str(e))
            raise AssertionError("%s: none of %s" % (where, errors))
        if "allOf" in schema:
            for part in schema["allOf"]:
                check(value, part, where)
            return None
        if "enum" in schema:
            assert value in schema["enum"], (where, value)
        kind = schema.get("type")
        types = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
        if kind == "integer":
            assert isinstance(value, int) and not isinstance(value, bool), (where, value)
        elif kind == "number":
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (where, value)
        elif kind:
            assert isinstance(value, types[kind]), (where, value)
        if kind == "object":
            for key in schema.get("required", ()):
                assert key in value, (where, key)
            props = schema.get("properties", {})
            for key, item in value.items():
                if key in props:
                    check(item, props[key], where + "." + key)
                else:
                    assert schema.get("additionalProperties", True) is not False, (where, key)
        if kind == "array":
            for i, item in enumerate(value):
                check(item, schema["items"], "%s[%d]" % (where, i))
        return None

    def answer(method, url, schema, body=None, status=200):
        r = client.open(url, method=method, json=body, headers={"X-Newsdesk": "1"})
        assert r.status_code == status, (url, r.get_json())
        check(r.get_json(), {"$ref": "#/components/schemas/" + schema}, url)
        return r.get_json()

    answer("GET", "/api/games/current", "Current")
    answer("GET", "/api/games/catalogue", "Catalogue")
    answer("GET", "/api/health", "Health")
    answer("GET", "/api/state", "State")
    players = [{"name": "Ann"}, {"name": "Bob"}]
    out = answer("POST", "/api/games", "Outcome", {"engine": "scoop1956", "players": players}, 201)
    answer("GET", "/api/games/current", "Current")
    out = answer("POST", "/api/games/current/actions", "Outcome",
                 {"action": {"type": "exchange", "player": 0}, "version": out["version"]})
    out = answer("POST", "/api/games/current/undo", "Outcome", {"version": out["version"]})
    answer("POST", "/api/games/current/actions", "Error",
           {"action": {"type": "exchange", "player": 0}, "version": 1}, 409)
    done = answer("POST", "/api/games/current/abandon", "Summary", {"version": out["version"]})
    for url, schema in (("/api/games/%d", "Record"), ("/api/games/%d/chart", "Chart"),
                        ("/api/games/%d/bgstats.json", "BGStats")):
        answer("GET", url % done["id"], schema)
    answer("GET", "/api/games/history", "History")
    answer("GET", "/api/games/stats", "Stats")
    answer("GET", "/api/games/999", "Error", status=404)
