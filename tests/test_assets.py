"""The static files (web_ui/assets.py): one version for a release of them, served under it and
kept a year, the rest revalidated, text gzipped once at start for a client that takes it."""

import gzip
import re

import pytest
from conftest import page_assets
from test_app_shell import STATIC, _version

from web_ui import assets


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


def test_options_of_a_static_file_answers_as_get_does(client, app):
    """OPTIONS of a missing file is a 404, as its GET is (Flask's own OPTIONS said 200 for any
    path under /static, found or not), at every static address; a file there still says which
    methods it takes, with no body."""
    version = _version(app)
    for prefix in ("/static/", "/static/%s/" % version, "/static/%s/" % ("0" * 12 if version != "0" * 12 else "1" * 12)):
        for name in ("no-such-file.js", "js/games/no_such_game.js", "css/nothing.css"):
            assert client.get(prefix + name).status_code == 404
            missing = client.options(prefix + name)
            assert missing.status_code == 404 and "Allow" not in missing.headers, prefix + name
        found = client.options(prefix + "js/panel.js")
        assert found.status_code == 200 and found.data == b""
        assert set(found.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


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
    """Gzipped once, when first asked for: a later request that compressed again would fail here."""
    names = ("js/panel.js", "css/panel.css", "favicon.svg")
    first = {name: client.get("/static/%s/%s" % (_version(app), name), headers={"Accept-Encoding": "gzip"}).data
             for name in names}

    def refuse(*args, **kwargs):
        raise AssertionError("compressed again")
    monkeypatch.setattr(assets.gzip, "compress", refuse)
    for name in names:
        r = client.get("/static/%s/%s" % (_version(app), name), headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip" and r.data == first[name], name


def test_the_folder_is_versioned_without_loading_any_game_whose_screen_it_holds(monkeypatch):
    """The first health check names the release, which needs the folder's version: importing every
    game for it cost a Pi Zero 2 W most of a second before the panel's first answer."""
    from controller.games import registry

    loaded = []
    registry.forget()
    try:
        with monkeypatch.context() as patched:
            patched.setattr(registry, "_load", lambda point: loaded.append(point.name))
            folder = assets.static_files(STATIC)
            assert assets.game_screens(folder) == {}
            assert {assets.SCREENS + name + ".js" for name in registry.declared()} <= set(folder)
    finally:
        registry.forget()
    assert loaded == []


def test_the_shipped_files_are_typed_without_the_system_s_table(monkeypatch):
    import mimetypes

    def system_table(*a, **kw):
        raise AssertionError("the system's MIME table was read")
    monkeypatch.setattr(mimetypes, "guess_type", system_table)
    found = assets.Assets(STATIC)
    types = {name: asset.mimetype for name, asset in found.files.items()}
    assert types["js/panel.js"] == "text/javascript"
    assert types["favicon.svg"] == "image/svg+xml"
    assert all(t != "application/octet-stream" for t in types.values())
