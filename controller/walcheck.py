"""Reading SQLite's write-ahead log the way SQLite recovers it, to notice what it drops in silence.

When SQLite opens a store after a crash it replays the log's frames (each a page, with a running
checksum and the log's two salts) up to the first frame whose checksum fails, and ignores the
rest by design: that is how a write torn by a power cut is undone. But a log damaged in the
middle (a bad sector, a flipped bit on a worn SD card) is undone the same way, and then every
change committed after the damaged frame, each one acknowledged to the table, is dropped without
a word; the next clean stop checkpoints the shortened log and the evidence is gone.

``read_log`` walks the log as SQLite does (https://www.sqlite.org/fileformat2.html#walformat)
and also counts the commits that lie past the break and still carry this log's salts: written in
this log's lifetime, after the point SQLite stops reading. A write torn by a power cut leaves at
most one such commit (the one being written, never acknowledged: with synchronous=FULL a later
commit only starts after this one was on the disk); two or more mean acknowledged changes were
lost. Pure: it is handed the log's bytes.
"""

import struct

HEADER = 32
FRAME_HEADER = 24
MAGIC_LE, MAGIC_BE = 0x377F0682, 0x377F0683
MASK = 0xFFFFFFFF


class LogReading:
    """What a log holds: ``frames`` and ``commits`` SQLite will replay, and ``lost_commits``
    past the break that belong to this log (see the module's docstring)."""

    __slots__ = ("frames", "commits", "lost_frames", "lost_commits")

    def __init__(self, frames: int = 0, commits: int = 0, lost_frames: int = 0, lost_commits: int = 0) -> None:
        self.frames = frames
        self.commits = commits
        self.lost_frames = lost_frames
        self.lost_commits = lost_commits

    @property
    def damaged(self) -> bool:
        """True when acknowledged commits lie past the break (not just one torn, unacknowledged write)."""
        return self.lost_commits >= 2

    def __repr__(self) -> str:
        return "<LogReading %d frames, %d commits; past the break %d frames, %d commits>" % (
            self.frames, self.commits, self.lost_frames, self.lost_commits)


def _checksum(data: bytes, s0: int, s1: int, fmt: str) -> tuple[int, int]:
    words = struct.unpack(fmt % (len(data) // 4), data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & MASK
        s1 = (s1 + words[i + 1] + s0) & MASK
    return s0, s1


def read_log(data: bytes) -> LogReading:
    """A LogReading of the log ``data`` (bytes); an empty or unreadable header is an empty log,
    as it is to SQLite."""
    if len(data) < HEADER:
        return LogReading()
    magic = struct.unpack(">I", data[:4])[0]
    if magic not in (MAGIC_LE, MAGIC_BE):
        return LogReading()
    fmt = ">%dI" if magic == MAGIC_BE else "<%dI"
    page_size = struct.unpack(">I", data[8:12])[0]
    if page_size == 1:
        page_size = 65536
    if page_size < 512 or page_size & (page_size - 1):
        return LogReading()
    salts = data[16:24]
    s0, s1 = _checksum(data[:24], 0, 0, fmt)
    if (s0, s1) != struct.unpack(">II", data[24:32]):
        return LogReading()         # a header SQLite ignores: the whole log is ignored
    size = FRAME_HEADER + page_size
    reading = LogReading()
    broken = False
    for at in range(HEADER, len(data) - size + 1, size):
        head = data[at:at + FRAME_HEADER]
        commit = struct.unpack(">I", head[4:8])[0] != 0
        ours = head[8:16] == salts
        if not broken:
            if ours:
                s0, s1 = _checksum(head[:8] + data[at + FRAME_HEADER:at + size], s0, s1, fmt)
            if ours and (s0, s1) == struct.unpack(">II", head[16:24]):
                reading.frames += 1
                reading.commits += commit
                continue
            broken = True
        if ours:
            reading.lost_frames += 1
            reading.lost_commits += commit
    return reading
