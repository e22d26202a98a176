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


def test_a_pico_the_rules_refuse_is_not_flashed(tmp_path, monkeypatch, capsys):
    """pins.py up to date with a pin map the rules refuse (the ringer on GP23, a pin the Pico
    keeps for its regulator): the same rules as `python -m schematics.generate --check`, and
    nothing is flashed."""
    import importlib.util

    import genpins

    import controller.pinmap
    spec = importlib.util.spec_from_file_location("flash", TOOLS / "flash.py")
    flash = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flash)
    text = (REPO / "hardware" / "pinmap.toml").read_text()
    start = text.index("[pico.ringer]")
    bad = controller.pinmap.parse_pinmap(text[:start] + text[start:].replace("gp = 15", "gp = 23", 1))
    pins = tmp_path / "pins.py"
    pins.write_text(genpins.render(bad))
    monkeypatch.setattr(genpins, "OUTPUT", pins)
    monkeypatch.setattr(controller.pinmap, "load_pinmap", lambda path=None: bad)
    assert flash.main(["--dry-run", "--port", "/dev/null"]) == 1
    out, err = capsys.readouterr()
    assert "mpremote" not in out
    assert "electrical rules: pico: ringer is on GP23, which reaches no pin" in err
    assert err.splitlines()[-1].startswith("flash: not flashing")
