"""Where the publisher got to in the store's log: the id of the newest event the broker has
acknowledged with everything before it. Kept in ``mqtt-cursor.json`` beside the store, one
entry per broker and topic, so a broker changed later starts from where that one stands.

Written atomically (a temporary file, fsync, rename), and not after every acknowledgement (an
fsync competes with the store's own on the same SD card): a power cut can cost the last few
seconds of positions, and those events are then sent again. Subscribers drop repeats by the
event id each one carries. A clean stop writes the last position.
"""

import json
import logging
import os
from pathlib import Path

from .. import board

log = logging.getLogger(__name__)

CURSOR_FILE = "mqtt-cursor.json"


def _write_json(path, data, what):
    """``data`` into ``path`` atomically (a temporary file, fsync, rename); a failure is logged as
    ``what`` could not be kept, and the table goes on."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        log.warning("can't keep %s in %s: %s", what, path, e)
        return False
    return True


class Cursor:
    def __init__(self, data_dir, key):
        self.path = Path(data_dir) / CURSOR_FILE
        self.key = key
        self._all = self._read()
        self.saved = self._all.get(key)

    def _read(self):
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            log.warning("can't read %s (%s); MQTT starts from the newest event", self.path, e)
            return {}
        return {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)} \
            if isinstance(data, dict) else {}

    def save(self, position):
        if position == self.saved:
            return
        self._all[self.key] = position
        if _write_json(self.path, self._all, "the MQTT position"):
            self.saved = position


KEPT_FILE = "mqtt-kept.json"


class Kept:
    """What MQTT shows that the store's log does not hold, kept in ``mqtt-kept.json`` beside the
    store so that a restart of newsdesk (with a broker that lost its retained messages) shows the
    same as before:

    - ``install``: this data folder's id. Event ids start again at 1 in a fresh data folder (or a
      store restored from an older copy), so subscribers tell a table's events apart by (install,
      id); a fresh folder has no file and so gets a new id. Kept with the ``machine`` it was
      made on (board.machine): a folder found on another machine (an SD card copied for a
      second box, the usual way to make twenty tables for a convention) is a new install there,
      or the two boxes would share one client id and one identity at the broker, and each would
      take the other for itself.
    - ``number``: the last number dialed. The handset's lifts and hang-ups are live events, never
      stored, so the store can't say where a number began; it is written once per hang-up.
    - ``announced`` and ``retired``: where the table is announced, and the old places (a table
      renamed) whose removal Home Assistant may not have heard yet (publisher.py).

    Written atomically (a temporary file, fsync, rename), like the cursor.
    """

    def __init__(self, data_dir, machine=None):
        self.path = Path(data_dir) / KEPT_FILE
        self._data = _read_kept(self.path)
        here = (machine or board.machine)()
        made_on = self._data.get("machine")
        if _install(self._data) is None:
            self.new_install(here)
        elif here and made_on and made_on != here:
            log.warning("MQTT: this data folder's install (%s) was made on another machine (an SD card copied "
                        "from another box?); this box is a new install, so the two aren't taken for one",
                        self._data["install"])
            # where that box announced itself is its own: cleared from here, it would take the other
            # box's device out of Home Assistant
            self._data.pop("announced", None)
            self._data.pop("retired", None)
            self.new_install(here)
        elif here and not made_on:          # a file from before the machine was kept beside the install
            self.put("machine", here)

    @property
    def install(self):
        return self._data["install"]

    def new_install(self, machine=None):
        """A new numbering of events: a fresh data folder, a store older than the cursor, or a
        folder copied from another machine (``machine``: this one's, kept beside it)."""
        import secrets

        self._data["install"] = secrets.token_hex(6)
        if machine:
            self._data["machine"] = machine
        self._write()

    def get(self, name):
        return self._data.get(name)

    def put(self, name, value):
        if self._data.get(name) != value:
            self._data[name] = value
            self._write()

    def _write(self):
        _write_json(self.path, self._data, "MQTT's state")


def _read_kept(path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        log.warning("can't read %s (%s); MQTT starts it again", path, e)
        return {}
    return data if isinstance(data, dict) else {}


def _install(data):
    install = data.get("install")
    return install if isinstance(install, str) and install else None


def kept_install(data_dir):
    """The data folder's install as mqtt-kept.json holds it, or None; read only (newsdesk doctor
    looks, and must not make a folder a new install)."""
    path = Path(data_dir) / KEPT_FILE
    return _install(_read_kept(path)) if path.exists() else None
