"""What every engine declares about itself (OPTIONS, PANEL) is the one source of the start form's
fields and the API document's option schemas. That the declarations are complete and true to
each game's setup is the conformance kit's (test_conformance.py: options, setup-options, panel)."""

from controller.games import base, registry
from web_ui import openapi

ENGINES = [registry.load(n) for n in registry.names()]

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


def test_no_choice_repeats_the_rule_line_its_option_quotes_above_it():
    """The start form quotes an option's rule line once, above its choices: Scoop! (2002)'s "0
    counts as 0" quoted it again inside the choice, nested quotes and all."""
    from controller.games import registry
    for name in registry.names():
        for opt in registry.load(name).options:
            said = opt["rule"].strip().rstrip(".").lower()
            for words in (opt.get("choices") or {}).values():
                assert said not in words.lower().replace("\u201c", "").replace("\u201d", ""), (name, opt["name"], words)
