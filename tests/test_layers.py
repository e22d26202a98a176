"""The house's floors, checked: no import circles between modules; the command line (newsdesk/)
sits on top, the panel (web_ui/) under it and the controller under both, which never imports
either, as docs/architecture.md's picture of the top-level folders draws them (read here and
compared with the imports); and the pure floor (decoder, protocol, the host's link session,
oracles, engines, the event vocabulary) imports nothing that touches pins, ports, files, sockets
or clocks."""

import ast
import functools
import re
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARCHITECTURE = REPO / "docs" / "architecture.md"
PICTURE_HEADING = "## The top-level folders and their arrows"
# The typed floor's one home is pyproject.toml's [tool.mypy] files; the pure floor below is part of it.
TYPED = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
PURE = ["controller/events.py", "controller/errors.py", "controller/dial/decoder.py", "controller/dial/dialmaps.py",
        "controller/serial/protocol.py", "controller/serial/session.py", "controller/serial/errors.py",
        "controller/oracles", "controller/games", "controller/walcheck.py"]
PURE_STDLIB = {"random", "copy", "math", "re", "typing", "datetime", "collections", "itertools", "functools", "dataclasses",
               "importlib", "dialmaps",   # dialmaps: the decoder's import under MicroPython (the Pico's flat folder)
               "logging",                 # a pure module may say what it saw; where it goes is the adapters' business
               "struct",                  # bytes it is handed, read as the format they are in (walcheck)
               "pickle",                  # in memory only: a game's state copied (games/base.py's copied)
               "json",                    # in memory only: a game's events checked as the store keeps them (conformance)
               "contextlib"}              # a with-block's set-up and tidy-up (games/registry.py's only)


def modules():
    out = {}
    for package in ("newsdesk", "controller", "web_ui"):
        for path in (REPO / package).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def imports(name, path, known):
    """Every module ``name`` imports, at the top or inside a function: (imported name, line). For
    "from X import y" that is X.y when X.y is one of ``known`` (a module), else X."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                full = "%s.%s" % (base, alias.name)
                yield (full if full in known else base), node.lineno


def graph():
    mods = modules()
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        for target, _ in imports(m, path, mods):
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target != m and not m.startswith(target + "."):
                edges[m].add(target)
    return edges


def cycles(edges):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.mark.slow
def test_no_module_imports_its_way_back_to_itself():
    assert cycles(graph()) == []


def test_the_cycle_check_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def folders():
    """The repository's top-level folders that hold Python, but tests/ and bench/ (which may import
    anything: they check and measure the rest)."""
    return sorted(p.name for p in REPO.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and p.name not in {"tests", "bench"}
                  and next(p.rglob("*.py"), None) is not None)


@functools.cache
def folder_imports():
    """For each top-level folder, the other top-level folders its files import (absolute imports,
    at the top or inside a function), each with the first file and line that does: {(from, to): where}."""
    tops, found = folders(), {}
    for top in tops:
        for path in sorted((REPO / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:   # relative: never leaves its folder
                    names = [node.module or ""]
                else:
                    continue
                for name in names:
                    head = name.split(".")[0]
                    if head in tops and head != top:
                        found.setdefault((top, head), "%s:%d" % (path.relative_to(REPO), node.lineno))
    return found


def strays(imports, below, above):
    return ["%s imports %s (%s)" % (frm, to, where) for (frm, to), where in sorted(imports.items())
            if frm == below and to in above]


@pytest.mark.slow
def test_the_controller_imports_neither_the_panel_nor_the_command_line():
    """The command line (newsdesk/cli.py) builds the controller and the panel and serves them; the
    controller is what both stand on, so an arrow from it back up would tie the floor to a room."""
    assert strays(folder_imports(), "controller", {"web_ui", "newsdesk"}) == []


@pytest.mark.slow
def test_the_panel_never_imports_the_command_line():
    assert strays(folder_imports(), "web_ui", {"newsdesk"}) == []


def test_an_arrow_back_up_is_found():
    imports = {("controller", "web_ui"): "controller/cli.py:28", ("web_ui", "controller"): "web_ui/api.py:3"}
    assert strays(imports, "controller", {"web_ui", "newsdesk"}) == ["controller imports web_ui (controller/cli.py:28)"]


def picture(text):
    """The folders docs/architecture.md draws, top to bottom, each with the folders its arrow lines
    name: [(folder, {folder, ...})]. The picture is the first fenced block under its heading; a
    folder's line starts with its name ("newsdesk/"), the lines under it are its arrows ("→ web_ui/
    controller/", or "→ (none)")."""
    assert PICTURE_HEADING in text, "docs/architecture.md has no picture of its folders under %r" % PICTURE_HEADING
    after = text.split(PICTURE_HEADING, 1)[1]
    block = after.split("```", 2)[1]
    drawn = []
    for line in block.splitlines():
        folder = re.match(r"^ (\w+)/\s", line)
        arrow = re.match(r"^\s+→(.*)$", line)
        if folder:
            drawn.append((folder.group(1), None))
        elif arrow and drawn:     # a long list may go on on a second arrow line
            drawn[-1] = (drawn[-1][0], (drawn[-1][1] or set()) | set(re.findall(r"(\w+)/", arrow.group(1))))
    return drawn


def differences(drawn, found):
    """Sentences for what the picture ``drawn`` gets wrong about the imports ``found`` ({(from, to):
    where}, as folder_imports gives them); none when they agree."""
    said, order = [], [folder for folder, _ in drawn]
    arrows = {(folder, to) for folder, tos in drawn for to in tos or ()}
    for folder, tos in drawn:
        if tos is None:
            said.append("%s/ has no arrow line (write \"→ (none)\" if it imports no other folder)" % folder)
    for frm, to in sorted(found.keys() - arrows):
        said.append("%s/ imports %s/ (%s), but the picture draws no such arrow" % (frm, to, found[frm, to]))
    for frm, to in sorted(arrows - found.keys()):
        said.append("the picture draws %s/ → %s/, but no file in %s/ imports %s/" % (frm, to, frm, to))
    for frm, to in sorted(arrows):
        if frm in order and to in order and order.index(to) < order.index(frm):
            said.append("the arrow %s/ → %s/ points up: draw %s/ below %s/" % (frm, to, to, frm))
    return said


@pytest.mark.slow
def test_the_architecture_picture_draws_every_folder_and_the_arrows_the_imports_make():
    drawn = picture(ARCHITECTURE.read_text())
    assert sorted(folder for folder, _ in drawn) == folders()
    assert differences(drawn, folder_imports()) == []


def test_a_picture_that_misdraws_the_arrows_is_told_so():
    drawn = picture(PICTURE_HEADING + "\n```\n web_ui/  the panel\n   → (none)\n controller/  the rest\n"
                    "   → web_ui/\n deploy/  installs\n```\n")
    assert drawn == [("web_ui", set()), ("controller", {"web_ui"}), ("deploy", None)]
    assert differences(drawn, {("web_ui", "controller"): "web_ui/api.py:3"}) == [
        "deploy/ has no arrow line (write \"→ (none)\" if it imports no other folder)",
        "web_ui/ imports controller/ (web_ui/api.py:3), but the picture draws no such arrow",
        "the picture draws controller/ → web_ui/, but no file in controller/ imports web_ui/",
        "the arrow controller/ → web_ui/ points up: draw web_ui/ below controller/"]


@pytest.mark.slow
def test_the_pure_floor_imports_only_the_pure_floor_and_plain_stdlib():
    mods = modules()
    pure = {m for m, path in mods.items()
            if any(str(path.relative_to(REPO)).startswith(p) for p in PURE)}
    strays = []
    for m in sorted(pure):
        for target, line in imports(m, mods[m], mods):
            if target in pure or target.split(".")[0] in PURE_STDLIB:
                continue
            strays.append("%s:%d imports %s" % (m, line, target))
    assert strays == []


def test_the_pure_floor_is_typed():
    """Every pure module is one mypy checks (pyproject.toml's list, read, not restated here)."""
    assert [p for p in PURE if p not in TYPED] == []
