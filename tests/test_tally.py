"""The oracles' observed distributions from stored events: grouped by what they should follow,
this session's apart from all time, and events without the fields counted as nothing."""

from controller.oracles.tally import Tallies


def counts(group, when):
    return {row["face"]: row["count"] for row in group[when]["faces"] if row["count"]}


def test_dice_are_tallied_by_face_and_total_and_the_session_starts_after_its_event():
    tallies = Tallies(session_after=2)
    for event_id, faces in enumerate([[1, 2], [6, 6], [3, 4]], 1):
        tallies.add(event_id, "dice.roll", {"dice": "2d6", "faces": faces, "total": sum(faces)})
    tallies.add(4, "dice.roll", {"faces": [1]})               # from an older newsdesk: not counted
    tallies.add(5, "game.started", {})
    report = tallies.report("dice")
    assert report["last_event"] == 5 and report["session_after_event"] == 2
    faces, totals = report["groups"]
    assert (faces["label"], totals["label"]) == ("2d6: each die's faces", "2d6: totals")
    assert counts(faces, "all_time") == {1: 1, 2: 1, 3: 1, 4: 1, 6: 2} and counts(faces, "session") == {3: 1, 4: 1}
    assert counts(totals, "all_time") == {3: 1, 7: 1, 12: 1} and counts(totals, "session") == {7: 1}
    assert tallies.report("editor")["groups"] == []
