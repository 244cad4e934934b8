"""Members forwarded by a package (``library.DELEGATORS``): ``delegate(proto, "response")
.method("redirect").access("body")`` at module level, ``delegate`` bound to the package's
import and ``proto`` a module-level name, makes ``proto.redirect`` call the member of
``proto.response`` of that name and ``proto.body`` read and write ``proto.response.body``
(``values/evaluate.py`` follows them on an object made from ``proto``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.library import DELEGATORS
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import string_value, unwrap
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

    from groundkit.codemap.extract.typescript.parse.state import Walk

__all__ = ["note_delegation"]


def note_delegation(w: Walk, node: Node) -> None:
    """Record the members the chain of calls ending at ``node`` forwards, if it is one."""
    if w.scope().kind != ScopeKind.MODULE:
        return  # (asked first: tree-sitter finds a parent from the root down)
    parent = node.parent
    if parent is not None and parent.type == "member_expression":
        return  # not the chain's last call: that one reads the whole chain
    links: list[tuple[str, str]] = []  # (chained method, member name), last first
    call = node
    while True:
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            break
        inner = unwrap(callee.child_by_field_name("object") or callee)
        prop = callee.child_by_field_name("property")
        name = _only_string(call)
        if inner.type != "call_expression" or prop is None or name is None:
            return
        links.append((text_of(prop), name))
        call = inner
    _record(w, call, links)


def _record(w: Walk, head: Node, links: list[tuple[str, str]]) -> None:
    callee = head.child_by_field_name("function")
    args = head.child_by_field_name("arguments")
    if callee is None or callee.type != "identifier" or args is None or not links:
        return
    bound = w.bindings[0].get(text_of(callee))
    spec = bound.spec if type(bound) is facts.Namespace else None
    hows = DELEGATORS.get(spec or "")
    given = [a for a in args.named_children if a.type != "comment"]
    if hows is None or len(given) != 2 or given[0].type != "identifier":
        return
    owner, target = text_of(given[0]), string_value(given[1])
    if target is None or not w.module_name(owner):
        return
    table = w.delegated.setdefault(_table_name(w, owner), {})
    for method, name in reversed(links):
        table[name] = [target, hows.get(method, "unknown")]  # (fluent: not modelled)


def _table_name(w: Walk, owner: str) -> str:
    """The name the object bound to ``owner`` is known by: ``exports`` for ``const proto =
    module.exports = {...}`` (the literal the module exports), else its own."""
    bound, exported = w.bindings[0].get(owner), w.exports.get("=")
    if not isinstance(bound, facts.ObjectLit):
        return owner
    if isinstance(exported, facts.ObjectLit) and bound.fields == exported.fields:
        return exported.name
    return bound.name or owner


def _only_string(call: Node) -> str | None:
    args = call.child_by_field_name("arguments")
    given = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    return string_value(given[0]) if len(given) == 1 else None
