"""Seven-segment digits: which of the segments a to g light for each character.

The phone's window (hw/display.py) draws its stopwatch in this style, so a glance at the box
reads like the stopwatch it stands in for.
"""

# segments of each character, a to g:   a
#                                      f b
#                                       g
#                                      e c
#                                       d
SEGMENTS = {"0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd",
            "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": ""}
