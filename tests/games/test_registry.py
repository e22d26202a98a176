"""The registry finds the games by entry point, loads each only when asked, and says in a
sentence why a game it found can't be played."""

import dataclasses
import re
from importlib.metadata import EntryPoint, entry_points

import pytest
from conftest import install_game

from controller.errors import BadRequest
from controller.games import registry, scan, scoop1956
from controller.games.base import option
from controller.games.game import Game
from controller.games.scan import GAME as SCAN

BUILT_IN = ["scoop1956", "star_reporter", "scoop2002", "scan", "get_the_scoop"]


def test_the_five_games_are_found_in_their_declared_order():
    assert list(registry.names())[:5] == BUILT_IN
    assert registry.load("scan") is scan.GAME and isinstance(registry.load("scan"), Game)


def test_a_name_nobody_declares_is_a_bad_request_naming_the_games():
    with pytest.raises(BadRequest, match="there is no game called 'chess'; the games are scoop1956, "):
        registry.load("chess")


def test_a_missing_package_is_a_clear_error_not_an_import_crash(monkeypatch):
    install_game(monkeypatch, "star_reporter", "no_such_engine_module:GAME")
    with pytest.raises(registry.EngineUnavailable, match="the star_reporter game is listed but its module "
                                                         "\\(no_such_engine_module:GAME\\) is not installed"):
        registry.load("star_reporter")
    [entry] = [e for e in registry.catalogue() if e["name"] == "star_reporter"]
    assert entry["available"] is False and "not installed" in entry["problem"]


def test_a_declaration_that_is_not_a_game_is_refused(monkeypatch):
    install_game(monkeypatch, "scan", "controller.games.ledger:dollars")
    with pytest.raises(registry.EngineUnavailable, match="is a function, not a Game declaration"):
        registry.load("scan")


def test_a_game_that_calls_itself_otherwise_is_refused(monkeypatch):
    install_game(monkeypatch, "scan", "controller.games.scoop1956:GAME")
    with pytest.raises(registry.EngineUnavailable, match="calls itself 'scoop1956'; its name must be 'scan'"):
        registry.load("scan")


BAD_OPTIONS = {"none": None, "a_word": "target", "bare_dict": ({"name": "target"},),
               "choice_without_choices": ({"name": "t", "kind": "choice", "default": "a", "label": "T", "rule": "r"},)}


@pytest.mark.parametrize("what, said", [
    ("none", "its options are a NoneType, not a list of base.option()s"),
    ("a_word", "its options are a str, not a list of base.option()s"),
    ("bare_dict", "its options hold {'name': 'target'}, which was not made by base.option()"),
    ("choice_without_choices", "its options hold 't', a choice without its choices"),
])
def test_a_game_whose_options_arent_option_s_is_refused_not_every_page(monkeypatch, what, said):
    """options=None, a word or a bare dict answered every page of the panel with a 500 (the start
    form, the API's schema and the request check are made from them): the game is unavailable,
    with its sentence, and the others play on."""
    bad = dataclasses.replace(SCAN, name="bad_options", options=BAD_OPTIONS[what])
    monkeypatch.setattr(registry, "_BAD_OPTIONS_GAME", bad, raising=False)
    install_game(monkeypatch, "bad_options", "controller.games.registry:_BAD_OPTIONS_GAME")
    with pytest.raises(registry.EngineUnavailable, match="the bad_options game .* can't be played: " + re.escape(said)):
        registry.load("bad_options")
    listed = {g["name"]: g for g in registry.catalogue()}
    assert listed["bad_options"]["available"] is False and listed["scan"]["available"] is True


def _declared_as(monkeypatch, game):
    """``game`` installed as the plug-in "bad_decl" (its name set to that)."""
    registry.forget()           # a declaration loaded by another test is not kept
    monkeypatch.setattr(registry, "_BAD_DECL_GAME", dataclasses.replace(game, name="bad_decl"), raising=False)
    install_game(monkeypatch, "bad_decl", "controller.games.registry:_BAD_DECL_GAME")


@pytest.mark.parametrize("default, said", [
    (200, "option target's default is out of its bounds: “Points to win” is a whole number 5-100, not 200"),
    ("20", "option target's default is out of its bounds: “Points to win” is a whole number 5-100, not '20'"),
])
def test_a_game_whose_option_default_breaks_its_declaration_is_refused_at_load(monkeypatch, capsys, default, said):
    """A default past its own bounds was played (target 200 of 5-100), and one of the wrong type
    answered every start with a 500: the kit's options rule, read off the declaration alone, makes
    the game unavailable with its sentence, as a missing module does."""
    _declared_as(monkeypatch, dataclasses.replace(SCAN, options=(
        option("target", "integer", default, "first to the target", "Points to win", minimum=5, maximum=100),)))
    with pytest.raises(registry.EngineUnavailable) as raised:
        registry.load("bad_decl")
    assert str(raised.value) == "the bad_decl game (controller.games.registry:_BAD_DECL_GAME) can't be played: " \
        + said, "a bad default is accepted at load: %s" % raised.value
    listed = {g["name"]: g for g in registry.catalogue()}
    assert listed["bad_decl"]["available"] is False and listed["bad_decl"]["problem"] == str(raised.value)
    assert listed["scan"]["available"] is True
    from newsdesk.cli import main
    assert main(["games"]) == 1 and said in capsys.readouterr().out


def test_a_game_with_an_empty_title_is_refused_at_load(monkeypatch):
    """Game(title="") was listed with a blank title and logged as "set up  for Ann, Bob"."""
    _declared_as(monkeypatch, dataclasses.replace(SCAN, title=""))
    with pytest.raises(registry.EngineUnavailable, match="the bad_decl game .* can't be played: its title is an "
                                                         "empty field, not words$"):
        registry.load("bad_decl")


@pytest.mark.parametrize("change, said", [
    ({"order": "first"}, "its order is 'first', not a whole number (where the start form lists it)"),
    ({"variants": ["team", "triple"]}, "its variants are ['team', 'triple'], not a mapping of each variant's id"),
    ({"variants": None}, "its variants are None, not a mapping"),
    ({"panel": "points"}, "its panel facts are 'points', not a mapping like kit.PANEL_DEFAULTS"),
    ({"panel": {"chart": "points"}}, "its chart is 'points', not {\"unit\": words"),
    ({"panel": {"seats_by_variant": [1]}}, "its seats_by_variant is [1], not {variant: {\"min\", \"max\"}}"),
    ({"panel": {"numbers": {"n": {"minimum": 6, "maximum": 1, "label": "N"}}}}, "its number n has minimum 6 above maximum 1"),
    ({"players": {"team": 4}}, "its players are {'team': 4}, not a variant's id -> (fewest, most) for each"),
    ({"players": {}}, "its players are {}, which seats nobody"),
    ({"players": 0}, "it seats 0 to 0 players"),
    ({"players": None, "min_players": 5, "max_players": 50}, "it seats 5 to 50 players"),
    ({"title": "Pig Out " * 20}, "its title is 160 characters long: the start form lists it, in at most 80"),
])
def test_a_declaration_field_of_the_wrong_kind_is_refused_at_load_not_on_every_page(monkeypatch, change, said):
    """A stranger's Game(order="first") answered every page of the panel with a 500 (the start
    form sorts the games by order: '<' between str and int), and so did panel="points", a chart or
    seats_by_variant of the wrong shape, variants as a list, players={} ...; players=0 and 5 to 50
    seats loaded and were played. The kit's declaration, seats and panel rules, read off the
    declaration alone, now refuse each at load with its sentence."""
    _declared_as(monkeypatch, dataclasses.replace(SCAN, **change))
    with pytest.raises(registry.EngineUnavailable) as raised:
        registry.load("bad_decl")
    assert "the bad_decl game (controller.games.registry:_BAD_DECL_GAME) can't be played: " in str(raised.value)
    assert said in str(raised.value), raised.value
    listed = {g["name"]: g for g in registry.catalogue()}
    assert listed["bad_decl"]["available"] is False and listed["scan"]["available"] is True


def test_a_game_whose_order_is_not_a_number_is_listed_last_and_the_others_sorted(monkeypatch):
    """found() sorts the games by their order: a str among the ints raised TypeError there, under
    every page of the panel and every newsdesk command that lists the games."""
    monkeypatch.setattr(registry, "_BAD_DECL_GAME", dataclasses.replace(SCAN, name="bad_decl", order="first"),
                        raising=False)
    _listed_last(monkeypatch, "bad_decl", "controller.games.registry:_BAD_DECL_GAME")


def test_an_option_without_its_bounds_is_refused_as_it_is_declared():
    """option("q", "integer", 5, ...) with no minimum or maximum was made, and the game's load said
    only "it raised KeyError: 'minimum'"."""
    with pytest.raises(ValueError, match=r"option q: an option of kind integer needs its bounds, minimum=\.\.\. and "
                                         r"maximum=\.\.\."):
        option("q", "integer", 5, "roll", "How many")
    with pytest.raises(ValueError, match=r"option towns: an option of kind names needs items=\(fewest, most\)"):
        option("towns", "names", None, "the towns", "Towns")


@pytest.mark.parametrize("options, said", [
    ((option("a", "boolean", False, "rule a", "Points to win"), option("b", "boolean", True, "rule b", "Points to win")),
     "two options share the label “Points to win”"),
    ((option("a", "boolean", False, "rule a", "Solo turns", variant="solo"),),
     "option a belongs to the variant 'solo', which the game doesn't have"),
    ((option("a", "boolean", False, "rule a", "Ties", variant=("triple", "solo")),),
     "option a belongs to the variant 'solo', which the game doesn't have"),
    (({"name": "a", "kind": "boolean", "default": False, "label": "Ties", "rule": "rule a", "newsdesk": False,
       "form": True, "or_name": False, "variant": ["triple", 3]},),
     "option a's variant is ['triple', 3]: a variant's id or a list of them"),
])
def test_options_the_table_could_not_tell_apart_or_never_see_are_refused_at_load(monkeypatch, options, said):
    _declared_as(monkeypatch, dataclasses.replace(SCAN, options=options))
    with pytest.raises(registry.EngineUnavailable, match=re.escape(said)):
        registry.load("bad_decl")


def test_an_options_variants_are_an_id_or_a_list_of_ids():
    assert option("a", "boolean", False, "rule a", "A", variant="solo")["variant"] == "solo"
    assert option("a", "boolean", False, "rule a", "A", variant=("solo", "duo"))["variant"] == ["solo", "duo"]
    with pytest.raises(ValueError, match=r"option a: variant= is a variant's id or a list of them, not \[\]"):
        option("a", "boolean", False, "rule a", "A", variant=())


def test_the_declaration_is_checked_at_load_without_playing_the_game(monkeypatch):
    """Cheap: nothing of the game's own code runs while it is loaded."""
    def never(*args):
        raise AssertionError("the game was played at load")
    _declared_as(monkeypatch, dataclasses.replace(SCAN, setup=never, initial=never, decide=never, apply=never,
                                                  offers=never, view=never, result=never))
    assert registry.load("bad_decl").title == SCAN.title


@pytest.mark.parametrize("raises, said", [
    ("RuntimeError('the board file is missing')", "RuntimeError: the board file is missing"),
    ("SystemExit('no board here')", "SystemExit: no board here"),     # a plug-in that exits stops only itself
])
def test_a_game_that_fails_to_import_says_why(monkeypatch, tmp_path, raises, said):
    (tmp_path / "broken_game.py").write_text("raise %s\n" % raises)
    monkeypatch.syspath_prepend(str(tmp_path))
    install_game(monkeypatch, "scan", "broken_game:GAME")
    with pytest.raises(registry.EngineUnavailable, match="fails to load: " + said):
        registry.load("scan")


def test_a_game_named_otherwise_than_a_games_name_is_refused_before_it_is_imported(monkeypatch):
    install_game(monkeypatch, "Dice-Derby", "no_module_imported_here:GAME")
    with pytest.raises(registry.EngineUnavailable, match="the game 'Dice-Derby' .* can't be played: a game's name, "
                                                         "its entry point's, is lower-case letters, digits and _"):
        registry.load("Dice-Derby")
    install_game(monkeypatch, "derby\n", "no_module_imported_here:GAME")
    with pytest.raises(registry.EngineUnavailable, match="can't be played: a game's name"):
        registry.load("derby\n")


def _listed_last(monkeypatch, name, where):
    """The game ``name`` (at ``where``) installed beside the others, through the registry's own
    finding and sorting: it comes after every game that can be played."""
    before = list(registry.names())
    points = {ep.name: ep for ep in registry.found().values()}
    points[name] = EntryPoint(name=name, value=where, group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: list(points.values()))
    registry.forget()
    try:
        assert list(registry.names()) == before + [name]
    finally:
        monkeypatch.undo()
        registry.forget()


def test_a_broken_game_is_listed_last_with_its_reason(monkeypatch):
    _listed_last(monkeypatch, "aardvark", "no_such_module:GAME")


def test_a_distribution_declaring_a_built_in_games_name_does_not_take_it_over(monkeypatch):
    """A plug-in that calls itself "scan" must not take over the games stored as SCAN's, nor make
    SCAN unavailable: newsdesk's own game keeps its name, and the plug-in is refused."""
    real = [ep for eps in registry._declared().values() for ep in eps]
    impostor = EntryPoint(name="scan", value="controller.games.scoop1956:GAME", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: real + [impostor])
    registry.forget()
    try:
        assert registry.load("scan") is scan.GAME
        [entry] = [e for e in registry.catalogue() if e["name"] == "scan"]
        assert entry["available"] is True
        [refused] = registry.refused()
        assert "uninstall a distribution or rename its game" in refused["problem"]
        assert registry.load("scoop1956") is scoop1956.GAME          # the others play on
    finally:
        monkeypatch.undo()
        registry.forget()


def test_only_a_distributions_games_are_found_while_a_shipped_file_is_made(monkeypatch):
    """web_ui/openapi.json describes newsdesk's own games: one installed beside them (here, one
    no distribution of newsdesk's declares) doesn't change it, and is found again after."""
    real = [ep for eps in registry._declared().values() for ep in eps]
    beside = EntryPoint(name="aardvark", value="controller.games.scan:GAME", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: real + [beside])
    registry.forget()
    try:
        with registry.only():
            assert "aardvark" not in registry.names() and set(BUILT_IN) <= set(registry.names())
        assert registry.names()[-1] == "aardvark"
    finally:
        monkeypatch.undo()
        registry.forget()


# ---------------------------------------------------------------- a name declared twice, and `newsdesk games`

# a plug-in's game that calls itself "scan" (a stranger's, or one named carelessly)
NOT_SCAN = dataclasses.replace(SCAN, title="Not SCAN")


class Dist:
    """A distribution as an entry point names it (importlib.metadata's Distribution has .name)."""

    def __init__(self, name):
        self.name = name


def plug_in(name, dist, where="test_registry:NOT_SCAN"):
    return EntryPoint(name=name, value=where, group=registry.GROUP)._for(Dist(dist))


@pytest.fixture
def installed(monkeypatch):
    """Install entry points beside newsdesk's own, as pip would: installed(point, ...)."""
    ours = list(entry_points(group=registry.GROUP))

    def install(*points):
        monkeypatch.setattr(registry, "entry_points", lambda group: ours + list(points))
        registry.forget()
    yield install
    monkeypatch.undo()
    registry.forget()


def test_a_plug_in_declaring_a_built_in_games_name_is_refused_and_the_built_in_kept(installed, caplog):
    installed(plug_in("scan", "newsdesk-headline-race"))
    assert registry.load("scan") is SCAN
    assert registry.declared()["scan"].value == "controller.games.scan:GAME"     # its screen, too
    scan = next(g for g in registry.catalogue() if g["name"] == "scan")
    assert scan["available"] and scan["title"] == SCAN.title
    [refused] = registry.refused()
    assert refused["name"] == "scan" and refused["distribution"] == "newsdesk-headline-race"
    assert refused["problem"] == (
        "the game 'scan' of newsdesk-headline-race (test_registry:NOT_SCAN) is not loaded, because newsdesk's "
        "own game is called 'scan' (controller.games.scan:GAME, from newsdesk) and keeps that name; uninstall "
        "newsdesk-headline-race or rename its game")
    registry.names()
    assert refused["problem"] in caplog.text


def test_two_plug_ins_declaring_one_name_are_both_unavailable(installed):
    installed(plug_in("race", "one-race"), plug_in("race", "other-race"))
    race = next(g for g in registry.catalogue() if g["name"] == "race")
    assert not race["available"] and "2 installed distributions declare a game called 'race'" in race["problem"]
    assert registry.refused() == []
    with pytest.raises(registry.EngineUnavailable):
        registry.load("race")


def test_newsdesk_games_exits_0_when_every_game_can_be_played(capsys):
    from newsdesk.cli import main
    assert main(["games"]) == 0
    out = capsys.readouterr()
    assert "scan" in out.out and "SCAN" in out.out and out.err == ""


def test_newsdesk_games_exits_1_naming_a_game_that_can_not_be_played(monkeypatch, capsys):
    from conftest import install_game

    from newsdesk.cli import main
    install_game(monkeypatch, "race", "no_such_race:GAME")
    assert main(["games"]) == 1
    out = capsys.readouterr()
    assert "race" in out.out and "not installed" in out.out           # the list as before
    assert out.err == "newsdesk: 1 of the games found can't be played: race\n"


def test_newsdesk_games_exits_1_naming_a_plug_in_refused_for_a_built_in_games_name(installed, capsys):
    from newsdesk.cli import main
    installed(plug_in("scan", "newsdesk-headline-race"))
    assert main(["games"]) == 1
    out = capsys.readouterr()
    assert "uninstall newsdesk-headline-race or rename its game" in out.out
    assert out.err == "newsdesk: 1 of the games found can't be played: scan from newsdesk-headline-race\n"
