"""One server per data folder: a lock file beside the store, saying who holds it.

Two servers on one store would each keep their own idea of the game being played (the second
one showing a stale table, both writing). ``newsdesk serve`` takes an exclusive lock on
``<data>/serve.lock`` and writes its pid and address into it; a second server finds the lock
taken and refuses with a sentence naming the first. The kernel drops the lock when the process
ends, however it ends, so a crash never leaves a folder locked.
"""

import json
import os

from .errors import NewsdeskError

LOCK_FILE = "serve.lock"

try:
    import fcntl
except ImportError:     # not POSIX: no lock (newsdesk runs on Linux and macOS)
    fcntl = None


class AlreadyServing(NewsdeskError):
    """Another newsdesk is serving this data folder (or restoring or migrating into it: ``holder``
    is what its lock file says, {"pid", "doing", "url"} as far as known)."""

    def __init__(self, message, holder=None):
        super().__init__(message)
        self.holder = holder or {}


class RunLock:
    def __init__(self, data_dir, doing=None):
        self.path = data_dir / LOCK_FILE
        self.doing = doing      # "serve", "restore", "migrate": written into the lock file for the one refused
        self._fd = None

    def acquire(self):
        """Take the lock, or raise AlreadyServing naming the server that holds it."""
        if fcntl is None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read(fd)
            os.close(fd)
            who = "pid %s" % holder.get("pid", "unknown")
            if holder.get("url"):
                who += ", panel at %s" % holder["url"]
            raise AlreadyServing("another newsdesk (%s) is already %s the data folder %s; stop it "
                                 "first, or give this one a folder of its own with --data"
                                 % (who, _doing(holder), self.path.parent), holder) from None
        self._fd = fd
        self.note(url=None)
        return self

    def note(self, **facts):
        """Write this server's pid (and what else is known, e.g. its address) into the lock file."""
        if self._fd is None:
            return
        facts = dict({"pid": os.getpid(), "doing": self.doing}, **facts)
        text = json.dumps({k: v for k, v in facts.items() if v is not None})
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, (text + "\n").encode(), 0)

    @property
    def held(self):
        """True between acquire and release (on a system without flock, never)."""
        return self._fd is not None

    def release(self):
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)
        except OSError:
            pass
        os.close(self._fd)     # closing drops the lock
        self._fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def _doing(holder):
    """What the holder of a lock is doing to its data folder, as a sentence says it."""
    return {"serve": "serving", "restore": "restoring a backup into",
            "migrate": "migrating the store of"}.get(holder.get("doing"), "serving")


def _read(fd):
    try:
        raw = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
        return json.loads(raw) if raw else {}
    except (OSError, ValueError):
        return {}
