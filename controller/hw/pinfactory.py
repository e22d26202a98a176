"""Choosing gpiozero's pin factory: the real pins on a Pi, MockFactory (simulated hardware) elsewhere.

Order: the `pin_factory` setting when not "auto"; else GPIOZERO_PIN_FACTORY when set (gpiozero
reads it itself); else gpiozero's own default on a Raspberry Pi (lgpio, which works on the Pi 5,
or RPi.GPIO on older boards); else MockFactory, as also on the emulated Pi of board.py's test
hook (it has no pins). One log line says which, and why.
"""

import logging
import os

from .. import board
from ..errors import ConfigError

log = logging.getLogger(__name__)


def is_simulated(factory):
    from gpiozero.pins.mock import MockFactory
    return isinstance(factory, MockFactory)


def choose_pin_factory(setting="auto", environ=None, on_pi=None):
    """Returns (factory, reason). Raises ConfigError naming the factory if it can't be loaded."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory
    from gpiozero.pins.mock import MockFactory

    environ = os.environ if environ is None else environ
    emulated = on_pi is None and board.is_emulated()    # board.py's test hook: a Pi with no pins
    on_pi = board.is_raspberry_pi() and not emulated if on_pi is None else on_pi
    if setting == "mock" or (setting == "auto" and not environ.get("GPIOZERO_PIN_FACTORY") and not on_pi):
        reason = ("setting pin_factory=mock" if setting == "mock" else
                  "an emulated Raspberry Pi: %s" % board.EMULATED_PI_FILE if emulated else "no Raspberry Pi detected")
        factory = MockFactory()
        log.warning("GPIO: simulated hardware (gpiozero MockFactory; %s); "
                    "the panel's virtual phone drives the pins", reason)
        return factory, "simulated (MockFactory: %s)" % reason
    try:
        if setting == "auto":
            factory = Device._default_pin_factory()
            why = ("GPIOZERO_PIN_FACTORY=%s" % environ["GPIOZERO_PIN_FACTORY"]
                   if environ.get("GPIOZERO_PIN_FACTORY") else "gpiozero's default on a Raspberry Pi")
        else:
            factory = _load_named(setting)
            why = "setting pin_factory=%s" % setting
    except (BadPinFactory, ImportError, OSError, RuntimeError) as e:
        raise ConfigError("can't load gpiozero's pin factory %r: %s" % (setting, e)) from None
    name = type(factory).__name__
    if is_simulated(factory):
        log.warning("GPIO: simulated hardware (gpiozero %s; %s)", name, why)
        return factory, "simulated (%s: %s)" % (name, why)
    log.info("GPIO: real pins through gpiozero %s (%s)", name, why)
    return factory, "%s (%s)" % (name, why)


def _load_named(name):
    """Load a factory by gpiozero's entry-point name (lgpio, rpigpio, native, mock, ...)."""
    from importlib.metadata import entry_points

    from gpiozero.exc import BadPinFactory

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name.lower():
            return ep.load()()
    raise BadPinFactory("no pin factory named %r" % name)
