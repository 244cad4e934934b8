"""Routes registered in a loop over the project's own literal table:

    export const AppRoutes = [{path: "/posts", method: "get", action: postGetAllAction}, ...];
    AppRoutes.forEach(route => {
        app[route.method](route.path, (req, res, next) => route.action(req, res));
    });

Each row is a route: the path, the method and the handler the row gives (a member of the loop's
parameter is read from the row). A handler written inline that calls exactly one member of the
row (``route.action(...)``) only forwards the request to it, so the row's function is the
route's handler; any other inline handler is itself. A row whose path or method is not a
literal is no route; a table that is not an array literal of object literals bound once (a
``const``, or an import of one) is no table at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.objects import Def, Feed, Mod, Scope, Value

__all__ = ["Row", "forwarded", "rows_of"]

_LOOPS = frozenset({"forEach", "map"})
_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a route table, read in the module that writes it."""

    fields: dict[str, facts.Expr]
    scope: Scope

    def member(self, given: Value) -> facts.Expr | None:
        """What ``row.key`` is in this row, when ``given`` is that member of the loop's row."""
        if isinstance(given, Feed) and len(given.path) == 1:
            return self.fields.get(given.path[0])
        return None

    def text(self, ev: Evaluator, given: Value) -> str | None:
        member = self.member(given)
        found = ev.text(member, self.scope) if member is not None else None
        if found is None or None in found.pieces:
            return None
        return "".join(p for p in found.pieces if p is not None)


def rows_of(ev: Evaluator, given: Value) -> tuple[Feed, list[Row]] | None:
    """The loop parameter ``given`` is a member of, and the rows of the table the loop runs
    over (``table.forEach(row => ...)``), or None when ``given`` is not such a member."""
    if not isinstance(given, Feed) or given.position != 0 or len(given.path) != 1:
        return None
    func = given.func
    body = ev.body_of(func.path)
    if body is None:
        return None
    for site in body.calls:
        callee = site.callee
        if not isinstance(callee, facts.Ref) or len(callee.parts) < 2:
            continue
        if callee.parts[-1] not in _LOOPS or site.args is None:
            continue
        if site.args[:1] != [facts.Fn(func.qual)]:
            continue
        table = _written(ev, callee.parts[:-1], (func.path, site.scope), 0)
        if table is None:
            return None
        items, scope = table
        if not all(isinstance(i, facts.ObjectLit) for i in items):
            return None
        rows = [Row(i.fields, scope) for i in items if isinstance(i, facts.ObjectLit)]
        return Feed(func, 0), rows
    return None


def _written(
    ev: Evaluator, parts: list[str], scope: Scope, depth: int
) -> tuple[list[facts.Expr], Scope] | None:
    """The items of the array literal a name is bound to, as written, with the scope they are
    read in: a local or module-level binding, followed through imports."""
    if len(parts) != 1 or depth > _DEPTH:
        return None
    path = scope[0]
    bound = _binding(ev, parts[0], scope)
    if bound is None:
        return None
    expr, where = bound
    if isinstance(expr, facts.ArrayLit):
        return expr.items, (path, where)
    if isinstance(expr, facts.Ref):
        return _written(ev, expr.parts, (path, where), depth + 1)
    if isinstance(expr, facts.Import):
        target = ev.resolve(path, expr.spec)
        return _exported(ev, target, expr.name, depth) if isinstance(target, Mod) else None
    return None


def _exported(
    ev: Evaluator, module: Mod, name: str, depth: int
) -> tuple[list[facts.Expr], Scope] | None:
    found = ev.interface(module.path).exports.get(name)
    if isinstance(found, facts.Local):
        return _written(ev, [found.name], (module.path, 0), depth + 1)
    if isinstance(found, facts.From):
        target = ev.resolve(module.path, found.spec)
        return _exported(ev, target, found.name, depth + 1) if isinstance(target, Mod) else None
    if isinstance(found, facts.ArrayLit):
        return found.items, (module.path, 0)
    return None


def _binding(ev: Evaluator, name: str, scope: Scope) -> tuple[facts.Expr, int] | None:
    """What ``name`` is bound to where ``scope`` reads it (a name bound twice is bound to
    ``Unknown`` by the parser), and the scope index it is bound in."""
    path, index = scope
    body = ev.body_of(path)
    while body is not None and index > 0:
        table = body.binds.get(index)
        if table and name in table:
            return table[name], index
        index = body.scopes[index].parent
    names = ev.interface(path).names
    return (names[name], 0) if name in names else None


def forwarded(ev: Evaluator, handler: Def, loop: Feed, row: Row) -> facts.Expr | None:
    """The row's member an inline handler forwards to: the one member of the loop's row it
    calls (``route.action(req, res)``), else None."""
    body = ev.body_of(handler.path)
    if body is None:
        return None
    inside = {i for i, s in enumerate(body.scopes) if _within(body, i, handler.qual)}
    called: set[str] = set()
    for site in body.calls:
        if site.scope not in inside or not isinstance(site.callee, facts.Ref):
            continue
        parts = site.callee.parts
        if len(parts) != 2:
            continue
        value = ev.reference(parts, (handler.path, site.scope))
        if isinstance(value, Feed) and value.func == loop.func and value.position == 0:
            called.add(parts[1])
    if len(called) != 1:
        return None
    return row.fields.get(called.pop())


def _within(body: facts.Body, index: int, qual: str) -> bool:
    """Whether scope ``index`` is the function ``qual`` itself (its nested functions run
    later, if at all, and are not counted)."""
    return body.scopes[index].qual == qual
