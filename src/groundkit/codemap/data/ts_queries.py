"""TypeORM repositories and Drizzle queries in one TypeScript/JavaScript file, read from the
syntax of the function (or class) that holds them.

Drizzle: ``db.select().from(users)`` and ``.innerJoin(users, ...)`` (and the other joins) read
the table ``users`` stands for, ``db.insert(users)``, ``db.update(users)``, ``db.delete(users)``
write it, when ``users`` is a table this file declares or imports (``pgTable(...)``,
``typescript.py``); an argument that is no Drizzle table draws nothing.

TypeORM: which model a repository stands for, and what its methods do to it.

A repository is ``getRepository(M)`` (on anything: ``dataSource``, ``getManager()``, a
connection), bound to a local name in the function, used directly (``getRepository(M).find()``)
or a class field injected with ``@InjectRepository(M)`` (NestJS), used as ``this.field``.
``repo.find()`` reads ``M``, ``repo.save(p)`` writes it (``_MODES``), as an ``EntityManager``'s
method does with the entity first (``manager.find(M, ...)``); ``create`` and ``merge``
build entities without touching the database and are no access. ``M`` is named as the file's
imports spell it (``src/entity/Post.Post`` for ``import {Post} from "../entity/Post"``) and
joined to its declaration over the map (``codemap.data.assemble``).
"""

from __future__ import annotations

import posixpath
from bisect import bisect_right
from typing import TYPE_CHECKING

from groundkit.codemap.data import READ, WRITE, Access, Data
from groundkit.codemap.data.ts_syntax import arguments_of, string_of
from groundkit.codemap.extract.typescript.layout import module_name
from groundkit.codemap.extract.typescript.syntax import text_of
from groundkit.codemap.model import Location, Node, NodeKey, NodeKind, Provenance

if TYPE_CHECKING:
    from tree_sitter import Node as Syntax

__all__ = ["query_accesses"]

_GETTERS = frozenset({"getRepository", "getTreeRepository", "getMongoRepository"})
_READS = (
    "find findOne findOneBy findBy findAndCount findAndCountBy findOneOrFail findOneByOrFail"
    " findByIds count countBy exists existsBy exist sum average minimum maximum preload"
)
_WRITES = (
    "save insert update upsert delete remove softDelete softRemove restore recover increment"
    " decrement clear"
)
_MODES = {**dict.fromkeys(_READS.split(), READ), **dict.fromkeys(_WRITES.split(), WRITE)}
_FUNCTIONS = frozenset(
    {"function_declaration", "method_definition", "arrow_function", "function_expression"}
    | {"function", "generator_function_declaration"}
)
_OWNERS = (NodeKind.FUNCTION, NodeKind.METHOD)
_DRIZZLE = {
    **dict.fromkeys(("from", "innerJoin", "leftJoin", "rightJoin", "fullJoin"), READ),
    **dict.fromkeys(("insert", "update", "delete"), WRITE),
}


def query_accesses(
    path: str, root: Syntax, lines: list[str], nodes: list[Node], data: Data
) -> None:
    _Walk(path, lines, nodes, data).run(root)


class _Walk:
    def __init__(self, path: str, lines: list[str], nodes: list[Node], data: Data) -> None:
        self.path = path
        self.lines = lines
        self.module = module_name(path)
        self.data = data
        self.owners = sorted(
            (n for n in nodes if n.kind in _OWNERS and n.line),
            key=lambda n: (n.line, -n.end_line),
        )
        self.starts = [n.line for n in self.owners]
        self.module_key = NodeKey(NodeKind.MODULE, self.module, path)
        self.symbols: dict[str, str] = {}  # a local name -> the dotted name of what it is

    def run(self, root: Syntax) -> None:
        for node in root.named_children:
            if node.type == "import_statement":
                self._import(node)
            declared = node.child_by_field_name("declaration") or node
            if declared.type in ("class_declaration", "abstract_class_declaration"):
                name = text_of(declared.child_by_field_name("name"))
                self.symbols[name] = f"{self.module}.{name}"
            elif declared.type == "lexical_declaration":  # const users = pgTable(...)
                for item in declared.named_children:
                    name = text_of(item.child_by_field_name("name"))
                    self.symbols.setdefault(name, f"{self.module}.{name}")
        self._scope(root, {}, {})

    def _import(self, node: Syntax) -> None:
        spec = string_of(node.child_by_field_name("source")) or ""
        if not spec.startswith("."):
            return
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), spec))
        for item in _descendants(node, ("import_specifier", "identifier")):
            if item.type == "identifier" and item.parent is not None:
                if item.parent.type == "import_clause":  # import Post from "./Post"
                    self.symbols[text_of(item)] = f"{target}.{text_of(item)}"
                continue
            name = text_of(item.child_by_field_name("name"))
            alias = item.child_by_field_name("alias")
            self.symbols[text_of(alias) if alias else name] = f"{target}.{name}"

    def _scope(self, node: Syntax, repos: dict[str, str], fields: dict[str, str]) -> None:
        """Walk ``node``: ``repos`` the local names bound to a repository in the functions
        around, ``fields`` the injected repository fields of the class around."""
        stack: list[tuple[Syntax, dict[str, str], dict[str, str]]] = [(node, repos, fields)]
        while stack:
            item, held, injected = stack.pop()
            if item.type in _FUNCTIONS:
                held = dict(held)  # names bound inside stay inside
                self._bind_all(item, held)
            elif item.type in ("class_declaration", "abstract_class_declaration", "class"):
                injected = self._injected(item)
            elif item.type == "call_expression":
                self._call(item, held, injected)
            stack.extend((c, held, injected) for c in reversed(item.named_children))

    def _bind_all(self, function: Syntax, held: dict[str, str]) -> None:
        body = function.child_by_field_name("body")
        for declarator in _descendants(body, ("variable_declarator",), stop=_FUNCTIONS):
            name = declarator.child_by_field_name("name")
            model = self._repository(declarator.child_by_field_name("value"))
            if name is not None and name.type == "identifier" and model:
                held[text_of(name)] = model

    def _repository(self, value: Syntax | None) -> str:
        """The model ``getRepository(M)`` (awaited or not) stands for, or ''."""
        if value is not None and value.type == "await_expression" and value.named_children:
            value = value.named_children[0]
        if value is None or value.type != "call_expression":
            return ""
        callee = value.child_by_field_name("function")
        if callee is None:
            return ""
        name = callee if callee.type == "identifier" else callee.child_by_field_name("property")
        if text_of(name) not in _GETTERS:
            return ""
        args = arguments_of(value)
        return self.symbols.get(text_of(args[0]), "") if args else ""

    def _injected(self, cls: Syntax) -> dict[str, str]:
        """``constructor(@InjectRepository(User) private users: Repository<User>)`` and
        ``@InjectRepository(User) users: Repository<User>``: field -> model."""
        found: dict[str, str] = {}
        for holder in _descendants(cls, ("required_parameter", "public_field_definition")):
            for decorator in (c for c in holder.children if c.type == "decorator"):
                call = decorator.named_children[0] if decorator.named_children else None
                if call is None or call.type != "call_expression":
                    continue
                if text_of(call.child_by_field_name("function")) != "InjectRepository":
                    continue
                args = arguments_of(call)
                name = holder.child_by_field_name("pattern") or holder.child_by_field_name("name")
                model = self.symbols.get(text_of(args[0]), "") if args else ""
                if name is not None and model:
                    found[text_of(name)] = model
        return found

    def _call(self, call: Syntax, held: dict[str, str], injected: dict[str, str]) -> None:
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            return
        method = text_of(callee.child_by_field_name("property"))
        if method in _DRIZZLE:
            self._drizzle(call, _DRIZZLE[method])
        mode = _MODES.get(method)
        receiver = callee.child_by_field_name("object")
        if mode is None or receiver is None:
            return
        model = self._entity_argument(call)
        if model:  # manager.find(User, ...): an EntityManager's method names the entity first
            self._add(call, model, mode, Provenance.ORM_ARGUMENT)
            return
        if receiver.type == "identifier":
            model = held.get(text_of(receiver), "")
        elif receiver.type == "call_expression":
            model = self._repository(receiver)
        elif receiver.type == "member_expression":
            head = receiver.child_by_field_name("object")
            if head is not None and head.type == "this":
                model = injected.get(text_of(receiver.child_by_field_name("property")), "")
        if model:
            self._add(call, model, mode, Provenance.ORM_REPOSITORY)

    def _drizzle(self, call: Syntax, mode: str) -> None:
        args = arguments_of(call)
        if args and args[0].type == "identifier":
            table = self.symbols.get(text_of(args[0]))
            if table:
                self._add(call, table, mode, Provenance.ORM_ARGUMENT)

    def _entity_argument(self, call: Syntax) -> str:
        """``manager.find(User, {...})``, ``dataSource.manager.delete(User, id)``: the first
        argument names a class this file imports or declares (a model or not:
        ``codemap.data.assemble`` keeps models only)."""
        args = arguments_of(call)
        if not args or args[0].type != "identifier":
            return ""
        return self.symbols.get(text_of(args[0]), "")

    def _add(self, call: Syntax, model: str, mode: str, provenance: Provenance) -> None:
        (row, col), (end_row, end_col) = call.start_point, call.end_point
        where = Location(self.path, row + 1, col, end_row + 1, end_col)
        quote = self.lines[row] if row < len(self.lines) else ""
        caller = self._owner(row + 1)
        self.data.accesses.append(Access(caller, "static", model, mode, provenance, where, quote))

    def _owner(self, line: int) -> NodeKey:
        found = self.module_key
        for node in self.owners[: bisect_right(self.starts, line)]:
            if node.line <= line <= node.end_line:
                found = node.key
        return found


def _descendants(
    node: Syntax | None, kinds: tuple[str, ...], stop: frozenset[str] = frozenset()
) -> list[Syntax]:
    out: list[Syntax] = []
    stack = list(node.named_children) if node is not None else []
    while stack:
        item = stack.pop()
        if item.type in kinds:
            out.append(item)
        if item.type not in stop:
            stack.extend(item.named_children)
    return out
