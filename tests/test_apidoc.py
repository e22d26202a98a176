"""Each route described once, beside its view (web_ui/apidoc.py): the role its description names
is the role the panel asks for."""

import pytest
from test_security import LAN, client_at, guard, joined  # noqa: F401  (the guard fixture)


@pytest.mark.slow
def test_each_route_asks_for_the_role_its_description_names(app, guard):  # noqa: F811
    """A route's role is written once, in its description (apidoc.route): a host-only one refuses
    a player (403) and a stranger (401), a change open to anyone lets a stranger through, and a
    player's change refuses only a stranger."""
    from web_ui import apidoc, openapi
    stranger, player = client_at(app, LAN), joined(app, guard)
    checked = {"host": 0, "player": 0, None: 0}
    for path, ops in openapi.document(app)["paths"].items():
        if path == "/stream":
            continue                                # never ends; its checks are test_panel_stream's
        url = path.replace("{game_id}", "1").replace("{device_id}", "nobody").replace("{ident}", "1")
        url = url.replace("{oracle}", "dice")
        for method, operation in ops.items():
            role = apidoc.role_of(operation)
            if method == "get" and role is None:
                continue                            # watching is open to all
            said = (method, path)
            refused_stranger = stranger.open(url, method=method.upper(), json={}).status_code
            if role is None:
                assert refused_stranger not in (401, 403), said
            else:
                assert refused_stranger == 401, said
            if role == "host":
                assert player.open(url, method=method.upper(), json={}).status_code == 403, said
            checked[role] += 1
    assert checked["host"] >= 4 and checked["player"] >= 10 and checked[None] >= 3, checked
