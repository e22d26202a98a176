"""The sentences the table reads about Star Reporter's moves: the undo bar's and the log's one
line for what a throw, a landing, a card drawn or won did."""

from typing import Callable

from ..base import Action, Event, State, and_list, player_name as _name, say_events
from .rules import DOUBLE_SIXES, NEWS, TELEPHONE

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve")


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    words: str = say_events(_SAYS, state, events)
    return words


def _threw(state: State, p: int, dice: list[int], sixes: bool = True) -> str:
    """"Bob rolled 5 and 2 (seven)"; double sixes are named only where they turn a card up
    (``sixes``): on the throw for the first move, and once the Catastrophe is up (nothing is left
    to turn up), they are a total of twelve like any other."""
    a, b = dice
    return "%s rolled %d and %d (%s)" % (_name(state, p), a, b, "double sixes" if sixes and (a, b) == DOUBLE_SIXES
                                         else _NUMBERS[a + b])


def _say_order_thrown(state: State, ev: Event) -> str:
    return "%s for the first move" % _threw(state, ev["player"], ev["dice"], sixes=False)


def _say_order_decided(state: State, ev: Event) -> str:
    if ev["first"] is None:
        return "%s tie on %d and roll again" % (and_list([_name(state, q) for q in ev["tied"]]), ev["total"])
    return "%s moves first" % _name(state, ev["first"])


def _say_thrown(state: State, ev: Event) -> str:
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
    if ev.get("phone_given_up"):     # another method announced: "removing his telephone piece from the board"
        what += ", and the telephone is taken off the board"
    # double sixes after the Catastrophe is up turn up nothing and read as an ordinary throw
    sixes = ev["result"] in ("disaster", "catastrophe")
    return "%s: %s" % (_threw(state, ev["player"], ev["dice"], sixes), what)


def _say_landed(state: State, ev: Event) -> str:
    if ev["with_pin"]:
        return "%s flew to %s" % (_name(state, ev["player"]), ev["airport"])
    return "%s sent the plane to %s" % (_name(state, ev["player"]), ev["airport"])


def _say_drew(state: State, ev: Event) -> str:
    text = "%s drew a News assignment%s" % (_name(state, ev["player"]),
                                          " by telephone" if ev["how"] == TELEPHONE else " at %s" % ev["how"])
    card = " in ".join(ev[k] for k in ("event", "city") if ev.get(k))
    if ev.get("points") is not None:
        card += " (%d points)" % ev["points"] if card else "%d points" % ev["points"]
    return text + (": %s" % card if card else "")


def _say_won_card(state: State, ev: Event) -> str:
    who = _name(state, ev["player"])
    if ev["card"] == NEWS:
        if ev.get("same_city"):         # after a Disaster on the move: "at the same city", as a Disaster after it
            return "%s completed the News assignment at the same city%s: %d points" % (
                who, " (%s)" % ev["city"] if ev.get("city") else "", ev["points"])
        return "%s completed the News assignment%s: %d points" % (
            who, " in %s" % ev["city"] if ev.get("city") else "", ev["points"])
    if ev["card"] == "disaster":
        where = " at the same city" if ev.get("same_city") else "'s city"
        return "%s reached Disaster card %d%s: %d points" % (who, ev["number"], where, ev["points"])
    return "%s reached the Catastrophe%s: %d points, and the game ends" % (
        who, " at the same city" if ev.get("same_city") else "", ev["points"])


def _say_ended(state: State, ev: Event) -> str:
    names = [_name(state, w) for w in ev["winners"]]
    best = ev["scores"][ev["winners"][0]]
    if len(names) == 1:
        return "%s is the Star Reporter with %d points" % (names[0], best)
    return "%s share the title of Star Reporter with %d points each" % (and_list(names), best)


_SAYS: dict[str, Callable[[State, Event], str]] = {
    "order_thrown": _say_order_thrown, "order_decided": _say_order_decided, "thrown": _say_thrown,
    "landed": _say_landed, "drew": _say_drew, "won_card": _say_won_card, "ended": _say_ended}
