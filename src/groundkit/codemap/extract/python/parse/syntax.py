"""Reading Python expressions as names, annotations and strings: helpers of the parser."""

from __future__ import annotations

import ast
import re
from typing import Any

__all__ = [
    "COMPREHENSIONS",
    "LITERALS",
    "annotation_ref",
    "literal_receiver",
    "pieces",
    "ref_of",
    "storable",
    "strings",
]

_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def ref_of(expr: ast.expr) -> list[str] | None:
    """``a.b().c`` -> ``["a", "b", "()", "c"]``: a name, then attributes and calls; else None."""
    parts: list[str] = []
    while True:
        if isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Call):
            parts.append("()")
            expr = expr.func
        elif isinstance(expr, ast.Name):
            parts.append(expr.id)
            parts.reverse()
            return parts
        else:
            return None


def annotation_ref(expr: ast.expr | None) -> list[str] | None:
    """The class an annotation names: ``Foo``, ``m.Foo``, ``"Foo"``, ``Optional[Foo]``,
    ``Foo | None``; None for anything wider (unions of classes, generics of containers)."""
    if expr is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        text = expr.value.strip()
        if _DOTTED.fullmatch(text):  # the common case, without a parser
            return text.split(".")
        try:
            expr = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        sides = [s for s in (expr.left, expr.right) if not is_none(s)]
        return annotation_ref(sides[0]) if len(sides) == 1 else None
    if isinstance(expr, ast.Subscript):
        outer = ref_of(expr.value)
        if outer and outer[-1] == "Optional":
            return annotation_ref(expr.slice)
        return None
    ref = ref_of(expr)
    return ref if ref and "()" not in ref else None


def is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def strings(expr: ast.expr) -> list[str] | None:
    if isinstance(expr, ast.List | ast.Tuple):
        out = []
        for element in expr.elts:
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                return None
            if not storable(element.value):
                return None
            out.append(element.value)
        return out
    return None


def storable(text: str) -> bool:
    """Whether a string literal can be kept as text: ``"\udce2"`` (a lone surrogate) is a
    valid literal but no valid UTF-8, so it is kept as a plain value instead."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def pieces(expr: ast.expr) -> list[Any] | None:
    """A string built from parts: literal text, null for an unknown field, ["r", ref] for a name
    (a constant, perhaps, resolved later). None when it is not string-building."""
    if isinstance(expr, ast.Constant):
        return [expr.value] if isinstance(expr.value, str) else None
    if isinstance(expr, ast.JoinedStr):
        out: list[Any] = []
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                out.append(part.value)
            elif isinstance(part, ast.FormattedValue):
                ref = ref_of(part.value)
                out.append(["r", ref] if ref and "()" not in ref else None)
        return out
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left = pieces(expr.left)
        right = pieces(expr.right)
        if left is None and right is None:
            return None
        return [*(left or [name_piece(expr.left)]), *(right or [name_piece(expr.right)])]
    return None


def name_piece(expr: ast.expr) -> Any:
    ref = ref_of(expr)
    return ["r", ref] if ref and "()" not in ref else None


def literal_receiver(func: ast.expr) -> bool:
    """``"x".join``, ``[].append``, ``{}.get``: a method of a built-in type."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, (*LITERALS, ast.Constant, ast.JoinedStr))


LITERALS = (
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Compare,
    ast.UnaryOp,
)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
