"""The tables SQL text reads and writes, from a maintained SQL parser (sqlglot), never a
pattern over the text.

Only text that starts as a statement does (``SELECT``, ``INSERT``, ``UPDATE``, ``DELETE``,
``WITH``, DDL, after comments) is SQL to this module: ``cursor.execute(task)`` on a string that is
not SQL is nobody's business here. A statement's kind says the mode: the table an ``INSERT``,
``UPDATE``, ``DELETE``, ``MERGE`` or DDL statement names as its target is written, every other
table in it (joins, subqueries, the source of ``INSERT ... SELECT``) read; a ``SELECT`` reads them
all; a common table expression's name is no table. A part known only at run time (a template
field, an f-string's value) stands in as a parameter marker: where it names a table, that table
is not known and the text counts as such. Text the parser does not read (a dialect's own form)
is counted, not guessed.

``INSERT INTO t SET ?`` (and ``UPDATE t SET ? WHERE ...``) is read only for the Node.js MySQL
clients (mysql, mysql2), which document that a ``?`` given an object expands to ``key = value``
pairs: the marker after ``SET`` (found by sqlglot's MySQL tokenizer) stands for one such pair
and the text is then parsed as MySQL.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

__all__ = ["MARKER", "SqlRead", "cited_line", "looks_like_sql", "read_sql"]

_START = re.compile(
    r"\A\s*(?:(?:--[^\n]*(?:\n|\Z)|/\*.*?\*/)\s*)*"
    r"(?:select|insert|update|delete|with|replace|merge|create|drop|alter|truncate)\b",
    re.IGNORECASE | re.DOTALL,
)
# Parameter markers the generic dialect does not read: psycopg's and pyformat's (``%s``,
# ``%(name)s``, read as the modulo operator) and SQLite's numbered ones (``?1``).
_MARKERS = re.compile(r"%(?:\([A-Za-z_]\w*\))?s|\?\d+")
# The marker a part known only at run time stands for.
MARKER = "?"


@dataclass(frozen=True, slots=True)
class SqlRead:
    """What one SQL text touches: ``(table, mode)`` pairs in order, or ``problem`` saying why
    the text gives none (it does not parse; a table is named at run time)."""

    tables: tuple[tuple[str, str], ...] = ()
    problem: str = ""


def looks_like_sql(text: str) -> bool:
    return _START.match(text) is not None


def read_sql(text: str, objects: bool = False) -> SqlRead:
    """The tables ``text`` reads and writes (``read``/``write``), or why none are known;
    ``objects``: the client expands ``SET ?`` given an object (Node.js mysql, mysql2)."""
    import sqlglot  # lazily: a repository without SQL text never pays for the import
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    _quiet_parser()
    found: dict[str, str] = {}
    text = _MARKERS.sub(MARKER, text)
    expanded = _objects_expanded(text) if objects else None
    try:
        if expanded is not None:
            statements = sqlglot.parse(expanded, read="mysql")
        else:
            statements = sqlglot.parse(text)
        for statement in statements:
            if statement is None:
                continue
            if isinstance(statement, exp.Command):  # the parser's fallback: not read
                return SqlRead(problem="SQL text that does not parse")
            problem = _statement(statement, exp, found)
            if problem:
                return SqlRead(problem=problem)
    except SqlglotError:
        return SqlRead(problem="SQL text that does not parse")
    except RecursionError:  # the parser and its tree walks recurse: hostile nesting ends here
        return SqlRead(problem="SQL text nested too deeply to read")
    return SqlRead(tuple(found.items()))


@cache
def _quiet_parser() -> None:
    """sqlglot logs a warning for each statement it reads only as a ``Command`` (SQLite's
    ``CREATE VIRTUAL TABLE``): here that is counted, and the warning would reach the terminal of
    whoever runs ``grk map`` (no handler is set up, so Python prints it to stderr)."""
    logging.getLogger("sqlglot").setLevel(logging.ERROR)


def _objects_expanded(text: str) -> str | None:
    """``text`` with each ``SET ?`` as the client expands it (``SET k = ?``), or None when it
    has none (or does not tokenize)."""
    from sqlglot import TokenType
    from sqlglot.dialects.mysql import MySQL
    from sqlglot.errors import SqlglotError

    try:
        tokens = MySQL().tokenize(text)
    except SqlglotError:
        return None
    markers = [
        after
        for before, after in pairwise(tokens)
        if before.token_type == TokenType.SET and after.token_type == TokenType.PLACEHOLDER
    ]
    for marker in reversed(markers):
        text = f"{text[: marker.start]}k = ?{text[marker.end + 1 :]}"
    return text if markers else None


# What DROP removes that holds rows (DROP INDEX, CONSTRAINT, COLUMN or SCHEMA names no table).
_DROPPED_TABLES = frozenset({"TABLE", "VIEW"})


def _statement(statement: Any, exp: Any, found: dict[str, str]) -> str:
    ctes = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    written = {id(t) for t in _targets(statement, exp)}
    # sqlglot parses the name in DROP CONSTRAINT c / DROP INDEX i as a Table: not a table
    named = {
        id(t)
        for drop in statement.find_all(exp.Drop)
        if str(drop.args.get("kind") or "").upper() not in _DROPPED_TABLES
        for t in drop.args.get("tables") or []
    }
    for table in statement.find_all(exp.Table):
        if id(table) in named:
            continue
        if not isinstance(table.this, exp.Identifier):
            if isinstance(table.this, exp.Placeholder | exp.Parameter):
                return "SQL text naming a table at run time"
            continue  # a table function (``generate_series(...)``): no table
        name = ".".join(p for p in (table.db, table.name) if p)
        if not name or (not table.db and name in ctes):
            continue
        mode = "write" if id(table) in written else "read"
        if found.get(name) != "write":
            found[name] = mode
    return ""


def _targets(statement: Any, exp: Any) -> list[Any]:
    """The tables a writing statement writes (none for a query)."""
    if isinstance(statement, exp.Drop):
        kind = str(statement.args.get("kind") or "").upper()
        return list(statement.args.get("tables") or []) if kind in _DROPPED_TABLES else []
    if isinstance(statement, exp.TruncateTable):
        return list(statement.expressions)
    writes = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Alter)
    if not isinstance(statement, writes):
        return []
    target = statement.this
    if isinstance(target, exp.Schema):  # INSERT INTO t (a, b) / CREATE TABLE t (...)
        target = target.this
    if isinstance(target, exp.Index):  # CREATE INDEX i ON t (...)
        target = target.args.get("table")
    return [target] if isinstance(target, exp.Table) else []


def cited_line(line: Callable[[int], str], start: int, end: int, table: str) -> int:
    """The line between ``start`` and ``end`` that names ``table`` (a statement split over
    lines is cited where its table is), else ``start``."""
    word = re.compile(rf"(?<![\w.]){re.escape(table.rpartition('.')[2])}(?!\w)", re.IGNORECASE)
    return next((n for n in range(start, end + 1) if word.search(line(n))), start)
