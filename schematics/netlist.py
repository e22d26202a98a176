"""A KiCad netlist (the S-expression "export" format, version E) of a circuit, for laying the
board out in KiCad's PCB editor: components with their footprints, and every net's pads.
No dates or time stamps, so regenerating it gives the same bytes."""

from .bom import part_number


def _q(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def _value(part):
    if part.kind == "resistor":
        return str(part.value)
    return str(part.value) if part.value not in ("", None) else part.kind


def netlist(circuit, source="hardware/pinmap.toml"):
    parts = circuit.parts_data
    out = ["(export (version \"E\")",
           "  (design",
           "    (source %s)" % _q(source),
           "    (tool \"newsdesk schematics.generate\")",
           "    (sheet (number \"1\") (name \"/\") (tstamps \"/\")",
           "      (title_block (title %s))))" % _q("newsdesk, %s" % circuit.limits["title"]),
           "  (components"]
    for part in circuit.parts:
        data = parts.part(part.kind)
        out.append("    (comp (ref %s)" % _q(part.ref))
        out.append("      (value %s)" % _q(_value(part)))
        if data.get("footprint"):
            out.append("      (footprint %s)" % _q(data["footprint"]))
        out.append("      (description %s)" % _q(data["description"]))
        out.append("      (fields (field (name \"Part number\") %s)" % _q(part_number(data, part)))
        out.append("        (field (name \"Line\") %s))" % _q(part.line or ""))
        out.append("      (libsource (lib \"newsdesk\") (part %s) (description %s))"
                   % (_q(part.kind), _q(data["description"])))
        out.append("      (sheetpath (names \"/\") (tstamps \"/\")))")
    out.append("  )")
    out.append("  (nets")
    for code, (net, members) in enumerate(circuit.nets().items(), start=1):
        out.append("    (net (code %s) (name %s)" % (_q(code), _q(net)))
        for ref, pin in members:
            pads = parts.part(_kind_of(circuit, ref)).get("pads", {})
            out.append("      (node (ref %s) (pin %s))" % (_q(ref), _q(pads.get(pin, pin))))
        out[-1] += ")"
    out.append("  ))")
    return ("\n".join(out) + "\n").encode("utf-8")


def _kind_of(circuit, ref):
    return next(p.kind for p in circuit.parts if p.ref == ref)
