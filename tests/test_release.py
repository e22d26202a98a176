"""The panel's release (web_ui/release.py): each page names the release it was made with, the
health feed names the box's, and a change to any static file or template is a new release while
the same files are the same one. The browser's side (an open page reloading itself when quiet)
is test_release_browser.py."""

import re
import shutil

from conftest import page_assets, unversioned
from flask import Flask
from test_app_shell import FULL_PAGES, STATIC

from web_ui import assets, release

META = re.compile(r'<meta name="%s" content="([0-9a-f]{%d})">' % (release.META, release.LENGTH))


def _named(client, page):
    found = META.findall(client.get(page).get_data(as_text=True))
    assert len(found) == 1, page
    return found[0]


def test_every_page_names_the_release_the_health_feed_names(client):
    served = client.get("/api/health").get_json()["release"]
    assert re.fullmatch("[0-9a-f]{%d}" % release.LENGTH, served)
    for page in FULL_PAGES:
        assert _named(client, page) == served, page


def test_a_changed_static_file_is_a_new_release_and_the_same_files_the_same(app, client, tmp_path):
    before = _named(client, "/")
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    app.extensions[assets.EXTENSION] = assets.Assets(copy)        # a restart on the very same files
    assert client.get("/api/health").get_json()["release"] == before
    css = copy / "css" / "panel.css"
    css.write_text(css.read_text(encoding="utf-8") + "/* the next release */\n", encoding="utf-8")
    app.extensions[assets.EXTENSION] = assets.Assets(copy)        # a restart after an update
    after = client.get("/api/health").get_json()["release"]
    assert after != before
    assert _named(client, "/") == after          # a page loaded now is the new release's


def _bare_release(root):
    app = Flask("bare", root_path=str(root), static_folder="static", template_folder="templates")
    assets.init_app(app)
    release.init_app(app)
    return release.current(app)


def test_a_changed_template_is_a_new_release(tmp_path):
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "a.css").write_text("body {}\n")
    (tmp_path / "templates" / "pages").mkdir(parents=True)
    page = tmp_path / "templates" / "pages" / "index.html"
    page.write_text("<p>the table</p>\n")
    first = _bare_release(tmp_path)
    assert _bare_release(tmp_path) == first
    page.write_text("<p>the table, laid out anew</p>\n")
    assert _bare_release(tmp_path) != first


def test_the_panels_pages_load_the_module_that_hears_a_new_release(client):
    for page in ("/", "/history", "/oracles", "/workbench"):
        assert "/static/js/release.js" in unversioned(page_assets(client, page)), page
