"""The live feed as the panel uses it, read from the panel's own server (Hypercorn, web_ui/live.py)
over a socket as a browser reads it: a game's changes arrive with the view to draw, and a tablet
that slept gets what it missed by Last-Event-ID (then reads the game once)."""

import json
import socket

import pytest
from conftest import wait_for

from controller.events import VERDICT
from web_ui import live
from web_ui.server import InThread

WRITE = {"X-Newsdesk": "1"}
PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]


@pytest.fixture
def served(app):
    """The panel served as `newsdesk serve` serves it, on a thread of this process."""
    with InThread(app) as srv:
        yield srv


class Tablet:
    """One page's request to the served panel (HTTP/1.0, so the body is the feed as written):
    its status, its headers, and the feed's blocks as they arrive. Once the headers are in, the
    page follows the bus (the feed joins the hub before it answers)."""

    def __init__(self, srv, target="/stream", headers=None, method="GET"):
        self.sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        lines = ["%s %s HTTP/1.0" % (method, target), "Host: 127.0.0.1:%d" % srv.port, "Accept: text/event-stream"]
        lines += ["%s: %s" % pair for pair in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buf = b""
        head = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        self.status = int(head[0].split()[1])
        self.headers = {name.strip().lower(): value.strip() for name, value in (h.split(":", 1) for h in head[1:])}

    def _until(self, end):
        while end not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError("the server closed the connection; it had sent %r" % self.buf[-200:])
            self.buf += chunk
        block, self.buf = self.buf.split(end, 1)
        return block

    def block(self):
        """The next block of the feed (text, without its blank line)."""
        return self._until(b"\n\n").decode()

    def messages(self, count):
        """The next ``count`` data messages (comments and retry skipped), each with its id line's
        number as ``_sse_id`` (None without one)."""
        out = []
        while len(out) < count:
            lines = self.block().split("\n")
            data = [line[6:] for line in lines if line.startswith("data: ")]
            ids = [line[4:] for line in lines if line.startswith("id: ")]
            if data:
                message = json.loads("\n".join(data))
                message["_sse_id"] = int(ids[0]) if ids else None
                out.append(message)
        return out

    def close(self):
        self.sock.close()


def closed(srv):
    """Every page has left: no feed, no stream counted against the limits."""
    return wait_for(lambda: not srv.panel.hub.feeds and srv.panel.limits.open == 0)


@pytest.mark.slow
def test_a_move_reaches_an_open_tablet_with_the_view_to_draw(client, served):
    tablet = Tablet(served)
    try:
        start = client.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE).get_json()
        hand = {"type": "hand", "taken": {"Ann & Cat": {"spades": 12}, "Bob & Dan": {"spades": 1, "hearts": 13,
                                                                                   "diamonds": 13, "clubs": 13}}}
        moved = client.post("/api/games/current/actions", json={"action": hand, "version": 1},
                            headers=WRITE).get_json()
        started, changed = tablet.messages(2)
    finally:
        tablet.close()
    assert started["type"] == "game.started" and started["_sse_id"] == start["event_id"]
    assert started["data"]["view"] == start["view"] and started["data"]["offers"] == start["offers"]
    assert changed["type"] == "game.changed" and changed["data"]["version"] == 2
    assert changed["data"]["view"] == moved["view"]
    assert changed["data"]["undo"] == moved["said"] == (
        "hand 1: WE took 12 spades and scored 120; THEY took 1 spade, 13 hearts, 13 diamonds, 13 clubs "
        "and scored 0 (cards worth -120)")
    assert changed["data"]["said"] == moved["said"]


@pytest.mark.slow
def test_the_stream_pushes_a_verdict_to_a_connected_tablet(desk, served):
    tablet = Tablet(served, "/stream?since=0")
    try:
        assert tablet.status == 200 and tablet.headers["content-type"].startswith("text/event-stream")
        assert tablet.headers["cache-control"] == "no-cache"
        assert tablet.block() == "retry: 2000"
        desk.table.call_editor(5)
        (verdict,) = tablet.messages(1)
    finally:
        tablet.close()
    assert verdict["type"] == VERDICT and verdict["data"]["digit"] == 5 and verdict["_sse_id"] == verdict["id"]


def test_a_tablet_that_slept_gets_what_it_missed_in_order(client, served):
    first = client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE).get_json()
    seen = first["event_id"]
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": []}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
    tablet = Tablet(served, headers={"Last-Event-ID": str(seen)})
    try:
        missed = tablet.messages(2)
    finally:
        tablet.close()
    assert [m["data"]["version"] for m in missed] == [2, 3]
    assert all(m["type"] == "game.changed" and "view" not in m["data"] for m in missed)   # the panel reads the game
    assert [m["_sse_id"] for m in missed] == sorted(m["_sse_id"] for m in missed)
    assert client.get("/api/games/current").get_json()["game"]["version"] == 3


@pytest.mark.slow
def test_a_tablet_that_slept_catches_up_from_its_last_event_id_and_lets_go_when_it_leaves(desk, served):
    a = desk.table.call_editor(1)
    b = desk.table.call_editor(2)
    tablet = Tablet(served, headers={"Last-Event-ID": str(a.id)})
    try:
        assert tablet.block() == "retry: 2000"
        assert tablet.block().startswith("id: %d\n" % b.id)
    finally:
        tablet.close()
    assert closed(served)


@pytest.mark.slow
def test_a_finished_game_is_announced_with_its_final_table(client, served):
    client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE)
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": [1]}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
    tablet = Tablet(served)
    try:
        client.post("/api/games/current/finish", json={"version": 3}, headers=WRITE)
        (done,) = tablet.messages(1)
    finally:
        tablet.close()
    assert done["type"] == "game.finished" and done["data"]["winners"] == ["Bob"]
    assert done["data"]["final"]["winners"] == ["Bob"]


@pytest.mark.slow
def test_the_page_and_the_api_give_an_event_id_read_before_the_game(client, desk):
    """Anything that lands between a tablet's first read and its stream is replayed, never lost."""
    desk.table.call_editor(2)
    html = client.get("/").get_data(as_text=True)
    boot = json.loads(html.split('<script type="application/json" id="boot">', 1)[1].split("</script>", 1)[0])
    assert boot["lastEventId"] == desk.store.last_id()
    assert client.get("/api/games/current").get_json()["last_event_id"] == desk.store.last_id()


@pytest.mark.slow
def test_a_tablet_away_for_too_long_is_told_to_resync_not_cut_silently(desk, served, monkeypatch):
    monkeypatch.setattr(live, "BACKLOG_MAX", 3)
    for digit in range(1, 6):
        desk.table.call_editor(digit)
    for since, expected in ((1, "resync"), (2, "editor.verdict"), (99, "resync")):
        tablet = Tablet(served, headers={"Last-Event-ID": str(since)})
        try:
            (first,) = tablet.messages(1)
        finally:
            tablet.close()
        assert first["type"] == expected
        if expected == "resync":          # the page reloads its state, then follows from the store's last id
            assert first["data"]["last_event_id"] == desk.store.last_id() and first["_sse_id"] is None
        else:
            assert first["_sse_id"] == 3


@pytest.mark.slow
def test_a_head_request_gets_the_streams_headers_and_opens_nothing(served):
    for _ in range(3):
        tablet = Tablet(served, method="HEAD")
        try:
            assert tablet.status == 200 and tablet.headers["content-type"].startswith("text/event-stream")
            assert tablet.sock.recv(100) == b""      # the answer ends with its headers
        finally:
            tablet.close()
    assert served.panel.hub.feeds == set() and served.panel.limits.open == 0


def test_a_server_without_the_feed_refuses_a_stream_in_a_sentence(client):
    """Plain WSGI (Flask's own test client here) can't hold a feed open without a thread for each
    page: the page is told so, and polls; the id is still checked first."""
    r = client.get("/stream?since=0")
    assert r.status_code == 503 and r.get_json()["message"] == live.NO_LOOP
    assert client.get("/stream?since=x").status_code == 400
