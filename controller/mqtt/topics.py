"""Every topic the table uses under its base topic (``newsdesk/<table>`` by default), the
payloads it sends there, and Home Assistant's discovery configs. Pure: data in, (topic,
payload) out; docs/mqtt.md describes the same for people.

    <base>/availability       online | offline (retained; offline is the connection's last will)
    <base>/events             every stored event, in order, QoS 1: {"table", "id", "at", "type", "data"}
    <base>/state/<what>       retained: game, results, handset, digit, number, verdict, dice, stopwatch, health
    <base>/trigger/<what>     live happenings, one word each: digit, dice, stopwatch, verdict, and button (the
                              table's own buttons pressed, never the panel's): Home Assistant's device triggers
    <base>/event/<what>       the same happenings as JSON for Home Assistant's event entities (and the bell's
                              answer, and a game's end)
    <base>/bell/ring          the one command: PRESS (Home Assistant's button) rings the bell
"""

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .. import events
from ..oracle_service import DICE_BUTTON, STOPWATCH_BUTTON
from ..oracles.editor import SIGNALS
from ..standings import rows as result_rows

AVAILABILITY = "availability"
ONLINE, OFFLINE = "online", "offline"
EVENTS = "events"
BELL = "bell/ring"
PRESS = "PRESS"
STATES = ("game", "results", "handset", "digit", "number", "verdict", "dice", "stopwatch", "health")
TRIGGERS = ("digit", "dice", "stopwatch", "verdict", "button")
# The table's own buttons (oracle_service's names), each pressed said on trigger/button: its device
# trigger's object id -> the payload. trigger/dice and trigger/stopwatch say what happened, from the
# panel too (a reset is no press at all), so a "pressed" trigger on them fired without a press.
BUTTONS = {"dice": DICE_BUTTON, "stopwatch": STOPWATCH_BUTTON}
# Home Assistant event entities: what -> its event types (a press's state is when it happened, so a
# digit dialed twice shows twice; the device triggers stay for automations that use them)
STOPWATCH_EVENTS = ("started", "reset", "stopped")    # the stopwatch's changes: a start, and two stops
BELL_EVENTS = ("rang", "refused")                     # the bell's answer to a ring request
GAME_EVENTS = tuple(events.GAME_ENDED)                # a game's end: finished or abandoned
DIGITS = tuple(str(d) for d in range(10))
LIFTED, DOWN = "lifted", "down"
SEATS = 6            # the most players any of newsdesk's games seats: one score sensor per seat
RESULTS_KEPT = 20    # finished games in <base>/state/results, the newest first
MANUFACTURER = "newsdesk"

JSON = dict[str, Any]   # a payload as json.dumps takes it, or a stored game or event as the store hands it

# What each name keeps where it must be plain ASCII; anything else, in runs, becomes one separator
TOPIC_SAFE = re.compile(r"[^a-z0-9_-]+")      # a table's name in its default base topic (-)
NODE_SAFE = re.compile(r"[^A-Za-z0-9_-]+")    # a base topic in Home Assistant's node id and the client id (_)
SLUG_SAFE = re.compile(r"[^a-z0-9]+")         # a table's name in Home Assistant's entity ids (_)
HASH_CHARS = 6      # hex digits of a name's hash after a name that lost letters (16 million names apart)


def default_base(table: str) -> str:
    """``newsdesk/<the table's name, topic-safe>``: the base topic when mqtt_topic is not set."""
    return "newsdesk/" + safe_name(table, TOPIC_SAFE, "-", "table", fold=True)


def safe_name(text: str, unsafe: re.Pattern[str], sep: str, fallback: str, fold: bool = False) -> str:
    """``text`` as topics and Home Assistant's ids take it: what ``unsafe`` matches, in runs, made
    one ``sep``, none at the ends ("Corner table!" -> "corner-table"); lower case with ``fold``.

    An accented letter keeps its letter (Ålesund -> alesund, Café -> cafe: NFKD's decomposition
    without its marks). A name that loses letters with no ASCII spelling (東京, Tromsø), or that
    comes out empty, gets a short hash of the whole name after it: otherwise 東京 and 大阪 were one
    table on the broker, with one client id and one Home Assistant device. With ``fold`` (a
    table's name), so does a name whose letters folding changed (an accent taken off, ℌ -> h):
    otherwise Café and Cafe were one table (Café -> cafe-f42445). A plain ASCII name comes out
    as it always has, so no such box moves its topics; case and punctuation still fold away."""
    if fold:
        text = text.casefold()      # casefold, not lower: ß -> ss (the same as lower for ASCII)
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    if fold:
        plain = plain.casefold()    # a compatibility form can be a capital (ℌ -> H)
    safe = unsafe.sub(sep, plain).strip(sep)
    lost = any(not c.isascii() and c.isalnum() for c in plain)
    folded = fold and _letters(unicodedata.normalize("NFC", text)) != _letters(plain)
    if text.isascii() or (safe and not lost and not folded):
        return safe or fallback
    return sep.join(part for part in (safe or fallback, name_hash(text)) if part)


def _letters(text: str) -> list[str]:
    """The letters and digits of ``text``, in order: what tells two names apart once their case
    and punctuation are folded away."""
    return [c for c in text if c.isalnum()]


def name_hash(text: str) -> str:
    """A short hash that tells names apart where their ASCII spelling can't; the same for a name
    typed composed or decomposed (NFC)."""
    return hashlib.sha1(unicodedata.normalize("NFC", text).encode("utf-8")).hexdigest()[:HASH_CHARS]


def state(name: str) -> str:
    return "state/" + name


def trigger(name: str) -> str:
    return "trigger/" + name


def event(name: str) -> str:
    return "event/" + name


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


GAME_ENDED = (events.GAME_FINISHED, events.GAME_ABANDONED)


def event_payload(table: str, event: Any, final: object = None, install: str | None = None,
                  lower: bool = False) -> str:
    """A StoredEvent as sent on <base>/events. Event ids start again at 1 in a fresh data folder, so
    ``install`` (the data folder's id, kept beside its store) says which numbering an id belongs
    to: a subscriber drops repeats by (install, id), never by the id alone. A game's end carries
    its final ``standings`` (``final``: the games row's final table, written in the same
    transaction as the event) and ``lower_wins`` (``lower``: the game's panel facts' lower_wins),
    so a league that has never heard of the game knows its best score is its lowest."""
    data = event.payload
    if event.kind in GAME_ENDED:
        data = dict(data, lower_wins=bool(lower))
        if isinstance(final, dict):
            data["standings"] = final.get("standings") or []
    return dumps({"table": table, "install": install, "id": event.id, "at": event.at, "type": event.kind,
                  "data": data})


def leaders(rows: Iterable[JSON], lower: bool = False) -> list[Any]:
    """The names with the best score, in seat order: the highest, or with ``lower`` (the game's
    panel facts' lower_wins) the lowest; [] before anyone scores."""
    scored = [r for r in rows if isinstance(r.get("score"), int) and not isinstance(r.get("score"), bool)]
    if not scored:
        return []
    best = (min if lower else max)(r["score"] for r in scored)
    return [r["name"] for r in scored if r["score"] == best]


def names(people: Iterable[object]) -> str | None:
    """"Ann", "Ann and Bob", "Ann, Bob and Cat": a tie said as a person says it; None for nobody."""
    said = [str(p) for p in people]
    if not said:
        return None
    return said[0] if len(said) == 1 else "%s and %s" % (", ".join(said[:-1]), said[-1])


def game_state(table: str, current: JSON | None, install: str | None = None, lower: bool = False) -> JSON:
    """<base>/state/game from GameSession.current(): the game being played and its standings,
    or {"game": null} between games. ``leaders`` is the list, ``leader`` the same in words
    (``lower``: the game's lowest score leads, its panel facts' lower_wins)."""
    if current is None:
        return {"table": table, "install": install, "game": None}
    rows = result_rows(_result(current))
    top = leaders(rows, lower)
    return {"table": table, "install": install, "game": {
        "id": current["id"], "engine": current["engine"], "title": current.get("title") or current["engine"],
        "version": current["version"], "players": [p.get("name") for p in current.get("players") or []],
        "standings": rows, "leader": names(top), "leaders": top, "unit": unit(current)}}


def _result(current: JSON) -> JSON:
    """The game's own result, which its view carries (games/base.py's Result); nothing while
    the game can't be shown (its engine went missing). A view without one (a hand-made view,
    as a test of the topics makes) gives its players' "score" and no winner."""
    view = current.get("view") or {}
    result = view.get("result")
    if isinstance(result, dict):
        return result
    players = [p for p in view.get("players") or [] if isinstance(p, dict) and isinstance(p.get("name"), str)]
    return {"standings": [{"name": p["name"], "score": p.get("score") if isinstance(p.get("score"), int) else None,
                           "winner": False} for p in players], "score_kind": None}


def unit(current: JSON) -> str:
    """What a score counts: "$" in a game scored in money (its result's score_kind), else "points"."""
    return "$" if _result(current).get("score_kind") == "money" else "points"


def results_state(table: str, history: Sequence[JSON], install: str | None = None,
                  lower: Callable[[Any], bool] | None = None) -> JSON:
    """<base>/state/results from GameSession.history(): the games kept, the newest first, with the
    install their game ids belong to. ``won_by`` says the winners as a person would (None for a
    game nobody won: an abandoned one), as ``leader`` does for the game being played.
    ``lower_wins``: whether the game's lowest score is its best (``lower``: engine -> its panel
    facts' lower_wins; without it, no game's is)."""
    keep = ("id", "engine", "title", "status", "ended", "players", "winners", "standings")
    return {"table": table, "install": install,
            "games": [dict({k: g.get(k) for k in keep}, won_by=names(g.get("winners") or []),
                           lower_wins=bool(lower and lower(g.get("engine"))))
                      for g in history[:RESULTS_KEPT]]}


def digit_state(verdict: JSON) -> JSON:
    """<base>/state/digit from a stored verdict: every digit that is not a join code's becomes
    one, so the store holds the last digit and it comes back after any restart. ``id`` changes
    when the same digit is dialed again."""
    p = verdict["data"]
    return {"digit": p.get("digit"), "at": verdict.get("at"), "id": verdict.get("id")}


def verdict_state(event: JSON) -> JSON:
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "digit": p.get("digit"), "signal": p.get("signal"),
            "message": p.get("message")}


def dice_state(event: JSON) -> JSON:
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "dice": p.get("dice"), "faces": p.get("faces"),
            "total": p.get("total"), "said": p.get("said"), "source": p.get("source")}


def stopwatch_state(event: JSON) -> JSON:
    p = event["data"]
    return {"id": event.get("id"), "at": event.get("at"), "digit": p.get("digit"), "shown": p.get("shown"),
            "mode": p.get("mode"), "source": p.get("source")}


def health_state(status: str, summary: str, phone: object = None) -> JSON:
    return {"status": status, "summary": summary, "phone": phone}


# ---------------------------------------------------------------- Home Assistant discovery

def node_id(base: str) -> str:
    """The base topic made safe: the client id's first part, and the node (in discovery topics,
    unique ids and the device's identifier) a table from before ``discovery_node`` was announced
    under, which is cleared where it is found."""
    return safe_name(base, NODE_SAFE, "_", "newsdesk")


def discovery_node(install: str) -> str:
    """The table's id in Home Assistant: its discovery topics' node, its entities' unique ids and
    its device's identifier, from its install (the data folder's). Made from the base topic, it
    made a renamed table (its base follows its name) a new device: the old one's entities were
    taken away with their history, their areas, and the automations that named them or its
    device triggers. Now a rename sends the same configs again with the new name and topics."""
    return "newsdesk_" + safe_name(install, NODE_SAFE, "_", "x")


def client_id(base: str, install: str) -> str:
    """The table's MQTT client id: its base topic and its install. The broker drops a connection
    when another comes with its id, so an id made from the base alone had two boxes with one
    base (two Pis left named raspberrypi) knock each other off every second; a box keeps its id
    from one connection to the next, so it takes over its own connection left by a power cut."""
    return "newsdesk-%s-%s" % (node_id(base), install)


def publisher_of(game: str | None) -> tuple[str, str | None] | None:
    """(install, table) of the newsdesk whose <base>/state/game ``game`` is; None for nothing
    there (an empty payload clears it) or a payload that names no install."""
    try:
        state = json.loads(game) if game else None
    except ValueError:
        return None
    if not isinstance(state, dict) or not isinstance(state.get("install"), str) or not state["install"]:
        return None
    table = state.get("table")
    return state["install"], table if isinstance(table, str) else None


def holder(availability: str | None, game: str | None, install: str | None) -> tuple[str, str | None] | None:
    """Another newsdesk holding a base topic, from what the broker keeps there: (install, table)
    when its availability is online and its state/game names an install other than ``install``.
    None when the base is free: offline (a box stopped, or its last will), empty, this install's
    own (its connection before a restart), or online with no install named (not a newsdesk's)."""
    other = publisher_of(game)
    if availability != ONLINE or other is None or other[0] == install:
        return None
    return other


def signal_id(signal: str) -> str:
    return {"!!!": "see_the_editor"}.get(signal) or re.sub(r"[^a-z0-9]+", "_", signal.lower()).strip("_")


def entity_slug(table: str) -> str:
    """The start of every entity id: ``newsdesk_corner_table`` (Home Assistant's object ids are
    lower case letters, digits and _)."""
    return ("newsdesk_" + safe_name(table, SLUG_SAFE, "_", "", fold=True)).strip("_")


# "No value" is said one way on every sensor: a template rendering None, which Home Assistant's
# MQTT sensor shows as unknown (its PAYLOAD_NONE: any state rendered as exactly "None").
NO_VALUE = "None"
# So a real name "None" (a player called None, the leader) is sent with an invisible word joiner
# after it: it shows as the name, where "None" itself would show as unknown.
NAMED_NONE = NO_VALUE + "\u2060"
STATE_MOST = 255     # Home Assistant's longest state (MAX_LENGTH_STATE_STATE): a longer one is dropped
CUT = "…"            # where a state cut to STATE_MOST was cut, so a cut one never reads as whole


def said(expression: str) -> str:
    """A template whose state is the text ``expression`` gives, None (unknown) when it gives
    nothing, and a text "None" kept as a name (NAMED_NONE) rather than read as no value. Names
    longer than Home Assistant keeps (six tied winners with long names) keep their start, then CUT."""
    return "{%% set v = %s %%}{{ %s if not v else '%s' if v == '%s' else v if v | length <= %d else v[:%d] ~ '%s' }}" \
        % (expression, NO_VALUE, NAMED_NONE, NO_VALUE, STATE_MOST, STATE_MOST - len(CUT), CUT)


def newest(expression: str) -> str:
    """A template whose state is the text ``expression`` gives, cut to its last characters after
    CUT when it is longer than Home Assistant keeps (a number dialed on and on, its newest digits)."""
    return "{%% set v = %s %%}{{ v if v | length <= %d else '%s' ~ v[-%d:] }}" % (
        expression, STATE_MOST, CUT, STATE_MOST - len(CUT))


def birth(prefix: str) -> str:
    """Home Assistant's birth topic: it says BIRTH there each time it (re)starts, and discovery
    configs (or their removal) sent while it was away are not seen by it, so they are sent again."""
    return prefix + "/status"


BIRTH = "online"


def discovery_topics(prefix: str, base: str, node: str | None = None) -> list[str]:
    """Every discovery topic a table announced at ``base`` under ``prefix`` may have used (the
    bell's included): what an empty retained message each takes away. ``node`` as discovery's."""
    return [topic for topic, _ in discovery(prefix, base, "", None, ("bell",), node=node)]


def discovery(prefix: str, base: str, table: str, version: str | None, commands: Iterable[str] = ("bell",),
              panel_url: str | None = None, node: str | None = None) -> list[tuple[str, JSON | None]]:
    """[(topic, config)] for Home Assistant: one device (the table) with the phone, the dice, the
    stopwatch, the bell and the game as its entities, event entities and device triggers. A config
    of None is sent empty, which takes away an entity an earlier newsdesk made. ``node``: the
    table's (discovery_node of its install); None for the one its base made before that."""
    node = node or node_id(base)
    slug = entity_slug(table)
    device = {"identifiers": [node], "name": "newsdesk %s" % table, "manufacturer": MANUFACTURER,
              "model": "rotary phone, dice and stopwatch"}
    origin = {"name": "newsdesk"}
    if panel_url:
        device["configuration_url"] = panel_url
        origin["support_url"] = panel_url
    if version:
        device["sw_version"] = origin["sw_version"] = version
    avail = {"availability_topic": "%s/%s" % (base, AVAILABILITY), "payload_available": ONLINE,
             "payload_not_available": OFFLINE}
    out: list[tuple[str, JSON | None]] = []

    def entity(component: str, object_id: str, name: str, **fields: Any) -> None:
        # default_entity_id: the entity id asked for (Home Assistant 2025.10 on; the object_id that set it
        # before stopped working in 2026.4), used only for an entity Home Assistant hasn't seen before
        config = dict(name=name, unique_id="%s_%s" % (node, object_id),
                      default_entity_id="%s.%s_%s" % (component, slug, object_id),
                      device=device, origin=origin, **avail, **fields)
        out.append(("%s/%s/%s/%s/config" % (prefix, component, node, object_id), config))

    def gone(component: str, object_id: str) -> None:
        out.append(("%s/%s/%s/%s/config" % (prefix, component, node, object_id), None))

    def sensor(object_id: str, name: str, what: str, template: str, attributes: bool = True, **fields: Any) -> None:
        if attributes:
            fields.setdefault("json_attributes_topic", "%s/%s" % (base, state(what)))
        entity("sensor", object_id, name, state_topic="%s/%s" % (base, state(what)), value_template=template,
               **fields)

    def happening(object_id: str, name: str, what: str, types: Iterable[str], **fields: Any) -> None:
        entity("event", object_id, name, state_topic="%s/%s" % (base, event(what)), event_types=list(types),
               **fields)

    def device_trigger(object_id: str, what: str, kind: str, subtype: str, payload: str | None = None) -> None:
        config: JSON = {"automation_type": "trigger", "topic": "%s/%s" % (base, trigger(what)), "type": kind,
                  "subtype": subtype, "device": device, "origin": origin, "qos": 0}
        if payload is not None:
            config["payload"] = payload
        out.append(("%s/device_automation/%s/%s/config" % (prefix, node, object_id), config))

    entity("binary_sensor", "handset", "Handset lifted", state_topic="%s/%s" % (base, state("handset")),
           payload_on=LIFTED, payload_off=DOWN, icon="mdi:phone-classic")
    sensor("last_digit", "Last digit", "digit", "{{ value_json.digit }}", device_class="enum",
           options=list(DIGITS), icon="mdi:phone-classic")
    sensor("last_number", "Last number dialed", "number", newest("value_json.number"), icon="mdi:dialpad")
    sensor("verdict", "Editor's verdict", "verdict", "{{ value_json.signal }}", device_class="enum",
           options=list(SIGNALS), icon="mdi:newspaper")
    # No state class on the roll or the seats: Home Assistant keeps long-term statistics (hourly
    # mean, min, max) of a sensor that has one, and these would mean nothing. A roll's mean over an
    # hour is weighted by how long each roll stood, across whatever dice were set; Seat 1 is Ann's
    # dollars in one game and Bob's points in the next.
    sensor("dice", "Last roll", "dice", "{{ value_json.total }}", icon="mdi:dice-multiple")
    sensor("stopwatch", "Stopwatch digit", "stopwatch", "{{ value_json.digit }}", device_class="enum",
           options=list(DIGITS), icon="mdi:timer-outline")
    sensor("game", "Game", "game", said("value_json.game.title if value_json.game else none"),
           json_attributes_template="{{ (value_json.game or {}) | tojson }}", icon="mdi:cards-playing")
    sensor("leader", "Leader", "game", said("value_json.game.leader if value_json.game else none"),
           attributes=False, icon="mdi:trophy")
    for seat in range(SEATS):
        row = "(value_json.game.standings[%d] if value_json.game and value_json.game.standings | length > %d " \
              "else none)" % (seat, seat)
        sensor("seat_%d" % (seat + 1), "Seat %d" % (seat + 1), "game",
               "{%% set r = %s %%}{{ r.score if r and r.score is not none else %s }}" % (row, NO_VALUE),
               json_attributes_template="{%% set r = %s %%}{{ {'player': r.name if r else none, "
                                        "'winner': r.winner if r else false, 'unit': value_json.game.unit "
                                        "if r else none} | tojson }}" % row,
               icon="mdi:account")
    # The game that was last won, from the games kept: a game's end clears state/game, so without
    # it the winners were gone from Home Assistant the moment they won. An abandoned game, won by
    # nobody, leaves it as it was (the Game ended event entity tells both).
    won = "(value_json.games | selectattr('won_by') | first | default({}))"     # the newest game won, or {}
    sensor("last_winner", "Last winner", "results", said("%s.get('won_by')" % won),
           json_attributes_template="{{ %s | tojson }}" % won, icon="mdi:trophy-award")
    entity("binary_sensor", "health", "Health", state_topic="%s/%s" % (base, state("health")),
           value_template="{{ value_json.status }}", payload_on="fault", payload_off="ok", device_class="problem",
           json_attributes_topic="%s/%s" % (base, state("health")), entity_category="diagnostic")
    gone("sensor", "health")          # the health was a sensor before it was a problem binary sensor
    happening("digit_dialed", "Digit dialed", "digit", DIGITS, device_class="button", icon="mdi:phone-classic")
    happening("verdict_given", "Editor's verdict given", "verdict", SIGNALS, icon="mdi:newspaper")
    happening("dice_rolled", "Dice rolled", "dice", ("roll",), device_class="button", icon="mdi:dice-multiple")
    happening("stopwatch_pressed", "Stopwatch pressed", "stopwatch", STOPWATCH_EVENTS, device_class="button",
              icon="mdi:timer-outline")
    happening("game_ended", "Game ended", "game", GAME_EVENTS, icon="mdi:trophy")
    for digit in range(10):
        device_trigger("digit_%d" % digit, "digit", "button_short_press", "digit_%d" % digit, str(digit))
    for object_id, button in BUTTONS.items():     # the same ids as before: automations using them keep working
        device_trigger(object_id, "button", "button_short_press", button, button)
    for signal in SIGNALS:
        device_trigger("verdict_%s" % signal_id(signal), "verdict", "verdict", signal_id(signal), signal)
    if "bell" in commands:
        entity("button", "bell", "Ring the bell", command_topic="%s/%s" % (base, BELL), payload_press=PRESS,
               icon="mdi:bell-ring")
        happening("bell_answer", "Bell", "bell", BELL_EVENTS, icon="mdi:bell-ring")
    else:                             # an empty retained config takes a button made earlier away
        gone("button", "bell")
        gone("event", "bell_answer")
    return out
