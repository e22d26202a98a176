"""Updates newsdesk in place, and says how to go back (what `make update` runs):

    .venv/bin/python deploy/update.py              check, pull, reinstall, back up, migrate, restart, see it answer
    .venv/bin/python deploy/update.py --dry-run    the checks and the plan; changes nothing (but git fetch)
    .venv/bin/python deploy/update.py --rollback   back to the commit and the data before the last update

First, before anything is changed, everything that could stop it half way is checked, and each
finding said in one refusal: a panel started by hand serving the data folder (the service is
stopped by the update itself; a hand-run one is not the update's to stop), a checkout with local
edits, a remote that can't be reached or that has gone another way (the published head is
fetched and must be a fast-forward), too little room for the backup or the reinstall, a restore
not finished. Then, in order, each step printed before it runs:

1. the way back recorded in the data folder's last-update.json (the commit now checked out,
   marked unfinished), synced, before the code changes: a killed update leaves it, `--rollback`
   reads it, and an update run again resumes it (never taking the new commit as "before");
2. the venv's packages reinstalled from the fetched head's requirements.txt (read with git
   show: the checkout is not changed yet), while the panel goes on serving the table from the
   code it has loaded (minutes on a Pi Zero);
3. the fetched head merged (fast-forward only: never a merge of local edits), and newsdesk itself
   reinstalled (as `make run` does): seconds before the service stops, so the serving panel
   doesn't meet the new templates and files for long;
4. the panel's service stopped (when it is installed and running), and then a backup of the data
   folder as the old code left it (`newsdesk backup`) into backup_dir when it is set, else into
   the data folder's backups/ folder, added to the record: made after the table has stopped, so
   the way back loses nothing played during the reinstall;
5. `newsdesk migrate` (the new code opens the store, which brings its schema forward, so a store
   it can't read is found now, not at the table), the service started again, and the panel
   waited for until it answers (deploy/answers.py, as `make install` ends: until its service
   fails, or 180 s pass);
6. the record marked finished, and the way back printed.

A step that fails puts the box back by itself, as `--rollback` would: the code and its
packages, and the data when the backup was made (the new code may have opened it), then the
service started again. The owner is told what failed and that the box serves as before; `make
update` tries again from the start. Only when the way back fails too is the record kept, for
`--rollback` to finish once the cause is mended.

A rollback checks first too (the record and its backup, a hand-run panel, local edits), then
stops the service, restores the backup (`newsdesk restore`: checked whole, the current data kept
in a replaced-<time> folder; none when the update stopped before it made one: the new code never
opened the data), moves the checkout back to the commit before the update (`git
reset --keep`, which refuses rather than lose a local edit), reinstalls, starts the service and
waits for its panel to answer, as an update does (a commit older than that wait only starts it).
The data goes back first: should the code not follow, the new code opens the old data (it
migrates it forward), while old code can't open a store the new code migrated. A rollback that
fails or is killed is run again; the record stays until one finishes.

Runs with the venv's Python (it reads the settings through controller.config, from this
checkout); the commands it runs are printed in full. docs/keeping.md tells the same for people.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

try:
    import fcntl
except ImportError:     # not POSIX: no lock to look at (newsdesk runs on Linux and macOS)
    fcntl = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent.parent       # the checkout this script belongs to
SERVICE = "newsdesk"
UNIT_PATH = Path("/etc/systemd/system/newsdesk.service")     # deploy/install.py puts it there (checked: tests/test_update.py)
STORE_FILE = "newsdesk.sqlite3"    # controller/store.py's name for the store (checked by tests/test_update.py)
DEVICES_FILE = "devices.sqlite3"   # and the devices' (controller/store.py)
LOCK_FILE = "serve.lock"           # controller/runlock.py's: held by a serving panel
JOURNAL = "restore-journal.json"   # controller/backup.py's: a restore not finished
LAST = "last-update.json"           # in the data folder: what --rollback undoes
BACKUPS = "backups"                 # in the data folder, when backup_dir is not set
REINSTALL_ROOM = 200 * 1000 ** 2    # bytes free the checkout's disk needs for pip to reinstall the packages
BACKUP_ROOM = 16 * 1000 ** 2        # bytes left free beside a backup, for the table


class UpdateError(Exception):
    """The update can't go on; the message says why and what to do."""


class Step:
    """One command, and what it is for."""

    def __init__(self, what, argv, cwd=None):
        self.what = what
        self.argv = [str(a) for a in argv]
        self.cwd = cwd

    def __repr__(self):
        return "<Step %s>" % self.what


def settings(data):
    """(data folder, backup folder) as newsdesk would use them: backup_dir when set, else the
    data folder's backups/."""
    sys.path.insert(0, str(HERE))
    from controller.config import load_config
    config = load_config(data)
    if not config["backup_dir"]:
        return config.data_dir, config.data_dir / BACKUPS
    folder = Path(config["backup_dir"]).expanduser()
    if not folder.is_dir():     # an unplugged stick's mount point is on the card the backup is to outlive
        raise UpdateError("the backup folder %s (backup_dir) is missing: plug in and mount the USB stick, then "
                          "update" % folder)
    return config.data_dir, folder


def newsdesk(venv, data):
    return [Path(venv) / "bin" / "newsdesk", "--data", data]


PANEL_WAIT_S = 180      # a Pi Zero 2 W starts the panel in about 6 s; the first start of new code compiles it


def started_steps(service, repo, venv, data):
    """Start the service when ``service`` is true, then wait until its panel answers (as `make
    install` ends: deploy/answers.py), so a release that doesn't come up here is a failed step."""
    if not service:
        return []
    sys.path.insert(0, str(HERE))
    from controller.config import load_config
    port = load_config(data)["port"]
    return [*service_steps(service, "start"),
            Step("wait for the panel to answer", [Path(venv) / "bin" / "python", "-B",
                                                  Path(repo) / "deploy" / "answers.py", port, PANEL_WAIT_S])]


def service_steps(service, verb):
    """Stop or start the service when ``service`` is true (it runs, or ran before a cut-off try)."""
    return [Step("%s the panel's service" % verb, ["sudo", "systemctl", verb, SERVICE])] if service else []


def backup_step(venv, data, folder):
    return Step("back up the data folder into %s" % folder, newsdesk(venv, data) + ["backup", str(folder) + "/"])


def code_steps(repo, venv, target):
    """The new code and its packages, while the panel goes on serving the table from the code it
    has loaded: first the packages the fetched commit ``target`` names (its requirements.txt and
    deploy/wheels.py read with git show, the checkout not yet changed), then the merge and
    newsdesk itself. What the serving panel reads from the checkout as it goes (a page's
    template, a static file, a game's module) so stays its own until seconds before the service
    stops, not for the minutes pip takes on a Pi Zero; and a package that can't be installed
    fails the update before the code has moved."""
    pip = Path(venv) / "bin" / "pip"
    published = [Path(venv) / "requirements-published.txt", Path(venv) / "wheels-published.py"]
    read = " && ".join("git -C %s show %s > %s" % (shlex.quote(str(repo)), shlex.quote("%s:%s" % (target, name)),
                                                    shlex.quote(str(to)))
                       for name, to in zip(("requirements.txt", "deploy/wheels.py"), published))
    return [
        Step("list the published pins PyPI has wheels of here (its deploy/wheels.py)",
             ["sh", "-c", "%s && %s > %s" % (read, " ".join(shlex.quote(str(p)) for p in (
                 Path(pip).parent / "python", published[1], published[0])), shlex.quote(str(_here(pip))))]),
        packages_step(pip),
        Step("take the published changes (fast-forward only)", ["git", "-C", repo, "merge", "--ff-only", "--quiet",
                                                                 target]),
        itself_step(repo, pip),
    ]


def migrate_step(venv, data):
    return Step("open the store with the new code, which brings its schema forward", newsdesk(venv, data) + ["migrate"])


def install_steps(repo, pip):
    """As `make run`'s venv rule: the pins PyPI has wheels of here (deploy/wheels.py: on 32-bit
    ARM, Pillow and cbor2 are Debian's), then newsdesk itself."""
    return [
        Step("list the pins PyPI has wheels of here (deploy/wheels.py)",
             ["sh", "-c", "%s %s %s > %s" % tuple(shlex.quote(str(p)) for p in (
                 Path(pip).parent / "python", Path(repo) / "deploy" / "wheels.py", Path(repo) / "requirements.txt",
                 _here(pip)))]),
        packages_step(pip),
        itself_step(repo, pip),
    ]


def _here(pip):
    return Path(pip).parent.parent / "requirements-here.txt"


def packages_step(pip):
    return Step("reinstall the packages newsdesk needs", [pip, "install", "--quiet", "-r", _here(pip), "setuptools>=77"])


def itself_step(repo, pip):
    return Step("reinstall newsdesk itself", [pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", repo])


RESTORE_STEP = "restore the backup made before the update"


def rollback_plan(repo, venv, data, last, service):
    """The steps back to ``last`` (last-update.json): the commit before the update and its backup,
    ending as an update does, with the service started and waited for until its panel answers
    (with the wait that commit has): a rollback whose panel doesn't come up has failed, and says
    so with the service's last log lines, rather than "Back at" over a box that serves nothing."""
    pip = Path(venv) / "bin" / "pip"
    restore = [Step(RESTORE_STEP, newsdesk(venv, data) + ["restore", "--yes", last["backup"]])]
    return [
        *service_steps(service, "stop"),
        *(restore if last.get("backup") else []),
        Step("move the checkout back to %s" % last["before"][:12], ["git", "-C", repo, "reset", "--keep", last["before"]]),
        *install_steps(repo, pip),
        *(started_steps(service, repo, venv, data) if _has(repo, last["before"], "deploy/answers.py")
          else service_steps(service, "start")),
    ]


def _has(repo, commit, path):
    """Whether ``commit`` has the file ``path`` (a rollback to a commit older than the wait for
    the panel, deploy/answers.py, can only start the service and trust it)."""
    return _git(repo, "cat-file", "-e", "%s:%s" % (commit, path)).returncode == 0


def run(step, dry_run):
    print("- %s:\n    %s" % (step.what, shlex.join(step.argv)), flush=True)
    if dry_run:
        return ""
    done = subprocess.run(step.argv, cwd=step.cwd, stdout=subprocess.PIPE, text=True)
    if done.stdout:
        print(done.stdout, end="", flush=True)
    if done.returncode != 0:
        raise UpdateError("%s failed (exit status %d); what it said is above. Nothing after it was done."
                          % (step.what, done.returncode))
    return done.stdout


def head(repo):
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    if done.returncode != 0:
        raise UpdateError("%s is not a git checkout (%s): update it the way it was installed"
                          % (repo, done.stderr.strip()))
    return done.stdout.strip()


def service_running():
    if not UNIT_PATH.exists():
        return False
    return subprocess.run(["systemctl", "is-active", "--quiet", SERVICE]).returncode == 0


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def local_edits(repo):
    """The checkout's files changed and not committed (untracked files are no one's business here)."""
    done = _git(repo, "status", "--porcelain", "--untracked-files=no")
    return [line[3:] for line in done.stdout.splitlines()] if done.returncode == 0 else []


def hand_run_panel(data, service):
    """The sentence for a panel serving ``data`` that is not the service (its lock is held while
    the service is not running), or None. Looked at without taking the lock or writing a byte."""
    path = Path(data) / LOCK_FILE
    if fcntl is None or service or not path.exists():
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None     # not ours to read: `newsdesk migrate` and `restore` still refuse a serving panel
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    except OSError:
        try:
            holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
        except ValueError:
            holder = {}
        return ("a panel started by hand (pid %s%s) serves %s: stop it (Ctrl-C where it runs)"
                % (holder.get("pid", "unknown"), ", at %s" % holder["url"] if holder.get("url") else "", data))
    finally:
        os.close(fd)


def _free(path):
    path = Path(path)
    while not path.exists():
        path = path.parent
    return shutil.disk_usage(path).free


def _mb(n):
    return "%d MB" % (n // 1000 ** 2)


def room_problems(repo, data, folder):
    """Too little room for the backup beside the data, or for pip's reinstall beside the checkout."""
    problems = []
    need = sum((Path(data) / name).stat().st_size for name in (STORE_FILE, DEVICES_FILE)
               if (Path(data) / name).exists()) + BACKUP_ROOM
    if _free(folder) < need:
        problems.append("the backup needs %s free in %s and there are %s" % (_mb(need), folder, _mb(_free(folder))))
    if _free(repo) < REINSTALL_ROOM:
        problems.append("the reinstall needs %s free beside %s and there are %s"
                        % (_mb(REINSTALL_ROOM), repo, _mb(_free(repo))))
    return problems


def published_head(repo):
    """Fetch the checkout's upstream and return the commit to update to; UpdateError (one
    sentence) when it can't be reached or is not a fast-forward of what is checked out."""
    fetched = _git(repo, "fetch", "--quiet")
    if fetched.returncode != 0:
        raise UpdateError("can't reach the remote of %s (%s): check the network, then update"
                          % (repo, fetched.stderr.strip().splitlines()[-1] if fetched.stderr.strip() else "git fetch failed"))
    target = _git(repo, "rev-parse", "--verify", "@{upstream}")
    if target.returncode != 0:
        raise UpdateError("the checkout %s follows no remote branch (%s): git branch --set-upstream-to origin/main, "
                          "then update" % (repo, target.stderr.strip()))
    target = target.stdout.strip()
    if _git(repo, "merge-base", "--is-ancestor", "HEAD", target).returncode != 0:
        raise UpdateError("the checkout %s has commits the remote doesn't (it can't fast-forward to %s): put them "
                          "aside (git branch mine; git reset --keep %s), then update" % (repo, target[:12], target[:12]))
    return target


def check_first(repo, data, folder, service, updating):
    """Everything that could stop an update (``updating``) or a rollback half way, found before
    anything is changed: UpdateError with every finding in one sentence."""
    problems = []
    panel = hand_run_panel(data, service)
    if panel:
        problems.append(panel)
    edits = local_edits(repo)
    if edits:
        problems.append("the checkout %s has local edits (%s): commit them or put them aside (git stash)"
                        % (repo, ", ".join(edits[:5]) + (" ..." if len(edits) > 5 else "")))
    if (Path(data) / JOURNAL).exists():
        problems.append("a restore into %s is not finished: run newsdesk restore first" % data)
    if updating:
        problems.extend(room_problems(repo, data, folder))
    if problems:
        raise UpdateError("%s can't start, nothing was changed: %s" % ("the update" if updating else "the rollback",
                                                                        "; ".join(problems)))


def read_last(data):
    try:
        return json.loads((Path(data) / LAST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise UpdateError("the record of the last update %s can't be read (%s): move it aside, and name the way "
                          "back yourself: make rollback BACKUP=FILE COMMIT=SHA" % (Path(data) / LAST, e)) from None


def write_last(data, last):
    """last-update.json, written whole (a temporary name, synced, renamed, the folder synced)."""
    path = Path(data) / LAST
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(last, indent=1) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def newest(folder, before):
    """The backup `newsdesk backup` just wrote into ``folder``: the newest of its names."""
    made = sorted(p for p in Path(folder).glob("newsdesk-backup-*.zip") if p.name not in before)
    if not made:
        raise UpdateError("the backup step wrote no file into %s" % folder)
    return made[-1]


def update(repo, venv, data, folder, service, dry_run, clock=time.time):
    now = head(repo)
    last = read_last(data)
    resuming = last is not None and last.get("state") == "updating"
    check_first(repo, data, folder, service, updating=True)
    target = published_head(repo)
    print("Updating %s (now at %s, the published head %s)%s" % (repo, now[:12], target[:12],
                                                               ": the plan, nothing is done" if dry_run else ""))
    if resuming:
        before, file = last["before"], last.get("backup")
        if service is not None:
            service = service or bool(last.get("service"))     # stopped by the try that was cut off
        print("- resuming the update from %s that didn't finish%s" % (
            before[:12], ": its backup %s stays the way back" % file if file else ""))
    else:
        before, file = now, None
    last = {"before": before, "target": target, "backup": file, "state": "updating", "service": bool(service),
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock()))}
    print("- record the way back (%s) in %s" % (before[:12], Path(data) / LAST))
    if not dry_run:
        write_last(data, last)          # before the code changes: a killed update still has its way back
    try:
        for step in code_steps(repo, venv, target):
            run(step, dry_run)
        for step in service_steps(service, "stop"):
            run(step, dry_run)
        if file is None:
            file = backup_as_left(venv, data, folder, dry_run)
            last.update(backup=None if file is None else str(file), store_before=file is not None)
            if not dry_run:
                write_last(data, last)      # the way back now has the data as the old code left it
        run(migrate_step(venv, data), dry_run)
        for step in started_steps(service, repo, venv, data):
            run(step, dry_run)
    except UpdateError as e:
        if dry_run:
            raise
        put_back(repo, venv, data, service, before, e)
    after = target if dry_run else head(repo)
    last.update(after=after, state="done")
    if not dry_run:
        write_last(data, last)
    print("\n%s %s -> %s.%s" % ("Would update" if dry_run else "Updated", before[:12], after[:12],
                                " The data as it was is in %s." % file if file else ""))
    # the reinstall as the rollback does it (on 32-bit ARM, pip alone would ask PyPI for wheels it hasn't)
    by_hand = [shlex.join(step.argv) for step in install_steps(repo, Path(venv) / "bin" / "pip")]
    print("To go back to the code and the data before this update:\n"
          "    make rollback          (or: .venv/bin/python deploy/update.py --rollback)\n"
          "which does, by hand (with the service stopped):\n"
          "    %s/bin/newsdesk --data %s restore %s\n"
          "    git -C %s reset --keep %s\n"
          "%s" % (venv, data, file if file else "FILE", repo, before[:12],
                  "\n".join("    " + line for line in by_hand)))
    return last


def backup_as_left(venv, data, folder, dry_run):
    """A backup of the data folder as the old code left it (the service stopped, or run by
    hand and refused by the checks), into ``folder``: its path, or None when there is no store."""
    if not (Path(data) / STORE_FILE).exists():
        print("- no store in %s yet: nothing to back up" % data)
        return None
    if not dry_run:
        Path(folder).mkdir(parents=True, exist_ok=True)
    existing = {p.name for p in Path(folder).glob("*")} if Path(folder).is_dir() else set()
    run(backup_step(venv, data, folder), dry_run)
    return Path(folder) / "newsdesk-backup-<time>.zip" if dry_run else newest(folder, existing)


def put_back(repo, venv, data, service, before, failure):
    """A step of the update failed: the code, its packages and (once the new code may have opened
    it) the data go back to before the update by the rollback, and the service starts again, so
    the table is served as it was. UpdateError in every case: what failed, and where it stands."""
    print("\nThe update failed: %s\nPutting the box back as it was before the update (%s):" % (failure, before[:12]),
          flush=True)
    try:
        rollback(repo, venv, data, service, dry_run=False)
    except UpdateError as e:
        # the rollback's own sentence says what to mend (the backup to name, the step that failed)
        raise UpdateError("%s And putting it back failed too: %s Once that is mended, make rollback goes on from "
                          "there; or run make update again." % (failure, e)) from None
    raise UpdateError("%s The box is back at %s with its data as it was%s; make update tries again."
                      % (failure, before[:12], ", and its service started again" if service else "")) from None


def rollback(repo, venv, data, service, dry_run, backup=None, commit=None):
    """Back to the last update's commit and backup (last-update.json), or to ``commit`` and
    ``backup`` when given (make rollback BACKUP=... COMMIT=...)."""
    last = read_last(data)
    if last is None:
        if not (backup and commit):
            raise UpdateError("there is no update to roll back in %s (no %s): name them, make rollback "
                              "BACKUP=FILE COMMIT=SHA" % (data, LAST))
        last = {}
    last.update({k: v for k, v in (("backup", backup), ("before", commit)) if v})
    if last.get("backup") and not Path(last["backup"]).is_file():
        raise UpdateError("the rollback can't start, nothing was changed: its backup %s is missing (plug in the "
                          "stick it is on, or name another: make rollback BACKUP=FILE)" % last["backup"])
    if _git(repo, "cat-file", "-e", "%s^{commit}" % last["before"]).returncode != 0:
        raise UpdateError("the rollback can't start, nothing was changed: the commit %s is not in %s"
                          % (last["before"], repo))
    check_first(repo, data, None, service, updating=False)     # with the service as it runs now
    if service is not None:
        service = service or bool(last.get("service"))     # a cut-off update or rollback may have left it stopped
    print("Rolling back to %s%s%s" % (last["before"][:12], " and the backup %s" % last["backup"] if last.get("backup")
                                      else "", ": the plan, nothing is done" if dry_run else ""))
    if not last.get("backup"):
        # the backup is made once the service has stopped, just before the new code opens the data
        print("- nothing to restore: %s" % ("there was no store before the update (the new code's stays)"
                                             if last.get("store_before") is False
                                             else "the update stopped before the new code opened the data"))
    for step in rollback_plan(repo, venv, data, last, service):
        try:
            run(step, dry_run)
        except UpdateError as e:
            if step.what == RESTORE_STEP and not dry_run:
                started_again(service, e)
            raise
    if not dry_run:
        (Path(data) / LAST).unlink(missing_ok=True)
        print("Back at %s with the data from before the update." % last["before"][:12], flush=True)


def started_again(service, failure):
    """The rollback's restore refused its backup (damaged, or not a backup: the restore checks it
    whole and changes nothing then) or stopped part way (the next start finishes it): the code
    has not moved yet, so the service the rollback stopped is started again rather than left
    stopped, the table without its panel. UpdateError in every case, saying so."""
    if not service:
        return
    try:
        for step in service_steps(service, "start"):
            run(step, False)
    except UpdateError as e:
        raise UpdateError("%s And starting the panel's service again failed too: %s" % (failure, e)) from None
    raise UpdateError("%s The code was not moved back, and the panel's service is started again; mend that, or "
                      "name another backup: make rollback BACKUP=FILE" % failure) from None


def checkout_owner(repo):
    """(uid, name) of the user who owns the checkout ``repo``, or None if it can't be read."""
    try:
        uid = os.stat(repo).st_uid
    except OSError:
        return None
    return uid, user_name(uid)


def user_name(uid):
    import pwd
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return "user %d" % uid


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print the plan; change nothing")
    parser.add_argument("--rollback", action="store_true", help="back to the commit and data before the last update")
    parser.add_argument("--backup", help="with --rollback: the backup to restore (default: the last update's)")
    parser.add_argument("--commit", help="with --rollback: the commit to go back to (default: the last update's)")
    parser.add_argument("--data", help="the data folder (default: as newsdesk finds it: NEWSDESK_DATA, ...)")
    parser.add_argument("--repo", default=str(HERE), help="the checkout to update (default: this one)")
    parser.add_argument("--venv", help="its virtual environment (default: REPO/.venv)")
    parser.add_argument("--no-service", action="store_true",
                        help="don't stop and start the systemd service around the migration")
    args = parser.parse_args(argv)
    venv = Path(args.venv or Path(args.repo) / ".venv")
    owner = checkout_owner(args.repo)
    if owner is not None and os.geteuid() != owner[0]:
        # another user's files (root's, from sudo) in the checkout, the venv and the backups would
        # trip the owner's next update
        print("update: run make update and make rollback as %s, who owns %s, not as %s (not with sudo): they ask "
              "for sudo themselves to stop and start the service" % (owner[1], args.repo, user_name(os.geteuid())),
              file=sys.stderr)
        return 1
    try:
        data, folder = settings(args.data)
        service = None if args.no_service else service_running()     # None: never touched
        if args.rollback:
            rollback(args.repo, venv, data, service, args.dry_run, args.backup, args.commit)
        else:
            update(args.repo, venv, data, folder, service, args.dry_run)
    except UpdateError as e:
        print("update: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
