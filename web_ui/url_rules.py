"""The panel's URL rules, with each rule's URL builder made when ``url_for`` first needs it.

Werkzeug (3.1) compiles two URL builders for every rule as the rule is registered: Python source
made through ``ast`` and compiled, about 0.5 ms of CPU a rule here. The panel registers 66, so
that was about 30 ms of every start, 8 % of the CPU the panel took before it could answer, and
ten times that under the quota that stands for a Pi Zero 2 W (docs/benchmarks.md, "A Pi Zero 2
W's budget"); and many builders are never used in a run (``url_for`` is asked for the pages'
and the static files' URLs, hardly ever for the JSON API's). Here a rule
registers with a stand-in that compiles the real builder on its first use, keeps it, and hands
the call on: what ``url_for`` returns is Werkzeug's own builder's answer. Werkzeug is pinned
(requirements.txt); ``_compile_builder`` is its own, so a new Werkzeug is checked by the test
that builds every rule's URL (tests/test_url_rules.py).
"""

from werkzeug.routing import Rule


class LazyBuildRule(Rule):
    """A Rule that compiles its URL builders when first asked to build (Flask's url_rule_class)."""

    def _compile_builder(self, append_unknown=True):
        slot = "_build_unknown" if append_unknown else "_build"

        def build_first(rule, **values):
            # two threads may both compile it: the same builder, and either one kept
            real = Rule._compile_builder(rule, append_unknown).__get__(rule, None)
            setattr(rule, slot, real)
            return real(**values)
        build_first.lazy = True  # type: ignore[attr-defined]   # a mark the tests read on a plain function
        return build_first
