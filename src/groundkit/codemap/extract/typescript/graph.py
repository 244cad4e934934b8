"""One TypeScript/JavaScript file's facts, resolved against the rest of the repository, as nodes
and edges: modules, functions, classes and methods; imports, calls, inheritance, containment."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.typescript.evaluate import Evaluator, Scope
from groundkit.codemap.extract.typescript.modules import module_name
from groundkit.codemap.extract.typescript.values import (
    Def,
    Ext,
    Global,
    Inst,
    Lit,
    Mod,
    Str,
    Value,
    Web,
)
from groundkit.codemap.extract.typescript.web import WebFacts
from groundkit.codemap.model import EdgeFlag, EdgeKind, Location, Node, NodeKey, NodeKind
from groundkit.codemap.model import Provenance as P

__all__ = ["node_key", "resolve_file"]

LANGUAGE = "typescript"
_KINDS = {"class": NodeKind.CLASS, "function": NodeKind.FUNCTION, "method": NodeKind.METHOD}
_IMPORTS = {
    "import": P.TS_IMPORT,
    "export": P.TS_IMPORT,
    "require": P.TS_REQUIRE,
    "dynamic": P.TS_DYNAMIC_IMPORT,
    "reference": P.TS_REFERENCE,
}
_NOT_COUNTED = (Ext, Global, Lit, Str, Web)  # the runtime's or a package's: not unresolved


def node_key(value: Def) -> NodeKey:
    return NodeKey(_KINDS[value.kind], f"{module_name(value.path)}.{value.qual}", value.path)


def module_key(path: str) -> NodeKey:
    return NodeKey(NodeKind.MODULE, module_name(path), path)


def resolve_file(evaluator: Evaluator, path: str) -> FileGraph:
    return _FileResolver(evaluator, path).run()


class _FileResolver:
    def __init__(self, evaluator: Evaluator, path: str) -> None:
        self.ev = evaluator
        self.path = path
        self.body: Any = evaluator.start(path)
        self.iface: Any = evaluator.interface(path)
        self.module = module_name(path)
        self.edges = EdgeSet()
        self.graph = FileGraph()
        self.keys: list[NodeKey | None] = []
        self.web = WebFacts(self)

    def run(self) -> FileGraph:
        self._nodes()
        self._imports()
        self._inherits()
        self._calls()
        self.graph.edges = self.edges.edges()
        self.web.finish(self.graph)
        self.graph.depends_on = frozenset(d for d in self.ev.deps if d != "ts:" + self.path)
        return self.graph

    # -- helpers ----------------------------------------------------------------------------------
    def location(self, line: int, col: int = 0, end_line: int = 0, end_col: int = 0) -> Location:
        return Location(self.path, line, col, end_line or line, end_col)

    def text(self, line: int) -> str:
        return str(self.body["lines"].get(str(line), ""))

    def caller(self, scope: int) -> NodeKey:
        key = self.keys[scope]
        while key is None:
            scope = self.body["scopes"][scope][2]
            key = self.keys[scope]
        return key

    def external(self, name: str) -> NodeKey:
        key = NodeKey(NodeKind.EXTERNAL, name, "")
        self.graph.nodes.append(Node(key, ""))
        return key

    # -- nodes and containment --------------------------------------------------------------------
    def _nodes(self) -> None:
        scopes = self.body["scopes"]
        module = module_key(self.path)
        self.graph.nodes.append(Node(module, LANGUAGE, 1, scopes[0][4]))
        self.keys.append(module)
        seen = {module}
        for qual, kind, parent, line, end, at, _this in scopes[1:]:
            if kind not in _KINDS:
                self.keys.append(None)
                continue
            key = NodeKey(_KINDS[kind], f"{self.module}.{qual}", self.path)
            self.keys.append(key)
            if key in seen:
                continue  # a getter and its setter: one node
            seen.add(key)
            self.graph.nodes.append(Node(key, LANGUAGE, line, end))
            owner = self.caller(parent)
            self.edges.add(EdgeKind.DEFINES, owner, key, P.DEFINE, self.location(at), self.text(at))

    # -- imports ----------------------------------------------------------------------------------
    def _imports(self) -> None:
        source = self.keys[0]
        assert source is not None
        for kind, spec, scope, line, col, eline, ecol, type_only in self.body["imports"]:
            target = self.ev.resolve(self.path, spec)
            if isinstance(target, Mod):
                key = module_key(target.path)
            elif isinstance(target, Ext):
                key = self.external(target.package)
            else:
                continue  # a file of the repository that is not there (or not code): no edge
            flags = set()
            if type_only:
                flags.add(EdgeFlag.TYPE_CHECKING)  # `import type`: erased at compile time
            if scope != 0:
                flags.add(EdgeFlag.LAZY)
            where = self.location(line, col, eline, ecol)
            self.edges.add(
                EdgeKind.IMPORTS,
                source,
                key,
                _IMPORTS[kind],
                where,
                self.text(line),
                frozenset(flags),
            )

    # -- classes ----------------------------------------------------------------------------------
    def _inherits(self) -> None:
        for index, scope in enumerate(self.body["scopes"]):
            if scope[1] != "class":
                continue
            source = self.keys[index]
            assert source is not None
            for base in self.ev.bases(Def(self.path, scope[0], "class")):
                self.edges.add(
                    EdgeKind.INHERITS,
                    source,
                    node_key(base),
                    P.TS_EXTENDS,
                    self.location(scope[5]),
                    self.text(scope[5]),
                )

    # -- calls ------------------------------------------------------------------------------------
    def _calls(self) -> None:
        for call in self.body["calls"]:
            scope, callee, how, line, col, eline, ecol, args = call
            where = self.location(line, col, eline, ecol)
            caller = self.caller(scope)
            if callee[0] != "r":
                if callee[0] not in ("def", "fn", "lit"):
                    self.graph.unresolved += 1  # (a || b)(), f()(), table[key]()
                continue
            ref: list[str] = callee[1]
            context: Scope = (self.path, scope)
            if ref[0] == "super":
                self._super(ref, context, caller, where, line)
                continue
            receiver = self.ev.reference(ref[:-1], context) if len(ref) > 1 else None
            value = (
                self.ev.attribute(receiver, ref[-1])
                if receiver is not None
                else self.ev.reference(ref, context)
            )
            self.web.call(ref, receiver, value, how, args, context, caller, where)
            self._edge_to(value, ref, receiver, how, caller, where, line)

    def _edge_to(
        self,
        value: Value,
        ref: list[str],
        receiver: Value | None,
        how: str,
        caller: NodeKey,
        where: Location,
        line: int,
    ) -> None:
        if isinstance(value, Mod):  # const f = require("./f"); f(): its module.exports
            value = self.ev.export(value.path, "=")
        if isinstance(value, _NOT_COUNTED):
            return
        if not isinstance(value, Def) or (value.kind == "class" and how != "n"):
            self.graph.unresolved += 1
            return
        if value.kind == "class":
            target, provenance = self.ev.constructor(value), P.TS_NEW
        elif ref[0] == "this":
            target, provenance = value, P.TS_THIS
        elif isinstance(receiver, Inst):
            target, provenance = value, P.TS_INSTANCE
        else:
            target, provenance = value, P.TS_NEW if how == "n" else P.TS_CALL
        self.edges.add(EdgeKind.CALLS, caller, node_key(target), provenance, where, self.text(line))

    def _super(
        self, ref: list[str], context: Scope, caller: NodeKey, where: Location, line: int
    ) -> None:
        cls = self.ev.this_class(context)
        bases = self.ev.bases(cls) if cls is not None else []
        target: Def | None = None
        if bases and len(ref) == 1:
            target = self.ev.constructor(bases[0])  # super(...)
        elif bases and len(ref) == 2:
            found = self.ev.method(bases[0], ref[1])
            target = found[0] if found is not None else None
        if target is None:
            if cls is not None and not self.iface["classes"].get(cls.qual, {}).get("bases"):
                return  # no base at all: nothing to call
            if not bases and cls is not None:
                return  # a base outside the repository (React.Component): the package's
            self.graph.unresolved += 1
            return
        key = node_key(target)
        self.edges.add(EdgeKind.CALLS, caller, key, P.TS_SUPER, where, self.text(line))
