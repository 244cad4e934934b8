"""A call's arguments read as routes and clients need them, from the solved values: a literal
path or URL (strings and constants folded, f-strings and ``+`` in pieces), the HTTP methods,
the handler a route names, the router object an argument holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.values.state import Flow
from groundkit.codemap.extract.python.web.frameworks import METHODS
from groundkit.codemap.model import Location, NodeKey, NodeKind
from groundkit.codemap.routes import HttpCallSite, Mount, RouteDecl, RouterDef

__all__ = ["FileNodes", "WebContext"]


class FileNodes(Protocol):
    """What web facts need of the resolver of the file they are found in
    (``resolve.graph.PythonFile``): places, quoted lines, and the nodes code belongs to."""

    def location(
        self, line: int, col: int = 0, end_line: int = 0, end_col: int = 0
    ) -> Location: ...

    def text(self, line: int) -> str:
        """The line as written, for evidence."""
        ...

    def caller(self, scope: int) -> NodeKey:
        """The node whose code a scope's code is (a comprehension's is its function's)."""
        ...

    def scope_node(self, scope: int) -> NodeKey | None:
        """The node a scope is (None for a comprehension)."""
        ...

    def external(self, name: str) -> NodeKey:
        """An outside node by its top-level name, added to the file's graph once."""
        ...


_DEPTH = 8


@dataclass(slots=True)
class WebContext:
    """One file's web facts being found, and how to read its arguments."""

    flow: Flow
    info: FileInfo
    # The file's resolver; None for a context that only reads another file's arguments
    # (a Django ``path()`` written in a list of another module).
    node: FileNodes | None
    routers: list[RouterDef] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    routes: list[RouteDecl] = field(default_factory=list)
    http: list[HttpCallSite] = field(default_factory=list)

    @property
    def program(self) -> Program:
        return self.flow.program

    def held(self, var: int) -> set[int] | frozenset[int]:
        """The values a variable of this file holds."""
        return self.flow.engine.held(self.info.var(var))

    @property
    def resolver(self) -> FileNodes:
        assert self.node is not None, "a context made to read arguments only"
        return self.node

    def kind(self, value: int) -> int:
        """What a value is (``objects.EXT``, ``objects.STR``...); its other fields are read
        through ``flow.values``' named accessors. (Read in place: it runs for every value at
        every call site.)"""
        kind: int = self.flow.values.keys[value][0]
        return kind

    # -- arguments --------------------------------------------------------------------------------
    @staticmethod
    def arg(site: facts.Site, index: int | None, *names: str) -> int | None:
        for name, var in site.keywords:
            if name in names:
                return var
        if index is not None and index < len(site.args) and site.args[index] >= 0:
            return site.args[index]
        return None

    def pieces(self, var: int | None, depth: int = 0) -> list[str | None] | None:
        """A string-building expression as literal text and None for an unknown part; None
        when it is not building a string."""
        if var is None or depth > _DEPTH:
            return None
        op = self.info.op_of(var)
        if isinstance(op, facts.Tmpl):
            out: list[str | None] = []
            for piece in op.pieces:
                if isinstance(piece, int):
                    out.extend(self.pieces(piece, depth + 1) or [None])
                else:
                    out.append(piece)
            return out
        if isinstance(op, facts.BinOp) and op.method == "__add__":
            left, right = self.pieces(op.left, depth + 1), self.pieces(op.right, depth + 1)
            if left is None and right is None:
                return None
            return [*(left or [None]), *(right or [None])]
        held = self.held(var)
        texts = {self.flow.values.name(v) for v in held if self.kind(v) == objects.STR}
        if len(texts) == 1 and all(self.kind(v) == objects.STR for v in held):
            return [texts.pop()]
        return None

    def literal(self, var: int | None) -> str | None:
        found = self.pieces(var)
        if found is None or any(p is None for p in found):
            return None
        return "".join(p for p in found if p is not None)

    def methods(self, attr: str, site: facts.Site) -> tuple[str, ...]:
        if attr in METHODS:
            return (attr.upper(),)
        if attr not in ("route", "api_route", "add_url_rule", "add_api_route", "add_route"):
            return ()
        given = self.arg(site, None, "methods")
        if given is None:
            return ("GET",)
        out = set()
        for value in self.held(given):
            if self.kind(value) != objects.CONT:
                return ()
            for slot in self.flow.slots.get(value, {}).values():
                for item in self.flow.engine.held(slot):
                    if self.kind(item) != objects.STR:
                        return ()
                    out.add(self.flow.values.name(item).upper())
        return tuple(sorted(out))

    def handler(self, var: int | None) -> NodeKey | None:
        """The function (or class-based view) a route is served by."""
        if var is None:
            return None
        op = self.info.op_of(var)
        if isinstance(op, facts.Call):  # SomeView.as_view(): the class
            callee = self.info.op_of(op.func)
            if isinstance(callee, facts.Attr) and callee.attr == "as_view":
                var = callee.obj
        found: set[NodeKey] = set()
        for value in self.held(var):
            kind = self.kind(value)
            if kind in (objects.FUNC, objects.METH):
                found.add(self._node(self.flow.values.function(value)))
            elif kind == objects.CLASS:
                found.add(self._node(self.flow.values.class_of(value)))
            elif kind == objects.EXT and self.flow.values.name(value) != "?":
                # A view from a library (TemplateView): served all the same.
                top = self.flow.values.name(value).split(".")[0]
                found.add(NodeKey(NodeKind.EXTERNAL, top, ""))
        return found.pop() if len(found) == 1 else None

    def _node(self, key: tuple[int, int]) -> NodeKey:
        info = self.program.files[key[0]]
        scope = info.facts.scopes[key[1]]
        kinds = {
            Kind.CLASS: NodeKind.CLASS,
            Kind.METHOD: NodeKind.METHOD,
        }
        kind = kinds.get(Kind(scope.kind), NodeKind.FUNCTION)
        return NodeKey(kind, f"{info.module}.{scope.qual}", info.path)

    def router(self, var: int | None) -> str | None:
        """The router object a variable holds (one made by a call whose result is bound to a
        name), by that name."""
        if var is None:
            return None
        found = {self.origin(v) for v in self.held(var)}
        found.discard(None)
        return found.pop() if len(found) == 1 else None

    def origin(self, value: int) -> str | None:
        made = self.flow.values.made_at(value) if self.kind(value) == objects.EXTINST else None
        if made is None:
            return None
        return self.named(made)

    def named(self, made: tuple[int, int]) -> str | None:
        """A router's name: the variable a call site's result is bound to (None when it is
        not bound to one)."""
        file, index = made
        info = self.program.files[file]
        site = info.facts.sites[index]
        if not site.holder:
            return None
        scope = info.facts.scopes[site.scope].qual
        return f"py:{info.module}.{scope + '.' if scope else ''}{site.holder}"
