"""The panel's URL builders are compiled at their first use, not at start (web_ui/url_rules.py),
and build exactly what Werkzeug's own builders build, for every rule the panel has."""

from werkzeug.routing import Rule

SAMPLE = {"IntegerConverter": 7, "PathConverter": "js/panel.js", "VersionConverter": "0123456789ab"}


def _values(rule):
    """A value for each of the rule's arguments, of the kind its converter takes."""
    return {name: SAMPLE.get(type(conv).__name__, "ann") for name, conv in rule._converters.items()}


def _lazy(rule):
    return getattr(rule._build, "lazy", False) and getattr(rule._build_unknown, "lazy", False)


def test_no_url_builder_is_compiled_when_the_panel_is_made(app):
    rules = [r for r in app.url_map.iter_rules() if r.rule != "/static/<path:filename>"]   # Flask's own, made first
    assert len(rules) > 60
    assert [r.rule for r in rules if not _lazy(r)] == []


def test_every_rule_builds_what_werkzeugs_builder_builds(app):
    for rule in app.url_map.iter_rules():
        values = _values(rule)
        with_query = dict(values, page="2")
        real = Rule._compile_builder(rule, True).__get__(rule, None)
        plain = Rule._compile_builder(rule, False).__get__(rule, None)
        assert rule.build(with_query) == real(**with_query), rule.rule
        assert rule.build(values, append_unknown=False) == plain(**values), rule.rule
        assert not getattr(rule._build, "lazy", False) and not getattr(rule._build_unknown, "lazy", False)
        assert rule.build(with_query) == real(**with_query)          # the kept builder, again


def test_url_for_is_unchanged(app):
    with app.test_request_context():
        from flask import url_for
        assert url_for("app_shell.manifest") == "/manifest.webmanifest"
        assert url_for("static", filename="js/panel.js").endswith("/js/panel.js")
        assert url_for("app_shell.manifest", v="1") == "/manifest.webmanifest?v=1"
