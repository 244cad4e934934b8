"""Code a framework runs before each request a router serves, as calls from each route's
handler: Flask's ``before_request`` (an app's: its every route; a blueprint's: the routes of
that blueprint and of those nested in it) and ``Blueprint.before_app_request`` (every route
of each app that registers the blueprint), FastAPI's ``dependencies=[Depends(f)]`` on an
``APIRouter`` or the app. Flask runs every such function before the view, in order, and
stops at one that returns a value (then the view does not run): when a view runs, each of
its hooks has run before it. A handler served by several routes of which only some are
under the hook gets a partial edge (the hook runs for some of its requests).

The hooks are read from each file's syntax (``data/hooks.py``), the routes composed over the
map (``routes.compose``); a hook function is joined to the map's one node of its name, like
a dependency (none or two: counted)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from groundkit.codemap.data import Hook
from groundkit.codemap.model import NodeKey, NodeKind
from groundkit.codemap.routes import Mount, Route, RouterDef

__all__ = ["HookCall", "hook_calls"]

_CALLABLE = frozenset({NodeKind.FUNCTION, NodeKind.METHOD, NodeKind.CLASS})


@dataclass(frozen=True, slots=True)
class HookCall:
    """``handler`` is run after ``hook.function``, which is ``function`` in the map."""

    handler: NodeKey
    function: NodeKey
    hook: Hook
    partial: bool


def hook_calls(
    routes: Sequence[Route],
    routers: Sequence[RouterDef],
    mounts: Sequence[Mount],
    hooks: Sequence[Hook],
    named: Callable[[str], Iterable[NodeKey]],
    unresolved: Counter[str],
) -> list[HookCall]:
    if not hooks:
        return []
    apps = {r.router for r in routers if r.is_app}
    reach = _reach(mounts)
    served: dict[NodeKey, list[Route]] = {}
    for route in routes:
        served.setdefault(route.decl.handler, []).append(route)
    out = []
    for hook in hooks:
        function = _function(hook.function, named, unresolved)
        if function is None:
            continue
        for handler, its_routes in sorted(served.items()):
            under = [r for r in its_routes if _runs(hook, r, apps, reach)]
            if under:
                out.append(HookCall(handler, function, hook, len(under) < len(its_routes)))
    return out


def _runs(hook: Hook, route: Route, apps: set[str], reach: dict[str, set[str]]) -> bool:
    if not hook.app_wide:
        return hook.router in route.routers
    root = route.routers[0] if route.routers else ""
    return root in apps and (hook.router == root or hook.router in reach.get(root, set()))


def _reach(mounts: Sequence[Mount]) -> dict[str, set[str]]:
    """Each router -> every router mounted under it, at any depth (itself included)."""
    children: dict[str, set[str]] = {}
    for mount in mounts:
        children.setdefault(mount.parent, set()).add(mount.child)
    out: dict[str, set[str]] = {}
    for start in children:
        seen = {start}
        stack = [start]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        out[start] = seen
    return out


def _function(
    name: str, named: Callable[[str], Iterable[NodeKey]], unresolved: Counter[str]
) -> NodeKey | None:
    found = {key for key in named(name) if key.kind in _CALLABLE}
    if len(found) == 1:
        return found.pop()
    unresolved["request hook: " + ("ambiguous" if found else "not in the map")] += 1
    return None
