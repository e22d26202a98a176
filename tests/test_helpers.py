"""What the panel's blueprints share (web_ui/helpers.py): a request's JSON object or a 400 that
says what to send, and a list's ?limit= as a plain number in range or a 400 saying so."""

import flask
import pytest
from werkzeug.exceptions import BadRequest

from web_ui.helpers import json_body, limit_arg, request_object


def test_only_a_json_object_is_a_body_and_no_body_at_all_is_one_only_where_allowed():
    app = flask.Flask(__name__)
    with app.test_request_context(json={"digit": 3}):
        assert json_body() == {"digit": 3}
    for body in ("[1, 2]", "3", "not json", "[" * 100_000 + "]" * 100_000):
        with app.test_request_context(data=body, content_type="application/json"):
            assert request_object(allow_empty=True) is None, body[:10]
            with pytest.raises(BadRequest, match="Send a JSON object in the request body"):
                json_body()
    with app.test_request_context(method="POST"):
        assert json_body(allow_empty=True) == {}
        with pytest.raises(BadRequest):
            json_body()


def test_a_limit_is_a_plain_number_in_range_and_the_default_when_not_given():
    app = flask.Flask(__name__)
    with app.test_request_context("/?limit=7"):
        assert limit_arg(20, 500) == 7
    with app.test_request_context("/"):
        assert limit_arg(20, 500) == 20
    for raw in ("0", "501", "-1", "²", "1e3", " 5"):
        with app.test_request_context("/", query_string={"limit": raw}):
            with pytest.raises(BadRequest, match="limit must be a whole number from 1 to 500"):
                limit_arg(20, 500)


@pytest.mark.slow
@pytest.mark.parametrize("url", ["/api/verdicts?limit=%C2%B2", "/api/games/history?limit=%C2%B2",
                                 "/api/oracles/dice/history?limit=%C2%B2", "/api/verdicts?limit=0"])
def test_a_limit_that_is_no_plain_number_is_a_400_not_a_crash(client, url):
    """"²" passes str.isdigit() but not int(): every list endpoint says what a limit is."""
    r = client.get(url)
    assert r.status_code == 400 and "limit must be a whole number" in r.get_json()["message"]
