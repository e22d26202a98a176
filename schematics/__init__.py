"""The box's circuits, derived from hardware/pinmap.toml and hardware/parts.toml: the netlist
model (circuit), the electrical rules (erc), drawings (draw), KiCad netlists (netlist) and the
bill of materials (bom). `python -m schematics.generate` writes them all; the tests check that
what is checked in still matches the pin map."""
