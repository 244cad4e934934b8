"""Expressions: call sites (with the arguments routes and HTTP clients need), attribute reads
that may be properties, and comprehensions."""

from __future__ import annotations

import ast
from typing import Any

from groundkit.codemap.extract.python.parse.state import UNKNOWN, ParseState, holder_of
from groundkit.codemap.extract.python.syntax import (
    COMPREHENSIONS,
    literal_receiver,
    pieces,
    ref_of,
)

__all__ = ["INTERESTING", "Expressions"]

# Calls whose arguments are kept: route declarations, router objects, HTTP clients, urlconfs.
INTERESTING = frozenset(
    "get post put patch delete head options trace request stream route api_route websocket"
    " include_router register_blueprint add_api_route add_url_rule add_route mount path re_path"
    " url include FastAPI APIRouter Flask Blueprint Starlette Router Client AsyncClient Session"
    " ClientSession TestClient as_view format".split()
)


class Expressions(ParseState):
    """Every expression, walked for the calls and attribute reads inside it."""

    def _expr(self, node: ast.expr) -> None:
        kind = type(node)
        if kind is ast.Call:
            self._call(node)  # type: ignore[arg-type]
        elif kind is ast.Name or kind is ast.Constant:
            return
        elif kind is ast.Attribute:
            self._attribute(node)  # type: ignore[arg-type]
        elif kind is ast.Lambda:
            self._lambda(node)  # type: ignore[arg-type]
        elif kind in COMPREHENSIONS:
            self._comprehension(node)
        elif kind is ast.NamedExpr:
            self._expr(node.value)  # type: ignore[attr-defined]
            self._bind(node.target.id, self._value(node.value))  # type: ignore[attr-defined]
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._expr(child)
                elif isinstance(child, ast.AST):
                    self._generic(child)

    def _attribute(self, node: ast.Attribute, how: str = "a") -> None:
        """An attribute read (``a``) or written (``s``): an edge when it turns out to be a
        property, whose getter or setter then runs; nothing otherwise."""
        ref = ref_of(node)
        if ref is not None and len(ref) > 1 and ref[-1] != "()" and not self._module_ref(ref[0]):
            self.calls.append([self.scope.index, ref, *self._where(node), how, -1, None, None])
        inner: ast.expr = node.value
        while isinstance(inner, ast.Attribute):
            inner = inner.value
        if not isinstance(inner, ast.Name):
            self._expr(inner)

    def _module_ref(self, name: str) -> bool:
        """A name only ever bound to a module by ``import``: its attributes are never
        properties, so reading them is not recorded (``os.path``, ``np.float32``)."""
        if holder_of(self.scope, name) is not self.scope_objs[0]:
            return False
        bound = self.scope_objs[0].bindings.get(name, ())
        return bool(bound) and all(v[0][0] == "mod" for v in bound)

    def _call(self, node: ast.Call, how: str = "c", target: int = -1) -> int:
        func = node.func
        ref = ref_of(func)
        # Inner parts first: `a(b)(c)` records a(b), then its result called.
        if isinstance(func, ast.Attribute | ast.Call):
            self._expr(func.value if isinstance(func, ast.Attribute) else func)
        elif not isinstance(func, ast.Name):
            self._expr(func)
        for arg in node.args:
            self._expr(arg)
        for keyword in node.keywords:
            self._expr(keyword.value)
        why = None
        if ref is None and isinstance(func, ast.Lambda) and id(func) in self._lambdas:
            ref = ["<def>" + self._lambdas[id(func)]]  # (lambda: ...)(): that very lambda
        if ref is None:
            why = "lit" if literal_receiver(func) else "dyn"
        if ref == ["setattr"] and node.args:
            owner = ref_of(node.args[0])
            attr = node.args[1] if len(node.args) > 1 else None
            literal = attr.value if isinstance(attr, ast.Constant) else None
            if owner and "()" not in owner:
                self.patched.append([owner, literal if isinstance(literal, str) else None])
        args = None
        name = ref[-1] if ref else func.attr if isinstance(func, ast.Attribute) else None
        if name in INTERESTING or how == "d":
            args = self._args(node)
        index = len(self.calls)
        self.calls.append([self.scope.index, ref, *self._where(node), how, target, args, why])
        self._site_of[id(node)] = index
        return index

    def _args(self, node: ast.Call) -> list[Any]:
        positional = [self._summary(a) for a in node.args]
        keywords = {k.arg: self._summary(k.value) for k in node.keywords if k.arg}
        receiver = None
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant):
            receiver = node.func.value.value if isinstance(node.func.value.value, str) else None
        return [positional, keywords, receiver]

    def _summary(self, expr: ast.expr) -> list[Any]:
        """An argument as routes and HTTP calls need it."""
        if isinstance(expr, ast.Constant):
            return ["s", expr.value] if isinstance(expr.value, str) else ["?"]
        if isinstance(expr, ast.JoinedStr | ast.BinOp):
            parts = pieces(expr)
            return ["t", parts] if parts is not None else ["?"]
        if isinstance(expr, ast.Call):
            site = self._site_of.get(id(expr))
            return ["c", site] if site is not None else ["?"]
        if isinstance(expr, ast.List | ast.Tuple):
            return ["l", [self._summary(e) for e in expr.elts]]
        ref = ref_of(expr)
        return ["r", ref] if ref else ["?"]

    def _comprehension(self, node: ast.AST) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        self._expr(generators[0].iter)  # evaluated in the enclosing scope
        outer = self.scope
        line = node.lineno  # type: ignore[attr-defined]
        scope = self._push(outer.qual, "comp", outer, line, line)
        self.scope = scope
        for i, gen in enumerate(generators):
            if i:
                self._expr(gen.iter)
            self._target(gen.target, UNKNOWN, None)
            for cond in gen.ifs:
                self._expr(cond)
        if isinstance(node, ast.DictComp):
            self._expr(node.key)
            self._expr(node.value)
        else:
            self._expr(node.elt)  # type: ignore[attr-defined]
        self.scope = outer
