"""web_ui/wsgi_lane.py: Flask's views under the ASGI server, a small answer in one crossing, a long
or open-ended one a chunk at a time, each chunk sent before the next is asked for."""

import asyncio
import concurrent.futures
import io
import threading

from flask import Flask, Response, request, send_file, stream_with_context

from web_ui import wsgi_lane
from web_ui.wsgi_lane import WsgiLane

BIG = wsgi_lane.BUFFER_MAX * 3 + 17


def on_a_loop(coroutine):
    """asyncio.run on a thread of its own (a browser test's Playwright may hold this thread's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def scope(path, method="GET", headers=()):
    return {"type": "http", "method": method, "path": path, "query_string": b"", "http_version": "1.1",
            "headers": list(headers), "server": ("127.0.0.1", 8080), "client": ("127.0.0.1", 5555)}


def request_of(body=b""):
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
    return receive


class Counting(WsgiLane):
    """The lane, counting each crossing into its worker threads."""

    def __init__(self, app, workers=2):
        super().__init__(app, workers)
        self.crossings = 0
        submit = self.executor.submit

        def counted(*a, **kw):
            self.crossings += 1
            return submit(*a, **kw)
        self.executor.submit = counted


def run(lane, path, method="GET", body=b"", on_send=None, headers=()):
    sent = []

    async def send(message):
        sent.append(message)
        if on_send is not None:
            await asyncio.get_running_loop().run_in_executor(None, on_send, message)

    async def main():
        try:
            await lane(scope(path, method, headers), request_of(body), send)
        finally:
            lane.shutdown()
    on_a_loop(main())
    return sent


def app_with(**routes):
    app = Flask(__name__)
    for name, view in routes.items():
        app.add_url_rule("/" + name, name, view, methods=["GET", "POST", "HEAD"])
    return app


def test_a_small_answer_is_made_on_one_crossing_and_sent_whole():
    # the body came chunked (no Content-Length): the view reads it whole all the same
    def move():
        return {"took": request.get_json()["action"], "thread": threading.current_thread().name}
    lane = Counting(app_with(move=move))
    sent = run(lane, "/move", "POST", b'{"action": "buy"}', headers=[(b"content-type", b"application/json")])
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 200
    assert not sent[1].get("more_body")
    assert b'"took":"buy"' in sent[1]["body"].replace(b" ", b"")
    assert b"WSGI" in sent[1]["body"]            # the view ran on the lane's worker thread
    assert lane.crossings == 1


def test_an_answer_with_no_length_goes_out_a_chunk_at_a_time_as_it_is_made():
    first_sent = threading.Event()

    def feed():
        def chunks():
            yield b"first"
            # the lane must have sent the first chunk before it asks for the second
            assert first_sent.wait(5), "the first chunk was held back"
            yield b"second"
        return Response(chunks(), mimetype="text/plain")

    def on_send(message):
        if message.get("body") == b"first":
            first_sent.set()
    sent = run(WsgiLane(app_with(feed=feed), 2), "/feed", on_send=on_send)
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert bodies == [b"first", b"second", b""]
    assert sent[-1].get("more_body", False) is False


def test_a_streamed_answer_sees_its_request_whichever_worker_takes_each_chunk():
    def echo():
        @stream_with_context
        def chunks():
            for _ in range(4):
                yield request.args.get("word", "?").encode()
        return Response(chunks())
    lane = WsgiLane(app_with(echo=echo), 4)
    s = scope("/echo")
    s["query_string"] = b"word=scoop"
    sent = []

    async def send(message):
        sent.append(message)

    async def main():
        await lane(s, request_of(), send)
        lane.shutdown()
    on_a_loop(main())
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b"scoop" * 4


def test_a_long_answer_of_declared_length_arrives_whole_in_several_chunks():
    data = bytes(range(256)) * (BIG // 256) + b"x" * (BIG % 256)

    def backup():
        return send_file(io.BytesIO(data), mimetype="application/octet-stream")
    sent = run(WsgiLane(app_with(backup=backup), 2), "/backup")
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert len(bodies) > 2
    assert b"".join(bodies) == data
    assert dict(sent[0]["headers"])[b"content-length"] == str(BIG).encode()


def test_a_client_that_leaves_mid_answer_closes_the_view_s_iterable():
    closed = threading.Event()

    def feed():
        def chunks():
            try:
                while True:
                    yield b"tick"
            finally:
                closed.set()
        return Response(chunks())

    async def main():
        lane = WsgiLane(app_with(feed=feed), 2)
        count = 0

        async def send(message):
            nonlocal count
            count += 1
            if count == 3:
                raise OSError("the tablet went away")
        try:
            await lane(scope("/feed"), request_of(), send)
        except OSError:
            pass
        lane.shutdown()
    on_a_loop(main())
    assert closed.wait(5)


def test_answered_is_called_once_the_answer_has_left_and_again_when_a_cancelled_view_ends():
    """The panel's hub holds what a view publishes until ``answered``: called after the answer is
    sent, and, when the request was cancelled while its view still ran on its thread, once more
    when that view ends (else what it published last would wait for the next request)."""
    release = threading.Event()
    calls = []

    def slow():
        release.wait(5)
        return "late"

    def quick():
        return "now"

    async def main():
        loop = asyncio.get_running_loop()
        sent = []

        async def send(message):
            sent.append(message["type"])

        lane = WsgiLane(app_with(slow=slow, quick=quick), 2,
                        answered=lambda: calls.append((sent[:], release.is_set())))
        await lane(scope("/quick"), request_of(), send)
        assert calls == [(["http.response.start", "http.response.body"], False)]
        task = loop.create_task(lane(scope("/slow"), request_of(), send))
        await asyncio.sleep(0.2)                  # the view is waiting on its thread
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert len(calls) == 2                    # the request's own end
        release.set()
        for _ in range(100):
            if len(calls) == 3:
                break
            await asyncio.sleep(0.02)
        assert len(calls) == 3 and calls[2][1]    # and again once the view had ended
        lane.shutdown()
    on_a_loop(main())


def test_head_keeps_the_length_and_sends_no_body():
    def page():
        return "x" * 1000
    sent = run(WsgiLane(app_with(page=page), 2), "/page", "HEAD")
    assert dict(sent[0]["headers"])[b"content-length"] == b"1000"
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b""


def test_a_request_whose_client_left_before_its_body_was_whole_runs_no_view():
    ran = []

    def move():
        ran.append(1)
        return "ok"

    async def main():
        lane = WsgiLane(app_with(move=move), 2)
        sent = []

        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)
        await lane(scope("/move", "POST"), receive, send)
        lane.shutdown()
        return sent
    assert on_a_loop(main()) == []
    assert ran == []


def test_a_websocket_is_refused():
    async def main():
        sent = []

        async def send(message):
            sent.append(message)
        lane = WsgiLane(app_with(), 1)
        await lane({"type": "websocket", "path": "/"}, request_of(), send)
        lane.shutdown()
        return sent
    assert on_a_loop(main()) == [{"type": "websocket.close", "code": 1000}]
