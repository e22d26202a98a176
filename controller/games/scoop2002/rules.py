"""Scoop! (2002)'s rules: the Locations, the rolls and how a 0 counts, the options and their
checks, and a turn's parts as setup, decide, apply and result. What the player whose turn it is
may do now (offers) is here too: the refusals say it ("Ann can't roll now: Ann moves"). The words
the table reads about a move are in words.py; what the panel shows in view.py."""

import random
from typing import Any, Sequence

from ..base import (
    Action,
    Event,
    GameError,
    Result,
    State,
    and_list,
    check_declared,
    check_options,
    choice_words,
    copied,
    declared,
    form_name,
    guard,
    option,
    or_list,
    result_of,
    whole,
)

NAME = "scoop2002"
TITLE = "Scoop! (Invisible City Productions, 2002)"
VARIANTS = {
    "thats_my_beat": "That's My Beat: each player rolls a Location at setup as their beat (no two "
                     "alike) and may pitch their beat's story without any marks for it.",
    "lonely_city": "The Lonely City: solitaire; the box plays N. Ickel, who starts on Downtown and "
                   "only ever pitches. He wins with five sales, you with three.",
}

LOCATION_COUNT = 10
ZERO_READS_AS = 10          # newsdesk's reading of a 0 on the stopwatch / d10 (see above)
# The "zero" option: how a 0 counts against a pitch's sum and N. Ickel's Location.
ZERO_TEN, ZERO_AS_READ = "ten", "as_read"
ZERO_READINGS = {
    # the rule line itself is the option's, quoted once above these on the form
    ZERO_AS_READ: "0 counts as 0 (the hundredths digit as read, as the rules say): the lowest roll, so a "
                  "pitch rolled 0 always sells",
    ZERO_TEN: "0 counts as 10 (newsdesk's option, as a ten-sided die's 0 face is read): the "
              "highest roll, so a pitch rolled 0 needs 10 marks",
}
# The "ickel_rolls" option (The Lonely City): who rolls N. Ickel's two rolls.
ICKEL_BOX, ICKEL_TABLE = "box", "table"
ICKEL_ROLLERS = {
    ICKEL_BOX: "the box rolls for N. Ickel (newsdesk's default)",
    ICKEL_TABLE: "the player rolls for N. Ickel (the rules say \"Roll\"): enter his rolls or press "
                 "the stopwatch button for each",
}
MOVE_ODD, MOVE_EVEN = 3, 4  # "If your roll is odd ... up to three spaces ... even ... up to four"
SALES_TO_WIN = 3
ICKEL_SALES_TO_WIN = 5
ICKEL_NAME = "N. Ickel"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
SCORE_KIND = "points"       # each player's score is the stories sold (the result's score_kind, the panel's "score")
TIMES, STREET = "times", "street"

# newsdesk default: the rules don't print the board's Location names. Downtown is the one the
# rules name (The Lonely City); putting it at #1 is newsdesk's guess.
DEFAULT_LOCATIONS = ("Downtown", "City Hall", "Harbor", "Stadium", "University",
                     "Airport", "Police HQ", "Museum", "Old Town", "Industrial Park")


OPTIONS = (
    option("variants", "choices", [], "Variants: That's My Beat: ... The Lonely City: This is a "
           "solitaire version of Scoop!.", "Variants",
           choices=VARIANTS),
    option("locations", "names", None, "Spaces with names on them are Locations.",
           "The board's ten Location names, #1 first", items=(LOCATION_COUNT, LOCATION_COUNT), newsdesk=True,
           help="The rules print no names: give your board's ten, #1 first. Leave empty for newsdesk's "
                "placeholder names."),
    option("zero", "choice", ZERO_AS_READ, "That's the number you've \"rolled\".",
           "A stopwatch 0 counts as", choices=ZERO_READINGS),
    option("resell", "boolean", True, "Remove all marks at that story's Location.",
           "A Location's story can be sold again after a sale", newsdesk=True,
           help="Whether it can be sold again is not said."),
    option("ickel_rolls", "choice", ICKEL_BOX, "On Ickel's turns, all he ever does is try to sell "
           "a story. Roll.", "Who rolls for N. Ickel", choices=ICKEL_ROLLERS, variant="lonely_city",
           newsdesk=True),
    option("ickel_start", "integer", None, "When you set up the game, place a nickel on Downtown.",
           "N. Ickel's first Location (its number; empty: Downtown)", minimum=1,
           maximum=LOCATION_COUNT, variant="lonely_city", or_name=True),
    option("street_chart", "mapping", None, "find the number you rolled on the On the Street "
           "chart on the board and act accordingly.", "The board's On the Street chart",
           form=False, schema={"type": "object", "maxProperties": LOCATION_COUNT,
                               "additionalProperties": {"type": "string", "minLength": 1,
                                                        "maxLength": 200}}),
)


def street_default(reading: int) -> str:
    """newsdesk default: the On the Street chart is printed on the board, not in the rules."""
    return "On the Street %d: read entry %d on the board's chart and act accordingly." % (reading, reading)


def reading(value: int) -> int:
    """The Location a 0-9 roll matches (1-10): a 0 is the tenth."""
    return ZERO_READS_AS if value == 0 else value


def roll_value(state: State, value: int) -> int:
    """What a 0-9 roll counts as against a sum (a pitch, N. Ickel's sale) and for odd/even:
    the "zero" option says whether a 0 is 0 as read (the default) or 10."""
    return value if state.get("zero", ZERO_TEN) == ZERO_AS_READ else reading(value)


# ---------------------------------------------------------------- setup

def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    options = check_options("Scoop!", options, [o["name"] for o in OPTIONS])
    if not isinstance(players, (list, tuple)):
        raise GameError("players is a list of players, each {\"name\": ...}")
    variants = options.get("variants") or []
    if not isinstance(variants, (list, tuple)):
        raise GameError(form_name(declared(OPTIONS, "variants")) + " is a list of variant names, from %s" % ", ".join(VARIANTS))
    variants = list(variants)
    for v in variants:
        if not isinstance(v, str) or v not in VARIANTS:
            raise GameError("%s: Scoop! has no variant %r; choose %s" % (
                form_name(declared(OPTIONS, "variants")), v, or_list(w.split(":")[0] for w in VARIANTS.values())))
    if len(set(variants)) != len(variants):
        raise GameError("a variant is named twice; name each once")
    lonely = "lonely_city" in variants
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name, so the panel can say whose turn it is")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    if lonely and len(players) != 1:
        raise GameError("The Lonely City is solitaire: set it up with exactly one player "
                        "(the box plays N. Ickel), not %d" % len(players))
    if not lonely and not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise GameError("Scoop! is for %d to %d players, not %d (or choose The Lonely City "
                        "to play alone)" % (MIN_PLAYERS, MAX_PLAYERS, len(players)))
    if lonely and ICKEL_NAME in names:
        raise GameError("%s is the box's reporter in The Lonely City; pick another name" % ICKEL_NAME)

    given_names = options.get("locations") is not None
    locations = options["locations"] if given_names else list(DEFAULT_LOCATIONS)
    if (not isinstance(locations, (list, tuple)) or len(locations) != LOCATION_COUNT
            or any(not isinstance(n, str) or not n.strip() for n in locations)
            or len(set(locations)) != LOCATION_COUNT):
        raise GameError(form_name(declared(OPTIONS, "locations")) + " must be %d different names, #1 first, as printed on your "
                        "board" % LOCATION_COUNT)
    chart = {r: street_default(r) for r in range(1, LOCATION_COUNT + 1)}
    given = options.get("street_chart") or {}
    if not isinstance(given, dict):
        raise GameError("street_chart must map a roll (1-10; a 0 reads entry 10) to the chart's words")
    taken = set()
    for key, text in given.items():
        r = whole(key)
        if r == 0:
            r = ZERO_READS_AS
        if r is None or not 1 <= r <= LOCATION_COUNT or not isinstance(text, str) or not text.strip():
            raise GameError("street_chart entry %r: use a roll 1-10 (a 0 reads entry 10) and the words "
                            "printed for it" % (key,))
        if r in taken:
            raise GameError("street_chart gives roll %d twice (a 0 reads entry 10): keep the one your board prints" % r)
        taken.add(r)
        chart[r] = text
    start = options.get("ickel_start")
    if start is None:
        # "place a nickel on Downtown": the board's Downtown, however its names are written
        downtown = [i for i, n in enumerate(locations, start=1) if n.strip().casefold() == "downtown"]
        if lonely and not downtown:
            raise GameError("%s: your board's Location names have no Downtown, where The Lonely City puts N. Ickel "
                            "first; give his first Location's number or name"
                            % form_name(declared(OPTIONS, "ickel_start")))
        start = downtown[0] if downtown else 1
    start = _location_number(start, locations)
    if start is None:
        raise GameError(form_name(declared(OPTIONS, "ickel_start")) + " must be a Location's number (1-10) or name")

    resell = True if options.get("resell") is None else options["resell"]       # null: the default
    if not isinstance(resell, bool):
        raise GameError(form_name(declared(OPTIONS, "resell")) + " is true (a Location's next story can be sold again) or false")

    zero = ZERO_AS_READ if options.get("zero") is None else options["zero"]
    if not isinstance(zero, str) or zero not in ZERO_READINGS:
        raise GameError("%s is %s (sent as \"ten\" or \"as_read\"), not %r"
                        % (form_name(declared(OPTIONS, "zero")), choice_words(declared(OPTIONS, "zero")), zero))
    ickel_rolls = ICKEL_BOX if options.get("ickel_rolls") is None else options["ickel_rolls"]
    if not isinstance(ickel_rolls, str) or ickel_rolls not in ICKEL_ROLLERS:
        raise GameError("%s is %s, not %r" % (form_name(declared(OPTIONS, "ickel_rolls")),
                                              choice_words(declared(OPTIONS, "ickel_rolls")), ickel_rolls))

    check_declared("Scoop!", OPTIONS, options, len(players))     # and whatever else the declaration bounds
    seats = [{"name": p["name"], "colour": p.get("colour")} for p in players]
    if lonely:
        seats.append({"name": ICKEL_NAME, "colour": None, "box": True})
    return [{"type": "setup", "players": seats, "variants": variants, "locations": list(locations),
             "street_chart": [chart[r] for r in range(1, LOCATION_COUNT + 1)],
             "ickel_start": start, "locations_given": given_names, "resell": resell,
             "zero": zero, "ickel_rolls": ickel_rolls}]


def initial() -> State:
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    kind = guard(state, action, title="Scoop!", actions=_ACTIONS, result=result)
    handler = _ACTIONS[kind]
    p = _actor(state, action)
    return handler(state, p, action, rng)


def result(state: State) -> Result:
    """Over once a reporter has sold enough stories ("If you've sold three or more stories by the
    end of your turn, then you win"; N. Ickel needs five); each player's score is the stories
    they have sold, and the one winner is the reporter who got there. N. Ickel's row is marked
    the box's ("automated"): The Lonely City is solitaire, and he is no person to count. Each row
    says the sales it needed (three; N. Ickel's five), so his 4 under your winning 3 reads right."""
    if not state.get("started"):
        return result_of(False, [], {"score": SCORE_KIND})
    over = state["phase"] == "over"
    return result_of(over, [(pl["name"], len(pl["sales"]), i == state["winner"])
                            for i, pl in enumerate(state["players"])], {"score": SCORE_KIND},
                     automated=[pl["name"] for pl in state["players"] if pl["box"]],
                     needed={pl["name"]: ICKEL_SALES_TO_WIN if pl["box"] else SALES_TO_WIN for pl in state["players"]})


def _actor(state: State, action: Action) -> int:
    p = action.get("player")
    seats = len(state["players"])
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < seats:
        raise GameError("say which player acts: \"player\" is a seat number 0-%d, not %r" % (seats - 1, p))
    if state["players"][p].get("box") and state.get("ickel_rolls", ICKEL_BOX) != ICKEL_TABLE:
        raise GameError("%s is played by the box; his turns take care of themselves" % ICKEL_NAME)
    if state["players"][p].get("box") and action.get("type") != "roll":
        # "Ickel never gets out in the field ... all he ever does is try to sell a story"
        raise GameError("%s never gets out in the field: on his turn the table rolls his pitch, then "
                        "his mark" % ICKEL_NAME)
    if p != state["turn"]:
        raise GameError("%s can't act now: it is %s's turn" % (player_name(state, p), player_name(state, state["turn"])))
    return p


def _need_phase(state: State, p: int, phase: str, doing: str) -> None:
    if state["phase"] != phase:
        raise GameError("%s can't %s now: %s" % (player_name(state, p), doing, waiting_for(state)))


def _choose_move(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _need_phase(state, p, "choose", "move")
    return [{"type": "chose", "player": p, "choice": "move"}]


def _choose_stay(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _need_phase(state, p, "choose", "stay on the scene")
    place = state["players"][p]["place"]
    if place == TIMES:
        # a named space, so a Location by the rules' words ("Spaces with names on them are
        # Locations"); what bars the stay is that it has no story to add a mark for
        raise GameError("%s can't stay on the scene: %s starts this turn at the Action City Times, where "
                        "stories are pitched, not researched: it has no story of its own (newsdesk's "
                        "reading: only the ten numbered Locations do)" % (player_name(state, p), player_name(state, p)))
    if not isinstance(place, int):
        raise GameError("%s can't stay on the scene: %s starts this turn %s, not at a Location"
                        % (player_name(state, p), player_name(state, p), where(state, place)))
    return [{"type": "stayed", "player": p, "location": place}]


def _choose_pitch(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _need_phase(state, p, "choose", "pitch a story")
    me = state["players"][p]
    who = player_name(state, p)
    if me["place"] != TIMES:
        raise GameError("%s can't pitch: a pitch starts the turn at the Action City Times, and %s "
                        "is %s" % (who, who, where(state, me["place"])))
    story = _location_number(action.get("story"), state["locations"])
    if story is None:
        raise GameError("%s: say which story to pitch (a Location 1-10)" % who)
    title = state["locations"][story - 1]
    if me["steno"][story - 1] < 1 and me.get("beat") != story:
        raise GameError("%s has no marks for the %s story; pitch a story on the Steno Pad with "
                        "at least one mark" % (who, title))
    if not state.get("resell", True) and story in me["sales"]:
        raise GameError("%s has already sold the %s story, and this game sells each Location's "
                        "story once per player" % (who, title))
    if me.get("blocked") == story:
        raise GameError("%s can't pitch the %s story again this turn: it didn't sell last turn"
                        % (who, title))
    return [{"type": "chose", "player": p, "choice": "pitch", "story": story}]


def _arrive(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    _need_phase(state, p, "arrive", "say where the coin stopped")
    place = action.get("place")
    if place not in (TIMES, STREET):
        place = _location_number(place, state["locations"])
    if place is None:
        raise GameError("%s: \"place\" is a Location (1-10 or its name), \"times\" or \"street\""
                        % player_name(state, p))
    return [{"type": "arrived", "player": p, "place": place}]


def _roll(state: State, p: int, action: Action, rng: random.Random) -> list[Event]:
    phase = state["phase"]
    if state["players"][p].get("box") and phase == "choose":
        phase = "ickel_pitch"          # the table rolls N. Ickel's pitch (ickel_rolls "table")
    if phase not in ("beats", "move_roll", "pitch_roll", "mark", "ickel_pitch"):
        raise GameError("%s can't roll now: %s" % (player_name(state, p), waiting_for(state)))
    value = action.get("value")
    if value is None:
        value = rng.randrange(10)
    elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 9:
        raise GameError("%s's roll must be a digit 0-9 (a 10 on a die is entered as 0), not %r"
                        % (player_name(state, p), value))
    r = reading(value)
    if phase == "ickel_pitch":
        return [_ickel_pitch(state, p, value)]
    if phase == "beats":
        taken = [q for q, pl in enumerate(state["players"]) if pl.get("beat") == r]
        return [{"type": "beat_rolled", "player": p, "value": value, "location": r, "taken": bool(taken)}]
    if phase == "move_roll":
        steps = MOVE_ODD if roll_value(state, value) % 2 else MOVE_EVEN
        return [{"type": "move_rolled", "player": p, "value": value, "steps": steps,
                 "street": state["street_chart"][r - 1]}]
    if phase == "pitch_roll":
        story = state["pitch"]
        research = state["players"][p]["steno"][story - 1]
        news = state["marks"][story - 1]
        return [{"type": "pitch_rolled", "player": p, "story": story, "value": value,
                 "research": research, "newsworthiness": news,
                 "sold": roll_value(state, value) <= research + news}]
    # "mark": Part 2's roll ends the turn
    events = _end_turn(state, p, value)
    after = state
    for ev in events:
        after = apply(after, ev)
    if (after["phase"] != "over" and after["players"][after["turn"]].get("box")
            and state.get("ickel_rolls", ICKEL_BOX) == ICKEL_BOX):
        events += _ickel_turn(after, rng)
    return events


def _end_turn(state: State, p: int, value: int) -> list[Event]:
    """Part 2's mark, then the win check ("by the end of your turn") or the turn passes left."""
    events = [{"type": "marked", "player": p, "value": value, "location": reading(value)}]
    me = state["players"][p]
    target = ICKEL_SALES_TO_WIN if me.get("box") else SALES_TO_WIN
    if len(me["sales"]) >= target:
        events.append({"type": "won", "player": p, "sales": len(me["sales"])})
    else:
        events.append({"type": "turn_passed", "player": p, "next": (p + 1) % len(state["players"])})
    return events


def _ickel_pitch(state: State, p: int, value: int) -> Event:
    """N. Ickel's sale: "If the result is less than or equal to the number of the Location his
    nickel is on, then mark off a story ... and put his nickel back on the Location #1.
    Otherwise, move him to the Location with the next-highest number." """
    at = state["ickel_at"]
    sold = roll_value(state, value) <= at
    nxt = 1 if sold else min(at + 1, LOCATION_COUNT)
    return {"type": "ickel_pitched", "player": p, "value": value, "location": at, "sold": sold, "next": nxt}


def _ickel_turn(state: State, rng: random.Random) -> list[Event]:
    """N. Ickel's whole turn, rolled by the box: pitch from his nickel's Location, then the mark."""
    p = state["turn"]
    pitch = _ickel_pitch(state, p, rng.randrange(10))
    after = apply(state, pitch)
    return [pitch] + _end_turn(after, p, rng.randrange(10))


_ACTIONS = {"move": _choose_move, "stay": _choose_stay, "pitch": _choose_pitch,
            "roll": _roll, "arrive": _arrive}


# ---------------------------------------------------------------- apply

def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        return _apply_setup(event)
    s = copied(state)
    p = event.get("player")
    players = s.get("players", [])
    me = players[p] if isinstance(p, int) and 0 <= p < len(players) else None
    if me is None:
        return s
    if kind == "beat_rolled":
        if not event["taken"]:
            me["beat"] = event["location"]
            rest = [q for q, pl in enumerate(players) if not pl.get("box") and pl.get("beat") is None]
            if rest:
                s["turn"] = rest[0]
            else:
                s["turn"], s["phase"] = 0, "choose"
        s["last"] = event
    elif kind == "chose":
        if event["choice"] == "move":
            s["phase"] = "move_roll"
        else:
            s["phase"], s["pitch"] = "pitch_roll", event["story"]
    elif kind == "move_rolled":
        s["phase"], s["last"] = "arrive", event
    elif kind == "arrived":
        me["place"], s["phase"] = event["place"], "mark"
    elif kind == "stayed":
        me["steno"][event["location"] - 1] += 1
        s["phase"] = "mark"
    elif kind == "pitch_rolled":
        story = event["story"]
        if event["sold"]:
            me["sales"].append(story)
            s["marks"][story - 1] = 0
            for pl in players:
                pl["steno"][story - 1] = 0
        else:
            me["blocked"], me["blocked_fresh"] = story, True
        s["phase"], s["pitch"], s["last"] = "mark", None, event
    elif kind == "ickel_pitched":
        if event["sold"]:
            me["sales"].append(event["location"])
        s["ickel_at"], s["phase"], s["last_ickel"] = event["next"], "mark", event
    elif kind == "marked":
        s["marks"][event["location"] - 1] += 1
        s["last"] = event
    elif kind == "turn_passed":
        if me.get("blocked_fresh"):
            me["blocked_fresh"] = False       # still barred during the next turn ...
        else:
            me["blocked"] = None              # ... and free again after it
        s["turn"], s["phase"] = event["next"], "choose"
    elif kind == "won":
        s["winner"], s["phase"] = p, "over"
    return s


def _apply_setup(event: Event) -> State:
    players = []
    for seat in event["players"]:
        players.append({"name": seat["name"], "colour": seat.get("colour"), "box": bool(seat.get("box")),
                        "place": STREET, "steno": [0] * LOCATION_COUNT, "sales": [],
                        "beat": None, "blocked": None, "blocked_fresh": False})
    beats = "thats_my_beat" in event["variants"]
    return {"started": True, "players": players, "variants": list(event["variants"]),
            "locations": list(event["locations"]), "street_chart": list(event["street_chart"]),
            "marks": [0] * LOCATION_COUNT, "turn": 0, "phase": "beats" if beats else "choose",
            "pitch": None, "winner": None, "last": None, "last_ickel": None,
            "locations_given": bool(event.get("locations_given", True)),
            "resell": bool(event.get("resell", True)),
            # a game stored before the option existed was played with a 0 as 10
            "zero": event.get("zero", ZERO_TEN), "ickel_rolls": event.get("ickel_rolls", ICKEL_BOX),
            "ickel_at": event["ickel_start"] if "lonely_city" in event["variants"] else None}


def offers(state: State) -> list[Action]:
    if not state.get("started") or state["phase"] == "over":
        return []
    p, phase = state["turn"], state["phase"]
    me = state["players"][p]
    if phase in ("beats", "move_roll", "pitch_roll", "mark") or me.get("box"):
        return [{"type": "roll", "player": p}]
    if phase == "arrive":
        return ([{"type": "arrive", "player": p, "place": n} for n in range(1, LOCATION_COUNT + 1)]
                + [{"type": "arrive", "player": p, "place": TIMES}, {"type": "arrive", "player": p, "place": STREET}])
    out = [{"type": "move", "player": p}]
    if isinstance(me["place"], int):
        out.append({"type": "stay", "player": p})
    if me["place"] == TIMES:
        for n in range(1, LOCATION_COUNT + 1):
            if ((me["steno"][n - 1] > 0 or me["beat"] == n) and me["blocked"] != n
                    and (state.get("resell", True) or n not in me["sales"])):
                out.append({"type": "pitch", "player": p, "story": n})
    return out

def _location_number(value: object, locations: Sequence[str]) -> int | None:
    """A Location given by number (1-10) or by name; None if it is neither."""
    if isinstance(value, str) and value in locations:
        return locations.index(value) + 1
    n = whole(value)
    return n if n is not None and 1 <= n <= LOCATION_COUNT else None


def player_name(state: State, p: int) -> str:
    name: str = state["players"][p]["name"]
    return name


def where(state: State, place: int | str) -> str:
    if place == TIMES:
        return "at the Action City Times"
    if place == STREET:
        return "on the street"
    number = int(place)               # a Location's number
    return "at %s (#%d)" % (state["locations"][number - 1], number)


CHOICE_WORDS = {"move": "move", "stay": "stay on the scene", "pitch": "pitch"}


def _choices(state: State) -> str:
    """What the player whose turn it is can choose now, in words: only what is offered (at
    the Times there's no scene to stay on; away from it, no pitch)."""
    kinds = []
    for offer in offers(state):
        if offer["type"] in CHOICE_WORDS and CHOICE_WORDS[offer["type"]] not in kinds:
            kinds.append(CHOICE_WORDS[offer["type"]])
    if len(kinds) == 1:
        return "%ss" % kinds[0] if kinds[0] == "move" else kinds[0]
    return "chooses to " + ", ".join(kinds[:-1]) + " or " + kinds[-1]


def _no_pitch(state: State) -> str:
    """Why a player who starts the turn at the Times has no pitch to choose, in brackets ("" when
    one is offered, or away from the Times): a table new to the game saw only "Ann moves" there,
    and nothing saying a pitch needs a story researched first."""
    p = state["turn"]
    me = state["players"][p]
    if me.get("place") != TIMES or any(o["type"] == "pitch" for o in offers(state)):
        return ""
    who = player_name(state, p)
    have = [n for n in range(1, LOCATION_COUNT + 1) if me["steno"][n - 1] > 0 or me["beat"] == n]
    if not have:
        return (" (nothing to pitch yet: a pitch needs a story with a mark on %s's Steno Pad, added by staying "
                "on the scene at a Location)" % who)
    why = ["%s's was pitched last turn and not sold" % state["locations"][n - 1] if me["blocked"] == n
           else "%s's is sold and can't be sold again" % state["locations"][n - 1] for n in have]
    return " (nothing to pitch: %s)" % and_list(why)


def waiting_for(state: State) -> str:
    who = player_name(state, state["turn"])
    if state["phase"] == "choose" and state["players"][state["turn"]].get("box"):
        return "%s rolls to sell a story (enter his roll or press the stopwatch)" % who
    if state["phase"] == "choose":
        return "%s %s%s" % (who, _choices(state), _no_pitch(state))
    if state["phase"] == "pitch_roll":
        return "%s rolls for the pitch (%s)" % (who, _pitch_needs(state))
    return {
        "beats": "%s rolls for a beat" % who,
        "move_roll": "%s rolls to move" % who,
        "arrive": "%s says where the coin stopped" % who,
        "mark": "%s rolls to add a mark to a Location" % who,
    }.get(state["phase"], "the game is over")


def _pitch_needs(state: State) -> str:
    """What the pitch being rolled needs, said before the roll ("If your roll is less than or
    equal to that sum, then you sell the story"): the sum and its two parts."""
    p, story = state["turn"], state["pitch"]
    research, news = state["players"][p]["steno"][story - 1], state["marks"][story - 1]
    return "%s: %d Steno Pad mark%s + %d at %s" % (pitch_sells(state, research + news, "a roll of %d or less sells"),
                                                   research, "" if research == 1 else "s", news,
                                                   state["locations"][story - 1])


def pitch_sells(state: State, needed: int, less: str = "needed %d or less") -> str:
    """How a pitch's sum reads against the rolls there are (0-9 with a 0 read as 0, or 1-10 with
    it read as 10): any roll sells, no roll sells, or ``less`` with the sum. The pitch's words
    before its roll and after it (words.py) say it alike."""
    lowest, highest = (0, 9) if roll_value(state, 0) == 0 else (1, 10)
    return "any roll sells" if needed >= highest else "no roll sells" if needed < lowest else less % needed
