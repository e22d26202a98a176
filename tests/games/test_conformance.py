"""The conformance kit (controller/games/conformance.py): every installed game keeps every rule
of the contract, whichever games are installed (none is named here), the model game of
docs/new-game.md keeps them all, and each rule catches the game that breaks it, saying which rule
and how to meet it."""

import dataclasses
import random
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from controller.games import base, conformance, registry
from controller.games.game import SAID_MOST
from controller.games.kit import RULES, GameError, Kit, Unreached

SIXTH = Path(__file__).resolve().parents[1] / "sixth_game"
_KITS: dict[str, Kit] = {}


def kit_of(name):
    """One Kit per installed game, shared by its rules' tests (the game is played once)."""
    if name not in _KITS:
        _KITS[name] = Kit(registry.load(name))
    return _KITS[name]


@pytest.mark.parametrize("rule", [r.name for r in RULES])
@pytest.mark.parametrize("name", registry.names())
def test_every_installed_game_keeps_every_rule(name, rule):
    try:
        found = kit_of(name).findings(rule)
    except Unreached as e:
        pytest.skip(str(e))
    assert found == [], "\n".join(map(str, found))


@pytest.fixture
def model(monkeypatch):
    """docs/new-game.md's model game, Race to Three (tests/sixth_game), importable."""
    monkeypatch.syspath_prepend(str(SIXTH))
    import race_to_three
    yield race_to_three
    sys.modules.pop("race_to_three", None)


def test_the_model_game_keeps_every_rule_and_is_played_to_its_end(model):
    kit = Kit(model.GAME)
    found, unreached = kit.check()
    assert (found, unreached) == ([], [])
    assert model.GAME.result(kit.played().states[-1])["over"]


def test_a_sixth_game_registered_beside_the_others_goes_through_the_kit(model, monkeypatch):
    """Installed as a plug-in (an entry point in newsdesk.games), the registry finds it after the
    others, and the kit over every installed game takes it in."""
    points = [ep for eps in registry._declared().values() for ep in eps if ep.name != "race_to_three"]
    sixth = EntryPoint(name="race_to_three", value="race_to_three:GAME", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: points + [sixth])
    registry.forget()
    try:
        assert registry.names()[-1] == "race_to_three"
        game = registry.load("race_to_three")
        assert game is model.GAME
        assert Kit(game).check() == ([], [])
    finally:
        monkeypatch.undo()
        registry.forget()


def _refuse(sentence):
    raise GameError(sentence)


def _point(state, event):
    """Race to Three's apply for a point, changing the state it is given (what "pure" forbids)."""
    state["players"][event["player"]]["points"] += 1
    return state


# (rule, how the model game is broken to break it)
BREACHES = [
    ("declaration", lambda g, m: dict(name="Race to 3")),
    ("seats", lambda g, m: dict(min_players=0)),
    ("options", lambda g, m: dict(options=(dict(g.options[0], rule=""),))),
    ("options", lambda g, m: dict(options=(dict(g.options[0], default=99),))),
    ("setup-options", lambda g, m: dict(setup=lambda players, options: g.setup(players, None))),
    ("setup-options", lambda g, m: dict(setup=lambda players, options: _refuse("target must be 1-9")
                                        if (options or {}).get("target", 3) not in range(1, 10) else
                                        g.setup(players, options))),
    ("setup-players", lambda g, m: dict(setup=lambda players, options: [
        {"type": "setup", "players": ["Ann", "Bob"], "target": 3}])),
    ("panel", lambda g, m: dict(panel={"scores": "points"})),
    ("panel", lambda g, m: dict(panel={"score": "points", "listens": ["doorbell"]})),
    ("not-set-up", lambda g, m: dict(decide=lambda s, a, rng: [] if s["started"] else _refuse("not yet"))),
    ("guard", lambda g, m: dict(decide=lambda s, a, rng: [{"type": "point", "player": 0}])),
    ("offers", lambda g, m: dict(offers=lambda s: [dict(o, enter=["margin"]) for o in g.offers(s)])),
    ("pure", lambda g, m: dict(apply=lambda s, ev: g.apply(s, ev) if ev["type"] == "setup" else _point(s, ev))),
    ("json", lambda g, m: dict(setup=lambda players, options: [
        dict(ev, players=tuple(ev["players"])) for ev in g.setup(players, options)])),
    ("view", lambda g, m: dict(view=lambda s: dict(g.view(s), game=None))),
    ("view", lambda g, m: dict(view=lambda s: dict(g.view(s), waiting_for=["tap"]))),
    # a key of the game's own the box overwrites with result()'s answer before the screen sees it
    ("view", lambda g, m: dict(view=lambda s: dict(g.view(s), result="Ann leads"))),
    ("result", lambda g, m: dict(result=lambda s: dict(g.result(s), winners=[p["name"] for p in s["players"][:1]]))),
    ("result", lambda g, m: dict(result=lambda s: base.result_of(g.result(s)["over"], [
        (r["name"], r["score"], r["winner"]) for r in g.result(s)["standings"]], {"score": "money"}))),
    ("words", lambda g, m: dict(describe=lambda s, a, evs: 5)),
    ("end", lambda g, m: dict(offers=lambda s: [{"type": "point", "player": 0}] if s["started"] else [])),
    # an option the start form would show empty, and setup() read as nothing
    ("options", lambda g, m: dict(options=(dict(g.options[0], default=None),))),
    # an offer its own rules refuse, however the table fills it in
    ("offers", lambda g, m: dict(offers=lambda s: [dict(o, type="score") for o in g.offers(s)])),
    ("offers", lambda g, m: dict(offers=lambda s: [{"type": "point", "enter": ["player"], "choices": {"player": [9]}}]
                                 if s["started"] else [])),
    # an offer decide() takes and does nothing with: each tap a move that changes nothing
    ("offers", lambda g, m: dict(decide=lambda s, a, rng: g.decide(s, a, rng) and [])),
    # words for a field the offer doesn't ask for
    ("offers", lambda g, m: dict(offers=lambda s: [dict(o, labels={"margin": "By how much"}) for o in g.offers(s)])),
    # a field read without a look: int("x") or a missing key, not a refusal the table can read
    ("fields", lambda g, m: dict(decide=lambda s, a, rng: g.decide(
        s, dict(a, player=int(a["player"])) if isinstance(a, dict) and a.get("type") == "point" else a, rng))),
]


@pytest.mark.parametrize("rule, breach", BREACHES, ids=["%s-%d" % (b[0], n) for n, b in enumerate(BREACHES)])
def test_each_rule_catches_the_game_that_breaks_it_and_says_how_to_meet_it(model, rule, breach):
    broken = dataclasses.replace(model.GAME, **breach(model.GAME, model))
    found = Kit(broken).findings(rule)
    assert found, "the kit let a game breaking %r through" % rule
    said = str(found[0])
    assert said.startswith(broken.name + " breaks the rule “" + conformance.BY_NAME[rule].says + "” (%s): " % rule)
    assert said.endswith("To meet it: " + conformance.BY_NAME[rule].how)


def test_a_game_whose_call_outlasts_the_box_is_said_at_once_not_played_for_minutes(model):
    """A view that slept 2 s took the kit 121 calls, four minutes, and said nothing of it; timed
    (the pytest plug-in gives the kit a clock), the first slow call ends the play, said by every
    rule that needs it."""
    now = [0.0]

    def slow_view(state):
        now[0] += conformance.SLOW_S + 1        # the clock the kit reads moves on as if it slept
        return model.GAME.view(state)
    slow = dataclasses.replace(model.GAME, view=slow_view)
    kit = Kit(slow, clock=lambda: now[0])
    found = kit.findings("play")
    assert found and "view() took 2.0 s, given 'the state just set up'" in str(found[0]), found
    assert now[0] < 10                           # one call, not a play's worth
    assert Kit(model.GAME, clock=lambda: now[0]).findings("offers") == []    # a game that answers at once


def test_a_rule_about_a_finished_game_is_unreached_not_passed_when_no_play_ends_it(model):
    endless = dataclasses.replace(model.GAME, offers=lambda s: [])
    with pytest.raises(Unreached, match="did not end a game of Race to Three; give the kit a finished game's moves"):
        Kit(endless).findings("end")
    ending = [{"type": "point", "player": 1}] * 3
    assert Kit(endless, ending=ending).findings("end") == []


def test_a_game_that_crashes_is_a_finding_not_a_crash_of_the_kit(model):
    def setup(players, options):
        raise KeyError("target")
    found = Kit(dataclasses.replace(model.GAME, setup=setup)).findings("play")
    assert "setting up and playing it failed: setup() raised KeyError: 'target', given {}" in str(found[0])


def test_an_event_holding_a_set_is_said_to_be_not_plain_json(model):
    g = model.GAME
    decide = lambda s, a, rng: [dict(ev, seen={1}) for ev in g.decide(s, a, rng)]     # noqa: E731
    (found,) = Kit(dataclasses.replace(g, decide=decide)).findings("json")
    assert "is not plain JSON (a set, a tuple, a number JSON can't hold...)" in str(found)


def test_an_apply_that_fails_in_play_is_named_with_the_event_it_failed_on(model):
    g = model.GAME

    def apply(state, event):
        if event["type"] == "point":
            raise ValueError("six!")
        return g.apply(state, event)
    found = Kit(dataclasses.replace(g, apply=apply)).findings("play")
    assert "setting up and playing it failed: apply() raised ValueError: six!, given {'type': 'point'" in str(found[0])


def test_an_apply_that_changes_the_state_it_was_given_is_told_so_and_nothing_else(model):
    """The kit plays the game once and keeps each state it went through: kept as copies, an
    apply that writes into the state it was given (and hands back a new dict around it) is caught
    by "pure" for what it is, and doesn't make the other rules see a game that looks over."""
    g = model.GAME
    writes_in = dataclasses.replace(g, apply=lambda s, ev: g.apply(s, ev) if ev["type"] == "setup" else dict(_point(s, ev)))
    kit = Kit(writes_in)
    pure = [str(f) for f in kit.findings("pure")]
    assert len(pure) == 1 and "apply() changed the state it was given, for event {'type': 'point'" in pure[0]
    assert kit.findings("guard") == [] and kit.findings("result") == []


def test_a_seat_the_box_plays_is_a_row_of_the_result_beside_the_players(model):
    """A game that seats an opponent of its own (Scoop!'s N. Ickel) lists it in its standings
    beside the players the table gave, marked "automated": the result rule takes that row, and
    still catches one that no player's name stands behind."""
    g = model.GAME

    def with_box(automated):
        def result(s):
            r = g.result(s)
            rows = [(x["name"], x["score"], x["winner"]) for x in r["standings"]] + [("The Box", 0, False)]
            return base.result_of(r["over"], rows, {"score": r["score_kind"]}, automated=automated)
        return dataclasses.replace(g, result=result)

    assert Kit(with_box(["The Box"])).findings("result") == []
    (found,) = Kit(with_box([])).findings("result")
    assert "its standings list" in found.seen and "The Box" in found.seen


def test_an_offer_its_own_rules_refuse_is_said_with_their_sentence(model):
    g = model.GAME
    offers = lambda s: [{"type": "point", "enter": ["player"], "choices": {"player": [9]}}] if s["started"] else []  # noqa: E731
    (found,) = Kit(dataclasses.replace(g, offers=offers)).findings("offers")
    assert found.seen == ("its point offer is refused by its own rules: say which player: \"player\" is a seat "
                          "number 0-1, not 9 (filled in as %s)" % base.quoted({"type": "point", "player": 9}))


def test_a_field_that_makes_decide_raise_other_than_a_game_error_is_named_with_what_was_sent(model):
    g = model.GAME

    def decide(s, a, rng):
        if isinstance(a, dict) and a.get("type") == "point":
            a = dict(a, player=int(a["player"]))
        return g.decide(s, a, rng)
    (found,) = Kit(dataclasses.replace(g, decide=decide)).findings("fields")
    assert found.seen == ("sent its point offer without its player, decide() raised KeyError: 'player', "
                          "not a GameError")


def test_an_offers_labels_are_how_to_ask_never_part_of_the_move(model):
    """An offer may name its own fields ("labels": {field: words}, where two boxes shown at once
    would share the panel facts' one label): the kit fills it in as the panel does, without them,
    and finds labels for a field the offer doesn't enter, or labels that are no words."""
    g = model.GAME
    offer = {"type": "point", "player": 0, "enter": ["player"], "choices": {"player": [0, 1]},
             "labels": {"player": "Who scores this point"}}
    action = conformance.fill(g, offer, random.Random(0))
    assert set(action) == {"type", "player"}
    labelled = lambda s: [dict(o, enter=["player"], choices={"player": [o["player"]]},  # noqa: E731
                               labels={"player": "Who scores"}) for o in g.offers(s)]
    assert Kit(dataclasses.replace(g, offers=labelled)).findings("offers") == []
    for bad in ({"margin": "By how much"}, {"player": ""}, ["player"]):
        wrong = lambda s, bad=bad: [dict(o, labels=bad) for o in labelled(s)]  # noqa: E731
        (found,) = Kit(dataclasses.replace(g, offers=wrong)).findings("offers")
        assert found.seen.startswith("its point offer's labels are %s, not words for fields it enters (player)"
                                     % base.quoted(bad, 80)), found.seen


def test_a_view_that_is_not_plain_json_names_where_the_bad_value_is(model):
    """The finding cut the view off ("its view {'game': 'race_to_three', ... is not plain JSON"):
    it names the path to the value JSON can't hold, and what it is."""
    g = model.GAME
    view = lambda s: dict(g.view(s), scores={"Ann": [1, (2, 3)]}, when={"dawn"})    # noqa: E731
    (found,) = Kit(dataclasses.replace(g, view=view)).findings("json")
    assert 'its view["scores"]["Ann"][1] is a tuple, not plain JSON' in str(found), \
        "the finding doesn't name where the bad value is: %s" % found
    event = lambda s, a, rng: [dict(ev, seen={1}) for ev in g.decide(s, a, rng)]   # noqa: E731
    (found,) = Kit(dataclasses.replace(g, decide=event)).findings("json")
    assert 'event["seen"] is a set' in str(found), found


def test_a_game_the_kit_cant_play_is_told_once_with_its_cause_and_the_rules_that_need_a_play_unreached(model):
    """An offers() that raised was said by nine rules, each adding its own way to meet it ("start
    decide() with guard(...)"), none of them the fix: it is one finding, and the rules that needed
    the play are unreached, pointing at the one that said why."""
    def offers(state):
        raise RuntimeError("offers exploded")
    found, unreached = Kit(dataclasses.replace(model.GAME, offers=offers)).check()
    assert [f.rule.name for f in found] == ["play"], [str(f) for f in found]
    said = str(found[0])
    assert "offers() raised RuntimeError: offers exploded" in said and "guard(" not in said
    needing = [u for u in unreached if "could not play the game" in u]
    assert len(needing) >= 8 and all(u.endswith("(the rule 'play' says why)") for u in needing), unreached


def test_a_game_the_kit_cant_play_is_said_under_the_rule_play_which_the_docs_list(model):
    """Said by the first rule to need the play, the failure was the test ::guard, a rule about
    something else, and "play" was in no table a stranger could look it up in. It is a rule of
    its own (its own test under --newsdesk-game, a row of docs/new-game.md's table), and no other
    rule says it, whichever is asked first."""
    def offers(state):
        raise RuntimeError("offers exploded")
    kit = Kit(dataclasses.replace(model.GAME, offers=offers))
    with pytest.raises(Unreached, match="could not play the game \\(the rule 'play' says why\\)"):
        kit.findings("guard")
    (found,) = kit.findings("play")
    assert found.rule is conformance.BY_NAME["play"] and found.rule in RULES
    assert "offers() raised RuntimeError: offers exploded" in found.seen
    doc = (Path(__file__).resolve().parents[2] / "docs" / "new-game.md").read_text(encoding="utf-8")
    assert "| `play` | %s |" % found.rule.says in doc


def test_a_decide_or_setup_that_gives_no_list_of_events_is_told_so_in_the_words_the_box_refuses_it_with(model):
    """decide() giving None was said as "TypeError: 'NoneType' object is not iterable", naming
    neither the function nor what it owes; the box says "decide() must give a list of events,
    each with a "type"", and so does the kit, with what the call was given."""
    g = model.GAME
    for broken, said in (
            (dict(decide=lambda s, a, rng: g.decide(s, a, rng) and None),
             "decide() gave None, given {'type': 'point', 'player': 1}: decide() must give %s" % base.EVENTS),
            (dict(setup=lambda players, options: g.setup(players, options)[0]),
             "setup() gave {'type': 'setup', 'players': ['Ann', 'Bob'], 'target': 3}, given {}: setup() must give %s"
             % base.EVENTS)):
        found, _ = Kit(dataclasses.replace(g, **broken)).check()
        assert [f.rule.name for f in found] == ["play"], [str(f) for f in found]
        assert found[0].seen == "setting up and playing it failed: " + said
    assert base.EVENTS == "a list of events, each with a \"type\""      # the box's own words (game_session.act)


def test_an_offered_move_that_changes_nothing_is_named_and_describe_is_not_asked_about_it(model):
    """decide() giving [] for an action its own offers() offered: the kit kept each tap as a
    move that does nothing, and said only describe()'s IndexError (it reads events[0]) and that
    400 moves did not end the game. "offers" names the move; the play passes it over as it does
    a refusal, so describe() is never asked about a move with no events."""
    g = model.GAME
    idle = dataclasses.replace(g, decide=lambda s, a, rng: g.decide(s, a, rng) and [])
    kit = Kit(idle)
    found, unreached = kit.check()
    assert [f.rule.name for f in found] == ["offers"], [str(f) for f in found]
    assert found[0].seen == ("decide() took its point offer (filled in as {'type': 'point', 'player': 0}) and "
                             "gave no events: each tap on it is kept as a move that changes nothing")
    assert (kit.played().moves, kit.played().idle) == ([], conformance.MOVES)
    (end,) = unreached
    assert end.startswith("end: 0 moves from its offers (and %d taps decide() took with no events, which change "
                          "nothing: the rule 'offers' says which) did not end" % conformance.MOVES), end


def test_a_describe_that_crashes_is_said_with_the_move_it_crashed_on(model):
    g = model.GAME
    (found,) = Kit(dataclasses.replace(g, describe=lambda s, a, evs: evs[1])).findings("words")
    assert found.seen == ("describe() raised IndexError: list index out of range for {'type': 'point', "
                          "'player': 1}, whose events were [{'type': 'point', 'player': 1}]"), found.seen


def test_a_panel_number_whose_minimum_is_above_its_maximum_is_told_so(model):
    """It was said as "its number margin is {'minimum': 6, 'maximum': 1, ...}, not {"minimum",
    "maximum", "label"}", which it is: what is wrong is the order of its bounds."""
    g = model.GAME
    numbers = {"margin": {"minimum": 6, "maximum": 1, "label": "By how much"}}
    (found,) = Kit(dataclasses.replace(g, panel=dict(g.panel, numbers=numbers))).findings("panel")
    assert found.seen == "its number margin has minimum 6 above maximum 1: no number can be entered for it"


def test_lower_wins_is_true_or_false(model):
    """The panel fact that turns the places and the best score round: a word for it ("low") would
    quietly count as the highest wins, so the kit says it."""
    g = model.GAME
    (found,) = Kit(dataclasses.replace(g, panel=dict(g.panel, lower_wins="low"))).findings("panel")
    assert found.seen == "its lower_wins is 'low', not true or false"
    assert not Kit(dataclasses.replace(g, panel=dict(g.panel, lower_wins=True))).findings("panel")


def test_team_seats_name_the_games_variants_and_numbers_of_players():
    """The start form shows a variant's team fields with the numbers of players its team_seats
    list: a variant not the game's, or a count not a number, is said (the form would quietly
    show teams, or never)."""
    from controller.games import scan
    g = scan.GAME
    (found,) = Kit(dataclasses.replace(g, panel=dict(g.panel, team_seats={"no_trumps": [4]}))).findings("panel")
    assert found.seen == "its team_seats are {'no_trumps': [4]}, not {variant: [players, ...]} for its variants"
    assert Kit(dataclasses.replace(g, panel=dict(g.panel, team_seats={"no_trump": ["four"]}))).findings("panel")
    assert not Kit(g).findings("panel")


def test_teams_optional_name_the_games_variants_and_numbers_of_players():
    """The start form's hint says empty teams have each play alone with the numbers of players a
    variant's teams_optional list: a variant not the game's, or a count not a number, is said."""
    from controller.games import scan
    g = scan.GAME
    (found,) = Kit(dataclasses.replace(g, panel=dict(g.panel, teams_optional={"no_trumps": [4]}))).findings("panel")
    assert found.seen == "its teams_optional are {'no_trumps': [4]}, not {variant: [players, ...]} for its variants"
    assert Kit(dataclasses.replace(g, panel=dict(g.panel, teams_optional={"no_trump": []}))).findings("panel")
    assert not Kit(g).findings("panel")


class _Clipping:
    """An object of a game's own, as a stranger kept in the state: no __eq__, so no copy equals it."""


@pytest.mark.parametrize("kept", [_Clipping, set], ids=["object", "set"])
def test_a_state_that_is_not_json_is_said_by_json_alone_not_as_decide_changing_it(model, kept):
    """A state holding an object drew "decide() changed its state" beside the json finding: the
    kit saw the change by comparing a copy, and a copy of an object is another object."""
    g = model.GAME
    holding = dataclasses.replace(g, apply=lambda s, ev: dict(g.apply(s, ev), clipping=kept()))
    found, _ = Kit(holding).check()
    assert [f.rule.name for f in found] == ["json"], [str(f) for f in found]
    assert 'its state["clipping"] is a %s, not plain JSON' % kept.__name__ in found[0].seen
    # what pure is there for, it still says, once the state is JSON
    assert Kit(dataclasses.replace(g, apply=lambda s, ev: g.apply(s, ev) if ev["type"] == "setup"
                                   else dict(_point(s, ev)))).findings("pure")


def test_a_score_kind_the_panel_doesnt_know_is_one_finding_not_one_per_rule_that_compares_it(model):
    """panel={"score": "goals"} was said by "panel", and again by "not-set-up" and "result", whose
    result_of() said "points": one cause, one finding. A kind the panel knows that result()
    contradicts is still said."""
    g = model.GAME
    found, _ = Kit(dataclasses.replace(g, panel=dict(g.panel, score="goals"))).check()
    assert [f.seen for f in found] == ["its score is 'goals'"], [str(f) for f in found]
    found, _ = Kit(dataclasses.replace(g, panel=dict(g.panel, score="money"))).check()
    assert "its score kind is 'points', its panel facts say 'money'" in [f.seen for f in found], found


def _in_variants(g):
    """Race to Three played as a duel (two players, the default) or by a crowd (three to six)."""
    seated = {"duel": (2, 2), "crowd": (3, 6)}
    options = (*g.options, base.option("variant", "choice", "duel", "Race one rival, or the whole table.", "Variant",
                                       choices={"duel": "two players", "crowd": "three to six players"}))

    def setup(players, given):
        chosen = base.check_declared(g.title, options, given)
        names = base.check_players(g.title, players, *seated[chosen["variant"]])
        return [{"type": "setup", "players": names, "target": chosen["target"]}]
    return dataclasses.replace(g, options=options, setup=setup, players=seated,
                               variants={"duel": "two players", "crowd": "three to six players"})


def test_the_kit_checks_the_variant_its_options_pick_with_that_variants_seats(model):
    """docs/new-game.md said to give the fixture options={"variant": ...} to check another
    variant, but the kit sat the default variant's fewest players at it: a variant seating
    others was "setting up and playing it failed" (SCAN's triple: "Triple SCAN is for 6 players,
    not 4"). The kit seats the variant its options pick, and checks setup's refusals by its seats."""
    game = _in_variants(model.GAME)
    assert Kit(game).check() == ([], [])
    kit = Kit(game, options={"variant": "crowd"})
    assert kit.check() == ([], [])
    assert kit.played().names == ["Ann", "Bob", "Cat"]
    lax = dataclasses.replace(game, setup=lambda players, given: [
        {"type": "setup", "players": [p["name"] for p in players], "target": 3}] if len(players) == 2
        else game.setup(players, given))
    (found,) = Kit(lax, options={"variant": "crowd"}).findings("setup-players")
    assert found.seen.startswith("given 2 players, short of its fewest, it gave "), found.seen


def test_a_variants_seats_in_its_panel_facts_are_the_seats_the_kit_sets_it_up_with():
    """Scoop! (2002) seats two to six, and The Lonely City one: said in its panel facts
    (seats_by_variant), as the start form reads them. The kit sat two at The Lonely City and
    reported its own game as failing to set up ("The Lonely City is solitaire ..., not 2")."""
    game = registry.load("scoop2002")
    assert conformance.seats(game, "lonely_city") == (1, 1)
    assert conformance.seats(game) == (game.min_players, game.max_players)
    kit = Kit(game, options={"variants": ["lonely_city"]})
    assert kit.check() == ([], [])
    assert kit.played().names == ["Ann"]


def test_an_endings_move_that_changes_nothing_is_named_not_passed_over(model):
    """The author's own finishing moves: one decide() took with no events was skipped in silence,
    and the rules then looked at a game that hadn't ended where the author said it would."""
    game = dataclasses.replace(model.GAME, decide=lambda state, action, rng: [] if action["type"] == "wave"
                               else model.GAME.decide(state, action, rng))
    ending = [{"type": "point", "player": 0}, {"type": "wave"}] + [{"type": "point", "player": 0}] * 2
    (found,) = Kit(game, ending=ending).findings("play")
    assert "decide() took the ending's move 2, " in found.seen and "with no events" in found.seen, found.seen
    assert Kit(game, ending=[a for a in ending if a["type"] != "wave"]).findings("play") == []


def test_a_variant_option_worded_for_the_form_is_still_the_games_variant_option(model):
    """docs/new-game.md has the table pick a variant through a choice option "whose choices are
    those ids"; a stranger's option named the ids with short words for the form ("Double out")
    beside the variants' longer ones. Matched on the words too, it was no variant option: the kit
    played the default variant alone, and the start form showed the variants twice (its radios
    and the option), the radios sending nothing. The ids make it the variant option."""
    game = _in_variants(model.GAME)
    worded = dataclasses.replace(game, options=tuple(
        dict(o, choices={"duel": "Duel", "crowd": "Crowd"}) if o["name"] == "variant" else o for o in game.options))
    assert base.variant_option(worded) == ("variant", "one")      # the kit's runs: tests/test_pytest_plugin.py
    other = dataclasses.replace(game, options=tuple(
        dict(o, choices={"duel": "Duel", "brawl": "Brawl"}) if o["name"] == "variant" else o for o in game.options))
    assert base.variant_option(other) is None


def test_an_option_the_rules_are_silent_on_is_told_to_say_newsdesks_rule_not_no_label_or_no_rule(model):
    """docs/new-game.md said "where the rules are silent, say newsdesk=True": a stranger gave
    such an option the rule "" and newsdesk=True, and was told "option max_rounds has no label or
    no rule line", naming neither which nor what to write where no rule line exists."""
    silent = base.option("target", "integer", 3, "", "Points to win", minimum=1, maximum=9, newsdesk=True)
    (found,) = Kit(dataclasses.replace(model.GAME, options=(silent,))).findings("options")
    assert "no label" not in found.seen and "newsdesk=True" in found.seen, found.seen
    unlabelled = dict(model.GAME.options[0], label=" ")
    (found,) = Kit(dataclasses.replace(model.GAME, options=(unlabelled,))).findings("options")
    assert "no label" in found.seen and "rule line" not in found.seen, found.seen


def _by_margin(g, decide):
    """Race to Three where the table enters by how much a player scored (1-3, in its panel facts)."""
    panel = dict(g.panel, numbers={"margin": {"minimum": 1, "maximum": 3, "label": "By how much"}})
    offers = lambda s: [dict(o, enter=["margin"]) for o in g.offers(s)]  # noqa: E731
    return dataclasses.replace(g, panel=panel, offers=offers, decide=decide)


def test_a_number_past_its_bounds_or_junk_that_decide_takes_is_named_not_passed(model):
    """docs/new-game.md says decide() must refuse an offer's field replaced by a text, null, a
    list or a huge number; the kit said only what raised something else, and a decide() that took
    10**30 for a number the panel facts bound to 1-3 passed. The box hands a tablet's number on as
    sent (the panel facts bound the panel's box, not the API), so a number past its bounds is one
    too."""
    g = model.GAME

    def sure(s, a, rng):
        events = g.decide(s, a, rng)
        if not (base.is_int(a.get("margin")) and 1 <= a["margin"] <= 3):
            raise GameError("a margin is 1 to 3")
        return events
    assert Kit(_by_margin(g, sure)).findings("fields") == []

    def lax(s, a, rng):             # a whole number, but any
        events = g.decide(s, a, rng)
        if not base.is_int(a.get("margin")):
            raise GameError("a margin is a whole number")
        return events
    (found,) = Kit(_by_margin(g, lax)).findings("fields")
    assert found.seen.startswith("sent its point offer with margin 0, past its panel facts' bounds 1-3, decide() "
                                 "took it"), found.seen


def test_an_option_the_start_form_has_no_box_for_is_told_to_say_form_false(model):
    """docs/new-game.md says the start form is made from the options: a plug-in's option of a kind
    the form has no box for (house rules picked together, counts, a date) was left off it without
    a word, and the table could never set it. The kit says so, and how to declare it."""
    g = model.GAME
    house = base.option("house", "choices", [], "Any of these house rules.", "House rules",
                        choices={"ties": "Ties share the win", "slow": "Slow play"}, newsdesk=True)
    counts = base.option("handicap", "counts", {}, "A handicap per player.", "Handicaps", minimum=0, maximum=3,
                         newsdesk=True)
    for opt in (house, counts):
        (found,) = Kit(dataclasses.replace(g, options=g.options + (opt,))).findings("options")
        assert found.seen.startswith("option %s is a %s option, which the start form has no box for"
                                     % (opt["name"], opt["kind"])) and "form=False" in found.seen, found.seen
        assert Kit(dataclasses.replace(g, options=g.options + (dict(opt, form=False),))).findings("options") == []
    # a choices option over the game's variants is the variants' boxes on the form
    ways = dict(house, name="ways", label="Ways to play")
    assert Kit(dataclasses.replace(g, options=g.options + (ways,), variants={"ties": "Ties", "slow": "Slow"})
               ).findings("options") == []


def test_the_kinds_the_kit_says_have_no_box_are_those_the_start_forms_controls_leave_out():
    """conformance.NO_BOX is what web_ui/static/js/start.js's optionControl does not draw: each
    kind of option is drawn there or named here (a mapping both: drawn when its schema names its
    properties), so a kind the form learns to draw, or a new kind, can't leave the kit saying
    "declare it form=False" of an option the form shows, or passing one it leaves off."""
    import re
    script = (Path(__file__).resolve().parents[2] / "web_ui/static/js/start.js").read_text()
    body = script.split("function optionControl(", 1)[1].split("\nfunction ", 1)[0]
    drawn = set(re.findall(r'opt\.kind === "([a-z]+)"', body))
    assert drawn, "optionControl was not found in start.js"
    assert drawn | set(conformance.NO_BOX) == set(base.KINDS), (drawn, conformance.NO_BOX, base.KINDS)
    assert drawn & set(conformance.NO_BOX) == {"mapping"}, drawn & set(conformance.NO_BOX)


def test_a_describe_past_a_sentences_length_is_told_so(model):
    """describe() that gave megabytes for a move passed the rule "words"; the box keeps a move's
    sentence cut to SAID_MOST characters, so the kit says how long it may be."""
    g = model.GAME
    long = dataclasses.replace(g, describe=lambda state, action, events: "a point " * 200)
    (found, *_) = Kit(long).findings("words")
    assert found.seen.startswith("describe() gave a sentence of 1599 characters for {'type': 'point'") \
        and "at most %d" % SAID_MOST in found.seen, found.seen
    assert Kit(dataclasses.replace(g, describe=lambda state, action, events: "a point " * 10)).findings("words") == []


def test_a_headline_or_rings_that_crashes_is_named_with_the_events_it_was_given(model):
    """headline() or rings() that raised was told as "it raised KeyError: 'x'": neither which of
    the two, nor on what. And a headline holding what JSON can't carry passed, which the box then
    dropped with a traceback in its log at every page load."""
    g = model.GAME

    def broken(events):
        raise KeyError("x")
    for part in ("headline", "rings"):
        (found, *_) = Kit(dataclasses.replace(g, **{part: broken})).findings("words")
        assert found.seen.startswith("%s() raised KeyError: 'x' for the events [{" % part), found.seen
    (found, *_) = Kit(dataclasses.replace(g, headline=lambda events: {"type": "point", "seen": {1, 2}})
                      ).findings("words")
    assert found.seen.startswith("headline() gave an event that is not plain JSON"), found.seen
