"""An expression as a small JSON value: what resolution needs of it, without the tree.

Forms (each a list whose first item is its tag):

``["s", text]`` a string literal; ``["t", [part, ...]]`` a template literal or a ``+``
concatenation, each part a string or the summary of an expression; ``["r", [name, ...]]`` a
reference ``a.b.c`` (``this`` and ``super`` may head it; ``"()"`` marks a call in the chain,
``"new"`` a construction); ``["c", ref or null, [arg, ...]]`` a call; ``["n", ref or null,
[arg, ...]]`` a ``new``; ``["o", {key: value}]`` an object literal; ``["a", [item, ...]]`` an
array; ``["def", qual]`` a function or class defined in this file; ``["fn"]`` an anonymous one;
``["req", specifier]`` a literal ``require()``; ``["dyn", specifier]`` a literal ``import()``;
``["lit"]`` a number, boolean, ``null`` or regex; ``["?"]`` anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["FUNCTIONS", "UNKNOWN", "key_of", "ref_of", "string_value", "summarise"]

UNKNOWN: list[Any] = ["?"]
FUNCTIONS = frozenset(
    {
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "class",
    }
)
_WRAPPERS = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
        "await_expression",
    }
)
_LITERALS = frozenset(
    {"number", "true", "false", "null", "undefined", "regex", "this_type", "unary_expression"}
)
_DEPTH = 4
_KEYS = 60
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}


def unwrap(node: Node) -> Node:
    """Through parentheses, ``await``, type assertions and ``!``: the value inside."""
    while node.type in _WRAPPERS:
        inner = node.named_children[-1] if node.named_children else None
        if inner is None:
            return node
        if node.type in ("as_expression", "satisfies_expression"):
            inner = node.named_children[0]
        node = inner
    return node


def string_value(node: Node) -> str | None:
    """The text of a string literal (escapes decoded), or None for anything else."""
    node = unwrap(node)
    if node.type != "string":
        return None
    out = []
    for child in node.named_children:
        if child.type == "string_fragment":
            out.append(text_of(child))
        elif child.type == "escape_sequence":
            raw = text_of(child)[1:]
            out.append(_ESCAPES.get(raw, raw))
    return "".join(out)


def ref_of(node: Node) -> list[str] | None:
    """``a.b().c`` -> ``["a", "b", "()", "c"]``; None for a callee with no static name."""
    parts: list[str] = []
    while True:
        node = unwrap(node)
        kind = node.type
        if kind == "member_expression":
            prop = node.child_by_field_name("property")
            obj = node.child_by_field_name("object")
            if prop is None or obj is None:
                return None
            parts.append(text_of(prop))
            node = obj
        elif kind == "subscript_expression":
            index = node.child_by_field_name("index")
            obj = node.child_by_field_name("object")
            key = string_value(index) if index is not None else None
            if key is None or obj is None:
                return None
            parts.append(key)
            node = obj
        elif kind == "call_expression":
            callee = node.child_by_field_name("function")
            if callee is None or callee.type == "import":
                return None
            parts.append("()")
            node = callee
        elif kind == "new_expression":
            callee = node.child_by_field_name("constructor")
            if callee is None:
                return None
            parts.append("new")
            node = callee
        elif kind in ("identifier", "this", "super", "property_identifier"):
            parts.append(text_of(node))
            parts.reverse()
            return parts
        else:
            return None


def key_of(node: Node | None) -> str | None:
    """An object key or class member name as written: ``a``, ``"a"``, ``#a``; None if computed."""
    if node is None:
        return None
    if node.type in ("property_identifier", "private_property_identifier", "identifier"):
        return text_of(node)
    if node.type == "string":
        return string_value(node)
    if node.type == "number":
        return text_of(node)
    return None


def summarise(node: Node, qual_of: Callable[[Node], str | None], depth: int = 0) -> list[Any]:
    """``node`` as a summary; ``qual_of`` names a function or class node already visited."""
    node = unwrap(node)
    kind = node.type
    if depth > _DEPTH:
        return UNKNOWN
    if kind == "string":
        return ["s", string_value(node) or ""]
    if kind == "template_string":
        return ["t", _template(node, qual_of, depth)]
    if kind == "binary_expression" and _operator(node) == "+":
        return ["t", _concat(node, qual_of, depth)]
    if kind in FUNCTIONS:
        qual = qual_of(node)
        return ["def", qual] if qual is not None else ["fn"]
    if kind in ("identifier", "member_expression", "subscript_expression", "this"):
        ref = ref_of(node)
        return ["r", ref] if ref is not None else UNKNOWN
    if kind == "call_expression":
        return _call(node, qual_of, depth)
    if kind == "new_expression":
        callee = node.child_by_field_name("constructor")
        return ["n", ref_of(callee) if callee else None, args_of(node, qual_of, depth + 1)]
    if kind == "object":
        return ["o", _object(node, qual_of, depth)]
    if kind == "array":
        return ["a", [summarise(c, qual_of, depth + 1) for c in node.named_children[:_KEYS]]]
    if kind in _LITERALS or kind.endswith("_literal"):
        return ["lit"]
    return UNKNOWN


def args_of(call: Node, qual_of: Callable[[Node], str | None], depth: int = 0) -> list[Any]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    if arguments.type == "template_string":  # tagged template: tag`...`
        return [["t", _template(arguments, qual_of, depth)]]
    return [
        summarise(a, qual_of, depth) if a.type != "spread_element" else UNKNOWN
        for a in arguments.named_children
        if a.type != "comment"
    ]


def _call(node: Node, qual_of: Callable[[Node], str | None], depth: int) -> list[Any]:
    callee = node.child_by_field_name("function")
    if callee is None:
        return UNKNOWN
    arguments = args_of(node, qual_of, depth + 1)
    if callee.type == "import":
        spec = arguments[0][1] if arguments and arguments[0][0] == "s" else None
        return ["dyn", spec] if spec is not None else UNKNOWN
    ref = ref_of(callee)
    if ref == ["require"] and arguments and arguments[0][0] == "s":
        return ["req", arguments[0][1]]
    return ["c", ref, arguments]


def _operator(node: Node) -> str:
    op = node.child_by_field_name("operator")
    return text_of(op) if op is not None else ""


def _template(node: Node, qual_of: Callable[[Node], str | None], depth: int) -> list[Any]:
    parts: list[Any] = []
    for child in node.named_children:
        if child.type == "string_fragment":
            parts.append(text_of(child))
        elif child.type == "escape_sequence":
            raw = text_of(child)[1:]
            parts.append(_ESCAPES.get(raw, raw))
        elif child.type == "template_substitution":
            inner = child.named_children[0] if child.named_children else None
            parts.append(summarise(inner, qual_of, depth + 1) if inner is not None else UNKNOWN)
    return parts


def _concat(node: Node, qual_of: Callable[[Node], str | None], depth: int) -> list[Any]:
    parts: list[Any] = []
    for side in ("left", "right"):
        child = node.child_by_field_name(side)
        if child is None:
            return [UNKNOWN]
        child = unwrap(child)
        if child.type == "binary_expression" and _operator(child) == "+":
            parts.extend(_concat(child, qual_of, depth))
            continue
        value = summarise(child, qual_of, depth + 1)
        if value[0] == "s":
            parts.append(value[1])
        elif value[0] == "t":
            parts.extend(value[1])
        else:
            parts.append(value)
    return parts


def _object(node: Node, qual_of: Callable[[Node], str | None], depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for child in node.named_children[:_KEYS]:
        if child.type == "pair":
            key = key_of(child.child_by_field_name("key"))
            value = child.child_by_field_name("value")
            if key is not None and value is not None:
                out[key] = summarise(value, qual_of, depth + 1)
        elif child.type == "shorthand_property_identifier":
            out[text_of(child)] = ["r", [text_of(child)]]
        elif child.type == "method_definition":
            key = key_of(child.child_by_field_name("name"))
            if key is not None:
                qual = qual_of(child)
                out[key] = ["def", qual] if qual is not None else ["fn"]
    return out
