"""MQTT against a real broker (Debian's mosquitto, started here): the table's events out in order
through the cursor, retained state, Home Assistant's discovery, the bell, outages, and faults
that must be said in one sentence while the table keeps working."""

import json
import logging
import re
import threading
import time
import types

import pytest
from conftest import wait_for
from mosquitto import Listener, Mosquitto

from controller.bus import Bus
from controller.config import load_config
from controller.dial_join import DialOutcome
from controller.doctor import Probes, run_doctor
from controller.errors import ConfigError
from controller.mqtt import topics as T
from controller.mqtt.cursor import CURSOR_FILE
from controller.mqtt.publisher import MqttPublisher, Settings
from controller.oracles.editor import SIGNALS
from controller.store import Store
from web_ui import create_app

# the broker's restarts and the reconnect backoffs run in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

BASE = "newsdesk/t1"
FAST = (0.05, 0.2)      # reconnect back-off for tests: look again quickly
WAIT = 20.0             # deadline for a condition on a busy machine (met in well under a second here)


@pytest.fixture
def broker(tmp_path):
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture
def store(tmp_path):
    """A store that skips fsync: durability has tests of its own, these are about delivery, and
    a thousand fsyncs on a busy disk take seconds."""
    s = Store(tmp_path / "store.sqlite3")
    s._db.execute("PRAGMA synchronous=OFF")
    yield s
    s.close()


def publisher(store, bus, url, data_dir, base=BASE, **kw):
    return MqttPublisher(store, bus, Settings(url, base, base.rsplit("/", 1)[-1]), data_dir, backoff=FAST, **kw)


def events_of(listener, base=BASE):
    return [json.loads(p) for p in listener.on(base + "/events")]


def store_and_announce(store, bus, n, kind="dice.roll"):
    for i in range(n):
        bus.publish(store.append(kind, {"total": i % 11 + 2, "faces": [1, 1]}).as_dict())


# ---------------------------------------------------------------- settings (no broker needed)

def test_mqtt_settings_are_layered_and_off_by_default(tmp_path):
    c = load_config(tmp_path, environ={})
    assert c["mqtt_url"] == "" and c["mqtt_discovery"] == "homeassistant" and c["mqtt_commands"] == "bell"
    c = load_config(tmp_path, environ={"NEWSDESK_MQTT_URL": "mqtt://b:1883", "NEWSDESK_TABLE_NAME": "Table 7"})
    assert c["mqtt_url"] == "mqtt://b:1883" and c.table == "Table 7" and c.mqtt_topic == "newsdesk/table-7"
    (tmp_path / "config.toml").write_text('mqtt_topic = "cafe/tables/7"\nmqtt_discovery = "off"\n')
    c = load_config(tmp_path, environ={})
    assert c.mqtt_topic == "cafe/tables/7" and Settings.from_config(c).discovery is None
    with pytest.raises(ConfigError, match="mqtt_topic"):
        load_config(tmp_path, environ={"NEWSDESK_MQTT_TOPIC": "newsdesk/#"})


@pytest.mark.slow
def test_without_a_broker_nothing_changes(desk, client):
    assert desk.mqtt is None
    parts = {p["part"] for p in client.get("/api/health").get_json()["parts"]}
    assert parts == {"phone", "buttons", "display", "audio"}
    assert not (desk.config.data_dir / CURSOR_FILE).exists()


# ---------------------------------------------------------------- against the broker

@pytest.mark.slow
def test_events_and_state_round_trip_through_the_broker(broker, tmp_path, mock_factory):
    listener = Listener(broker, ["newsdesk/#"], persistent=False)
    config = load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "mqtt_url": broker.url, "table_name": "t1", "mqtt_discovery": "off"})
    from controller.app import Newsdesk
    nd = Newsdesk(config, pin_factory=mock_factory)
    try:
        assert wait_for(lambda: nd.mqtt.connected, timeout=WAIT)
        games = nd.table.games
        games.start("scoop1956", [{"name": n} for n in ("Ann", "Bob", "Cat")])
        games.abandon(games.version)
        assert listener.wait(lambda m: len(events_of(listener)) >= 2)
        started, ended = events_of(listener)
        assert (started["type"], ended["type"]) == ("game.started", "game.abandoned")
        assert [p["name"] for p in started["data"]["players"]] == ["Ann", "Bob", "Cat"]
        assert [r["name"] for r in ended["data"]["standings"]] == ["Ann", "Bob", "Cat"]
        assert listener.wait(lambda m: [json.loads(p)["games"][0]["status"] for p in listener.on(
            BASE + "/state/results") if json.loads(p)["games"]] == ["abandoned"])
        rolled = nd.oracles.roll()
        def dial(kind, value):
            nd.table.on_dial_event(types.SimpleNamespace(kind=kind, value=value, t=1.0))

        nd.table.joins = types.SimpleNamespace(
            on_digit=lambda digit, t: DialOutcome(DialOutcome.JOINED) if digit == 9 else None, on_hook=lambda s, t: ())
        dial("hook", "off")
        # A state topic carries the state as it stands once the bus is drained: a lift and a
        # hang-up drained together send "down" alone. Wait for the lift before hanging up.
        assert listener.wait(lambda m: listener.on(BASE + "/state/handset")[-1:] == ["lifted"])
        dial("digit", 4)
        dial("digit", 9)            # taken by a device joining: not sent
        dial("digit", 7)
        dial("hook", "on")
        assert listener.wait(lambda m: len(events_of(listener)) >= 5)
        got = events_of(listener)[2:]
        verdicts = [e for e in got if e["type"] == "editor.verdict"]
        assert [(e["id"], e["type"], e["table"]) for e in got] == [
            (rolled.id, "dice.roll", "t1"), (rolled.id + 1, "editor.verdict", "t1"),
            (rolled.id + 2, "editor.verdict", "t1")]
        assert got[0]["data"]["total"] == rolled.payload["total"]
        assert [v["data"]["digit"] for v in verdicts] == [4, 7]
        assert listener.wait(lambda m: listener.on(BASE + "/state/number"))
        assert json.loads(listener.on(BASE + "/state/number")[-1])["number"] == "47"
        assert listener.wait(lambda m: listener.on(BASE + "/state/handset")[-2:] == ["lifted", "down"])
        assert json.loads(listener.on(BASE + "/state/digit")[-1])["digit"] == 7
        assert listener.on(BASE + "/trigger/digit") == ["4", "7"]
        assert json.loads(listener.on(BASE + "/state/verdict")[-1])["signal"] == verdicts[-1]["data"]["signal"]
        assert listener.on(BASE + "/trigger/verdict") == [v["data"]["signal"] for v in verdicts]
        assert listener.on(BASE + "/trigger/dice") == [str(rolled.payload["total"])]
        assert listener.on(BASE + "/availability")[-1] == "online"
        assert wait_for(lambda: nd.mqtt.backlog == 0, timeout=WAIT)
        assert nd.mqtt.health()["status"] == "ok" and "nothing waiting" in nd.mqtt.health()["summary"]
    finally:
        nd.close()
    assert listener.wait(lambda m: listener.on(BASE + "/availability")[-1:] == ["offline"])
    listener.close()
    # a late subscriber still finds the retained state
    late = Listener(broker, [BASE + "/state/#"], client_id="late", persistent=False)
    assert late.wait(lambda m: {"handset", "verdict", "dice", "game"} <= {t.rsplit("/", 1)[-1] for t, _, r in m if r})
    late.close()


# Home Assistant's documented MQTT discovery fields (home-assistant.io/integrations/<component>.mqtt/):
# what each component requires, and what it may carry, of the ones newsdesk uses.
# (default_entity_id: the entity id asked for, since Home Assistant 2025.10; object_id, which set it
# before, stopped working in 2026.4, so it is not among them)
COMMON = {"name", "unique_id", "default_entity_id", "device", "origin", "availability_topic", "payload_available",
          "payload_not_available", "icon", "entity_category", "json_attributes_topic",
          "json_attributes_template", "qos"}
HA_FIELDS = {
    "binary_sensor": ({"state_topic"}, COMMON | {"state_topic", "payload_on", "payload_off", "device_class",
                                                 "value_template"}),
    "sensor": ({"state_topic"}, COMMON | {"state_topic", "value_template", "unit_of_measurement",
                                          "device_class", "state_class", "options"}),
    "event": ({"state_topic", "event_types"}, COMMON | {"state_topic", "event_types", "device_class",
                                                        "value_template"}),
    "button": ({"command_topic"}, COMMON | {"command_topic", "payload_press", "retain"}),
    "device_automation": ({"automation_type", "topic", "type", "subtype", "device"},
                          {"automation_type", "topic", "type", "subtype", "device", "payload", "qos",
                           "value_template", "origin"}),
}
DEVICE_FIELDS = {"identifiers", "name", "manufacturer", "model", "sw_version", "configuration_url"}
ORIGIN_FIELDS = {"name", "sw_version", "support_url"}
# of Home Assistant's documented device classes and state classes, the ones newsdesk uses
DEVICE_CLASSES = {"sensor": {"enum"}, "binary_sensor": {"problem"}, "event": {"button"}}
STATE_CLASSES: set[str] = set()     # none: nothing newsdesk sends has long-term statistics worth keeping


def test_the_panels_link_is_under_the_name_avahi_announces_the_box_by(broker, store, tmp_path):
    """Two Pis left named raspberrypi: avahi announces the second as raspberrypi-2.local, and a
    link under its host name (raspberrypi.local) opened the other box's panel from Home
    Assistant's device page."""
    names = iter(["raspberrypi-2.local"])
    listener = Listener(broker, ["homeassistant/#"], persistent=False)
    pub = MqttPublisher(store, Bus(), Settings(broker.url, BASE, "t1", panel_url="http://raspberrypi.local:8080/"),
                        tmp_path, backoff=FAST, announced=lambda: next(names, None))
    try:
        expected = len(T.discovery("homeassistant", BASE, "t1", "0.1.0"))
        assert listener.wait(lambda m: len(m) >= expected)
    finally:
        pub.close()
        listener.close()
    links = {json.loads(p)["device"].get("configuration_url") for t, p, _ in listener.messages
             if p and "device" in json.loads(p)}
    assert links == {"http://raspberrypi-2.local:8080/"}


def test_discovery_payloads_carry_home_assistants_documented_fields(broker, store, tmp_path):
    listener = Listener(broker, ["homeassistant/#"], persistent=False)
    pub = MqttPublisher(store, Bus(), Settings(broker.url, BASE, "t1", panel_url="http://box.local:8080/"),
                        tmp_path, backoff=FAST, version="0.1.0",      # discovery is on by default
                        announced=lambda: None)                        # no avahi here: the host name's link
    try:
        expected = len(T.discovery("homeassistant", BASE, "t1", "0.1.0"))
        assert listener.wait(lambda m: len(m) >= expected)
    finally:
        pub.close()
    configs = {t: json.loads(p) for t, p, retained in listener.messages if p}
    removed = {t for t, p, retained in listener.messages if not p}
    # the table in Home Assistant is its install's, not its name's: a rename keeps the device
    assert pub.node == "newsdesk_" + pub.install
    assert removed == {"homeassistant/sensor/%s/health/config" % pub.node}     # now a problem binary sensor
    listener.close()
    kinds = {}
    for topic, config in configs.items():
        prefix, component, node, object_id, last = topic.split("/")
        assert (prefix, node, last) == ("homeassistant", pub.node, "config")
        required, allowed = HA_FIELDS[component]
        assert required <= set(config), (topic, required - set(config))
        assert set(config) <= allowed, (topic, set(config) - allowed)
        assert set(config["device"]) <= DEVICE_FIELDS and config["device"]["identifiers"] == [pub.node]
        if component != "device_automation":
            assert config["unique_id"] == "%s_%s" % (pub.node, object_id)
        assert set(config["origin"]) <= ORIGIN_FIELDS
        assert config["device"]["configuration_url"] == config["origin"]["support_url"] == "http://box.local:8080/"
        assert config.get("device_class") is None or config["device_class"] in DEVICE_CLASSES[component]
        assert config.get("state_class") is None or config["state_class"] in STATE_CLASSES
        if component != "device_automation":
            assert re.fullmatch(r"%s\.newsdesk_t1_%s" % (component, object_id), config["default_entity_id"]), config
        for key in ("state_topic", "command_topic", "topic", "availability_topic", "json_attributes_topic"):
            if key in config:
                assert config[key].startswith(BASE + "/")
        kinds.setdefault(component, []).append(config)
    assert {c["payload_on"] for c in kinds["binary_sensor"]} == {"lifted", "fault"}
    assert kinds["button"][0]["command_topic"] == BASE + "/bell/ring"
    triggers = kinds["device_automation"]
    assert all(c["automation_type"] == "trigger" for c in triggers)
    assert len({(c["type"], c["subtype"]) for c in triggers}) == len(triggers)       # unique per device
    assert {c.get("payload") for c in triggers if c["topic"].endswith("/digit")} == {str(d) for d in range(10)}
    unique = [c["unique_id"] for comp, cs in kinds.items() if comp != "device_automation" for c in cs]
    assert len(unique) == len(set(unique))
    without_bell = T.discovery("homeassistant", BASE, "t1", "0.1.0", commands=())
    assert [(t, c) for t, c in without_bell if "/button/" in t] == [
        ("homeassistant/button/newsdesk_t1/bell/config", None)]     # an empty config takes the button away
    names = {c["name"] for c in kinds["sensor"]}
    assert {"Last digit", "Last number dialed", "Last roll", "Stopwatch digit", "Game", "Leader", "Seat 1",
            "Last winner"} <= names
    by_name = {c["name"]: c for cs in kinds.values() for c in cs if "name" in c}
    # enum sensors offer their values to the automation editor
    assert by_name["Editor's verdict"]["options"] == list(SIGNALS)
    assert by_name["Last digit"]["options"] == by_name["Stopwatch digit"]["options"] == [str(d) for d in range(10)]
    assert (by_name["Health"]["device_class"], by_name["Health"]["payload_on"]) == ("problem", "fault")
    events = {c["name"]: c["event_types"] for c in kinds["event"]}
    assert events["Digit dialed"] == [str(d) for d in range(10)] and events["Editor's verdict given"] == list(SIGNALS)
    assert set(events["Stopwatch pressed"]) == {"started", "reset", "stopped"} and "refused" in events["Bell"]
    assert events["Game ended"] == ["finished", "abandoned"]


@pytest.mark.slow
def test_the_bell_is_the_only_command_and_rings_at_most_once_a_second(broker, store, tmp_path):
    rings, clock = [], [100.0]
    pub = publisher(store, Bus(), broker.url, tmp_path, ring=rings.append, clock=lambda: clock[0])
    sender = Listener(broker, ["newsdesk/#"], client_id="sender", persistent=False)
    try:
        assert wait_for(lambda: pub.taking_commands, timeout=WAIT)
        for _ in range(5):
            sender.client.publish(BASE + "/bell/ring", "PRESS", qos=1)
        sender.client.publish(BASE + "/dice/roll", "PRESS", qos=1)          # not a command the box takes
        assert wait_for(lambda: pub.bell.taken + pub.bell.refused == 5, timeout=WAIT)
        assert rings == [2] and pub.bell.refused == 4
        # Home Assistant hears the answer: one rang, and a refusal (with why); the three more
        # refused within the same second are counted, not each sent
        assert sender.wait(lambda m: len(sender.on(BASE + "/event/bell")) == 2)
        time.sleep(0.3)                         # (any more answers would be here by now)
        answers = [json.loads(p) for p in sender.on(BASE + "/event/bell")]
        assert [a["event_type"] for a in answers] == ["rang", "refused"]
        assert "a second" in answers[1]["why"]
        clock[0] += 1.0
        sender.client.publish(BASE + "/bell/ring", "PRESS", qos=1)
        assert wait_for(lambda: len(rings) == 2, timeout=WAIT)
        assert store.last_id() == 0          # nothing from MQTT is stored
    finally:
        pub.close()
        sender.close()


@pytest.mark.slow
def test_a_bell_press_the_broker_kept_does_not_ring_at_each_connection(broker, store, tmp_path):
    """A press published with the retain flag (by hand, or an automation set up so) would come
    back at every connection: after each restart of the box or the broker, the bell would ring."""
    sender = Listener(broker, ["newsdesk/#"], client_id="sender", persistent=False)
    sender.client.publish(BASE + "/bell/ring", "PRESS", qos=1, retain=True).wait_for_publish()
    rings, clock = [], [100.0]
    pub = publisher(store, Bus(), broker.url, tmp_path, ring=rings.append, clock=lambda: clock[0])
    try:
        assert wait_for(lambda: pub.taking_commands, timeout=WAIT)
        time.sleep(1.0)                     # the kept press arrives with the subscription: left alone
        assert rings == [] and pub.bell.taken + pub.bell.refused == 0
        sender.client.publish(BASE + "/bell/ring", "", qos=1, retain=True).wait_for_publish()     # cleared
        sender.client.publish(BASE + "/bell/ring", "PRESS", qos=1)          # a press as it happens rings
        assert wait_for(lambda: rings == [2], timeout=WAIT)
        assert sender.wait(lambda m: len(sender.on(BASE + "/event/bell")) == 1)
        assert pub.bell.refused == 0 and pub.bell.taken == 1        # the clearing was no request either
        assert [json.loads(p)["event_type"] for p in sender.on(BASE + "/event/bell")] == ["rang"]
    finally:
        pub.close()
        sender.close()


@pytest.mark.slow
def test_a_broker_down_for_1000_events_gets_them_all_once_in_order(broker, store, tmp_path):
    listener = Listener(broker, [BASE + "/events"], client_id="ha")       # persistent session
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        broker.stop()
        assert wait_for(lambda: not pub.connected, timeout=WAIT)
        store_and_announce(store, bus, 1000)
        assert pub.backlog == 1000
        assert pub.health()["status"] == "warn"
        broker.start()
        assert listener.wait(lambda m: len(m) >= 1000, timeout=20)
        assert wait_for(lambda: pub.position == 1000, timeout=WAIT)
    finally:
        pub.close()
        listener.close()
    ids = [e["id"] for e in events_of(listener)]
    assert ids == list(range(1, 1001))
    assert json.loads((tmp_path / CURSOR_FILE).read_text()) == {"%s %s" % (broker.url, BASE): 1000}


@pytest.mark.slow
def test_a_broker_restarted_mid_stream_loses_nothing_and_keeps_order(broker, store, tmp_path):
    listener = Listener(broker, [BASE + "/events"], client_id="ha")
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        store_and_announce(store, bus, 500)
        assert wait_for(lambda: pub.position >= 200, timeout=WAIT)
        broker.stop()                     # while the first 500 are going out ...
        writer = threading.Thread(target=store_and_announce, args=(store, bus, 500))
        writer.start()                    # ... and the next 500 are being stored
        broker.start()
        writer.join()
        assert listener.wait(lambda m: 1000 in {json.loads(p)["id"] for _, p, _ in m}, timeout=20)
    finally:
        pub.close()
        listener.close()
    seen, kept = 0, []
    for e in events_of(listener):           # what a subscriber does: drop repeats by id
        if e["id"] > seen:
            kept.append(e["id"])
            seen = e["id"]
    assert kept == list(range(1, 1001))


def test_a_restarted_publisher_starts_from_its_cursor(broker, store, tmp_path):
    bus = Bus()
    store_and_announce(store, bus, 5)                    # before MQTT: not news to anyone
    pub = publisher(store, bus, broker.url, tmp_path)
    listener = Listener(broker, [BASE + "/events"], client_id="ha")
    assert wait_for(lambda: pub.connected, timeout=WAIT)
    store_and_announce(store, bus, 3)
    assert wait_for(lambda: pub.position == 8, timeout=WAIT)
    pub.close()
    store_and_announce(store, Bus(), 4)                  # stored while newsdesk was stopped
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert listener.wait(lambda m: len(m) >= 7)
    finally:
        pub.close()
        listener.close()
    assert [e["id"] for e in events_of(listener)] == list(range(6, 13))


# ---------------------------------------------------------------- faults: one sentence, the table goes on

@pytest.fixture
def locked_broker(tmp_path):
    b = Mosquitto(tmp_path / "locked", users={"ann": "right"}, tls=True).start()
    yield b
    b.stop()


def _fault_cases(locked_broker):
    port = locked_broker.port
    return {
        "bad url": ("http://ann:right@127.0.0.1:%d" % port, "must start with mqtt://"),
        "wrong password": ("mqtt://ann:wrong@127.0.0.1:%d" % port, "wrong user name or password"),
        "tls failure": ("mqtts://ann:right@127.0.0.1:%d" % locked_broker.tls_port, "doesn't trust"),
    }


def test_a_server_that_never_answers_as_a_broker_is_said_and_tried_again(store, tmp_path):
    import socket
    clock = [1000.0]
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)                        # takes the connection, never says a word
        url = "mqtt://127.0.0.1:%d" % silent.getsockname()[1]
        pub = publisher(store, Bus(), url, tmp_path, clock=lambda: clock[0])
        try:
            assert wait_for(lambda: pub.connecting, timeout=WAIT)
            clock[0] += 11
            assert wait_for(lambda: pub.problem and "did not answer as an MQTT broker" in pub.problem, timeout=WAIT)
            assert pub.health()["status"] == "warn" and not pub.connected
        finally:
            pub.close()


def test_a_missing_ca_file_is_said_in_one_sentence(broker, store, tmp_path):
    pub = MqttPublisher(store, Bus(), Settings(broker.url.replace("mqtt:", "mqtts:"), BASE, "t1",
                                               ca=str(tmp_path / "no-such-ca.pem")), tmp_path, backoff=FAST)
    try:
        assert wait_for(lambda: pub.problem, timeout=WAIT)
        assert pub.problem == "mqtt_ca names %s, which is not there" % (tmp_path / "no-such-ca.pem")
        assert pub.health()["status"] == "warn"
    finally:
        pub.close()


@pytest.mark.slow
@pytest.mark.parametrize("case", ["bad url", "wrong password", "tls failure"])
def test_a_broker_fault_is_one_sentence_on_the_health_strip_and_in_doctor(case, locked_broker, tmp_path,
                                                                          mock_factory):
    url, words = _fault_cases(locked_broker)[case]
    config = load_config(tmp_path / "data", environ={}, overrides={
        "audio": "off", "speech": "off", "mqtt_url": url, "table_name": "t1"})
    from controller.app import Newsdesk
    nd = Newsdesk(config, pin_factory=mock_factory)
    try:
        client = create_app(newsdesk=nd, test_config={"TESTING": True}).test_client()
        client.environ_base["HTTP_X_NEWSDESK"] = "1"
        part = wait_for(lambda: next((p for p in client.get("/api/health").get_json()["parts"]
                                      if p["part"] == "mqtt" and words in p["summary"]), None), timeout=WAIT)
        assert part and part["status"] == "warn", client.get("/api/health").get_json()["parts"]
        assert part["summary"].count(". ") == 0 and part["summary"].endswith(".")
        assert "right" not in part["summary"] and "wrong@" not in part["summary"]
        assert nd.oracles.roll().id == 1                       # the table keeps working
    finally:
        nd.close()
    report = run_doctor(config, Probes(pins=lambda c: (mock_factory, "simulated (mock)", True),
                                       serial_ports=list, port=lambda h, p: "free",
                                       mountinfo=lambda: "", disk_free=lambda p: 10**10))
    found = report.of("mqtt")
    assert len(found) == 1 and found[0].status == "fault" and words in found[0].said
    assert report.exit_status == 1


def test_doctor_says_the_broker_takes_the_box(locked_broker, tmp_path, mock_factory):
    config = load_config(tmp_path / "data", environ={}, overrides={
        "mqtt_url": "mqtt://ann:right@127.0.0.1:%d" % locked_broker.port})
    report = run_doctor(config, Probes(pins=lambda c: (mock_factory, "simulated (mock)", True),
                                       serial_ports=list, port=lambda h, p: "free",
                                       mountinfo=lambda: "", disk_free=lambda p: 10**10))
    assert [f.status for f in report.of("mqtt")] == ["ok"]
    assert run_doctor(load_config(tmp_path / "d2", environ={}), Probes(
        pins=lambda c: (mock_factory, "simulated (mock)", True), serial_ports=list,
        port=lambda h, p: "free", mountinfo=lambda: "", disk_free=lambda p: 10**10)).of("mqtt") == []


@pytest.mark.slow
def test_a_press_while_the_broker_is_away_fires_no_late_trigger(broker, store, tmp_path):
    listener = Listener(broker, [BASE + "/trigger/#", BASE + "/events"], client_id="ha")
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        broker.stop()
        assert wait_for(lambda: not pub.connected, timeout=WAIT)
        store_and_announce(store, bus, 1)
        broker.start()
        assert listener.wait(lambda m: events_of(listener))
        store_and_announce(store, bus, 1)
        assert listener.wait(lambda m: listener.on(BASE + "/trigger/dice") and len(events_of(listener)) == 2)
    finally:
        pub.close()
        listener.close()
    assert [e["id"] for e in events_of(listener)] == [1, 2]
    assert len(listener.on(BASE + "/trigger/dice")) == 1


# ---------------------------------------------------------------- what Home Assistant shows, after restarts

def dial_a_call(store, bus, digits):
    """A call as the table announces it: lift, each digit (live) and its stored verdict, hang up."""
    from controller import events
    bus.publish({"type": events.PHONE_HOOK, "data": {"state": "off"}})
    for digit in digits:
        bus.publish({"type": events.PHONE_DIGIT, "data": {"digit": digit, "taken": None}})
        bus.publish(store.append(events.VERDICT, {"digit": digit, "signal": "OK", "message": "OK."}).as_dict())
    bus.publish({"type": events.PHONE_HOOK, "data": {"state": "on"}})


def retained(broker, client_id):
    """Every state topic as Home Assistant starting finds it (retained, or sent as it subscribed)."""
    late = Listener(broker, [BASE + "/state/#"], client_id=client_id, persistent=False)
    try:
        assert late.wait(lambda m: {"digit", "number", "game", "health"} <= {t.rsplit("/", 1)[-1] for t, _, _ in m})
        return {t.rsplit("/", 1)[-1]: p for t, p, r in late.messages}
    finally:
        late.close()


@pytest.mark.slow
def test_every_state_comes_back_from_the_store_after_newsdesk_and_the_broker_restart(broker, store, tmp_path):
    """Newsdesk restarts, then the broker loses its retained messages: Home Assistant starting
    after that finds every state as it was, the last digit and number included."""
    listener = Listener(broker, [BASE + "/state/#"], client_id="ha", persistent=False)
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        dial_a_call(store, bus, [4, 2])
        assert listener.wait(lambda m: listener.on(BASE + "/state/number"))
    finally:
        pub.close()
        listener.close()
    before = retained(broker, "ha-before")
    broker.forget()
    pub = publisher(store, Bus(), broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        after = retained(broker, "ha-after")
    finally:
        pub.close()
    assert json.loads(before["number"])["number"] == "42" and json.loads(before["digit"])["digit"] == 2
    assert after == before


def test_a_digit_dialed_again_is_seen_by_home_assistant(broker, store, tmp_path):
    listener = Listener(broker, [BASE + "/state/digit", BASE + "/event/#"], client_id="ha", persistent=False)
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        for n in (1, 2):        # a state is sent as it stands once the bus is drained: one digit at a time
            dial_a_call(store, bus, [2])
            assert listener.wait(lambda m, n=n: len(listener.on(BASE + "/event/digit")) == n
                                 and len(listener.on(BASE + "/state/digit")) == n)
    finally:
        pub.close()
        listener.close()
    states = [json.loads(p) for p in listener.on(BASE + "/state/digit")]
    assert [s["digit"] for s in states] == [2, 2] and states[0] != states[1]     # its attributes change
    assert [json.loads(p)["event_type"] for p in listener.on(BASE + "/event/digit")] == ["2", "2"]
    config = dict(T.discovery("homeassistant", BASE, "t1", ""))["homeassistant/sensor/newsdesk_t1/last_digit/config"]
    assert config["json_attributes_topic"] == BASE + "/state/digit"


def render(template, payload):
    """A discovery template rendered as Home Assistant's MQTT integration does: value_json is the
    payload, in a sandbox that lets a template read but not change what it is given."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    env = ImmutableSandboxedEnvironment()
    env.filters["tojson"] = json.dumps
    return env.from_string(template).render(value_json=json.loads(payload), value=payload)


def test_no_value_is_said_one_way_and_a_tie_as_a_person_says_it(broker, store, tmp_path):
    listener = Listener(broker, [BASE + "/state/game"], client_id="ha", persistent=False)
    pub = publisher(store, Bus(), broker.url, tmp_path)
    try:
        assert listener.wait(lambda m: listener.on(BASE + "/state/game"))
    finally:
        pub.close()
        listener.close()
    between_games = listener.on(BASE + "/state/game")[-1]
    game_sensors = [c for t, c in T.discovery("homeassistant", BASE, "t1", "")
                    if c and c.get("state_topic") == BASE + "/state/game"]
    assert len(game_sensors) == 2 + T.SEATS
    assert {render(c["value_template"], between_games) for c in game_sensors} == {T.NO_VALUE}
    three = {"id": 1, "engine": "tally", "version": 2, "players": [], "view": {"players": [
        {"name": n, "score": 5} for n in ("Ann", "Bob", "Cat")]}}
    state = T.game_state("t1", three)
    assert state["game"]["leader"] == "Ann, Bob and Cat" and state["game"]["leaders"] == ["Ann", "Bob", "Cat"]
    leader = next(c for c in game_sensors if c["name"] == "Leader")
    assert render(leader["value_template"], T.dumps(state)) == "Ann, Bob and Cat"
    nobody = T.game_state("t1", dict(three, view={"players": [{"name": "Ann"}]}))
    assert render(leader["value_template"], T.dumps(nobody)) == T.NO_VALUE


def sensor(name):
    return next(c for _, c in T.discovery("homeassistant", BASE, "t1", "") if c and c.get("name") == name)


def shown(template, payload):
    """The state Home Assistant's MQTT sensor takes from a message (sensor.py's _update_state):
    the template rendered and stripped; "None" (PAYLOAD_NONE) is unknown; past 255 characters
    (util.py's check_state_too_long) the state is dropped with a warning, also unknown."""
    state = render(template, payload).strip()
    return None if state == "None" or len(state) > 255 else state


def test_a_number_dialed_on_and_on_stays_within_the_longest_state_home_assistant_keeps():
    template = sensor("Last number dialed")["value_template"]
    assert shown(template, T.dumps({"number": "4711", "at": "x"})) == "4711"
    digits = "".join(str(i % 10) for i in range(300))
    state = shown(template, T.dumps({"number": digits, "at": "x"}))
    assert state is not None and len(state) == 255 and state == T.CUT + digits[-254:]
    assert shown(template, T.dumps({"number": digits[:255], "at": "x"})) == digits[:255]   # whole while it fits


def test_a_player_called_none_shows_as_their_name_not_as_unknown():
    """Home Assistant reads a rendered "None" as no value: the leader "None" must not read so."""
    game = {"id": 1, "engine": "tally", "version": 2, "players": [], "view": {"players": [
        {"name": "None", "score": 9}, {"name": "Ann", "score": 5}]}}
    leader = sensor("Leader")["value_template"]
    state = shown(leader, T.dumps(T.game_state("t1", game)))
    assert state is not None and state.strip("\u2060") == "None"
    assert shown(leader, T.dumps(T.game_state("t1", None))) is None       # between games: unknown, as before


def test_the_stopwatch_trigger_fires_on_every_press(broker, store, tmp_path):
    from controller import events
    listener = Listener(broker, [BASE + "/trigger/stopwatch", BASE + "/event/stopwatch"], client_id="ha",
                        persistent=False)
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        bus.publish({"type": events.STOPWATCH_STARTED, "data": {}})
        bus.publish(store.append(events.STOPWATCH_ROLL, {"digit": 3, "shown": "0:01.23"}).as_dict())
        bus.publish({"type": events.STOPWATCH_STARTED, "data": {}})
        bus.publish({"type": events.STOPWATCH_RESET, "data": {}})
        assert listener.wait(lambda m: len(listener.on(BASE + "/event/stopwatch")) == 4)
    finally:
        pub.close()
        listener.close()
    assert listener.on(BASE + "/trigger/stopwatch") == ["started", "3", "started", "reset"]
    assert [json.loads(p)["event_type"] for p in listener.on(BASE + "/event/stopwatch")] == [
        "started", "stopped", "started", "reset"]


def test_the_button_triggers_fire_for_the_tables_own_buttons_only(broker, store, tmp_path):
    """Home Assistant's "dice_button" and "stopwatch_button" device triggers (button_short_press)
    fire when that button is pressed: not for a roll, a start or a reset made from the panel. The
    event entities tell every one, with where it came from."""
    from controller import events
    listener = Listener(broker, [BASE + "/trigger/#", BASE + "/event/#"], client_id="ha", persistent=False)
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        for source in ("panel", "button"):
            bus.publish(store.append(events.DICE_ROLL, {"total": 7, "faces": [3, 4], "source": source}).as_dict())
            bus.publish({"type": events.STOPWATCH_STARTED, "data": {"mode": "stopwatch", "source": source}})
            if source == "panel":
                bus.publish({"type": events.STOPWATCH_RESET, "data": {}})
            else:
                bus.publish(store.append(events.STOPWATCH_ROLL, {"digit": 3, "shown": "0:01.23",
                                                                 "source": source}).as_dict())
        bus.publish({"type": events.PHONE_DIGIT, "data": {"digit": 1, "taken": None}})     # sent after them all
        assert listener.wait(lambda m: listener.on(BASE + "/trigger/digit"))
    finally:
        pub.close()
        listener.close()
    triggers = {c["subtype"]: c for _, c in T.discovery("homeassistant", BASE, "t1", "") if c and "subtype" in c}

    def fired(subtype):
        """The messages that fire a device trigger, as Home Assistant matches them: its topic, and
        its payload when it has one."""
        config = triggers[subtype]
        return [p for t, p, _ in listener.messages if t == config["topic"] and config.get("payload") in (None, p)]

    assert (len(fired("dice_button")), len(fired("stopwatch_button"))) == (1, 2)     # a roll; a start and a stop
    assert listener.on(BASE + "/trigger/stopwatch") == ["started", "reset", "started", "3"]     # what happened
    assert listener.on(BASE + "/trigger/dice") == ["7", "7"]
    said = [(t.rsplit("/", 1)[-1], json.loads(p)["event_type"], json.loads(p).get("source"))
            for t, p, _ in listener.messages if t in (BASE + "/event/dice", BASE + "/event/stopwatch")]
    assert said == [("dice", "roll", "panel"), ("stopwatch", "started", "panel"), ("stopwatch", "reset", None),
                    ("dice", "roll", "button"), ("stopwatch", "started", "button"), ("stopwatch", "stopped", "button")]


def kept_game(game_id, status, winners):
    """A game as GameSession.history() lists it."""
    return {"id": game_id, "engine": "tally", "title": "Tally", "status": status,
            "ended": "2026-11-23T20:%02d:00+00:00" % game_id, "players": ["Ann", "Bob", "Cat"], "winners": winners,
            "standings": [{"name": n, "score": 5 if n in winners else 1, "winner": n in winners}
                          for n in ("Ann", "Bob", "Cat")]}


def test_who_won_the_last_game_stays_in_home_assistant_after_it_ends():
    """A game's end clears state/game, and every seat goes unknown with it: the Last winner
    sensor keeps who won, from the games kept, and a game abandoned after it leaves it be."""
    last = sensor("Last winner")
    assert last["state_topic"] == last["json_attributes_topic"] == BASE + "/state/results"
    history = [kept_game(3, "abandoned", []), kept_game(2, "finished", ["Ann", "Bob"]),
               kept_game(1, "finished", ["Cat"])]
    results = T.dumps(T.results_state("t1", history))
    assert shown(last["value_template"], results) == "Ann and Bob"
    attributes = json.loads(render(last["json_attributes_template"], results))
    assert {k: attributes[k] for k in ("id", "title", "status", "ended", "winners")} == {
        "id": 2, "title": "Tally", "status": "finished", "ended": "2026-11-23T20:02:00+00:00", "winners": ["Ann", "Bob"]}
    assert [r["name"] for r in attributes["standings"] if r["winner"]] == ["Ann", "Bob"]
    for nobody_won in ([], [kept_game(1, "abandoned", [])]):      # no value, said one way
        results = T.dumps(T.results_state("t1", nobody_won))
        assert shown(last["value_template"], results) is None
        assert json.loads(render(last["json_attributes_template"], results)) == {}
    tied = ["%s %s" % (n, "x" * 45) for n in "ABCDEF"]       # six tied: past what Home Assistant keeps
    state = shown(last["value_template"], T.dumps(T.results_state("t1", [kept_game(1, "finished", tied)])))
    assert state is not None and len(state) == T.STATE_MOST and state == (T.names(tied)[:254] + T.CUT)


def test_a_message_sent_after_a_burst_of_retained_ones_arrives_after_them(broker):
    """The box's client sends in the order it is asked. paho held a QoS 1 message back while 20
    were unacknowledged but sent a QoS 0 one at once: after the announcement's burst of configs
    and states, a game's end (QoS 0) came to Home Assistant before the results (QoS 1, retained)
    that an automation on it reads."""
    from controller.mqtt.client import make_client
    from controller.mqtt.url import parse_mqtt_url

    listener = Listener(broker, ["t/results", "t/event"], client_id="ha", persistent=False)
    client = make_client(parse_mqtt_url(broker.url), "box")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        for n in range(5):
            for i in range(60):                 # an announcement: every config, retained
                client.publish("t/config/%d" % i, "x" * 400, qos=1, retain=True)
            client.publish("t/results", str(n), qos=1, retain=True)
            client.publish("t/event", str(n), qos=0)
        assert listener.wait(lambda m: len(listener.on("t/event")) == 5 and "4" in listener.on("t/results"))
    finally:
        client.loop_stop()
        client.disconnect()
        listener.close()
    heard = [(t, p) for t, p, _ in listener.messages]
    assert all(heard.index(("t/results", str(n))) < heard.index(("t/event", str(n))) for n in range(5)), heard


def test_a_games_end_is_an_event_with_its_result(broker, store, tmp_path):
    """The Game ended event entity: finished or abandoned, with the game as state/results keeps it."""
    from controller import events
    history = []
    listener = Listener(broker, [BASE + "/event/game", BASE + "/state/results"], client_id="ha", persistent=False)
    bus = Bus()
    pub = publisher(store, bus, broker.url, tmp_path, history=lambda: list(history))
    try:
        assert listener.wait(lambda m: listener.on(BASE + "/state/results"))     # none yet, and heard
        for game in (kept_game(1, "finished", ["Cat"]), kept_game(2, "abandoned", [])):
            history.insert(0, game)
            bus.publish({"type": events.GAME_ENDED[game["status"]], "data": {
                "game": game["id"], "engine": "tally", "status": game["status"], "winners": game["winners"]}})
        assert listener.wait(lambda m: len(listener.on(BASE + "/event/game")) == 2)
    finally:
        pub.close()
        listener.close()
    ended = [json.loads(p) for p in listener.on(BASE + "/event/game")]
    assert [(e["event_type"], e["id"], e["won_by"]) for e in ended] == [("finished", 1, "Cat"), ("abandoned", 2, None)]
    assert ended[1] == dict(json.loads(listener.on(BASE + "/state/results")[-1])["games"][0], event_type="abandoned")
    heard = [(t.rsplit("/", 1)[-1], json.loads(p)) for t, p, _ in listener.messages]
    for i, (what, payload) in enumerate(heard):     # the results first: an automation on the end reads them
        if what == "game":
            assert any(payload["id"] in [g["id"] for g in kept["games"]] for was, kept in heard[:i] if was == "results")
    config = sensor("Game ended")       # an event entity
    assert config["state_topic"] == BASE + "/event/game" and config["event_types"] == ["finished", "abandoned"]


def test_no_sensor_keeps_statistics_that_mix_players_units_or_dice():
    """Home Assistant keeps long-term statistics of a sensor with a state class. Seat 1 is Ann's
    dollars in one game and Bob's points in the next, and a roll's hourly mean is weighted by how
    long each roll stood, whatever dice were set: none of them has one."""
    for name in ["Last roll"] + ["Seat %d" % (seat + 1) for seat in range(T.SEATS)]:
        assert "state_class" not in sensor(name), name


@pytest.mark.slow
@pytest.mark.parametrize("phone, status, summary", [
    (lambda: (None, None), "ok", "The table is running."),
    (lambda: ({"connected": False, "port": None, "message": "phone not connected yet"}, None), "fault",
     "phone not connected yet"),
    (lambda: (None, "the pulse line has been LOW for 5 s with the handset down"), "fault",
     "Wiring fault: the pulse line has been LOW for 5 s with the handset down."),
])
def test_the_health_a_start_sends_is_the_phones_as_it_is_then(broker, store, tmp_path, phone, status, summary):
    """A box that starts with the phone unplugged, or a wiring fault still there, says so: not
    "running" because nothing has been announced since the start."""
    pub = publisher(store, Bus(), broker.url, tmp_path, phone=phone)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        late = Listener(broker, [BASE + "/state/health"], client_id="ha-%s" % status, persistent=False)
        try:
            assert late.wait(lambda m: late.on(BASE + "/state/health"))
            health = json.loads(late.on(BASE + "/state/health")[-1])
        finally:
            late.close()
        assert (health["status"], health["summary"]) == (status, summary)
    finally:
        pub.close()


def announced_once(store, broker, data_dir, base):
    """The table announced under ``base`` and stopped: what a rename leaves on the broker."""
    pub = publisher(store, Bus(), broker.url, data_dir, base=base)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
    finally:
        pub.close()


@pytest.mark.slow
def test_a_table_renamed_is_the_same_device_in_home_assistant_and_its_old_states_are_cleared(broker, store,
                                                                                             tmp_path):
    """Its base topic follows the table's name, but its device is its install's: a rename sends the
    same configs again (the same topics and unique ids: Home Assistant keeps the entities, their
    history and the automations naming them), now naming the new state topics; the states and
    "online" kept under the old base are cleared, or they would stay there for good. (The device
    was the base's: a rename took the old device away and made a new one.)"""
    old_base, new_base = "newsdesk/old-name", "newsdesk/new-name"
    announced_once(store, broker, tmp_path, old_base)
    pub = publisher(store, Bus(), broker.url, tmp_path, base=new_base)
    config = "homeassistant/sensor/%s/last_digit/config" % pub.node
    try:
        # kept once the broker has acknowledged every clearing message (no guess at how long it takes)
        assert wait_for(lambda: (pub.kept.get("announced") or {}).get("base") == new_base, timeout=WAIT)
        seen = []

        def kept_by_the_broker():
            """What a Home Assistant subscribing now is handed: the retained messages."""
            ha = Listener(broker, ["homeassistant/#", "newsdesk/#"], client_id="ha-late", persistent=False)
            try:
                assert ha.wait(lambda m: any(t == config for t, _, _ in m))
                time.sleep(0.5)             # every kept message arrives with the subscription
                seen[:] = [{t: p for t, p, r in ha.messages if r and p}]
            finally:
                ha.close()
            return (any(t.startswith(new_base + "/state/") for t in seen[0])
                    and json.loads(seen[0][config])["state_topic"].startswith(new_base + "/"))
        # the new states follow the clearing on the same connection: a busy machine may take a moment
        assert wait_for(kept_by_the_broker, timeout=WAIT), sorted(seen[0])
        kept = seen[0]
        assert not [t for t in kept if "old-name" in t or "old_name" in t], sorted(kept)
        assert {t.split("/")[2] for t in kept if t.startswith("homeassistant/")} == {pub.node}
        assert json.loads(kept[config])["unique_id"] == pub.node + "_last_digit"
        assert pub.kept.get("retired") == []            # nothing to take away from Home Assistant
    finally:
        pub.close()


def test_where_a_renamed_table_was_is_forgotten_only_once_the_broker_took_the_clearing(store, tmp_path):
    """A box stopped (or cut off) between sending the empty retained messages that clear its old
    device and the broker taking them clears the old place again at its next connection: keeping
    the new place at once left Home Assistant's ghost device for good."""
    class Sent:
        def __init__(self, mid):
            self.mid = mid

    class Client:                       # a connection whose acknowledgements haven't come yet
        def __init__(self):
            self.sent = []

        def publish(self, topic, payload, qos=0, retain=False):
            self.sent.append(topic)
            return Sent(len(self.sent))

    pub = publisher(store, Bus(), "mqtt://127.0.0.1:1", tmp_path, base="newsdesk/new-name")
    try:
        pub.kept.put("announced", {"base": "newsdesk/old-name", "discovery": "homeassistant"})
        client = Client()
        pub._clear_where_it_was(client)
        assert client.sent and all("old-name" in t or "old_name" in t for t in client.sent)
        assert pub.kept.get("announced")["base"] == "newsdesk/old-name"       # not yet: nothing acknowledged
        for mid in range(1, len(client.sent)):
            pub._on_publish(client, None, mid, None, None)
        assert pub.kept.get("announced")["base"] == "newsdesk/old-name"       # one still on its way
        pub._on_publish(client, None, len(client.sent), None, None)
        assert pub.kept.get("announced") == {"base": "newsdesk/new-name", "discovery": "homeassistant",
                                             "node": pub.node}
    finally:
        pub.close()


def test_an_old_place_kept_before_the_device_was_the_installs_is_told_under_its_bases_node(store, tmp_path):
    """A place kept (``retired``) by a newsdesk from before names no node: its configs were under
    its base's, and those are the empty configs Home Assistant must hear."""
    class Sent:
        def __init__(self, mid):
            self.mid = mid

    class Client:
        def __init__(self):
            self.sent = []

        def publish(self, topic, payload, qos=0, retain=False):
            self.sent.append((topic, payload))
            return Sent(len(self.sent))

    pub = publisher(store, Bus(), "mqtt://127.0.0.1:1", tmp_path, base="newsdesk/new-name")
    try:
        pub.kept.put("retired", [{"base": "newsdesk/old-name", "discovery": "homeassistant"}])
        assert pub._retired() == [{"base": "newsdesk/old-name", "discovery": "homeassistant",
                                   "node": T.node_id("newsdesk/old-name")}]
        client = Client()
        pub._tell_removals(client, set())
        assert {t for t, p in client.sent} == set(T.discovery_topics("homeassistant", "newsdesk/old-name"))
        assert all(p == "" for t, p in client.sent) and all("/newsdesk_old-name/" in t for t, p in client.sent)
        for mid in range(1, len(client.sent) + 1):
            pub._on_publish(client, None, mid, None, None)
        assert pub.kept.get("retired") == []          # told: forgotten
    finally:
        pub.close()


def home_assistant_comes_online(ha):
    """What Home Assistant says on its birth topic each time it starts (not retained, as it sends it)."""
    ha.client.publish(T.birth("homeassistant"), T.BIRTH, qos=1).wait_for_publish(5)


def test_home_assistant_coming_online_is_sent_the_discovery_configs_again(broker, store, tmp_path):
    """A config Home Assistant missed (it was away, and the broker lost or never kept it) comes
    with its next start, as Home Assistant's documentation asks of a device."""
    pub = publisher(store, Bus(), broker.url, tmp_path)
    config = "homeassistant/sensor/%s/last_digit/config" % pub.node
    ha = Listener(broker, ["homeassistant/#"], client_id="ha", persistent=False)
    try:
        assert wait_for(lambda: pub.hearing_births, timeout=WAIT)
        assert ha.wait(lambda m: ha.on(config))
        home_assistant_comes_online(ha)
        assert ha.wait(lambda m: len(ha.on(config)) == 2)
    finally:
        ha.close()
        pub.close()
    assert json.loads(ha.on(config)[-1])["unique_id"] == pub.node + "_last_digit"


def test_a_flood_of_births_is_answered_once_then_once_more_after_the_quiet_time(broker, store, tmp_path):
    """Anyone on the broker may say "online" on Home Assistant's birth topic, and each answer is
    every config again: 200 births in a burst made 200 answers (some 9,000 messages). A burst is
    answered once at once and, for the births after it, once more after BIRTH_QUIET_S."""
    from controller.mqtt import publisher as P
    now = [1000.0]
    pub = publisher(store, Bus(), broker.url, tmp_path, clock=lambda: now[0])
    config = "homeassistant/sensor/%s/last_digit/config" % pub.node
    ha = Listener(broker, ["homeassistant/#"], client_id="ha", persistent=False)
    try:
        assert wait_for(lambda: pub.hearing_births, timeout=WAIT)
        assert ha.wait(lambda m: len(ha.on(config)) == 1)
        home_assistant_comes_online(ha)
        assert ha.wait(lambda m: len(ha.on(config)) == 2)   # answered at once
        for _ in range(200):
            ha.client.publish(T.birth("homeassistant"), T.BIRTH, qos=0)
        home_assistant_comes_online(ha)                      # (qos 1: the burst has reached the broker)
        time.sleep(1.0)                                     # the burst, heard and held
        assert len(ha.on(config)) == 2
        now[0] += P.BIRTH_QUIET_S
        assert ha.wait(lambda m: len(ha.on(config)) == 3)
        time.sleep(1.0)
        assert len(ha.on(config)) == 3
    finally:
        ha.close()
        pub.close()


def test_a_table_a_newsdesk_from_before_announced_moves_to_its_installs_device_and_the_old_one_goes(
        broker, store, tmp_path):
    """A newsdesk from before made the device from the base topic. At the first start of this one
    the configs under the base's node are cleared, and told again when Home Assistant comes
    online (it removes an entity only on hearing its empty config; it was away), then forgotten;
    the device is the install's from then on. A box updated once changes device once."""
    legacy = {t: c for t, c in T.discovery("homeassistant", BASE, "t1", "") if c}
    assert all("/%s/" % T.node_id(BASE) in t for t in legacy)
    before = Listener(broker, ["homeassistant/#"], client_id="old-newsdesk", persistent=False)
    try:
        for topic, config in legacy.items():
            before.client.publish(topic, T.dumps(config), qos=1, retain=True).wait_for_publish(5)
    finally:
        before.close()
    (tmp_path / "mqtt-kept.json").write_text(json.dumps({"install": "0123456789ab", "announced": {
        "base": BASE, "discovery": "homeassistant"}}))
    pub = publisher(store, Bus(), broker.url, tmp_path)      # Home Assistant is away
    try:
        assert wait_for(lambda: (pub.kept.get("announced") or {}).get("node") == pub.node and pub.hearing_births,
                        timeout=WAIT)
        assert pub.kept.get("retired") == [{"base": BASE, "discovery": "homeassistant", "node": T.node_id(BASE)}]
        ha = Listener(broker, ["homeassistant/#"], client_id="ha", persistent=False)
        try:
            home_assistant_comes_online(ha)
            new = {t for t, c in T.discovery("homeassistant", BASE, "t1", "", node=pub.node) if c}
            assert ha.wait(lambda m: set(legacy) <= {t for t, p, r in m if not p} and new <= {t for t, p, r in m if p})
            assert not [t for t, p, r in ha.messages if t in new and not p]     # the new device stays
            assert wait_for(lambda: pub.kept.get("retired") == [], timeout=WAIT)       # told: forgotten
        finally:
            ha.close()
        late = Listener(broker, ["homeassistant/#"], client_id="ha-late", persistent=False)
        try:
            assert late.wait(lambda m: new <= {t for t, p, r in m if r and p})
            time.sleep(0.3)
            assert not set(legacy) & {t for t, p, r in late.messages if r and p}      # the broker keeps none
        finally:
            late.close()
    finally:
        pub.close()


def test_a_press_after_a_flood_on_home_assistants_status_topic_rings_within_a_second(broker, store, tmp_path):
    """Anyone on the broker may publish on Home Assistant's birth topic, which the box listens to.
    paho's loop() reads one packet a call while nothing of the box's own waits for an answer, so
    at one call a turn a flood of 900 births (held, within the quiet time after an answer) kept a
    real press waiting behind it for some 45 seconds."""
    rings = []
    pub = publisher(store, Bus(), broker.url, tmp_path, ring=lambda times: rings.append(time.monotonic()))
    ha = Listener(broker, ["homeassistant/#"], client_id="ha", persistent=False)
    try:
        assert wait_for(lambda: pub.taking_commands and pub.hearing_births, timeout=WAIT)
        config = "homeassistant/sensor/%s/last_digit/config" % pub.node
        home_assistant_comes_online(ha)             # answered at once; the flood within BIRTH_QUIET_S is held
        assert ha.wait(lambda m: len(ha.on(config)) == 2)
        time.sleep(0.2)                             # (the answer's acknowledgements in)
        for _ in range(900):
            ha.client.publish(T.birth("homeassistant"), T.BIRTH, qos=0)
        pressed = time.monotonic()
        ha.client.publish(BASE + "/bell/ring", "PRESS", qos=1)
        assert wait_for(lambda: rings, timeout=5.0), "the press after the flood did not ring within 5 s"
        assert rings[0] - pressed < 1.5
    finally:
        ha.close()
        pub.close()


def test_a_burst_of_refused_bell_requests_is_read_at_once_and_told_once_then_counted(broker, store, tmp_path,
                                                                                     caplog):
    """A refused request was a line in the log and an event to Home Assistant each: a burst from
    a stuck automation or a stranger multiplied into both. The first refusal is told as before;
    the rest make one event a second at most and one line with their count a minute."""
    from controller.mqtt import bell as B
    now = [1000.0]
    pub = publisher(store, Bus(), broker.url, tmp_path, clock=lambda: now[0])
    ha = Listener(broker, ["newsdesk/#"], client_id="ha", persistent=False)
    refusals = lambda: [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]   # noqa: E731
    try:
        assert wait_for(lambda: pub.taking_commands, timeout=WAIT)
        with caplog.at_level(logging.INFO, logger="controller.mqtt.publisher"):
            for _ in range(300):
                ha.client.publish(BASE + "/bell/ring", "RING", qos=1)
            # read at once: at a packet a turn they took 15 s; 5 s leaves a busy machine its room
            # (a 1.5 s bound failed at 1.76 s beside two emulated Pis being built)
            assert wait_for(lambda: pub.bell.refused == 300, timeout=5.0), "300 requests not read within 5 s"
            assert len(refusals()) == 1 and "payload is PRESS, not 'RING'" in refusals()[0]
            assert ha.wait(lambda m: ha.on(BASE + "/event/bell"), timeout=5.0)
            time.sleep(0.3)                                     # (any more events would be here by now)
            assert [json.loads(p)["event_type"] for p in ha.on(BASE + "/event/bell")] == ["refused"]
            now[0] += B.REFUSAL_LOG_EVERY
            assert wait_for(lambda: len(refusals()) == 2, timeout=WAIT)
            assert "299 more bell requests refused in the last minute" in refusals()[1]
            now[0] += B.REFUSAL_LOG_EVERY                       # a quiet minute: the next refusal is told whole
            time.sleep(0.2)
            ha.client.publish(BASE + "/bell/ring", "HELLO", qos=1)
            assert wait_for(lambda: len(refusals()) == 3, timeout=WAIT)
            assert "not 'HELLO'" in refusals()[2]
            assert ha.wait(lambda m: len(ha.on(BASE + "/event/bell")) == 2, timeout=5.0)
            assert "HELLO" in json.loads(ha.on(BASE + "/event/bell")[-1])["why"]
    finally:
        ha.close()
        pub.close()


def test_refusals_in_the_last_minute_are_counted_with_the_last_ones_why():
    """Pure: how many requests were refused in the last minute, and why the last one was."""
    from controller.mqtt.bell import REFUSAL_WINDOW, Refusals
    r = Refusals()
    assert r.recent(1000.0) == (0, "")
    r.refused("first", 1000.2)
    for i in range(239):
        r.refused("why %d" % i, 1000.5 + i * 0.1)
    assert r.recent(1030.0) == (240, "why 238")
    assert r.recent(1000.0 + REFUSAL_WINDOW) == (240, "why 238")     # the first's second is not over yet
    assert r.recent(1001.0 + REFUSAL_WINDOW)[0] == 239 - 5           # 1000.2 to 1000.9: the first and 5 more
    assert r.recent(1025.0 + REFUSAL_WINDOW) == (0, "")


def test_a_flood_of_refused_bell_requests_is_said_on_the_health_strip_until_a_quiet_minute(broker, store,
                                                                                          tmp_path):
    """A flood of bell requests, all refused, was told only in the log and Home Assistant's
    events: the panel's health strip said "ok" throughout. Beyond a few in a minute it says so
    (the table keeps working, so a warning); a minute without them and it is ok again. A lost
    connection is still said first."""
    from controller.mqtt import bell as B, publisher as P
    now = [1000.0]
    pub = publisher(store, Bus(), broker.url, tmp_path, clock=lambda: now[0])
    ha = Listener(broker, ["newsdesk/#"], client_id="ha", persistent=False)
    try:
        assert wait_for(lambda: pub.taking_commands, timeout=WAIT)
        assert pub.health()["status"] == "ok"
        for _ in range(P.FLOOD_REFUSALS):                  # a few refused: the log and the events tell them
            ha.client.publish(BASE + "/bell/ring", "RING", qos=1)
        assert wait_for(lambda: pub.bell.refused == P.FLOOD_REFUSALS, timeout=WAIT)
        time.sleep(0.3)
        assert pub.health()["status"] == "ok", pub.health()
        for _ in range(240 - P.FLOOD_REFUSALS):
            ha.client.publish(BASE + "/bell/ring", "RING", qos=1)
        assert wait_for(lambda: pub.bell.refused == 240, timeout=WAIT)
        said = ("Bell requests are being refused: 240 in the last minute (the last: a ring request's payload "
                "is PRESS, not 'RING').")
        assert wait_for(lambda: pub.health()["summary"] == said, timeout=2.0), pub.health()
        health = pub.health()
        assert health["status"] == "warn"
        assert "keeps working" in health["detail"] and BASE + "/bell/ring" in health["detail"]
        now[0] += B.REFUSAL_WINDOW - 1                      # still within the minute
        time.sleep(0.3)
        assert pub.health()["status"] == "warn"
        now[0] += 2                                         # a minute without them
        assert wait_for(lambda: pub.health()["status"] == "ok", timeout=2.0), pub.health()
        assert pub.health()["summary"].endswith("nothing waiting.")
        # flooded again, and the broker lost: the lost connection is said, not the bell
        for _ in range(50):
            ha.client.publish(BASE + "/bell/ring", "RING", qos=1)
        assert wait_for(lambda: pub.health()["status"] == "warn", timeout=WAIT)
        ha.close()
        broker.stop()
        assert wait_for(lambda: not pub.connected, timeout=WAIT)
        assert "Bell" not in pub.health()["summary"] and "broker" in pub.health()["summary"], pub.health()
    finally:
        ha.close()
        pub.close()


def test_a_connection_the_broker_drops_right_after_it_is_made_is_tried_again_later_each_time(broker, store,
                                                                                               tmp_path):
    """A broker dropping each connection as soon as it is made (another client taking its id)
    was tried again a second later for ever: the back-off went back to its least at each
    connection. It grows until a connection lasts."""
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    from controller.mqtt import publisher as P
    now = [1000.0]
    pub = MqttPublisher(store, Bus(), Settings(broker.url, BASE, "t1"), tmp_path, backoff=(1.0, 30.0),
                        clock=lambda: now[0])

    def dropped():
        """Another client connects with the box's id, and the broker drops the box's connection:
        the seconds until the box tries again."""
        taker = paho.Client(CallbackAPIVersion.VERSION2, client_id=pub._client._client_id.decode(),
                            protocol=paho.MQTTv311)
        taker.connect("127.0.0.1", broker.port)
        taker.loop_start()
        try:
            assert wait_for(lambda: not pub.connected, timeout=WAIT)
        finally:
            taker.disconnect()
            taker.loop_stop()
        return pub._next_attempt - now[0]

    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        assert dropped() == 1.0
        for wait in (1.0, 2.0, 4.0):
            now[0] += wait
            assert wait_for(lambda: pub.connected, timeout=WAIT)
            assert dropped() == wait * 2            # dropped at once again: a longer wait
        now[0] += 8.0
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        now[0] += P.STEADY                          # a connection that lasted
        assert dropped() == 1.0
    finally:
        pub.close()


# ---------------------------------------------------------------- two boxes, one base topic

KITCHEN = "newsdesk/kitchen"     # "Kitchen" and "KITCHEN" both: one base topic for two boxes


@pytest.fixture
def second_store(tmp_path):
    """The second box's store (each box has its data folder, its install and its store; the
    first's folder is tmp_path / "a")."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    s = Store(tmp_path / "b" / "store.sqlite3")
    s._db.execute("PRAGMA synchronous=OFF")
    yield s
    s.close()


def installs(listener, topic):
    return [json.loads(p)["install"] for p in listener.on(topic) if p]


def on_the_broker(broker, pub):
    """Whether the broker keeps ``pub``'s game at its base: it has taken the table's messages
    (``connected`` is true as the connection starts, before they are sent)."""
    topic = pub.settings.base + "/state/game"
    late = Listener(broker, [topic], client_id="ha-on", persistent=False)
    try:
        return late.wait(lambda m: installs(late, topic)[-1:] == [pub.install])
    finally:
        late.close()


def test_a_box_finding_its_base_topic_held_sends_nothing_there_and_takes_it_over_once_the_other_is_gone(
        broker, store, second_store, tmp_path):
    """Two boxes whose names give one base topic (two Pis left with the host name raspberrypi at
    one broker) had one client id: each connection made the broker drop the other's, every
    second, each time with "offline", "online", every config and the other's game, and Home
    Assistant's device flapped between the two. The box there first goes on undisturbed; the
    other sends nothing on its base, says why in one sentence, and looks again every minute."""
    from controller.mqtt import publisher as P
    ha = Listener(broker, [KITCHEN + "/#", "homeassistant/#"], client_id="ha", persistent=False)
    now = [1000.0]
    first = MqttPublisher(store, Bus(), Settings(broker.url, KITCHEN, "Kitchen"), tmp_path / "a", backoff=FAST)
    second = None
    try:
        assert wait_for(lambda: first.connected, timeout=WAIT)
        assert ha.wait(lambda m: installs(ha, KITCHEN + "/state/game"))
        second = MqttPublisher(second_store, Bus(), Settings(broker.url, KITCHEN, "KITCHEN"), tmp_path / "b",
                               backoff=FAST, clock=lambda: now[0])
        said = ("Another newsdesk (install %s, table Kitchen) already publishes on newsdesk/kitchen, so this box "
                "sends nothing there: give this table its own table_name or mqtt_topic in config.toml." % first.install)
        assert wait_for(lambda: second.health()["summary"] == said, timeout=WAIT), second.health()
        assert second.health()["status"] == "warn" and "every minute" in second.health()["detail"]
        now[0] += P.HELD_RETRY                      # it looks again: still held
        assert wait_for(lambda: second._next_attempt == now[0] + P.HELD_RETRY, timeout=WAIT)
        time.sleep(0.3)                             # (anything the second box sent would be here by now)
        assert first.connected and not second.connected
        assert ha.on(KITCHEN + "/availability") == ["online"]
        assert set(installs(ha, KITCHEN + "/state/game")) == {first.install}
        configs = [t for t, p, r in ha.messages if t.startswith("homeassistant/")]
        assert len(configs) == len(T.discovery("homeassistant", KITCHEN, "Kitchen", ""))    # announced once
        first.close()                               # gone: "offline"
        assert ha.wait(lambda m: ha.on(KITCHEN + "/availability")[-1:] == ["offline"])
        now[0] += P.HELD_RETRY
        assert wait_for(lambda: second.connected, timeout=WAIT)
        assert ha.wait(lambda m: installs(ha, KITCHEN + "/state/game")[-1:] == [second.install])
        assert ha.on(KITCHEN + "/availability")[-1] == "online" and second.health()["status"] == "ok"
    finally:
        first.close()
        if second is not None:
            second.close()
        ha.close()


def test_a_box_made_from_a_copy_of_anothers_card_is_another_box_at_the_broker(broker, store, second_store,
                                                                              tmp_path):
    """Twenty tables for a convention, made by copying one SD card: the copy's data folder named
    the first box's install, so the two shared a client id and an identity (neither yielded the
    base), and the copy cleared the first's device from Home Assistant as "where it was". On
    another Pi the copy is a new install: it finds the base held and sends nothing, and the first
    box's device stays."""
    import shutil
    ha = Listener(broker, [KITCHEN + "/#"], client_id="ha", persistent=False)
    first = MqttPublisher(store, Bus(), Settings(broker.url, KITCHEN, "Kitchen"), tmp_path / "a", backoff=FAST,
                          machine=lambda: "aaaa")
    copy = None
    try:
        assert wait_for(lambda: first.connected and (first.kept.get("announced") or {}).get("node"), timeout=WAIT)
        assert ha.wait(lambda m: installs(ha, KITCHEN + "/state/game"))      # the first box is there
        for name in ("mqtt-kept.json", "mqtt-cursor.json"):
            if (tmp_path / "a" / name).exists():
                shutil.copy(tmp_path / "a" / name, tmp_path / "b" / name)
        copy = MqttPublisher(second_store, Bus(), Settings(broker.url, KITCHEN, "Kitchen"), tmp_path / "b",
                             backoff=FAST, machine=lambda: "bbbb")
        assert copy.install != first.install and copy.client_id != first.client_id
        assert wait_for(lambda: "Another newsdesk (install %s" % first.install in copy.health()["summary"],
                        timeout=WAIT), copy.health()
        assert first.connected and not copy.connected
        assert kept_configs(broker, KITCHEN, "Kitchen", first.node)
    finally:
        first.close()
        if copy is not None:
            copy.close()
        ha.close()


def test_a_stray_last_will_setting_the_table_offline_is_answered_online(broker, store, tmp_path):
    """A last will set the table's availability offline while it was on (its own connection's
    from before a power cut, which the broker sends once that one times out, or another box's):
    Home Assistant showed every entity unavailable until the table's next connection."""
    ha = Listener(broker, [BASE + "/availability"], client_id="ha", persistent=False)
    pub = publisher(store, Bus(), broker.url, tmp_path)
    try:
        assert ha.wait(lambda m: ha.on(BASE + "/availability") == ["online"])
        ha.client.publish(BASE + "/availability", "offline", qos=1, retain=True).wait_for_publish(5)
        assert ha.wait(lambda m: ha.on(BASE + "/availability") == ["online", "offline", "online"])
    finally:
        pub.close()
        ha.close()


def test_another_install_publishing_on_the_tables_base_keeps_it_only_when_its_install_sorts_first(
        broker, store, tmp_path):
    """Two boxes that looked at a free base at the same moment, or a newsdesk from before the
    look, publish on one base. Each state/game names its install, and the one that sorts first
    keeps the base (both boxes agree without a word): the other leaves it with a clean
    disconnect, so its will does not set the first one's availability offline."""
    game = BASE + "/state/game"
    ha = Listener(broker, [BASE + "/#"], client_id="ha", persistent=False)
    pub = publisher(store, Bus(), broker.url, tmp_path)
    try:
        assert wait_for(lambda: pub.connected, timeout=WAIT)
        assert ha.wait(lambda m: installs(ha, game) == [pub.install])
        later, earlier = "z" * 12, "-" * 12         # around any install's hex digits
        ha.client.publish(game, T.dumps({"table": "T1", "install": later, "game": None}), qos=1, retain=True)
        assert ha.wait(lambda m: installs(ha, game)[-2:] == [later, pub.install])     # sent there again
        assert pub.connected
        ha.client.publish(game, T.dumps({"table": "T1", "install": earlier, "game": None}), qos=1, retain=True)
        assert wait_for(lambda: not pub.connected and "another newsdesk (install %s, table T1)" % earlier
                        in (pub.problem or ""), timeout=WAIT), pub.problem
        time.sleep(0.3)                             # (anything the box sent would be here by now)
        assert installs(ha, game)[-1] == earlier and ha.on(BASE + "/availability")[-1] == "online"
    finally:
        pub.close()
        ha.close()


def kept_configs(broker, base, table, node):
    """Whether the broker keeps every discovery config of the table at ``base`` (its device
    ``node``): what Home Assistant starting now is handed, and then sent (a table connecting sends
    them as it goes)."""
    wanted = {t for t, c in T.discovery("homeassistant", base, table, "", node=node) if c}
    late = Listener(broker, ["homeassistant/#"], client_id="ha-late", persistent=False)
    try:
        return late.wait(lambda m: wanted <= {t for t, p in {t: p for t, p, r in m}.items() if p}, timeout=5.0)
    finally:
        late.close()


def test_a_renamed_table_leaves_its_old_base_to_the_newsdesk_that_holds_it_now(broker, store, second_store,
                                                                                tmp_path):
    """A box on newsdesk/kitchen went away and another took the base over; renamed, the first
    cleared what the broker keeps under newsdesk/kitchen: the other's device went out of Home
    Assistant. Its old base, another newsdesk's now, is left alone."""
    announced_once(store, broker, tmp_path / "a", KITCHEN)
    other = MqttPublisher(second_store, Bus(), Settings(broker.url, KITCHEN, "kitchen"), tmp_path / "b", backoff=FAST)
    renamed = None
    try:
        assert wait_for(lambda: other.connected, timeout=WAIT) and on_the_broker(broker, other)
        renamed = publisher(store, Bus(), broker.url, tmp_path / "a", base="newsdesk/kitchen-2")
        assert wait_for(lambda: (renamed.kept.get("announced") or {}).get("base") == "newsdesk/kitchen-2",
                        timeout=WAIT)
        assert kept_configs(broker, "newsdesk/kitchen-2", "kitchen-2", renamed.node)
        assert kept_configs(broker, KITCHEN, "kitchen", other.node)
        assert renamed.kept.get("retired") == [] and other.connected
    finally:
        other.close()
        if renamed is not None:
            renamed.close()


def test_an_old_place_another_newsdesk_took_is_not_removed_from_home_assistant_at_its_start(
        broker, store, second_store, tmp_path):
    """A table announced by a newsdesk from before (its device under its base's node) and renamed
    while Home Assistant was away keeps its old place, to send its empty configs when Home
    Assistant comes online; another box took that base in between, and those empty configs (a box
    from before sends its device there) took the other box's device away."""
    (tmp_path / "a" / "mqtt-kept.json").write_text(json.dumps({"install": "0123456789ab", "announced": {
        "base": KITCHEN, "discovery": "homeassistant"}}))
    renamed = publisher(store, Bus(), broker.url, tmp_path / "a", base="newsdesk/kitchen-2")
    other = None
    try:
        assert wait_for(lambda: (renamed.kept.get("announced") or {}).get("base") == "newsdesk/kitchen-2"
                        and renamed.hearing_births, timeout=WAIT)
        assert renamed.kept.get("retired") == [{"base": KITCHEN, "discovery": "homeassistant",
                                                 "node": T.node_id(KITCHEN)}]
        other = MqttPublisher(second_store, Bus(), Settings(broker.url, KITCHEN, "kitchen"), tmp_path / "b",
                              backoff=FAST)
        assert wait_for(lambda: other.connected, timeout=WAIT)
        assert wait_for(lambda: renamed.kept.get("retired") == [], timeout=WAIT)     # seen taken: forgotten
        ha = Listener(broker, ["homeassistant/#"], client_id="ha", persistent=False)
        try:
            answer = {t for t, c in T.discovery("homeassistant", "newsdesk/kitchen-2", "kitchen-2", "",
                                                node=renamed.node) if c}
            assert ha.wait(lambda m: answer <= {t for t, p, r in m if r})      # what the broker keeps
            home_assistant_comes_online(ha)
            assert ha.wait(lambda m: answer <= {t for t, p, r in m if not r})  # the renamed table's answer
            legacy = set(T.discovery_topics("homeassistant", KITCHEN))
            assert not [t for t, p, r in ha.messages if t in legacy and not p and not r]    # none told again
        finally:
            ha.close()
        assert kept_configs(broker, KITCHEN, "kitchen", other.node)
    finally:
        renamed.close()
        if other is not None:
            other.close()


def test_doctor_says_another_newsdesk_holds_the_tables_base_topic(broker, store, second_store, tmp_path,
                                                                  mock_factory):
    first = MqttPublisher(store, Bus(), Settings(broker.url, KITCHEN, "Kitchen"), tmp_path / "a", backoff=FAST)
    probes = Probes(pins=lambda c: (mock_factory, "simulated (mock)", True), serial_ports=list,
                    port=lambda h, p: "free", mountinfo=lambda: "", disk_free=lambda p: 10**10)
    try:
        assert wait_for(lambda: first.connected, timeout=WAIT) and on_the_broker(broker, first)
        newcomer = load_config(tmp_path / "b", environ={}, overrides={"mqtt_url": broker.url, "table_name": "KITCHEN"})
        found = run_doctor(newcomer, probes).of("mqtt")
        assert [f.status for f in found] == ["warn"], found
        assert found[0].said.startswith("another newsdesk (install %s, table Kitchen) already publishes on "
                                        "newsdesk/kitchen" % first.install)
        assert "every minute" in found[0].fix
        itself = load_config(tmp_path / "a", environ={}, overrides={"mqtt_url": broker.url, "table_name": "Kitchen"})
        assert [f.status for f in run_doctor(itself, probes).of("mqtt")] == ["ok"]
    finally:
        first.close()
