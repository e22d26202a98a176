"""Wires the running product: pins (real or simulated), the dial listener, the store, the bus
and the table. The web panel and the CLI build one of these and talk to nothing below it."""

import logging
import secrets
import shutil
import threading
import time

from . import health
from .bus import Bus
from .devices import Devices
from .dial.decoder import OFFNORMAL_MODES, DialDecoder
from .dial.listener import DialListener
from .hw.buttons import ButtonListener, ButtonPins
from .hw.display import Window, WindowDriver, address_lines, open_device
from .hw.leds import OracleLeds
from .hw.phone import PhonePins
from .hw.pinfactory import choose_pin_factory, is_simulated
from .hw.simulated import PlayClock, SimulatedButtons, SimulatedPhone
from .joins import JoinService
from .oracle_service import OracleService
from .oracles.dice import parse_choices
from .oracles.editor import Editor, parse_disc, parse_weights
from .phone_sounds import build_phone_sounds
from .pinmap import load_pinmap
from .store import DEVICES_FILE, STORE_FILE, Store
from .table import Table

log = logging.getLogger(__name__)

GAME_RINGS = 3   # rings when a game wants the table to pick up (newsdesk's choice); lifting stops them


class Newsdesk:
    def __init__(self, config, pin_factory=None, clock=time.monotonic, late_window=False):
        """``late_window``: the window display, on its default setting ("auto"), is looked for only
        once the panel says it answers (``panel_up``), as ``newsdesk serve`` asks (hw/display.py's
        Window says why); otherwise at once."""
        self.config = config
        self._closers = []
        self._panel_up = threading.Event() if late_window else None
        try:
            self._build(config, pin_factory, clock)
        except Exception:
            self.close()
            raise

    def _build(self, config, pin_factory, clock):
        self.pinmap = pinmap = load_pinmap(config["pinmap"] or None)   # read once: the panel asks here
        if pin_factory is None:
            pin_factory, pins_said = choose_pin_factory(config["pin_factory"])
        else:
            pins_said = type(pin_factory).__name__ + " (handed in)"
        self.simulated = is_simulated(pin_factory)
        self.store = Store(config.data_dir / STORE_FILE)
        self._closers.append(self.store.close)
        self.bus = Bus()
        editor = Editor(mode=config["editor_mode"], dial_map=config["dial_map"],
                        disc=parse_disc(config["editor_disc"]), weights=parse_weights(config["editor_weights"]))
        self.joins = JoinService(Devices(config.data_dir / DEVICES_FILE))   # how devices join: the table and the panel
        self._closers.append(self.joins.close)
        self.table = Table(self.store, self.bus, editor, secrets.SystemRandom(),
                           hardware={"simulated": self.simulated, "pins": pins_said}, joins=self.joins)
        self.joins.pass_on = self.table.call_editor   # digits held for a code whose gap ran out were calls
        self._build_oracles(config, pinmap, pin_factory, clock)
        self._build_phone(config, pinmap, pin_factory, clock)
        self.mqtt = self._build_mqtt(config) if config.get("mqtt_url") else None
        self.backups = None
        if config.get("backup_dir"):
            from .backup_keeper import BackupKeeper
            self.backups = BackupKeeper(config.data_dir, config["backup_dir"], config["backup_keep"], self.bus)
            self._closers.append(self.backups.close)

    def _build_mqtt(self, config):
        """The table on MQTT (docs/mqtt.md): off unless mqtt_url is set; a broker that can't be
        reached, or an address that is wrong, is said on the health strip and the table goes on."""
        from importlib.metadata import PackageNotFoundError, version

        from .mqtt.publisher import MqttPublisher, Settings
        try:
            ours = version("newsdesk")
        except PackageNotFoundError:
            ours = ""
        publisher = MqttPublisher(self.store, self.bus, Settings.from_config(config), config.data_dir,
                                  game=self.table.games.current, history=lambda: self.table.kept.history(20),
                                  hook=lambda: self.table.hook, ring=lambda times: self.sounds.ring(times=times),
                                  version=ours, phone=lambda: (self.table.phone_link, self.table.phone_fault))
        self._closers.append(publisher.close)
        return publisher

    def _build_phone(self, config, pinmap, pin_factory, clock):
        """The dial, hook and handset: pins (or the Pico on USB) -> decoder -> table; sounds and bell beside."""
        self.phone_pins = self.sim_phone = self.listener = self.phone_link = None
        self.phone_taps = []   # more sinks of the phone's raw edges (the Workbench's dial tester)
        self.phone_clock = clock   # the clock the phone's edges are stamped on
        from .dial.profile import Profiles
        self.dial_profiles = Profiles(config.data_dir)
        ratio = self.dial_profiles.ratio(config["phone_profile"])
        switch = None
        if config["phone"] == "serial":
            from .serial.bridge import RingerSwitch, SerialBridge
            from .serial.finder import phone_port
            self.phone_link = SerialBridge(
                phone_port(config["phone_port"], config["phone_usb_id"]), self.table.on_dial_event,
                on_edge=self._phone_edge, on_status=self.table.on_phone_status, clock=clock,
                settings=dict({"dial_map": config["dial_map"], "offnormal": config["offnormal"], "raw": "1",
                               "strike": str(config["bell_strike_hz"])},
                              **({"ratio": "%.3f" % ratio} if ratio else {})))
            switch = RingerSwitch(self.phone_link)   # the bell hangs off the Pico then
        self.sounds = build_phone_sounds(
            pinmap, pin_factory, audio=config["audio"] != "off", audio_device=config["audio_device"] or None,
            tone_plan=config["tone_plan"], speech=config["speech"] != "off",
            speech_voice=config["speech_voice"] or None, busy_after=config["busy_after"],
            clock=clock, notify=self.bus.publish, ringer_switch=switch, strike_hz=config["bell_strike_hz"],
            volume=config["audio_volume"])
        self._closers.append(self.sounds.close)
        self.sounds.follow(self.bus)   # before the phone starts, so no hook change is missed
        self.table.games.on_ring = lambda: self.sounds.ring(times=GAME_RINGS)
        if self.phone_link is not None:
            self.phone_link.start()
            self._closers.append(self.phone_link.close)
            return
        decoder = DialDecoder(dial_map=config["dial_map"], offnormal=OFFNORMAL_MODES[config["offnormal"]], ratio=ratio,
                              min_flash=config["min_flash_ms"] / 1000.0)
        play_clock = PlayClock(clock) if self.simulated else None   # see PlayClock: why
        clock = play_clock or clock
        self.phone_clock = clock
        self.listener = DialListener(decoder, self.table.on_dial_event, clock=clock)
        self.phone_pins = PhonePins(pinmap, self._phone_edge, pin_factory, clock=clock)
        self._closers.append(self.phone_pins.close)
        if self.simulated:
            self.sim_phone = SimulatedPhone(self.phone_pins, dial_map=config["dial_map"],
                                            offnormal=config["offnormal"] != "none", play_clock=play_clock)
            self._closers.append(self.sim_phone.close)
        self.listener.start(initial=self.phone_pins.states())
        self._closers.append(self.listener.stop)

    def _phone_edge(self, t, line, state):
        if self.listener is not None:
            self.listener.edge(t, line, state)
        self.sounds.edge(t, line, state)   # the dial tone stops as the dial leaves rest
        for tap in list(self.phone_taps):
            try:
                tap(t, line, state)
            except Exception:
                log.exception("a phone edge tap failed")

    def _build_oracles(self, config, pinmap, pin_factory, clock):
        """The dice and stopwatch buttons, their LEDs and the phone's window display."""
        self.leds = OracleLeds(pinmap, pin_factory)
        self._closers.append(self.leds.close)
        self.oracles = OracleService(self.table.journal, secrets.SystemRandom(),
                                     dice_choices=parse_choices(config["dice_choices"]), dice=config["dice"] or None,
                                     stopwatch_mode=config["stopwatch_mode"], leds=self.leds, clock=clock)
        self.window = self.window_driver = None
        setting, spec, simulated = config["display"], pinmap.line("display"), self.simulated
        if setting == "auto" and self._panel_up is not None:
            self.window = Window(opener=lambda: open_device(setting, spec, simulated=simulated))
        else:
            device = open_device(setting, spec, simulated=simulated)
            self.window = Window(device) if device is not None else None
        if self.window is not None:
            self._closers.append(self.window.close)
            self.window_driver = WindowDriver(self.window, self.bus, clock=clock, go=self._panel_up)
            self._closers.append(self.window_driver.close)
        self.button_listener = ButtonListener(self.oracles.on_press, clock=clock)
        self.button_pins = ButtonPins(pinmap, self.button_listener.edge, pin_factory, clock=clock)
        self._closers.append(self.button_pins.close)
        self.sim_buttons = None
        if self.simulated:
            self.sim_buttons = SimulatedButtons(self.button_pins)
            self._closers.append(self.sim_buttons.close)
        self.button_listener.start(initial=self.button_pins.states())
        self._closers.append(self.button_listener.stop)
        self.leds.ready(True)

    # -- what the panel reads (it goes through these, never to the store itself) -------------

    def last_event_id(self):
        """The newest stored event's id: a page reads it before the state, then opens its
        stream after it, so whatever lands in between is replayed, never lost."""
        return self.store.last_id()

    def events_after(self, event_id, limit):
        """The stored events after ``event_id``, oldest first, at most ``limit``."""
        return self.store.since(event_id, limit=limit)

    def write_stuck_for(self):
        """Seconds the store's write in progress has waited on the disk, or None."""
        return self.store.write_stuck_for()

    def health(self):
        """The health strip (controller/health.py): each part the box built, in one vocabulary."""
        hardware = self.table.hardware
        return health.report(
            self.pinmap, bool(hardware.get("simulated")), hardware.get("pins", ""), phone_link=self.phone_link,
            buttons="simulated" if self.sim_buttons is not None else "wired" if self.button_pins is not None else None,
            window=self.window, display_setting=self.config["display"], player=self.sounds.player,
            mqtt=self.mqtt, stuck_for=self.write_stuck_for(), store_damage=self.store.damage,
            backups=self.backups, disk_free=self.disk_free())

    def disk_free(self):
        """Bytes free on the disk that keeps the store, or None when the disk won't say."""
        try:
            return shutil.disk_usage(self.config.data_dir).free
        except OSError:
            return None

    def show_address(self, urls):
        """The panel's URLs a tablet types (controller/lan.py): shown on the window's idle view."""
        if self.window_driver is not None:
            self.window_driver.show_address(address_lines(urls))

    def panel_up(self):
        """The panel answers (web_ui/live.py says so): the parts that wait for it may start."""
        if self._panel_up is not None:
            self._panel_up.set()

    def on_close(self, closer):
        """Call ``closer()`` when the box closes (before what was built earlier)."""
        self._closers.append(closer)

    def close(self):
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:
                log.exception("closing %r failed", closer)
