"""The emulated-Pi lane's own set-up: its folder on sys.path, the tools it needs, and its figures."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from emulated_pi import missing_tools


def pytest_collection_modifyitems(config, items):
    missing = missing_tools()
    if missing:
        words = "the emulated-Pi lane needs %s (sudo apt-get install %s)" % (", ".join(missing), " ".join(missing))
    elif os.geteuid() != 0:
        words = "the emulated-Pi lane runs as root (debootstrap, binfmt_misc, systemd-nspawn): sudo make test-pi"
    else:
        return
    if os.environ.get("NEWSDESK_REQUIRE_PI"):
        raise pytest.UsageError(words)
    for item in items:
        item.add_marker(pytest.mark.skip(reason=words))


def pytest_terminal_summary(terminalreporter):
    from test_install_on_a_pi import FIGURES
    if FIGURES:
        terminalreporter.section("the emulated Pi's figures (seconds)")
        for arch, what, seconds in FIGURES:
            terminalreporter.line("%-6s %-36s %7.1f" % (arch, what, seconds))
