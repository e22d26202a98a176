"""Every topic the table uses under its base topic (``newsdesk/<table>`` by default), the
payloads it sends there, and Home Assistant's discovery configs. Pure: data in, (topic,
payload) out; docs/mqtt.md describes the same for people.

    <base>/availability       online | offline (retained; offline is the connection's last will)
    <base>/events             every stored event, in order, QoS 1: {"table", "id", "at", "type", "data"}
    <base>/state/<what>       retained: game, results, handset, digit, number, verdict, dice, stopwatch, health
    <base>/trigger/<what>     live presses for Home Assistant's device triggers: digit, dice, stopwatch, verdict
    <base>/bell/ring          the one command: PRESS (Home Assistant's button) rings the bell
"""

import json
import re

from .. import events
from ..oracles.editor import SIGNALS
from ..standings import from_view

AVAILABILITY = "availability"
ONLINE, OFFLINE = "online", "offline"
EVENTS = "events"
BELL = "bell/ring"
PRESS = "PRESS"
STATES = ("game", "results", "handset", "digit", "number", "verdict", "dice", "stopwatch", "health")
TRIGGERS = ("digit", "dice", "stopwatch", "verdict")
LIFTED, DOWN = "lifted", "down"
SEATS = 6            # the most players any of newsdesk's games seats: one score sensor per seat
RESULTS_KEPT = 20    # finished games in <base>/state/results, the newest first
MANUFACTURER = "newsdesk"


def state(name):
    return "state/" + name


def trigger(name):
    return "trigger/" + name


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


GAME_ENDED = (events.GAME_FINISHED, events.GAME_ABANDONED)


def event_payload(table, event, final=None):
    """An Event as sent on <base>/events: the id lets a subscriber drop repeats. A game's end
    carries its final ``standings`` (``final``: the games row's final table, written in the same
    transaction as the event)."""
    data = event.payload
    if event.kind in GAME_ENDED and isinstance(final, dict):
        data = dict(data, standings=final.get("standings") or [])
    return dumps({"table": table, "id": event.id, "at": event.at, "type": event.kind, "data": data})


def _leader(rows):
    scored = [r for r in rows if isinstance(r.get("score"), int)]
    if not scored:
        return None
    best = max(r["score"] for r in scored)
    return " and ".join(r["name"] for r in scored if r["score"] == best)


def game_state(table, current):
    """<base>/state/game from GameSession.current(): the game being played and its standings,
    or {"game": null} between games."""
    if current is None:
        return {"table": table, "game": None}
    rows = from_view(current.get("view") or {})
    return {"table": table, "game": {
        "id": current["id"], "engine": current["engine"], "title": current.get("title") or current["engine"],
        "version": current["version"], "players": [p.get("name") for p in current.get("players") or []],
        "standings": rows, "leader": _leader(rows)}}


def results_state(table, history):
    """<base>/state/results from GameSession.history(): the games kept, the newest first."""
    keep = ("id", "engine", "title", "status", "ended", "players", "winners", "standings")
    return {"table": table, "games": [{k: g.get(k) for k in keep} for g in history[:RESULTS_KEPT]]}


def verdict_state(event):
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "digit": p.get("digit"), "signal": p.get("signal"),
            "message": p.get("message")}


def dice_state(event):
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "dice": p.get("dice"), "faces": p.get("faces"),
            "total": p.get("total"), "said": p.get("said")}


def stopwatch_state(event):
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "digit": p.get("digit"), "shown": p.get("shown"),
            "mode": p.get("mode")}


def health_state(status, summary, phone=None):
    return {"status": status, "summary": summary, "phone": phone}


# ---------------------------------------------------------------- Home Assistant discovery

def node_id(base):
    """The table's id in discovery topics and unique ids: its base topic, made safe."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", base).strip("_") or "newsdesk"


def signal_id(signal):
    return {"!!!": "see_the_editor"}.get(signal) or re.sub(r"[^a-z0-9]+", "_", signal.lower()).strip("_")


def discovery(prefix, base, table, version, commands=("bell",)):
    """[(topic, config)] for Home Assistant: one device (the table) with the phone, the dice, the
    stopwatch, the bell and the game as its entities and triggers."""
    node = node_id(base)
    device = {"identifiers": [node], "name": "newsdesk %s" % table, "manufacturer": MANUFACTURER,
              "model": "rotary phone, dice and stopwatch"}
    origin = {"name": "newsdesk"}
    if version:
        device["sw_version"] = origin["sw_version"] = version
    avail = {"availability_topic": "%s/%s" % (base, AVAILABILITY), "payload_available": ONLINE,
             "payload_not_available": OFFLINE}
    out: list[tuple[str, dict | None]] = []

    def entity(component, object_id, name, **fields):
        config = dict(name=name, unique_id="%s_%s" % (node, object_id), device=device, origin=origin,
                      **avail, **fields)
        out.append(("%s/%s/%s/%s/config" % (prefix, component, node, object_id), config))

    def sensor(object_id, name, what, template, **fields):
        entity("sensor", object_id, name, state_topic="%s/%s" % (base, state(what)), value_template=template,
               **fields)

    def device_trigger(object_id, what, kind, subtype, payload=None):
        config = {"automation_type": "trigger", "topic": "%s/%s" % (base, trigger(what)), "type": kind,
                  "subtype": subtype, "device": device, "origin": origin, "qos": 0}
        if payload is not None:
            config["payload"] = payload
        out.append(("%s/device_automation/%s/%s/config" % (prefix, node, object_id), config))

    entity("binary_sensor", "handset", "Handset lifted", state_topic="%s/%s" % (base, state("handset")),
           payload_on=LIFTED, payload_off=DOWN, icon="mdi:phone-classic")
    sensor("last_digit", "Last digit", "digit", "{{ value_json.digit }}", icon="mdi:rotary-phone")
    sensor("last_number", "Last number dialed", "number", "{{ value_json.number }}", icon="mdi:dialpad")
    sensor("verdict", "Editor's verdict", "verdict", "{{ value_json.signal }}",
           json_attributes_topic="%s/%s" % (base, state("verdict")), icon="mdi:newspaper")
    sensor("dice", "Last roll", "dice", "{{ value_json.total }}",
           json_attributes_topic="%s/%s" % (base, state("dice")), icon="mdi:dice-multiple")
    sensor("stopwatch", "Stopwatch digit", "stopwatch", "{{ value_json.digit }}",
           json_attributes_topic="%s/%s" % (base, state("stopwatch")), icon="mdi:timer-outline")
    sensor("game", "Game", "game", "{{ value_json.game.title if value_json.game else 'none' }}",
           json_attributes_topic="%s/%s" % (base, state("game")),
           json_attributes_template="{{ (value_json.game or {}) | tojson }}", icon="mdi:cards-playing")
    sensor("leader", "Leader", "game",
           "{{ (value_json.game.leader or 'nobody yet') if value_json.game else 'none' }}", icon="mdi:trophy")
    for seat in range(SEATS):
        row = "(value_json.game.standings[%d] if value_json.game and value_json.game.standings | length > %d " \
              "else none)" % (seat, seat)
        sensor("seat_%d" % (seat + 1), "Seat %d" % (seat + 1), "game",
               "{%% set r = %s %%}{{ r.score if r and r.score is not none else none }}" % row,
               json_attributes_topic="%s/%s" % (base, state("game")),
               json_attributes_template="{%% set r = %s %%}{{ {'player': r.name if r else none, "
                                        "'winner': r.winner if r else false} | tojson }}" % row,
               state_class="measurement", icon="mdi:account")
    sensor("health", "Health", "health", "{{ value_json.status }}",
           json_attributes_topic="%s/%s" % (base, state("health")), entity_category="diagnostic",
           icon="mdi:stethoscope")
    for digit in range(10):
        device_trigger("digit_%d" % digit, "digit", "button_short_press", "digit_%d" % digit, str(digit))
    device_trigger("dice", "dice", "button_short_press", "dice_button")
    device_trigger("stopwatch", "stopwatch", "button_short_press", "stopwatch_button")
    for signal in SIGNALS:
        device_trigger("verdict_%s" % signal_id(signal), "verdict", "verdict", signal_id(signal), signal)
    entity("button", "bell", "Ring the bell", command_topic="%s/%s" % (base, BELL), payload_press=PRESS,
           icon="mdi:bell-ring")
    if "bell" not in commands:      # an empty retained config takes a button made earlier away
        out[-1] = (out[-1][0], None)
    return out
