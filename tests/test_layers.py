"""The house's floors, checked: no import circles between modules; the command line (newsdesk/)
sits on top, the panel (web_ui/) under it and the controller under both, which never imports
either; and the pure floor (decoder, protocol, the host's link session, oracles, engines, the
event vocabulary) imports nothing that touches pins, ports, files, sockets or clocks."""

import ast
import functools
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
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
