"""The house's floors, checked: no import circles between modules, the controller never imports
the panel (but for the command line that serves it), and the pure floor (decoder, protocol, the host's link session, oracles, engines, the event vocabulary) imports
nothing that touches pins, ports, files, sockets or clocks."""

import ast
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
    for package in ("controller", "web_ui"):
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


@pytest.mark.slow
def test_the_controller_never_imports_the_panel():
    """Only the command line (controller/cli.py, which builds and serves the panel) sits above it."""
    edges = graph()
    assert ["%s imports %s" % (m, t) for m in sorted(edges) if m.startswith("controller") and m != "controller.cli"
            for t in sorted(edges[m]) if t.startswith("web_ui")] == []


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
