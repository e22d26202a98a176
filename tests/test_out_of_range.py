"""Numbers past any real game: refused with a sentence at the API, and, when a store written by an
earlier version already holds one, every page, view, chart, statistic and export still answers,
shows it, and the table can undo it from the panel."""

import json

import pytest

from controller.app import Newsdesk
from web_ui import create_app

WRITE = {"X-Newsdesk": "1"}
HUGE = 10 ** 4299                      # 4,300 digits: what an earlier version stored


def post(client, url, body):
    return client.post(url, json=body, headers=WRITE)


def current(client):
    return client.get("/api/games/current").get_json()["game"]


def pages_answer(client, game_id=None):
    urls = ["/", "/history", "/oracles", "/api/state", "/api/games/current", "/api/games/history",
            "/api/games/stats"]
    if game_id is not None:
        urls += ["/api/games/%d" % game_id, "/api/games/%d/chart" % game_id, "/games/%d" % game_id]
    for url in urls:
        r = client.get(url)
        assert r.status_code in (200, 302), (url, r.status_code, r.data[:300])
        if url.startswith("/api/"):          # JSON a browser's JSON.parse reads: no NaN or Infinity
            json.loads(r.data, parse_constant=lambda c, url=url: pytest.fail("%s answered %s" % (url, c)))
    return True


def star_reporter_news(client, points_json):
    post(client, "/api/games", {"engine": "star_reporter", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                "options": {"first": 0}})
    g = current(client)
    r = post(client, "/api/games/current/actions", {"action": {"type": "throw", "player": 0, "method": "automobile",
                                                               "dice": [1, 2]}, "version": g["version"]})
    assert r.status_code == 200, r.get_json()
    body = '{"action": {"type": "news", "player": 0, "points": %s}, "version": %d}' % (
        points_json, current(client)["version"])
    return client.post("/api/games/current/actions", data=body, content_type="application/json", headers=WRITE)


@pytest.mark.slow
@pytest.mark.parametrize("points", ["1" + "0" * 4299, "9" * 4400, "10001", "1e309", "NaN"],
                         ids=["4300 digits", "4400 digits", "10001", "1e309", "NaN"])
def test_star_reporter_points_past_any_card_are_refused_with_a_sentence(client, points):
    """'he places it face down on the pile of news items he has secured': a card's points.
    4,300 digits were stored by an earlier version and broke the pages; now they are refused."""
    r = star_reporter_news(client, points)
    assert r.status_code in (400, 422), r.data[:300]
    said = r.get_json()["message"]
    assert "points" in said or "JSON" in said, said
    assert current(client)["version"] == 2 and pages_answer(client, current(client)["id"])


@pytest.mark.parametrize("engine,players,entry", ids=["points 4300 digits", "value 1e309", "value inf"], argvalues=[
    ("star_reporter", ["Ann", "Bob"],
     {"type": "news", "said": "Ann reached the city", "events": [
         {"type": "won_card", "player": 0, "card": "news", "points": HUGE, "city": None}]}),
    ("scoop1956", ["Ann", "Bob"],
     {"type": "advertise", "said": "Bob placed an advertisement", "events": [
         {"type": "placed", "player": 1, "how": "advertisement", "story": {
             "id": 1, "kind": "advertisement", "value": 10 ** 309}, "dropped": None, "displaced": []}]}),
    ("scoop1956", ["Ann", "Bob"],
     {"type": "advertise", "said": "Bob placed an advertisement", "events": [
         {"type": "placed", "player": 1, "how": "advertisement", "story": {
             "id": 1, "kind": "advertisement", "value": float("inf")}, "dropped": None, "displaced": []}]}),
])
@pytest.mark.slow
def test_a_store_holding_an_out_of_range_value_still_loads_shows_it_and_undoes_it(
        client, desk, config, mock_factory, engine, players, entry):
    r = post(client, "/api/games", {"engine": engine, "players": [{"name": n} for n in players],
                                    "options": {"first": 0} if engine == "star_reporter" else {}})
    assert r.status_code == 201, r.get_json()
    game = current(client)
    if engine == "star_reporter":
        post(client, "/api/games/current/actions", {"action": {"type": "throw", "player": 0, "method": "automobile",
                                                               "dice": [1, 2]}, "version": 1})
    else:
        turn = game["view"]["turn"]
        entry["events"][0]["player"] = turn
        entry["events"].append({"type": "turn_passed", "player": turn, "next": 1 - turn})
    version = current(client)["version"]
    import json

    from controller import store as store_module
    with pytest.MonkeyPatch.context() as m:     # as an earlier version wrote it (NaN and Infinity too)
        m.setattr(store_module, "_dumps", lambda value: json.dumps(value, ensure_ascii=False, sort_keys=True))
        desk.store.append_entry(game["id"], version, entry)
    desk.close()
    mock_factory.reset()
    again = Newsdesk(config, pin_factory=mock_factory)
    try:
        c = create_app(newsdesk=again, test_config={"TESTING": True}).test_client()
        c.environ_base["HTTP_X_NEWSDESK"] = "1"
        assert pages_answer(c, game["id"])
        shown = current(c)
        assert shown["version"] == version + 1 and shown["undo"]
        # undo from the panel: the value is gone, the money/score as before
        r = post(c, "/api/games/current/undo", {"version": shown["version"]})
        assert r.status_code == 200, r.get_json()
        assert pages_answer(c, game["id"])
        r = post(c, "/api/games/current/redo", {"version": current(c)["version"]})
        assert r.status_code == 200, r.get_json()
        if engine == "scoop1956":          # to press, so the game is kept as finished (statistics)
            turn = current(c)["view"]["turn"]
            for action in ({"type": "claim", "player": turn, "story_type": "sport"},
                           {"type": "verdict", "signal": "PRESS", "digit": 4},
                           {"type": "go_to_press", "player": turn}):
                r = post(c, "/api/games/current/actions", {"action": action, "version": current(c)["version"]})
                assert pages_answer(c, game["id"])
                if r.status_code == 400:        # a move whose events carry the Infinity on: the store keeps none
                    assert "JSON can't carry" in r.get_json()["message"] and entry["events"][0].get("story", {}).get(
                        "value") == float("inf"), r.get_json()
                    break
                assert r.status_code == 200, r.get_json()
        r = post(c, "/api/games/current/finish", {"version": current(c)["version"]})
        assert r.status_code in (200, 400), r.get_json()
        if r.status_code != 200:
            r = post(c, "/api/games/current/abandon", {"version": current(c)["version"]})
            assert r.status_code == 200, r.get_json()
        assert pages_answer(c, game["id"])
        for url in ("/api/games/%d/export.csv" % game["id"], "/api/games/%d/bgstats.json" % game["id"]):
            assert c.get(url).status_code == 200, url
    finally:
        again.close()


@pytest.mark.slow
def test_a_restart_shows_the_same_game_offers_and_page_order_included(client, desk, config, mock_factory):
    """The store keeps keys sorted; the live game is folded from events in that same order, so a
    restart shows exactly what was shown before it (SCOOP's page layout and offers included)."""
    page = {"stories": {"sport": 2, "crime": 1, "local": 1}, "advertisements": {"want ad": 1}}
    r = post(client, "/api/games", {"engine": "scoop1956", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                    "options": {"page": page}})
    assert r.status_code == 201, r.get_json()
    before = current(client)
    desk.close()
    mock_factory.reset()
    again = Newsdesk(config, pin_factory=mock_factory)
    try:
        c = create_app(newsdesk=again, test_config={"TESTING": True}).test_client()
        assert current(c) == before
    finally:
        again.close()
