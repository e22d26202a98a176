"""docs/new-game.md's reference: every signature a game touches, made from the code.

A plug-in author reads docs/new-game.md alone, so what it says of ``controller.games.kit`` (the
declaration's fields, the helpers' signatures and docstrings, the refusals, the panel facts, the
rules of the contract) and of the helpers a screen imports (web_ui/static/js/dom.js and
offers.js) is written from the code, not by hand: `make docs` (`python -m controller.kit_doc`)
rewrites the part after the MARKER line, and a test fails when it differs from the code.
Signatures are read from the source as written (``State``, not ``dict[str, Any]``).
"""

import ast
import dataclasses
import functools
import inspect
import json
import pprint
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

from .games import base, conformance, game, kit

MARKER = "<!-- the reference below is made by `make docs` from controller/games/kit.py: edit the code, not this -->"
REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "new-game.md"
SCREEN_HELPERS = (("dom.js", ("h", "num", "dollars", "signed", "who", "swatch", "title", "words", "fill")),
                  ("offers.js", ("actionOf", "playerName")))
JS = REPO / "web_ui" / "static" / "js"
MODEL = REPO / "tests" / "sixth_game"       # the model game: its files are shown whole
MODEL_FILES = (("race_to_three/__init__.py", "python"), ("race_to_three/screen.js", "js"))

# kit.__all__, by what a game does with each
HELPERS = ("guard", "option", "check_players", "check_declared", "result_of", "seat", "player_name",
           "say_events", "and_list", "or_list", "quoted", "is_int", "whole", "copied")
SHAPES = ("State", "Event", "Action", "Players")
RESULTS = ("Result", "Standing", "TeamStanding")
ERRORS = ("GameError", "NotSetUp", "GameOver", "NotAnAction", "UnknownAction")


def _tree(module: Any) -> tuple[ast.Module, str]:
    return _parsed(module.__name__)


@functools.lru_cache(maxsize=None)
def _parsed(name: str) -> tuple[ast.Module, str]:
    """A module's source and its syntax tree, read once."""
    source = inspect.getsource(sys.modules[name])
    return ast.parse(source), source


def _defs(module: Any, name: str) -> list[ast.AST]:
    """Every top-level definition of ``name`` in ``module`` (a function's overloads come first)."""
    tree, _ = _tree(module)
    out: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            out.append(node)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            out.append(node)
    return out


def _signature(node: ast.FunctionDef, name: str | None = None) -> str:
    returns = " -> %s" % ast.unparse(node.returns) if node.returns else ""
    return "%s(%s)%s" % (name or node.name, ast.unparse(node.args), returns)


def _doc(obj: Any) -> str:
    return textwrap.dedent(inspect.getdoc(obj) or "").strip()


def _first_paragraph(obj: Any) -> str:
    return " ".join(_doc(obj).split("\n\n")[0].split())


def _comment(source: str, line: int) -> str:
    """The comment at the end of line ``line`` (1-based) of ``source``, if any."""
    text = source.splitlines()[line - 1]
    return text.split("  # ", 1)[1].strip() if "  # " in text else ""


def _function(name: str) -> str:
    obj = getattr(kit, name)
    module = sys.modules[obj.__module__]
    nodes = [n for n in _defs(module, name) if isinstance(n, ast.FunctionDef)]
    overloads = [n for n in nodes if any(ast.unparse(d) == "overload" for d in n.decorator_list)]
    shown = overloads[:1] or nodes[-1:]
    return "#### `%s`\n\n```python\n%s\n```\n\n%s\n" % (name, "\n".join(_signature(n) for n in shown), _doc(obj))


def _game() -> str:
    tree, source = _tree(game)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    rows = []
    body = cls.body
    for i, node in enumerate(body):
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        after = body[i + 1] if i + 1 < len(body) else None
        said = (" ".join(after.value.value.split()) if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str) else _comment(source, node.lineno))
        default = "required" if node.value is None else "`%s`" % ast.unparse(node.value).replace("|", "\\|")
        if node.value is not None and "default_factory=dict" in default:
            default = "`{}`"
        rows.append("| `%s` | `%s` | %s | %s |" % (node.target.id, ast.unparse(node.annotation).replace("|", "\\|"),
                                                  default, said.replace("|", "/")))
    return ("### The declaration: `Game`\n\n%s\n\n`Game(**fields)` takes every field by keyword.\n\n"
            "| field | type | default | what it is |\n| --- | --- | --- | --- |\n%s\n" % (_first_paragraph(game.Game),
                                                                                    "\n".join(rows)))


def _shapes() -> str:
    lines = ["### The shapes a game's functions take and give", ""]
    for name in SHAPES:
        module = game if name == "Players" else base
        _, source = _tree(module)
        node = _defs(module, name)[0]
        assert isinstance(node, ast.Assign)
        lines.append("- `%s = %s`%s" % (name, ast.unparse(node.value),
                                        ": " + _comment(source, node.lineno) if _comment(source, node.lineno) else ""))
    for name in RESULTS:
        node = _defs(base, name)[0]
        assert isinstance(node, ast.ClassDef)
        fields = ["%s: %s" % (ast.unparse(n.target), ast.unparse(n.annotation))
                  for n in node.body if isinstance(n, ast.AnnAssign)]
        lines.append("- `%s`: a dict of `%s`. %s" % (name, ", ".join(fields), _first_paragraph(getattr(kit, name))))
    return "\n".join(lines) + "\n"


def _errors() -> str:
    lines = ["### The refusals", "", "Each is a `GameError`: the panel shows its sentence (HTTP 422).", ""]
    for name in ERRORS:
        lines.append("- `%s`: %s" % (name, _first_paragraph(getattr(kit, name))))
    lines.append("- `NOT_AN_ACTION` = %s" % json.dumps(kit.NOT_AN_ACTION, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _options_and_panel() -> str:
    lines = ["### Option kinds and panel facts", "",
             "`option(kind=...)` is one of `KINDS`: %s." % ", ".join("`%s`" % k for k in kit.KINDS), "",
             "The panel facts a game may declare (`panel={...}`), and in `PANEL_DEFAULTS` what a game that "
             "declares less gets:", "",
             "```python", "PANEL_DEFAULTS = " + pprint.pformat(kit.PANEL_DEFAULTS, width=100, sort_dicts=False), "```", "", "```text",
             _doc(base.panel), "```"]
    return "\n".join(lines) + "\n"


def _rules() -> str:
    lines = ["### The contract, rule by rule (the conformance kit)", "",
             "`RULES`, in the order the kit checks them, each a `Rule` (%s):" % ", ".join(
                 f.name for f in dataclasses.fields(kit.Rule)), "",
             "| rule | a game keeps it when | to meet it |", "| --- | --- | --- |"]
    for rule in kit.RULES:
        lines.append("| `%s` | %s | %s |" % (rule.name, rule.says.replace("|", "/"), rule.how.replace("|", "/")))
    [cls] = [n for n in _defs(conformance, "Kit") if isinstance(n, ast.ClassDef)]
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    lines += ["", "```python", _signature(methods["__init__"], "Kit").replace("self, ", "").replace(" -> None", ""),
              _signature(methods["check"], "Kit.check").replace("self", ""),
              _signature(methods["findings"], "Kit.findings").replace("self, ", ""),
              _signature(methods["played"], "Kit.played").replace("self", ""),
              _signature(next(n for n in _defs(conformance, "check") if isinstance(n, ast.FunctionDef))), "```", "",
              "`Kit`: %s" % _first_paragraph(kit.Kit), "",
              "`Kit.check()`: %s" % _first_paragraph(kit.Kit.check), "",
              "`Kit.findings(rule)`: %s" % _first_paragraph(kit.Kit.findings), "",
              "`Kit.played()`: %s" % _first_paragraph(kit.Kit.played), "",
              "`Play`: %s" % _first_paragraph(kit.Play), "",
              "`check(game)`: %s" % _first_paragraph(kit.check), "",
              "`Finding`: %s Its text names the game, the rule and how to meet it." % _first_paragraph(kit.Finding),
              "", "`Unreached`: %s" % _first_paragraph(kit.Unreached)]
    return "\n".join(lines) + "\n"


EXPORT = re.compile(r"^export function (\w+)\(([^)]*)\)", re.M)


def js_helpers(sources: dict[str, str]) -> str:
    """The screen's helpers from their source (file name -> text): each export's signature and
    the comment above it. A helper listed without a comment is an error: write one."""
    lines = ["### What a screen imports", "",
             "A screen imports these from `../dom.js` and `../offers.js` (web_ui/static/js):", ""]
    for file, names in SCREEN_HELPERS:
        text = sources[file]
        found = {m.group(1): m for m in EXPORT.finditer(text)}
        for name in names:
            if name not in found:
                raise ValueError("%s exports no function %s" % (file, name))
            m = found[name]
            above = text[:m.start()].rstrip("\n").splitlines()
            said: list[str] = []
            while above and above[-1].startswith("//"):
                said.insert(0, above.pop()[2:].strip())
            if not said:
                raise ValueError("%s's %s has no comment above it to document it by" % (file, name))
            lines.append("- `%s(%s)` (%s): %s" % (name, m.group(2), file, " ".join(said)))
    return "\n".join(lines) + "\n"


def model(sources: dict[str, str]) -> str:
    """The model game's files, whole."""
    lines = ["### The model game: Race to Three", "",
             "Its package beside `pyproject.toml` (above), as `tests/sixth_game/` has it; it passes the kit.", ""]
    for name, lang in MODEL_FILES:
        lines += ["`%s`:" % name, "", "```%s" % lang, sources[name].rstrip("\n"), "```", ""]
    return "\n".join(lines)


def reference(sources: dict[str, str]) -> str:
    """The whole generated part of docs/new-game.md (``sources``: the screen helpers' and the
    model game's files, by name)."""
    parts = ["## Reference", "",
             "Every name below is imported from `controller.games.kit` (the stable path; the modules behind it "
             "may move), except the screen's helpers at the end. Made from the code by `make docs`.", "",
             model(sources), _game(), _shapes(), "### The helpers", "", *(_function(n) for n in HELPERS), _errors(),
             _options_and_panel(), _rules(), js_helpers(sources)]
    return "\n".join(parts)


def document(text: str, sources: dict[str, str]) -> str:
    """docs/new-game.md's ``text`` with everything after the marker made again (ValueError when
    the text has no marker line)."""
    head, found, _ = text.partition(MARKER)
    if not found:
        raise ValueError("there is no line %r to write the reference after" % MARKER)
    return head + MARKER + "\n\n" + reference(sources)


def sources() -> dict[str, str]:
    """The files the reference quotes, by name: the screen's helpers and the model game."""
    out = {file: (JS / file).read_text(encoding="utf-8") for file, _ in SCREEN_HELPERS}
    out.update((name, (MODEL / name).read_text(encoding="utf-8")) for name, _ in MODEL_FILES)
    return out


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or [str(DOC)])[0])
    text = document(path.read_text(encoding="utf-8"), sources())
    path.write_text(text, encoding="utf-8")
    print("wrote %s's reference (%d bytes)" % (path.name, len(text)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
