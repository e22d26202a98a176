"""What SCOOP shows and offers: the panel's game screen (each page, the money, the sale, the
verdict in force), the one-tap offers, the headline a reload shows, and PANEL, the panel's facts."""

from typing import Any

from ...oracles.editor import SIGNALS
from .. import ledger
from ..base import Action, Event, State, player_name as _name
from ..ledger import BANK
from .rules import (
    BOTH_SPACES,
    CARD_PRICE,
    FEES,
    HAND_SIZE,
    MOST_PRINTED_VALUE,
    MOST_THREE_STARS,
    NAME,
    PRESS,
    PRESS_BONUS,
    RESERVE_MOST,
    RESERVE_PER_SPACE,
    RESERVE_PLAY,
    RESERVE_SPACES,
    SCORE,
    STAR,
    STORY_CARDS,
    THREE_STAR,
    THREE_STAR_SPACES,
    THREE_STARS,
    TITLE,
    account,
    balances_of,
    can_take,
    cash_of,
    current_step,
    kind_words,
    others_from_left,
    page_full,
    page_stories,
    reserve_held,
    reserve_spaces,
    room_for,
    spaces_of,
    stories_of,
    story_words,
    unsold_value,
    waiting_for,
    ways_of,
)

PANEL = {"score": SCORE, "chart": {"unit": "worth", "prefix": "$"}, "listens": ["editor"],
         "numbers": {"value": {"minimum": 1, "maximum": MOST_PRINTED_VALUE, "label": "Printed value ($)"}}}


def headline(events: list[Event]) -> Event | None:
    """The newest editor's verdict among ``events`` (those still in force), with whose claim it
    judged: the panel shows it in big type, after a reload too (the view holds only a pending one)."""
    claim = found = None
    for ev in events:
        if ev.get("type") == "claimed":
            claim = ev
        elif ev.get("type") == "verdict" and ev.get("signal") in SIGNALS:
            found = {"signal": ev["signal"], "digit": ev.get("digit"), "message": SIGNALS[ev["signal"]][0],
                     "player": claim.get("player") if claim else None,
                     "story_type": claim.get("story_type") if claim else None}
    return found


def offers(state: State) -> list[Action]:
    if not state.get("started") or state["phase"] == "over":
        return []
    step = current_step(state)
    if step == "sale":
        q = state["sale"]["asking"]
        out = []
        story = state["sale"]["story"]
        if cash_of(state, q) >= story["value"] and can_take(state["players"][q]["page"], story["kind"]):
            out.append({"type": "buy", "player": q})
        return out + [{"type": "pass", "player": q}]
    if step == "bankrupt":
        p = state["debts"][0]["player"]
        left = [s for s in stories_of(state["players"][p]) if s["id"] not in state["refused"]]
        return ([{"type": "sell", "player": p, "story": s["id"]} for s in left]
                or [{"type": "drop_out", "player": p}])
    p = state["turn"]
    if step == "turn":
        page = state["players"][p]["page"]
        # where the three cards come from, when a reserve on the table holds any: the panel
        # asks (all from the hand first, the default); with none, a claim stays one tap
        ways = ways_of(state, p)
        made = {"choices": ways} if len(ways) > 1 else {}
        out = [dict({"type": "claim", "player": p, "story_type": t}, **made) for t in state["stories"]]
        if can_take(page, STAR):
            out.append(dict({"type": "claim", "player": p, "story_type": STAR}, **made))
        out += [dict({"type": "advertise", "player": p, "ad_type": a, "enter": ["value"]}, **made)
                for a in state["ads"]]
        spaces = reserve_spaces(state, p)
        out += [{"type": "reserve", "player": p, "cards": k, "space": space} for k in RESERVE_PLAY
                for space in range(1, RESERVE_SPACES + 1)
                if cash_of(state, p) >= CARD_PRICE * k and room_for(spaces[space - 1:space], k)
                and reserve_held(state, p) + k <= RESERVE_MOST]
        if cash_of(state, p) >= CARD_PRICE * RESERVE_SPACES and all(held < RESERVE_PER_SPACE for held in spaces):
            out.append({"type": "reserve", "player": p, "cards": RESERVE_SPACES, "space": BOTH_SPACES})
        return out + [{"type": "exchange", "player": p}]
    if step == "call":
        c = state["claim"]["player"]
        out = [{"type": "verdict", "signal": code} for code in SIGNALS]
        return out + [{"type": "lines_down", "player": q} for q in others_from_left(state, c)
                      if cash_of(state, q) >= CARD_PRICE * HAND_SIZE]
    if step == "place":
        c = state["claim"]["player"]
        out = []
        if state["verdict"]["signal"] == THREE_STARS:
            out.append(_place(c, THREE_STAR))
        out.append(_place(c, state["claim"]["story_type"]))
        if state["verdict"]["signal"] == PRESS:
            out.append({"type": "go_to_press", "player": c})
        return out
    return []


def _place(player: int, slot: str) -> dict[str, Any]:
    """The offer to take the story for ``slot``, its printed-value box named for that story: after
    THREE STARS two such boxes show at once, and both were "Printed value ($)"."""
    return {"type": "place", "player": player, "slot": slot, "enter": ["value"],
            "labels": {"value": "Printed value of the %s story ($)" % kind_words(slot)}}


def view(state: State) -> dict[str, Any]:
    if not state.get("started"):
        return {"game": NAME, "title": TITLE, "started": False}
    balances = balances_of(state)
    players = []
    for i, pl in enumerate(state["players"]):
        page = pl["page"]
        slots = []
        for kind in page:
            spaces = spaces_of(state, kind)
            if kind == STAR and len(page[THREE_STAR]) >= MOST_THREE_STARS:
                spaces = 0
            if kind == THREE_STAR:
                spaces = THREE_STAR_SPACES + (1 if len(page[THREE_STAR]) >= MOST_THREE_STARS else 0)
            slots.append({"slot": kind, "name": kind_words(kind), "spaces": spaces,
                          "stories": [_shown(state, s) for s in page[kind]], "advertisement": kind in state["ads"]})
        cash = balances.get(account(i), 0)
        on_page = sum(s["value"] for s in page_stories(page))
        unsold = sum(unsold_value(s["value"]) for s in pl["kept"])
        players.append({"seat": i, "name": pl["name"], "colour": pl["colour"], "account": account(i),
                        "cash": cash, "out": pl["out"], "page": slots, "kept": [_shown(state, s) for s in pl["kept"]],
                        "reserve": reserve_held(state, i), "reserve_spaces": reserve_spaces(state, i),
                        "reserve_most": RESERVE_MOST, "reserve_space_most": RESERVE_PER_SPACE,
                        "stories_value": on_page, "unsold_value": unsold,
                        "worth": cash + on_page + unsold, "page_full": page_full(state, page)})
    sale = None
    if state["sale"] is not None:
        sl = state["sale"]
        sale = {"seller": sl["seller"], "seller_name": _name(state, sl["seller"]), "story": _shown(state, sl["story"]),
                "price": sl["story"]["value"], "why": sl["why"], "asking": sl["asking"],
                "asking_name": _name(state, sl["asking"]) if sl["asking"] is not None else None}
    verdict = None
    if state["verdict"] is not None:
        code = state["verdict"]["signal"]
        verdict = dict(state["verdict"], message=SIGNALS[code][0], instruction=SIGNALS[code][1])
    last_verdict = state.get("last_verdict")        # the newest, in force or done with
    if last_verdict is not None:
        code = last_verdict["signal"]
        last_verdict = dict(last_verdict, message=SIGNALS[code][0], instruction=SIGNALS[code][1])
    return {
        "game": NAME, "title": TITLE, "started": True, "players": players,
        "bank": balances.get(BANK, 0), "money_total": ledger.total(balances),
        "turn": state["turn"], "turn_name": _name(state, state["turn"]), "step": current_step(state),
        "waiting_for": waiting_for(state) if state["phase"] != "over" else None,
        "claim": state["claim"], "verdict": verdict, "last_verdict": last_verdict, "sale": sale,
        # each signal's message, for the buttons a table with no phone enters it by
        "signals": {code: words for code, (words, _, _) in SIGNALS.items()},
        "debts": [dict(d, name=_name(state, d["player"])) for d in state["debts"]],
        "last": state["last"], "short_of_cash": state["short_of_cash"],
        "story_cards": STORY_CARDS,
        "prices": {"card": CARD_PRICE, "extra": FEES["EXTRA"], "synd": FEES["SYND"], "press_bonus": PRESS_BONUS},
        "press": state["press"], "totals": state["totals"], "winners": state["winners"],
        "winner_names": [_name(state, w) for w in state["winners"]] if state["winners"] else None,
    }


def _shown(state: State, story: dict[str, Any]) -> dict[str, Any]:
    """A story as the screen shows it: with its words ("sport story", "advertisement"), the
    engine's, so the screen never calls an advertisement a story."""
    return dict(story, words=story_words(state, story))
