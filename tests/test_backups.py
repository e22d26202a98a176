"""Backups from the panel (web_ui/backups.py): the host downloads one and restores one from the
tablet, with the command's checks and question; a player is refused in the table's words; the
upload's larger body is the host's alone and still bounded; a confirmed restore is committed,
the panel asks to restart, and the start puts the backup's games in place."""

import hashlib
import io
import json
import os
import zipfile

import pytest
from conftest import play_a_game, wait_for
from gpiozero.pins.mock import MockFactory

from controller import backup
from controller.app import Newsdesk
from controller.config import load_config
from controller.store import SCHEMA_VERSION, STORE_FILE, Store
from web_ui import backups, create_app, security
from web_ui.server import InThread

WRITE = {"X-Newsdesk": "1"}
ZIP = {"Content-Type": "application/zip", **WRITE}


def what_the_table_shows(client):
    """The games, their records and the statistics, as the panel serves them."""
    history = client.get("/api/games/history").get_json()["games"]
    records = [client.get("/api/games/%d" % g["id"]).get_json() for g in history]
    return history, records, client.get("/api/games/stats").get_json()


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """Another box with three games played, backed up: (the file, what its panel showed). Made
    once for the module; no test changes the file."""
    tmp_path = tmp_path_factory.mktemp("source")
    config = load_config(tmp_path / "other", environ={}, overrides={"audio": "off", "speech": "off"})
    factory = MockFactory()
    other = Newsdesk(config, pin_factory=factory)
    try:
        for winner in (3, 1, 3):
            play_a_game(other, winner)
        app = create_app(newsdesk=other, test_config={"TESTING": True})
        shown = what_the_table_shows(app.test_client())
    finally:
        other.close()
        factory.close()
    file = tmp_path / "other.zip"
    backup.make_backup(config.data_dir, file)
    return file, shown


@pytest.fixture
def guard(app):
    return security.guard(app)


def player(app, guard):
    token, _ = guard.devices.issue_token("player", "test")
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = "192.168.1.40"
    assert c.get("/join?token=" + token).status_code == 303
    return c


def check(client, body, name="box.zip"):
    return client.post("/api/backups/check", data=body, headers=dict(ZIP, **{"X-Newsdesk-File-Name": name}))


def refusal(r, status, one_sentence=True):
    """The refusal's message, checked: the status, JSON {error, message}, one sentence unless the
    table says more (its "only the host" words are two)."""
    assert r.status_code == status, r.get_data(as_text=True)
    answer = r.get_json()
    first = answer["message"].split()[0]
    assert answer["error"] and answer["message"].endswith(".")
    assert answer["message"][0].isupper() or "." in first.rstrip(".,;:"), answer["message"]   # or a file's name
    assert not one_sentence or answer["message"].count(". ") == 0, answer["message"]
    return answer["message"]


def rewritten(file, change):
    """The backup ``file`` with its manifest changed by ``change(manifest, members)``, as bytes."""
    with zipfile.ZipFile(file) as z:
        members = {n: z.read(n) for n in z.namelist()}
    manifest = json.loads(members.pop("manifest.json"))
    change(manifest, members)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("manifest.json", json.dumps(manifest))
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


# ------------------------------------------------------------------ download

@pytest.mark.slow
def test_a_download_folder_a_killed_server_left_goes_at_the_next_download(client, desk, tmp_path, monkeypatch):
    import os
    import tempfile
    import time
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    old, young = tmp_path / "newsdesk-download-old", tmp_path / "newsdesk-download-young"
    for folder in (old, young):
        folder.mkdir()
        (folder / "b.zip").write_bytes(b"x" * 1000)
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    r = client.get("/api/backups/download")
    assert r.status_code == 200
    r.close()
    assert not old.exists() and young.exists()
    assert [p.name for p in tmp_path.glob("newsdesk-download-*")] == ["newsdesk-download-young"]   # its own went at once


def test_the_host_downloads_the_backup_the_command_writes(client, desk, tmp_path):
    play_a_game(desk, 2)
    r = client.get("/api/backups/download")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    assert r.headers[backups.SECRET_HEADER] == "not included" and r.headers["Cache-Control"] == "no-store"
    assert "attachment" in r.headers["Content-Disposition"] and "newsdesk-backup-" in r.headers["Content-Disposition"]
    file = tmp_path / "down.zip"
    file.write_bytes(r.get_data())
    r.close()
    into = tmp_path / "unpacked"
    into.mkdir()
    manifest = backup.unpack(file, into)          # every checksum and the integrity check
    assert manifest["schema"] == SCHEMA_VERSION and manifest["with_secret"] is False
    assert manifest["store"]["games"] == 1 and backup.SECRET_FILE not in manifest["files"]


def test_a_head_of_the_download_makes_no_backup(client, monkeypatch):
    """A HEAD (a link checker, a download manager looking first) is answered with a GET's headers
    and no backup made: making one copies the whole store, seconds of a Pi's disk."""
    made = []
    monkeypatch.setattr(backup, "make_backup", lambda *a, **kw: made.append(a))
    r = client.head("/api/backups/download?secret=yes")
    assert r.status_code == 200 and made == [] and r.get_data() == b""
    assert r.mimetype == "application/zip" and r.headers[backups.SECRET_HEADER] == "included"
    assert "attachment" in r.headers["Content-Disposition"] and r.headers["Cache-Control"] == "no-store"
    assert "Content-Length" not in r.headers        # not known until one is made
    assert client.head("/api/backups/download?secret=maybe").status_code == 400


@pytest.mark.slow
def test_the_secret_key_only_when_the_host_asks_and_then_said(client, tmp_path):
    r = client.get("/api/backups/download?secret=yes")
    assert r.status_code == 200 and r.headers[backups.SECRET_HEADER] == "included"
    assert "with-secret-key" in r.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(r.get_data())) as z:
        assert backup.SECRET_FILE in z.namelist() and json.loads(z.read("manifest.json"))["with_secret"] is True
    r.close()
    assert "secret parameter is yes or no" in refusal(client.get("/api/backups/download?secret=1"), 400)


def test_another_sites_page_cant_make_the_box_build_a_backup(client, monkeypatch):
    """A page elsewhere, open on the box's own screen (the host by loopback), asks for the
    download by fetch (Origin and Sec-Fetch-Site) or by an <img> (Sec-Fetch-Site only): refused
    before a backup is made. The panel's own link, and the address typed in, still download."""
    made = []
    monkeypatch.setattr(backup, "make_backup", lambda data_dir, dest, **kw: made.append(dest) or
                        dest.write_bytes(b"PK"))
    for headers in ({"Sec-Fetch-Site": "cross-site", "Origin": "http://elsewhere.example"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                    {"Origin": "http://elsewhere.example"}):
        message = refusal(client.get("/api/backups/download?secret=yes", headers=headers), 403)
        assert message.startswith("This download must come from newsdesk's own pages"), message
    assert made == []
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {}):
        r = client.get("/api/backups/download", headers=headers)
        assert r.status_code == 200, r.get_data(as_text=True)
        r.close()
    assert len(made) == 3


# ------------------------------------------------------------------ who may

@pytest.mark.slow
def test_a_player_is_refused_in_the_tables_words_and_a_stranger_asked_to_join(app, guard, source):
    file, _ = source
    tablet = player(app, guard)
    for r in (tablet.get("/api/backups/download"), check(tablet, file.read_bytes()),
              tablet.post("/api/backups/restore", json={"token": "x"}, headers=WRITE)):
        assert refusal(r, 403, one_sentence=False).startswith("Only the host can do that")
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.41"
    assert "join" in refusal(stranger.get("/api/backups/download"), 401, one_sentence=False).lower()
    for device in (tablet, stranger):           # the history page's Backups section is the host's alone
        page = device.get("/history").get_data(as_text=True)
        assert 'id="backups"' not in page and "backups.js" not in page
    host = app.test_client()
    page = host.get("/history").get_data(as_text=True)
    assert 'id="backups"' in page and "backups.js" in page and 'href="/api/backups/download"' in page
    assert not (app.extensions["newsdesk"].config.data_dir / backup.STAGING).exists()


# ------------------------------------------------------------------ checking the file

@pytest.mark.slow
def test_a_file_that_is_no_backup_is_refused_and_nothing_is_staged(client, desk, source):
    data = desk.config.data_dir
    assert "not a newsdesk backup" in refusal(check(client, b"PK\x03\x04 not really a zip", "x.zip"), 400)
    assert refusal(check(client, b"hello", "Case.zip"), 400).startswith("Case.zip is not a newsdesk backup")
    assert refusal(check(client, b"hello", "case.zip"), 400).startswith("case.zip is not a newsdesk backup")
    assert refusal(check(client, b"hello", ""), 400).startswith("The uploaded file is not a newsdesk backup")
    assert "Send the backup file" in refusal(check(client, b""), 400)
    file, _ = source

    def damage(manifest, members):
        members[STORE_FILE] = members[STORE_FILE][:-1] + bytes([members[STORE_FILE][-1] ^ 1])    # always a change
    message = refusal(check(client, rewritten(file, damage)), 400)
    assert "doesn't match its checksum" in message or "integrity" in message
    assert not (data / backup.STAGING).exists()

    def devices_as_store(manifest, members):
        members[STORE_FILE] = members[backup.DEVICES_FILE]
        manifest["files"][STORE_FILE] = dict(manifest["files"][backup.DEVICES_FILE])
        manifest["schema"] = 1
    message = refusal(check(client, rewritten(file, devices_as_store)), 400)
    assert message == ("box.zip is not a backup to restore: its %s is a devices file (the joined devices), not the "
                       "store; nothing was changed." % STORE_FILE)
    assert not (data / backup.STAGING).exists()


@pytest.mark.slow
def test_a_backup_from_a_newer_newsdesk_is_refused_in_one_sentence(client, desk, source):
    file, _ = source

    def newer(manifest, members):
        manifest["schema"] = SCHEMA_VERSION + 1
        manifest["newsdesk"] = "9.0.0"
    message = refusal(check(client, rewritten(file, newer)), 422)
    assert "was made by a newer newsdesk (9.0.0, store schema %d" % (SCHEMA_VERSION + 1) in message
    assert "update newsdesk" in message
    assert not (desk.config.data_dir / backup.STAGING).exists()

    def newer_format(manifest, members):
        manifest["format_version"] = backup.FORMAT_VERSION + 1
        manifest["newsdesk"] = "9.0.0"
    message = refusal(check(client, rewritten(file, newer_format)), 422)
    assert message.startswith("box.zip was written in backup format %d by newsdesk 9.0.0; this newsdesk (%s) reads "
                              "format %d only: update newsdesk" % (backup.FORMAT_VERSION + 1, backup.newsdesk_version(),
                                                                   backup.FORMAT_VERSION)), message
    assert "schema" not in message


# ------------------------------------------------------------------ check, then confirm

@pytest.mark.slow
def test_check_names_what_is_replaced_then_the_confirmation_commits_and_restarts(app, client, desk, source):
    file, shown = source
    play_a_game(desk, 0)                                 # this box's own game, which the restore replaces
    restarts = []
    app.config["RESTART"] = lambda: restarts.append(True)
    r = check(client, file.read_bytes(), "other.zip")
    assert r.status_code == 200, r.get_data(as_text=True)
    answer = r.get_json()
    assert answer["backup"]["store"].startswith("3 kept games") and answer["backup"]["schema"] == SCHEMA_VERSION
    assert "has 1 kept game" in answer["replacing"] and "the backup other.zip (made " in answer["replacing"]
    assert "Restoring replaces devices.sqlite3, newsdesk.sqlite3 with the backup's" in answer["replacing"]
    data = desk.config.data_dir
    assert (data / backup.STAGING).is_dir() and not backup.interrupted(data)
    assert client.get("/api/games/stats").get_json()["games_counted"] == 1       # nothing changed yet

    assert "check the file again" in refusal(client.post("/api/backups/restore", json={"token": "wrong"},
                                                         headers=WRITE), 409)
    assert "Send" in refusal(client.post("/api/backups/restore", json={"token": 5}, headers=WRITE), 400)
    r = client.post("/api/backups/restore", json={"token": answer["token"]}, headers=WRITE)
    assert r.status_code == 202 and r.get_json()["restarting"] is True, r.get_data(as_text=True)
    assert backup.interrupted(data)               # committed: the journal names the files
    assert wait_for(lambda: restarts, timeout=5)
    # the token is spent, and nothing may stage over a committed restore
    assert refusal(client.post("/api/backups/restore", json={"token": answer["token"]}, headers=WRITE), 409)
    assert "committed and not finished" in refusal(check(client, file.read_bytes()), 503)
    assert "interrupted" in refusal(client.get("/api/backups/download"), 503)

    desk.close()                                  # the restart: the panel stops ...
    assert backup.finish_restore(data)            # ... and the start puts the backup in place
    factory = MockFactory()
    again = Newsdesk(load_config(data, environ={}, overrides={"audio": "off", "speech": "off"}), pin_factory=factory)
    try:
        after = create_app(newsdesk=again, test_config={"TESTING": True}).test_client()
        assert what_the_table_shows(after) == shown
    finally:
        again.close()
        factory.close()
    assert [p.name for p in data.iterdir() if p.name.startswith(backup.REPLACED_PREFIX)]


@pytest.mark.slow
def test_without_a_restart_to_ask_for_the_answer_says_the_next_start_does_it(client, desk, source):
    file, _ = source
    token = check(client, file.read_bytes()).get_json()["token"]
    r = client.post("/api/backups/restore", json={"token": token}, headers=WRITE)
    assert r.status_code == 202 and r.get_json()["restarting"] is False
    assert "when newsdesk next starts" in r.get_json()["message"]
    assert backup.interrupted(desk.config.data_dir)


@pytest.mark.slow
def test_once_a_restore_is_committed_the_table_takes_no_change_it_would_lose(client, desk, source):
    """The restore puts the backup's store in place at the next start, and what is here goes to
    replaced-<time>/: a move answered 200 meanwhile would be lost to the table. So every change
    is refused, in a sentence, until then; reading goes on."""
    file, _ = source
    token = check(client, file.read_bytes()).get_json()["token"]
    assert client.post("/api/backups/restore", json={"token": token}, headers=WRITE).status_code == 202
    r = client.post("/api/games", json={"engine": "scan", "players": [{"name": n} for n in "ABCD"]}, headers=WRITE)
    assert "being put in place" in refusal(r, 503) and r.headers["Retry-After"] == "5"
    assert refusal(client.post("/api/oracles/sim/dice", json={}, headers=WRITE), 503)
    assert client.get("/api/games/current").status_code == 200 and client.get("/api/health").status_code == 200
    assert desk.store.games() == []            # nothing was written


def test_keeping_what_is_here_throws_the_checked_copy_away(client, desk, source):
    file, _ = source
    token = check(client, file.read_bytes()).get_json()["token"]
    assert (desk.config.data_dir / backup.STAGING).is_dir()
    r = client.delete("/api/backups/check", headers=WRITE)
    assert r.status_code == 200 and r.get_json()["message"] == "Nothing was changed."
    assert not (desk.config.data_dir / backup.STAGING).exists()
    assert refusal(client.post("/api/backups/restore", json={"token": token}, headers=WRITE), 409)


@pytest.mark.slow
def test_a_second_check_replaces_the_first_and_its_token(client, source):
    file, _ = source
    first = check(client, file.read_bytes()).get_json()["token"]
    second = check(client, file.read_bytes()).get_json()["token"]
    assert first != second
    assert refusal(client.post("/api/backups/restore", json={"token": first}, headers=WRITE), 409)


# ------------------------------------------------------------------ the upload's body

@pytest.mark.slow
def test_the_upload_limit_is_the_hosts_alone_and_bounded(app):
    assert app.config["HOST_BODIES"] == {"/api/backups/check": (backups.UPLOAD_MOST, backups.UPLOAD_SECONDS)}
    assert app.config["MAX_CONTENT_LENGTH"] < backups.UPLOAD_MOST <= 64 * 1024 * 1024


def _post(port, body, path="/api/backups/check"):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=dict(ZIP, Host="127.0.0.1:%d" % port))
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def _declare(port, length):
    """A request that declares a body of ``length`` bytes and sends none of it: the answer."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", "/api/backups/check", skip_host=True)
        for name, value in dict(ZIP, Host="127.0.0.1:%d" % port, **{"Content-Length": str(length)}).items():
            conn.putheader(name, value)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


@pytest.mark.slow
def test_through_the_server_the_host_uploads_past_64_kb_and_anyone_else_is_refused_unread(desk, tmp_path):
    other = tmp_path / "big"
    store = Store(other / STORE_FILE)
    for n in range(400):                          # a long-kept store: its backup is past 64 KB, zipped
        store.append("editor.verdict", {"n": n, "noise": os.urandom(512).hex()})
    store.close()
    file = tmp_path / "big.zip"
    backup.make_backup(other, file)
    big = file.read_bytes()
    assert len(big) > 2 * 64 * 1024
    app = create_app(newsdesk=desk, test_config={"TESTING": True})
    with InThread(app) as srv:
        status, answer = _post(srv.port, big)
        assert status == 200 and answer["backup"]["store"] == "no kept games, 400 events", answer
        status, answer = _declare(srv.port, backups.UPLOAD_MOST + 1)
        assert status == 413 and "%d bytes" % backups.UPLOAD_MOST in answer["message"]
        status, answer = _post(srv.port, big, "/api/games")      # the larger limit is the upload's route alone
        assert status == 413
    stranger = create_app(newsdesk=desk, test_config={"TESTING": True, "HOST_ON_LOOPBACK": False})
    with InThread(stranger) as srv:
        status, answer = _post(srv.port, big)
        assert status == 413 and "65536 bytes" in answer["message"]


@pytest.mark.slow
def test_through_the_server_one_upload_at_a_time_the_next_refused_unread(desk):
    """Eight backups of 31 MB sent at once were each read whole and held side by side: the panel
    went from 100 MB to 575 (a Pi Zero has 512), and kept 390. A second upload while one is under
    way is now refused, unread; once the first is done the next is taken."""
    import socket
    app = create_app(newsdesk=desk, test_config={"TESTING": True})
    with InThread(app) as srv:
        first = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        try:
            first.sendall(("POST /api/backups/check HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Newsdesk: 1\r\n"
                           "Content-Type: application/zip\r\nContent-Length: 1000000\r\n\r\n" % srv.port).encode()
                          + b"PK" * 1000)         # a slow sender, part way through its file
            assert wait_for(lambda: getattr(srv.panel, "uploading", True), timeout=5)
            status, answer = _post(srv.port, b"not a zip")
            assert status == 503 and answer["message"].startswith("Another large upload (a backup being checked) is "
                                                                  "under way"), (status, answer)
        finally:
            first.close()
        assert wait_for(lambda: _post(srv.port, b"not a zip")[0] == 400, timeout=10)


# ------------------------------------------------------------------ the restart, as `newsdesk serve` does it

SERVE_ENV = {"NEWSDESK_PIN_FACTORY": "mock", "NEWSDESK_AUDIO": "off", "NEWSDESK_SPEECH": "off",
             "NEWSDESK_DISPLAY": "dummy", "NEWSDESK_VOLATILE_DATA": "allow"}


def _ask(port, method, path, body=None, headers=None):
    """(status, JSON) of one request from the host; (0, None) while nothing answers."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=dict(WRITE, Host="127.0.0.1:%d" % port, **(headers or {})))
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")
    except OSError:
        return 0, None
    finally:
        conn.close()


@pytest.mark.slow
def test_serve_restarts_itself_and_its_start_puts_the_backup_in_place(tmp_path, source):
    import socket
    import subprocess
    import sys
    import time

    from conftest import REPO
    file, shown = source
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path / "data"
    log = open(tmp_path / "serve.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "newsdesk", "--data", str(data), "serve", "--port", str(port)],
                            cwd=REPO, env=dict(os.environ, **SERVE_ENV), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=log)
    try:
        assert wait_for(lambda: _ask(port, "GET", "/api/health")[0] == 200, timeout=30)
        status, answer = _ask(port, "POST", "/api/backups/check", file.read_bytes(), ZIP)
        assert status == 200 and answer["backup"]["store"].startswith("3 kept games"), answer
        status, answer = _ask(port, "POST", "/api/backups/restore", json.dumps({"token": answer["token"]}),
                              {"Content-Type": "application/json"})
        assert status == 202 and answer["restarting"] is True, answer
        started = time.monotonic()
        assert wait_for(lambda: _ask(port, "GET", "/api/games/history")[1] == {"games": shown[0]}, timeout=30)
        back = time.monotonic() - started
        assert proc.poll() is None                  # the same process, started again
        log.seek(0)
        said = log.read()
        assert "restarting to put the restored backup in place" in said and "Traceback" not in said, said
        assert _ask(port, "GET", "/api/games/stats")[1] == shown[2]
        assert not backup.interrupted(data) and not (data / backup.STAGING).exists()
        print("back, with the backup's games, %.1f s after the confirmation" % back)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        log.close()


def test_the_check_names_the_settings_a_restore_changes(client, desk, source):
    """The check's answer names each setting the backup's config.toml changes, old to new, with
    a password masked, and says the box keeps its own port and host_on_loopback."""
    file, _ = source
    settings = b'host_on_loopback = "no"\nport = 35979\nmqtt_url = "mqtts://u:hunter2@203.0.113.9"\n'

    def with_settings(manifest, members):
        members[backup.CONFIG_FILE] = settings
        manifest["files"][backup.CONFIG_FILE] = {"sha256": hashlib.sha256(settings).hexdigest(),
                                                 "bytes": len(settings)}
    r = check(client, rewritten(file, with_settings), "other.zip")
    assert r.status_code == 200, r.get_data(as_text=True)
    message = r.get_json()["message"]
    assert 'mqtt_url "" → "mqtts://u:***@203.0.113.9"' in message and "hunter2" not in message, message
    assert "keeps its own port and host_on_loopback" in message, message


def test_a_refusal_never_changes_the_case_of_the_files_name(client):
    """A file named ../../etc/passwd was refused as "Passwd is not a newsdesk backup ...": the
    sentence's capital went to the user's file name."""
    message = refusal(check(client, b"root:x:0:0:root:/root:/bin/bash\n", "../../etc/passwd"), 400)
    assert "Passwd" not in message and message.startswith("The file passwd is not a newsdesk backup"), message


def test_an_upload_whose_name_cant_be_shown_is_the_uploaded_file_in_the_question(client, desk, source):
    """An upload whose name the panel can't show (a control character in it) is named "the
    uploaded file", and the question read "The backup the uploaded file is another table's" and
    "the backup the uploaded file (made ...)"."""
    file, _ = source
    play_a_game(desk, 0)
    r = check(client, file.read_bytes(), "other\u202e.zip")
    assert r.status_code == 200, r.get_data(as_text=True)
    message = r.get_json()["message"]
    assert message.startswith("The uploaded file is another table's: its store began "), message
    assert "; the uploaded file (made " in message and "backup the uploaded file" not in message, message
