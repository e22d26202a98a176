"""Updates newsdesk in place, and says how to go back (what `make update` runs):

    .venv/bin/python deploy/update.py              back up, pull, reinstall, migrate, restart
    .venv/bin/python deploy/update.py --dry-run    prints the plan; changes nothing
    .venv/bin/python deploy/update.py --rollback   back to the commit and the data before the last update

An update, in order, each step printed before it runs and the first that fails stopping it:

1. a backup of the data folder (`newsdesk backup`: the store copied by SQLite's online backup
   API, so the panel may go on serving) into backup_dir when it is set, else into the data
   folder's backups/ folder: the data as the old code left it, for a rollback;
2. `git pull --ff-only`: only the published history, never a merge of local edits;
3. the venv's packages reinstalled from requirements.txt, and newsdesk itself (as `make run` does);
4. the panel's service stopped (when it is installed and running), `newsdesk migrate` (the new
   code opens the store, which brings its schema forward, so a store it can't read is found now,
   not at the table), and the service started again;
5. the way back printed, and kept in the data folder's last-update.json for `--rollback`.

A rollback moves the checkout back to the commit before the update (`git reset --keep`, which
refuses rather than lose a local edit), reinstalls, and restores the backup (`newsdesk restore`:
checked whole, the current data kept in a replaced-<time> folder): a store the new code migrated
forward is one the old code refuses, so the data goes back with the code.

Runs with the venv's Python (it reads the settings through controller.config, from this
checkout); the commands it runs are printed in full. docs/keeping.md tells the same for people.
"""

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent       # the checkout this script belongs to
SERVICE = "newsdesk"
UNIT_PATH = Path("/etc/systemd/system/newsdesk.service")     # deploy/install.py puts it there
STORE_FILE = "newsdesk.sqlite3"    # controller/store.py's name for the store (checked by tests/test_update.py)
LAST = "last-update.json"           # in the data folder: what --rollback undoes
BACKUPS = "backups"                 # in the data folder, when backup_dir is not set


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


def service_steps(service, verb):
    return [Step("%s the panel's service" % verb, ["sudo", "systemctl", verb, SERVICE])] if service else []


def update_plan(repo, venv, data, folder, service):
    """The steps of an update of the checkout ``repo`` whose venv is ``venv``; ``service``: the
    panel runs as the systemd service (stopped around the migration)."""
    pip = Path(venv) / "bin" / "pip"
    return [
        Step("back up the data folder into %s" % folder, newsdesk(venv, data) + ["backup", str(folder) + "/"]),
        Step("take the published changes (fast-forward only)", ["git", "-C", repo, "pull", "--ff-only"]),
        *install_steps(repo, pip),
        *service_steps(service, "stop"),
        Step("open the store with the new code, which brings its schema forward", newsdesk(venv, data) + ["migrate"]),
        *service_steps(service, "start"),
    ]


def install_steps(repo, pip):
    return [
        Step("reinstall the packages newsdesk needs", [pip, "install", "--quiet", "-r", Path(repo) / "requirements.txt",
                                                      "setuptools>=77"]),
        Step("reinstall newsdesk itself", [pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", repo]),
    ]


def rollback_plan(repo, venv, data, last, service):
    """The steps back to ``last`` (last-update.json): the commit before the update and its backup."""
    pip = Path(venv) / "bin" / "pip"
    return [
        *service_steps(service, "stop"),
        Step("move the checkout back to %s" % last["before"][:12], ["git", "-C", repo, "reset", "--keep", last["before"]]),
        *install_steps(repo, pip),
        Step("restore the backup made before the update", newsdesk(venv, data) + ["restore", "--yes", last["backup"]]),
        *service_steps(service, "start"),
    ]


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


def newest(folder, before):
    """The backup `newsdesk backup` just wrote into ``folder``: the newest of its names."""
    made = sorted(p for p in Path(folder).glob("newsdesk-backup-*.zip") if p.name not in before)
    if not made:
        raise UpdateError("the backup step wrote no file into %s" % folder)
    return made[-1]


def update(repo, venv, data, folder, service, dry_run, clock=time.time):
    before = head(repo)
    print("Updating %s (now at %s)%s" % (repo, before[:12], ": the plan, nothing is done" if dry_run else ""))
    steps = update_plan(repo, venv, data, folder, service)
    if not (Path(data) / STORE_FILE).exists():
        print("- no store in %s yet: nothing to back up" % data)
        steps, file = steps[1:], None
    else:
        if not dry_run:
            Path(folder).mkdir(parents=True, exist_ok=True)
        existing = {p.name for p in Path(folder).glob("*")} if Path(folder).is_dir() else set()
        run(steps.pop(0), dry_run)
        file = Path(folder) / "newsdesk-backup-<time>.zip" if dry_run else newest(folder, existing)
    for step in steps:
        run(step, dry_run)
    after = before if dry_run else head(repo)
    last = {"before": before, "after": after, "backup": str(file) if file else None,
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock()))}
    if not dry_run:
        (Path(data) / LAST).write_text(json.dumps(last, indent=1) + "\n", encoding="utf-8")
    print("\n%s %s -> %s. The data as it was is in %s." % (
        "Would update" if dry_run else "Updated", before[:12], "(the published head)" if dry_run else after[:12], file))
    print("To go back to the code and the data before this update:\n"
          "    make rollback          (or: .venv/bin/python deploy/update.py --rollback)\n"
          "which does, by hand (with the service stopped):\n"
          "    git -C %s reset --keep %s\n"
          "    %s/bin/pip install -r %s/requirements.txt\n"
          "    %s/bin/newsdesk --data %s restore %s"
          % (repo, before[:12], venv, repo, venv, data, file if last["backup"] else "FILE"))
    return last


def rollback(repo, venv, data, service, dry_run, backup=None, commit=None):
    """Back to the last update's commit and backup (last-update.json), or to ``commit`` and
    ``backup`` when given (make rollback BACKUP=... COMMIT=...)."""
    try:
        last = json.loads((Path(data) / LAST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        if not (backup and commit):
            raise UpdateError("there is no update to roll back in %s (no %s): name them, make rollback "
                              "BACKUP=FILE COMMIT=SHA" % (data, LAST)) from None
        last = {}
    last.update({k: v for k, v in (("backup", backup), ("before", commit)) if v})
    if not last.get("backup"):
        raise UpdateError("the last update made no backup (there was no store): name one, make rollback BACKUP=FILE")
    print("Rolling back to %s and the backup %s%s" % (last["before"][:12], last["backup"],
                                                    ": the plan, nothing is done" if dry_run else ""))
    for step in rollback_plan(repo, venv, data, last, service):
        run(step, dry_run)
    if not dry_run:
        (Path(data) / LAST).unlink(missing_ok=True)
        print("Back at %s with the data from before the update." % last["before"][:12])


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
    try:
        data, folder = settings(args.data)
        service = not args.no_service and service_running()
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
