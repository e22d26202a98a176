"""The OpenAPI document: served by the Pi, kept current beside the code, true to the routes, and
the source the API is fuzzed from (no input may give a 5xx or change what it shouldn't)."""

import json
import os
import random
import re
import sqlite3
import string
import tempfile
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import Clocks
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from controller.app import Newsdesk
from controller.config import load_config
from controller.games import registry
from web_ui import create_app, openapi, security


def _rule_to_path(rule):
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


@pytest.mark.slow
def test_the_document_is_served_and_the_file_beside_the_code_is_current(app, client):
    served = client.get("/api/openapi.json").get_json()
    assert served == openapi.document(app)
    on_disk = json.loads(openapi.FILE.read_text(encoding="utf-8"))
    assert on_disk == openapi.shipped(), "web_ui/openapi.json is stale: run python -m web_ui.openapi"
    assert served["openapi"].startswith("3.1")
    for path, ops in openapi.document()["paths"].items():
        assert served["paths"][path] == ops


@pytest.mark.slow
def test_every_route_of_the_api_is_documented_and_nothing_else(app):
    """Every route under /api/, whichever blueprint serves it, and the live feed; the pages (/join
    too) are HTML. The document of the running panel is the one beside the code."""
    doc = openapi.document(app)
    assert doc == openapi.document()
    routes = set()
    for url_rule in app.url_map.iter_rules():
        if url_rule.rule.startswith("/api/") or url_rule.rule == "/stream":
            for method in url_rule.methods - {"HEAD", "OPTIONS"}:
                routes.add((_rule_to_path(url_rule.rule), method.lower()))
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented


@pytest.mark.slow
def test_every_change_names_the_header_and_the_role_it_needs(client):
    doc = client.get("/api/openapi.json").get_json()
    header = doc["components"]["parameters"]["WriteHeader"]
    assert (header["name"], header["in"], header["required"], header["schema"]["enum"]) == (
        security.WRITE_HEADER, "header", True, [security.WRITE_HEADER_VALUE])
    assert doc["components"]["securitySchemes"]["device"]["in"] == "cookie"
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            roles = [role for need in op.get("security", ()) for role in need["device"]]
            assert ("401" in op["responses"]) == bool(roles), (method, path)
            if method == "get":      # watching is open: no header, and only the host's list needs a role
                assert roles in ([], ["host"]) and ("403" in op["responses"]) == bool(roles), path
                assert "WriteHeader" not in json.dumps(op.get("parameters", [])), path
                continue
            assert {"$ref": "#/components/parameters/WriteHeader"} in op["parameters"], (method, path)
            assert "403" in op["responses"], (method, path)
            assert roles in ([], ["player"], ["host"]), (method, path)


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

    answer("GET", "/api/oracles", "OraclesState")
    answer("POST", "/api/oracles/dice", "DiceSet", {"dice": "3d6"})
    answer("POST", "/api/oracles/dice", "DiceSet", {"next": True})
    answer("POST", "/api/oracles/stopwatch/mode", "StopwatchModeSet", {"mode": "d10"})
    answer("POST", "/api/oracles/stopwatch/reset", "StopwatchReset", {})
    answer("GET", "/api/oracles/dice/history?limit=5", "OracleHistory")
    answer("GET", "/api/oracles/editor/history", "OracleHistory")
    answer("GET", "/api/oracles/distributions", "Distributions")
    answer("GET", "/api/oracles/dice/history?limit=%C2%B2", "Error", status=400)
    answer("POST", "/api/oracles/dice", "Error", {"dice": "3x6"}, status=400)

    answer("GET", "/api/join/me", "Me")
    invitation = answer("POST", "/api/join/tokens", "JoinToken", {"role": "player"}, 201)
    answer("GET", "/api/join/dial", "DialJoin")
    answer("POST", "/api/join/dial", "Error", {}, 409)
    tablet = client.application.test_client()
    tablet.environ_base.update(REMOTE_ADDR="192.168.1.20", HTTP_X_NEWSDESK="1")
    assert tablet.get("/join?token=" + invitation["token"]).status_code == 303
    me = tablet.get("/api/join/me").get_json()
    check(me, {"$ref": "#/components/schemas/Me"}, "me")
    r = tablet.post("/api/join/name", json={"name": "Ann's phone"})
    check(r.get_json(), {"$ref": "#/components/schemas/NamedDevice"}, "name")
    stranger = client.application.test_client()
    stranger.environ_base.update(REMOTE_ADDR="192.168.1.30", HTTP_X_NEWSDESK="1")
    r = stranger.post("/api/join/dial", json={})
    assert r.status_code == 201
    check(r.get_json(), {"$ref": "#/components/schemas/DialJoin"}, "dial")
    answer("GET", "/api/devices?all=1", "DeviceList")
    answer("DELETE", "/api/devices/" + me["device"]["id"], "RevokedDevice")
    answer("DELETE", "/api/devices/nobody", "Error", status=404)
    r = stranger.post("/api/join/leave", json={})
    check(r.get_json(), {"$ref": "#/components/schemas/Left"}, "leave")


# ---------------------------------------------------------------- fuzzing from the document

SKIP = {"/api/sim/dial", "/api/sim/hook",   # they drive the simulated phone's pins in real time
        "/stream"}                          # never ends; test_panel_stream.py and test_live.py try it
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
RAW = st.sampled_from([b"[" * 20000 + b"]" * 20000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"{", b"null",
                       b"\xff\xfe{}", b'{"a": 1} {}', b"1e99999", b"9" * 5000])     # not JSON objects, sent as JSON
# numbers past what any real game reaches, and the edges of the engines' bounds
EXTREME = [0, -1, 9, 10, 13, 14, 10_000, 10_001, 100_000, 100_001, 2 ** 31, 2 ** 53 + 1, 10 ** 18,
           10 ** 309, 10 ** 4299, 1e308, -1e308, 0.5]
QUERY_JUNK = ["0", "1", "5", "500", "501", "-1", "x", "", "99999999999999999999"]
WORD = st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=16)   # a path segment
CLIENTS = {"host": "127.0.0.1",         # the box's own screen: the host
           "tablet": "192.168.1.20",    # joins by the host's QR code, as a player or a host
           "stranger": "192.168.1.30"}  # asks for a code to dial; it joins when the code is dialed

# What a request that succeeds may change (everything else must stay as it was); a read, a
# refusal or a repeated request changes nothing.
GAMES = {"store", "games"}
CHANGES = {
    ("post", "/api/oracles/dice"): {"store", "oracles"},
    ("post", "/api/oracles/stopwatch/mode"): {"store", "oracles"},
    ("post", "/api/oracles/stopwatch/reset"): {"oracles"},
    ("post", "/api/oracles/sim/dice"): {"presses"},
    ("post", "/api/oracles/sim/stopwatch"): {"presses"},
    ("post", "/api/join/tokens"): {"devices"},
    ("post", "/api/join/dial"): {"devices", "sessions"},
    ("delete", "/api/join/dial"): {"devices", "sessions"},
    ("post", "/api/join/name"): {"devices"},
    ("post", "/api/join/leave"): {"devices", "sessions"},
    ("delete", "/api/devices/{device_id}"): {"devices"},
}


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
                        max_size=max(min(schema.get("maxItems", 6), 6), schema.get("minItems", 0)))
    if kind == "string" and "pattern" in schema:
        return st.from_regex(schema["pattern"], fullmatch=True).filter(lambda s: len(s) <= 30)
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


def parameters(op, doc):
    """The operation's parameters, references resolved."""
    out = []
    for param in op.get("parameters", ()):
        if "$ref" in param:
            param = doc["components"]["parameters"][param["$ref"].rsplit("/", 1)[1]]
        out.append(param)
    return out


def headers_for(op, doc):
    """The headers the document requires, as newsdesk's pages send them (X-Newsdesk: 1 on a change)."""
    return {p["name"]: p["schema"]["enum"][0] for p in parameters(op, doc) if p["in"] == "header" and p["required"]}


def session_device(app, client):
    """The device this client's session cookie names (None without one)."""
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    if cookie is None:
        return None
    return app.session_interface.get_signing_serializer(app).loads(cookie.value).get("device")


def devices_file(app):
    """The devices and the invitations as kept (last_seen aside: any use of a device notes it)."""
    with closing(sqlite3.connect(security.guard(app).devices.path)) as db:
        devices = db.execute("SELECT id, role, name, via, address, created, status, code, expires, joined, revoked "
                             "FROM devices ORDER BY id").fetchall()
        tokens = db.execute("SELECT hash, role, expires, used, device FROM tokens ORDER BY hash").fetchall()
    return devices, tokens


def observe(desk, app, clients):
    """Everything a request may change, by part (see CHANGES)."""
    games = desk.table.games
    oracles = desk.oracles.state()
    return {
        "store": desk.store.last_id(),
        "games": (json.dumps(games.current(), sort_keys=True), len(desk.table.kept.history(500))),
        "oracles": (oracles["dice"], oracles["stopwatch"]["mode"], oracles["stopwatch"]["running"]),
        "devices": devices_file(app),
        "sessions": {name: session_device(app, c) for name, c in clients.items()},
        "presses": list(desk.sim_buttons.pressed),
    }


class Raw(bytes):
    """A body sent as it is, with Content-Type: application/json."""


class RecordedPresses:
    """Stands in for the simulated buttons, which play each press on the pins in real time on
    their own thread (its result lands seconds later, in the middle of other requests): the
    endpoints run whole and every press they ask for is kept here. tests/test_oracle_service.py
    plays real presses."""

    names = ("dice_button", "stopwatch_button")

    def __init__(self):
        self.pressed = []

    def press(self, name, long=False, bounce=()):
        if name not in self.names:
            raise ValueError("there is no button %r" % (name,))
        self.pressed.append((name, long))


def pick(data, items, label):
    """One of ``items``, which come from the app's state (games, devices, offers), drawn as an
    index of a fixed range: a strategy built from the list itself changes shape when the state
    differs on Hypothesis's replay (a device more or less), which it reports as a flaky test."""
    return items[data.draw(st.integers(0, 255), label=label) % len(items)]


def _request(doc, data, desk, app):
    path, method, op = data.draw(st.sampled_from(operations(doc)), label="operation")
    url = path
    if "{game_id}" in path:
        games = [g["id"] for g in desk.table.kept.history(5)] + ([desk.table.games.game_id]
                                                                 if desk.table.games.game_id else [])
        # every draw is made whatever the state, so a replay makes the same draws
        existing = data.draw(st.booleans(), label="a game that exists")
        index = data.draw(st.integers(0, 255), label="game_id")
        other = data.draw(st.integers(0, 2 ** 70), label="any game_id")
        game_id = games[index % len(games)] if games and existing else other
        url = path.replace("{game_id}", str(game_id))
    for param in parameters(op, doc):
        if param["in"] == "path" and param["name"] != "game_id":
            known = [row[0] for row in devices_file(app)[0]] if param["name"] == "device_id" else []
            choices = strategy(param["schema"], doc) | WORD
            use_known = data.draw(st.booleans(), label="a known " + param["name"])
            index = data.draw(st.integers(0, 255), label=param["name"])
            value = data.draw(choices, label="any " + param["name"])
            if known and use_known:
                value = known[index % len(known)]
            url = url.replace("{%s}" % param["name"], quote(str(value), safe=""))
    query = []
    for param in parameters(op, doc):
        if param["in"] == "query" and data.draw(st.booleans(), label="send " + param["name"]):
            value = data.draw(st.sampled_from(QUERY_JUNK) | strategy(param["schema"], doc), label=param["name"])
            query.append("%s=%s" % (param["name"], quote(str(value), safe="")))
    if query:
        url += "?" + "&".join(query)
    body = None
    if "requestBody" in op:
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        valid = strategy(schema, doc)
        if url == "/api/games/current/actions" and desk.table.games.current():
            game = desk.table.games.current()
            offers = game["offers"] or [{"type": "nothing"}]
            valid = st.fixed_dictionaries({
                "action": st.integers(0, 255).map(lambda i: {k: v for k, v in offers[i % len(offers)].items()
                                                              if k not in ("enter", "needs", "labels")}),
                "version": st.sampled_from([game["version"], game["version"] - 1, game["version"] + 1])},
                optional={"key": st.text(min_size=1, max_size=8)})
            valid = valid | st.builds(lambda b, k, v: dict(b, action=dict(b["action"], **{k: v})), valid,
                                      st.sampled_from(["player", "value", "story", "place", "taken", "plays", "winners",
                                                       "signal", "slot", "story_type", "cards", "dice", "points"]), JSON)
        elif url.startswith("/api/games/current/") and desk.table.games.current():
            version = desk.table.games.current()["version"]
            valid = st.fixed_dictionaries({"version": st.sampled_from([version, version - 1, 0])})
        bodies = st.one_of(valid, mutated(valid), JSON, RAW.map(Raw))
        if not op["requestBody"]["required"]:
            bodies = st.none() | bodies
        body = data.draw(bodies, label="body")
    return path, url, method, op, body


class FuzzTheApi(RuleBasedStateMachine):
    """Requests drawn from the OpenAPI document against a fresh newsdesk each run, with a seeded
    random source so a failing sequence replays exactly, from three devices: the box's own
    screen (the host), a tablet that joins by QR code and a phone that asks for a code to dial.
    Every answer must be documented and below 500; a refusal, a read or a repeated request must
    leave everything as it was, and a change only what it is about (CHANGES)."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.factory = MockFactory()
        self.rng = random.Random(1956)
        # the join codes' expiry and the rate limits run on clocks that move one second a
        # request: a slow run (a loaded machine) then sees the same answers as a fast one, so a
        # failure replays exactly and Hypothesis never meets a different state on replay
        self.clocks = Clocks()
        self.clients = {}
        self.restarts = 0
        self.open_the_box()
        self.doc = openapi.document(self.app)

    def open_the_box(self):
        """The desk and the panel as ``newsdesk serve`` builds them on this data folder: at the
        start, and again after a restart, when everything comes back from the files alone."""
        config = load_config(Path(self.dir.name) / "data", environ={}, overrides={"audio": "off", "speech": "off"})
        self.desk = Newsdesk(config, pin_factory=self.factory)
        self.desk.table._rng = self.rng
        self.desk.table.games._rng = self.rng
        self.desk.sim_buttons = RecordedPresses()
        self.app = create_app(newsdesk=self.desk, test_config={"TESTING": True})
        security.init_app(self.app, clock=self.clocks.wall, monotonic=self.clocks.mono)
        for name, address in CLIENTS.items():
            client = self.clients.get(name)
            if client is None:
                self.clients[name] = client = self.app.test_client()
                client.environ_base["REMOTE_ADDR"] = address
            client.application = self.app      # the device keeps its cookie across the restart

    def teardown(self):
        self.desk.close()
        self.factory.close()
        self.dir.cleanup()

    def op(self, method, path):
        return self.doc["paths"][path][method]

    @precondition(lambda self: self.desk.table.games.game_id is None)
    @rule(engine=st.sampled_from(registry.names()),
          extra=st.sampled_from([0, 0, 0, 1, 2, -1, 5]), variant=st.sampled_from([None, "team", "triple", "individual",
                                                                                "no_trump", "bogus"]))
    def start_a_game(self, engine, extra, variant):
        """Mostly a start the rules accept (so the moves have a game), now and then one they refuse."""
        n = {"scan": {"triple": 6, "individual": 3, "no_trump": 5}.get(variant, 4), "get_the_scoop": 4}.get(engine, 2)
        n = max(1, min(7, n + extra))
        players = [{"name": "P%d" % i, "colour": c} for i, c in zip(range(n), ["red", "blue", "green", "white",
                                                                                   "black", "pink", "grey"])]
        options = {"variant": variant} if engine == "scan" and variant else {}
        status, answer = self.send("host", "post", "/api/games", {"engine": engine, "players": players,
                                                                  "options": options})
        assert status in (201, 409, 422), answer

    def send(self, who, method, path, body, url=None, drop_header=False):
        """One request from ``who``, and the checks every answer must pass."""
        desk, client, op = self.desk, self.clients[who], self.op(method, path)
        url = url or path
        headers = headers_for(op, self.doc)
        if drop_header:
            headers = {}
        self.clocks.advance(1.0)
        before = observe(desk, self.app, self.clients)
        if body is None:
            r = client.open(url, method=method.upper(), headers=headers)
        elif isinstance(body, Raw):
            r = client.open(url, method=method.upper(), data=bytes(body), content_type="application/json",
                            headers=headers)
        else:
            r = client.open(url, method=method.upper(), json=body, headers=headers)
        status = r.status_code
        said = (who, method, url, repr(body)[:300], status, r.data[:500])
        assert status < 500, said
        documented = set(op["responses"])         # from the document alone
        assert str(status) in documented, said
        answer = r.get_json(silent=True) if r.mimetype == "application/json" else None
        if status >= 400:
            assert answer["message"] and answer["error"], said
        if drop_header and method != "get":
            assert status == 403, said
        after = observe(desk, self.app, self.clients)
        repeat = isinstance(answer, dict) and answer.get("repeat") is True
        may = set() if method == "get" or status >= 400 or repeat else CHANGES.get((method, path), GAMES)
        assert {part: v for part, v in after.items() if part not in may} == {
            part: v for part, v in before.items() if part not in may}, said
        if status < 400 and not repeat and (path == "/api/games/current/actions" or path.endswith(("/undo", "/redo"))):
            assert after["store"] > before["store"], said
            assert json.loads(after["games"][0])["version"] == json.loads(before["games"][0])["version"] + 1, said
        return status, answer

    @rule(data=st.data(), n=st.integers(1, 6))
    def requests(self, data, n):
        """A few requests drawn from the document, each from any of the devices, now and then
        without the header a change must carry."""
        for _ in range(n):
            who = data.draw(st.sampled_from(sorted(CLIENTS)), label="who")
            path, url, method, op, body = _request(self.doc, data, self.desk, self.app)
            drop_header = data.draw(st.sampled_from([False] * 9 + [True]), label="drop the header")
            self.send(who, method, path, body, url=url, drop_header=drop_header)

    @initialize(tablet=st.sampled_from([None, "player", "host"]), stranger=st.sampled_from([None, "ask", "dialed"]))
    def the_devices_come(self, tablet, stranger):
        """Most runs start with the tablet joined and the stranger waiting for its code, or joined."""
        if tablet:
            self.the_devices_move("invite", tablet)
        if stranger:
            self.the_devices_move("ask", "player")
        if stranger == "dialed":
            self.the_devices_move("dialed", "player")

    @rule(step=st.sampled_from(["invite", "invite", "ask", "dialed"]),
          role=st.sampled_from(["player", "player", "host"]))
    def the_devices_move(self, step, role):
        """The host invites the tablet (it opens the QR code's link), or the stranger asks for a
        code, or the code the stranger shows is dialed on the table's phone."""
        if step == "invite":
            status, answer = self.send("host", "post", "/api/join/tokens", {"role": role})
            assert status == 201, answer
            r = self.clients["tablet"].get("/join?token=" + answer["token"])
            assert r.status_code in (303, 429), r.status_code
        elif step == "ask":
            self.send("stranger", "post", "/api/join/dial", {})
        else:
            devices = security.guard(self.app).devices
            device = devices.device(session_device(self.app, self.clients["stranger"]))
            if device is not None and device.status == "waiting":
                assert devices.complete_dial(device.code).status == "joined"

    @rule(data=st.data(), mutate=st.booleans())
    def play_an_offer(self, data, mutate):
        """What the panel sends when a player taps an offer: its fields filled in, on the version
        shown (or an older one), now and then with a field swapped for anything."""
        game = self.desk.table.games.current()
        if not game or not game["offers"]:
            return
        offer = pick(data, game["offers"], "offer")
        action = {k: v for k, v in offer.items() if k not in ("enter", "needs", "labels", "sides", "suits")}
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
            key = pick(data, sorted(action) + ["player", "value", "dice", "plays", "story"], "key")
            action[key] = data.draw(JSON, label="junk")
        version = data.draw(st.sampled_from([game["version"]] * 4 + [game["version"] - 1]), label="version")
        body = {"action": action, "version": version}
        if data.draw(st.booleans(), label="with a key"):
            body["key"] = data.draw(st.sampled_from(["k1", "k2", "k3"]) | st.text(min_size=1, max_size=20), label="key")
        self.send("host", "post", "/api/games/current/actions", body)

    @rule(kind=st.sampled_from(["undo", "undo", "redo", "redo", "finish", "abandon"]), stale=st.booleans())
    def take_back_or_end(self, kind, stale):
        game = self.desk.table.games.current()
        version = (game["version"] if game else 1) - (1 if stale else 0)
        self.send("host", "post", "/api/games/current/" + kind, {"version": version})


    # ------------------------------------------------------------ oversized and extreme numbers
    # (the offer is picked by index, never sampled from the game's offers: that list changes
    # during a run, and Hypothesis must replay a run exactly)

    @rule(pick=st.integers(0, 10 ** 6), field=st.integers(0, 10 ** 6), number=st.sampled_from(EXTREME))
    def play_an_offer_with_an_extreme_number(self, pick, field, number):
        """An offer with an entered field (or one of its own) set to a number past any real game:
        refused with a sentence or, when the rules allow it, accepted; either way no 5xx, money
        conserved, and every page still loads."""
        game = self.desk.table.games.current()
        if not game or not game["offers"]:
            return
        offer = game["offers"][pick % len(game["offers"])]
        action = {k: v for k, v in offer.items() if k not in ("enter", "needs", "labels", "sides", "suits", "choices")}
        fields = list(offer.get("enter", ())) or sorted(set(action) - {"type"}) or ["value"]
        for name in offer.get("enter", ()):
            action[name] = 1
        action[fields[field % len(fields)]] = number
        status, answer = self.send("host", "post", "/api/games/current/actions",
                                   {"action": action, "version": game["version"]})
        assert status in (200, 400, 409, 422), answer
        self.pages_and_money_hold()

    # A restart costs some 0.45 s (a new panel, its templates compiled again), so one run of the
    # machine restarts twice at most: where it falls, and what went before, still vary.
    @precondition(lambda self: self.desk.table.games.current() is not None and self.restarts < 2)
    @rule()
    def the_box_restarts(self):
        """A restart: the desk closed (its store checkpointed and closed, as on SIGTERM) and
        opened again from the data folder alone, with a new panel. The same game, the same
        offers, the same devices and sessions, and every page loads."""
        self.restarts += 1
        before = observe(self.desk, self.app, self.clients)
        self.desk.close()
        self.open_the_box()
        after = observe(self.desk, self.app, self.clients)
        for part in ("store", "games", "devices", "sessions"):
            assert after[part] == before[part], (part, before[part], after[part])
        self.pages_and_money_hold()

    def pages_and_money_hold(self):
        client = self.clients["host"]
        for url in ("/", "/history", "/api/state", "/api/games/current", "/api/games/stats", "/api/games/history"):
            r = client.get(url)
            assert r.status_code == 200, (url, r.status_code, r.data[:300])
        game = self.desk.table.games.current()
        view = (game or {}).get("view") or {}
        if "money_total" in view:                  # SCOOP's ledger: no dollar made or lost
            assert view["money_total"] == 0, view["money_total"]
            assert all(p["cash"] >= 0 for p in view["players"]), view["players"]
        if game:
            assert client.get("/api/games/%d/chart" % game["id"]).status_code == 200



FuzzTheApi.TestCase.settings = settings(max_examples=int(os.environ.get("NEWSDESK_FUZZ_RUNS", "15")),
                                        stateful_step_count=50, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
test_no_input_from_the_document_gives_a_5xx_or_changes_what_it_shouldnt = pytest.mark.slow(FuzzTheApi.TestCase)


def test_every_host_only_request_is_in_the_security_pages_table():
    """docs/security.md's table of who may make which request names every request the API
    declares for the host alone (a stale row let an owner believe backups were anyone's read)."""
    spec = json.loads((Path(__file__).resolve().parents[1] / "web_ui" / "openapi.json").read_text())
    row = next(line for line in (Path(__file__).resolve().parents[1] / "docs" / "security.md").read_text().splitlines()
               if line.startswith("|") and "| the host" in line)
    # the row's requests as (method, path): "`POST`/`DELETE /api/backups/check`" is two of them
    listed = set()
    for before, method, path in re.findall(r"((?:`[A-Z]+`/)*)`([A-Z]+) ([^`]+)`", row):
        for m in re.findall(r"`([A-Z]+)`/", before) + [method]:
            listed.add((m, path))
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            if isinstance(op, dict) and {"device": ["host"]} in op.get("security", []):
                shown = re.sub(r"\{(\w+)\}", r"<\1>", path)
                assert (method.upper(), shown) in listed, (method.upper(), shown, sorted(listed))
