"""The Pico's pins. Generated from hardware/pinmap.toml by firmware/tools/genpins.py:
edit the pin map and run `make firmware-pins`, never this file.

INPUTS: line -> (GPn, pull, the logical state a HIGH level means).
OUTPUTS: line -> (GPn, True if driving the pin HIGH switches it on).
BOARD_LEDS: the outputs that are the board's own LED (not GP25 on a Pico W: main.py
asks for it by name there).
What each line is wired to is said once, in the pin map.
"""

INPUTS = {
    'pulse': (2, 'up', 1),
    'offnormal': (3, 'up', 0),
    'hook': (4, 'up', 0),
}

OUTPUTS = {
    'ringer': (15, True),
    'status_led': (25, True),
}

BOARD_LEDS = ('status_led',)
