"""The `newsdesk` command: serve the panel, replay dial recordings."""

import argparse
import json
import logging
import sys
import threading

from controller.dial.decoder import OFFNORMAL_MODES
from controller.dial.dialmaps import DIAL_MAPS
from controller.errors import NewsdeskError

log = logging.getLogger(__name__)
ANNOUNCED_AFTER_S = 5.0    # seconds after a start, the log says the name avahi gave the box if not its own


def _setup_logging(verbose):
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def cmd_serve(args):
    from controller.app import Newsdesk
    from controller.backup import finish_restore
    from controller.config import load_config
    from controller.durability import check_data_dir, check_usable
    from controller.runlock import RunLock
    from controller.store import STORE_FILE, check_store
    from web_ui import create_app, server

    def settings():
        return load_config(args.data, overrides={"host": args.host, "port": args.port,
                                                 "host_on_loopback": args.host_on_loopback})
    config = settings()
    check_data_dir(config.data_dir, allow_volatile=config["volatile_data"] == "allow")
    check_usable(config.data_dir)                   # a file, someone else's folder, a full disk: one sentence
    host, port = config.bind_host, config["port"]
    restart = threading.Event()                     # set when the host restored a backup from the panel
    with RunLock(config.data_dir, doing="serve") as lock:     # one server per data folder
        if finish_restore(config.data_dir):         # a restore confirmed on the panel, or cut off by a power cut
            log.warning("finished a restore (confirmed on the panel, or cut off by a power cut): the backup's "
                        "data is in place")
            config = settings()                     # the backup's settings, read before they are used
            host, port = config.bind_host, config["port"]
        sock = server.bind(host, port)              # a busy port: one sentence, before anything opens
        port = sock.getsockname()[1]
        url = "http://%s:%d/" % ("[%s]" % host if ":" in host else host, port)
        lock.note(url=url)
        try:
            check_store(config.data_dir / STORE_FILE)   # a damaged store is refused, and left as it is
            desk = Newsdesk(config, late_window=True)    # the window once the panel answers
        except BaseException:
            sock.close()
            raise
        try:
            app = create_app(newsdesk=desk)
            app.config["LISTEN_HOST"] = host      # an invitation says when a tablet can't reach it
            app.config["RESTART"] = lambda: _restart_soon(restart)     # a restore from the panel (web_ui/backups.py)
            log.info("data in %s", config.data_dir)
            log.info("panel at %s (Hypercorn; Flask views on %d threads, live pages on the event loop)",
                     url, config["threads"])
            desk.show_address(_say_where_tablets_go(host, port))
            later = threading.Timer(ANNOUNCED_AFTER_S, _say_announced_name, (host, port))
            later.daemon = True
            later.start()
            server.raise_open_files_limit()
            server.serve(app, config, sock)
        finally:
            desk.close()
            log.info("stopped; the store is closed")
    if restart.is_set():
        _start_again()
    return 0


def _say_where_tablets_go(host, port):
    """The address a tablet types, in the log: on a box with no screen, the journal is where the
    owner finds it (`journalctl -u newsdesk`), from the first boot on; and the URLs, for the
    phone's window to show them too ([] on loopback: no tablet can reach it)."""
    import socket

    from controller import board, lan

    if not lan.listening_on_lan(host):
        return []
    addresses = lan.ipv4_addresses() if host in ("", "0.0.0.0", "::") else [host]
    urls = lan.tablet_urls(socket.gethostname(), port, addresses)
    log.info("tablets on this network open %s%s", " or ".join(urls),
             " (%s)" % board.model() if board.model() else "")
    return urls


def _say_announced_name(host, port):
    """When avahi announces the box under another name than its hostname's (another box on the
    network had it first: raspberrypi-2.local), the log says the name tablets must use. Asked a
    few seconds after the start (a process of its own, which a start under a Pi Zero's budget
    needn't wait for)."""
    import socket

    from controller import lan

    if not lan.listening_on_lan(host):
        return
    name = lan.announced_name()
    usual = socket.gethostname().split(".")[0].lower() + ".local"
    if name and name != usual:
        addresses = lan.ipv4_addresses() if host in ("", "0.0.0.0", "::") else [host]
        log.info("avahi announces this box as %s (another box on the network is %s): tablets open %s",
                 name, usual, " or ".join(lan.tablet_urls("", port, addresses, local=name)))


def _restart_soon(restart):
    """The panel's restore is committed: stop as on SIGTERM (the store checkpointed and closed,
    the run lock released), then start again, whose start puts the backup in place."""
    import os
    import signal
    restart.set()
    os.kill(os.getpid(), signal.SIGTERM)


def _start_again():
    """The same `newsdesk ... serve` again, in this process (the same pid, so systemd's service
    and a terminal's `make run` both carry on): its start finishes the restore (finish_restore)."""
    import os
    log.warning("restarting to put the restored backup in place")
    for handler in logging.getLogger().handlers:
        handler.flush()
    os.execv(sys.executable, [sys.executable, "-m", "newsdesk"] + sys.argv[1:])


def cmd_league(args):
    """A read-only page following many tables over MQTT (docs/mqtt.md, the league)."""
    from controller.config import load_config
    from controller.mqtt.follower import LeagueFollower, check_tables
    from web_ui import server
    from web_ui.league import create_league_app, serve_league

    config = load_config(args.data, overrides={"host": args.host})
    url = args.mqtt_url or config["mqtt_url"]
    if not url:
        raise NewsdeskError("league: say which broker the tables send to: --mqtt-url mqtt://host:1883")
    tables = check_tables(args.tables)
    host = config.bind_host
    sock = server.bind(host, args.port)             # a busy port: one sentence, before the broker
    follower = LeagueFollower(url, tables, ca=config["mqtt_ca"]).start()
    try:
        port = sock.getsockname()[1]
        log.info("league following %s on %s: http://%s:%d/ (Hypercorn)", args.tables, follower.broker, host, port)
        serve_league(create_league_app(follower), sock)
    finally:
        follower.close()
    return 0


def cmd_host_link(args):
    """Print a one-time link that makes the device opening it a host: the way in when
    host_on_loopback is "no" (a reverse proxy on the box). Only someone at the box's console
    (or logged in to it) can run this, so it proves the same thing the box's screen does."""
    from controller.config import load_config
    from controller.devices import Devices
    from controller.store import DEVICES_FILE
    from web_ui.security import lan_address

    config = load_config(args.data)
    devices = Devices(config.data_dir / DEVICES_FILE)
    token, expires = devices.issue_token("host", "console", ttl=args.minutes * 60.0)
    if args.base:
        base = args.base.rstrip("/")
    else:
        base = "http://%s:%d" % (lan_address(), config["port"])
    print("%s/join?token=%s" % (base, token))
    print("Open it on the device that is to be a host, within %d minutes; it works once." % args.minutes,
          file=sys.stderr)
    return 0


def _flash_ms(text):
    """--min-flash-ms: whole milliseconds, 0-2000 (argparse says so in one line otherwise)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 2000:
        raise argparse.ArgumentTypeError("a whole number of milliseconds from 0 to 2000, not %r" % text)
    return value


def cmd_dial_replay(args):
    from controller.dial.trace import TraceError, load_trace, replay, replay_lines

    offnormal = OFFNORMAL_MODES[args.offnormal]
    status = 0
    for path in args.files:
        try:
            trace = load_trace(path)
            dial_map = args.dial_map or trace.dial_map or "standard"
            if dial_map not in DIAL_MAPS:
                raise TraceError("%s: its '# dial-map: %s' is not one of %s; pass --dial-map"
                                 % (trace.name, dial_map, ", ".join(DIAL_MAPS)))
        except TraceError as e:
            print("newsdesk dial replay: %s" % e, file=sys.stderr)
            status = 2
            continue
        wired = offnormal
        if wired == "auto" and trace.offnormal is not None:
            wired = trace.offnormal   # the recording says whether the contact was connected
        events = replay(trace.edges, dial_map=dial_map, offnormal=wired, initial=trace.initial,
                        min_flash=None if args.min_flash_ms is None else args.min_flash_ms / 1000.0)
        for ev in events:
            if ev.kind == "fault":
                print("newsdesk dial replay: %s at t=%.3f: %s" % (trace.name, ev.t, ev.value), file=sys.stderr)
        for line in replay_lines(trace, events):
            print(line, flush=False)
    sys.stdout.flush()
    return status


def _open_recording(path):
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise NewsdeskError("dial record: can't write %s: %s" % (path, e.strerror)) from None


def _record_serial(args, config, dial_map, recorder, view):
    """`dial record` with the phone on USB: the Pico sends its raw edges on request."""
    import threading

    from controller.serial.bridge import SerialBridge
    from controller.serial.errors import PhoneLinkError
    from controller.serial.finder import phone_port

    up = threading.Event()

    def on_status(status):
        view(status.message)
        if status.connected:
            up.set()

    bridge = SerialBridge(phone_port(config["phone_port"], config["phone_usb_id"]), lambda ev: None,
                          on_edge=recorder.edge, on_status=on_status,
                          settings={"dial_map": dial_map, "offnormal": config["offnormal"]})
    with bridge:
        if not up.wait(10):
            raise NewsdeskError("dial record: %s" % bridge.status.message)
        initial = bridge.record(True)
        with _open_recording(args.file) as f:
            recorder.begin(f, dial_map=dial_map, initial=initial,
                           note="recorded by newsdesk dial record; phone on USB %s" % bridge.status.port)
            rows = _run_recording(args, recorder, view, sim=None)
        try:
            bridge.record(False)
        except PhoneLinkError:
            pass
    return rows


def _run_recording(args, recorder, view, sim):
    import time

    view("recording to %s; Ctrl-C stops" % args.file)
    end = None if args.seconds is None else time.monotonic() + args.seconds

    def done():
        """Stop after --seconds, or once the simulated phone has dialed; else at Ctrl-C."""
        if end is not None:
            return time.monotonic() >= end
        return sim is not None and sim.is_idle()
    try:
        return recorder.run(done)
    except KeyboardInterrupt:
        return recorder.writer.rows


def cmd_dial_record(args):
    import time

    from controller.config import load_config
    from controller.dial.recorder import Recorder
    from controller.hw.phone import PhonePins
    from controller.hw.pinfactory import choose_pin_factory, is_simulated
    from controller.hw.simulated import PlayClock, SimulatedPhone
    from controller.pinmap import load_pinmap

    config = load_config(args.data)
    dial_map = args.dial_map or config["dial_map"]
    digits = [int(c) for c in (args.simulate or "") if c in "0123456789"]
    if args.simulate is not None and (not digits or len(digits) != len(args.simulate)):
        print("newsdesk dial record: --simulate takes digits 0-9, e.g. --simulate 4711", file=sys.stderr)
        return 2
    def view(text):
        print(text, file=sys.stderr, flush=True)
    clock = PlayClock() if digits else time.monotonic     # the virtual phone's schedule (see PlayClock)
    recorder = Recorder(view, clock=clock)
    if config["phone"] == "serial":
        if digits:
            print("newsdesk dial record: --simulate needs simulated hardware; the phone is on USB: "
                  "just dial it", file=sys.stderr)
            return 2
        rows = _record_serial(args, config, dial_map, recorder, view)
    else:
        factory, said = choose_pin_factory(config["pin_factory"])
        if digits and not is_simulated(factory):
            print("newsdesk dial record: --simulate needs simulated hardware (pin_factory=mock); this "
                  "is a real phone: just dial it", file=sys.stderr)
            return 2
        pins = PhonePins(load_pinmap(config["pinmap"] or None), recorder.edge, factory, clock=clock)
        sim = None
        try:
            if digits:
                sim = SimulatedPhone(pins, dial_map=dial_map, offnormal=config["offnormal"] != "none",
                                     play_clock=clock, ahead=None)    # a script: the whole number at once
            with _open_recording(args.file) as f:
                recorder.begin(f, dial_map=dial_map, initial=pins.states(),
                               note="recorded by newsdesk dial record; pins: %s" % said)
                if sim:
                    for d in digits:
                        sim.dial(d)
                    sim.hang_up(after_dialing=True)
                rows = _run_recording(args, recorder, view, sim)
        finally:
            if sim:
                sim.close()
            pins.close()
    view("%d edges written to %s; replay it with: newsdesk dial replay %s" % (rows, args.file, args.file))
    return 0


def cmd_dial_test(args):
    """`dial test`: a dial speed tester. Measures trace files, or records the live phone first."""
    import os
    import tempfile

    from controller.config import load_config

    config = load_config(args.data)
    standard = args.standard or config["dial_standard"]
    files = list(args.files)
    if not files:   # live: record (as `dial record` does), then measure what was recorded
        if args.seconds is None and args.simulate is None:
            args.seconds = 15.0
        args.file = args.save
        if not args.save:
            fd, args.file = tempfile.mkstemp(prefix="dial-test-", suffix=".csv")
            os.close(fd)
        print("dial a 0 (and any other digits) within %s" % ("%g s" % args.seconds if args.seconds else
                                                             "the simulation"), file=sys.stderr)
        try:
            status = cmd_dial_record(args)
            if status:
                return status
            return _dial_test_files(args, config, standard, [args.file])
        finally:
            if not args.save:
                os.unlink(args.file)
    return _dial_test_files(args, config, standard, files)


def _dial_test_files(args, config, standard, files):
    from controller.dial import tester
    from controller.dial.profile import ProfileError, Profiles
    from controller.dial.trace import TraceError, load_trace

    all_tests, dial_map = [], args.dial_map or config["dial_map"]
    for name in files:
        try:
            trace = load_trace(name)
        except TraceError as e:
            print("newsdesk dial test: %s" % e, file=sys.stderr)
            return 2
        dial_map = args.dial_map or trace.dial_map or config["dial_map"]
        if dial_map not in DIAL_MAPS:
            print("newsdesk dial test: %s: its '# dial-map: %s' is not one of %s; pass --dial-map"
                  % (trace.name, dial_map, ", ".join(DIAL_MAPS)), file=sys.stderr)
            return 2
        tests = tester.measure(trace.edges, dial_map=dial_map, initial=trace.initial)
        if args.json:
            for t in tests:
                print(json.dumps(dict(trace=trace.name, **t.as_dict(standard))))
        else:
            print("%s:" % trace.name)
            for line in tester.format_report(tests, standard):
                print("  " + line)
        all_tests += tests
    if args.keep:
        try:
            kept = Profiles(config.data_dir).save(args.keep, tester.summary(all_tests), standard, dial_map)
        except (ProfileError, OSError) as e:
            print("newsdesk dial test: can't keep the profile: %s" % e, file=sys.stderr)
            return 2
        print("kept as phone %r's profile: %.2f pps, %.0f %% break (set phone_profile = %r to use it)"
              % (args.keep, kept["pps"], kept["break_pct"], args.keep), file=sys.stderr)
    verdicts = [t.verdict(standard)[0] for t in all_tests]
    return 1 if False in verdicts else 0


def cmd_phone_sound(args):
    import time

    from controller.audio.player import Player, open_output
    from controller.audio.speech import Speech
    from controller.config import load_config
    from controller.oracles.editor import SIGNALS

    config = load_config(args.data)
    if args.signal not in SIGNALS:
        print("newsdesk phone sound: --signal is one of %s" % ", ".join(SIGNALS), file=sys.stderr)
        return 2
    player = Player(open_output(config["audio_device"] or None), plan=config["tone_plan"],
                    speech=Speech.find() if config["speech"] != "off" else None, volume=config["audio_volume"])
    try:
        if args.sound == "verdict":
            clip = player.verdict_clip(args.signal, SIGNALS[args.signal][0])
            player.play("verdict", clip)
            time.sleep(clip.seconds + 0.3)
        else:
            player.play(args.sound)
            time.sleep(args.seconds)
    finally:
        player.close()
    return 0


def cmd_phone_ring(args):
    import time

    from controller.config import load_config
    from controller.hw.pinfactory import choose_pin_factory
    from controller.hw.ringer import Ringer
    from controller.pinmap import load_pinmap

    config = load_config(args.data)
    factory, _ = choose_pin_factory(config["pin_factory"])
    ringer = Ringer(load_pinmap(config["pinmap"] or None), factory, cadence=config["tone_plan"],
                    strike_hz=config["bell_strike_hz"])
    try:
        ringer.ring(times=args.times)
        time.sleep(args.times * ringer.period)
    finally:
        ringer.close()
    return 0


def cmd_doctor(args):
    from controller.config import load_config
    from controller.doctor import Probes, format_report, run_doctor

    report = run_doctor(load_config(args.data), Probes(wiring=_electrical_rules))
    print(format_report(report))
    return report.exit_status


def _electrical_rules(pinmap):
    """The pin map's errors under the electrical rules (schematics/erc.py), both boards; None
    where schematics/ or the parts list can't be read (a copy of newsdesk without them)."""
    try:
        from schematics import erc
        from schematics.circuit import build
        from schematics.parts import PartsError, load_parts
    except ImportError:
        return None
    try:
        parts = load_parts()
    except PartsError:
        return None
    return [finding.message for board in ("pi", "pico") for finding in erc.check(build(pinmap, parts, board)).errors]


def cmd_games(args):
    """`games`: every game found (newsdesk's and any installed beside it), whether it can be played
    and, if not, why; --write-doc FILE remakes the options in docs/games.md from the declarations.
    Exits 1 when any game found can't be played, so a plug-in's CI can run it as a check."""
    from controller.games import options_doc, registry

    if args.write_doc:
        from pathlib import Path
        doc = Path(args.write_doc)
        text = doc.read_text(encoding="utf-8")
        made = options_doc.document(text)
        if made != text:
            doc.write_text(made, encoding="utf-8")
        print("%s: the options of %d games%s" % (doc, len(options_doc.our_games()),
                                                  " written" if made != text else ", already current"))
        return 0
    for item in registry.catalogue():
        point = registry.found()[item["name"]]
        dist = getattr(point, "dist", None)
        print("%-16s %s (from %s)%s" % (item["name"], item["title"], dist.name if dist else point.value,
                                        "" if item["available"] else ": " + str(item["problem"])))
    for plug_in in registry.refused():      # a plug-in that took a built-in game's name, not loaded
        print("%-16s (from %s): %s" % (plug_in["name"], plug_in["distribution"], plug_in["problem"]))
    unplayable = [u["name"] for u in registry.unplayable()]     # newsdesk doctor says the same
    if unplayable:      # for CI: a game installed but not playable fails the step that lists them
        print("newsdesk: %d of the games found can't be played: %s"
              % (len(unplayable), ", ".join(unplayable)), file=sys.stderr)
        return 1
    return 0


def cmd_backup(args):
    """`backup [FILE]`: the store, devices, settings and dial profiles in one file (controller/backup.py)."""
    import os
    from pathlib import Path

    from controller.backup import describe, free_name, keep_in_folder, make_backup
    from controller.config import load_config

    config = load_config(args.data)
    gone = []
    if args.file is None and config["backup_dir"]:
        dest, manifest, gone = keep_in_folder(config.data_dir, config["backup_dir"], config["backup_keep"],
                                              with_secret=args.with_secret)
    else:
        dest = Path(args.file or ".").expanduser()
        if dest.is_dir() or not args.file or args.file.endswith(("/", os.sep)):
            dest = dest / free_name(os.listdir(dest) if dest.is_dir() else ())
        manifest = make_backup(config.data_dir, dest, with_secret=args.with_secret)
    print(dest)
    print("backed up %s (%s) from %s: %s, newsdesk %s, store schema %d"
          % (describe(manifest["store"]), ", ".join(manifest["files"]), config.data_dir, manifest["created"],
             manifest["newsdesk"], manifest["schema"]), file=sys.stderr)
    if args.with_secret:
        print("It holds the panel's secret key (--with-secret): anyone with this file can sign in as a joined "
              "device, so keep it as safe as the box.", file=sys.stderr)
    else:
        print("The panel's secret key is not in it: restored on a new box, the tablets join again "
              "(--with-secret includes it).", file=sys.stderr)
    if gone:
        print("removed %d older backup%s (backup_keep = %d)" % (len(gone), "" if len(gone) == 1 else "s",
                                                               config["backup_keep"]), file=sys.stderr)
    return 0


def _told(words):
    """--yes: what the restore replaces and changes is said all the same, before it is done."""
    print(words, file=sys.stderr)
    return True


def _ask(words):
    print(words, file=sys.stderr)
    if not sys.stdin or not sys.stdin.isatty():
        from controller.backup import BackupError
        raise BackupError("restore: nothing was changed; there is no terminal to ask on, so say --yes to restore")
    return input("Restore it? [y/N] ").strip().lower() in ("y", "yes")


def _held(holder, data_dir, then):
    """Why ``then`` (restore, migrate) can't take the data folder's lock, in one sentence naming
    what holds it as its lock file says (``holder``), or true whatever holds it."""
    pid = holder.get("pid") if isinstance(holder.get("pid"), int) else "unknown"
    doing = holder.get("doing")
    if doing in ("restore", "migrate"):
        return ("another newsdesk %s (pid %s) is %s the data folder %s; let it finish, then %s"
                % (doing, pid, "restoring into" if doing == "restore" else "migrating the store of", data_dir, then))
    if doing == "serve" or holder.get("url"):
        return ("newsdesk is serving the data folder %s (pid %s%s); stop it first (sudo systemctl stop newsdesk, or "
                "Ctrl-C), then %s" % (data_dir, pid, ", panel at %s" % holder["url"] if holder.get("url") else "",
                                      then))
    return ("another newsdesk (pid %s) holds the data folder %s (serving it, or restoring or migrating into it); "
            "stop it first, or let it finish, then %s" % (pid, data_dir, then))


def _let_go(lock, made_it):
    """Release the run ``lock``; a lock file this command made is taken away first (while still
    held, so no server can take the lock on a file about to go): a restore that changes nothing
    leaves the folder as it found it, and one that does leaves no file of its own in it."""
    import contextlib
    if not lock.held:       # let go already
        return
    if made_it:
        with contextlib.suppress(OSError):
            lock.path.unlink()
    lock.release()


def cmd_restore(args):
    """`restore [FILE]`: put a backup back, checked whole first; without FILE, finish one a power
    cut interrupted (controller/backup.py)."""
    import contextlib

    from controller.backup import (
        CONFIG_FILE,
        PROFILE_FILE,
        BackupError,
        describe,
        escaped,
        finish_restore,
        left_out_words,
        restore,
        summarize,
    )
    from controller.config import load_config
    from controller.runlock import AlreadyServing, RunLock
    from controller.store import SCHEMA_VERSION, STORE_FILE

    config = load_config(args.data)
    new_folder = not config.data_dir.exists()
    lock = RunLock(config.data_dir, doing="restore")
    made_lock = not lock.path.exists()
    try:
        lock.acquire()
    except AlreadyServing as e:
        raise BackupError(_held(e.holder, config.data_dir, "restore")) from None
    except OSError as e:
        raise BackupError("can't restore into %s: %s" % (config.data_dir, e.strerror or e)) from None
    try:
        if finish_restore(config.data_dir):
            print("finished a restore into %s that was interrupted" % config.data_dir, file=sys.stderr)
        elif args.file is None:
            print("no interrupted restore to finish in %s" % config.data_dir, file=sys.stderr)
        if args.file is None:
            return 0
        done = restore(config.data_dir, args.file, _told if args.yes else _ask)
    except BaseException:
        _let_go(lock, made_lock)
        if new_folder:      # a refused restore onto a new card leaves no folder behind, only the sentence
            with contextlib.suppress(OSError):
                config.data_dir.rmdir()
        raise
    finally:
        _let_go(lock, made_lock)
    if done is None:
        print("nothing was changed", file=sys.stderr)
        return 1
    manifest, replaced = done
    print("restored %s into %s: %s (made %s by newsdesk %s)" % (      # the figures of the store now in place
        escaped(args.file), escaped(str(config.data_dir)), describe(summarize(config.data_dir / STORE_FILE)), manifest["created"],
        manifest["newsdesk"]), file=sys.stderr)
    if replaced is not None:
        print("what it replaced is kept in %s" % escaped(str(replaced)), file=sys.stderr)
    if left_out_words(manifest):
        print(left_out_words(manifest), file=sys.stderr)
    if manifest["schema"] < SCHEMA_VERSION:
        print("its store is at schema %d; newsdesk brings it to %d when it next opens it"
              % (manifest["schema"], SCHEMA_VERSION), file=sys.stderr)
    if not manifest["with_secret"]:
        print("the backup has no secret key: this box keeps its own (on a new box, the tablets join again)",
              file=sys.stderr)
    for name in (CONFIG_FILE, PROFILE_FILE):
        if name not in manifest["files"] and (config.data_dir / name).exists():
            print("the backup has no %s: this box keeps its own" % name, file=sys.stderr)
    return 0


def cmd_migrate(args):
    """`migrate`: open the store as `serve` would, which brings its schema forward (what `make
    update` runs after the new code is in, so a store a new newsdesk can't read is found then,
    not at the table); says from which schema to which."""
    import sqlite3

    from controller.backup import interrupted
    from controller.config import load_config
    from controller.errors import StoreError
    from controller.runlock import AlreadyServing, RunLock
    from controller.store import SCHEMA_VERSION, STORE_FILE, Store, way_back

    config = load_config(args.data)
    path = config.data_dir / STORE_FILE
    if not path.exists():
        print("no store in %s yet: nothing to migrate (newsdesk makes one at schema %d when it first starts)"
              % (config.data_dir, SCHEMA_VERSION), file=sys.stderr)
        return 0
    if interrupted(config.data_dir):
        raise StoreError("a restore into %s is not finished: run newsdesk restore first, then migrate"
                         % config.data_dir)
    try:
        lock = RunLock(config.data_dir, doing="migrate").acquire()
    except AlreadyServing as e:
        raise StoreError(_held(e.holder, config.data_dir, "migrate")) from None
    try:
        db = sqlite3.connect("%s?mode=ro" % path.resolve().as_uri(), uri=True)
        try:
            before = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as e:
            raise StoreError("can't read the store %s (%s); %s" % (path, e, way_back(path))) from None
        finally:
            db.close()
        Store(path).close()     # opening it migrates it forward, one step per transaction
    finally:
        lock.release()
    if before < SCHEMA_VERSION:
        print("the store %s was brought from schema %d to %d" % (path, before, SCHEMA_VERSION), file=sys.stderr)
    else:
        print("the store %s is at schema %d, this newsdesk's: nothing to migrate" % (path, SCHEMA_VERSION),
              file=sys.stderr)
    return 0


class _Version(argparse.Action):
    """`newsdesk --version`: the installed package's version (pyproject.toml is its one home)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from controller.backup import newsdesk_version
        print("newsdesk %s" % newsdesk_version())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Every command and subcommand takes the global options too, before or after its name:
    `newsdesk --data DIR serve` and `newsdesk serve --data DIR` (what `make run ARGS="..."`
    builds) mean the same. A subcommand's copy has no default of its own, so it never undoes
    one given before the command's name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_argument("--data", metavar="DIR", default=argparse.SUPPRESS,
                          help="where the store and config.toml live (default: NEWSDESK_DATA, else the "
                               "installed service's folder, else the platform's data folder)")
        self.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                          help="debug logging")


def build_parser():
    parser = _Parser(prog="newsdesk", description=__doc__)
    parser.set_defaults(data=None, verbose=False)
    parser.add_argument("--version", action=_Version, help="print newsdesk's version and stop")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the table panel (Hypercorn) with the phone attached")
    serve.add_argument("--host", help="address to bind (default: 0.0.0.0 on a Pi, 127.0.0.1 elsewhere)")
    serve.add_argument("--port", type=int, help="port to bind (default 8080)")
    serve.add_argument("--host-on-loopback", choices=("yes", "no"), default=None,
                       help="requests from 127.0.0.1/::1 are the host (default yes; no behind a reverse proxy)")
    serve.set_defaults(func=cmd_serve)

    link = sub.add_parser("host-link", help="print a one-time link that makes a device a host (ten minutes)")
    link.add_argument("--base", metavar="URL", help="the panel's address as devices reach it, e.g. "
                      "https://newsdesk.lan (default: http://<this box's LAN address>:<port>)")
    link.add_argument("--minutes", type=int, default=10, choices=range(1, 61), metavar="N",
                      help="how long the link works (1-60, default 10)")
    link.set_defaults(func=cmd_host_link)

    doctor = sub.add_parser("doctor", help="check the pins, inputs, display, audio, phone, store, port and games, "
                                           "and say how to fix what is wrong")
    doctor.set_defaults(func=cmd_doctor)

    games = sub.add_parser("games", help="list the games found (newsdesk's, and any installed beside it: "
                                         "docs/new-game.md) and whether each can be played; exits 1 if one can't")
    games.add_argument("--write-doc", metavar="FILE", help="remake the options tables in FILE (docs/games.md)")
    games.set_defaults(func=cmd_games)

    league = sub.add_parser("league", help="a read-only page following many tables over MQTT, with a "
                                           "leaderboard across them (docs/mqtt.md)")
    league.add_argument("--mqtt-url", help="the broker the tables send to (default: the mqtt_url setting)")
    league.add_argument("--port", type=int, default=8081, help="port to serve the page on (default 8081)")
    league.add_argument("--host", help="address to bind (default: 0.0.0.0 on a Pi, 127.0.0.1 elsewhere)")
    league.add_argument("--tables", default="newsdesk/+", help="the tables' base topics, + for the table "
                                                                "(default newsdesk/+)")
    league.set_defaults(func=cmd_league)

    backup = sub.add_parser("backup", help="the store, devices, settings and dial profiles in one file "
                                           "(docs/hardware.md); safe while the panel runs")
    backup.add_argument("file", nargs="?", metavar="FILE", help="the file, or a folder for a dated name "
                        "(default: a dated name in backup_dir, whose oldest past backup_keep go; else here)")
    backup.add_argument("--with-secret", action="store_true", help="include the panel's secret key, so the "
                        "joined tablets stay joined on a new box")
    backup.set_defaults(func=cmd_backup)

    restore = sub.add_parser("restore", help="put a backup back, checked whole first (stop the panel first); "
                                             "without FILE, finish a restore a power cut interrupted")
    restore.add_argument("file", nargs="?", metavar="FILE")
    restore.add_argument("--yes", action="store_true", help="don't ask before replacing what is there")
    restore.set_defaults(func=cmd_restore)

    migrate = sub.add_parser("migrate", help="open the store, which brings it to this newsdesk's schema (stop the "
                                             "panel first; make update runs it)")
    migrate.set_defaults(func=cmd_migrate)

    dial = sub.add_parser("dial", help="dial recordings")
    dial_sub = dial.add_subparsers(dest="dial_command", required=True)
    replay = dial_sub.add_parser("replay", help="decode dial trace files, one JSON event per line")
    replay.add_argument("--dial-map", choices=DIAL_MAPS, default=None,
                        help="how many pulses each digit gives (default: the trace's '# dial-map:' "
                             "comment, else standard)")
    replay.add_argument("--offnormal", choices=tuple(OFFNORMAL_MODES), default="auto",
                        help="use the off-normal contact: auto (if the trace has it), wired, none")
    replay.add_argument("--min-flash-ms", type=_flash_ms, default=None, metavar="MS",
                        help="the shortest on-hook that counts as hanging up (default: the min_flash_ms setting's "
                             "default, 100; shorter ones are a hand on the cradle, no hook change)")
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.set_defaults(func=cmd_dial_replay)
    record = dial_sub.add_parser("record", help="record the phone's live contacts to a trace file, "
                                                "showing each edge as it comes")
    record.add_argument("file", metavar="FILE")
    record.add_argument("--seconds", type=float, help="stop after this long (default: at Ctrl-C)")
    record.add_argument("--dial-map", choices=DIAL_MAPS, default=None,
                        help="for the live view (default: the dial_map setting)")
    record.add_argument("--simulate", metavar="DIGITS",
                        help="on simulated hardware, have the virtual phone dial these digits")
    record.set_defaults(func=cmd_dial_record)
    test = dial_sub.add_parser("test", help="a dial speed tester: pulses, pps, %% break and their spread per "
                                            "digit, pass or fail (exit 1 on a fail)")
    test.add_argument("files", nargs="*", metavar="FILE",
                      help="trace files to measure (default: record the live phone first)")
    test.add_argument("--standard", choices=("bell", "gpo"), default=None,
                      help="the standard the dial was built to (default: the dial_standard setting)")
    test.add_argument("--dial-map", choices=DIAL_MAPS, default=None)
    test.add_argument("--seconds", type=float, default=None, help="live: record this long (default 15)")
    test.add_argument("--simulate", metavar="DIGITS", help="live, simulated hardware: the virtual phone dials these")
    test.add_argument("--save", metavar="FILE", help="live: keep the recording in this trace file")
    test.add_argument("--keep", metavar="PHONE", help="keep what was measured as this phone's profile")
    test.add_argument("--json", action="store_true", help="one JSON object per digit")
    test.set_defaults(func=cmd_dial_test)

    phone = sub.add_parser("phone", help="check the handset's sound and the bell")
    phone_sub = phone.add_subparsers(dest="phone_command", required=True)
    snd = phone_sub.add_parser("sound", help="play a call-progress tone or a verdict on the handset")
    snd.add_argument("sound", choices=["dial", "ringback", "busy", "verdict"])
    snd.add_argument("--signal", default="OK", help="the verdict to say (default OK)")
    snd.add_argument("--seconds", type=float, default=4.0)
    snd.set_defaults(func=cmd_phone_sound)
    ring = phone_sub.add_parser("ring", help="ring the bell (stop `serve` first: it holds the pin)")
    ring.add_argument("--times", type=int, default=2, choices=range(1, 21), metavar="N")
    ring.set_defaults(func=cmd_phone_ring)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    _setup_logging(args.verbose)
    try:
        return args.func(args)
    except NewsdeskError as e:
        print("newsdesk: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
