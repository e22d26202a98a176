"""pytest's rewritten test modules, written once before `make test`'s workers start.

pytest rewrites each test module's ``assert`` statements before importing it (to say what each
side of a failed one held) and keeps the result beside the module, in ``__pycache__``, to be
read again by every later process. Where PYTHONDONTWRITEBYTECODE is set (as on many CI
machines) it keeps nothing, so every worker of every run rewrote every test module again: about
15 CPU-s a process on a 2-core machine (5,500 asserts), three processes a run, before the first
test started. Only the writing is skipped there, not the reading: so this writes them, with
that setting lifted for its own collection only, and the workers then read them.

    python tests/rewritten_once.py        # make bytecode runs it

It collects the test files whose rewritten copy is missing or older than the file, split over
the cores, and returns at once when there are none. A file that fails to collect is left for the
test run to report: this says nothing itself.
"""

import os
import subprocess
import sys
from importlib.metadata import version
from importlib.util import MAGIC_NUMBER, source_hash
from pathlib import Path

import lanes

TESTS = Path(__file__).resolve().parent


def written(path, version):
    """Whether pytest ``version``'s rewritten copy of ``path`` is there for the file as it is now:
    its name and header as that pytest writes and checks them (rewrite.py, a checked-hash pyc of
    PEP 552 with the source's hash), so a file touched but not changed is still written."""
    copy = path.parent / "__pycache__" / f"{path.stem}.{sys.implementation.cache_tag}-pytest-{version}.pyc"
    try:
        with open(copy, "rb") as f:
            header = f.read(16)
    except OSError:
        return False
    return header == MAGIC_NUMBER + b"\x03\x00\x00\x00" + source_hash(path.read_bytes())[:8]


def stale(version, tests=TESTS):
    """The test files (and conftest.py files, which pytest rewrites too) under ``tests`` with no
    fresh copy; the emulated Pi's lane (tests/pi/) is make test-pi's, collected there."""
    files = [p for p in sorted(tests.rglob("*.py"))
             if (p.name.startswith("test_") or p.name == "conftest.py") and "pi" not in p.relative_to(tests).parts[:-1]]
    return [p for p in files if not written(p, version)]


def groups(files, n):
    """``files`` in ``n`` groups of about the same size in bytes, the largest placed first."""
    out = [[] for _ in range(n)]
    sizes = [0] * n
    for path in sorted(files, key=lambda p: p.stat().st_size, reverse=True):
        i = sizes.index(min(sizes))
        out[i].append(path)
        sizes[i] += path.stat().st_size
    return [g for g in out if g]


def main(tests=TESTS):
    todo = stale(version("pytest"), tests)
    if not todo:
        return 0
    files = [p for p in todo if p.name != "conftest.py"] or todo
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    runs = [subprocess.Popen(command + [str(p) for p in group], cwd=tests.parent, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for group in groups(files, lanes.cores())]
    for run in runs:
        run.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
