"""A database's shape (its tables and their columns) against the shape newsdesk's own schema makes.

SQLite's integrity check says whether a file is a sound database, not whether it is newsdesk's:
any SQLite file stamped with the right user_version passes it, and then the first query for a
table it lacks fails deep inside the panel. So a store (or the devices file) about to be
restored or opened is compared with the shape its schema statements make, run on an empty
database in memory: the statements stay the one home of the schema, and no list of tables is
kept twice. Only tables and columns are compared (name, declared type, NOT NULL, primary key);
SQLite's own tables (sqlite_sequence ...) are left out.
"""

import sqlite3
from collections.abc import Iterable

Column = tuple[str, str, bool, bool]        # name, declared type, NOT NULL, part of the primary key
Shape = dict[str, tuple[Column, ...]]       # table -> its columns in order


def shape_of(db: sqlite3.Connection) -> Shape:
    """The tables of the open database ``db`` and their columns (sqlite3.Error if it can't be read)."""
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")]
    return {t: tuple((r[1], str(r[2]).upper(), bool(r[3]), bool(r[5]))
                     for r in db.execute("PRAGMA table_info(\"%s\")" % t.replace('"', '""')))
            for t in tables}


def made_by(statements: Iterable[str]) -> Shape:
    """The shape ``statements`` (a schema's CREATE statements) make in an empty database."""
    db = sqlite3.connect(":memory:")
    try:
        for statement in statements:
            db.execute(statement)
        return shape_of(db)
    finally:
        db.close()


def _listed(names: Iterable[str]) -> str:
    names = sorted(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def difference(found: Shape, expected: Shape) -> str | None:
    """What sets ``found`` apart from ``expected``, in words ("it has no table events"), or None
    when they are the same shape."""
    missing = set(expected) - set(found)
    if missing:
        return "it has no table%s %s" % ("" if len(missing) == 1 else "s", _listed(missing))
    extra = set(found) - set(expected)
    if extra:
        return "it has table%s newsdesk doesn't make (%s)" % ("" if len(extra) == 1 else "s", _listed(extra))
    for table in sorted(expected):
        if found[table] != expected[table]:
            theirs = {c[0]: c for c in found[table]}
            ours = {c[0]: c for c in expected[table]}
            if set(ours) - set(theirs):
                return "its table %s has no column %s" % (table, _listed(set(ours) - set(theirs)))
            if set(theirs) - set(ours):
                return "its table %s has columns newsdesk doesn't make (%s)" % (table, _listed(set(theirs) - set(ours)))
            changed = [name for name in ours if ours[name] != theirs[name]]
            if changed:
                return "its table %s declares the column %s otherwise" % (table, _listed(changed))
            return "its table %s has its columns in another order" % table
    return None
