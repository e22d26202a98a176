"""The made-up dial recordings the benchmark and the property tests draw from."""

from controller.dial import tracegen
from controller.dial.dialmaps import DIAL_MAPS


def test_the_worn_corpus_has_every_condition_the_issue_lists():
    recs = tracegen.worn_corpus(3, 40)
    phones = [r.phone for r in recs]
    assert {p.dial_map for p in phones} == set(DIAL_MAPS) and {p.offnormal for p in phones} == {True, False}
    assert min(p.pps for p in phones) < 8 and max(p.pps for p in phones) > 13
    assert min(p.ratio for p in phones) < 0.55 and max(p.ratio for p in phones) > 0.72
    assert all(p.first_make == (0.75, 1.5) and p.chatter == 0.08 for p in phones)
    assert any(p.drag[1] == 0.35 for p in phones) and max(p.drift for p in phones) > 0.08
    assert max(p.toggles for p in phones) == 8 and max(p.bounce for p in phones) > 0.007
    rows = [r.sorted_edges() for r in recs]
    assert any(a[1:] == b[1:] for r in rows for a, b in zip(r, r[1:]))   # repeated same-level rows
    assert any(r.hook.count("off") > 1 for r in recs)                       # hook flashes
