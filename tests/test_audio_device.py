"""Which ALSA device plays the handset: the card a device name plays on, and the amplifier's
config.txt line."""

import pytest

from controller.audio.device import AMP_DEVICE, card_of, overlay_line


@pytest.mark.parametrize("device, card", [
    (AMP_DEVICE, ("id", "MAX98357A")),
    ("hw:1,0", ("index", 1)),
    ("plughw:2", ("index", 2)),
    (" default ", None),
    ("", None),
    ("pulse", ("other", "pulse")),
])
def test_a_device_name_is_read_as_the_card_it_plays_on(device, card):
    assert card_of(device) == card


def test_the_amplifier_leaves_gpio4_alone_unless_an_sd_pin_is_wired():
    assert overlay_line() == "dtoverlay=max98357a,no-sdmode"
    assert overlay_line(25) == "dtoverlay=max98357a,sdmode-pin=25"
