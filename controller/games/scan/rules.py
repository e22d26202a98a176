"""SCAN's rules: the deck and the variants, the options setup checks, and the pure functions
that check a hand against the deck, score it by cancel-out, fold the sheet and say who won. The
scoresheet the panel shows and the table's words about a hand are view.py and words.py."""

import random
from datetime import datetime
from typing import Any

from ..base import (
    Action,
    Event,
    GameError,
    Result,
    State,
    check_declared,
    check_options,
    copied,
    declared,
    form_name,
    guard,
    option,
    or_list,
    quoted,
    result_of,
    seat_words,
)

NAME = "scan"
TITLE = "SCAN (Parker Brothers, 1988)"
VARIANTS = {
    "team": "Team SCAN: 4 players, partners opposite; deal 7.",
    "triple": "Triple SCAN: 6 players in 3 teams; deal 5.",
    "individual": "SCAN Without Partners: 2-6 players each scored alone; deal 7 (5 for 5 or 6 players).",
    "no_trump": "No Trump SCAN: 2-6 players, no trump suit; deal 2; the hand ends when the stock runs out. "
                "6 players play in 3 teams.",
}
# The variants played in teams (No Trump SCAN only with 4 or 6 players); SCAN Without Partners
# has none, so the start form hides its team fields and a start giving it teams is refused.
TEAM_VARIANTS = ("team", "triple", "no_trump")
# No Trump SCAN's teams: "For 6 players, play in 3 teams", and newsdesk's two teams of 2 with 4;
# with 2, 3 or 5 each plays alone, and the start form shows no team fields
NO_TRUMP_TEAM_SEATS = (4, 6)
# With 4, teams are the table's choice: none given, each plays alone (6 always play in 3 teams)
NO_TRUMP_TEAMS_OPTIONAL = (4,)

SUIT_VALUES = {"spades": 10, "hearts": 5, "diamonds": -5, "clubs": -10}
CARDS_PER_SUIT = 13
DECK = CARDS_PER_SUIT * len(SUIT_VALUES)
TARGET = 155
DEAL = {"team": 7, "triple": 5, "individual": 7, "no_trump": 2}
DEAL_FIVE_FROM = 5          # Without Partners: "For 5 and 6 players, deal 5 cards to each."
DEAL_LARGE_TABLE = 5
PLAYERS = {"team": (4, 4), "triple": (6, 6), "individual": (2, 6), "no_trump": (2, 6)}
# Triple SCAN's own text ("Deal 5 cards to each player.") prints no put-aside rule: optional there
PUT_ASIDE_OPTIONAL = ("triple",)
TRUMP = {
    "team": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "triple": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "individual": "trump is the suit on top of the stock after everyone draws; no trump once the stock is gone",
    "no_trump": "no trump: the highest card of the suit led wins",
}


SCORE = "points"            # what a side's score counts: the points on the sheet


def deal_size(variant: str, n: int) -> int:
    if variant == "individual" and n >= DEAL_FIVE_FROM:
        return DEAL_LARGE_TABLE
    return DEAL[variant]


def hand_sizes(variant: str, n: int, put_aside: bool = False, last: str = "either") -> list[int]:
    """The numbers of cards a hand can see taken, smallest first (see _untaken)."""
    return sorted(DECK - out for out in _untaken(variant, n, put_aside, last))


def cards_out_of_play(variant: str, n: int, put_aside: bool = False, last: str = "either") -> tuple[int, int]:
    """(fewest, most) cards a hand can leave untaken (see _untaken)."""
    out = _untaken(variant, n, put_aside, last)
    return min(out), max(out)


def _untaken(variant: str, n: int, put_aside: bool, last: str) -> set[int]:
    """The numbers of cards a hand can leave untaken.

    A trick takes one card from each player, so the last draw leaves ``stock % n`` cards that
    can't go round: Without Partners and No Trump put them aside. Triple SCAN's text says only
    "Deal 5 cards to each player.": all 52 are played unless the table chose ``put_aside``
    (6 x 5 dealt leaves 22 in the stock, 4 of which then go aside). No Trump's hand
    "ends when the stock pile has been exhausted": whether the cards still in hand are played out
    is not said: ``last`` (the "no_trump_last" option) takes one reading or, by default, both.
    Not played, each player's last ``deal`` cards stay in hand, or one fewer: "if there aren't
    enough cards left in the stock pile for each player to draw one" a table sees at the last
    draw that goes round (the few cards left go aside at once) or at the next draw, one trick
    later, when the players come to draw them. Nothing else.
    """
    deal = deal_size(variant, n)
    aside = (DECK - n * deal) % n
    if variant in PUT_ASIDE_OPTIONAL and not put_aside:
        aside = 0
    if variant != "no_trump":
        return {aside}
    ended = {aside + n * deal, aside + n * (deal - 1) if aside else aside + n * deal}
    return {"ended": ended, "played": {aside}}.get(last, ended | {aside})


def score(taken: dict[str, int]) -> int:
    """Cancel-out: +10/-10 and +5/-5 cards cancel; what's left is the side's score."""
    return sum(SUIT_VALUES[s] * taken.get(s, 0) for s in SUIT_VALUES)


# ---------------------------------------------------------------- setup

TARGET_TIES = {"highest": "the highest total wins; equal totals share (newsdesk's default)",
               "all": "all who reach 155 win (every side at 155 or more after the same hand)"}
PLUS_SCORES = {"each": "every + side scores it: each side with a + score scores that amount (newsdesk's default)",
               "best": "only the best + side scores: equal bests each score theirs, the others score nothing"}
NO_TRUMP_LAST = {"either": "taken either way: the table enters what it played (newsdesk's default)",
                 "ended": "the hand ends with the stock: the cards still in hand aren't played",
                 "played": "the cards left are played out"}
LONGEST_GAME = 24 * 60              # minutes: a time limit longer than a day is a typing slip

# Team SCAN's two sides take all 52 cards, whose values cancel to 0: only one side comes out + in
# a hand, so only one can reach 155 in it. The options for those ties are the other variants'.
NOT_TEAM = tuple(v for v in VARIANTS if v != "team")

OPTIONS = (
    option("variant", "choice", "team", "HOW TO PLAY TEAM SCAN (For 4 players); VARIATIONS: TRIPLE "
           "SCAN, SCAN WITHOUT PARTNERS, NO TRUMP SCAN", "Variant", choices=VARIANTS),
    option("put_aside", "boolean", False, "If towards the end of the round there aren't enough cards "
           "left in the stock pile for each player to draw one, put the remaining stock cards aside, "
           "out of play.", "Triple SCAN: put aside the stock cards that can't go round "
           "(48 cards a hand, not 52)", variant="triple", newsdesk=True,
           help="Printed under SCAN Without Partners; Triple SCAN's text says only \"Deal 5 cards to each player.\""),
    option("no_trump_last", "choice", "either", "The hand ends when the stock pile has been exhausted.",
           "No Trump SCAN: the cards in hand when the stock runs out", choices=NO_TRUMP_LAST,
           variant="no_trump", newsdesk=True,
           help="Whether the cards still in the players' hands are played out is not said, nor whether the stock "
                "cards that can't go round are put aside at the last draw that goes round or at the next, a "
                "trick later: a hand not played out is taken either way."),
    option("time_limit", "minutes", None, "Alternately, set a time limit: The winners are the team "
           "with the highest score at the end of that time.", "Time limit in minutes (empty: race "
           "to 155)", minimum=1, maximum=LONGEST_GAME,
           help="Teams level on the highest score when the time is up share the win: a tie is not covered, "
                "and that is newsdesk's reading."),
    option("ends_at", "datetime", None, "the end of that time", "When the countdown ends",
           form=False),
    option("dealer", "seat", None, "Cut for deal; highest card deals.", "Who deals first (empty: "
           "the first player)"),
    option("target_tie", "choice", "highest", "The first team to reach 155 points wins.",
           "Two sides reaching 155 in one hand", choices=TARGET_TIES, newsdesk=True,
           variant=NOT_TEAM,
           help="Two reaching it in the same hand is not covered."),
    option("plus_scores", "choice", "each", "The team with a + score scores that amount; the other team scores "
           "nothing.", "More than one side with a + score in a hand", choices=PLUS_SCORES, newsdesk=True,
           variant=NOT_TEAM,
           help="With all 52 cards taken the sides' values cancel to 0, so only one can be +; with cards out of "
                "play, or three or more sides, more than one can come out with a + score: not covered."),
    option("whole_tricks", "boolean", True, "Player left of dealer leads the first card face up to "
           "the table; ... Every player must follow suit if possible ... The trick is taken by the "
           "highest card of the suit led.", "Check that each side or player took whole tricks (one card "
           "from each player a trick)",
           help="So a trick holds one card from each player, and a side takes whole tricks; switching the "
                "check off is a house rule for a table that counts differently."),
)


def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    options = check_options("SCAN", options, [o["name"] for o in OPTIONS])
    if not isinstance(players, (list, tuple)):
        raise GameError("players is a list of players, each {\"name\": ..., \"team\": ...}")
    variant = options.get("variant")
    variant = "team" if variant is None else variant      # null or missing: the default, as every option's
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise GameError("%s: SCAN has no variant %s; choose %s" % (form_name(declared(OPTIONS, "variant")), _said(variant),
                                                                   or_list(w.split(":")[0] for w in VARIANTS.values())))
    names = [p.get("name") if isinstance(p, dict) else None for p in players]
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise GameError("every player needs a name for the scoresheet")
    if len(set(names)) != len(names):
        raise GameError("two players share a name; give each player a different name")
    low, high = PLAYERS[variant]
    n = len(players)
    if not low <= n <= high:
        want = str(low) if low == high else "%d to %d" % (low, high)
        raise GameError("%s is for %s players, not %d" % (VARIANTS[variant].split(":")[0], want, n))
    limit = options.get("time_limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                              or not 0 < limit <= LONGEST_GAME):
        raise GameError("%s is a whole number 1-%d (or leave it empty to race to %d), not %s"
                        % (form_name(declared(OPTIONS, "time_limit")), LONGEST_GAME, TARGET, _said(limit)))
    ends_at = _ends_at(options.get("ends_at"))
    tie = options.get("target_tie")
    tie = "highest" if tie is None else tie
    if not isinstance(tie, str) or tie not in TARGET_TIES:
        raise GameError("%s is %s" % (form_name(declared(OPTIONS, "target_tie")),
                                      " or ".join("“%s”" % words for words in TARGET_TIES.values())))
    dealer = options.get("dealer")
    dealer = 0 if dealer is None else dealer
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise GameError("%s is the seat of one of the %d players at the table (%s), the one who cut the "
                        "highest card" % (form_name(declared(OPTIONS, "dealer")), n, seat_words(n)))
    put_aside = options.get("put_aside")
    put_aside = False if put_aside is None else put_aside
    if not isinstance(put_aside, bool):
        raise GameError("%s is yes (Triple SCAN puts aside the stock cards that can't go round) or no "
                        "(all 52 are played), not %s" % (form_name(declared(OPTIONS, "put_aside"), asides=(" (",)), _said(put_aside)))
    plus = options.get("plus_scores")
    plus = "each" if plus is None else plus
    if not isinstance(plus, str) or plus not in PLUS_SCORES:
        raise GameError("%s is %s" % (form_name(declared(OPTIONS, "plus_scores")),
                                      " or ".join("“%s”" % words for words in PLUS_SCORES.values())))
    sides = _sides(variant, players)
    whole = options.get("whole_tricks")
    whole = True if whole is None else whole
    if not isinstance(whole, bool):
        raise GameError("%s is yes (a %s's cards are whole tricks, one card from each player) or no "
                        "(any count the deck allows), not %s"
                        % (form_name(declared(OPTIONS, "whole_tricks"), asides=(" (",)), side_word(sides),
                           _said(whole)))
    checked = check_declared("SCAN", OPTIONS, options, n)     # no_trump_last's choices among the rest
    return [{"type": "setup", "variant": variant, "players": names, "sides": sides,
             "time_limit": limit, "ends_at": ends_at, "target_tie": tie, "dealer": dealer,
             "put_aside": put_aside, "whole_tricks": whole, "plus_scores": plus,
             "no_trump_last": checked["no_trump_last"]}]


def _ends_at(value: object) -> str | None:
    """The countdown's end as given (ISO 8601 with a UTC offset), checked; None for none."""
    if value is None:
        return None
    when = None
    if isinstance(value, str) and value.strip():
        try:
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            when = None
    if when is None or when.tzinfo is None:
        raise GameError(form_name(declared(OPTIONS, "ends_at")) + " is an ISO 8601 time with its UTC "
                        "offset (e.g. 2024-05-01T21:30:00+01:00), not %r" % (value,))
    return when.isoformat()


def _said(value: object) -> str:
    """A refused value as a sentence quotes it: a short text or a number, never a JSON structure."""
    return quoted(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else "that"


def side_word(sides: list[dict[str, Any]]) -> str:
    """What a side is called: a player where each plays alone (Without Partners, No Trump played
    individually: "each side took" read as teams), else a side (a team)."""
    return "player" if all(len(side["players"]) == 1 for side in sides) else "side"


def headings(sides: list[dict[str, Any]]) -> list[str]:
    """Each side as the scoresheet heads it: "WE" and "THEY" for two teams of partners (Team SCAN's
    "two columns -- WE and THEY"), else its name: two players each "scored individually" are Ann
    and Bob, not WE (Ann) and THEY (Bob) on a tablet both of them read."""
    teams = len(sides) == 2 and any(len(side["players"]) > 1 for side in sides)
    return ["WE", "THEY"] if teams else [side["name"] for side in sides]


def _sides(variant: str, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = len(players)
    teams = [None if p.get("team") in (None, "") else str(p["team"]) for p in players]
    given = [t for t in teams if t not in (None, "")]
    if variant not in TEAM_VARIANTS and given:
        raise GameError("%s is played without teams: leave every Team field empty, or choose a variant "
                        "played in teams (%s)" % (VARIANTS[variant].split(":")[0],
                                                  ", ".join(VARIANTS[v].split(":")[0] for v in TEAM_VARIANTS)))
    if variant not in TEAM_VARIANTS or (variant == "no_trump" and not given and (
        n in NO_TRUMP_TEAMS_OPTIONAL or n not in NO_TRUMP_TEAM_SEATS)):
        return [{"name": p["name"], "players": [p["name"]]} for p in players]
    if given and len(given) != n:
        raise GameError("give every player a team, or none (partners then sit opposite)")
    want = n // 2
    if variant == "no_trump" and n not in NO_TRUMP_TEAM_SEATS:
        raise GameError("No Trump SCAN plays in teams only with 4 or 6 players; with %d, leave "
                        "the teams out" % n)
    if not given:
        pairs = [(i, i + want) for i in range(want)]
        paired = [{"name": "%s & %s" % (players[a]["name"], players[b]["name"]),
                   "players": [players[a]["name"], players[b]["name"]]} for a, b in pairs]
        names = [side["name"] for side in paired]
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice is not None:
            # each side is a column of the scoresheet, kept by its name: two of one name were one
            # column counted twice, and no hand could add up
            raise GameError("two pairs would both be called \"%s\" (their players' names joined): give every "
                            "player a team, or names that tell the pairs apart" % twice)
        return paired
    order = []
    for t in teams:
        if t not in order:
            order.append(t)
    sides: list[dict[str, Any]] = [{"name": t, "players": [p["name"] for p, pt in zip(players, teams) if pt == t]}
                                   for t in order]
    if len(sides) != want or any(len(s["players"]) != 2 for s in sides):
        raise GameError("%d players make %d teams of 2; the teams given are %s" % (
            n, want, ", ".join("%s (%d)" % (s["name"], len(s["players"])) for s in sides)))
    partner = next(i for i in range(1, n) if teams[i] == teams[0])
    if variant == "team" and partner != 2:
        # the players are listed in their seats (the deal passes to the next): "Sit opposite your partner"
        raise GameError("in Team SCAN partners sit opposite: list the players in their seats around the table, "
                        "partners two apart (%s's partner third, not %s)"
                        % (players[0]["name"], players[partner]["name"]))
    return sides


def initial() -> State:
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random) -> list[Event]:
    kind = guard(state, action, title="SCAN", actions=("hand", "time_up"), result=result,
                 over=lambda state: "%s won" % " and ".join(state["winners"]))     # the sides, as the table calls them
    if kind == "hand":
        return _hand(state, action)
    if kind == "time_up":
        if not timed(state):
            raise GameError("this game races to %d; there is no time limit to run out" % TARGET)
        if _before_the_end(state, action.get("at", None)):
            return [{"type": "time_up", "early": True},
                    {"type": "won", "sides": _leaders(state["totals"]), "reason": "stopped"}]
        return [{"type": "time_up"}, {"type": "won", "sides": _leaders(state["totals"]), "reason": "time"}]
    raise AssertionError(kind)      # guard() lets through only the kinds above


def _before_the_end(state: State, at: object) -> bool:
    """Whether "Time is up" came before the countdown's end: ``at`` is the table's clock when it
    was pressed (the engine reads none), compared with the end given at setup. Without either
    the table's word stands: time is up.

        countdown   |<----------- time_limit ----------->|
                    start                              ends_at
        "at"           ^ early: ended before its time     ^ or later: time ran out

    Ended early, the highest score still wins (the table chose to stop there; the rules only
    say "the highest score at the end of that time", so this is newsdesk's reading), but
    nothing says that time ran out."""
    if at is None:
        return False
    when = None
    if isinstance(at, str) and at.strip():
        try:
            when = datetime.fromisoformat(at.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            when = None
    if when is None or when.tzinfo is None:
        raise GameError("“at” is the time Time is up was pressed, an ISO 8601 time with its UTC offset "
                        "(e.g. 2024-05-01T21:30:00+01:00), not %s" % _said(at))
    ends_at = state.get("ends_at")
    return ends_at is not None and when < datetime.fromisoformat(ends_at)


def result(state: State) -> Result:
    """Over once a side has won ("The first team to reach 155 points wins. Alternately, the team
    with the highest score at the end of a designated time period wins"; sides tied share the
    win). Sides score; each player's row carries the side's total and win, side by side in the
    sheet's order (a side of one when played without partners)."""
    if not state.get("started"):
        return result_of(False, [], {"score": SCORE})
    over = bool(state["winners"])
    sides = [(s["name"], list(s["players"]), state["totals"][s["name"]], s["name"] in state["winners"])
             for s in state["sides"]]
    rows = [(member, total, won) for _, members, total, won in sides for member in members]
    return result_of(over, rows, {"score": SCORE}, teams=sides)


def timed(state: State) -> bool:
    return state["time_limit"] is not None or state.get("ends_at") is not None


def _hand(state: State, action: Action) -> list[Event]:
    number = len(state["sheet"]) + 1
    taken = action.get("taken")
    sides = [s["name"] for s in state["sides"]]
    word = side_word(state["sides"])
    if not isinstance(taken, dict):
        raise GameError("hand %d: give \"taken\", each %s's cards per suit" % (number, word))
    strange = [k for k in taken if k not in sides]
    if strange:
        raise GameError("hand %d: %s is not a %s in this game; the %ss are %s"
                        % (number, ", ".join(map(str, strange)), word, word, ", ".join(sides)))
    clean: dict[str, dict[str, int]] = {}
    for side in sides:
        counts = taken.get(side)
        if counts is None:
            raise GameError("hand %d: %s's cards are missing; enter 0s if they took none" % (number, side))
        if not isinstance(counts, dict) or set(counts) - set(SUIT_VALUES):
            raise GameError("hand %d: %s's cards are counted per suit: %s"
                            % (number, side, ", ".join(SUIT_VALUES)))
        row: dict[str, int] = {}
        for suit in SUIT_VALUES:
            c = counts.get(suit, 0)
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= CARDS_PER_SUIT:
                raise GameError("hand %d: %s's %s must be a count 0-%d, not %r"
                                % (number, side, suit, CARDS_PER_SUIT, c))
            row[suit] = c
        clean[side] = row
    for suit in SUIT_VALUES:
        total = sum(clean[s][suit] for s in sides)
        if total > CARDS_PER_SUIT:
            raise GameError("hand %d: the %s add up to %d, but the deck has %d; check the counts"
                            % (number, suit, total, CARDS_PER_SUIT))
    n = len(state["players"])
    sizes = hand_sizes(state["variant"], n, state.get("put_aside", False), state.get("no_trump_last", "either"))
    total = sum(sum(r.values()) for r in clean.values())
    if total not in sizes:
        takes = "all %d" % DECK if sizes == [DECK] else "%s of the %d" % (or_list(map(str, sizes)), DECK)
        raise GameError("hand %d: %d cards entered, but this game takes %s; check the counts" % (number, total, takes))
    if state.get("whole_tricks", True):
        _check_whole_tricks(number, clean, n, word)
    values = {s: score(clean[s]) for s in sides}
    points = {s: max(0, v) for s, v in values.items()}
    if state.get("plus_scores", "each") == "best":
        best = max(values.values())
        points = {s: p if values[s] == best else 0 for s, p in points.items()}
    events = [{"type": "hand_scored", "hand": number, "dealer": state["dealer"], "taken": clean,
               "values": values, "points": points}]
    if not timed(state):
        totals = {s: state["totals"][s] + points[s] for s in sides}
        if max(totals.values()) >= TARGET:
            if state.get("target_tie", "highest") == "all":
                winners = [s for s in sides if totals[s] >= TARGET]
            else:
                winners = _leaders(totals)
            events.append({"type": "won", "sides": winners, "reason": "target"})
    return events


def _check_whole_tricks(number: int, taken: dict[str, dict[str, int]], n: int, word: str = "side") -> None:
    """Every trick holds one card from each of the ``n`` players and goes whole to the side that
    took it, so a side's cards are a whole number of tricks: a multiple of ``n``. One deal plays
    cards that don't go round: Triple SCAN with all 52 (6 x 8 tricks, and 4 cards left), where
    the players who could still draw play one short last trick; one side may hold that."""
    counts = {side: sum(row.values()) for side, row in taken.items()}
    short = sum(counts.values()) % n
    odd = [side for side, count in counts.items() if count % n]
    if not odd or (len(odd) == 1 and counts[odd[0]] % n == short):
        return
    side = odd[-1] if short and counts[odd[0]] % n == short else odd[0]
    count = counts[side]
    below, above = count - count % n, count - count % n + n
    last = ", and one %s the short last trick of the %d cards that don't go round" % (word, short) if short else ""
    raise GameError("hand %d: %s took %d cards, but a trick is one card from each of the %d players, so "
                    "a %s takes a multiple of %d (%d or %d, not %d)%s; check the counts (a table that counts "
                    "differently starts its game with %s off: a game under way keeps the options it "
                    "started with)"
                    % (number, side, count, n, word, n, below, above, count, last,
                       form_name(declared(OPTIONS, "whole_tricks"), asides=(" (",))))


def _leaders(totals: dict[str, int]) -> list[str]:
    """The side(s) with the highest total; equal totals share the win (newsdesk's ruling for
    sides reaching 155 in the same hand, and for a tie when time is up)."""
    best = max(totals.values())
    return [s for s, t in totals.items() if t == best]


# ---------------------------------------------------------------- apply

def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        return {"started": True, "variant": event["variant"], "players": list(event["players"]),
                "sides": copied(event["sides"]), "time_limit": event["time_limit"],
                "ends_at": event.get("ends_at"), "target_tie": event.get("target_tie", "highest"),
                "put_aside": bool(event.get("put_aside", False)),
                # a game stored before the option existed is checked, as the rules have it
                "whole_tricks": bool(event.get("whole_tricks", True)),
                "plus_scores": event.get("plus_scores", "each"),     # a game stored before the option: each
                "no_trump_last": event.get("no_trump_last", "either"),
                "dealer": event["dealer"], "sheet": [], "winners": [], "time_up": False,
                "totals": {s["name"]: 0 for s in event["sides"]}}
    if not state.get("started"):
        return state
    s = copied(state)
    if kind == "hand_scored":
        for side, pts in event["points"].items():
            s["totals"][side] = s["totals"].get(side, 0) + pts
        s["sheet"].append({"hand": event["hand"], "dealer": event["dealer"], "taken": event["taken"],
                           "values": event["values"], "points": event["points"], "totals": dict(s["totals"])})
        s["dealer"] = (event["dealer"] + 1) % len(s["players"])   # "The deal passes to the left"
    elif kind == "time_up":
        s["time_up"] = True
        s["ended_early"] = bool(event.get("early", False))    # ended before the countdown's end
    elif kind == "won":
        s["winners"] = list(event["sides"])
        s["win_reason"] = event["reason"]
    return s
