"""What a person can't see in a name: a name the table reads (a player's, a device's) may not
hold a control character, an invisible one or a direction mark. Two names that look alike would
be two players (or two devices in the host's list), a line break would split a name on the
screen, and a right-to-left mark would show a name backwards ("\u202eevil" reads "live")."""

import unicodedata

from .errors import BadRequest

# Unicode categories of characters nobody sees as part of a name: control characters (a line
# break, a tab), format characters (a zero-width space or joiner, a direction mark), line and
# paragraph separators, and unassigned or private code points.
UNSEEN = {"Cc": "a line break, tab or other control character", "Cf": "an invisible character",
          "Zl": "a line break", "Zp": "a paragraph break", "Co": "a private character",
          "Cn": "an unassigned character", "Cs": "a broken character"}


ZWJ = "\u200d"           # the zero-width joiner: invisible, but an emoji keyboard puts it inside a family, a profession...
VS16 = "\ufe0f"          # the variation selector that asks for a symbol's emoji form


def _in_emoji(ch):
    return ch == VS16 or unicodedata.category(ch) in ("So", "Sk")     # a pictograph, or a skin tone


def visible(text, what):
    """Refuse ``text`` (``what`` says whose) holding a character the table can't see: two names
    that look alike would be two players, and a line break would split a name on the screen. A
    joiner between two parts of an emoji (👩‍👧) is seen as the one emoji it makes, as an emoji
    keyboard types it."""
    for i, ch in enumerate(text):
        kind = UNSEEN.get(unicodedata.category(ch))
        if ch == ZWJ and 0 < i < len(text) - 1 and _in_emoji(text[i - 1]) and _in_emoji(text[i + 1]):
            continue
        if kind:
            raise BadRequest("%s has %s in it (U+%04X): type it again without it" % (what, kind, ord(ch)))
