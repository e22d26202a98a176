"""A request body's fields, held to the schema the API document gives it.

The document (web_ui/openapi.py) says ``additionalProperties: false`` of every request body but a
move's own fields, and so promises a field it doesn't name is refused: a field the box would drop
unread is most often a typo ("verison") that would otherwise fail in silence, and a client written
from the document expects the refusal. web_ui/helpers.py's ``request_object`` asks here for each
write whose description names its body's schema (apidoc.route keeps the name on the view).
"""


def stray_field(value, schema, schemas, where=""):
    """The first field of ``value`` (a request's parsed JSON) that ``schema`` (the document's
    subset: $ref, anyOf, object, array) has no place for where it says ``additionalProperties:
    false``, as (its path, like "players[0].nick", the names taken there), or None. Only the
    names are looked at: each view says what is wrong with a value in its own sentence. Under
    anyOf, a value passes if a branch of its kind (an object's, an array's) takes all its fields;
    if none does, the finding told is the one branch's whose required fields the value has (the
    dice's {"dice": ...} beside {"next": true}). When that leaves more than one (a game's options,
    one object per game), the view says which applies and what it takes (the engine's own
    sentence), not a guess here."""
    findings = []
    for branch in _branches(schema, schemas):
        found = _stray_in(value, branch, schemas, where)
        if found is None:
            return None
        if found is not _OTHER_KIND:
            findings.append((found, isinstance(value, dict) and set(branch.get("required", ())) <= value.keys()))
    if len(findings) > 1:
        findings = [f for f in findings if f[1]]
    return findings[0][0] if len(findings) == 1 else None


_OTHER_KIND: tuple[str, list[str]] = ("", [])     # a branch for another kind of value (null beside an object): no finding of its own


def _branches(schema, schemas):
    while "$ref" in schema:
        schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:
        return [b for option in schema["anyOf"] for b in _branches(option, schemas)]
    return [schema]


def _stray_in(value, schema, schemas, where):
    kind = schema.get("type")
    if kind is not None and (isinstance(value, dict) != (kind == "object") or isinstance(value, list) != (kind == "array")):
        return _OTHER_KIND
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key, item in value.items():
            path = "%s.%s" % (where, key) if where else key
            if key not in props:
                if schema.get("additionalProperties", True) is False:
                    return path, sorted(props)
                continue
            found = stray_field(item, props[key], schemas, path)
            if found:
                return found
    elif isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found = stray_field(item, schema["items"], schemas, "%s[%d]" % (where, i))
            if found:
                return found
    return None


def stray_sentence(found):
    """What a 400 says of ``stray_field``'s finding (the field as repr: a name sent may hold
    anything, and the sentence shows no unseen characters)."""
    path, names = found
    where, _, _ = path.rpartition(".")
    if len(path) > 80:
        path = path[:80] + "..."
    takes = "no fields" if not names else "only " + (names[0] if len(names) == 1 else
                                                     ", ".join(names[:-1]) + " and " + names[-1])
    return ("This request takes no field %r: %s takes %s. Leave it out (a misspelt name is the usual cause)."
            % (path, "its body" if not where else repr(where if len(where) <= 80 else where[:80] + "..."), takes))
