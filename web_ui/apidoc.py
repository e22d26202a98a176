"""How the panel's JSON endpoints are described in the OpenAPI document, and where: each route
is written down once, beside its view, by ``route``:

    @route(bp, "/current/undo", write("post", "Take back the newest move still in force.", "Outcome",
                                      "409", "422", op="undo", request="VersionRequest"))
    def undo(): ...

``route`` registers the view with Flask for the method the description names, applies the role
it names (a host-only route is checked as such; a change open to devices that haven't joined is
marked public) and keeps the description on the blueprint, with the component schemas the
blueprint adds through ``schemas``. web_ui/openapi.py puts the document together from the
blueprints. Here are also the schema helpers, the error answers and the two kinds of operation
(``read``, ``write``). It imports no blueprint, so any blueprint may import it.
"""

import re

from . import security

STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
OBJ = {"type": "object"}
ANY: dict[str, str] = {}   # a schema that takes any value


def nullable(schema):
    return {"anyOf": [schema, {"type": "null"}]}


def ref(name):
    return {"$ref": "#/components/schemas/%s" % name}


def obj(required=(), optional=None, extra=False, **props):
    props.update(optional or {})
    out = {"type": "object", "properties": props, "additionalProperties": extra}
    if required:
        out["required"] = list(required)
    return out


def arr(items, **kw):
    return dict({"type": "array", "items": items}, **kw)


KEY = dict(STR, minLength=1, maxLength=200,
           description="Idempotency key: a fresh random string per request, reused when retrying it.")
VERSION = dict(INT, description="The game's version as this tablet last showed it.")



def json_response(schema, description):
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    "400": "The request is malformed; the message says what to send.",
    "401": "This device hasn't joined the table, or the host removed it: join it (GET /join), then try again.",
    "403": "Refused: the X-Newsdesk: 1 header is missing, or the request came from another site.",
    "404": "No such game.",
    "409": "The table has moved on (stale version, no game, another game in play): read it again. "
           "A stale refusal carries the game's current version.",
    "413": "The request body is too large.",
    "415": "Send JSON.",
    "422": "The rules refuse this move, or the key was used for another request.",
    "429": "Too many tries from this address; wait as long as Retry-After says.",
}


# every change's answer while a committed restore waits for the start that puts it in place (web_ui/backups.py)
WAITING_RESTORE = ("A backup is being put in place: newsdesk restarts in a moment and takes no change before then "
                   "(Retry-After).")


def errors(*codes):
    """Error responses: each a status ("409", described as in ERRORS) or (status, description)."""
    out = {}
    for code in codes:
        code, description = code if isinstance(code, tuple) else (code, ERRORS[code])
        out[code] = json_response(ref("Error"), description)
    return out


HOST_ONLY = ("403", "Only the host may do this, and this device joined as a player; or the X-Newsdesk: 1 "
                   "header is missing, or the request came from another site.")


def read(summary, response, *errs, op, params=None, content=None, role=None):
    """A GET: anyone may make it (watching is open) unless ``role`` is "host". ``response``
    names the answer's schema, or ``content`` is the whole 200 response (a CSV, a picture)."""
    if role not in (None, "host"):
        raise ValueError("a read is open to anyone, or to the host only; not to %r" % (role,))
    refusals = ("401", ("403", "Only the host may see this; this device joined as a player.")) if role else ()
    out = {"summary": summary, "operationId": op,
           "responses": dict({"200": content or json_response(ref(response), summary)}, **errors(*refusals, *errs))}
    if params:
        out["parameters"] = list(params)
    if role:
        out["security"] = [{"device": [role]}]
    return {"get": out}


WRITE_HEADER = {"$ref": "#/components/parameters/WriteHeader"}


def write(method, summary, response, *errs, op, request=None, body_required=True, ok="200", more=None,
          role="player", params=None):
    """A change: it carries the X-Newsdesk header, and needs a joined device with ``role``
    ("player": any joined device; "host"; None: any device, joined or not). ``request`` names
    the body's schema (None: no body is read); ``more``: other success responses."""
    responses = {ok: json_response(ref(response), summary)}
    responses.update(more or {})
    if request is not None:
        responses.update(errors("400", "413"))
    responses.update(errors(*(("401",) if role else ()), HOST_ONLY if role == "host" else "403", *errs))
    responses.setdefault("503", json_response(ref("Error"), WAITING_RESTORE))
    out = {"summary": summary, "operationId": op, "parameters": [WRITE_HEADER] + list(params or ()),
           "responses": responses}
    if request is not None:
        out["requestBody"] = {"required": body_required,
                              "content": {"application/json": {"schema": ref(request)}}}
    if role:
        out["security"] = [{"device": [role]}]
    return {method: out}


COMPONENTS = {
    "parameters": {
        "WriteHeader": {
            "name": security.WRITE_HEADER, "in": "header", "required": True,
            "schema": dict(STR, enum=[security.WRITE_HEADER_VALUE]),
            "description": "Every change carries %s: %s (newsdesk's pages send it); a page on another site "
                           "can't, so without it a change is refused (403)."
                           % (security.WRITE_HEADER, security.WRITE_HEADER_VALUE)},
    },
    "securitySchemes": {
        "device": {
            "type": "apiKey", "in": "cookie", "name": "session",
            "description": "A joined device's session cookie (signed, HttpOnly, SameSite=Strict), set when it "
                           "joins: by opening the host's QR code (GET /join?token=...) or by dialing on the "
                           "table's phone the code POST /api/join/dial shows. The role each operation needs "
                           "is named in its requirement: player (any joined device) or host. The box's own "
                           "screen (a request from loopback) is the host without a cookie."},
    },
}

GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": dict(INT, minimum=0)}]
LIMIT = [{"name": "limit", "in": "query", "required": False, "schema": dict(STR, pattern="^[0-9]+$"),
          "description": "How many, 1-500."}]


# ---------------------------------------------------------------- where a route is described

_PARAMETER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")    # Flask's <int:game_id> is OpenAPI's {game_id}


def described(bp):
    """What ``bp`` describes of the document: {"paths": ..., "components": {"schemas": ...}}, and
    the functions that work out more schemas when the document is put together."""
    doc = getattr(bp, "openapi", None)
    if doc is None:
        doc = bp.openapi = {"paths": {}, "components": {"schemas": {}}, "later": []}
    return doc


def schemas_from(bp, work_out):
    """Schemas ``work_out()`` returns when the document is put together (the games' options:
    read off the engines, which are loaded only then)."""
    described(bp)["later"].append(work_out)


def schemas(bp, **named):
    """Component schemas ``bp``'s descriptions refer to (``ref(name)``)."""
    mine = described(bp)["components"]["schemas"]
    for name, schema in named.items():
        if name in mine:
            raise ValueError("%s describes the schema %r twice" % (bp.name, name))
        mine[name] = schema


def role_of(operation):
    """The role an operation's description asks for: "host", "player" or None (anyone)."""
    needs = [role for need in operation.get("security", ()) for role in need.get("device", ())]
    return needs[0] if needs else None


def route(bp, rule, description):
    """Register the decorated view on ``bp`` at ``rule`` for the one method ``description`` (a
    ``read`` or a ``write``) names, checked for the role it names, and keep the description. A
    change's view keeps the name of its body's schema (``request_schema``), for web_ui/helpers.py
    to hold the body to it."""
    (method, operation), = description.items()
    role = role_of(operation)
    path = _PARAMETER.sub(r"{\1}", (bp.url_prefix or "") + rule)

    def decorate(view):
        checked = view
        if role == "host":
            checked = security.require_role("host")(view)
        elif role is None and method != "get":
            checked = security.public(view)      # a change open to devices that haven't joined
        ops = described(bp)["paths"].setdefault(path, {})
        if method in ops:
            raise ValueError("%s describes %s %s twice" % (bp.name, method.upper(), path))
        ops[method] = operation
        body = operation.get("requestBody")
        if body is not None:
            checked.request_schema = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        bp.add_url_rule(rule, view_func=checked, methods=[method.upper()])
        return checked
    return decorate

