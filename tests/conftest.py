import contextlib
import gc
import math
import os
import posixpath
import re
import shutil
import socket
import sys
import time
from pathlib import Path

# The Pico on the bench (firmware/tools/pico_emulator.py) is a product tool the tests use too.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware" / "tools"))

import compiled_once
import lanes
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

from controller.app import Newsdesk
from controller.config import load_config
from web_ui import create_app
from web_ui.server import InThread, PortBusy

# Hypothesis draws the same examples on every run ("newsdesk"), so a run of `make test` can't pass
# once and fail the next on a different draw: a flaky test rejects good changes and hides bad
# ones. NEWSDESK_HYPOTHESIS=explore draws new examples each run, to look for new failures (each
# found is then kept as an @example).
settings.register_profile("newsdesk", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("NEWSDESK_HYPOTHESIS", "newsdesk"))

compiled_once.install()   # each test's panel reuses the routes and templates compiled for the first

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_dir():
    """The project's shared/ folder beside the checkout; CI requires it, elsewhere its tests skip."""
    if SHARED.is_dir():
        return SHARED
    if os.environ.get("NEWSDESK_REQUIRE_SHARED"):
        pytest.fail("shared/ is not beside the checkout (%s)" % SHARED.name)
    pytest.skip("shared/ is not beside the checkout")


def binomial_upper(n, p, level=0.99):
    """The smallest k with P(X <= k) >= level for X ~ Binomial(n, p): the top of chance's band
    for the tests that say "no better than chance" (the editor's secrecy, the odds' false alarms)."""
    acc = 0.0
    for k in range(n + 1):
        acc += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        if acc >= level:
            return k
    return n


def wait_for(predicate, timeout=5.0, interval=0.005):
    """Poll a condition the code under test makes true on another thread (no fixed sleeps)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


@pytest.fixture
def mock_factory():
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def config(tmp_path):
    # no sound card in tests: the phone's sounds have tests of their own with a captured output
    return load_config(tmp_path / "data", environ={}, overrides={"audio": "off", "speech": "off"})


@pytest.fixture
def desk(config, mock_factory):
    nd = Newsdesk(config, pin_factory=mock_factory)
    nd.joins.timers = False   # tests hand in the times and end a code dialed half-way by hanging up
    yield nd
    nd.close()


@pytest.fixture
def app(desk):
    return create_app(newsdesk=desk, test_config={"TESTING": True, "STREAM_KEEPALIVE": 0.2})


@pytest.fixture
def client(app):
    """A test client on loopback (the host device), sending the header every write must carry."""
    c = app.test_client()
    c.environ_base["HTTP_X_NEWSDESK"] = "1"
    return c


class FakeClock:
    """A clock the test moves by hand; patched into MockPin's timestamps and the listener."""

    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


def drive(phone_pins, line, state):
    """Put a logical state on a mock pin, through the pin map's polarity, as the wiring would."""
    pin = phone_pins.pin(line)
    if phone_pins.spec(line).level(state):
        pin.drive_high()
    else:
        pin.drive_low()


class Clocks:
    """A wall clock and a monotonic clock, moved together by the test (join tokens expire by the
    wall clock; rate limits count by the monotonic one)."""

    def __init__(self):
        self.t = 0.0

    def wall(self):
        return 1_800_000_000.0 + self.t

    def mono(self):
        return 1000.0 + self.t

    def advance(self, seconds):
        self.t += seconds


@pytest.fixture
def clocks():
    return Clocks()


# Debian's Chromium, in the build of it made for driving by a program (package
# chromium-headless-shell: the same Blink and V8 as /usr/bin/chromium, without the desktop
# browser around them). A browser test costs about 30 % less CPU in it (docs/benchmarks.md).
# The full browser is the fallback where it isn't installed, and NEWSDESK_CHROMIUM picks either.
# Installing the panel as an app is a question for the full browser only, so that test asks
# FULL_CHROMIUM (test_install_browser.py).
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("NEWSDESK_CHROMIUM") or (
    HEADLESS_CHROMIUM if os.path.exists(HEADLESS_CHROMIUM) else FULL_CHROMIUM)


def need_browser(chromium=CHROMIUM):
    """Skip (or, in CI, fail) a browser test when Playwright or Debian's Chromium is missing."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "playwright is not installed"
    else:
        if shutil.which(chromium) or os.path.exists(chromium):
            return
        reason = "Debian's Chromium is not installed at %s (apt-get install %s)" % (
            chromium, "chromium-headless-shell" if chromium == HEADLESS_CHROMIUM else "chromium")
    if os.environ.get("NEWSDESK_REQUIRE_BROWSER"):
        pytest.fail(reason)
    pytest.skip(reason)


FOUR = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]


def play_a_game(desk, winner):
    """A real game of Get the Scoop! (the table keeps the board), played through the table and
    finished, won by seat ``winner``: the shortest whole game there is, for tests that need kept
    games (backups, restores, migrations)."""
    desk.table.games.start("get_the_scoop", FOUR, {"board": "table"})
    version = desk.table.games.current()["version"]
    desk.table.games.act({"type": "reveal", "plays": []}, version)
    desk.table.games.act({"type": "check", "winners": [winner]}, version + 1)
    return desk.table.games.finish(version + 2)


# --disable-features=RenderDocument: a navigation keeps the page's frame and renderer where the
# site stays the same (as Chromium did until RenderDocument), rather than building new ones each
# time; nothing a page can see changes, and a browser test costs about 7 % less CPU
# (docs/benchmarks.md).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-features=RenderDocument"]


_WORKER = {}    # this worker's Playwright driver and Chromium, once a test has asked for them


def worker_playwright():
    """Playwright's driver, started on this worker's first browser test and kept to the end of its
    session; skips (or, in CI, fails) like need_browser. One per worker because starting the
    driver and Chromium costs about 1.5 s of CPU, and about twenty files drive a browser.
    While it is up, this thread has Playwright's event loop running: a test that runs asyncio
    code of its own does so on a thread of its own (test_live.py's ``on_a_loop``)."""
    need_browser()
    if "playwright" not in _WORKER:
        from playwright.sync_api import sync_playwright
        _WORKER["playwright"] = sync_playwright().start()
    return _WORKER["playwright"]


class TestChromium:
    """This worker's Chromium as one test sees it: a context or page it opens has the panel's
    service worker blocked, unless the test asks for it (``service_workers="allow"``).

    Why: over plain http://<box>.local, as tablets and phones reach the box, the browser runs no
    service worker at all (it needs a secure context); only loopback, where the tests' servers
    listen, is one. There, every new context would install the worker and fetch every static file
    into its cache again: about 15 % of a browser test's CPU (docs/benchmarks.md). The worker has
    tests of its own (test_install_browser.py, test_app_shell.py)."""

    __test__ = False    # not a test class, whatever its name

    def __init__(self, browser, service_workers="block"):
        self._browser = browser
        self._service_workers = service_workers

    def new_context(self, **options):
        options.setdefault("service_workers", self._service_workers)
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("service_workers", self._service_workers)
        return self._browser.new_page(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@contextlib.contextmanager
def launched_chromium(service_workers="block"):
    """This worker's Debian Chromium, headless, driven by Playwright (launched on first use), as a
    TestChromium. A test gets its own contexts (cookies, storage) from it, as it gets its own
    server: every context opened inside the ``with`` is closed on leaving it, so no page of one
    test (its timers, its live feed) runs on into the next. The background-networking flags
    keep Chromium from reaching for Google's hosts on a closed network."""
    if "chromium" not in _WORKER or not _WORKER["chromium"].is_connected():
        _WORKER["chromium"] = worker_playwright().chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    browser = _WORKER["chromium"]
    before = set(browser.contexts)
    try:
        yield TestChromium(browser, service_workers)
    finally:
        for context in browser.contexts:
            if context not in before:
                context.close()


class Screens:
    """Browser contexts a test module keeps, one for each screen size it asks for, each with one
    page that a test borrows (``with screens.page(size) as page``) and gives back cleared: its
    cookies and the storage of the origin it was on gone, and the page left on about:blank,
    where its timers and its live feed end. A new context with its page costs Chromium about
    0.35 s of CPU, and a kept one has the panel's static files in its HTTP cache when each test's
    server is on the worker's own port (serve_panel).
    ``page.errors`` holds the page's script errors while it is borrowed. A page that can't be
    cleared has its context closed, and the next test gets a new one."""

    def __init__(self, browser):
        self.browser = browser
        self._contexts = {}

    @contextlib.contextmanager
    def page(self, viewport, timeout=None):
        key = (viewport["width"], viewport["height"])
        if key not in self._contexts:
            self._contexts[key] = self.browser.new_context(viewport=viewport)
            self._contexts[key].new_page()
        context = self._contexts[key]
        page = context.pages[0]
        page.errors = []

        def listener(e):
            page.errors.append(str(e))
        page.on("pageerror", listener)
        page.set_default_timeout(timeout or 30000)
        try:
            yield page
        finally:
            page.remove_listener("pageerror", listener)
            try:
                if page.url.startswith("http"):
                    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                page.goto("about:blank")
                context.clear_cookies()
            except Exception:
                del self._contexts[key]
                context.close()

    def close(self):
        for context in self._contexts.values():
            context.close()
        self._contexts = {}


@pytest.fixture(scope="module")
def screens(browser):
    """The module's Screens, on the module's own ``browser`` fixture."""
    s = Screens(browser)
    yield s
    s.close()


def pytest_sessionfinish(session):
    """The worker's Chromium and Playwright's driver stop with its session."""
    if "chromium" in _WORKER:
        _WORKER.pop("chromium").close()
    if "playwright" in _WORKER:
        _WORKER.pop("playwright").stop()


PICTURES = Path(__file__).resolve().parents[1] / "test-artifacts"


def signal_button(code):
    """The name of the button that enters the editor's signal ``code`` by hand: the signal as the
    phone's window shows it, then (for a screen reader) his message. Chromium puts a space before
    the hidden message, as it is positioned out of the line."""
    return re.compile(r"^%s ?: " % re.escape(code))


def picture(target, filename, **options):
    """A screenshot of ``target`` (a page or a locator) as test-artifacts/``filename``, taken when
    NEWSDESK_PICTURES is set (``make screenshots``). The pictures are for a person to look at; no
    test reads them, and each costs Chromium a render and a PNG (a full page, about 0.3 s of CPU),
    so ``make test`` leaves them out. The test around it runs the same either way."""
    if not os.environ.get("NEWSDESK_PICTURES"):
        return
    PICTURES.mkdir(exist_ok=True)
    target.screenshot(path=str(PICTURES / filename), **options)


def lan_address():
    """A non-loopback IPv4 address of this machine (what a phone on the Wi-Fi would use), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 9))          # picks the outgoing address; sends nothing
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


@contextlib.contextmanager
def spice_answers_shared(tmp_path_factory):
    """ngspice's answers (schematics.spice keeps each deck's, per process) shared by the workers of
    one run. `test_spice.py` and `test_schematics.py` simulate the same decks, about 8 CPU-seconds,
    and on two workers each ran them all. The first to get here runs them, holding a lock; the
    other waits, then reads its answers. The file lives in this run's own temporary folder, so
    every run of `make test` simulates afresh."""
    import fcntl
    import json

    from schematics import spice
    folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = folder.parent              # the run's folder, above each worker's own
    kept = folder / "spice-answers.json"
    with open(folder / "spice-answers.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            spice._CACHE.update(json.loads(kept.read_text(encoding="utf-8")))
        yield
        kept.write_text(json.dumps(spice._CACHE), encoding="utf-8")


def need_ngspice():
    """Skip (or, in CI, fail) a circuit simulation when Debian's ngspice is missing."""
    if shutil.which("ngspice"):
        return
    reason = "ngspice is not installed (apt-get install ngspice): the circuit simulations are skipped"
    if os.environ.get("NEWSDESK_REQUIRE_NGSPICE"):
        pytest.fail(reason)
    pytest.skip(reason)


def unversioned(paths):
    """``paths`` with the static files' version prefix (/static/<version>/...) taken out, so a test
    can name a file as it lies in web_ui/static/."""
    return {re.sub(r"^/static/[0-9a-f]{12}/", "/static/", p) for p in paths}


def page_assets(client, page):
    """{path: bytes} for ``page`` and every static file it loads, following the scripts' relative
    imports, those a script makes when it needs them (``import("./start.js")``) too; each must be
    served (200) by the box itself."""
    html = client.get(page).get_data()
    found = {page: html}
    todo = [p.decode() for p in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        r = client.get(path)
        body = r.get_data()
        r.close()
        assert r.status_code == 200, path
        found[path] = body
        if path.endswith(".js"):
            base = posixpath.dirname(path)
            for rel in re.findall(rb'(?:from |import |import\()"(\.{1,2}/[^"]+)"', body):   # import("./x.js") too
                todo.append(posixpath.normpath(posixpath.join(base, rel.decode())))
    return found




def install_game(monkeypatch, name, where):
    """As if the distribution declaring game ``name`` now named ``where`` ("module:attribute") in
    the newsdesk.games entry-point group: an engine uninstalled, broken or replaced."""
    from importlib.metadata import EntryPoint

    from controller.games import registry
    points = dict(registry.found())
    points[name] = EntryPoint(name=name, value=where, group=registry.GROUP)
    monkeypatch.setattr(registry, "found", lambda: points)
    monkeypatch.setattr(registry, "declared", lambda: points)


def serve_panel(app, host="0.0.0.0"):
    """``app`` served as ``newsdesk serve`` serves it (InThread), on every address as on a Pi, and
    on this worker's own port whenever it is free: the same origin test after test. The pages a
    module keeps (Screens) then hold the static files in their HTTP cache (immutable, versioned
    URLs) and their scripts compiled, as a tablet at the table does from its second visit on,
    instead of each test's first load fetching and compiling all of them again: about a tenth of
    the browser tests' CPU (docs/benchmarks.md). Each test's server is still its own: a
    borrowed page was cleared and left on about:blank before the last test's server closed.
    A port someone else took meanwhile gives a free one, which is kept from then on."""
    try:
        srv = InThread(app, host=host, port=_WORKER.get("panel_port", 0))
    except PortBusy:
        srv = InThread(app, host=host)
    _WORKER["panel_port"] = srv.port
    return srv


@pytest.fixture
def panel_server(app):
    """The port of the panel served on every address, as on a Pi (serve_panel)."""
    srv = serve_panel(app)
    yield srv.port
    srv.close()


def pytest_configure(config):
    """xdist would hand out the files by their number of tests, the most first, which puts the
    one-test browser files (the first hour, about 10 s) last; keep lanes.order instead."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """The files in the order `make test` hands them out (lanes.order)."""
    items[:] = lanes.order(items)


def pytest_collection_finish(session):
    """What collecting made (every test module, its data and about 2,500 items) is kept to the
    end of the process: frozen out of the garbage collector's reach, so that each of its full
    collections walks only what the tests themselves make. Nothing made by a test is
    frozen, so an object a test leaves in a cycle is still collected (and an unclosed file's
    warning still raised) as before. The 1,800 tests neither slow, nor a browser's, nor waiting,
    run in one process: the collector's time fell from 7.6 s to 4.7 s."""
    gc.freeze()


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: a worker per core, and one more for the files that mostly wait (lanes)."""
    asked = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    return int(asked) if asked.isdigit() and int(asked) > 0 else lanes.cores() + 1


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return lanes.TwoLanes(config, log)
    return None


def pytest_ignore_collect(collection_path, config):
    """tests/pi/ is the emulated-Pi lane: minutes of qemu, run by `make test-pi` on its own
    (NEWSDESK_PI_LANE=1), never inside `make test`'s 4 minutes."""
    if collection_path == REPO / "tests" / "pi" and not os.environ.get("NEWSDESK_PI_LANE"):
        return True
    return None
