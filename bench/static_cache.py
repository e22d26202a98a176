"""Panel benchmark: what a tablet fetches from the box on a first visit and on a repeat visit,
with the static files served as Flask serves them (plain /static/ URLs, no compression, each
file revalidated every visit) and as web_ui/assets.py serves them (versioned URLs cached for a
year, gzipped), side by side in one run. Prints figures; asserts nothing.

    python bench/static_cache.py

Three ways to serve, each on its own fresh panel:

    before      plain Flask static files (web_ui/assets.py and the app shell switched off)
    after       versioned, immutable, gzipped: a tablet on http://<box>.local (no service worker)
    after + sw  the same with the service worker: the box's own screen, or the panel behind HTTPS

Each screen is loaded in a fresh browser context (nothing cached: the first visit) and then
again in the same context (the repeat visit, a tablet opening the panel the next evening). The
box counts what it answers: requests, and bytes written (status line, headers and body, as sent).
The live stream (/stream) is left out: it never ends, and carries events, not the page.
"""

import contextlib

from panel_common import browser, call, panel, play_a_little

MODES = ("before", "after", "after + sw")


class Meter:
    """Counts the panel's answers (all but the live stream) at the WSGI boundary."""

    def __init__(self, app):
        self.requests = 0
        self.bytes = 0
        inner = app.wsgi_app

        def counted(environ, start_response):
            if environ.get("PATH_INFO") == "/stream":
                return inner(environ, start_response)

            def start(status, headers, exc_info=None):
                self.requests += 1
                self.bytes += len("HTTP/1.1 %s\r\n" % status) + sum(len(k) + len(v) + 4 for k, v in headers) + 2
                return start_response(status, headers, exc_info)

            for chunk in inner(environ, start):
                self.bytes += len(chunk)
                yield chunk

        app.wsgi_app = counted

    def take(self):
        found = (self.requests, self.bytes)
        self.requests = self.bytes = 0
        return found


@contextlib.contextmanager
def served(mode):
    """(base url, meter) of a fresh panel serving its static files the ``mode`` way."""
    import web_ui.assets as assets

    plain = mode == "before"
    real = assets.init_app
    if plain:
        assets.init_app = lambda app: None        # Flask's own static view, plain URLs
    try:
        with panel() as (base, desk, srv):
            app = srv.panel.flask
            if plain:
                app.config["APP_SHELL"] = False    # no manifest, no worker: the panel as it was
            yield base, Meter(app)
    finally:
        assets.init_app = real


def visit(page, url):
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("document.getElementById('link').textContent === 'live'")


def measure(b, mode, base, meter, url):
    """((requests, bytes) first visit, (requests, bytes) repeat visit) of ``url``."""
    ctx = b.new_context(viewport={"width": 1024, "height": 768},
                        service_workers="allow" if mode == "after + sw" else "block")
    page = ctx.new_page()
    meter.take()
    visit(page, base + url)
    if mode == "after + sw":      # the first visit also fills the worker's cache: counted with it
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.wait_for_load_state("networkidle")
    first = meter.take()
    visit(page, base + url)
    again = meter.take()
    ctx.close()
    return first, again


def main():
    rows = []
    p, b = browser()
    try:
        for mode in MODES:
            with served(mode) as (base, meter):
                screens = [("start form (no game)", "/")]
                results = [measure(b, mode, base, meter, "/")]
                game = play_a_little(base, "scan")
                screens.append(("scan, move %d" % game["version"], "/"))
                results.append(measure(b, mode, base, meter, "/"))
                call(base, "/api/games/current/abandon", {"version": game["version"]})
                screens.append(("history and statistics", "/history"))
                results.append(measure(b, mode, base, meter, "/history"))
                for (name, _), (first, again) in zip(screens, results):
                    rows.append((name, mode, first, again))
    finally:
        b.close()
        p.stop()
    print("%-26s %-11s %14s %9s %14s %9s" % ("screen", "serving", "first visit KB", "requests",
                                             "repeat KB", "requests"))
    order = {name: i for i, name in enumerate(dict.fromkeys(r[0] for r in rows))}
    for name, mode, (n1, b1), (n2, b2) in sorted(rows, key=lambda r: order[r[0]]):     # each screen's three together
        print("%-26s %-11s %14.1f %9d %14.1f %9d" % (name, mode, b1 / 1024, n1, b2 / 1024, n2))


if __name__ == "__main__":
    main()
