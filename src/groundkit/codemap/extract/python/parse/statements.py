"""Statements: bindings, definitions, imports and the control flow that decides which binding
of a name reaches which read."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.expressions import (
    annotation,
    bind_target,
    condition,
    evaluate,
    number_of,
    subscript_key,
)
from groundkit.codemap.extract.python.parse.facts import Kind, ParamKind, SiteKind
from groundkit.codemap.extract.python.parse.flags import FLAG_TESTS, flag_tests, written
from groundkit.codemap.extract.python.parse.frames import Frame, bound_names
from groundkit.codemap.extract.python.parse.syntax import ref_of, strings
from groundkit.codemap.extract.python.parse.walker import Env, Walker

__all__ = ["walk_body"]

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_CLS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


def walk_body(walker: Walker, stmts: list[ast.stmt]) -> None:
    for stmt in stmts:
        handler = _STATEMENTS.get(type(stmt))
        if handler is None:
            _generic(walker, stmt)
        else:
            handler(walker, stmt)


def _generic(walker: Walker, node: ast.AST) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            evaluate(walker, child)
        elif isinstance(child, ast.stmt):
            walk_body(walker, [child])


# -- bindings -------------------------------------------------------------------------------------
def _assign(walker: Walker, node: ast.Assign) -> None:
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
        values = [evaluate(walker, e) for e in source.elts]
        for target, value in zip(node.targets[0].elts, values, strict=True):
            bind_target(walker, target, value)
        return
    value = evaluate(walker, source, holder=holder)
    for target in node.targets:
        bind_target(walker, target, value)
    if walker.frame.kind == Kind.MODULE and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
    ):
        listed = strings(source)
        if listed is None:
            walker.all_dynamic = True
        else:
            walker.all = listed


def _holder(targets: list[ast.expr]) -> str:
    # users_router = r = APIRouter(): the first name holds it (either names the one object)
    if targets and all(isinstance(t, ast.Name) for t in targets):
        first = targets[0]
        assert isinstance(first, ast.Name)
        return first.id
    return ""


def _ann_assign(walker: Walker, node: ast.AnnAssign) -> None:
    ann = annotation(walker, node.annotation)
    frame = walker.frame
    target = node.target
    if node.value is None:
        if not isinstance(target, ast.Name) or ann < 0:
            return
        typed = walker.var()
        walker.emit(facts.Annot(typed, -1, ann))
        if frame.kind == Kind.CLASS:  # a dataclass-style field: instances have it
            walker.emit(facts.ClassBind(frame.index, target.id, typed, field=True))
        else:
            walker.bind(target.id, typed)
        return
    value = evaluate(walker, node.value, holder=target.id if isinstance(target, ast.Name) else "")
    if ann >= 0:
        typed = walker.var()
        walker.emit(facts.Annot(typed, value, ann))
        value = typed
    bind_target(walker, target, value)


def _aug_assign(walker: Walker, node: ast.AugAssign) -> None:
    current = evaluate(walker, node.target)
    value = evaluate(walker, node.value)
    dst = walker.var()
    method = "__i" + _OPERATORS.get(type(node.op), "op") + "__"
    walker.emit(
        facts.BinOp(dst, current, value, method, walker.site(node, SiteKind.PROTOCOL, name=method))
    )
    if isinstance(node.target, ast.Name):
        walker.bind(node.target.id, dst)
    elif isinstance(node.target, ast.Attribute):
        obj = evaluate(walker, node.target.value)
        site = walker.site(node.target, SiteKind.WRITE, name=node.target.attr)
        walker.emit(facts.SetAttr(obj, node.target.attr, dst, site))


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
def _function(walker: Walker, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    outer = walker.frame
    qual = _qual(walker, node.name)
    kind = Kind.METHOD if outer.kind == Kind.CLASS else Kind.FUNCTION
    names = [r[-1] for d in node.decorator_list if (r := ref_of(_bare(d)))]
    decorators = _decorators(walker, node.decorator_list)
    params = _params(walker, node.args)
    if node.returns is not None:
        evaluate(walker, node.returns)
    flags = facts.ASYNC if isinstance(node, ast.AsyncFunctionDef) else 0
    if kind == Kind.METHOD:
        if "staticmethod" in names:
            flags |= facts.STATIC
        elif "classmethod" in names or node.name in _CLS_FIRST:
            flags |= facts.CLASSMETHOD
    start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    local, glob, nonlocal_ = bound_names(node.body, walker.walrus)
    fixed = frozenset(p.name for p in params) - local - glob - nonlocal_
    local |= {p.name for p in params}
    scope = facts.Scope(
        qual,
        kind,
        outer.index,
        start,
        node.end_lineno or node.lineno,
        node.lineno,
        tuple(params),
        flags,
        tuple(names),
        guards=_guards(node.body, params),
        sets=_sets(node.body, params) if kind == Kind.METHOD and node.name == "__init__" else (),
    )
    frame = walker.push(scope, local)
    frame.declared_global = glob
    frame.declared_nonlocal = nonlocal_
    frame.fixed = fixed
    for index, param in enumerate(params):
        value = walker.var()
        walker.emit(facts.ParamIn(value, frame.index, index))
        frame.env[param.name] = value
    alive = walker.alive
    walker.alive = True
    walk_body(walker, node.body)
    if walker.alive:  # it may end without a return: it returns None then
        walker.emit(facts.Ret(frame.index, walker.none))
    walker.alive = alive
    walker.pop()
    value = walker.var()
    walker.emit(facts.Def(value, frame.index))
    _decorate(walker, node, value, decorators, frame.index, node.name)


_COMPARED = frozenset({"Lt", "LtE", "Gt", "GtE", "Eq", "NotEq"})


def _guards(body: list[ast.stmt], params: list[facts.Param]) -> tuple[tuple[int, str, float], ...]:
    """The checks a function's body opens with (after its docstring) that raise at once when
    a parameter compares so with a number: ``if window_size < 1: raise ValueError(...)``. A
    call passing a number that fails one runs nothing after it."""
    index = {param.name: at for at, param in enumerate(params)}
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    found = []
    for stmt in body:
        if not (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.Raise)
            and isinstance(stmt.test, ast.Compare)
            and len(stmt.test.ops) == 1
            and isinstance(stmt.test.left, ast.Name)
            and stmt.test.left.id in index
            and type(stmt.test.ops[0]).__name__ in _COMPARED
        ):
            break
        number = number_of(stmt.test.comparators[0])
        if number is None:
            break
        found.append((index[stmt.test.left.id], type(stmt.test.ops[0]).__name__, number))
    return tuple(found)


def _sets(body: list[ast.stmt], params: list[facts.Param]) -> tuple[str, ...]:
    """The attributes ``__init__``'s opening assignments set on ``self``: every statement up
    to them assigns, and names ``self`` only as an assignment's ``self.name`` target, so no
    code can read ``self`` before they are set (a call may raise: then no instance exists)."""
    if not params or params[0].kind > facts.ParamKind.POSITIONAL_OR_KEYWORD:
        return ()
    me = params[0].name
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    found: list[str] = []
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            break
        if any(isinstance(n, ast.Name) and n.id == me for n in ast.walk(value)):
            break
        named = []
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == me
            ):
                named.append(target.attr)
            elif not isinstance(target, ast.Name) or target.id == me:
                named = []
                break
        else:
            found += named
            continue
        break
    return tuple(dict.fromkeys(found))


def _decorators(walker: Walker, nodes: list[ast.expr]) -> list[tuple[int, int]]:
    """Each decorator's value, with the site of the factory call that made it (or -1)."""
    out = []
    for node in nodes:
        factory = len(walker.sites) if isinstance(node, ast.Call) else -1
        out.append((evaluate(walker, node), factory))
    return out


def _bare(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _decorate(
    walker: Walker,
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
        result = walker.var()
        ref = ref_of(_bare(deco_node))
        site = walker.site(
            deco_node,
            SiteKind.DECORATOR,
            name=ref[-1] if ref else "",
            target=target,
            factory=factory,
            args=(value,),
        )
        walker.emit(facts.Call(result, deco, site))
        value = result
    walker.bind(name, value)


def _params(walker: Walker, args: ast.arguments) -> list[facts.Param]:
    """Parameters in order, their defaults evaluated here (where the ``def`` stands)."""
    out: list[facts.Param] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for i, arg in enumerate(positional):
        default = _default(walker, args.defaults[i - first_default]) if i >= first_default else -1
        kind = (
            ParamKind.POSITIONAL_ONLY
            if i < len(args.posonlyargs)
            else ParamKind.POSITIONAL_OR_KEYWORD
        )
        out.append(facts.Param(arg.arg, kind, default, _param_annotation(walker, arg)))
    if args.vararg is not None:
        out.append(facts.Param(args.vararg.arg, ParamKind.VAR_POSITIONAL))
    for arg, default_node in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        default = _default(walker, default_node) if default_node is not None else -1
        out.append(
            facts.Param(arg.arg, ParamKind.KEYWORD_ONLY, default, _param_annotation(walker, arg))
        )
    if args.kwarg is not None:
        out.append(facts.Param(args.kwarg.arg, ParamKind.VAR_KEYWORD))
    return out


def _default(walker: Walker, node: ast.expr) -> int:
    """A default as a call that leaves its parameter out passes it (``parse/flags.py``)."""
    text = written(node)
    return walker.flag(text) if text is not None else evaluate(walker, node)


def _param_annotation(walker: Walker, arg: ast.arg) -> int:
    return annotation(walker, arg.annotation) if arg.annotation is not None else -1


def _qual(walker: Walker, name: str) -> str:
    frame: Any = walker.frame
    while frame.kind == Kind.COMP:
        frame = frame.parent
    outer = walker.scopes[frame.index].qual
    return f"{outer}.{name}" if outer else name


def _class(walker: Walker, node: ast.ClassDef) -> None:
    outer = walker.frame
    qual = _qual(walker, node.name)
    names = [r[-1] for d in node.decorator_list if (r := ref_of(_bare(d)))]
    decorators = _decorators(walker, node.decorator_list)
    plain = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
    bases = [evaluate(walker, b) for b in plain]
    base_refs = tuple(tuple(r) if (r := ref_of(b)) and "()" not in r else () for b in plain)
    for keyword in node.keywords:
        evaluate(walker, keyword.value)
    start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    scope = facts.Scope(
        qual,
        Kind.CLASS,
        outer.index,
        start,
        node.end_lineno or node.lineno,
        node.lineno,
        (),
        0,
        tuple(names),
        tuple(bases),
        base_refs,
    )
    frame = walker.push(scope)
    alive = walker.alive
    walker.alive = True
    walk_body(walker, node.body)
    walker.alive = alive
    walker.pop()
    value = walker.var()
    walker.emit(facts.Def(value, frame.index))
    _decorate(walker, node, value, decorators, frame.index, node.name)


def _return(walker: Walker, node: ast.Return) -> None:
    frame = walker.frame.function()
    if frame is not None and node.value is not None:
        _returns(walker, frame, node.value)
    else:
        value = evaluate(walker, node.value) if node.value is not None else walker.none
        if frame is not None:
            walker.emit(_ret(walker, frame, value))
    walker.alive = False


def _returns(walker: Walker, frame: Frame, node: ast.expr) -> None:
    """``return value``; ``return a if flag else b`` on a parameter's flag is two returns,
    each under its side of the test (``parse/flags.py``), so a call's literal picks one."""
    signed = flag_tests(node.test, frame.fixed) if isinstance(node, ast.IfExp) else {}
    if not signed or walker.frame is not frame:
        walker.emit(_ret(walker, frame, evaluate(walker, node)))
        return
    assert isinstance(node, ast.IfExp)
    condition(walker, node.test)
    before = {name: frame.env[name] for name in signed if name in frame.env}
    for first, side in ((True, node.body), (False, node.orelse)):
        _tested(walker, signed, first)
        _returns(walker, frame, side)
        frame.env.update(before)


def _ret(walker: Walker, frame: Frame, value: int) -> facts.Ret:
    """A return of ``value`` under the tests of parameters in force here: ``guard``, a
    ``Tested`` copy (one a test of the function it holds made first, as before flags were
    read), and ``flags``, the other parameters' copies a flag's test made."""
    copies = [
        current
        for name in sorted(frame.fixed)
        if (current := frame.env.get(name)) is not None and current in walker.tested
    ]
    if not copies:
        return facts.Ret(frame.index, value)
    guard = next((copy for copy in copies if copy not in walker.flagged), copies[0])
    flags = tuple(copy for copy in copies if copy != guard and copy in walker.flagged)
    return facts.Ret(frame.index, value, guard, flags)


# -- imports --------------------------------------------------------------------------------------
def _import(walker: Walker, node: ast.Import) -> None:
    for alias in node.names:
        value = walker.var()
        if alias.asname:
            walker.emit(facts.Import(value, alias.name, 0, None))
            walker.bind(alias.asname, value)
        else:
            top = alias.name.split(".")[0]
            walker.emit(facts.Import(value, top, 0, None))
            walker.bind(top, value)
        _import_fact(walker, node, alias.name, 0, None)


def _import_from(walker: Walker, node: ast.ImportFrom) -> None:
    module = node.module or ""
    for alias in node.names:
        if alias.name == "*":
            _star(walker, module, node.level)
        else:
            value = walker.var()
            walker.emit(facts.Import(value, module, node.level, alias.name))
            walker.bind(alias.asname or alias.name, value)
        _import_fact(walker, node, module, node.level, alias.name)


def _star(walker: Walker, module: str, level: int) -> None:
    """A star import may rebind names bound before it (those it exports); names it brings
    that were never bound here are found through the module's ``Global`` reads."""
    frame = walker.frame
    for name, before in list(frame.env.items()):
        after = walker.var()
        walker.emit(facts.StarImport(after, module, level, name, before))
        frame.env[name] = after
    walker.emit(facts.StarImport(-1, module, level, "*"))


def _import_fact(walker: Walker, node: ast.stmt, module: str, level: int, name: str | None) -> None:
    walker.line(node.lineno)
    end = node.end_lineno or node.lineno
    walker.imports.append(
        facts.ImportStmt(
            walker.frame.index,
            module,
            level,
            name,
            node.lineno,
            walker.col(node.lineno, node.col_offset),
            end,
            walker.col(end, node.end_col_offset or 0),
            tuple(walker.flags),
        )
    )


# -- control flow ---------------------------------------------------------------------------------
def _branches(
    walker: Walker,
    bodies: list[list[ast.stmt]],
    include_before: bool = False,
    narrowed: tuple[set[str], ...] = (),
    tested: set[tuple[str, str]] | None = None,
    typed: dict[str, str] | None = None,
    signed: dict[str, tuple[str, bool]] | None = None,
) -> None:
    """Walk alternative bodies from the same state, then meet (``narrowed``: per body, the
    locals known not to be ``None`` in it; ``tested``: the (local, attribute) pairs the test
    asked, ``_by_class``; ``typed``: the locals an ``isinstance`` test holds for in the first
    body, with the name of the class; ``signed``: the locals a test of the function they hold
    asked, ``_function_tests``, for the first body and the second)."""
    before = walker.fork()
    was_alive = walker.alive
    results: list[tuple[Env, bool]] = [(before, was_alive)] if include_before else []
    copies: list[dict[str, int]] = []
    for index, body in enumerate(bodies):
        walker.frame.env = dict(before)
        walker.alive = was_alive
        if index < len(narrowed):
            _not_none(walker, narrowed[index])
        narrowed_here = _narrow(walker, typed) if index == 0 and typed else {}
        if signed and index < 2:
            narrowed_here = {**narrowed_here, **_tested(walker, signed, index == 0)}
        copies.append({**narrowed_here, **_by_class(walker, tested or set())})
        walk_body(walker, body)
        results.append((walker.frame.env, walker.alive))
    live = sum(alive for _, alive in results)
    if live > 1 or (live == 0 and signed):
        # Where branches meet, every class is there again (and every value an isinstance
        # test left out); after a branch that returns, the other's choice still holds.
        # (Where none goes on, a test of a function is no choice either: the name's last
        # binding is what a function defined before the test sees.)
        for (env, _), made in zip(results[len(results) - len(bodies) :], copies, strict=True):
            for name, copy in made.items():
                if env.get(name) == copy and (live > 1 or copy in walker.tested):
                    if name in before:
                        env[name] = before[name]
                    else:  # (a free name's flag copy, ``_outer_fixed``)
                        del env[name]
    walker.merge(results)
    if not was_alive:
        walker.alive = False


def _if(walker: Walker, node: ast.If) -> None:
    condition(walker, node.test)
    test = ref_of(node.test)
    if test and test[-1] == "TYPE_CHECKING":
        walker.flags.append("type_checking")
        try:
            _branches(walker, [node.body, node.orelse])
        finally:
            walker.flags.pop()
        return
    narrowed = _none_tests(node.test)
    typed = _type_tests(node.test)
    tested = _class_tests(node.test)
    signed = _function_tests(node.test)
    frame = walker.frame
    if frame.kind in (Kind.FUNCTION, Kind.METHOD):
        signed = {**flag_tests(node.test, frame.fixed | _outer_fixed(walker, node.test)), **signed}
    _branches(
        walker,
        [node.body, node.orelse],
        narrowed=narrowed,
        tested=tested,
        typed=typed,
        signed=signed,
    )


# What a test of a function asks, by the last name of the function testing it.
_ASYNC_TESTS = frozenset({"iscoroutinefunction", "is_async_callable"})


def _function_tests(test: ast.expr) -> dict[str, tuple[str, bool]]:
    """The locals whose function ``test`` asks about, with what it asks (``facts.Tested``)
    and whether the answer is yes when ``test`` is true: ``iscoroutinefunction(x)``,
    ``"name" in inspect.signature(x).parameters`` (``not in``, ``not``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return {
            name: (asked, not holds)
            for name, (asked, holds) in _function_tests(test.operand).items()
        }
    if isinstance(test, ast.Call):
        ref = ref_of(test.func)
        args = test.args
        if ref and ref[-1] in _ASYNC_TESTS and len(args) == 1 and not test.keywords:
            return {args[0].id: ("async", True)} if isinstance(args[0], ast.Name) else {}
        return {}
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In | ast.NotIn)
        and isinstance(test.left, ast.Constant)
        and isinstance(test.left.value, str)
    ):
        right = test.comparators[0]
        if (
            isinstance(right, ast.Attribute)
            and right.attr == "parameters"
            and isinstance(right.value, ast.Call)
            and (ref := ref_of(right.value.func))
            and ref[-1] == "signature"
            and len(right.value.args) == 1
            and isinstance(right.value.args[0], ast.Name)
        ):
            holds = isinstance(test.ops[0], ast.In)
            return {right.value.args[0].id: ("param:" + test.left.value, holds)}
    return {}


def _tested(walker: Walker, signed: dict[str, tuple[str, bool]], first: bool) -> dict[str, int]:
    """Bind each local of ``signed`` to a copy that holds only the functions that give the
    test's answer in this branch (``facts.Tested``); the copies by name."""
    frame = walker.frame
    made: dict[str, int] = {}
    if frame.kind not in (Kind.FUNCTION, Kind.METHOD):
        return made
    for name, (asked, holds) in sorted(signed.items()):
        current = _plain_local(walker, name)
        if current is None and name not in frame.local_names and asked.startswith(FLAG_TESTS):
            # a flag of an enclosing function's parameter: kept for the sites in the branch
            # (``Facts.flagged``), never read (the name is free here: reads go outward)
            current = walker.read(name)
        if current is None:
            continue
        var = walker.var()
        walker.emit(facts.Tested(var, current, asked, holds == first))
        walker.tested[var] = current
        if asked.startswith(FLAG_TESTS) and (
            current in walker.flagged or current not in walker.tested
        ):
            walker.flagged.add(var)  # (only flags tested: a copy a return need not take first)
            frame.flag_names.add(name)
        frame.env[name] = made[name] = var
    return made


def _type_tests(test: ast.expr) -> dict[str, str]:
    """The locals ``test`` shows to be instances of a class named by a plain name when it is
    true (``isinstance(x, C)``, through ``and``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        out: dict[str, str] = {}
        for value in test.values:
            for name, cls in _type_tests(value).items():
                out.setdefault(name, cls)  # (the first test of a name; a second narrows less)
        return out
    if (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and not test.keywords
        and isinstance(test.args[0], ast.Name)
        and isinstance(test.args[1], ast.Name)
    ):
        return {test.args[0].id: test.args[1].id}
    return {}


def _narrow(walker: Walker, typed: dict[str, str]) -> dict[str, int]:
    """Bind each local of ``typed`` to a copy that holds only what may be an instance of the
    class named (``facts.Narrow``); the copies by name."""
    frame = walker.frame
    made: dict[str, int] = {}
    if frame.kind not in (Kind.FUNCTION, Kind.METHOD):
        return made
    for name, cls in sorted(typed.items()):
        current = _plain_local(walker, name)
        if current is None:
            continue
        var = walker.var()
        walker.emit(facts.Narrow(var, current, walker.read(cls)))
        frame.env[name] = made[name] = var
    return made


def _class_tests(test: ast.expr) -> set[tuple[str, str]]:
    """The (local, attribute) pairs whose truth or comparison with a constant ``test`` asks
    (``cls.flag``, ``not self.flag``, ``self.mode == "x"``, through ``and``/``or``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _class_tests(test.operand)
    if isinstance(test, ast.BoolOp):
        return set().union(*(_class_tests(value) for value in test.values))
    if isinstance(test, ast.Compare) and all(isinstance(c, ast.Constant) for c in test.comparators):
        test = test.left
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        return {(test.value.id, test.attr)}
    return set()


def _by_class(walker: Walker, tested: set[tuple[str, str]]) -> dict[str, int]:
    """Bind a method's ``self`` or ``cls``, when tested, to a copy that says so
    (``facts.ByClass``); the copies by name. (Only there: the class of what any other local
    holds is no more a choice of the branch than its other values are.)"""
    frame = walker.frame
    made: dict[str, int] = {}
    scope = walker.scopes[frame.index]
    if frame.kind != Kind.METHOD or scope.flags & facts.STATIC or not scope.params:
        return made
    first = scope.params[0].name
    for name, attr in sorted(tested):
        current = frame.env.get(name)
        if name != first or current is None or name in walker.rebound:
            continue
        var = walker.var()
        walker.emit(facts.Copy(var, current))
        walker.emit(facts.ByClass(var, attr))
        frame.env[name] = made[name] = var
    return made


def _none_tests(test: ast.expr) -> tuple[set[str], set[str]]:
    """The names ``test`` shows not to be ``None`` when it is true, and when it is false
    (``x is not None``, ``x is None``, through ``and``, ``or`` and ``not``)."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            if isinstance(test.ops[0], ast.IsNot):
                return {test.left.id}, set()
            if isinstance(test.ops[0], ast.Is):
                return set(), {test.left.id}
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        when_true, when_false = _none_tests(test.operand)
        return when_false, when_true
    if isinstance(test, ast.BoolOp):
        each = [_none_tests(value) for value in test.values]
        if isinstance(test.op, ast.And):  # all true: each one's names
            return set().union(*(t for t, _ in each)), set()
        return set(), set().union(*(f for _, f in each))  # or, all false: each one's names
    return set(), set()


def _outer_fixed(walker: Walker, test: ast.expr) -> frozenset[str]:
    """The free names ``test`` reads that are parameters an enclosing function never binds
    again (nor any function rebinds): ``if lock is None:`` in a decorator nested in
    ``cached(cache, lock=None)`` asks the flag of the call that made it."""
    frame = walker.frame
    out = set()
    for name in _flag_names(test):
        if name in frame.local_names or name in walker.rebound or name in frame.declared_global:
            continue
        outer = frame.parent
        while outer is not None and not (outer.runs_later and name in outer.local_names):
            outer = outer.parent
        if outer is not None and name in outer.fixed:
            out.add(name)
    return frozenset(out)


def _flag_names(test: ast.expr) -> list[str]:
    """The names ``test`` may ask a flag of, where ``flag_tests`` looks: ``x``, ``not x``,
    either side of a comparison (a cheap look, not a walk of the test)."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, ast.Name):
        return [test.id]
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return [n.id for n in (test.left, test.comparators[0]) if isinstance(n, ast.Name)]
    return []


def _plain_local(walker: Walker, name: str) -> int | None:
    """The variable the local ``name`` holds here, when a test on it may bind it to a narrower
    copy: a plain local of this function, never rebound elsewhere (nor global or nonlocal)."""
    frame = walker.frame
    current = frame.env.get(name)
    if (
        current is None
        or name not in frame.local_names
        or name in walker.rebound
        or name in frame.declared_global
        or name in frame.declared_nonlocal
    ):
        return None
    return current


def _not_none(walker: Walker, names: set[str]) -> None:
    """Bind each local of ``names`` to a copy that ``None`` never reaches."""
    frame = walker.frame
    if frame.kind not in (Kind.FUNCTION, Kind.METHOD):
        return
    for name in sorted(names):
        current = _plain_local(walker, name)
        if current is None:
            continue
        var = walker.var()
        walker.emit(facts.Copy(var, current))
        walker.emit(facts.NotNone(var))
        frame.env[name] = var


def _while(walker: Walker, node: ast.While) -> None:
    condition(walker, node.test)
    _loop(walker, node, None)


def _for(walker: Walker, node: ast.For | ast.AsyncFor) -> None:
    source = evaluate(walker, node.iter)
    name = "__aiter__" if isinstance(node, ast.AsyncFor) else "__iter__"
    element = walker.var()
    walker.emit(facts.Iter(element, source, walker.site(node.iter, SiteKind.PROTOCOL, name=name)))
    _loop(walker, node, (node.target, element))


def _loop(
    walker: Walker, node: ast.For | ast.AsyncFor | ast.While, target: tuple[ast.expr, int] | None
) -> None:
    """A loop body may run again with its own bindings: each name it binds meets, at the top
    of the body, what came before and what the last pass left."""
    frame = walker.frame
    rebound, _, _ = bound_names(node.body, walker.walrus)
    if target is not None:
        rebound |= {n.id for n in ast.walk(target[0]) if isinstance(n, ast.Name)}
    heads = {name: walker.var() for name in sorted(rebound)}
    before = walker.fork()
    for name, head in heads.items():
        frame.env[name] = head
    walker.loops.append(([], []))
    was_alive = walker.alive
    if target is not None:
        bind_target(walker, target[0], target[1])
    walk_body(walker, node.body)
    breaks, continues = walker.loops.pop()
    ends = [walker.frame.env] if walker.alive else []
    ends += continues
    for name, head in heads.items():
        sources = [before.get(name, walker.none), *(env.get(name, head) for env in ends)]
        sources = [s for s in dict.fromkeys(sources) if s != head]
        walker.emit(facts.Phi(head, tuple(sources)))
    walker.frame.env = {**before, **heads}
    walker.alive = was_alive
    if node.orelse:
        walk_body(walker, node.orelse)
    if breaks:
        walker.merge([(walker.frame.env, walker.alive), *((env, True) for env in breaks)])
    elif isinstance(node, ast.While) and _always(node.test):
        walker.alive = False  # `while True:` with no break ends only by return or raise


def _always(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)


def _break(walker: Walker, node: ast.Break) -> None:
    if walker.loops:
        walker.loops[-1][0].append(walker.fork())
    walker.alive = False


def _continue(walker: Walker, node: ast.Continue) -> None:
    if walker.loops:
        walker.loops[-1][1].append(walker.fork())
    walker.alive = False


def _try(walker: Walker, node: ast.Try | ast.TryStar) -> None:
    catches = any(_catches_import_error(h) for h in node.handlers)
    before = walker.fork()
    was_alive = walker.alive
    if catches:
        walker.flags.append("optional")
    try:
        walk_body(walker, node.body)
    finally:
        if catches:
            walker.flags.pop()
    after_body = (walker.frame.env, walker.alive)
    if walker.alive:
        walk_body(walker, node.orelse)
    results = [(walker.frame.env, walker.alive)]
    # A handler starts from any point of the body: what came before or what the body bound.
    start = [(before, True), (after_body[0], True)]
    for handler in node.handlers:
        walker.merge(start)
        walker.alive = was_alive
        caught = evaluate(walker, handler.type) if handler.type is not None else walker.unknown
        if handler.name:
            instance = walker.var()
            walker.emit(facts.Annot(instance, -1, caught))
            walker.bind(handler.name, instance)
        if catches:
            walker.flags.append("optional")
        try:
            walk_body(walker, handler.body)
        finally:
            if catches:
                walker.flags.pop()
        results.append((walker.frame.env, walker.alive))
    walker.merge(results)
    if node.finalbody:
        alive = walker.alive
        walk_body(walker, node.finalbody)
        walker.alive = alive and walker.alive


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    types = handler.type
    elements = types.elts if isinstance(types, ast.Tuple) else [types]
    for element in elements:
        ref = ref_of(element) if element is not None else ["BaseException"]
        if ref and ref[-1] in _IMPORT_ERRORS:
            return True
    return False


def _with(walker: Walker, node: ast.With | ast.AsyncWith) -> None:
    is_async = isinstance(node, ast.AsyncWith)
    for item in node.items:
        manager = evaluate(walker, item.context_expr)
        entered = walker.var()
        name = "__aenter__" if is_async else "__enter__"
        site = walker.site(item.context_expr, SiteKind.PROTOCOL, name=name)
        walker.emit(facts.With(entered, manager, site, is_async))
        if item.optional_vars is not None:
            bind_target(walker, item.optional_vars, entered)
    walk_body(walker, node.body)


def _match(walker: Walker, node: ast.Match) -> None:
    evaluate(walker, node.subject)
    before = walker.fork()
    # a case `_` (or a bare name) with no guard matches anything: no way past every case
    irrefutable = any(
        case.guard is None
        and isinstance(case.pattern, ast.MatchAs)
        and case.pattern.pattern is None
        for case in node.cases
    )
    results: list[tuple[Env, bool]] = [] if irrefutable else [(before, walker.alive)]
    was_alive = walker.alive
    for case in node.cases:
        walker.frame.env = dict(before)
        walker.alive = was_alive
        for sub in ast.walk(case.pattern):
            name = getattr(sub, "name", None) or getattr(sub, "rest", None)
            if isinstance(name, str):
                walker.bind(name, walker.unknown)
            if isinstance(sub, ast.MatchValue):
                evaluate(walker, sub.value)
            elif isinstance(sub, ast.MatchClass):
                evaluate(walker, sub.cls)
        if case.guard is not None:
            evaluate(walker, case.guard)
        walk_body(walker, case.body)
        results.append((walker.frame.env, walker.alive))
    walker.merge(results)


def _raise(walker: Walker, node: ast.Raise) -> None:
    for part in (node.exc, node.cause):  # raise X from Y: Y is made too
        if part is not None:
            value = evaluate(walker, part)
            walker.emit(facts.Raise(value, walker.site(part, SiteKind.PROTOCOL, name="raise")))
    walker.alive = False


def _expr_stmt(walker: Walker, node: ast.Expr) -> None:
    if not isinstance(node.value, ast.Constant):  # a docstring says nothing
        evaluate(walker, node.value)


def _assert(walker: Walker, node: ast.Assert) -> None:
    condition(walker, node.test)
    if node.msg is not None:
        evaluate(walker, node.msg)


def _declare(walker: Walker, node: ast.Global | ast.Nonlocal) -> None:
    if walker.frame.kind in (Kind.MODULE, Kind.CLASS) and isinstance(node, ast.Global):
        walker.frame.declared_global.update(node.names)


def _delete(walker: Walker, node: ast.Delete) -> None:
    for target in node.targets:
        if isinstance(target, ast.Name):
            continue
        if isinstance(target, ast.Attribute):
            walker.deleted.add(target.attr)
        if isinstance(target, ast.Subscript):
            obj = evaluate(walker, target.value)
            key = subscript_key(walker, target.slice)
            dst = walker.var()
            site = walker.site(target, SiteKind.PROTOCOL, name="__delitem__")
            walker.emit(facts.Sub(dst, obj, key, site, protocol="__delitem__"))
        else:
            evaluate(walker, target)


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
    ast.Pass: lambda walker, node: None,
}
