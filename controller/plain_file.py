"""A file someone names (a backup to restore, a dial trace to replay) opened only if it is a plain
file: a pipe waits for ever for a writer, and a device such as /dev/zero is read for ever, so
either would hold the command, or fill the memory, before any sentence could be said."""

import io
import os
import stat

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a disk"), (stat.S_ISSOCK, "a socket"))


class NotPlainFile(OSError):
    """The path names something other than a plain file; ``kind`` says what, in words."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def open_plain(path: "str | os.PathLike[str]") -> io.BufferedReader:
    """``path`` opened for reading in binary, or NotPlainFile. Opened without waiting (O_NONBLOCK:
    a pipe with no writer answers at once), then looked at (fstat), so what is checked is what is
    read. FileNotFoundError and the other OSErrors of opening pass through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotPlainFile(next((words for test, words in KINDS if test(mode)), "not a plain file"))
    return os.fdopen(fd, "rb")
