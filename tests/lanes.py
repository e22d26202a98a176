"""How `make test` hands the test files to its workers: two lanes over one queue.

The suite is CPU-bound on a 2-core machine, yet some files spend most of their time waiting on
real time: a dial's pulses at ten a second, the Workbench's half-second refresh, a reconnect's
backoff, a page's poll. On a worker per core, each of those waits leaves a core idle. So `make
test` starts one worker more than there are cores, and that worker takes its files from the
other end of the queue, where the files marked ``waits`` are (``order``): it mostly sleeps,
and the CPU-bound files keep both cores busy from the front.

A worker added without waiting files to run (as before: ``-n 3`` with one queue) only shares the
cores the others use, at a cost: with three workers taking from the front, the suite took as long
and a sixth more CPU (docs/benchmarks.md).

Only the order is decided on the workers (which collect the tests and see their marks); the
controller, which hands out the files, sees just the order, and the tail worker takes from its
end. With no more workers than cores, every worker takes from the front, as xdist does.
"""

import itertools
import os

from xdist.scheduler import LoadFileScheduling


def cores():
    """The cores this process may run on (the count xdist's `-n auto` would use, at most)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def order(items):
    """``items`` grouped by file, each file kept whole and in its own order, and the files put:

    - at the front, the CPU-bound files, longest first, so the workers end together: browser
      files alternating with the slow others (a worker driving Chromium mostly runs beside one
      that isn't: two Chromiums at once cost each other CPU), then the quick ones;
    - at the back, the files marked ``waits``, the heaviest last (browser tests, then slow ones,
      then the count), since the tail worker takes them from the end.
    """
    files = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)

    def weight(group):      # (browser tests, slow tests, tests)
        return tuple(sum(1 for i in group if i.get_closest_marker(m)) for m in ("browser", "slow")) + (len(group),)

    def waits(group):
        return all(i.get_closest_marker("waits") for i in group)

    weighed = sorted(((weight(g), g) for g in files.values() if not waits(g)), key=lambda wg: wg[0], reverse=True)
    browser = [g for (b, _s, _n), g in weighed if b]
    slow = [g for (b, s, _n), g in weighed if not b and s]
    quick = [g for (b, s, _n), g in weighed if not b and not s]
    waiting = sorted((g for g in files.values() if waits(g)), key=weight)
    ordered = [g for pair in itertools.zip_longest(browser, slow) for g in pair if g] + quick + waiting
    return [item for group in ordered for item in group]


class TwoLanes(LoadFileScheduling):
    """xdist's handing out of whole files, except that with more workers than cores the last
    worker takes each file from the end of the queue instead of the front."""

    def _assign_work_unit(self, node):
        if self.numnodes > cores() and node is self.nodes[-1]:
            self.workqueue.move_to_end(next(reversed(self.workqueue)), last=False)
        return super()._assign_work_unit(node)
