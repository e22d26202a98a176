"""The live feed as the panel uses it: a game's changes arrive with the view to draw, and a tablet
that slept gets what it missed by Last-Event-ID (then reads the game once)."""

import json

import pytest

WRITE = {"X-Newsdesk": "1"}
PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]


def messages(resp, count):
    """The next ``count`` data messages from an open event stream (comments and retry skipped)."""
    out = []
    buf = ""
    for chunk in resp.response:
        buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
            ids = [line[4:] for line in block.split("\n") if line.startswith("id: ")]
            if data:
                message = json.loads("\n".join(data))
                message["_sse_id"] = int(ids[0]) if ids else None
                out.append(message)
                if len(out) == count:
                    return out
    return out


@pytest.mark.slow
def test_a_move_reaches_an_open_tablet_with_the_view_to_draw(client, desk):
    resp = client.get("/stream", buffered=False)
    try:
        start = client.post("/api/games", json={"engine": "scan", "players": PLAYERS}, headers=WRITE).get_json()
        hand = {"type": "hand", "taken": {"Ann & Cat": {"spades": 13}, "Bob & Dan": {"hearts": 13, "diamonds": 13,
                                                                                   "clubs": 13}}}
        moved = client.post("/api/games/current/actions", json={"action": hand, "version": 1},
                            headers=WRITE).get_json()
        started, changed = messages(resp, 2)
    finally:
        resp.close()
    assert started["type"] == "game.started" and started["_sse_id"] == start["event_id"]
    assert started["data"]["view"] == start["view"] and started["data"]["offers"] == start["offers"]
    assert changed["type"] == "game.changed" and changed["data"]["version"] == 2
    assert changed["data"]["view"] == moved["view"]
    assert changed["data"]["undo"] == moved["said"] == (
        "hand 1: WE took 13 spades and scored 130; THEY took 13 hearts, 13 diamonds, 13 clubs and "
        "scored 0 (cards worth -130)")
    assert changed["data"]["said"] == moved["said"]


def test_a_tablet_that_slept_gets_what_it_missed_in_order(client, desk):
    first = client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE).get_json()
    seen = first["event_id"]
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": []}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
    resp = client.get("/stream", headers={"Last-Event-ID": str(seen)}, buffered=False)
    try:
        missed = messages(resp, 2)
    finally:
        resp.close()
    assert [m["data"]["version"] for m in missed] == [2, 3]
    assert all(m["type"] == "game.changed" and "view" not in m["data"] for m in missed)   # the panel reads the game
    assert [m["_sse_id"] for m in missed] == sorted(m["_sse_id"] for m in missed)
    assert client.get("/api/games/current").get_json()["game"]["version"] == 3


@pytest.mark.slow
def test_a_finished_game_is_announced_with_its_final_table(client, desk):
    client.post("/api/games", json={"engine": "get_the_scoop", "players": PLAYERS, "options": {"board": "table"}}, headers=WRITE)
    for action in ({"type": "reveal", "plays": []}, {"type": "check", "winners": [1]}):
        version = client.get("/api/games/current").get_json()["game"]["version"]
        client.post("/api/games/current/actions", json={"action": action, "version": version}, headers=WRITE)
    resp = client.get("/stream", buffered=False)
    try:
        client.post("/api/games/current/finish", json={"version": 3}, headers=WRITE)
        (done,) = messages(resp, 1)
    finally:
        resp.close()
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
def test_a_tablet_away_for_too_long_is_told_to_resync_not_cut_silently(client, desk, monkeypatch):
    from web_ui import stream
    monkeypatch.setattr(stream, "BACKLOG_MAX", 3)
    for digit in range(1, 6):
        desk.table.call_editor(digit)
    for since, expected in ((1, "resync"), (2, "editor.verdict"), (99, "resync")):
        resp = client.get("/stream", headers={"Last-Event-ID": str(since)}, buffered=False)
        try:
            (first,) = messages(resp, 1)
        finally:
            resp.close()
        assert first["type"] == expected
        if expected == "resync":          # the page reloads its state, then follows from the store's last id
            assert first["data"]["last_event_id"] == desk.store.last_id() and first["_sse_id"] is None
        else:
            assert first["_sse_id"] == 3


@pytest.mark.slow
def test_a_head_request_leaves_no_subscriber_behind(client, desk):
    before = desk.bus.subscriber_count
    for _ in range(3):
        resp = client.head("/stream")
        assert resp.status_code == 200
        resp.close()        # as a WSGI server does once it has sent the headers
    assert desk.bus.subscriber_count == before
