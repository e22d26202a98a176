"""Backups from the panel, for the host: download one, and restore one from the tablet.

The same one-file backup as ``newsdesk backup`` and the same checks as ``newsdesk restore``
(controller/backup.py); only the host may use them (a player is refused, 403, in the table's
words), as the backup holds every device's join and, on request, the panel's key.

- GET /api/backups/download streams a fresh backup, made with SQLite's online backup API in
  steps (the table's moves go on meanwhile). The secret key is in it only with ?secret=yes, and
  the answer then says so (header X-Newsdesk-Secret-Key: included, and in the file's name).
- A restore is two requests, like the command's question. POST /api/backups/check takes the file
  as the body (Content-Type: application/zip), unpacks and checks it whole into the data folder's
  staging folder (every checksum, SQLite's integrity check, the schema; a newer newsdesk's backup
  refused in one sentence) and answers what it would replace, in the command's words, with a
  token. POST /api/backups/restore with that token performs it.

Why a restart performs it: the running panel holds the store and the devices open, and every
part of the box (the table, the oracles, the keeper, the join guard) reads them. Swapping files
under it is what the command refuses to do. So the confirmation writes the restore's journal,
its commit point, exactly as the command does, and asks ``newsdesk serve`` to restart: the
panel stops as on SIGTERM (the store checkpointed and closed), the same command starts again,
and the start finishes the restore before it opens anything (backup.finish_restore), as it
does after a power cut. A cut at any moment opens the box whole, with the old data or the new.
What the table does between the confirmation and the stop (half a second) goes, with the old
data, into the replaced-<time> folder beside the store. A panel not run by ``newsdesk serve``
(no restart to ask for) says the restore is done at its next start.

The upload's body is larger than the panel's 64 KB: web_ui/live.py reads it on the event loop
(never on a Flask thread), up to UPLOAD_MOST bytes within UPLOAD_SECONDS, for the host only
(HOST_BODIES); anyone else's large body is refused 413 there, unread, and so is a second upload
while one is under way (503: each is held whole while it is read and checked).
"""

import hmac
import logging
import os
import secrets
import shutil
import tempfile
import threading
import time
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, jsonify, request

from controller import backup
from controller.errors import Conflict

from . import security
from .apidoc import BOOL, INT, KEY, STR, arr, nullable, obj, read, route, schemas, write
from .errors import _file_name, sentence
from .helpers import desk, json_body

log = logging.getLogger(__name__)

PREFIX = "/api/backups"
bp = Blueprint("backups", __name__, url_prefix=PREFIX)

# Measured (docs/keeping.md): 1000 games of 150 moves, years of evenings, are a 128 MB store and a
# 12 MB backup (zipped); 32 MB leaves room for more and still fits a Pi Zero's memory, where the
# body is held while it is checked.
UPLOAD_MOST = 32 * 1024 * 1024
UPLOAD_SECONDS = 120.0     # time the whole upload may take (a slow tablet on the Pi's own Wi-Fi)
RESTART_DELAY = 0.5        # seconds between the confirmation's answer and the stop, so the answer goes out
SECRET_HEADER = "X-Newsdesk-Secret-Key"
FILE_NAME_HEADER = "X-Newsdesk-File-Name"    # the upload's file name as the tablet knows it, for the sentences

CHECK_PATH = PREFIX + "/check"


@bp.record_once
def _take_uploads(state):
    """The upload route's own body limit, which web_ui/live.py applies to the host's requests."""
    state.app.config.setdefault("HOST_BODIES", {})[CHECK_PATH] = (UPLOAD_MOST, UPLOAD_SECONDS)


schemas(
    bp,
    BackupCheck=obj(
        ["token", "replacing", "backup", "message"],
        token=dict(STR, description="Send it to POST /api/backups/restore to restore this backup."),
        replacing=nullable(dict(STR, description="What the restore replaces, in words (null: nothing).")),
        message=STR,
        backup=obj(["name", "created", "newsdesk", "schema", "with_secret", "files", "store"], name=STR,
                   created=STR, newsdesk=STR, schema=INT, with_secret=BOOL, files=arr(STR),
                   store=dict(STR, description="The backup's store in words: kept games, events."))),
    RestoreRequest=obj(["token"], optional={"key": KEY}, token=dict(STR, minLength=1, maxLength=100)),
    BackupRestore=obj(["message", "restarting"], message=STR, restarting=BOOL),
    BackupDiscarded=obj(["message"], message=STR),
)


class _Pending:
    """The one backup checked and waiting for the host's confirmation (its staging folder in
    the data folder holds its files). A new check replaces it; a restart forgets it, as the
    start throws an unconfirmed staging folder away."""

    def __init__(self):
        self.lock = threading.Lock()    # one check or confirmation at a time: they share the staging folder
        self.token = None
        self.manifest = None
        self.where = None


def _pending():
    return current_app.extensions.setdefault("backups", _Pending())


def _name(with_secret):
    name = backup.default_name()
    return name[:-len(".zip")] + "-with-secret-key.zip" if with_secret else name


@security.same_site     # another site's page can't make the box build one (a fetch, an <img>)
@route(bp, "/download", read(
    "A backup of the box, made now: the store, the devices, the settings and the dial profiles in one file "
    "(as newsdesk backup writes it); the panel's secret key too with secret=yes.", None,
    ("400", "secret is yes or no."),
    ("503", "The box can't make a backup now (a restore is waiting for the restart, or the disk is full)."),
    op="downloadBackup", role="host",
    params=[{"name": "secret", "in": "query", "required": False, "schema": {"enum": ["yes", "no"]},
             "description": "yes: include the panel's secret key, so joined tablets stay joined on a new box. "
                            "Anyone with the file can then sign in as a joined device."}],
    content={"description": "The backup (a zip); the header %s says whether the secret key is in it."
                            % SECRET_HEADER,
             "headers": {SECRET_HEADER: {"schema": {"enum": ["included", "not included"]}}},
             "content": {"application/zip": {"schema": {"type": "string", "contentMediaType": "application/zip"}}}}))
def download():
    secret = request.args.get("secret", "no")
    if secret not in ("yes", "no"):
        abort(400, "The secret parameter is yes or no, got %r." % secret[:40])
    with_secret = secret == "yes"
    name = _name(with_secret)
    headers = {"Content-Disposition": "attachment; filename=%s" % name, "Cache-Control": "no-store",
               SECRET_HEADER: "included" if with_secret else "not included"}
    if request.method == "HEAD":        # a GET's headers, and no backup made: one copies the whole store
        response = Response(mimetype="application/zip", headers=headers)
        response.automatically_set_content_length = False      # not known until one is made
        return response
    _clear_left_downloads()
    work = Path(tempfile.mkdtemp(prefix=DOWNLOAD_PREFIX))
    try:
        backup.make_backup(desk().config.data_dir, work / name, with_secret=with_secret)
        opened = open(work / name, "rb")    # streamed from the open file; its folder goes at once
    finally:
        shutil.rmtree(work, ignore_errors=True)
    size = os.fstat(opened.fileno()).st_size
    log.info("the host downloaded a backup%s", " with the secret key" if with_secret else "")
    return Response(_Streamed(opened), mimetype="application/zip", headers=dict(headers, **{"Content-Length": str(size)}))


DOWNLOAD_PREFIX = "newsdesk-download-"


def _clear_left_downloads():
    """A download's folder goes as soon as its file is open; one a server killed mid-backup left
    (a backup's size, in /tmp, which is memory on many systems) goes at the next download once
    an hour old."""
    for left in Path(tempfile.gettempdir()).glob(DOWNLOAD_PREFIX + "*"):
        try:
            if left.is_dir() and time.time() - left.stat().st_mtime > backup.PARTIAL_STALE:
                shutil.rmtree(left, ignore_errors=True)
        except OSError:
            continue


class _Streamed:
    """A file sent in blocks and closed when it has been sent, or when the server closes the
    response (a tablet that went away), whichever comes first."""

    BLOCK = 64 * 1024

    def __init__(self, f):
        self.f = f

    def __iter__(self):
        try:
            yield from iter(lambda: self.f.read(self.BLOCK), b"")
        finally:
            self.f.close()

    def close(self):
        self.f.close()


@route(bp, "/check", write(
    "post", "Check a backup before restoring it: the body is the backup file itself (Content-Type: application/zip, at "
    "most %d MB). It is checked whole (checksums, SQLite's integrity check, the schema) and kept aside; the "
    "answer says what restoring it would replace, and the token that restores it." % (UPLOAD_MOST >> 20),
    "BackupCheck",
    ("400", "The body is not a newsdesk backup, or it is damaged or incomplete: the message says which."),
    ("413", "The file is larger than the panel takes."),
    ("422", "The backup was made by a newer newsdesk: update this one first."),
    ("503", "The box can't check it now (another upload is under way, a restore is waiting for the restart, or "
            "the disk is full)."),
    op="checkBackup", role="host",
    params=[{"name": FILE_NAME_HEADER, "in": "header", "required": False, "schema": dict(STR, maxLength=120),
             "description": "The file's name as the tablet knows it, for the sentences that name it."}]))
def check():
    request.max_content_length = UPLOAD_MOST
    data = request.get_data(cache=False)
    if not data:
        abort(400, "Send the backup file as the request body (Content-Type: application/zip).")
    named = os.path.basename(request.headers.get(FILE_NAME_HEADER, ""))[:120]
    where = named if named.isprintable() and named.strip() else "the uploaded file"
    data_dir = desk().config.data_dir
    pending = _pending()
    with pending.lock:
        pending.token = None
        with tempfile.TemporaryDirectory(prefix="newsdesk-upload-") as work:
            upload = Path(work) / "backup.zip"
            upload.write_bytes(data)
            del data
            try:
                manifest, words = backup.stage(data_dir, upload, where)
            except backup.BackupError as e:
                raise _named(e, where) from None
        pending.token, pending.manifest, pending.where = secrets.token_urlsafe(18), manifest, where
        token = pending.token
    staged = backup.describe(manifest["store"])
    message = words if words is not None else "Restoring it replaces nothing: the data folder is empty."
    return jsonify(token=token, replacing=words, message=sentence(message), backup={
        "name": where, "created": manifest.get("created", ""), "newsdesk": manifest.get("newsdesk", ""),
        "schema": manifest["schema"], "with_secret": bool(manifest.get("with_secret")),
        "files": sorted(manifest["files"]), "store": staged})


def _named(e, where):
    """The refusal ``e``, which may begin with the upload's name ``where``: begun "the file ..."
    when the sentence's capital would otherwise change the name's case ("Passwd is not ..."; a
    name like case.zip keeps its case where it stands, see errors.sentence)."""
    text = str(e)
    if (where != "the uploaded file" and text.startswith(where + " ") and where[:1] != where[:1].upper()
            and not _file_name(where.split(None, 1)[0])):
        e.args = ("the file " + text,)
    return e


FROZEN_RETRY = 5            # seconds a change refused while a committed restore waits is told to wait


@bp.before_app_request
def _no_change_while_a_restore_waits():
    """Once a restore is committed (its journal written), the next start puts the backup's files in
    place and moves what is here into replaced-<time>/: a move answered meanwhile would be lost
    to the table. So until then every change but the backups' own is refused in a sentence, and
    the pages go on reading. (The journal, not a flag: a restore committed from the terminal, or
    waiting for a restart the panel can't make, counts the same.)"""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.path.startswith(PREFIX + "/"):
        return None
    if not backup.interrupted(desk().config.data_dir):
        return None
    response = jsonify(error="Service Unavailable", message=sentence(
        "A backup is being put in place: newsdesk restarts in a moment with the backup's games, and takes no "
        "change before then, as it would be lost; make it again once the page is back"))
    response.status_code = 503
    response.headers["Retry-After"] = str(FROZEN_RETRY)
    return response


@route(bp, "/check", write(
    "delete", "Throw the checked backup away (the host keeps what is here): its copy in the data folder goes.",
    "BackupDiscarded", op="discardBackup", role="host"))
def discard():
    pending = _pending()
    with pending.lock:
        pending.token = pending.manifest = None
        backup.discard(desk().config.data_dir)     # never a committed restore's files
    return jsonify(message="Nothing was changed.")


@route(bp, "/restore", write(
    "post", "Restore the backup checked last (POST /api/backups/check): its token confirms it. The restore is "
    "committed at once; newsdesk then restarts and the start puts the backup in place.", "BackupRestore",
    ("409", "No checked backup is waiting under that token: check the file again."),
    ("503", "The restore could not be committed (the disk): nothing was changed."),
    op="restoreBackup", request="RestoreRequest", ok="202", role="host"))
def confirm():
    body = json_body()
    token = body.get("token")
    if not isinstance(token, str) or not 1 <= len(token) <= 100 or set(body) - {"token", "key"}:
        abort(400, "Send {\"token\": ...} with the token POST /api/backups/check answered.")
    data_dir = desk().config.data_dir
    pending = _pending()
    with pending.lock:
        if pending.token is None or not hmac.compare_digest(pending.token.encode(), token.encode()):
            raise Conflict("No checked backup is waiting under that token (another file was checked since, or "
                           "newsdesk restarted): check the file again")
        manifest, where = pending.manifest, pending.where
        pending.token = pending.manifest = None
        backup.commit(data_dir, manifest, where)
    restart = current_app.config.get("RESTART")
    log.warning("the host restored %s from the panel: %s; %s", where, backup.describe(manifest["store"]),
                "restarting to put it in place" if restart else "it is put in place at the next start")
    if restart is None:
        return jsonify(restarting=False, message=sentence(
            "The restore is committed: it is put in place when newsdesk next starts; restart it now "
            "(sudo systemctl restart newsdesk, or stop and start it)")), 202
    timer = threading.Timer(RESTART_DELAY, restart)
    timer.daemon = True
    timer.start()
    return jsonify(restarting=True, message=sentence(
        "The restore is committed: newsdesk restarts now and puts it in place; this page comes back by itself "
        "in a few seconds")), 202
