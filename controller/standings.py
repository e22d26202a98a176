"""A game's final table: who played, what each ended with (money or score), and who won.

An engine may define ``standings(state) -> [{"name", "score", "winner"}, ...]`` and is then
taken at its word. Otherwise the table is read off the engine's view, which every engine has,
using the shapes the panel's views share: a "players" list of dicts with a "name" and a number
under worth/score/total/points/money/cash/balance/sold (the first found: a game counted at the
end, like SCOOP's cash plus stories, is scored by that count, not by the cash alone), a "balances"/"money"/"scores" dict by name,
SCAN's sides ("columns" and "race"), and the winner as "winners"/"winner_names" (names, seats
or side names) or "winner"/"winner_name".
"""

SCORE_KEYS = ("worth", "score", "total", "points", "money", "cash", "balance", "sold")
SCORE_MAPS = ("balances", "money", "scores")
WINNER_KEYS = ("winner_names", "winners", "winner_name", "winner")


def final_table(engine, state):
    """{"winners": [names], "standings": [{"name", "score", "winner"}], "view": the final view}."""
    view = engine.view(state)
    if hasattr(engine, "standings"):
        rows = _clean(engine.standings(state))
    else:
        rows = from_view(view)
    return {"winners": [r["name"] for r in rows if r["winner"]], "standings": rows, "view": view}


def _number(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _clean(rows):
    return [{"name": str(r["name"]), "score": _number(r.get("score")), "winner": bool(r.get("winner"))}
            for r in rows]


def from_view(view):
    names, scores, sides = [], {}, {}
    for p in view.get("players") or []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            names.append(p["name"])
            for key in SCORE_KEYS:
                if _number(p.get(key)) is not None:
                    scores[p["name"]] = p[key]
                    break
    for col in view.get("columns") or []:
        if isinstance(col, dict) and isinstance(col.get("side"), str) and isinstance(col.get("players"), list):
            sides[col["side"]] = [str(n) for n in col["players"]]
    if not names:
        names = [n for members in sides.values() for n in members]
    for row in view.get("race") or []:
        if isinstance(row, dict) and row.get("side") in sides and _number(row.get("total")) is not None:
            for n in sides[row["side"]]:
                scores.setdefault(n, row["total"])
    for key in SCORE_MAPS:
        table = view.get(key)
        if isinstance(table, dict):
            for n in names:
                if n not in scores and _number(table.get(n)) is not None:
                    scores[n] = table[n]
    winners = set()
    for key in WINNER_KEYS:
        raw = view.get(key)
        for w in raw if isinstance(raw, list) else [raw]:
            if _number(w) is not None and 0 <= w < len(names):
                winners.add(names[w])
            elif isinstance(w, str) and w in names:
                winners.add(w)
            elif isinstance(w, str) and w in sides:
                winners.update(sides[w])
    return [{"name": n, "score": scores.get(n), "winner": n in winners} for n in names]
