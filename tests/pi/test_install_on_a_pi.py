"""`make install` on an emulated Raspberry Pi, as its owner would do it (make test-pi; docs/install.md).

Per architecture (NEWSDESK_PI_ARCHES, default "arm64 armhf") and release (NEWSDESK_PI_SUITE,
default bookworm): a fresh copy of the kept Debian root, booted by systemd; in it, as the user
pi: `git clone` of this repository's committed HEAD, `make install-plan`, `make install`; then
the service enabled and answering on this machine's LAN address, back after `kill -9`, back
after a reboot with the game that was being played, `newsdesk doctor` with nothing to fix, an
update to a newer commit and a rollback from it, `make uninstall` (the service gone, the games
kept) and `make install` again (the same game served), and no ERROR from the service in the
journal.

The tests of a module share one box and run in order: each builds on the one before (a later one
is skipped, saying why, when an earlier one failed).
"""

import json
import os
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from emulated_pi import ARCHES, Box, LaneError, root_for

from controller import lan

PORT = 8080
SUITE = os.environ.get("NEWSDESK_PI_SUITE", "bookworm")
WRITE = {"X-Newsdesk": "1", "Content-Type": "application/json"}
FIGURES = []            # (arch, what, seconds): the terminal summary prints them (conftest.py)
pytestmark = pytest.mark.pi


def arches():
    chosen = os.environ.get("NEWSDESK_PI_ARCHES", "arm64 armhf").split()
    unknown = [a for a in chosen if a not in ARCHES]
    if unknown:
        raise pytest.UsageError("NEWSDESK_PI_ARCHES: %s isn't one of %s" % (", ".join(unknown), ", ".join(ARCHES)))
    return chosen


def http(url, body=None, timeout=10):
    """(status, JSON or text) of a GET, or a POST of ``body``; (0, reason) when nothing answers."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=WRITE if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            raw = r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        raw, status = e.read(), e.code
    except (OSError, urllib.error.URLError) as e:
        return 0, str(e)
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def wait_healthy(base, timeout=120):
    end = time.monotonic() + timeout
    status = 0
    while time.monotonic() < end:
        status, _ = http(base + "api/health", timeout=5)
        if status == 200:
            return True
        time.sleep(1)
    return False


class Lane:
    def __init__(self, arch, box, upstream, log):
        self.arch, self.box, self.upstream, self.log = arch, box, upstream, log
        self.failed = None          # the first step that failed: the later ones need it
        address = (lan.ipv4_addresses() or ["127.0.0.1"])[0]
        self.lan_base = "http://%s:%d/" % (address, PORT)      # a tablet on the table's network
        self.host_base = "http://127.0.0.1:%d/" % PORT          # the box's own screen: the host

    def step(self, what, function):
        if self.failed:
            pytest.skip("%s: %s failed first" % (self.arch, self.failed))
        started = time.monotonic()
        try:
            result = function()
        except BaseException:
            self.failed = what
            raise
        FIGURES.append((self.arch, what, time.monotonic() - started))
        return result

    def pi(self, command, **kw):
        return self.box.sh(command, user="pi", **kw)

    def main_pid(self):
        return self.box.sh("systemctl show -p MainPID --value newsdesk.service").strip()


@pytest.fixture(scope="module", params=arches())
def lane(request, tmp_path_factory):
    status, _ = http("http://127.0.0.1:%d/" % PORT, timeout=2)
    if status:
        pytest.fail("something on this machine already answers on port %d: the emulated box's panel needs it" % PORT)
    arch = request.param
    work = tmp_path_factory.mktemp("pi-" + arch)
    lines = open(work / "lane.log", "w")

    def log(text):
        lines.write(text + "\n")
        lines.flush()
    started = time.monotonic()
    try:
        kept = root_for(SUITE, arch, log)
    except LaneError as e:
        pytest.fail(str(e))
    FIGURES.append((arch, "the kept root (made if missing)", time.monotonic() - started))
    # the repository the box clones and pulls from: this checkout's committed history
    upstream = work / "upstream.git"
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run(["git", "clone", "--quiet", "--bare", repo, str(upstream)], check=True)
    box = Box(kept, work, binds=[(str(upstream), "/srv/newsdesk.git")], log=log)
    box.copy()
    subprocess.run(["chown", "-R", "%d:%d" % box.uid("pi"), str(upstream)], check=True)    # pi's, as on a server
    try:
        FIGURES.append((arch, "boot", box.start()))
        yield Lane(arch, box, upstream, log)
    finally:
        box.stop()
        lines.close()
        print("\n%s: the lane's log is %s, the console's %s" % (arch, work / "lane.log", box.console))
        if os.environ.get("NEWSDESK_PI_KEEP") != "1":
            subprocess.run(["rm", "-rf", str(box.root)])


def test_make_install_as_the_pi_user(lane):
    def install():
        lane.pi("git clone --quiet /srv/newsdesk.git newsdesk")
        plan = lane.pi("cd newsdesk && make install-plan")
        assert "would run: systemctl enable newsdesk.service" in plan and "not a Raspberry Pi" not in plan, plan
        said = lane.pi("cd newsdesk && make install")
        assert "The panel is at:" in said and "http://raspberrypi.local:%d/" % PORT in said, said
        return said
    said = lane.step("make install", install)
    if lane.arch == "armhf":        # PyPI has no 32-bit ARM wheels of these: Debian's, seen through the venv
        where = lane.pi("newsdesk/.venv/bin/python -c 'import PIL, cbor2; print(PIL.__file__, cbor2.__file__)'")
        assert where.count("/usr/lib/python3/dist-packages/") == 2, where
    # Debian has no python3-lgpio: it came from PyPI, and the installer said so in a sentence
    assert "isn't in this system's package lists" in said
    lane.pi("newsdesk/.venv/bin/python -c 'import lgpio'")
    # no raspi-config either: I2C is on as raspi-config would have written it, the amplifier's overlay too
    config_txt = lane.box.sh("cat /boot/firmware/config.txt").splitlines()
    assert "dtparam=i2c_arm=on" in config_txt and "#dtparam=i2c_arm=on" not in config_txt
    assert "dtoverlay=max98357a,no-sdmode" in config_txt
    assert "i2c-dev" in lane.box.sh("cat /etc/modules").split()
    assert "gpio" in lane.box.sh("id -nG pi").split()


def test_the_service_is_enabled_and_answers_where_a_tablet_looks(lane):
    def serving():
        assert lane.box.sh("systemctl is-enabled newsdesk.service").strip() == "enabled"
        assert lane.box.sh("systemctl is-enabled avahi-daemon.service").strip() == "enabled"    # <name>.local
        assert wait_healthy(lane.lan_base), "no answer at %s" % lane.lan_base
        said = lane.box.sh("journalctl -b -u newsdesk.service --no-pager -o cat")
        assert "tablets on this network open http://raspberrypi.local:%d/" % PORT in said, said[-3000:]
    lane.step("the service on the LAN", serving)


def test_a_game_is_played_and_the_service_comes_back_after_kill_9(lane):
    def killed():
        status, body = http(lane.host_base + "api/games", {"engine": "scan", "options": {},
                                                           "players": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]})
        assert status == 201, body
        lane.game = body["game"]           # its id
        before = lane.main_pid()
        lane.box.sh("kill -9 %s" % before)
        end = time.monotonic() + 60
        while time.monotonic() < end and lane.main_pid() in ("0", before):
            time.sleep(0.5)
        assert lane.main_pid() not in ("0", before), "systemd didn't start the panel again"
        assert wait_healthy(lane.lan_base)
        assert http(lane.host_base + "api/games/current")[1]["game"]["id"] == lane.game
    lane.step("back after kill -9", killed)


def test_after_a_reboot_it_serves_again_with_the_game_kept(lane):
    def rebooted():
        lane.box.reboot()
        assert wait_healthy(lane.lan_base, timeout=180)
        assert http(lane.host_base + "api/games/current")[1]["game"]["id"] == lane.game
    lane.step("a reboot", rebooted)


def test_doctor_finds_nothing_to_fix(lane):
    def doctor():
        said = lane.pi("newsdesk doctor", check=False)      # on pi's PATH, as the docs type it
        assert "0 to fix" in said and "[exit" not in said, said
        return said
    lane.step("newsdesk doctor", doctor)


def test_update_to_a_newer_commit_and_roll_back(lane, tmp_path):
    def update():
        old = lane.pi("git -C newsdesk rev-parse HEAD").strip()
        # a newer commit upstream, as a release would be
        work = tmp_path / "release"
        # the upstream is pi's: git here (root) trusts it through a global config of its own
        (tmp_path / "gitconfig").write_text("[safe]\n\tdirectory = *\n")
        env = dict(os.environ, GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"))
        subprocess.run(["git", "clone", "--quiet", str(lane.upstream), str(work)], check=True, env=env)
        (work / "docs" / "release-note.txt").write_text("a newer release\n")
        git = ["git", "-C", str(work), "-c", "user.name=lane", "-c", "user.email=lane@localhost"]
        subprocess.run(git + ["add", "docs/release-note.txt"], check=True, env=env)
        subprocess.run(git + ["commit", "--quiet", "-m", "a newer release"], check=True, env=env)
        subprocess.run(git + ["push", "--quiet", "origin", "HEAD"], check=True, env=env)
        new = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, env=env).stdout.strip()
        said = lane.pi("cd newsdesk && make update", check=False)
        assert "[exit" not in said, said[-4000:]
        assert lane.pi("git -C newsdesk rev-parse HEAD").strip() == new
        assert wait_healthy(lane.lan_base)
        said = lane.pi("cd newsdesk && make rollback", check=False)
        assert "[exit" not in said, said[-4000:]
        assert lane.pi("git -C newsdesk rev-parse HEAD").strip() == old
        assert wait_healthy(lane.lan_base)
        assert http(lane.host_base + "api/games/current")[1]["game"]["id"] == lane.game
    lane.step("make update and make rollback", update)


def test_make_uninstall_keeps_the_games_and_make_install_brings_them_back(lane):
    def uninstall():
        said = lane.pi("cd newsdesk && make uninstall", check=False)
        assert "[exit" not in said and "The panel is removed. Kept:" in said, said[-4000:]
        assert lane.box.sh("test -e /etc/systemd/system/newsdesk.service && echo there || echo gone").strip() == "gone"
        assert lane.box.sh("systemctl is-active newsdesk.service", check=False).startswith("inactive")
        assert http(lane.lan_base + "api/health", timeout=5)[0] == 0
        assert "newsdesk.sqlite3" in lane.box.sh("ls /var/lib/newsdesk").split()
        assert lane.box.sh("test -e /usr/local/bin/newsdesk && echo there || echo gone").strip() == "gone"
        said = lane.pi("cd newsdesk && make install", check=False)
        assert "[exit" not in said and "The panel is at:" in said, said[-4000:]
        assert lane.box.sh("systemctl is-enabled newsdesk.service").strip() == "enabled"
        assert wait_healthy(lane.lan_base)
        assert http(lane.host_base + "api/games/current")[1]["game"]["id"] == lane.game
    lane.step("make uninstall and make install again", uninstall)


def test_the_service_logged_no_error(lane):
    def journal():
        said = lane.box.sh("journalctl -u newsdesk.service -p err --no-pager -o cat")
        assert said.strip() in ("", "-- No entries --"), said
    lane.step("the journal", journal)
