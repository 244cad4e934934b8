"""A function that adds a query string to a path it is given: ``new URL(path, origin)``, its
``searchParams`` filled, returned as ``url.toString()`` or ``url.href`` (also with the
placeholder origin cut off again, ``.toString().replace("http://host", "")``). Its callers'
URL is the path they hand it (``web/wrappers.py``): the query leaves the route as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import unwrap
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

    from groundkit.codemap.extract.typescript.parse.closure import Closer

__all__ = ["STRIPPED", "WHOLE", "built_url", "url_return"]

WHOLE = "whole"  # ``url.toString()``, ``url.href``
STRIPPED = "stripped"  # ``url.toString().replace("http://origin", "")``
_READS = (["toString", "()"], ["href"])
_CUTS = ("replace", "replaceAll")
_HREF = frozenset({len("href")})
_CALLED = frozenset({len("toString"), *(len(c) for c in _CUTS)})


def url_return(node: Node) -> str:
    """How a returned expression reads a URL object whole: ``WHOLE``, ``STRIPPED`` (an
    absolute origin replaced by nothing: the path and query stay), or "" (anything else,
    ``.replace("/api", "/v2")`` included: the path may change)."""
    node = unwrap(node)
    if node.type == "member_expression":
        return WHOLE if _name(node, _HREF) == "href" else ""
    if node.type != "call_expression":
        return ""
    callee = node.child_by_field_name("function")
    if callee is None or callee.type != "member_expression":
        return ""
    name = _name(callee, _CALLED)
    if name == "toString":
        return WHOLE
    if name not in _CUTS or url_return(callee.child_by_field_name("object") or node) != WHOLE:
        return ""
    arguments = node.child_by_field_name("arguments")
    args = [a for a in (arguments.named_children if arguments else []) if a.type != "comment"]
    if len(args) != 2 or any(a.type != "string" for a in args):
        return ""
    origin, by = (text_of(a)[1:-1] for a in args)
    return STRIPPED if origin.startswith(("http://", "https://")) and by == "" else ""


def _name(member: Node, lengths: frozenset[int]) -> str:
    """A member expression's property name, read only when its length may match (every
    ``return`` of a method call asks: most are told no without copying their text)."""
    prop = member.child_by_field_name("property")
    if prop is None or prop.end_byte - prop.start_byte not in lengths:
        return ""
    return text_of(prop)


def built_url(closed: facts.Expr, how: str, closer: Closer, scope: int) -> facts.Expr | None:
    """``new URL(path, ...)`` read whole, closed (a parameter in ``path`` becomes a
    ``ParamOf``); None for any other return."""
    if type(closed) is not facts.Get or type(closed.base) is not facts.New:
        return None
    made, attrs = closed.base, closed.attrs
    reads = attrs in _READS or (how == STRIPPED and attrs[:2] == _READS[0] and attrs[2] in _CUTS)
    if made.ref != ["URL"] or not made.args or not reads:
        return None
    path = made.args[0]
    if type(path) is facts.Template:  # a template is kept as written: its names closed here
        parts = [p if isinstance(p, str) else closer.close(p, scope) for p in path.parts]
        path = facts.Template(parts)
    return facts.Get(facts.New(["URL"], [path]), attrs)
