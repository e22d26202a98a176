"""A database's shape (its tables and their columns) against the shape newsdesk's own schema makes.

SQLite's integrity check says whether a file is a sound database, not whether it is newsdesk's:
any SQLite file stamped with the right user_version passes it, and then the first query for a
table it lacks fails deep inside the panel. So a store (or the devices file) about to be
restored or opened is compared with the shape its schema statements make, run on an empty
database in memory: the statements stay the one home of the schema, and no list of tables is
kept twice. Tables are compared by their columns (name, declared type, NOT NULL, primary key);
every other object (an index, a trigger, a view) by its table and its statement, so a file that
carries one newsdesk doesn't make is refused: a trigger runs on the box's own writes (one that
deletes the kept games, or aborts every move), a view or an index can stand where a migration
makes its own. SQLite's own objects (the sqlite_sequence and sqlite_stat tables, and the
sqlite_autoindex_... indexes, which have no statement) are left out, and only those: SQLite
loads a trigger or a view whatever it is called, so one named sqlite_... is compared like any.
"""

import sqlite3
from collections.abc import Iterable
from typing import Any

from .printable import escaped

Column = tuple[str, str, bool, bool]        # name, declared type, NOT NULL, part of the primary key
# table name -> its columns in order; (kind, name) -> (its table, its statement) for an index, a trigger, a view
Shape = dict[Any, tuple[Any, ...]]


def shape_of(db: sqlite3.Connection) -> Shape:
    """The tables of the open database ``db`` with their columns, and its other objects with
    their statements, spaces folded (sqlite3.Error if it can't be read). A table's columns are
    its hidden ones too (table_xinfo): a generated column, which table_info leaves out, is worked
    out for every row by SQLite's integrity check, and its expression is the file's to choose."""
    shape: Shape = {}
    for kind, name, table, sql in db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE NOT ("
            "(type = 'table' AND name IN ('sqlite_sequence', 'sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3', "
            "'sqlite_stat4')) OR (type = 'index' AND sql IS NULL AND name LIKE 'sqlite\\_autoindex\\_%' "
            "ESCAPE '\\')) ORDER BY type, name").fetchall():
        if kind == "table":
            shape[name] = tuple((r[1], str(r[2]).upper(), bool(r[3]), bool(r[5]))
                                for r in db.execute("PRAGMA table_xinfo(\"%s\")" % name.replace('"', '""')))
        else:
            shape[(kind, name)] = (table, " ".join(str(sql or "").split()))
    return shape


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
    """The names, escaped (a stranger's file names its tables: see printable), as a list in words."""
    names = sorted(escaped(name) for name in names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def difference(found: Shape, expected: Shape) -> str | None:
    """What sets ``found`` apart from ``expected``, in words ("it has no table events"), or None
    when they are the same shape: the tables first, then the other objects."""
    problem = _tables_difference({k: v for k, v in found.items() if isinstance(k, str)},
                                 {k: v for k, v in expected.items() if isinstance(k, str)})
    if problem:
        return problem
    theirs = {k: v for k, v in found.items() if not isinstance(k, str)}
    ours = {k: v for k, v in expected.items() if not isinstance(k, str)}
    extra = sorted(set(theirs) - set(ours))
    if extra:
        return "it has %s newsdesk doesn't make" % _listed("%s %s" % k for k in extra)
    missing = sorted(set(ours) - set(theirs))
    if missing:
        return "it has no %s" % _listed("%s %s" % k for k in missing)
    changed = sorted(k for k in ours if ours[k] != theirs[k])
    if changed:
        return "its %s %s made otherwise" % (_listed("%s %s" % k for k in changed), "is" if len(changed) == 1 else "are")
    return None


def _tables_difference(found: Shape, expected: Shape) -> str | None:
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
