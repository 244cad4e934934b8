"""Expressions: each is walked for what may run inside it, and read as the variable that holds
its value (``evaluate``)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import (
    ConstKind,
    ContainerKind,
    Kind,
    ParamKind,
    SiteKind,
)
from groundkit.codemap.extract.python.parse.flags import written
from groundkit.codemap.extract.python.parse.syntax import annotation_ref, storable
from groundkit.codemap.extract.python.parse.walker import Walker

__all__ = ["annotation", "bind_target", "condition", "evaluate", "subscript_key"]

_BINARY: dict[type[ast.AST], str] = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.MatMult: "__matmul__",
    ast.Div: "__truediv__",
    ast.FloorDiv: "__floordiv__",
    ast.Mod: "__mod__",
    ast.Pow: "__pow__",
    ast.LShift: "__lshift__",
    ast.RShift: "__rshift__",
    ast.BitOr: "__or__",
    ast.BitXor: "__xor__",
    ast.BitAnd: "__and__",
}
_UNARY: dict[type[ast.AST], str] = {
    ast.USub: "__neg__",
    ast.UAdd: "__pos__",
    ast.Invert: "__invert__",
}
_COMPARE: dict[type[ast.AST], str] = {
    ast.Eq: "__eq__",
    ast.NotEq: "__ne__",
    ast.Lt: "__lt__",
    ast.LtE: "__le__",
    ast.Gt: "__gt__",
    ast.GtE: "__ge__",
}
_CONTAINERS: dict[type[ast.AST], ContainerKind] = {
    ast.List: ContainerKind.LIST,
    ast.Tuple: ContainerKind.TUPLE,
    ast.Set: ContainerKind.SET,
}
_COMPREHENSIONS: dict[type[ast.AST], ContainerKind] = {
    ast.ListComp: ContainerKind.LIST,
    ast.GeneratorExp: ContainerKind.LIST,
    ast.SetComp: ContainerKind.SET,
    ast.DictComp: ContainerKind.DICT,
}


def evaluate(walker: Walker, node: ast.expr, holder: str = "") -> int:
    """Walk an expression and return the variable holding its value."""
    handler = _EXPRESSIONS.get(type(node))
    if handler is None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                evaluate(walker, child)
        return walker.lit
    return handler(walker, node, holder)


def bind_target(walker: Walker, target: ast.expr, value: int, node: ast.AST | None = None) -> None:
    """Bind an assignment target (a name, a tuple to unpack, an attribute, a subscript)."""
    if isinstance(target, ast.Name):
        walker.bind(target.id, value)
    elif isinstance(target, ast.Tuple | ast.List):
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), None)
        count = len(target.elts)
        site = walker.site(target, SiteKind.PROTOCOL, name="__iter__")
        for i, element in enumerate(target.elts):
            part = walker.var()
            inner = element
            if star is not None and i == star:
                walker.emit(facts.Unpack(part, value, i, rest=True, after=count - i - 1, site=site))
                assert isinstance(element, ast.Starred)
                inner = element.value
            else:
                index = i if star is None or i < star else i - count
                walker.emit(facts.Unpack(part, value, index, site=site))
            bind_target(walker, inner, part)
    elif isinstance(target, ast.Attribute):
        obj = evaluate(walker, target.value)
        walker.emit(
            facts.SetAttr(
                obj, target.attr, value, walker.site(target, SiteKind.WRITE, name=target.attr)
            )
        )
    elif isinstance(target, ast.Subscript):
        obj = evaluate(walker, target.value)
        key = subscript_key(walker, target.slice)
        walker.emit(
            facts.SetSub(
                obj, key, value, walker.site(target, SiteKind.PROTOCOL, name="__setitem__")
            )
        )
    elif isinstance(target, ast.Starred):
        bind_target(walker, target.value, value)
    else:
        evaluate(walker, target)


def _name(walker: Walker, node: ast.Name, holder: str) -> int:
    return walker.read(node.id)


def _constant(walker: Walker, node: ast.Constant, holder: str) -> int:
    value = node.value
    if value is None:
        return walker.none
    if isinstance(value, str):
        if not storable(value):
            return walker.lit
        found = walker.strings.get(value)
        if found is None:
            found = walker.strings[value] = walker.const(value)
        return found
    return walker.lit


def _joined(walker: Walker, node: ast.JoinedStr, holder: str) -> int:
    pieces: list[str | int | None] = []
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            pieces.append(part.value if storable(part.value) else None)
        elif isinstance(part, ast.FormattedValue):
            value = evaluate(walker, part.value)
            if part.format_spec is not None:
                evaluate(walker, part.format_spec)
            plain = isinstance(part.value, ast.Name | ast.Attribute) and part.conversion == -1
            pieces.append(value if plain else None)
    dst = walker.var()
    walker.emit(facts.Tmpl(dst, tuple(pieces)))
    return dst


def _attribute(walker: Walker, node: ast.Attribute, holder: str, site: int = -1) -> int:
    obj = evaluate(walker, node.value)
    dst = walker.var()
    if site < 0:
        site = walker.site(node, SiteKind.READ, name=node.attr)
    walker.emit(facts.Attr(dst, obj, node.attr, site))
    return dst


def _subscript(walker: Walker, node: ast.Subscript, holder: str) -> int:
    obj = evaluate(walker, node.value)
    key = subscript_key(walker, node.slice)
    dst = walker.var()
    site = walker.site(node, SiteKind.PROTOCOL, name="__getitem__")
    if isinstance(node.slice, ast.Slice):
        bounds = (_bound(node.slice.lower), _bound(node.slice.upper))
        walker.emit(facts.Sub(dst, obj, None, site, True, bounds=bounds))
    else:
        walker.emit(facts.Sub(dst, obj, key, site))
    return dst


def _bound(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


def subscript_key(walker: Walker, key: ast.expr) -> str | int | None:
    """A literal key or index (negative ones too); anything else is evaluated, and None."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str | int):
        if isinstance(key.value, bool) or (isinstance(key.value, str) and not storable(key.value)):
            return None
        return key.value
    if (
        isinstance(key, ast.UnaryOp)
        and isinstance(key.op, ast.USub)
        and isinstance(key.operand, ast.Constant)
        and type(key.operand.value) is int
    ):
        return -key.operand.value
    evaluate(walker, key)
    return None


def _call(walker: Walker, node: ast.Call, holder: str) -> int:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "super":
        return _super(walker, node)
    index = walker.reserve_site()
    if isinstance(func, ast.Attribute):
        callee = _attribute(walker, func, "", site=index)
        name = func.attr
    else:
        callee = evaluate(walker, func)
        name = func.id if isinstance(func, ast.Name) else ""
    args: list[int] = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            args.append(~evaluate(walker, arg.value))
        else:
            args.append(_argument(walker, arg))
    keywords = tuple((k.arg or "", _argument(walker, k.value)) for k in node.keywords)
    literal = _literal_receiver(func)
    numbers = _numbers(node)
    walker.fill_site(
        index,
        node,
        SiteKind.CALL,
        name=name,
        dynamic=1 if literal else 0,
        holder=holder,
        args=tuple(args),
        keywords=keywords,
        numbers=numbers,
    )
    dst = walker.var()
    walker.emit(facts.Call(dst, callee, index))
    return dst


def _argument(walker: Walker, node: ast.expr) -> int:
    """An argument: a ``bool`` or ``int`` literal has a variable that says which
    (``parse/flags.py``), where a parameter's flag test is decided."""
    text = written(node)
    return walker.flag(text) if text is not None else evaluate(walker, node)


def _numbers(node: ast.Call) -> tuple[tuple[int | str, float], ...]:
    """A call's arguments written as numbers, by position (up to the first ``*``) or by
    keyword: what a callee's opening checks (``Scope.guards``) are tested on."""
    found: list[tuple[int | str, float]] = []
    for position, arg in enumerate(node.args):
        if isinstance(arg, ast.Starred):
            break
        number = number_of(arg)
        if number is not None:
            found.append((position, number))
    for keyword in node.keywords:
        number = number_of(keyword.value)
        if keyword.arg and number is not None:
            found.append((keyword.arg, number))
    return tuple(found)


def number_of(node: ast.expr) -> float | None:
    """The number an expression is written as (``3``, ``-1``, ``0.5``; not ``True``)."""
    sign = 1.0
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, sign = node.operand, -1.0
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return sign * float(value)
    return None


def _super(walker: Walker, node: ast.Call) -> int:
    for arg in node.args:
        evaluate(walker, arg)
    dst = walker.var()
    frame = walker.frame.function()
    scope = walker.scopes[frame.index] if frame is not None else None
    if frame is None or scope is None or scope.kind != Kind.METHOD or not scope.params:
        walker.emit(facts.Const(dst, ConstKind.UNKNOWN))
        return dst
    receiver = frame.env.get(scope.params[0].name)
    if receiver is None or frame.parent is None:
        walker.emit(facts.Const(dst, ConstKind.UNKNOWN))
        return dst
    walker.emit(facts.Super(dst, frame.parent.index, receiver))
    return dst


def _literal_receiver(func: ast.expr) -> bool:
    """``"x".join``, ``[].append``, ``{}.get``: a method of a built-in type."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(
        func,
        ast.Constant
        | ast.JoinedStr
        | ast.List
        | ast.Tuple
        | ast.Dict
        | ast.Set
        | ast.ListComp
        | ast.SetComp
        | ast.DictComp
        | ast.GeneratorExp,
    )


def _binop(walker: Walker, node: ast.BinOp, holder: str) -> int:
    left = evaluate(walker, node.left)
    right = evaluate(walker, node.right)
    method = _BINARY.get(type(node.op), "__op__")
    dst = walker.var()
    walker.emit(
        facts.BinOp(dst, left, right, method, walker.site(node, SiteKind.PROTOCOL, name=method))
    )
    return dst


def _unary(walker: Walker, node: ast.UnaryOp, holder: str) -> int:
    method = _UNARY.get(type(node.op))
    if method is None:  # not x
        condition(walker, node.operand)
        return walker.lit
    operand = evaluate(walker, node.operand)
    dst = walker.var()
    walker.emit(
        facts.BinOp(dst, operand, -1, method, walker.site(node, SiteKind.PROTOCOL, name=method))
    )
    return dst


def _compare(walker: Walker, node: ast.Compare, holder: str) -> int:
    left = evaluate(walker, node.left)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = evaluate(walker, right_node)
        if isinstance(op, ast.In | ast.NotIn):
            method, subject, other = "__contains__", right, left
        else:
            found = _COMPARE.get(type(op))
            if found is None:  # is / is not
                left = right
                continue
            method, subject, other = found, left, right
        site = walker.site(node, SiteKind.PROTOCOL, name=method)
        walker.emit(facts.BinOp(walker.var(), subject, other, method, site))
        left = right
    return walker.lit


def _boolop(walker: Walker, node: ast.BoolOp, holder: str) -> int:
    """``a or b``: every operand but the last is asked whether it is true; the last is the
    result as it is (``x = a or Default()`` never asks ``Default()``; a condition asks it)."""
    values = []
    last = len(node.values) - 1
    for index, value in enumerate(node.values):
        var = evaluate(walker, value)
        if index < last:
            truth(walker, value, var)
        values.append(var)
    return walker.copy_of(values)


def _ifexp(walker: Walker, node: ast.IfExp, holder: str) -> int:
    condition(walker, node.test)
    return walker.copy_of(
        [evaluate(walker, node.body, holder), evaluate(walker, node.orelse, holder)]
    )


def condition(walker: Walker, node: ast.expr) -> int:
    """A condition: its value is asked whether it is true (``__bool__``, else ``__len__``);
    in ``if a or b:`` each operand is asked where it is the value."""
    if isinstance(node, ast.BoolOp):
        return walker.copy_of([condition(walker, value) for value in node.values])
    var = evaluate(walker, node)
    truth(walker, node, var)
    return var


def truth(walker: Walker, node: ast.expr, var: int) -> None:
    if isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
        site = walker.site(node, SiteKind.PROTOCOL, name="__bool__")
        walker.emit(facts.BinOp(walker.var(), var, -1, "__bool__", site))


def _container(walker: Walker, node: ast.List | ast.Tuple | ast.Set, holder: str) -> int:
    dst = walker.var()
    walker.emit(facts.NewContainer(dst, _CONTAINERS[type(node)]))
    starred = False
    for i, element in enumerate(node.elts):
        if isinstance(element, ast.Starred):
            each = walker.var()
            walker.emit(facts.Iter(each, evaluate(walker, element.value)))
            walker.emit(facts.SetSub(dst, None, each))
            starred = True
        else:
            key = None if starred or isinstance(node, ast.Set) else i
            walker.emit(facts.SetSub(dst, key, evaluate(walker, element)))
    return dst


def _dict(walker: Walker, node: ast.Dict, holder: str) -> int:
    dst = walker.var()
    walker.emit(facts.NewContainer(dst, ContainerKind.DICT))
    stores: dict[str | int, int] = {}  # {"k": a, "k": b}: the last value of a key wins
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        if key_node is None:  # {**other}
            each = walker.var()
            walker.emit(facts.Sub(each, evaluate(walker, value_node), None))
            walker.emit(facts.SetSub(dst, None, each))
            continue
        key = subscript_key(walker, key_node)
        value = evaluate(walker, value_node)
        if key is None:
            walker.emit(facts.SetSub(dst, None, value))
        else:
            stores.pop(key, None)
            stores[key] = value
    for key, value in stores.items():
        walker.emit(facts.SetSub(dst, key, value))
    return dst


def _comprehension(walker: Walker, node: Any, holder: str) -> int:
    generators: list[ast.comprehension] = node.generators
    source = evaluate(walker, generators[0].iter)  # evaluated where the comprehension stands
    outer = walker.frame
    targets = {n.id for g in generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    line = node.lineno
    qual = walker.scopes[outer.index].qual
    walker.push(
        facts.Scope(qual, Kind.COMP, outer.index, line, node.end_lineno or line, line), targets
    )
    for i, generator in enumerate(generators):
        if i:
            source = evaluate(walker, generator.iter)
        element = walker.var()
        name = "__aiter__" if generator.is_async else "__iter__"
        walker.emit(
            facts.Iter(element, source, walker.site(generator.iter, SiteKind.PROTOCOL, name=name))
        )
        bind_target(walker, generator.target, element)
        for condition in generator.ifs:
            evaluate(walker, condition)
    dst = walker.var()
    walker.emit(facts.NewContainer(dst, _COMPREHENSIONS[type(node)]))
    if isinstance(node, ast.DictComp):
        evaluate(walker, node.key)
        walker.emit(facts.SetSub(dst, None, evaluate(walker, node.value)))
    else:
        walker.emit(facts.SetSub(dst, None, evaluate(walker, node.elt)))
    walker.pop()
    return dst


def _lambda(walker: Walker, node: ast.Lambda, holder: str) -> int:
    args = node.args
    for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
        evaluate(walker, default)
    outer = walker.frame
    while outer.kind == Kind.COMP and outer.parent is not None:
        outer = outer.parent
    enclosing = walker.scopes[outer.index].qual
    qual = f"{enclosing}.<lambda>" if enclosing else "<lambda>"
    params = lambda_params(args)
    line, end = node.lineno, node.end_lineno or node.lineno
    scope = facts.Scope(qual, Kind.LAMBDA, walker.frame.index, line, end, line, tuple(params))
    frame = walker.push(scope, {p.name for p in params})
    for index, param in enumerate(params):
        value = walker.var()
        walker.emit(facts.ParamIn(value, frame.index, index))
        frame.env[param.name] = value
    walker.emit(facts.Ret(frame.index, evaluate(walker, node.body)))
    walker.pop()
    dst = walker.var()
    walker.emit(facts.Def(dst, frame.index))
    return dst


def lambda_params(args: ast.arguments) -> list[facts.Param]:
    positional = [*args.posonlyargs, *args.args]
    out = [
        facts.Param(
            a.arg,
            ParamKind.POSITIONAL_ONLY
            if i < len(args.posonlyargs)
            else ParamKind.POSITIONAL_OR_KEYWORD,
        )
        for i, a in enumerate(positional)
    ]
    if args.vararg is not None:
        out.append(facts.Param(args.vararg.arg, ParamKind.VAR_POSITIONAL))
    out += [facts.Param(a.arg, ParamKind.KEYWORD_ONLY) for a in args.kwonlyargs]
    if args.kwarg is not None:
        out.append(facts.Param(args.kwarg.arg, ParamKind.VAR_KEYWORD))
    return out


def _named(walker: Walker, node: ast.NamedExpr, holder: str) -> int:
    value = evaluate(walker, node.value)
    walker.bind(node.target.id, value)
    return value


def _await(walker: Walker, node: ast.Await, holder: str) -> int:
    return evaluate(walker, node.value)


def _yield(walker: Walker, node: ast.Yield | ast.YieldFrom, holder: str) -> int:
    value = evaluate(walker, node.value) if node.value is not None else walker.none
    frame = walker.frame.function()
    if frame is not None:
        walker.scope_flag(frame.index, facts.GENERATOR)
        walker.emit(facts.Yield(frame.index, value, isinstance(node, ast.YieldFrom)))
    return walker.unknown


def _starred(walker: Walker, node: ast.Starred, holder: str) -> int:
    return evaluate(walker, node.value)


def annotation(walker: Walker, node: ast.expr | None) -> int:
    """The variable holding the class an annotation names, or -1. Names are read as code that
    runs later sees them: annotations are often forward references."""
    if node is None:
        return -1
    if any(isinstance(n, ast.Call) for n in ast.walk(node)):
        evaluate(walker, node)  # Annotated[T, Depends(f)]: the calls run where the def stands
    ref = annotation_ref(node)
    if ref is None:
        return -1
    value = walker.read(ref[0], late=True)
    for attr in ref[1:]:
        dst = walker.var()
        walker.emit(facts.Attr(dst, value, attr))
        value = dst
    return value


_EXPRESSIONS: dict[type[ast.AST], Callable[[Walker, Any, str], int]] = {
    ast.Name: _name,
    ast.Constant: _constant,
    ast.JoinedStr: _joined,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.Call: _call,
    ast.BinOp: _binop,
    ast.UnaryOp: _unary,
    ast.Compare: _compare,
    ast.BoolOp: _boolop,
    ast.IfExp: _ifexp,
    ast.List: _container,
    ast.Tuple: _container,
    ast.Set: _container,
    ast.Dict: _dict,
    ast.ListComp: _comprehension,
    ast.SetComp: _comprehension,
    ast.GeneratorExp: _comprehension,
    ast.DictComp: _comprehension,
    ast.Lambda: _lambda,
    ast.NamedExpr: _named,
    ast.Await: _await,
    ast.Yield: _yield,
    ast.YieldFrom: _yield,
    ast.Starred: _starred,
}
