"""A sixth game in its own distribution (tests/sixth_game: its package and its screen), installed
in a folder of its own as pip installs any plug-in, is found by the registry, started from the
start form and played to its end in the browser, with its own screen. Nothing in newsdesk names
it: this file, the package and the screen are the whole of it (docs/new-game.md)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import launched_chromium, need_browser

from controller.games.kit import RULES

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "sixth_game"
SERVER_ENV = {"NEWSDESK_PIN_FACTORY": "mock", "NEWSDESK_AUDIO": "off", "NEWSDESK_SPEECH": "off",
              "NEWSDESK_DISPLAY": "dummy", "NEWSDESK_VOLATILE_DATA": "allow"}
WAIT = 10000

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed():
    """The environment with the sixth game installed: pip installs the distribution (built from a
    copy, so the checkout gains no build folders) into a folder put on the path beside newsdesk."""
    where = Path(tempfile.mkdtemp(prefix="newsdesk-sixth-"))
    try:
        source = shutil.copytree(FIXTURE, where / "source", ignore=shutil.ignore_patterns("__pycache__"))
        site = where / "site"
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                               "--no-build-isolation", "--target", str(site), str(source)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        env = dict(os.environ, **SERVER_ENV)
        env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO)])
        yield env
    finally:
        shutil.rmtree(where, ignore_errors=True)


def newsdesk(env, *args):
    return subprocess.run([sys.executable, "-m", "newsdesk", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_installed_game_is_found_beside_the_five(installed):
    done = newsdesk(installed, "games")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    alone = newsdesk(dict(installed, PYTHONPATH=str(REPO)), "games")     # newsdesk without it
    assert [line.split()[0] for line in lines] == [line.split()[0] for line in alone.stdout.splitlines()] + [
        "race_to_three"]
    assert lines[-1].split(None, 1)[1] == "Race to Three (from newsdesk-race-to-three)"


def test_the_installed_game_passes_the_kit_as_its_author_runs_it(installed, tmp_path):
    """`pytest --newsdesk-game race_to_three` in a folder of the author's own: a test per rule of
    the contract, every one passed (Race to Three's own offers play it to its end)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "-p", "no:xdist", "--newsdesk-game", "race_to_three"], cwd=tmp_path, env=installed,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("%d passed in" % len(RULES))


@pytest.fixture
def served(installed, tmp_path):
    """`newsdesk serve` in a child process, in the environment with the sixth game."""
    data = tmp_path / "data"
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "newsdesk", "--data", str(data), "serve", "--port", "0"],
                            cwd=REPO, env=installed, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        end = time.monotonic() + 30
        url = None
        while url is None:
            assert proc.poll() is None, "the panel stopped"
            assert time.monotonic() < end, "the panel didn't start in 30 s"
            try:
                url = json.loads((data / "serve.lock").read_text()).get("url")
            except (OSError, ValueError):
                time.sleep(0.05)
        yield "http://127.0.0.1:%s" % url.rstrip("/").rsplit(":", 1)[1]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.seek(0)
        said = log.read().decode("utf-8", "replace")
        log.close()
        assert "Traceback" not in said, said


@pytest.mark.browser
def test_the_sixth_game_is_started_from_the_form_and_played_to_its_end(served):
    need_browser()
    errors = []
    with launched_chromium() as browser:
        page = browser.new_page(viewport={"width": 1024, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(served + "/")
        page.get_by_label("Race to Three").check()
        page.fill("#player-0", "Ann")
        page.fill("#player-1", "Bob")
        page.click("#start-game")
        # its own screen (screen.js, served from its package) shows the race, and labels the offers
        page.wait_for_selector(".race-to-three", timeout=WAIT)
        for version in (2, 3, 4):
            page.get_by_role("button", name="Point to Ann", exact=True).click()
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version, timeout=WAIT)
        page.get_by_role("button", name="Point to Bob", exact=True).wait_for(state="detached", timeout=WAIT)
        assert page.locator(".race-to-three [data-num='points:0']").get_attribute("data-value") == "3"
        assert page.locator(".race-to-three [data-num='points:1']").get_attribute("data-value") == "0"
        page.click("#finish")
        page.wait_for_function("(document.getElementById('winner') || {}).textContent === 'Ann won!'", timeout=WAIT)
        kept = page.evaluate("fetch('/api/games/history').then(r => r.json())")
        page.close()
    assert errors == []
    [game] = [g for g in kept["games"] if g["engine"] == "race_to_three"]
    assert game["winners"] == ["Ann"] and [s["score"] for s in game["standings"]] == [3, 0]
