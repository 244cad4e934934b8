"""A parameter's flag: a test of a parameter a call may decide by passing a literal.

``if fold:``, ``x if quick else y``, ``if mode == "r":``, ``if flag is False:`` choose what a
function does (and returns) by the literal its caller writes: python-dateutil's
``enfold(dt, fold=1)`` builds its own class only ``if fold:``. The tests are kept as
``facts.Tested`` copies of the parameter (as a test of the function it holds is), so a return
under one is given to a call only when the literal that call passes may pass it
(``values/flags.py``); and each ``bool`` or ``int`` a call passes or a default is written as
has a variable of its own that says which (``facts.Const.written``).
"""

from __future__ import annotations

import ast

__all__ = ["FLAG_TESTS", "flag_tests", "written"]

FLAG_TESTS = ("truth", "is:", "eq:")  # (``facts.Tested.test``: the first, or a prefix)
_LITERAL_LENGTH = 40  # (a longer literal is no flag; its text is not kept)


def written(node: ast.expr) -> str | None:
    """A ``bool`` or ``int`` literal as ``repr`` writes it (``True``, ``0``), else None."""
    if isinstance(node, ast.Constant) and type(node.value) in (bool, int):
        text = repr(node.value)
        return text if len(text) <= _LITERAL_LENGTH else None
    return None


def flag_tests(test: ast.expr, params: frozenset[str]) -> dict[str, tuple[str, bool]]:
    """The parameters of ``params`` whose flag ``test`` asks, with what it asks
    (``facts.Tested.test``) and whether the answer is yes when ``test`` is true: ``x``,
    ``not x``, ``x is None`` (``is not``; ``None``, ``True``, ``False``), ``x == LIT``
    (``!=``; either side; ``LIT`` a ``bool``, ``int``, ``str`` or ``None``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return {
            name: (asked, not holds)
            for name, (asked, holds) in flag_tests(test.operand, params).items()
        }
    if isinstance(test, ast.Name):
        return {test.id: ("truth", True)} if test.id in params else {}
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return {}
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(left, ast.Name) and left.id in params and isinstance(right, ast.Constant)):
        return {}
    value = right.value
    if isinstance(op, ast.Is | ast.IsNot) and (value is None or type(value) is bool):
        return {left.id: ("is:" + repr(value), isinstance(op, ast.Is))}
    literal = value is None or type(value) in (bool, int, str)
    if isinstance(op, ast.Eq | ast.NotEq) and literal and len(repr(value)) <= _LITERAL_LENGTH:
        return {left.id: ("eq:" + repr(value), isinstance(op, ast.Eq))}
    return {}
