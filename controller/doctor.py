"""`newsdesk doctor`: looks at everything the box needs and says, in plain words, what is wrong
and how to fix it.

    port      is the panel's port free, or is newsdesk already serving on it
    pins      which pin factory gpiozero gives (real pins, or simulated ones, said as such)
    inputs    each input's level at rest: dial at rest, handset down, no button pressed
    ringer    the bell's line is off when nothing rings: a program killed mid-strike leaves it
              on (the kernel keeps a line's last level), holding the solenoid on and heating
    display   the I2C bus is on and something answers at the display's address
    audio     aplay is there, and the card that will play (audio_device, or ALSA's default
              card 0) is the receiver's, not the Pi's own HDMI or headphone output
    phone     the Pico-in-the-phone on USB, when it is used
    store     the data directory is durable and writable, the store opens and checks out
    backup    no restore was cut off part way; backup_dir is there, with a backup from the last week
    mqtt      when mqtt_url is set: the address reads, the broker answers and takes the user
    games     every game found can be played: each that can't is a fault, in the sentence
              `newsdesk games` gives (controller/games/registry.py)

Everything it looks at comes through ``Probes``, so tests hand it MockFactory pins, a fake
/proc/asound/cards, fake serial ports and a fake mountinfo. It returns a ``Report``: findings
(what it saw; how to fix it) and an exit status, 1 if anything is at fault. A finding's status
is the health strip's word (controller/health.py: ok, warn, fault, absent) and its ``part`` the
strip's part ("hook" belongs to the phone), so the two say the same thing of the same part.
"""

import errno
import http.client
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

from .audio.device import AMP_CARD, AMP_DEVICE, card_of, overlay_line
from .durability import OVERRIDE, DataDirNotDurable, check_data_dir
from .errors import NewsdeskError
from .health import ABSENT, FAULT, LOW_SPACE, OK, WARN, part_of
from .pinmap import PHONE_LINES, load_pinmap
from .store import STORE_FILE

I2C_SLAVE = 0x0703                  # the Linux i2c-dev ioctl that picks the device address
# ALSA card ids of the Pi's own outputs (HDMI and the headphone jack): not the receiver's amplifier
BUILTIN_CARDS = ("vc4hdmi", "vc4hdmi0", "vc4hdmi1", "Headphones", "b1", "ALSA")
WIRING = "docs/wiring.md"


class Finding:
    """One thing the doctor looked at: ``check`` (a pin-map line, or "port", "pins"...), the
    health ``part`` it belongs to (None for the box as a whole), what it ``said`` and the ``fix``."""

    __slots__ = ("status", "check", "part", "said", "fix")

    def __init__(self, status, check, said, fix=""):
        self.status = status
        self.check = check
        self.part = part_of(check)
        self.said = said
        self.fix = fix

    def __repr__(self):
        return "<%s %s: %s>" % (self.status, self.check, self.said)


class Report:
    def __init__(self, findings):
        self.findings = findings

    @property
    def exit_status(self):
        return 1 if any(f.status == FAULT for f in self.findings) else 0

    def of(self, check):
        return [f for f in self.findings if f.check == check]


# --- what the doctor looks at: the real thing by default, fakes in tests ---

def _default_pins(config):
    from .hw.pinfactory import choose_pin_factory, is_simulated
    factory, reason = choose_pin_factory(config["pin_factory"])
    return factory, reason, is_simulated(factory)


def i2c_answers(bus, address, dev="/dev/i2c-%d"):
    """True if a device acknowledges ``address`` on I2C ``bus`` (a one-byte read, as
    ``i2cdetect -r`` does); False if nothing does. OSError if the bus can't be opened."""
    import fcntl
    fd = os.open(dev % bus, os.O_RDWR)
    try:
        try:
            fcntl.ioctl(fd, I2C_SLAVE, address)
        except OSError as e:
            if e.errno == errno.EBUSY:      # a kernel driver has claimed it: it is there
                return True
            raise
        try:
            os.read(fd, 1)
            return True
        except OSError as e:
            if e.errno in (errno.ENXIO, errno.EREMOTEIO, errno.EIO, errno.ETIMEDOUT):
                return False
            raise
    finally:
        os.close(fd)


def _read(path):
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def sound_cards(text):
    """(index, id, name) of each card in /proc/asound/cards."""
    cards = []
    for line in (text or "").splitlines():
        m = re.match(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s*(.*)$", line)
        if m:
            cards.append((int(m.group(1)), m.group(2), m.group(3).strip()))
    return cards


def parse_line_level(text):
    """("output" or "input", True if HIGH) from what ``pinctrl get N`` or ``raspi-gpio get N``
    print; None if it reads as neither."""
    # pinctrl (Raspberry Pi OS bookworm): "<n>: op dh pd | hi // GPIO<n> = output"
    m = re.search(r"^\s*\d+:\s*(\w+)\b[^|]*\|\s*(hi|lo)\b", text or "", re.M)
    if m:
        return ("output" if m.group(1) == "op" else "input"), m.group(2) == "hi"
    # raspi-gpio (older releases): "GPIO <n>: level=1 fsel=1 func=OUTPUT pull=DOWN"
    m = re.search(r"level=([01])\b.*\bfunc=(\w+)", text or "")
    if m:
        return ("output" if m.group(2) == "OUTPUT" else "input"), m.group(1) == "1"
    return None


def line_level(number, which=shutil.which):
    """How the Pi's GPIO ``number`` stands now, read from the chip's registers without claiming
    the line (gpiozero would claim it as an input, which changes what is to be seen): see
    parse_line_level; None where neither pinctrl nor raspi-gpio is installed."""
    for tool in ("pinctrl", "raspi-gpio"):
        if which(tool) is None:
            continue
        try:
            out = subprocess.run([tool, "get", str(number)], capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        seen = parse_line_level(out)
        if seen is not None:
            return seen
    return None


def _serial_ports():
    from serial.tools import list_ports
    return list_ports.comports()


def port_state(host, port, timeout=2.0):
    """'free', 'newsdesk' (our panel answers there), 'other' (something else holds it) or
    'denied' (this user may not bind it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return "free"
        except PermissionError:
            return "denied"
        except OSError as e:
            if e.errno != errno.EADDRINUSE:
                raise
    probe = "127.0.0.1" if host in ("", "0.0.0.0") else ("::1" if host == "::" else host)
    conn = http.client.HTTPConnection(probe, port, timeout=timeout)
    try:
        conn.request("GET", "/")
        server = conn.getresponse().getheader("Server", "")
    except (OSError, http.client.HTTPException):
        return "other"
    finally:
        conn.close()
    return "newsdesk" if server.startswith("newsdesk") else "other"


class Probes:
    """Each attribute is a callable the doctor uses to look at one thing."""

    def __init__(self, pins=_default_pins, i2c_bus=lambda bus: os.path.exists("/dev/i2c-%d" % bus),
                 i2c_answers=i2c_answers, sound_cards=lambda: _read("/proc/asound/cards"),
                 which=shutil.which, serial_ports=_serial_ports, port=port_state,
                 mountinfo=lambda: _read("/proc/self/mountinfo"), disk_free=lambda p: shutil.disk_usage(p).free,
                 mqtt=None, line_level=line_level, wiring=None, games=None):
        self.pins = pins
        self.i2c_bus = i2c_bus
        self.i2c_answers = i2c_answers
        self.sound_cards = sound_cards
        self.which = which
        self.serial_ports = serial_ports
        self.port = port
        self.mountinfo = mountinfo
        self.disk_free = disk_free
        self.mqtt = mqtt or _mqtt_probe
        self.line_level = line_level
        # (pinmap) -> the electrical rules' errors, [] if it passes, or None where they can't be
        # run; the command line gives them (schematics/ is drawn under them, above this floor)
        self.wiring = wiring
        # () -> (how many games were found, [{"name", "problem"} of each that can't be played])
        self.games = games or _games_probe


def _mqtt_probe(broker, ca, topics=()):
    """(None, {topic: what the broker keeps there}) if the broker takes the box, else (why not, {})."""
    from .mqtt.client import probe
    return probe(broker, ca, topics=topics)


def _games_probe():
    from .games import registry
    return len(registry.names()), registry.unplayable()


# --- the checks ---

class _Doctor:
    def __init__(self, config, probes):
        self.config = config
        self.probes = probes
        self.findings = []
        self.pinmap = None
        self.panel_running = False
        self.simulated = False

    def add(self, status, check, said, fix=""):
        self.findings.append(Finding(status, check, said, fix))

    def run(self):
        for step in (self.check_pinmap, self.check_wiring, self.check_port, self.check_pins, self.check_display,
                     self.check_audio, self.check_phone, self.check_store, self.check_backup, self.check_mqtt,
                     self.check_games):
            try:
                step()
            except Exception as e:  # one probe blowing up must not hide the others' findings
                self.add(FAULT, step.__name__[6:], "the check itself failed: %s: %s" % (type(e).__name__, e),
                         "report this with the output of newsdesk -v doctor")
        return Report(self.findings)

    def check_pinmap(self):
        try:
            self.pinmap = load_pinmap(self.config["pinmap"] or None)
        except NewsdeskError as e:
            self.add(FAULT, "pinmap", str(e), "fix the pin map (hardware/pinmap.toml documents each key)")
            return
        self.add(OK, "pinmap", "%d lines on the Pi, %d on the Pico (%s)"
                 % (len(self.pinmap.pi), len(self.pinmap.pico), self.pinmap.source))

    def check_wiring(self):
        """The pin map through the electrical rules the schematics are drawn under (a ringer on a
        pin the Pi pulls high at boot, 5 V on a GPIO, a contact on the UART...): an owner who
        moved a line to suit their wiring hears it here, before the bell or a pin does."""
        if self.pinmap is None or self.probes.wiring is None:
            return
        errors = self.probes.wiring(self.pinmap)
        if errors is None:
            return
        if errors:
            more = " (and %d more)" % (len(errors) - 1) if len(errors) > 1 else ""
            self.add(FAULT, "wiring", "the pin map breaks the electrical rules: %s%s" % (errors[0], more),
                     "python -m schematics.generate --check names each; move the line the rule names "
                     "(hardware/pinmap.toml) before wiring it")
            return
        self.add(OK, "wiring", "the pin map keeps the electrical rules, on the Pi and on the Pico")

    def check_port(self):
        host, port = self.config.bind_host, self.config["port"]
        state = self.probes.port(host, port)
        where = "%s:%d" % (host, port)
        if state == "free":
            self.add(OK, "port", "%s is free for the panel" % where)
        elif state == "newsdesk":
            self.panel_running = True
            self.add(OK, "port", "the panel is already running on %s (the service, or newsdesk serve)" % where,
                     "")
        elif state == "denied":
            self.add(FAULT, "port", "this user may not listen on port %d (ports below 1024 need root)" % port,
                     "use a port above 1023: port = 8080 in config.toml, or --port 8080")
        else:
            self.add(FAULT, "port", "another program holds %s" % where,
                     "find it with: sudo ss -ltnp 'sport = :%d'; or set port = ... in config.toml" % port)

    def check_pins(self):
        if self.pinmap is None:
            return
        try:
            factory, reason, self.simulated = self.probes.pins(self.config)
        except NewsdeskError as e:
            self.add(FAULT, "pins", str(e), "on a Raspberry Pi: sudo apt install python3-lgpio (make install "
                     "does it); elsewhere set pin_factory = \"mock\"")
            return
        try:
            if self.simulated:
                detail = reason[len("simulated "):] if reason.startswith("simulated (") else "(%s)" % reason
                self.add(WARN, "pins", "simulated hardware %s: nothing is read from real pins; the "
                         "panel's virtual phone drives them" % detail,
                         "fine on a laptop. On a Raspberry Pi, gpiozero found no pin library: "
                         "sudo apt install python3-lgpio, and check GPIOZERO_PIN_FACTORY and pin_factory")
                for spec in self.pinmap.lines("input"):
                    self.add(ABSENT, spec.name, "not read: simulated hardware")
                return
            self.add(OK, "pins", "real pins: %s" % reason)
            self._inputs(factory, self.pinmap)
            self._ringer(factory, self.pinmap)
        finally:
            factory.close()

    def _ringer(self, factory, pinmap):
        """The bell's line, off unless the panel is ringing it. Looked at, never claimed: taking
        the line would change it."""
        spec = pinmap.pi.get("ringer")
        if spec is None or spec.kind != "output" or self.config.get("phone") == "serial":
            return      # no bell on the Pi's header (with the serial phone it hangs off the Pico)
        where = self._header_pin(factory, spec)
        seen = self.probes.line_level(spec.bcm)
        if seen is None:
            self.add(ABSENT, "ringer", "%s not looked at: neither pinctrl nor raspi-gpio is installed" % where)
            return
        function, high = seen
        if not (function == "output" and high == spec.active_high):
            self.add(OK, "ringer", "%s, the bell's line, is off" % where)
        elif self.panel_running:
            self.add(WARN, "ringer", "%s, the bell's line, is %s (on): the phone is ringing, or the line is "
                     "stuck on" % (where, "high" if high else "low"), "if the phone isn't ringing, unplug the bell's 12 V and restart newsdesk "
                     "(sudo systemctl restart newsdesk), which drives the line off")
        else:
            self.add(FAULT, "ringer", "%s, the bell's line, is %s (on) with nothing ringing: the fail-safe's "
                     "capacitor lets the coil go within one strike, but a board without it (or with it failed) "
                     "holds the solenoid on and heating" % (where, "high" if high else "low"),
                     "if the coil is warm or the bell buzzes, unplug the bell's 12 V adapter now; then drive the "
                     "line off (pinctrl set %d op %s, or start newsdesk) before plugging it back; a newsdesk "
                     "killed mid-strike leaves it so (docs/build.md, the bell's fail-safe)"
                     % (spec.bcm, "dl" if spec.active_high else "dh"))

    def _header_pin(self, factory, spec):
        try:
            for _, info in factory.board_info.find_pin(spec.gpio):
                return "%s (pin %d)" % (spec.gpio, info.number)
        except Exception:
            pass
        return spec.gpio

    def _inputs(self, factory, pinmap):
        from gpiozero import InputDevice
        states, where = {}, {}
        for spec in pinmap.lines("input"):
            if spec.name == "offnormal" and self.config.get("offnormal") == "none":
                self.add(ABSENT, spec.name, "not used (offnormal = \"none\")")
                continue
            where[spec.name] = self._header_pin(factory, spec)
            try:
                device = InputDevice(spec.bcm, pull_up=spec.pull_up,
                                     active_state=None if spec.pull_up is not None else True,
                                     pin_factory=factory)
            except Exception as e:
                if self.panel_running:
                    self.add(WARN, spec.name, "%s is held by the running panel" % where[spec.name],
                             "to check the wiring, stop it first: sudo systemctl stop newsdesk")
                else:
                    self.add(FAULT, spec.name, "can't read %s: %s" % (where[spec.name], e),
                             "is another program using it? (sudo systemctl stop newsdesk, if the "
                             "service runs); is this user in the gpio group?")
                continue
            try:
                states[spec.name] = spec.logical(device.pin.state)
            finally:
                device.close()
        self._judge(states, where)

    def _judge(self, states, where):
        if states.get("pulse") == 1 and states.get("offnormal") == 1:
            self.add(FAULT, "dial", "with the dial at rest, %s reads open and %s reads closed: the pulse and "
                     "off-normal wires look swapped" % (where["pulse"], where["offnormal"]),
                     "swap the two dial wires on those pins (the common wire stays on GND); %s" % WIRING)
            states = {k: v for k, v in states.items() if k not in ("pulse", "offnormal")}
        for name, state in states.items():
            pin = where[name]
            if state == 0:
                self.add(OK, name, "%s reads %s at rest" % (pin, _rest_words(name)),
                         "" if name == "pulse" else "an unconnected wire reads the same: %s and watch it "
                         "change %s" % (_act_words(name), "with newsdesk dial record" if name in PHONE_LINES
                                        else "on the panel"))
            elif name == "pulse":
                self.add(FAULT, name, "%s reads the pulse contacts open with the dial at rest" % pin,
                         "a loose wire, or it is on the wrong pair: the pulse pair is closed at rest "
                         "(%s, finding the dial's contacts)" % WIRING)
            elif name == "offnormal":
                self.add(FAULT, name, "%s reads the off-normal contacts closed with the dial at rest" % pin,
                         "use the pair that is open at rest and closes as you wind the dial (%s); or set "
                         "offnormal = \"none\" to do without" % WIRING)
            elif name == "hook":
                self.add(WARN, name, "%s reads the handset lifted" % pin,
                         "put it on the cradle and run doctor again. If it is down, the wire is on a pair "
                         "that is closed with the handset down: use the other pair (%s)" % WIRING)
            else:
                self.add(FAULT, name, "%s reads pressed while nobody presses it" % pin,
                         "a short to GND, or a normally-closed button: it must close only when pressed")

    def check_display(self):
        if self.pinmap is None:
            return
        for spec in self.pinmap.lines("i2c"):
            bus = spec.bus if spec.bus is not None else 1
            if self.simulated:
                self.add(ABSENT, spec.name, "not looked for: simulated hardware")
                continue
            if not self.probes.i2c_bus(bus):
                self.add(FAULT, spec.name, "I2C bus %d is off (no /dev/i2c-%d)" % (bus, bus),
                         "sudo raspi-config nonint do_i2c 0, then reboot (make install does it)")
                continue
            try:
                found = self.probes.i2c_answers(bus, spec.address)
            except PermissionError:
                self.add(FAULT, spec.name, "this user may not open /dev/i2c-%d" % bus,
                         "sudo usermod -aG i2c $USER, then log in again")
                continue
            if found:
                self.add(OK, spec.name, "something answers at 0x%02X on I2C bus %d (%s)" % (spec.address, bus, spec.what))
            else:
                self.add(FAULT, spec.name, "nothing answers at 0x%02X on I2C bus %d" % (spec.address, bus),
                         "check the display's four wires: VCC to 3V3, GND (modules differ in which of "
                         "the two comes first: read the labels), SDA to GPIO%d, SCL to GPIO%d; "
                         "i2cdetect -y %d lists what is on the bus (some modules sit at 0x3D; a module "
                         "printed 0x78 is at 0x3C, 0x7A at 0x3D)"
                         % (spec.pins["sda"], spec.pins["scl"], bus))

    def check_audio(self):
        if self.pinmap is None:
            return
        if self.simulated:
            self.add(ABSENT, "audio", "not looked for: simulated hardware")
            return
        if self.probes.which("aplay") is None:
            self.add(FAULT, "audio", "aplay is not installed: the handset will be silent",
                     "sudo apt install alsa-utils (make install does it)")
            return
        cards = sound_cards(self.probes.sound_cards())
        wants_i2s = bool(self.pinmap.lines("i2s"))
        if not cards:
            self.add(FAULT, "audio", "no sound card at all",
                     "add %s to /boot/firmware/config.txt and reboot (make install does it), or plug "
                     "in a USB sound card" % overlay_line(self._sd_pin(self.pinmap)))
            return
        listed = ", ".join("%d %s" % c[:2] for c in cards)
        device = self.config["audio_device"]
        card = card_of(device)
        if card is None:
            # ALSA's default: card 0, unless an asound.conf says otherwise (not looked at here)
            playing, how = cards[0] if cards[0][0] == 0 else None, "ALSA's default card (card 0)"
        elif card[0] == "other":
            self.add(WARN, "audio", "audio_device = %r: not a card this check understands; cards: %s"
                     % (device, listed), "for the amplifier set audio_device = \"%s\"" % AMP_DEVICE)
            return
        else:
            key = 0 if card[0] == "index" else 1
            playing = next((c for c in cards if c[key] == card[1]), None)
            how = "audio_device = %r" % device
            if playing is None:
                self.add(FAULT, "audio", "%s names no sound card here (cards: %s): the handset will be silent"
                         % (how, listed), self._audio_fix(wants_i2s, cards))
                return
        amp = any(c[1] == AMP_CARD for c in cards)
        if playing is not None and playing[1] not in BUILTIN_CARDS:
            self.add(OK, "audio", "the handset plays on sound card %d: %s (%s), through %s" % (playing + (how,)))
        elif wants_i2s or any(c[1] not in BUILTIN_CARDS for c in cards):
            self.add(WARN, "audio", "%s is %s, the Pi's own output, not the receiver's (cards: %s)"
                     % (how, "card %d %s" % playing[:2] if playing else "no card", listed),
                     self._audio_fix(wants_i2s, cards) if amp or not wants_i2s else
                     "the amplifier's card isn't there: add %s to /boot/firmware/config.txt and reboot "
                     "(make install does it); or plug in a USB sound card" % overlay_line(self._sd_pin(self.pinmap)))
        else:
            self.add(OK, "audio", "only the Pi's own outputs: %s; the pin map has no I2S amplifier" % listed)

    @staticmethod
    def _sd_pin(pinmap):
        buses = pinmap.lines("i2s")
        return buses[0].pins.get("sd") if buses else None

    def _audio_fix(self, wants_i2s, cards):
        own = [c for c in cards if c[1] not in BUILTIN_CARDS]
        target = AMP_DEVICE if wants_i2s or not own else "plughw:CARD=%s,DEV=0" % own[0][1]
        return ("set audio_device = \"%s\" in config.toml (make install does it for the amplifier); "
                "aplay -l lists the cards" % target)

    def check_phone(self):
        from .serial.finder import PICO_USB_ID, parse_usb_id
        wanted = self.config.get("phone_port") or ""
        vid, pid = parse_usb_id(self.config.get("phone_usb_id") or PICO_USB_ID)
        ports = list(self.probes.serial_ports())
        picos = sorted((p for p in ports if p.vid == vid and p.pid == pid), key=lambda p: p.device)
        uses_serial = self.config.get("phone") == "serial" or bool(wanted)
        if wanted:
            if not any(p.device == wanted for p in ports) and not os.path.exists(wanted):
                self.add(FAULT, "phone", "phone_port %s is not there" % wanted,
                         "plug the phone's USB cable in; python -m serial.tools.list_ports -v lists the ports")
                return
            picos = [p for p in ports if p.device == wanted] or picos
        if picos:
            device = picos[0].device
            if not os.access(device, os.R_OK | os.W_OK) and os.path.exists(device):
                self.add(FAULT, "phone", "the phone is on %s but this user may not open it" % device,
                         "sudo usermod -aG dialout $USER, then log in again")
            else:
                self.add(OK, "phone", "the phone in a box is on %s (USB %04X:%04X)" % (device, vid, pid))
        elif uses_serial:
            self.add(FAULT, "phone", "no phone on USB (looking for USB %04X:%04X)" % (vid, pid),
                     "plug it in; if it is, flash its firmware (firmware/) and check the cable carries data")
        else:
            self.add(OK, "phone", "no phone on USB: not needed, the phone is wired to the GPIO")

    def check_store(self):
        data = Path(self.config.data_dir)
        mountinfo = self.probes.mountinfo()
        try:
            mount = check_data_dir(data, mountinfo, allow_volatile=self.config.get("volatile_data") == "allow")
        except DataDirNotDurable as e:
            self.add(FAULT, "store", str(e), "see docs/hardware.md, keeping the SD card healthy")
            return
        if mount is not None and self.config.get("volatile_data") == "allow":
            self.add(WARN, "store", "%s is on the %s mount at %s; %s is set, so a volatile mount is "
                     "allowed" % (data, mount.fstype, mount.mount_point, OVERRIDE))
        existing = data
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not os.access(existing, os.W_OK):
            self.add(FAULT, "store", "this user may not write to %s" % existing,
                     "sudo chown -R $USER %s (or run with --data pointing somewhere writable)" % existing)
            return
        free = self.probes.disk_free(existing)
        if free < LOW_SPACE:
            self.add(WARN, "store", "only %d MB free on the data directory's disk" % (free // 2**20),
                     "free some space: the store needs room to grow and to check-point")
        store = data / STORE_FILE
        if not store.exists():
            self.add(OK, "store", "%s will be created at the first start" % store)
            return
        try:
            con = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
            try:
                verdict = con.execute("PRAGMA quick_check").fetchone()[0]
                events = con.execute("SELECT count(*) FROM events").fetchone()[0]
            finally:
                con.close()
        except sqlite3.Error as e:
            self.add(FAULT, "store", "%s can't be read: %s" % (store, e),
                     "stop newsdesk and move the file aside (keep it); a new one is made at the next start")
            return
        if verdict != "ok":
            self.add(FAULT, "store", "%s is damaged: %s" % (store, verdict),
                     "stop newsdesk, copy the file somewhere safe, then restore a backup or move it aside")
        else:
            self.add(OK, "store", "%s checks out (%d events)" % (store, events))


    def check_backup(self):
        """A restore cut off part way (it is finished before anything else); then backup_dir: there,
        with a backup newer than BACKUP_STALE, and room for the next one."""
        from .backup import folder_state, interrupted
        if interrupted(self.config.data_dir):
            self.add(FAULT, "backup", "a restore into %s was cut off part way" % self.config.data_dir,
                     "run newsdesk restore (without a file) to finish it, before newsdesk serve")
            return
        if not self.config.get("backup_dir"):
            self.add(OK, "backup", "no backups are kept automatically (backup_dir is not set)",
                     "newsdesk backup FILE makes one; set backup_dir to a USB stick to keep them there")
            return
        status, said, fix = folder_state(self.config["backup_dir"], time.time(), self.probes.disk_free)
        self.add(OK if status == "ok" else WARN, "backup", said, fix)

    def check_mqtt(self):
        """Only when mqtt_url is set: without a broker, nothing about MQTT is said."""
        if not self.config.get("mqtt_url"):
            return
        from .mqtt.url import parse_mqtt_url
        try:
            broker = parse_mqtt_url(self.config["mqtt_url"])
        except NewsdeskError as e:
            self.add(FAULT, "mqtt", str(e), "fix mqtt_url in config.toml or NEWSDESK_MQTT_URL (docs/mqtt.md); "
                     "the table works meanwhile, without MQTT")
            return
        from .mqtt import topics as T
        from .mqtt.client import base_held
        from .mqtt.cursor import kept_install
        base = self.config.mqtt_topic if hasattr(self.config, "mqtt_topic") else None
        availability, game = "%s/%s" % (base, T.AVAILABILITY), "%s/%s" % (base, T.state("game"))
        problem, seen = self.probes.mqtt(broker, self.config.get("mqtt_ca") or "", (availability, game) if base else ())
        if problem:
            self.add(FAULT, "mqtt", problem, "the table works meanwhile and sends its backlog once the broker "
                     "takes it (docs/mqtt.md)")
            return
        # another newsdesk holding the base: this box's newsdesk publishes nothing there (publisher.py)
        other = T.holder(seen.get(availability), seen.get(game), kept_install(self.config.data_dir)) if base else None
        if other:
            self.add(WARN, "mqtt", base_held(base, other), "the table works meanwhile; newsdesk looks again every "
                     "minute and takes %s over once the other newsdesk is offline (docs/mqtt.md)" % base)
        else:
            self.add(OK, "mqtt", "the broker at %s takes this box; topics under %s" % (broker, base or "newsdesk/..."))


    def check_games(self):
        """Every game found (newsdesk's and the plug-ins installed beside it) can be played: each
        that can't is a thing to fix, one line each, as `newsdesk games` says it."""
        found, unplayable = self.probes.games()
        for game in unplayable:
            self.add(FAULT, "games", game["problem"])      # one line each: the sentence says what to do
        if not unplayable:
            self.add(OK, "games", "all %d games found can be played" % found)


def _rest_words(name):
    return {"pulse": "the pulse contacts closed", "offnormal": "the off-normal contacts open",
            "hook": "the handset down"}.get(name, "not pressed")


def _act_words(name):
    return {"offnormal": "wind the dial", "hook": "lift the handset"}.get(name, "press it")


def run_doctor(config, probes=None):
    return _Doctor(config, probes or Probes()).run()


MARKS = {OK: "ok", WARN: "WARN", FAULT: "FAULT", ABSENT: "absent"}


def _label(f):
    return f.check if f.part in (None, f.check) else "%s %s" % (f.part, f.check)


def format_report(report):
    width = max([len(_label(f)) for f in report.findings] + [5])
    lines = []
    for f in report.findings:
        lines.append("%-6s  %-*s  %s" % (MARKS[f.status], width, _label(f), f.said))
        if f.fix and f.status in (WARN, FAULT):
            lines.append("%s  %-*s  fix: %s" % (" " * 6, width, "", f.fix))
        elif f.fix:
            lines.append("%s  %-*s  (%s)" % (" " * 6, width, "", f.fix))
    fails = sum(f.status == FAULT for f in report.findings)
    warns = sum(f.status == WARN for f in report.findings)
    if fails or warns:
        lines.append("%d to fix, %d to look at" % (fails, warns))
    else:
        lines.append("all good")
    return "\n".join(lines)
