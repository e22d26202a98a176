"""The guided bring-up checklist: steps only a person can sense (the bell, the dial tone) are
ticked by the builder's answer, never by what the box sent; the steps software can observe tick
themselves and name the pins to check; a dial tone that can't be played says why, on the step."""

import pytest

from controller import bringup, events
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


def test_a_bell_switched_on_and_not_yet_answered_has_no_advice_saying_it_wasnt():
    c = Checklist(load_pinmap())
    assert "wasn't switched on" in steps(c)["bell"]["hint"]
    c.feed(RANG, 1.0)
    assert steps(c)["bell"]["hint"] is None and steps(c)["bell"]["sent"]
    c.confirm("bell", False, 2.0)
    assert "heard no ring" in steps(c)["bell"]["hint"]


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
    # the one-shot thermal cutoff: checked across the cable's bell pins (the pin map's 15 and 8)
    assert "the thermal cutoff against the coil: a meter across the cable's bell pins (15 and 8)" in bell["hint"]
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


def test_the_checklist_ticks_what_the_box_sees_and_names_the_pins_for_the_rest():
    c = Checklist(load_pinmap())
    assert c.feed({"type": "phone.hook", "data": {"state": "off"}}, 1.0) == "lift"
    assert c.feed({"type": "phone.digit", "data": {"digit": 7}}, 2.0) is None
    assert c.feed({"type": "dice.roll", "data": {"source": "panel"}}, 3.0) is None   # not the button
    assert c.feed({"type": "dice.roll", "data": {"source": "button"}}, 3.0) == "dice"
    assert c.feed({"type": "phone.hook", "data": {"state": "off"}}, 4.0) is None     # already seen
    assert c.feed("junk", 5.0) is None and c.feed({"type": "phone.sound", "data": None}, 5.0) is None
    steps = {s["id"]: s for s in c.state()}
    assert steps["lift"]["seen"] and steps["lift"]["hint"] is None and steps["dice"]["at"] == 3.0
    assert "GPIO17" in steps["dial0"]["hint"] and "GPIO27" in steps["dial0"]["hint"]
    assert "GPIO6" in steps["stopwatch"]["hint"] and "GPIO23" in steps["bell"]["hint"]
    c.reset()
    assert not any(s["seen"] for s in c.state())


def test_with_the_sound_switched_off_the_dial_tone_is_never_ticked_and_the_hint_says_why():
    c = Checklist(load_pinmap(), audio=False)
    assert c.feed({"type": "phone.sound", "data": {"receiver": "dial", "ringing": False}}, 1.0) is None
    assert "audio setting is off" in {s["id"]: s for s in c.state()}["tone"]["hint"]
    assert Checklist(load_pinmap()).feed({"type": "phone.sound", "data": {"receiver": "dial"}}, 1.0) == "tone"


def test_with_the_phone_in_a_box_the_hints_name_the_picos_pins():
    steps = {s["id"]: s for s in Checklist(load_pinmap(), "pico").state()}
    assert "GP4" in steps["lift"]["hint"] and "Pico" in steps["lift"]["hint"]
    assert "GPIO5" in steps["dice"]["hint"]          # the buttons stay on the Pi


def test_the_checklist_is_fed_every_kind_of_message_it_reads():
    """Its follower subscribes to bringup.FED alone: a kind feed() reads must be among them."""
    anything = {"state": "off", "digit": 0, "source": "button", "ringing": True, "receiver": "dial"}
    for kind in events.ALL:
        checklist = Checklist(load_pinmap())
        if checklist.feed({"type": kind, "data": anything}, 1.0) is not None:
            assert kind in bringup.FED, kind


@pytest.mark.parametrize("board", ["pi", "pico"])
def test_every_sentence_of_a_hint_begins_with_a_capital(board):
    """newsdesk's own name is the one word written small at a sentence's start."""
    pinmap = load_pinmap()
    for hint in (*bringup.hints(pinmap, board).values(), *bringup.failed_hints(pinmap, board).values()):
        for sentence in hint.split(". ")[1:] + [hint]:
            assert sentence[:1].isupper() or sentence.startswith("newsdesk"), hint


def test_a_line_missing_from_the_pin_map_is_said_in_a_sentence_with_a_capital():
    pinmap = load_pinmap()
    del pinmap.pi["dice_button"]
    assert "seen. The pin map has no [pi.dice_button] line" in bringup.hints(pinmap)["dice"]
