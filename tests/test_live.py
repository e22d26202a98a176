"""The live feed on the event loop (web_ui/live.py), driven in-process through its ASGI door:
who gets a stream, who is turned away (503 + Retry-After), the host's reserve, a page that stops
reading, and a page that falls behind (resync, never a silent gap)."""

import asyncio
import concurrent.futures
import json
import logging
import threading

import pytest

from web_ui import live, wsgi_lane
from web_ui.live import Limits, Panel

# the feeds' keep-alives and timeouts run in real time: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

GUEST = ("192.168.1.20", 50000)
OTHER = ("192.168.1.21", 50000)
HOST = ("127.0.0.1", 50000)


def scope(client, query=b""):
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": "/stream", "raw_path": b"/stream", "query_string": query,
            "root_path": "", "headers": [(b"host", b"127.0.0.1:8080")], "client": client,
            "server": ("127.0.0.1", 8080)}


class Page:
    """One client of the ASGI app: what it was sent, and a switch to stop reading."""

    def __init__(self, client, query=b""):
        self.client = client
        self.query = query
        self.sent = []
        self.reading = asyncio.Event()
        self.reading.set()
        self.gone = asyncio.Event()
        self.task = None
        self.asked = False

    async def receive(self):
        if not self.asked:              # as a server does: the (empty) request body first
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        if message["type"] == "http.response.body":
            await self.reading.wait()
        self.sent.append(message)

    def open(self, panel):
        self.task = asyncio.ensure_future(panel(scope(self.client, self.query), self.receive, self.send))
        return self

    @property
    def status(self):
        starts = [m for m in self.sent if m["type"] == "http.response.start"]
        return starts[0]["status"] if starts else None

    def header(self, name):
        starts = [m for m in self.sent if m["type"] == "http.response.start"]
        return dict(starts[0]["headers"]).get(name) if starts else None

    def text(self):
        return b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body").decode()

    def messages(self):
        out = []
        for block in self.text().split("\n\n"):
            data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
            if data:
                out.append(json.loads("\n".join(data)))
        return out


async def until(predicate, timeout=5.0):
    end = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError("not met within %.1f s" % timeout)
        await asyncio.sleep(0.01)


def run(panel, body):
    """``body`` with the feed started on its loop, on a thread of its own, as Hypercorn runs the
    feed beside the Flask threads."""
    async def main():
        panel.start(asyncio.get_running_loop())
        try:
            await body()
        finally:
            panel.stop()
    on_a_loop(main())


def on_a_loop(coroutine):
    """asyncio.run(coroutine) on a thread of its own: this worker's Playwright, once a browser
    test has run, keeps its loop running on the main thread (conftest.worker_playwright)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def make_panel(app):
    app.config["STREAM_KEEPALIVE"] = 5.0
    return lambda total=10, per_address=2, reserve=1: Panel(app, 4, Limits(total, per_address, reserve))


def test_limits_count_per_address_and_keep_the_hosts_reserve():
    limits = Limits(total=3, per_address=1, host_reserve=1)
    assert limits.admit("10.0.0.2", host=False) is None
    assert "already has 1 live pages open" in limits.admit("10.0.0.2", host=False)
    assert limits.admit("10.0.0.3", host=False) is None
    assert "as many as it serves" in limits.admit("10.0.0.4", host=False)   # the last one is the host's
    assert limits.admit("127.0.0.1", host=True) is None
    assert limits.admit("127.0.0.1", host=True) is not None                # the host has a total too
    limits.release("10.0.0.2")
    assert limits.admit("10.0.0.4", host=False) is not None   # guests share total - reserve, host or not
    limits.release("127.0.0.1")
    assert limits.admit("10.0.0.4", host=False) is None
    assert limits.open == 2 and limits.by_address == {"10.0.0.3": 1, "10.0.0.4": 1}


@pytest.mark.slow
def test_past_the_cap_a_page_gets_503_with_retry_after_and_the_host_still_gets_in(make_panel, desk):
    panel = make_panel(total=2, per_address=1, reserve=1)

    async def body():
        first = Page(GUEST).open(panel)
        await until(lambda: first.status == 200)
        same = Page(GUEST).open(panel)
        other = Page(OTHER).open(panel)
        await asyncio.gather(same.task, other.task)
        for refused in (same, other):
            assert refused.status == 503 and refused.header(b"retry-after") == b"30"
            assert "keeps itself up to date" in json.loads(refused.text())["message"]
        host = Page(HOST).open(panel)
        await until(lambda: host.status == 200)
        desk.table.call_editor(3)
        await until(lambda: any(m["type"] == "editor.verdict" for m in host.messages()))
        await until(lambda: any(m["type"] == "editor.verdict" for m in first.messages()))
        first.gone.set()
        await first.task
        assert panel.limits.open == 1 and len(panel.hub.feeds) == 1
        host.gone.set()
        await host.task
        assert panel.limits.open == 0 and panel.hub.feeds == set()

    run(panel, body)


@pytest.mark.slow
def test_a_bad_id_is_refused_by_flask_before_any_stream_opens(make_panel):
    panel = make_panel()

    async def body():
        page = Page(GUEST, b"since=abc").open(panel)
        await page.task
        assert page.status == 400 and panel.limits.open == 0

    run(panel, body)


@pytest.mark.slow
def test_a_page_that_stops_reading_is_dropped_and_its_place_freed(make_panel, desk, monkeypatch):
    monkeypatch.setattr(live, "SEND_TIMEOUT", 0.3)
    panel = make_panel()

    async def body():
        page = Page(GUEST).open(panel)
        await until(lambda: page.status == 200)
        page.reading.clear()            # from now on, every write waits for ever
        for digit in range(1, 4):
            desk.table.call_editor(digit)
        await asyncio.wait_for(page.task, 3.0)   # dropped after SEND_TIMEOUT, not left hanging
        assert panel.limits.open == 0 and panel.hub.feeds == set() and panel.streams == set()

    run(panel, body)


@pytest.mark.slow
def test_a_page_that_falls_behind_gets_a_resync_not_a_gap(make_panel, desk, monkeypatch):
    monkeypatch.setattr(live, "QUEUE_MAX", 5)
    panel = make_panel()

    async def body():
        page = Page(GUEST).open(panel)
        await until(lambda: page.status == 200)
        page.reading.clear()
        await asyncio.sleep(0.05)        # the stream is now waiting to write its first lines
        for digit in range(1, 10):       # more than its queue holds
            desk.table.call_editor(digit)
        for _ in range(5):
            await asyncio.sleep(0)       # the bus's messages reach the feed on the loop's next turns
        page.reading.set()
        last = desk.store.last_id()
        desk.table.call_editor(1)
        await until(lambda: any(m.get("id") == last + 1 for m in page.messages()))
        kinds = [m["type"] for m in page.messages()]
        assert "resync" in kinds and kinds.index("resync") < len(kinds) - 1
        page.gone.set()
        await page.task

    run(panel, body)


def test_a_page_back_after_too_many_events_gets_one_resync(make_panel, desk, monkeypatch):
    monkeypatch.setattr(live, "BACKLOG_MAX", 3)
    panel = make_panel()
    for digit in range(1, 6):
        desk.table.call_editor(digit)

    async def body():
        page = Page(GUEST, b"since=1").open(panel)
        behind = Page(OTHER, b"since=2").open(panel)
        await until(lambda: page.messages() and len(behind.messages()) == 3)
        (resync,) = page.messages()
        assert resync["type"] == "resync" and resync["data"]["last_event_id"] == desk.store.last_id()
        assert [m["id"] for m in behind.messages()] == [3, 4, 5]     # within the backlog: every one
        page.gone.set()
        behind.gone.set()
        await asyncio.gather(page.task, behind.task)

    run(panel, body)


def http_scope(client, path, cookie=None):
    headers = [(b"host", b"127.0.0.1:8080")] + ([(b"cookie", cookie.encode())] if cookie else [])
    return dict(scope(client), path=path, raw_path=path.encode(), headers=headers)


def joined(app, address, role):
    """A device on ``address`` that joined by QR code with ``role``: its Cookie header."""
    host = app.test_client()
    host.environ_base["HTTP_X_NEWSDESK"] = "1"
    token = host.post("/api/join/tokens", json={"role": role}).get_json()["token"]
    device = app.test_client()
    device.environ_base["REMOTE_ADDR"] = address
    assert device.get("/join?token=" + token).status_code == 303
    cookie = device.get_cookie(app.config["SESSION_COOKIE_NAME"])
    return "%s=%s" % (cookie.key, cookie.value)


@pytest.mark.slow
def test_guests_filling_every_shared_thread_never_keep_the_host_waiting(app, desk):
    """'Requests from the host (the box's own screen, a joined host device) always have capacity
    kept for them.' Guests hold all four shared threads on a slow view; the box's screen and a
    tablet that joined as host still get their answers at once, while a player's request waits
    for a shared thread."""
    release = threading.Event()

    @app.get("/slow-for-the-test")
    def slow():
        release.wait(10)
        return "slow"

    host_tablet = joined(app, "192.168.1.40", "host")
    player_phone = joined(app, "192.168.1.41", "player")
    panel = Panel(app, 4, Limits(10, 2, 1))

    async def ask(client, path, cookie=None):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await panel(http_scope(client, path, cookie), receive, send)
        return sent[0]["status"]

    async def body():
        try:
            guests = [asyncio.ensure_future(ask(("192.168.1.%d" % (50 + k), 50000), "/slow-for-the-test"))
                      for k in range(6)]
            await asyncio.sleep(0.3)                         # every shared thread now waits on the view
            player = asyncio.ensure_future(ask(("192.168.1.41", 50000), "/api/state", player_phone))
            assert await asyncio.wait_for(ask(HOST, "/api/state"), 3) == 200
            assert await asyncio.wait_for(ask(("192.168.1.40", 50000), "/api/state", host_tablet), 3) == 200
            assert not player.done()                          # the player waits its turn with the guests
            forged = host_tablet[:-3] + ("AAA" if not host_tablet.endswith("AAA") else "BBB")
            waits = asyncio.ensure_future(ask(("192.168.1.42", 50000), "/api/state", forged))
            await asyncio.sleep(0.3)
            assert not waits.done()                           # a cookie that doesn't verify is a guest's
        finally:
            release.set()
        assert await asyncio.wait_for(player, 5) == 200 and await asyncio.wait_for(waits, 5) == 200
        assert await asyncio.wait_for(asyncio.gather(*guests), 5) == [200] * 6

    run(panel, body)


@pytest.mark.slow
def test_one_guest_address_can_keep_only_so_many_requests_waiting(app, desk):
    """A guest's loop of connect, send, close leaves requests whose clients are gone to be run
    one after another: 11,000 open connections and a move of the host's taking 26 s. Past
    REQUESTS_PER_ADDRESS waiting, a guest's request is refused on the loop at once (503, Retry-
    After); another guest and the host are not held up by it."""
    release = threading.Event()

    @app.get("/slow-for-the-test")
    def slow():
        release.wait(10)
        return "slow"

    panel = Panel(app, 4, Limits(10, 2, 1))
    most = live.REQUESTS_PER_ADDRESS

    async def ask(client, path):
        sent, calls = [], []

        async def receive():            # the request, then the client gone (a refusal drains to it)
            calls.append(1)
            return {"type": "http.request", "body": b"", "more_body": False} if len(calls) == 1 else \
                {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await panel(http_scope(client, path), receive, send)
        return sent[0]["status"], dict(sent[0]["headers"])

    async def body():
        try:
            flood = [asyncio.ensure_future(ask(("192.168.1.77", 40000 + k), "/slow-for-the-test"))
                     for k in range(most + 10)]
            await asyncio.sleep(0.3)
            refused = [f.result() for f in flood if f.done()]
            assert len(refused) == 10 and all(status == 503 and b"retry-after" in headers for status, headers in refused)
            other = asyncio.ensure_future(ask(("192.168.1.78", 40000), "/api/state"))
            assert (await asyncio.wait_for(ask(HOST, "/api/state"), 3))[0] == 200
            await asyncio.sleep(0.2)
            assert not other.done()                       # another guest waits for a thread, and is not refused
        finally:
            release.set()
        assert (await asyncio.wait_for(other, 5))[0] == 200
        assert sorted(status for status, _ in await asyncio.wait_for(asyncio.gather(*flood), 10)) == \
            [200] * most + [503] * 10
        assert (await asyncio.wait_for(ask(("192.168.1.77", 41000), "/api/state"), 3))[0] == 200    # its count is back

    run(panel, body)


class Bus:
    def attach(self, hub):
        self.hub = hub

    def detach(self, hub):
        self.hub = None


def test_the_hub_hands_out_messages_in_slices_in_order_and_lets_a_reply_in_between():
    """Each page gets every message, in order, once; and a reply that becomes ready while a
    message is being handed to 200 pages goes out before the last of those pages has it."""
    async def main():
        loop = asyncio.get_running_loop()
        bus = Bus()
        hub = live.Hub(bus, loop)
        feeds = [live.Feed(None, 0.0) for _ in range(200)]
        hub.feeds.update(feeds)
        for n in range(1, 6):
            bus.hub._offer({"id": n, "type": "editor.verdict"})
        late = live.Feed(None, 0.0)
        handed = []
        loop.call_soon(lambda: handed.append(sum(1 for f in feeds if f.queue)))   # "the reply"
        loop.call_soon(lambda: hub.feeds.add(late))
        await until(lambda: not hub._pending and all(len(f.queue) == 5 for f in feeds))
        for feed in feeds:
            assert [event_id for event_id, _ in feed.queue] == [1, 2, 3, 4, 5]
        assert [event_id for event_id, _ in late.queue] == sorted({i for i, _ in late.queue})
        assert 0 < handed[0] < len(feeds)             # the reply ran between two slices
        hub.close()

    on_a_loop(main())


def test_a_view_s_answer_leaves_before_its_message_reaches_the_open_pages(app, desk, make_panel):
    """The tablet that made a move hears back first: what a view publishes waits in the hub's
    inbox until the view's answer has been sent, then goes to every page (on a Pi Zero 2 W's
    budget the page's write otherwise ran while the view waited for it)."""
    @app.get("/verdict-for-the-test")
    def verdict():
        desk.table.call_editor(3)
        return {"called": True}

    panel = make_panel()
    order = []

    class Watched(Page):
        async def send(self, message):
            await super().send(message)
            if b"editor.verdict" in message.get("body", b""):
                order.append("page")

    async def body():
        page = Watched(GUEST).open(panel)
        await until(lambda: page.status == 200 and page.text())

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                assert message["status"] == 200
            else:
                order.append("answer")

        await panel(http_scope(HOST, "/verdict-for-the-test"), receive, send)
        await until(lambda: "page" in order)
        page.gone.set()
        await page.task

    run(panel, body)
    assert order == ["answer", "page"]


def test_messages_a_view_holds_and_others_publish_reach_the_pages_in_the_bus_s_order():
    """A view's message waits for its answer, but one published meanwhile on another thread
    wakes the loop for both, in the order they were published; nothing waits for the view."""
    async def main():
        loop = asyncio.get_running_loop()
        bus = Bus()
        hub = live.Hub(bus, loop)
        feed = live.Feed(None, 0.0)
        hub.feeds.add(feed)

        def as_a_view():
            wsgi_lane._here.view = True
            try:
                bus.hub._offer({"id": 1, "type": "editor.verdict"})
            finally:
                wsgi_lane._here.view = False
        await loop.run_in_executor(None, as_a_view)
        await asyncio.sleep(0.05)
        assert not feed.queue                        # held: no answer has left yet
        await loop.run_in_executor(None, bus.hub._offer, {"id": 2, "type": "editor.verdict"})
        await until(lambda: len(feed.queue) == 2)
        assert [event_id for event_id, _ in feed.queue] == [1, 2]
        hub.close()

    on_a_loop(main())


def body_scope(length=None):
    headers = [(b"host", b"127.0.0.1:8080"), (b"content-type", b"application/json"), (b"x-newsdesk", b"1")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": "/api/join/dial", "raw_path": b"/api/join/dial", "query_string": b"",
            "root_path": "", "headers": headers, "client": ("192.168.1.30", 5000), "server": ("127.0.0.1", 8080)}


class Upload:
    """A client sending a body in ``pieces`` (None: then it stalls), and what it was answered."""

    def __init__(self, pieces):
        self.pieces = list(pieces)
        self.sent = []
        self.disconnected = asyncio.Event()

    async def receive(self):
        if self.pieces:
            piece = self.pieces.pop(0)
            if piece is not None:
                return {"type": "http.request", "body": piece, "more_body": True}
        await self.disconnected.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        self.sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            self.disconnected.set()     # as Hypercorn does once the answer is out and the connection closes

    def answer(self):
        start = self.sent[0]
        body = json.loads(b"".join(m.get("body", b"") for m in self.sent[1:]))
        return start["status"], dict(start["headers"]), body


@pytest.mark.slow
def test_a_body_over_the_limit_is_refused_on_the_loop_and_its_connection_closed(app, make_panel):
    panel = make_panel()
    most = app.config["MAX_CONTENT_LENGTH"]

    async def body():
        declared = Upload([b"x" * 1000] * 3)
        await panel(body_scope(most * 100), declared.receive, declared.send)
        chunked = Upload([b"x" * 10_000] * (most // 10_000 + 5))
        await panel(body_scope(), chunked.receive, chunked.send)
        for upload in (declared, chunked):
            status, headers, answer = upload.answer()
            assert status == 413 and headers[b"connection"] == b"close"
            assert answer["error"] == "Content Too Large" and str(most) in answer["message"]
        assert declared.pieces == [b"x" * 1000] * 3      # refused by its declared length, unread
    run(panel, body)


@pytest.mark.slow
def test_a_stalled_body_times_out_and_a_stopping_server_refuses_one_still_arriving(app):
    panel = Panel(app, 4, Limits(10, 2, 1), body_timeout=0.2)

    async def body():
        stalled = Upload([b"{", None])
        await asyncio.wait_for(panel(body_scope(100), stalled.receive, stalled.send), 2)
        assert stalled.answer()[0] == 408
        panel.body_timeout = 60             # only the stop can end the next one
        arriving = Upload([b"{", None])
        task = asyncio.ensure_future(panel(body_scope(100), arriving.receive, arriving.send))
        await asyncio.sleep(0.05)
        panel.begin_stop()
        await asyncio.wait_for(task, 1)
        status, headers, answer = arriving.answer()
        assert status == 503 and headers[b"connection"] == b"close" and "restarting" in answer["message"]

    run(panel, body)


@pytest.mark.slow
def test_a_page_asking_while_the_panel_stops_gets_503_not_a_traceback(make_panel, caplog):
    """A tablet reconnecting during a restart: before, its request reached the thread pools the
    stop had shut down ("cannot schedule new futures after shutdown", with a traceback)."""
    panel = make_panel()

    async def main():
        panel.start(asyncio.get_running_loop())
        panel.stop()
        page = Page(("192.168.1.20", 5000)).open(panel)
        await asyncio.wait_for(page.task, 2)
        upload = Upload([b"{}"])
        await asyncio.wait_for(panel(body_scope(2), upload.receive, upload.send), 2)
        return page, upload

    with caplog.at_level(logging.WARNING):
        page, upload = on_a_loop(main())
    assert page.status == 503 and page.header(b"retry-after") == b"2"
    assert "restarting" in json.loads(page.text())["message"]
    assert upload.answer()[0] == 503
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_the_feed_with_its_slash_doubled_is_still_the_feed(make_panel):
    """"//stream" reaches the feed's view through Flask's routing (it merges the slashes), so it is
    followed here like "/stream". Before: it went to a thread, whose view has no gate from the loop,
    and was refused with a 503 saying the panel runs without its own server."""
    panel = make_panel()

    async def body():
        page = Page(GUEST)
        page.task = asyncio.ensure_future(panel(dict(scope(GUEST), path="//stream", raw_path=b"//stream"),
                                                page.receive, page.send))
        await until(lambda: page.status is not None)
        assert page.status == 200 and panel.limits.open == 1
        page.gone.set()
        await page.task
        assert panel.limits.open == 0

    run(panel, body)
