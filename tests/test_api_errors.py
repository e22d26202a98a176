"""Every error as the API document says: each endpoint is sent a malformed path (encoded slashes,
a NUL, a number past any id), malformed query parameters and malformed bodies (each field of its
request swapped for the wrong type, bodies that are not JSON objects), and every answer must be a
status the document lists for that operation, in the content type it gives (the Error object, as
JSON). tests/test_openapi.py fuzzes the same document at random; this walks every operation the
same way every run."""

import json

import pytest
from conftest import wait_for

from web_ui import openapi

# each request waits on the real server: the waiting lane (tests/lanes.py)
pytestmark = pytest.mark.waits

PATH_JUNK = ["%2Fx", "x%2F..%2Fy", "%2F", "..", "%00", "9" * 30, "-1", "%E2%98%83", "a%20b"]
QUERY_JUNK = ["abc", "-1", "1e9", "%00", "[]", "", "9" * 30, "%2F"]
FIELD_JUNK = [[], ["bell"], {}, {"a": 1}, None, True, -1, 10 ** 30, 0.5, "x" * 5000, ""]
RAW_JUNK = [b"[1]", b"null", b"{", b"\xff\xfe{}", b'"text"', b"1e99999", b"[" * 5000 + b"]" * 5000]
LIVE = {"/stream"}      # answers with a stream that never ends when the request is good


def operations(doc):
    for path, ops in sorted(doc["paths"].items()):
        for method, op in sorted(ops.items()):
            yield path, method, op


def params(op, doc, where):
    out = []
    for p in op.get("parameters", ()):
        if "$ref" in p:
            p = doc["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]
        if p["in"] == where:
            out.append(p)
    return out


def schema_of(schema, doc):
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def fill(path, value="1"):
    """The path with every parameter set to ``value``."""
    out = path
    while "{" in out:
        start = out.index("{")
        out = out[:start] + value + out[out.index("}", start) + 1:]
    return out


def requests_for(path, method, op, doc):
    """(url, body) pairs: the malformed requests this operation is sent."""
    headers = {p["name"]: p["schema"]["enum"][0] for p in params(op, doc, "header") if p.get("required")}
    for junk in PATH_JUNK:
        if "{" in path:
            yield fill(path, junk), None, headers
    for p in params(op, doc, "query"):
        for junk in QUERY_JUNK:
            yield "%s?%s=%s" % (fill(path), p["name"], junk), None, headers
    if "requestBody" in op:
        for raw in RAW_JUNK:
            yield fill(path), raw, headers
        schema = schema_of(op["requestBody"]["content"]["application/json"]["schema"], doc)
        for field in schema.get("properties", {}):
            for junk in FIELD_JUNK:
                yield fill(path), json.dumps({field: junk}).encode(), headers


@pytest.fixture
def dialed_box(desk, client):
    """A box with one digit dialed on the virtual phone: the Workbench then has something to keep,
    and an endpoint that reads it gets past its first refusal."""
    desk.sim_phone.dial(0)
    desk.sim_phone.idle()
    assert wait_for(lambda: client.get("/api/workbench").get_json()["digits"], timeout=10)
    return client


@pytest.mark.slow
def test_every_endpoint_answers_malformed_requests_as_the_document_says(app, dialed_box):
    client = dialed_box
    doc = openapi.document(app)
    wrong = []
    sent = 0
    for path, method, op in operations(doc):
        documented = set(op["responses"])
        for url, body, headers in requests_for(path, method, op, doc):
            if path in LIVE and body is None and "?" not in url:
                continue
            kwargs = dict(headers=headers, buffered=path not in LIVE)
            if body is not None:
                kwargs.update(data=body, content_type="application/json")
            r = client.open(url, method=method.upper(), **kwargs)
            if path in LIVE:
                if r.status_code < 400:     # a stream that would never end: its status is enough
                    r.close()
                    continue
                r.get_data()
            sent += 1
            said = "%s %s %r -> %d %s %r" % (method.upper(), url, (body or b"")[:60], r.status_code, r.mimetype,
                                             r.data[:160])
            if str(r.status_code) not in documented:
                wrong.append("undocumented status: " + said)
            elif r.status_code >= 400:
                answer = r.get_json(silent=True) if r.mimetype == "application/json" else None
                if not (isinstance(answer, dict) and answer.get("error") and answer.get("message")):
                    wrong.append("not the document's Error object: " + said)
    assert sent > 500
    assert not wrong, "\n".join(wrong[:40])
