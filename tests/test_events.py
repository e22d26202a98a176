"""The table's vocabulary has one home (controller/events.py): no Python module spells a message
type itself, and every type the panel's scripts listen for is one the table sends."""

import ast
import re
from pathlib import Path

import pytest

from controller import events

REPO = Path(__file__).resolve().parents[1]
TYPE = re.compile(r"^(editor|game|phone|dice|stopwatch|oracle)\.[a-z_]+$")


@pytest.mark.slow
def test_no_module_spells_a_message_type_but_the_vocabulary():
    spelled = []
    for path in sorted(p for package in ("newsdesk", "controller", "web_ui") for p in (REPO / package).rglob("*.py")):
        if path == REPO / "controller" / "events.py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and TYPE.match(node.value)
                    and id(node) not in docstrings):
                spelled.append("%s:%d %s" % (path.relative_to(REPO), node.lineno, node.value))
    assert spelled == []


def test_stored_and_live_messages_are_told_apart_and_every_name_is_listed():
    assert not events.STORED & events.LIVE and not events.FEED & (events.STORED | events.LIVE)
    names = {v for k, v in vars(events).items() if k.isupper() and isinstance(v, str)}
    assert names == events.ALL == set(events.SAID)
    assert all(said.endswith(".") and said[0].isupper() for said in events.SAID.values())


def test_the_panel_listens_only_for_messages_the_table_sends():
    heard = set()
    for path in list((REPO / "web_ui" / "static" / "js").glob("*.js")) + list((REPO / "web_ui" / "templates").rglob("*.html")):
        heard |= {m.group(1) for m in re.finditer(r"[\"']([a-z]+\.[a-z_]+)[\"']", path.read_text()) if TYPE.match(m.group(1))}
    assert heard and heard <= events.ALL, heard - events.ALL
