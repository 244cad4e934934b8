"""A call's arguments (as the parser summarised them) read as what routes and clients need: a
literal path or URL (constants folded), the HTTP methods, the handler a route names, the object
a mount takes."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.values import Def, Ext, ExtInst, Inst, Str, Tmpl, node_key
from groundkit.codemap.extract.python.web.frameworks import METHODS
from groundkit.codemap.extract.python.web.state import WebState
from groundkit.codemap.model import NodeKey, NodeKind

__all__ = ["Arguments", "arg"]


class Arguments(WebState):
    """Arguments evaluated in the file being resolved."""

    def _methods(
        self, attr: str, keywords: dict[str, Any], scope: tuple[str, tuple[Any, ...]]
    ) -> tuple[str, ...]:
        if attr in METHODS:
            return (attr.upper(),)
        if attr not in ("route", "api_route"):
            return ()
        given = keywords.get("methods")
        if given is None:
            return ("GET",)
        if given[0] != "l":
            return ()
        out = [self._literal(item, scope) for item in given[1]]
        return tuple(sorted({m.upper() for m in out if m}))

    def _literal(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None:
        pieces = self._pieces(summary, scope) if summary is not None else None
        if pieces is None or any(p is None for p in pieces):
            return None
        return "".join(p for p in pieces if p is not None)

    def _pieces(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> list[str | None] | None:
        if summary[0] == "s":
            return [summary[1]]
        if summary[0] == "t":
            return self.ev.text_pieces(summary[1], scope)
        if summary[0] == "r":
            found, _ = self.ev.apply(
                self.ev.lookup(scope, summary[1][0]), summary[1][1:], self.path, -1
            )
            if isinstance(found, Str):
                return [found.value]
            if isinstance(found, Tmpl):
                return list(found.pieces)
            return [None]
        return None

    def _handler(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> NodeKey | None:
        if summary is None:
            return None
        ref = None
        if summary[0] == "r":
            ref = summary[1]
        elif summary[0] == "c":
            call_ref = self.owner.body["calls"][summary[1]][1]
            if call_ref and call_ref[-1] == "as_view":
                ref = call_ref[:-1]
        if not ref:
            return None
        value, _ = self.ev.apply(self.ev.lookup(scope, ref[0]), ref[1:], self.path, -1)
        if isinstance(value, Def):
            return node_key(value)
        if isinstance(value, Ext):  # a view from a library (TemplateView): served all the same
            self.external_handlers.add(value.name.split(".")[0])
            return NodeKey(NodeKind.EXTERNAL, value.name.split(".")[0], "")
        return None

    def _object(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None:
        if summary is None or summary[0] != "r":
            return None
        value, _ = self.ev.apply(
            self.ev.lookup(scope, summary[1][0]), summary[1][1:], self.path, -1
        )
        if isinstance(value, ExtInst | Inst):
            return value.origin
        return None


def arg(positional: list[Any], keywords: dict[str, Any], index: int, *names: str) -> Any:
    for name in names:
        if name in keywords:
            return keywords[name]
    return positional[index] if index < len(positional) else None
