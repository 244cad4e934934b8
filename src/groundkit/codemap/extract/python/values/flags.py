"""A return under a test of a parameter's flag (``parse/flags.py``) is given to a call only
when the literal that call passes (or the default it leaves in place) may pass the test.

Only a literal decides: where a call passes anything else, spreads ``*args`` or ``**kwargs``,
or the default is no literal, the test may go either way and every return flows as before.
So a flag removes values only where the literal proves the branch is not taken.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.flags import FLAG_TESTS
from groundkit.codemap.extract.python.values.keys import FuncKey, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["is_flag", "ruled_out"]

_NOT_LITERAL = object()


def is_flag(test: str) -> bool:
    """Whether ``test`` (``facts.Tested.test``) asks about a flag rather than a function."""
    return test.startswith(FLAG_TESTS)


def ruled_out(
    flow: Flow, tests: Sequence[tuple[str, bool]], var: int, where: tuple[SiteKey, FuncKey]
) -> bool:
    """Whether the literal in ``var`` (what a call passes the tested parameter, found in the
    call's file or the callee's, ``where``) fails one of the flag ``tests`` a return runs
    under: then the call never takes that return."""
    value = _literal(flow, var, where)
    if value is _NOT_LITERAL:
        return False
    return any(is_flag(test) and _answer(test, value) is not holds for test, holds in tests)


def _literal(flow: Flow, var: int, where: tuple[SiteKey, FuncKey]) -> object:
    for file in (where[0][0], where[1][0]):
        info: FileInfo = flow.program.files[file]
        local = info.local(var)
        if local >= 0:
            return _constant(info.op_of(local))
    return _NOT_LITERAL


def _constant(op: facts.Op | None) -> object:
    if not isinstance(op, facts.Const):
        return _NOT_LITERAL
    if op.what == facts.ConstKind.NONE:
        return None
    if op.text is not None:
        return op.text
    if op.written is not None:
        return ast.literal_eval(op.written)
    return _NOT_LITERAL


def _answer(test: str, value: object) -> bool:
    """What ``test`` gives on the literal ``value``, as Python answers it."""
    if test == "truth":
        return bool(value)
    asked, _, written = test.partition(":")
    literal = ast.literal_eval(written)
    if asked == "is":
        return value is literal
    return bool(value == literal)
