"""MQTT's cost, measured: a move's acknowledgement with MQTT off and on, side by side in one run,
and how soon the league page shows a table's move with 20 tables sending. Prints figures;
asserts nothing.

    python bench/mqtt_cost.py [--moves 400] [--league-moves 400] [--rate 40]

Acknowledgement: two panels served as `newsdesk serve` serves them (Hypercorn, in this process)
on fresh data folders, one without a broker and
one sending to Debian's mosquitto (started here on a free port, with a subscriber on
newsdesk/# as Home Assistant would be). Each takes the same SCOOP (1956) game; undo and redo
alternate, each a stored move, sent to the two panels in turn so they share the machine's
noise. Timed: the POST's round trip, as a tablet sees it.

League: 20 tables (each a store of its own, moves written through the Store's API with fsync,
announced on a bus, and its own publisher) send to the broker; `newsdesk league`'s page is
served here by waitress in a thread (`newsdesk league` itself serves it with Hypercorn) and
drawn by Chromium. Moves go round the tables at --rate moves a second in
all; each is timed from its commit to the first moment the page shows that table at that move
(or later). The bench and the browser share this machine's clock.
"""

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from league_table import Table
from panel_common import browser, call, panel, pct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

WATCH = """() => {
  window.__shown = {};
  const look = () => {
    const now = performance.timeOrigin + performance.now();
    for (const card of document.querySelectorAll("#tables li[data-table]")) {
      const m = /move (\\d+)/.exec(card.querySelector(".game").textContent);
      if (!m) continue;
      const key = card.dataset.table, v = +m[1];
      const seen = window.__shown[key] || (window.__shown[key] = []);
      if (!seen.length || seen[seen.length - 1][0] < v) seen.push([v, now]);
    }
  };
  new MutationObserver(look).observe(document.getElementById("tables"), { childList: true, subtree: true });
  look();
}"""


def line(name, ms):
    return "%-34s median %6.2f ms   p90 %6.2f ms   p99 %6.2f ms   max %6.2f ms" % (
        name, pct(ms, 0.5), pct(ms, 0.9), pct(ms, 0.99), max(ms))


def acks(broker, moves):
    from mosquitto import Listener

    players = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
    watcher = Listener(broker, ["newsdesk/#"], client_id="home-assistant", persistent=False)
    timed = {"off": [], "on": []}
    with panel() as (off, _, _), panel(overrides={"mqtt_url": broker.url, "table_name": "bench"}) as (on, desk, _):
        deadline = time.monotonic() + 10
        while not desk.mqtt.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        for base in (off, on):
            assert call(base, "/api/games", {"engine": "scoop1956", "players": players})[0] == 201
            game = call(base, "/api/games/current")[1]["game"]
            offer = next(o for o in game["offers"] if not o.get("enter"))
            action = {k: v for k, v in offer.items() if k not in ("needs", "sides", "suits")}
            assert call(base, "/api/games/current/actions", {"action": action, "version": game["version"]})[0] == 200
        versions = {off: call(off, "/api/games/current")[1]["game"]["version"],
                    on: call(on, "/api/games/current")[1]["game"]["version"]}
        for i in range(moves):
            for base, name in ((off, "off"), (on, "on")) if i % 2 else ((on, "on"), (off, "off")):
                path = "/api/games/current/undo" if i % 2 == 0 else "/api/games/current/redo"
                t = time.perf_counter()
                status, out = call(base, path, {"version": versions[base]})
                timed[name].append((time.perf_counter() - t) * 1000)
                assert status == 200, out
                versions[base] = out["version"]
        deadline = time.monotonic() + 10
        while desk.mqtt.backlog and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = desk.mqtt.sent
    events = len(watcher.on("newsdesk/bench/events"))
    watcher.close()
    return timed, sent, events


def thread_cpu(thread):
    """CPU seconds a thread has used (Linux: /proc/self/task/<id>/stat), or None elsewhere."""
    try:
        fields = open("/proc/self/task/%d/stat" % thread.native_id).read().rsplit(")", 1)[1].split()
    except (OSError, AttributeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def acks_in_process(broker, moves):
    """The same moves without HTTP: GameSession.undo/redo on two Newsdesks (the store's commit,
    the bus), MQTT off and on, taken in turns. What the publisher adds is one more bus queue and
    its thread's share of the CPU; this measures that with less of the web server's noise."""
    from gpiozero.pins.mock import MockFactory

    from controller.app import Newsdesk
    from controller.config import load_config

    timed = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as tmp:
        desks = {}
        for name, extra in (("off", {}), ("on", {"mqtt_url": broker.url, "table_name": "bench2"})):
            desks[name] = Newsdesk(load_config(Path(tmp) / name, environ={}, overrides=dict(
                extra, audio="off", speech="off")), pin_factory=MockFactory())
        try:
            deadline = time.monotonic() + 10
            while not desks["on"].mqtt.connected and time.monotonic() < deadline:
                time.sleep(0.01)
            for desk in desks.values():
                games = desk.table.games
                games.start("scoop1956", [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")])
                offer = next(o for o in games.current()["offers"] if not o.get("enter"))
                games.act({k: v for k, v in offer.items() if k not in ("needs", "sides", "suits")}, games.version)
            publisher = desks["on"].mqtt
            cpu_before, sent_before = thread_cpu(publisher._thread), publisher.sent
            for i in range(moves):
                for name in ("off", "on") if i % 2 else ("on", "off"):
                    games = desks[name].table.games
                    t = time.perf_counter()
                    (games.undo if i % 2 == 0 else games.redo)(games.version)
                    timed[name].append((time.perf_counter() - t) * 1000)
            deadline = time.monotonic() + 10
            while publisher.backlog and time.monotonic() < deadline:
                time.sleep(0.01)
            cpu_after = thread_cpu(publisher._thread)
            if cpu_before is not None:
                timed["cpu_per_event"] = (cpu_after - cpu_before) * 1000 / max(1, publisher.sent - sent_before)
        finally:
            for desk in desks.values():
                desk.close()
    return timed


def league(broker, folder, moves, rate, tables=20):
    from waitress import create_server

    from controller.mqtt.follower import LeagueFollower
    from web_ui.league import create_league_app

    follower = LeagueFollower(broker.url, client_id="league").start()
    sims = [Table(folder / ("t%02d" % i), broker, "newsdesk/t%02d" % i, "Table %d" % (i + 1)) for i in range(tables)]
    for sim in sims:
        sim.start(["Ann", "Bob", "Cat"])
    srv = create_server(create_league_app(follower, keepalive=0.2), host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    p, b = browser()
    made = []
    try:
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.goto("http://127.0.0.1:%d/" % int(srv.effective_port))
        page.wait_for_function("document.querySelectorAll('#tables > li').length === %d" % tables, timeout=20000)
        page.evaluate(WATCH)
        rng = random.Random(7)
        gap = 1.0 / rate
        start = time.monotonic()
        for i in range(moves):
            sim = sims[i % tables]
            version, committed = sim.move(rng)
            made.append((sim.base, version, committed))
            wait = start + (i + 1) * gap - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        time.sleep(1.0)
        shown = page.evaluate("window.__shown")
    finally:
        b.close()
        p.stop()
        time.sleep(0.5)          # the page's stream notices its closed connection at the next keepalive
        srv.close()
        thread.join(5)
        for sim in sims:
            sim.close()
        follower.close()
    late, missing = [], 0
    for base, version, committed in made:
        first = next((t for v, t in shown.get(base, []) if v >= version), None)
        if first is None:
            missing += 1
        else:
            late.append(max(0.0, first / 1000 - committed) * 1000)
    return late, missing


def main():
    from mosquitto import Mosquitto

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=400, help="acknowledgements timed on each panel")
    ap.add_argument("--league-moves", type=int, default=400)
    ap.add_argument("--rate", type=float, default=40.0, help="moves a second over all 20 tables")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        broker = Mosquitto(Path(tmp) / "broker").start()
        try:
            timed, sent, events = acks(broker, args.moves)
            print("move acknowledgement, %d undo/redo moves on each panel, taken in turns" % args.moves)
            print(line("MQTT off", timed["off"]))
            print(line("MQTT on (mosquitto, 1 subscriber)", timed["on"]))
            print("p99 added by MQTT: %+.2f ms   (the broker acknowledged %d events; the subscriber got %d)"
                  % (pct(timed["on"], 0.99) - pct(timed["off"], 0.99), sent, events))
            inner = acks_in_process(broker, args.moves * 5)
            print("the same in the server, no HTTP (GameSession.undo/redo), %d moves on each" % (args.moves * 5))
            print(line("MQTT off", inner["off"]))
            print(line("MQTT on", inner["on"]))
            print("p99 added by MQTT: %+.2f ms" % (pct(inner["on"], 0.99) - pct(inner["off"], 0.99)))
            if "cpu_per_event" in inner:
                print("the publisher thread's CPU per event sent (events, retained game state, idle wake-ups "
                      "included): %.3f ms" % inner["cpu_per_event"])
        finally:
            broker.stop()
        broker = Mosquitto(Path(tmp) / "league-broker").start()      # a broker of the league's own
        try:
            late, missing = league(broker, Path(tmp), args.league_moves, args.rate)
            print("league page, 20 tables sending, %d moves at %.0f a second in all" % (args.league_moves, args.rate))
            print(line("move committed -> shown on the page", late))
            print("moves never shown: %d" % missing)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
