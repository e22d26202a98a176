"""docs/new-game.md's reference, made from the code by `make docs` (controller/kit_doc.py): every
name a plug-in imports from controller.games.kit, with its signature, and the helpers a screen
imports, so the page is enough on its own and never says what the code doesn't."""

from pathlib import Path

import pytest

from controller import kit_doc
from controller.games import kit

DOC = Path(__file__).resolve().parents[1] / "docs" / "new-game.md"


def test_the_reference_is_the_code_made_into_a_page():
    text = DOC.read_text(encoding="utf-8")
    assert kit_doc.document(text, kit_doc.sources()) == text, "docs/new-game.md's reference is out of date: run make docs"


def test_every_name_a_plug_in_imports_is_in_the_reference():
    reference = kit_doc.reference(kit_doc.sources())
    missing = [name for name in kit.__all__ if "`%s" % name not in reference]
    assert missing == [], "controller.games.kit exports %s, which docs/new-game.md doesn't show" % missing
    # and the signatures are as written in the code, with its own names for the shapes
    assert ("guard(state: State, action: object, *, title: str, actions: Iterable[str], "
            "result: Callable[[State], Result], over: Callable[[State], str] | None=None) -> str") in reference
    assert "`num(key, value, money, attrs = {})` (dom.js)" in reference


def test_a_screen_helper_without_words_is_refused_rather_than_listed_bare():
    sources = dict(kit_doc.sources(), **{"dom.js": "export function h(tag, attrs, ...children) {}\n"})
    with pytest.raises(ValueError, match="dom.js's h has no comment above it"):
        kit_doc.js_helpers(sources)
    with pytest.raises(ValueError, match="no line"):
        kit_doc.document("# a page without the marker\n", kit_doc.sources())


def test_the_page_says_what_a_stranger_had_to_find_out():
    """A plug-in's author, from docs/new-game.md alone: how mypy finds newsdesk's types beside an
    editable install, what a die's result hands the screen (and that the rules never see it unless
    the screen sends it), whether a game needs a screen.js, and how to check a variant other
    than the default one (--newsdesk-game plays each variant alone; the fixture takes any options)."""
    page = kit_doc.DOC.read_text(encoding="utf-8").split(kit_doc.MARKER)[0]
    words = " ".join(page.split())
    for said in ("MYPYPATH=/path/to/newsdesk mypy --strict",
                 "`onOracle(\"dice\", data)` gets the throw: `data.faces`",
                 "the rules never see a roll unless the screen sends it as an action",
                 "`screen.js` is optional",
                 "`--newsdesk-game` plays the game with its default options",
                 "`newsdesk-game[NAME:VARIANT]::RULE`",
                 'newsdesk_kit(my_game.GAME, options={"variant": "solo", "target": target})',
                 # a move, undo or Finish sent by hand without it was a 400 the page never mentioned
                 "carries the game's `version`"):
        assert said in words, "docs/new-game.md doesn't say %r" % said
