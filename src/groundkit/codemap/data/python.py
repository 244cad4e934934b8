"""Models, tables, environment variables and data access in one Python file, read from its
syntax with the names its imports give (``codemap.data``).

Models: SQLModel (``class User(UserBase, table=True)``: the table is ``__tablename__``, else
SQLModel's documented default, the class name lower-cased), SQLAlchemy declarative classes
(``__tablename__ = "users"``; a library mixin's, such as fastapi-users' user table),
``users = Table("users", metadata, ...)`` and Django (``django.py``: bases followed over the
map, ``Meta.db_table`` or the default from the app label an ``AppConfig`` gives). Access, in a
function: ``select(M)``, ``session.get(M, id)``, ``session.query(M)``, ``delete/update/insert(M)``,
``M.objects.<method>()``, and ``session.add(m)`` / ``delete(m)`` / ``merge(m)`` (writes) and
``session.refresh(m)`` (a read) where ``m`` holds an ``M`` in that function (made by ``M(...)``,
``M.model_validate(...)``, ``session.get(M, ...)``, or annotated ``M``). Environment variables:
``os.environ[...]``, ``os.environ.get``, ``os.getenv``, python-decouple's ``config`` with a
literal name, and the fields of a pydantic ``BaseSettings`` class (with a literal
``env_prefix``). SQL text handed to ``execute``, ``text()`` and the like: ``python_sql.py``.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Iterator

from groundkit.codemap.data import FLASK_SQLALCHEMY, READ, WRITE, Access, Data, ModelDecl
from groundkit.codemap.data.depends import read_depends
from groundkit.codemap.data.django import read_django_class
from groundkit.codemap.data.hooks import read_hooks
from groundkit.codemap.data.python_sql import SQL_CALLS, literal_text, sql_call
from groundkit.codemap.data.resources import ReadFile, resource_sql
from groundkit.codemap.model import Location, Node, NodeKey, NodeKind, Provenance

__all__ = ["OWNERS", "python_data"]

_QUERIES = {"select": READ, "delete": WRITE, "update": WRITE, "insert": WRITE}
# get_or_404: Flask-SQLAlchemy's db.get_or_404(M, id)
_SESSION_READS = frozenset({"get", "query", "get_one", "scalars_of", "get_or_404"})
_SESSION_WRITES = frozenset({"add", "delete", "merge", "add_all"})
_MANAGER_WRITES = frozenset(
    {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create"}
    | {"update_or_create"}
)
_MAKERS = frozenset({"model_validate", "from_orm", "parse_obj", "construct", "model_construct"})
# A query's methods that refine it, and those that give one row of it (an instance of its model).
_REFINE = frozenset(
    {"filter", "filter_by", "where", "order_by", "limit", "offset", "options", "join"}
    | {"outerjoin", "distinct", "with_for_update", "execution_options", "scalars", "unique"}
)
_ONE_ROW = frozenset({"first", "one", "one_or_none", "scalar", "scalar_one", "scalar_one_or_none"})
# Calls that read an environment variable named by their first argument (python-decouple's
# ``config("X")`` reads it from the environment, or from a .env/settings.ini beside it).
_ENV_READERS = frozenset(
    {"os.getenv", "os.environ.get", "os.environ.setdefault", "decouple.config"}
)
# A library's model mixin -> the ``__tablename__`` it sets, read from the library's source:
# fastapi-users-db-sqlalchemy 7.0 (re-exported by fastapi_users.db).
_LIBRARY_TABLES = {
    f"{package}.{mixin}{suffix}": table
    for package in ("fastapi_users.db", "fastapi_users_db_sqlalchemy")
    for mixin, table in (
        ("SQLAlchemyBaseUserTable", "user"),
        ("SQLAlchemyBaseOAuthAccountTable", "oauth_account"),
    )
    for suffix in ("", "UUID")
}
OWNERS = (NodeKind.FUNCTION, NodeKind.METHOD, NodeKind.CLASS, NodeKind.MODULE, NodeKind.PACKAGE)


def python_data(
    path: str,
    text: str,
    nodes: list[Node],
    read_file: ReadFile | None = None,
    tree: ast.Module | None = None,
) -> Data:
    """``read_file``: other files of the repository by path (a resource's SQL), if given;
    ``tree``: the file's syntax when the caller parsed it already (``data/early.py``)."""
    data = Data()
    if tree is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return data
    module = next((n for n in nodes if n.kind in (NodeKind.MODULE, NodeKind.PACKAGE)), None)
    if module is None:
        return data
    reader = _Reader(path, text.splitlines(), module, nodes, data)
    reader.django = "django" in text or "models" in path  # where a Django model may be
    reader.read_file = read_file
    reader.read(tree)
    if "fastapi" in text or "Depends" in text or "Security(" in text:
        # FastAPI's dependencies: a file naming none of these declares none (a handler
        # using an imported alias imports its router or errors from fastapi too). Security
        # is called where it is declared; the word alone is common (oci-python-sdk: 5% of
        # its files, each tree walked again for nothing)
        read_depends(reader, tree)
    if "flask" in text or "fastapi" in text:
        read_hooks(reader, tree)
    return data


class _Reader:
    def __init__(
        self, path: str, lines: list[str], module: Node, nodes: list[Node], data: Data
    ) -> None:
        self.path = path
        self.lines = lines
        self.module = module
        self.package = module.qualname if module.kind == NodeKind.PACKAGE else ""
        if not self.package:
            self.package = module.qualname.rpartition(".")[0]
        self.owners = sorted(
            (n for n in nodes if n.kind in OWNERS and n.line),
            key=lambda n: (n.line, -n.end_line),
        )
        self.starts = [n.line for n in self.owners]
        self.data = data
        self._held: dict[int, dict[str, str]] = {}
        self.names: dict[str, str] = {}  # local name -> dotted name
        # a function of this file -> the model it returns (None until first needed)
        self.returns: dict[str, str] | None = None
        self._own: dict[int, list[ast.AST]] = {}
        self._inner: dict[int, list[ast.AST]] = {}  # the functions a scope holds
        self.tree = ast.Module([], [])
        # module-level names bound once to a string literal (``QUERY = "SELECT ..."``)
        self.strings: dict[str, str | None] = {}
        self.django = False
        self.read_file: ReadFile | None = None

    # -- names ------------------------------------------------------------------------------------
    def read(self, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                self._import(node)
            elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                self.names[node.name] = f"{self.module.qualname}.{node.name}"
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    self.names[target.id] = f"{self.module.qualname}.{target.id}"
                    self._constant(target.id, node.value)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign) and isinstance(
                node.target, ast.Name
            ):  # changed, or bound twice: not one text
                self.strings[node.target.id] = None
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                self._class(node)
            elif isinstance(node, ast.Assign):
                self._table(node)
                self._instance(node)
        self.tree = tree
        self._accesses(tree)

    def _constant(self, name: str, value: ast.expr) -> None:
        text = literal_text(value)
        self.strings[name] = text if name not in self.strings else None  # bound twice: no

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.names[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    self.names[top] = top
            return
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join([*parts, *([base] if base else [])])
        for alias in node.names:
            if alias.name != "*":
                self.names[alias.asname or alias.name] = (
                    f"{base}.{alias.name}" if base else alias.name
                )

    def dotted(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Attribute):
            head = self.dotted(node.value)
            return f"{head}.{node.attr}" if head else None
        if isinstance(node, ast.Subscript):  # Mapped[User], Annotated[User, ...]
            return None
        return None

    # -- declarations -----------------------------------------------------------------------------
    def where(self, node: ast.AST) -> tuple[Location, str]:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end = getattr(node, "end_lineno", line) or line
        end_col = getattr(node, "end_col_offset", col) or col
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Location(self.path, line, col, end, end_col), text

    def _class(self, node: ast.ClassDef) -> None:
        name = f"{self.module.qualname}.{node.name}"
        key = NodeKey(NodeKind.CLASS, name, self.path)
        bases = [
            self.dotted(b.value if isinstance(b, ast.Subscript) else b) or "" for b in node.bases
        ]
        where, quote = self.where(node)
        table_kw = any(
            k.arg == "table" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        )
        tablename, computed = _tablename(node)
        if any(b.endswith("BaseSettings") for b in bases):
            self._settings(node)
            return
        inherited = {_LIBRARY_TABLES[b] for b in bases if b in _LIBRARY_TABLES}
        if not (tablename or computed) and len(inherited) == 1 and len(bases) > 1:
            # the table a library's mixin declares, on a class mapped by a base of its own
            table = inherited.pop()
            decl = ModelDecl(name, key, table, Provenance.TABLE_LIBRARY, where, quote)
            self.data.models.append(decl)
        elif table_kw or tablename or computed:
            if tablename:
                decl = ModelDecl(name, key, tablename, Provenance.TABLE_DECLARED, where, quote)
            elif computed:
                reason = "__tablename__ is computed"
                decl = ModelDecl(name, key, "", Provenance.TABLE_DECLARED, where, quote, reason)
            else:
                # SQLModel's documented default: the class name, lower-cased.
                low = node.name.lower()
                decl = ModelDecl(name, key, low, Provenance.TABLE_DEFAULT, where, quote)
            self.data.models.append(decl)
        else:
            self._flask_model(node, key, bases, where, quote)
            read_django_class(self, node, bases, where, quote)

    def _instance(self, node: ast.Assign) -> None:
        """``db = SQLAlchemy(app)``: ``db.Model`` is Flask-SQLAlchemy's model base."""
        target = node.targets[0] if len(node.targets) == 1 else None
        value = node.value
        made = (isinstance(value, ast.Call) and self.dotted(value.func)) or ""
        if isinstance(target, ast.Name) and made == "flask_sqlalchemy.SQLAlchemy":
            self.data.instances.add(f"{self.module.qualname}.{target.id}")

    def _flask_model(
        self, node: ast.ClassDef, key: NodeKey, bases: list[str], where: Location, quote: str
    ) -> None:
        """``class User(db.Model)`` naming no table: Flask-SQLAlchemy names it after the class
        (``camel_to_snake_case``), when ``db`` proves to be its instance over the map."""
        holders = [b.removesuffix(".Model") for b in bases if b.endswith(".Model")]
        if len(holders) != 1 or holders[0].startswith("django."):
            return
        body = {
            t.id
            for item in node.body
            if isinstance(item, ast.Assign)
            for t in item.targets
            if isinstance(t, ast.Name)
        }
        if body & {"__abstract__", "__table__"} or not _has_primary_key(node):
            return  # abstract, mapped to a Table of its own, or single-table inheritance
        name = f"{self.module.qualname}.{node.name}"
        others = tuple(b for b in bases if b and not b.endswith(".Model"))
        family = FLASK_SQLALCHEMY + holders[0]
        if _SNAKE_SAFE.fullmatch(node.name):
            default = _CAPITAL.sub(r"_\1", node.name).lower()
            reason = "Flask-SQLAlchemy's default table name"
        else:
            default = ""
            reason = "Flask-SQLAlchemy's default for adjacent or final capitals differs by version"
        self.data.models.append(
            ModelDecl(
                name,
                key,
                "",
                Provenance.TABLE_DECLARED,
                where,
                quote,
                reason,
                default=default,
                family=family,
                bases=others,
            )
        )

    def _table(self, node: ast.Assign) -> None:
        """``users = Table("users", metadata, ...)``: the variable names the table."""
        value = node.value
        target = node.targets[0] if len(node.targets) == 1 else None
        if not isinstance(value, ast.Call) or not isinstance(target, ast.Name):
            return
        callee = self.dotted(value.func) or ""
        if not callee.endswith((".Table", "sqlalchemy.Table")) or not value.args:
            return
        first = value.args[0]
        where, quote = self.where(node)
        name = f"{self.module.qualname}.{target.id}"
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            decl = ModelDecl(name, None, first.value, Provenance.TABLE_DECLARED, where, quote)
            self.data.models.append(decl)
        else:
            self.data.unresolved["Table(...) with a computed name"] += 1

    def _settings(self, node: ast.ClassDef) -> None:
        prefix = ""
        for item in ast.walk(node):
            if isinstance(item, ast.keyword) and item.arg == "env_prefix":
                if isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    prefix = item.value.value
                else:
                    self.data.unresolved["BaseSettings env_prefix computed"] += 1
                    return
        owner = NodeKey(NodeKind.CLASS, f"{self.module.qualname}.{node.name}", self.path)
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                if item.target.id.startswith("_") or item.target.id == "model_config":
                    continue
                where, quote = self.where(item)
                name = (prefix + item.target.id).upper()
                self.data.accesses.append(
                    Access(owner, "env", name, READ, Provenance.ENV_READ, where, quote)
                )

    # -- accesses ---------------------------------------------------------------------------------
    def owner(self, line: int) -> NodeKey:
        found = self.module
        for node in self.owners[: bisect_right(self.starts, line)]:
            if node.line <= line <= node.end_line:
                found = node  # the innermost: the latest start that still holds the line
        return found.key

    def _accesses(self, tree: ast.Module) -> None:
        scopes: list[ast.AST] = [tree]
        while scopes:
            scope = scopes.pop()
            nodes = self._nodes(scope)
            for node in nodes:  # imports in a function: their names count from here on
                if isinstance(node, ast.Import | ast.ImportFrom) and scope is not tree:
                    self._import(node)
            for node in nodes:
                if isinstance(node, ast.Call):
                    self._call(node, scope)
                elif isinstance(node, ast.Subscript):
                    self._environ(node)
            scopes.extend(self._inner[id(scope)])

    def _nodes(self, scope: ast.AST) -> list[ast.AST]:
        found = self._own.get(id(scope))
        if found is None:
            inner: list[ast.AST] = []
            found = self._own[id(scope)] = _own_nodes(scope, inner)
            self._inner[id(scope)] = inner
        return found

    def _holdings(self, scope: ast.AST) -> dict[str, str]:
        """Local names whose every assignment in the function holds one model's instance (or
        a query of it: ``q = select(M)``; ``row = db.execute(q).scalars().first()``)."""
        if id(scope) not in self._held:
            self._held[id(scope)] = self._hold(scope)
        return self._held[id(scope)]

    def _hold(self, scope: ast.AST) -> dict[str, str]:
        if self.returns is None:  # what this file's functions return: read once, when needed
            self.returns = {}
            self._returns(self.tree)
        holds: dict[str, str] = {}
        for _ in range(3):  # a name read from another assigned before it: a few rounds settle
            held: dict[str, set[str | None]] = {}
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                for arg in [*scope.args.args, *scope.args.kwonlyargs, *scope.args.posonlyargs]:
                    if arg.annotation is not None:
                        held.setdefault(arg.arg, set()).add(self._annotated(arg.annotation))
            for node in self._nodes(scope):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            held.setdefault(target.id, set()).add(self._made(node.value, holds))
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    held.setdefault(node.target.id, set()).add(self._annotated(node.annotation))
            found = {n: v.pop() for n, v in held.items() if len(v) == 1 and None not in v}
            if found == holds:
                break
            holds = found  # type: ignore[assignment]
        return holds

    def _returns(self, tree: ast.Module) -> None:
        """The model a module-level function of this file returns, when every ``return`` gives
        the same one: ``get_user`` returning ``db.query(User).filter(...).first()``."""
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            holds = self._hold(node)  # not kept: the returns are not all known yet
            made = {
                self._made(item.value, holds) if item.value is not None else None
                for item in self._nodes(node)
                if isinstance(item, ast.Return)
            }
            if len(made) == 1 and None not in made and self.returns is not None:
                self.returns[f"{self.module.qualname}.{node.name}"] = str(made.pop())

    def _annotated(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # User | None
            sides = [s for s in (node.left, node.right) if not _none(s)]
            return self._annotated(sides[0]) if len(sides) == 1 else None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                return self._annotated(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                return None
        return self.dotted(node)

    def _made(self, node: ast.expr, holds: dict[str, str]) -> str | None:
        """The model whose instance (or query) ``node`` gives, if one."""
        if isinstance(node, ast.Await):
            node = node.value
        if isinstance(node, ast.Name):
            return holds.get(node.id)
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        first = node.args[0] if node.args else None
        if isinstance(func, ast.Attribute):
            if func.attr in _MAKERS:
                return self.dotted(func.value)
            if func.attr in ("get", "query", "get_one") and first is not None:
                return self.dotted(first)
            if func.attr in _ONE_ROW or func.attr in _REFINE:  # q.filter(...).first()
                return self._made(func.value, holds)
            if func.attr in ("execute", "exec", "scalars") and first is not None:
                return self._made(first, holds)  # db.execute(select(M)...)
        callee = self.dotted(func)
        if callee is None:
            return None
        if callee.startswith(("sqlmodel.", "sqlalchemy.")) and first is not None:
            return self.dotted(first) if callee.rpartition(".")[2] == "select" else None
        return (self.returns or {}).get(callee, callee)

    def _call(self, node: ast.Call, scope: ast.AST) -> None:
        func = node.func
        callee = self.dotted(func) or ""
        last = callee.rpartition(".")[2] if callee else getattr(func, "attr", "")
        first = node.args[0] if node.args else None

        def add(what: str, target: str, mode: str, provenance: Provenance) -> None:
            where, quote = self.where(node)
            caller = self.owner(node.lineno)
            self.data.accesses.append(Access(caller, what, target, mode, provenance, where, quote))

        if (
            last in SQL_CALLS
            and first is not None
            and (sql_call(self, node, first, scope) or resource_sql(self, node, scope))
        ):
            return
        if callee.startswith(("sqlmodel.", "sqlalchemy.")) and last in _QUERIES and first:
            model = self.dotted(first)
            if model:
                add("model", model, _QUERIES[last], Provenance.ORM_ARGUMENT)
            return
        if callee in _ENV_READERS and first:
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                add("env", first.value, READ, Provenance.ENV_READ)
            else:
                self.data.unresolved["environment variable named at run time"] += 1
            return
        if not isinstance(func, ast.Attribute):
            return
        query = func.value
        if isinstance(query, ast.Attribute) and query.attr == "query":
            model = self.dotted(query.value) or ""
            if _looks_like_class(model):  # Flask-SQLAlchemy's M.query.filter_by(...): M's rows
                add("static", model, READ, Provenance.ORM_MANAGER)
                return
        if func.attr in _SESSION_READS and first is not None:
            model = self.dotted(first)
            if model and model[:1] != "." and _looks_like_class(model):
                add("model", model, READ, Provenance.ORM_ARGUMENT)
            return
        if (func.attr in _SESSION_WRITES or func.attr == "refresh") and first is not None:
            holds = self._holdings(scope) if isinstance(first, ast.Name) else {}
            if isinstance(first, ast.Name) and first.id in holds:
                # refresh(m) reloads m's row: SQLAlchemy's Session.refresh emits a SELECT
                mode = READ if func.attr == "refresh" else WRITE
                add("model", holds[first.id], mode, Provenance.ORM_INSTANCE)
            return
        manager = func.value
        if isinstance(manager, ast.Attribute) and manager.attr == "objects":
            model = self.dotted(manager.value)
            if model:
                mode = WRITE if func.attr in _MANAGER_WRITES else READ
                add("model", model, mode, Provenance.ORM_MANAGER)

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def _environ(self, node: ast.Subscript) -> None:
        if self.dotted(node.value) != "os.environ":
            return
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            where, quote = self.where(node)
            caller = self.owner(node.lineno)
            # os.environ["X"] = v and del os.environ["X"] set the variable: they read nothing
            stored = isinstance(node.ctx, ast.Store | ast.Del)
            mode, how = (WRITE, Provenance.ENV_WRITE) if stored else (READ, Provenance.ENV_READ)
            self.data.accesses.append(Access(caller, "env", key.value, mode, how, where, quote))
        else:
            self.data.unresolved["environment variable named at run time"] += 1


# Flask-SQLAlchemy's camel_to_snake_case (3.x) and its 2.x regex agree on class names where
# every capital starts a run of lower-case letters or digits: only those are derived.
_SNAKE_SAFE = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*")
_CAPITAL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def _has_primary_key(node: ast.ClassDef) -> bool:
    """A column of the class's own body says ``primary_key=True`` (Flask-SQLAlchemy 2.x names
    only such a class's table; 3.x names every one, so this holds for both)."""
    return any(
        isinstance(k, ast.keyword)
        and k.arg == "primary_key"
        and isinstance(k.value, ast.Constant)
        and k.value.value is True
        for item in node.body
        if isinstance(item, ast.Assign | ast.AnnAssign)
        for k in ast.walk(item)
    )


def _looks_like_class(dotted: str) -> bool:
    return dotted.rpartition(".")[2][:1].isupper()


def _none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _tablename(node: ast.ClassDef) -> tuple[str, bool]:
    """(``__tablename__``'s literal value, whether it is set to something computed)."""
    for item in node.body:
        targets = item.targets if isinstance(item, ast.Assign) else []
        if isinstance(item, ast.AnnAssign):
            targets = [item.target]
        if any(isinstance(t, ast.Name) and t.id == "__tablename__" for t in targets):
            value = getattr(item, "value", None)
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value, False
            return "", True
        if isinstance(item, ast.FunctionDef) and item.name == "__tablename__":
            return "", True  # @declared_attr
    return "", False


# Nodes no reader asks for and that hold none it does (a name's child is its context): about
# half of a tree's nodes, not walked.
_LEAVES: tuple[type[ast.AST], ...] = (ast.Name, ast.Constant, ast.expr_context, ast.operator)
_LEAVES += (ast.cmpop, ast.unaryop, ast.boolop)
# The kinds of node the reader asks a scope for (``_accesses``, ``_hold``, ``_returns``).
_ASKED = frozenset(
    {ast.Call, ast.Subscript, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Return}
)
_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda})
# Fields that hold a name or a number, never a node.
_PLAIN = frozenset({"id", "attr", "arg", "name", "module", "level", "kind", "conversion"})
_PLAIN |= {"is_async", "type_comment"}


def _node_classes(base: type[ast.AST]) -> Iterator[type[ast.AST]]:
    for sub in base.__subclasses__():
        yield sub
        yield from _node_classes(sub)


# Each kind of node that is walked -> the fields that may hold more (``ast.iter_child_nodes``
# asks every field of every node, through two generators: twice the time of this table).
_FOLLOW: dict[type[ast.AST], tuple[str, ...]] = {
    kind: tuple(f for f in kind._fields if f not in _PLAIN)
    for kind in _node_classes(ast.AST)
    if not issubclass(kind, _LEAVES)
}


def _own_nodes(scope: ast.AST, inner: list[ast.AST]) -> list[ast.AST]:
    """The nodes of a function (or the module) outside the functions nested in it, which go
    to ``inner``; only the kinds the reader asks for, in the order a depth-first walk that
    takes a node's last child first meets them."""
    found: list[ast.AST] = []
    follow, scopes, asked = _FOLLOW, _SCOPES, _ASKED
    stack = [scope]
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind in scopes and node is not scope:
            inner.append(node)
            continue  # a class body is walked on: it runs in this scope
        if kind in asked:
            found.append(node)
        for field in follow[kind]:
            value = getattr(node, field)
            if value.__class__ is list:
                stack.extend([v for v in value if v.__class__ in follow])
            elif value.__class__ in follow:
                stack.append(value)
    return found
