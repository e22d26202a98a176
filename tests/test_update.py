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

from controller import backup
from controller.config import INSTALLED_UNIT
from controller.runlock import LOCK_FILE, RunLock
from controller.store import DEVICES_FILE, STORE_FILE, Store

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("update", REPO / "deploy" / "update.py")
update = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(update)
_spec = importlib.util.spec_from_file_location("newsdesk_install", REPO / "deploy" / "install.py")
install_py = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(install_py)

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
    (upstream / "deploy").mkdir()
    (upstream / "deploy" / "wheels.py").write_text((REPO / "deploy" / "wheels.py").read_text())
    git("add", "requirements.txt", "deploy/wheels.py", cwd=upstream)
    older = commit(upstream, "0\n")        # a release from before the wait for the panel
    (upstream / "deploy" / "answers.py").write_text((REPO / "deploy" / "answers.py").read_text())
    git("add", "deploy/answers.py", cwd=upstream)
    first = commit(upstream, "1\n")
    git("clone", "-q", str(upstream), "checkout", cwd=tmp_path)
    second = commit(upstream, "2\n")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    pip = venv / "bin" / "pip"
    pip.write_text("#!/bin/sh\necho \"$@\" >> %s\n" % (tmp_path / "pip.log"))
    tool = venv / "bin" / "newsdesk"
    tool.write_text("#!/bin/sh\nPYTHONPATH=%s exec %s -m newsdesk \"$@\"\n" % (REPO, sys.executable))
    for script in (pip, tool):
        script.chmod(0o755)
    (venv / "bin" / "python").symlink_to(sys.executable)
    data = tmp_path / "data"
    add_game(data, "Bob")
    return {"checkout": tmp_path / "checkout", "venv": venv, "data": data, "first": first, "second": second,
            "older": older, "pip": tmp_path / "pip.log"}


def run(box, *extra, capsys):
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"]),
                          "--no-service", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_dry_run_prints_the_plan_and_changes_nothing(box, capsys):
    status, out, err = run(box, "--dry-run", capsys=capsys)
    assert status == 0, err
    steps = [line.strip() for line in out.splitlines() if line.startswith("    ")]
    assert "- record the way back (%s) in " % box["first"][:12] in out
    # the published commit's packages first, read from it: the checkout moves only after them
    assert "show %s:requirements.txt" % box["second"] in steps[0] and "show %s:deploy/wheels.py" % box["second"] \
        in steps[0] and "requirements-here.txt" in steps[0]
    assert "pip install" in steps[1] and "requirements-here.txt" in steps[1]
    assert steps[2] == "git -C %s merge --ff-only --quiet %s" % (box["checkout"], box["second"])
    assert "--no-deps" in steps[3]
    # the data is backed up as the old code leaves it, once the packages are in: just before the migration
    assert steps[4].endswith("--data %s backup %s/" % (box["data"], box["data"] / "backups"))
    assert steps[5].endswith("migrate")
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
    assert (last["before"], last["after"], last["backup"], last["state"]) == (box["first"], box["second"], str(made),
                                                                            "done")
    assert "make rollback" in out and str(made) in out
    # the way back by hand reinstalls as the rollback does: a plain pip install -r requirements.txt
    # asks PyPI for wheels 32-bit ARM has none of
    by_hand = out[out.index("which does, by hand"):]
    assert "deploy/wheels.py" in by_hand and "--no-deps" in by_hand and "install -r %s/requirements.txt" % box[
        "checkout"] not in by_hand

    add_game(box["data"], "Cy")                      # played on the new code
    assert len(games_in(box["data"])) == 2
    status, out, err = run(box, "--rollback", capsys=capsys)
    assert status == 0, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]
    assert not (box["data"] / update.LAST).exists()


def untouched(box):
    """The checkout at its first commit, no backup made, nothing installed, no record written."""
    return (git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"] and not (box["data"] / "backups").exists()
            and not box["pip"].exists() and not (box["data"] / update.LAST).exists())


def test_an_update_that_cannot_fast_forward_is_refused_before_anything(box, capsys):
    commit(box["checkout"], "a local edit\n")        # the clone and upstream have gone different ways
    mine = git("rev-parse", "HEAD", cwd=box["checkout"])
    status, out, err = run(box, capsys=capsys)
    assert status == 1 and err.count("\n") == 1 and "has commits the remote doesn't" in err, err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == mine and not (box["data"] / "backups").exists()


def test_a_hand_run_panel_local_edits_an_unreachable_remote_or_no_room_refuse_before_anything(box, capsys,
                                                                                               monkeypatch):
    with RunLock(box["data"]):                      # a panel started by hand serves the data folder
        status, _, err = run(box, capsys=capsys)
        assert status == 1 and "a panel started by hand (pid %d) serves %s: stop it" % (os.getpid(), box["data"]) \
            in err, err
        assert untouched(box)
    (box["checkout"] / "VERSION").write_text("edited\n")
    status, _, err = run(box, capsys=capsys)
    assert status == 1 and "the checkout %s has local edits (VERSION)" % box["checkout"] in err and untouched(box)
    git("checkout", "VERSION", cwd=box["checkout"])
    git("remote", "set-url", "origin", str(box["checkout"].parent / "gone"), cwd=box["checkout"])
    status, _, err = run(box, capsys=capsys)
    assert status == 1 and "can't reach the remote of %s" % box["checkout"] in err and untouched(box)
    git("remote", "set-url", "origin", str(box["checkout"].parent / "upstream"), cwd=box["checkout"])
    monkeypatch.setattr(update, "_free", lambda path: 5 * 1000 ** 2)
    status, _, err = run(box, capsys=capsys)
    assert status == 1 and "the backup needs 16 MB free in %s and there are 5 MB" % (box["data"] / "backups") in err
    assert "the reinstall needs 200 MB free" in err and untouched(box)


def test_the_store_name_is_the_stores(capsys):
    assert update.STORE_FILE == STORE_FILE
    assert str(update.UNIT_PATH) == INSTALLED_UNIT == install_py.UNIT_PATH     # the unit make install writes
    assert (update.DEVICES_FILE, update.LOCK_FILE, update.JOURNAL) == (DEVICES_FILE, LOCK_FILE, backup.JOURNAL)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, str(REPO / "deploy" / "update.py"), "--help"], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "--dry-run" in done.stdout and "--rollback" in done.stdout


# ------------------------------------------------------------------ cut off at every step

class Cut(BaseException):
    """The update or the rollback killed between two steps: nothing after it runs, no clean-up."""


def cut_at(monkeypatch, n):
    """Cut the run off before its ``n``-th moment: each command it runs and each write of the
    record is one. Returns the moments seen."""
    seen = []

    def moment(real, what):
        def wrapped(*args, **kwargs):
            seen.append(what(*args))
            if len(seen) == n:
                raise Cut(seen[-1])
            return real(*args, **kwargs)
        return wrapped
    monkeypatch.setattr(update, "run", moment(update.run, lambda step, dry_run: step.what))
    monkeypatch.setattr(update, "write_last", moment(update.write_last, lambda data, last: "record " + last["state"]))
    return seen


UPDATE_MOMENTS = 8      # the record, two package steps, the merge, newsdesk itself, the backup, the record, the migration


@pytest.mark.parametrize("n", range(1, UPDATE_MOMENTS + 1))
def test_an_update_cut_off_at_any_step_is_rolled_back_code_and_data(box, capsys, monkeypatch, n):
    with monkeypatch.context() as m:
        seen = cut_at(m, n)
        with pytest.raises(Cut):
            run(box, capsys=capsys)
    assert len(seen) == n
    status, out, err = run(box, "--rollback", capsys=capsys)
    if n == 1:          # cut before the record: nothing changed
        assert status == 1 and "there is no update to roll back" in err
    else:
        assert status == 0, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]
    assert not (box["data"] / update.LAST).exists()
    if n == 4:
        assert run(box, capsys=capsys)[0] == 0      # and the update can be made again from there


ROLLBACK_MOMENTS = 4    # the restore, the reset, two installs


@pytest.mark.parametrize("n", range(1, ROLLBACK_MOMENTS + 1))
def test_a_rollback_cut_off_at_any_step_is_finished_by_the_next(box, capsys, monkeypatch, n):
    assert run(box, capsys=capsys)[0] == 0
    add_game(box["data"], "Cy")                     # played on the new code
    with monkeypatch.context() as m:
        seen = cut_at(m, n)
        with pytest.raises(Cut):
            run(box, "--rollback", capsys=capsys)
    assert len(seen) == n
    status, out, err = run(box, "--rollback", capsys=capsys)
    assert status == 0, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]
    assert not (box["data"] / update.LAST).exists()


def fail_migrations(box):
    """The venv's newsdesk fails `migrate` while the returned flag file exists."""
    flag = box["venv"] / "migrate-fails"
    tool = box["venv"] / "bin" / "newsdesk"
    tool.write_text("#!/bin/sh\ncase \"$*\" in *migrate*) [ -e %s ] && exit 3;; esac\n%s" % (
        flag, tool.read_text().split("\n", 1)[1]))
    flag.touch()
    return flag


def test_an_update_that_fails_puts_the_code_and_the_data_back_by_itself(box, capsys):
    """A failed step no longer leaves the box half way (the new code checked out, the service
    stopped, the store maybe half migrated) for its owner to find: the update rolls back."""
    flag = fail_migrations(box)
    status, out, err = run(box, capsys=capsys)
    assert status == 1 and "open the store with the new code" in err and "failed" in err, err
    assert "The box is back at %s with its data as it was; make update tries again." % box["first"][:12] in err, err
    assert "Putting the box back as it was before the update (%s)" % box["first"][:12] in out
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]
    assert not (box["data"] / update.LAST).exists()
    flag.unlink()
    status, out, err = run(box, capsys=capsys)
    assert status == 0 and "resuming" not in out, out + err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["second"]


def test_an_update_killed_is_resumed_keeping_the_way_back_to_before_it(box, capsys, monkeypatch):
    with monkeypatch.context() as m:
        seen = cut_at(m, UPDATE_MOMENTS)            # killed as the migration starts
        with pytest.raises(Cut):
            run(box, capsys=capsys)
    assert seen[-1].startswith("open the store with the new code")
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["second"]
    status, out, err = run(box, capsys=capsys)
    assert status == 0, out + err
    assert "resuming the update from %s" % box["first"][:12] in out
    last = json.loads((box["data"] / update.LAST).read_text())
    assert (last["before"], last["after"], last["state"]) == (box["first"], box["second"], "done")
    assert len(list((box["data"] / "backups").iterdir())) == 1     # the backup from before the first try
    assert run(box, "--rollback", capsys=capsys)[0] == 0
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]


def play_during_the_install(box, name):
    """The venv's pip adds a game ``name`` as it runs: a table playing on while the packages install."""
    script = box["venv"] / "play.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\nsys.path.insert(0, %r)\nfrom test_update import add_game\n"
                      "from pathlib import Path\nadd_game(Path(%r), %r)\n" % (str(REPO), str(REPO / "tests"),
                                                                              str(box["data"]), name))
    pip = box["venv"] / "bin" / "pip"
    pip.write_text(pip.read_text() + "[ -e %s ] || { touch %s; %s %s; }\n" % (
        box["venv"] / "played", box["venv"] / "played", sys.executable, script))


def test_the_packages_install_from_the_published_requirements_before_the_checkout_moves(box, capsys):
    """The serving panel reads templates and files from the checkout as it goes: the minutes pip
    takes pass with the checkout still at the code the panel runs, the packages the published
    commit names installed; a package that can't be installed fails before the code moves."""
    git("rm", "-q", "VERSION", cwd=box["checkout"].parent / "upstream")
    (box["checkout"].parent / "upstream" / "requirements.txt").write_text("newpackage==2.0\n")
    git("add", "requirements.txt", cwd=box["checkout"].parent / "upstream")
    git("commit", "-q", "-m", "a new package", cwd=box["checkout"].parent / "upstream")
    pip = box["venv"] / "bin" / "pip"
    pip.write_text(pip.read_text() + "case \"$*\" in *requirements-here*) cat %s >> %s; git -C %s rev-parse HEAD >> %s;; "
                   "esac\n" % (box["venv"] / "requirements-here.txt", box["pip"], box["checkout"], box["pip"]))
    assert run(box, capsys=capsys)[0] == 0
    said = box["pip"].read_text().splitlines()
    assert said[1:3] == ["newpackage==2.0", box["first"]], said


def test_a_game_played_while_the_packages_install_is_in_the_backup(box, capsys):
    """The panel serves the table from the old code while pip runs (minutes on a Pi): the backup
    is made once the service has stopped, so the way back keeps what was played meanwhile."""
    play_during_the_install(box, "Dee")
    assert run(box, capsys=capsys)[0] == 0
    add_game(box["data"], "Cy")                      # played on the new code
    status, out, err = run(box, "--rollback", capsys=capsys)
    assert status == 0, out + err
    assert sorted(p[1]["name"] for p in games_in(box["data"])) == ["Bob", "Dee"]


def test_a_failed_install_goes_back_to_the_code_before_and_keeps_the_data(box, capsys):
    play_during_the_install(box, "Dee")
    pip = box["venv"] / "bin" / "pip"
    flag = box["venv"] / "pip-fails"
    pip.write_text(pip.read_text() + "case \"$*\" in *no-deps*) [ -e %s ] && rm %s && exit 1;; esac\ntrue\n" % (flag, flag))
    flag.touch()
    status, out, err = run(box, capsys=capsys)
    assert status == 1 and "reinstall newsdesk itself failed" in err and "The box is back at %s" % box["first"][:12] \
        in err, err
    assert "nothing to restore: the update stopped before the new code opened the data" in out
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert sorted(p[1]["name"] for p in games_in(box["data"])) == ["Bob", "Dee"]
    assert not (box["data"] / "backups").exists() and not (box["data"] / update.LAST).exists()


def test_a_panel_that_does_not_answer_after_the_update_is_rolled_back_and_started(box, capsys, monkeypatch):
    """With the service: stopped around the migration, started, and the new code's panel must
    answer (deploy/answers.py, as the install ends); when it doesn't, the update puts the old code
    and data back and starts the service again."""
    ran = []

    def fake_run(step, dry_run):
        ran.append(step.what)
        if step.argv[0] == "sudo":          # systemctl: not this machine's to start and stop
            return ""
        if step.what == "wait for the panel to answer":
            assert step.argv[2:] == [str(box["checkout"] / "deploy" / "answers.py"), "8080", "180"], step.argv
            assert step.argv[0] == str(box["venv"] / "bin" / "python")
            if ran.count(step.what) == 1:       # the new release's panel; the old one answers
                raise update.UpdateError("wait for the panel to answer failed (exit status 1); what it said is above.")
            return ""
        return real_run(step, dry_run)
    real_run = update.run
    monkeypatch.setattr(update, "run", fake_run)
    monkeypatch.setattr(update, "service_running", lambda: True)
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"])])
    err = capsys.readouterr().err
    assert status == 1 and "wait for the panel to answer failed (exit status 1); what it said is above. The box is " \
        "back at %s with its data as it was, and its service started again" % box["first"][:12] in err, err
    wait = ran.index("wait for the panel to answer")
    assert ran[ran.index("stop the panel's service"):wait + 1] == [
        "stop the panel's service", "back up the data folder into %s" % (box["data"] / "backups"),
        "open the store with the new code, which brings its schema forward", "start the panel's service",
        "wait for the panel to answer"]
    after = ran[wait + 1:]
    assert after[0] == "stop the panel's service" and after[1] == "restore the backup made before the update"
    assert after[-2:] == ["start the panel's service", "wait for the panel to answer"]
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]


def _service_rollback(box, capsys, monkeypatch, *extra):
    """A rollback's plan on a box whose service runs."""
    assert run(box, capsys=capsys)[0] == 0
    monkeypatch.setattr(update, "service_running", lambda: True)
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"]),
                          "--rollback", "--dry-run", *extra])
    out, err = capsys.readouterr()
    assert status == 0, err
    return [line.strip() for line in out.splitlines() if line.startswith("    ")]


def test_a_rollback_waits_for_its_panel_to_answer_as_an_update_does(box, capsys, monkeypatch):
    """A rollback ended with `systemctl start`, which returns once the process has started: a
    release the rollback went back to whose panel stopped at once was said to be "Back at"."""
    steps = _service_rollback(box, capsys, monkeypatch)
    assert steps[-2:] == ["sudo systemctl start newsdesk", "%s -B %s 8080 180" % (
        box["venv"] / "bin" / "python", box["checkout"] / "deploy" / "answers.py")], steps


def test_a_rollback_to_a_release_without_the_wait_only_starts_its_service(box, capsys, monkeypatch):
    """A commit from before deploy/answers.py: its rollback can't wait with it, and starts the
    service as it used to rather than fail for want of the file."""
    steps = _service_rollback(box, capsys, monkeypatch, "--commit", box["older"])
    assert steps[-1] == "sudo systemctl start newsdesk" and not any("answers.py" in s for s in steps), steps


def test_an_update_or_rollback_by_another_user_than_the_checkouts_is_refused_before_anything(box, capsys,
                                                                                               monkeypatch):
    """`sudo make update` would leave root's files in the checkout, the venv and the backups, and
    the owner's next update would trip on them: it asks for sudo itself where it needs it."""
    owner = box["checkout"].stat().st_uid
    monkeypatch.setattr(update.os, "geteuid", lambda: owner + 1)
    for extra in ((), ("--rollback",)):
        status, out, err = run(box, *extra, capsys=capsys)
        assert status == 1 and "run make update and make rollback as %s, who owns %s" % (
            update.user_name(owner), box["checkout"]) in err and "(not with sudo)" in err, err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["first"]
    assert not (box["data"] / "backups").exists()


@pytest.mark.parametrize("target", ["update", "rollback"])
def test_make_update_and_rollback_reinstall_nothing_before_they_run(tmp_path, target):
    """A box from `make install` has a venv but none of make's stamps, and after an update whose
    packages failed to install, requirements.txt is newer than any: make's venv rule in front of
    `make rollback` ran pip on the new requirements, failed the same way, and never rolled back.
    The update and the rollback do their own installing, in their order."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    plan = subprocess.run(["make", "-n", "-C", str(REPO), target, "VENV=%s" % venv], capture_output=True, text=True)
    assert plan.returncode == 0, plan.stderr
    assert "pip" not in plan.stdout and "wheels.py" not in plan.stdout, plan.stdout
    assert "deploy/update.py" in plan.stdout


def test_a_rollback_with_a_hand_run_panel_is_refused_before_anything(box, capsys):
    assert run(box, capsys=capsys)[0] == 0
    add_game(box["data"], "Cy")
    with RunLock(box["data"]):
        status, _, err = run(box, "--rollback", capsys=capsys)
    assert status == 1 and "the rollback can't start, nothing was changed: a panel started by hand" in err, err
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["second"]
    assert len(games_in(box["data"])) == 2 and (box["data"] / update.LAST).exists()


def test_a_rollback_starts_the_service_an_update_cut_off_left_stopped(box, capsys, monkeypatch):
    """The record says the service ran before the update; stopped by a try that was cut off, it
    is not running now, and the rollback's plan still starts it again at the end."""
    assert run(box, capsys=capsys)[0] == 0
    last = json.loads((box["data"] / update.LAST).read_text())
    assert last["service"] is False             # --no-service: the update never touched it
    update.write_last(box["data"], dict(last, service=True, state="updating"))
    monkeypatch.setattr(update, "service_running", lambda: False)
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"]),
                          "--rollback", "--dry-run"])
    out = capsys.readouterr().out
    assert status == 0 and "sudo systemctl stop newsdesk" in out and "sudo systemctl start newsdesk" in out
    assert out.rstrip().endswith("deploy/answers.py 8080 180")


def test_a_rollback_whose_backup_is_refused_starts_the_service_it_stopped_again(box, capsys, monkeypatch, tmp_path):
    """The rollback stops the service, then restores: a backup the restore refuses (damaged on
    the stick, or a file that is no backup) changes nothing, and the service was left stopped,
    the table without its panel until someone started it by hand."""
    assert run(box, capsys=capsys)[0] == 0
    bad = tmp_path / "not-a-backup.zip"
    bad.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    ran, real = [], update.run

    def run_step(step, dry_run):
        ran.append(step.what)
        return "" if step.argv[0] == "sudo" else real(step, dry_run)     # systemctl is the test's to pretend
    monkeypatch.setattr(update, "run", run_step)
    monkeypatch.setattr(update, "service_running", lambda: True)
    status = update.main(["--repo", str(box["checkout"]), "--venv", str(box["venv"]), "--data", str(box["data"]),
                          "--rollback", "--backup", str(bad)])
    err = capsys.readouterr().err
    assert status == 1 and "restore the backup made before the update failed (exit status 2)" in err, err
    assert "the panel's service is started again" in err, err
    assert ran == ["stop the panel's service", update.RESTORE_STEP, "start the panel's service"], ran
    assert git("rev-parse", "HEAD", cwd=box["checkout"]) == box["second"]
    assert [p[1]["name"] for p in games_in(box["data"])] == ["Bob"]


def test_an_update_put_back_by_a_rollback_that_fails_says_once_what_to_mend(monkeypatch, tmp_path):
    """The rollback's refusal already says what to mend ("mend that, or name another backup"):
    the update's sentence around it said "Mend that" a second time."""
    def refused(*args, **kwargs):
        raise update.UpdateError("the restore refused the backup. The code was not moved back, and the panel's "
                                 "service is started again; mend that, or name another backup: make rollback BACKUP=FILE")
    monkeypatch.setattr(update, "rollback", refused)
    with pytest.raises(update.UpdateError) as raised:
        update.put_back(tmp_path, tmp_path, tmp_path, True, "0" * 40, update.UpdateError("migrate failed."))
    said = str(raised.value)
    assert said.lower().count("mend that") == 1 and "Once that is mended, make rollback goes on from there" in said, said
    assert said.startswith("migrate failed. And putting it back failed too: the restore refused the backup."), said
