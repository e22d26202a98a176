"""Backups kept without anyone asking: after each finished game, and once a day.

The card in a Raspberry Pi is what most often ends its data, and nobody remembers to run
`newsdesk backup` after a good evening. With ``backup_dir`` set (a USB stick, usually), the
keeper listens to the bus on a thread of its own: when a game is kept as finished, and when the
newest backup in the folder is a day old, it makes one there with ``backup.keep_in_folder`` (the
store copied by SQLite's online backup API in steps, so the table never waits on it) and the
oldest past ``backup_keep`` go. How the folder stands (missing, empty, stale, full: the same
judgement as `newsdesk doctor`'s, ``backup.folder_state``) is the health strip's "backup" part,
so a stick that was never plugged in is seen at the table, not discovered after the card dies.
"""

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import events
from .backup import StrPath, folder_state, keep_in_folder, newest_backup
from .errors import NewsdeskError

log = logging.getLogger(__name__)

DAILY = 24 * 3600     # seconds between backups when no game finishes
LOOK = 600            # how often the keeper looks at the clock while the bus is quiet


def _disk_free(folder: StrPath) -> int:
    import shutil
    return shutil.disk_usage(folder).free


class BackupKeeper:
    """Makes a backup into ``folder`` after each GAME_FINISHED on ``bus`` and once every DAILY
    seconds; ``health()`` says how the folder stands. ``close()`` stops it (a backup under way
    finishes first: it is never left half made under its name)."""

    # ``bus`` is the panel's (controller/bus.py), not typed yet
    def __init__(self, data_dir: StrPath, folder: StrPath, keep: int, bus: Any, clock: Callable[[], float] = time.time,
                 look: float = LOOK, free: Callable[[StrPath], int] = _disk_free) -> None:
        self.data_dir = data_dir
        self.folder = folder
        self.keep = keep
        self._clock = clock
        self._look = look
        self._free = free
        self._stop = threading.Event()
        self.made = 0                   # backups made since the start
        self.failed: str | None = None           # the sentence of the last attempt that failed, until one works
        self._sub = bus.subscribe(kinds=(events.GAME_FINISHED,))   # a move or a roll need not wake it
        self._thread = threading.Thread(target=self._run, name="backup-keeper", daemon=True)
        self._thread.start()

    def _daily_due(self) -> bool:
        try:
            newest = newest_backup(self.folder)
        except OSError:
            return False                # the folder is missing: health says so; nothing to write to
        return newest is None or self._clock() - newest[1] >= DAILY

    def _run(self) -> None:
        why = "none for a day" if self._daily_due() else None       # at the start, too
        while not self._stop.is_set():
            if why:
                self.backup(why)
            message = self._sub.get(timeout=self._look)
            if self._stop.is_set():
                return
            finished = isinstance(message, dict) and message.get("type") == events.GAME_FINISHED
            why = "a game was finished" if finished else "none for a day" if self._daily_due() else None

    def backup(self, why: str) -> Path | None:
        """Make one now; the file, or None (logged, and said by ``health``) when it failed."""
        try:
            dest, _, gone = keep_in_folder(self.data_dir, self.folder, self.keep, clock=self._clock)
        except (NewsdeskError, OSError) as e:
            self.failed = "The automatic backup (%s) failed: %s." % (why, getattr(e, "strerror", None) or e)
            log.warning("%s", self.failed)
            return None
        self.failed = None
        self.made += 1
        log.info("backed up to %s (%s)%s", dest, why, "; removed %d older" % len(gone) if gone else "")
        return dest

    def health(self) -> dict[str, str]:
        """The health strip's "backup" part (controller/health.py's vocabulary)."""
        if self.failed:
            return {"status": "warn", "summary": self.failed,
                    "detail": "Check the USB stick (backup_dir): plugged in, mounted, with room. `newsdesk doctor` "
                              "says more."}
        status, said, fix = folder_state(self.folder, self._clock(), self._free)
        said = said[:1].upper() + said[1:] + "."
        return {"status": status, "summary": said, "detail": (fix[:1].upper() + fix[1:] + ".") if fix else ""}

    def close(self) -> None:
        self._stop.set()
        self._sub.close()
        self._thread.join(timeout=30)
