"""What the table reads about a move of Get the Scoop!: the cards turned up, the Journalists'
steps, pushes and jumps, the police and the badge, in one sentence; and the words for players,
pieces and cards that rules.py's refusals say them in."""

from typing import Sequence

from ..base import Action, Event, State, and_list
from . import board as grid


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    out = []
    for ev in events:
        kind = ev["type"]
        if kind == "revealed":
            # the bluffers after the cards, in words: "(Dan's 4 of spades on Protester 4) (Cat
            # bluffed)", two brackets in a row, read as one aside after another
            bluffers = and_list([player_name(state, p) for p in ev["bluffed"]]) if ev.get("bluffed") else ""
            if not ev["plays"]:
                out.append("round %d: nobody directed a Protester%s" % (
                    ev["round"], " (%s bluffed)" % bluffers if bluffers else ""))
            else:
                cards = ["%s's %s of %s on Protester %d" % (player_name(state, c["player"]), _rank_words(c["rank"]),
                                                            c["suit"], c["protester"]) for c in ev["plays"]]
                out.append("round %d: the Protesters moved (%s)%s" % (
                    ev["round"], ", ".join(cards), ", and %s bluffed" % bluffers if bluffers else ""))
            # a Protester already in a van that stays wins even when none was directed
            if ev.get("winners"):
                names = [player_name(state, w) for w in ev["winners"]]
                out.append("a Protester is in %s camera van%s: %s win%s" % (
                    and_list(["%s's" % n for n in names]), "s" if len(names) > 1 else "",
                    and_list(names), "" if len(names) > 1 else "s"))
        elif kind == "checked":
            if ev["winners"]:
                names = [player_name(state, w) for w in ev["winners"]]
                out.append("round %d: a Protester is in %s camera van%s: %s win%s" % (
                    ev["round"], and_list(["%s's" % n for n in names]), "s" if len(names) > 1 else "",
                    and_list(names), "" if len(names) > 1 else "s"))
            else:
                out.append("round %d: no camera van holds a Protester" % ev["round"])
        elif kind == "journalist_moved":
            out.append("%s: %s (%d action%s left)" % (
                player_name(state, ev["player"]), _moved_words(state, ev), ev["actions_left"],
                "" if ev["actions_left"] == 1 else "s"))
        elif kind == "drew":
            out.append("%s %sdrew a card (%d action%s left)" % (
                player_name(state, ev["player"]), "discarded %d and " % ev["discard"] if ev["discard"] else "",
                ev["actions_left"], "" if ev["actions_left"] == 1 else "s"))
        elif kind == "journalist_done":
            out.append("%s's Journalists' turn is over" % player_name(state, ev["player"]))
        elif kind == "police_moved":
            out.append("round %d: %s moved the police" % (ev["round"], player_name(state, state["first"])))
            if ev.get("blocked"):
                out.append("Officer%s %s blocked" % ("s" if len(ev["blocked"]) > 1 else "",
                                                     and_list([o[1:] for o in ev["blocked"]])))
        elif kind == "round_ended":
            out.append("%s has the First Player badge" % player_name(state, ev["first"]))
    return "; ".join(out)


def player_name(state: State, p: int) -> str:
    name: str = state["players"][p]["name"]
    return name


def piece_words(state: State, piece: str) -> str:
    if grid.is_protester(piece):
        return "Protester %s" % piece[1:]
    if grid.is_police(piece):
        return "Police Officer %s" % piece[1:]
    colour = piece.rstrip("0123456789")
    owner = next((p["name"] for p in state["players"] if p["colour"] == colour), colour)
    return "a Journalist of %s's (%s)" % (owner, colour)


def card_played_twice(state: State, p: int, first: int, rank: str, suit: str) -> str:
    """The refusal of a card turned up by seat ``p`` when seat ``first`` turned up the same one in
    this Protesters' turn: the deck is one poker deck, Ace to 9 of four suits, one of each card."""
    return "%s: %s already played the %s of %s this turn, and the deck has only one" % (
        player_name(state, p), player_name(state, first), _rank_words(rank), suit)


def sides_refused(label: str, sides: Sequence[str], suits: Sequence[str], twice: str | None, sent: object) -> str:
    """Why the board's sides were refused: a suit named twice, or not four suits for its four sides."""
    said = "%s is on two sides" % twice if twice else "not %s" % (repr(sent)[:80],)
    return "%s takes each of the four suits (%s) once, one for each side (%s): %s" % (
        label, ", ".join(suits), ", ".join(sides), said)


def _moved_words(state: State, ev: Event) -> str:
    frm, to = ev["moves"][-1][1], ev["moves"][-1][2]
    if ev["how"] == "push":
        pushed = ev["moves"][0]
        return "a Journalist stepped %s to %s, pushing %s to %s" % (
            frm, to, piece_words(state, pushed[0]), pushed[2])
    return "a Journalist %s %s to %s" % ("jumped" if ev["how"] == "jump" else "stepped", frm, to)


def _rank_words(rank: str) -> str:
    return "ace" if rank == "A" else rank
