"""The panel's release as an open page knows it: what tells a tablet left open on the table that
the box now serves other code and looks, so the page can load them (web_ui/static/js/release.js).

Why: a page carries the scripts, the stylesheet and the HTML it was loaded with. After an update
and a restart, a tablet left open keeps running them, talking to a box whose pages and API have
moved on, until someone reloads it. Each page names its release in a meta tag
(``<meta name="newsdesk-release">``, templates/shell/_app_head.html) and /api/health, which every
open page reads (every 15 s, and as soon as the box answers again after a restart), names the
box's; a page that sees another release reloads itself at the next quiet moment.

The release is a hash of the static files' version (web_ui/assets.py: every file's name and
bytes) and of every template's: a page's whole make-up, and nothing else. An update that changes
only Python (a rule, a fix in the store) keeps the release, and open pages are left alone: their
code is the box's code. Like the static folder, the templates are read once, at start.
"""

import hashlib
from pathlib import Path

from flask import current_app

from . import assets

EXTENSION = "newsdesk.release"
LENGTH = assets.VERSION_LENGTH      # hex digits, as the static files' version
META = "newsdesk-release"           # the meta tag a page carries its own release in


def template_files(folder):
    """{relative posix path: bytes} of every template under ``folder``."""
    return assets.static_files(folder)


def release_of(static_version, templates_digest):
    """The release of a page made of these static files and these templates."""
    h = hashlib.sha256()
    h.update(static_version.encode("ascii") + b"\0" + templates_digest.encode("ascii"))
    return h.hexdigest()[:LENGTH]


def current(app=None):
    """The release the box serves now: its static version (as loaded at start) with its templates."""
    app = app or current_app
    return release_of(assets.assets(app).version, app.extensions[EXTENSION])


def init_app(app):
    """Read the templates' digest once, and let every template name the page's release."""
    if EXTENSION in app.extensions:
        return
    app.extensions[EXTENSION] = assets.folder_version(template_files(Path(app.root_path) / app.template_folder))
    app.add_template_global(lambda: current(app), "release")
