"""Models, tables, environment variables and data access in one Python file, read from its
syntax with the names its imports give (``codemap.data``).

Models: SQLModel (``class User(UserBase, table=True)``: the table is ``__tablename__``, else
SQLModel's documented default, the class name lower-cased), SQLAlchemy declarative classes
(``__tablename__ = "users"``), ``users = Table("users", metadata, ...)`` and Django
(``models.Model``; the table only from ``Meta.db_table``: the default needs the app label, which
is counted as unresolved). Access, in a function: ``select(M)``, ``session.get(M, id)``,
``session.query(M)``, ``delete/update/insert(M)``, ``M.objects.<method>()``, and ``session.add(m)``
/ ``delete(m)`` / ``merge(m)`` where ``m`` holds an ``M`` in that function (made by ``M(...)``,
``M.model_validate(...)``, ``session.get(M, ...)``, or annotated ``M``). Environment variables:
``os.environ[...]``, ``os.environ.get``, ``os.getenv`` with a literal name, and the fields of a
pydantic ``BaseSettings`` class (with a literal ``env_prefix``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from groundkit.codemap.data import READ, WRITE, Access, Data, ModelDecl
from groundkit.codemap.model import Location, Node, NodeKey, NodeKind, Provenance

__all__ = ["python_data"]

_QUERIES = {"select": READ, "delete": WRITE, "update": WRITE, "insert": WRITE}
_SESSION_READS = frozenset({"get", "query", "get_one", "scalars_of"})
_SESSION_WRITES = frozenset({"add", "delete", "merge", "add_all"})
_MANAGER_WRITES = frozenset(
    {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create"}
    | {"update_or_create"}
)
_MAKERS = frozenset({"model_validate", "from_orm", "parse_obj", "construct", "model_construct"})
_OWNERS = (NodeKind.FUNCTION, NodeKind.METHOD, NodeKind.CLASS, NodeKind.MODULE, NodeKind.PACKAGE)


def python_data(path: str, text: str, nodes: list[Node]) -> Data:
    data = Data()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return data
    module = next((n for n in nodes if n.kind in (NodeKind.MODULE, NodeKind.PACKAGE)), None)
    if module is None:
        return data
    reader = _Reader(path, text.splitlines(), module, nodes, data)
    reader.read(tree)
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
            (n for n in nodes if n.kind in _OWNERS and n.line),
            key=lambda n: (n.line, -n.end_line),
        )
        self.data = data
        self.names: dict[str, str] = {}  # local name -> dotted name

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
        for inner in ast.walk(tree):
            if isinstance(inner, ast.Import | ast.ImportFrom) and inner not in tree.body:
                self._import(inner)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                self._class(node)
            elif isinstance(node, ast.Assign):
                self._table(node)
        self._accesses(tree)

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
    def _where(self, node: ast.AST) -> tuple[Location, str]:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end = getattr(node, "end_lineno", line) or line
        end_col = getattr(node, "end_col_offset", col) or col
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Location(self.path, line, col, end, end_col), text

    def _class(self, node: ast.ClassDef) -> None:
        name = f"{self.module.qualname}.{node.name}"
        key = NodeKey(NodeKind.CLASS, name, self.path)
        bases = [self.dotted(b) or "" for b in node.bases]
        where, quote = self._where(node)
        table_kw = any(
            k.arg == "table" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        )
        tablename, computed = _tablename(node)
        if any(b.endswith("BaseSettings") for b in bases):
            self._settings(node)
            return
        django = any(b in ("django.db.models.Model", "django.db.models.base.Model") for b in bases)
        if table_kw or tablename or computed:
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
        elif django:
            table = _meta_table(node)
            reason = "" if table else "Django's default table name needs the app label"
            self.data.models.append(
                ModelDecl(name, key, table, Provenance.TABLE_DECLARED, where, quote, reason)
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
        where, quote = self._where(node)
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
                where, quote = self._where(item)
                name = (prefix + item.target.id).upper()
                self.data.accesses.append(
                    Access(owner, "env", name, READ, Provenance.ENV_READ, where, quote)
                )

    # -- accesses ---------------------------------------------------------------------------------
    def owner(self, line: int) -> NodeKey:
        found = self.module
        for node in self.owners:
            if node.line > line:
                break
            if node.line <= line <= node.end_line:
                found = node  # the innermost: the latest start that still holds the line
        return found.key

    def _accesses(self, tree: ast.Module) -> None:
        for scope in _scopes(tree):
            holds = self._holdings(scope)
            for node in _own_nodes(scope):
                if isinstance(node, ast.Call):
                    self._call(node, holds)
                elif isinstance(node, ast.Subscript):
                    self._environ(node)

    def _holdings(self, scope: ast.AST) -> dict[str, str]:
        """Local names whose every assignment in the function holds one model's instance."""
        held: dict[str, set[str | None]] = {}
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in [*scope.args.args, *scope.args.kwonlyargs, *scope.args.posonlyargs]:
                if arg.annotation is not None:
                    held.setdefault(arg.arg, set()).add(self._annotated(arg.annotation))
        for node in _own_nodes(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        held.setdefault(target.id, set()).add(self._made(node.value))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                held.setdefault(node.target.id, set()).add(self._annotated(node.annotation))
        return {n: next(iter(v)) for n, v in held.items() if len(v) == 1 and None not in v}  # type: ignore[misc]

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

    def _made(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Await):
            node = node.value
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _MAKERS:
            return self.dotted(func.value)
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            return self.dotted(node.args[0])
        return self.dotted(func)

    def _call(self, node: ast.Call, holds: dict[str, str]) -> None:
        func = node.func
        where, quote = self._where(node)
        caller = self.owner(node.lineno)
        callee = self.dotted(func) or ""
        last = callee.rpartition(".")[2] if callee else getattr(func, "attr", "")
        first = node.args[0] if node.args else None

        def add(what: str, target: str, mode: str, provenance: Provenance) -> None:
            self.data.accesses.append(Access(caller, what, target, mode, provenance, where, quote))

        if callee.startswith(("sqlmodel.", "sqlalchemy.")) and last in _QUERIES and first:
            model = self.dotted(first)
            if model:
                add("model", model, _QUERIES[last], Provenance.ORM_ARGUMENT)
            return
        if callee in ("os.getenv", "os.environ.get", "os.environ.setdefault") and first:
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                add("env", first.value, READ, Provenance.ENV_READ)
            else:
                self.data.unresolved["environment variable named at run time"] += 1
            return
        if not isinstance(func, ast.Attribute):
            return
        if func.attr in _SESSION_READS and first is not None:
            model = self.dotted(first)
            if model and model[:1] != "." and _looks_like_class(model):
                add("model", model, READ, Provenance.ORM_ARGUMENT)
            return
        if func.attr in _SESSION_WRITES and first is not None:
            if isinstance(first, ast.Name) and first.id in holds:
                add("model", holds[first.id], WRITE, Provenance.ORM_INSTANCE)
            return
        manager = func.value
        if isinstance(manager, ast.Attribute) and manager.attr == "objects":
            model = self.dotted(manager.value)
            if model:
                mode = WRITE if func.attr in _MANAGER_WRITES else READ
                add("model", model, mode, Provenance.ORM_MANAGER)

    def _environ(self, node: ast.Subscript) -> None:
        if self.dotted(node.value) != "os.environ":
            return
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            where, quote = self._where(node)
            caller = self.owner(node.lineno)
            self.data.accesses.append(
                Access(caller, "env", key.value, READ, Provenance.ENV_READ, where, quote)
            )
        else:
            self.data.unresolved["environment variable named at run time"] += 1


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


def _meta_table(node: ast.ClassDef) -> str:
    for item in node.body:
        if isinstance(item, ast.ClassDef) and item.name == "Meta":
            for inner in item.body:
                if (
                    isinstance(inner, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "db_table" for t in inner.targets)
                    and isinstance(inner.value, ast.Constant)
                    and isinstance(inner.value.value, str)
                ):
                    return inner.value.value
    return ""


def _scopes(tree: ast.Module) -> Iterator[ast.AST]:
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield node


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function (or the module) outside the functions nested in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            if isinstance(node, ast.ClassDef):
                stack.extend(ast.iter_child_nodes(node))  # class bodies run in their scope
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))
