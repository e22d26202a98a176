"""The games kept (controller/history.py): what can be undone and redone, read off the stored
entries, and which games export. Finished games, their CSV and charts are played through in
test_game_session.py and test_standings.py."""

import pytest
from test_game_session import PLAYERS, desk  # noqa: F401  (the desk fixture)

from controller.errors import BadRequest
from controller.history import stacks


def test_only_a_kept_game_exports(desk):  # noqa: F811
    with pytest.raises(BadRequest, match="no game #4"):
        desk.kept.export_csv(4)
    desk.games.start("purse", PLAYERS)
    with pytest.raises(BadRequest, match="game #1 is still being played"):
        desk.kept.export_csv(1)


def test_the_undo_and_redo_stacks_follow_the_entries_and_a_new_move_ends_the_redo_stack():
    entries = [(1, {"type": "setup"}), (2, {"type": "action"}), (3, {"type": "action"}),
               (4, {"type": "undo", "target": 3}), (5, {"type": "undo", "target": 2})]
    assert stacks(entries) == ([], [3, 2])          # 2 is the next to redo
    assert stacks(entries + [(6, {"type": "redo", "target": 2})]) == ([2], [3])
    assert stacks(entries + [(6, {"type": "action"})]) == ([6], [])


def test_the_bg_stats_comment_counts_the_moves_in_force_as_the_panel_does(desk):  # noqa: F811
    """The panel says "3 moves" for three moves in force; the export's comment must say the same,
    not the version, which also counts the setup, an undone move and its undo."""
    g = desk.games
    g.start("purse", PLAYERS)
    for n in range(3):
        g.act({"type": "pay", "player": n, "to": (n + 1) % 3, "amount": 10}, g.version)
    g.undo(g.version)
    g.act({"type": "call_it"}, g.version)
    assert g.current()["moves"] == 3 and g.version == 6
    g.finish(g.version)
    assert desk.kept.bgstats(1)["comments"] == "Kept by newsdesk as game #1 (finished, 3 moves)."
