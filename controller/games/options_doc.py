"""docs/games.md's tables of options, made from the games' own declarations.

Each game's options are declared once, in its package (base.option); the start form, the API
document and the checks are made from them, and so is the documentation: `make docs` (`newsdesk
games --write-doc docs/games.md`) rewrites the part of docs/games.md after the MARKER line, and
a test fails when that part differs from what the declarations say now. Only the games this
distribution declares are listed: a game installed beside newsdesk documents itself.
"""

from typing import Any

from . import base, registry
from .game import Game

MARKER = "<!-- the options below are made by `make docs` from each game's declaration: edit the game, not this -->"


def our_games() -> list[Game]:
    """The games this distribution declares, in the start form's order."""
    out = []
    for name, point in registry.found().items():
        dist = getattr(point, "dist", None)
        if dist is not None and dist.name == registry.SHIPPED:
            out.append(registry.load(name))
    return out


def _number(value: int) -> str:
    return "{:,}".format(value)


def _default(opt: dict[str, Any]) -> str:
    value = opt["default"]
    if value is None:
        text = "—"
    elif isinstance(value, (list, tuple)):
        text = "`%s`" % ", ".join(map(str, value))
    else:
        text = "`%s`" % (value,)
    return text + (" (newsdesk's choice)" if opt["newsdesk"] else "")


def _bounds(opt: dict[str, Any]) -> str:
    kind = opt["kind"]
    if kind in ("integer", "minutes", "counts"):
        return "%s-%s" % (opt["minimum"], opt["maximum"])
    if kind in ("choice", "choices"):
        return ", ".join("`%s`" % c for c in opt["choices"])
    if kind == "names":
        low, high = opt["items"]
        return "%d-%d names" % (low, high)
    if kind == "seat":
        return "a seat"
    return str(kind)            # boolean, datetime, mapping: the kind says it


def section(game: Game) -> str:
    """One game's table of options, and the numbers its offers ask the table to enter."""
    lines = ["### %s (`%s`)" % (game.title, game.name), "",
             "| option | kind | default | bounds / choices | the rule line, then newsdesk's note |",
             "| --- | --- | --- | --- | --- |"]
    for opt in game.options:
        only = base.option_variants(opt)
        name = "`%s`%s%s" % (opt["name"], "" if opt["form"] else " (API only)",
                             " (in %s)" % ", ".join("`%s`" % v for v in only) if only else "")
        # the quote is the rule text's own words; what newsdesk says of them stands outside it
        note = " %s" % opt["help"] if opt.get("help") else ""
        lines.append("| %s | %s | %s | %s | \"%s\"%s |" % (name, opt["kind"], _default(opt), _bounds(opt),
                                                        opt["rule"].replace("|", "/"), note.replace("|", "/")))
    numbers = base.panel(game)["numbers"]
    if numbers:
        lines += ["", "Numbers the table enters: %s." % "; ".join(
            "`%s` %s-%s (%s)" % (field, _number(b["minimum"]), _number(b["maximum"]), b["label"])
            for field, b in numbers.items())]
    return "\n".join(lines) + "\n"


def document(text: str) -> str:
    """docs/games.md's ``text`` with everything after the marker made again (ValueError when the
    text has no marker line)."""
    head, found, _ = text.partition(MARKER)
    if not found:
        raise ValueError("there is no line %r to write the options after" % MARKER)
    return head + MARKER + "\n\n" + "\n".join(section(g) for g in our_games())
