"""The data directory must be on storage that keeps writes: RAM, an overlay on RAM and read-only
mounts are refused with the mount named and the fixes spelled out."""

from pathlib import Path

import pytest

from controller.durability import OVERRIDE, DataDirNotDurable, check_data_dir, mount_of, parse_mountinfo
from controller.errors import ConfigError, NewsdeskError

PROC = "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
SD_ROOT = PROC + "27 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw\n" \
                 "28 27 179:1 / /boot/firmware rw,relatime shared:2 - vfat /dev/mmcblk0p1 rw,fmask=0022\n" \
                 "29 27 0:25 / /run rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=94012k,mode=755\n"

# Raspberry Pi OS with raspi-config's overlay file system: overlayroot puts a RAM layer over the
# SD card's root; with its default (recurse) a data partition under / is overlaid too.
OVERLAYROOT = PROC + (
    "30 1 0:30 / / rw,relatime shared:1 - overlay overlayroot "
    "rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir\n"
    "31 30 179:2 / /media/root-ro ro,relatime shared:2 - ext4 /dev/mmcblk0p2 ro\n"
    "32 30 0:31 / /media/root-rw rw,relatime shared:3 - tmpfs tmpfs-root rw\n"
    "33 30 179:1 / /boot/firmware ro,relatime shared:4 - vfat /dev/mmcblk0p1 ro,fmask=0022\n")
DATA_PARTITION = "34 30 179:3 / /srv/newsdesk rw,noatime shared:5 - ext4 /dev/mmcblk0p3 rw\n"
DATA_OVERLAID = ("34 30 0:32 / /srv/newsdesk rw,relatime shared:5 - overlay overlayroot "
                 "rw,lowerdir=/media/root-ro/srv/newsdesk,upperdir=/media/root-rw/overlay-srv/upper,"
                 "workdir=/media/root-rw/overlay-srv/work\n")


def test_a_data_directory_on_the_sd_card_is_fine():
    mount = check_data_dir("/home/pi/.local/share/newsdesk", SD_ROOT)
    assert mount.mount_point == "/" and mount.fstype == "ext4" and mount.source == "/dev/mmcblk0p2"


def test_tmpfs_is_refused_with_the_mount_named():
    with pytest.raises(DataDirNotDurable) as caught:
        check_data_dir("/run/newsdesk", SD_ROOT)
    message = str(caught.value)
    assert "/run/newsdesk is on the tmpfs mount at /run" in message
    assert "keeps everything in RAM" in message and OVERRIDE in message
    assert isinstance(caught.value, ConfigError) and isinstance(caught.value, NewsdeskError)


def test_the_raspberry_pi_overlay_is_refused_with_its_fixes():
    with pytest.raises(DataDirNotDurable) as caught:
        check_data_dir("/var/lib/newsdesk", OVERLAYROOT)
    message = str(caught.value)
    assert "overlay mount at / (from overlayroot)" in message
    assert "writable layer (/media/root-rw/overlay) is on /media/root-rw" in message
    assert "overlayroot=tmpfs" in message and ":recurse=0" in message and "raspi-config" in message


def test_overlayroot_with_its_layers_hidden_is_still_refused():
    hidden = "".join(line + "\n" for line in OVERLAYROOT.splitlines() if "/media/root-" not in line.split()[4])
    assert not [m for m in parse_mountinfo(hidden) if m.mount_point.startswith("/media/")]
    with pytest.raises(DataDirNotDurable, match="overlayroot"):
        check_data_dir("/var/lib/newsdesk", hidden)


def test_a_data_partition_left_out_of_the_overlay_is_fine():
    mount = check_data_dir("/srv/newsdesk", OVERLAYROOT + DATA_PARTITION)
    assert mount.mount_point == "/srv/newsdesk" and mount.fstype == "ext4"
    # ... and so is a directory below it that doesn't exist yet
    assert check_data_dir("/srv/newsdesk/table-2", OVERLAYROOT + DATA_PARTITION).source == "/dev/mmcblk0p3"
    assert mount_of("/srv/newsdesk/table-2", parse_mountinfo(OVERLAYROOT + DATA_PARTITION)).mount_point == "/srv/newsdesk"


def test_a_data_partition_the_overlay_covers_is_refused():
    with pytest.raises(DataDirNotDurable, match="/srv/newsdesk is on the overlay mount at /srv/newsdesk"):
        check_data_dir("/srv/newsdesk", OVERLAYROOT + DATA_OVERLAID)


def test_a_containers_overlay_is_taken_as_durable():
    docker = PROC + ("40 1 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A,"
                     "upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/var/lib/docker/overlay2/abc/work\n")
    assert check_data_dir("/data", docker).fstype == "overlay"


def test_read_only_and_zram_are_refused():
    ro = SD_ROOT + "35 27 8:1 / /mnt/usb ro,relatime - ext4 /dev/sda1 ro\n"
    with pytest.raises(DataDirNotDurable, match="mounted read-only"):
        check_data_dir("/mnt/usb/newsdesk", ro)
    zram = SD_ROOT + "36 27 254:0 / /var/lib/newsdesk rw,relatime - ext4 /dev/zram1 rw\n"
    with pytest.raises(DataDirNotDurable, match="compressed RAM disk"):
        check_data_dir("/var/lib/newsdesk", zram)


def test_the_override_lets_it_run():
    mount = check_data_dir("/run/newsdesk", SD_ROOT, allow_volatile=True)
    assert mount.fstype == "tmpfs"


def test_a_symlinked_data_directory_is_judged_where_it_leads(tmp_path):
    link = tmp_path / "data"
    link.symlink_to("/run/newsdesk-test-target")
    mounts = SD_ROOT + "37 27 0:40 / %s rw - ext4 /dev/sdb1 rw\n" % tmp_path
    with pytest.raises(DataDirNotDurable, match="/run/newsdesk-test-target"):
        check_data_dir(link, mounts)


def test_escaped_mount_points_are_read():
    text = SD_ROOT + "38 27 8:2 / /mnt/game\\040data rw - tmpfs tmpfs rw\n"
    assert mount_of("/mnt/game data/x", parse_mountinfo(text)).fstype == "tmpfs"
    assert mount_of("/mnt/game datax", parse_mountinfo(text)).mount_point == "/"


def test_the_later_of_two_mounts_on_one_point_wins():
    text = SD_ROOT + "39 27 0:41 / /srv rw - ext4 /dev/sdc1 rw\n40 39 0:42 / /srv rw - tmpfs tmpfs rw\n"
    assert mount_of("/srv/newsdesk", parse_mountinfo(text)).fstype == "tmpfs"


def test_this_machines_mountinfo_parses():
    text = Path("/proc/self/mountinfo").read_text() if Path("/proc/self/mountinfo").exists() else SD_ROOT
    mounts = parse_mountinfo(text)
    assert mounts and mount_of("/", mounts) is not None
