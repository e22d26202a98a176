"""Get the Scoop! (Cardboard Jam, 2011) through the engine: rounds of three phases -> winners."""

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st
from walk import SKIP, Walk, check_junk_setup

from controller.games.base import GameError, declared, fold
from controller.games.get_the_scoop import GAME as game, rules

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
    if state["phase"] == "check":                     # the table keeps the board: it says who won
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


@pytest.mark.slow
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
        ([play(0, 1, 2, "hearts"), play(1, 2, 2, "h")], "Bob: Ann already played the 2 of hearts this turn"),
        ([play(2, 5, 2, "hearts")], "Cat: the d4 shows a Protester 1-4"),
        ([play(3, 1, 10, "hearts")], "Dan: a card is a rank A-9"),
        ([play(3, 1, "K", "hearts")], "Dan: a card is a rank A-9"),
        ([play(7, 1, 2, "hearts")], "a player is a seat number 0-3"),
    ]
    for plays, message in cases:
        with pytest.raises(GameError, match=message):
            game.decide(s, {"type": "reveal", "plays": plays}, random.Random(0))


@pytest.mark.parametrize("board", ["table", "tracked"])
def test_a_card_played_twice_in_one_protesters_turn_is_refused_but_not_in_a_later_round(board):
    """The deck is 'Ace through 9 cards of all 4 suits' of one poker deck: no two players turn up
    the same card in one Protesters' turn, however the card is written ("1", "A", "ace"; "h",
    "hearts"), and the refusal says it in words (the ace, not "the A"), naming who played it
    first. The discards and reshuffles are not detailed, so a later round may turn it up again."""
    s = start(board=board)
    twice = [play(2, 1, "1", "h"), play(0, 3, 5, "clubs"), play(3, 2, "Ace", "hearts")]
    with pytest.raises(GameError) as refused:
        game.decide(s, {"type": "reveal", "plays": twice}, random.Random(0))
    assert str(refused.value) == "Dan: Cat already played the ace of hearts this turn, and the deck has only one"
    s, ev = act(s, {"type": "reveal", "plays": [play(2, 1, "A", "hearts"), play(3, 2, "A", "spades")]})
    assert [(c["player"], c["rank"], c["suit"]) for c in ev[0]["plays"]] == [(2, "A", "hearts"), (3, "A", "spades")]
    if s["phase"] == "check":
        s, _ = act(s, {"type": "check", "winners": []})
    for k in range(4):
        s, _ = act(s, {"type": "end_turn", "player": (s["first"] + k) % 4})
    s, _ = act(s, {"type": "police", "player": s["first"]})
    assert s["round"] == 2
    s, ev = act(s, {"type": "reveal", "plays": [play(3, 4, "A", "hearts")]})      # round 2: the ace again
    assert [(c["player"], c["rank"], c["suit"]) for c in ev[0]["plays"]] == [(3, "A", "hearts")]


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


def test_the_default_police_circle_the_protesters_as_a_cordon():
    """'the Police Officers move in their prescripted order, clockwise around the center of the
    board, creating a cordon around the Protester's original placement'. The table after the
    second round is missing; newsdesk's default keeps the officers going round: with nobody else
    moving, none is ever blocked or steps into the centre's four squares, and after the
    default's last step each is back where it started (a table that only alternated the
    first two steps walked every officer to an edge, where all eight stood blocked for good)."""
    s = start(board="tracked")
    began = {o: sq for o, sq in s["board"].items() if o.startswith("O")}
    centre = {"f6", "g6", "f7", "g7"}
    steps = len(rules.DEFAULT_POLICE_TABLE)
    for n in range(1, 2 * steps + 1):
        s = quiet_round(s)
        assert s["last_police"]["blocked"] == [], n
        officers = {o: sq for o, sq in s["board"].items() if o.startswith("O")}
        assert not centre & set(officers.values()), (n, officers)
        if n == 1:
            assert officers == {"O1": "g4", "O2": "h4", "O3": "i7", "O4": "i8",
                                "O5": "f9", "O6": "e9", "O7": "d6", "O8": "d5"}
        if n == 2:      # "on the next round they move diagonally, clockwise"
            assert set(s["last_police"]["moves"].values()) == {"down-right", "down-left", "up-left", "up-right"}
        if n % steps == 0:
            assert officers == began, n


# ---------------------------------------------------------------- properties

RANKS = st.sampled_from(["A", 2, 3, 4, 5, 6, 7, 8, 9])
SUITS = st.sampled_from(["hearts", "diamonds", "clubs", "spades"])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
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
        if action["type"] == "move":                        # any of the legal Journalist moves
            action = dict(data.draw(st.sampled_from(action["choices"])), type="move", player=action["player"])
        if action["type"] == "draw":
            action = dict(action, discard=data.draw(st.integers(0, 3)))
        round_, first = state.get("round"), state.get("first")
        try:
            events = game.decide(state, action, rng)
        except GameError as e:
            assert any(w in str(e) for w in ("already played", "no card in hand", "discard"))
            continue
        for ev in events:
            state = game.apply(state, ev)
        entries.append((i + 1, {"type": action["type"], "events": events}))
        if state["round"] != round_:
            assert state["round"] == round_ + 1 and state["first"] == (first + 1) % 4
        game.view(state)
    assert fold(game, entries) == state


def test_the_view_says_whose_each_police_step_is():
    """The rules print the first round's police step, say the next round's goes "diagonally,
    clockwise", and stop. The panel showed "Police this round (step 3)" as if the game's: past
    the first step the default table is newsdesk's reading, and a table given at setup is that."""
    s = start()
    said = []
    for _ in range(3):
        p = game.view(s)["police_this_round"]
        said.append((p["step"], p["source"], p["by"]))
        assert p["said"]
        s = quiet_round(s)
    assert said == [(1, "rules", ""), (2, "reading", "newsdesk's reading"), (3, "newsdesk", "newsdesk's reading")]
    mine = game.view(start(police_table=[{o: "up" for o in range(1, 9)}]))["police_this_round"]
    assert (mine["source"], mine["by"]) == ("table", "this game's table")


def test_the_view_says_the_suits_on_the_sides_are_newsdesks_choice():
    """'the four sides of the board labeled with suits': which suit is where isn't said, and the
    board drawn with hearts on top was shown as the game's. Sides given at setup are the table's."""
    said = game.view(tracked())["sides_said"]
    assert said.startswith("Which suit labels which side is newsdesk's choice")
    assert "hearts top, diamonds right, clubs bottom, spades left" in said
    assert game.view(tracked(sides=["spades", "hearts", "diamonds", "clubs"]))["sides_said"] is None


def test_the_start_form_asks_which_suit_labels_each_side_newsdesks_order_its_default():
    """'the four sides of the board labeled with suits': which is where could be given through the
    API only, so a table whose board has spades on top played a box with hearts there. The form
    asks a suit for each side, newsdesk's order (the rules' list, from the top clockwise) the
    default and said to be its choice; a suit on two sides is refused in a sentence."""
    opt = declared(game.options, "sides")
    assert opt["kind"] == "mapping" and opt["form"] and opt["newsdesk"]
    parts = opt["schema"]["properties"]
    assert [(side, parts[side]["default"]) for side in parts] == list(zip(("top", "right", "bottom", "left"), rules.SUITS))
    assert all(part["enum"] == list(rules.SUITS) for part in parts.values())
    chosen = {"top": "spades", "right": "hearts", "bottom": "diamonds", "left": "clubs"}
    view = game.view(tracked(sides=chosen))
    assert view["sides"] == chosen and view["sides_said"] is None
    assert tracked(sides=["s", "hearts", "d", "clubs"])["rules"]["sides"] == ["spades", "hearts", "diamonds", "clubs"]
    # the API's other form, the four suits as a list from the top clockwise, is in the option's schema too
    # (the API document showed the object alone)
    assert opt["schema"]["type"] == ["object", "array"]
    assert (opt["schema"]["items"], opt["schema"]["minItems"], opt["schema"]["maxItems"]) == ({"enum": list(rules.SUITS)}, 4, 4)
    assert tracked(sides=["clubs", "spades", "hearts", "diamonds"])["rules"]["sides"] == ["clubs", "spades", "hearts",
                                                                                          "diamonds"]
    with pytest.raises(GameError, match="^“Which suit labels each side of the board” takes each of the four suits "
                                        r"\(hearts, diamonds, clubs, spades\) once, .*: spades is on two sides$"):
        tracked(sides=dict(chosen, right="spades"))
    with pytest.raises(GameError, match="not {'top': 'spades'}"):
        tracked(sides={"top": "spades"})


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
    ([{"name": n} for n in NAMES], {"first": "Ann"}, "“Who has the First Player badge” is the seat"),
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
    same Protester (their order drawn: 'the cards are shuffled face down'), the police taking
    the table's steps in turn, and one winner ('that Player wins and the game is over!')."""
    s = start(first=3)
    badges, steps = [], []
    for _ in range(5):
        badges.append(s["first"])
        s = quiet_round(s)
        steps.append(s["last_police"]["step"])
    assert badges == [3, 0, 1, 2, 3] and steps == [1, 2, 3, 4, 5]
    s, ev = act(s, {"type": "reveal", "plays": [play(0, 3, 9, "spades"), play(2, 3, "A", "hearts")]},
                random.Random(7))
    assert ev[0]["orders"][0]["how"] == "drawn" and sorted(ev[0]["orders"][0]["players"]) == [0, 2]
    assert ev[0]["abstained"] == [1, 3]
    s, _ = act(s, {"type": "check", "winners": ["2"]})
    assert game.view(s)["winner_names"] == ["Cat"] and s["phase"] == "over"
    assert game.view(s)["waiting_for"] is None


# ---------------------------------------------------------------- junk and undo

JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                    | st.text(max_size=4) | st.sampled_from(["hearts", "h", "A", "9", "²", "1", "c3", "d4", "a3", "l12", "m1", "a0", "c"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["player", "protester", "rank", "suit", "1", "2", "x"]), inner, max_size=4),
                    max_leaves=10)
KEYS = ["player", "plays", "order", "winners", "from", "to", "discard"]


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
    if action["type"] == "move":
        action = dict(data.draw(st.sampled_from(action["choices"])), type="move", player=action["player"])
    return action


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(data=st.data(), steps=st.integers(0, 30),
       kind=st.sampled_from(sorted(rules._ACTIONS) + ["nope", None, 3, ["reveal"]]))
def test_junk_actions_raise_game_error_only(data, steps, kind):
    """Wrong turns (another player's Journalists, the police by someone without the badge),
    actions in the wrong phase, unknown types, bad seats, cards, Protesters and orders, and
    anything after the game is over: always a GameError with a sentence, never another error."""
    rng = random.Random(steps)
    state = start(board=("table", "tracked")[steps % 2])      # the table keeps the board, or the box
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


@pytest.mark.slow
@settings(max_examples=35, deadline=None)
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


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_junk_setups_raise_game_error_only(data):
    """Whatever a start form sends, setup either starts a game or says what to fix."""
    check_junk_setup(game, data, JUNK, ["first", "police_table"])


# ---------------------------------------------------------------- the box keeps the board

def tracked(first=0, **options):
    return start(first=first, board="tracked", **options)


def placed(state, **where):
    """``state`` with pieces put on given squares (the board as a table might have it mid-game)."""
    state = dict(state, board=dict(state["board"], **where))
    assert len(set(state["board"].values())) == len(state["board"])      # one piece a square
    return state


def revealed(state, *plays, rng=None):
    state, ev = act(state, {"type": "reveal", "plays": list(plays)}, rng)
    return state, ev[0]


def test_the_rules_setup_places_every_piece():
    """'Place 5 Journalists (J) of a single color in each of the corners, surrounding a 2x2 block on
    two sides' / 'Place 4 Protesters (P1-P4) in the center 2x2 block of the board' / 'Place 8
    Police Officers (o), each 2 spaces orthoganal from each of the Protesters' / 'Deal 3 cards to
    each player'."""
    s = tracked()
    board = s["board"]
    assert sorted(sq for piece, sq in board.items() if piece.startswith("red")) == ["a3", "b3", "c1", "c2", "c3"]
    assert sorted(sq for piece, sq in board.items() if piece.startswith("green")) == ["j10", "j11", "j12", "k10", "l10"]
    assert {p: board[p] for p in ("P1", "P2", "P3", "P4")} == {"P1": "f6", "P2": "g6", "P3": "g7", "P4": "f7"}
    assert sorted(board["O%d" % o] for o in range(1, 9)) == sorted(["f4", "g4", "i6", "i7", "g9", "f9", "d7", "d6"])
    assert len(board) == 20 + 4 + 8 and s["hands"] == [3, 3, 3, 3]
    view = game.view(s)
    assert view["board"]["vans"]["a1"] == 0 and view["board"]["vans"]["l12"] == 2
    assert view["board"]["rows"][5][5] == "P1" and view["actions_left"] is None


def test_a_card_moves_its_protester_toward_its_suits_side():
    """'The face value moves the Protester ... 1 = Ace, 2, or 3 / 2 = 4, 5, or 6 / 3 = 7, 8, or 9'
    and 'The suit dictates the direction of movement, toward the side labeled with that suit'.
    Which suit labels which side isn't said: the "sides" option, hearts on top by default."""
    s, ev = revealed(tracked(), play(2, 3, 5, "clubs"))
    assert ev["plays"][0]["moves"] == [["P3", "g7", "g8"]]                # clubs: down, 2 squares
    assert s["board"]["P3"] == "g8" and ev["plays"][0]["stopped"] == "blocked by Police Officer 5"
    s, ev = revealed(tracked(sides=["spades", "hearts", "diamonds", "clubs"]), play(0, 2, 4, "hearts"))
    assert ev["plays"][0]["way"] == "right" and s["board"]["P2"] == "h6"     # hearts on the right
    with pytest.raises(GameError, match="each of the four suits .* once, one for each side .*: hearts is on two sides"):
        tracked(sides=["hearts", "hearts", "clubs", "spades"])


def test_without_a_3_6_or_9_a_protester_stops_at_the_first_piece():
    """'Unless directed with a 3, 6, or 9 card, Protesters end their movement when they are blocked
    by any other piece on the board.'"""
    s, ev = revealed(tracked(), play(1, 2, "A", "spades"))
    assert s["board"]["P2"] == "g6" and ev["plays"][0]["moves"] == []
    assert ev["plays"][0]["stopped"] == "blocked by Protester 1"


def test_a_3_6_or_9_pushes_protesters_and_journalists_but_not_police():
    """'If the card value is 3, 6, or 9, Protesters will push other Protesters or Journalists in
    their way, but not Police Officers' / 'Pushing always happens in the direction of movement and
    only one square'."""
    s, ev = revealed(tracked(), play(1, 2, 3, "spades"))
    assert ev["plays"][0]["moves"] == [["P1", "f6", "e6"], ["P2", "g6", "f6"]]
    s, ev = revealed(tracked(), play(0, 1, 9, "hearts"))              # P1 up: f5, then Officer 1
    assert s["board"]["P1"] == "f5" and ev["plays"][0]["stopped"] == "blocked by Police Officer 1"
    s, ev = revealed(placed(tracked(), red1="e6", O8="d4"), play(0, 1, 3, "spades"))  # a Journalist
    assert s["board"]["P1"] == "e6" and s["board"]["red1"] == "d6"


def test_a_push_moves_one_piece_unless_the_option_pushes_the_line():
    """'Pushing always happens in the direction of movement and only one square': a second piece
    behind the first blocks by default; option protester_push: line pushes the whole line."""
    s, ev = revealed(placed(tracked(), red1="e6"), play(1, 2, 3, "spades"))
    assert s["board"]["P2"] == "g6" and ev["plays"][0]["stopped"] == "blocked by Protester 1"
    s, ev = revealed(placed(tracked(protester_push="line"), red1="e6", O8="d4"), play(1, 2, 3, "spades"))
    assert [s["board"][p] for p in ("P2", "P1", "red1")] == ["f6", "e6", "d6"]


def test_the_once_reading_pushes_a_piece_one_square_a_card():
    """The sentence read as how far a piece is pushed: by default Protester 2's 9 pushes Protester 1
    along all the way; under "once" Protester 1 goes one square, then blocks the move."""
    s, ev = revealed(placed(tracked(), O8="d4"), play(1, 2, 9, "spades"))
    assert [s["board"][p] for p in ("P2", "P1")] == ["d6", "c6"] and ev["plays"][0]["stopped"] is None
    s, ev = revealed(placed(tracked(protester_push="once"), O8="d4"), play(1, 2, 9, "spades"))
    assert [s["board"][p] for p in ("P2", "P1")] == ["f6", "e6"]
    assert ev["plays"][0]["stopped"] == "blocked by Protester 1, pushed a square already"


def test_no_piece_goes_off_the_board():
    """'No pieces may be pushed off the board.'"""
    s, ev = revealed(placed(tracked(), P1="b6"), play(0, 1, 9, "spades"))
    assert s["board"]["P1"] == "a6" and ev["plays"][0]["stopped"] == "the edge of the board"
    s, ev = revealed(placed(tracked(), P1="b6", red1="a6"), play(0, 1, 3, "spades"))
    assert s["board"]["P1"] == "b6" and s["board"]["red1"] == "a6"


def test_the_box_checks_the_camera_vans_and_there_can_be_several_winners():
    """'If there is a Protester in a Player's corner (the camera van), that Player wins and the game
    is over!' / 'There can be multiple winners.'"""
    s, ev = revealed(placed(tracked(), red2="e2", P1="c2", green4="h11", P3="j11"), play(0, 1, 2, "spades"), play(2, 3, "A", "diamonds"))
    assert ev["winners"] == [0, 2] and s["phase"] == "over"
    assert game.view(s)["winner_names"] == ["Ann", "Cat"] and game.offers(s) == []
    with pytest.raises(GameError, match="the box checks the camera vans itself"):
        game.decide(tracked(), {"type": "check", "winners": [1]}, random.Random(0))


def journalists(state, *plays):
    state, _ = revealed(state, *plays)
    assert state["phase"] == "journalists"
    return state


def test_three_actions_per_player_then_the_next_player():
    """'Each player has 3 actions - they can spend each action doing one of the following' and 'The
    player with the First Player badge takes their turn first, followed by the next three Players,
    in clockwise order.'"""
    s = journalists(tracked(first=1))
    assert game.view(s)["waiting_for"] == "Bob's Journalists' turn: 3 of 3 actions left"
    s, ev = act(s, {"type": "move", "player": 1, "from": "j3", "to": "i4"})
    s, ev = act(s, {"type": "move", "player": 1, "from": "i4", "to": "h4"})
    assert s["actions_left"] == 1 and s["journalist"] == 1
    s, ev = act(s, {"type": "move", "player": 1, "from": "h4", "to": "h5"})
    assert [e["type"] for e in ev] == ["journalist_moved", "journalist_done"]
    assert s["journalist"] == 2 and s["actions_left"] == 3
    with pytest.raises(GameError, match="Bob can't move a Journalist: it is Cat's Journalists' turn"):
        game.decide(s, {"type": "move", "player": 1, "from": "h5", "to": "h6"}, random.Random(0))
    s, ev = act(s, {"type": "end_turn", "player": 2})                 # the rest unspent
    assert s["journalist"] == 3


def test_a_journalist_steps_one_square_in_any_direction_or_orthogonally_by_option():
    """'Move 1 Journalist ... one square in any one direction'. Whether a diagonal is a direction
    isn't said: option journalist_step, "any" by default."""
    s = journalists(tracked())
    s, _ = act(s, {"type": "move", "player": 0, "from": "c3", "to": "d4"})
    assert s["board"]["red5"] == "d4"
    s = journalists(tracked(journalist_step="orthogonal"))
    with pytest.raises(GameError, match="Ann's Journalist on c3 can't go to d4: Journalists step orthogonally"):
        game.decide(s, {"type": "move", "player": 0, "from": "c3", "to": "d4"}, random.Random(0))
    # a diagonal push is no step either, and is refused as that, not as a blocked Protester
    s = journalists(placed(tracked(journalist_step="orthogonal"), P1="d4"))
    with pytest.raises(GameError, match="can't go to d4: Journalists step orthogonally in this game .*diagonal push"):
        game.decide(s, {"type": "move", "player": 0, "from": "c3", "to": "d4"}, random.Random(0))
    for bad, message in (({"from": "b3", "to": "c3"}, "can't go to c3: a Journalist of Ann's \\(red\\) is there"),
                         ({"from": "j3", "to": "i4"}, "Ann has no red Journalist on j3"),
                         ({"from": "c3", "to": "z9"}, "named a1 to l12"),
                         ({"from": "c3", "to": "h8"}, "or jumps to a square")):
        with pytest.raises(GameError, match=message):
            game.decide(journalists(tracked()), dict(bad, type="move", player=0), random.Random(0))


def test_a_journalist_pushes_a_protester_but_not_journalists_or_police():
    """'Players can push a Protester to move it one square in the direction of movement, but cannot
    push any Journalists or Police' / 'Protester movement is blocked by other Protesters,
    Journalists, or Police'."""
    s = journalists(placed(tracked(), red1="e6", P2="h2"))
    s, ev = act(s, {"type": "move", "player": 0, "from": "e6", "to": "f6"})
    assert ev[0]["how"] == "push" and s["board"]["red1"] == "f6" and s["board"]["P1"] == "g6"
    s = journalists(placed(tracked(), red1="e6"))                       # P2 behind P1
    with pytest.raises(GameError, match="Protester 1 can't be pushed that way"):
        game.decide(s, {"type": "move", "player": 0, "from": "e6", "to": "f6"}, random.Random(0))
    s = journalists(placed(tracked(), red1="f3"))
    with pytest.raises(GameError, match="Police Officer 1 is there"):
        game.decide(s, {"type": "move", "player": 0, "from": "f3", "to": "f4"}, random.Random(0))


def test_a_journalist_jumps_next_to_a_majority_of_its_own():
    """'to any square with at least 2 of the player's Journalists adjacent, but more of that
    player's Journalists than any other players' Journalists adjacent'."""
    s = journalists(tracked())
    s, ev = act(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"})     # c1, c2, c3 next to d2
    assert ev[0]["how"] == "jump" and s["board"]["red3"] == "d2"
    s = journalists(placed(tracked(), blue1="e1", blue2="e3"))                 # 3 red to 2 blue
    act(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"})
    s = journalists(placed(tracked(), blue1="e1", blue2="e3", blue3="e2"))     # 3 to 3
    with pytest.raises(GameError, match="can't go to d2: a Journalist steps one square, or jumps"):
        game.decide(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"}, random.Random(0))


def test_a_jumps_majority_is_over_each_other_player_or_all_together_by_option():
    """'more of that player's Journalists than any other players' Journalists adjacent' reads two
    ways: more than each other player has there (option jump_majority "each", newsdesk's default
    reading) or more than the others have together ("together")."""
    three_against_two_and_one = dict(blue1="e1", blue2="e3", green1="e2")      # red: c1, c2, c3 next to d2
    s = journalists(placed(tracked(), **three_against_two_and_one))
    _, ev = act(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"})
    assert ev[0]["how"] == "jump"
    s = journalists(placed(tracked(jump_majority="together"), **three_against_two_and_one))
    assert ("a3", "d2") not in rules.journalist_moves(s, 0)
    with pytest.raises(GameError, match="more of them than all the other colours' together"):
        game.decide(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"}, random.Random(0))
    s = journalists(placed(tracked(jump_majority="together"), blue1="e1", green1="e2"))     # 3 to 1 + 1
    act(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"})
    assert declared(rules.OPTIONS, "jump_majority")["default"] == "each"


def test_the_jumper_counts_only_by_option():
    """The rules don't say whether the Journalist that jumps counts among those adjacent: option
    jump_counts_mover, false by default. (Diagonal neighbours are jumps when steps are orthogonal.)"""
    s = placed(tracked(journalist_step="orthogonal"), red1="e5", red2="e6")
    s = journalists(s)                            # d5 -> e4? e4 has e5 and d5 (the jumper) next to it
    s = placed(s, red3="d5")
    with pytest.raises(GameError, match="can't go to e4"):
        game.decide(s, {"type": "move", "player": 0, "from": "d5", "to": "e4"}, random.Random(0))
    s2 = journalists(placed(tracked(journalist_step="orthogonal", jump_counts_mover=True), red1="e5", red2="e6"))
    act(placed(s2, red3="d5"), {"type": "move", "player": 0, "from": "d5", "to": "e4"})


def test_adjacent_counts_the_diagonals_whichever_step_and_the_table_is_told():
    """'at least 2 of the player's Journalists adjacent': adjacent is the eight squares around,
    diagonals too, even where a Journalist steps only orthogonally: a reading the rules don't
    make, so the start form's hint and docs/games.md say it is newsdesk's (they said nothing)."""
    s = journalists(tracked(journalist_step="orthogonal"))
    s, ev = act(s, {"type": "move", "player": 0, "from": "a3", "to": "d2"})     # c1 and c3 touch d2 diagonally
    assert ev[0]["how"] == "jump"
    hint = declared(rules.OPTIONS, "jump_counts_mover")["help"]
    assert "diagonals too" in hint and "newsdesk's reading" in hint


def test_drawing_is_an_action_discarding_is_not_and_hands_hold_three():
    """'Players can have no more than 3 cards in their hand' / 'Players may discard in order to draw
    - discarding does not count as an action'. Each card played is gone: 'Cards are then discarded
    next to the deck'."""
    s = journalists(tracked(), play(1, 2, 2, "hearts"))
    assert s["hands"] == [3, 2, 3, 3]
    with pytest.raises(GameError, match="Ann holds 3 cards and may hold no more than 3: discard one to draw"):
        game.decide(s, {"type": "draw", "player": 0}, random.Random(0))
    with pytest.raises(GameError, match="Ann holds 3 cards: discard 0 to 3"):
        game.decide(s, {"type": "draw", "player": 0, "discard": 4}, random.Random(0))
    s, ev = act(s, {"type": "draw", "player": 0, "discard": 2})
    assert s["hands"][0] == 2 and s["actions_left"] == 2
    s, _ = act(s, {"type": "end_turn", "player": 0})
    s, _ = act(s, {"type": "draw", "player": 1})
    assert s["hands"][1] == 3


def test_a_turn_discards_no_more_than_three_cards():
    """'they can change their hand of cards by (drawing and discarding no more than 3 cards)':
    three actions draw three cards at most, and the free discards stop at three too."""
    s = journalists(tracked())
    s, _ = act(s, {"type": "draw", "player": 0, "discard": 3})
    assert s["hands"][0] == 1
    with pytest.raises(GameError, match="Ann has discarded 3 cards this turn: a turn discards no more than 3"):
        game.decide(s, {"type": "draw", "player": 0, "discard": 1}, random.Random(0))
    s, _ = act(s, {"type": "draw", "player": 0})
    s, _ = act(s, {"type": "draw", "player": 0})
    assert s["hands"][0] == 3 and s["journalist"] == 1
    assert game.view(s)["discards_left"] == 3       # Bob's turn: the panel lists what his turn may still discard
    s, _ = act(s, {"type": "draw", "player": 1, "discard": 2})
    assert game.view(s)["discards_left"] == 1
    with pytest.raises(GameError, match="Bob has discarded 2 cards this turn: a turn discards no more than 3"):
        game.decide(s, {"type": "draw", "player": 1, "discard": 2}, random.Random(0))
    s, _ = act(s, {"type": "draw", "player": 1, "discard": 1})
    s, _ = act(s, {"type": "draw", "player": 1})
    assert s["hands"][1] == 3 and s["journalist"] == 2
    # three cards in hand and three discarded: no draw is offered, and one is refused saying why
    s, _ = act(s, {"type": "draw", "player": 2, "discard": 3})
    s, _ = act(s, {"type": "draw", "player": 2})
    s = dict(s, hands=[3, 3, 3, 3])
    assert not [o for o in game.offers(s) if o["type"] == "draw"]
    with pytest.raises(GameError, match="Cat holds 3 cards and has discarded 3 this turn"):
        game.decide(s, {"type": "draw", "player": 2}, random.Random(0))


def test_a_player_without_cards_cannot_direct_a_protester():
    """'Each player may choose 1 card to direct a Protester' -- from the hand, which may be empty."""
    s = dict(tracked(), hands=[0, 3, 3, 3])
    with pytest.raises(GameError, match="Ann has no card in hand to play"):
        game.decide(s, {"type": "reveal", "plays": [play(0, 1, 2, "hearts")]}, random.Random(0))


def police_turn(state):
    state = journalists(state)
    for k in range(4):
        state, _ = act(state, {"type": "end_turn", "player": (state["first"] + k) % 4})
    return state


def test_the_police_push_lines_and_are_blocked_at_the_edge():
    """'Police Officers push any number of Protesters and/or Journalists if they are in the way' /
    'Non-Police pieces pushed by Police will push other pieces.' / 'If the line of Journalists and
    Protesters have already reached the edge of the board, the police are blocked.' / 'Other
    Police Officers will continue to move clockwise, until blocked in this manner or by other
    Police Officers.'"""
    s = police_turn(placed(tracked(), red1="h4", P2="i4"))
    s, ev = act(s, {"type": "police", "player": 0})
    assert [s["board"][p] for p in ("O1", "O2", "red1", "P2")] == ["g4", "h4", "i4", "j4"]
    s = police_turn(placed(tracked(), red1="h4", red2="i4", red3="j4", red4="k4", red5="l4"))
    s, ev = act(s, {"type": "police", "player": 0})
    assert ev[0]["blocked"] == ["O1", "O2"] and [s["board"][p] for p in ("O1", "O2")] == ["f4", "g4"]
    assert s["board"]["O3"] == "i7" and s["board"]["O4"] == "i8"       # the others went on
    assert "Officers 1 and 2 blocked" in game.describe(s, {}, ev)


def test_an_old_game_stored_before_the_box_kept_the_board_replays_as_the_tables():
    """A store written by an earlier version holds a setup without "rules": it goes on as before."""
    ev = game.setup([{"name": n} for n in NAMES], {})[0]
    del ev["rules"]
    s = game.apply(game.initial(), ev)
    s, _ = act(s, {"type": "reveal", "plays": [play(0, 1, 2, "hearts")]})
    assert s["phase"] == "check" and game.view(s)["board"] is None
    with pytest.raises(GameError, match="the table keeps the board"):
        game.decide(dict(s, phase="journalists", journalist=0), {"type": "move", "player": 0}, random.Random(0))


@pytest.mark.parametrize("options,message", [
    ({"board": "box"}, "board is one of tracked, table, not 'box'"),
    ({"journalist_step": "diagonal"}, "journalist_step is one of any, orthogonal"),
    ({"protester_push": 2}, "protester_push is one of one, once, line"),
    ({"jump_counts_mover": 1}, "jump_counts_mover is one of false, true, not 1"),
    ({"sides": "hearts"}, "“Which suit labels each side of the board” takes each of the four suits "
                          r"\(hearts, diamonds, clubs, spades\) once, one for each side \(top, right, bottom, left\): "
                          "not 'hearts'"),
])
def test_the_new_options_are_checked(options, message):
    with pytest.raises(GameError, match=message):
        game.setup([{"name": n} for n in NAMES], options)


def test_a_whole_four_player_game_from_the_rules_setup():
    """A whole game, the board kept by the box, worked by hand from the rule text: three rounds
    from the rules' setup (Ann red top-left, Bob blue, Cat green, Dan white, clockwise; hearts on
    top, diamonds right, clubs bottom, spades left), to Ann's win."""
    s = tracked(first=0)
    # Round 1, Protesters' turn: 'resolved in the order of lowest number Protester to highest'.
    s, ev = revealed(s, play(0, 1, 9, "hearts"), play(1, 2, 5, "spades"), play(2, 3, 2, "clubs"))
    p1, p2, p3 = ev["plays"]
    assert p1["moves"] == [["P1", "f6", "f5"]] and p1["stopped"] == "blocked by Police Officer 1"  # no pushing police
    assert p2["moves"] == [["P2", "g6", "f6"], ["P2", "f6", "e6"]]     # f6 is free: P1 went first
    assert p3["moves"] == [["P3", "g7", "g8"]] and ev["abstained"] == [3] and ev["winners"] == []
    assert s["hands"] == [2, 2, 2, 3]
    # Journalists' turn: Ann (the badge) steps twice and draws: her third action ends her turn.
    s, _ = act(s, {"type": "move", "player": 0, "from": "c3", "to": "d4"})
    s, _ = act(s, {"type": "move", "player": 0, "from": "d4", "to": "d5"})
    s, ev = act(s, {"type": "draw", "player": 0})
    assert [e["type"] for e in ev] == ["drew", "journalist_done"] and s["journalist"] == 1
    s, _ = act(s, {"type": "end_turn", "player": 1})                 # Bob bides his time
    s, ev = act(s, {"type": "move", "player": 2, "from": "j12", "to": "k9"})   # j10, k10, l10 next to k9
    assert ev[0]["how"] == "jump"
    s, _ = act(s, {"type": "end_turn", "player": 2})
    s, _ = act(s, {"type": "draw", "player": 3, "discard": 1})       # discarding is free
    s, _ = act(s, {"type": "end_turn", "player": 3})
    assert s["phase"] == "police" and s["hands"] == [3, 2, 2, 3]
    # Police: '1 & 2 move 1 square Right / 5 & 6 ... Left / 3 & 4 ... Down / 7 & 8 ... Up'; Officer
    # 8 going up from d6 pushes Ann's Journalist on d5 to d4.
    s, ev = act(s, {"type": "police", "player": 0})
    board = s["board"]
    assert [board["O%d" % o] for o in range(1, 9)] == ["g4", "h4", "i7", "i8", "f9", "e9", "d6", "d5"]
    assert ["red5", "d5", "d4"] in ev[0]["shoves"] and board["red5"] == "d4"
    assert s["first"] == 1 and s["round"] == 2                       # the badge passed clockwise
    # Round 2: Ann and Dan both direct Protester 1; the box draws their order, and records it.
    before = s
    s, ev = revealed(s, play(0, 1, 8, "hearts"), play(3, 1, "A", "spades"), play(1, 2, 4, "clubs"),
                     rng=random.Random(5))
    order = ev["orders"][0]
    assert order["protester"] == 1 and order["how"] == "drawn" and sorted(order["players"]) == [0, 3]
    # Either order ends on e2: up 3 from f5 to f2 then left to e2, or left to e5 then up 3 to e2.
    assert s["board"]["P1"] == "e2" and s["board"]["P2"] == "e8"
    for agreed in ([0, 3], [3, 0]):
        other, _ = act(before, {"type": "reveal", "order": {"1": agreed},
                                "plays": [play(0, 1, 8, "hearts"), play(3, 1, "A", "spades")]})
        assert other["board"]["P1"] == "e2"
    for k in (1, 2, 3):
        s, _ = act(s, {"type": "end_turn", "player": k})
    s, _ = act(s, {"type": "draw", "player": 0})
    s, _ = act(s, {"type": "end_turn", "player": 0})
    # The second police step ("they move diagonally, clockwise": newsdesk's default table);
    # Officer 5 going up-left from f9 pushes Protester 2 from e8 to d7.
    s, ev = act(s, {"type": "police", "player": 1})
    assert ev[0]["step"] == 2 and ["P2", "e8", "d7"] in ev[0]["shoves"]
    assert s["first"] == 2
    # Round 3: Ann's 9 of spades walks Protester 1 left, pushing her own Journalist out of her van's
    # way ('Protesters will push other Protesters or Journalists in their way') -- into the van.
    s, ev = revealed(s, play(0, 1, 9, "spades"), play(1, 4, 2, "hearts"))
    assert ev["plays"][0]["moves"] == [["P1", "e2", "d2"], ["red2", "c2", "b2"], ["P1", "d2", "c2"],
                                       ["red2", "b2", "a2"], ["P1", "c2", "b2"]]
    assert ev["winners"] == [0] and s["phase"] == "over" and game.view(s)["winner_names"] == ["Ann"]
    assert "Ann wins" in game.describe(s, {}, [ev])


def test_a_whole_game_on_the_boxs_board_with_every_other_option_changed():
    """The box keeps the board (its default) while every other option is the table's choice: Cat
    has the First Player badge, Journalists step orthogonally, a pushing Protester pushes the
    whole line, the jumper counts among its neighbours, the suits label the sides spades (top),
    hearts (right), diamonds (bottom), clubs (left), and the police walk outward by the table's
    own one-step table. Cat walks Protester 3 into her camera van (bottom-right) and wins."""
    table = [{"1": "up", "2": "up", "3": "right", "4": "right", "5": "down", "6": "down", "7": "left", "8": "left"}]
    options = dict(first=2, board="tracked", journalist_step="orthogonal", protester_push="line",
                   jump_counts_mover=True, sides=["spades", "hearts", "diamonds", "clubs"], police_table=table)
    entries = [(0, {"type": "setup", "events": game.setup([{"name": n} for n in NAMES], options)})]
    s = fold(game, entries)

    def step(state, action):
        state, events = act(state, action)
        entries.append((len(entries), {"type": action["type"], "events": events}))
        return state, events

    def cat_directs_protester_3(state, rank, suit):
        state, events = step(state, {"type": "reveal", "plays": [play(2, 3, rank, suit)]})
        return state, events[0]["plays"][0]

    def the_others_pass_and_the_police_move(state):
        """The Journalists' turn (Cat draws a card if she has room; the others pass), then the
        police by the table's step."""
        while state["phase"] == "journalists":
            p = state["journalist"]
            if p == 2 and state["hands"][2] < 3:
                state, _ = step(state, {"type": "draw", "player": 2})
            if state["phase"] == "journalists" and state["journalist"] == p:
                state, _ = step(state, {"type": "end_turn", "player": p})
        badge = state["first"]
        state, events = step(state, {"type": "police", "player": badge})
        assert state["first"] == (badge + 1) % 4                 # the badge passes clockwise
        return state, events[0]

    # Round 1: hearts label the right side, so the 7 of hearts sends Protester 3 right, 3 squares,
    # until Police Officer 4 stands in its way (a 7 doesn't push).
    s, moved = cat_directs_protester_3(s, 7, "hearts")
    assert moved["way"] == "right" and moved["moves"] == [["P3", "g7", "h7"]]
    assert moved["stopped"] == "blocked by Police Officer 4"
    # Cat holds the badge, so her Journalists go first. A diagonal is no step here; from j11 to
    # i10 is a jump, allowed because the jumper counts: j10 and the jumper itself are next to i10.
    assert game.view(s)["waiting_for"].startswith("Cat's Journalists' turn")
    with pytest.raises(GameError, match="Journalists step orthogonally"):
        game.decide(s, {"type": "move", "player": 2, "from": "j10", "to": "i9"}, random.Random(0))
    s, events = step(s, {"type": "move", "player": 2, "from": "j11", "to": "i10"})
    assert events[0]["how"] == "jump"
    s, _ = step(s, {"type": "move", "player": 2, "from": "l10", "to": "l11"})
    s, events = step(s, {"type": "move", "player": 2, "from": "l11", "to": "k11"})   # her third action
    assert [e["type"] for e in events] == ["journalist_moved", "journalist_done"] and s["journalist"] == 3
    assert s["hands"][2] == 2                                    # no action left to draw with
    s, police = the_others_pass_and_the_police_move(s)
    assert ["O1", "f4", "f3"] in police["shoves"] and ["O4", "i7", "j7"] in police["shoves"]   # the table's "up", "right"
    # Rounds 2-4: right as far as Officer 4 lets it, to k7 once the officer stands at the edge.
    for rank in (9, 4, 3):
        s, moved = cat_directs_protester_3(s, rank, "hearts")
        s, police = the_others_pass_and_the_police_move(s)
    assert s["board"]["P3"] == "k7" and s["board"]["O4"] == "l7"
    # Round 5: diamonds label the bottom: down, until Cat's own Journalist on k10 blocks it.
    s, moved = cat_directs_protester_3(s, 7, "diamonds")
    assert moved["way"] == "down" and s["board"]["P3"] == "k9"
    assert moved["stopped"] == "blocked by a Journalist of Cat's (green)"
    s, _ = the_others_pass_and_the_police_move(s)
    # Round 6: a 6 pushes, and with protester_push "line" it shoves the whole line of Cat's two
    # Journalists on k10 and k11 down one square, then the line meets the board's edge.
    s, moved = cat_directs_protester_3(s, 6, "diamonds")
    assert moved["moves"][:3] == [["green3", "k11", "k12"], ["green2", "k10", "k11"], ["P3", "k9", "k10"]]
    assert s["board"]["P3"] == "k10" and s["winners"] == []
    s, _ = the_others_pass_and_the_police_move(s)
    # Round 7: an ace of hearts to l10 (Cat's Journalist left it in round 1); round 8: an ace of
    # diamonds into l11, a square of her camera van: Cat wins.
    s, moved = cat_directs_protester_3(s, "A", "hearts")
    assert s["board"]["P3"] == "l10"
    s, _ = the_others_pass_and_the_police_move(s)
    s, moved = cat_directs_protester_3(s, "A", "diamonds")
    assert moved["moves"] == [["P3", "l10", "l11"]]
    assert s["winners"] == [2] and s["phase"] == "over" and game.view(s)["winner_names"] == ["Cat"]
    assert "Cat wins" in game.describe(s, {}, [entries[-1][1]["events"][0]])
    assert fold(game, entries) == s                              # the stored events give the same game


def test_a_protester_shoved_into_a_van_wins_if_it_stays_through_the_protesters_turn():
    """'The goal is to get one Protester to your camera van and not have it leave during the
    Protesters' turn.' / 'Check to see if anyone won!' comes after the Protesters move."""
    s = journalists(placed(tracked(), red2="e2", P1="c2", red1="d3"))
    s, ev = act(s, {"type": "move", "player": 0, "from": "d3", "to": "c2"})     # pushed up-left into b1
    assert ev[0]["how"] == "push" and s["board"]["P1"] == "b1" and s["winners"] == []
    for _k in (0, 1, 2, 3):
        if s["phase"] == "journalists":
            s, _ = act(s, {"type": "end_turn", "player": s["journalist"]})
    s, _ = act(s, {"type": "police", "player": 0})
    assert s["winners"] == [] and s["board"]["P1"] == "b1"
    s, ev = revealed(s)                                                         # nobody moves it
    assert ev["winners"] == [0] and game.view(s)["winner_names"] == ["Ann"]


def test_an_option_given_as_null_takes_its_default():
    """The start form and the API send null for an option left alone: the documented default."""
    ev = game.setup([{"name": n} for n in NAMES], {k: None for k in rules.DEFAULTS})[0]
    assert ev["rules"] == {"board": "tracked", "journalist_step": "any", "protester_push": "one",
                           "jump_counts_mover": False, "jump_majority": "each",
                           "sides": ["hearts", "diamonds", "clubs", "spades"]}
    assert ev["first"] == 0 and ev["police_table"][0]["1"] == "right"


def test_the_undo_bar_says_each_journalist_action_and_what_is_left():
    """Each of the 'three actions' gets its sentence, with the actions left, for the Undo button."""
    s = journalists(placed(tracked(), red1="e6", P2="h2"))
    said = []
    for action in ({"type": "move", "player": 0, "from": "e6", "to": "f6"},
                   {"type": "move", "player": 0, "from": "a3", "to": "d2"},
                   {"type": "draw", "player": 0, "discard": 1}):
        before = s
        s, ev = act(s, action)
        said.append(game.describe(before, action, ev))
    assert said == ["Ann: a Journalist stepped e6 to f6, pushing Protester 1 to g6 (2 actions left)",
                    "Ann: a Journalist jumped a3 to d2 (1 action left)",
                    "Ann discarded 1 and drew a card (0 actions left); Ann's Journalists' turn is over"]


LONG = "1" * 5000       # past the 4,300 digits Python's int() reads: a ValueError, not a refusal


@pytest.mark.parametrize("action", [
    {"type": "end_turn", "player": LONG}, {"type": "draw", "player": "0" * 4999 + "1"},
    {"type": "move", "player": 0, "from": "a" + LONG, "to": "b2"},
    {"type": "move", "player": 0, "from": "f4", "to": "f" + "0" * 4999 + "5"},
    {"type": "reveal", "plays": [{"player": LONG, "protester": 1, "rank": "A", "suit": "hearts"}]},
    {"type": "reveal", "plays": [{"player": 0, "protester": LONG, "rank": "A", "suit": "hearts"}]},
])
def test_a_number_of_thousands_of_digits_is_refused_with_a_sentence(action):
    with pytest.raises(GameError):
        game.decide(start(), action, random.Random(0))


def test_the_police_table_setup_takes_is_the_one_its_declaration_allows():
    """The option's declared schema and setup take the same number of steps at most."""
    (declared,) = [o for o in rules.OPTIONS if o["name"] == "police_table"]
    most = declared["schema"]["maxItems"]
    assert most >= len(rules.DEFAULT_POLICE_TABLE)
    start(police_table=[rules.DEFAULT_POLICE_TABLE[0]] * most)
    with pytest.raises(GameError, match="police_table"):
        start(police_table=[rules.DEFAULT_POLICE_TABLE[0]] * (most + 1))


def test_a_police_table_seat_of_thousands_of_digits_is_refused_with_a_sentence():
    with pytest.raises(GameError):
        start(police_table=[{LONG: "up"}])


def test_a_bluff_spends_a_card_and_moves_no_one():
    """'The players place 1 card face down and turn their d4 ... (not putting down the die at all
    if the player wants to bluff and abstain)', and 'Cards are then discarded next to the deck':
    a bluffer's card goes to the discards though it directs no Protester; a player who puts down
    nothing keeps every card."""
    before = tracked(first=0)
    action = {"type": "reveal", "plays": [play(0, 1, 9, "hearts"), {"player": 2, "bluff": True}]}
    s, ev = act(before, action)
    (reveal,) = [e for e in ev if e["type"] == "revealed"]
    assert [c["player"] for c in reveal["plays"]] == [0]
    assert reveal["bluffed"] == [2] and reveal["abstained"] == [1, 2, 3]
    assert s["hands"] == [2, 3, 2, 3]
    said = game.describe(before, action, ev)
    assert said.endswith("on Protester 1), and Cat bluffed"), said       # not "...) (Cat bluffed)"
    assert ") (" not in said
    with pytest.raises(GameError, match="bluff"):      # a bluff with a Protester is no bluff
        act(tracked(), {"type": "reveal", "plays": [dict(play(2, 1, 9, "hearts"), bluff=True)]})
    empty = dict(tracked(), hands=[3, 3, 0, 3])
    with pytest.raises(GameError, match="no card in hand"):
        act(empty, {"type": "reveal", "plays": [{"player": 2, "bluff": True}]})
    # the table keeps the board: the bluff is recorded all the same
    t, ev = act(start(), {"type": "reveal", "plays": [{"player": 1, "bluff": True}]})
    assert ev[0]["bluffed"] == [1]


def test_a_protester_already_in_a_van_wins_and_is_said_even_when_none_was_directed():
    """'Check to see if anyone won! If there is a Protester in a Player's corner (the camera van),
    that Player wins': a round where nobody directs a Protester (all bluff, or none plays) still
    tells the table who won."""
    s = placed(tracked(), P3="k12")                             # shoved into Cat's van
    for plays in ([], [{"player": 0, "bluff": True}]):
        ev = game.decide(s, {"type": "reveal", "plays": plays}, random.Random(0))
        assert ev[0]["winners"] == [2]
        assert "a Protester is in Cat's camera van: Cat wins" in game.describe(s, {}, ev)
