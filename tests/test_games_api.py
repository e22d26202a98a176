"""The games' JSON API: start, act, undo/redo, finish/abandon, what is kept (history, statistics,
record, chart, CSV, BG Stats), and the refusals, each JSON with a sentence a person can act on."""

import csv
import io
import json
from urllib.parse import unquote

import pytest
from conftest import install_game

from controller.app import Newsdesk
from web_ui import create_app

WRITE = {"X-Newsdesk": "1"}      # what the panel's pages send with every write
SCAN_PLAYERS = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
# one hand of Team SCAN: Ann & Cat take every spade and heart and two diamonds in 7 tricks
# (+185), Bob & Dan the rest (0)
BIG_HAND = {"type": "hand", "taken": {"Ann & Cat": {"spades": 13, "hearts": 13, "diamonds": 2},
                                      "Bob & Dan": {"diamonds": 11, "clubs": 13}}}


def post(client, url, body=None, **kw):
    return client.post(url, json=body, headers=WRITE, **kw)


def start(client, engine="scan", players=SCAN_PLAYERS, options=None, key=None):
    body = {"engine": engine, "players": players, "options": options or {}}
    if key:
        body["key"] = key
    return post(client, "/api/games", body)


def current(client):
    return client.get("/api/games/current").get_json()["game"]


def act(client, action, version=None, key=None):
    if version is None:
        version = current(client)["version"]
    body = {"action": action, "version": version}
    if key:
        body["key"] = key
    return post(client, "/api/games/current/actions", body)


def message(r):
    body = r.get_json()
    assert set(body) >= {"error", "message"}, body
    # a sentence: a capital first (after an opening quote, as a field named as the form names it is)
    assert body["message"].endswith((".", "!", "?")) and body["message"].lstrip("“\"")[0].isupper(), body["message"]
    return body["message"]


# ---------------------------------------------------------------- reading

@pytest.mark.slow
def test_the_catalogue_lists_the_five_games_with_their_seats(client):
    games = {g["name"]: g for g in client.get("/api/games/catalogue").get_json()["games"]}
    assert set(games) >= {"scoop1956", "star_reporter", "scoop2002", "scan", "get_the_scoop"}    # and any installed beside them
    assert games["scan"]["players"]["by_variant"]["team"] == {"min": 4, "max": 4}
    assert games["scan"]["teams"] is True and games["scan"]["variant_choice"] == "one"
    assert games["scoop2002"]["variant_choice"] == "many"
    assert games["get_the_scoop"]["colours"] == ["red", "blue", "green", "white"]
    assert games["scoop1956"]["players"] == {"min": 2, "max": 6, "by_variant": None}
    for g in games.values():
        assert g["available"] or g["problem"]


def test_the_catalogue_keeps_each_games_variants_and_choices_in_the_order_declared(client):
    """A game's first variant is its default, and the start form lists the variants and each
    option's choices in the order the game wrote them: the JSON keeps its declaration's order
    (Flask's own provider sorted every object's keys, listing SCAN's Team SCAN after Individual)."""
    from controller.games import registry
    answered = client.get("/api/games/catalogue").get_data(as_text=True)
    games = {g["name"]: g for g in json.loads(answered)["games"]}
    assert list(games["scan"]["variants"]) == ["team", "triple", "individual", "no_trump"]
    for name, item in games.items():
        if not item["available"]:
            continue
        game = registry.load(name)
        assert list(item["variants"]) == list(game.variants), name
        # and as lists, which a browser keeps in their order whatever the ids look like
        assert item["variant_order"] == list(game.variants), name
        for got, declared in zip(item["options"], game.options, strict=True):
            choices = declared.get("choices")
            assert list(got) == list(declared) + (["choice_order"] if choices else []), (name, declared["name"])
            assert list(got.get("choices") or {}) == list(choices or {}), (name, declared["name"])
            assert got.get("choice_order") == (list(choices) if choices else None), (name, declared["name"])


def test_no_game_reads_as_null_with_the_newest_event_id(client, desk):
    desk.table.call_editor(4)
    body = client.get("/api/games/current").get_json()
    assert body == {"game": None, "last_event_id": desk.store.last_id(), "since": None}     # no game yet


# ---------------------------------------------------------------- a game through the API

def test_a_game_of_scan_from_start_to_its_exports(client, desk):
    r = start(client, key="start-1")
    assert r.status_code == 201
    out = r.get_json()
    assert out["version"] == 1 and out["view"]["columns"][0]["label"] == "WE"
    assert out["offers"] == [{"type": "hand", "sides": ["Ann & Cat", "Bob & Dan"],
                              "suits": ["spades", "hearts", "diamonds", "clubs"]}]
    again = start(client, key="start-1")                   # a retried start is the same game
    assert again.status_code == 200 and again.get_json()["repeat"] and again.get_json()["game"] == out["game"]

    r = act(client, BIG_HAND, version=1, key="hand-1")
    assert r.status_code == 200
    assert r.get_json()["view"]["race"][0]["total"] == 185 and r.get_json()["version"] == 2
    assert act(client, BIG_HAND, version=1, key="hand-1").get_json()["repeat"] is True   # retried: once
    assert current(client)["version"] == 2

    r = post(client, "/api/games/current/finish", {"version": 2, "key": "fin-1"})
    assert r.status_code == 200
    done = r.get_json()
    assert done["status"] == "finished" and done["winners"] == ["Ann", "Cat"]
    assert current(client) is None

    hist = client.get("/api/games/history").get_json()["games"]
    assert [g["id"] for g in hist] == [done["id"]]
    rec = client.get("/api/games/%d" % done["id"]).get_json()
    assert [e["version"] for e in rec["log"]] == [1, 2] and rec["final"]["winners"] == ["Ann", "Cat"]

    chart = client.get("/api/games/%d/chart" % done["id"]).get_json()
    assert chart["unit"] == "points" and chart["problem"] is None
    assert [p["values"] for p in chart["points"]] == [[0, 0, 0, 0], [185, 185, 0, 0]]

    r = client.get("/api/games/%d/export.csv" % done["id"])
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert {(row["player"], row["score"], row["winner"]) for row in rows} == {
        ("Ann", "185", "yes"), ("Cat", "185", "yes"), ("Bob", "0", "no"), ("Dan", "0", "no")}

    bg = client.get("/api/games/%d/bgstats.json" % done["id"]).get_json()
    play = bg["play"]
    assert play["game"] == {"name": "SCAN (Parker Brothers, 1988)", "highestWins": True, "noPoints": False,
                            "sourceGameId": "scan"}
    assert play["board"] == "Team SCAN" and len(play["playDate"]) == 19
    by_name = {p["name"]: p for p in play["players"]}
    assert by_name["Ann"]["winner"] and by_name["Ann"]["rank"] == 1 and by_name["Bob"]["rank"] == 2
    assert by_name["Ann"]["startPlayer"] and not by_name["Bob"]["startPlayer"]
    assert bg["link"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(unquote(bg["link"].split("data=", 1)[1])) == play

    stats = client.get("/api/games/stats").get_json()
    assert stats["games_counted"] == 1
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert ann["played"] == 1 and ann["won"] == 1 and ann["win_rate"] == 1.0
    assert ann["by_game"] == [{"engine": "scan", "title": "SCAN (Parker Brothers, 1988)", "played": 1,
                               "won": 1, "best": 185, "average": 185.0}]


@pytest.mark.slow
def test_undo_and_redo_say_what_they_take_back_and_the_chart_follows(client):
    start(client)
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 12}, "Bob & Dan": {"spades": 1, "hearts": 13,
                                                                                    "diamonds": 13, "clubs": 13}}})
    game = current(client)
    hand = ("hand 1: WE took 12 spades and scored 120; THEY took 1 spade, 13 hearts, 13 diamonds, "
            "13 clubs and scored 0 (cards worth -120)")
    assert game["undo"] == hand
    assert (game["version"], game["moves"]) == (2, 1)
    r = post(client, "/api/games/current/undo", {"version": game["version"]})
    assert r.status_code == 200 and r.get_json()["said"] == "Took back: " + hand
    assert r.get_json()["redo"] == hand and r.get_json()["undo"] is None
    # the version counts every entry; the moves in force are one fewer after an undo, not one more
    assert (r.get_json()["version"], r.get_json()["moves"]) == (3, 0) and current(client)["moves"] == 0
    # nothing left to take back: the request is sound, the game has moved on (409, as documented)
    again = post(client, "/api/games/current/undo", {"version": r.get_json()["version"]})
    assert again.status_code == 409 and again.get_json()["message"].startswith("Nothing to undo in game #")
    r = post(client, "/api/games/current/redo", {"version": r.get_json()["version"]})
    assert r.get_json()["said"] == "Put back: " + hand and r.get_json()["moves"] == 1
    again = post(client, "/api/games/current/redo", {"version": r.get_json()["version"]})
    assert again.status_code == 409 and again.get_json()["message"].startswith("Nothing to redo in game #")
    r = post(client, "/api/games/current/abandon", {"version": r.get_json()["version"]})
    assert r.get_json()["status"] == "abandoned"
    chart = client.get("/api/games/%d/chart" % r.get_json()["id"]).get_json()
    assert [p["values"][0] for p in chart["points"]] == [0, 120]        # the undo and redo drop out


@pytest.mark.slow
def test_the_chart_leaves_out_undone_moves(client):
    start(client)
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 12}, "Bob & Dan": {"spades": 1, "hearts": 13,
                                                                                    "diamonds": 13, "clubs": 13}}})
    game = current(client)
    r = post(client, "/api/games/current/undo", {"version": game["version"]})
    r = post(client, "/api/games/current/abandon", {"version": r.get_json()["version"]})
    chart = client.get("/api/games/%d/chart" % r.get_json()["id"]).get_json()
    assert [p["values"][0] for p in chart["points"]] == [0]
    assert chart["colours"] == [None] * len(chart["players"])     # players who chose no colour
    assert not any("undid" in p["said"] for p in chart["points"])


@pytest.mark.slow
def test_a_money_game_charts_each_papers_worth(client):
    players = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]
    assert start(client, "scoop1956", players).status_code == 201
    for action in ({"type": "claim", "player": 0, "story_type": "sport"},
                   {"type": "verdict", "signal": "EXTRA", "digit": 5},
                   {"type": "place", "player": 0, "slot": "sport", "value": 400}):
        assert act(client, action).status_code == 200, action
    view = current(client)["view"]
    assert [p["cash"] for p in view["players"]] == [3200, 2800]
    game_id = post(client, "/api/games/current/abandon", {"version": current(client)["version"]}).get_json()["id"]
    chart = client.get("/api/games/%d/chart" % game_id).get_json()
    assert chart["unit"] == "worth" and chart["prefix"] == "$" and chart["players"] == ["Ann", "Bob"]
    assert chart["colours"] == ["red", "blue"]          # each line in its player's colour
    assert chart["points"][-1]["values"] == [3600, 2800]


@pytest.mark.slow
def test_a_game_without_scores_says_so_instead_of_a_chart(client):
    players = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
    start(client, "get_the_scoop", players, options={"board": "table"})   # the table says who won
    act(client, {"type": "reveal", "plays": []})
    act(client, {"type": "check", "winners": [2]})
    r = post(client, "/api/games/current/finish", {"version": current(client)["version"]})
    assert r.get_json()["winners"] == ["Cat"]
    chart = client.get("/api/games/%d/chart" % r.get_json()["id"]).get_json()
    assert chart["points"] == [] and "keeps no score" in chart["problem"]


@pytest.mark.slow
def test_a_restart_resumes_the_game_exactly_where_it_was(client, desk, config, mock_factory):
    start(client)
    act(client, BIG_HAND)
    before = current(client)
    desk.close()
    mock_factory.reset()
    again = Newsdesk(config, pin_factory=mock_factory)
    try:
        client2 = create_app(newsdesk=again, test_config={"TESTING": True}).test_client()
        assert current(client2) == before
        assert client2.get("/").status_code == 200
    finally:
        again.close()


# ---------------------------------------------------------------- refusals

@pytest.mark.slow
def test_a_move_on_an_old_version_is_a_409_with_the_version_to_read(client):
    start(client)
    act(client, BIG_HAND, version=1)
    r = act(client, BIG_HAND, version=1)
    assert r.status_code == 409
    body = r.get_json()
    assert body["stale"] is True and body["version"] == 2 and body["game"] == current(client)["id"]
    assert "moved on" in message(r)


@pytest.mark.slow
def test_a_move_the_rules_refuse_is_a_422_and_changes_nothing(client, desk):
    start(client)
    before = desk.store.last_id()
    r = act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 14}, "Bob & Dan": {}}})
    assert r.status_code == 422 and "spades" in message(r)
    assert desk.store.last_id() == before and current(client)["version"] == 1


@pytest.mark.parametrize("body, words", [
    ({"players": SCAN_PLAYERS}, "Say which game"),
    ({"engine": "scan"}, "players"),
    ({"engine": "scan", "players": []}, "players"),
    ({"engine": "scan", "players": [{"name": ""}]}, "Player 1 needs a name"),
    ({"engine": "scan", "players": [{"name": "x" * 41}]}, "longer than 40"),
    ({"engine": "scan", "players": [{"name": "Ann", "colour": 7}]}, "colour"),
    ({"engine": "scan", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "ann"}, {"name": "Dan"}]},
     "Players 1 and 3 are both called Ann (Ann and ann are one name at the table): give each player a different name."),
    ({"engine": "scan", "players": [{"name": "Ann"}, {"name": " ANN  "}]}, "both called Ann"),
    ({"engine": "scan", "players": [{"name": "An\u200bn"}]}, "Player 1's name has an invisible character in it (U+200B)"),
    ({"engine": "scan", "players": [{"name": "Ann\u200d"}]}, "Player 1's name has an invisible character in it (U+200D)"),
    ({"engine": "scan", "players": [{"name": "A\u200dnn"}]}, "Player 1's name has an invisible character in it (U+200D)"),
    ({"engine": "scan", "players": [{"name": "An\nn"}]}, "Player 1's name has a line break"),
    ({"engine": "scan", "players": [{"name": "Ann", "team": "A\tB"}]}, "Ann's team has a line break, tab"),
    ({"engine": "scan", "players": SCAN_PLAYERS, "options": [1]}, "options"),
    ({"engine": "scan", "players": SCAN_PLAYERS, "key": 5}, "idempotency"),
    ({"engine": "chess", "players": SCAN_PLAYERS}, "no game called"),
])
@pytest.mark.slow
def test_a_start_that_says_too_little_is_a_400(client, body, words):
    r = post(client, "/api/games", body)
    assert r.status_code == 400 and words in message(r)


@pytest.mark.parametrize("url, body, words", [
    # a lone surrogate ("\\ud800" in JSON) is valid JSON and no text: SQLite can't store it
    ("/api/games/current/actions", '{"action": {"type": "time_up"}, "version": 1, "key": "\\ud800"}', "lone surrogate"),
    ("/api/games/current/actions", '{"action": {"type": "time_up", "note": "a\\udfffb"}, "version": 1}',
     "lone surrogate"),
    ("/api/games/current/undo", '{"version": 1, "key": "\\ud83d"}', "lone surrogate"),
    ("/api/games", '{"engine": "scan", "players": [{"name": "\\ud800"}]}', "lone surrogate"),
    # Python's JSON reads these as floats no JSON can carry: stored, they made every later backup fail its check
    ("/api/games/current/actions", '{"action": {"type": "time_up", "x": 1e309}, "version": 1}', "number JSON can't carry"),
    ("/api/games/current/actions", '{"action": {"type": "time_up", "x": NaN}, "version": 1}', "number JSON can't carry"),
    ("/api/games/current/actions", '{"action": {"type": "time_up", "x": -Infinity}, "version": 1}', "number JSON can't carry"),
    ("/api/games", '{"engine": "scan", "players": [{"name": "Ann"}], "options": {"target": Infinity}}', "number JSON can't carry"),
    # nested past what any request means, short of what the parser refuses: a RecursionError was a 500
    ("/api/games/current/actions", '{"action": {"type": "time_up", "x": %s}, "version": 1}' % ("[" * 400 + "]" * 400),
     "nested deeper than"),
    ("/api/sim/dial", '{"digit": %s}' % ("[" * 600 + "]" * 600), "nested deeper than"),
])
def test_json_no_store_can_keep_is_a_400_and_changes_nothing(client, desk, url, body, words):
    start(client)
    before = desk.store.last_id()
    r = client.post(url, data=body, content_type="application/json", headers=WRITE)
    assert r.status_code == 400, r.get_data(as_text=True)
    assert words in message(r) and desk.store.last_id() == before


def test_the_store_refuses_a_number_json_cant_carry(desk):
    """Whatever brings it (a plug-in's event), the store writes only plain JSON."""
    from controller.errors import BadRequest
    with pytest.raises(BadRequest, match="JSON can't carry"):
        desk.store.append("dice.roll", {"total": float("inf")})


@pytest.mark.parametrize("url", ["/api/verdicts", "/api/games/history", "/api/oracles/dice/history"])
def test_a_limit_of_thousands_of_digits_is_a_400(client, url):
    r = client.get(url + "?limit=" + "9" * 5000)
    assert r.status_code == 400 and "limit must be a whole number" in message(r)


def test_a_name_with_an_emoji_an_emoji_keyboard_joined_is_taken(client):
    """👩‍👩‍👧 and 🏃🏽‍♀️ are each one emoji, made with zero-width joiners the keyboard puts in."""
    names = ["Zoë 👩\u200d👩\u200d👧", "Bo 🏃\U0001f3fd\u200d\u2640\ufe0f", "Cat", "Dan"]
    r = start(client, players=[{"name": n} for n in names])
    assert r.status_code == 201, r.get_json()
    assert [c["players"] for c in r.get_json()["view"]["columns"]][0] == [names[0], names[2]]   # partners opposite


@pytest.mark.parametrize("engine, options, words", [
    ("scan", {"time_limit": 0}, "“Time limit in minutes” is a whole number 1-1440 (or leave it empty to race to 155), not 0."),
    ("scan", {"time_limit": 2000}, "“Time limit in minutes” is a whole number 1-1440"),
    ("star_reporter", {"disasters": 99}, "“Disaster cards before the Catastrophe” is how many Disaster cards come before"),
    ("scoop1956", {"page": {"stories": {"sport lots": "sport lots"}}},
     "“The newspaper page's layout”: Stories has “sport lots”, not a type and its number of spaces; list each a type "
     "and its number of spaces (1-6) as printed on your newspaper page, separated by commas, e.g. “sport 2, crime 1”"),
])
@pytest.mark.slow
def test_a_refused_option_is_named_as_the_form_names_it_with_what_would_do(client, engine, options, words):
    """No JSON and no internal names ("time_limit", {"stories": ...}) in what the table reads."""
    from controller.games import registry
    players = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
    r = start(client, engine, players, options)
    said = message(r)
    assert r.status_code == 422 and said.startswith(words), said
    assert "{" not in said and not any(o["name"] in said for o in registry.load(engine).options if "_" in o["name"]), said
    assert not said.startswith(tuple(options)), said      # "time_limit is ...", "page is ..."


@pytest.mark.slow
def test_a_start_the_rules_refuse_is_a_422_and_a_second_game_a_409(client):
    r = start(client, players=SCAN_PLAYERS[:3])
    assert r.status_code == 422 and "4 players" in message(r)
    assert start(client).status_code == 201
    r = start(client, "scoop1956", SCAN_PLAYERS[:2])
    assert r.status_code == 409 and "still being played" in message(r)


def _breaks_on_a_hand():
    """SCAN as a plug-in with a bug would be: its apply fails on a hand's event."""
    import dataclasses

    from controller.games.scan import GAME

    def apply(state, event):
        if event.get("type") == "hand_scored":
            raise KeyError("taken")
        return GAME.apply(state, event)
    return dataclasses.replace(GAME, apply=apply)


BREAKS_ON_A_HAND = _breaks_on_a_hand()


def test_a_move_a_games_own_code_fails_on_is_a_500_saying_so_and_the_game_goes_on(client, monkeypatch, caplog):
    install_game(monkeypatch, "scan", "test_games_api:BREAKS_ON_A_HAND")
    assert start(client).status_code == 201
    r = act(client, BIG_HAND, 1)
    assert r.status_code == 500
    assert message(r) == ("The SCAN (Parker Brothers, 1988) game's rules failed on this move (KeyError: 'taken'); "
                          "the move was not made and the game is as it was.")
    assert "KeyError: 'taken'" in caplog.text           # the cause, logged in full for whoever mends it
    assert current(client)["version"] == 1 and current(client)["problem"] is None
    assert post(client, "/api/games/current/abandon", {"version": 1}).status_code == 200


def _shows_a_set():
    """SCAN as a plug-in updated with a bug would be: its view holds a set (no JSON) after a hand."""
    import dataclasses

    from controller.games.scan import GAME

    def view(state):
        out = GAME.view(state)
        return dict(out, seen={1, 2}) if any(state.get("totals", {}).values()) else out
    return dataclasses.replace(GAME, view=view)


SHOWS_A_SET = _shows_a_set()


def test_a_game_its_code_can_not_show_leaves_every_page_served_and_can_be_abandoned(client, monkeypatch):
    assert start(client).status_code == 201
    assert act(client, BIG_HAND, 1).status_code == 200
    install_game(monkeypatch, "scan", "test_games_api:SHOWS_A_SET")    # the game's code, updated since
    client.application.extensions["newsdesk"].table.games.resume()
    for url in ("/", "/api/state", "/api/games/current"):
        assert client.get(url).status_code == 200, url
    game = current(client)
    assert game["view"] is None and game["problem"].startswith("the SCAN (Parker Brothers, 1988) game's rules "
                                                               "failed on showing the game (TypeError")
    r = post(client, "/api/games/current/abandon", {"version": 2})
    assert r.status_code == 200 and r.get_json()["status"] == "abandoned"
    final = client.get("/api/games/1").get_json()["final"]
    assert final["view"] is None and "kept without its final view" in final["problem"]
    assert sorted(row["score"] for row in final["standings"]) == [0, 0, 185, 185]
    assert client.get("/").status_code == 200


def test_a_move_its_game_can_then_not_show_is_refused_and_not_kept(client, monkeypatch):
    install_game(monkeypatch, "scan", "test_games_api:SHOWS_A_SET")
    assert start(client).status_code == 201
    r = act(client, BIG_HAND, 1)
    assert r.status_code == 500 and message(r).startswith(
        "The SCAN (Parker Brothers, 1988) game's rules failed on showing the game after this move (TypeError")
    assert message(r).endswith("the move was not made and the game is as it was.")
    assert current(client)["version"] == 1 and client.get("/").status_code == 200


def test_an_engine_that_is_not_installed_is_a_409_saying_so(client, monkeypatch):
    install_game(monkeypatch, "scan", "no_such_engine:GAME")
    r = start(client)
    assert r.status_code == 409 and "not installed" in message(r)


@pytest.mark.parametrize("url, body, words", [
    ("/api/games/current/actions", {"action": {"type": "hand"}}, "version"),
    ("/api/games/current/actions", {"action": {"type": "hand"}, "version": True}, "version"),
    ("/api/games/current/actions", {"action": "hand", "version": 1}, "action"),
    ("/api/games/current/actions", {"action": {"kind": "hand"}, "version": 1}, "action"),
    ("/api/games/current/undo", {}, "version"),
    ("/api/games/current/finish", {"version": "1"}, "version"),
    ("/api/games/current/abandon", {"version": 1, "key": ["k"]}, "key"),
])
@pytest.mark.slow
def test_writes_that_say_too_little_are_400s(client, url, body, words):
    start(client)
    r = post(client, url, body)
    assert r.status_code == 400 and words in message(r)


def test_writes_with_no_game_are_409s(client):
    for url, body in (("/api/games/current/actions", {"action": {"type": "hand"}, "version": 1}),
                      ("/api/games/current/undo", {"version": 1}),
                      ("/api/games/current/redo", {"version": 1}),
                      ("/api/games/current/finish", {"version": 1}),
                      ("/api/games/current/abandon", {"version": 1})):
        r = post(client, url, body)
        assert r.status_code == 409 and "no game" in message(r).lower(), url


@pytest.mark.slow
def test_a_game_with_no_winner_yet_cannot_be_finished(client):
    start(client)
    r = post(client, "/api/games/current/finish", {"version": 1})
    assert r.status_code == 400 and "no winner yet" in message(r)


def test_a_key_reused_for_another_move_is_a_422(client):
    start(client)
    act(client, {"type": "hand", "taken": {"Ann & Cat": {"spades": 12}, "Bob & Dan": {"spades": 1, "hearts": 13,
                                                                                    "diamonds": 13, "clubs": 13}}}, key="k1")
    r = act(client, BIG_HAND, key="k1")
    assert r.status_code == 422 and "different request" in message(r)


@pytest.mark.slow
def test_kept_games_that_are_not_there_are_404s_and_active_ones_dont_export(client):
    for url in ("/api/games/7", "/api/games/7/chart", "/api/games/7/export.csv", "/api/games/7/bgstats.json",
                "/api/games/99999999999999999999999999", "/games/99999999999999999999"):
        r = client.get(url)
        assert r.status_code == 404, url
    game = start(client).get_json()["game"]
    for url in ("/api/games/%d/export.csv" % game, "/api/games/%d/bgstats.json" % game):
        r = client.get(url)
        assert r.status_code == 409 and "still being played" in message(r)
    assert client.get("/api/games/%d" % game).get_json()["status"] == "active"


def test_history_limit_is_checked(client):
    assert client.get("/api/games/history?limit=0").status_code == 400
    assert client.get("/api/games/history?limit=x").status_code == 400
    assert client.get("/api/games/history?limit=5").get_json() == {"games": []}


@pytest.mark.slow
def test_a_body_that_is_not_a_json_object_is_a_400(client):
    start(client)
    for data in ("[1, 2]", "not json", "[" * 100000 + "]" * 100000):
        r = client.post("/api/games/current/actions", data=data, content_type="application/json", headers=WRITE)
        assert r.status_code in (400, 413) and message(r)


def _bad(opt):
    """A value the option refuses, of the kind the form would send (or a person typing the API)."""
    return {"integer": (opt.get("maximum") or 0) + 1, "minutes": (opt.get("maximum") or 0) + 1, "seat": 9,
            "choice": "nonsense", "choices": ["nonsense"], "boolean": "maybe", "names": ["Somewhere"]}.get(opt["kind"])


def test_every_refusal_of_a_form_option_names_it_as_the_form_does_and_says_what_would_do(client):
    """Each option the start form asks, refused: the sentence opens with the field as the form
    names it (never "Time_limit is ..."), a seat is named as the form's players are ("Player 1
    to Player 4", not "seat 0-3") and a choice by the words its drop-down shows."""
    from controller.games import base
    from controller.games.catalogue import start_form
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    for game in start_form():
        for opt in game["options"]:
            value = _bad(opt)
            if not opt["form"] or value is None:
                continue
            options, seats = {opt["name"]: value}, game["players"]
            own = base.option_variants(opt)[:1]         # the first variant it belongs to, if not every one's
            played = own[0] if own else next((o["default"] for o in game["options"] if o["name"] == game["variant_option"]), None)
            if isinstance(played, str):
                seats = (seats.get("by_variant") or {}).get(played, seats)
            if own:
                options[game["variant_option"]] = list(own) if game["variant_choice"] == "many" else own[0]
            players = [{"name": n} for n in names[:seats["min"]]]
            r = start(client, game["name"], players, options)
            said = message(r)
            assert r.status_code == 422, (game["name"], opt["name"], said)
            named = said[1:said.index("”")] if said.startswith("“") else ""    # the form's label, or its start
            assert named and opt["label"].startswith(named) and base.form_name(opt)[1:-1] in named, (opt["name"], said)
            if opt["kind"] == "seat":
                assert "Player 1 to Player %d" % len(players) in said and "0-" not in said, said
            if opt["kind"] == "choice":
                assert all("“%s”" % base.short_words(w) in said for w in opt["choices"].values()) \
                    or all(w.split(":")[0] in said for w in opt["choices"].values()), said


def test_a_game_whose_option_default_is_past_its_bounds_is_a_409_saying_so(client, monkeypatch):
    """A default outside its declared bounds was played (target 200 of 5-100): the game can't be
    started, and the start says why, as for a game not installed."""
    import dataclasses

    from controller.games import base, registry
    from controller.games.scan import GAME as SCAN
    target = base.option("target", "integer", 200, "first to the target", "Points to win", minimum=5, maximum=100)
    bad = dataclasses.replace(SCAN, options=SCAN.options + (target,))
    monkeypatch.setattr(registry, "_OUT_OF_BOUNDS", bad, raising=False)
    install_game(monkeypatch, "scan", "controller.games.registry:_OUT_OF_BOUNDS")
    r = start(client)
    assert r.status_code == 409 and "option target's default is out of its bounds" in message(r), \
        "a default past its bounds was started: %s %s" % (r.status_code, r.get_json())


def test_a_bad_idempotency_key_is_named_as_it_was_sent(client):
    """The refusal of an empty or blank key says so; a short key is quoted whole, a long one cut.
    Before: every key sent as text was quoted cut with "..." added, so "" was refused as "not '...'"
    and " " as "not ' ...'", as if something had been sent and left out."""
    client.post("/api/games", json={"engine": "scoop1956", "players": [{"name": "Ann"}, {"name": "Bob"}]})
    said = {}
    for key in ["", "   ", "k" * 201, 7]:
        r = client.post("/api/games/current/undo", json={"version": 1, "key": key})
        assert r.status_code == 400
        said[key if isinstance(key, int) else len(key)] = r.get_json()["message"]
    assert said[0].endswith("not an empty one.")
    assert said[3].endswith("not one of blanks only.")
    assert said[201].endswith("not '%s...'." % ("k" * 40))
    assert said[7].endswith("not 7.")
