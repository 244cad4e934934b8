"""Routers made from the repository's own subclasses of a framework's (``class
AdminAPIRouter(APIRouter)``): the instances of one class are one value in the flow, so each is
known by where it was made (``Program.static``'s ``made``), and named, like a framework's, by the
variable that holds it.

Its prefix is what reaches the framework's ``__init__``: the call's own argument, forwarded
through each ``__init__`` along the MRO by ``super().__init__(...)`` (by keyword, position or
``**kwargs``), or a literal one of them passes itself. When it cannot be read (computed, or
passed some other way) it is unknown, and the router is kept without one, as a framework
router given a computed prefix is.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import ParamKind
from groundkit.codemap.extract.python.values.keys import ClassKey
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.web.arguments import WebContext
from groundkit.codemap.extract.python.web.frameworks import ROUTERS, role_of

__all__ = ["Made", "made_at", "prefix", "router_of"]

_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Made:
    """A router made from a subclass: its name and the framework class it is one of."""

    router: str
    role: tuple[str, str]


def framework_of(program: Program, cls: ClassKey) -> tuple[str, str] | None:
    """The framework router class (package, name) a repository class inherits from."""
    for owner in program.mro(cls):
        for name in program.classes[owner].outside:
            role = role_of(name)
            if role in ROUTERS:
                return role
    return None


def made_at(ctx: WebContext, site: int) -> tuple[ClassKey, Made] | None:
    """The router a call site of this file makes from a subclass, with that class."""
    call = ctx.info.calls_by_site().get(site)
    callee = ctx.program.static(ctx.info.index, call.func) if call is not None else None
    if callee is None or callee[0] != "class":
        return None
    role = framework_of(ctx.program, callee[1])
    name = ctx.named((ctx.info.index, site)) if role is not None else None
    if role is None or name is None:
        return None
    return callee[1], Made(name, role)


def router_of(ctx: WebContext, var: int | None) -> Made | None:
    """The subclass-made router a variable of this file holds: the one result of a call that
    made it (``router``, ``admin.router``, ``from .admin import router``)."""
    if var is None:
        return None
    found = ctx.program.static(ctx.info.index, var)
    if found is None or found[0] != "made":
        return None
    file, site = found[1]
    other = ctx if file == ctx.info.index else WebContext(ctx.flow, ctx.program.files[file], None)
    made = made_at(other, site)
    return made[1] if made is not None else None


@dataclass(frozen=True, slots=True)
class _Call:
    """A call's arguments, read where it is written: in ``scope`` of ``ctx``'s file, a
    function run by ``caller`` (None: the code it is in was not reached by a call we follow)."""

    ctx: WebContext
    scope: int
    args: tuple[int, ...]
    keywords: tuple[tuple[str, int], ...]
    caller: _Call | None


def prefix(ctx: WebContext, site: facts.Site, cls: ClassKey, keyword: str | None) -> str | None:
    """The prefix a subclass-made router has: ``""`` when none is given, None when unknown."""
    if keyword is None:
        return ""
    call = _Call(ctx, site.scope, site.args, site.keywords, None)
    return _through(ctx.program, ctx.program.mro(cls), 0, call, keyword, 0)


def _through(
    program: Program, mro: list[ClassKey], start: int, call: _Call, keyword: str, depth: int
) -> str | None:
    """What reaches the framework's ``__init__`` as ``keyword`` from ``call`` of the first
    ``__init__`` along ``mro`` from ``start``."""
    at = next((i for i in range(start, len(mro)) if program.binds_in_class(mro[i], "__init__")), -1)
    if at < 0:
        return _keyword(call, keyword, depth)
    inits = program.functions_named(mro[at], "__init__")
    if len(inits) != 1 or depth > _DEPTH:
        return None
    file, scope = inits[0]
    info = program.files[file]
    supers = _super_inits(info, scope)
    if len(supers) != 1:
        return None
    ctx = call.ctx if file == call.ctx.info.index else WebContext(call.ctx.flow, info, None)
    forward = _Call(ctx, scope, supers[0].args, supers[0].keywords, call)
    return _through(program, mro, at + 1, forward, keyword, depth + 1)


def _super_inits(info: FileInfo, scope: int) -> list[facts.Site]:
    """The ``super().__init__(...)`` calls of one function."""
    out = []
    for index, call in info.calls_by_site().items():
        site = info.facts.sites[index]
        if site.scope != scope or site.name != "__init__" or site.kind != facts.SiteKind.CALL:
            continue
        func = info.op_of(call.func)
        if isinstance(func, facts.Attr) and isinstance(_source(info, func.obj), facts.Super):
            out.append(site)
    return out


def _source(info: FileInfo, var: int) -> facts.Op | None:
    """The op that made a variable's value, through plain copies."""
    op = info.op_of(var)
    for _ in range(_DEPTH):
        if not isinstance(op, facts.Copy | facts.Annot) or op.src < 0:
            break
        op = info.op_of(op.src)
    return op


def _keyword(call: _Call, keyword: str, depth: int) -> str | None:
    """The framework's own keyword argument: given, spread from the caller's ``**kwargs``, or
    absent (no prefix)."""
    given = next((var for name, var in call.keywords if name == keyword), None)
    if given is not None:
        return _text(call, given, depth)
    spread = [var for name, var in call.keywords if name == ""]
    if not spread:
        return ""
    param = _param_of(call, spread[0]) if len(spread) == 1 else None
    if param is None or call.caller is None or param.kind != ParamKind.VAR_KEYWORD:
        return None
    # A parameter of its own by that name takes the caller's argument out of **kwargs.
    names = {p.name for p in call.ctx.info.facts.scopes[call.scope].params}
    return "" if keyword in names else _keyword(call.caller, keyword, depth + 1)


def _param_of(call: _Call, var: int) -> facts.Param | None:
    """The parameter of the function the call is written in that a variable is, unchanged."""
    op = _source(call.ctx.info, var)
    if not isinstance(op, facts.ParamIn) or op.scope != call.scope:
        return None
    params = call.ctx.info.facts.scopes[call.scope].params
    return params[op.index] if op.index < len(params) else None


def _text(call: _Call, var: int, depth: int) -> str | None:
    """An argument's literal text, a parameter's read from the call that ran the function."""
    param = _param_of(call, var) if call.caller is not None else None
    if param is None or call.caller is None:
        return call.ctx.literal(var)
    if param.kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD) or depth > _DEPTH:
        return None
    caller = call.caller
    op = _source(call.ctx.info, var)
    assert isinstance(op, facts.ParamIn)
    position = op.index - 1  # a method's: ``self`` is not passed
    passed = None
    if param.kind != ParamKind.POSITIONAL_ONLY:
        passed = next((v for name, v in caller.keywords if name == param.name), None)
    if passed is None and param.kind != ParamKind.KEYWORD_ONLY:
        if any(a < 0 for a in caller.args[: position + 1]):
            return None  # a ``*spread`` before it: its place is not known
        passed = caller.args[position] if 0 <= position < len(caller.args) else None
    if passed is not None:
        return _text(caller, passed, depth + 1)
    if any(name == "" for name, _ in caller.keywords):
        return None  # it may come in a ``**spread``
    return call.ctx.literal(param.default) if param.default >= 0 else None
