"""JSON a browser always reads (web_ui/safejson.py): a number JSON can't carry, kept by an earlier
version, is written as words saying what it is; everything else goes out as json writes it."""

import json

from web_ui.safejson import dumps


def test_ordinary_answers_go_out_as_json_writes_them():
    value = {"name": "Ann", "money": [1000, -2.5], "winner": True, "team": None}
    assert dumps(value, sort_keys=True) == json.dumps(value, sort_keys=True)


def test_numbers_json_cant_carry_are_said_in_words_and_the_rest_kept():
    said = json.loads(dumps({"worth": float("inf"), "debt": float("-inf"), "odds": float("nan"),
                             "points": [10 ** 4400, -(10 ** 4400), 10 ** 3800], "ok": 7}))
    assert (said["worth"], said["debt"], said["odds"]) == ("infinity", "minus infinity", "not a number")
    assert said["points"][0] == "a number of about 4400 digits"
    assert said["points"][1] == "-a number of about 4400 digits"
    assert said["points"][2] == 10 ** 3800 and said["ok"] == 7      # under the limit: still a number


def test_the_pages_json_keeps_each_objects_keys_in_the_order_they_were_made(app):
    """Jinja's |tojson asks for sorted keys (its json.dumps_kwargs policy), so the pages' boot data
    had every object's keys sorted: Get the Scoop!'s drop-downs for the board's sides were drawn
    bottom, left, right, top, where its schema names them top, right, bottom, left."""
    with app.app_context():
        said = app.jinja_env.from_string("{{ x | tojson }}").render(x={"top": 1, "right": 2, "bottom": 3, "left": 4})
    assert said == '{"top":1,"right":2,"bottom":3,"left":4}'
