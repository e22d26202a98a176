"""A profile per phone: what the dial tester learned about a dial, kept in the data folder.

<data>/dial-profiles.json maps a phone's name to its dial's speed, % break and make/break ratio
(and the standard it was judged by). The ratio is the decoder's starting point for that phone,
on the Pi and on the Pico (sent over the link); the decoder still learns from every call. The
phone in use is the ``phone_profile`` setting. A damaged file is set aside and reported, never
a crash: the decoder then starts from nothing, as it always could.
"""

import json
import logging
import os
import re
import time

from .decoder import RATIO_MAX
from .tester import STANDARDS

log = logging.getLogger(__name__)

PROFILE_FILE = "dial-profiles.json"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,39}$")


class ProfileError(ValueError):
    """A profile name or value that can't be kept; the message says which."""


def check_name(name):
    if not isinstance(name, str) or not NAME.match(name.strip()):
        raise ProfileError("a phone's name is 1-40 letters, digits, spaces or - _ . ' (e.g. \"GPO 746\"), "
                           "not %r" % (name,))
    return name.strip()


class Profiles(object):
    """The profiles file. Small, rewritten whole (atomically) on each change."""

    def __init__(self, data_dir, clock=time.time):
        self.path = os.path.join(str(data_dir), PROFILE_FILE)
        self._clock = clock

    def load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as e:      # RecursionError: nested past Python's depth
            log.warning("dial profiles %s can't be read (%s); starting without them", self.path,
                        "nested too deep" if isinstance(e, RecursionError) else e)
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, dict)}

    def get(self, name):
        return self.load().get(name)

    def ratio(self, name):
        """The starting make/break ratio for phone ``name``, or None (unknown, or unusable)."""
        profile = self.get(name) or {}
        ratio = profile.get("ratio")
        if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and 0.1 <= ratio <= RATIO_MAX:
            return float(ratio)
        return None

    def save(self, name, summary, standard, dial_map):
        """Keep what a test learned (``tester.summary``) as phone ``name``'s profile."""
        name = check_name(name)
        if not summary:
            raise ProfileError("nothing to keep: dial a digit with two or more pulses (0 is best)")
        if not isinstance(standard, str) or standard not in STANDARDS:
            raise ProfileError("standard is one of %s, not %r" % (", ".join(STANDARDS), standard))
        data = self.load()
        data[name] = {"pps": summary["pps"], "break_pct": summary["break_pct"], "ratio": summary["ratio"],
                      "digits": summary["digits"], "standard": standard, "dial_map": dial_map,
                      "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self._clock()))}
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        return data[name]
