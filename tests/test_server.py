"""`newsdesk serve` as a process: a room full of live pages, and a clean life from start to stop.

Each test starts the real server (Hypercorn) in a child process on a free port of its own
and a fresh data folder, with simulated pins. The room test is the small size of
bench/panel_streams.py: it fails on a thread-per-stream server (24 threads serve 24 pages, and
then nothing else answers).
"""

import hashlib
import importlib.util
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from controller.store import STORE_FILE, Store

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("panel_streams", REPO / "bench" / "panel_streams.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def serve(data, *args, env=None):
    """Run `newsdesk serve` to its end (for the refusals); (exit status, stderr)."""
    child_env = dict(os.environ, **bench.SERVER_ENV, **(env or {}))
    done = subprocess.run([sys.executable, "-m", "controller.cli", "--data", str(data), "serve", *args],
                          cwd=REPO, env=child_env, capture_output=True, text=True, timeout=30)
    return done.returncode, done.stderr


def sqlite_says(path):
    db = sqlite3.connect("%s?mode=ro" % path.as_uri(), uri=True)
    try:
        return "; ".join(r[0] for r in db.execute("PRAGMA integrity_check"))
    except sqlite3.DatabaseError as e:
        return str(e)
    finally:
        db.close()


def one_sentence(stderr):
    """The refusal is one line saying what to do, and no traceback."""
    assert "Traceback" not in stderr
    refusals = [line for line in stderr.splitlines() if line.startswith("newsdesk: ")]
    assert len(refusals) == 1, stderr
    return refusals[0]


def test_a_room_of_live_pages_and_idle_sockets_never_starves_the_host(tmp_path):
    server = bench.Server("new", data=tmp_path / "data")
    room = bench.Room(server.port)
    try:
        room.open_pages(150)
        room.open_quiet(300, trickle=False, first=150)
        end = time.monotonic() + 10
        while sum(p["status"] == 200 for p in room.pages) < 150 and time.monotonic() < end:
            room.pump(0.1)
        assert sum(p["status"] == 200 for p in room.pages) == 150
        status, _, took = bench.request(server.port, "GET", "/", timeout=5)
        assert status == 200 and took < 1.0
        status, out, took = bench.request(server.port, "POST", "/api/games",
                                          {"engine": "scan", "players": bench.PLAYERS})
        assert status == 201 and took < 1.0
        end = time.monotonic() + 5
        while (not all(out["event_id"] in p["ids"] for p in room.pages)) and time.monotonic() < end:
            room.pump(0.1)
        assert all(p["ids"] == [out["event_id"]] for p in room.pages)   # each page: the move, once
        assert not any(q["closed"] for q in room.quiet)                  # header_timeout is 10 s
    finally:
        room.close_all()
        server.stop()


def test_stopping_checkpoints_the_store_and_a_second_server_is_refused(tmp_path):
    data = tmp_path / "data"
    server = bench.Server("new", data=data, env={"NEWSDESK_HEADER_TIMEOUT": "1"})
    try:
        status, out, _ = bench.request(server.port, "POST", "/api/games", {"engine": "scan", "players": bench.PLAYERS})
        assert status == 201
        wal = data / (STORE_FILE + "-wal")
        assert wal.stat().st_size > 0

        code, err = serve(data, "--port", "0")
        said = one_sentence(err)
        assert code == 2 and "another newsdesk (pid %d, panel at http://127.0.0.1:%d/)" % (
            server.proc.pid, server.port) in said and str(data) in said

        code, err = serve(tmp_path / "other", "--port", str(server.port))
        said = one_sentence(err)
        assert code == 2 and "port %d" % server.port in said and "--port, NEWSDESK_PORT" in said

        # a socket trickling its headers is closed after header_timeout (1 s here)
        trickler = socket.create_connection(("127.0.0.1", server.port))
        trickler.sendall(b"GET / HTTP/1.1\r\n")
        trickler.settimeout(0.5)
        end = time.monotonic() + 5
        closed = False
        while not closed and time.monotonic() < end:
            try:
                trickler.sendall(b"X-Slow: 1\r\n")
                closed = trickler.recv(1024) == b""
            except socket.timeout:
                pass
            except OSError:
                closed = True
        trickler.close()
        assert closed

        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=10) == 0
        err = server.log()
        assert "Traceback" not in err and "stopped; the store is closed" in err
        assert not wal.exists() or wal.stat().st_size == 0
        assert json.loads((data / "serve.lock").read_text() or "{}") == {}
    finally:
        server.stop()
    store = Store(data / STORE_FILE)
    try:
        assert store.active_game().engine == "scan"
    finally:
        store.close()


def test_ctrl_c_stops_the_server_cleanly_with_a_page_open(tmp_path):
    data = tmp_path / "data"
    server = bench.Server("new", data=data)
    room = bench.Room(server.port)
    try:
        room.open_pages(1)
        end = time.monotonic() + 5
        while room.pages[0]["status"] != 200 and time.monotonic() < end:
            room.pump(0.05)
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(timeout=10) == 0
        assert "Traceback" not in server.log()
        assert not (data / (STORE_FILE + "-wal")).exists()
    finally:
        room.close_all()
        server.stop()


def test_a_damaged_store_is_one_sentence_and_left_untouched(tmp_path):
    data = tmp_path / "data"
    store = Store(data / STORE_FILE)
    for i in range(400):
        store.append("test.filler", {"n": i, "text": "x" * 200})
    store.close()
    path = data / STORE_FILE
    raw = bytearray(path.read_bytes())
    page = 4096
    middle = (len(raw) // page // 2) * page
    raw[middle:middle + page] = b"\xa5" * page
    path.write_bytes(bytes(raw))
    assert sqlite_says(path) != "ok"
    before = hashlib.sha256(path.read_bytes()).hexdigest()

    code, err = serve(data, "--port", "0")
    said = one_sentence(err)
    assert code == 2 and "is damaged" in said and str(path) in said and "left untouched" in said
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    wal = data / (STORE_FILE + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0     # read, never written


def test_a_page_that_closes_leaves_no_line_in_the_log(tmp_path):
    """An evening's pages come and go: each closing wrote an INFO line under waitress ("Client
    disconnected while serving /stream", 108 in one evening); a closed page is not news."""
    server = bench.Server("new", data=tmp_path / "data")
    room = bench.Room(server.port)
    try:
        room.open_pages(3)
        end = time.monotonic() + 5
        while any(p["status"] != 200 for p in room.pages) and time.monotonic() < end:
            room.pump(0.05)
        before = server.log()
        room.close_all()
        time.sleep(0.5)                                  # the server notices the closed sockets
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=10) == 0
        during = server.log()[len(before):]
        assert "disconnect" not in during.lower() and "/stream" not in during, during
    finally:
        server.stop()
