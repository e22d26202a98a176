"""Star Reporter (Parker Brothers, 1937): reporters travel a map of Urbania by automobile, train
and airplane, telephone in for assignments, and race to Disasters and the Catastrophe.

The board, the pins, the planes and the card piles stay on the table. The panel keeps what the
table has to remember and read off the dice: each player's method of travel and what the throw
allows for it (even totals for trains, doubles for planes, seven for telephoning), the chartered
plane and the airport it stands at, the telephone attempts, the Disasters turned up by double
sixes and the Catastrophe after them, the points of every card won, and the Star Reporter.

Seats are 0-based in the order given to setup; play passes to the left (the next seat). Dice:
an action may carry the two dice ("dice": [a, b], from the box's dice button); without them the
box rolls with the rng handed in, and the throw's event records the dice either way.

    {"type": "throw", "player": p}                      at the start: throw for who moves first
    {"type": "throw", "player": p, "method": M,         a turn: M is automobile, train, airplane
     "purpose": "news"|"plane", "at": airport}          or telephone (purpose: a new assignment
                                                        or the plane); "at": the airport the pin
                                                        stands at, for an airplane throw before
                                                        the plane is chartered
    {"type": "land", "player": p, "airport": A}         where the plane flew, or was called to
    {"type": "draw", "player": p, "city": C,            a new News assignment (back at Urbania,
     "points": n, "event": E, "grid": G}                or by telephone); all details optional
    {"type": "news", "player": p, "points": n}          reached the assignment's city
    {"type": "disaster", "player": p, "points": n,      reached a Disaster's city (card: its
     "card": k}                                         number, when more than one is open)
    {"type": "catastrophe", "player": p, "points": n}   reached the Catastrophe: the game ends

News, Disaster and Catastrophe points may be entered only after the player's own move (a move
by car, by train on an even total, or a flight): the panel offers them then, until the next
player throws.

Throw offers carry "needs" (what the dice must show for that method); offers that need a name or
points printed on a card carry "enter", the fields the panel must ask for. Each throw's event
carries the facts the table looks for: total, doubles, even, seven, double_sixes, and a
"reading" in the rules' words.

Events: setup, order_thrown, order_decided, thrown, landed, drew, won_card, turn_passed, ended.

Options (declared in OPTIONS): "disasters", "airports" (the board's airports: a plane flies only
to these, matched without regard to case; the rules name only Baytown's, the default), "first".

Where the rules are silent, newsdesk's choices:
* the number of Disasters before the Catastrophe is an option, 1-9 (the pile holds 9; the rules'
  "usually 3 to 5"), default 4;
* a tie for the highest throw at the start is thrown again by the tied players; a seat may be
  named as "first" instead;
* double sixes after the Catastrophe is up turn up nothing and read as an ordinary throw;
* a second Disaster may be turned up while an earlier one is still unclaimed; both stay open;
* a tie for the most points shares the title of Star Reporter.
"""

import copy
import random
from typing import Any

from .base import (
    TEXT_MOST,
    Action,
    Event,
    GameError,
    Result,
    State,
    and_list,
    check_declared,
    check_options,
    check_players,
    declared,
    form_name,
    guard,
    is_int as _is_int,
    option,
    player_name as _name,
    quoted,
    result_of,
    say_events,
    seat as _seat,
    seat_words,
)

NAME = "star_reporter"
TITLE = "Star Reporter (Parker Brothers, 1937)"
VARIANTS: dict[str, str] = {}

MIN_PLAYERS, MAX_PLAYERS = 2, 6
DIE_FACES = 6
TELEPHONE_TOTAL = 7         # "If he throws a total of seven, he is considered to have made his connection"
DOUBLE_SIXES = (6, 6)       # "until some player throws Double Sixes"
DISASTER_CARDS = 9          # "63 News, 9 Disaster, and 8 Catastrophe"
DEFAULT_DISASTERS = 4       # newsdesk's choice within the rules' "usually 3 to 5"
HOME_CITY = "Urbania"
PLANE_START = "Baytown"     # "places his airplane on the airport at Baytown near Urbania"
AUTOMOBILE, TRAIN, AIRPLANE, TELEPHONE = "automobile", "train", "airplane", "telephone"
METHODS = (AUTOMOBILE, TRAIN, AIRPLANE, TELEPHONE)
NEWS, PLANE = "news", "plane"
MOST_AIRPORTS = 30          # more than a one-board map holds
# newsdesk's bound on a card's points: the rules print none (the Catastrophe's count "is so high
# that it usually wins the game"); no real card comes near it, so past it is a typing slip
MOST_POINTS = 10_000

OPTIONS = (
    option("disasters", "integer", DEFAULT_DISASTERS, "Players may vary the length of a game by "
           "deciding before it starts the number of Disaster Cards they wish to draw (usually 3 to 5) "
           "during the game.", "Disaster cards before the Catastrophe", minimum=1,
           maximum=DISASTER_CARDS, newsdesk=True,
           help="newsdesk's default is 4, within the rules' \"usually 3 to 5\"; the pile holds 9."),
    option("airports", "names", [PLANE_START], "When he shakes this second double he may move his pin "
           "and his plane to any airport on the board. (The rules name only Baytown's: list your board's.)", "The board's airports",
           items=(1, MOST_AIRPORTS), newsdesk=True,
           help="The rules name one airport, Baytown's, where every plane starts; the others are printed "
                "on your board. Add them, comma-separated (Baytown, then yours): until you do, "
                "newsdesk knows Baytown alone and a plane can fly only there."),
    option("first", "seat", None, "all players throw the dice in turn and the player throwing the "
           "highest total moves first", "Who moves first (empty: throw for it)"),
)
PANEL = {"score": "points", "chart": {"unit": "credits", "prefix": ""},
         "numbers": {"points": {"minimum": 1, "maximum": MOST_POINTS, "label": "Points on the card"}},
         "words": {"at": "Airport the pin is at", "airport": "Airport"}}
NEEDS = {AUTOMOBILE: "any throw: move the total (the dice may be split)",
         TRAIN: "an even total, from a city", AIRPLANE: "a double, at an airport",
         TELEPHONE: "a total of seven, from a city"}      # shown on the panel's throw buttons


def facts(dice):
    """What the table looks for in a throw."""
    a, b = dice
    total = a + b
    return {"total": total, "doubles": a == b, "even": total % 2 == 0,
            "seven": total == TELEPHONE_TOTAL, "double_sixes": (a, b) == DOUBLE_SIXES}


# ---------------------------------------------------------------- setup

def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    options = check_options("Star Reporter", options, [o["name"] for o in OPTIONS])
    check_players("Star Reporter", players, MIN_PLAYERS, MAX_PLAYERS)
    disasters = options.get("disasters")
    disasters = DEFAULT_DISASTERS if disasters is None else disasters
    if not _is_int(disasters) or not 1 <= disasters <= DISASTER_CARDS:
        raise GameError(form_name(declared(OPTIONS, "disasters")) + " is how many Disaster cards come before the Catastrophe: 1-%d "
                        "(usually 3 to 5), not %s" % (DISASTER_CARDS, quoted(disasters)))
    first = options.get("first")
    if first is not None and (not _is_int(first) or not 0 <= first < len(players)):
        raise GameError(form_name(declared(OPTIONS, "first")) + " is the seat of the player who moves first (%s); leave it empty to throw for it"
                        % seat_words(len(players)))
    airports = options.get("airports")
    airports = [PLANE_START] if airports is None else airports
    if (not isinstance(airports, (list, tuple)) or not 1 <= len(airports) <= MOST_AIRPORTS
            or any(not isinstance(a, str) or not a.strip() or len(a) > TEXT_MOST for a in airports)):
        raise GameError(form_name(declared(OPTIONS, "airports")) + " is the list of the airports printed on your board (1-%d names "
                        "of up to %d letters), not %r" % (MOST_AIRPORTS, TEXT_MOST, airports))
    airports = [a.strip() for a in airports]
    if len({a.lower() for a in airports}) != len(airports):
        raise GameError(form_name(declared(OPTIONS, "airports")) + " names an airport twice; name each once")
    if PLANE_START.lower() not in {a.lower() for a in airports}:
        raise GameError(form_name(declared(OPTIONS, "airports")) + " must include %s: every plane starts \"on the airport at Baytown "
                        "near Urbania\"" % PLANE_START)
    check_declared("Star Reporter", OPTIONS, options, len(players))
    seats = [{"name": p["name"], "colour": p.get("colour") if isinstance(p.get("colour"), str) else None}
             for p in players]
    return [{"type": "setup", "players": seats, "disasters": disasters, "first": first,
             "airports": airports}]


def initial() -> State:
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    kind = guard(state, action, _ACTIONS, result, "set up a game of Star Reporter first",
                 lambda state: "the game is over: %s" % _result_words(state),
                 lambda kind: "Star Reporter has no action %r; try one of: %s" % (kind, ", ".join(sorted(_ACTIONS))))
    p = _seat(state, action.get("player"))
    return _ACTIONS[kind](state, p, action, rng)


def result(state: State) -> Result:
    """Over once the Catastrophe is reported ("when this story is obtained by the first player
    reaching the scene, the game ends"); each player's score is the credits on the cards they
    hold, and the winners are the highest credit ("the one having the highest credit becomes the
    Star Reporter and Wins The Game"), all of them on a tie."""
    if not state.get("started"):
        return result_of(False, [], PANEL)
    over = state["phase"] == "over"
    won = set(state["winners"] or ())
    return result_of(over, [(pl["name"], _score(pl), i in won) for i, pl in enumerate(state["players"])], PANEL)


def _throw(state, p, action, rng):
    phase = state["phase"]
    if phase not in ("order", "turn", "moved"):
        raise GameError("%s can't throw now: %s" % (_name(state, p), _waiting_for(state)))
    if p != state["turn"]:
        raise GameError("%s can't throw: it is %s's turn to throw" % (_name(state, p), _name(state, state["turn"])))
    dice = _dice(state, p, action.get("dice"), rng)
    if phase == "order":
        return _order_throw(state, p, dice)
    me = state["players"][p]
    who = _name(state, p)
    method = action.get("method")
    if not isinstance(method, str) or method not in METHODS:
        raise GameError("%s must announce a method of travel before throwing: %s, not %r"
                        % (who, ", ".join(METHODS), method))
    purpose, at = None, None
    if method == TELEPHONE:
        purpose = action.get("purpose")
        if purpose not in (NEWS, PLANE) or not isinstance(purpose, str):
            raise GameError("%s: say what the telephone call is for: \"news\" (a new assignment) or "
                            "\"plane\", not %r" % (who, purpose))
        if purpose == NEWS and me["assignment"]["status"] != "done":
            raise GameError("%s can telephone for a new assignment only after completing the one "
                            "in hand" % who)
        if purpose == PLANE and not me["plane"]["chartered"]:
            raise GameError("%s has no plane to call: a plane is chartered by throwing a double "
                            "at an airport" % who)
    if method == AIRPLANE:
        at = action.get("at")
        if me["plane"]["chartered"]:
            if at is not None:
                at = _airport(state, p, at, "the airport the pin is at")
                if at.lower() != me["plane"]["at"].lower():
                    raise GameError("%s's plane is at %s: the pin must be there to fly (or telephone "
                                    "for the plane)" % (who, me["plane"]["at"]))
            at = me["plane"]["at"]
        else:
            if at is None:
                raise GameError("%s: say which airport the pin is at (\"at\"), where a double "
                                "secures the plane" % who)
            at = _airport(state, p, at, "the airport the pin is at")
    f = facts(dice)
    event = dict({"type": "thrown", "player": p, "method": method, "dice": list(dice), "purpose": purpose,
                  "at": at}, **f)
    event["phone_given_up"] = method != TELEPHONE and me["phone"]["on_board"]
    if f["double_sixes"] and state["catastrophe"] is None:
        if state["disasters_drawn"] < state["disasters"]:
            event["result"] = "disaster"
            event["card"] = state["disasters_drawn"] + 1
        else:
            event["result"] = "catastrophe"
    else:
        event["result"] = _result(method, purpose, me, f)
    event["reading"] = _reading(state, p, event)
    events = [event]
    if event["result"] not in ("fly", "phoned_news", "phoned_plane"):
        events.append(_pass_turn(state, p))
    return events


def _result(method, purpose, me, f):
    if method == AUTOMOBILE:
        return "drive"
    if method == TRAIN:
        return "next_city" if f["even"] else "wait"
    if method == AIRPLANE:
        if not f["doubles"]:
            return "no_flight" if me["plane"]["chartered"] else "no_plane"
        return "fly" if me["plane"]["chartered"] else "plane_secured"
    if not f["seven"]:
        return "no_connection"
    return "phoned_news" if purpose == NEWS else "phoned_plane"


def _order_throw(state, p, dice):
    events = [{"type": "order_thrown", "player": p, "dice": list(dice), "total": sum(dice)}]
    throws = dict(state["order"]["throws"], **{str(p): sum(dice)})
    waiting = [q for q in state["order"]["round"] if str(q) not in throws]
    if not waiting:
        best = max(throws.values())
        top = [int(q) for q, t in throws.items() if t == best]
        if len(top) == 1:
            events.append({"type": "order_decided", "first": top[0], "total": best})
        else:
            events.append({"type": "order_decided", "first": None, "tied": sorted(top), "total": best})
    return events


def _land(state, p, action, rng):
    if state["phase"] not in ("fly", "plane_call"):
        raise GameError("%s can't land a plane now: %s" % (_name(state, p), _waiting_for(state)))
    _check_mover(state, p, "say where the plane went")
    airport = _airport(state, p, action.get("airport"), "the airport")
    flew = state["phase"] == "fly"
    return [{"type": "landed", "player": p, "airport": airport, "with_pin": flew}] + (
        [] if flew else [_pass_turn(state, p)])


def _draw(state, p, action, rng):
    who = _name(state, p)
    if state["phase"] not in ("moved", "draw"):
        raise GameError("%s can't draw a News card now: %s" % (who, _waiting_for(state)))
    _check_mover(state, p, "draw a News card")
    if state["players"][p]["assignment"]["status"] != "done":
        raise GameError("%s is still on an assignment: complete it before drawing a new one" % who)
    card = {"city": None, "points": None, "event": None, "grid": None}
    for field in ("city", "event", "grid"):
        if action.get(field) is not None:
            card[field] = _text(state, p, action.get(field), field)
    if action.get("points") is not None:
        card["points"] = _points(state, p, action.get("points"), "the News card")
    how = "telephone" if state["phase"] == "draw" else HOME_CITY
    events = [dict({"type": "drew", "player": p, "how": how}, **card)]
    if state["phase"] == "draw":
        events.append(_pass_turn(state, p))
    return events


def _news(state, p, action, rng):
    _check_moved(state, p, "report a News item")
    who = _name(state, p)
    assignment = state["players"][p]["assignment"]
    if assignment["status"] != "open":
        raise GameError("%s has no assignment in hand: draw a News card at Urbania or by telephone" % who)
    points = action.get("points")
    if points is None:
        points = assignment["points"]
        if points is None:
            raise GameError("%s: enter the points printed on the News card" % who)
    points = _points(state, p, points, "the News card")
    return [{"type": "won_card", "player": p, "card": NEWS, "points": points, "city": assignment["city"]}]


def _disaster(state, p, action, rng):
    _check_moved(state, p, "report a Disaster")
    who = _name(state, p)
    open_cards = state["open_disasters"]
    if not open_cards:
        raise GameError("no Disaster is open: one is turned up by the next double sixes")
    number = action.get("card")
    if number is None:
        if len(open_cards) > 1:
            raise GameError("%s: say which Disaster (card %s)" % (who, " or ".join(map(str, open_cards))))
        number = open_cards[0]
    if not _is_int(number) or number not in open_cards:
        raise GameError("%s: the open Disasters are card %s, not %r" % (who, " and ".join(map(str, open_cards)), number))
    points = _points(state, p, action.get("points"), "the Disaster card")
    return [{"type": "won_card", "player": p, "card": "disaster", "number": number, "points": points}]


def _catastrophe(state, p, action, rng):
    _check_moved(state, p, "report the Catastrophe")
    if state["catastrophe"] != "open":
        raise GameError("no Catastrophe is open: it is turned up by the first double sixes after "
                        "%d Disasters" % state["disasters"])
    points = _points(state, p, action.get("points"), "the Catastrophe card")
    won = {"type": "won_card", "player": p, "card": "catastrophe", "points": points}
    after = apply(state, won)
    scores = [_score(pl) for pl in after["players"]]
    best = max(scores)
    return [won, {"type": "ended", "scores": scores, "winners": [i for i, s in enumerate(scores) if s == best]}]


_ACTIONS = {"throw": _throw, "land": _land, "draw": _draw, "news": _news, "disaster": _disaster,
            "catastrophe": _catastrophe}


def _pass_turn(state, p):
    """After a throw the next player is up; the mover may still report what the move reached."""
    return {"type": "turn_passed", "player": p, "next": (p + 1) % len(state["players"])}


def _check_mover(state, p, doing):
    if p != state["mover"]:
        raise GameError("%s can't %s: it was %s who threw" % (_name(state, p), doing, _name(state, state["mover"])))


def _check_moved(state, p, doing):
    who = _name(state, p)
    if state["phase"] != "moved" or state["mover"] != p:
        raise GameError("%s can %s only after moving there, before the next player throws (now: %s)"
                        % (who, doing, _waiting_for(state)))


# ---------------------------------------------------------------- apply

def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        return _apply_setup(event)
    if not state.get("started"):
        return state
    s = copy.deepcopy(state)
    if kind == "order_decided":
        if event["first"] is None:
            s["order"] = {"round": list(event["tied"]), "throws": {}}
            s["turn"] = event["tied"][0]
        else:
            s["order"], s["turn"], s["phase"], s["first"] = None, event["first"], "turn", event["first"]
        return s
    if kind == "ended":
        s["phase"], s["scores"], s["winners"], s["mover"] = "over", event["scores"], event["winners"], None
        return s
    p = event.get("player")
    if not _is_int(p) or not 0 <= p < len(s["players"]):
        return s
    me = s["players"][p]
    if kind == "order_thrown":
        s["order"]["throws"][str(p)] = event["total"]
        waiting = [q for q in s["order"]["round"] if str(q) not in s["order"]["throws"]]
        if waiting:
            s["turn"] = waiting[0]
        s["last_throw"] = event
    elif kind == "thrown":
        s["last_throw"], s["mover"] = event, p
        result = event["result"]
        if event["method"] == TELEPHONE:
            if result in ("phoned_news", "phoned_plane"):
                me["phone"] = {"on_board": False, "attempts": 0, "for": None}
            else:
                me["phone"] = {"on_board": True, "attempts": me["phone"]["attempts"] + 1, "for": event["purpose"]}
        else:
            me["phone"] = {"on_board": False, "attempts": 0, "for": None}
        if result == "disaster":
            s["disasters_drawn"] += 1
            s["open_disasters"].append(event["card"])
        elif result == "catastrophe":
            s["catastrophe"] = "open"
        elif result == "plane_secured":
            me["plane"] = {"chartered": True, "at": event["at"]}
        s["phase"] = {"fly": "fly", "phoned_news": "draw", "phoned_plane": "plane_call"}.get(result, s["phase"])
        s["moved"] = result in ("drive", "next_city")
    elif kind == "landed":
        me["plane"]["at"] = event["airport"]
        if event["with_pin"]:                  # the flight was the move: the turn passes
            s["phase"], s["moved"] = "moved", False
            s["turn"] = (p + 1) % len(s["players"])
    elif kind == "drew":
        me["assignment"] = {"status": "open", "city": event["city"], "points": event["points"],
                            "event": event["event"], "grid": event["grid"]}
    elif kind == "won_card":
        card = {"card": event["card"], "points": event["points"]}
        if event["card"] == NEWS:
            card["city"] = event.get("city")
            me["assignment"] = dict(me["assignment"], status="done")
        elif event["card"] == "disaster":
            card["number"] = event["number"]
            s["open_disasters"] = [n for n in s["open_disasters"] if n != event["number"]]
        else:
            s["catastrophe"] = "won"
        me["cards"].append(card)
    elif kind == "turn_passed":
        s["turn"] = event["next"]
        s["phase"] = "moved" if s.get("moved") else "turn"
        s["moved"] = False
    return s


def _apply_setup(event):
    players = [{"name": seat["name"], "colour": seat.get("colour"),
                "assignment": {"status": "open", "city": None, "points": None, "event": None, "grid": None},
                "cards": [], "plane": {"chartered": False, "at": PLANE_START},
                "phone": {"on_board": False, "attempts": 0, "for": None}} for seat in event["players"]]
    first = event["first"]
    return {"started": True, "players": players, "disasters": event["disasters"], "disasters_drawn": 0,
            "airports": list(event.get("airports") or [PLANE_START]),
            "open_disasters": [], "catastrophe": None,
            "phase": "order" if first is None else "turn", "turn": 0 if first is None else first,
            "first": first, "order": None if first is not None else {"round": list(range(len(players))), "throws": {}},
            "mover": None, "moved": False, "last_throw": None, "scores": None, "winners": None}


# ---------------------------------------------------------------- offers / view

def offers(state: State) -> list[Action]:
    if not state.get("started") or state["phase"] == "over":
        return []
    phase, p = state["phase"], state["turn"]
    if phase == "order":
        return [{"type": "throw", "player": p}]
    m = state["mover"]
    if phase in ("fly", "plane_call"):
        return [{"type": "land", "player": m, "enter": ["airport"], "choices": {"airport": airports(state)}}]
    if phase == "draw":
        return [{"type": "draw", "player": m}]
    me = state["players"][p]
    out = [{"type": "throw", "player": p, "method": AUTOMOBILE, "needs": NEEDS[AUTOMOBILE]},
           {"type": "throw", "player": p, "method": TRAIN, "needs": NEEDS[TRAIN]}]
    if me["plane"]["chartered"]:
        out.append({"type": "throw", "player": p, "method": AIRPLANE, "needs": NEEDS[AIRPLANE]})
    else:
        out.append({"type": "throw", "player": p, "method": AIRPLANE, "needs": NEEDS[AIRPLANE], "enter": ["at"],
                    "choices": {"at": airports(state)}})
    if me["assignment"]["status"] == "done":
        out.append({"type": "throw", "player": p, "method": TELEPHONE, "purpose": NEWS, "needs": NEEDS[TELEPHONE]})
    if me["plane"]["chartered"]:
        out.append({"type": "throw", "player": p, "method": TELEPHONE, "purpose": PLANE, "needs": NEEDS[TELEPHONE]})
    if phase == "moved":
        mover = state["players"][m]
        if mover["assignment"]["status"] == "open":
            need = [] if mover["assignment"]["points"] is not None else ["points"]
            out.append({"type": "news", "player": m, "enter": need})
        else:
            out.append({"type": "draw", "player": m})
        out += [{"type": "disaster", "player": m, "card": k, "enter": ["points"]} for k in state["open_disasters"]]
        if state["catastrophe"] == "open":
            out.append({"type": "catastrophe", "player": m, "enter": ["points"]})
    return out


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    players = []
    for i, pl in enumerate(state["players"]):
        players.append({"seat": i, "name": pl["name"], "colour": pl["colour"], "score": _score(pl),
                        "cards": list(pl["cards"]), "assignment": dict(pl["assignment"]),
                        "plane": dict(pl["plane"]), "telephone": dict(pl["phone"])})
    last = state["last_throw"]
    return {
        "game": NAME, "title": TITLE, "started": True, "players": players, "phase": state["phase"],
        "turn": state["turn"], "turn_name": _name(state, state["turn"]), "mover": state["mover"],
        "waiting_for": _waiting_for(state) if state["phase"] != "over" else None,
        "last_throw": last,
        "disasters": {"before_catastrophe": state["disasters"], "drawn": state["disasters_drawn"],
                      "open": list(state["open_disasters"])},
        "catastrophe": state["catastrophe"],
        "order": state["order"],
        "scores": state["scores"], "winners": state["winners"], "airports": airports(state),
        "star_reporter": [_name(state, w) for w in state["winners"]] if state["winners"] else None,
    }


# ---------------------------------------------------------------- describe

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve")


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    return say_events(_SAYS, state, events)


def _threw(state, p, dice):
    """"Bob rolled 5 and 2 (seven)"."""
    a, b = dice
    return "%s rolled %d and %d (%s)" % (_name(state, p), a, b, "double sixes" if (a, b) == DOUBLE_SIXES
                                         else _NUMBERS[a + b])


def _say_order_thrown(state, ev):
    return "%s for the first move" % _threw(state, ev["player"], ev["dice"])


def _say_order_decided(state, ev):
    if ev["first"] is None:
        return "%s tie on %d and roll again" % (and_list([_name(state, q) for q in ev["tied"]]), ev["total"])
    return "%s moves first" % _name(state, ev["first"])


def _say_thrown(state, ev):
    at = ev.get("at")
    what = {
        "drive": "the automobile goes %d spaces" % ev["total"],
        "next_city": "the train goes on to the next city",
        "wait": "an odd total, so the train waits",
        "plane_secured": "a double charters the plane at %s" % at,
        "no_plane": "no double, so no plane yet",
        "fly": "a double, so the plane flies from %s" % at,
        "no_flight": "no double, so the plane stays at %s" % at,
        "phoned_news": "the telephone call goes through, for a new News assignment",
        "phoned_plane": "the telephone call goes through, and the plane is sent for",
        "no_connection": "no seven, so the telephone call doesn't go through",
        "disaster": "no move, and Disaster card %s is turned up" % ev.get("card"),
        "catastrophe": "no move, and the Catastrophe is turned up",
    }[ev["result"]]
    return "%s: %s" % (_threw(state, ev["player"], ev["dice"]), what)


def _say_landed(state, ev):
    if ev["with_pin"]:
        return "%s flew to %s" % (_name(state, ev["player"]), ev["airport"])
    return "%s sent the plane to %s" % (_name(state, ev["player"]), ev["airport"])


def _say_drew(state, ev):
    text = "%s drew a News assignment%s" % (_name(state, ev["player"]),
                                          " by telephone" if ev["how"] == TELEPHONE else " at %s" % ev["how"])
    card = " in ".join(ev[k] for k in ("event", "city") if ev.get(k))
    if ev.get("points") is not None:
        card += " (%d points)" % ev["points"] if card else "%d points" % ev["points"]
    return text + (": %s" % card if card else "")


def _say_won_card(state, ev):
    who = _name(state, ev["player"])
    if ev["card"] == NEWS:
        return "%s completed the News assignment%s: %d points" % (
            who, " in %s" % ev["city"] if ev.get("city") else "", ev["points"])
    if ev["card"] == "disaster":
        return "%s reached Disaster card %d's city: %d points" % (who, ev["number"], ev["points"])
    return "%s reached the Catastrophe: %d points, and the game ends" % (who, ev["points"])


def _say_ended(state, ev):
    names = [_name(state, w) for w in ev["winners"]]
    best = ev["scores"][ev["winners"][0]]
    if len(names) == 1:
        return "%s is the Star Reporter with %d points" % (names[0], best)
    return "%s share the title of Star Reporter with %d points each" % (and_list(names), best)


_SAYS = {"order_thrown": _say_order_thrown, "order_decided": _say_order_decided, "thrown": _say_thrown,
         "landed": _say_landed, "drew": _say_drew, "won_card": _say_won_card, "ended": _say_ended}



# ---------------------------------------------------------------- helpers

def _reading(state, p, ev):
    """The throw in the rules' words, for the panel."""
    who, total = _name(state, p), ev["total"]
    result = ev["result"]
    if result == "disaster":
        return ("Double sixes! %s does not move, and turns up Disaster card %d: open to all; its "
                "city must be reached by exact throw" % (who, ev["card"]))
    if result == "catastrophe":
        return ("Double sixes! %s does not move, and turns up the CATASTROPHE: the first to reach "
                "its city by exact throw ends the game" % who)
    return {
        "drive": "%s drives %d white spaces along the road (or splits the dice: %d and %d)"
                 % (who, total, ev["dice"][0], ev["dice"][1]),
        "next_city": "Even total (%d): %s moves to the next city on the railroad" % (total, who),
        "wait": "Odd total (%d): %s can't move by train this turn" % (total, who),
        "plane_secured": "A double: %s charters a plane at %s" % (who, ev["at"]),
        "no_plane": "No double: %s has not secured a plane yet" % who,
        "fly": "A double: %s flies from %s to any airport" % (who, ev["at"]),
        "no_flight": "No double: %s can't fly this turn" % who,
        "phoned_news": "Seven: %s gets through and draws a new News assignment" % who,
        "phoned_plane": "Seven: %s gets through and sends the plane to any airport" % who,
        "no_connection": "No seven (%d): %s must wait to throw a seven on a later turn" % (total, who),
    }[result]


def _waiting_for(state):
    phase = state["phase"]
    if phase == "order":
        return "%s throws the dice for who moves first" % _name(state, state["turn"])
    if phase == "fly":
        return "%s says which airport the plane flew to" % _name(state, state["mover"])
    if phase == "plane_call":
        return "%s says which airport the plane is sent to" % _name(state, state["mover"])
    if phase == "draw":
        return "%s draws a new News card" % _name(state, state["mover"])
    if phase == "moved":
        return ("%s announces a method of travel and throws (%s may first report what the move "
                "reached)" % (_name(state, state["turn"]), _name(state, state["mover"])))
    if phase == "turn":
        return "%s announces a method of travel and throws" % _name(state, state["turn"])
    return "the game is over"


def _result_words(state):
    return "%s %s the Star Reporter" % (" and ".join(_name(state, w) for w in state["winners"]),
                                        "is" if len(state["winners"]) == 1 else "share the title of")


def _score(player):
    return sum(c["points"] for c in player["cards"])


def _dice(state, p, dice, rng):
    if dice is None:
        return (rng.randrange(DIE_FACES) + 1, rng.randrange(DIE_FACES) + 1)
    if (not isinstance(dice, (list, tuple)) or len(dice) != 2
            or not all(_is_int(d) and 1 <= d <= DIE_FACES for d in dice)):
        raise GameError("%s's dice are two numbers 1-6, e.g. [3, 4], not %r" % (_name(state, p), dice))
    return (dice[0], dice[1])


def _points(state, p, value, what):
    if not _is_int(value) or not 0 < value <= MOST_POINTS:
        raise GameError("%s: enter the points printed on %s (a whole number 1-%s), not %s"
                        % (_name(state, p), what, format(MOST_POINTS, ","), _shown(value)))
    return value


def _shown(value):
    return quoted(value, 30)


def airports(state):
    """The board's airports for this game (the "airports" option; Baytown's by default)."""
    return state.get("airports") or [PLANE_START]


def _airport(state, p, value, what):
    """One of the board's airports, matched without regard to case ("baytown" is Baytown)."""
    known = airports(state)
    if isinstance(value, str):
        found = [a for a in known if a.lower() == value.strip().lower()]
        if found:
            return found[0]
    raise GameError("%s: %s is one of the board's airports, %s, not %s%s"
                    % (_name(state, p), what, and_list(known), _shown(value),
                       "" if len(known) > 1 else " (this game was started with Baytown's only: "
                       "the board's airports are listed when a game starts)"))


def _text(state, p, value, field):
    if not isinstance(value, str) or not value.strip() or len(value) > TEXT_MOST:
        raise GameError("%s: %s is a name as printed on the board (up to %d letters), not %r"
                        % (_name(state, p), field, TEXT_MOST, value))
    return value.strip()


def rings(events):
    """The box rings the phone when a Disaster or the Catastrophe breaks (newsdesk's touch: the
    news is in, pick up)."""
    return any(e.get("type") == "thrown" and e.get("result") in ("disaster", "catastrophe") for e in events)
