"""What a plug-in author installs: newsdesk ships typed and declares its pytest plug-in, so
`mypy --strict` and `pytest --newsdesk-game NAME` work from an installed newsdesk."""

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_distribution_ships_py_typed_and_declares_the_kits_pytest_plugin():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["controller"]
    assert (REPO / "controller" / "py.typed").is_file()
    assert project["project"]["entry-points"]["pytest11"] == {"newsdesk": "controller.pytest_plugin"}
