import re
from pathlib import Path

import pytest

from controller.config import load_config
from controller.errors import ConfigError


def test_layers_defaults_file_env_and_command_line(tmp_path):
    (tmp_path / "config.toml").write_text('port = 9000\ndial_map = "sweden"\n')
    cfg = load_config(tmp_path, environ={"NEWSDESK_PORT": "9100"}, overrides={"host": "127.0.0.2", "port": None})
    assert cfg["dial_map"] == "sweden"       # from the file
    assert cfg["port"] == 9100                # env beats file
    assert cfg.bind_host == "127.0.0.2"       # command line beats all
    assert cfg["editor_mode"] == "mechanical"  # default


def test_data_dir_from_environment(tmp_path):
    cfg = load_config(environ={"NEWSDESK_DATA": str(tmp_path / "d")})
    assert cfg.data_dir == tmp_path / "d"


@pytest.mark.parametrize("text, words", [
    ('port = "lots"', "port must be a whole number"),
    ('dial_map = "mars"', "dial_map must be one of"),
    ('colour = "red"', "unknown setting 'colour'"),
    ("port = 99999", "port must be 0-65535"),
    ("port = [", "can't read"),
])
def test_bad_settings_name_the_setting(tmp_path, text, words):
    (tmp_path / "config.toml").write_text(text)
    with pytest.raises(ConfigError, match=words):
        load_config(tmp_path, environ={})


@pytest.mark.parametrize("key, good, bad, words", [
    ("audio_volume", (1, 60, 100), (0, 101), "audio_volume must be 1-100"),
    ("bell_strike_hz", (0, 5, 20, 40), (3, 41), "bell_strike_hz must be 0 (held on) or 5-40"),
])
def test_the_handset_volume_and_the_bells_strike_rate_have_bounds(tmp_path, key, good, bad, words):
    assert load_config(tmp_path, environ={})[key] in good          # the default is inside
    for value in good:
        assert load_config(tmp_path, overrides={key: value}, environ={})[key] == value
    for value in bad:
        with pytest.raises(ConfigError, match=re.escape(words)):
            load_config(tmp_path, environ={"NEWSDESK_" + key.upper(): str(value)})


def test_on_an_installed_box_the_data_folder_is_the_services(tmp_path, monkeypatch):
    """`newsdesk doctor` or `make update` typed by the box's owner mean the box's data, the folder
    the installed service was given, not ~/.local/share/newsdesk."""
    from controller import config as config_module
    from controller.config import installed_data_dir
    unit = tmp_path / "newsdesk.service"
    unit.write_text("[Service]\nExecStart=/home/pi/newsdesk/.venv/bin/newsdesk --data /var/lib/newsdesk serve\n")
    assert installed_data_dir(str(unit)) == Path("/var/lib/newsdesk")
    assert installed_data_dir(str(tmp_path / "none")) is None
    monkeypatch.setattr(config_module, "INSTALLED_UNIT", str(unit))
    assert load_config(environ={}).data_dir == Path("/var/lib/newsdesk")
    assert load_config(environ={"NEWSDESK_DATA": str(tmp_path)}).data_dir == tmp_path   # said outright: that
