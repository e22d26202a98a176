"""Dial decoder benchmark: a seeded corpus of realistic recordings, decoded by newsdesk's decoder
and by a plain fixed-timeout edge counter, side by side. Prints figures; asserts nothing.

    python bench/dial_decoder.py [--traces 360] [--worn 360] [--seed 1956]

Two corpora: the plain one (real phones in good order, dirty contacts) and the worn one
(``tracegen.Phone.worn``: first pulse off, a finger dragging the dial, governor drift, long
bounce, repeated rows, quick dialing at 7-14 pps and 52-75 % break).

Latency is the decoder's decision time minus the time of the digit's last pulse edge.
"""

import argparse
import difflib
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.dial import tracegen
from controller.dial.decoder import DialDecoder
from controller.dial.dialmaps import DIAL_MAPS, digit_for
from controller.dial.trace import replay
from controller.dial.tracegen import Phone, session


class FixedTimeoutCounter(object):
    """The decoder everyone writes first: count pulse-contact openings, end the digit 300 ms after
    the last edge. No learning; ``lockout`` > 0 ignores edges that soon after a counted one (the
    usual debounce), 0 counts every edge."""

    TIMEOUT = 0.300

    def __init__(self, dial_map, lockout=0.0):
        self.dial_map = dial_map
        self.lockout = lockout

    def decode(self, edges):
        out, count, last, level, counted = [], 0, None, 0, None
        for t, line, state in edges:
            if line != "pulse":
                continue
            if self.lockout and counted is not None and t - counted < self.lockout:
                continue
            if count and t - last > self.TIMEOUT:
                out.append((last + self.TIMEOUT, digit_for(count, self.dial_map), last))
                count = 0
            if state != level:
                counted = t
            if state == 1 and level == 0:
                count += 1
            level = state
            last = t
        if count:
            out.append((last + self.TIMEOUT, digit_for(count, self.dial_map), last))
        return out


def newsdesk_decode(rec):
    edges = rec.sorted_edges()
    events = replay(edges, dial_map=rec.phone.dial_map, offnormal="auto")
    digits = [(e.t, e.value, e.last_edge) for e in events if e.kind == "digit"]
    hooks = [e.value for e in events if e.kind == "hook"]
    return digits, hooks


def profiled_decode(rec):
    """The decoder started from the phone's profile: its make/break ratio as the dial tester
    would keep it (the dial's own, a few % high: the tester keeps the largest it saw)."""
    p = rec.phone
    decoder = DialDecoder(dial_map=p.dial_map, ratio=min(0.96, (1 - p.ratio) / p.ratio * 1.05))
    events = replay(rec.sorted_edges(), decoder=decoder)
    digits = [(e.t, e.value, e.last_edge) for e in events if e.kind == "digit"]
    return digits, [e.value for e in events if e.kind == "hook"]


def baseline_decode(rec):
    return FixedTimeoutCounter(rec.phone.dial_map).decode(rec.sorted_edges()), None


def lockout_decode(rec):
    return FixedTimeoutCounter(rec.phone.dial_map, lockout=0.010).decode(rec.sorted_edges()), None


def score(recs, decode):
    """Fully right recordings, digits right, digits expected, and the latencies of the digits right.

    Decoded digits are lined up with the true ones by longest common subsequence, so a digit
    split in two or a spike read as a digit costs only the digits it really got wrong. Latency
    is taken from the recordings whose digits all came out right (elsewhere it means nothing)."""
    full = right = total = 0
    lat = []
    for rec in recs:
        digits, hooks = decode(rec)
        got = [d for _, d, _ in digits]
        total += len(rec.digits)
        if got == rec.digits and (hooks is None or hooks == rec.hook):
            full += 1
        matcher = difflib.SequenceMatcher(a=got, b=rec.digits, autojunk=False)
        right += sum(block.size for block in matcher.get_matching_blocks())
        if got == rec.digits:
            lat.extend(t - end for (t, _, _), end in zip(digits, rec.digit_end))
    return full, right, total, lat


def pct(x, q):
    if not x:
        return float("nan")
    s = sorted(x)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def row(label, recs, decode):
    full, right, total, lat = score(recs, decode)
    return ("%-34s %5d  %6.1f %%   %6.2f %%   %7.1f   %7.1f"
            % (label, len(recs), 100.0 * full / max(1, len(recs)), 100.0 * right / max(1, total),
               1000 * statistics.median(lat) if lat else float("nan"), 1000 * pct(lat, 0.95)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", type=int, default=360, help="recordings in the main corpus")
    ap.add_argument("--worn", type=int, default=360, help="recordings in the worn-dial corpus")
    ap.add_argument("--seed", type=int, default=1956)
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    started = time.perf_counter()
    groups = {}
    per = max(1, args.traces // (len(DIAL_MAPS) * 2))
    for dial_map in DIAL_MAPS:
        for wired in (True, False):
            groups[(dial_map, wired)] = [session(rng, Phone.random(rng, dial_map=dial_map, offnormal=wired))
                                         for _ in range(per)]
    at10 = {wired: [session(rng, Phone.random(rng, offnormal=wired, pps=rng.uniform(9.7, 10.3)))
                    for _ in range(per)] for wired in (True, False)}
    worn_rng = random.Random(args.seed + 1)
    worn_per = max(1, args.worn // (len(DIAL_MAPS) * 2))
    worn = {}
    for dial_map in DIAL_MAPS:
        for wired in (True, False):
            worn[(dial_map, wired)] = [session(worn_rng, tracegen.Phone.worn(worn_rng, dial_map=dial_map, offnormal=wired))
                                       for _ in range(worn_per)]
    made = time.perf_counter() - started
    everything = [r for g in groups.values() for r in g]
    n_digits = sum(len(r.digits) for r in everything)
    edges = sum(len(r.sorted_edges()) for r in everything)

    print("corpus: %d recordings (%d digits, %d edges; 7-13 pps, 55-72 %% break, jitter, bounce, "
          "chatter, spikes, hook flashes), seed %d, made in %.1f s"
          % (len(everything), n_digits, edges, args.seed, made))
    print("plus %d recordings at 10 pps (+-3 %%) for the latency targets" % sum(len(v) for v in at10.values()))
    worn_all = [r for g in worn.values() for r in g]
    print("worn corpus: %d recordings (%d digits; 7-14 pps, 52-75 %% break, first pulse off, finger drag, "
          "drift, bounce to 8 ms / 8 toggles, repeated rows, quick dialing), seed %d"
          % (len(worn_all), sum(len(r.digits) for r in worn_all), args.seed + 1))
    header = "%-34s %5s  %8s   %8s   %7s   %7s" % ("group", "n", "traces", "digits", "med ms", "p95 ms")
    for name, decode in (("newsdesk decoder", newsdesk_decode),
                         ("fixed 300 ms timeout, edge counting", baseline_decode),
                         ("same, with a 10 ms debounce lockout", lockout_decode)):
        t0 = time.perf_counter()
        print()
        print("== %s" % name)
        print(header)
        for (dial_map, wired), recs in groups.items():
            print(row("%s, %s" % (dial_map, "off-normal" if wired else "no off-normal"), recs, decode))
        print(row("all", everything, decode))
        for wired, recs in at10.items():
            print(row("10 pps, %s" % ("off-normal" if wired else "no off-normal"), recs, decode))
        for (dial_map, wired), recs in worn.items():
            print(row("worn %s, %s" % (dial_map, "off-normal" if wired else "no off-normal"), recs, decode))
        print(row("worn, all", worn_all, decode))
        print("(decoded in %.2f s)" % (time.perf_counter() - t0))
    t0 = time.perf_counter()
    print()
    print("== newsdesk decoder started from each phone's profile (worn corpus)")
    print(header)
    for (dial_map, wired), recs in worn.items():
        print(row("worn %s, %s" % (dial_map, "off-normal" if wired else "no off-normal"), recs, profiled_decode))
    print(row("worn, all", worn_all, profiled_decode))
    print("(decoded in %.2f s)" % (time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
