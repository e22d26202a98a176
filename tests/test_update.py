"""`make update` (deploy/update.py), run against a temporary clone of a tiny repository: the plan
of a dry run changes nothing; an update backs the data up first, fast-forwards, reinstalls,
migrates and says how to go back; a rollback puts the commit and the data back. No network:
the clone's upstream is a folder, and the venv's pip is a stand-in that notes its arguments."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.store import STORE_FILE, Store

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("update", REPO / "deploy" / "update.py")
update = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(update)

pytestmark = pytest.mark.slow       # git and newsdesk in processes of their own

GIT = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main",
       "-c", "protocol.file.allow=always"]


def git(*args, cwd):
    return subprocess.run(GIT + list(args), cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def commit(repo, text):
    (repo / "VERSION").write_text(text)
    git("add", "VERSION", cwd=repo)
    git("commit", "-q", "-m", text, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo)


def setup_entry():
    return {"type": "setup", "said": "set up", "events": [{"type": "setup"}]}


def games_in(data):
    store = Store(data / STORE_FILE)
    try:
        return [g.players for g in store.games()]
    finally:
        store.close()


def add_game(data, name):
    store = Store(data / STORE_FILE)
    game, _, _ = store.start_game("scoop1956", [{"name": "Ann"}, {"name": name}], {}, setup_entry(), key=name)
    store.end_game(game.id, game.version, "finished", winners=["Ann"], final={})
    store.close()


@pytest.fixture
def box(tmp_path):
    """A tiny upstream with one commit past the clone, the clone, a venv whose pip notes its
    arguments and whose newsdesk is this checkout's, and a data folder with a kept game."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git("init", "-q", cwd=upstream)
    (upstream / "requirements.txt").write_text("")
    git("add", "requirements.txt", cwd=upstream)
    first = commit(upstream, "1\n")
    git("clone", "-q", str(upstream), "checkout", cwd=tmp_path)
    second = commit(upstream, "2\n")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    pip = venv / "bin" / "pip"
    pip.write_text("#!/bin/sh\necho \"$@\" >> %s\n" % (tmp_path / "pip.log"))
    tool = venv / "bin" / "newsdesk"
    tool.write_text("#!/bin/sh\nPYTHONPATH=%s exec %s -m controller.cli \"$@\"\n" % (REPO, sys.executable))
    for script in (pip, tool):
        script.chmod(0o755)
    data = tmp_path / "data"
    add_game(data, "Bob")
    return {"checkout": tmp_path / "checkout", "venv": venv, "data": data, "first": first, "second": second,
            "pip": tmp_path / "pip.log"}


def run(box, *extra, capsys):
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"]),
                          "--no-service", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_dry_run_prints_the_plan_and_changes_nothing(box, capsys):
    status, out, err = run(box, "--dry-run", capsys=capsys)
    assert status == 0, err
    steps = [line.strip() for line in out.splitlines() if line.startswith("    ")]
    assert steps[0].endswith("--data %s backup %s/" % (box["data"], box["data"] / "backups"))
    assert steps[1] == "git -C %s pull --ff-only" % box["checkout"]
    assert "pip install" in steps[2] and "requirements.txt" in steps[2] and "--no-deps" in steps[3]
    assert steps[4].endswith("migrate")
    assert "make rollback" in out and "reset --keep %s" % box["first"][:12] in out
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert not (box["data"] / "backups").exists() and not box["pip"].exists()
    assert not (box["data"] / update.LAST).exists()


def test_an_update_backs_up_first_pulls_reinstalls_migrates_and_a_rollback_goes_back(box, capsys):
    status, out, err = run(box, capsys=capsys)
    assert status == 0, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["second"]
    [made] = sorted((box["data"] / "backups").iterdir())
    assert made.name.startswith("newsdesk-backup-") and made.name.endswith(".zip")
    assert len(box["pip"].read_text().splitlines()) == 2
    last = json.loads((box["data"] / update.LAST).read_text())
    assert (last["before"], last["after"], last["backup"]) == (box["first"], box["second"], str(made))
    assert "make rollback" in out and str(made) in out

    add_game(box["data"], "Cy")                      # played on the new code
    assert len(games_in(box["data"])) == 2
    status, out, err = run(box, "--rollback", capsys=capsys)
    assert status == 0, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]
    assert not (box["data"] / update.LAST).exists()


def test_an_update_that_cannot_fast_forward_stops_before_it_migrates(box, capsys):
    commit(box["checkout"], "a local edit\n")        # the clone and upstream have gone different ways
    status, out, err = run(box, capsys=capsys)
    assert status == 1 and "take the published changes (fast-forward only) failed" in err
    assert (box["data"] / "backups").is_dir() and not box["pip"].exists() and "migrate" not in out.split("failed")[0]


def test_the_store_name_is_the_stores(capsys):
    assert update.STORE_FILE == STORE_FILE
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, str(REPO / "deploy" / "update.py"), "--help"], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "--dry-run" in done.stdout and "--rollback" in done.stdout
