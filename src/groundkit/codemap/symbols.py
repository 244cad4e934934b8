"""From what a person types to one node: never a guess.

A symbol is, in this order: a node's name exactly as the map shows it (whatever it holds:
``article.controller.<put /articles/:slug>``), a node's id (16 hex digits, as ``--json``
gives it), a route (``GET /items/{id}``, any parameter syntax), ``path/to/file.py:name`` (the
name inside that file), the end of exactly one qualified name after a ``.`` (``Store.put``),
or else after a ``/`` (``article.controller.<put /articles/:slug>``). The first reading that
names something decides. Nothing found: the nearest names are suggested (never the name
itself); several found: they are listed, each with a way to name it alone.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.model import Node, NodeKind
from groundkit.codemap.routes import normalise
from groundkit.errors import ErrorCode, NotFoundError, UsageError
from groundkit.text import is_text

__all__ = ["SymbolAmbiguous", "SymbolNotFound", "find_symbol"]

_ROUTE = re.compile(r"^([A-Za-z]+)\s+(/\S*)$")
_LISTED = 10


class SymbolNotFound(NotFoundError):
    def __init__(self, symbol: str, suggestions: list[str]) -> None:
        hint = ("did you mean: " + ", ".join(suggestions)) if suggestions else None
        super().__init__(
            ErrorCode.SYMBOL_NOT_FOUND,
            f"no symbol {symbol!r} in the map",
            hint=hint
            or "names are as the map shows them (pkg.mod.func), path/to/file.py:name,"
            " a route (GET /items/{id}) or a node's id",
        )
        self.suggestions = suggestions

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "suggestions": self.suggestions}


class SymbolAmbiguous(UsageError):
    def __init__(self, symbol: str, candidates: list[Node]) -> None:
        shown = [_label(n) for n in candidates[:_LISTED]]
        more = len(candidates) - len(shown)
        super().__init__(
            ErrorCode.SYMBOL_AMBIGUOUS,
            f"{len(candidates)} symbols match {symbol!r}",
            hint="name one by its id: "
            + ", ".join(shown)
            + (f" (and {more} more)" if more else ""),
        )
        self.candidates = candidates

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "candidates": [n.to_dict() for n in self.candidates]}


def _label(node: Node) -> str:
    """A candidate as a person tells it apart: its name, kind, file and id (which names it
    alone whatever its name holds)."""
    where = f", {node.path}" if node.path else ""
    return f"{node.qualname} ({node.kind}{where}; id {node.key.id})"


_NODE_ID = re.compile(r"^[0-9a-f]{16}$")


def find_symbol(graph: MapGraph, symbol: str) -> Node:
    text = symbol.strip()
    if not is_text(text):
        # Undecodable bytes from argv (surrogate escapes): no name in the map, which is UTF-8,
        # can hold them, and SQLite could not even be asked.
        raise SymbolNotFound(text, [])
    for found in _readings(graph, text):
        if found:
            return _one(text, found)
    raise SymbolNotFound(text, _suggestions(graph, text))


def _readings(graph: MapGraph, text: str) -> Iterator[list[Node]]:
    """What ``text`` may name, one reading after another (each asked only when the one
    before named nothing): a name as shown comes first, so that a name holding ``:``, ``<``
    or spaces is never taken apart."""
    yield graph.nodes_named(text)
    if _NODE_ID.match(text):
        node = graph.node(text)
        yield [node] if node is not None else []
    route = _ROUTE.match(text)
    if route:
        yield _routes(graph, route.group(1).upper(), route.group(2))
    if ":" in text and not text.startswith(("http:", "https:")):
        # A path holds no ':' (the map's paths are POSIX and relative) but a name may:
        # ``server.ts:<get /items/:id>`` is the file, then the name.
        path, _, name = text.partition(":")
        yield _in_file(graph, path.strip(), name.strip())
    yield _ending_with(graph, text, ".")
    # After a '/' only when no name ends so after a '.': ``ItemsPage`` is the component, not
    # also the module ``web/src/pages/ItemsPage`` that holds it.
    yield _ending_with(graph, text, "/")


def _one(symbol: str, found: list[Node]) -> Node:
    if len(found) == 1:
        return found[0]
    raise SymbolAmbiguous(symbol, found)


def _routes(graph: MapGraph, method: str, path: str) -> list[Node]:
    wanted = normalise(path)
    out = []
    for node in graph.nodes_of_kind(NodeKind.ROUTE):
        verb, _, served = node.qualname.partition(" ")
        if normalise(served) == wanted and verb in (method, "ANY"):
            out.append(node)
    exact = [n for n in out if n.qualname.split(" ")[0] == method]
    return exact or out


def _in_file(graph: MapGraph, path: str, name: str) -> list[Node]:
    nodes = [n for n in graph.nodes_in_file(path.removeprefix("./")) if n.kind != NodeKind.ROUTE]
    if not name:
        return [n for n in nodes if n.kind in (NodeKind.MODULE, NodeKind.PACKAGE)]
    return [n for n in nodes if n.qualname == name or n.qualname.endswith("." + name)]


def _ending_with(graph: MapGraph, text: str, separator: str) -> list[Node]:
    """The nodes whose name ends with ``text`` after ``separator``: a ``.``, or a ``/`` for a
    module named by its path (TypeScript's ``src/controllers/article.controller``)."""
    if not text or text.startswith((".", "/")):
        return []
    found = graph.nodes_ending_with(separator + text)
    return [n for n in found if n.kind != NodeKind.EXTERNAL]


def _suggestions(graph: MapGraph, symbol: str) -> list[str]:
    names = [row[0] for row in graph.node_names()]
    tail = symbol.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    by_tail: dict[str, list[str]] = {}
    for name in names:
        by_tail.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    close = difflib.get_close_matches(symbol, names, n=5, cutoff=0.6)
    tails = difflib.get_close_matches(tail, list(by_tail), n=3, cutoff=0.75)
    if tail:
        tails += sorted(t for t in by_tail if t.startswith(tail))[:3]
    owner = symbol.rsplit(".", 1)[0] if "." in symbol else ""
    for near in tails:
        ranked = sorted(by_tail[near], key=lambda n: (owner not in n, len(n), n))
        close.extend(ranked[:3])
    # The name itself is no suggestion: "no symbol X; did you mean: X" helps nobody.
    return [name for name in dict.fromkeys(close) if name != symbol][:5]
