"""Installs newsdesk on a Raspberry Pi from this checkout, in one command:

    sudo python3 deploy/install.py            (what `make install` runs)
    python3 deploy/install.py --dry-run       prints the plan and the service file; changes nothing

It runs on the images people have: Raspberry Pi OS (Bookworm or Trixie, 64- or 32-bit) and plain
Debian on a Pi (no raspi-config, no Pi package repository). It installs the system packages the
box needs (i2c-tools, alsa-utils, avahi for <hostname>.local; lgpio for the pins from the Pi's
repository, or from PyPI into the venv where the system has none; on 32-bit, Debian's Pillow and
cbor2, which PyPI has no 32-bit ARM wheels of), enables I2C (with raspi-config where there is one,
else by writing what `raspi-config nonint do_i2c 0` writes: dtparam=i2c_arm=on in config.txt and
i2c-dev in /etc/modules) and the I2S amplifier's overlay when the pin map has an I2S line
(leaving GPIO4 alone unless the pin map wires the amplifier's SD pin). Where config.txt is plain
Debian's, written afresh at each kernel upgrade, those lines go into the file it is written from
(/etc/default/raspi-firmware-custom) too. It names the amplifier's card in the data directory's
config.toml (so the handset doesn't play on the Pi's own HDMI or headphone output, ALSA's
default), puts the service user in the gpio/i2c/audio/dialout groups, creates the virtual environment (with the system's site packages, for the apt-installed lgpio
and, on 32-bit, Pillow), creates the data directory after checking it is on durable storage,
installs a systemd service that starts the panel at boot and restarts it when it fails, starts
it, and prints the panel's address.

Runs with the system's python3 and the standard library only (a test imports it with site
packages off); everything it will do is listed as steps before any of it runs, and a tool it
needs that isn't there is one sentence saying what to install, before anything is changed.
"""

import argparse
import getpass
import grp
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "newsdesk.service.in"
UNIT_PATH = "/etc/systemd/system/newsdesk.service"     # controller/config.py's INSTALLED_UNIT (tests/test_update.py)
DEFAULT_DATA = "/var/lib/newsdesk"
PACKAGES = ("python3-venv", "i2c-tools", "alsa-utils", "avahi-daemon")
LGPIO_APT = "python3-lgpio"         # in the Pi's own repository (and Raspberry Pi OS); not in Debian's bookworm
LGPIO_PYPI = "lgpio==0.2.2.0"       # PyPI's wheels: aarch64 and armv7l, for Python 3.9 to 3.12
LGPIO_WHEELS_UP_TO = (3, 12)        # past it (Debian trixie's 3.13) pip builds lgpio from its sdist:
LGPIO_BUILD = ("swig", "gcc", "libc6-dev", "python3-dev")    # what that build needs
MODULES = "/etc/modules"
COMMAND = "/usr/local/bin/newsdesk"     # `newsdesk doctor` typed in a shell, as the docs say it
UDEV_RULES = "/etc/udev/rules.d/60-newsdesk-pins.rules"
# the Debian package that brings each command the plan runs, for the sentence when one is missing
TOOL_PACKAGES = {"apt-get": "apt", "systemctl": "systemd", "runuser": "util-linux", "usermod": "passwd",
                 "groupadd": "passwd", "install": "coreutils", "ln": "coreutils", "python3": "python3", "sh": "dash",
                 "raspi-config": "raspi-config", "udevadm": "udev", "rm": "coreutils"}
I2C_SETTING = "dtparam=i2c_arm=on"
GROUPS = ("gpio", "i2c", "audio", "dialout")
BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")   # Bookworm on, then older
# plain Debian's raspi-firmware writes config.txt afresh at each kernel or firmware upgrade, from its
# own template and this file's lines (its config.txt names it, under "Do not modify this file!")
FIRMWARE_CUSTOM = "/etc/default/raspi-firmware-custom"
MIN_PYTHON = (3, 11)


class InstallError(Exception):
    """The installer can't go on; the message says why and what to do."""


class Step:
    """One thing the installer does: run a command, or write a file (append=True adds a line)."""

    __slots__ = ("what", "argv", "path", "content", "append", "reboot", "optional", "owner", "encoding")

    def __init__(self, what, argv=None, path=None, content=None, append=False, reboot=False, optional=None,
                 owner=None, encoding="utf-8"):
        self.what = what
        self.argv = argv
        self.path = path
        self.content = content
        self.append = append
        self.reboot = reboot    # takes effect only after a reboot: what for ("the I2S amplifier")
        self.optional = optional    # if it fails: this sentence is said and the install goes on
        self.owner = owner      # (user, group) the written file is given to, else root's
        self.encoding = encoding    # config.txt is read and written byte for byte (latin-1)

    def __repr__(self):
        return "<Step %s>" % self.what


class Facts:
    """What the installer found out about this machine (gathered, or handed in by tests)."""

    def __init__(self, **kw):
        self.repo = Path(kw.get("repo", REPO))
        self.user = kw["user"]
        self.user_exists = kw.get("user_exists", True)
        self.group = kw.get("group", self.user)
        self.data = Path(kw.get("data", DEFAULT_DATA))
        self.is_pi = kw.get("is_pi", False)
        self.model = kw.get("model", "")
        self.euid = kw.get("euid", 0)
        self.python = tuple(kw.get("python", sys.version_info[:2]))
        self.boot_config = kw.get("boot_config")            # path, or None if there is none
        self.boot_config_text = kw.get("boot_config_text", "")
        self.groups = tuple(kw.get("groups", GROUPS))       # the ones the service user joins
        self.missing_groups = tuple(kw.get("missing_groups", ()))  # of those, the ones this system lacks
        self.venv = kw.get("venv", "missing")               # missing | isolated | system-site
        self.hostname = kw.get("hostname", "raspberrypi")
        self.addresses = tuple(kw.get("addresses", ()))
        self.port = kw.get("port", 8080)
        self.buses = set(kw.get("buses", ()))               # "i2c", "i2s": what the pin map uses
        self.sd_pin = kw.get("sd_pin")                      # the amplifier's SD pin, if the pin map wires it
        self.config_text = kw.get("config_text")            # the data directory's config.toml, or None
        self.mountinfo = kw.get("mountinfo")                # None: don't check
        self.allow_volatile = kw.get("allow_volatile", False)
        self.arch = kw.get("arch", "arm64")                 # dpkg's architecture: arm64 | armhf | ...
        self.raspi_config = kw.get("raspi_config", True)    # raspi-config is installed
        self.modules_text = kw.get("modules_text", "")      # /etc/modules
        self.firmware_custom_text = kw.get("firmware_custom_text", "")   # FIRMWARE_CUSTOM, "" if none
        self.missing_tools = tuple(kw.get("missing_tools", ()))   # the plan's commands not on PATH
        self.command = kw.get("command")                    # what COMMAND is: None (nothing), a link's target, or "file"


def python_version():
    return sys.version_info[:2]


def _controller():
    """The repo's own modules (standard library only): config defaults, pin map, durability."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from controller import config, durability, pinmap
    return config, durability, pinmap


def _wheels():
    """deploy/wheels.py: which pins PyPI has no wheels of here (it runs as a script too)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("newsdesk_wheels", Path(__file__).resolve().parent / "wheels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _board():
    _controller()
    from controller import board, lan
    return board, lan


def _audio():
    _controller()
    from controller.audio import device
    return device


def gather(args, environ=os.environ):
    """Look at this machine; nothing is changed."""
    config, _, pinmap = _controller()
    user = args.user or environ.get("SUDO_USER") or getpass.getuser()
    try:
        group, user_exists = grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name, True
    except KeyError:
        group, user_exists = user, False
    board, lan = _board()
    model = board.model()
    boot = next((p for p in BOOT_CONFIGS if Path(p).is_file()), None)
    venv_cfg = REPO / ".venv" / "pyvenv.cfg"
    venv = "missing"
    if venv_cfg.is_file():
        venv = "system-site" if "include-system-site-packages = true" in venv_cfg.read_text() else "isolated"
    addresses = lan.ipv4_addresses()
    data = Path(os.path.abspath(args.data or DEFAULT_DATA))
    try:
        settings = config.load_config(data, environ={})
    except (config.ConfigError, OSError):
        settings = dict(config.DEFAULTS)
    port = settings["port"]
    try:    # the one the box will serve with: its config.toml's, else the repo's
        pm = pinmap.load_pinmap(settings["pinmap"] or None)
    except pinmap.PinMapError as e:
        raise InstallError("the pin map can't be read (%s): mend it, or put the shipped one back with "
                           "git checkout hardware/pinmap.toml" % e) from None
    mountinfo = Path("/proc/self/mountinfo")
    i2s = pm.lines("i2s")
    config_toml = data / "config.toml"
    facts = Facts(
        repo=REPO, user=user, user_exists=user_exists, group=group, data=data, is_pi=board.is_raspberry_pi(), model=model,
        euid=os.geteuid(), python=sys.version_info[:2], boot_config=boot,
        # byte for byte: a comment typed on another system may not be UTF-8
        boot_config_text=Path(boot).read_text(encoding="latin-1") if boot else "",
        groups=GROUPS, missing_groups=[g for g in GROUPS if not _group_exists(g)] if board.is_raspberry_pi() else (),
        venv=venv,
        hostname=socket.gethostname(), addresses=addresses, port=port,
        buses={spec.kind for spec in pm.lines() if spec.kind in ("i2c", "i2s")},
        sd_pin=i2s[0].pins.get("sd") if i2s else None,
        config_text=config_toml.read_text(encoding="utf-8") if config_toml.is_file() else None,
        mountinfo=mountinfo.read_text() if mountinfo.exists() else None,
        allow_volatile=args.allow_volatile, arch=_dpkg_arch(), raspi_config=shutil.which("raspi-config") is not None,
        modules_text=Path(MODULES).read_text() if Path(MODULES).is_file() else "",
        firmware_custom_text=(Path(FIRMWARE_CUSTOM).read_text(encoding="latin-1")
                              if Path(FIRMWARE_CUSTOM).is_file() else ""),
        command=_command_now())
    facts.missing_tools = tuple(sorted({s.argv[0] for s in plan(facts) if s.argv and not shutil.which(s.argv[0])}))
    return facts


def _command_now(path=COMMAND):
    """What ``path`` is now: None when there is nothing, the target of a symbolic link, else "file"."""
    if os.path.islink(path):
        return os.readlink(path)
    return "file" if os.path.lexists(path) else None


def _foreign_command(command):
    """Whether what COMMAND is now (_command_now) is someone else's: a file, or a link to anything
    but a checkout's venv (this one's, or an older checkout's that moved): left alone."""
    return command == "file" or (command is not None and not command.endswith("/.venv/bin/newsdesk"))


def _dpkg_arch():
    """dpkg's name for this system's architecture (armhf on 32-bit Raspberry Pi OS even where the
    kernel is 64-bit and `uname -m` says aarch64); "" without dpkg."""
    try:
        return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _group_exists(name):
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def render_unit(facts, template=None):
    text = (template if template is not None else TEMPLATE.read_text(encoding="utf-8"))
    # the template's own header is about the template; the installed copy says where it came from
    text = "# Installed by deploy/install.py from deploy/newsdesk.service.in: change that and run it again.\n" \
        + text[text.index("[Unit]"):]
    values = {"@REPO@": str(facts.repo), "@USER@": facts.user, "@GROUP@": facts.group,
              "@GROUPS@": " ".join(facts.groups), "@DATA@": str(facts.data)}
    for key, value in values.items():
        if key != "@GROUPS@" and any(c.isspace() for c in value):
            raise InstallError("%s %r has a space in it; systemd would split it: choose another" % (key.strip("@").lower(), value))
        text = text.replace(key, value)
    return text


def as_user(facts, argv):
    return ["runuser", "-u", facts.user, "--"] + argv


def check(facts, dry_run):
    """Refusals before anything is changed. Returns notes to print."""
    notes = []
    if facts.python < MIN_PYTHON:
        raise InstallError("newsdesk needs Python %d.%d or later; this is %d.%d. Use Raspberry Pi OS "
                           "Bookworm or later" % (MIN_PYTHON + facts.python))
    if not facts.is_pi:
        if not dry_run:
            raise InstallError("this is not a Raspberry Pi (no 'Raspberry Pi' in /proc/device-tree/model); "
                               "on a laptop use make run")
        notes.append("this is not a Raspberry Pi: the plan below is what a Pi would get")
    elif facts.model:
        notes.append("on %s" % facts.model)
    if facts.euid != 0 and not dry_run:
        raise InstallError("run it as root: sudo python3 deploy/install.py (make install does)")
    if facts.missing_tools:
        problem = ("%s %s not installed here; the installer needs %s: on Raspberry Pi OS or Debian, "
                   "sudo apt-get install %s" % (", ".join(facts.missing_tools),
                                                "is" if len(facts.missing_tools) == 1 else "are",
                                                "it" if len(facts.missing_tools) == 1 else "them",
                                                " ".join(sorted({TOOL_PACKAGES.get(t, t) for t in facts.missing_tools}))))
        if not dry_run:
            raise InstallError(problem)
        notes.append(problem)
    for problem in _user_problems(facts):
        if not dry_run:
            raise InstallError(problem)
        notes.append(problem)
    if facts.mountinfo is not None:
        _, durability, _ = _controller()
        try:
            durability.check_data_dir(facts.data, facts.mountinfo, allow_volatile=facts.allow_volatile)
        except durability.DataDirNotDurable as e:
            raise InstallError(str(e)) from None
    if facts.boot_config is None and facts.buses:
        notes.append("no config.txt in /boot/firmware or /boot: I2C and the I2S overlay can't be enabled")
    if _foreign_command(facts.command):
        notes.append("%s is a command that isn't newsdesk's: it is left alone, so type %s/.venv/bin/newsdesk "
                     "for newsdesk's" % (COMMAND, facts.repo))
    other = _other_amp_overlay(facts)
    if other:
        notes.append("%s already has %r; newsdesk's wiring wants %r (without no-sdmode the driver takes "
                     "GPIO4 for the SD pin): change that line by hand and reboot"
                     % (facts.boot_config, other, _audio().overlay_line(facts.sd_pin)))
    return notes


def _amp_overlays(facts):
    device = _audio()
    return [line.strip() for line in facts.boot_config_text.splitlines()
            if line.strip().split(",")[0] == "dtoverlay=" + device.OVERLAY]


def _other_amp_overlay(facts):
    """A max98357a line in config.txt that isn't the one the pin map wants, or None."""
    if "i2s" not in facts.buses:
        return None
    wanted = _audio().overlay_line(facts.sd_pin)
    lines = _amp_overlays(facts)
    return lines[0] if lines and wanted not in lines else None


def _has_setting(text, key):
    return any(line.split("=")[0].strip() == key for line in (text or "").splitlines() if "=" in line)


def _user_problems(facts):
    if facts.user == "root":
        yield ("the panel shouldn't run as root: name its user with --user pi (or run make install "
               "as that user; it asks for sudo)")
    elif not facts.user_exists:
        yield "there is no user %r here: name the one the panel runs as with --user" % facts.user


def plan(facts):
    armhf = facts.arch in ("armhf", "armel")    # 32-bit ARM, as wheels.py decides by the pointer's size
    from_debian = sorted(_wheels().FROM_DEBIAN_ON_ARMHF.values()) if armhf else []
    steps = [
        Step("update the package lists", ["apt-get", "update"]),
        Step("install the system packages" + (" (and Debian's Pillow and cbor2: PyPI has no 32-bit ARM "
                                              "wheels of them)" if armhf else ""),
             ["apt-get", "install", "-y", "--no-install-recommends"] + list(PACKAGES) + from_debian),
        Step("install the pins' library, lgpio, from the system's packages", ["apt-get", "install", "-y", LGPIO_APT],
             optional="%s isn't in this system's package lists (plain Debian has none; Raspberry Pi OS has): "
                      "lgpio comes from PyPI into the venv instead" % LGPIO_APT),
    ]
    if facts.python > LGPIO_WHEELS_UP_TO:
        steps.append(Step("install what building lgpio needs, if the system has no lgpio (PyPI has no lgpio "
                          "wheel for Python %d.%d)" % facts.python,
                          ["sh", "-c", "python3 -c 'import lgpio' 2>/dev/null || apt-get install -y "
                                       "--no-install-recommends " + " ".join(LGPIO_BUILD)]))
    steps += _i2c_steps(facts)
    device = _audio()
    if "i2s" in facts.buses and facts.boot_config and not _amp_overlays(facts):
        steps.append(Step("load the I2S amplifier's overlay at boot", path=facts.boot_config, encoding="latin-1",
                          content=_for_every_pi(facts.boot_config_text, device.overlay_line(facts.sd_pin)),
                          append=True, reboot="the I2S amplifier"))
    steps += _firmware_custom_steps(facts)
    steps += _group_steps(facts)
    if facts.groups:
        steps.append(Step("let %s use the pins, I2C, audio and serial" % facts.user,
                          ["usermod", "-aG", ",".join(facts.groups), facts.user]))
    venv = facts.repo / ".venv"
    if facts.venv == "missing":
        steps.append(Step("create the virtual environment", as_user(facts, ["python3", "-m", "venv", "--system-site-packages", str(venv)])))
    elif facts.venv == "isolated":
        steps.append(Step("let the virtual environment see the system's lgpio",
                          as_user(facts, ["python3", "-m", "venv", "--system-site-packages", "--upgrade", str(venv)])))
    pip, python = str(venv / "bin" / "pip"), str(venv / "bin" / "python")
    here = str(venv / "requirements-here.txt")
    steps += [
        Step("list the pinned requirements PyPI has wheels of here (deploy/wheels.py)",
             as_user(facts, ["sh", "-c", "%s %s %s > %s" % tuple(map(shlex.quote, (
                 python, str(facts.repo / "deploy" / "wheels.py"), str(facts.repo / "requirements.txt"), here)))])),
        Step("install newsdesk's pinned requirements", as_user(facts, [pip, "install", "--quiet", "-r", here])),
        # PYPI=1 is lgpio's own setup.py switch: a build from its sdist links its bundled C library in
        # statically (as PyPI's wheels do) instead of looking for a system liblgpio there isn't
        Step("take lgpio from PyPI if the system has none",
             as_user(facts, ["sh", "-c", "%s -c 'import lgpio' 2>/dev/null || PYPI=1 %s install --quiet %s" % (
                 shlex.quote(python), shlex.quote(pip), LGPIO_PYPI)])),
        Step("install newsdesk itself", as_user(facts, [pip, "install", "--quiet", "--no-deps", "-e", str(facts.repo)])),
        Step("create the data directory", ["install", "-d", "-o", facts.user, "-g", facts.group, "-m", "750", str(facts.data)]),
    ]
    command = str(venv / "bin" / "newsdesk")
    if not _foreign_command(facts.command):     # a command of that name that isn't newsdesk's stays (check() says so)
        steps.append(Step("put the newsdesk command on the PATH (%s, for newsdesk doctor, backup ...)" % COMMAND,
                          ["ln", "-sfn", command, COMMAND]))
    if "i2s" in facts.buses and not _has_setting(facts.config_text, "audio_device"):
        steps.append(Step("play the handset on the amplifier, not the Pi's own output",
                          path=str(facts.data / "config.toml"), append=True, owner=(facts.user, facts.group),
                          content="%saudio_device = \"%s\"   # the I2S amplifier's card (make install)\n"
                          % ("\n" if facts.config_text and not facts.config_text.endswith("\n") else "",
                             device.AMP_DEVICE)))
    steps += [
        Step("install the service", path=UNIT_PATH, content=render_unit(facts)),
        Step("reload systemd", ["systemctl", "daemon-reload"]),
        Step("start the panel at every boot", ["systemctl", "enable", "newsdesk.service"]),
        # a service systemd gave up on (five failed starts in two minutes) refuses a restart until cleared
        Step("clear a failed start of an earlier try", ["systemctl", "reset-failed", "newsdesk.service"],
             optional="nothing to clear"),
        Step("start (or restart) it now", ["systemctl", "restart", "newsdesk.service"]),
        # systemctl returns once the process starts: a panel that stops at once must not be announced
        Step("wait for the panel to answer", ["python3", "-B", str(facts.repo / "deploy" / "answers.py"), str(facts.port)]),
    ]
    return steps


def _i2c_steps(facts):
    """I2C on: raspi-config's own way where it is installed; else what `raspi-config nonint
    do_i2c 0` writes (Debian on a Pi has no raspi-config): dtparam=i2c_arm=on in config.txt,
    replacing a line that sets it otherwise, and i2c-dev in /etc/modules."""
    if "i2c" not in facts.buses:
        return []
    if facts.raspi_config:
        return [Step("enable I2C (the display)", ["raspi-config", "nonint", "do_i2c", "0"])]
    steps = []
    lines = facts.boot_config_text.splitlines()
    scopes = _sections(lines)
    # on is on for every Pi only under [all] (or before any section); "on,i2c_arm_baudrate=..." is on
    if facts.boot_config and not any(scopes[i] and line.strip().split(",")[0] == I2C_SETTING
                                     for i, line in enumerate(lines)):
        at = [i for i, line in enumerate(lines) if scopes[i] and re.match(r"\s*#?\s*dtparam=i2c_arm=", line)]
        if at:      # raspi-config's way: the line turned on in place, keeping what follows it (its speed)
            rest = lines[at[0]].split(",", 1)
            lines[at[0]] = I2C_SETTING + ("," + rest[1] if len(rest) > 1 else "")
            text = "\n".join(lines) + "\n"
        else:
            text = facts.boot_config_text + _for_every_pi(facts.boot_config_text, I2C_SETTING)
        steps.append(Step("enable I2C (the display) in %s, as raspi-config would" % facts.boot_config,
                          path=facts.boot_config, content=text, reboot="I2C", encoding="latin-1"))
    if not any(re.match(r"i2c[-_]dev\b", line) for line in _lines(facts.modules_text)):
        steps.append(Step("load i2c-dev at boot, as raspi-config would", path=MODULES, append=True,
                          content="%si2c-dev\n" % ("\n" if facts.modules_text and not facts.modules_text.endswith("\n") else ""),
                          reboot="I2C"))
    return steps


def _firmware_custom_steps(facts):
    """Where config.txt is Debian's raspi-firmware's (it says so, naming FIRMWARE_CUSTOM), what
    newsdesk needs in it goes into FIRMWARE_CUSTOM as well: the package writes config.txt afresh
    from its template at the next kernel upgrade, appending that file's lines, and a line written
    into config.txt alone would be gone (I2C and the amplifier with it) after that upgrade's
    reboot. The lines go under [all]: what the file follows is the template's, not ours to know."""
    if not facts.boot_config or FIRMWARE_CUSTOM not in facts.boot_config_text:
        return []
    custom = facts.firmware_custom_text
    lines = custom.splitlines()
    # what comes before the file's first [section] follows the template's last section: not known
    # to be read by every Pi, so only a line under the file's own [all] counts as there
    scopes = _sections(["[the template's]"] + lines)[1:]
    wanted, what = [], []
    if "i2c" in facts.buses and not any(scopes[i] and line.strip().split(",")[0] == I2C_SETTING
                                        for i, line in enumerate(lines)):
        wanted.append(I2C_SETTING)
        what.append("I2C")
    overlay = "dtoverlay=" + _audio().OVERLAY
    if "i2s" in facts.buses and not any(scopes[i] and line.strip().split(",")[0] == overlay
                                        for i, line in enumerate(lines)):
        wanted.append(_audio().overlay_line(facts.sd_pin))
        what.append("the I2S amplifier's overlay")
    if not wanted:
        return []
    headers = [line.strip().lower() for line in lines if line.strip().startswith("[")]
    under_all = bool(headers) and headers[-1].startswith("[all]")
    return [Step("keep %s on through kernel upgrades, in %s (Debian's raspi-firmware writes config.txt "
                 "afresh from it)" % (" and ".join(what), FIRMWARE_CUSTOM), path=FIRMWARE_CUSTOM, append=True,
                 encoding="latin-1",
                 content="%s%s%s\n" % ("\n" if custom and not custom.endswith("\n") else "",
                                       "" if under_all else "[all]\n", "\n".join(wanted)))]


def _lines(text):
    return [line.strip() for line in (text or "").splitlines()]


def _sections(lines):
    """For each line of config.txt, whether every Pi reads it: before any [section], or under
    [all] (a [pi4], [cm4], [edid=...] ... section is read by that model or screen alone)."""
    every, out = True, []
    for line in lines:
        header = line.strip()
        if header.startswith("[") and "]" in header:
            every = header[1:header.index("]")].strip().lower() in ("all", "")
        out.append(every)
    return out


def _for_every_pi(text, line):
    """What to append to config.txt ``text`` so that ``line`` is read by every Pi: on a line of
    its own (the file may not end with one), under [all] if the file ends in another section."""
    lines = (text or "").splitlines()
    return "%s%s%s\n" % ("\n" if text and not text.endswith("\n") else "",
                         "" if not lines or _sections(lines)[-1] else "[all]\n", line)


def _group_steps(facts):
    """Raspberry Pi OS gives the pins and the I2C bus to the gpio and i2c groups (its udev rules);
    plain Debian has neither group, so they are made, with a rule of newsdesk's that does the same."""
    missing = [g for g in ("gpio", "i2c") if g in facts.missing_groups]
    if not missing:
        return []
    steps = [Step("create the %s group, as Raspberry Pi OS has" % g, ["groupadd", "--system", "-f", g]) for g in missing]
    steps.append(Step("give the pins and I2C to those groups at boot (a udev rule)", path=UDEV_RULES, reboot="the pins' and I2C's groups",
                      content="# Installed by newsdesk's deploy/install.py: what Raspberry Pi OS's own rules do\n"
                              'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"\n'
                              'SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"\n'))
    # now, not only at the next boot: the service started below reaches the pins
    steps.append(Step("apply that rule to the pins and I2C now",
                      ["sh", "-c", "udevadm control --reload && udevadm trigger --action=add "
                                   "--subsystem-match=gpio --subsystem-match=i2c-dev"],
                      optional="udev couldn't apply the rule now; the reboot below does"))
    return steps


def addresses(facts, ask_avahi=False):
    """The URLs a tablet types; with ``ask_avahi`` (after a real install, avahi running) the .local
    name avahi announces, which is another than the hostname's when another box had it first."""
    _, lan = _board()
    return lan.tablet_urls(facts.hostname, facts.port, facts.addresses,
                           local=lan.announced_name() if ask_avahi else None)


def removal_plan(command=None, repo=REPO):
    """What `make uninstall` does: the service stopped, no longer started at boot, its unit gone,
    and the newsdesk command's link when it is this checkout's (``command``: what COMMAND is).
    Everything else stays, and is listed by kept(): the games above all, and what other hardware
    on the Pi may use too (packages, groups, the lines in config.txt)."""
    ours = command == str(Path(repo) / ".venv" / "bin" / "newsdesk")
    return [Step("remove the newsdesk command's link", ["rm", "-f", COMMAND])] * ours + [
        Step("stop the panel and don't start it at boot", ["systemctl", "disable", "--now", "newsdesk.service"],
             optional="it wasn't installed as a service here"),
        Step("remove the service", ["rm", "-f", UNIT_PATH]),
        Step("reload systemd", ["systemctl", "daemon-reload"]),
        Step("forget a failed start", ["systemctl", "reset-failed", "newsdesk.service"], optional="nothing to forget"),
    ]


def kept(data, repo=REPO):
    """What `make uninstall` leaves, each with how to remove it by hand."""
    return [
        "the games, players and backups in %s: to keep them, back them up into your home folder first "
        "(%s --data %s backup ~), then sudo rm -r %s" % (data, Path(repo) / ".venv" / "bin" / "newsdesk", data, data),
        "this checkout and its virtual environment: rm -rf %s" % repo,
        "the I2C and I2S lines in config.txt (and in %s on plain Debian), the system packages, the "
        "groups and %s: other hardware may use them" % (FIRMWARE_CUSTOM, UDEV_RULES),
        "make install puts the service back, with the games as they were",
    ]


def remove(args, out, run, euid=None):
    """`make uninstall`: the service removed, what stays said (the data is never touched)."""
    config, _, _ = _controller()
    if (os.geteuid() if euid is None else euid) != 0 and not args.dry_run:
        raise InstallError("run it as root: sudo python3 deploy/install.py --remove (make uninstall does)")
    # read before the unit goes: the folder it served
    data = Path(os.path.abspath(args.data)) if args.data else config.installed_data_dir() or Path(DEFAULT_DATA)
    if args.dry_run:
        print("newsdesk removal plan (dry run: nothing is changed)", file=out)
    execute(removal_plan(_command_now()), args.dry_run, out, run=run)
    print("\nThe panel %s. Kept:" % ("would be removed" if args.dry_run else "is removed"), file=out)
    for line in kept(data):
        print("  " + line, file=out)
    return 0


def _write(step):
    """Append, or write whole: beside the file, synced, then renamed over it, so a full disk or a
    power cut mid-write (config.txt on the FAT boot partition) leaves the old file, never an empty
    one."""
    if step.append:
        with open(step.path, "a", encoding=step.encoding) as f:
            f.write(step.content)
    else:
        part = step.path + ".newsdesk-part"
        try:
            with open(part, "w", encoding=step.encoding) as f:
                f.write(step.content)
                f.flush()
                os.fsync(f.fileno())
            try:
                os.chmod(part, 0o644)
            except OSError:     # FAT (the boot partition) keeps no such mode, and may refuse to be asked
                pass
            os.replace(part, step.path)
        finally:
            if os.path.exists(part):
                os.unlink(part)
    if step.owner:
        shutil.chown(step.path, *step.owner)


def execute(steps, dry_run, out, run=subprocess.run, write=_write):
    for n, step in enumerate(steps, 1):
        print("[%d/%d] %s" % (n, len(steps), step.what), file=out)
        if step.argv:
            # flushed: the command's own output, on the same terminal or log, comes after it
            print("      %s %s" % ("would run:" if dry_run else "$", shlex.join(step.argv)), file=out, flush=True)
            if dry_run and step.optional:
                print("      (if that fails: %s)" % step.optional, file=out)
            if not dry_run:
                try:
                    run(step.argv, check=True)
                except subprocess.CalledProcessError:
                    if not step.optional:
                        raise
                    print("      note: %s" % step.optional, file=out)
                except OSError as e:    # the tool vanished or can't run (checked before: rare)
                    raise InstallError("%s couldn't run (%s): install %s and run the installer again; every "
                                       "step is safe to repeat" % (step.argv[0], e.strerror or e,
                                                                   TOOL_PACKAGES.get(step.argv[0], step.argv[0]))) from None
        else:
            print("      %s %s %s" % ("would" if dry_run else "", "append to" if step.append else "write",
                                      step.path), file=out)
            if dry_run and step.path != UNIT_PATH:
                print("        " + step.content.rstrip("\n").replace("\n", "\n        "), file=out)
            if not dry_run:
                try:
                    write(step)
                except OSError as e:
                    raise InstallError("can't write %s: %s; nothing after it was done" % (step.path, e.strerror or e)) from None


def main(argv=None, facts=None, out=sys.stdout, run=subprocess.run, write=_write):
    parser = argparse.ArgumentParser(prog="deploy/install.py", description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print the plan and the service file; change nothing")
    parser.add_argument("--user", help="who the panel runs as (default: the user who ran sudo)")
    parser.add_argument("--data", help="the data directory (default %s); it must be on durable storage" % DEFAULT_DATA)
    parser.add_argument("--allow-volatile", action="store_true",
                        help="install even if the data directory is on RAM or an overlay (its data is lost at reboot)")
    parser.add_argument("--remove", action="store_true",
                        help="stop and remove the service (make uninstall); the games and everything else stay")
    args = parser.parse_args(argv)
    try:
        if facts is None and python_version() < MIN_PYTHON:     # before the settings' reader needs tomllib
            raise InstallError("newsdesk needs Python %d.%d or later; this is %d.%d. Use Raspberry Pi OS "
                               "Bookworm or later" % (MIN_PYTHON + python_version()))
        if args.remove:
            return remove(args, out, run)
        facts = facts or gather(args)
        for note in check(facts, args.dry_run):
            print("note: %s" % note, file=out)
        steps = plan(facts)
        if args.dry_run:
            print("newsdesk install plan (dry run: nothing is changed)", file=out)
        execute(steps, args.dry_run, out, run=run, write=write)
    except InstallError as e:
        print("install: %s" % e, file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print("install: %s failed (exit %s); nothing after it was done. Fix that and run the "
              "installer again: every step is safe to repeat" % (shlex.join(e.cmd), e.returncode), file=sys.stderr)
        return 1
    if args.dry_run:
        print("\n# %s would hold:" % UNIT_PATH, file=out)
        print(render_unit(facts), end="", file=out)
    print("\nThe panel %s at:" % ("would be" if args.dry_run else "is"), file=out)
    for url in addresses(facts, ask_avahi=not args.dry_run):
        print("  " + url, file=out)
    if any(s.reboot for s in steps):
        print("Reboot once for %s (sudo reboot); the panel starts by itself."
              % " and ".join(sorted({s.reboot for s in steps if s.reboot})), file=out)
    print("Check the wiring with: %s/.venv/bin/newsdesk --data %s doctor" % (facts.repo, facts.data), file=out)
    return 0


if __name__ == "__main__":
    # run with sudo, the checkout's modules it imports would leave root's __pycache__ folders in
    # the owner's checkout
    sys.dont_write_bytecode = True
    sys.exit(main())
