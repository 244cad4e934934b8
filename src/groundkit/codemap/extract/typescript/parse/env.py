"""Environment variables a file reads by name: ``process.env.X``, ``process.env["X"]``,
``const {X, Y: y} = process.env`` (Node) and ``import.meta.env.X`` (Vite). Only the name is
kept, never a value; ``process.env.X = v`` and ``delete process.env.X`` set it (a write).
``process.env[name]`` is counted as named at run time (an ``EnvRead`` with
no name); ``process`` bound by the file itself (a parameter, a variable) is not Node's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import string_value
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

    from groundkit.codemap.extract.typescript.parse.state import Walk

__all__ = ["member", "note_head"]

_HEADS = {"process.env": "process", "import.meta.env": ""}
_SIZES = frozenset(len(h) for h in _HEADS)


def member(w: Walk, node: Node) -> bool:
    """A member expression's handler: the walk goes on through its children."""
    _read(w, node)
    return False


def note_head(w: Walk, callee: Node) -> None:
    """A call's callee is not walked (``process.env.X.trim()``): its head still reads X."""
    node = callee
    while node.type == "member_expression":
        if _read(w, node):
            return
        inner = node.child_by_field_name("object")
        if inner is None:
            return
        node = inner


def _read(w: Walk, node: Node) -> bool:
    """``node`` is ``process.env`` (or ``import.meta.env``): the reads of its parent."""
    if node.end_byte - node.start_byte not in _SIZES:
        return False
    head = text_of(node)
    if head not in _HEADS or (_HEADS[head] and w.is_bound(_HEADS[head])):
        return False
    parent = node.parent
    if parent is None:
        return True
    if parent.type == "member_expression" and parent.child_by_field_name("object") == node:
        _add(w, text_of(parent.child_by_field_name("property")), parent)
    elif parent.type == "subscript_expression" and parent.child_by_field_name("object") == node:
        index = parent.child_by_field_name("index")
        _add(w, (string_value(index) if index is not None else None) or "", parent)
    elif parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
        pattern = parent.child_by_field_name("name")
        if pattern is not None and pattern.type == "object_pattern":
            for item in pattern.named_children:
                _add(w, _pattern_key(item), item)
    return True


def _pattern_key(item: Node) -> str:
    if item.type == "shorthand_property_identifier_pattern":
        return text_of(item)
    if item.type == "object_assignment_pattern":  # {X = "default"}
        return _pattern_key(item.named_children[0]) if item.named_children else ""
    if item.type == "pair_pattern":
        key = item.child_by_field_name("key")
        if key is not None and key.type == "property_identifier":
            return text_of(key)
        return (string_value(key) if key is not None else None) or ""
    return ""  # ...rest: every other name, not one


def _add(w: Walk, name: str, node: Node) -> None:
    parent = node.parent
    written = parent is not None and (
        (parent.type == "assignment_expression" and parent.child_by_field_name("left") == node)
        or parent.type == "augmented_assignment_expression"
        or (parent.type == "unary_expression" and text_of(parent).startswith("delete"))
    )
    w.envs.append(facts.EnvRead(w.current, name, *w.where(node), written))
