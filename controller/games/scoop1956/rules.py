"""SCOOP's rules: the constants the rule book prints, the options setup checks, and the pure
functions a game is made of (setup, initial, decide, apply, result) with the helpers they need.
The refusals decide raises are written here, beside the rule each one enforces."""

import random
from typing import Any, Callable

from ...oracles.editor import EFFECTS, SIGNALS
from .. import ledger
from ..base import (
    Action,
    Event,
    GameError,
    Result,
    State,
    check_declared,
    check_options,
    check_players,
    choice_words,
    copied,
    declared,
    form_name,
    guard,
    is_int as _is_int,
    option,
    player_name as _name,
    quoted,
    result_of,
    seat as _seat,
    seat_words,
)
from ..ledger import BANK, dollars

Story = dict[str, Any]          # a story as placed: {"id": n, "kind": slot, "value": dollars}
Page = dict[str, list[Story]]   # a newspaper page: each slot and the stories in it

NAME = "scoop1956"
TITLE = "SCOOP (Parker Brothers, 1956)"
VARIANTS: dict[str, str] = {}

MIN_PLAYERS, MAX_PLAYERS = 2, 6
START_CASH = 3000          # "$3,000 (two $500 bills and twenty $100 bills)"
CARD_PRICE = 100           # "buying from the top of the draw pile at a price of $100 per card"
HAND_SIZE = 3              # "No more than three cards may be held in a player's hand"
STORY_CARDS = 3            # "the three cards indicated on his newspaper page"
RESERVE_PLAY = (1, 2)      # "Play one or two cards from his hand to the 'reserve' section"
# "collect $200 from each player" (EXTRA), "$500 from each player" (SYND): the editor's words
# for each signal say it once, in controller/oracles/editor.py
FEES = {code: effect["collect_from_each"] for code, effect in EFFECTS.items() if "collect_from_each" in effect}
PRESS_BONUS = 1500         # "he receives a bonus of $1,500 for having the first newspaper out"
THREE_STARS = "THREE STARS"
PRESS = "PRESS"
THREE_STAR, STAR = "three_star", "star"
THREE_STAR_SPACES = 1      # "One is required and must be placed on the indicated space."
MOST_THREE_STARS = 2       # "It is possible to have two Three Star Stories on one newspaper page."
STAR_SPACES = 2            # "the two spaces marked 'Star Story'"

DEFAULT_STORIES = {"sport": 2, "crime": 2, "society": 2, "local": 2}    # newsdesk's guess
DEFAULT_ADS = {"advertisement": 2}                                      # newsdesk's guess
MAX_SPACES = 6
RESERVE_SPACES = 2          # "he may place two cards on each of his two reserve spaces"
RESERVE_PER_SPACE = 2
RESERVE_MOST = RESERVE_SPACES * RESERVE_PER_SPACE
BOTH_SPACES = "both"        # a reserve play of two cards, one on each space
# the rules' bankruptcy comes of a player unable to complete his hand; a play he chooses that buys
# cards is refused instead (said with each such refusal, so it isn't read as the rules')
VOLUNTARY_READING = ("newsdesk's reading: a play that buys cards needs the cash in hand; the rules' bankruptcy "
                     "comes of being unable to complete a hand")
# the rules don't say a story's reserve cards can't come from both of the player's own spaces
# (said with each refusal that rests on it, so it isn't read as the rules')
ONE_SPACE_READING = ("newsdesk's reading: a story's reserve cards come from one space, as a SCOOP's come from "
                     "\"another player's reserve space\"; the rules don't say two spaces' cards make one story")
# newsdesk's bound on a printed value: the rules print none; no card of a real game comes near it,
# so a value past it is a typing slip, refused before it can reach the money or the store
MOST_PRINTED_VALUE = 100_000
PAYS_WHAT_THEY_HOLD, BANKRUPTCY = "pays_what_they_hold", "bankruptcy"
SHORT_OF_CASH = (PAYS_WHAT_THEY_HOLD, BANKRUPTCY)


SHORT_OF_CASH_WORDS = {
    PAYS_WHAT_THEY_HOLD: "pays what they hold (newsdesk's default: the rules' bankruptcy is about "
                         "buying cards)",
    BANKRUPTCY: "goes bankrupt (the rules' bankruptcy path: offers stories round the table)",
}
LAST_PAPER_WORDS = {
    "bonus": "takes the $1,500 bonus (newsdesk's default: it goes to press)",
    "no_bonus": "ends the game, no bonus (nobody went to press first)",
}
OPTIONS = (
    option("dealer", "seat", None, "One player is chosen to deal. ... The player to the left of the "
           "dealer plays first.", "Who deals (empty: the last player; the first plays first)", newsdesk=True),
    option("page", "mapping", None, "Even though a player may already have on his newspaper page two "
           "stories of any one type ...",
           "The newspaper page's layout: the story and advertisement spaces, which decide when a "
           "page is full and goes to press", newsdesk=True,
           help="The rules name the Three Star and Star Story spaces, a sport story and advertisements; "
                "the rest of the layout is printed on the pages. Left empty, newsdesk's guess: two spaces "
                "each for sport, crime, society and local stories, and two advertisements.",
           schema={"type": "object", "additionalProperties": False, "properties": {
               key: {"type": "object", "maxProperties": 12, "additionalProperties": {
                   "type": "integer", "minimum": 1, "maximum": MAX_SPACES}, "examples": [example]}
               for key, example in (("stories", {"sport": 2, "crime": 1}),
                                    ("advertisements", {"advertisement": 2}))}}),
    option("short_of_cash", "choice", PAYS_WHAT_THEY_HOLD, "If a player runs out of money, and is "
           "unable to purchase enough cards to complete his hand, he is bankrupt.",
           "A player who can't pay all of an EXTRA or SYND", choices=SHORT_OF_CASH_WORDS,
           newsdesk=True, help="Said of buying cards; a player who can't pay an EXTRA or SYND is not covered."),
    option("last_paper", "choice", "bonus", "The game can be ended in two ways.", "When every other player "
           "has dropped out, the last paper", choices=LAST_PAPER_WORDS, newsdesk=True,
           help="Every other player dropped out is neither of the two: not covered. A full page goes to "
                "press with the bonus either way."),
)
SCORE = "money"             # what result() scores a player by, and the panel shows: their worth in dollars


def account(seat: int) -> str:
    """The ledger account of the player in ``seat``."""
    return "p%d" % seat


def unsold_value(value: int) -> int:
    """An unsold Star story: "count it in his total score at one-half of its printed value"."""
    return value // 2


# ---------------------------------------------------------------- setup

def setup(players: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Event]:
    options = check_options("SCOOP", options, [o["name"] for o in OPTIONS])
    check_players("SCOOP", players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(players)
    dealer = options.get("dealer")
    dealer = n - 1 if dealer is None else dealer
    if not _is_int(dealer) or not 0 <= dealer < n:
        raise GameError(form_name(declared(OPTIONS, "dealer")) + " is the seat of the player who deals (%s); the player to the "
                        "dealer's left plays first" % seat_words(n))
    short = options.get("short_of_cash")
    short = PAYS_WHAT_THEY_HOLD if short is None else short
    if short not in SHORT_OF_CASH or not isinstance(short, str):
        raise GameError("%s is %s, not %r" % (form_name(declared(OPTIONS, "short_of_cash")),
                                              choice_words(declared(OPTIONS, "short_of_cash")), short))
    stories, ads = _page_option(options.get("page"))
    checked = check_declared("SCOOP", OPTIONS, options, n)
    seats = [{"name": p["name"], "colour": p.get("colour") if isinstance(p.get("colour"), str) else None}
             for p in players]
    events = [{"type": "setup", "players": seats, "dealer": dealer, "first": (dealer + 1) % n,
               "stories": stories, "ads": ads, "short_of_cash": short, "last_paper": checked["last_paper"]}]
    for seat in range(n):
        events.append(ledger.transfer(BANK, account(seat), START_CASH,
                                      "%s's $3,000 from the bank" % seats[seat]["name"]))
    return events


def _page_option(page: object) -> tuple[dict[str, Any], dict[str, Any]]:
    """The page layout option, refused in the start form's words: its two parts as the form
    names them ("Stories", "Advertisements") and an entry as typed there ("sport 2")."""
    if page is None:
        return dict(DEFAULT_STORIES), dict(DEFAULT_ADS)
    name_it = form_name(declared(OPTIONS, "page"))
    how = ("each a type and its number of spaces (1-%d) as printed on your newspaper page, separated "
           "by commas, e.g. “sport 2, crime 1”; the Three Star and Star Story spaces are the rules' own "
           "and need no entry" % MAX_SPACES)
    if not isinstance(page, dict) or set(page) - {"stories", "advertisements"}:
        raise GameError("%s lists Stories and Advertisements, %s" % (name_it, how))
    out = []
    for key in ("stories", "advertisements"):
        kinds = page.get(key, {})
        if not isinstance(kinds, dict):
            raise GameError("%s: %s lists %s" % (name_it, key.capitalize(), how))
        for name, spaces in kinds.items():
            if name in (THREE_STAR, STAR):
                raise GameError("%s: %s need no %s entry: the Three Star and Star Story spaces are the "
                                "rules' own" % (name_it, key.capitalize(), quoted(name)))
            if (not isinstance(name, str) or not name.strip()
                    or not _is_int(spaces) or not 1 <= spaces <= MAX_SPACES):
                typed = name if spaces == name else "%s %s" % (name, spaces)
                raise GameError("%s: %s has “%s”, not a type and its number of spaces; list %s"
                                % (name_it, key.capitalize(), str(typed)[:40], how))
        out.append(dict(kinds))
    stories, ads = out
    if not stories:
        raise GameError("the page needs at least one type of story besides the Three Star and "
                        "Star stories")
    if set(stories) & set(ads):
        raise GameError("%s can't be both a story and an advertisement"
                        % ", ".join(sorted(set(stories) & set(ads))))
    return stories, ads


def initial() -> State:
    return {"started": False}


# ---------------------------------------------------------------- decide

def decide(state: State, action: Action, rng: random.Random | None = None) -> list[Event]:
    kind = guard(state, action, title="SCOOP", actions=_ACTIONS, result=result,
                 over=lambda state: "it has gone to press: %s" % _result_words(state))
    handler, step, doing = _ACTIONS[kind]
    p: int | None = None
    if kind != "verdict":
        p = _seat(state, action.get("player"))
        if state["players"][p]["out"]:
            raise GameError("%s has dropped out of the game" % _name(state, p))
    if current_step(state) != step:
        if p is None and state.get("claim") and state.get("verdict"):
            raise GameError("the editor has already judged %s's %s story (%s): one verdict a call (now: %s)" % (
                _name(state, state["claim"]["player"]), kind_words(state["claim"]["story_type"]),
                state["verdict"]["signal"], waiting_for(state)))
        if p is None:
            raise GameError("no claim is pending, so the editor's verdict has no story to judge: "
                            "a player claims a story first (now: %s)" % waiting_for(state))
        raise GameError("%s can't %s now: %s" % (_name(state, p), doing, waiting_for(state)))
    events = _verdict(state, p, action) if p is None else handler(state, p, action)
    return _settle(state, events)


def result(state: State) -> Result:
    """Over once the papers have gone to press. Each player's score is their worth: the money on
    hand, the stories on their page at printed value and the Star stories kept unsold at half
    ("All players immediately add the amount of money that they have on hand and the value of
    the stories which they have already placed on their newspaper page"); the winners are the
    highest total counted at press ("The player having the highest total value wins the game"),
    all of them on a tie."""
    if not state.get("started"):
        return result_of(False, [], {"score": SCORE})
    over = state["phase"] == "over"
    won = set(state["winners"] or ()) if over else set()
    rows = []
    for i, pl in enumerate(state["players"]):
        worth = (cash_of(state, i) + sum(s["value"] for s in page_stories(pl["page"]))
                 + sum(unsold_value(s["value"]) for s in pl["kept"]))
        rows.append((pl["name"], worth, i in won))
    return result_of(over, rows, {"score": SCORE})


def _check_turn(state: State, p: int, doing: str) -> None:
    if p != state["turn"]:
        raise GameError("%s can't %s: it is %s's turn" % (_name(state, p), doing, _name(state, state["turn"])))


def _claim(state: State, p: int, action: Action) -> list[Event]:
    _check_turn(state, p, "claim a story")
    who = _name(state, p)
    story_type = action.get("story_type")
    claimable = list(state["stories"]) + [STAR]
    if story_type == THREE_STAR:
        raise GameError("%s can't claim a Three Star story: only the editor gives one, with the "
                        "THREE STARS signal; claim the story your cards make" % who)
    if not isinstance(story_type, str) or story_type not in claimable:
        raise GameError("%s: story_type is one of %s, not %r" % (who, ", ".join(claimable), story_type))
    page = state["players"][p]["page"]
    if story_type == STAR and not can_take(page, STAR):
        raise GameError("%s's Star Story spaces hold a second Three Star story, so there is no "
                        "room for a Star story" % who)
    k, scooped, used = _cards_of(state, p, action, "%s story" % kind_words(story_type))
    return [{"type": "claimed", "player": p, "story_type": story_type, "cards_from_hand": k,
             "scooped_from": scooped, "reserve": used, "refill": k + (1 if scooped is not None else 0)}]


def _cards_of(state: State, p: int, action: Action, what: str) -> tuple[int, int | None, dict[str, int] | None]:
    """The three cards a story or an advertisement is made of, checked against the page: (story
    cards from the hand, the seat SCOOPed from or None, the reserve cards used as {"player",
    "space", "cards"} or None).

    "the three cards indicated on his newspaper page": the hand's cards, and the rest from one
    reserve space, the player's own ("he may play them in exactly the same manner as if he held
    all of the cards in his hand"; one space, not both, is newsdesk's reading) or, with a SCOOP card, another player's ("combined with one
    or more cards on another player's reserve space"). The SCOOP card is none of the three: it
    "cannot be used to make up a story"."""
    who = _name(state, p)
    scooped = action.get("scooped_from")
    q = p
    if scooped is not None:
        q = _seat(state, scooped, "scooped_from")
        if q == p or state["players"][q]["out"]:
            raise GameError("%s can only SCOOP cards from another player's reserve" % who)
    most = STORY_CARDS if scooped is None else STORY_CARDS - 1
    k = action.get("cards_from_hand", STORY_CARDS if scooped is None else None)
    if not _is_int(k) or not STORY_CARDS - RESERVE_PER_SPACE <= k <= most:
        if scooped is None:
            raise GameError("%s: cards_from_hand is how many of the %s's three cards come from the hand "
                            "(1-3; the rest from a reserve space), not %s" % (who, what, _shown(k)))
        raise GameError("%s: with a SCOOP, cards_from_hand is how many of the %s's three cards come from "
                        "the hand (1 or 2; the SCOOP card is not one of them, and the rest are captured), "
                        "%s" % (who, what, "and it is missing" if k is None else "not %s" % _shown(k)))
    need = STORY_CARDS - k
    if need == 0:
        if action.get("space") is not None:
            raise GameError("%s: all three cards of the %s come from the hand, so no reserve space is "
                            "used; leave space out" % (who, what))
        return k, None, None
    spaces = reserve_spaces(state, q)
    whose = who if q == p else _name(state, q)
    doing = ("%s can't make %s %s with %d card%s from the hand: it needs %d more from one reserve space"
             % (who, _a(what), what, k, _s(k), need) if q == p else
             "%s can't SCOOP %s %s from %s's reserve with %d card%s from the hand: it needs %d captured "
             "card%s from one reserve space" % (who, _a(what), what, whose, k, _s(k), need, _s(need)))
    # the player's own spaces hold enough together, none alone: a refusal that rests on the reading
    reading = " (%s)" % ONE_SPACE_READING if q == p and max(spaces) < need <= sum(spaces) else ""
    space = action.get("space")
    if space is not None:
        if not _is_int(space) or not 1 <= space <= RESERVE_SPACES:
            raise GameError("%s: space is the reserve space the cards come from, 1 or 2, not %s"
                            % (who, _shown(space)))
        if spaces[space - 1] < need:
            raise GameError("%s, and %s's reserve space %d holds %s%s"
                            % (doing, whose, space, _cards_words(spaces[space - 1]), reading))
    else:
        able = [i + 1 for i, held in enumerate(spaces) if held >= need]
        if not able:
            raise GameError("%s, and %s%s" % (doing, reserve_words(state, q), reading))
        if len(able) > 1:
            raise GameError("%s: %s; say which space the %s's cards come from (space 1 or 2)"
                            % (who, reserve_words(state, q), what))
        space = able[0]
    return k, scooped, {"player": q, "space": space, "cards": need}


def ways_of(state: State, p: int) -> list[dict[str, int]]:
    """Each way the page lets ``p`` make a story's or an advertisement's three cards, as the
    fields of a claim or an ad that say it (the ones _cards_of accepts): all three from the hand
    first, then the rest from one of p's own reserve spaces, then, with a SCOOP card, captured
    from another player's space (players from p's left). The most a space can give comes first
    on each space: a set built there is usually played whole. Only the cards on the table are
    known to the panel, so a way is offered whenever the reserve holds its cards."""
    ways = [{"cards_from_hand": STORY_CARDS}]
    for q in [p] + others_from_left(state, p):
        for space, held in enumerate(reserve_spaces(state, q), start=1):
            for used in range(min(held, RESERVE_PER_SPACE), 0, -1):
                way = {"cards_from_hand": STORY_CARDS - used, "space": space}
                if q != p:
                    way["scooped_from"] = q
                ways.append(way)
    return ways


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _cards_words(n: int) -> str:
    return "no cards" if n == 0 else "%d card%s" % (n, _s(n))


def _a(words: str) -> str:
    return "an" if words[:1].lower() in "aeiou" else "a"


def reserve_words(state: State, p: int) -> str:
    """What ``p``'s page shows of the reserve, as a refusal says it: "Bob's reserve holds no
    cards", "Bob's reserve holds 1 card on space 1 and none on space 2"."""
    spaces = reserve_spaces(state, p)
    who = _name(state, p)
    if not any(spaces):
        return "%s's reserve holds no cards" % who
    return "%s's reserve holds %s on space 1 and %s on space 2" % (
        who, _cards_words(spaces[0]), _cards_words(spaces[1]) if spaces[1] else "none")


def _verdict(state: State, p: int | None, action: Action) -> list[Event]:
    signal = action.get("signal")
    if not isinstance(signal, str) or signal not in SIGNALS:
        raise GameError("the editor's signal is one of %s, not %r" % (", ".join(SIGNALS), signal))
    digit = action.get("digit")
    if digit is not None and (not _is_int(digit) or not 0 <= digit <= 9):
        raise GameError("the dialed digit is 0-9, not %r" % (digit,))
    claim = state["claim"]
    c = claim["player"]
    who = _name(state, c)
    passed = SIGNALS[signal][2]
    events = [{"type": "verdict", "player": c, "signal": signal, "digit": digit, "passed": passed,
               "message": SIGNALS[signal][0], "story_type": claim["story_type"]}]
    if not passed:
        drawn = claim["refill"]
        events += _charge(state, c, CARD_PRICE * drawn, BANK, "%s buys %d card%s after the editor refused "
                          "the %s story" % (who, drawn, _s(drawn), kind_words(claim["story_type"])))
    elif signal in FEES:
        fee = FEES[signal]
        for q in others_from_left(state, c):
            held = cash_of(state, q)
            reason = "%s: %s pays %s %s" % (signal, _name(state, q), who, dollars(fee))
            if held >= fee:
                events.append(ledger.transfer(account(q), account(c), fee, reason))
            elif state["short_of_cash"] == BANKRUPTCY:
                events.append(_bankrupt(state, q, fee, c, reason))
            elif held > 0:
                events.append(ledger.transfer(account(q), account(c), held,
                                              reason + " but holds only %s" % dollars(held)))
    return events


def _lines_down(state: State, q: int, action: Action) -> list[Event]:
    claim = state["claim"]
    c = claim["player"]
    if q == c:
        raise GameError("%s can't call Lines Down on their own call" % _name(state, q))
    cost = CARD_PRICE * HAND_SIZE
    held = cash_of(state, q)
    if held < cost:
        raise GameError("%s has %s and can't buy the %d cards a Lines Down block costs (%s; %s)"
                        % (_name(state, q), dollars(held), HAND_SIZE, dollars(cost), VOLUNTARY_READING))
    k = claim["refill"]
    events = [{"type": "blocked", "player": q, "claimant": c, "story_type": claim["story_type"]},
              ledger.transfer(account(q), BANK, cost, "Lines Down: %s buys a new hand" % _name(state, q))]
    events += _charge(state, c, CARD_PRICE * k, BANK, "Lines Down: %s buys %d card%s after the block"
                      % (_name(state, c), k, "" if k == 1 else "s"))
    return events


def _place(state: State, p: int, action: Action) -> list[Event]:
    claim = state["claim"]
    who = _name(state, p)
    if p != claim["player"]:
        raise GameError("%s can't take a story: the story is %s's" % (who, _name(state, claim["player"])))
    value = _value(state, p, action.get("value"), "the story")
    slot = action.get("slot")
    signal = state["verdict"]["signal"]
    if signal == THREE_STARS:
        if slot not in (THREE_STAR, claim["story_type"]) or not isinstance(slot, str):
            raise GameError("%s: say which story to take after THREE STARS: slot \"%s\" or \"%s\""
                            % (who, THREE_STAR, claim["story_type"]))
    elif slot is None:
        slot = claim["story_type"]
    elif slot != claim["story_type"]:
        raise GameError("%s claimed a %s story; it goes in that slot, not %r"
                        % (who, kind_words(claim["story_type"]), slot))
    return [_placed(state, p, slot, value, "story")]


def _go_to_press(state: State, p: int, action: Action) -> list[Event]:
    if state["verdict"]["signal"] != PRESS:
        raise GameError("%s can only go to press when the editor shows PRESS; %s takes the story"
                        % (_name(state, p), _name(state, p)))
    if p != state["claim"]["player"]:
        raise GameError("%s can't go to press: it was %s who phoned" % (_name(state, p), _name(state, state["claim"]["player"])))
    return _press(state, p, "press")


def _advertise(state: State, p: int, action: Action) -> list[Event]:
    _check_turn(state, p, "place an advertisement")
    who = _name(state, p)
    ads = state["ads"]
    if not ads:
        raise GameError("this page layout has no advertisement spaces")
    ad_type = action.get("ad_type")
    if ad_type is None and len(ads) == 1:
        ad_type = next(iter(ads))
    if not isinstance(ad_type, str) or ad_type not in ads:
        raise GameError("%s: ad_type is one of %s, not %r" % (who, ", ".join(ads), ad_type))
    k, scooped, used = _cards_of(state, p, action, "advertisement")
    value = _value(state, p, action.get("value"), "the advertisement")
    placed = _placed(state, p, ad_type, value, "advertisement")
    placed.update(cards_from_hand=k, scooped_from=scooped, reserve=used)
    return [placed]


def _reserve(state: State, p: int, action: Action) -> list[Event]:
    _check_turn(state, p, "play cards to the reserve")
    cards = action.get("cards")
    if not _is_int(cards) or cards not in RESERVE_PLAY:
        raise GameError("%s plays one or two cards to the reserve, not %r" % (_name(state, p), cards))
    held = reserve_held(state, p)
    if held + cards > RESERVE_MOST:
        raise GameError("%s has %d card%s in reserve; the rules allow two cards on each of the two "
                        "reserve spaces (%d in all), so %s"
                        % (_name(state, p), held, "" if held == 1 else "s", RESERVE_MOST,
                           "the reserve is full" if held >= RESERVE_MOST else "only %d more can go there"
                           % (RESERVE_MOST - held)))
    spaces = reserve_spaces(state, p)
    space = action.get("space")
    # "one or two cards ... he may place two cards on each of his two reserve spaces": two cards
    # may go one on each space ("both"), as a play that names no space does when neither space
    # has room for both
    if space is None and room_for(spaces, cards) is None and cards == len(spaces) and all(
            held < RESERVE_PER_SPACE for held in spaces):
        space = BOTH_SPACES
    if space == BOTH_SPACES:
        if cards != RESERVE_SPACES or any(held >= RESERVE_PER_SPACE for held in spaces):
            raise GameError("%s: one card on each reserve space takes two cards and room on both; %s"
                            % (_name(state, p), reserve_words(state, p)))
    elif space is None:
        space = room_for(spaces, cards)
        if space is None:
            raise GameError("%s; two cards on a space is the most, so play one card at a time"
                            % reserve_words(state, p))
    elif not _is_int(space) or not 1 <= space <= RESERVE_SPACES:
        raise GameError("%s: space is the reserve space the cards go on, 1 or 2 (or \"both\": one card on each), "
                        "not %s" % (_name(state, p), _shown(space)))
    elif spaces[space - 1] + cards > RESERVE_PER_SPACE:
        raise GameError("%s's reserve space %d holds %s; two cards on a space is the most, so %s"
                        % (_name(state, p), space, _cards_words(spaces[space - 1]),
                           "it is full" if spaces[space - 1] >= RESERVE_PER_SPACE else "only 1 more can go there"))
    cost = CARD_PRICE * cards
    if cash_of(state, p) < cost:
        raise GameError("%s has %s and can't pay %s for the cards (%s)" % (
            _name(state, p), dollars(cash_of(state, p)), dollars(cost), VOLUNTARY_READING))
    return [{"type": "reserved", "player": p, "cards": cards, "space": space},
            ledger.transfer(account(p), BANK, cost, "%s buys %d card%s after playing to the reserve"
                            % (_name(state, p), cards, "" if cards == 1 else "s"))]


def _exchange(state: State, p: int, action: Action) -> list[Event]:
    _check_turn(state, p, "exchange a card")
    return [{"type": "exchanged", "player": p}]


def _buy(state: State, q: int, action: Action) -> list[Event]:
    sale = state["sale"]
    _check_asked(state, q, "buy")
    story = sale["story"]
    who = _name(state, q)
    ledger.check_can_pay(balances_of(state), account(q), story["value"], who)
    if not can_take(state["players"][q]["page"], story["kind"]):
        raise GameError("%s has no room for a %s story on the page%s" % (
            who, kind_words(story["kind"]),
            " (newsdesk's reading: a Three Star story bought from another player doesn't displace the Star "
            "stories in place; the rules speak of that only for one the editor gives)"
            if story["kind"] == THREE_STAR else ""))
    after, dropped, _ = _put(state["players"][q]["page"], state, story)
    return [ledger.transfer(account(q), account(sale["seller"]), story["value"],
                            "%s buys %s's %s story at list price" % (who, _name(state, sale["seller"]),
                                                                     kind_words(story["kind"]))),
            {"type": "bought", "player": q, "seller": sale["seller"], "story": story,
             "why": sale["why"], "dropped": dropped}]


def _pass(state: State, q: int, action: Action) -> list[Event]:
    _check_asked(state, q, "pass")
    sale = state["sale"]
    return [{"type": "passed", "player": q, "seller": sale["seller"], "story": sale["story"]["id"]}]


def _check_asked(state: State, q: int, doing: str) -> None:
    asked = state["sale"]["asking"]
    if q != asked:
        raise GameError("%s can't %s: %s is asked first" % (_name(state, q), doing, _name(state, asked)))


def _sell(state: State, p: int, action: Action) -> list[Event]:
    debt = state["debts"][0]
    who = _name(state, p)
    if p != debt["player"]:
        raise GameError("%s can't sell: %s is the bankrupt player" % (who, _name(state, debt["player"])))
    sid = action.get("story")
    found = _find_story(state["players"][p], sid) if _is_int(sid) else None
    if found is None:
        raise GameError("%s: story is the number of one of %s's stories (%s), not %r"
                        % (who, who, ", ".join(str(s["id"]) for s in stories_of(state["players"][p])) or "none",
                           sid))
    story, where = found
    if sid in state["refused"]:
        raise GameError("nobody bought %s's %s story (%s) this time; offer another or drop out"
                        % (who, kind_words(story["kind"]), dollars(story["value"])))
    return [{"type": "offered", "player": p, "story": story, "why": "bankruptcy", "from": where}]


def _drop_out(state: State, p: int, action: Action) -> list[Event]:
    debt = state["debts"][0]
    who = _name(state, p)
    if p != debt["player"]:
        raise GameError("%s can't drop out: %s is the bankrupt player" % (who, _name(state, debt["player"])))
    left = [s for s in stories_of(state["players"][p]) if s["id"] not in state["refused"]]
    if left:
        raise GameError("%s must first offer %s for sale at list price; only when nobody buys does "
                        "a bankrupt player drop out" % (who, _story_list(left)))
    events = []
    held = cash_of(state, p)
    to = _creditor_account(debt)
    if held > 0:
        events.append(ledger.transfer(account(p), to, held, "%s drops out and pays what they hold" % who))
    events.append({"type": "dropped_out", "player": p,
                   "stories": [s["id"] for s in stories_of(state["players"][p])]})
    return events


_ACTIONS: dict[str, tuple[Callable[[State, int, Action], list[Event]], str, str]] = {
    "claim": (_claim, "turn", "claim a story"),
    "advertise": (_advertise, "turn", "place an advertisement"),
    "reserve": (_reserve, "turn", "play cards to the reserve"),
    "exchange": (_exchange, "turn", "exchange a card"),
    "verdict": (_verdict, "call", "take a verdict"),
    "lines_down": (_lines_down, "call", "call Lines Down"),
    "place": (_place, "place", "take a story"),
    "go_to_press": (_go_to_press, "place", "go to press"),
    "buy": (_buy, "sale", "buy"),
    "pass": (_pass, "sale", "pass"),
    "sell": (_sell, "bankrupt", "sell a story or advertisement"),
    "drop_out": (_drop_out, "bankrupt", "drop out"),
}


# ---------------------------------------------------------------- what follows an action

def _settle(state: State, events: list[Event]) -> list[Event]:
    """The action's events, plus whatever follows by itself: a Star story put up for sale, a
    story nobody would buy, a debt now payable, the end of the turn or going to press."""
    events = list(events)
    s = state
    for ev in events:
        s = apply(s, ev)
    while s["phase"] != "over":
        more = []
        if s["sale"] is not None:
            if s["sale"]["asking"] is None:
                sale = s["sale"]
                more = [{"type": "unsold", "player": sale["seller"], "story": sale["story"], "why": sale["why"]}]
        elif s["for_sale"]:
            more = [{"type": "offered", "player": s["for_sale"][0]["seller"], "story": s["for_sale"][0]["story"],
                     "why": "star", "from": "page"}]
        elif s["debts"]:
            debt = s["debts"][0]
            if cash_of(s, debt["player"]) >= debt["owes"]:
                more = [ledger.transfer(account(debt["player"]), _creditor_account(debt), debt["owes"],
                                        debt["reason"]),
                        {"type": "settled", "player": debt["player"], "to": debt["to"], "amount": debt["owes"]}]
        elif s["phase"] == "done":
            more = _end_of_turn(s)
        if not more:
            break
        for ev in more:
            s = apply(s, ev)
        events += more
    return events


def _end_of_turn(state: State) -> list[Event]:
    """A full page goes to press first, with the bonus ("the game is ended when any one player has
    completely filled his newspaper page"; "Whenever a player has 'Gone to Press' by one of the two
    methods ... he receives a bonus of $1,500"), even when it is the last paper left: only a page
    not full ends as the last paper, the table's last_paper choice. Otherwise the turn passes."""
    active = _active(state)
    n = len(state["players"])
    for k in range(n):
        q = (state["turn"] + k) % n
        if q in active and page_full(state, state["players"][q]["page"]):
            return _press(state, q, "full_page")
    if len(active) == 1:
        return _press(state, active[0], "last_paper", bonus=state.get("last_paper", "bonus") == "bonus")
    nxt = next((state["turn"] + k) % n for k in range(1, n + 1) if (state["turn"] + k) % n in active)
    return [{"type": "turn_passed", "player": state["turn"], "next": nxt}]


def _press(state: State, p: int, how: str, bonus: bool = True) -> list[Event]:
    went = {"type": "went_to_press", "player": p, "how": how}
    paid = [ledger.transfer(BANK, account(p), PRESS_BONUS, "%s goes to press first: the bonus" % _name(state, p))]
    if not bonus:
        went["bonus"], paid = False, []
    after = apply(state, went)
    for ev in paid:
        after = apply(after, ev)
    totals = _totals(after)
    best = max(t["total"] for t in totals if t["total"] is not None)
    winners = [t["seat"] for t in totals if t["total"] == best]
    return [went] + paid + [{"type": "counted", "totals": totals, "winners": winners}]


def _totals(state: State) -> list[dict[str, Any]]:
    out = []
    for i, pl in enumerate(state["players"]):
        if pl["out"]:
            out.append({"seat": i, "name": pl["name"], "out": True, "cash": 0, "stories": 0,
                        "unsold": 0, "total": None})
            continue
        on_page = sum(s["value"] for s in page_stories(pl["page"]))
        unsold = sum(unsold_value(s["value"]) for s in pl["kept"])
        cash = cash_of(state, i)
        out.append({"seat": i, "name": pl["name"], "out": False, "cash": cash, "stories": on_page,
                    "unsold": unsold, "total": cash + on_page + unsold})
    return out


def _charge(state: State, p: int, amount: int, to: str, reason: str) -> list[Event]:
    """A payment the rules force: made now, or the player is bankrupt until it can be."""
    if cash_of(state, p) >= amount:
        return [ledger.transfer(account(p), to, amount, reason)]
    return [_bankrupt(state, p, amount, to, reason)]


def _bankrupt(state: State, p: int, amount: int, to: str | int, reason: str) -> Event:
    return {"type": "bankrupt", "player": p, "owes": amount, "to": to, "reason": reason,
            "holds": cash_of(state, p)}


def _placed(state: State, p: int, kind: str, value: int, how: str) -> Event:
    story = {"id": state["next_id"], "kind": kind, "value": value}
    _, dropped, displaced = _put(state["players"][p]["page"], state, story)
    return {"type": "placed", "player": p, "story": story, "how": how, "dropped": dropped,
            "displaced": displaced}


# ---------------------------------------------------------------- the page

def _put(page: Page, state: State, story: Story) -> tuple[Page, Story | None, list[Story]]:
    """(new page, the story that goes to the bottom of its pile or None, Star stories displaced).

    "keep the two which have the highest value" (Substitution of Copy); a second Three Star
    story takes the two Star Story spaces and displaces the Star stories there.
    """
    page = copied(page)
    kind = story["kind"]
    if kind == THREE_STAR:
        here = page[THREE_STAR]
        if len(here) < THREE_STAR_SPACES:
            here.append(story)
            return page, None, []
        if len(here) < MOST_THREE_STARS:
            displaced, page[STAR] = page[STAR], []
            here.append(story)
            return page, None, displaced
        cap = MOST_THREE_STARS
    elif kind == STAR:
        cap = 0 if len(page[THREE_STAR]) >= MOST_THREE_STARS else STAR_SPACES
    else:
        cap = spaces_of(state, kind)
    here = page[kind]
    if len(here) < cap:
        here.append(story)
        return page, None, []
    if cap == 0:
        return page, story, []
    dropped = min([story] + here, key=lambda s: s["value"])      # ties: the one in place stays
    page[kind] = [s for s in here + [story] if s is not dropped]
    return page, dropped, []


def can_take(page: Page, kind: str) -> bool:
    """Whether a story of ``kind`` can come onto ``page`` without displacing Star stories."""
    if kind == STAR:
        return len(page[THREE_STAR]) < MOST_THREE_STARS
    if kind == THREE_STAR:
        return not (len(page[THREE_STAR]) == THREE_STAR_SPACES and page[STAR])
    return True


def spaces_of(state: State, kind: str) -> int:
    if kind == THREE_STAR:
        return THREE_STAR_SPACES
    if kind == STAR:
        return STAR_SPACES
    spaces: int = state["stories"].get(kind) or state["ads"].get(kind, 0)
    return spaces


def page_full(state: State, page: Page) -> bool:
    if len(page[THREE_STAR]) < THREE_STAR_SPACES:
        return False
    if len(page[THREE_STAR]) < MOST_THREE_STARS and len(page[STAR]) < STAR_SPACES:
        return False
    return all(len(page[k]) >= n for k, n in list(state["stories"].items()) + list(state["ads"].items()))


def _empty_page(stories: dict[str, int], ads: dict[str, int]) -> Page:
    return {k: [] for k in [THREE_STAR, STAR] + list(stories) + list(ads)}


def page_stories(page: Page) -> list[Story]:
    return [s for kind in page for s in page[kind]]


def stories_of(player: dict[str, Any]) -> list[Story]:
    return page_stories(player["page"]) + list(player["kept"])


def _find_story(player: dict[str, Any], sid: int) -> tuple[Story, str] | None:
    for kind in player["page"]:
        for s in player["page"][kind]:
            if s["id"] == sid:
                return s, "page"
    for s in player["kept"]:
        if s["id"] == sid:
            return s, "kept"
    return None


# ---------------------------------------------------------------- apply

def apply(state: State, event: Event) -> State:
    kind = event.get("type")
    if kind == "setup":
        return _apply_setup(event)
    if not state.get("started"):
        return state
    s = copied(state)
    if kind == ledger.TRANSFER:
        s["balances"] = ledger.apply_transfer(s["balances"], event)
        return s
    if kind == "counted":
        s["totals"], s["winners"], s["phase"], s["last"] = event["totals"], event["winners"], "over", event
        return s
    p = event.get("player")
    if not _is_int(p) or not 0 <= p < len(s["players"]):
        return s
    me = s["players"][p]
    if kind == "claimed":
        s["claim"] = {k: event[k] for k in ("player", "story_type", "cards_from_hand", "scooped_from")}
        # the cards the hand lost, the refill: the story's cards from the hand and the SCOOP card
        s["claim"]["refill"] = event.get("refill", event["cards_from_hand"])
        _use_reserve(s, event)
        s["phase"] = "call"
    elif kind == "verdict":
        s["verdict"] = {"signal": event["signal"], "digit": event["digit"], "passed": event["passed"]}
        # kept past the call (a refusal ends it at once), for the panel's "last verdict"
        claim = s["claim"] or {}
        s["last_verdict"] = {"signal": event["signal"], "digit": event["digit"], "player": claim.get("player"),
                             "story_type": claim.get("story_type"),
                             "number": (s.get("last_verdict") or {}).get("number", 0) + 1}
        s["phase"] = "place" if event["passed"] else "done"
    elif kind == "blocked":
        s["phase"] = "done"
    elif kind == "placed":
        story = event["story"]
        if event.get("reserve"):
            _use_reserve(s, event)
        me["page"], _, displaced = _put(me["page"], s, story)
        s["for_sale"] += [{"seller": p, "story": d} for d in displaced]
        s["next_id"] = max(s["next_id"], story["id"] + 1)
        s["phase"] = "done"
    elif kind in ("reserved", "exchanged"):
        if kind == "reserved":
            spaces = me["reserve"]
            if event.get("space") == BOTH_SPACES:
                for i in range(len(spaces)):
                    spaces[i] += 1
            else:
                space = event.get("space") or room_for(spaces, event["cards"]) or 1
                spaces[space - 1] += event["cards"]
        s["phase"] = "done"
    elif kind == "offered":
        story = event["story"]
        if event["why"] == "star":
            s["for_sale"] = [f for f in s["for_sale"] if f["story"]["id"] != story["id"]]
        elif event["from"] == "kept":
            me["kept"] = [k for k in me["kept"] if k["id"] != story["id"]]
        else:
            me["page"][story["kind"]] = [k for k in me["page"][story["kind"]] if k["id"] != story["id"]]
        s["sale"] = {"seller": p, "story": story, "why": event["why"], "from": event["from"], "passed": []}
        s["sale"]["asking"] = _next_asked(s)
    elif kind == "passed":
        if s["sale"] is not None:
            s["sale"]["passed"].append(p)
            s["sale"]["asking"] = _next_asked(s)
    elif kind == "bought":
        me["page"], _, _ = _put(me["page"], s, event["story"])
        s["sale"] = None
    elif kind == "unsold":
        story = event["story"]
        if event["why"] == "star":
            me["kept"].append(story)
        else:
            sale = s["sale"] or {}
            if sale.get("from") == "kept":
                me["kept"].append(story)
            else:
                me["page"][story["kind"]].append(story)
            s["refused"].append(story["id"])
        s["sale"] = None
    elif kind == "bankrupt":
        s["debts"].append({k: event[k] for k in ("player", "owes", "to", "reason")})
    elif kind == "settled":
        s["debts"], s["refused"] = s["debts"][1:], []
    elif kind == "dropped_out":
        me["out"] = True
        me["page"] = _empty_page(s["stories"], s["ads"])
        me["kept"] = []
        me["reserve"] = [0] * RESERVE_SPACES       # "His cards are removed from his newspaper"
        s["debts"], s["refused"] = s["debts"][1:], []
    elif kind == "turn_passed":
        s["turn"], s["phase"], s["claim"], s["verdict"] = event["next"], "turn", None, None
    elif kind == "went_to_press":
        s["press"] = {"player": p, "how": event["how"], "bonus": event.get("bonus", True)}
    if kind not in ("passed",):
        s["last"] = event
    return s


def _apply_setup(event: Event) -> State:
    stories, ads = dict(event["stories"]), dict(event["ads"])
    players = [{"name": seat["name"], "colour": seat.get("colour"), "out": False,
                "page": _empty_page(stories, ads), "kept": [], "reserve": [0] * RESERVE_SPACES}
               for seat in event["players"]]
    return {"started": True, "players": players, "stories": stories, "ads": ads,
            "short_of_cash": event["short_of_cash"], "dealer": event["dealer"],
            "last_paper": event.get("last_paper", "bonus"),     # a game stored before the option: the bonus
            "balances": {BANK: 0}, "turn": event["first"], "phase": "turn", "claim": None,
            "verdict": None, "debts": [], "refused": [], "sale": None, "for_sale": [],
            "next_id": 1, "last": None, "press": None, "totals": None, "winners": None, "last_verdict": None}


def _use_reserve(s: State, event: Event) -> None:
    """Take the reserve cards a story or an advertisement used off their space ("Cards placed in
    reserve cannot be removed until they are used as part of a complete story"; a SCOOP captures
    them from another player's). A claim stored before the spaces were told apart names none:
    its cards (three less those from the hand, a SCOOP card then counted among them) come off
    the spaces in order, as the reserve was counted then."""
    used = event.get("reserve")
    if used is not None:
        spaces = s["players"][used["player"]]["reserve"]
        spaces[used["space"] - 1] -= used["cards"]        # decide checked the space holds them
        return
    if "refill" in event:                   # checked and stored: all from the hand
        return
    src = event["scooped_from"] if _is_int(event.get("scooped_from")) else event["player"]
    spaces = s["players"][src]["reserve"]
    left = STORY_CARDS - event["cards_from_hand"]
    for i, held in enumerate(spaces):
        took = min(held, left)
        spaces[i], left = held - took, left - took


def _next_asked(state: State) -> int | None:
    """Who is offered the story next: "the player to his left having the first opportunity"."""
    sale = state["sale"]
    n = len(state["players"])
    for k in range(1, n):
        q: int = (sale["seller"] + k) % n
        if not state["players"][q]["out"] and q not in sale["passed"]:
            return q
    return None


# ---------------------------------------------------------------- helpers

def current_step(state: State) -> str:
    if state["phase"] == "over":
        return "over"
    if state["sale"] is not None:
        return "sale"
    if state["debts"]:
        return "bankrupt"
    phase: str = state["phase"]
    return phase


def waiting_for(state: State) -> str:
    step = current_step(state)
    if step == "sale":
        sale = state["sale"]
        return ("%s: buy %s's %s for %s, or pass" % (
            _name(state, sale["asking"]), _name(state, sale["seller"]), story_words(state, sale["story"]),
            dollars(sale["story"]["value"])) if sale["asking"] is not None else "nobody is left to ask")
    if step == "bankrupt":
        d = state["debts"][0]
        return ("%s is bankrupt: owes %s and holds %s; sell a story or advertisement at list price (the "
                "player to the left is asked first) or, when nobody buys, drop out"
                % (_name(state, d["player"]), dollars(d["owes"]), dollars(cash_of(state, d["player"]))))
    who = _name(state, state["turn"])
    if step == "turn":
        return "%s claims a story, places an advertisement, plays to the reserve or exchanges a card" % who
    if step == "call":
        return ("%s dials the editor about the %s story (or another player calls Lines Down)"
                % (_name(state, state["claim"]["player"]), kind_words(state["claim"]["story_type"])))
    if step == "place":
        extra = {THREE_STARS: " (a Three Star story, or the story dialed for)",
                 PRESS: ", or goes to press"}.get(state["verdict"]["signal"], "")
        return "%s enters the printed value of the story taken%s" % (_name(state, state["claim"]["player"]), extra)
    if step == "done":
        return "the turn is ending"
    return "the game has gone to press"


def _result_words(state: State) -> str:
    names = [_name(state, w) for w in state["winners"] or []]
    return "%s won" % " and ".join(names) if names else "it is over"


def kind_words(kind: str) -> str:
    return {THREE_STAR: "Three Star", STAR: "Star"}.get(kind, kind)


def story_words(state: State, story: Story) -> str:
    """What ``story`` is, as its card reads: "sport story", "Three Star story", "advertisement",
    "want ad" (an advertisement is never a story: the rules sell "stories or advertisements")."""
    kind = story["kind"]
    if kind in state["ads"]:
        return kind if kind.lower().endswith(("ad", "advertisement")) else "%s advertisement" % kind
    return "%s story" % kind_words(kind)


def _story_list(stories: list[Story]) -> str:
    return ", ".join("#%d %s (%s)" % (s["id"], kind_words(s["kind"]), dollars(s["value"])) for s in stories)


def _value(state: State, p: int, value: object, what: str) -> int:
    if not _is_int(value) or not 0 < value <= MOST_PRINTED_VALUE:
        raise GameError("%s: enter the value printed on %s in whole dollars, $1-$%s, e.g. 500, not %s"
                        % (_name(state, p), what, format(MOST_PRINTED_VALUE, ","), _shown(value)))
    return value


def _shown(value: object) -> str:
    return quoted(value, 30)


def reserve_spaces(state: State, p: int) -> list[int]:
    """The cards on each of ``p``'s two reserve spaces: played there (reserved), less those a
    story or an advertisement used (the player's own, or captured by a SCOOP)."""
    spaces: list[int] = list(state["players"][p]["reserve"])
    return spaces


def reserve_held(state: State, p: int) -> int:
    """Cards in ``p``'s reserve, both spaces together."""
    return sum(reserve_spaces(state, p))


def room_for(spaces: list[int], cards: int) -> int | None:
    """The first reserve space (1 or 2) with room for ``cards`` more, or None: where a reserve
    play that names no space goes."""
    return next((i + 1 for i, held in enumerate(spaces) if held + cards <= RESERVE_PER_SPACE), None)


def _creditor_account(debt: dict[str, Any]) -> str:
    return debt["to"] if debt["to"] == BANK else account(debt["to"])


def balances_of(state: State) -> dict[str, int]:
    balances: dict[str, int] = state["balances"]
    return balances


def cash_of(state: State, p: int) -> int:
    cash: int = state["balances"].get(account(p), 0)
    return cash


def _active(state: State) -> list[int]:
    return [i for i, pl in enumerate(state["players"]) if not pl["out"]]


def others_from_left(state: State, p: int) -> list[int]:
    n = len(state["players"])
    return [(p + k) % n for k in range(1, n) if not state["players"][(p + k) % n]["out"]]
