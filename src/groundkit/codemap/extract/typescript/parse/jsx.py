"""JSX: ``<Comp a={f} />`` runs the component ``Comp`` with its props, an object of the
attributes (``{a: f}``). Intrinsic elements (``<div>``, ``<my-widget>``) are the runtime's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import UNKNOWN, ref_of, summarise
from groundkit.codemap.extract.typescript.parse.facts import How
from groundkit.codemap.extract.typescript.parse.state import Walk
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["element"]


def element(w: Walk, node: Node) -> bool:
    """An opening or self-closing element: its attributes' code is walked, and a component of
    the repository's is a call with the props as its one argument."""
    w.visit_children(node)
    name = node.child_by_field_name("name")
    ref = ref_of(name) if name is not None else None
    if name is None or ref is None or not _is_component(ref):
        return True
    w.add_call(facts.Ref(ref), How.JSX, name, None, [_props(w, node)])
    return True


def _is_component(ref: list[str]) -> bool:
    return len(ref) > 1 or (ref[0][:1].isupper() and "-" not in ref[0])


def _props(w: Walk, node: Node) -> facts.Expr:
    fields: dict[str, facts.Expr] = {}
    for child in node.named_children:
        if child.type == "jsx_attribute":
            parts = child.named_children
            if not parts or parts[0].type != "property_identifier":
                continue
            value = parts[1] if len(parts) > 1 else None
            if value is not None and value.type == "jsx_expression":
                inner = value.named_children
                value = inner[0] if inner else None
            key = text_of(parts[0])
            fields[key] = summarise(value, w.qual_of) if value is not None else facts.Lit()
        elif child.type == "jsx_expression":  # {...rest}: may give any prop written before it
            fields = dict.fromkeys(fields, UNKNOWN)
    return facts.ObjectLit(fields)
