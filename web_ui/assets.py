"""The panel's static files: versioned URLs cached for a year, text gzipped once when first asked.

Every static URL the templates build (``url_for('static', filename=...)``) carries the version
of the whole static folder as a path prefix, ``/static/<version>/js/panel.js``. A prefix rather
than a query string because the scripts import each other by relative path (``./dom.js``): an
import resolved from a versioned file lands on the same version, with no import map to keep in
step. The version is a hash of every file's name and bytes, so any change to any file gives
every URL a new name, and a tablet that kept last month's files for a year asks for the new
ones at once. Under the current version a file is ``immutable`` for a year (a repeat visit asks
the box for nothing); the plain ``/static/<path>`` (old links, the favicon a browser asks for
on its own) and a version that isn't the current one are served too, but revalidated each time.

Text files (scripts, stylesheets, the SVG) are gzipped once, when a client that takes gzip first
asks for them, and kept in memory beside their bytes (about 50 KB on top of 220 KB), never
recompressed per request. Not at start, and not the folder either (below): on a Pi Zero 2 W's
CPU budget that was time the panel's first answer waited for (docs/benchmarks.md, "A Pi Zero 2
W's budget"). Brotli
would save a little more but needs a compiled module; gzip is in the standard library. The folder
is read once, when the first page asks: a file edited after that is served after a restart.

Each game's screen is ``js/games/<name>.js``: newsdesk's own games have theirs in the folder; a
game in a distribution of its own ships ``screen.js`` beside its package's ``__init__.py``, read
with the folder (and counted in its version) and served at that same path. The panel
loads a screen by the URL its catalogue item carries (``screen_url``), so it needs no list of
games: a game with no screen anywhere gets the generic one.

HTML pages carry the game as it stood when they were made: they are ``no-cache`` (always asked
again), as are the service worker and the manifest (web_ui/app_shell.py).
"""

import gzip
import hashlib
import mimetypes
import re
import threading
from importlib.resources import files as package_files
from pathlib import Path

from flask import Response, abort, current_app, request, url_for
from werkzeug.routing import BaseConverter

from controller.games import registry

EXTENSION = "newsdesk.assets"
VERSION_LENGTH = 12                     # hex digits of the folder's hash in every static URL
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"                 # may be kept, but asked again (a 304 when unchanged)
COMPRESSIBLE = (".js", ".css", ".svg", ".html", ".json", ".webmanifest", ".txt")
MIN_GZIP = 256                          # bytes: below this the gzip header costs more than it saves
GZIP_LEVEL = 9                          # once per file: the smallest is worth the time
SCREENS = "js/games/"                   # each game's screen, <name>.js, under the static folder
GENERIC_SCREEN = SCREENS + "generic.js"  # what a game with no screen of its own is shown with
PACKAGE_SCREEN = "screen.js"            # a game's own distribution ships its screen by this name


# the types of the files the panel ships, so serving them never waits for the system's table
# (mimetypes reads /etc/mime.types once, a few ms of CPU: on a Pi Zero 2 W a tenth of a second
# before the panel's first answer); ".js" is the one type module scripts must have, whatever
# that table says
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png",
         ".json": "application/json", ".webmanifest": "application/manifest+json", ".html": "text/html",
         ".txt": "text/plain", ".ico": "image/vnd.microsoft.icon", ".woff2": "font/woff2", ".wav": "audio/wav"}


def mimetype_of(name):
    """The Content-Type a static file is served with."""
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    if suffix in TYPES:
        return TYPES[suffix]
    return mimetypes.guess_type(name)[0] or "application/octet-stream"


class VersionConverter(BaseConverter):
    """A path segment that looks like a version (any version: an old page's late import of a
    file it named under last release's version still gets the file, just not cached for long)."""

    regex = "[0-9a-f]{%d}" % VERSION_LENGTH


class Asset:
    """One static file as served: its bytes, gzipped bytes when that is smaller (made when first
    asked for), and its ETag."""

    __slots__ = ("body", "_gzipped", "etag", "mimetype", "name")

    def __init__(self, name, body):
        self.body = body
        digest = hashlib.sha256(body).hexdigest()[:20]
        self.etag = digest
        self.mimetype = mimetype_of(name)
        self.name = name
        self._gzipped: bytes | None | bool = False     # False: not made yet (None: not worth it)

    @property
    def gzipped(self):
        """The gzipped bytes, or None where they would be no smaller. Two requests that ask at
        once may both compress it: the same bytes, kept once."""
        if self._gzipped is False:
            packed = None
            if self.name.endswith(COMPRESSIBLE) and len(self.body) >= MIN_GZIP:
                packed = gzip.compress(self.body, compresslevel=GZIP_LEVEL, mtime=0)
                if len(packed) >= len(self.body):
                    packed = None
            self._gzipped = packed
            return packed
        assert not isinstance(self._gzipped, bool)
        return self._gzipped


def static_files(folder):
    """{relative posix path: bytes} of every file under ``folder``, in name order."""
    folder = Path(folder)
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def game_screens(have):
    """{"js/games/<name>.js": bytes} of each game found that has no screen among ``have`` (the
    folder's files) but ships one in its package: a sixth game installed beside newsdesk brings
    its own screen. A game that can't be loaded, or whose package has none, adds nothing."""
    out = {}
    for name, point in registry.declared().items():    # a game with its screen in the folder isn't loaded
        path = SCREENS + name + ".js"
        if path in have:
            continue
        try:
            registry.load(name)          # imports its package, or says why it can't be played
            screen = screen_beside(point.module)
        except (registry.EngineUnavailable, TypeError):     # TypeError: a module on its own, in no package
            continue
        if screen.is_file():
            out[path] = screen.read_bytes()
    return out


def screen_beside(module):
    """Where a game's screen.js sits: in the package its entry point names (``pig:GAME``), or
    beside the module it names (``pig.rules:GAME``: in ``pig``). A module's entry point was
    passed over without a word, and the game drawn with the generic screen."""
    try:
        return package_files(module) / PACKAGE_SCREEN
    except TypeError:
        if "." not in module:
            raise
        return package_files(module.rsplit(".", 1)[0]) / PACKAGE_SCREEN


def folder_version(files):
    """The version of a set of static files: a hash of each one's name and bytes."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode("utf-8") + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()[:VERSION_LENGTH]


class Assets:
    """The static folder as loaded when first asked for (the first page or health check, not the
    start): every file, and the folder's version. Loading it reads and hashes the files and looks
    for installed games' screens without importing the games (about 2 ms of CPU on a laptop)."""

    def __init__(self, folder):
        self._folder = folder
        self._loaded = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._loaded is None:
                files = static_files(self._folder)
                files.update(game_screens(files))
                self._loaded = folder_version(files), {name: Asset(name, body) for name, body in files.items()}
        return self._loaded

    @property
    def version(self):
        return (self._loaded or self._load())[0]

    @property
    def files(self):
        return (self._loaded or self._load())[1]

    def names(self):
        return list(self.files)


def assets(app=None):
    return (app or current_app).extensions[EXTENSION]


def screen_url(name):
    """The versioned URL of game ``name``'s screen module (its own, else the generic screen), for
    the panel to import: the catalogue item carries it, so no script lists the games."""
    path = SCREENS + name + ".js"
    return url_for("static", filename=path if path in assets().files else GENERIC_SCREEN)


def accepts_gzip():
    """Whether this request takes a gzipped answer (an explicit q=0 refuses it)."""
    for part in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "x-gzip", "*"):
            q = re.search(r"q\s*=\s*([0-9.]+)", params)
            return not (q and float(q.group(1)) == 0)
    return False


def send(filename, version=None):
    """The static endpoint's view: the file from memory, gzipped if the client takes it."""
    found = assets()
    asset = found.files.get(filename)
    if asset is None:
        abort(404)
    if request.method == "OPTIONS":     # answered here, after the file is found (see init_app)
        return current_app.make_default_options_response()
    body, etag = asset.body, asset.etag
    headers = {"Vary": "Accept-Encoding"}
    if asset.gzipped is not None and accepts_gzip():
        body, etag = asset.gzipped, etag + "-gz"      # one ETag per encoding: they are different bytes
        headers["Content-Encoding"] = "gzip"
    response = Response(body, mimetype=asset.mimetype, headers=headers)
    response.headers["Cache-Control"] = IMMUTABLE if version == found.version else REVALIDATE
    response.set_etag(etag)
    return response.make_conditional(request)


def _add_version(endpoint, values):
    if endpoint == "static" and "version" not in values:
        values["version"] = assets().version


def _html_revalidates(response):
    """A page is the game as it was: a browser may keep it only to ask again (never shown stale)."""
    if response.mimetype == "text/html" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = REVALIDATE
    return response


def init_app(app):
    """Serve ``app``'s static folder from memory under versioned URLs (once per app)."""
    if EXTENSION in app.extensions:
        return app.extensions[EXTENSION]
    found = app.extensions[EXTENSION] = Assets(app.static_folder)
    app.url_map.converters["static_version"] = VersionConverter
    # a second rule for the static endpoint: url_for picks it (it takes more values) once
    # _add_version supplies the version; the plain /static/<path> still answers
    app.add_url_rule("%s/<static_version:version>/<path:filename>" % app.static_url_path, endpoint="static")
    app.view_functions["static"] = send
    # Flask answers OPTIONS itself, 200 before any view runs, so OPTIONS of a missing file said
    # 200 where GET says 404: ``send`` answers it instead, once it has found the file
    for rule in app.url_map.iter_rules("static"):
        rule.provide_automatic_options = False
    app.url_defaults(_add_version)
    app.after_request(_html_revalidates)
    return found
