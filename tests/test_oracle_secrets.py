"""Nothing a player can read tells the editor's next verdict.

An attacker who reads every public response after every call, knows the source (so newsdesk's
default disc) and tracks every disc position consistent with what he saw, predicts the next
verdict no better than always naming the most common signal: within the 99 % band of chance.
"""

import random

import pytest
from conftest import binomial_upper

from controller.dial.dialmaps import pulses_for
from controller.oracles.editor import DEFAULT_DISC, disc_windows

CALLS = 300
ANON = {"REMOTE_ADDR": "192.0.2.7"}      # a device on the table's network, never joined
PUBLIC = ("/api/state", "/api/verdicts?limit=500", "/api/oracles", "/api/oracles/editor/history?limit=500",
          "/api/oracles/distributions?oracle=editor")


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


class Attacker:
    """Tracks the positions the disc could be at, from the public responses only."""

    def __init__(self):
        self.disc = list(DEFAULT_DISC)
        self.possible = set(range(len(self.disc)))

    def read(self, responses):
        oracles = responses["/api/oracles"]
        editor = oracles.get("editor") or {}
        if isinstance(editor.get("disc"), list):          # a published order beats the source's default
            self.disc = editor["disc"]

    def predict(self, digit):
        steps = pulses_for(digit, "standard")
        votes = {}
        for pos in self.possible or range(len(self.disc)):
            signal = self.disc[(pos + steps) % len(self.disc)]
            votes[signal] = votes.get(signal, 0) + 1
        return max(sorted(votes), key=votes.get)

    def saw(self, digit, verdict):
        steps = pulses_for(digit, "standard")
        n = len(self.disc)
        if isinstance(verdict.get("position"), int):
            self.possible = {verdict["position"]}
            return
        before = self.possible or set(range(n))
        after = {(p + steps) % n for p in before if self.disc[(p + steps) % n] == verdict["signal"]}
        self.possible = after or {p for p in range(n) if self.disc[p] == verdict["signal"]}


@pytest.mark.slow
def test_an_attacker_reading_everything_public_cant_beat_the_shares(desk, app):
    desk.table._rng = random.Random(20261123)     # deterministic; the attacker doesn't know the seed
    anon = app.test_client()
    anon.environ_base.update(ANON)
    attacker = Attacker()
    digits = random.Random(5)
    hits = 0
    for call in range(CALLS):
        if call % 30 == 0:                # every page's data now and then (they change slowly) ...
            responses = {}
            for url in PUBLIC:
                r = anon.get(url)
                assert r.status_code == 200, url
                responses[url] = r.get_json()
                leaked = {"position", "disc", "state", "seed"} & set(_keys(responses[url]))
                assert not leaked, "%s tells %s" % (url, leaked)
            attacker.read(responses)
        digit = digits.randrange(10)
        guess = attacker.predict(digit)
        desk.table.call_editor(digit)
        verdict = anon.get("/api/verdicts?limit=1").get_json()["verdicts"][0]["data"]   # ... every verdict
        assert not {"position", "disc"} & set(_keys(verdict))
        hits += guess == verdict["signal"]
        attacker.saw(digit, verdict)
    windows = disc_windows(DEFAULT_DISC)
    best_share = max(windows.values()) / len(DEFAULT_DISC)       # always naming OK: 5 in 16
    assert hits <= binomial_upper(CALLS, best_share), "%d of %d predicted" % (hits, CALLS)


def test_the_attacker_would_win_if_the_disc_stood_still(desk):
    """The attacker above is a real one: against a disc that isn't spun he predicts nearly all."""
    from controller.oracles.editor import Editor
    ed, rng, digits = Editor(), random.Random(1), random.Random(2)
    attacker = Attacker()
    attacker.read({"/api/oracles": {}})
    position, hits = None, 0
    for _ in range(CALLS):
        digit = digits.randrange(10)
        guess = attacker.predict(digit)
        v = ed.call(digit, position, rng, spin=False)
        position = v.position
        hits += guess == v.signal
        attacker.saw(digit, v.as_dict())
    assert hits > 0.9 * CALLS
