"""The bill of materials: the circuit's parts counted by kind and value, plus the kit that
isn't on a schematic (SD card, power supply, the phone), priced from hardware/parts.toml."""

import csv
import io

COLUMNS = ("refs", "quantity", "value", "description", "part_number", "each_usd", "total_usd")


def resistor_code(ohms):
    """Ohms in the letter-for-decimal-point form part numbers use: 330R, 1K, 4K7, 10K."""
    for divisor, letter in ((1_000_000, "M"), (1000, "K"), (1, "R")):
        if ohms >= divisor:
            scaled = ohms / divisor
            whole = int(scaled)
            tenth = int(round((scaled - whole) * 10))
            return "%d%s%s" % (whole, letter, tenth or "")
    return "%gR" % ohms


def ohms_text(ohms):
    return "%g kΩ" % (ohms / 1000) if ohms >= 1000 else "%g Ω" % ohms


def part_number(data, part, amps=None):
    """The part's number with its value (and for the bell's adapter, its rated current) filled in."""
    value = resistor_code(part.value) if part.kind == "resistor" else part.value
    return data["number"].format(value=value, colour=part.value, amps=amps or 0)


def value_text(part):
    if part.role == "board":
        return ""
    if part.kind == "resistor":
        return ohms_text(part.value)
    if part.kind == "display":
        return "I2C %s" % part.value
    return str(part.value or "")


class Row:
    __slots__ = ("refs", "quantity", "value", "description", "number", "each")

    def __init__(self, refs, quantity, value, description, number, each):
        self.refs = refs
        self.quantity = quantity
        self.value = value
        self.description = description
        self.number = number
        self.each = each

    @property
    def total(self):
        return self.quantity * self.each


def rows(circuit):
    """Bought parts grouped by kind and value, in the order they first appear; then the kit."""
    parts = circuit.parts_data
    groups = {}
    for part in circuit.parts:
        data = parts.part(part.kind)
        if not data.get("bought", True):
            continue
        key = (part.kind, str(part.value))
        if key not in groups:
            groups[key] = Row([], 0, value_text(part), data["description"],
                              part_number(data, part, parts.bell.get("supply_a")), float(data["price"]))
        groups[key].refs.append(part.ref)
        groups[key].quantity += 1
        if data.get("adapter"):
            # a surface-mount part's adapter board: a line of its own, with the same refs
            extra = groups.setdefault((part.kind, str(part.value), "adapter"), Row(
                [], 0, "", data["adapter"], data.get("adapter_number", ""), float(data.get("adapter_price", 0))))
            extra.refs.append(part.ref)
            extra.quantity += 1
    out = list(groups.values())
    for item in parts.kit:
        if item["build"] == circuit.board:
            out.append(Row([], int(item["quantity"]), "", item["part"], item["number"], float(item["price"])))
    return out


def total(rows_):
    return sum(r.total for r in rows_)


def bom_csv(circuit):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    found = rows(circuit)
    for r in found:
        writer.writerow((" ".join(r.refs), r.quantity, r.value, r.description, r.number,
                         "%.2f" % r.each, "%.2f" % r.total))
    writer.writerow(("TOTAL", sum(r.quantity for r in found), "", "", "", "", "%.2f" % total(found)))
    return buf.getvalue().encode("utf-8")


def _cell(text):
    return str(text).replace("|", "\\|")


def bom_markdown(circuit):
    found = rows(circuit)
    lines = ["| refs | qty | value | part | a common part number | each (USD) | total (USD) |",
             "| --- | ---: | --- | --- | --- | ---: | ---: |"]
    for r in found:
        lines.append("| %s | %d | %s | %s | %s | %.2f | %.2f |" % (
            _cell(" ".join(r.refs)), r.quantity, _cell(r.value), _cell(r.description), _cell(r.number),
            r.each, r.total))
    lines.append("| **total** | | | | | | **%.2f** |" % total(found))
    return "\n".join(lines) + "\n"
