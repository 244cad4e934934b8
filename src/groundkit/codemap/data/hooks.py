"""Functions a web framework runs before each request of a router, read from one file's syntax
(``codemap.data``; ``codemap.route_hooks`` draws them as calls from the routes' handlers).

Flask: ``@bp.before_request`` / ``@app.before_request`` over a function, or
``app.before_request(f)``; ``@bp.before_app_request`` (every request of the app). FastAPI:
``APIRouter(dependencies=[Depends(f)])`` and ``FastAPI(dependencies=[...])``. The router is the
variable a ``Flask(...)``, ``Blueprint(...)``, ``FastAPI(...)`` or ``APIRouter(...)`` call is
bound to, at module level or in a function (an app factory), named as the routes are
(``py:flaskr.auth.bp``, ``py:flaskr.create_app.app``). Not read: ``include_router(r,
dependencies=...)`` (only that mount's routes: the same router mounted twice would need the
mount on the route), a router made any other way.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from groundkit.codemap.data import Hook
from groundkit.codemap.data.depends import dependency_of
from groundkit.codemap.model import Provenance

if TYPE_CHECKING:
    from groundkit.codemap.data.python import _Reader

__all__ = ["read_hooks"]

_FLASK = frozenset({"flask.Flask", "flask.app.Flask", "flask.Blueprint"})
_FLASK |= {"flask.blueprints.Blueprint"}
_FASTAPI = frozenset({"fastapi.FastAPI", "fastapi.APIRouter", "fastapi.routing.APIRouter"})
_FASTAPI |= {"fastapi.applications.FastAPI"}
# hook -> whether it runs for every request of the app (not only the router's own)
_HOOKS = {"before_request": False, "before_app_request": True}

_Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef


def read_hooks(reader: _Reader, tree: ast.Module) -> None:
    _scope(reader, tree, "", {})


def _scope(reader: _Reader, scope: _Scope, qual: str, outer: dict[str, str]) -> None:
    """``outer``: router variables of the enclosing scopes, name -> router."""
    routers = dict(outer)
    prefix = f"py:{reader.module.qualname}.{qual + '.' if qual else ''}"
    for node in scope.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                kind = reader.dotted(node.value.func)
                if kind in _FLASK or kind in _FASTAPI:
                    routers[target.id] = prefix + target.id
                    if kind in _FASTAPI:
                        _dependencies(reader, routers[target.id], node.value)
                elif target.id in routers:
                    del routers[target.id]  # bound again to something else
    own = {n.name for n in scope.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for found in _body(scope):
        if isinstance(found, ast.Call) and found.args:
            _registered(reader, found, routers, own, qual)
    for node in scope.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{qual}.{node.name}" if qual else node.name
            for decorator in node.decorator_list:
                _decorator(reader, decorator, routers, f"{reader.module.qualname}.{name}")
            _scope(reader, node, name, routers)


def _body(scope: _Scope) -> list[ast.AST]:
    """The nodes of a scope's own statements (not its nested functions')."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(scope.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _decorator(reader: _Reader, node: ast.expr, routers: dict[str, str], function: str) -> None:
    if not isinstance(node, ast.Attribute) or node.attr not in _HOOKS:
        return
    if not isinstance(node.value, ast.Name) or node.value.id not in routers:
        return
    _add(reader, routers[node.value.id], function, _HOOKS[node.attr], node)


def _registered(
    reader: _Reader, call: ast.Call, routers: dict[str, str], own: set[str], qual: str
) -> None:
    """``app.before_request(load_user)``: a function of this scope or one the imports name."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _HOOKS:
        return
    if not isinstance(func.value, ast.Name) or func.value.id not in routers:
        return
    given = call.args[0]
    if isinstance(given, ast.Name) and given.id in own:
        module = reader.module.qualname
        name = f"{module}.{qual}.{given.id}" if qual else f"{module}.{given.id}"
    else:
        name = reader.dotted(given) or ""
    if name:
        _add(reader, routers[func.value.id], name, _HOOKS[func.attr], call)


def _dependencies(reader: _Reader, router: str, call: ast.Call) -> None:
    for keyword in call.keywords:
        if keyword.arg != "dependencies" or not isinstance(keyword.value, ast.List | ast.Tuple):
            continue
        for item in keyword.value.elts:
            name = dependency_of(reader, item, None) if isinstance(item, ast.Call) else None
            if name:
                where, quote = reader.where(item)
                hook = Hook(router, name, False, Provenance.FASTAPI_DEPENDS, where, quote)
                reader.data.hooks.append(hook)


def _add(reader: _Reader, router: str, function: str, app_wide: bool, node: ast.AST) -> None:
    where, quote = reader.where(node)
    reader.data.hooks.append(Hook(router, function, app_wide, Provenance.FLASK_HOOK, where, quote))
