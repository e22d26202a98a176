"""Star Reporter's rules: the box's numbers, the options setup checks, and the pure functions
that decide a move, fold its events and say who won. The panel's view and the table's words
about moves are view.py and words.py; the refusals are here, with the rule they enforce."""

import random
from typing import Any, Callable

from ..base import (
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
    copied,
    declared,
    form_name,
    guard,
    is_int as _is_int,
    option,
    or_list,
    player_name as _name,
    quoted,
    result_of,
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
SCORE = "points"            # what a player's score counts: the credits on the cards won

OPTIONS = (
    option("disasters", "integer", DEFAULT_DISASTERS, "Players may vary the length of a game by "
           "deciding before it starts the number of Disaster Cards they wish to draw (usually 3 to 5) "
           "during the game.", "Disaster cards before the Catastrophe", minimum=1,
           maximum=DISASTER_CARDS, newsdesk=True,
           help="newsdesk's default is 4, within the rules' \"usually 3 to 5\"; the pile holds 9."),
    option("airports", "names", [PLANE_START], "When he shakes this second double he may move his pin "
           "and his plane to any airport on the board.", "The board's airports",
           items=(1, MOST_AIRPORTS), newsdesk=True,
           help="The rules name one airport, Baytown's, where every plane starts; the others are printed "
                "on your board. Add them, one a line or separated by commas (Baytown, then yours): until "
                "you do, newsdesk knows Baytown alone, and no plane flies: a flight goes to another airport."),
    option("first", "seat", None, "all players throw the dice in turn and the player throwing the "
           "highest total moves first and is followed by the other players in rotation to the left.",
           "Who moves first (empty: throw for it)",
           help="A tie for the highest total is not covered: newsdesk's reading is that the tied players "
                "throw again, and only they."),
)

Dice = tuple[int, int]
Move = Callable[[State, int, Action, random.Random], list[Event]]


def facts(dice: Dice) -> dict[str, Any]:
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
    kind = guard(state, action, title="Star Reporter", actions=_ACTIONS, result=result, over=_result_words)
    p = _seat(state, action.get("player"))
    return _ACTIONS[kind](state, p, action, rng)


def result(state: State) -> Result:
    """Over once the Catastrophe is reported ("when this story is obtained by the first player
    reaching the scene, the game ends"); each player's score is the credits on the cards they
    hold, and the winners are the highest credit ("the one having the highest credit becomes the
    Star Reporter and Wins The Game"), all of them on a tie."""
    if not state.get("started"):
        return result_of(False, [], {"score": SCORE})
    over = state["phase"] == "over"
    won = set(state["winners"] or ())
    return result_of(over, [(pl["name"], score(pl), i in won) for i, pl in enumerate(state["players"])],
                     {"score": SCORE})


def _throw(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    phase = state["phase"]
    if phase not in ("order", "turn", "moved"):
        raise GameError("%s can't throw now: %s" % (_name(state, p), waiting_for(state)))
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
        if purpose == PLANE and no_flights(state):
            raise GameError("%s can't telephone for the plane: %s" % (who, no_flights(state)))
    if method == AIRPLANE:
        if no_flights(state):
            raise GameError("%s can't travel by airplane: %s" % (who, no_flights(state)))
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


def _result(method: str, purpose: str | None, me: dict[str, Any], f: dict[str, Any]) -> str:
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


def _order_throw(state: State, p: int, dice: Dice) -> list[Event]:
    events: list[Event] = [{"type": "order_thrown", "player": p, "dice": list(dice), "total": sum(dice)}]
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


def _land(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    if state["phase"] not in ("fly", "plane_call"):
        raise GameError("%s can't land a plane now: %s" % (_name(state, p), waiting_for(state)))
    _check_mover(state, p, "say where the plane went")
    airport = _airport(state, p, action.get("airport"), "the airport")
    flew = state["phase"] == "fly"
    here = state["players"][p]["plane"]["at"]
    if airport.lower() == here.lower():
        others = destinations(state, p)
        if not others:              # a game kept from before such a throw was refused: its double thrown
            raise GameError("%s's plane is at %s already, and %s: undo the throw" % (_name(state, p), here, ONE_AIRPORT))
        raise GameError("%s's plane is at %s already: %s to another of the board's airports, %s"
                        % (_name(state, p), here, "a flight goes" if flew else "a plane telephoned for comes",
                           or_list(others)))
    return [{"type": "landed", "player": p, "airport": airport, "with_pin": flew}] + (
        [] if flew else [_pass_turn(state, p)])


def _draw(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    who = _name(state, p)
    if state["phase"] not in ("moved", "draw"):
        raise GameError("%s can't draw a News card now: %s" % (who, waiting_for(state)))
    _check_mover(state, p, "draw a News card")
    if state["players"][p]["assignment"]["status"] != "done":
        raise GameError("%s is still on an assignment: complete it before drawing a new one" % who)
    if state["phase"] == "moved" and NEWS in this_move(state):
        city = state["players"][p]["assignment"]["city"]
        raise GameError("%s reported News on this move%s: the next card is drawn \"as soon as he returns to "
                        "Urbania\", after a later move" % (who, " (at %s)" % city if city else ""))
    card: dict[str, Any] = {"city": None, "points": None, "event": None, "grid": None}
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


def _news(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _check_moved(state, p, "report a News item")
    who = _name(state, p)
    assignment = state["players"][p]["assignment"]
    if assignment["status"] != "open":
        raise GameError("%s has no assignment in hand: draw a News card at Urbania or by telephone" % who)
    if "drew" in this_move(state):
        raise GameError("%s drew this card at Urbania on this move: report it after a move that reaches %s"
                        % (who, assignment["city"] or "its city"))
    # after a Disaster won on this move, the News card is at its city: the move ended there
    same = _said_same_city(state, p, action)
    points = action.get("points")
    if points is None:
        points = assignment["points"]
        if points is None:
            raise GameError("%s: enter the points printed on the News card" % who)
    points = _points(state, p, points, "the News card")
    if assignment["points"] is not None and points != assignment["points"]:
        raise GameError("%s's News card was entered as %d points when drawn, not %d: the card's own points "
                        "are what it earns" % (who, assignment["points"], points))
    return [dict({"type": "won_card", "player": p, "card": NEWS, "points": points, "city": assignment["city"]},
                 **_at_same_city(same))]


def _disaster(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _check_moved(state, p, "report a Disaster")
    who = _name(state, p)
    open_cards = state["open_disasters"]
    if not open_cards:
        raise GameError("no Disaster is open: one is turned up by the next double sixes")
    same = _one_exact_city(state, p, action)
    number = action.get("card")
    if number is None:
        if len(open_cards) > 1:
            raise GameError("%s: say which Disaster (card %s)" % (who, " or ".join(map(str, open_cards))))
        number = open_cards[0]
    if not _is_int(number) or number not in open_cards:
        raise GameError("%s: the open Disasters are card %s, not %r" % (who, " and ".join(map(str, open_cards)), number))
    points = _points(state, p, action.get("points"), "the Disaster card")
    return [dict({"type": "won_card", "player": p, "card": "disaster", "number": number, "points": points},
                 **_at_same_city(same))]


def _catastrophe(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _check_moved(state, p, "report the Catastrophe")
    if state["catastrophe"] != "open":
        raise GameError("no Catastrophe is open: it is turned up by the first double sixes after "
                        "%d Disasters" % state["disasters"])
    same = _one_exact_city(state, p, action)
    points = _points(state, p, action.get("points"), "the Catastrophe card")
    # the Catastrophe's city may be the mover's News city too: reaching it obtains both at once
    # ("when a player reaches the city ... he is considered to have obtained" the News), and the
    # game ends on the Catastrophe, so the News is reported with it, not after (it would come too
    # late) nor only if it was tapped first
    with_news = action.get("news", False)
    if not isinstance(with_news, bool):
        raise GameError("%s: \"news\" says whether the Catastrophe's city is also the News card's (true or "
                        "false), not %s" % (_name(state, p), _shown(with_news)))
    # so may an open Disaster's: the move that reaches it is "first to reach the city where the
    # disaster occurred" too, and wins that card with the Catastrophe ("disaster": its number),
    # as it would have had the Disaster been tapped first
    disaster = action.get("disaster")
    events: list[Event] = []
    after = state
    if with_news:
        events += _news(after, p, {"points": action.get("news_points"), "same_city": same}, rng)
        after = _applied(after, events[-1:])
        same = True                                 # the cards after it are at the News card's city
    if disaster is not None:
        if not state["open_disasters"]:
            raise GameError("%s: \"disaster\" names an open Disaster whose city is the Catastrophe's too, and "
                            "none is open" % _name(state, p))
        events += _disaster(after, p, {"card": disaster, "points": action.get("disaster_points"), "same_city": same},
                            rng)
        after = _applied(after, events[-1:])
        same = True                                 # the Catastrophe is at the city of that Disaster
    # so the events are the same as the News tapped first, then the rest "in the same city too"
    events.append(dict({"type": "won_card", "player": p, "card": "catastrophe", "points": points},
                       **_at_same_city(same)))
    after = _applied(after, events[-1:])
    scores = [score(pl) for pl in after["players"]]
    best = max(scores)
    return events + [{"type": "ended", "scores": scores, "winners": [i for i, s in enumerate(scores) if s == best]}]


def _applied(state: State, events: list[Event]) -> State:
    """``state`` after ``events``: what a card won earlier in one action leaves for the next."""
    for event in events:
        state = apply(state, event)
    return state


_ACTIONS: dict[str, Move] = {"throw": _throw, "land": _land, "draw": _draw, "news": _news, "disaster": _disaster,
                             "catastrophe": _catastrophe}


def this_move(state: State) -> list[str]:
    """What the mover has reported since the throw that moved them: "drew", and the cards won
    (news, disaster, catastrophe). One move ends in one city: a card drawn at Urbania can't be
    reported on the move that drew it, and two cities reached by exact throw can't both be."""
    reported: list[str] = state.get("this_move") or []
    return reported


def _one_exact_city(state: State, p: int, action: Action) -> bool:
    """Whether the card is reported as the same city as the card before it on this move
    ("same_city", the table's word: the panel knows no Disaster's city). A Disaster's city and the
    Catastrophe's "must be reached by an exact throw", so one move reaches one such city; but two
    cards may name that one city, and each goes to "the first player reaching the scene": the
    move that reaches it wins both. A second card not said to be at the same city is refused.
    After the News card reported on this move the move ended at its city (the rest of the throw
    "sacrificed" to reach it), so a card won on it is at that city: said so, or not, as before."""
    same = _said_same_city(state, p, action)
    done = [c for c in this_move(state) if c in ("disaster", "catastrophe")]
    if done and not same:
        raise GameError("%s already reported the %s on this move: a Disaster's city and the Catastrophe's \"must "
                        "be reached by an exact throw\", and one move ends in one city; if this card names the "
                        "same city, say so (\"same_city\")" % (
                            _name(state, p), "Catastrophe" if done[0] == "catastrophe" else "Disaster"))
    return same


def _said_same_city(state: State, p: int, action: Action) -> bool:
    """"same_city" as the action says it: true only after a card won on this move (the News card,
    a Disaster). The News card after a Disaster may say so, or not, as a Disaster after the News
    card may: the move that won the Disaster ended at its city, so the News reached on it is there."""
    who = _name(state, p)
    same = action.get("same_city", False)
    if not isinstance(same, bool):
        raise GameError("%s: \"same_city\" says whether this card names the city of the card reported before it on "
                        "this move (true or false), not %s" % (who, _shown(same)))
    if same and not any(c in (NEWS, "disaster", "catastrophe") for c in this_move(state)):
        raise GameError("%s: \"same_city\" says this card names the city of the card reported before it on this "
                        "move, and none was" % who)
    return same


def _at_same_city(same: bool) -> dict[str, Any]:
    """A card won at the city of the card before it on the move says so (the table's words); a
    card won alone carries nothing more, as before."""
    return {"same_city": True} if same else {}


def _pass_turn(state: State, p: int) -> Event:
    """After a throw the next player is up; the mover may still report what the move reached."""
    return {"type": "turn_passed", "player": p, "next": (p + 1) % len(state["players"])}


def _check_mover(state: State, p: int, doing: str) -> None:
    if p != state["mover"]:
        raise GameError("%s can't %s: it was %s who threw" % (_name(state, p), doing, _name(state, state["mover"])))


def _check_moved(state: State, p: int, doing: str) -> None:
    who = _name(state, p)
    if state["phase"] != "moved" or state["mover"] != p:
        raise GameError("%s can %s only after moving there, before the next player throws (now: %s)"
                        % (who, doing, waiting_for(state)))


# ---------------------------------------------------------------- apply

def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        return _apply_setup(event)
    if not state.get("started"):
        return state
    s = copied(state)
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
        s["this_move"] = []
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
        s["this_move"] = this_move(s) + ["drew"]
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
        s["this_move"] = this_move(s) + [event["card"]]
    elif kind == "turn_passed":
        s["turn"] = event["next"]
        s["phase"] = "moved" if s.get("moved") else "turn"
        s["moved"] = False
    return s


def _apply_setup(event: Event) -> State:
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


# ---------------------------------------------------------------- helpers

def _reading(state: State, p: int, ev: Event) -> str:
    """The throw in the rules' words, for the panel (the throw's event carries it), and, when
    another method was announced on a telephone call, the telephone piece coming off the board
    ("removing his telephone piece from the board after he throws")."""
    reading = _read_throw(state, p, ev)
    if ev.get("phone_given_up"):
        reading += "; %s removes the telephone piece from the board" % _name(state, p)
    return reading


def _read_throw(state: State, p: int, ev: Event) -> str:
    """What the dice did for the method announced, in the rules' words."""
    who, total = _name(state, p), ev["total"]
    result = ev["result"]
    if result == "disaster":
        return ("Double sixes! %s does not move, and turns up Disaster card %d: open to all; its "
                "city must be reached by exact throw" % (who, ev["card"]))
    if result == "catastrophe":
        return ("Double sixes! %s does not move, and turns up the CATASTROPHE: the first to reach "
                "its city by exact throw ends the game" % who)
    reading: str = {
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
    return reading


def left_to_report(state: State) -> bool:
    """Whether the player who just moved may still report something the move reached (the view
    offers it): the News card's city (or, with the assignment done, a new card drawn at
    Urbania), an open Disaster or the open Catastrophe."""
    mover, done = state["players"][state["mover"]], this_move(state)
    news = "drew" not in done if mover["assignment"]["status"] == "open" else NEWS not in done
    return news or bool(state["open_disasters"]) or state["catastrophe"] == "open"


def waiting_for(state: State) -> str:
    """Who the game waits for, and to do what: the view shows it, and a refusal says it."""
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
        # the wait on the mover only while the mover has something left to report: once the News
        # card is in, with no Disaster or Catastrophe open, the table waits on the next throw alone
        throws = "%s announces a method of travel and throws" % _name(state, state["turn"])
        if not left_to_report(state):
            return throws
        return "%s (%s may first report what the move reached)" % (throws, _name(state, state["mover"]))
    if phase == "turn":
        return "%s announces a method of travel and throws" % _name(state, state["turn"])
    return "the game is over"


def _result_words(state: State) -> str:
    return "%s %s the Star Reporter" % (" and ".join(_name(state, w) for w in state["winners"]),
                                        "is" if len(state["winners"]) == 1 else "share the title of")


def score(player: dict[str, Any]) -> int:
    """A player's score: the credits on the cards they hold."""
    credits: int = sum(c["points"] for c in player["cards"])
    return credits


def _dice(state: State, p: int, dice: object, rng: random.Random) -> Dice:
    if dice is None:
        return (rng.randrange(DIE_FACES) + 1, rng.randrange(DIE_FACES) + 1)
    if (not isinstance(dice, (list, tuple)) or len(dice) != 2
            or not all(_is_int(d) and 1 <= d <= DIE_FACES for d in dice)):
        raise GameError("%s's dice are two numbers 1-6, e.g. [3, 4], not %r" % (_name(state, p), dice))
    return (dice[0], dice[1])


def _points(state: State, p: int, value: object, what: str) -> int:
    if not _is_int(value) or not 0 < value <= MOST_POINTS:
        raise GameError("%s: enter the points printed on %s (a whole number 1-%s), not %s"
                        % (_name(state, p), what, format(MOST_POINTS, ","), _shown(value)))
    return value


def _shown(value: object) -> str:
    shown: str = quoted(value, 30)
    return shown


def airports(state: State) -> list[str]:
    """The board's airports for this game (the "airports" option; Baytown's by default)."""
    known: list[str] = state.get("airports") or [PLANE_START]
    return known


# said of a game that knows Baytown's airport alone (the option's default): by its refusals and its view
ONE_AIRPORT = ("this game was started with %s's only (the board's airports are listed when a game starts)"
               % PLANE_START)


def destinations(state: State, p: int) -> list[str]:
    """Where player ``p``'s plane can go: the board's airports but the one it stands at. "He may
    move his pin and his plane to any airport on the board", and a plane telephoned for comes "to
    any airport on the board": to the airport it already stands at, it would go nowhere."""
    here = state["players"][p]["plane"]["at"].lower()
    return [a for a in airports(state) if a.lower() != here]


def no_flights(state: State) -> str | None:
    """Why no plane flies in this game, or None when planes fly. A flight goes from one airport
    to another, so a game that knows one airport (Baytown's, the "airports" option's default:
    the rules name no other) has none: the panel offers neither the airplane nor a telephone
    call for the plane, refuses both with this, and its screen says it."""
    if len(airports(state)) > 1:
        return None
    return "a flight goes from one of the board's airports to another, and " + ONE_AIRPORT


def _airport(state: State, p: int, value: object, what: str) -> str:
    """One of the board's airports, matched without regard to case ("baytown" is Baytown)."""
    known = airports(state)
    if isinstance(value, str):
        found = [a for a in known if a.lower() == value.strip().lower()]
        if found:
            return found[0]
    raise GameError("%s: %s is one of the board's airports, %s, not %s%s"
                    % (_name(state, p), what, and_list(known), _shown(value),
                       "" if len(known) > 1 else "; " + ONE_AIRPORT))


def _text(state: State, p: int, value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > TEXT_MOST:
        raise GameError("%s: %s is a name as printed on the board (up to %d letters), not %r"
                        % (_name(state, p), field, TEXT_MOST, value))
    return value.strip()
