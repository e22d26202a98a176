"""`make flash`: what it would copy, and that it copies one copy of the shared logic."""

import subprocess
import sys

from pico_emulator import REPO, TOOLS, manifest


def test_the_dry_run_copies_every_file_flat_then_resets():
    run = subprocess.run([sys.executable, str(TOOLS / "flash.py"), "--dry-run", "--port", "/dev/null"],
                         capture_output=True, text=True, cwd=REPO)
    assert run.returncode == 0, run.stderr
    words = run.stdout.split()
    assert words[1:5] == ["-m", "mpremote", "connect", "/dev/null"]
    for name, path in manifest():
        assert str(REPO / path) in words
        assert words[words.index(str(REPO / path)) + 1] == ":" + name
    assert words[-1] == "reset"


def test_the_shared_modules_are_flashed_from_where_the_pi_imports_them():
    paths = dict(manifest())
    assert paths["decoder.py"] == "controller/dial/decoder.py"
    assert paths["dialmaps.py"] == "controller/dial/dialmaps.py"
    assert paths["protocol.py"] == "controller/serial/protocol.py"
    assert not any((REPO / "firmware" / name).exists() for name in ("decoder.py", "dialmaps.py", "protocol.py"))
