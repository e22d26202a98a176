"""A game's one declaration (controller/games/game.py): a game that declares only the parts every
game must have gets a default for each of the rest, and the rules themselves have none."""

import pytest
from test_standings import bare

from controller.games import scan
from controller.games.game import Game


def test_a_game_with_only_the_required_parts_gets_every_default():
    plain = bare(scan.GAME)
    assert (plain.options, dict(plain.panel), plain.colours, plain.players, dict(plain.variants)) == ((), {}, None, None, {})
    assert (plain.min_players, plain.max_players) == (2, 6)
    assert plain.headline([{"type": "anything"}]) is None and plain.rings([{"type": "anything"}]) is False
    assert plain.describe({}, {"type": "hand"}, []) is None
    with pytest.raises(TypeError):
        Game(name="half", title="Half a game")      # the rules have no defaults
