"""Seven-segment digits, and the optional TM1637 4-digit display for the stopwatch.

The segment table is shared with the OLED window, which draws its stopwatch in the same style.
The TM1637 takes two lines, clock and data, named ``segments_clk`` and ``segments_dio`` in the
pin map (optional: a box without them has no 7-segment display). Its serial protocol is bit-
banged through gpiozero output devices, so MockFactory pins stand in for it in tests:

    CLK ────┐  ┌─┐ ┌─┐ ┌─ ... ─┐ ┌───────────┐       start: DIO falls while CLK is high
    DIO ──┐ └──┘ └─┘ └─  ...   └─┘ ┌── ack ──┐ └──    data: LSB first, DIO set while CLK low
          start   bit0 bit1 ...  bit7         stop    stop: DIO rises while CLK is high

Commands (from the TM1637 datasheet): 0x40 write with auto-increment, 0xC0 + n address of digit
n, 0x88 + b display on with brightness b (0-7).
"""

import logging

log = logging.getLogger(__name__)

# segments of each character, a to g:   a
#                                      f b
#                                       g
#                                      e c
#                                       d
SEGMENTS = {"0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd",
            "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": ""}
BITS = {s: 1 << i for i, s in enumerate("abcdefg")}
DOT = 0x80              # the TM1637 modules' decimal point (or the colon, on clock modules) is bit 7

WRITE_AUTO = 0x40
ADDRESS = 0xC0
DISPLAY_ON = 0x88


def encode(char):
    """The segment byte for one character."""
    return sum(BITS[s] for s in SEGMENTS[char])


def stopwatch_digits(centis):
    """Four segment bytes for a stopwatch reading: "SS.hh" under 100 s, "MM.SS" (minutes and
    seconds, dot between) from then on, "--.--" past 99 minutes."""
    seconds, hundredths = divmod(centis, 100)
    if seconds < 100:
        text, dot_after = "%2d%02d" % (seconds, hundredths), 1
    elif seconds < 6000:
        text, dot_after = "%2d%02d" % divmod(seconds, 60), 1
    else:
        text, dot_after = "----", 1
    out = [encode(c) for c in text]
    out[dot_after] |= DOT
    return out


class TM1637:
    """A TM1637 module on two gpiozero output lines. Construct-or-close."""

    def __init__(self, pinmap, pin_factory, brightness=3, clk="segments_clk", dio="segments_dio"):
        from gpiozero import DigitalOutputDevice

        if isinstance(brightness, bool) or not isinstance(brightness, int) or not 0 <= brightness <= 7:
            raise ValueError("TM1637 brightness is 0 to 7, got %r" % (brightness,))
        self.brightness = brightness
        self._clk = self._dio = None
        try:
            self._clk = DigitalOutputDevice(pinmap.line(clk).bcm, initial_value=True, pin_factory=pin_factory)
            self._dio = DigitalOutputDevice(pinmap.line(dio).bcm, initial_value=True, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def _start(self):
        self._dio.off()
        self._clk.off()

    def _stop(self):
        self._dio.off()
        self._clk.on()
        self._dio.on()

    def _byte(self, value):
        for i in range(8):
            self._dio.value = (value >> i) & 1
            self._clk.on()
            self._clk.off()
        # the ninth clock is the module's acknowledge; we don't read it back
        self._dio.off()
        self._clk.on()
        self._clk.off()

    def _command(self, *values):
        self._start()
        for v in values:
            self._byte(v)
        self._stop()

    def show(self, segments):
        """Write four segment bytes, left to right, and switch the display on."""
        if len(segments) != 4:
            raise ValueError("a TM1637 module here has 4 digits; got %d bytes" % len(segments))
        self._command(WRITE_AUTO)
        self._command(ADDRESS, *segments)
        self._command(DISPLAY_ON + self.brightness)

    def show_centiseconds(self, centis):
        self.show(stopwatch_digits(centis))

    def close(self):
        for dev in (self._clk, self._dio):
            if dev is not None:
                dev.close()
        self._clk = self._dio = None
