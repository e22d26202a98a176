"""Is the data directory on storage that keeps what is written to it?

A Raspberry Pi whose root file system is made read-only with an overlay (raspi-config's
"Overlay File System", Raspberry Pi OS's overlayroot) keeps every write in RAM: the store
would accept a game, acknowledge it, and lose it at the next power cut. On Raspberry Pi OS the
overlay also covers other partitions mounted from /etc/fstab unless it is told not to
(``overlayroot=tmpfs:recurse=0``). So at start-up the server finds the mount that holds the data
directory in /proc/self/mountinfo and refuses a volatile one:

    tmpfs, ramfs                  RAM
    overlay                       volatile if its upper (writable) layer is on RAM, or if it is
                                  overlayroot's and its upper layer is hidden from us
    a read-only mount             nothing can be written at all
    /dev/zram*                    a compressed RAM disk (as log2ram and zram tools make)

An overlay whose upper layer lies outside this mount namespace (a container's) is taken as
durable: that is the container's business, and refusing it would stop every container.
"""

import errno
import os
from pathlib import Path

from .errors import ConfigError

RAM_FILESYSTEMS = ("tmpfs", "ramfs")
OVERRIDE = 'volatile_data = "allow"'


class DataDirNotDurable(ConfigError):
    """The data directory would silently lose writes (RAM, an overlay on RAM, or read-only)."""


class Mount:
    """One line of /proc/self/mountinfo (see proc(5))."""

    __slots__ = ("mount_id", "parent_id", "root", "mount_point", "options", "fstype", "source",
                 "super_options")

    def __init__(self, mount_id, parent_id, root, mount_point, options, fstype, source, super_options):
        self.mount_id = mount_id
        self.parent_id = parent_id
        self.root = root
        self.mount_point = mount_point
        self.options = options
        self.fstype = fstype
        self.source = source
        self.super_options = super_options

    @property
    def read_only(self):
        return "ro" in self.options.split(",")

    def super_option(self, name):
        for item in self.super_options.split(","):
            key, _, value = item.partition("=")
            if key == name:
                return value
        return None

    def __repr__(self):
        return "<Mount %s on %s (%s)>" % (self.source, self.mount_point, self.fstype)


def _unescape(field):
    """mountinfo writes space, tab, newline and backslash in paths as octal escapes."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text):
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        sep = fields.index("-")
        if sep < 6 or len(fields) < sep + 3:
            continue
        mounts.append(Mount(fields[0], fields[1], _unescape(fields[3]), _unescape(fields[4]),
                            fields[5], fields[sep + 1], _unescape(fields[sep + 2]),
                            fields[sep + 3] if len(fields) > sep + 3 else ""))
    return mounts


def _within(path, mount_point):
    return path == mount_point or mount_point == "/" or path.startswith(mount_point.rstrip("/") + "/")


def mount_of(path, mounts):
    """The mount that holds ``path``: the deepest mount point above it; of several mounted on
    the same point, the last (it is the one on top)."""
    best = None
    for mount in mounts:
        if _within(path, mount.mount_point):
            if best is None or len(mount.mount_point) >= len(best.mount_point):
                best = mount
    return best


def volatile_reason(mount, mounts, seen=()):
    """Why writes to ``mount`` would be lost, in plain words, or None if they are kept."""
    if mount.fstype in RAM_FILESYSTEMS:
        return "%s keeps everything in RAM" % mount.fstype
    if mount.source.startswith("/dev/zram"):
        return "%s is a compressed RAM disk" % mount.source
    if mount.fstype == "overlay":
        upper = mount.super_option("upperdir")
        if upper:
            below = mount_of(upper, [m for m in mounts if m is not mount and m.mount_point != mount.mount_point])
            if below is not None and below not in seen:
                why = volatile_reason(below, mounts, seen + (mount,))
                if why:
                    return "it is an overlay whose writable layer (%s) is on %s, and %s" % (
                        upper, below.mount_point, why)
                return None
        if mount.source == "overlayroot":
            return ("it is Raspberry Pi OS's overlay file system (overlayroot), whose writable layer "
                    "is in RAM")
    return None


def check_data_dir(path, mountinfo=None, allow_volatile=False):
    """Raise DataDirNotDurable if ``path`` (which need not exist yet) is on a mount that would
    lose writes; return its Mount otherwise. ``mountinfo`` is the text of /proc/self/mountinfo
    (read when None); on a system without one (not Linux) there is nothing to check."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8")
        except OSError:
            return None
    mounts = parse_mountinfo(mountinfo)
    where = os.path.realpath(os.fspath(path))
    mount = mount_of(where, mounts)
    if mount is None:
        return None
    why = volatile_reason(mount, mounts)
    if why is None and mount.read_only:
        why = "it is mounted read-only"
    if why is None or allow_volatile:
        return mount
    raise DataDirNotDurable(
        "the data directory %s is on the %s mount at %s (from %s), and %s: newsdesk would accept games and "
        "lose them at the next reboot or power cut, so it won't start. Fix one of: keep the data on "
        "a durable partition (mount one, e.g. at /srv/newsdesk, and run with --data /srv/newsdesk or "
        "NEWSDESK_DATA); with Raspberry Pi OS's overlay file system, add :recurse=0 to its "
        "overlayroot=tmpfs setting in /boot/firmware/cmdline.txt so that partition stays writable, "
        "or turn the overlay off (sudo raspi-config, Performance Options, Overlay File System); "
        "or, to run on it anyway and lose the data, set %s in config.toml."
        % (where, mount.fstype, mount.mount_point, mount.source, why, OVERRIDE))


# -- can this user keep anything there at all -------------------------------------------

PROBE_FILE = ".newsdesk-write-probe"
PROBE_BYTES = 256 * 1024    # room for a few hundred moves in the store's log; less is a full disk
HOW_TO_POINT_ELSEWHERE = "or give newsdesk another folder with --data DIR or NEWSDESK_DATA"


class DataDirUnusable(ConfigError):
    """The data folder can't be made, read or written by this user, or its disk is full."""


def _owner(stat_result):
    try:
        import pwd
        return pwd.getpwuid(stat_result.st_uid).pw_name
    except (ImportError, KeyError):
        return "user %d" % stat_result.st_uid


def _me():
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError, AttributeError):
        return "this user"


def unusable(path: str | os.PathLike[str], error: OSError) -> "DataDirUnusable":
    """The one sentence for ``error`` (an OSError met while using the data folder ``path``)."""
    path = Path(path)
    if isinstance(error, (FileExistsError, NotADirectoryError)) or (path.exists() and not path.is_dir()):
        return DataDirUnusable("the data folder %s is a file, not a folder: move the file aside, %s"
                               % (path, HOW_TO_POINT_ELSEWHERE))
    if isinstance(error, PermissionError):
        try:
            owner = _owner(path.stat())
        except OSError:
            owner = None
        me = _me()
        if owner is not None and owner != me:
            as_owner = "" if owner == "root" else "run newsdesk as %s, or " % owner
            return DataDirUnusable(
                "the data folder %s belongs to %s, and the user %s can't read and write it: %sgive it to "
                "this user (sudo chown -R %s: %s), %s" % (path, owner, me, as_owner, me, path,
                                                          HOW_TO_POINT_ELSEWHERE))
        return DataDirUnusable("the user %s can't read and write the data folder %s (%s): let it (chmod u+rwx %s), "
                               "%s" % (me, path, error.strerror or error, path, HOW_TO_POINT_ELSEWHERE))
    if getattr(error, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
        try:
            free = os.statvfs(path)
            left = " (%d KB free)" % (free.f_bavail * free.f_frsize // 1024)
        except OSError:
            left = ""
        return DataDirUnusable("the disk holding the data folder %s is full%s: newsdesk could not keep a single "
                               "move; free some space (old logs: sudo journalctl --vacuum-size=50M), %s"
                               % (path, left, HOW_TO_POINT_ELSEWHERE))
    if getattr(error, "errno", None) == errno.EROFS:
        return DataDirUnusable("the data folder %s is on a read-only disk; %s" % (path, HOW_TO_POINT_ELSEWHERE))
    return DataDirUnusable("can't use the data folder %s: %s; %s" % (path, error.strerror or error,
                                                                      HOW_TO_POINT_ELSEWHERE))


def check_usable(path, probe_bytes=PROBE_BYTES):
    """Make the data folder if it is missing, and prove this user can list it and write, sync and
    remove a file of ``probe_bytes`` in it; DataDirUnusable (one sentence saying what to do)
    otherwise. Why a real write: a full disk, a folder owned by root after a `sudo make run`, or
    a file where the folder should be would each surface later as a traceback from whichever
    part wrote first (the lock, the secret key, SQLite)."""
    path = Path(path)
    probe = path / PROBE_FILE
    failed = None
    try:
        path.mkdir(parents=True, exist_ok=True)
        os.listdir(path)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            block = b"\0" * 65536
            left = probe_bytes
            while left > 0:
                left -= os.write(fd, block[:left])
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        failed = e
    try:
        probe.unlink()
    except OSError:
        pass
    if failed is not None:      # said after the probe is gone, so the free space it gives is true
        raise unusable(path, failed) from None
