"""Small readers of tree-sitter syntax shared by the TypeScript/JavaScript data passes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node as Syntax

__all__ = ["arguments_of", "descendants", "field_of", "string_of"]


def arguments_of(call: Syntax) -> list[Syntax]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [a for a in arguments.named_children if a.type != "comment"]


def field_of(node: Syntax, key: str) -> str | None:
    """A string field of an object literal: ``{tableName: "users"}`` -> ``users``."""
    if node.type != "object":
        return None
    for pair in node.named_children:
        if pair.type == "pair" and text_of(pair.child_by_field_name("key")).strip("'\"") == key:
            return string_of(pair.child_by_field_name("value"))
    return None


def string_of(node: Syntax | None) -> str | None:
    if node is None or node.type != "string":
        return None
    return "".join(text_of(c) for c in node.named_children if c.type == "string_fragment")


def descendants(node: Syntax, kind: str, depth: int = 4) -> Iterator[Syntax]:
    stack = [(c, 1) for c in node.named_children]
    while stack:
        item, level = stack.pop()
        if item.type == kind:
            yield item
        elif level < depth:
            stack.extend((c, level + 1) for c in item.named_children)
