"""The panel as a home-screen app, and its static files cached and compressed (web_ui/app_shell.py,
web_ui/assets.py, web_ui/icons.py). The browser's side (installable, offline) is in
tests/test_install_browser.py."""

import gzip
import io
import json
import re

import pytest
from conftest import REPO, page_assets
from PIL import Image

from web_ui import app_shell, assets, icons
from web_ui.league import create_league_app

STATIC = REPO / "web_ui" / "static"
FULL_PAGES = ("/", "/history", "/oracles", "/workbench", "/join", "/join/host", "/offline")


def _version(app):
    return app.extensions[assets.EXTENSION].version


def _pixels(png):
    with Image.open(io.BytesIO(png)) as image:
        return image.size, image.convert("RGBA").tobytes()


def _image(path_or_bytes):
    """The decoded RGBA image (the file closed at once)."""
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    with Image.open(source) as image:
        return image.convert("RGBA")


# -- the icons ---------------------------------------------------------------------------


def test_the_committed_icons_are_what_the_generator_draws_from_the_svg_today():
    """Drawn by resvg from favicon.svg (make icons): a changed drawing with stale PNGs fails here."""
    made = icons.generate()
    assert set(made) == set(icons.ICONS)
    for name, png in made.items():
        committed = (icons.FOLDER / name).read_bytes()
        assert _pixels(committed) == _pixels(png), "%s is stale: run `make icons`" % name


def test_the_generator_follows_the_drawing(tmp_path):
    """The check above can fail: another drawing gives other pixels."""
    changed = tmp_path / "favicon.svg"
    changed.write_text(icons.SOURCE.read_text(encoding="utf-8").replace("#f2c14e", "#ff0000"), encoding="utf-8")
    for name, png in icons.generate(changed).items():
        assert _pixels(png) != _pixels((icons.FOLDER / name).read_bytes()), name


def test_each_icon_has_its_size_and_the_full_bleed_ones_leave_no_transparent_corner():
    for name, (size, bleed, _share, _purpose) in icons.ICONS.items():
        image = _image(icons.FOLDER / name)
        assert image.size == (size, size), name
        corner = image.getpixel((0, 0))
        if bleed:        # maskable (cut by the platform) and Apple's (a clear corner turns black)
            assert "#%02x%02x%02x" % corner[:3] == icons.BACKGROUND and corner[3] == 255, name
        else:            # the favicon's own rounded tile
            assert corner[3] == 0, name
    maskable = _image(icons.FOLDER / "icon-maskable-512.png")
    background = tuple(int(icons.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5))
    # the dial's ring stays inside the safe circle (radius 40 % of the side): nothing of the dial
    # beyond it, only the background (give or take the tile's own anti-aliased edge)
    for x in range(0, 512, 4):
        for y in range(0, 512, 4):
            if (x - 256) ** 2 + (y - 256) ** 2 > (0.4 * 512) ** 2:
                pixel = maskable.getpixel((x, y))
                assert max(abs(a - b) for a, b in zip(pixel, background)) <= 2, (x, y)
    ring = [maskable.getpixel((256 + dx, 256)) for dx in range(205)]
    assert any(r > 200 and g > 150 for r, g, _, _ in ring)      # and the ring is there, inside it


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


def test_a_new_release_of_the_static_files_is_a_new_cache_name(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text('import { b } from "./b.js";\n')
    (tmp_path / "sw.js").write_text("// worker\n")
    first = assets.Assets(tmp_path).version
    assert assets.Assets(tmp_path).version == first           # the same files: the same version
    (tmp_path / "js" / "a.js").write_text('import { b } from "./b.js"; // changed\n')
    second = assets.Assets(tmp_path).version
    (tmp_path / "js" / "c.js").write_text("")
    third = assets.Assets(tmp_path).version
    assert len({first, second, third}) == 3 and all(re.fullmatch("[0-9a-f]{12}", v) for v in (first, second, third))


def test_the_offline_page_says_what_to_check_and_where(client):
    r = client.get("/offline", base_url="http://localhost:8080")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache"
    assert "can&#39;t be reached" in html or "can't be reached" in html
    for words in ("Is the box on?", "same Wi-Fi", "http://localhost:8080/"):
        assert words in html, words
    assert 'id="board"' not in html and 'id="boot"' not in html     # no game in it, stale or not


# -- the static files: versioned, cached, compressed ------------------------------------


@pytest.mark.slow
def test_pages_load_their_files_under_the_version_and_the_relative_imports_follow(client, app):
    found = page_assets(client, "/")
    version = _version(app)
    # all but the favicon, kept at its plain address (browsers keep it in an icon store of their own)
    statics = [p for p in found if p.startswith("/static/") and p != "/static/favicon.svg"]
    assert "/static/%s/js/panel.js" % version in statics and "/static/%s/js/dom.js" % version in statics
    assert all(p.startswith("/static/%s/" % version) for p in statics)


@pytest.mark.slow
def test_a_versioned_file_is_kept_a_year_and_the_rest_revalidated(client, app):
    version = _version(app)
    r = client.get("/static/%s/css/panel.css" % version)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.data == (STATIC / "css" / "panel.css").read_bytes()
    plain = client.get("/static/css/panel.css")       # old links still answer, asked again each visit
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache" and plain.data == r.data
    other = client.get("/static/%s/css/panel.css" % ("0" * 12 if version != "0" * 12 else "1" * 12))
    assert other.status_code == 200 and other.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/%s/css/nothing.css" % version).status_code == 404
    page = client.get("/")
    assert page.mimetype == "text/html" and page.headers["Cache-Control"] == "no-cache"


def test_text_is_gzipped_for_a_client_that_takes_it_and_plain_for_one_that_doesnt(client, app):
    path = "/static/%s/js/panel.js" % _version(app)
    raw = (STATIC / "js" / "panel.js").read_bytes()
    packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.data) == raw and len(packed.data) < len(raw) / 2
    for refusing in ("identity", "gzip;q=0, identity", ""):
        plain = client.get(path, headers={"Accept-Encoding": refusing})
        assert "Content-Encoding" not in plain.headers and plain.data == raw, refusing
        assert plain.headers["ETag"] != packed.headers["ETag"]      # different bytes, different tags
    png = client.get("/static/%s/icons/icon-192.png" % _version(app), headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers      # already compressed


@pytest.mark.slow
def test_a_repeat_visit_gets_304s_not_the_bytes_again(client, app):
    path = "/static/%s/js/dom.js" % _version(app)
    first = client.get(path, headers={"Accept-Encoding": "gzip"})
    again = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


@pytest.mark.slow
def test_nothing_is_recompressed_per_request(client, app, monkeypatch):
    """Gzipped once at start: a request that compressed again would fail here."""
    def refuse(*args, **kwargs):
        raise AssertionError("compressed during a request")
    monkeypatch.setattr(assets.gzip, "compress", refuse)
    for name in ("js/panel.js", "css/panel.css", "favicon.svg"):
        r = client.get("/static/%s/%s" % (_version(app), name), headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200, name
