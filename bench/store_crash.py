"""Kill a process that is writing money transfers to the store, again and again, and check
that nothing it acknowledged is lost; and time one append with synchronous=FULL.

    python bench/store_crash.py crash [--runs 200] [--mode after|before] [--dir DIR] [--seed N]
    python bench/store_crash.py latency [--appends 500] [--dir DIR]

crash: each run starts a writer on the same SQLite file. The writer plays a game of transfers
among four players and the bank: now and then an undo, otherwise a player or the bank pays
someone. It prints "ack VERSION KEY DIGEST" once an entry is acknowledged, and runs until it is
killed with SIGKILL at a random moment. Each writer is forked by one waiting process (this file,
"zygote") that has done its imports but opened nothing, so a run costs a fork, not the start of
an interpreter; the writer opens the store itself, as a restarted box does. After each kill the
store is opened again (the same path a restart takes) and checked: SQLite's integrity_check says
ok, every acknowledged entry is there as it was acknowledged, nothing else was written but the
one entry that may have been committed in the instant before the kill, every entry has its event
and every event its entry, and the money still adds up to zero.

--mode after is the store as built (acknowledge once the commit returns). --mode before is a
deliberately broken writer that acknowledges first and commits after a little work: the check
must find what it lost. A SIGKILL leaves the OS page cache alone, so only the order of
acknowledgement and commit is under test here; a power cut is what synchronous=FULL is for.
"""

import argparse
import hashlib
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from controller.games import base, ledger  # noqa: E402
from controller.history import stacks  # noqa: E402
from controller.store import Store  # noqa: E402

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
START_MONEY = 3000
ENGINE = "transfers"          # the store doesn't care which engine a game names
MODES = ("after", "before")


def digest(entry):
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:16]


class _Engine:
    """Just enough of a game to fold transfers (for the money check)."""

    @staticmethod
    def initial():
        return {}

    @staticmethod
    def apply(state, event):
        return ledger.apply_transfer(state, event) if event.get("type") == ledger.TRANSFER else state


def setup_entry():
    return {"type": "setup", "said": "transfers among %s" % ", ".join(PLAYERS),
            "events": [ledger.transfer(ledger.BANK, p, START_MONEY, "starting money") for p in PLAYERS]}


def next_entry(rng, entries, balances):
    """A random next entry: an undo one time in eight, else a payment someone can afford."""
    done, _ = stacks(entries)
    if done and rng.random() < 0.125:
        return {"type": "undo", "target": done[-1], "said": "undid version %d" % done[-1]}
    payer = rng.choice((ledger.BANK,) + PLAYERS)
    payee = rng.choice([a for a in (ledger.BANK,) + PLAYERS if a != payer])
    held = balances.get(payer, 0) if payer != ledger.BANK else 10 ** 6
    amount = rng.randint(1, max(1, min(held, 500))) if held > 0 else None
    if amount is None:
        payer, payee, amount = ledger.BANK, payer, 100
    event = ledger.transfer(payer, payee, amount, "crash test")
    return {"type": "action", "action": {"type": "pay", "from": payer, "to": payee, "amount": amount},
            "events": [event], "said": "%s paid %s %s" % (payer, payee, ledger.dollars(amount))}


def _work(entry, rounds=40):
    """A little work between deciding an entry and writing it, like a real request has."""
    text = json.dumps(entry, sort_keys=True).encode()
    for _ in range(rounds):
        text = hashlib.sha256(text).digest() + text[:200]


def say(line):
    """One line on stdout in one write(2): a kill lands before it or after it, never inside (print
    may write a line and its newline apart, as it does unbuffered)."""
    os.write(sys.stdout.fileno(), (line + "\n").encode())


def worker(path, mode):
    store = Store(path)
    game = store.active_game()
    if game is None:
        game, _, _ = store.start_game(ENGINE, [{"name": p} for p in PLAYERS], {}, setup_entry(), key="setup")
    entries = [(e.version, e.entry) for e in store.entries(game.id)]
    balances = base.fold(_Engine, entries)
    rng = random.Random(os.getpid())
    say("ready %d %d" % (os.getpid(), len(entries)))
    n = 0
    while True:
        n += 1
        entry = next_entry(rng, entries, balances)
        key = "run-%d-%d" % (os.getpid(), n)
        version = len(entries) + 1
        line = "ack %d %s %s" % (version, key, digest(entry))
        if mode == "before":
            say(line)                              # BROKEN on purpose: acknowledged, not yet stored
        _work(entry)
        stored, _ = store.append_entry(game.id, len(entries), entry, key)
        if mode == "after":
            say(line)
        entries.append((stored.version, entry))
        balances = base.fold(_Engine, entries) if entry["type"] == "undo" else _Engine.apply(balances, entry["events"][0])


def zygote(path, mode):
    """Fork a writer for each "go" read on stdin; reap it at the next "reap" and say "done PID
    STATUS". The writers share this process's stdout, so "done" follows all a writer wrote, and
    a killed writer's pid can't be handed to another process before the kill (it is reaped only
    when asked)."""
    writer = None
    for line in sys.stdin:
        if line.strip() == "go" and writer is None:
            writer = os.fork()
            if writer == 0:
                try:
                    worker(path, mode)
                except BaseException as e:   # said on stdout, where the campaign is reading
                    say("failed %s" % " ".join(("%s: %s" % (type(e).__name__, e)).split())[:300])
                finally:
                    os._exit(1)              # a writer never comes back into this loop
        elif line.strip() == "reap" and writer is not None:
            _, status = os.waitpid(writer, 0)
            say("done %d %d" % (writer, status))
            writer = None


def check(path, acked, before):
    """What is wrong with the store at ``path`` after a run; [] if nothing.

    ``acked``: (version, key, digest) the run acknowledged; ``before``: how many entries the game
    held when the run started.
    """
    problems = []
    store = Store(path)
    try:
        verdict = store.integrity()
        if verdict != "ok":
            problems.append("integrity_check: %s" % verdict)
        game = store.active_game()
        entries = store.entries(game.id) if game else []
        if [e.version for e in entries] != list(range(1, len(entries) + 1)):
            problems.append("versions are not 1..%d without gaps" % len(entries))
        by_version = {e.version: e for e in entries}
        for version, key, sig in acked:
            e = by_version.get(version)
            if e is None or e.key != key:
                problems.append("acknowledged entry v%d (%s) is missing" % (version, key))
            elif digest(e.entry) != sig:
                problems.append("acknowledged entry v%d (%s) is stored differently" % (version, key))
        extra = len(entries) - before - len(acked)
        if extra > 1:
            problems.append("%d entries were stored that nobody acknowledged (at most the one being "
                            "committed at the kill may be)" % extra)
        try:
            money = base.fold(_Engine, [(e.version, e.entry) for e in entries])
        except base.GameError as e:
            problems.append("the entries don't replay: %s" % e)
            money = {}
        if sum(money.values()) != 0:
            problems.append("the money adds up to %d, not 0: %r" % (sum(money.values()), money))
    finally:
        store.close()
    db = sqlite3.connect(path)
    try:
        orphans = db.execute("SELECT COUNT(*) FROM game_entries ge LEFT JOIN events ev ON ev.id = ge.event "
                             "WHERE ev.id IS NULL").fetchone()[0]
        unmatched = db.execute("SELECT COUNT(*) FROM events ev LEFT JOIN game_entries ge ON ge.event = ev.id "
                               "WHERE ev.kind IN ('game.started', 'game.changed') AND ge.event IS NULL"
                               ).fetchone()[0]
    finally:
        db.close()
    if orphans or unmatched:
        problems.append("half-written: %d entries without their event, %d events without their entry"
                        % (orphans, unmatched))
    return problems


def _count(path):
    if not Path(path).is_file():
        return 0
    store = Store(path)
    try:
        game = store.active_game()
        return game.version if game else 0
    finally:
        store.close()


def campaign(path, runs=200, mode="after", seed=None, max_delay=0.03, stop_on_problem=False):
    """Run, kill and check ``runs`` times; returns a dict of what happened."""
    if mode not in MODES:
        raise ValueError("mode is one of %s, not %r" % (", ".join(MODES), mode))
    seed = random.randrange(2 ** 32) if seed is None else seed
    rng = random.Random(seed)
    report = {"runs": 0, "acked": 0, "killed_with_acks": 0, "unacked_commits": 0,
              "problems": [], "seed": seed, "mode": mode}
    started = time.monotonic()
    forks = subprocess.Popen([sys.executable, __file__, "zygote", str(path), "--mode", mode],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)   # its stderr is ours
    try:
        for run in range(runs):
            forks.stdin.write("go\n")
            forks.stdin.flush()
            ready = forks.stdout.readline().split()
            if len(ready) != 3 or ready[0] != "ready":
                report["problems"].append("run %d: the writer didn't start: %s" % (run, " ".join(ready)))
                break
            pid, before = int(ready[1]), int(ready[2])   # entries in the game when the writer began
            time.sleep(rng.uniform(0, max_delay))        # the kill comes at a random moment
            os.kill(pid, signal.SIGKILL)                 # still ours: the zygote reaps only when told
            forks.stdin.write("reap\n")
            forks.stdin.flush()
            acked, status, said = [], None, []
            for line in forks.stdout:
                word, *rest = line.split()
                if word == "done":
                    status = int(rest[1])
                    break
                if word == "ack":
                    version, key, sig = rest
                    acked.append((int(version), key, sig))
                else:
                    said.append(line.strip())
            if status is None or not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
                report["problems"].append("run %d: the writer stopped by itself (status %r): %s"
                                          % (run, status, " ".join(said)))
                break
            problems = check(path, acked, before)
            report["runs"] += 1
            report["acked"] += len(acked)
            report["killed_with_acks"] += bool(acked)
            report["unacked_commits"] += max(0, _count(path) - before - len(acked))
            report["problems"] += ["run %d: %s" % (run, p) for p in problems]
            if problems and stop_on_problem:
                break
    finally:
        forks.stdin.close()
        forks.wait(timeout=30)
        forks.stdout.close()
    report["seconds"] = round(time.monotonic() - started, 1)
    report["entries"] = _count(path)
    return report


def latency(path, appends=500):
    """Milliseconds per committed append_entry (median, p99, max) with WAL and synchronous=FULL."""
    store = Store(path)
    try:
        game, _, _ = store.start_game(ENGINE, [{"name": p} for p in PLAYERS], {}, setup_entry())
        rng = random.Random(1)
        entries = [(1, setup_entry())]
        balances = base.fold(_Engine, entries)
        times = []
        for n in range(appends):
            entry = next_entry(rng, entries, balances)
            t0 = time.perf_counter()
            stored, _ = store.append_entry(game.id, len(entries), entry, key="lat-%d" % n)
            times.append((time.perf_counter() - t0) * 1000)
            entries.append((stored.version, entry))
            balances = base.fold(_Engine, entries) if entry["type"] == "undo" else _Engine.apply(balances, entry["events"][0])
    finally:
        store.close()
    times.sort()
    return {"appends": appends, "median_ms": round(statistics.median(times), 3),
            "p99_ms": round(times[int(len(times) * 0.99) - 1], 3), "max_ms": round(times[-1], 3)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("zygote", help="fork a writer of transfers at each go (started by crash)")
    w.add_argument("path")
    w.add_argument("--mode", choices=MODES, default="after")
    c = sub.add_parser("crash", help="kill a writer at random moments and check the store each time")
    c.add_argument("--runs", type=int, default=200)
    c.add_argument("--mode", choices=MODES, default="after")
    c.add_argument("--seed", type=int)
    c.add_argument("--dir", help="where to put the store file (default: a temporary folder)")
    lat = sub.add_parser("latency", help="time appends with synchronous=FULL")
    lat.add_argument("--appends", type=int, default=500)
    lat.add_argument("--dir", help="where to put the store file (default: a temporary folder)")
    args = parser.parse_args(argv)
    if args.command == "zygote":
        zygote(args.path, args.mode)
        return 0
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "crash.sqlite3"
        if args.command == "crash":
            report = campaign(path, runs=args.runs, mode=args.mode, seed=args.seed)
            for p in report["problems"][:20]:
                print("PROBLEM", p)
            report["problems"] = len(report["problems"])
        else:
            report = latency(path, args.appends)
    print(json.dumps(report))
    return 0 if args.command != "crash" or not report["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
