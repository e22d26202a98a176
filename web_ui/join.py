"""Joining the table: the host's invitations (QR codes), codes dialed on the phone, and the
host's list of devices.

    GET    /join                 the join page; ?token=... (what the QR code opens) joins
    GET    /join/host            the host's page: invite a player or a host, remove devices
    POST   /api/join/tokens      host: {"role": "player"|"host"} -> token, url, qr_svg, expiry
    POST   /api/join/dial        any device: a code for it to show and a player to dial
    GET    /api/join/dial        that code's status: waiting, joined, lapsed ...
    DELETE /api/join/dial        give the code up
    GET    /api/join/me          who this device is to the table
    POST   /api/join/name        a joined device names itself {"name": "Ann's phone"}
    POST   /api/join/leave       a device leaves the table
    GET    /api/devices          host: the joined and waiting devices (?all=1: past ones too)
    DELETE /api/devices/<id>     host: remove a device; its next change gets 401

The writes take a JSON object (or no body at all) and carry X-Newsdesk: 1 like every change;
Each JSON endpoint's description for /api/openapi.json is beside its view (the /join pages are HTML).
"""

import logging
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for
from werkzeug.http import HTTP_STATUS_CODES

from controller.devices import JoinRefused, UnknownDevice, describe_agent, invite_id, iso
from controller.errors import BadRequest

from .apidoc import BOOL, INT, STR, arr, nullable, obj, read, ref, route, schemas, write
from .errors import clipped
from .helpers import desk, request_object
from .security import SESSION_DEVICE, current_viewer, guard, is_loopback, split_host, wait_words

log = logging.getLogger(__name__)

bp = Blueprint("join", __name__, template_folder="templates")

# -- the OpenAPI description (each route's is beside its view) ----------------------------

_ISO = nullable(dict(STR, description="ISO 8601, UTC."))
_ROLE = {"enum": ["host", "player"]}
_BODY = dict(obj(), description="No fields: send {} or no body.")

schemas(
    bp,
    Device=obj(["id", "role", "name", "via", "address", "status", "created", "joined", "last_seen",
                   "revoked"], id=STR, role=_ROLE, name=STR, via={"enum": ["token", "dial"]}, address=STR,
                  status={"enum": ["waiting", "joined", "lapsed", "revoked"]}, created=_ISO, joined=_ISO,
                  last_seen=_ISO, revoked=_ISO, code=dict(STR, description="While waiting: the digits to dial."),
                  expires=_ISO),
    JoinTokenRequest=obj(role=dict(_ROLE, description="The role the link gives (default player).")),
    Invitation=obj(["status", "device"], status={"enum": ["waiting", "used", "expired"]},
                   device=nullable(dict(STR, description="The device that joined with it, once used."))),
    JoinToken=obj(["role", "token", "invite", "url", "qr_svg", "expires", "expires_in"], role=_ROLE, token=STR,
                     invite=dict(STR, description="The invitation's id, to ask after it (GET /api/join/tokens/{invite})."),
                     url=dict(STR, description="What the QR code opens: /join?token=..."),
                     qr_svg=dict(STR, description="The QR code as inline SVG."),
                     optional={"reachable": dict(BOOL, description="False when the panel listens on "
                                                 "loopback only, so the link can't be opened by another device."),
                               "warning": dict(nullable(STR), description="When not reachable: why, and "
                                               "how to open the panel to the network.")},
                     expires=STR,
                     expires_in=dict(INT, description="Seconds left.")),
    DialJoinRequest=_BODY,
    DialJoin=obj(["status"], status={"enum": ["none", "waiting", "joined", "lapsed", "revoked"]},
                    role=_ROLE, device=STR, code=dict(STR, description="The digits to dial."), expires=STR,
                    expires_in=dict(INT, description="Seconds left.")),
    Me=obj(["role", "loopback", "device", "why", "join"], role=nullable(_ROLE), loopback=BOOL,
              device=nullable(ref("Device")),
              why=nullable(dict(STR, description="Why this device's cookie no longer counts: revoked, "
                                                 "lapsed, waiting, unknown.")),
              join=dict(STR, description="The join page.")),
    NameRequest=obj(["name"], name=dict(STR, minLength=1, maxLength=60)),
    NamedDevice=obj(["device"], device=ref("Device")),
    LeaveRequest=_BODY,
    Left=obj(["left"], left=nullable(dict(STR, description="The device that left, if any."))),
    DeviceList=obj(["devices"], devices=arr(ref("Device"))),
    RevokedDevice=obj(["revoked"], revoked=ref("Device")),
)


def _error(status, message, **headers):
    response = jsonify(error=HTTP_STATUS_CODES.get(status, "Error"), message=clipped(message))
    response.status_code = status
    response.headers.update(headers)
    return response


def _address():
    return request.remote_addr or "unknown"


def _rate_limited():
    """None if this address may try to join now, else the seconds it must wait."""
    wait = guard().limiter.attempt(_address())
    return wait or None


def _seconds_left(expires):
    return max(0, int(expires - guard().now()))


def _sign_in(device):
    """This browser is now ``device`` (its earlier device, if any, is given up)."""
    old = session.get(SESSION_DEVICE)
    if old and old != device.id:
        previous = guard().devices.device(old)
        if previous is not None and previous.status == "joined":
            guard().devices.revoke(old)
        elif previous is not None and previous.status == "waiting":
            guard().devices.cancel(old)
    session[SESSION_DEVICE] = device.id
    session.permanent = True


def join_base_url():
    """Where the QR code sends a tablet: JOIN_BASE_URL, else this request's address, unless it
    is the box's own screen asking (localhost), when it's the box's LAN address."""
    configured = current_app.config["JOIN_BASE_URL"]
    if configured:
        return configured.rstrip("/")
    parsed = split_host(request.host)
    name, port = parsed if parsed else ("localhost", None)
    if name == "localhost" or is_loopback(name):
        address = guard().lan_address()
        name = "[%s]" % address if ":" in address else address
        port = port or desk().config["port"]
    elif ":" in name:
        name = "[%s]" % name
    default = 443 if request.scheme == "https" else 80
    return "%s://%s%s" % (request.scheme, name, "" if port in (None, default) else ":%d" % port)


def unreachable(url):
    """Why a tablet can't open ``url``, or None: the server listens on loopback only (on a laptop
    `newsdesk serve` binds 127.0.0.1 unless told otherwise) while the link names another address.
    The invitation then says so and how to open the panel to the network, rather than showing a
    QR code that leads nowhere (docs/security.md says why loopback stays the laptop default)."""
    listening = current_app.config.get("LISTEN_HOST")
    if not listening or not (listening == "localhost" or is_loopback(listening)):
        return None
    parsed = split_host(urlsplit(url).netloc)
    name = parsed[0] if parsed else ""
    if name == "localhost" or is_loopback(name.strip("[]")):
        return None
    return ("This panel listens on %s only, so a tablet that opens this link reaches nothing. To let "
            "devices on your network join, restart it with `make run ARGS=\"--host 0.0.0.0\"` "
            "(or host = \"0.0.0.0\" in config.toml, or NEWSDESK_HOST=0.0.0.0); joining still needs "
            "an invitation." % listening)


def qr_svg(url):
    """The QR code of ``url`` as an inline SVG: dark modules on white with a quiet zone."""
    import segno  # here, so a box without it still serves everything but the QR code
    return segno.make(url, error="m").svg_inline(border=4, dark="#000", light="#fff", omitsize=True,
                                                 title="QR code to join the table", svgclass="join-qr")


# -- pages -------------------------------------------------------------------------------


@bp.get("/join")
def page():
    token = request.args.get("token")
    if token is None:
        return render_template("join/index.html", refused=None)
    wait = _rate_limited()
    if wait:
        return render_template("join/index.html", refused="Too many tries to join from this device. "
                               "Try again in %s." % wait_words(wait)), 429, {"Retry-After": str(int(wait + 1))}
    try:
        device = guard().devices.redeem(token, describe_agent(request.user_agent.string), _address(),
                                        replace=session.get(SESSION_DEVICE))
    except JoinRefused as e:
        guard().limiter.failed(_address())
        status = 400 if e.reason == "unknown" else 410
        return render_template("join/index.html", refused=str(e)), status, {"Referrer-Policy": "no-referrer"}
    guard().limiter.succeeded(_address())
    _sign_in(device)
    # Off the address bar and out of the history's current entry: the token is spent anyway.
    response = redirect(url_for("join.page"), code=303)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/join/host")
def host_page():
    viewer = current_viewer()
    if viewer.role != "host":
        return render_template("join/host.html", devices=None), 403
    return render_template("join/host.html", devices=guard().devices.list())


# -- invitations -------------------------------------------------------------------------


@route(bp, "/api/join/tokens", write(
    "post", "Invite a device: a single-use join link and its QR code.", "JoinToken",
    op="makeJoinToken", request="JoinTokenRequest", body_required=False, ok="201", role="host"))
def make_token():
    data = request_object(allow_empty=True)
    if data is None:
        return _error(400, "Send a JSON object such as {\"role\": \"player\"}, with Content-Type: application/json.")
    role = data.get("role", "player")
    if role not in ("player", "host"):
        return _error(400, "role must be \"player\" or \"host\", got %r." % (role,))
    viewer = current_viewer()
    made_by = viewer.device.id if viewer.device is not None and viewer.device.active else "loopback"
    token, expires = guard().devices.issue_token(role, made_by, ttl=current_app.config["JOIN_TOKEN_TTL"])
    url = "%s%s?token=%s" % (join_base_url(), url_for("join.page"), token)
    warning = unreachable(url)
    return jsonify(role=role, token=token, invite=invite_id(token), url=url, qr_svg=qr_svg(url), reachable=warning is None,
                   warning=warning, expires=iso(expires), expires_in=_seconds_left(expires)), 201


@route(bp, "/api/join/tokens/<invite>", read(
    "An invitation as it stands: waiting, used (and by which device) or expired; the host's page asks, "
    "so a used QR code isn't shown as good.", "Invitation", ("404", "No invitation the host made has this id."),
    op="invitation", role="host", params=[{"name": "invite", "in": "path", "required": True, "schema": STR}]))
def invitation(invite):
    found = guard().devices.invitation(invite)
    if found is None:
        return _error(404, "There is no invitation %r here (they are kept a day after their use)." % invite[:40])
    status, device = found
    return jsonify(status=status, device=device)


# -- dialing in --------------------------------------------------------------------------


def _dial_status(device):
    if device is None:
        return {"status": "none"}
    out = {"status": device.status, "role": device.role, "device": device.id}
    if device.status == "waiting":
        out.update(code=device.code, expires=iso(device.expires), expires_in=_seconds_left(device.expires))
    return out


@route(bp, "/api/join/dial", write(
    "post", "Ask for a code to dial on the table's phone; dialing it joins this device.",
    "DialJoin", ("409", "This device has joined already, is the box's own screen, or too many "
                        "devices wait for their codes: the message says which."), "429",
    op="requestDialCode", request="DialJoinRequest", body_required=False, ok="201", role=None))
def request_dial():
    if request_object(allow_empty=True) is None:
        return _error(400, "Send {} (or no body) to ask for a code, with Content-Type: application/json.")
    viewer = current_viewer()
    if viewer.device is not None and viewer.device.active:
        return _error(409, "This device has already joined the table as %s." % viewer.device.role)
    if viewer.loopback:
        return _error(409, "This is the box's own screen: it is the host already and needs no code.")
    wait = _rate_limited()
    if wait:
        return _error(429, "Too many tries to join from this device. Try again in %s." % wait_words(wait),
                      **{"Retry-After": str(int(wait + 1))})
    waiting = viewer.device.id if viewer.device is not None and viewer.device.status == "waiting" else None
    try:
        device = guard().devices.request_dial(describe_agent(request.user_agent.string), _address(),
                                              replace=waiting, ttl=current_app.config["JOIN_DIAL_TTL"])
    except JoinRefused as e:
        return _error(409, str(e))
    session[SESSION_DEVICE] = device.id
    session.permanent = True
    return jsonify(_dial_status(device)), 201


@route(bp, "/api/join/dial", read("This device's code: waiting to be dialed, joined, lapsed ... or none.",
                                  "DialJoin", op="dialCodeStatus"))
def dial_status():
    return jsonify(_dial_status(guard().devices.device(session.get(SESSION_DEVICE))))


@route(bp, "/api/join/dial", write("delete", "Give this device's waiting code up.", "DialJoin", op="cancelDialCode",
                                   role=None))
def cancel_dial():
    device = guard().devices.device(session.get(SESSION_DEVICE))
    if device is not None and device.status == "waiting":
        guard().devices.cancel(device.id)
        session.pop(SESSION_DEVICE, None)
    return jsonify(status="none")


# -- this device -------------------------------------------------------------------------


@route(bp, "/api/join/me", read("Who this device is to the table: its role and device.", "Me", op="me"))
def me():
    viewer = current_viewer()
    return jsonify(role=viewer.role, loopback=viewer.loopback,
                   device=viewer.device.as_dict() if viewer.device is not None else None,
                   why=viewer.why, join=url_for("join.page"))


@route(bp, "/api/join/name", write(
    "post", "Name this device, as the host's list shows it.", "NamedDevice",
    ("409", "The box's own screen isn't a device; there is nothing to name."), op="nameDevice",
    request="NameRequest"))
def rename():
    viewer = current_viewer()
    if viewer.device is None or not viewer.device.active:
        return _error(409, "The box's own screen is the host without being a device; there's nothing to name.")
    data = request_object(allow_empty=True)
    if data is None:
        return _error(400, "Send a JSON object such as {\"name\": \"Ann's phone\"}.")
    try:
        device = guard().devices.rename(viewer.device.id, data.get("name"))
    except BadRequest as e:
        return _error(400, "%s%s." % (str(e)[:1].upper(), str(e)[1:]))
    return jsonify(device=device.as_dict())


@route(bp, "/api/join/leave", write(
    "post", "This device leaves the table (or gives up its waiting code).", "Left", op="leave",
    request="LeaveRequest", body_required=False, role=None))
def leave():
    if request_object(allow_empty=True) is None:
        return _error(400, "Send {} (or no body) to leave, with Content-Type: application/json.")
    device = guard().devices.device(session.get(SESSION_DEVICE))
    if device is not None and device.status == "joined":
        guard().devices.revoke(device.id)
    elif device is not None and device.status == "waiting":
        guard().devices.cancel(device.id)
    session.pop(SESSION_DEVICE, None)
    return jsonify(left=device.id if device is not None else None)


# -- the host's list ---------------------------------------------------------------------


@route(bp, "/api/devices", read(
    "The host's list: joined and waiting devices, newest first.", "DeviceList", op="devices", role="host",
    params=[{"name": "all", "in": "query", "required": False, "schema": {"enum": ["1", "true", "yes"]},
             "description": "Past devices too (removed, lapsed)."}]))
def list_devices():
    include_past = request.args.get("all") in ("1", "true", "yes")
    return jsonify(devices=[d.as_dict() for d in guard().devices.list(include_past=include_past)])


@route(bp, "/api/devices/<device_id>", write(
    "delete", "Remove a device from the table; its next change is refused (401).", "RevokedDevice",
    ("404", "No device has this id; GET /api/devices lists them."), op="removeDevice",
    role="host", params=[{"name": "device_id", "in": "path", "required": True, "schema": STR}]))
def revoke_device(device_id):
    try:
        device = guard().devices.revoke(device_id)
    except UnknownDevice as e:
        return _error(404, str(e))
    log.info("device %s (%s) removed by the host", device.id, device.name)
    return jsonify(revoked=device.as_dict())
