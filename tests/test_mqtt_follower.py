"""The league's follower: the tables' base topics it subscribes to, checked before it connects."""

import pytest

from controller.errors import ConfigError
from controller.mqtt.follower import check_tables


def test_a_league_pattern_is_a_topic_with_a_plus_for_the_table():
    assert check_tables("cafe/+") == "cafe/+"
    for bad in ("", "cafe/#", "/cafe/+", "cafe/+/"):
        with pytest.raises(ConfigError):
            check_tables(bad)
