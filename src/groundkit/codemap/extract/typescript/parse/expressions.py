"""An expression as an ``Expr`` record: what resolution needs of it, without the tree.

``summarise`` is bounded (depth, object keys): an expression nested deeper is ``Unknown``.
``qual_of`` names the function and class nodes the walk has already visited.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = [
    "ARRAY_RESULTS",
    "FUNCTIONS",
    "SYMBOLS",
    "UNKNOWN",
    "QualOf",
    "args_of",
    "collection",
    "key_of",
    "literal_element",
    "ref_of",
    "string_value",
    "summarise",
    "unwrap",
]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

QualOf = Callable[["Node"], "str | None"]

UNKNOWN = facts.Unknown()
FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "class"}
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
# Array methods whose result is a new array: what ``f`` returns (``map``), the receiver's
# elements (and ``concat``'s arguments'): ``values/arrays.py``.
ARRAY_RESULTS = frozenset(
    "map flatMap filter slice concat sort reverse toSorted toReversed flat".split()
)
# An array's, a Map's or a Set's iterators: an array of its values (``values/made.py``).
ITERATORS = frozenset({"values", "keys", "entries"})
_WELL_KNOWN = frozenset({"Symbol.iterator", "Symbol.asyncIterator"})
# Keys that are symbols, never a member's name: a write under one changes no named member
SYMBOLS = frozenset(
    {
        *_WELL_KNOWN,
        "Symbol.toStringTag",
        "Symbol.toPrimitive",
        "Symbol.hasInstance",
        "util.inspect.custom",
        "inspect.custom",
    }
)
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
        kind = node.type
        if kind in _WRAPPERS:  # (tested here first: most nodes are no wrapper)
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
            spec = _required(node, callee)
            # require("express").Router(), require("./model")(db): the module is the head
            if spec is not None:
                parts.append(f"require:{spec}")
                parts.reverse()
                return parts
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


def _required(call: Node, callee: Node) -> str | None:
    """The module a ``require("literal")`` call names."""
    if callee.type != "identifier" or text_of(callee) != "require":
        return None
    arguments = call.child_by_field_name("arguments")
    items = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
    return string_value(items[0]) if len(items) == 1 else None


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
    if node.type == "computed_property_name" and node.named_children:
        inner = text_of(node.named_children[0])  # [Symbol.iterator]: one name for every class
        return f"[{inner}]" if inner in _WELL_KNOWN else None
    return None


def summarise(node: Node, qual_of: QualOf, depth: int = 0, name: str = "") -> facts.Expr:
    """``node`` as an ``Expr``; ``name``: what an object literal here is bound to."""
    kind = node.type
    if kind in _WRAPPERS:  # (tested here first: most nodes are no wrapper)
        node = unwrap(node)
        kind = node.type
    if depth > _DEPTH:
        return UNKNOWN
    if kind == "string":
        return facts.Str(string_value(node) or "")
    if kind == "template_string":
        return facts.Template(_template(node, qual_of, depth))
    if kind == "binary_expression" and _operator(node) == "+":
        return facts.Template(_concat(node, qual_of, depth))
    if kind in FUNCTIONS:
        qual = qual_of(node)
        return facts.Fn(qual) if qual is not None else facts.AnonFn()
    if kind in ("identifier", "member_expression", "subscript_expression", "this"):
        ref = ref_of(node)
        if ref is None and kind == "subscript_expression":
            return _element(node, qual_of, depth)
        if ref is None and kind == "member_expression":
            return _member_of_element(node, qual_of, depth)
        return facts.Ref(ref) if ref is not None else UNKNOWN
    if kind == "call_expression":
        return _call(node, qual_of, depth)
    if kind == "assignment_expression":  # var app = module.exports = express(): what is assigned
        right = node.child_by_field_name("right")
        return summarise(right, qual_of, depth + 1, name) if right is not None else UNKNOWN
    if kind == "new_expression":
        callee = node.child_by_field_name("constructor")
        if collection(node):
            return _collection(node, qual_of, depth, name)
        return facts.New(ref_of(callee) if callee else None, args_of(node, qual_of, depth + 1))
    if kind == "object":
        return facts.ObjectLit(_object(node, qual_of, depth, name), name)
    if kind == "ternary_expression" or (
        kind == "binary_expression" and _operator(node) in ("||", "??")
    ):
        first = node.child_by_field_name("consequence") or node.child_by_field_name("left")
        second = node.child_by_field_name("alternative") or node.child_by_field_name("right")
        if first is None or second is None:
            return UNKNOWN
        options = [summarise(first, qual_of, depth + 1), summarise(second, qual_of, depth + 1)]
        return facts.Choice(options)
    if kind == "array":
        items = [
            summarise(c, qual_of, depth + 1)
            if c.type != "spread_element"
            else _spread(c, qual_of, depth)
            for c in node.named_children[:_KEYS]
            if c.type != "comment"
        ]
        return facts.ArrayLit(
            items if len(node.named_children) <= _KEYS else [*items, UNKNOWN], name
        )
    if kind in _LITERALS or kind.endswith("_literal"):
        return facts.Lit()
    return UNKNOWN


def literal_element(expr: facts.Expr) -> facts.Expr | None:
    """An element of an array literal bound to no name (``for (const f of [a, b])``,
    ``[a, b].forEach(g)``): its one item, or one of its items chosen at run time; None for
    anything else, or a literal that spreads (what a spread holds is read where it is named)."""
    if type(expr) is not facts.ArrayLit or expr.name or expr.kind or not expr.items:
        return None
    if any(type(item) is facts.Spread for item in expr.items):
        return None
    return expr.items[0] if len(expr.items) == 1 else facts.Choice(list(expr.items))


def collection(node: Node) -> bool:
    """``new Map()``, ``new Set(xs)``: a collection whose values are followed like an array's."""
    callee = node.child_by_field_name("constructor") if node.type == "new_expression" else None
    return callee is not None and text_of(callee) in ("Map", "Set")


def _collection(node: Node, qual_of: QualOf, depth: int, name: str) -> facts.Expr:
    """A Set's first values are its argument's elements; a Map's (its entries' values) are not
    followed."""
    callee = node.child_by_field_name("constructor")
    kind = text_of(callee) if callee is not None else ""
    args = args_of(node, qual_of, depth + 1)
    if not args:
        return facts.ArrayLit([], name, kind)
    if kind == "Set" and len(args) == 1 and not isinstance(args[0], facts.Spread):
        return facts.ArrayLit([facts.Spread(args[0])], name, kind)
    return facts.ArrayLit([UNKNOWN], name, kind)


def _spread(node: Node, qual_of: QualOf, depth: int) -> facts.Expr:
    """``...xs`` in an array literal: what is spread, whose elements it gives."""
    inner = node.named_children[0] if node.named_children else None
    return facts.Spread(summarise(inner, qual_of, depth + 1) if inner is not None else UNKNOWN)


def _element(node: Node, qual_of: QualOf, depth: int) -> facts.Expr:
    """``xs[i]``: a member of ``xs`` whose key is known only at run time."""
    holder = node.child_by_field_name("object")
    base = summarise(holder, qual_of, depth + 1) if holder is not None else UNKNOWN
    if isinstance(base, facts.Unknown | facts.Lit):
        return UNKNOWN
    return facts.Get(base, [facts.ELEMENT])


def _member_of_element(node: Node, qual_of: QualOf, depth: int) -> facts.Expr:
    """``xs[i].handle``: a member of an element read by a key known only at run time."""
    holder = node.child_by_field_name("object")
    prop = node.child_by_field_name("property")
    base = summarise(holder, qual_of, depth + 1) if holder is not None else UNKNOWN
    if type(base) is not facts.Get or prop is None:
        return UNKNOWN
    return facts.Get(base.base, [*base.attrs, text_of(prop)])


def args_of(call: Node, qual_of: QualOf, depth: int = 0) -> list[facts.Expr]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    if arguments.type == "template_string":  # tagged template: tag`...`
        return [facts.Template(_template(arguments, qual_of, depth))]
    return [
        summarise(a, qual_of, depth) if a.type != "spread_element" else facts.Spread()
        for a in arguments.named_children
        if a.type != "comment"
    ]


def _call(node: Node, qual_of: QualOf, depth: int) -> facts.Expr:
    callee = node.child_by_field_name("function")
    if callee is None:
        return UNKNOWN
    arguments = args_of(node, qual_of, depth + 1)
    first = arguments[0] if arguments else None
    if callee.type == "import":
        return facts.DynImport(first.text) if type(first) is facts.Str else UNKNOWN
    ref = ref_of(callee)
    if ref == ["require"] and type(first) is facts.Str:
        return facts.Require(first.text)
    if ref and _defines(ref, arguments) and type(first) is facts.Str:
        return facts.Defined(facts.Ref(ref[:-1]), first.text)  # sequelize.define("m", {...})
    made = facts.Call(ref, arguments)
    callee = unwrap(callee)
    prop = callee.child_by_field_name("property") if callee.type == "member_expression" else None
    holder = callee.child_by_field_name("object") if prop is not None else None
    method = text_of(prop) if prop is not None else ""
    if holder is not None and (method in ARRAY_RESULTS or _iterates(method, arguments, holder)):
        base = summarise(holder, qual_of, depth + 1)
        return facts.ArrayCall(base, method, arguments, made)
    if ref == ["Array", "from"] and first is not None and type(first) is not facts.Spread:
        return facts.ArrayCall(first, "from", arguments[1:], made)
    if ref == ["Array", "of"]:  # an array of its arguments, as a literal's copy
        return facts.ArrayCall(facts.ArrayLit(arguments), "of", [], made)
    return made


def _iterates(method: str, arguments: list[facts.Expr], holder: Node) -> bool:
    """``m.values()``: a collection's values (``Object.values(o)``: the runtime's)."""
    return method in ITERATORS and not arguments and ref_of(holder) != ["Object"]


def _defines(ref: list[str], arguments: list[facts.Expr]) -> bool:
    """``on.define("name", {...})``: a model defined by name, maybe (Sequelize's form)."""
    shaped = len(arguments) > 1 and isinstance(arguments[1], facts.ObjectLit)
    return len(ref) > 1 and ref[-1] == "define" and shaped


def _operator(node: Node) -> str:
    op = node.child_by_field_name("operator")
    return text_of(op) if op is not None else ""


def _template(node: Node, qual_of: QualOf, depth: int) -> list[str | facts.Expr]:
    parts: list[str | facts.Expr] = []
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


def _concat(node: Node, qual_of: QualOf, depth: int) -> list[str | facts.Expr]:
    parts: list[str | facts.Expr] = []
    for side in ("left", "right"):
        child = node.child_by_field_name(side)
        if child is None:
            return [UNKNOWN]
        child = unwrap(child)
        if child.type == "binary_expression" and _operator(child) == "+":
            parts.extend(_concat(child, qual_of, depth))
            continue
        value = summarise(child, qual_of, depth + 1)
        if type(value) is facts.Str:
            parts.append(value.text)
        elif type(value) is facts.Template:
            parts.extend(value.parts)
        else:
            parts.append(value)
    return parts


def _object(node: Node, qual_of: QualOf, depth: int, name: str) -> dict[str, facts.Expr]:
    """The literal's members. A spread or a computed key may replace any member written before
    it: those are unknown. Past ``_KEYS`` members only overrides are noted."""
    out: dict[str, facts.Expr] = {}
    members = (c for c in node.named_children if c.type != "comment")  # a comment is no member
    for count, child in enumerate(members):
        key: str | None = None
        if child.type == "shorthand_property_identifier":
            key = text_of(child)
        elif child.type in ("pair", "method_definition"):
            key = key_of(child.child_by_field_name("key" if child.type == "pair" else "name"))
            if key is None:  # [computed]: ...
                out = dict.fromkeys(out, UNKNOWN)
                continue
        elif child.type == "spread_element":
            out = dict.fromkeys(out, UNKNOWN)
            continue
        if key is None:
            continue
        if count >= _KEYS:
            if key in out:
                out[key] = UNKNOWN
            continue
        out[key] = _member(child, key, qual_of, depth, name)
    return out


def _member(child: Node, key: str, qual_of: QualOf, depth: int, name: str) -> facts.Expr:
    if child.type == "shorthand_property_identifier":
        return facts.Ref([key])
    if child.type == "method_definition":
        qual = qual_of(child)
        return facts.Fn(qual) if qual is not None else facts.AnonFn()
    value = child.child_by_field_name("value")
    if value is None:
        return UNKNOWN
    return summarise(value, qual_of, depth + 1, f"{name}.{key}" if name else "")
