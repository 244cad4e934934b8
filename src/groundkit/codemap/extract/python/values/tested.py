"""Branches on a test of the function a parameter holds (``facts.Tested``): a decorator that
returns one wrapper for coroutine functions and another for the rest, or picks by a parameter's
name (starlette's ``requires``: ``is_async_callable(func)``, ``inspect.signature(func)``).

In each branch the parameter's copy holds only the functions of the repository that give the
branch's answer (anything else, whose answer is not known here, goes on to both). A function
defined in the branch sees that copy (``Walker._outer``), and a return in the branch is given to
a call only when what the call passes the parameter may give that answer: ``requires(page)``
returns the wrapper that closes over ``page``, not the other one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import flags, objects
from groundkit.codemap.extract.python.values.engine import with_args
from groundkit.codemap.extract.python.values.keys import FuncKey, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Guarded", "answer", "give_returns", "guarded_returns", "narrow"]


class Guarded(NamedTuple):
    """A return of a function (its variable) and the tests a call's argument for the
    parameter ``param`` must be able to pass for it (``param`` -1: none); ``flags``: other
    parameters and the flag tests a literal passed for each must pass (``values/flags.py``)."""

    src: int
    param: int
    tests: tuple[tuple[str, bool], ...]
    flags: tuple[tuple[int, tuple[tuple[str, bool], ...]], ...] = ()


def answer(flow: Flow, value: int, test: str) -> bool | None:
    """What ``test`` gives on ``value``: known only for a function of the repository."""
    key = flow.values.keys[value]
    if key[0] != objects.FUNC:
        return None
    scope = flow.scope(FuncKey((key[1], key[2])))
    if test == "async":
        return bool(scope.flags & facts.ASYNC) and not scope.flags & facts.GENERATOR
    if test.startswith("param:"):
        if "wraps" in scope.decorators:  # (the signature is the wrapped function's)
            return None
        return any(param.name == test[6:] for param in scope.params)
    return None


def _passes(flow: Flow, value: int, tests: Sequence[tuple[str, bool]]) -> bool:
    return all(answer(flow, value, test) in (None, holds) for test, holds in tests)


def narrow(flow: Flow, src: int, dst: int, test: str, holds: bool) -> None:
    """``dst`` holds what ``src`` holds that may give ``holds`` to ``test``."""
    flow.depends.extend((src, dst))  # (a choice in x is one in the copy)
    if flags.is_flag(test):  # (any value may be truthy, or equal to a literal)
        flow.engine.flow(src, dst)
        return
    flow.engine.on(src, with_args(_narrowed, flow, ((test, holds),), dst))


def _narrowed(
    flow: Flow, tests: tuple[tuple[str, bool], ...], dst: int, new: Sequence[int]
) -> None:
    out = [value for value in new if _passes(flow, value, tests)]
    if out:
        flow.engine.add(dst, out)


def guarded_returns(info: FileInfo) -> dict[int, list[Guarded]]:
    """The functions of ``info`` with a return under a test of a parameter, each with its
    returns other than of a parameter (and the tests in force at each). One pass over the
    file's operations: asked once per file, not per function called."""
    by_scope: dict[int, list[facts.Ret]] = {}
    tested: set[int] = set()
    for op in info.facts.ops:
        if isinstance(op, facts.Ret):
            by_scope.setdefault(op.scope, []).append(op)
            if op.guard >= 0:
                tested.add(op.scope)
    out = {}
    for scope in tested:
        found = _returns(info, scope, by_scope[scope])
        if found:
            out[scope] = found
    return out


def _returns(info: FileInfo, scope: int, rets: list[facts.Ret]) -> list[Guarded]:
    out, any_test = [], False
    for op in rets:
        if _param_of(info, op.src, scope) is not None:
            continue  # (``Calls._returned`` gives each call its own argument)
        index, tests = _tests(info, scope, op.guard)
        others = tuple(found for copy in op.flags if (found := _tests(info, scope, copy))[0] >= 0)
        any_test = any_test or index >= 0 or bool(others)
        out.append(Guarded(info.var(op.src), index, tests, others))
    return out if any_test else []


def _tests(info: FileInfo, scope: int, copy: int) -> tuple[int, tuple[tuple[str, bool], ...]]:
    """The parameter a ``Tested`` copy is of (-1: none) and the tests it passed."""
    tests: list[tuple[str, bool]] = []
    var = copy
    given = info.op_of(var) if var >= 0 else None
    while isinstance(given, facts.Tested):
        tests.append((given.test, given.holds))
        var = given.src
        given = info.op_of(var)
    found = _param_of(info, var, scope) if tests else None
    return (found, tuple(tests)) if found is not None else (-1, ())


def _param_of(info: FileInfo, var: int, scope: int) -> int | None:
    """The index of the parameter of ``scope`` that ``var`` is a copy of, or None."""
    given = info.op_of(var)
    while isinstance(given, facts.Copy | facts.Narrow | facts.Tested):
        given = info.op_of(given.src)
    if isinstance(given, facts.ParamIn) and given.scope == scope:
        return given.index
    return None


def give_returns(
    flow: Flow,
    returns: list[Guarded],
    given: dict[int, int],
    dst: int,
    where: tuple[SiteKey, FuncKey] | None = None,
) -> None:
    """A call's result: each return whose tests what the call passes may pass (``where``:
    the call's site and callee, where a literal it passes decides a flag's test; None where
    a spread leaves what it passes unsure, ``values/flags.py``)."""
    flow.alt.add(dst)  # (several returns: a run-time choice where more than one is given)
    for ret in returns:
        arg = given.get(ret.param) if ret.param >= 0 else None
        if where is not None and any(
            (passed := given.get(param)) is not None and flags.ruled_out(flow, tests, passed, where)
            for param, tests in ((ret.param, ret.tests), *ret.flags)
        ):
            continue
        if arg is None or all(flags.is_flag(test) for test, _ in ret.tests):
            flow.engine.flow(ret.src, dst)
        else:
            flow.engine.on(arg, with_args(_when_passed, flow, ret, dst))


def _when_passed(flow: Flow, ret: Guarded, dst: int, new: Sequence[int]) -> None:
    if any(_passes(flow, value, ret.tests) for value in new):
        flow.engine.flow(ret.src, dst)
