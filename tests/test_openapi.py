"""The OpenAPI document: served by the Pi, kept current beside the code, true to the routes, and
the source the API is fuzzed from (no input may give a 5xx or change what it shouldn't)."""

import json
import os
import random
import re
import string
import tempfile
from pathlib import Path

from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

from controller.app import Newsdesk
from controller.config import load_config
from web_ui import create_app, openapi

MINE = {"api", "games_api", "openapi"}     # the blueprints whose routes the document describes


def _rule_to_path(rule):
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def test_the_document_is_served_and_the_file_beside_the_code_is_current(app, client):
    served = client.get("/api/openapi.json").get_json()
    assert served == openapi.document(app)
    on_disk = json.loads(openapi.FILE.read_text(encoding="utf-8"))
    assert on_disk == openapi.document(), "web_ui/openapi.json is stale: run python -m web_ui.openapi"
    assert served["openapi"].startswith("3.1")
    for path, ops in openapi.document()["paths"].items():
        assert served["paths"][path] == ops


def test_every_route_of_the_api_is_documented_and_nothing_else(app):
    """This module's routes, and those of any blueprint whose module describes itself (OPENAPI)."""
    import sys
    doc = openapi.document(app)
    described = set(MINE) | {name for name, bp in app.blueprints.items()
                             if isinstance(getattr(sys.modules.get(bp.import_name), "OPENAPI", None), dict)}
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] not in described:
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


# ---------------------------------------------------------------- fuzzing from the document

WRITE = {"X-Newsdesk": "1"}
SKIP = {"/api/sim/dial", "/api/sim/hook"}   # they drive the simulated phone's pins in real time
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


def strategy(schema, doc):
    """Values a schema (the subset the document uses) accepts."""
    if "$ref" in schema:
        return strategy(doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]], doc)
    if "anyOf" in schema:
        return st.one_of([strategy(s, doc) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = {k: strategy(props[k], doc) for k in schema.get("required", ())}
        optional = {k: strategy(v, doc) for k, v in props.items() if k not in required}
        base = st.fixed_dictionaries(required, optional=optional)
        if schema.get("additionalProperties", True) is not False:
            extra = st.dictionaries(st.text(string.ascii_lowercase + "_", min_size=1, max_size=10), JSON, max_size=3)
            base = st.builds(lambda a, b: dict(b, **a), base, extra)
        return base
    if kind == "array":
        return st.lists(strategy(schema["items"], doc), min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 6), 6))
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 30), 30))
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum")) | st.integers(-3, 12)
    if kind == "number":
        return st.floats(allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return JSON


def mutated(body_strategy):
    """A valid body with one field swapped for anything, or dropped."""
    def change(body, key_pick, junk, drop):
        if not isinstance(body, dict) or not body:
            return body
        key = sorted(body)[key_pick % len(body)]
        out = dict(body)
        if drop:
            del out[key]
        else:
            out[key] = junk
        return out
    return st.builds(change, body_strategy, st.integers(0, 50), JSON, st.booleans())


def operations(doc):
    out = []
    for path, ops in sorted(doc["paths"].items()):
        for method, op in sorted(ops.items()):
            if path not in SKIP:
                out.append((path, method, op))
    return out


def observe(desk):
    """Everything a refused request must leave as it was."""
    game = desk.table.games.current()
    return desk.store.last_id(), json.dumps(game, sort_keys=True), len(desk.table.games.history(500))


def _request(doc, data, desk):
    path, method, op = data.draw(st.sampled_from(operations(doc)), label="operation")
    url = path
    if "{game_id}" in path:
        games = [g["id"] for g in desk.table.games.history(5)] + ([desk.table.games.game_id]
                                                                 if desk.table.games.game_id else [])
        game_id = data.draw(st.sampled_from(games) | st.integers(0, 2 ** 70) if games else st.integers(0, 2 ** 70),
                            label="game_id")
        url = path.replace("{game_id}", str(game_id))
    for param in op.get("parameters", ()):
        if param["in"] == "query" and data.draw(st.booleans(), label="send " + param["name"]):
            url += "?%s=%s" % (param["name"], data.draw(st.sampled_from(["0", "1", "5", "500", "501", "-1", "x", "",
                                                                          "99999999999999999999"])))
    body = None
    if "requestBody" in op:
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        valid = strategy(schema, doc)
        if url == "/api/games/current/actions" and desk.table.games.current():
            game = desk.table.games.current()
            offers = game["offers"] or [{"type": "nothing"}]
            valid = st.fixed_dictionaries({
                "action": st.sampled_from(offers).map(lambda o: {k: v for k, v in o.items() if k not in ("enter", "needs")}),
                "version": st.sampled_from([game["version"], game["version"] - 1, game["version"] + 1])},
                optional={"key": st.text(min_size=1, max_size=8)})
            valid = valid | st.builds(lambda b, k, v: dict(b, action=dict(b["action"], **{k: v})), valid,
                                      st.sampled_from(["player", "value", "story", "place", "taken", "plays", "winners",
                                                       "signal", "slot", "story_type", "cards", "dice", "points"]), JSON)
        elif url.startswith("/api/games/current/") and desk.table.games.current():
            version = desk.table.games.current()["version"]
            valid = st.fixed_dictionaries({"version": st.sampled_from([version, version - 1, 0])})
        body = data.draw(st.one_of(valid, mutated(valid), JSON), label="body")
    return url, method, op, body


class FuzzTheApi(RuleBasedStateMachine):
    """Requests drawn from the OpenAPI document against a fresh newsdesk each run, with a seeded
    random source so a failing sequence replays exactly. Every answer must be documented and
    below 500; a refusal, a read or a repeated request must leave everything as it was."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.factory = MockFactory()
        self.desk = Newsdesk(load_config(Path(self.dir.name) / "data", environ={}), pin_factory=self.factory)
        rng = random.Random(1956)
        self.desk.table._rng = rng
        self.desk.table.games._rng = rng
        self.client = create_app(newsdesk=self.desk, test_config={"TESTING": True}).test_client()
        self.doc = openapi.document()

    def teardown(self):
        self.desk.close()
        self.factory.close()
        self.dir.cleanup()

    @precondition(lambda self: self.desk.table.games.game_id is None)
    @rule(engine=st.sampled_from(["scoop1956", "scoop2002", "scan", "get_the_scoop", "star_reporter"]),
          extra=st.sampled_from([0, 0, 0, 1, 2, -1, 5]), variant=st.sampled_from([None, "team", "triple", "individual",
                                                                                "no_trump", "bogus"]))
    def start_a_game(self, engine, extra, variant):
        """Mostly a start the rules accept (so the moves have a game), now and then one they refuse."""
        n = {"scan": {"triple": 6, "individual": 3, "no_trump": 5}.get(variant, 4), "get_the_scoop": 4}.get(engine, 2)
        n = max(1, min(7, n + extra))
        players = [{"name": "P%d" % i, "colour": c} for i, c in zip(range(n), ["red", "blue", "green", "white",
                                                                                   "black", "pink", "grey"])]
        options = {"variant": variant} if engine == "scan" and variant else {}
        r = self.client.post("/api/games", json={"engine": engine, "players": players, "options": options},
                             headers=WRITE)
        assert r.status_code in (201, 409, 422), r.get_json()

    def send(self, method, url, op, body):
        """One request, and the checks every answer must pass."""
        desk, client = self.desk, self.client
        before = observe(desk)
        if body is None and method == "post":
            r = client.post(url, headers=WRITE)
        else:
            r = client.open(url, method=method.upper(), json=body, headers=WRITE if method == "post" else {})
        status = r.status_code
        assert status < 500, (method, url, body, r.get_data(as_text=True)[:500])
        documented = set(op["responses"]) | {"404", "405"}
        assert str(status) in documented, (method, url, body, status, r.get_data(as_text=True)[:300])
        answer = r.get_json(silent=True) if r.mimetype == "application/json" else None
        if status >= 400:
            assert answer["message"] and answer["error"], answer
        after = observe(desk)
        repeat = isinstance(answer, dict) and answer.get("repeat") is True
        if method == "get" or status >= 400 or repeat:
            assert after == before, (method, url, body, status)
        elif url == "/api/games/current/actions" or url.endswith(("/undo", "/redo")):
            assert after[0] > before[0] and json.loads(after[1])["version"] == json.loads(before[1])["version"] + 1
        return status

    @rule(data=st.data())
    def a_request(self, data):
        url, method, op, body = _request(self.doc, data, self.desk)
        self.send(method, url, op, body)

    @rule(data=st.data(), mutate=st.booleans())
    def play_an_offer(self, data, mutate):
        """What the panel sends when a player taps an offer: its fields filled in, on the version
        shown (or an older one), now and then with a field swapped for anything."""
        game = self.desk.table.games.current()
        if not game or not game["offers"]:
            return
        offer = data.draw(st.sampled_from(game["offers"]), label="offer")
        action = {k: v for k, v in offer.items() if k not in ("enter", "needs", "sides", "suits")}
        for field in offer.get("enter", ()):
            action[field] = data.draw(st.sampled_from([100, 300, 500, 1000, 2, 0, "Baytown", "Urbania", ""]), label=field)
        if offer["type"] == "hand":
            taken = {side: {} for side in offer["sides"]}
            for suit in offer["suits"]:
                left = 13
                for side in offer["sides"][:-1]:
                    n = data.draw(st.integers(0, left), label=suit)
                    taken[side][suit] = n
                    left -= n
                taken[offer["sides"][-1]][suit] = left
            action["taken"] = taken
        if mutate:
            key = data.draw(st.sampled_from(sorted(action) + ["player", "value", "dice", "plays", "story"]), label="key")
            action[key] = data.draw(JSON, label="junk")
        version = data.draw(st.sampled_from([game["version"]] * 4 + [game["version"] - 1]), label="version")
        body = {"action": action, "version": version}
        if data.draw(st.booleans(), label="with a key"):
            body["key"] = data.draw(st.sampled_from(["k1", "k2", "k3"]) | st.text(min_size=1, max_size=20), label="key")
        op = self.doc["paths"]["/api/games/current/actions"]["post"]
        self.send("post", "/api/games/current/actions", op, body)

    @rule(kind=st.sampled_from(["undo", "undo", "redo", "redo", "finish", "abandon"]), stale=st.booleans())
    def take_back_or_end(self, kind, stale):
        game = self.desk.table.games.current()
        version = (game["version"] if game else 1) - (1 if stale else 0)
        url = "/api/games/current/" + kind
        self.send("post", url, self.doc["paths"][url]["post"], {"version": version})


FuzzTheApi.TestCase.settings = settings(max_examples=int(os.environ.get("NEWSDESK_FUZZ_RUNS", "40")),
                                        stateful_step_count=30, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
test_no_input_from_the_document_gives_a_5xx_or_changes_what_it_shouldnt = FuzzTheApi.TestCase

