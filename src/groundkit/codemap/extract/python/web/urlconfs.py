"""Django urlconfs: each module-level list of ``path()``/``re_path()``/``url()`` is a router;
lists added to one another are mounted on each other; ``include()`` mounts another urlconf (by
module name, module or inline list) under the route's prefix."""

from __future__ import annotations

import re
from typing import Any

from groundkit.codemap.extract.python.values import Def, Inst, Mod
from groundkit.codemap.extract.python.web.arguments import arg
from groundkit.codemap.extract.python.web.state import WebState
from groundkit.codemap.model import Location, Provenance
from groundkit.codemap.routes import ANY_METHOD, Mount, RouterDef

__all__ = ["Urlconfs", "regex_to_path"]

_URLCONF = frozenset({"path", "re_path", "url"})


class Urlconfs(WebState):
    """Django's urlpatterns."""

    def urlconfs(self, lists: dict[str, list[Any]]) -> None:
        """Each module-level list of ``path()``s is a router ``py:<module>:<list>``; a list
        added to another is mounted on it without a prefix; ``include()`` mounts a module's
        ``urlpatterns`` (or an inline list) under the route's prefix."""
        calls = self.owner.body["calls"]
        for name, parts in lists.items():
            sites = [s for kind, value in parts if kind == "sites" for s in value]
            urlish = any(calls[s][1] and calls[s][1][-1] in _URLCONF for s in sites)
            if not urlish and not name.endswith("patterns"):
                continue
            router = f"py:{self.module}:{name}"
            self.routers_found.append(RouterDef(router, "", False, self.owner.location(1)))
            self._patterns(router, sites)
            for kind, value in parts:
                child = None
                if kind in ("ref", "import"):
                    child = self._list_router(value, imported=kind == "import")
                if child is not None:
                    self.mounts.append(Mount(router, child, "", False, self.owner.location(1)))

    def _list_router(self, ref: list[str], *, imported: bool = False) -> str | None:
        """The router of a list named by ``ref``: one of this module's, or one imported."""
        names = self.owner.iface["names"]
        if len(ref) == 1:
            if ref[0] in self.owner.body["lists"] and not imported:
                return f"py:{self.module}:{ref[0]}"
            for value in names.get(ref[0], []):
                base = value[0]
                if base[0] == "from":
                    module = self.ev.absolute(self.path, base[1], base[2])
                    return f"py:{module}:{base[3]}" if module else None
            return None
        owner, _ = self.ev.apply(
            self.ev.lookup((self.path, ("module",)), ref[0]), ref[1:-1], self.path, -1
        )
        return f"py:{owner.name}:{ref[-1]}" if isinstance(owner, Mod) else None

    def _patterns(self, router: str, sites: list[int]) -> None:
        calls = self.owner.body["calls"]
        scope = (self.path, ("module",))
        for site in sites:
            call = calls[site]
            ref, args = call[1], call[8]
            if not ref or ref[-1] not in _URLCONF or args is None:
                continue
            value, _ = self.owner._callee(call[0], ref, self.owner.body["scopes"])
            if isinstance(value, Def | Inst) and not value_module(value).startswith("django"):
                continue
            positional, keywords, _ = args
            route = self._literal(arg(positional, keywords, 0, "route", "regex"), scope)
            target = arg(positional, keywords, 1, "view")
            if route is None or target is None:
                continue
            if ref[-1] != "path":
                route = regex_to_path(route)
            where = self.owner.location(call[2], call[3], call[4], call[5])
            if target[0] == "c" and calls[target[1]][1] and calls[target[1]][1][-1] == "include":
                self._include(router, route, calls[target[1]], site, where)
                continue
            handler = self._handler(target, scope)
            if handler is not None:
                self._route(router, (ANY_METHOD,), route, handler, Provenance.ROUTE_URLCONF, where)

    def _include(
        self, router: str, route: str, call: list[Any], site: int, where: Location
    ) -> None:
        args = call[8]
        if args is None or not args[0]:
            return
        first = args[0][0]
        if first[0] == "l" and first[1]:  # include((patterns, app_name)) or an inline list
            inline = [item[1] for item in first[1] if item[0] == "c"]
            if len(inline) == len(first[1]):
                inner = f"py:{self.module}#{site}"
                self.routers_found.append(RouterDef(inner, "", False, where))
                self.mounts.append(Mount(router, inner, route, False, where))
                self._patterns(inner, inline)
                return
            first = first[1][0]
        child: str | None = None
        if first[0] == "s":
            child = f"py:{first[1]}:urlpatterns"
        elif first[0] == "r":
            value, _ = self.ev.apply(
                self.ev.lookup((self.path, ("module",)), first[1][0]), first[1][1:], self.path, -1
            )
            if isinstance(value, Mod):
                child = f"py:{value.name}:urlpatterns"
            elif len(first[1]) == 1:
                child = self._list_router(first[1])
        if child is not None:
            self.mounts.append(Mount(router, child, route, False, where))


def value_module(value: Def | Inst) -> str:
    return value.module if isinstance(value, Def) else value.cls.module


_GROUP = re.compile(r"\(\?P<(\w+)>")


def regex_to_path(regex: str) -> str:
    """A Django ``re_path`` pattern as a path: ``^items/(?P<pk>[0-9]+)/$`` -> ``items/{pk}/``."""
    text = regex.removeprefix("^").removeprefix(r"\A").removesuffix("$").removesuffix(r"\Z")
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "(":
            name_match = _GROUP.match(text, i)
            depth, j = 1, i + 1
            while j < len(text) and depth:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                j += 1
            inner = text[i:j]
            if name_match:
                out.append("{" + name_match.group(1) + "}")
            elif not inner.startswith("(?:") and not inner.startswith("(?"):
                out.append("{}")
            i = j
            continue
        if char == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if char in "?*+":
            i += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)
