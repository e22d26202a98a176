"""deploy/install.py, tried without a Pi: the plan, the service file (checked by systemd itself
where systemd-analyze is present), the dry run, and the refusals."""

import configparser
import importlib.util
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("newsdesk_install", REPO / "deploy" / "install.py")
install = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(install)

EXT4 = "27 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw\n"
OVERLAY = ("30 1 0:30 / / rw - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,"
           "workdir=/media/root-rw/overlay-workdir\n32 30 0:31 / /media/root-rw rw - tmpfs tmpfs-root rw\n")


def pi(**over):
    facts = dict(repo="/home/pi/newsdesk", user="pi", group="pi", data="/var/lib/newsdesk", is_pi=True,
                 model="Raspberry Pi 4 Model B Rev 1.5", euid=0, python=(3, 11),
                 boot_config="/boot/firmware/config.txt", boot_config_text="dtparam=audio=on\n",
                 groups=("gpio", "i2c", "audio", "dialout"), venv="missing", hostname="newsdesk",
                 addresses=("192.0.2.10",), port=8080, buses={"i2c", "i2s"}, mountinfo=EXT4)
    facts.update(over)
    return install.Facts(**facts)


def commands(steps):
    return [" ".join(s.argv) for s in steps if s.argv]


def test_the_plan_on_a_pi():
    steps = install.plan(pi())
    cmds = commands(steps)
    assert cmds[0] == "apt-get update"
    assert cmds[1].startswith("apt-get install -y") and "avahi-daemon" in cmds[1] and "python3-pil" not in cmds[1]
    (lgpio,) = [s for s in steps if s.argv and "python3-lgpio" in s.argv]
    assert lgpio.optional and "PyPI" in lgpio.optional         # plain Debian has none: not fatal
    assert "raspi-config nonint do_i2c 0" in cmds
    assert "usermod -aG gpio,i2c,audio,dialout pi" in cmds
    assert "runuser -u pi -- python3 -m venv --system-site-packages /home/pi/newsdesk/.venv" in cmds
    assert any(c.endswith("pip install --quiet -r /home/pi/newsdesk/.venv/requirements-here.txt") for c in cmds)
    assert any("import lgpio" in c and "lgpio==" in c for c in cmds)
    assert "install -d -o pi -g pi -m 750 /var/lib/newsdesk" in cmds
    assert cmds[-5:] == ["systemctl daemon-reload", "systemctl enable newsdesk.service",
                         "systemctl reset-failed newsdesk.service", "systemctl restart newsdesk.service",
                         "python3 -B /home/pi/newsdesk/deploy/answers.py 8080"]
    (overlay,) = [s for s in steps if s.path == "/boot/firmware/config.txt"]
    # the amplifier's SD pin isn't wired: the driver must leave GPIO4 alone
    assert overlay.append and overlay.content == "dtoverlay=max98357a,no-sdmode\n" and overlay.reboot
    (audio,) = [s for s in steps if s.path == "/var/lib/newsdesk/config.toml"]
    assert audio.append and audio.content.startswith('audio_device = "plughw:CARD=MAX98357A,DEV=0"')
    assert steps.index(audio) > [i for i, s in enumerate(steps) if s.argv and "install" in s.argv[:1]][0]
    (unit,) = [s for s in steps if s.path == install.UNIT_PATH]
    assert not unit.append and "[Service]" in unit.content
    # the unit is written before systemd is told to load it
    assert steps.index(unit) < [i for i, s in enumerate(steps) if s.argv == ["systemctl", "daemon-reload"]][0]


def test_steps_already_done_are_left_out():
    steps = install.plan(pi(boot_config_text="dtparam=audio=on\ndtoverlay=max98357a\n", venv="system-site",
                            buses={"i2c"}))
    assert not [s for s in steps if s.path and s.path.endswith("config.txt")]
    assert not [c for c in commands(steps) if "-m venv" in c]
    isolated = commands(install.plan(pi(venv="isolated")))
    assert any("venv --system-site-packages --upgrade" in c for c in isolated)
    no_display = commands(install.plan(pi(buses=set())))
    assert not [c for c in no_display if "do_i2c" in c]


def test_the_amplifier_is_made_the_card_that_plays_and_its_sd_pin_handled():
    wired = install.plan(pi(sd_pin=4))
    assert [s.content for s in wired if s.path and s.path.endswith("config.txt")] == ["dtoverlay=max98357a,sdmode-pin=4\n"]
    # a config.toml of the user's own keeps its choice; one without audio_device gets it added
    kept = install.plan(pi(config_text='audio_device = "plughw:CARD=Device,DEV=0"\n'))
    assert not [s for s in kept if s.path and s.path.endswith("config.toml")]
    (added,) = [s for s in install.plan(pi(config_text='port = 8081')) if s.path and s.path.endswith("config.toml")]
    assert added.content.startswith('\naudio_device = ')           # on a line of its own
    assert not [s for s in install.plan(pi(buses={"i2c"})) if s.path and s.path.endswith("config.toml")]
    # an old line that lets the driver take GPIO4 is named, not appended to (two overlays would clash)
    old = pi(boot_config_text="dtparam=audio=on\ndtoverlay=max98357a\n")
    assert not [s for s in install.plan(old) if s.path and s.path.endswith("config.txt")]
    (note,) = [n for n in install.check(old, dry_run=True) if "max98357a" in n]
    assert "'dtoverlay=max98357a,no-sdmode'" in note and "GPIO4" in note
    fine = pi(boot_config_text="dtoverlay=max98357a,no-sdmode\n")
    assert not [n for n in install.check(fine, dry_run=True) if "max98357a" in n]


def test_the_unit_file():
    unit = install.render_unit(pi())
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str
    parser.read_string(unit)
    service = parser["Service"]
    assert service["ExecStart"] == "/home/pi/newsdesk/.venv/bin/newsdesk --data /var/lib/newsdesk serve"
    assert service["User"] == "pi" and service["WorkingDirectory"] == "/home/pi/newsdesk"
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    assert service["SupplementaryGroups"] == "gpio i2c audio dialout"
    assert parser["Install"]["WantedBy"] == "multi-user.target"
    assert "network-online.target" in parser["Unit"]["Wants"]
    assert "@" not in unit.replace("@NAMES@", "")          # every placeholder was filled
    assert unit.startswith("# Installed by deploy/install.py")


def test_a_path_with_a_space_is_refused():
    with pytest.raises(install.InstallError, match="space"):
        install.render_unit(pi(data="/srv/news desk"))


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".venv" / "bin").mkdir(parents=True)
    exe = repo / ".venv" / "bin" / "newsdesk"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    me = __import__("pwd").getpwuid(os.getuid()).pw_name
    path = tmp_path / "newsdesk.service"
    path.write_text(install.render_unit(pi(repo=repo, user=me, group=me, groups=(), data=tmp_path / "data")))
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if path.name in line]
    assert done.returncode == 0 and not complaints, done.stdout + done.stderr
    # and it would have said so about a broken one
    path.write_text(install.render_unit(pi(repo=tmp_path / "nowhere", user=me, group=me, groups=())))
    assert subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          timeout=60).returncode != 0


def test_a_dry_run_prints_the_plan_and_the_unit_and_changes_nothing():
    out = io.StringIO()
    ran, wrote = [], []
    status = install.main(["--dry-run"], facts=pi(), out=out, run=lambda *a, **k: ran.append(a),
                          write=wrote.append)
    text = out.getvalue()
    assert status == 0 and ran == [] and wrote == []
    assert "would run: apt-get update" in text and "would append to /boot/firmware/config.txt" in text
    assert "# /etc/systemd/system/newsdesk.service would hold:" in text and "ExecStart=" in text
    assert "http://newsdesk.local:8080/" in text and "http://192.0.2.10:8080/" in text
    assert "Reboot once for the I2S amplifier" in text


def test_a_real_run_does_every_step_in_order():
    out = io.StringIO()
    ran, wrote = [], []
    status = install.main([], facts=pi(), out=out, run=lambda argv, check: ran.append(argv), write=wrote.append)
    assert status == 0
    assert [" ".join(a) for a in ran] == commands(install.plan(pi()))
    assert [s.path for s in wrote] == ["/boot/firmware/config.txt", "/var/lib/newsdesk/config.toml", install.UNIT_PATH]
    assert "The panel is at:" in out.getvalue()


def test_a_failing_step_stops_the_rest(capsys):
    def run(argv, check):
        if argv[0] == "raspi-config":
            raise subprocess.CalledProcessError(1, argv)
    wrote = []
    assert install.main([], facts=pi(), out=io.StringIO(), run=run, write=wrote.append) == 1
    assert wrote == [] and "raspi-config nonint do_i2c 0 failed (exit 1)" in capsys.readouterr().err


@pytest.mark.parametrize("over, words", [
    ({"euid": 1000}, "run it as root"),
    ({"is_pi": False, "model": ""}, "not a Raspberry Pi"),
    ({"python": (3, 9)}, "needs Python 3.11"),
    ({"user": "root"}, "shouldn't run as root"),
    ({"user_exists": False}, "there is no user 'pi'"),
    ({"mountinfo": OVERLAY}, "overlayroot"),
])
def test_refusals_before_anything_is_changed(over, words, capsys):
    ran = []
    assert install.main([], facts=pi(**over), out=io.StringIO(), run=lambda *a, **k: ran.append(a)) == 2
    assert ran == [] and words in capsys.readouterr().err


def test_a_volatile_data_directory_can_be_allowed():
    assert install.main([], facts=pi(mountinfo=OVERLAY, allow_volatile=True), out=io.StringIO(),
                        run=lambda *a, **k: None, write=lambda step: None) == 0


def test_the_dry_run_works_here_as_a_script():
    """The command the docs give, on this (non-Pi) machine: exit 0, a plan, a unit, an address."""
    done = subprocess.run([sys.executable, str(REPO / "deploy" / "install.py"), "--dry-run", "--user", "pi",
                           "--data", "/srv/newsdesk"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "[Unit]" in done.stdout and "ExecStart=%s/.venv/bin/newsdesk --data /srv/newsdesk serve" % REPO in done.stdout
    assert ".local:" in done.stdout and "would run: systemctl enable newsdesk.service" in done.stdout


def test_the_installer_needs_nothing_but_the_standard_library(tmp_path):
    """A Pi OS Lite image has python3 and nothing else: the plan is made with site-packages off
    (-S: no Pillow, no gpiozero, no venv), and every module it loaded is the standard library's or
    newsdesk's own."""
    probe = ("import runpy, sys\n"
             "sys.argv = ['deploy/install.py', '--dry-run', '--user', 'pi', '--data', %r]\n"
             "try:\n"
             "    runpy.run_path(%r, run_name='__main__')\n"
             "except SystemExit as e:\n"
             "    status = e.code\n"
             "foreign = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)\n"
             "                 - {'__main__', 'controller'})\n"
             "print('STATUS', status, 'FOREIGN', ','.join(foreign))\n"
             % (str(tmp_path / "data"), str(REPO / "deploy" / "install.py")))
    done = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.splitlines()[-1] == "STATUS 0 FOREIGN ", done.stdout[-2000:]


def test_without_raspi_config_i2c_is_written_as_raspi_config_writes_it():
    """Debian on a Pi has no raspi-config: the plan writes what `raspi-config nonint do_i2c 0`
    does (dtparam=i2c_arm=on, replacing a line that turns it off; i2c-dev in /etc/modules)."""
    facts = pi(raspi_config=False, boot_config_text="# comment\n#dtparam=i2c_arm=off\ndtparam=audio=on\n",
               modules_text="# /etc/modules\nloop")
    steps = install.plan(facts)
    assert not any(s.argv and s.argv[0] == "raspi-config" for s in steps)
    (config_txt,) = [s for s in steps if s.path == "/boot/firmware/config.txt" and not s.append]
    assert config_txt.content == "# comment\ndtparam=i2c_arm=on\ndtparam=audio=on\n" and config_txt.reboot == "I2C"
    (modules,) = [s for s in steps if s.path == "/etc/modules"]
    assert modules.append and modules.content == "\ni2c-dev\n"
    # already on: nothing to write
    done = pi(raspi_config=False, boot_config_text="dtparam=i2c_arm=on\n", modules_text="i2c-dev\n")
    assert not [s for s in install.plan(done) if s.path in ("/etc/modules",) or (s.path and not s.append
                                                                                 and "config.txt" in s.path)]


def test_on_armhf_pillow_and_cbor2_come_from_debian():
    cmds = commands(install.plan(pi(arch="armhf")))
    assert "python3-pil" in cmds[1] and "python3-cbor2" in cmds[1]
    wheels = install._wheels()
    pinned = (REPO / "requirements.txt").read_text()
    kept = [line for line in wheels.lines_here(pinned, arm32=True) if not line.startswith("#")]
    assert not any(line.lower().startswith(("pillow", "cbor2")) for line in kept)
    assert any(line.startswith("Flask==") for line in kept)
    assert wheels.lines_here(pinned, arm32=False) == pinned.splitlines()
    # 32-bit Raspberry Pi OS on a Pi 4 runs a 64-bit kernel: uname says aarch64, the pointer says 32
    assert wheels.is_32bit_arm("aarch64", 4) and wheels.is_32bit_arm("armv7l", 4)
    assert not wheels.is_32bit_arm("aarch64", 8) and not wheels.is_32bit_arm("i686", 4)


def test_groups_debian_lacks_are_made_as_raspberry_pi_os_has_them():
    steps = install.plan(pi(missing_groups=("gpio", "i2c")))
    cmds = commands(steps)
    assert "groupadd --system -f gpio" in cmds and "groupadd --system -f i2c" in cmds
    assert cmds.index("groupadd --system -f gpio") < cmds.index("usermod -aG gpio,i2c,audio,dialout pi")
    (rule,) = [s for s in steps if s.path == install.UDEV_RULES]
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in rule.content and 'SUBSYSTEM=="i2c-dev", GROUP="i2c"' in rule.content


def test_lgpio_missing_from_the_system_is_a_note_and_the_install_goes_on():
    out = io.StringIO()
    ran = []

    def run(argv, check):
        ran.append(argv)
        if "python3-lgpio" in argv:
            raise subprocess.CalledProcessError(100, argv)
    assert install.main([], facts=pi(), out=out, run=run, write=lambda step: None) == 0
    assert ran[-2] == ["systemctl", "restart", "newsdesk.service"] and "answers.py" in ran[-1][2]
    assert "note: python3-lgpio isn't in this system's package lists" in out.getvalue()


def test_a_missing_tool_is_one_sentence_before_anything_runs(capsys):
    ran = []
    facts = pi(missing_tools=("raspi-config", "runuser"))
    assert install.main([], facts=facts, out=io.StringIO(), run=lambda *a, **k: ran.append(a)) == 2
    err = capsys.readouterr().err
    assert ran == [] and "Traceback" not in err
    assert "raspi-config, runuser are not installed here" in err and "sudo apt-get install raspi-config util-linux" in err


def test_a_tool_that_cannot_run_is_a_sentence_not_a_traceback(capsys):
    def run(argv, check):
        if argv[0] == "raspi-config":
            raise FileNotFoundError(2, "No such file or directory", "raspi-config")
    assert install.main([], facts=pi(), out=io.StringIO(), run=run, write=lambda step: None) == 2
    err = capsys.readouterr().err
    assert "raspi-config couldn't run (No such file or directory): install raspi-config" in err


def test_gathered_here_the_missing_tools_are_found(monkeypatch):
    """gather() asks PATH for every command of the plan (here: no raspi-config on this machine)."""
    import argparse
    args = argparse.Namespace(user=None, data=None, allow_volatile=False)
    monkeypatch.setattr(install.shutil, "which", lambda name: None if name in ("usermod", "raspi-config") else "/x")
    facts = install.gather(args, environ={"SUDO_USER": "pi"})
    assert facts.missing_tools == ("usermod",) and not facts.raspi_config


def test_past_pythons_with_lgpio_wheels_its_build_tools_come_first():
    """PyPI has lgpio wheels up to Python 3.12; Debian trixie's 3.13 builds it from the sdist
    (its bundled C library, PYPI=1), which needs swig and a compiler, installed only where the
    system has no lgpio of its own."""
    def build_step(steps):
        return [s for s in steps if s.argv and "swig" in " ".join(s.argv)]
    assert build_step(install.plan(pi(python=(3, 11)))) == []
    steps = install.plan(pi(python=(3, 13)))
    (build,) = build_step(steps)
    assert "python3 -c 'import lgpio'" in build.argv[-1] and "python3-dev" in build.argv[-1]
    (take,) = [s for s in steps if "lgpio==" in " ".join(s.argv or [])]
    assert steps.index(build) < steps.index(take) and "PYPI=1 " in take.argv[-1]


# ---------------------------------------------------------------- config.txt as people have it

def _overlay(steps):
    return [s for s in steps if s.path == "/boot/firmware/config.txt"]


@pytest.mark.parametrize("text, added", [
    # no newline at its end (an editor on another system): the line is not glued to the last one
    ("dtparam=audio=on", "\ndtoverlay=max98357a,no-sdmode\n"),
    # the last section is one model's: the line is put under [all], or only a Pi 4 would load it
    ("dtparam=audio=on\n[pi4]\narm_boost=1\n", "[all]\ndtoverlay=max98357a,no-sdmode\n"),
    ("[pi4]\narm_boost=1\n[all]\ndtparam=audio=on\n", "dtoverlay=max98357a,no-sdmode\n"),
    ("[all]\r\ndtparam=audio=on\r\n", "dtoverlay=max98357a,no-sdmode\n"),
])
def test_the_amplifiers_line_lands_where_every_pi_reads_it(text, added):
    (step,) = _overlay(install.plan(pi(boot_config_text=text, buses={"i2s"})))
    assert step.append and step.content == added


@pytest.mark.parametrize("text, written", [
    # on only for a Pi 4: not on for this box; the [all] line is added
    ("[pi4]\ndtparam=i2c_arm=on\n", "[pi4]\ndtparam=i2c_arm=on\n[all]\ndtparam=i2c_arm=on\n"),
    # its speed kept when turned on
    ("dtparam=i2c_arm=off,i2c_arm_baudrate=400000\n", "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n"),
])
def test_i2c_is_turned_on_for_every_pi_and_keeps_its_speed(text, written):
    steps = install.plan(pi(raspi_config=False, boot_config_text=text, modules_text="i2c-dev\n", buses={"i2c"}))
    (config_txt,) = [s for s in steps if s.path == "/boot/firmware/config.txt" and not s.append]
    assert config_txt.content == written


def test_i2c_on_with_its_speed_is_on():
    facts = pi(raspi_config=False, boot_config_text="dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n",
               modules_text="i2c-dev\n", buses={"i2c"})
    assert not _overlay(install.plan(facts))


def test_a_file_is_written_whole_or_not_at_all(tmp_path):
    """config.txt on the FAT boot partition, the unit: written beside and renamed over, so a full
    disk or a power cut mid-write leaves the old file, never an empty one."""
    target = tmp_path / "config.txt"
    target.write_text("dtparam=audio=on\n")
    real = os.fsync

    def full(fd):
        raise OSError(28, "No space left on device")
    try:
        os.fsync = full
        with pytest.raises(OSError):
            install._write(install.Step("w", path=str(target), content="dtparam=i2c_arm=on\n"))
    finally:
        os.fsync = real
    assert target.read_text() == "dtparam=audio=on\n" and os.listdir(tmp_path) == ["config.txt"]
    install._write(install.Step("w", path=str(target), content="dtparam=i2c_arm=on\n"))
    assert target.read_text() == "dtparam=i2c_arm=on\n" and oct(target.stat().st_mode & 0o777) == "0o644"


def test_a_config_txt_in_latin_1_is_read_and_kept(tmp_path):
    """A config.txt holding a byte that isn't UTF-8 (a comment typed on another system) is read,
    and what the install writes keeps that byte as it was."""
    text = "# caf\xe9\ndtparam=audio=on\n"
    steps = install.plan(pi(raspi_config=False, boot_config_text=text, modules_text="i2c-dev\n", buses={"i2c"}))
    (config_txt,) = [s for s in steps if s.path == "/boot/firmware/config.txt" and not s.append]
    target = tmp_path / "config.txt"
    target.write_bytes(text.encode("latin-1"))
    config_txt.path = str(target)
    install._write(config_txt)
    assert target.read_bytes() == b"# caf\xe9\ndtparam=audio=on\ndtparam=i2c_arm=on\n"


def test_the_installer_writes_no_bytecode_into_the_checkout(tmp_path):
    """Run with sudo, the checkout's modules it imports would leave root's __pycache__ folders in
    the owner's checkout (then `rm -r` fails, and the service can't cache them)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cache = tmp_path / "cache"      # where Python writes what it compiles, wherever the module is
    done = subprocess.run([sys.executable, "-X", "pycache_prefix=%s" % cache, str(REPO / "deploy" / "install.py"),
                           "--dry-run", "--user", "pi", "--data", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    mine = cache / REPO.relative_to(REPO.anchor)     # (not the venv this test runs in: a Pi's python3 has none)
    ours = [p for p in mine.rglob("*.pyc") if ".venv" not in p.relative_to(mine).parts] if mine.exists() else []
    assert not ours, ours[:5]


def test_a_python_too_old_is_one_sentence_before_anything_is_read(monkeypatch, capsys):
    """Raspberry Pi OS Bullseye's Python 3.9 has no tomllib, which reading the settings needs:
    the version is the first thing looked at."""
    monkeypatch.setattr(install, "python_version", lambda: (3, 9))
    monkeypatch.setattr(install, "gather", lambda args: pytest.fail("gathered"))
    assert install.main(["--dry-run"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "newsdesk needs Python 3.11 or later; this is 3.9" in err and "Traceback" not in err


def test_the_pin_map_is_the_one_the_settings_name_and_one_that_cannot_be_read_is_one_sentence(tmp_path):
    """The box serves with the pin map its config.toml names: the install plans the buses (I2C,
    the amplifier's overlay) from that one too, and one it can't read is a sentence."""
    import argparse
    data = tmp_path / "data"
    data.mkdir()
    args = argparse.Namespace(user="pi", data=str(data), allow_volatile=False)
    mine = tmp_path / "mine.toml"       # the repo's, with a USB sound card for the handset: no I2S
    text = (REPO / "hardware" / "pinmap.toml").read_text()
    start = text.index("[pi.audio]\n")
    mine.write_text(text[:start] + text[text.index("\n\n", start) + 2:])
    assert "i2s" in install.gather(args, environ={"SUDO_USER": "pi"}).buses
    (data / "config.toml").write_text('pinmap = "%s"\n' % mine)
    assert "i2s" not in install.gather(args, environ={"SUDO_USER": "pi"}).buses
    (data / "config.toml").write_text('pinmap = "%s"\n' % (tmp_path / "none.toml"))
    with pytest.raises(install.InstallError, match="none.toml"):
        install.gather(args, environ={"SUDO_USER": "pi"})


def test_the_settings_file_the_install_adds_to_is_the_panel_users():
    (audio,) = [s for s in install.plan(pi()) if s.path == "/var/lib/newsdesk/config.toml"]
    assert audio.owner == ("pi", "pi")


def test_the_install_ends_when_the_panel_answers_or_says_why_it_did_not(tmp_path):
    """`systemctl restart` returns once the process starts: the installer waits for /api/health
    (deploy/answers.py, the system's python3) before it says where the panel is."""
    import http.server
    import threading

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/api/health" else 404)
            self.end_headers()

        def log_message(self, *a):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        up = subprocess.run([sys.executable, str(REPO / "deploy" / "answers.py"), str(server.server_port), "10"],
                            capture_output=True, text=True, timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert up.returncode == 0, up.stderr
    down = subprocess.run([sys.executable, str(REPO / "deploy" / "answers.py"), str(server.server_port), "2"],
                          capture_output=True, text=True, timeout=60)
    assert down.returncode == 1 and "Traceback" not in down.stderr
    assert "The panel didn't answer on port %d" % server.server_port in down.stderr
    assert "run make install again" in down.stderr


def test_the_address_said_at_the_end_is_the_name_avahi_announces(monkeypatch):
    """Another box on the network was raspberrypi.local first: avahi made this one
    raspberrypi-2.local, and that is the name the install ends by saying."""
    _, lan = install._board()
    monkeypatch.setattr(lan, "announced_name", lambda run=None: "raspberrypi-2.local")
    out = io.StringIO()
    assert install.main([], facts=pi(hostname="raspberrypi"), out=out, run=lambda *a, **k: None,
                        write=lambda step: None) == 0
    assert "  http://raspberrypi-2.local:8080/\n" in out.getvalue()
    dry = io.StringIO()             # the plan asks nothing of avahi (it may not be installed yet)
    install.main(["--dry-run"], facts=pi(hostname="raspberrypi"), out=dry)
    assert "http://raspberrypi.local:8080/" in dry.getvalue()


def test_a_file_system_that_keeps_no_modes_is_written_all_the_same(tmp_path, monkeypatch):
    """config.txt is on the FAT boot partition, which keeps no Unix modes and may refuse a chmod."""
    def refused(path, mode):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(install.os, "chmod", refused)
    target = tmp_path / "config.txt"
    install._write(install.Step("w", path=str(target), content="dtparam=i2c_arm=on\n"))
    assert target.read_text() == "dtparam=i2c_arm=on\n"


def test_a_second_install_after_the_service_gave_up_starts_it_again():
    """Five failed starts in two minutes and systemd gives the service up: the install run again
    (after mending what the log said) clears that first, or its restart is refused."""
    cmds = commands(install.plan(pi()))
    assert cmds.index("systemctl reset-failed newsdesk.service") == cmds.index("systemctl restart newsdesk.service") - 1
    (step,) = [s for s in install.plan(pi()) if s.argv == ["systemctl", "reset-failed", "newsdesk.service"]]
    assert step.optional            # a unit that never failed: nothing to clear


def test_the_service_gets_no_new_privileges_and_waits_for_its_data_folder():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(install.render_unit(pi(data="/srv/newsdesk")))
    assert unit["Service"]["NoNewPrivileges"] == "yes"
    assert unit["Unit"]["RequiresMountsFor"] == "/srv/newsdesk"
    # what a maintainer's unit closes off: the system's files (not /home, where the checkout is) and /tmp
    assert unit["Service"]["ProtectSystem"] == "full" and unit["Service"]["PrivateTmp"] == "yes"
    assert "ProtectHome" not in unit["Service"]
    # its data folder is writable wherever it is, /etc included (ProtectSystem made it read-only)
    assert unit["Service"]["ReadWritePaths"] == "-/srv/newsdesk"
    etc = configparser.ConfigParser(strict=False, interpolation=None)
    etc.read_string(install.render_unit(pi(data="/etc/newsdesk")))
    assert etc["Service"]["ReadWritePaths"] == "-/etc/newsdesk"


def test_debian_armel_takes_pillow_and_cbor2_from_debian_as_armhf_does():
    """A Pi Zero or 1 on plain Debian is armel: PyPI has no wheels there either (wheels.py leaves
    them out by the pointer's size), so apt must bring them."""
    cmds = commands(install.plan(pi(arch="armel")))
    assert any(c.startswith("apt-get install") and "python3-pil" in c and "python3-cbor2" in c for c in cmds)


# the head of the config.txt plain Debian's raspi-firmware writes at each kernel upgrade
DEBIAN_CONFIG_TXT = ("# Do not modify this file!\n#\n# It is automatically generated upon install or update of "
                     "either the\n# firmware or the Linux kernel.\n#\n# If you need to set boot-time parameters, "
                     "do so via the\n# /etc/default/raspi-firmware, /etc/default/raspi-firmware-custom or\n"
                     "# /etc/default/raspi-extra-cmdline files.\n\narm_64bit=1\n[pi4]\nmax_framebuffers=2\n")


def test_on_plain_debian_the_lines_outlive_the_next_kernel_upgrade():
    """Debian's raspi-firmware writes config.txt afresh from its template and
    /etc/default/raspi-firmware-custom at each kernel upgrade: what newsdesk adds to config.txt
    goes into that file too (under [all]), or I2C and the amplifier are gone after the upgrade."""
    facts = pi(raspi_config=False, boot_config_text=DEBIAN_CONFIG_TXT, modules_text="i2c-dev\n",
               firmware_custom_text="# fan\ndtoverlay=pwm-2chan")
    (custom,) = [s for s in install.plan(facts) if s.path == install.FIRMWARE_CUSTOM]
    assert custom.append and custom.content == "\n[all]\ndtparam=i2c_arm=on\ndtoverlay=max98357a,no-sdmode\n"
    assert "I2C and the I2S amplifier's overlay" in custom.what
    # the same lines in config.txt as well: on from the next boot, before any upgrade
    assert [s for s in install.plan(facts) if s.path == "/boot/firmware/config.txt"]
    # already there (and under [all]): nothing more; only what is missing is added
    done = pi(raspi_config=False, boot_config_text=DEBIAN_CONFIG_TXT, buses={"i2c", "i2s"},
              firmware_custom_text="[all]\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\ndtoverlay=max98357a,no-sdmode\n")
    assert not [s for s in install.plan(done) if s.path == install.FIRMWARE_CUSTOM]
    (amp,) = [s for s in install.plan(pi(boot_config_text=DEBIAN_CONFIG_TXT, firmware_custom_text="[all]\n",
                                         buses={"i2s"}))
              if s.path == install.FIRMWARE_CUSTOM]
    assert amp.content == "dtoverlay=max98357a,no-sdmode\n" and "I2C" not in amp.what
    # Raspberry Pi OS's config.txt is its own: nothing is written beside it
    assert not [s for s in install.plan(pi()) if s.path == install.FIRMWARE_CUSTOM]
    # lines before the file's first section follow the template's last one, and one under [pi4] is
    # for a Pi 4 alone: neither counts as there for every Pi
    for text in ("dtparam=i2c_arm=on\ndtoverlay=max98357a,no-sdmode\n",
                 "[pi4]\ndtparam=i2c_arm=on\ndtoverlay=max98357a,no-sdmode\n"):
        (again,) = [s for s in install.plan(pi(boot_config_text=DEBIAN_CONFIG_TXT, firmware_custom_text=text))
                    if s.path == install.FIRMWARE_CUSTOM]
        assert again.content == "[all]\ndtparam=i2c_arm=on\ndtoverlay=max98357a,no-sdmode\n", text


def test_the_firmware_files_lines_are_gathered_byte_for_byte(tmp_path, monkeypatch):
    custom = tmp_path / "raspi-firmware-custom"
    custom.write_bytes(b"# caf\xe9\n")
    monkeypatch.setattr(install, "FIRMWARE_CUSTOM", str(custom))
    monkeypatch.setattr(install, "BOOT_CONFIGS", (str(tmp_path / "none.txt"),))
    facts = install.gather(install.argparse.Namespace(user="root", data=str(tmp_path / "data"), allow_volatile=False),
                           environ={})
    assert facts.firmware_custom_text == "# caf\xe9\n"


def test_make_uninstall_removes_the_service_and_keeps_the_games(tmp_path, monkeypatch):
    """`make uninstall`: the service stopped, disabled and its unit gone; the data folder the unit
    served is named as kept (with how to back it up) and no command touches it."""
    unit = tmp_path / "newsdesk.service"
    unit.write_text("[Service]\nExecStart=/home/pi/newsdesk/.venv/bin/newsdesk --data /srv/games serve\n")
    config, _, _ = install._controller()
    monkeypatch.setattr(config, "INSTALLED_UNIT", str(unit))
    ran = []

    def run(argv, check):
        ran.append(argv)
        if argv[1] == "disable":        # as on a box where the service had already gone
            raise subprocess.CalledProcessError(1, argv)
    out = io.StringIO()
    args = install.argparse.Namespace(dry_run=False, data=None)
    assert install.remove(args, out, run, euid=0) == 0
    assert ran == [["systemctl", "disable", "--now", "newsdesk.service"], ["rm", "-f", install.UNIT_PATH],
                   ["systemctl", "daemon-reload"], ["systemctl", "reset-failed", "newsdesk.service"]]
    said = out.getvalue()
    assert "note: it wasn't installed as a service here" in said
    assert "The panel is removed. Kept:" in said and "sudo rm -r /srv/games" in said
    assert not any("/srv/games" in " ".join(argv) for argv in ran)
    # not root: one sentence, nothing run
    ran.clear()
    with pytest.raises(install.InstallError, match="sudo python3 deploy/install.py --remove"):
        install.remove(args, io.StringIO(), run, euid=1000)
    assert ran == []
    # the dry run runs nothing, as root or not
    out = io.StringIO()
    install.remove(install.argparse.Namespace(dry_run=True, data="/var/lib/newsdesk"), out, run, euid=1000)
    assert ran == [] and "would run: rm -f /etc/systemd/system/newsdesk.service" in out.getvalue()


def test_the_newsdesk_command_is_put_on_the_path_and_taken_off_by_uninstall():
    """`newsdesk doctor` typed in a shell, as the docs say it: a link in /usr/local/bin to the
    venv's command, made again at each install; someone else's command of that name is left
    alone (and said), and `make uninstall` removes the link only when it is this checkout's."""
    (link,) = [s for s in install.plan(pi()) if s.argv and s.argv[0] == "ln"]
    assert link.argv == ["ln", "-sfn", "/home/pi/newsdesk/.venv/bin/newsdesk", install.COMMAND]
    for foreign in ("file", "/opt/pipx/venvs/newsdesk/bin/newsdesk"):     # someone else's, a link too
        assert not [s for s in install.plan(pi(command=foreign)) if s.argv and s.argv[0] == "ln"]
        assert any("isn't newsdesk's: it is left alone" in n for n in install.check(pi(command=foreign), dry_run=True))
    # a link left by this checkout, or by one that has moved since: made again
    for ours in ("/home/pi/newsdesk/.venv/bin/newsdesk", "/home/pi/old/newsdesk/.venv/bin/newsdesk"):
        assert [s for s in install.plan(pi(command=ours)) if s.argv and s.argv[0] == "ln"]
    ours = str(install.REPO / ".venv" / "bin" / "newsdesk")
    assert ["rm", "-f", install.COMMAND] in [s.argv for s in install.removal_plan(ours)]
    for other in (None, "file", "/opt/other/bin/newsdesk"):
        assert ["rm", "-f", install.COMMAND] not in [s.argv for s in install.removal_plan(other)]


def test_what_the_command_is_now_is_read_without_following_it(tmp_path):
    assert install._command_now(str(tmp_path / "none")) is None
    (tmp_path / "file").write_text("#!/bin/sh\n")
    assert install._command_now(str(tmp_path / "file")) == "file"
    (tmp_path / "link").symlink_to(tmp_path / "gone")         # a link left dangling by a moved checkout
    assert install._command_now(str(tmp_path / "link")) == str(tmp_path / "gone")
