"""Phone profiles: what the dial tester learned about a dial, kept in the data folder and read
back; a damaged file is no crash. How the decoder starts from a profile is in test_dial_tester.py."""

import json

import pytest
from test_dial_tester import dialed

from controller.dial import tester
from controller.dial.profile import ProfileError, Profiles


def test_a_profile_is_kept_in_the_data_folder_and_read_back(tmp_path):
    profiles = Profiles(tmp_path, clock=lambda: 0.0)
    tests = tester.measure(dialed([0]).sorted_edges())
    kept = profiles.save("GPO 746", tester.summary(tests), "gpo", "standard")
    assert kept["updated"] == "1970-01-01T00:00:00Z" and kept["standard"] == "gpo"
    assert json.loads((tmp_path / "dial-profiles.json").read_text())["GPO 746"]["pps"] == kept["pps"]
    assert profiles.ratio("GPO 746") == pytest.approx(0.4 / 0.6, rel=0.08)
    assert profiles.ratio("another phone") is None
    with pytest.raises(ProfileError, match="phone's name"):
        profiles.save("../../etc", tester.summary(tests), "gpo", "standard")
    with pytest.raises(ProfileError, match="nothing to keep"):
        profiles.save("x", None, "gpo", "standard")


def test_a_damaged_profiles_file_is_no_crash(tmp_path):
    (tmp_path / "dial-profiles.json").write_text("{not json")
    assert Profiles(tmp_path).ratio("default") is None
    (tmp_path / "dial-profiles.json").write_text('{"default": {"ratio": 7}}')
    assert Profiles(tmp_path).ratio("default") is None      # out of range: not used
