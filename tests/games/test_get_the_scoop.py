"""Get the Scoop! (Cardboard Jam, 2011) through the engine: rounds of three phases -> winners."""

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from controller.games import get_the_scoop as game
from controller.games.base import GameError, fold
from walk import SKIP, Walk, check_junk_setup

NAMES = ("Ann", "Bob", "Cat", "Dan")


def start(colours=(None,) * 4, **options):
    """A game where the table keeps the board (option board: table) unless told otherwise."""
    options.setdefault("board", "table")
    state = game.initial()
    for ev in game.setup([{"name": n, "colour": c, "team": None} for n, c in zip(NAMES, colours)], options):
        state = game.apply(state, ev)
    return state


def act(state, action, rng=None):
    events = game.decide(state, action, rng or random.Random(0))
    for ev in events:
        state = game.apply(state, ev)
    return state, events


def play(p, protester, rank, suit):
    return {"player": p, "protester": protester, "rank": rank, "suit": suit}


def quiet_round(state):
    """Nobody directs anyone, nobody wins: journalists in turn, then the police."""
    state, _ = act(state, {"type": "reveal", "plays": []})
    state, _ = act(state, {"type": "check", "winners": []})
    for k in range(4):
        state, _ = act(state, {"type": "end_turn", "player": (state["first"] + k) % 4})
    return act(state, {"type": "police", "player": state["first"]})[0]


def test_four_players_four_colours():
    """'5 Journalists, Red / Blue / Green / White' -- one colour per corner."""
    view = game.view(start(colours=("white", None, "red", None)))
    assert [p["colour"] for p in view["players"]] == ["white", "blue", "red", "green"]
    with pytest.raises(GameError, match="for 4 players"):
        game.setup([{"name": "Ann"}], {})
    with pytest.raises(GameError, match="Bob's colour 'purple' has no Journalists"):
        start(colours=(None, "purple", None, None))
    with pytest.raises(GameError, match="same colour"):
        start(colours=("red", "red", None, None))


def test_a_whole_game_rounds_phases_badge_and_winners():
    """'Each round consists of: The Protesters' turn ... The Journalists' turn, controlled by each
    player in clockwise order ... The Police Officers' turn, controlled by the First Player badge.
    The First Player badge is then passed to the next Player, clockwise.' ... 'If there is a
    Protester in a Player's corner (the camera van), that Player wins and the game is over! There
    can be multiple winners.'"""
    s = start(first=2)
    assert game.view(s)["first_player_name"] == "Cat" and s["phase"] == "protesters"
    s, _ = act(s, {"type": "reveal", "plays": [play(0, 1, 7, "hearts")]})
    assert s["phase"] == "check"
    s, _ = act(s, {"type": "check", "winners": []})
    assert s["phase"] == "journalists" and game.view(s)["journalists_order"] == [2, 3, 0, 1]
    for p in (2, 3, 0, 1):
        assert s["journalist"] == p
        s, _ = act(s, {"type": "end_turn", "player": p})
    assert s["phase"] == "police"
    s, ev = act(s, {"type": "police", "player": 2})
    assert ev[-1] == {"type": "round_ended", "round": 1, "first": 3}
    s = quiet_round(s)
    assert (s["round"], s["first"]) == (3, 0)
    s, _ = act(s, {"type": "reveal", "plays": [play(1, 2, 9, "spades"), play(3, 4, "A", "clubs")]})
    s, ev = act(s, {"type": "check", "winners": [3, 1]})
    view = game.view(s)
    assert view["winners"] == [1, 3] and view["winner_names"] == ["Bob", "Dan"]
    assert game.offers(s) == []
    with pytest.raises(GameError, match="over: Bob and Dan won"):
        game.decide(s, {"type": "reveal", "plays": []}, random.Random(0))


@pytest.mark.parametrize("rank,distance,push", [
    ("A", 1, False), (2, 1, False), (3, 1, True), (4, 2, False), (5, 2, False), (6, 2, True),
    (7, 3, False), (8, 3, False), (9, 3, True)])
def test_revealed_cards_show_distance_and_push(rank, distance, push):
    """'1 = Ace, 2, or 3 / 2 = 4, 5, or 6 / 3 = 7, 8, or 9' ... 'If the card value is 3, 6, or 9,
    Protesters will push other Protesters or Journalists in their way' ... 'The suit dictates the
    direction of movement, toward the side labeled with that suit'."""
    _, ev = act(start(), {"type": "reveal", "plays": [play(0, 2, rank, "diamonds")]})
    shown = ev[0]["plays"][0]
    assert (shown["distance"], shown["push"], shown["toward"]) == (distance, push, "the diamonds side")


def test_protesters_resolve_lowest_number_first():
    """'Protester movement is resolved in the order of lowest number Protester to highest'."""
    plays = [play(0, 4, 2, "hearts"), play(1, 1, 5, "clubs"), play(2, 3, 8, "spades")]
    _, ev = act(start(), {"type": "reveal", "plays": plays})
    assert [p["protester"] for p in ev[0]["plays"]] == [1, 3, 4]
    assert ev[0]["abstained"] == [3]


def test_several_directors_get_a_fair_random_order_recorded_in_the_event():
    """'If more than one player directs the same Protester, the cards are shuffled face down, and
    turned over one at a time with each card resolved before the next is turned over.'"""
    plays = [play(0, 2, 2, "hearts"), play(1, 2, 5, "clubs"), play(2, 2, 8, "spades")]
    seen = {}
    for seed in range(1200):
        _, ev = act(start(), {"type": "reveal", "plays": plays}, random.Random(seed))
        order = tuple(ev[0]["orders"][0]["players"])
        assert ev[0]["orders"][0]["how"] == "drawn"
        assert [p["player"] for p in ev[0]["plays"]] == list(order)
        seen[order] = seen.get(order, 0) + 1
    assert set(seen) == set(itertools.permutations((0, 1, 2)))
    assert all(150 <= k <= 250 for k in seen.values()), seen       # about 200 each of 6


def test_players_may_agree_on_an_order_instead():
    """'Alternately, the players can agree on an order -- if they can agree!'"""
    plays = [play(0, 2, 2, "hearts"), play(1, 2, 5, "clubs")]
    _, ev = act(start(), {"type": "reveal", "plays": plays, "order": {"2": [1, 0]}})
    assert ev[0]["orders"] == [{"protester": 2, "players": [1, 0], "how": "agreed"}]
    with pytest.raises(GameError, match="agreed order for Protester 2 must list exactly Ann, Bob"):
        game.decide(start(), {"type": "reveal", "plays": plays, "order": {"2": [1, 2]}}, random.Random(0))


def test_a_reveal_is_checked():
    """'Each player may choose 1 card to direct a Protester.' The deck is 'Ace through 9 cards of
    all 4 suits'; the d4 shows Protesters 1-4."""
    s = start()
    cases = [
        ([play(0, 1, 2, "hearts"), play(0, 2, 3, "hearts")], "Ann played two cards"),
        ([play(0, 1, 2, "hearts"), play(1, 2, 2, "h")], "Bob: the 2 of hearts was already played"),
        ([play(2, 5, 2, "hearts")], "Cat: the d4 shows a Protester 1-4"),
        ([play(3, 1, 10, "hearts")], "Dan: a card is a rank A-9"),
        ([play(3, 1, "K", "hearts")], "Dan: a card is a rank A-9"),
        ([play(7, 1, 2, "hearts")], "a player is a seat number 0-3"),
    ]
    for plays, message in cases:
        with pytest.raises(GameError, match=message):
            game.decide(s, {"type": "reveal", "plays": plays}, random.Random(0))


def test_journalists_go_in_clockwise_order_from_the_badge():
    """'The player with the First Player badge takes their turn first, followed by the next three
    Players, in clockwise order.'"""
    s = start(first=1)
    s, _ = act(s, {"type": "reveal", "plays": []})
    with pytest.raises(GameError, match="that's not for now: check the camera vans"):
        game.decide(s, {"type": "end_turn", "player": 1}, random.Random(0))
    s, _ = act(s, {"type": "check", "winners": []})
    with pytest.raises(GameError, match="Ann can't end a turn: it is Bob's Journalists' turn"):
        game.decide(s, {"type": "end_turn", "player": 0}, random.Random(0))


def test_the_first_player_moves_the_police_by_the_table():
    """'The First Player moves each of the Police Officers one square clockwise ... 1 & 2 move 1
    square Right / 5 & 6 move 1 square Left / 3 & 4 move 1 square Down / 7 & 8 move 1 square Up'.
    'At the Police Officers' turn on the next round they move diagonally, clockwise' (the table
    after that is missing, so the next steps are configurable)."""
    s = start()
    s, _ = act(s, {"type": "reveal", "plays": []})
    s, _ = act(s, {"type": "check", "winners": []})
    for p in range(4):
        s, _ = act(s, {"type": "end_turn", "player": p})
    with pytest.raises(GameError, match="Bob can't move the police: the First Player, Ann, does"):
        game.decide(s, {"type": "police", "player": 1}, random.Random(0))
    s, ev = act(s, {"type": "police", "player": 0})
    assert ev[0]["moves"] == {"1": "right", "2": "right", "3": "down", "4": "down",
                              "5": "left", "6": "left", "7": "up", "8": "up"}
    assert all("-" in way for way in game.view(s)["police_this_round"]["moves"].values())  # diagonal
    mine = [{o: "up" for o in range(1, 9)}]
    s2 = quiet_round(start(police_table=mine))
    assert s2["last_police"]["moves"] == {str(o): "up" for o in range(1, 9)}
    with pytest.raises(GameError, match="police_table"):
        start(police_table=[{1: "sideways"}])


# ---------------------------------------------------------------- properties

RANKS = st.sampled_from(["A", 2, 3, 4, 5, 6, 7, 8, 9])
SUITS = st.sampled_from(["hearts", "diamonds", "clubs", "spades"])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_play_never_crashes_and_replays_identically(data, seed):
    """Random legal actions (offers, and random reveals) keep the badge passing clockwise ('the
    First Player token is passed to the next player, clockwise') and replay from the events."""
    rng = random.Random(seed)
    setup = game.setup([{"name": n} for n in NAMES], {"first": data.draw(st.integers(0, 3))})
    state = game.initial()
    for ev in setup:
        state = game.apply(state, ev)
    entries = [(0, {"type": "setup", "events": setup})]
    for i in range(data.draw(st.integers(1, 60))):
        choices = game.offers(state)
        if not choices:
            break
        action = data.draw(st.sampled_from(choices))
        if action["type"] == "reveal":
            plays = []
            for p in range(4):
                if data.draw(st.booleans()):
                    plays.append(play(p, data.draw(st.integers(1, 4)), data.draw(RANKS), data.draw(SUITS)))
            action = {"type": "reveal", "plays": plays}
        if action["type"] == "check" and data.draw(st.integers(0, 9)):
            action = {"type": "check", "winners": []}       # mostly nobody wins, so rounds go on
        round_, first = state.get("round"), state.get("first")
        try:
            events = game.decide(state, action, rng)
        except GameError as e:
            assert "already played" in str(e) or "no card in hand" in str(e)
            continue
        for ev in events:
            state = game.apply(state, ev)
        entries.append((i + 1, {"type": action["type"], "events": events}))
        if state["round"] != round_:
            assert state["round"] == round_ + 1 and state["first"] == (first + 1) % 4
        game.view(state)
    assert fold(game, entries) == state


def test_orders_and_police_tables_are_checked():
    """'Alternately, the players can agree on an order' -- for a Protester someone directed, and
    naming exactly the players who directed it. The police table moves 'each of the Police
    Officers', 1-8."""
    plays = [play(0, 2, 2, "hearts"), play(1, 2, 5, "clubs")]
    cases = [
        ({"5": [0, 1]}, "given per Protester 1-4, not for '5'"),
        ({"3": [0]}, "nobody directed Protester 3"),
        ({"2": [0, 1.0]}, "must list exactly Ann, Bob, by seat"),
        ({"2": [0, 0]}, "must list exactly Ann, Bob"),
        ({"2": "01"}, "must list exactly Ann, Bob"),
        ([[2, [0, 1]]], '"order" maps a Protester'),
    ]
    for order, message in cases:
        with pytest.raises(GameError, match=message):
            game.decide(start(), {"type": "reveal", "plays": plays, "order": order}, random.Random(0))
    _, ev = act(start(), {"type": "reveal", "plays": plays, "order": {2: ["1", "0"]}})
    assert ev[0]["orders"][0]["players"] == [1, 0]
    with pytest.raises(GameError, match="Ann: the d4 shows a Protester 1-4, not 2.0"):
        game.decide(start(), {"type": "reveal", "plays": [play(0, 2.0, 2, "hearts")]}, random.Random(0))
    for table in ([{1.0: "up", 2: "up", 3: "up", 4: "up", 5: "up", 6: "up", 7: "up", 8: "up"}],
                  [{o: "up" for o in range(1, 8)}], [], "up", [{"²": "up"}]):
        with pytest.raises(GameError, match="police_table"):
            start(police_table=table)


@pytest.mark.parametrize("players,options,message", [
    (None, {}, "players is a list"),
    ([{"name": n} for n in NAMES], [1], "options are a dict"),
    ([{"name": n} for n in NAMES], {"first": "Ann"}, "first is the seat"),
    ([{"name": n} for n in NAMES], {"seed": 1}, "no option seed"),
    (list(NAMES), {}, "every player needs a name"),
    ([{"name": n, "colour": ["red"]} for n in NAMES], {}, "has no Journalists"),
])
def test_setup_refuses_bad_settings_with_a_sentence(players, options, message):
    with pytest.raises(GameError, match=message):
        game.setup(players, options)


def test_a_longer_game_with_shared_protesters_to_one_winner():
    """A whole game: five quiet rounds (the badge goes round the table and on: 'the First Player
    token is passed to the next player, clockwise'), then a round where two players direct the
    same Protester (their order drawn: 'the cards are shuffled face down'), the police's steps
    cycling through the table, and one winner ('that Player wins and the game is over!')."""
    s = start(first=3)
    badges, steps = [], []
    for _ in range(5):
        badges.append(s["first"])
        s = quiet_round(s)
        steps.append(s["last_police"]["step"])
    assert badges == [3, 0, 1, 2, 3] and steps == [1, 2, 1, 2, 1]
    s, ev = act(s, {"type": "reveal", "plays": [play(0, 3, 9, "spades"), play(2, 3, "A", "hearts")]},
                random.Random(7))
    assert ev[0]["orders"][0]["how"] == "drawn" and sorted(ev[0]["orders"][0]["players"]) == [0, 2]
    assert ev[0]["abstained"] == [1, 3]
    s, _ = act(s, {"type": "check", "winners": ["2"]})
    assert game.view(s)["winner_names"] == ["Cat"] and s["phase"] == "over"
    assert game.view(s)["waiting_for"] is None


# ---------------------------------------------------------------- junk and undo

JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["hearts", "h", "A", "9", "²", "1"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["player", "protester", "rank", "suit", "1", "2", "x"]), inner, max_size=4),
                    max_leaves=10)
KEYS = ["player", "plays", "order", "winners"]


def _choose(state, data):
    """An offered action, with its reveal filled in (sometimes with a card played twice)."""
    choices = game.offers(state)
    if not choices:
        return None
    action = data.draw(st.sampled_from(choices))
    if action["type"] == "reveal":
        plays = [play(p, data.draw(st.integers(1, 4)), data.draw(RANKS), data.draw(SUITS))
                 for p in range(4) if data.draw(st.booleans())]
        action = {"type": "reveal", "plays": plays}
    if action["type"] == "check" and data.draw(st.integers(0, 9)):
        action = {"type": "check", "winners": []}
    return action


@settings(max_examples=200, deadline=None)
@given(data=st.data(), steps=st.integers(0, 30),
       kind=st.sampled_from(sorted(game._ACTIONS) + ["nope", None, 3, ["reveal"]]))
def test_junk_actions_raise_game_error_only(data, steps, kind):
    """Wrong turns (another player's Journalists, the police by someone without the badge),
    actions in the wrong phase, unknown types, bad seats, cards, Protesters and orders, and
    anything after the game is over: always a GameError with a sentence, never another error."""
    rng = random.Random(steps)
    state = start()
    for _ in range(steps):                            # somewhere into a game (or past its end)
        action = _choose(state, data)
        if action is None:
            break
        try:
            state, _ = act(state, action, rng)
        except GameError:
            pass                                      # a card drawn twice
    junk = {"type": kind}
    for key in data.draw(st.lists(st.sampled_from(KEYS), max_size=3)):
        junk[key] = data.draw(st.one_of(JUNK, st.lists(JUNK, max_size=4), st.integers(0, 4)))
    action = data.draw(st.sampled_from([junk, junk, junk, None, [junk], "reveal"]))
    try:
        events = game.decide(state, action, rng)
    except GameError as e:
        assert str(e) and str(e)[0] != " "
        return
    for ev in events:
        state = game.apply(state, ev)
    game.view(state)
    game.offers(state)


@settings(max_examples=50, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_undo_and_redo_fold_back_to_the_same_states(data, seed):
    """Any run of offered actions, undos (the newest move in force) and redos: an undo gives back
    exactly the state before the move, a redo the state after it (the drawn order included), and
    folding the stored entries (undo/redo entries included) gives the state the game is in."""
    rng = random.Random(seed)
    walk = Walk(game, game.setup([{"name": n} for n in NAMES], {"first": data.draw(st.integers(0, 3))}))

    def choose(state):
        action = _choose(state, data)
        if action is None:
            return None
        try:
            return action["type"], game.decide(state, action, rng)
        except GameError as e:
            assert "already played" in str(e) or "no card in hand" in str(e)
            return SKIP

    for _ in range(data.draw(st.integers(5, 80))):
        if not walk.step(data.draw(st.integers(0, 5)), choose):
            break
    assert walk.refolds()


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_junk_setups_raise_game_error_only(data):
    """Whatever a start form sends, setup either starts a game or says what to fix."""
    check_junk_setup(game, data, JUNK, ["first", "police_table"])
