"""The start form's catalogue and the charts' units (controller/games/catalogue.py), read off each
game's own declaration: its seats, colours, teams, clock and variant option, and its chart."""

from controller.games.catalogue import chart_units, start_form


def test_the_start_form_reads_each_games_seats_and_choices_off_its_declaration():
    games = {g["name"]: g for g in start_form()}
    assert games["scoop1956"]["players"] == {"min": 2, "max": 6, "by_variant": None}
    assert games["get_the_scoop"]["players"]["min"] == games["get_the_scoop"]["players"]["max"] == 4
    assert games["get_the_scoop"]["colours"] == ["red", "blue", "green", "white"]
    assert games["scoop2002"]["players"]["by_variant"] == {"lonely_city": {"min": 1, "max": 1}}
    assert (games["scoop2002"]["variant_option"], games["scoop2002"]["variant_choice"]) == ("variants", "many")
    scan = games["scan"]
    assert scan["timed"] and scan["teams"] and (scan["variant_option"], scan["variant_choice"]) == ("variant", "one")
    assert scan["players"]["by_variant"]["team"] == {"min": 4, "max": 4}
    assert not games["scoop1956"]["timed"] and games["scoop1956"]["variant_option"] is None


def test_each_chart_plots_what_its_game_keeps_and_a_game_without_a_score_plots_nothing():
    units = chart_units()
    assert units["scoop1956"] == ("worth", "$") and units["scan"] == ("points", "")
    assert units["get_the_scoop"] == (None, "")
