"""newsdesk doctor on MockFactory pins wired like a phone, with fake I2C, sound cards, serial
ports, port and mounts: each fault is named in plain words with its fix."""

import http.server
import socket
import threading
from types import SimpleNamespace

import pytest
from gpiozero import InputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from controller import doctor
from controller.audio.device import AMP_DEVICE
from controller.config import load_config
from controller.pinmap import load_pinmap
from controller.store import Store

# the probes wait on real ports and timeouts: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

PINMAP = load_pinmap()
EXT4 = "27 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw\n"
CARDS_WITH_AMP = (" 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi\n                      vc4-hdmi\n"
                  " 1 [MAX98357A      ]: simple-card - MAX98357A\n                      MAX98357A\n")
CARDS_BUILTIN = " 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi\n 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"


class ContactPin(MockPin):
    """A mock pin with a contact from it to GND: closed, it holds the pin LOW over the pull-up,
    as the phone's springs do."""

    closed = False

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.closed:
            self.drive_low()


@pytest.fixture
def factory():
    f = MockFactory(pin_class=ContactPin)
    yield f
    f.close()


def wire(factory, **closed):
    """Close the named lines' contacts (others stay open)."""
    for name, is_closed in closed.items():
        factory.pin(PINMAP.line(name).bcm).closed = is_closed


def at_rest(factory):
    wire(factory, pulse=True)          # the pulse springs are closed at rest; the rest are open


def probes(factory, simulated=False, **over):
    base = dict(
        pins=lambda config: (factory, "MockFactory standing in for the Pi's pins", simulated),
        i2c_bus=lambda bus: True,
        i2c_answers=lambda bus, address: True,
        sound_cards=lambda: CARDS_WITH_AMP,
        which=lambda name: "/usr/bin/" + name,
        serial_ports=list,
        port=lambda host, port: "free",
        mountinfo=lambda: EXT4,
        disk_free=lambda path: 10 * 2**30,
        # the bell's line as pinctrl would show it: read off the mock pin, not claimed
        line_level=lambda number: (factory.pin(number).function, bool(factory.pin(number).state)),
    )
    base.update(over)
    return doctor.Probes(**base)


@pytest.fixture
def config(tmp_path):
    """An installed box: the installer names the amplifier's card in audio_device."""
    return load_config(tmp_path / "data", overrides={"audio_device": AMP_DEVICE}, environ={})


def findings(report, status=None):
    return {f.check: f for f in report.findings if status is None or f.status == status}


def test_a_well_wired_box_is_all_good(config, factory):
    at_rest(factory)
    report = doctor.run_doctor(config, probes(factory))
    assert {f.status for f in report.findings} == {"ok"}, report.findings
    assert report.exit_status == 0
    said = findings(report)
    assert said["pulse"].said == "GPIO17 (pin 11) reads the pulse contacts closed at rest"
    assert "handset down" in said["hook"].said and "lift the handset" in said["hook"].fix
    assert said["display"].said.startswith("something answers at 0x3C on I2C bus 1")
    assert "MAX98357A" in said["audio"].said
    assert "not needed" in said["phone"].said
    assert "will be created" in said["store"].said
    assert doctor.format_report(report).endswith("all good")


def test_a_pin_map_the_electrical_rules_fail_is_a_fault_with_the_first_rule_and_the_count(config, factory):
    """The box's own pin map, put through the rules the schematics are drawn under: an owner who
    moves a line to suit their wiring hears on the box what the rule says, not at the bell."""
    at_rest(factory)
    broken = ["ringer is an output on GPIO4 (pin 7), which the Pi pulls high at power-on", "another rule"]
    said = findings(doctor.run_doctor(config, probes(factory, wiring=lambda pinmap: broken)))["wiring"]
    assert (said.status, said.said) == ("fault", "the pin map breaks the electrical rules: ringer is an output on "
                                                 "GPIO4 (pin 7), which the Pi pulls high at power-on (and 1 more)")
    assert "python -m schematics.generate --check" in said.fix
    passed = findings(doctor.run_doctor(config, probes(factory, wiring=lambda pinmap: [])))["wiring"]
    assert passed.status == "ok" and "electrical rules" in passed.said
    assert "wiring" not in findings(doctor.run_doctor(config, probes(factory, wiring=lambda pinmap: None)))


def test_the_command_puts_the_pin_map_through_the_electrical_rules(tmp_path, capsys):
    """As an owner runs it, with the display's module moved to the 5 V rail (its pull-ups would
    put 5 V on GPIO2 and GPIO3)."""
    from pathlib import Path

    from newsdesk.cli import main
    text = (Path(__file__).resolve().parents[1] / "hardware" / "pinmap.toml").read_text()
    start = text.index("[pi.display]")
    pinmap = tmp_path / "pinmap.toml"
    pinmap.write_text(text[:start] + text[start:].replace('supply = "3V3"', 'supply = "5V"', 1))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "config.toml").write_text('pinmap = "%s"\n' % pinmap)
    main(["--data", str(tmp_path / "data"), "doctor"])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "electrical rules" in line)
    assert line.startswith("FAULT") and "5V" in line, out


def test_the_doctor_speaks_the_health_strips_words_for_the_strips_parts(config, factory):
    from controller import health
    wire(factory, pulse=False)                          # a loose pulse wire: a fault
    report = doctor.run_doctor(config, probes(factory))
    assert {f.status for f in report.findings} <= set(health.STATUSES)
    parts = {f.check: f.part for f in report.findings}
    assert parts["pulse"] == parts["hook"] == parts["offnormal"] == parts["phone"] == "phone"
    assert parts["dice_button"] == parts["stopwatch_button"] == "buttons"
    assert parts["display"] == "display" and parts["audio"] == "audio" and parts["store"] == "store"
    assert parts["port"] is None and parts["pins"] is None
    read = {spec.name for spec in PINMAP.lines("input")} | {"display", "audio"}     # what the doctor reads
    assert read <= {line for lines in health.PARTS.values() for line in lines}
    text = doctor.format_report(report)
    assert "FAULT   phone pulse" in text and "ok      buttons dice_button" in text


def test_a_loose_pulse_wire_fails_with_the_pin_and_the_fix(config, factory):
    report = doctor.run_doctor(config, probes(factory))       # nothing closed: pulse reads open
    pulse = findings(report)["pulse"]
    assert pulse.status == "fault" and "GPIO17 (pin 11) reads the pulse contacts open" in pulse.said
    assert "loose wire" in pulse.fix and "docs/wiring.md" in pulse.fix
    assert report.exit_status == 1
    text = doctor.format_report(report)
    assert "FAULT" in text and "fix: a loose wire" in text and text.endswith("1 to fix, 0 to look at")


def test_swapped_dial_wires_are_named_as_such(config, factory):
    wire(factory, offnormal=True)                             # the pulse pair went to offnormal's pin
    report = doctor.run_doctor(config, probes(factory))
    dial = findings(report)["dial"]
    assert dial.status == "fault" and "look swapped" in dial.said and "swap the two dial wires" in dial.fix
    assert "pulse" not in findings(report) and "offnormal" not in findings(report)


def test_a_lifted_handset_is_a_warning(config, factory):
    wire(factory, pulse=True, hook=True)
    report = doctor.run_doctor(config, probes(factory))
    assert findings(report)["hook"].status == "warn" and report.exit_status == 0


def test_a_stuck_button_fails(config, factory):
    wire(factory, pulse=True, dice_button=True)
    hit = findings(doctor.run_doctor(config, probes(factory)))["dice_button"]
    assert hit.status == "fault" and "GPIO5 (pin 29) reads pressed" in hit.said


def test_offnormal_not_used_is_skipped(tmp_path, factory):
    config = load_config(tmp_path, overrides={"offnormal": "none"}, environ={})
    wire(factory, pulse=True, offnormal=True)
    report = doctor.run_doctor(config, probes(factory))
    assert findings(report)["offnormal"].status == "absent" and report.exit_status == 0


def test_simulated_hardware_is_said_honestly(config, factory):
    report = doctor.run_doctor(config, probes(factory, simulated=True, which=lambda name: None))
    said = findings(report)
    assert said["pins"].status == "warn" and said["pins"].said.startswith("simulated hardware")
    assert all(said[s.name].status == "absent" for s in PINMAP.lines("input"))
    assert said["display"].status == "absent" and said["audio"].status == "absent"
    assert report.exit_status == 0


def test_pins_held_by_the_running_panel(config, factory):
    at_rest(factory)
    holder = InputDevice(PINMAP.line("hook").bcm, pin_factory=factory)
    try:
        running = findings(doctor.run_doctor(config, probes(factory, port=lambda h, p: "newsdesk")))
        assert running["port"].status == "ok" and "already running" in running["port"].said
        assert running["hook"].status == "warn" and "systemctl stop newsdesk" in running["hook"].fix
        stray = findings(doctor.run_doctor(config, probes(factory)))
        assert stray["hook"].status == "fault" and "can't read GPIO22" in stray["hook"].said
    finally:
        holder.close()


def _bell_line(factory, on):
    """The ringer's line as a process left it: an output, driven on or off, nobody holding it."""
    pin = factory.pin(PINMAP.line("ringer").bcm)
    pin.function = "output"
    pin.state = on


def test_a_bell_line_left_on_is_said_in_one_sentence(config, factory):
    """A newsdesk killed mid-strike leaves the ringer's line high (the kernel keeps it): the
    fail-safe lets the coil go, but a board built without it holds the solenoid on. Nothing rings
    while the panel is stopped, so that is a fault either way."""
    at_rest(factory)
    _bell_line(factory, True)
    report = doctor.run_doctor(config, probes(factory))
    said = findings(report)["ringer"]
    assert said.status == "fault" and report.exit_status == 1
    assert said.said == ("GPIO23 (pin 16), the bell's line, is high (on) with nothing ringing: "
                         "the fail-safe's capacitor lets the coil go within one strike, but a board "
                         "without it (or with it failed) holds the solenoid on and heating")
    assert "unplug the bell's 12 V" in said.fix and "pinctrl set 23 op dl" in said.fix
    _bell_line(factory, True)
    ringing = findings(doctor.run_doctor(config, probes(factory, port=lambda h, p: "newsdesk")))["ringer"]
    assert ringing.status == "warn" and "the phone is ringing, or the line is stuck on" in ringing.said
    _bell_line(factory, False)
    assert findings(doctor.run_doctor(config, probes(factory)))["ringer"].status == "ok"


def test_the_bell_line_is_read_without_claiming_it(config, factory):
    pinctrl = "23: op dh pd | hi // GPIO23 = output\n"
    assert doctor.parse_line_level(pinctrl) == ("output", True)
    assert doctor.parse_line_level("23: ip    pd | lo // GPIO23 = input\n") == ("input", False)
    assert doctor.parse_line_level("GPIO 23: level=1 fsel=1 func=OUTPUT pull=DOWN\n") == ("output", True)
    assert doctor.parse_line_level("GPIO 23: level=0 fsel=0 func=INPUT pull=DOWN\n") == ("input", False)
    assert doctor.parse_line_level("pinctrl: command not found") is None
    assert doctor.line_level(23, which=lambda name: None) is None
    at_rest(factory)
    unseen = findings(doctor.run_doctor(config, probes(factory, line_level=lambda number: None)))["ringer"]
    assert unseen.status == "absent" and "neither pinctrl nor raspi-gpio" in unseen.said


@pytest.mark.parametrize("over, words, fix", [
    ({"i2c_bus": lambda bus: False}, "I2C bus 1 is off", "do_i2c 0"),
    ({"i2c_answers": lambda bus, address: False}, "nothing answers at 0x3C", "i2cdetect -y 1"),
])
def test_display_faults(config, factory, over, words, fix):
    at_rest(factory)
    display = findings(doctor.run_doctor(config, probes(factory, **over)))["display"]
    assert display.status == "fault" and words in display.said and fix in display.fix


def test_display_permission(config, factory):
    def denied(bus, address):
        raise PermissionError(13, "Permission denied")
    at_rest(factory)
    display = findings(doctor.run_doctor(config, probes(factory, i2c_answers=denied)))["display"]
    assert display.status == "fault" and "usermod -aG i2c" in display.fix


@pytest.mark.parametrize("device, over, status, words, fix", [
    (AMP_DEVICE, {"which": lambda name: None}, "fault", "aplay is not installed", "alsa-utils"),
    (AMP_DEVICE, {}, "ok", "plays on sound card 1: MAX98357A (simple-card - MAX98357A), through audio_device", ""),
    ("hw:1,0", {}, "ok", "plays on sound card 1: MAX98357A", ""),
    # the installer's setting missing: ALSA's default is card 0, HDMI on a Pi 5
    ("", {}, "warn", "ALSA's default card (card 0) is card 0 vc4hdmi, the Pi's own output", AMP_DEVICE),
    ("hw:0", {}, "warn", "card 0 vc4hdmi, the Pi's own output", AMP_DEVICE),
    (AMP_DEVICE, {"sound_cards": lambda: CARDS_BUILTIN}, "fault", "names no sound card here", AMP_DEVICE),
    ("", {"sound_cards": lambda: CARDS_BUILTIN}, "warn", "the Pi's own output",
     "dtoverlay=max98357a,no-sdmode"),
    (AMP_DEVICE, {"sound_cards": lambda: "--- no soundcards ---\n"}, "fault", "no sound card", "no-sdmode"),
])
def test_audio_checks_the_card_that_will_play(tmp_path, factory, device, over, status, words, fix):
    at_rest(factory)
    config = load_config(tmp_path / "data", overrides={"audio_device": device}, environ={})
    audio = findings(doctor.run_doctor(config, probes(factory, **over)))["audio"]
    assert audio.status == status and words in audio.said, audio
    assert fix in audio.fix


def test_the_serial_phone_is_found_or_missed(tmp_path, factory):
    at_rest(factory)
    pico = SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005, serial_number="E66")
    config = load_config(tmp_path, environ={})
    found = findings(doctor.run_doctor(config, probes(factory, serial_ports=lambda: [pico])))["phone"]
    assert found.status == "ok" and "/dev/ttyACM0" in found.said
    config["phone_port"] = "/dev/ttyACM7"
    missing = findings(doctor.run_doctor(config, probes(factory)))["phone"]
    assert missing.status == "fault" and "phone_port /dev/ttyACM7 is not there" in missing.said


def test_a_volatile_data_directory_fails(config, factory):
    at_rest(factory)
    tmpfs = EXT4 + "30 27 0:30 / %s rw - tmpfs tmpfs rw\n" % config.data_dir.parent
    store = findings(doctor.run_doctor(config, probes(factory, mountinfo=lambda: tmpfs)))["store"]
    assert store.status == "fault" and "tmpfs" in store.said and "recurse=0" in store.said


def test_an_existing_store_is_checked(config, factory):
    at_rest(factory)
    config.data_dir.mkdir(parents=True)
    Store(config.data_dir / doctor.STORE_FILE).close()
    store = findings(doctor.run_doctor(config, probes(factory)))["store"]
    assert store.status == "ok" and "checks out (0 events)" in store.said
    (config.data_dir / doctor.STORE_FILE).write_bytes(b"not a database at all" * 100)
    store = findings(doctor.run_doctor(config, probes(factory)))["store"]
    assert store.status == "fault" and "can't be read" in store.said


def test_low_disk_space_is_a_warning(config, factory):
    at_rest(factory)
    store = doctor.run_doctor(config, probes(factory, disk_free=lambda p: 50 * 2**20)).of("store")
    assert store[0].status == "warn" and "50 MB free" in store[0].said


def test_a_probe_that_blows_up_is_reported_not_raised(config, factory):
    def broken():
        raise RuntimeError("no /proc here")
    at_rest(factory)
    report = doctor.run_doctor(config, probes(factory, serial_ports=broken))
    assert findings(report)["phone"].status == "fault" and "no /proc here" in findings(report)["phone"].said
    assert "store" in findings(report)                        # later checks still ran


def test_sound_cards_are_parsed():
    assert doctor.sound_cards(CARDS_WITH_AMP) == [(0, "vc4hdmi", "vc4-hdmi - vc4-hdmi"),
                                                  (1, "MAX98357A", "simple-card - MAX98357A")]
    assert doctor.sound_cards(None) == []


@pytest.mark.slow
def test_port_state_free_taken_and_ours():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert doctor.port_state("127.0.0.1", port) == "free"

    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "newsdesk"
        sys_version = ""

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    for version, expected in (("newsdesk", "newsdesk"), ("nginx", "other")):
        Handler.server_version = version
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            assert doctor.port_state("127.0.0.1", server.server_address[1]) == expected
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)


def test_i2c_answers_needs_the_bus():
    with pytest.raises(FileNotFoundError):
        doctor.i2c_answers(1, 0x3C, dev="/nonexistent/i2c-%d")


def test_each_game_that_can_not_be_played_is_a_thing_to_fix(config, factory, monkeypatch):
    """With plug-ins installed that can't be played, the doctor said "0 to fix": each is a fault,
    one line each, in the sentence `newsdesk games` gives."""
    from conftest import install_game

    from controller.games import registry
    at_rest(factory)
    install_game(monkeypatch, "race", "no_such_race:GAME")
    install_game(monkeypatch, "derby", "controller.games.ledger:dollars")
    unplayable = {g["name"]: g["problem"] for g in registry.catalogue() if not g["available"]}
    report = doctor.run_doctor(config, probes(factory))
    said = [f.said for f in report.findings if f.status == "fault"]
    assert said == [unplayable["race"], unplayable["derby"]], \
        "the doctor's faults %s don't name the games that can't be played" % said
    text = doctor.format_report(report)
    assert "2 to fix" in text and text.count("can't be played") + text.count("not installed") >= 2
    assert report.exit_status == 1


def test_the_games_are_ok_when_every_one_can_be_played(config, factory):
    at_rest(factory)
    report = doctor.run_doctor(config, probes(factory))
    from controller.games import registry
    [games] = report.of("games")
    assert games.status == "ok" and games.said == "all %d games found can be played" % len(registry.names()), games
