"""Member reads and writes that are not calls (``user.name``, ``this.size = 2``): each may run
an accessor (``get name()``), which resolution decides once every file's accessors are known."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import env, facts
from groundkit.codemap.extract.typescript.parse.declarations import has_token
from groundkit.codemap.extract.typescript.parse.expressions import ref_of

if TYPE_CHECKING:
    from tree_sitter import Node

    from groundkit.codemap.extract.typescript.parse.state import Walk

__all__ = ["member"]

# Parents under which a member expression is not a whole read: the outer member holds it, or
# it is a callee (``calls.py`` resolves the accessors along a callee's chain).
_HOLDERS = {"member_expression": "object", "call_expression": "function"}


def member(w: Walk, node: Node) -> bool:
    """A member expression's handler: noted as a read (or the write an assignment makes), then
    the walk goes on through its children."""
    env.member(w, node)
    parent = node.parent
    if parent is not None:
        field = _HOLDERS.get(parent.type)
        if field is not None and parent.child_by_field_name(field) == node:
            return False
    ref = ref_of(node)
    if ref is None or len(ref) < 2 or (ref[0] == "super" and _static(node)):
        return False  # a static method's ``super`` is the base class: not followed
    write = (
        parent is not None
        and parent.type == "assignment_expression"
        and parent.child_by_field_name("left") == node
    )
    w.members.append(facts.MemberSite(w.current, ref, write, *w.where(node)))
    return False


def _static(node: Node) -> bool:
    """Whether the code is in a static member of a class (arrows see their owner's)."""
    parent = node.parent
    while parent is not None and parent.type not in _OWNERS:
        parent = parent.parent
    return parent is not None and (
        parent.type == "class_static_block" or has_token(parent, "static")
    )


_OWNERS = frozenset(
    {
        "method_definition",
        "function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "field_definition",
        "public_field_definition",
        "class_static_block",
    }
)
