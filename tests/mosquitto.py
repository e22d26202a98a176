"""Debian's mosquitto, run by the tests: on a free port, with its own config in a tmp folder.

Outside CI a missing broker skips (with a message); with NEWSDESK_REQUIRE_MQTT=1 (CI) it fails.
"""

import getpass
import os
import shutil
import socket
import subprocess
import time

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def need_mosquitto():
    if os.path.exists(MOSQUITTO):
        return MOSQUITTO
    reason = "mosquitto is not installed (apt-get install mosquitto)"
    if os.environ.get("NEWSDESK_REQUIRE_MQTT"):
        pytest.fail(reason)
    pytest.skip(reason)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """A broker the test starts, stops and restarts; persistent sessions survive a restart."""

    def __init__(self, folder, users=None, tls=False):
        self.exe = need_mosquitto()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        lines = ["listener %d 127.0.0.1" % self.port, "persistence true",
                 "persistence_location %s/" % folder, "max_queued_messages 0", "log_dest file %s/log" % folder,
                 "autosave_interval 0", "user %s" % getpass.getuser()]   # run as root, it would drop to "mosquitto"
        if users:
            passwords = folder / "passwords"
            passwords.write_text("".join("%s:%s\n" % kv for kv in users.items()))
            subprocess.run(["mosquitto_passwd", "-U", str(passwords)], check=True, capture_output=True)
            lines += ["allow_anonymous false", "password_file %s" % passwords]
        else:
            lines.append("allow_anonymous true")
        self.tls_port = None
        if tls:         # a second listener with a self-signed certificate nobody trusts
            self.tls_port = free_port()
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", str(folder / "key.pem"),
                            "-out", str(folder / "cert.pem")], check=True, capture_output=True)
            lines += ["listener %d 127.0.0.1" % self.tls_port, "certfile %s" % (folder / "cert.pem"),
                      "keyfile %s" % (folder / "key.pem")]
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc = None

    @property
    def url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    def start(self, timeout=10.0):
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                said = self.proc.stderr.read().decode(errors="replace")
                self.proc.stderr.close()
                self.proc = None
                raise RuntimeError("mosquitto exited: %s" % said)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not accept connections on port %d within %.0f s" % (self.port, timeout))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:
            self.proc.stderr.close()
        self.proc = None

    def restart(self):
        self.stop()
        return self.start()

    def forget(self):
        """Restart with nothing kept: retained messages and sessions gone, as a broker whose
        store was lost (or a new broker at the same address)."""
        self.stop()
        for kept in self.folder.glob("mosquitto.db*"):
            kept.unlink()
        return self.start()


class Listener:
    """A subscriber the test reads from: every message kept in order; a persistent session
    (clean_session False) so what is sent while it is away waits for it on the broker."""

    def __init__(self, broker, topics, client_id="listener", persistent=True):
        import threading

        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages = []
        self._cond = threading.Condition()
        self._topics = topics
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv311,
                                  clean_session=not persistent)
        self.client.reconnect_delay_set(min_delay=0.05, max_delay=0.2)
        self.client.on_connect = lambda c, u, f, rc, p: [c.subscribe(t, qos=1) for t in self._topics]
        self.client.on_subscribe = self._subscribed
        self.client.on_message = self._message
        self.subscribed = threading.Event()
        self.client.connect("127.0.0.1", broker.port, keepalive=30)
        self.client.loop_start()
        assert self.subscribed.wait(5), "the test subscriber could not subscribe"

    def _subscribed(self, client, userdata, mid, reason_codes, properties):
        self.subscribed.set()

    def _message(self, client, userdata, message):
        with self._cond:
            self.messages.append((message.topic, message.payload.decode("utf-8"), message.retain))
            self._cond.notify_all()

    def wait(self, predicate, timeout=20.0):
        """Wait until predicate(messages) is true; returns it (falsy on timeout)."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate(self.messages)
                left = end - time.monotonic()
                if value or left <= 0:
                    return value
                self._cond.wait(left)

    def on(self, topic):
        with self._cond:
            return [payload for t, payload, _ in self.messages if t == topic]

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
