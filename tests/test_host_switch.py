"""The host-on-loopback switch: a setting like the others, and a way in when it is off."""

import pytest

from controller.app import Newsdesk
from controller.config import load_config
from controller.errors import ConfigError
from newsdesk.cli import main
from web_ui import create_app


def test_the_switch_is_layered_like_every_setting(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    assert load_config(data, environ={})["host_on_loopback"] == "yes"
    (data / "config.toml").write_text('host_on_loopback = "no"\n')
    assert load_config(data, environ={})["host_on_loopback"] == "no"
    assert load_config(data, environ={"NEWSDESK_HOST_ON_LOOPBACK": "yes"})["host_on_loopback"] == "yes"
    assert load_config(data, environ={"NEWSDESK_HOST_ON_LOOPBACK": "yes"},
                       overrides={"host_on_loopback": "no"})["host_on_loopback"] == "no"
    with pytest.raises(ConfigError, match="host_on_loopback must be one of yes, no"):
        load_config(data, environ={"NEWSDESK_HOST_ON_LOOPBACK": "maybe"})


@pytest.mark.slow
def test_off_behind_a_proxy_and_the_console_link_makes_a_host(tmp_path, mock_factory, capsys):
    data = tmp_path / "data"
    config = load_config(data, environ={}, overrides={"audio": "off", "speech": "off",
                                                       "host_on_loopback": "no"})
    desk = Newsdesk(config, pin_factory=mock_factory)
    try:
        app = create_app(newsdesk=desk, test_config={"TESTING": True})
        proxied = app.test_client()                       # every request arrives from 127.0.0.1
        proxied.environ_base["HTTP_X_NEWSDESK"] = "1"
        assert app.config["HOST_ON_LOOPBACK"] is False
        assert proxied.post("/api/join/tokens", json={"role": "player"}).status_code == 401

        assert main(["--data", str(data), "host-link", "--base", "https://newsdesk.lan/"]) == 0
        link = capsys.readouterr().out.strip()
        assert link.startswith("https://newsdesk.lan/join?token=")
        token = link.split("token=", 1)[1]
        admin = app.test_client()
        admin.environ_base["HTTP_X_NEWSDESK"] = "1"
        admin.get("/join?token=" + token)
        assert admin.get("/api/join/me").get_json()["role"] == "host"
        assert admin.post("/api/join/tokens", json={"role": "player"}).status_code == 201
        other = app.test_client()                         # the link works once
        other.get("/join?token=" + token)
        assert other.get("/api/join/me").get_json().get("role") != "host"
    finally:
        desk.close()
