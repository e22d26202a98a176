"""The box's LEDs as gpiozero LEDs, wired per the pin map: the dice button's (blinks as the dice
roll), the stopwatch button's (lit while it runs) and the status LED (lit while the box is ready).
"""

import logging
import threading

from gpiozero import LED

log = logging.getLogger(__name__)

LEDS = ("dice_led", "stopwatch_led", "status_led")


class OracleLeds:
    """Construct-or-close: either every LED is claimed or none stays claimed."""

    def __init__(self, pinmap, pin_factory, names=LEDS, blink_time=0.08, blinks=3):
        self._leds = {}
        self.blink_time = blink_time
        self.blinks = blinks
        self._roll = threading.Event()      # a roll to blink for (set again mid-blink: start over)
        self._closing = False
        self._blinker = None
        try:
            for name in names:
                spec = pinmap.line(name)
                self._leds[name] = LED(spec.bcm, active_high=spec.active_high, initial_value=False,
                                       pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        if "dice_led" in self._leds:
            self._blinker = threading.Thread(target=self._blink, args=(self._leds["dice_led"],), name="dice-led",
                                             daemon=True)
            self._blinker.start()

    def led(self, name):
        return self._leds[name]

    def _do(self, name, what, *args, **kwargs):
        led = self._leds.get(name)
        if led is not None:
            getattr(led, what)(*args, **kwargs)

    def rolled(self):
        """The dice LED blinks a few times, in the background: on one thread kept for it, which
        sleeps between rolls. (gpiozero's ``blink`` starts a thread for each blink; on a Pi Zero 2 W
        starting it took CPU from the roll on its way to the open pages: docs/benchmarks.md.)"""
        self._roll.set()

    def _blink(self, led):
        while True:
            self._roll.wait()
            if self._closing:
                return
            self._roll.clear()
            try:
                for _ in range(self.blinks):
                    led.on()
                    if self._roll.wait(self.blink_time):
                        break                   # another roll (or the close): start over
                    led.off()
                    if self._roll.wait(self.blink_time):
                        break
                led.off()
            except Exception:                   # closed under it, or a pin that failed
                if self._closing:
                    return
                log.exception("blinking the dice LED failed")

    def stopwatch(self, running):
        self._do("stopwatch_led", "on" if running else "off")

    def ready(self, on=True):
        self._do("status_led", "on" if on else "off")

    def close(self):
        self._closing = True
        self._roll.set()
        if self._blinker is not None:
            self._blinker.join(timeout=2)
            self._blinker = None
        for led in self._leds.values():
            try:
                led.close()
            except Exception:
                log.exception("closing %r failed", led)
        self._leds = {}
