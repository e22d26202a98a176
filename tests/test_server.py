"""`newsdesk serve` as a process: a room full of live pages, and a clean life from start to stop.

Each test starts the real server (Hypercorn) in a child process on a free port of its own
and a fresh data folder, with simulated pins. The room test is the small size of
bench/panel_streams.py: it fails on a thread-per-stream server (24 threads serve 24 pages, and
then nothing else answers). The last test is the same server on a thread of this process
(``InThread``, which the browser tests use), stopped while connections keep arriving.
"""

import hashlib
import http.client
import importlib.util
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import wait_for

from controller.hw.simulated import DIGITS_AHEAD
from controller.store import STORE_FILE, Store

pytestmark = pytest.mark.slow       # each test starts `newsdesk serve` in a process of its own

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("panel_streams", REPO / "bench" / "panel_streams.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def serve(data, *args, env=None):
    """Run `newsdesk serve` to its end (for the refusals); (exit status, stderr)."""
    child_env = dict(os.environ, **dict(bench.SERVER_ENV, **(env or {})))
    done = subprocess.run([sys.executable, "-m", "newsdesk", "--data", str(data), "serve", *args],
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


def server_sockets(pid):
    """How many sockets the server process holds open (listening ones included)."""
    fd_dir = Path("/proc/%d/fd" % pid)
    count = 0
    for fd in fd_dir.iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            pass
    return count


def oversized_upload(port, chunked):
    """A guest's upload far over the limit: headers, then as much body as the server will take
    within a moment; the socket is kept open (a client that stalls rather than hangs up).
    Returns (the socket, the status line the server answered, if any)."""
    sock = socket.create_connection(("127.0.0.1", port))
    head = ("POST /api/join/dial HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Newsdesk: 1\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else "Content-Length: %d\r\n" % (50 << 20)) + "\r\n")
    sock.sendall(head.encode())
    block = b"x" * 65536
    piece = (b"%x\r\n" % len(block) + block + b"\r\n") if chunked else block
    sock.setblocking(False)
    answered = b""
    end = time.monotonic() + 1.0
    while time.monotonic() < end and b"\r\n" not in answered:
        try:
            sock.send(piece)
        except (BlockingIOError, InterruptedError):
            time.sleep(0.005)
        except OSError:
            pass        # the server closed its side: what it answered is in the receive buffer
        try:
            got = sock.recv(4096)
            answered += got
            if not got:
                break
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            break
    return sock, answered.split(b"\r\n", 1)[0]


def table_page(port):
    """(status, seconds) of the table's page, on a connection the server closes after it (an idle
    keep-alive connection would be held until header_timeout, and counted)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    t0 = time.monotonic()
    try:
        conn.request("GET", "/", headers={"Connection": "close"})
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - t0
    finally:
        conn.close()


def test_oversized_uploads_from_a_guest_are_refused_and_release_their_connections(tmp_path):
    """A body over the panel's limit (declared or chunked) gets 413 and its connection is closed
    at once: a hundred of them leave the server's sockets and memory where they were, and the
    table's page answers within a second throughout. (Before: the connection stayed in the server
    until it stopped, and a chunked one got 400.)"""
    server = bench.Server("new", data=tmp_path / "data", env={"NEWSDESK_HOST_ON_LOOPBACK": "no"})
    held = []
    try:
        assert table_page(server.port)[0] == 200
        baseline_sockets = server_sockets(server.proc.pid)
        baseline_mb = server.rss_mb()
        slowest = 0.0
        for i in range(100):
            sock, status_line = oversized_upload(server.port, chunked=bool(i % 2))
            held.append(sock)
            assert status_line == b"HTTP/1.1 413 ", (i, status_line)
            if i % 10 == 9:
                status, took = table_page(server.port)
                assert status == 200
                slowest = max(slowest, took)
        assert slowest < 1.0, slowest
        end = time.monotonic() + 5
        while server_sockets(server.proc.pid) > baseline_sockets and time.monotonic() < end:
            time.sleep(0.1)
        assert server_sockets(server.proc.pid) <= baseline_sockets, "connections still held by the server"
        assert server.rss_mb() - baseline_mb < 8, (baseline_mb, server.rss_mb())
        for sock in held:       # the server's side is closed: the client reads the end of the stream
            sock.setblocking(True)
            sock.settimeout(2)
            rest = b""
            while True:
                got = sock.recv(65536)
                if not got:
                    break
                rest += got
            assert b'"Content Too Large"' in rest or rest == b""
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=10) == 0
        assert "Traceback" not in server.log() and "ERROR" not in server.log(), server.log()[-3000:]
    finally:
        for sock in held:
            sock.close()
        server.stop()


AS_NOBODY = """
import importlib, os, pkgutil, pwd, sys
import controller, newsdesk, web_ui
for package in (newsdesk, controller, web_ui):     # every module `serve` may load, while still root
    for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if found.name.endswith(".__main__"):     # importing it runs the command
            continue
        try:
            importlib.import_module(found.name)
        except Exception:
            pass
os.setgroups([]); os.setgid(65534); os.setuid(65534)
sys.exit(importlib.import_module("newsdesk.cli").main(sys.argv[1:]))
"""


def serve_as_nobody(data):
    """`newsdesk serve` run as the user nobody (only root can). The interpreter may sit where
    nobody can't reach it (a root's own Python), so the child starts as root, loads what `serve`
    loads, and drops to nobody before it runs: (exit status, stderr)."""
    child_env = dict(os.environ, **bench.SERVER_ENV)
    done = subprocess.run([sys.executable, "-c", AS_NOBODY, "--data", str(data), "serve", "--port", "0"],
                          cwd=REPO, env=child_env, capture_output=True, text=True, timeout=30)
    return done.returncode, done.stderr


@pytest.fixture
def open_tmp():
    """A folder anyone may enter (pytest's own is its owner's only), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="newsdesk-startup-"))
    path.chmod(0o755)
    yield path
    for sub in path.iterdir():
        sub.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


def test_a_data_folder_that_is_a_file_is_one_sentence(tmp_path):
    data = tmp_path / "data"
    data.write_text("not a folder\n")
    code, err = serve(data, "--port", "0")
    said = one_sentence(err)
    assert code == 2 and "%s is a file, not a folder" % data in said and "--data" in said
    assert data.read_text() == "not a folder\n"


def test_a_data_folder_this_user_cannot_read_is_one_sentence(tmp_path, open_tmp):
    data = open_tmp / "data"
    data.mkdir(mode=0)
    if os.geteuid() == 0:
        os.chown(data, 65534, 65534)       # nobody's own folder, which nobody may not read
        code, err = serve_as_nobody(data)
    else:
        code, err = serve(data, "--port", "0")
    said = one_sentence(err)
    assert code == 2 and "can't read and write the data folder %s" % data in said and "chmod u+rwx" in said


def test_a_data_folder_owned_by_another_user_is_one_sentence(open_tmp):
    if os.geteuid() != 0:
        pytest.skip("needs root, to run the server as another user than the folder's owner")
    data = open_tmp / "data"
    data.mkdir(mode=0o755)                 # root's, as a `sudo make run` leaves it
    code, err = serve_as_nobody(data)
    said = one_sentence(err)
    assert code == 2 and "%s belongs to root, and the user nobody can't read and write it" % data in said
    assert "sudo chown -R nobody: %s" % data in said


def test_a_data_folder_on_a_full_disk_is_one_sentence(open_tmp):
    if os.geteuid() != 0:
        pytest.skip("needs root, to mount a small disk to fill")
    disk = open_tmp / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("can't mount a small disk here: %s" % mounted.stderr.decode().strip())
    try:
        (disk / "filler").write_bytes(b"x" * (100 * 1024))
        code, err = serve(disk / "data", "--port", "0", env={"NEWSDESK_VOLATILE_DATA": "allow"})
        said = one_sentence(err)
        assert code == 2 and "the disk holding the data folder %s is full" % (disk / "data") in said
        assert not (disk / "data" / ".newsdesk-write-probe").exists()
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_stop_with_everything_busy_is_quiet(tmp_path):
    """SIGTERM with live pages open, an upload half sent, a broker connected and a queue of
    simulated digits still to dial: the server stops at once with exit 0, and its log holds no
    traceback and no error (before: one traceback for each digit still queued)."""
    from mosquitto import Mosquitto

    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    server = bench.Server("new", data=tmp_path / "data", env={"NEWSDESK_MQTT_URL": broker.url})
    room = bench.Room(server.port)
    upload = None
    try:
        room.open_pages(3)
        end = time.monotonic() + 5
        while any(p["status"] != 200 for p in room.pages) and time.monotonic() < end:
            room.pump(0.05)
        upload = socket.create_connection(("127.0.0.1", server.port))
        upload.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"X-Newsdesk: 1\r\nContent-Length: 4000\r\n\r\n{\"engine\": ")
        for digit in (4, 7, 1, 0, 9, 2, 8)[:DIGITS_AHEAD]:      # as many as may wait
            status, _, _ = bench.request(server.port, "POST", "/api/sim/dial", {"digit": digit})
            assert status == 202
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=10) == 0
        log = server.log()
        assert "stopped; the store is closed" in log
        assert "Traceback" not in log and " ERROR " not in log, log[-4000:]
    finally:
        room.close_all()
        if upload is not None:
            upload.close()
        server.stop()
        broker.stop()


@pytest.mark.slow
@pytest.mark.slow
def test_connections_a_guest_opens_and_closes_in_a_loop_are_let_go_at_once(app):
    """A client's closed connection is closed by the server too, at once, not after header_timeout
    (10 s here): otherwise a guest opening and closing connections in a loop holds a socket and
    its memory for each, 10 s long. Before, all 300 were still open a second later."""
    from web_ui.server import InThread

    def open_sockets():
        count = 0
        for fd in os.listdir("/proc/self/fd"):
            try:
                count += os.readlink("/proc/self/fd/" + fd).startswith("socket:")
            except OSError:
                pass                    # closed since the listing
        return count

    server = InThread(app)
    try:
        before = open_sockets()
        for i in range(300):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if i % 3 == 1:
                sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")     # headers never finished
            elif i % 3 == 2:                                                        # a whole request, then gone
                sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.close()
        # well inside the 10 s: 1 s was too tight for a busy 2-core machine (a failure in a CI run
        # while other work ran), and the difference this tests is 10 s against next to none
        assert wait_for(lambda: open_sockets() <= before + 5, timeout=4.0), open_sockets() - before
        status, _, took = bench.request(server.port, "GET", "/api/health", timeout=5)
        assert status == 200
    finally:
        server.close()


def test_a_server_in_a_thread_stopped_as_connections_arrive_leaves_none_open(app):
    """Every connection is either served and closed or refused: none is left open for the garbage
    collector, which would close it in whatever test ran next (a ResourceWarning there) and leave
    its client hanging until then. Before: a connection accepted in the server's last moments was
    left open, in about two runs of this test out of three. The collector is off here, so such a
    socket stays open to be seen."""
    import gc
    import threading

    from web_ui.server import InThread

    hanging = total = 0
    gc.disable()
    try:
        for _ in range(10):
            server = InThread(app)
            stop, knocked = threading.Event(), []

            def knock(port=server.port, stop=stop, knocked=knocked):
                while not stop.is_set():
                    try:
                        sock = socket.create_connection(("127.0.0.1", port), timeout=1)
                    except OSError:
                        time.sleep(0.001)
                        continue
                    knocked.append(sock)
                    try:
                        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never finished
                    except OSError:
                        pass

            knocker = threading.Thread(target=knock)
            knocker.start()
            time.sleep(0.05)
            server.close()
            stop.set()
            knocker.join()
            for sock in knocked:
                total += 1
                sock.settimeout(0.5)
                try:
                    while sock.recv(4096):
                        pass
                except TimeoutError:
                    hanging += 1
                except OSError:
                    pass        # refused or reset as the server stopped: not left open
                sock.close()
    finally:
        gc.enable()
    assert total > 0
    assert hanging == 0, "%d of %d connections were left open by the stopped server" % (hanging, total)


def _raw_answer(port, data):
    """(status, content type, body) of the answer to ``data`` sent as is on a new connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("content-type"), body


def test_a_request_the_server_cannot_read_is_answered_in_a_sentence(app):
    """What h11 refuses before the panel sees it (a malformed header, no Host, headers past the
    limit, a Transfer-Encoding it doesn't take) gets the panel's JSON {error, message} with a 4xx,
    like every other refusal. Before: an empty body, and a 501 (a 5xx) for the transfer coding."""
    from web_ui.server import MAX_HEADERS, InThread

    unreadable = [
        b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
        b"GET /api/health HTTP/1.1\r\n\r\n",                                          # no Host
        b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.2\r\n\r\n",
        b"GET /api/he\xffalth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"POST /api/sim/dial HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Newsdesk: 1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: gzip\r\n\r\n{}",
        b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 2 * MAX_HEADERS * 4 + b"\r\n\r\n",
    ]
    with InThread(app) as server:
        for data in unreadable:
            status, kind, body = _raw_answer(server.port, data)
            assert 400 <= status < 500, (data[:60], status, body)
            assert kind == "application/json", (data[:60], kind, body)
            answer = json.loads(body)
            assert answer["error"] and answer["message"].endswith("."), answer
        assert bench.request(server.port, "GET", "/api/health")[0] == 200


def test_a_request_naming_the_whole_url_is_answered_as_its_path(app):
    """A request target in absolute form (RFC 9112 3.2.2: a server must accept it) is answered as
    the path it names, its host judged by the Host check in place of the Host header. Before: the
    whole URL was taken for the path, and an API request got the HTML page for "not found"."""
    from web_ui.server import InThread

    with InThread(app) as server:
        status, kind, body = _raw_answer(server.port, b"GET http://127.0.0.1:%d/api/games/current?x=1 HTTP/1.1\r\n"
                                         b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n" % server.port)
        assert (status, kind) == (200, "application/json") and "game" in json.loads(body), (status, body[:200])
        status, kind, body = _raw_answer(server.port, b"GET http://evil.example/api/health HTTP/1.1\r\n"
                                         b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert (status, kind) == (400, "application/json") and "evil.example" in json.loads(body)["message"]
