"""pytest's rewritten test modules written once before the workers (tests/rewritten_once.py),
where PYTHONDONTWRITEBYTECODE would have each worker rewrite them again."""

import os
import subprocess
import sys
from importlib.metadata import version

import pytest
import rewritten_once

PYTEST = version("pytest")
A_TEST = "def test_sum():\n    total = 1 + 1\n    assert total == 2, total\n"


def copy_of(path):
    return path.parent / "__pycache__" / f"{path.stem}.{sys.implementation.cache_tag}-pytest-{PYTEST}.pyc"


@pytest.mark.slow
def test_with_bytecode_writing_off_the_rewritten_tests_are_written_once_and_read_by_the_next_pytest(tmp_path, monkeypatch):
    tests = tmp_path / "tests"
    (tests / "pi").mkdir(parents=True)
    first, second = tests / "test_one.py", tests / "test_two.py"
    for path in (first, second, tests / "pi" / "test_lane.py"):
        path.write_text(A_TEST)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    # as before: a pytest run with bytecode writing off leaves no rewritten copy behind
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(first)], cwd=tmp_path,
                   check=True, capture_output=True)
    assert not copy_of(first).exists()
    assert rewritten_once.stale(PYTEST, tests) == [first, second]     # tests/pi/ is make test-pi's

    assert rewritten_once.main(tests) == 0
    assert copy_of(first).exists() and copy_of(second).exists()
    assert not copy_of(tests / "pi" / "test_lane.py").exists()
    assert rewritten_once.stale(PYTEST, tests) == []
    # the next pytest, with writing still off, reads the copy (what pytest's debug trace says)
    trace = tmp_path / "trace.log"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--debug={trace}", str(first)],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    said = trace.read_text()
    assert f"found cached rewritten pyc for {first}" in said and f"rewriting {first!r}" not in said

    first.write_text(A_TEST + "\n\ndef test_more():\n    assert 2 > 1\n")   # a change is written again
    assert rewritten_once.stale(PYTEST, tests) == [first]
    os.utime(second, None)                                                  # a touch without a change isn't
    assert rewritten_once.stale(PYTEST, tests) == [first]
    rewritten_once.main(tests)
    assert rewritten_once.stale(PYTEST, tests) == []


def test_the_files_are_split_over_the_cores_by_size(tmp_path):
    sizes = {"a": 900, "b": 500, "c": 300, "d": 50}
    paths = {}
    for name, size in sizes.items():
        paths[name] = tmp_path / f"test_{name}.py"
        paths[name].write_text("#" * size)
    groups = rewritten_once.groups(list(paths.values()), 2)
    assert groups == [[paths["a"]], [paths["b"], paths["c"], paths["d"]]]
    assert rewritten_once.groups([paths["a"]], 4) == [[paths["a"]]]
