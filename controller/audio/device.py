"""Which ALSA device plays the handset: the one fact the installer, the player and `doctor` share.

The max98357a overlay makes a sound card whose ALSA id is ``MAX98357A`` (the overlay's
simple-audio-card name). Naming the card by its id, not its number, keeps playback on the
amplifier whatever order the Pi's own HDMI and headphone cards take at boot; ALSA's default
(card 0 unless an asound.conf says otherwise) is the Pi's own output on a Pi 4 or Pi 5.
"""

import re

AMP_CARD = "MAX98357A"
AMP_DEVICE = "plughw:CARD=%s,DEV=0" % AMP_CARD
OVERLAY = "max98357a"


def overlay_line(sd_pin: int | None = None) -> str:
    """The config.txt line for the amplifier. With no SD pin wired (newsdesk's default) the
    driver is told to leave SD alone, so it doesn't take GPIO4 (the overlay's default SD pin);
    the module's own pull-up keeps it on."""
    if sd_pin is None:
        return "dtoverlay=%s,no-sdmode" % OVERLAY
    return "dtoverlay=%s,sdmode-pin=%d" % (OVERLAY, sd_pin)


def card_of(device: str | None) -> tuple[str, str | int] | None:
    """The card an ALSA device name plays on: ("id", "MAX98357A") for ``plughw:CARD=MAX98357A,DEV=0``,
    ("index", 1) for ``hw:1,0`` or ``plughw:1``; None for ALSA's default ("" or "default")."""
    device = (device or "").strip()
    if device in ("", "default"):
        return None
    m = re.match(r"^(?:plug)?hw:(?:CARD=)?([^,]+)", device)
    if not m:
        return ("other", device)
    card = m.group(1)
    return ("index", int(card)) if card.isdigit() else ("id", card)
