"""The panel as a home-screen app (web_ui/app_shell.py): its manifest, its service worker and its
offline page. The static files' versions, caching and compression are in test_assets.py, the
icons' drawing in test_icons.py; the browser's side (installable, offline) is in
tests/test_install_browser.py."""

import io
import json
import re

import pytest
from conftest import REPO
from PIL import Image

from web_ui import app_shell, assets
from web_ui.league import create_league_app

STATIC = REPO / "web_ui" / "static"
FULL_PAGES = ("/", "/history", "/oracles", "/workbench", "/join", "/join/host", "/offline")


def _version(app):
    return app.extensions[assets.EXTENSION].version


def _image(path_or_bytes):
    """The decoded RGBA image (the file closed at once)."""
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    with Image.open(source) as image:
        return image.convert("RGBA")


# -- the manifest ------------------------------------------------------------------------


@pytest.mark.slow
def test_the_manifest_names_the_app_its_scope_and_icons_each_served_at_its_size(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    assert r.headers["Cache-Control"] == "no-cache"
    doc = json.loads(r.get_data())
    assert doc["name"] and doc["short_name"] and doc["start_url"] == "/" and doc["scope"] == "/"
    assert doc["display"] in ("standalone", "fullscreen")
    css = (STATIC / "css" / "panel.css").read_text(encoding="utf-8")
    background = re.search(r"--bg:\s*(#[0-9a-fA-F]{6})", css).group(1)
    assert doc["background_color"].lower() == doc["theme_color"].lower() == background.lower()
    purposes = set()
    for icon in doc["icons"]:
        with client.get(icon["src"]) as got:
            assert got.status_code == 200 and got.mimetype == "image/png", icon
            width, height = _image(got.data).size
        assert icon["sizes"] == "%dx%d" % (width, height)
        purposes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes


@pytest.mark.slow
def test_apples_own_request_for_the_touch_icon_is_answered(client):
    for path in ("/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"):
        r = client.get(path)
        assert r.status_code == 200 and r.mimetype == "image/png", path
        assert _image(r.data).size == (180, 180)


@pytest.mark.slow
@pytest.mark.parametrize("path", FULL_PAGES)
def test_every_full_page_links_the_manifest_the_touch_icon_and_the_app_metas(client, path):
    html = client.get(path).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
    assert client.get(touch).status_code == 200
    for meta in ('name="apple-mobile-web-app-capable" content="yes"', 'name="mobile-web-app-capable" content="yes"',
                 'name="theme-color" content="%s"' % app_shell.THEME):
        assert meta in html, meta
    assert "js/sw-register.js" in html


def test_the_league_page_is_a_home_screen_app_too_without_a_manifest_it_doesnt_serve(tmp_path):
    class Follower:      # the league page renders from its boot picture alone
        def snapshot(self):
            return {}

    league = create_league_app(Follower())
    c = league.test_client()
    html = c.get("/").get_data(as_text=True)
    assert 'name="apple-mobile-web-app-capable" content="yes"' in html and 'rel="apple-touch-icon"' in html
    assert 'rel="manifest"' not in html and c.get("/manifest.webmanifest").status_code == 404
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
    with c.get(touch) as r:        # a file answer: closed when read
        assert r.status_code == 200


# -- the service worker ------------------------------------------------------------------


def _shell(client):
    r = client.get("/sw.js")
    body = r.get_data(as_text=True)
    first, _, source = body.partition("\n")
    assert first.startswith("self.SHELL = ") and first.endswith(";")
    return r, json.loads(first[len("self.SHELL = "):-1]), source


@pytest.mark.slow
def test_the_worker_is_served_from_the_root_revalidated_with_its_own_policy(client):
    r, shell, source = _shell(client)
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    assert r.headers["Content-Security-Policy"] == app_shell.WORKER_CSP
    assert source == (STATIC / "sw.js").read_text(encoding="utf-8")
    assert client.get("/sw.js", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


@pytest.mark.slow
def test_the_worker_keeps_the_offline_page_and_every_static_file_of_this_version(client, app):
    _, shell, _ = _shell(client)
    version = _version(app)
    assert shell["version"] == version and shell["cache"] == "newsdesk-" + version
    assert shell["files"][0] == shell["offline"] == "/offline"
    kept = {f[len("/static/%s/" % version):] for f in shell["files"][1:]}
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file() and not p.name.startswith(".")}
    assert kept == on_disk - {"sw.js"}
    for path in shell["files"]:
        with client.get(path) as r:
            assert r.status_code == 200, path


def test_the_worker_never_touches_the_live_game():
    """/api/ and /stream are left to the network; pages fall back to the offline page, never a copy."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    assert "SHELL.never" in source
    assert "fetch(request).catch(offlinePage)" in source
    assert "cache.put" not in source      # nothing fetched at run time is ever kept: only the install's list


def test_the_offline_page_says_what_to_check_and_where(client):
    r = client.get("/offline", base_url="http://localhost:8080")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache"
    assert "can&#39;t be reached" in html or "can't be reached" in html
    for words in ("Is the box on?", "same Wi-Fi", "http://localhost:8080/"):
        assert words in html, words
    assert 'id="board"' not in html and 'id="boot"' not in html     # no game in it, stale or not
