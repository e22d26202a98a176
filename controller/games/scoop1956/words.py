"""SCOOP in words: ``describe``, the one sentence the table reads about a move (the undo bar,
the log), and the sentences, names and helpers it is made of."""

from ...oracles.editor import EFFECTS
from .. import ledger
from ..base import Action, Event, State, and_list, player_name as _name
from ..ledger import BANK, dollars
from .rules import FEES, PRESS_BONUS, Story, account, kind_words, others_from_left, story_words, unsold_value


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    say = _SAYS[action["type"]]
    return "; ".join([say(state, action, events)] + _aftermath(state, action, events))


def _say_claim(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "claimed")
    kind = kind_words(ev["story_type"])
    text = "%s claimed %s %s story" % (_name(state, ev["player"]), _a(kind), kind)
    if ev["scooped_from"] is not None:
        text += ", SCOOPing from %s's reserve" % _name(state, ev["scooped_from"])
    return text


def _say_verdict(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "verdict")
    c, signal = ev["player"], ev["signal"]
    who, story = _name(state, c), "the %s story" % kind_words(ev["story_type"])
    head = "the editor said %s: " % signal
    if not ev["passed"]:
        return head + "%s is refused, and %s" % (story, _charge_words(state, events, c, "new cards"))
    if signal in FEES:
        return head + _collect_words(state, events, c, FEES[signal])
    if EFFECTS[signal].get("may_take_three_star"):
        return head + "%s takes a Three Star story or %s" % (who, story)
    if EFFECTS[signal].get("may_go_to_press"):
        return head + "%s takes %s or goes to press" % (who, story)
    return head + "%s takes %s" % (who, story)


def _collect_words(state: State, events: list[Event], c: int, fee: int) -> str:
    """What an EXTRA or SYND brought in, as the transfers (and bankruptcies) say it."""
    who = _name(state, c)
    paid = [ev for ev in events if ev["type"] == ledger.TRANSFER and ev["to"] == account(c)]
    broke = [ev for ev in events if ev["type"] == "bankrupt"]
    others = others_from_left(state, c)
    if not broke and len(paid) == len(others) and all(ev["amount"] == fee for ev in paid):
        return "%s collects %s from each player" % (who, dollars(fee))
    seat_of = {account(q): q for q in others}
    parts = []
    for ev in paid:
        payer = _name(state, seat_of[ev["from"]])
        parts.append("%s from %s%s" % (dollars(ev["amount"]), payer,
                                       "" if ev["amount"] == fee else " (all %s held)" % payer))
    text = "%s collects %s" % (who, and_list(parts)) if parts else "%s collects nothing" % who
    short = [q for q in others if account(q) not in {ev["from"] for ev in paid}
             and q not in {ev["player"] for ev in broke}]
    if short:
        text += "; %s had nothing to pay" % and_list([_name(state, q) for q in short])
    for ev in broke:
        text += "; %s can't pay %s and is bankrupt" % (_name(state, ev["player"]), dollars(ev["owes"]))
    return text


def _charge_words(state: State, events: list[Event], p: int, what: str) -> str:
    """``p`` paying the bank for ``what`` after a refusal or a block, or going bankrupt over it."""
    for ev in events:
        if ev["type"] == ledger.TRANSFER and ev["from"] == account(p) and ev["to"] == BANK:
            return "%s pays %s for %s" % (_name(state, p), dollars(ev["amount"]), what)
        if ev["type"] == "bankrupt" and ev["player"] == p:
            return "%s can't pay %s for %s and is bankrupt" % (_name(state, p), dollars(ev["owes"]), what)
    return "%s pays nothing for %s" % (_name(state, p), what)


def _say_lines_down(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "blocked")
    q, c = ev["player"], ev["claimant"]
    blocker = _charge_words(state, [e for e in events if e.get("from") == account(q)], q, "a new hand")
    return "%s called Lines Down on %s's %s story: %s, and %s" % (
        _name(state, q), _name(state, c), kind_words(ev["story_type"]), blocker,
        _charge_words(state, [e for e in events if e.get("from") != account(q)], c, "new cards"))


def _say_placed(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "placed")
    p, story = ev["player"], ev["story"]
    who, words = _name(state, p), _story_words(state, story)
    if ev["dropped"] is not None and ev["dropped"]["id"] == story["id"]:
        return ("%s took %s %s, which goes to the bottom of its pile: the stories on the page are "
                "worth %s" % (who, _a(words), words, _as_much_or_more(state, p, story)))
    text = "%s placed %s %s" % (who, _a(words), words)
    if ev.get("scooped_from") is not None:
        text += ", SCOOPing from %s's reserve" % _name(state, ev["scooped_from"])
    if ev["dropped"] is not None:
        text += " in place of the %s one, which goes to the bottom of its pile" % dollars(ev["dropped"]["value"])
    if ev["displaced"]:
        text += ", which takes the Star Story spaces"
    return text


def _say_go_to_press(state: State, action: Action, events: list[Event]) -> str:
    return "%s went to press with the %s bonus" % (_name(state, action["player"]), dollars(PRESS_BONUS))


def _say_reserve(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "reserved")
    paid = sum(e["amount"] for e in events if e["type"] == ledger.TRANSFER)
    if ev["cards"] == 1:
        return "%s played a card to the reserve and paid %s for a new one" % (_name(state, ev["player"]), dollars(paid))
    return "%s played %d cards to the reserve%s and paid %s for new ones" % (
        _name(state, ev["player"]), ev["cards"], ", one on each space" if ev.get("space") == "both" else "",
        dollars(paid))


def _say_exchange(state: State, action: Action, events: list[Event]) -> str:
    return "%s exchanged a card with the draw pile" % _name(state, action["player"])


def _say_buy(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "bought")
    q, story = ev["player"], ev["story"]
    text = "%s bought %s's %s" % (_name(state, q), _name(state, ev["seller"]), _story_words(state, story))
    dropped = ev["dropped"]
    if dropped is not None and dropped["id"] == story["id"]:
        text += ", which goes to the bottom of its pile: the stories on the page are worth %s" % (
            _as_much_or_more(state, q, story))
    elif dropped is not None:
        text += ", and %s's %s one goes to the bottom of its pile" % (_name(state, q), dollars(dropped["value"]))
    return text


def _say_pass(state: State, action: Action, events: list[Event]) -> str:
    sale = state["sale"]
    return "%s passed on %s's %s" % (_name(state, action["player"]), _name(state, sale["seller"]),
                                     _story_words(state, sale["story"]))


def _say_sell(state: State, action: Action, events: list[Event]) -> str:
    ev = _first(events, "offered")
    return "%s, bankrupt, put the %s up for sale" % (_name(state, ev["player"]), _story_words(state, ev["story"]))


def _as_much_or_more(state: State, p: int, story: Story) -> str:
    """"more", or "as much" when a story of the same kind on ``p``'s page is worth the same as the
    one that goes (on equal values the one in place stays: newsdesk's reading)."""
    page = state["players"][p]["page"]
    placed = [s for slot in (page.values() if isinstance(page, dict) else [page]) for s in slot]
    same = [s for s in placed if s.get("kind") == story.get("kind") and s.get("value") == story.get("value")]
    return "as much (on equal values the story in place stays: newsdesk's reading)" if same else "more"


def _say_drop_out(state: State, action: Action, events: list[Event]) -> str:
    p = action["player"]
    text = "%s dropped out of the game" % _name(state, p)
    for ev in events:
        if ev["type"] == ledger.TRANSFER and ev["from"] == account(p):
            text += ", paying the %s left to %s (newsdesk's reading: the rules say only that his cards go back)" % (
                dollars(ev["amount"]), _account_words(state, ev["to"]))
    return text


_SAYS = {"claim": _say_claim, "verdict": _say_verdict, "lines_down": _say_lines_down, "place": _say_placed,
         "go_to_press": _say_go_to_press, "advertise": _say_placed, "reserve": _say_reserve,
         "exchange": _say_exchange, "buy": _say_buy, "pass": _say_pass, "sell": _say_sell,
         "drop_out": _say_drop_out}


def _aftermath(state: State, action: Action, events: list[Event]) -> list[str]:
    """What followed by itself: Star stories for sale, a story nobody bought, a debt paid, going
    to press and the count."""
    out = []
    for ev in events:
        kind = ev["type"]
        if kind == "offered" and ev["why"] == "star":
            out.append("%s's %s goes up for sale" % (_name(state, ev["player"]), _story_words(state, ev["story"])))
        elif kind == "unsold":
            text = "nobody bought %s's %s" % (_name(state, ev["player"]), _story_words(state, ev["story"]))
            if ev["why"] == "star":
                text += ": it counts at half its value (%s)" % dollars(unsold_value(ev["story"]["value"]))
            out.append(text)
        elif kind == "settled":
            to = BANK if ev["to"] == BANK else account(ev["to"])
            out.append("%s paid the %s owed to %s" % (_name(state, ev["player"]), dollars(ev["amount"]),
                                                      _account_words(state, to)))
        elif kind == "went_to_press" and ev["how"] != "press":     # going to press by choice: said first
            who = _name(state, ev["player"])
            if ev.get("bonus", True):
                out.append({"full_page": "%s's page is full: it goes to press with the %s bonus",
                            "last_paper": "%s's is the last paper left: it goes to press with the %s bonus",
                            }[ev["how"]] % (who, dollars(PRESS_BONUS)))
            else:
                out.append("%s's is the last paper left: the game ends, with no bonus (the table's choice)" % who)
        elif kind == "counted":
            best = {t["seat"]: t["total"] for t in ev["totals"]}
            names = [_name(state, w) for w in ev["winners"]]
            worth = dollars(best[ev["winners"][0]])
            out.append("%s wins with %s" % (names[0], worth) if len(names) == 1
                       else "%s share the win with %s each" % (and_list(names), worth))
    return out


def _first(events: list[Event], kind: str) -> Event:
    return next(ev for ev in events if ev["type"] == kind)


def _story_words(state: State, story: Story) -> str:
    """"$400 sport story", "$300 advertisement": a story as its card reads, with its value."""
    return "%s %s" % (dollars(story["value"]), story_words(state, story))


def _account_words(state: State, acc: str) -> str:
    if acc == BANK:
        return "the bank"
    return _name(state, int(acc[1:]))


def _a(words: str) -> str:
    """"a" or "an" before ``words``, as they are read aloud ("an $800 story", "an advertisement")."""
    if words.startswith("$"):
        lead = words[1:].split(" ")[0].split(",")[0]
        return "an" if lead.startswith("8") or lead in ("11", "18") else "a"
    return "an" if words[:1].lower() in "aeiou" else "a"
