"""Choosing gpiozero's pin factory: simulated pins off a Pi or when asked, and a factory that
can't be loaded named in a ConfigError rather than a traceback."""

import pytest
from gpiozero.pins.mock import MockFactory

from controller.errors import ConfigError
from controller.hw.pinfactory import choose_pin_factory, is_simulated


@pytest.mark.parametrize("setting, on_pi, why", [
    ("auto", False, "simulated (MockFactory: no Raspberry Pi detected)"),
    ("mock", True, "simulated (MockFactory: setting pin_factory=mock)"),
])
def test_off_a_pi_or_when_asked_the_pins_are_simulated_and_it_says_why(setting, on_pi, why):
    factory, said = choose_pin_factory(setting, environ={}, on_pi=on_pi)
    try:
        assert isinstance(factory, MockFactory) and is_simulated(factory) and said == why
    finally:
        factory.close()


def test_a_factory_that_cant_be_loaded_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match="can't load gpiozero's pin factory 'no-such-pins'"):
        choose_pin_factory("no-such-pins", environ={}, on_pi=False)
    assert not is_simulated(object())
