"""One server per data folder: a second one is refused with a sentence naming the first, and the
folder is free again once the first lets go."""

import os

import pytest

from controller.runlock import AlreadyServing, RunLock


def test_a_second_server_is_refused_naming_the_first_until_it_lets_go(tmp_path):
    with RunLock(tmp_path) as first:
        first.note(url="http://box.local:8080/")
        with pytest.raises(AlreadyServing) as refused:
            RunLock(tmp_path).acquire()
        said = str(refused.value)
        assert "pid %d, panel at http://box.local:8080/" % os.getpid() in said and "--data" in said
    RunLock(tmp_path).acquire().release()          # let go: the folder is free
