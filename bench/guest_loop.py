"""One guest looping connect, send a request, close: what the box holds and how long the host's
move takes while it runs, and what is left after. Each tree side by side in one run. Prints
figures; asserts nothing.

    sudo ip addr add 10.77.0.1/32 dev lo      # a guest's address (every 127.x address is the host)
    .venv/bin/python bench/guest_loop.py [--seconds 20] [--source 10.77.0.1] [--tree DIR ...]

Each server is `newsdesk serve` from a source tree (panel_common.serve_command: simulated pins,
a fresh data folder) with a SCOOP (1956) game started. One thread, bound to ``--source``, opens
a connection, sends `GET /api/health`, and closes it without reading, as fast as it can; the
host (loopback) meanwhile asks `/api/health` and makes a move each second. Printed: the guest's
connections, the server's open file descriptors and VmRSS at the end of the loop, the host's
slowest health answer and move during it, and the descriptors and VmRSS 10 s after it stopped.
"""

import argparse
import os
import socket
import tempfile
import threading
import time

from panel_common import ROOT, Api, free_port, memory, serve_command, wait_up


def descriptors(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def run(tree, seconds, source):
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        proc = serve_command(data + "/d", port, tree=tree, env={"NEWSDESK_AUDIO": "off", "NEWSDESK_SPEECH": "off"})
        try:
            api = Api(port)
            wait_up(api, proc)
            status, game = api.call("POST", "/api/games", {"engine": "scoop1956", "players": [{"name": "A"}, {"name": "B"}]})
            assert status == 201, game
            stop = threading.Event()
            sent = [0]

            def guest():
                while not stop.is_set():
                    try:
                        s = socket.socket()
                        s.bind((source, 0))
                        s.connect(("127.0.0.1", port))
                        s.send(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        s.close()
                        sent[0] += 1
                    except OSError:
                        time.sleep(0.01)
            host = {"health": [], "move": []}

            def host_asks():
                while not stop.is_set():
                    t = time.monotonic()
                    api.call("GET", "/api/health")
                    host["health"].append(time.monotonic() - t)
                    t = time.monotonic()
                    _, game = api.call("GET", "/api/games/current")
                    api.call("POST", "/api/games/current/actions",
                             {"action": {"type": "exchange", "player": (game["game"]["version"] - 1) % 2},
                              "version": game["game"]["version"]})
                    host["move"].append(time.monotonic() - t)
                    stop.wait(1.0)
            threads = [threading.Thread(target=guest, daemon=True), threading.Thread(target=host_asks, daemon=True)]
            for t in threads:
                t.start()
            time.sleep(seconds)
            during = (descriptors(proc.pid), memory(proc.pid)["VmRSS"])
            stop.set()
            for t in threads:
                t.join(120)
            time.sleep(10)
            after = (descriptors(proc.pid), memory(proc.pid)["VmRSS"])
            return sent[0], during, max(host["health"] or [0]), max(host["move"] or [0]), after
        finally:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--source", default="10.77.0.1", help="the guest's address (on this machine's loopback)")
    ap.add_argument("--tree", action="append", default=[], help="another source tree, measured the same way")
    args = ap.parse_args()
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=0.1, source_address=(args.source, 0)).close()
    except ConnectionRefusedError:
        pass
    except OSError as e:
        raise SystemExit("the guest's address %s is not on this machine (%s): sudo ip addr add %s/32 dev lo"
                         % (args.source, e.strerror or e, args.source)) from None
    print("One guest (%s) looping connect, send, close for %g s; the host asks and moves each second"
          % (args.source, args.seconds))
    print("%-28s %12s  %22s  %22s  %22s" % ("", "connections", "during: fds / RSS", "host: health / move",
                                             "10 s after: fds / RSS"))
    for tree in [str(ROOT)] + args.tree:
        sent, (fds, rss), health, move, (fds_after, rss_after) = run(tree, args.seconds, args.source)
        label = "this tree" if tree == str(ROOT) else os.path.basename(tree.rstrip("/"))
        print("%-28s %12d  %10d / %6.0f MB  %8.2f / %8.2f s  %10d / %6.0f MB"
              % (label, sent, fds, rss, health, move, fds_after, rss_after))


if __name__ == "__main__":
    main()
