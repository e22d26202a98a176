"""Reading SQLite's write-ahead log as SQLite recovers it: what is not a log reads as empty. The
damage it notices in a real store's log is in test_store_damage.py."""

import pytest

from controller.walcheck import read_log


@pytest.mark.parametrize("junk", [b"", b"\0" * 31, b"\0" * 4096, b"\x37\x7f\x06\x82" + b"\0" * 60])
def test_a_log_that_is_not_one_reads_as_empty(junk):
    reading = read_log(junk)
    assert (reading.frames, reading.lost_commits, reading.damaged) == (0, 0, False)
