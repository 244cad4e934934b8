"""SQL run from a file the app ships: ``with current_app.open_resource("schema.sql") as f:
db.executescript(f.read().decode("utf8"))`` (Flask's tutorial) reads and writes the tables of
that file's SQL, drawn from the function with the call as evidence (``sql-text``).

Flask's ``open_resource`` opens a path relative to the app's ``root_path``, which for
``Flask(__name__)`` is the folder of the module or package that makes the app. The path is
resolved only when that folder is plain to see: the calling file's own folder, where the file
itself or the folder's ``__init__.py`` makes ``Flask(__name__)``; the file must be in the
repository. Anything else (another app, a computed path, a file not there or too large) is
counted, never guessed.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING

from groundkit.codemap.data import Access
from groundkit.codemap.data.sql import read_sql
from groundkit.codemap.model import Provenance

if TYPE_CHECKING:
    from groundkit.codemap.data.python import _Reader

__all__ = ["ReadFile", "resource_sql"]

ReadFile = Callable[[str], str | None]  # a repository file's text by its path, or None
_MAX_BYTES = 256 * 1024  # a schema, not a data dump: sqlglot takes seconds on megabytes


def resource_sql(reader: _Reader, call: ast.Call, scope: ast.AST) -> bool:
    """``call`` runs the SQL of a resource file (True: it was such a call)."""
    opened = _opened(scope, _read_of(call.args[0]))
    read_file = reader.read_file
    if opened is None or read_file is None:
        return False
    data = reader.data
    folder = posixpath.dirname(reader.path)
    if not (_makes_app(reader.tree) or _makes_app(_tree(read_file, folder))):
        data.unresolved["open_resource: the app's root folder is not known"] += 1
        return True
    target = posixpath.normpath(posixpath.join(folder, opened))
    text = None if target.startswith("../") or opened.startswith("/") else read_file(target)
    if text is None or len(text) > _MAX_BYTES:
        data.unresolved["open_resource: no such file in the repository, or too large"] += 1
        return True
    found = read_sql(text)
    if found.problem:
        data.unresolved[found.problem] += 1
    location, quote = reader.where(call)
    caller = reader.owner(call.lineno)
    for table, mode in found.tables:
        access = Access(caller, "table", table, mode, Provenance.SQL_TEXT, location, quote)
        data.accesses.append(access)
    return True


def _read_of(node: ast.expr) -> str | None:
    """``f`` of ``f.read()`` or ``f.read().decode(...)``."""
    func = node.func if isinstance(node, ast.Call) else None
    if isinstance(func, ast.Attribute) and func.attr == "decode":
        node = func.value
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr != "read" or not isinstance(node.func.value, ast.Name):
        return None
    return node.func.value.id


def _opened(scope: ast.AST, name: str | None) -> str | None:
    """The literal path of the one ``open_resource(...)`` bound to ``name`` in the scope
    (``with x.open_resource("p") as name`` or ``name = x.open_resource("p")``)."""
    if name is None:
        return None
    found: list[ast.expr | None] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            if node.optional_vars.id == name:
                found.append(node.context_expr)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            found.append(node.value)
    if len(found) != 1:
        return None
    call = found[0]
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    if call.func.attr != "open_resource" or not call.args:
        return None
    first = call.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _tree(read_file: ReadFile, folder: str) -> ast.AST | None:
    text = read_file(posixpath.join(folder, "__init__.py") if folder else "__init__.py")
    try:
        return ast.parse(text) if text is not None else None
    except (SyntaxError, ValueError):
        return None


def _makes_app(tree: ast.AST | None) -> bool:
    """Whether ``tree`` calls ``Flask(__name__, ...)``."""
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0]
            if name == "Flask" and isinstance(first, ast.Name) and first.id == "__name__":
                return True
    return False
