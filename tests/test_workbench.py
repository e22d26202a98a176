"""The Workbench's bring-up: steps only a person can sense (the bell, the dial tone) are ticked by
the builder's answer, never by what the box sent; the steps software can observe tick themselves;
a dial tone that can't be played says why, on the step."""

import pytest
from conftest import wait_for

from controller import bringup
from controller.bringup import Checklist
from controller.errors import BadRequest, Conflict
from controller.pinmap import load_pinmap

RANG = {"type": "phone.sound", "data": {"receiver": "silence", "ringing": True, "verdict": None}}
TONE = {"type": "phone.sound", "data": {"receiver": "dial", "ringing": False, "verdict": None}}


def steps(checklist):
    return {s["id"]: s for s in checklist.state()}


def test_a_bell_switched_on_is_not_ticked_until_the_builder_says_it_rang():
    c = Checklist(load_pinmap(), bell_strikes=40)
    assert c.feed(RANG, 10.0) == "bell"
    bell = steps(c)["bell"]
    assert not bell["seen"] and bell["check"] == "builder" and bell["answer"] is None
    assert bell["sent"] == {"at": 10.0, "count": 1, "what": "newsdesk switched the bell on: 40 strikes a ring"}
    assert c.feed(RANG, 12.0) is None and steps(c)["bell"]["sent"]["count"] == 2
    c.confirm("bell", True, 13.0)
    bell = steps(c)["bell"]
    assert bell["seen"] and bell["at"] == 13.0 and bell["answer"] == "yes" and bell["hint"] is None


def test_a_dial_tone_played_is_not_heard_until_the_builder_says_so():
    c = Checklist(load_pinmap())
    c.feed(TONE, 5.0)
    assert not steps(c)["tone"]["seen"] and steps(c)["tone"]["sent"]["what"] == "newsdesk played the dial tone"
    c.confirm("tone", True, 6.0)
    assert steps(c)["tone"]["seen"]


def test_it_didnt_leaves_the_step_open_and_says_what_to_check():
    c = Checklist(load_pinmap())
    c.feed(RANG, 1.0)
    c.confirm("bell", False, 2.0)
    bell = steps(c)["bell"]
    assert not bell["seen"] and bell["answer"] == "no"
    assert "heard no ring" in bell["hint"] and "GPIO23" in bell["hint"] and "supply" in bell["hint"]
    c.confirm("bell", True, 3.0)          # fixed, rung again, heard
    assert steps(c)["bell"]["answer"] == "yes"
    c.feed(TONE, 4.0)
    c.confirm("tone", False, 5.0)
    assert "amplifier" in steps(c)["tone"]["hint"] and "heard nothing" in steps(c)["tone"]["hint"]
    c.reset()
    assert all(s.get("sent") is None and not s["seen"] and s.get("answer") is None for s in c.state())


def test_an_answer_is_refused_for_a_step_the_box_ticks_or_before_newsdesk_did_anything():
    c = Checklist(load_pinmap())
    with pytest.raises(BadRequest):
        c.confirm("lift", True, 1.0)
    with pytest.raises(BadRequest):
        c.confirm("nonsense", True, 1.0)
    with pytest.raises(Conflict, match="Ring the bell"):
        c.confirm("bell", True, 1.0)
    assert not steps(c)["bell"]["seen"]


def test_the_steps_software_observes_stay_automatic():
    c = Checklist(load_pinmap())
    c.feed({"type": "phone.hook", "data": {"state": "off"}}, 1.0)
    c.feed({"type": "phone.digit", "data": {"digit": 0}}, 2.0)
    assert steps(c)["lift"]["seen"] and steps(c)["dial0"]["seen"]
    assert steps(c)["lift"]["check"] == "auto" and "answer" not in steps(c)["lift"]


@pytest.mark.parametrize("audio, words", [(False, "audio = auto"), (bringup.AUDIO_MISSING, "alsa-utils")])
def test_a_dial_tone_that_cant_be_played_says_why_and_what_to_do(audio, words):
    c = Checklist(load_pinmap(), audio=audio)
    c.feed(TONE, 1.0)
    tone = steps(c)["tone"]
    assert tone["blocked"] and words in tone["blocked"] and "start newsdesk again" in tone["blocked"]
    assert tone["sent"] is None
    with pytest.raises(Conflict, match=words):
        c.confirm("tone", True, 2.0)


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


CARDS = [(0, "vc4hdmi", "vc4-hdmi"), (1, "MAX98357A", "MAX98357A")]


@pytest.mark.parametrize("cards, device, words", [
    ([], "", "no sound card here"),
    (CARDS, "plughw:CARD=USB,DEV=0", "names no sound card here (cards: 0 vc4hdmi, 1 MAX98357A)"),
    (CARDS, "hw:3,0", "(hw:3,0) names no sound card"),
])
def test_no_sound_card_for_aplay_is_said_on_the_dial_tone_step(cards, device, words):
    why = bringup.no_audio_device(cards, device)
    assert why and words in why and "start newsdesk again" in why
    tone = steps(Checklist(load_pinmap(), audio=why))["tone"]
    assert tone["blocked"] == why


@pytest.mark.parametrize("cards, device", [(CARDS, ""), (CARDS, "plughw:CARD=MAX98357A,DEV=0"), (CARDS, "hw:1"),
                                           (None, "hw:7"), (CARDS, "pulse")])
def test_a_sound_card_that_is_there_or_cant_be_told_blocks_nothing(cards, device):
    assert bringup.no_audio_device(cards, device) is None


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
