"""An emulated Raspberry Pi for the install lane (`make test-pi`): Debian's own packages only.

A Debian root for arm64 or armhf is made with debootstrap from the Debian mirror this machine's
apt already uses, once per machine, and kept outside the checkout (NEWSDESK_PI_ROOTS, default
/var/cache/newsdesk-pi); each run boots a fresh copy of it with `systemd-nspawn -b`, its arm
binaries run by qemu-user-static through binfmt_misc (registered here, from qemu's own
/usr/lib/binfmt.d entries, when this machine hasn't). What a Pi owner's image has and Debian's
doesn't is added the way Raspberry Pi OS has it: a first user `pi` with passwordless sudo, the
host name raspberrypi, /boot/firmware/config.txt.

What an emulated root can't be (docs/install.md says what the lane therefore can't show): it has
no device tree, so it can't say it is a Pi; board.py's one test hook, EMULATED_PI_FILE, is
written into the root for that and nothing else. No pins, no I2C bus, no sound card, no reboot
of a real kernel: a reboot here is systemd's inside the container, the container started again
as systemd-nspawn@.service would.

The container shares this machine's network (apt and pip inside reach Debian and PyPI as this
machine does), so the panel it serves is on this machine's own addresses.
"""

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

ARCHES = {"arm64": "aarch64", "armhf": "arm"}      # dpkg's name: qemu's
PACKAGES = ("systemd", "systemd-sysv", "dbus", "sudo", "git", "make", "python3", "ca-certificates",
            "iproute2", "procps", "hostname", "netbase")
RECIPE = 3          # bump when the root's making changes: a kept root of another recipe is made again
MODEL = "Raspberry Pi 4 Model B Rev 1.5"
HOSTNAME = "raspberrypi"
BOOT_CONFIG = """\
# the first lines of Raspberry Pi OS's /boot/firmware/config.txt
# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

[all]
"""


class LaneError(Exception):
    """The lane can't run here; the message says what is missing."""


def roots_dir():
    return Path(os.environ.get("NEWSDESK_PI_ROOTS", "/var/cache/newsdesk-pi"))


def missing_tools():
    need = {"debootstrap": "debootstrap", "systemd-nspawn": "systemd-container", "nsenter": "util-linux",
            "qemu-aarch64-static": "qemu-user-static", "qemu-arm-static": "qemu-user-static"}
    return sorted({pkg for tool, pkg in need.items() if not shutil.which(tool)})


def debian_mirror(sources=("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list")):
    """The Debian archive this machine's apt uses (NEWSDESK_PI_MIRROR overrides)."""
    if os.environ.get("NEWSDESK_PI_MIRROR"):
        return os.environ["NEWSDESK_PI_MIRROR"]
    for path in sources:
        try:
            text = Path(path).read_text()
        except OSError:
            continue
        for uri in re.findall(r"(?m)^(?:URIs:\s*|deb\s+(?:\[[^]]*\]\s+)?)(\S+)", text):
            if "security" not in uri and uri.rstrip("/").endswith("/debian"):
                return uri
    raise LaneError("no Debian mirror in this machine's apt sources: set NEWSDESK_PI_MIRROR")


def register_binfmt(arch):
    """qemu-user-static's binfmt entry for ``arch`` (qemu's own /usr/lib/binfmt.d line), with the
    flags the box needs: F opens the interpreter now, so it runs inside the container's root too,
    and C takes a program's credentials from the program, not from qemu, so that sudo (setuid
    root) is root. An entry this machine registered without them is registered again with them."""
    qemu = ARCHES[arch]
    misc = Path("/proc/sys/fs/binfmt_misc")
    if not (misc / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(misc)], check=True)
    current = misc / ("qemu-" + qemu)
    if current.exists():
        flags = re.search(r"(?m)^flags: *(\S*)", current.read_text())
        if flags and "F" in flags.group(1) and "C" in flags.group(1):
            return
        current.write_text("-1")        # unregister, to register again with F and C
    entry = Path("/usr/lib/binfmt.d/qemu-%s.conf" % qemu).read_text().strip()
    name, flags = entry.rsplit(":", 1)
    (misc / "register").write_text("%s:%s" % (name, "".join(sorted(set(flags) | set("FCO")))))


def root_for(suite, arch, log):
    """The kept root of ``suite`` for ``arch``, made first if it isn't there (minutes: debootstrap's
    second stage runs under qemu). Made in a folder of its own and renamed into place when whole,
    so a run cut off leaves no half-made root behind."""
    register_binfmt(arch)
    root = roots_dir() / ("%s-%s" % (suite, arch))
    stamp = root / "etc" / "newsdesk-lane-recipe"
    if stamp.is_file() and stamp.read_text().strip() == str(RECIPE):
        return root
    roots_dir().mkdir(parents=True, exist_ok=True)
    making = roots_dir() / ("%s-%s.making" % (suite, arch))
    shutil.rmtree(making, ignore_errors=True)
    started = time.monotonic()
    run(["debootstrap", "--arch=" + arch, "--variant=minbase", "--include=" + ",".join(PACKAGES),
         suite, str(making), debian_mirror()], log)
    _as_raspberry_pi_os_has_it(making, log)
    (making / "etc" / "newsdesk-lane-recipe").write_text("%d\n" % RECIPE)
    shutil.rmtree(root, ignore_errors=True)
    making.rename(root)
    log("made the %s %s root in %.0f s: %s" % (suite, arch, time.monotonic() - started, root))
    return root


def _as_raspberry_pi_os_has_it(root, log):
    (root / "etc" / "hostname").write_text(HOSTNAME + "\n")
    hosts = root / "etc" / "hosts"
    hosts.write_text(hosts.read_text() if hosts.exists() else "127.0.0.1\tlocalhost\n")
    with open(hosts, "a") as f:
        f.write("127.0.1.1\t%s\n" % HOSTNAME)
    run(["chroot", str(root), "useradd", "-m", "-s", "/bin/bash", "-G", "sudo,audio,dialout", "pi"], log)
    (root / "etc" / "sudoers.d" / "010_pi-nopasswd").write_text("pi ALL=(ALL) NOPASSWD: ALL\n")
    os.chmod(root / "etc" / "sudoers.d" / "010_pi-nopasswd", 0o440)
    (root / "boot" / "firmware").mkdir(parents=True, exist_ok=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    hook = root / "etc" / "newsdesk" / "emulated-pi"       # controller/board.py's EMULATED_PI_FILE
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(MODEL + "\n")
    # no serial console on a container: its getty would only restart
    run(["chroot", str(root), "systemctl", "mask", "serial-getty@ttyS0.service"], log)


def run(argv, log, **kw):
    log("$ " + " ".join(map(str, argv)))
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if done.returncode != 0:
        raise LaneError("%s failed (exit %d): %s" % (argv[0], done.returncode, done.stdout[-3000:]))
    return done.stdout


class Box:
    """A booted copy of a kept root: start(), sh() inside it as root or as pi, reboot(), stop()."""

    def __init__(self, kept_root, work, binds=(), log=print):
        self.kept_root = Path(kept_root)
        self.root = Path(work) / "root"
        self.console = Path(work) / "console.log"
        self.binds = list(binds)
        self.log = log
        self.proc = None
        self.boots = 0

    def copy(self):
        started = time.monotonic()
        shutil.rmtree(self.root, ignore_errors=True)
        run(["cp", "-a", "--reflink=auto", str(self.kept_root), str(self.root)], self.log)
        self.trust_as_this_machine_does()
        self.log("copied the root in %.1f s" % (time.monotonic() - started))

    def trust_as_this_machine_does(self):
        """The box reaches Debian and PyPI through this machine's network, so it trusts the
        certificate authorities this machine trusts (a network whose proxy signs TLS with a CA of
        its own needs that), and pip is told to use that bundle, not the one it carries."""
        bundle = Path("/etc/ssl/certs/ca-certificates.crt")
        if bundle.is_file():
            shutil.copyfile(bundle, self.root / "etc" / "ssl" / "certs" / "ca-certificates.crt")
            (self.root / "etc" / "pip.conf").write_text("[global]\ncert = %s\n" % bundle)

    def uid(self, user):
        """(uid, gid) of ``user`` in the box's own /etc/passwd."""
        for line in (self.root / "etc" / "passwd").read_text().splitlines():
            fields = line.split(":")
            if fields[0] == user:
                return int(fields[2]), int(fields[3])
        raise LaneError("the box has no user %r" % user)

    def start(self, timeout=300):
        self.boots += 1
        argv = ["systemd-nspawn", "-D", str(self.root), "--register=no", "--keep-unit", "-b",
                "--console=read-only", "-M", HOSTNAME] + ["--bind-ro=%s:%s" % pair for pair in self.binds]
        self.log("$ " + " ".join(argv))
        console = open(self.console, "a")
        console.write("\n--- boot %d ---\n" % self.boots)
        console.flush()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        console.close()
        started = time.monotonic()
        state = ""
        while time.monotonic() - started < timeout:
            if self.proc.poll() is not None:
                raise LaneError("the container stopped while booting (exit %s): %s"
                                % (self.proc.returncode, self.console.read_text()[-2000:]))
            if self.leader():
                state = self.sh("systemctl is-system-running || true", check=False, timeout=30).strip()
                if state in ("running", "degraded"):
                    self.log("booted (%s) in %.0f s" % (state, time.monotonic() - started))
                    return time.monotonic() - started
            time.sleep(1)
        raise LaneError("the container didn't finish booting in %d s (%r)" % (timeout, state))

    def leader(self):
        """The container's PID 1 (systemd, under qemu), as this machine numbers it; None before it is there."""
        if self.proc is None:
            return None
        mine = os.readlink("/proc/self/ns/pid")
        todo = [self.proc.pid]
        while todo:
            pid = todo.pop()
            try:
                children = Path("/proc/%d/task/%d/children" % (pid, pid)).read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                try:
                    if os.readlink("/proc/%d/ns/pid" % child) != mine:
                        return child
                except OSError:
                    continue
                todo.append(child)
        return None

    def sh(self, command, user="root", check=True, timeout=900):
        """Run a shell command inside, as root or (user="pi") as pi in a login shell; its output."""
        leader = self.leader()
        if leader is None:
            raise LaneError("the container isn't running")
        inner = ["runuser", "-l", user, "-c", command] if user != "root" else ["sh", "-c", command]
        argv = ["nsenter", "-t", str(leader), "-m", "-u", "-i", "-n", "-p", "--",
                "env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "HOME=/root", "LANG=C.UTF-8"] + inner
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise LaneError("%r exited %d inside the box:\n%s" % (command, done.returncode, done.stdout[-4000:]))
        return done.stdout if check else done.stdout + ("" if done.returncode == 0 else "\n[exit %d]" % done.returncode)

    def reboot(self, timeout=300):
        """systemd's reboot inside; systemd-nspawn then exits 133, and is started again (what
        systemd-nspawn@.service does), on the same root."""
        self.sh("systemctl reboot", check=False, timeout=60)
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise LaneError("the container didn't go down for its reboot in %d s" % timeout) from None
        if status != 133:
            raise LaneError("systemd-nspawn exited %d on a reboot (133 is a reboot)" % status)
        return self.start(timeout)

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.sh("systemctl poweroff", check=False, timeout=30)
            self.proc.wait(timeout=120)
        except (LaneError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
