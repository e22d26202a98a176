"""A test file per module: every module of newsdesk/, controller/ and web_ui/ that a test imports is tested in a
file named after it, so its tests are found where one looks first.

The convention: ``controller/<name>.py`` is tested in ``tests/test_<name>.py``;
``controller/<pkg>/<name>.py`` in ``tests/test_<name>.py`` or ``tests/test_<pkg>_<name>.py`` (the
second where the bare name would be ambiguous: mqtt/bell.py next to hw/bell.py); a game and the
games' own modules in ``tests/games/test_<name>.py``. The exceptions below each say why."""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
PACKAGES = ("newsdesk", "controller", "web_ui")
GAME_PARTS = ("rules", "view", "words", "board")

# Modules with no test file of their own, and why.
EXCEPTIONS = {
    "controller/errors.py": "exceptions only: each is tested where it is raised",
    "controller/audio/errors.py": "exceptions only: each is tested where it is raised",
    "controller/oracles/errors.py": "exceptions only: each is tested where it is raised",
    "controller/serial/errors.py": "exceptions only: each is tested where it is raised",
    "web_ui/errors.py": "tested in tests/test_web_ui_errors.py: a test_errors.py would read as the "
                        "exception modules' above",
}



def exempt(module, reasons):
    """Why ``module`` (a repo path) needs no test file of its own, or None."""
    path = Path(module)
    if path.name == "__init__.py" and not is_game(path):
        return "a package's __init__: its modules are tested, not the package"
    if is_game(path.parent) and path.stem in GAME_PARTS:
        return "a game's part: tests/games/test_<game>.py tests the game whole"
    return reasons.get(module) or next((why for prefix, why in reasons.items()
                                        if prefix.endswith("/") and module.startswith(prefix)), None)


def is_game(path):
    """True for a game package (controller/games/<game>/) or its __init__.py."""
    if path.name == "__init__.py":
        path = path.parent
    return len(path.parts) == 3 and path.parts[:2] == ("controller", "games")


def files_named_for(module):
    """The test files that would be ``module``'s by the convention."""
    path = Path(module)
    name = path.parent.name if path.name == "__init__.py" else path.stem
    if path.parts[:2] == ("controller", "games"):
        return [TESTS / "games" / ("test_%s.py" % name)]
    files = [TESTS / ("test_%s.py" % name)]
    if len(path.parts) > 2 and path.name != "__init__.py":
        files.append(TESTS / ("test_%s_%s.py" % (path.parent.name, name)))
    return files


def module_file(dotted):
    """The repo path of an importable module of ours (``controller.dial.trace``), or None."""
    base = REPO.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate.relative_to(REPO).as_posix()
    return None


def imported_modules(source):
    """The repo paths of our modules that ``source`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + ["%s.%s" % (node.module, alias.name) for alias in node.names]
        for dotted in names:
            if dotted.split(".")[0] in PACKAGES and module_file(dotted):
                found.add(module_file(dotted))
    return found


def untested(modules, reasons):
    """The modules with neither a test file by the convention nor a reason not to have one."""
    return sorted(m for m in modules
                  if not exempt(m, reasons) and not any(f.is_file() for f in files_named_for(m)))


def modules_the_tests_import():
    return set().union(*(imported_modules(f.read_text(encoding="utf-8")) for f in TESTS.rglob("test_*.py")))


def test_every_module_a_test_imports_has_a_test_file_named_after_it():
    missing = untested(modules_the_tests_import(), EXCEPTIONS)
    assert not missing, "no test file named after %s (tests/test_<name>.py, see this file's docstring)" % missing


def test_a_module_without_its_test_file_is_caught():
    assert imported_modules("from controller.dial import tracegen\nimport controller.hw.bell") == {
        "controller/dial/__init__.py", "controller/dial/tracegen.py", "controller/hw/bell.py"}
    assert untested({"controller/hw/unwired.py", "controller/dial/tracegen.py"}, EXCEPTIONS) == [
        "controller/hw/unwired.py"]
    assert untested({"controller/mqtt/bell.py", "controller/games/scan/rules.py"}, {}) == []


def test_each_exception_names_a_module_that_is_still_without_its_test_file():
    for module in EXCEPTIONS:
        assert (REPO / module).exists(), "%s is gone: take it off the list" % module
        if not module.endswith("/"):
            assert not any(f.is_file() for f in files_named_for(module)), \
                "%s has its test file now: take it off the list" % module
