"""SQL text in one Python file: the call that hands it over (``SQL_CALLS``), the text itself (a
literal, an f-string, or a module's string constant not rebound in the function), and an access
to each table it names (``codemap.data.sql`` reads it)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Protocol

from groundkit.codemap.data import Access, Data
from groundkit.codemap.data.sql import MARKER, cited_line, looks_like_sql, read_sql
from groundkit.codemap.model import Location, NodeKey, Provenance

__all__ = ["SQL_CALLS", "Reader", "literal_text", "sql_call"]

if TYPE_CHECKING:
    from collections.abc import Mapping

# Calls that take SQL text first: DB-API cursors and connections, SQLAlchemy's ``text()`` and
# ``exec_driver_sql``, Django's ``raw()``, asyncpg's ``fetch*``, pandas' ``read_sql*`` (the text
# must read as SQL too).
SQL_CALLS = frozenset(
    {"execute", "executemany", "executescript", "exec_driver_sql", "text", "raw", "fetch"}
    | {"fetchrow", "fetchval", "read_sql", "read_sql_query"}
)


class Reader(Protocol):
    """What the SQL reading asks of a file's reader (``python._Reader``)."""

    path: str
    data: Data

    @property
    def strings(self) -> Mapping[str, str | None]: ...

    def owner(self, line: int) -> NodeKey: ...

    def line(self, number: int) -> str: ...


def sql_call(reader: Reader, node: ast.Call, first: ast.expr, scope: ast.AST) -> bool:
    """SQL text handed to the call: an access to each table it names (True: it was SQL)."""
    text = literal_text(first)
    if text is None and isinstance(first, ast.Name) and not _bound_in(scope, first.id):
        text = reader.strings.get(first.id)  # a module's constant, not shadowed here
    if text is None or not looks_like_sql(text):
        return False
    found = read_sql(text)
    if found.problem:
        reader.data.unresolved[found.problem] += 1
    caller = reader.owner(node.lineno)
    for table, mode in found.tables:
        end = first.end_lineno or first.lineno
        line = cited_line(reader.line, first.lineno, end, table)
        where = Location(reader.path, line, first.col_offset, end, first.end_col_offset or 0)
        quote = reader.line(line)
        reader.data.accesses.append(
            Access(caller, "table", table, mode, Provenance.SQL_TEXT, where, quote)
        )
    return True


def _bound_in(scope: ast.AST, name: str) -> bool:
    """Whether a function binds ``name`` itself (a parameter, an assignment, a loop)."""
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    args = scope.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    if any(a is not None and a.arg == name for a in params):
        return True
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in ast.walk(scope)
    )


def literal_text(node: ast.expr) -> str | None:
    """A string literal's text; an f-string's with each value as a parameter marker."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if not isinstance(node, ast.JoinedStr):
        return None
    pieces = [v.value if isinstance(v, ast.Constant) else MARKER for v in node.values]
    return "".join(str(p) for p in pieces)
