"""Waits for the panel just installed to answer (what `make install` runs last, with the system's
python3 and the standard library only):

    python3 deploy/answers.py PORT [SECONDS]

`systemctl restart` returns as soon as the process is started, and a panel that stops at once
(its pins out of reach, a setting it can't read) would leave the installer saying where it is.
Exit 0 once http://127.0.0.1:PORT/api/health answers; else 1 with the service's last log lines
and one sentence, as soon as systemd gives the service up, or after SECONDS (default 120: a first
start on a Pi Zero, or under emulation, compiles every module)."""

import subprocess
import sys
import time
import urllib.error
import urllib.request

SERVICE = "newsdesk.service"


def answers(port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/api/health" % port, timeout=5) as r:
            return r.status == 200
    except (OSError, urllib.error.URLError, ValueError):
        return False


def given_up():
    """systemd has stopped restarting it (a refused start, exit 2, or too many failures)."""
    try:
        return subprocess.run(["systemctl", "is-failed", "--quiet", SERVICE]).returncode == 0
    except OSError:         # no systemctl: only the time limit ends the wait
        return False


def main(argv):
    port = int(argv[1])
    seconds = float(argv[2]) if len(argv) > 2 else 120.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if answers(port):
            return 0
        if given_up():
            break
        time.sleep(1)
    try:
        subprocess.run(["journalctl", "-u", SERVICE, "-n", "20", "--no-pager", "-o", "cat"])
    except OSError:
        pass
    print("The panel didn't answer on port %d: its last log lines are above (all of them: journalctl -u %s). "
          "Mend what they say and run make install again; every step is safe to repeat." % (port, SERVICE),
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
