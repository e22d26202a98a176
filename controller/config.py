"""Settings, layered: defaults, then <data>/config.toml, then NEWSDESK_* variables, then the command line.

Only this module and the CLI read the environment; everything below is handed a Config.
"""

import os
import re
import socket
import sys
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import board
from .dial.decoder import OFFNORMAL_MODES
from .dial.dialmaps import DIAL_MAPS
from .errors import ConfigError
from .mqtt.topics import default_base
from .oracles.editor import MODES as EDITOR_MODES
from .oracles.stopwatch import MODES as STOPWATCH_MODES

DEFAULTS = {
    "host": "",                 # "" = 0.0.0.0 on a Raspberry Pi (tablets reach it), 127.0.0.1 elsewhere
    "port": 8080,
    "threads": 8,               # worker threads for Flask's views (live streams hold none: they run on the event loop)
    "streams_max": 600,         # open live pages in all; past it a page gets 503 + Retry-After and polls
    "streams_per_address": 8,   # open live pages from one address (a device's tabs); the host has no such cap
    "streams_host_reserve": 16,  # of streams_max, kept for the host (the box's own screen on loopback)
    "header_timeout": 10,       # seconds a connection may take to send a request's headers, or sit idle between requests
    "phone": "gpio",            # gpio (contacts on the Pi's header) | serial (a Pico in the phone, on USB)
    "phone_port": "",           # serial: "" = find it by phone_usb_id; or e.g. /dev/ttyACM0
    "phone_usb_id": "2E8A:0005",  # serial: USB VID:PID to look for (newsdesk's default: MicroPython on a Pico)
    "pin_factory": "auto",      # auto | mock | lgpio | rpigpio | native ... (gpiozero's names)
    "pinmap": "",               # "" = the repo's hardware/pinmap.toml
    "dial_map": "standard",     # standard | sweden | new-zealand
    "offnormal": "auto",        # auto | wired | none
    "min_flash_ms": 100,        # the shortest on-hook that counts (a hand resting on the cradle is shorter; decoder.py)
    "phone_profile": "default",  # whose dial profile (<data>/dial-profiles.json) starts the decoder
    "dial_standard": "bell",    # what the dial tester judges a dial by: bell | gpo (docs/dial-tester.md)
    "editor_mode": "mechanical",  # mechanical | fair
    "editor_disc": "",          # the mechanical disc's windows in order, comma-separated; "" = newsdesk's disc
    "editor_weights": "",       # fair mode's weights, "OK=5, X=2, ..."; "" = newsdesk's weights
    "dice": "2d6",              # what the dice button rolls (any NdM)
    "dice_choices": "",         # what a long press steps through; "" = 2d6, 1d6, 1d10, 1d4
    "stopwatch_mode": "stopwatch",  # stopwatch (two presses, the hundredths digit) | d10 (one press)
    "display": "auto",          # the phone's window: auto | ssd1306 | dummy | none
    "audio": "auto",            # auto (aplay when installed) | off
    "audio_device": "",         # "" = ALSA's default; make install names the amplifier's card here
    "audio_volume": 100,        # percent of the loudest the pad in the wiring allows (1-100); docs/build.md, levels
    "tone_plan": "north-america",  # call-progress tones and the ring cadence: north-america | uk
    "bell_strike_hz": 20,       # solenoid strikes a second within each ring: 0 (held on) or 5-40
    "speech": "auto",           # auto (espeak-ng when installed) | off
    "speech_voice": "",         # "" = espeak-ng's default voice
    "busy_after": 20,           # seconds of off-hook silence before busy (newsdesk's choice)
    "volatile_data": "refuse",  # refuse | allow: run on a data directory that loses writes (RAM, overlay)
    "table_name": "",           # what this table is called on MQTT and in a league; "" = the machine's host name
    "mqtt_url": "",             # "" = no MQTT; mqtt://user:password@host:1883, mqtts://... for TLS (docs/mqtt.md)
    "mqtt_topic": "",           # "" = newsdesk/<table_name>
    "mqtt_discovery": "homeassistant",  # Home Assistant's discovery prefix; off = send no discovery
    "mqtt_ca": "",              # mqtts: "" = the system's certificate authorities; or a CA file for the broker's
    "mqtt_commands": "bell",    # what the box takes from MQTT: bell (a ring request, at most one a second) | none
    "backup_dir": "",           # "" = none; a folder (a USB stick) where `newsdesk backup` keeps dated backups
    "backup_keep": 14,          # how many of them backup_dir keeps (the oldest go)
    "host_on_loopback": "yes",  # yes: requests from 127.0.0.1 / ::1 (the box's screen) are the host; no:
                                # behind a reverse proxy on the box (become host with `newsdesk host-link`)
}
CHOICES = {
    "dial_map": DIAL_MAPS,
    "phone": ("gpio", "serial"),
    "offnormal": tuple(OFFNORMAL_MODES),
    "dial_standard": ("bell", "gpo"),
    "editor_mode": EDITOR_MODES,
    "stopwatch_mode": STOPWATCH_MODES,
    "display": ("auto", "ssd1306", "dummy", "none"),   # hw/display.py draws them
    "audio": ("auto", "off"),
    "speech": ("auto", "off"),
    "tone_plan": ("north-america", "uk"),
    "volatile_data": ("refuse", "allow"),
    "mqtt_commands": ("bell", "none"),
    "host_on_loopback": ("yes", "no"),
}


INSTALLED_UNIT = "/etc/systemd/system/newsdesk.service"     # what deploy/install.py writes


def installed_data_dir(unit: str | None = None) -> Path | None:
    """The data folder of the panel `make install` set up on this box (its service's --data), or None.

    On a box, `newsdesk doctor`, `backup` and `make update` run by its owner in a shell mean the
    box's data, not a folder of their own in ~/.local/share that the service never reads."""
    try:
        with open(unit or INSTALLED_UNIT, encoding="utf-8") as f:
            text = f.read(65536)
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(r"(?m)^ExecStart=\S*newsdesk\s+--data\s+(\S+)", text)
    return Path(found.group(1)) if found else None


def default_data_dir() -> Path:
    """Where newsdesk keeps its store and config when neither --data nor NEWSDESK_DATA says: the
    installed service's folder on a box (installed_data_dir), else the platform's place for a user's data."""
    installed = installed_data_dir()
    if installed is not None:
        return installed
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "newsdesk"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "newsdesk"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else home / ".local" / "share") / "newsdesk"


def _coerce(key: str, value: Any, source: str) -> Any:
    default = DEFAULTS[key]
    if isinstance(default, int) and not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise ConfigError("%s: %s must be a whole number, got %r" % (source, key, value)) from None
    if isinstance(default, str):
        value = str(value)
        # a setting is a line of text: a NUL stopped the backups' keeper (a path can't hold one),
        # and an escape in it reached the terminal of every command that names it (config.toml
        # may come from a stranger's backup). A tab, which TOML writes as it is, stays allowed.
        control = next((c for c in value if unicodedata.category(c) == "Cc" and c != "\t"), None)
        if control is not None:
            raise ConfigError("%s: %s holds a control character (%r): a setting is one line of text"
                              % (source, key, control))
    if key in CHOICES and value not in CHOICES[key]:
        raise ConfigError("%s: %s must be one of %s, got %r"
                          % (source, key, ", ".join(CHOICES[key]), value))
    if key == "port" and not 0 <= value <= 65535:
        raise ConfigError("%s: port must be 0-65535, got %d" % (source, value))
    if key == "phone_usb_id":
        from .serial.finder import parse_usb_id
        parse_usb_id(value)      # raises ConfigError naming the value
    if key == "busy_after" and not 1 <= value <= 3600:
        raise ConfigError("%s: busy_after must be 1-3600 seconds, got %d" % (source, value))
    if key == "min_flash_ms" and not 25 <= value <= 2000:
        raise ConfigError("%s: min_flash_ms must be 25-2000 (milliseconds of on-hook that count as hanging "
                          "up), got %d" % (source, value))
    if key == "audio_volume" and not 1 <= value <= 100:
        raise ConfigError("%s: audio_volume must be 1-100 (percent of the wiring's loudest), got %d" % (source, value))
    if key == "bell_strike_hz" and value != 0 and not 5 <= value <= 40:
        raise ConfigError("%s: bell_strike_hz must be 0 (held on) or 5-40 strikes a second, got %d" % (source, value))
    if key in ("mqtt_topic", "mqtt_discovery") and value and (
            any(c in value for c in "+#\0") or value.startswith("/") or value.endswith("/")):
        raise ConfigError("%s: %s is an MQTT topic without + or # and without a leading or trailing /, "
                          "got %r" % (source, key, value))
    if key == "threads" and not 4 <= value <= 256:
        raise ConfigError("%s: threads must be 4-256, got %d" % (source, value))
    if key == "streams_max" and not 1 <= value <= 10000:
        raise ConfigError("%s: streams_max must be 1-10000, got %d" % (source, value))
    if key == "streams_per_address" and not 1 <= value <= 1000:
        raise ConfigError("%s: streams_per_address must be 1-1000, got %d" % (source, value))
    if key == "streams_host_reserve" and not 0 <= value <= 1000:
        raise ConfigError("%s: streams_host_reserve must be 0-1000, got %d" % (source, value))
    if key == "backup_keep" and not 1 <= value <= 1000:
        raise ConfigError("%s: backup_keep must be 1-1000 backups, got %d" % (source, value))
    if key == "header_timeout" and not 1 <= value <= 300:
        raise ConfigError("%s: header_timeout must be 1-300 seconds, got %d" % (source, value))
    return value


class Config(dict[str, Any]):
    """A dict of settings plus the data folder they came with."""

    def __init__(self, data_dir: str | os.PathLike[str], values: dict[str, Any]) -> None:
        super().__init__(values)
        self.data_dir = Path(data_dir)

    @property
    def bind_host(self) -> str:
        host: str = self["host"]
        if host:
            return host
        return "0.0.0.0" if board.is_raspberry_pi() else "127.0.0.1"

    @property
    def table(self) -> str:
        """The table's name: table_name, else this machine's host name."""
        return self["table_name"].strip() or socket.gethostname().split(".")[0] or "table"

    @property
    def mqtt_topic(self) -> str:
        """Where the table's MQTT topics live: mqtt_topic, else newsdesk/<the table's name, topic-safe>."""
        return self["mqtt_topic"] or default_base(self.table)


def load_config(data_dir: str | os.PathLike[str] | None = None, overrides: dict[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> Config:
    environ = os.environ if environ is None else environ
    data = Path(data_dir or environ.get("NEWSDESK_DATA") or default_data_dir()).expanduser()
    values = dict(DEFAULTS)
    path = data / "config.toml"
    try:
        filed_here = path.is_file()
    except OSError as e:            # the folder itself can't be read: say so, as serve would
        from .durability import unusable
        raise unusable(data, e) from None
    if filed_here:
        try:
            filed = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise ConfigError("can't read %s: %s" % (path, e)) from None
        for key, value in filed.items():
            if key not in DEFAULTS:
                raise ConfigError("%s: unknown setting %r (known: %s)" % (path, key, ", ".join(DEFAULTS)))
            values[key] = _coerce(key, value, str(path))
    for key in DEFAULTS:
        name = "NEWSDESK_" + key.upper()
        if name in environ:
            values[key] = _coerce(key, environ[name], name)
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ConfigError("unknown setting %r" % key)
        if value is not None:
            values[key] = _coerce(key, value, "command line")
    return Config(data, values)
