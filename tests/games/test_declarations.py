"""What every engine declares about itself (OPTIONS, PANEL): complete, true to its setup, and the
one source of the start form's fields, the API document's option schemas and the request check."""

import pytest

from controller.games import base, registry
from web_ui import openapi

ENGINES = [registry.load(n) for n in registry.names()]
SEATS = {"scan": 4, "get_the_scoop": 4}


def players(engine, n=None):
    n = n or SEATS.get(engine.name, 2)
    return [{"name": "P%d" % i} for i in range(n)]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_every_engine_declares_its_options_and_panel_facts(engine):
    names = [o["name"] for o in engine.options]
    assert len(set(names)) == len(names)
    for opt in engine.options:
        assert opt["kind"] in base.KINDS and opt["label"] and opt["rule"], opt
        if opt["kind"] in ("integer", "minutes"):
            assert opt["minimum"] <= opt["maximum"], opt
        if opt["kind"] in ("choice", "choices"):
            assert opt["choices"], opt
    panel = base.panel(engine)
    assert panel["score"] in ("money", "points", None)
    assert panel["chart"] or panel["no_chart"]
    for field, bound in panel["numbers"].items():
        assert bound["minimum"] <= bound["maximum"] and bound["label"], field


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_setup_takes_exactly_the_declared_options(engine):
    """Each declared default is accepted as given; an undeclared option is refused by name."""
    for opt in engine.options:
        if opt["default"] is not None and opt["kind"] != "choices":
            assert engine.setup(players(engine), {opt["name"]: opt["default"]})
    with pytest.raises(base.GameError, match="has no option colourful"):
        engine.setup(players(engine), {"colourful": 1})


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_numbers_past_their_bounds_are_refused_with_a_sentence(engine):
    for opt in engine.options:
        if opt["kind"] in ("integer", "minutes"):
            for bad in (opt["maximum"] + 1, opt["minimum"] - 1, 10 ** 400, True, 2.5):
                with pytest.raises(base.GameError) as caught:
                    engine.setup(players(engine), {opt["name"]: bad})
                said = str(caught.value)      # named as the start form names it, never by its key
                assert base.form_name(opt) in said and opt["name"] not in said and len(said) < 300, said


def test_the_catalogue_and_the_api_document_are_made_from_the_declarations():
    items = {g["name"]: g for g in registry.catalogue()}
    schemas = openapi.document()["components"]["schemas"]
    for engine in ENGINES:
        item = items[engine.name]
        assert [o["name"] for o in item["options"]] == [o["name"] for o in engine.options]
        assert item["panel"] == base.panel(engine)
        key = "Options" + "".join(p.title() for p in engine.name.split("_"))
        assert set(schemas[key]["properties"]) == {o["name"] for o in engine.options}
        assert {"$ref": "#/components/schemas/" + key} in schemas["StartRequest"]["properties"]["options"]["anyOf"][0]["anyOf"]
    disasters = schemas["OptionsStarReporter"]["properties"]["disasters"]["anyOf"][0]
    assert (disasters["minimum"], disasters["maximum"]) == (1, 9)
    assert schemas["NumbersScoop1956"]["properties"]["value"]["maximum"] == 100_000
