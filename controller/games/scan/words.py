"""The sentences the table reads about SCAN's moves: what each side took and scored in a hand,
time running out (or the game ended before it did), and who won, with the sides headed as on the scoresheet."""

from ..base import Action, Event, State, and_list
from .rules import SUIT_VALUES, headings


def describe(state: State, action: Action, events: list[Event]) -> str:
    """The move in one short sentence for the table and the Undo button: ``state`` is the game
    as it was before ``action``, ``events`` what the action caused (decide's answer)."""
    labels = _labels(state)
    out: list[str] = []
    for ev in events:
        if ev["type"] == "hand_scored":
            sides: list[str] = []
            for side in (s["name"] for s in state["sides"]):
                counts = ["%d %s" % (ev["taken"][side][suit], suit if ev["taken"][side][suit] > 1 else suit[:-1])
                          for suit in SUIT_VALUES if ev["taken"][side][suit]]
                text = "%s took %s" % (labels[side], ", ".join(counts) if counts else "no cards")
                value, points = ev["values"][side], ev["points"][side]
                text += " and scored %d" % points if value == points else " and scored 0 (cards worth %d)" % value
                sides.append(text)
            out.append("hand %d: %s" % (ev["hand"], "; ".join(sides)))
        elif ev["type"] == "time_up":
            out.append("the game was ended before its time ran out" if ev.get("early") else "time ran out")
        elif ev["type"] == "won":
            totals = dict(state["totals"])
            for e in events:
                if e["type"] == "hand_scored":
                    totals = {s: totals[s] + e["points"][s] for s in totals}
            winners = ev["sides"]
            if len(winners) == 1:
                out.append("%s won with %d" % (labels[winners[0]], totals[winners[0]]))
            elif len({totals[s] for s in winners}) == 1:
                out.append("%s shared the win on %d" % (and_list([labels[s] for s in winners]), totals[winners[0]]))
            else:
                out.append("%s won" % and_list(["%s (%d)" % (labels[s], totals[s]) for s in winners]))
    return "; ".join(out)


def _labels(state: State) -> dict[str, str]:
    """Each side as the scoresheet heads it (rules.headings)."""
    return dict(zip([s["name"] for s in state["sides"]], headings(state["sides"])))
