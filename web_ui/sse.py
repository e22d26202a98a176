"""The Server-Sent Events wire format of the live feed (/stream, web_ui/live.py), written once.

A stored event goes out with an ``id:`` line, so a page that reconnects names the last one it had
(the browser sends it as Last-Event-ID); every message is one ``data:`` line of JSON.
"""

from . import safejson

RETRY = b"retry: 2000\n\n"         # a page whose stream dropped asks again after 2 s
KEEPALIVE = b": keepalive\n\n"     # a comment: keeps a quiet connection from being closed as idle


def frame(message):
    """One message of the feed as it goes on the wire (text): its id line when it was stored,
    then its data line."""
    lines = []
    if message.get("id") is not None:
        lines.append("id: %d" % message["id"])
    lines.append("data: " + safejson.dumps(message, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"
