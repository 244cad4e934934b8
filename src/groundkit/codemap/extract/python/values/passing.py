"""Functions that return one of their parameters through calls that hand it back::

    def wrap(func):
        if draft3:
            func = checkers["draft3"].checks(draft3)(func)  # stores func, returns it
        return func

``return func`` is the parameter or what ``_checks(func)`` returns, and ``_checks`` returns its
own parameter: so each call of ``wrap`` gives back its own argument, as ``def deco(f): return
f`` does (``Flow.returns_param``), not every function any call passed (jsonschema's
``_checks_drafts``, whose 20 decorated checkers each became every other's callee).

The shape is read from the return's own variables: every binding that reaches it (through
copies, narrowings and branches that meet) is the parameter or the result of a call that
passes, by position, a value of that same shape, and whose callee is not known before solving
to do otherwise (``_not_passing``). Each such call is then watched while the
program is solved: it must only ever call functions that themselves give back the argument at
that position (a plain function or a bound method, with no other return). Any other callee
(a class, an outside object, a function returning something else) makes the function return
what it does without this rule too: every value its return may hold, shared by every call
(``fall_back``), as does a callee that itself falls back later. Each call's result is then a
run-time choice (partial), since what it was given has flowed to it already.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.engine import each_value
from groundkit.codemap.extract.python.values.keys import FuncKey
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["install", "through_calls"]

_SAME = (facts.Copy, facts.Narrow, facts.Tested)
# Callees outside the repository: what they return is not in the map.
_OUTSIDE = frozenset(
    {objects.UNKNOWN, objects.EXT, objects.EXTINST, objects.BOUND, objects.BUILTIN}
)


def through_calls(
    program: Program, info: FileInfo, scope: int, src: int, busy: frozenset[FuncKey] = frozenset()
) -> tuple[int, list[tuple[int, int]]] | None:
    """The parameter ``src`` (a local of ``scope``) gives back through calls, and each such
    call (its callee's local, the position of the argument that carries the parameter); None
    where ``src`` may hold anything else, no call is on the way, one calls what is known to be
    no function of the repository (``evolve(self, ...)`` imported from attrs makes another
    object: ``_not_passing``), or the parameter is a method's ``self`` (a builder's)."""
    params: set[int] = set()
    calls: list[tuple[int, int]] = []
    seen: set[int] = set()

    def carries(var: int) -> bool:
        if var in seen:  # (a loop's way back brings nothing new)
            return True
        seen.add(var)
        op = info.op_of(var)
        if isinstance(op, _SAME):
            return carries(op.src)
        if isinstance(op, facts.Phi):
            return all(carries(each) for each in op.srcs)
        if isinstance(op, facts.ParamIn) and op.scope == scope:
            params.add(op.index)
            return True
        if isinstance(op, facts.Call):
            site = info.facts.sites[op.site]
            if site.scope != scope or site.kind != facts.SiteKind.CALL:
                return False
            given = [i for i, arg in enumerate(site.args) if arg >= 0 and _holds(info, scope, arg)]
            if len(given) != 1 or any(arg < 0 for arg in site.args[: given[0]]):
                return False
            if _not_passing(
                program, info, op.func, given[0], busy | {FuncKey((info.index, scope))}
            ):
                return False
            calls.append((op.func, given[0]))
            return carries(site.args[given[0]])
        return False

    if not carries(src) or len(params) != 1 or not calls:
        return None
    (index,) = params
    found = info.facts.scopes[scope]
    if index == 0 and found.kind == Kind.METHOD and not found.flags & facts.STATIC:
        return None
    return index, calls


def _not_passing(
    program: Program, info: FileInfo, callee: int, position: int, busy: frozenset[FuncKey]
) -> bool:
    """Whether the callee ``callee`` is known before solving not to give back the argument
    at ``position``: what an outside import names, or what calling one or a class makes
    (``functools.lru_cache(maxsize=n)(f)``, ``Wrapper(...)(f)``), or a function of the
    repository (named, or the nested function a named factory returns) with another return
    (``_unlocked(func, cache)`` returning its ``wrapper``), or what a named factory returns
    when that is not a nested function (anyio's ``lru_cache(maxsize=None)(func)``, an
    instance)."""
    static = program.static(info.index, callee)
    if static is not None and static[0] in ("ext", "builtin", "class"):
        return True
    if static is not None and static[0] == "func":
        return not _returns_param(program, static[1], position, busy)
    made = info.op_of(callee)
    while isinstance(made, _SAME):
        made = info.op_of(made.src)
    if not isinstance(made, facts.Call):
        return False
    static = program.static(info.index, made.func)
    if static is None:
        return False
    if static[0] != "func":
        return static[0] in ("ext", "builtin", "class")
    made_funcs = _returned_functions(program, static[1])
    return not made_funcs or any(
        not _returns_param(program, func, position, busy) for func in made_funcs
    )


def _returns_param(program: Program, func: FuncKey, index: int, busy: frozenset[FuncKey]) -> bool:
    """Whether every return of ``func`` gives back its parameter ``index`` (directly or
    through calls that may), read before solving."""
    if func in busy:
        return True
    info = program.files[func[0]]
    returns = [op for op in info.facts.ops if isinstance(op, facts.Ret) and op.scope == func[1]]
    if not returns:
        return False
    for ret in returns:
        given = info.op_of(ret.src)
        while isinstance(given, _SAME):
            given = info.op_of(given.src)
        if isinstance(given, facts.ParamIn) and given.scope == func[1]:
            if given.index != index:
                return False
            continue
        found = through_calls(program, info, func[1], ret.src, busy | {func})
        if found is None or found[0] != index:
            return False
    return True


def _returned_functions(program: Program, func: FuncKey) -> list[FuncKey]:
    """The nested functions ``func`` returns, when every return is one (else none)."""
    info = program.files[func[0]]
    out = []
    for op in info.facts.ops:
        if not isinstance(op, facts.Ret) or op.scope != func[1]:
            continue
        given = info.op_of(op.src)
        while isinstance(given, _SAME):
            given = info.op_of(given.src)
        if not isinstance(given, facts.Def):
            return []
        if info.facts.scopes[given.scope].kind not in (Kind.FUNCTION, Kind.LAMBDA):
            return []
        out.append(FuncKey((func[0], given.scope)))
    return out


def _holds(info: FileInfo, scope: int, var: int) -> bool:
    """Whether ``var`` is bound from a parameter of ``scope``, a call or bindings that meet
    (the arguments that may carry the parameter)."""
    op = info.op_of(var)
    while isinstance(op, _SAME):
        op = info.op_of(op.src)
    if isinstance(op, facts.ParamIn):
        return op.scope == scope
    return isinstance(op, facts.Phi | facts.Call)


def install(flow: Flow, file: int, ret: facts.Ret, func: FuncKey) -> bool:
    """Read ``ret`` (a return of ``func``) as giving back a parameter through calls, and watch
    those calls' callees; False where it is not of that shape.

    ``func`` is counted among the functions with other returns from the start, so that each
    call's result is a meeting of its own argument and the return every call shares: that one
    holds nothing unless the function falls back, and then the result is a run-time choice
    (``certainty.py``), never the argument alone for certain."""
    info = flow.program.files[file]
    found = through_calls(flow.program, info, ret.scope, ret.src)
    if found is None:
        return False
    index, calls = found
    flow.returns_param.setdefault(func, set()).add(index)
    flow.returns_other.add(func)
    flow.passing.setdefault(func, False)
    src = info.var(ret.src)
    for callee, position in calls:
        flow.engine.on(info.var(callee), each_value(_callee, flow, func, position, src))
    return True


def _callee(value: int, flow: Flow, func: FuncKey, position: int, src: int) -> None:
    """A value a watched call of ``func`` calls: kept where it gives back the argument at
    ``position``, else ``func`` falls back."""
    kind = flow.values.keys[value][0]
    if kind in (objects.FUNC, objects.METH):
        callee = flow.values.function(value)
        index = position + (1 if kind == objects.METH else 0)
        if _gives_back(flow, callee, index):
            flow.passing_users.setdefault(callee, []).append((func, src))
            return
    elif kind in _OUTSIDE:
        # (an outside object's method: what it returns may be anything, the argument or not)
        flow.engine.add(flow.ret(func), [objects.UNKNOWN_ID])
    fall_back(flow, func, src)


def _gives_back(flow: Flow, func: FuncKey, index: int) -> bool:
    """Whether every return of ``func`` gives back its parameter ``index``: directly, or
    through calls that do (and it has not fallen back)."""
    if flow.returns_param.get(func) != {index} or flow.passing.get(func):
        return False
    if flow.scope(func).flags & facts.GENERATOR:
        return False
    info = flow.program.files[func[0]]
    for op in info.facts.ops:
        if not isinstance(op, facts.Ret) or op.scope != func[1]:
            continue
        given = info.op_of(op.src)
        while isinstance(given, _SAME):
            given = info.op_of(given.src)
        direct = isinstance(given, facts.ParamIn) and given.scope == func[1]
        if not direct and through_calls(flow.program, info, func[1], op.src) is None:
            return False
    return True


def fall_back(flow: Flow, func: FuncKey, src: int) -> None:
    """``func``'s return ``src`` is shared by every call (and so is each function's that
    relied on ``func`` giving back its argument)."""
    once = ("passing", func, src)
    if once in flow.once:
        return
    flow.once.add(once)
    flow.passing[func] = True
    flow.engine.flow(src, flow.ret(func))
    for user, user_src in flow.passing_users.pop(func, []):
        fall_back(flow, user, user_src)
