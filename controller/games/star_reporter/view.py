"""What the panel shows of a game of Star Reporter: its screen, the one-tap buttons it offers
now (each throw's button saying what the dice must show), its facts about the game, and the
phone's bell when news breaks."""

from typing import Any

from ..base import Action, Event, State, and_list, player_name as _name
from .rules import (
    AIRPLANE,
    AUTOMOBILE,
    MOST_POINTS,
    NAME,
    NEWS,
    PLANE,
    SCORE,
    TELEPHONE,
    TITLE,
    TRAIN,
    airports,
    destinations,
    no_flights,
    score,
    this_move,
    waiting_for,
)

PANEL = {"score": SCORE, "chart": {"unit": "points", "prefix": ""}, "listens": ["dice"],
         "numbers": {"points": {"minimum": 1, "maximum": MOST_POINTS, "label": "Points on the card"},
                     "news_points": {"minimum": 1, "maximum": MOST_POINTS, "label": "Points on the News card"},
                     "disaster_points": {"minimum": 1, "maximum": MOST_POINTS, "label": "Points on the Disaster card"}},
         "words": {"at": "Airport the pin is at", "airport": "Airport"}}
NEEDS = {AUTOMOBILE: "any throw: move the total (the dice may be split)",
         TRAIN: "an even total, from a city", AIRPLANE: "a double, at an airport",
         TELEPHONE: "a total of seven, from a city"}      # shown on the panel's throw buttons


def offers(state: State) -> list[Action]:
    if not state.get("started") or state["phase"] == "over":
        return []
    phase, p = state["phase"], state["turn"]
    if phase == "order":
        return [{"type": "throw", "player": p}]
    m = state["mover"]
    if phase in ("fly", "plane_call"):
        # anywhere but where the plane stands; nowhere at all in a game kept from before a flight
        # with one airport was refused (its refusal says to undo the throw)
        where = destinations(state, m)
        return [{"type": "land", "player": m, "enter": ["airport"], "choices": {"airport": where}}] if where else []
    if phase == "draw":
        return [{"type": "draw", "player": m}]
    me = state["players"][p]
    out: list[Action] = [{"type": "throw", "player": p, "method": AUTOMOBILE, "needs": NEEDS[AUTOMOBILE]},
                         {"type": "throw", "player": p, "method": TRAIN, "needs": NEEDS[TRAIN]}]
    flights = no_flights(state) is None           # with one airport, none: the view says why
    if flights and me["plane"]["chartered"]:
        out.append({"type": "throw", "player": p, "method": AIRPLANE, "needs": NEEDS[AIRPLANE]})
    elif flights:
        out.append({"type": "throw", "player": p, "method": AIRPLANE, "needs": NEEDS[AIRPLANE], "enter": ["at"],
                    "choices": {"at": airports(state)}})
    if me["assignment"]["status"] == "done":
        out.append({"type": "throw", "player": p, "method": TELEPHONE, "purpose": NEWS, "needs": NEEDS[TELEPHONE]})
    if flights and me["plane"]["chartered"]:
        out.append({"type": "throw", "player": p, "method": TELEPHONE, "purpose": PLANE, "needs": NEEDS[TELEPHONE]})
    if phase == "moved":
        mover = state["players"][m]
        done = this_move(state)
        # one move ends in one city: after a Disaster (or the News card), the other cards only as its city too
        same, after = _same_city(mover, done)
        if mover["assignment"]["status"] == "open":
            if "drew" not in done:
                need = [] if mover["assignment"]["points"] is not None else ["points"]
                out.append(dict({"type": "news", "player": m, "enter": need}, **same, **_labels(need, [NEWS], after)))
        elif NEWS not in done:
            out.append({"type": "draw", "player": m})
        out += [{"type": "disaster", "player": m, "card": k, "enter": ["points"], **same,
                 **_labels(["points"], [k], after)} for k in state["open_disasters"]]
        if state["catastrophe"] == "open":
            out.append({"type": "catastrophe", "player": m, "enter": ["points"], **same,
                        **_labels(["points"], [CATASTROPHE], after)})
            news_here = mover["assignment"]["status"] == "open" and "drew" not in done
            news_need = [] if mover["assignment"]["points"] is not None else ["news_points"]
            if news_here:
                # the same city as the News card's: both on this move, the game ending on it
                need = ["points"] + news_need
                out.append({"type": "catastrophe", "player": m, "news": True, "enter": need, **same,
                            **_labels(need, [CATASTROPHE, NEWS], after)})
            # the same city as an open Disaster's: both on this move, whichever the table taps first
            # (the Disaster first, then the Catastrophe "in the same city too"; or this)
            for k in state["open_disasters"]:
                need = ["points", "disaster_points"]
                out.append({"type": "catastrophe", "player": m, "disaster": k, "enter": need, **same,
                            **_labels(need, [CATASTROPHE, k], after)})
            # the News card's city and an open Disaster's too: all three in one tap. Each pair above
            # ends the game on the Catastrophe, so a table at a city of three that tapped the pair
            # whose words fit lost the third card; the one move wins all three
            if news_here:
                for k in state["open_disasters"]:
                    need = ["points"] + news_need + ["disaster_points"]
                    out.append({"type": "catastrophe", "player": m, "news": True, "disaster": k, "enter": need,
                                **same, **_labels(need, [CATASTROPHE, NEWS, k], after)})
    return out


def _same_city(mover: dict[str, Any], done: list[str]) -> tuple[dict[str, Any], str]:
    """What the mover's News, Disaster and Catastrophe offers add once a Disaster or the News card
    was won on this move: the flag "same_city" (a second card is won on one move only at the same
    city: the move ended there, a Disaster's city "must be reached by an exact throw" and the
    News is obtained on reaching its city, the rest of the throw sacrificed) and the words for its
    points box naming the card before it; the same both ways, the News after a Disaster as a
    Disaster after the News. Nothing before a card is won (the Catastrophe ends the game, so none
    follows it)."""
    if "disaster" in done:
        number = [c["number"] for c in mover["cards"] if c["card"] == "disaster"][-1]
        return {"same_city": True}, " (the same city as Disaster #%d)" % number
    if NEWS in done:
        return {"same_city": True}, " (the same city as the News card)"
    return {}, ""


CATASTROPHE = "catastrophe"
Card = str | int                # an offer's card: NEWS, CATASTROPHE or an open Disaster's number


def _labels(enter: list[str], cards: list[Card], after: str = "") -> dict[str, Any]:
    """An offer's "labels": the words for each field it enters, so that the points boxes the panel
    shows at once are each named for their card (the News card, Disaster #k, the Catastrophe
    card) and, on an offer of more than one card (its own first), for the cards it is with: the
    Catastrophe alone, with the News card, with Disaster #1, with both, each asks for its points,
    and a screen reader told the boxes of one name apart only by their form. ``after``: the words
    for the card before it on this move (_same_city)."""
    disaster = next((c for c in cards if isinstance(c, int)), None)
    own = {"points": cards[0], "news_points": NEWS, "disaster_points": disaster}

    def words(card: Card | None) -> str:
        others = [_card(c, short=True) for c in cards if c != card]
        return "Points on %s%s%s" % (_card(card), ", with " + and_list(others) if others else "", after)

    return {"labels": {f: words(own[f]) for f in enter}} if enter else {}


def _card(card: Card | None, short: bool = False) -> str:
    """A card in the points boxes' words: "the News card", "Disaster #2", "the Catastrophe card"
    (``short``: "the Catastrophe", after "with")."""
    if card == NEWS:
        return "the News card"
    if card == CATASTROPHE:
        return "the Catastrophe" if short else "the Catastrophe card"
    return "Disaster #%s" % card


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    players = []
    for i, pl in enumerate(state["players"]):
        players.append({"seat": i, "name": pl["name"], "colour": pl["colour"], "score": score(pl),
                        "cards": list(pl["cards"]), "assignment": dict(pl["assignment"]),
                        "plane": dict(pl["plane"]), "telephone": dict(pl["phone"])})
    last = state["last_throw"]
    return {
        "game": NAME, "title": TITLE, "started": True, "players": players, "phase": state["phase"],
        "turn": state["turn"], "turn_name": _name(state, state["turn"]), "mover": state["mover"],
        "waiting_for": waiting_for(state) if state["phase"] != "over" else None,
        "last_throw": last,
        "disasters": {"before_catastrophe": state["disasters"], "drawn": state["disasters_drawn"],
                      "open": list(state["open_disasters"])},
        "catastrophe": state["catastrophe"],
        "order": state["order"],
        "scores": state["scores"], "winners": state["winners"], "airports": airports(state),
        "no_flights": no_flights(state),
        "star_reporter": [_name(state, w) for w in state["winners"]] if state["winners"] else None,
    }


def rings(events: list[Event]) -> bool:
    """The box rings the phone when a Disaster or the Catastrophe breaks (newsdesk's touch: the
    news is in, pick up)."""
    return any(e.get("type") == "thrown" and e.get("result") in ("disaster", "catastrophe") for e in events)
