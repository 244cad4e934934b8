"""One TypeScript/JavaScript file's facts, resolved against the rest of the repository, as nodes
and edges: modules, functions, classes and methods; imports, inheritance, containment; calls
(``calls.py``); routes and HTTP client calls (``web``)."""

from __future__ import annotations

from groundkit.codemap.data import READ, WRITE, Access
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.resolver import FileResolver
from groundkit.codemap.extract.typescript.dependencies import is_dependency
from groundkit.codemap.extract.typescript.parse.facts import ImportKind, ScopeKind
from groundkit.codemap.extract.typescript.resolve.accessors import resolve_member
from groundkit.codemap.extract.typescript.resolve.calls import resolve_call
from groundkit.codemap.extract.typescript.resolve.iterations import resolve_iteration
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.events import Events
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.memo import SPENT
from groundkit.codemap.extract.typescript.values.objects import (
    Def,
    Ext,
    Mod,
    module_key,
    node_key,
)
from groundkit.codemap.extract.typescript.web import WebFacts
from groundkit.codemap.model import EdgeFlag, EdgeKind, NodeKey, NodeKind, Provenance

__all__ = ["FLOW_KEY", "TypeScriptFile"]

# The key every source file provides for the value flow: a file that read other files' pass
# sites or member writes is resolved again when any file's interface changes.
FLOW_KEY = "ts:#flow"

_KINDS = {
    ScopeKind.CLASS: NodeKind.CLASS,
    ScopeKind.FUNCTION: NodeKind.FUNCTION,
    ScopeKind.METHOD: NodeKind.METHOD,
}
_IMPORTS = {
    ImportKind.IMPORT: Provenance.TS_IMPORT,
    ImportKind.EXPORT: Provenance.TS_IMPORT,
    ImportKind.REQUIRE: Provenance.TS_REQUIRE,
    ImportKind.DYNAMIC: Provenance.TS_DYNAMIC_IMPORT,
    ImportKind.REFERENCE: Provenance.TS_REFERENCE,
}


class TypeScriptFile(FileResolver):
    language = "typescript"

    def __init__(self, ev: Evaluator, flow: Flow, events: Events, path: str) -> None:
        self.body = ev.start(path)
        super().__init__(path, self.body.lines)
        self.ev = ev
        self.flow = flow
        self.events = events
        self.keys: list[NodeKey | None] = []
        self.web = WebFacts(ev, self.text, flow)

    def run(self) -> FileGraph:
        self.flow.consulted = False
        self._nodes()
        self._imports()
        self._inherits()
        for site in self.body.calls:
            resolve_call(self, site)
        for member in self.body.members:
            resolve_member(self, member)
        for iteration in self.body.iterations:
            resolve_iteration(self, iteration)
        self._envs()
        if self.ev.memo.spent:
            self.web.data.unresolved[SPENT] += 1  # its values past the budget: unknown
        graph = self.finish()
        # a package's function (read for the value flow only) is never a node: no edge to it
        graph.edges = [e for e in graph.edges if not is_dependency(e.target.path or "")]
        self.web.finish(graph)
        deps = {d for d in self.ev.deps if d != "ts:" + self.path}
        if self.flow.consulted:
            deps.add(FLOW_KEY)
        graph.depends_on = frozenset(deps)
        return graph

    def caller(self, scope: int) -> NodeKey:
        """The node a scope's code belongs to: an anonymous function's is the one around it."""
        key = self.keys[scope]
        while key is None:
            scope = self.body.scopes[scope].parent
            key = self.keys[scope]
        return key

    def _envs(self) -> None:
        data = self.web.data
        for read in self.body.envs:
            if not read.name:
                data.unresolved["environment variable named at run time"] += 1
                continue
            where = self.location(read.line, read.col, read.end_line, read.end_col)
            caller = self.caller(read.scope)
            quote = self.text(read.line)
            how = Provenance.ENV_WRITE if read.written else Provenance.ENV_READ
            mode = WRITE if read.written else READ
            data.accesses.append(Access(caller, "env", read.name, mode, how, where, quote))

    # -- nodes and containment --------------------------------------------------------------------
    def _nodes(self) -> None:
        scopes = self.body.scopes
        module = module_key(self.path)
        self.node(module, 1, scopes[0].end)
        self.keys.append(module)
        seen = {module}
        for scope in scopes[1:]:
            kind = _KINDS.get(ScopeKind(scope.kind))
            if kind is None:
                self.keys.append(None)
                continue
            key = NodeKey(kind, f"{module.qualname}.{scope.qual}", self.path)
            self.keys.append(key)
            if key in seen:
                continue  # a getter and its setter: one node
            seen.add(key)
            self.node(key, scope.line, scope.end)
            self.defines(self.caller(scope.parent), key, scope.at)

    # -- imports ----------------------------------------------------------------------------------
    def _imports(self) -> None:
        source = self.keys[0]
        assert source is not None
        for site in self.body.imports:
            target = self.ev.imported(self.path, site.spec)
            if isinstance(target, Mod):
                key = module_key(target.path)
            elif isinstance(target, Ext):
                key = self.external(target.package)
                packages = self.ev.packages
                reason = packages.not_read(self.path, site.spec) if packages else None
                if reason is not None:  # its code was meant for the value flow: say why not
                    self.web.data.unresolved[f"package code not read: {reason}"] += 1
            else:
                continue  # a file of the repository that is not there (or not code): no edge
            flags = set()
            if site.type_only:
                flags.add(EdgeFlag.TYPE_CHECKING)  # `import type`: erased at compile time
            if site.scope != 0:
                flags.add(EdgeFlag.LAZY)
            where = self.location(site.line, site.col, site.end_line, site.end_col)
            provenance = _IMPORTS[ImportKind(site.kind)]
            self.edge(EdgeKind.IMPORTS, source, key, provenance, where, site.line, frozenset(flags))

    # -- classes ----------------------------------------------------------------------------------
    def _inherits(self) -> None:
        for index, scope in enumerate(self.body.scopes):
            if scope.kind != ScopeKind.CLASS:
                continue
            source = self.keys[index]
            assert source is not None
            cls = Def(self.path, scope.qual, "class")
            bases = self.ev.classes.bases(cls)
            for base in bases:
                where = self.location(scope.at)
                self.edge(
                    EdgeKind.INHERITS,
                    source,
                    node_key(base),
                    Provenance.TS_EXTENDS,
                    where,
                    scope.at,
                )
            own = self.ev.classes.method(cls, "constructor")
            if bases and (own is None or own[1]):
                # No constructor of its own: the implicit one calls the base's (super(...args)).
                target = node_key(self.ev.classes.constructor(bases[0]))
                where = self.location(scope.at)
                self.edge(EdgeKind.CALLS, source, target, Provenance.TS_SUPER, where, scope.at)
