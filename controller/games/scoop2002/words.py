"""What the table reads about a move of Scoop! (2002): the choice, each roll and what it did,
the pitch's sum, N. Ickel's turn and the win, in one sentence."""

from ..base import Action, Event, State, say_events
from .rules import STREET, TIMES, pitch_sells, player_name, reading, roll_value, street_default


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    return say_events(_SAYS, state, events)


def _rolled(value: int, state: State) -> str:
    """A roll as it counts against a sum (the "zero" option): "rolled 7", and under "ten"
    "rolled 0 (10)"."""
    r = roll_value(state, value)
    return "rolled %d" % value if r == value else "rolled %d (%d)" % (value, r)


def _rolled_at(state: State, value: int, location: int) -> str:
    """A roll that picks a Location (a mark, a beat): "rolled 0: #10 Industrial Park", the
    number being the Location's, whatever a 0 counts as against a sum."""
    return "rolled %d: #%d %s" % (value, reading(value), _place_words(state, location))


def _place_words(state: State, place: int | str) -> str:
    if place == TIMES:
        return "the Action City Times"
    if place == STREET:
        return "the street"
    name: str = state["locations"][int(place) - 1]
    return name


def _say_chose(state: State, ev: Event) -> str:
    who = player_name(state, ev["player"])
    if ev["choice"] == "move":
        return "%s chose to move" % who
    return "%s chose to pitch the %s story" % (who, _place_words(state, ev["story"]))


def _say_beat(state: State, ev: Event) -> str:
    who, where = player_name(state, ev["player"]), _rolled_at(state, ev["value"], ev["location"])
    if ev["taken"]:
        owner = [pl["name"] for pl in state["players"] if pl.get("beat") == ev["location"]]
        return "%s %s is already %s, so %s rolls again" % (
            who, where, "%s's beat" % owner[0] if owner else "a beat", who)
    return "%s %s is %s's beat" % (who, where, who)


def _say_move_rolled(state: State, ev: Event) -> str:
    """The roll and the On the Street chart's entry for it, which the rules have the mover act on
    before moving: the table hears it here (it was kept in the move and said nowhere)."""
    said = "%s %s: move up to %d spaces" % (player_name(state, ev["player"]), _rolled(ev["value"], state), ev["steps"])
    street = street_words(ev.get("street"), reading(ev["value"]))
    return "%s; %s" % (said, street) if street else said


def street_words(entry: object, row: int) -> str:
    """The On the Street chart's entry for the roll read as ``row``, as said: the board's own
    words when the table gave them, else which entry to read on the board (newsdesk's default
    words say only that, at length). Said as the chart's and as coming first, as the rules have
    it ("Before you move"): "On the Street: the board's entry 4" read to a new player at Police
    HQ as where the mover stood."""
    if not isinstance(entry, str) or not entry.strip():
        return ""
    if entry == street_default(row):
        return "first read entry %d of the board's On the Street chart" % row
    return "first the On the Street chart's %d: %s" % (row, entry.strip())


def _say_arrived(state: State, ev: Event) -> str:
    who = player_name(state, ev["player"])
    if ev["place"] == STREET:
        return "%s stopped on the street" % who
    return "%s moved to %s" % (who, _place_words(state, ev["place"]))


def _say_stayed(state: State, ev: Event) -> str:
    return "%s stayed on the scene at %s: +1 Steno mark" % (player_name(state, ev["player"]),
                                                            _place_words(state, ev["location"]))


def _say_pitch_rolled(state: State, ev: Event) -> str:
    return _pitch_words(state, ev["player"], ev["value"], ev["story"],
                        ev["research"] + ev["newsworthiness"], ev["sold"])


def _say_ickel(state: State, ev: Event) -> str:
    return _pitch_words(state, ev["player"], ev["value"], ev["location"], ev["location"], ev["sold"])


def _pitch_words(state: State, p: int, value: int, story: int, needed: int, sold: bool) -> str:
    """A pitch and whether it sold, plainly: the sentence goes on after it ("; N. Ickel rolled
    9 ..."), and "sold!;" read as a stumble there."""
    return "%s %s pitching the %s story (%s): %s" % (
        player_name(state, p), _rolled(value, state), _place_words(state, story), pitch_sells(state, needed),
        "sold" if sold else "not sold")


def _say_marked(state: State, ev: Event) -> str:
    return "%s %s gets a mark" % (player_name(state, ev["player"]), _rolled_at(state, ev["value"], ev["location"]))


def _say_won(state: State, ev: Event) -> str:
    return "%s wins with %d stories sold" % (player_name(state, ev["player"]), ev["sales"])


_SAYS = {"chose": _say_chose, "beat_rolled": _say_beat, "move_rolled": _say_move_rolled,
         "arrived": _say_arrived, "stayed": _say_stayed, "pitch_rolled": _say_pitch_rolled,
         "ickel_pitched": _say_ickel, "marked": _say_marked, "won": _say_won}
