"""The panel's routes and templates compiled once per test process rather than once per app.

Nearly every test builds a panel of its own (``create_app``) so that no test sees another's
state, and each build used to compile the same ~66 URL rules (Werkzeug writes and compiles two
Python functions per rule to build its URLs) and, at each app's first page, the same templates
(Jinja parses and compiles each one per environment): about 0.09 s of CPU of the 0.35 s that a
panel and its first page cost. Both compile pure functions of their text, so a test process
compiles each once and every later app reuses it; each app still gets its own URL map,
converters, Jinja environment and state. A template changed on disk is compiled again (Jinja
checks the source's checksum).
"""

from flask import Flask
from jinja2 import BytecodeCache
from werkzeug.routing.rules import Rule


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates kept in memory, shared by every app of the test process."""

    def __init__(self):
        self.kept = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])   # dropped if the source changed

    def dump_bytecode(self, bucket):
        self.kept[bucket.key] = bucket.bytecode_to_string()


def share_url_builders():
    """Reuse a rule's URL-building function for every later rule of the same text. The function
    Werkzeug compiles depends only on the rule's text and parts (it reaches the rule's own
    converters through the ``self`` it is bound to), unless the rule has defaults, whose
    converted values it bakes in: those are compiled afresh, as before."""
    compile_builder = Rule._compile_builder
    built = {}

    def shared(self, append_unknown=True):
        if self.defaults:
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        if key not in built:
            built[key] = compile_builder(self, append_unknown)
        return built[key]

    Rule._compile_builder = shared


def install():
    share_url_builders()
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}
