"""The Workbench's bring-up on the panel: the builder's answer is kept, a dial tone that can't be
played says why, and the sound cards are read when aplay would play. The checklist itself is in
test_bringup.py."""

import pytest
from conftest import wait_for

from controller import bringup

# ---------------------------------------------------------------- on the panel


def _step(client, sid):
    return {s["id"]: s for s in client.get("/api/workbench").get_json()["steps"]}[sid]


@pytest.mark.slow
def test_the_builder_confirms_the_bell_on_the_panel_and_the_answer_is_kept(client):
    confirm = "/api/workbench/bringup/confirm"
    assert client.post(confirm, json={"step": "bell", "happened": True}).status_code == 409   # not rung yet
    assert client.post("/api/workbench/ring").status_code == 202
    assert wait_for(lambda: _step(client, "bell")["sent"], timeout=5)
    bell = _step(client, "bell")
    assert not bell["seen"] and bell["sent"]["what"].startswith("newsdesk switched the bell on")
    r = client.post(confirm, json={"step": "bell", "happened": False})
    assert r.status_code == 200 and r.get_json()["step"]["answer"] == "no"
    assert _step(client, "bell")["answer"] == "no"
    assert client.post(confirm, json={"step": "bell", "happened": True}).status_code == 200
    assert _step(client, "bell")["seen"] and _step(client, "bell")["answer"] == "yes"     # read again: kept
    for junk in ({"step": "lift", "happened": True}, {"step": "bell"}, {"step": "bell", "happened": "yes"},
                 {"step": 3, "happened": True}):
        assert client.post(confirm, json=junk).status_code == 400, junk
    assert client.post("/api/workbench/bringup/reset").status_code == 200
    assert not _step(client, "bell")["seen"] and _step(client, "bell")["sent"] is None


@pytest.mark.slow
def test_with_audio_off_the_panel_says_why_the_dial_tone_step_cant_tick(client, desk):
    desk.sim_phone.lift()
    assert wait_for(lambda: _step(client, "lift")["seen"], timeout=5)
    tone = _step(client, "tone")
    assert tone["blocked"] == bringup.AUDIO_OFF and not tone["seen"]
    r = client.post("/api/workbench/bringup/confirm", json={"step": "tone", "happened": True})
    assert r.status_code == 409 and "audio setting is off" in r.get_json()["message"]
    desk.sim_phone.hang_up()


def test_the_workbench_reads_the_sound_cards_when_aplay_would_play():
    from controller.audio.player import AplayOutput, NullOutput
    from web_ui.workbench import _audio

    class Sounds:
        def __init__(self, output):
            self.player = type("Player", (), {"output": output})()

    none = " 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi\n"
    assert _audio(Sounds(NullOutput(off=True))) is False
    assert _audio(Sounds(NullOutput())) == bringup.AUDIO_MISSING
    assert "no sound card here" in _audio(Sounds(AplayOutput(device="hw:2,0")), lambda: "--- no soundcards ---\n")
    assert "names no sound card" in _audio(Sounds(AplayOutput(device="hw:2,0")), lambda: none)
    assert _audio(Sounds(AplayOutput(device="hw:0,0")), lambda: none) is True
    assert _audio(Sounds(AplayOutput()), lambda: None) is True
