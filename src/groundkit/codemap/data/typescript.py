"""Models and tables declared in one TypeScript/JavaScript file, read from its syntax with the
names its imports give (``codemap.data``); the accesses are found while the file is resolved
(``extract/typescript/web``), where values are known.

- sequelize-typescript: ``@Table({tableName: "users"}) class User extends Model``.
- TypeORM: ``@Entity("users")`` or ``@Entity({name: "users"})`` on a class.
- Sequelize: ``class User extends Model`` with ``User.init({...}, {tableName: "users"})``.
- Drizzle: ``const users = pgTable("users", {...})`` (``mysqlTable``, ``sqliteTable``): the
  variable stands for the table, as SQLAlchemy's ``Table(...)`` does.

A TypeORM entity that names no table gets the one TypeORM's ``DefaultNamingStrategy`` gives it,
``snakeCase`` of the class name (``UserProfile`` -> ``user_profile``; provenance
``table-default``), unless a file of the repository configures ``namingStrategy`` or
``entityPrefix`` (``typeorm_configured``), and only for a class name of letters where no two
capitals meet (``HTMLPage``, ``Page2Item``: TypeORM's ``snakeCase`` changed for those between
versions). Any other model that names no table is counted with the reason, never given a
guessed one: Sequelize's default is the model name pluralised by its inflection library (no
such library is a dependency here). Only files that import one of these packages are read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from groundkit.codemap.data import Data, ModelDecl
from groundkit.codemap.data.ts_queries import query_accesses
from groundkit.codemap.data.ts_syntax import arguments_of, descendants, field_of, string_of
from groundkit.codemap.extract.typescript.layout import module_name
from groundkit.codemap.extract.typescript.syntax import dialect, parser, text_of
from groundkit.codemap.extract.typescript.vue import VUE_SUFFIX, script_of
from groundkit.codemap.model import Location, Node, NodeKey, NodeKind, Provenance

if TYPE_CHECKING:
    from tree_sitter import Node as Syntax

__all__ = [
    "ORM_PACKAGES",
    "SEQUELIZE_NO_TABLE",
    "SYNTAX_PROVENANCES",
    "typeorm_configured",
    "typescript_data",
]

ORM_PACKAGES = ("sequelize", "typeorm", "drizzle-orm")
# The provenances of the accesses this pass finds (``ts_queries.py``); a file's resolution finds
# the others (``extract/typescript/web``).
SYNTAX_PROVENANCES = frozenset({Provenance.ORM_REPOSITORY, Provenance.ORM_ARGUMENT})
_DRIZZLE_TABLES = frozenset({"pgTable", "mysqlTable", "sqliteTable", "singlestoreTable"})
SEQUELIZE_NO_TABLE = "Sequelize's default table name (the model name pluralised) is not derived"
_NO_TABLE = {
    "sequelize": SEQUELIZE_NO_TABLE,
    "typeorm": "TypeORM's default table name depends on the naming strategy",
}


def typescript_data(path: str, text: str, nodes: list[Node]) -> Data:
    data = Data()
    if typeorm_configured(text):
        data.configured.add("typeorm")
    if not any(package in text for package in ORM_PACKAGES):
        return data
    grammar = dialect(path)
    if path.endswith(VUE_SUFFIX):  # a component: its script blocks, never its template's text
        text, grammar = script_of(text.replace("\r\n", "\n").replace("\r", "\n"))
    root = parser(grammar).parse(text.encode("utf-8")).root_node
    reader = _Reader(path, text.splitlines(), nodes, data)
    reader.imports(root)
    if reader.names:
        reader.declarations(root)
    query_accesses(path, root, reader.lines, nodes, data)
    return data


class _Reader:
    def __init__(self, path: str, lines: list[str], nodes: list[Node], data: Data) -> None:
        self.path = path
        self.lines = lines
        self.module = module_name(path)
        self.classes = {n.key.qualname: n.key for n in nodes if n.kind == NodeKind.CLASS}
        self.data = data
        self.names: dict[str, tuple[str, str]] = {}  # local name -> (package, imported name)
        self.inits: dict[str, str] = {}  # class name -> the tableName its init(...) gives

    def imports(self, root: Syntax) -> None:
        for node in root.named_children:
            if node.type in ("lexical_declaration", "variable_declaration"):
                self._require(node)
            if node.type != "import_statement":
                continue
            source = node.child_by_field_name("source")
            package = string_of(source) or ""
            if not package.startswith(ORM_PACKAGES):
                continue
            family = next(p for p in ORM_PACKAGES if package.startswith(p))
            for spec in descendants(node, "import_specifier"):
                name = text_of(spec.child_by_field_name("name"))
                alias = spec.child_by_field_name("alias")
                self.names[text_of(alias) if alias else name] = (family, name)

    def _require(self, node: Syntax) -> None:
        """``const { Model, DataTypes: T } = require("sequelize")``."""
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            pattern = declarator.child_by_field_name("name")
            if value is None or pattern is None or pattern.type != "object_pattern":
                continue
            if text_of(value.child_by_field_name("function")) != "require":
                continue
            package = next(iter(string_of(a) for a in arguments_of(value)), None) or ""
            if not package.startswith(ORM_PACKAGES):
                continue
            family = next(p for p in ORM_PACKAGES if package.startswith(p))
            for item in pattern.named_children:
                if item.type == "shorthand_property_identifier_pattern":
                    self.names[text_of(item)] = (family, text_of(item))
                elif item.type == "pair_pattern":
                    local = text_of(item.child_by_field_name("value"))
                    self.names[local] = (family, text_of(item.child_by_field_name("key")))

    def declarations(self, root: Syntax) -> None:
        for node in root.named_children:
            self._init(node)
        for node in root.named_children:
            inner = None
            if node.type == "export_statement":
                inner = node.child_by_field_name("declaration")
            target = inner if inner is not None else node
            if target.type in ("class_declaration", "abstract_class_declaration"):
                self._class(target, [*_decorators(node), *_decorators(target)])
            elif target.type == "lexical_declaration":
                for declarator in target.named_children:
                    self._drizzle(declarator)

    def _class(self, node: Syntax, decorators: list[Syntax]) -> None:
        name = text_of(node.child_by_field_name("name"))
        key = self.classes.get(f"{self.module}.{name}")
        if key is None:
            return
        for decorator in decorators:
            call, ref = _called(decorator)
            family, imported = self.names.get(ref, ("", ""))
            if (family, imported) in (("sequelize", "Table"), ("typeorm", "Entity")):
                table = _table_argument(call, family)
                # a default is cited at the decorator that names no table
                self._model(node if table else decorator, key, family, table, name)
                return
        if self._extends_model(node):
            self._model(node, key, "sequelize", self.inits.get(name, ""), name)

    def _model(self, node: Syntax, key: NodeKey, family: str, table: str, name: str) -> None:
        where, quote = self.where(node)
        if table:
            decl = ModelDecl(key.qualname, key, table, Provenance.TABLE_DECLARED, where, quote)
        else:
            reason = _NO_TABLE[family]
            default = _snake_case(name) if family == "typeorm" else ""
            decl = ModelDecl(
                key.qualname, key, "", Provenance.TABLE_DECLARED, where, quote, reason,
                default=default, family=family if default else "",
            )  # fmt: skip
        self.data.models.append(decl)

    def _extends_model(self, node: Syntax) -> bool:
        heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
        for item in heritage.named_children if heritage is not None else ():
            # TypeScript wraps the base in an ``extends_clause``; JavaScript does not
            value = item.child_by_field_name("value") if item.type == "extends_clause" else item
            if value is not None and self.names.get(text_of(value)) == ("sequelize", "Model"):
                return True
        return False

    def _init(self, node: Syntax) -> None:
        """``User.init({...}, {sequelize, tableName: "users"})`` at the module's top level."""
        call = node.named_children[0] if node.type == "expression_statement" else None
        if call is None or call.type != "call_expression":
            return
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            return
        if text_of(callee.child_by_field_name("property")) != "init":
            return
        options = arguments_of(call)[1:2]
        table = field_of(options[0], "tableName") if options else None
        if table:
            self.inits[text_of(callee.child_by_field_name("object"))] = table

    def _drizzle(self, declarator: Syntax) -> None:
        value = declarator.child_by_field_name("value")
        if value is None or value.type != "call_expression":
            return
        ref = text_of(value.child_by_field_name("function"))
        family, imported = self.names.get(ref, ("", ""))
        if family != "drizzle-orm" or imported not in _DRIZZLE_TABLES:
            return
        args = arguments_of(value)
        table = string_of(args[0]) if args else None
        variable = text_of(declarator.child_by_field_name("name"))
        where, quote = self.where(declarator)
        if table:
            name = f"{self.module}.{variable}"
            decl = ModelDecl(name, None, table, Provenance.TABLE_DECLARED, where, quote)
            self.data.models.append(decl)
        else:
            self.data.unresolved["Drizzle table with a computed name"] += 1

    def where(self, node: Syntax) -> tuple[Location, str]:
        (row, col), (end_row, end_col) = node.start_point, node.end_point
        quote = self.lines[row] if row < len(self.lines) else ""
        return Location(self.path, row + 1, col, end_row + 1, end_col), quote


def _decorators(node: Syntax) -> list[Syntax]:
    return [c for c in node.named_children if c.type == "decorator"]


def _called(decorator: Syntax) -> tuple[Syntax | None, str]:
    """A decorator's call (None for a bare ``@Table``) and the name it calls."""
    inner = decorator.named_children[0] if decorator.named_children else None
    if inner is not None and inner.type == "call_expression":
        return inner, text_of(inner.child_by_field_name("function"))
    return None, text_of(inner)


def _table_argument(call: Syntax | None, family: str) -> str:
    """``@Entity("users")``, ``@Entity({name: "users"})``, ``@Table({tableName: "users"})``."""
    args = arguments_of(call) if call is not None else []
    if not args:
        return ""
    first = args[0]
    if family == "typeorm" and first.type == "string":
        return string_of(first) or ""
    return field_of(first, "name" if family == "typeorm" else "tableName") or ""


# Where a TypeORM data source's options (or ormconfig's) change table names: a naming strategy
# of the project's own, or a prefix; TYPEORM_ENTITY_PREFIX is ormconfig's environment form.
_TYPEORM_NAMING = ("namingStrategy", "entityPrefix", "TYPEORM_ENTITY_PREFIX")
_SIMPLE_CLASS = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)*")


def typeorm_configured(text: str) -> bool:
    """Whether ``text`` may configure TypeORM's table naming (mentioning it is enough: then
    no default is taken, which costs a table, never gives a wrong one)."""
    return any(word in text for word in _TYPEORM_NAMING)


def _snake_case(name: str) -> str:
    """TypeORM's ``snakeCase`` of a class name of letters where no two capitals meet (on
    those, every version of it agrees: ``aC`` -> ``a_c``, lower case); "" for any other."""
    if _SIMPLE_CLASS.fullmatch(name) is None:
        return ""
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))
