"""The games newsdesk can keep, by name, each imported only when it is asked for.

Importing lazily means one engine that is missing or broken makes that game unavailable, with
a message saying which and why, instead of stopping the whole panel at start-up.
"""

import importlib
from typing import TYPE_CHECKING

from ..errors import BadRequest, NewsdeskError
from . import base

# name -> the module under controller.games that holds it, in the order the panel lists them
ENGINES = {
    "scoop1956": "scoop1956",
    "star_reporter": "star_reporter",
    "scoop2002": "scoop2002",
    "scan": "scan",
    "get_the_scoop": "get_the_scoop",
}

INTERFACE = base.INTERFACE

if TYPE_CHECKING:     # mypy checks every engine module against the Engine protocol
    from . import get_the_scoop, scan, scoop1956, scoop2002, star_reporter
    _scoop1956: base.Engine = scoop1956
    _star_reporter: base.Engine = star_reporter
    _scoop2002: base.Engine = scoop2002
    _scan: base.Engine = scan
    _get_the_scoop: base.Engine = get_the_scoop


class EngineUnavailable(NewsdeskError, RuntimeError):
    """A listed game's engine can't be imported or doesn't have the engine interface."""

    status = 409      # the game can't go on here: abandon it, or start another


def names():
    return tuple(ENGINES)


def load(name):
    """The engine for game ``name``: its module, with EngineBase's defaults for the optional
    parts it leaves out (base.Loaded), so no caller asks whether it has them.

    Raises BadRequest for a name that isn't listed, EngineUnavailable for a listed one whose
    module is missing, fails to import, or lacks part of the interface (see games/base.py).
    """
    if name not in ENGINES:
        raise BadRequest("there is no game called %r; the games are %s" % (name, ", ".join(ENGINES)))
    path = "%s.%s" % (__package__, ENGINES[name])
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name == path:
            raise EngineUnavailable("the %s game is listed but its engine (%s) is not installed; "
                                    "update newsdesk or pick another game" % (name, path)) from None
        raise EngineUnavailable("the %s game's engine needs %s, which is not installed"
                                % (name, e.name)) from None
    except Exception as e:
        raise EngineUnavailable("the %s game's engine (%s) fails to load: %s: %s"
                                % (name, path, type(e).__name__, e)) from None
    missing = [attr for attr in INTERFACE if not hasattr(module, attr)]
    if missing:
        raise EngineUnavailable("the %s game's engine (%s) lacks %s, so it can't be played"
                                % (name, path, ", ".join(missing)))
    if module.NAME != name:
        raise EngineUnavailable("the %s game's engine (%s) calls itself %r; its NAME must be %r"
                                % (name, path, module.NAME, name))
    return base.loaded(module)


def catalogue():
    """Every listed game for the panel's "new game" list: name, title, variants, its declared
    options and panel facts (games/base.py), and whether it can be played now (with the reason
    when it can't)."""
    out = []
    for name in ENGINES:
        try:
            module = load(name)
        except EngineUnavailable as e:
            out.append({"name": name, "title": name, "variants": {}, "available": False, "problem": str(e),
                        "options": [], "panel": base.panel(None)})
        else:
            out.append({"name": name, "title": module.TITLE, "variants": dict(module.VARIANTS),
                        "available": True, "problem": None,
                        "options": [dict(o) for o in module.OPTIONS],
                        "panel": base.panel(module)})
    return out
