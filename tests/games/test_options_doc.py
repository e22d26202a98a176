"""docs/games.md's options tables, made from each game's declaration by `make docs`
(controller/games/options_doc.py)."""

import pytest

from controller.games import options_doc, registry


def test_the_docs_options_are_the_declarations_made_into_tables():
    """docs/games.md's options are made from the games (`make docs`): edit a game, not the doc."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "games.md").read_text(encoding="utf-8")
    assert options_doc.document(text) == text, "docs/games.md's options are out of date: run make docs"
    for engine in options_doc.our_games():      # a game installed beside newsdesk documents itself
        for opt in engine.options:
            assert "| `%s`" % opt["name"] in text and opt["rule"].replace("|", "/") in text, (engine.name, opt["name"])


def test_the_options_doc_says_what_each_option_is():
    table = options_doc.section(registry.load("scan"))
    assert "| `time_limit` | minutes | — | 1-1440 |" in table
    assert "| `ends_at` (API only) | datetime | — | datetime |" in table
    assert "| `target_tie` (in `triple`, `individual`, `no_trump`) | choice | `highest` (newsdesk's choice) | `highest`, `all` |" in table
    assert table.endswith("Numbers the table enters: `cards` 0-13 (Cards of a suit).\n")
    with pytest.raises(ValueError, match="no line"):
        options_doc.document("# a doc without the marker\n")


def test_nothing_of_newsdesks_stands_inside_a_quoted_rule_line():
    """The start form and docs/games.md show an option's rule line in quotes, as the rule text's own
    words: newsdesk's remarks ("(The rules name ...)", "(... is not covered.)") sat inside them and
    read as the rulebook's. They are the option's help now, shown after the quote."""
    import re
    from pathlib import Path

    remark = re.compile(r"newsdesk|not covered|not said|is silent|The rules |\(So |\(Said of |Printed under")
    for name in registry.names():
        for opt in registry.load(name).options:
            assert not remark.search(opt["rule"]), (name, opt["name"], opt["rule"])
    # and the help is said, after the quote, in the docs' table
    text = (Path(__file__).resolve().parents[2] / "docs" / "games.md").read_text(encoding="utf-8")
    assert ("\"If a player runs out of money, and is unable to purchase enough cards to complete his hand, he is "
            "bankrupt.\" Said of buying cards; a player who can't pay an EXTRA or SYND is not covered.") in text


def test_the_options_doc_says_which_variants_an_option_belongs_to():
    """An option the start form asks only with some variants chosen says which, in the doc too."""
    table = options_doc.section(registry.load("scan"))
    assert "| `put_aside` (in `triple`) | boolean |" in table
    assert "| `target_tie` (in `triple`, `individual`, `no_trump`) | choice |" in table
    assert "| `dealer` | seat |" in table
