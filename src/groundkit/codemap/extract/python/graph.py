"""One Python file's facts, resolved against the rest of the repository, as nodes and edges."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.evaluate import Evaluator, How
from groundkit.codemap.extract.python.values import (
    KINDS,
    Bound,
    Builtin,
    Def,
    Ext,
    ExtInst,
    Inst,
    Lit,
    Mod,
    Str,
    Tmpl,
    Value,
    node_key,
)
from groundkit.codemap.extract.python.web import WebFacts
from groundkit.codemap.model import (
    EdgeFlag,
    EdgeKind,
    Location,
    Node,
    NodeKey,
    NodeKind,
    Provenance,
)

__all__ = ["resolve_file"]

_CALL_PROVENANCE = {
    "local": Provenance.CALL_LOCAL,
    "imported": Provenance.CALL_IMPORTED,
    "self": Provenance.CALL_SELF,
    "super": Provenance.CALL_SUPER,
    "instance": Provenance.CALL_INSTANCE,
    "annotation": Provenance.CALL_ANNOTATION,
    "return": Provenance.CALL_RETURN,
}
_FLAGS = {"type_checking": EdgeFlag.TYPE_CHECKING, "optional": EdgeFlag.OPTIONAL}


def module_key(evaluator: Evaluator, path: str) -> NodeKey:
    info = evaluator.layout.modules[path]
    return NodeKey(NodeKind.PACKAGE if info.is_package else NodeKind.MODULE, info.name, path)


def resolve_file(evaluator: Evaluator, path: str) -> FileGraph:
    evaluator.start(path)
    return _FileResolver(evaluator, path).run()


class _FileResolver:
    def __init__(self, evaluator: Evaluator, path: str) -> None:
        self.ev = evaluator
        self.path = path
        self.module = evaluator.module_name(path)
        self.body: Any = evaluator.body(path)
        self.iface: Any = evaluator.interface(path)
        self.lines: dict[str, str] = self.body["lines"]
        self.edges = EdgeSet()
        self.graph = FileGraph()
        self.scope_keys: list[NodeKey | None] = []
        self.web = WebFacts(evaluator, path, self)

    def run(self) -> FileGraph:
        self._nodes()
        self._imports()
        self._inherits()
        self._calls()
        self.web.urlconfs(self.body["lists"])
        self.web.routers()
        self.graph.edges = self.edges.edges()
        self.web.finish(self.graph)
        own = "py:" + self.module
        self.graph.depends_on = frozenset(d for d in self.ev.deps if d != own)
        return self.graph

    # -- helpers ----------------------------------------------------------------------------------
    def location(self, line: int, col: int = 0, end_line: int = 0, end_col: int = 0) -> Location:
        return Location(self.path, line, col, end_line or line, end_col)

    def text(self, line: int) -> str:
        return self.lines.get(str(line), "")

    def caller(self, scope: int) -> NodeKey:
        """The node a scope's code belongs to: lambdas and comprehensions belong to theirs."""
        key = self.scope_keys[scope]
        while key is None:
            scope = self.body["scopes"][scope][2]
            key = self.scope_keys[scope]
        return key

    # -- nodes and containment --------------------------------------------------------------------
    def _nodes(self) -> None:
        module = module_key(self.ev, self.path)
        scopes = self.body["scopes"]
        self.graph.nodes.append(Node(module, "python", 1, scopes[0][4]))
        self.scope_keys.append(module)
        for qual, kind, parent, line, end, at in scopes[1:]:
            if kind not in KINDS:
                self.scope_keys.append(None)
                continue
            key = NodeKey(KINDS[kind], f"{self.module}.{qual}", self.path)
            self.scope_keys.append(key)
            self.graph.nodes.append(Node(key, "python", line, end))
            owner = self.caller(parent)
            self.edges.add(
                EdgeKind.DEFINES, owner, key, Provenance.DEFINE, self.location(at), self.text(at)
            )
        parent = self.module.rpartition(".")[0]
        if parent:
            found = self.ev.find_module(parent)
            if found is not None and self.ev.layout.modules[found].is_package:
                self.ev.interface(found)  # depends on it: it going away takes this edge
                self.edges.add(
                    EdgeKind.DEFINES,
                    module_key(self.ev, found),
                    module,
                    Provenance.DEFINE,
                    self.location(1),
                    self.text(1),
                )

    # -- imports (grimp's rules: module -> module, `from pkg import name` -> pkg.name when that
    # is a submodule, else pkg; no implicit edge to a parent package) ------------------------------
    def _imports(self) -> None:
        source = self.scope_keys[0]
        assert source is not None
        for scope, module, level, name, _asname, line, col, eline, ecol, flags in self.body[
            "imports"
        ]:
            absolute = self.ev.absolute(self.path, module, level)
            if absolute is None:
                continue  # beyond the top-level package: Python would refuse it too
            target = self._import_target(absolute, name)
            if target is None:
                continue
            provenance = (
                Provenance.IMPORT_STAR
                if name == "*"
                else Provenance.IMPORT_RELATIVE
                if level
                else Provenance.IMPORT_ABSOLUTE
            )
            marks = {_FLAGS[f] for f in flags if f in _FLAGS}
            if scope != 0:
                marks.add(EdgeFlag.LAZY)
            where = self.location(line, col, eline, ecol)
            self.edges.add(
                EdgeKind.IMPORTS,
                source,
                target,
                provenance,
                where,
                self.text(line),
                frozenset(marks),
            )

    def _import_target(self, module: str, name: str | None) -> NodeKey | None:
        candidates = [f"{module}.{name}", module] if name and name != "*" else [module]
        for candidate in candidates:
            found = self.ev.find_module(candidate)
            if found is not None:
                return module_key(self.ev, found)
        if self.ev.is_internal_top(module):
            return None  # a module of the repository that is not there: nothing to point at
        return self.external(module.split(".", maxsplit=1)[0])

    def external(self, name: str) -> NodeKey:
        key = NodeKey(NodeKind.EXTERNAL, name, "")
        self.graph.nodes.append(Node(key, ""))
        return key

    # -- classes ----------------------------------------------------------------------------------
    def _inherits(self) -> None:
        scopes = self.body["scopes"]
        for index, (qual, kind, *_rest) in enumerate(scopes):
            if kind != "class":
                continue
            at = scopes[index][5]
            source = self.scope_keys[index]
            assert source is not None
            cls = Def(self.path, self.module, qual, "class")
            for base in self.ev.mro(cls)[0][1:]:
                if base not in self._direct_bases(cls):
                    continue
                self.edges.add(
                    EdgeKind.INHERITS,
                    source,
                    node_key(base),
                    Provenance.INHERIT_BASE,
                    self.location(at),
                    self.text(at),
                )

    def _direct_bases(self, cls: Def) -> list[Def]:
        out = []
        for ref in self.iface["classes"][cls.qual]["bases"]:
            value, _ = self.ev.apply(
                self.ev.lookup((self.path, ("module",)), ref[0]), ref[1:], self.path, -1
            )
            if isinstance(value, Def) and value.kind == "class":
                out.append(value)
        return out

    # -- calls ------------------------------------------------------------------------------------
    def _calls(self) -> None:
        scopes = self.body["scopes"]
        for index, call in enumerate(self.body["calls"]):
            scope, ref, line, col, eline, ecol, how, _target, _args, why = call
            if ref is None:
                if why != "lit":
                    self.graph.unresolved += 1
                continue
            hits: list[tuple[Def, How]] = []
            self.ev.properties = hits
            try:
                value, reached = self._callee(scope, ref, scopes)
            finally:
                self.ev.properties = None
            where = self.location(line, col, eline, ecol)
            caller = self.caller(scope)
            for getter, via in hits:  # a property read (or set) on the way runs its function
                self._edge_to(getter, via, False, caller, where, line)
            if how in ("a", "s"):
                continue  # a plain attribute: nothing runs
            self.web.call(index, value, call, caller, where)
            self._edge_to(value, reached, how == "d", caller, where, line)
            if how == "d" and _args is not None and isinstance(value, Def):
                # @factory(...): the scope then applies what the factory returned.
                applied = self.ev.returns(value)
                if isinstance(applied, Def):
                    self._edge_to(applied, ("local", False), True, caller, where, line)

    def _callee(self, scope: int, ref: list[str], scopes: list[Any]) -> tuple[Value, How]:
        ev = self.ev
        if ref[0].startswith("<def>"):  # a lambda called where it is written
            return ev.definition(self.path, ref[0][5:]), ("local", False)
        if ref[0] == "super" and len(ref) > 1 and ref[1] == "()":
            cls = _enclosing_class(scopes, scope)
            if cls is None:
                return Lit(), ("", False)
            start = ev._base(["super", cls], (self.path, ("scope", scope)), -1)
            return ev.apply(start, ref[2:], self.path, -1)
        start = ev.lookup((self.path, ("scope", scope)), ref[0])
        return ev.apply(start, ref[1:], self.path, -1)

    def _edge_to(
        self,
        value: Value,
        reached: How,
        decorator: bool,
        caller: NodeKey,
        where: Location,
        line: int,
    ) -> None:
        if isinstance(value, Inst):
            call = self.ev.attribute(value, reached, "__call__")
            if isinstance(call[0], Def):
                value, reached = call[0], ("instance", call[1][1])
            else:
                self.graph.unresolved += 1
                return
        if not isinstance(value, Def):
            dynamic = isinstance(value, Builtin) and value.name in ("eval", "exec")
            if dynamic or not isinstance(
                value, Ext | ExtInst | Bound | Builtin | Lit | Str | Tmpl | Mod
            ):
                self.graph.unresolved += 1  # eval/exec: code known only at run time
            return
        if value.kind == "class":
            target = node_key(self.ev.constructor(value))
            provenance = Provenance.CALL_CONSTRUCTOR
        else:
            target = node_key(value)
            provenance = _CALL_PROVENANCE.get(reached[0], Provenance.CALL_LOCAL)
            if reached[1] and reached[0] in ("self", "instance", "annotation", "super"):
                provenance = Provenance.CALL_INHERITED if reached[0] != "super" else provenance
        if decorator:
            provenance = Provenance.CALL_DECORATOR
        flags = frozenset({EdgeFlag.REEXPORT}) if reached[0] == "imported" and reached[1] else None
        self.edges.add(
            EdgeKind.CALLS,
            caller,
            target,
            provenance,
            where,
            self.text(line),
            flags or frozenset(),
        )


def _enclosing_class(scopes: list[Any], scope: int) -> str | None:
    while scope > 0:
        kind, parent = scopes[scope][1], scopes[scope][2]
        if kind == "method":
            owner = scopes[parent]
            return str(owner[0]) if owner[1] == "class" else None
        if kind in ("function", "class", "module"):
            return None
        scope = parent
    return None
