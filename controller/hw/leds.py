"""The box's LEDs as gpiozero LEDs, wired per the pin map: the dice button's (blinks as the dice
roll), the stopwatch button's (lit while it runs) and the status LED (lit while the box is ready).
"""

import logging

from gpiozero import LED

log = logging.getLogger(__name__)

LEDS = ("dice_led", "stopwatch_led", "status_led")


class OracleLeds:
    """Construct-or-close: either every LED is claimed or none stays claimed."""

    def __init__(self, pinmap, pin_factory, names=LEDS, blink_time=0.08, blinks=3):
        self._leds = {}
        self.blink_time = blink_time
        self.blinks = blinks
        try:
            for name in names:
                spec = pinmap.line(name)
                self._leds[name] = LED(spec.bcm, active_high=spec.active_high, initial_value=False,
                                       pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def led(self, name):
        return self._leds[name]

    def _do(self, name, what, *args, **kwargs):
        led = self._leds.get(name)
        if led is not None:
            getattr(led, what)(*args, **kwargs)

    def rolled(self):
        """The dice LED blinks a few times, in the background."""
        self._do("dice_led", "blink", on_time=self.blink_time, off_time=self.blink_time, n=self.blinks,
                 background=True)

    def stopwatch(self, running):
        self._do("stopwatch_led", "on" if running else "off")

    def ready(self, on=True):
        self._do("status_led", "on" if on else "off")

    def close(self):
        for led in self._leds.values():
            try:
                led.close()
            except Exception:
                log.exception("closing %r failed", led)
        self._leds = {}
