"""Statements: bindings, definitions, imports and the control flow that decides which binding
of a name reaches which read."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.python.parse import facts as f
from groundkit.codemap.extract.python.parse.expressions import (
    annotation,
    bind_target,
    condition,
    evaluate,
    subscript_key,
)
from groundkit.codemap.extract.python.parse.facts import Kind, SiteKind
from groundkit.codemap.extract.python.parse.frames import bound_names
from groundkit.codemap.extract.python.parse.syntax import ref_of, strings
from groundkit.codemap.extract.python.parse.walker import Env, Walker

__all__ = ["walk_body"]

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_CLS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


def walk_body(w: Walker, stmts: list[ast.stmt]) -> None:
    for stmt in stmts:
        handler = _STATEMENTS.get(type(stmt))
        if handler is None:
            _generic(w, stmt)
        else:
            handler(w, stmt)


def _generic(w: Walker, node: ast.AST) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            evaluate(w, child)
        elif isinstance(child, ast.stmt):
            walk_body(w, [child])


# -- bindings -------------------------------------------------------------------------------------
def _assign(w: Walker, node: ast.Assign) -> None:
    holder = _holder(node.targets)
    source = node.value
    if (
        len(node.targets) == 1
        and isinstance(node.targets[0], ast.Tuple | ast.List)
        and isinstance(source, ast.Tuple | ast.List)
        and len(source.elts) == len(node.targets[0].elts)
        and not any(isinstance(e, ast.Starred) for e in (*source.elts, *node.targets[0].elts))
    ):
        # a, b = b, a: every value is read before any name is bound
        values = [evaluate(w, e) for e in source.elts]
        for target, value in zip(node.targets[0].elts, values, strict=True):
            bind_target(w, target, value)
        return
    value = evaluate(w, source, holder=holder)
    for target in node.targets:
        bind_target(w, target, value)
    if w.frame.kind == Kind.MODULE and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
    ):
        listed = strings(source)
        if listed is None:
            w.all_dynamic = True
        else:
            w.all = listed


def _holder(targets: list[ast.expr]) -> str:
    if len(targets) == 1 and isinstance(targets[0], ast.Name):
        return targets[0].id
    return ""


def _ann_assign(w: Walker, node: ast.AnnAssign) -> None:
    ann = annotation(w, node.annotation)
    frame = w.frame
    target = node.target
    if node.value is None:
        if not isinstance(target, ast.Name) or ann < 0:
            return
        typed = w.var()
        w.emit(f.Annot(typed, -1, ann))
        if frame.kind == Kind.CLASS:  # a dataclass-style field: instances have it
            w.emit(f.ClassBind(frame.index, target.id, typed, field=True))
        else:
            w.bind(target.id, typed)
        return
    value = evaluate(w, node.value, holder=target.id if isinstance(target, ast.Name) else "")
    if ann >= 0:
        typed = w.var()
        w.emit(f.Annot(typed, value, ann))
        value = typed
    bind_target(w, target, value)


def _aug_assign(w: Walker, node: ast.AugAssign) -> None:
    current = evaluate(w, node.target)
    value = evaluate(w, node.value)
    dst = w.var()
    method = "__i" + _OPERATORS.get(type(node.op), "op") + "__"
    w.emit(f.BinOp(dst, current, value, method, w.site(node, SiteKind.PROTOCOL, name=method)))
    if isinstance(node.target, ast.Name):
        w.bind(node.target.id, dst)
    elif isinstance(node.target, ast.Attribute):
        obj = evaluate(w, node.target.value)
        site = w.site(node.target, SiteKind.WRITE, name=node.target.attr)
        w.emit(f.SetAttr(obj, node.target.attr, dst, site))


_OPERATORS: dict[type[ast.AST], str] = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.MatMult: "matmul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
    ast.BitOr: "or",
    ast.BitXor: "xor",
    ast.BitAnd: "and",
}


# -- definitions ----------------------------------------------------------------------------------
def _function(w: Walker, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    outer = w.frame
    qual = _qual(w, node.name)
    kind = Kind.METHOD if outer.kind == Kind.CLASS else Kind.FUNCTION
    names = [r[-1] for d in node.decorator_list if (r := ref_of(_bare(d)))]
    decorators = _decorators(w, node.decorator_list)
    params = _params(w, node.args)
    if node.returns is not None:
        evaluate(w, node.returns)
    flags = f.ASYNC if isinstance(node, ast.AsyncFunctionDef) else 0
    if kind == Kind.METHOD:
        if "staticmethod" in names:
            flags |= f.STATIC
        elif "classmethod" in names or node.name in _CLS_FIRST:
            flags |= f.CLASSMETHOD
    start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    local, glob, nonlocal_ = bound_names(node.body, w.walrus)
    local |= {p.name for p in params}
    scope = f.Scope(
        qual,
        kind,
        outer.index,
        start,
        node.end_lineno or node.lineno,
        node.lineno,
        params,
        flags,
        names,
    )
    frame = w.push(scope, local)
    frame.declared_global = glob
    frame.declared_nonlocal = nonlocal_
    for index, param in enumerate(params):
        value = w.var()
        w.emit(f.ParamIn(value, frame.index, index))
        frame.env[param.name] = value
    alive = w.alive
    w.alive = True
    walk_body(w, node.body)
    w.alive = alive
    w.pop()
    value = w.var()
    w.emit(f.Def(value, frame.index))
    _decorate(w, node, value, decorators, frame.index, node.name)


def _decorators(w: Walker, nodes: list[ast.expr]) -> list[tuple[int, int]]:
    """Each decorator's value, with the site of the factory call that made it (or -1)."""
    out = []
    for node in nodes:
        factory = len(w.sites) if isinstance(node, ast.Call) else -1
        out.append((evaluate(w, node), factory))
    return out


def _bare(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _decorate(
    w: Walker,
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
    value: int,
    decorators: list[tuple[int, int]],
    target: int,
    name: str,
) -> None:
    """Apply decorators innermost first; the name is bound to what the outermost returns
    (``@x.setter``: the property x, with this function as its setter)."""
    pairs = list(zip(node.decorator_list, decorators, strict=True))
    for deco_node, (deco, factory) in reversed(pairs):
        result = w.var()
        ref = ref_of(_bare(deco_node))
        site = w.site(
            deco_node,
            SiteKind.DECORATOR,
            name=ref[-1] if ref else "",
            target=target,
            factory=factory,
            args=[value],
        )
        w.emit(f.Call(result, deco, site))
        value = result
    w.bind(name, value)


def _params(w: Walker, args: ast.arguments) -> list[f.Param]:
    """Parameters in order, their defaults evaluated here (where the ``def`` stands)."""
    out: list[f.Param] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for i, arg in enumerate(positional):
        default = evaluate(w, args.defaults[i - first_default]) if i >= first_default else -1
        kind = 0 if i < len(args.posonlyargs) else 1
        out.append(f.Param(arg.arg, kind, default, _param_annotation(w, arg)))
    if args.vararg is not None:
        out.append(f.Param(args.vararg.arg, 3))
    for arg, default_node in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        default = evaluate(w, default_node) if default_node is not None else -1
        out.append(f.Param(arg.arg, 2, default, _param_annotation(w, arg)))
    if args.kwarg is not None:
        out.append(f.Param(args.kwarg.arg, 4))
    return out


def _param_annotation(w: Walker, arg: ast.arg) -> int:
    return annotation(w, arg.annotation) if arg.annotation is not None else -1


def _qual(w: Walker, name: str) -> str:
    frame: Any = w.frame
    while frame.kind == Kind.COMP:
        frame = frame.parent
    outer = w.scopes[frame.index].qual
    return f"{outer}.{name}" if outer else name


def _class(w: Walker, node: ast.ClassDef) -> None:
    outer = w.frame
    qual = _qual(w, node.name)
    names = [r[-1] for d in node.decorator_list if (r := ref_of(_bare(d)))]
    decorators = _decorators(w, node.decorator_list)
    plain = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
    bases = [evaluate(w, b) for b in plain]
    base_refs = [r if (r := ref_of(b)) and "()" not in r else [] for b in plain]
    for keyword in node.keywords:
        evaluate(w, keyword.value)
    start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    scope = f.Scope(
        qual,
        Kind.CLASS,
        outer.index,
        start,
        node.end_lineno or node.lineno,
        node.lineno,
        [],
        0,
        names,
        bases,
        base_refs,
    )
    frame = w.push(scope)
    alive = w.alive
    w.alive = True
    walk_body(w, node.body)
    w.alive = alive
    w.pop()
    value = w.var()
    w.emit(f.Def(value, frame.index))
    _decorate(w, node, value, decorators, frame.index, node.name)


def _return(w: Walker, node: ast.Return) -> None:
    frame = w.frame.function()
    value = evaluate(w, node.value) if node.value is not None else w.none
    if frame is not None:
        w.emit(f.Ret(frame.index, value))
    w.alive = False


# -- imports --------------------------------------------------------------------------------------
def _import(w: Walker, node: ast.Import) -> None:
    for alias in node.names:
        value = w.var()
        if alias.asname:
            w.emit(f.Import(value, alias.name, 0, None))
            w.bind(alias.asname, value)
        else:
            top = alias.name.split(".")[0]
            w.emit(f.Import(value, top, 0, None))
            w.bind(top, value)
        _import_fact(w, node, alias.name, 0, None)


def _import_from(w: Walker, node: ast.ImportFrom) -> None:
    module = node.module or ""
    for alias in node.names:
        if alias.name == "*":
            _star(w, module, node.level)
        else:
            value = w.var()
            w.emit(f.Import(value, module, node.level, alias.name))
            w.bind(alias.asname or alias.name, value)
        _import_fact(w, node, module, node.level, alias.name)


def _star(w: Walker, module: str, level: int) -> None:
    """A star import may rebind names bound before it (those it exports); names it brings
    that were never bound here are found through the module's ``Global`` reads."""
    frame = w.frame
    for name, before in list(frame.env.items()):
        after = w.var()
        w.emit(f.StarImport(after, module, level, name, before))
        frame.env[name] = after
    w.emit(f.StarImport(-1, module, level, "*"))


def _import_fact(w: Walker, node: ast.stmt, module: str, level: int, name: str | None) -> None:
    w.line(node.lineno)
    end = node.end_lineno or node.lineno
    w.imports.append(
        f.ImportStmt(
            w.frame.index,
            module,
            level,
            name,
            node.lineno,
            w.col(node.lineno, node.col_offset),
            end,
            w.col(end, node.end_col_offset or 0),
            list(w.flags),
        )
    )


# -- control flow ---------------------------------------------------------------------------------
def _branches(w: Walker, bodies: list[list[ast.stmt]], include_before: bool = False) -> None:
    """Walk alternative bodies from the same state, then meet."""
    before = w.fork()
    was_alive = w.alive
    results: list[tuple[Env, bool]] = [(before, was_alive)] if include_before else []
    for body in bodies:
        w.frame.env = dict(before)
        w.alive = was_alive
        walk_body(w, body)
        results.append((w.frame.env, w.alive))
    w.merge(results)
    if not was_alive:
        w.alive = False


def _if(w: Walker, node: ast.If) -> None:
    condition(w, node.test)
    test = ref_of(node.test)
    if test and test[-1] == "TYPE_CHECKING":
        w.flags.append("type_checking")
        try:
            _branches(w, [node.body, node.orelse])
        finally:
            w.flags.pop()
        return
    _branches(w, [node.body, node.orelse])


def _while(w: Walker, node: ast.While) -> None:
    condition(w, node.test)
    _loop(w, node, None)


def _for(w: Walker, node: ast.For | ast.AsyncFor) -> None:
    source = evaluate(w, node.iter)
    name = "__aiter__" if isinstance(node, ast.AsyncFor) else "__iter__"
    element = w.var()
    w.emit(f.Iter(element, source, w.site(node.iter, SiteKind.PROTOCOL, name=name)))
    _loop(w, node, (node.target, element))


def _loop(
    w: Walker, node: ast.For | ast.AsyncFor | ast.While, target: tuple[ast.expr, int] | None
) -> None:
    """A loop body may run again with its own bindings: each name it binds meets, at the top
    of the body, what came before and what the last pass left."""
    frame = w.frame
    rebound, _, _ = bound_names(node.body, w.walrus)
    if target is not None:
        rebound |= {n.id for n in ast.walk(target[0]) if isinstance(n, ast.Name)}
    heads = {name: w.var() for name in sorted(rebound)}
    before = w.fork()
    for name, head in heads.items():
        frame.env[name] = head
    w.loops.append(([], []))
    was_alive = w.alive
    if target is not None:
        bind_target(w, target[0], target[1])
    walk_body(w, node.body)
    breaks, continues = w.loops.pop()
    ends = [w.frame.env] if w.alive else []
    ends += continues
    for name, head in heads.items():
        sources = [before.get(name, w.none), *(env.get(name, head) for env in ends)]
        sources = [s for s in dict.fromkeys(sources) if s != head]
        w.emit(f.Phi(head, sources))
    w.frame.env = {**before, **heads}
    w.alive = was_alive
    if node.orelse:
        walk_body(w, node.orelse)
    if breaks:
        w.merge([(w.frame.env, w.alive), *((env, True) for env in breaks)])


def _break(w: Walker, node: ast.Break) -> None:
    if w.loops:
        w.loops[-1][0].append(w.fork())
    w.alive = False


def _continue(w: Walker, node: ast.Continue) -> None:
    if w.loops:
        w.loops[-1][1].append(w.fork())
    w.alive = False


def _try(w: Walker, node: ast.Try | ast.TryStar) -> None:
    catches = any(_catches_import_error(h) for h in node.handlers)
    before = w.fork()
    was_alive = w.alive
    if catches:
        w.flags.append("optional")
    try:
        walk_body(w, node.body)
    finally:
        if catches:
            w.flags.pop()
    after_body = (w.frame.env, w.alive)
    if w.alive:
        walk_body(w, node.orelse)
    results = [(w.frame.env, w.alive)]
    # A handler starts from any point of the body: what came before or what the body bound.
    start = [(before, True), (after_body[0], True)]
    for handler in node.handlers:
        w.merge(start)
        w.alive = was_alive
        caught = evaluate(w, handler.type) if handler.type is not None else w.unknown
        if handler.name:
            instance = w.var()
            w.emit(f.Annot(instance, -1, caught))
            w.bind(handler.name, instance)
        if catches:
            w.flags.append("optional")
        try:
            walk_body(w, handler.body)
        finally:
            if catches:
                w.flags.pop()
        results.append((w.frame.env, w.alive))
    w.merge(results)
    if node.finalbody:
        alive = w.alive
        walk_body(w, node.finalbody)
        w.alive = alive and w.alive


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    types = handler.type
    elements = types.elts if isinstance(types, ast.Tuple) else [types]
    for element in elements:
        ref = ref_of(element) if element is not None else ["BaseException"]
        if ref and ref[-1] in _IMPORT_ERRORS:
            return True
    return False


def _with(w: Walker, node: ast.With | ast.AsyncWith) -> None:
    is_async = isinstance(node, ast.AsyncWith)
    for item in node.items:
        manager = evaluate(w, item.context_expr)
        entered = w.var()
        name = "__aenter__" if is_async else "__enter__"
        site = w.site(item.context_expr, SiteKind.PROTOCOL, name=name)
        w.emit(f.With(entered, manager, site, is_async))
        if item.optional_vars is not None:
            bind_target(w, item.optional_vars, entered)
    walk_body(w, node.body)


def _match(w: Walker, node: ast.Match) -> None:
    evaluate(w, node.subject)
    before = w.fork()
    results: list[tuple[Env, bool]] = [(before, w.alive)]
    was_alive = w.alive
    for case in node.cases:
        w.frame.env = dict(before)
        w.alive = was_alive
        for sub in ast.walk(case.pattern):
            name = getattr(sub, "name", None) or getattr(sub, "rest", None)
            if isinstance(name, str):
                w.bind(name, w.unknown)
            if isinstance(sub, ast.MatchValue):
                evaluate(w, sub.value)
            elif isinstance(sub, ast.MatchClass):
                evaluate(w, sub.cls)
        if case.guard is not None:
            evaluate(w, case.guard)
        walk_body(w, case.body)
        results.append((w.frame.env, w.alive))
    w.merge(results)


def _raise(w: Walker, node: ast.Raise) -> None:
    for part in (node.exc, node.cause):  # raise X from Y: Y is made too
        if part is not None:
            value = evaluate(w, part)
            w.emit(f.Raise(value, w.site(part, SiteKind.PROTOCOL, name="raise")))
    w.alive = False


def _expr_stmt(w: Walker, node: ast.Expr) -> None:
    if not isinstance(node.value, ast.Constant):  # a docstring says nothing
        evaluate(w, node.value)


def _assert(w: Walker, node: ast.Assert) -> None:
    condition(w, node.test)
    if node.msg is not None:
        evaluate(w, node.msg)


def _declare(w: Walker, node: ast.Global | ast.Nonlocal) -> None:
    if w.frame.kind in (Kind.MODULE, Kind.CLASS) and isinstance(node, ast.Global):
        w.frame.declared_global.update(node.names)


def _delete(w: Walker, node: ast.Delete) -> None:
    for target in node.targets:
        if isinstance(target, ast.Name):
            continue
        if isinstance(target, ast.Subscript):
            obj = evaluate(w, target.value)
            key = subscript_key(w, target.slice)
            dst = w.var()
            site = w.site(target, SiteKind.PROTOCOL, name="__delitem__")
            w.emit(f.Sub(dst, obj, key, site, protocol="__delitem__"))
        else:
            evaluate(w, target)


_STATEMENTS: dict[type[ast.AST], Callable[[Walker, Any], None]] = {
    ast.FunctionDef: _function,
    ast.AsyncFunctionDef: _function,
    ast.ClassDef: _class,
    ast.Assign: _assign,
    ast.AnnAssign: _ann_assign,
    ast.AugAssign: _aug_assign,
    ast.Import: _import,
    ast.ImportFrom: _import_from,
    ast.If: _if,
    ast.While: _while,
    ast.For: _for,
    ast.AsyncFor: _for,
    ast.Try: _try,
    ast.TryStar: _try,
    ast.With: _with,
    ast.AsyncWith: _with,
    ast.Match: _match,
    ast.Return: _return,
    ast.Raise: _raise,
    ast.Expr: _expr_stmt,
    ast.Global: _declare,
    ast.Nonlocal: _declare,
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Delete: _delete,
    ast.Assert: _assert,
    ast.Pass: lambda w, node: None,
}
