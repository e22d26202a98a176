"""How `make test` hands its files to the workers (tests/lanes.py): the order on the workers, and
the controller's two lanes, driven here with stand-ins for xdist's workers."""

from types import SimpleNamespace

import lanes
import pytest


class Item:
    def __init__(self, nodeid, *marks):
        self.nodeid, self.marks = nodeid, marks

    def get_closest_marker(self, name):
        return name if name in self.marks else None


def files(items):
    return list(dict.fromkeys(i.nodeid.split("::")[0] for i in items))


def test_the_files_that_wait_go_last_the_longest_at_the_end_and_each_file_stays_whole():
    items = [Item("a.py::t1", "waits"), Item("b.py::t1"), Item("c.py::t1", "browser", "slow"),
             Item("a.py::t2", "waits"), Item("d.py::t1", "slow"), Item("e.py::t1", "browser", "waits"),
             Item("e.py::t2", "browser", "waits"), Item("c.py::t2", "browser"), Item("f.py::t1", "waits"),
             Item("f.py::t2")]
    ordered = lanes.order(items)
    assert sorted(ordered, key=id) == sorted(items, key=id)
    assert files(ordered) == ["c.py", "d.py", "f.py", "b.py", "a.py", "e.py"]     # f.py waits only in part
    assert [i.nodeid for i in ordered if i.nodeid.startswith(("a.py", "c.py"))] == [
        "c.py::t1", "c.py::t2", "a.py::t1", "a.py::t2"]


class Worker:
    """A stand-in for xdist's WorkerController: keeps what it is sent."""

    def __init__(self, name):
        self.name, self.sent, self.shutting_down = name, [], False
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices):
        self.sent.extend(indices)

    def shutdown(self):
        self.shutting_down = True


def run(collection, workers, cores, monkeypatch):
    """Hand ``collection`` out to ``workers`` stand-ins, each finishing its oldest test in turn,
    as xdist's controller would; gives {worker: the files it ran, in order}."""
    monkeypatch.setattr(lanes, "cores", lambda: cores)
    config = SimpleNamespace(getvalue=lambda name: ["%d*popen" % workers] if name == "tx" else None,
                             option=SimpleNamespace(loadscopereorder=False))
    sched = lanes.TwoLanes(config)
    nodes = [Worker("gw%d" % n) for n in range(workers)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    done = {node: 0 for node in nodes}
    while not sched.tests_finished or any(done[n] < len(n.sent) for n in nodes):
        for node in nodes:
            if done[node] < len(node.sent):
                sched.mark_test_complete(node, node.sent[done[node]])
                done[node] += 1
    return {node.name: files([Item(collection[i]) for i in node.sent]) for node in nodes}


COLLECTION = ["%s.py::t%d" % (f, n) for f in "abcdefgh" for n in range(3)]


def test_with_a_worker_more_than_cores_the_last_takes_its_files_from_the_end(monkeypatch):
    ran = run(COLLECTION, workers=3, cores=2, monkeypatch=monkeypatch)
    assert ran["gw2"][:2] == ["h.py", "g.py"]
    assert ran["gw0"][0] == "a.py" and ran["gw1"][0] == "b.py"
    assert sorted(sum(ran.values(), [])) == ["%s.py" % f for f in "abcdefgh"]


@pytest.mark.parametrize("workers", [1, 2])
def test_with_no_more_workers_than_cores_every_worker_takes_from_the_front(monkeypatch, workers):
    ran = run(COLLECTION, workers=workers, cores=2, monkeypatch=monkeypatch)
    firsts = sorted(r[0] for r in ran.values())
    assert firsts == ["%s.py" % f for f in "ab"[:workers]]
    assert sorted(sum(ran.values(), [])) == ["%s.py" % f for f in "abcdefgh"]
