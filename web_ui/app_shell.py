"""The panel as an app on a tablet's home screen: the manifest, the icons a platform asks for on
its own, the service worker and the page it shows when the box can't be reached.

Registering this blueprint also puts the static files under versioned, long-cached, gzipped URLs
(web_ui/assets.py): the service worker's cache is named after the same version, so a new release
of the static files replaces the cache it keeps. Every page names its release (web_ui/release.py),
so a page left open learns of a new one and reloads itself, worker or no worker.

The service worker (web_ui/static/sw.js) runs only where a browser allows one, a secure context:
the box's own screen (loopback) or the panel behind HTTPS (docs/tablet.md). Over plain
http://<box>.local:8080 the manifest and the icons still make a home-screen app; only the
offline page needs the worker. What it does, and never does:

    /api/..., /stream     never touched: network only, never cached (the live game)
    pages (navigations)   network only; when the box can't be reached, the offline page, never
                          a kept copy of a page (a board from an hour ago is not the game)
    /static/<version>/... from its cache (filled at install), else the network
"""

import json

from flask import Blueprint, Response, current_app, render_template, request, url_for

from . import assets, icons, release

bp = Blueprint("app_shell", __name__, template_folder="templates")

NAME = "newsdesk"
SHORT_NAME = "newsdesk"
DESCRIPTION = "The table's panel: the game, the history and the odds, live from the box."
BACKGROUND = icons.BACKGROUND   # the panel's --bg: the splash screen's colour
THEME = icons.BACKGROUND        # the browser's bar in the page's colour (templates/shell/_app_head.html)
DISPLAY = "standalone"      # no address bar; the status bar stays (the clock, the battery)
OFFLINE = "/offline"
CACHE_PREFIX = "newsdesk-"  # the service worker's caches; any other name is not ours to delete
WORKER_CSP = "default-src 'self'"   # the worker fetches from the box alone
TOUCH_ICON = "icons/" + icons.TOUCH_ICON
SHELL_SKIP = ("sw.js",)     # static files the worker doesn't keep (itself: it is served at /sw.js)


@bp.record_once
def _setup(state):
    assets.init_app(state.app)
    release.init_app(state.app)              # every page names its release; /api/health the box's
    state.app.config["APP_SHELL"] = True     # templates link the manifest only where it is served


def manifest_document():
    return {
        "id": "/",
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": DESCRIPTION,
        "start_url": "/",
        "scope": "/",
        "display": DISPLAY,
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [{"src": url_for("static", filename="icons/" + name), "sizes": "%dx%d" % (size, size),
                   "type": "image/png", "purpose": purpose}
                  for name, (size, _, _, purpose) in icons.ICONS.items() if purpose],
    }


def _revalidated(body, mimetype, **headers):
    response = Response(body, mimetype=mimetype, headers=headers)
    response.headers["Cache-Control"] = assets.REVALIDATE
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/manifest.webmanifest")
def manifest():
    body = json.dumps(manifest_document(), indent=1, ensure_ascii=False)
    return _revalidated(body, "application/manifest+json")


@bp.get("/apple-touch-icon.png")
@bp.get("/apple-touch-icon-precomposed.png")
def touch_icon():
    """iOS asks the site's root for these on its own, whatever the page links: the same file."""
    return assets.send(TOUCH_ICON)


def shell():
    """What the worker keeps: the offline page and every static file, under this version."""
    found = assets.assets()
    files = [url_for("static", filename=name) for name in found.names() if name not in SHELL_SKIP]
    return {"version": found.version, "cache": CACHE_PREFIX + found.version, "cachePrefix": CACHE_PREFIX,
            "offline": OFFLINE, "static": url_for("static", filename="")[:-1] + "/",
            "never": ["/api/", "/stream"], "files": [OFFLINE] + files}


@bp.get("/sw.js")
def service_worker():
    """The worker, from the root so its scope is the whole panel, with what it keeps on its first
    line: a new version of the static files is a changed worker, which the browser installs."""
    source = assets.assets().files["sw.js"].body.decode("utf-8")
    body = "self.SHELL = %s;\n%s" % (json.dumps(shell(), separators=(",", ":")), source)
    return _revalidated(body, "text/javascript", **{"Content-Security-Policy": WORKER_CSP})


@bp.get(OFFLINE)
def offline():
    """The page the worker shows when the box can't be reached (kept at install, so it has the
    address the tablet used then)."""
    response = current_app.make_response(render_template("shell/offline.html"))
    response.headers["Cache-Control"] = assets.REVALIDATE
    return response
