"""Expressions: each is walked for what may run inside it, and read as the variable that holds
its value (``evaluate``)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from groundkit.codemap.extract.python.parse import facts as f
from groundkit.codemap.extract.python.parse.facts import Kind, SiteKind
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
_CONTAINERS: dict[type[ast.AST], int] = {ast.List: 0, ast.Tuple: 1, ast.Set: 3}
_COMPREHENSIONS: dict[type[ast.AST], int] = {
    ast.ListComp: 0,
    ast.GeneratorExp: 0,
    ast.SetComp: 3,
    ast.DictComp: 2,
}


def evaluate(w: Walker, node: ast.expr, holder: str = "") -> int:
    """Walk an expression and return the variable holding its value."""
    handler = _EXPRESSIONS.get(type(node))
    if handler is None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                evaluate(w, child)
        return w.lit
    return handler(w, node, holder)


def bind_target(w: Walker, target: ast.expr, value: int, node: ast.AST | None = None) -> None:
    """Bind an assignment target (a name, a tuple to unpack, an attribute, a subscript)."""
    if isinstance(target, ast.Name):
        w.bind(target.id, value)
    elif isinstance(target, ast.Tuple | ast.List):
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), None)
        count = len(target.elts)
        site = w.site(target, SiteKind.PROTOCOL, name="__iter__")
        for i, element in enumerate(target.elts):
            part = w.var()
            inner = element
            if star is not None and i == star:
                w.emit(f.Unpack(part, value, i, rest=True, after=count - i - 1, site=site))
                assert isinstance(element, ast.Starred)
                inner = element.value
            else:
                index = i if star is None or i < star else i - count
                w.emit(f.Unpack(part, value, index, site=site))
            bind_target(w, inner, part)
    elif isinstance(target, ast.Attribute):
        obj = evaluate(w, target.value)
        w.emit(f.SetAttr(obj, target.attr, value, w.site(target, SiteKind.WRITE, name=target.attr)))
    elif isinstance(target, ast.Subscript):
        obj = evaluate(w, target.value)
        key = subscript_key(w, target.slice)
        w.emit(f.SetSub(obj, key, value, w.site(target, SiteKind.PROTOCOL, name="__setitem__")))
    elif isinstance(target, ast.Starred):
        bind_target(w, target.value, value)
    else:
        evaluate(w, target)


def _name(w: Walker, node: ast.Name, holder: str) -> int:
    return w.read(node.id)


def _constant(w: Walker, node: ast.Constant, holder: str) -> int:
    value = node.value
    if value is None:
        return w.none
    if isinstance(value, str):
        if not storable(value):
            return w.lit
        found = w.strings.get(value)
        if found is None:
            found = w.strings[value] = w.const(value)
        return found
    return w.lit


def _joined(w: Walker, node: ast.JoinedStr, holder: str) -> int:
    pieces: list[str | int | None] = []
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            pieces.append(part.value if storable(part.value) else None)
        elif isinstance(part, ast.FormattedValue):
            value = evaluate(w, part.value)
            if part.format_spec is not None:
                evaluate(w, part.format_spec)
            plain = isinstance(part.value, ast.Name | ast.Attribute) and part.conversion == -1
            pieces.append(value if plain else None)
    dst = w.var()
    w.emit(f.Tmpl(dst, pieces))
    return dst


def _attribute(w: Walker, node: ast.Attribute, holder: str, site: int = -1) -> int:
    obj = evaluate(w, node.value)
    dst = w.var()
    if site < 0:
        site = w.site(node, SiteKind.READ, name=node.attr)
    w.emit(f.Attr(dst, obj, node.attr, site))
    return dst


def _subscript(w: Walker, node: ast.Subscript, holder: str) -> int:
    obj = evaluate(w, node.value)
    key = subscript_key(w, node.slice)
    dst = w.var()
    site = w.site(node, SiteKind.PROTOCOL, name="__getitem__")
    if isinstance(node.slice, ast.Slice):
        bounds = (_bound(node.slice.lower), _bound(node.slice.upper))
        w.emit(f.Sub(dst, obj, None, site, True, bounds=bounds))
    else:
        w.emit(f.Sub(dst, obj, key, site))
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


def subscript_key(w: Walker, key: ast.expr) -> str | int | None:
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
    evaluate(w, key)
    return None


def _call(w: Walker, node: ast.Call, holder: str) -> int:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "super":
        return _super(w, node)
    index = w.reserve_site()
    if isinstance(func, ast.Attribute):
        callee = _attribute(w, func, "", site=index)
        name = func.attr
    else:
        callee = evaluate(w, func)
        name = func.id if isinstance(func, ast.Name) else ""
    args: list[int] = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            args.append(~evaluate(w, arg.value))
        else:
            args.append(evaluate(w, arg))
    keywords = [(k.arg or "", evaluate(w, k.value)) for k in node.keywords]
    literal = _literal_receiver(func)
    w.fill_site(
        index,
        node,
        SiteKind.CALL,
        name=name,
        dynamic=1 if literal else 0,
        holder=holder,
        args=args,
        keywords=keywords,
    )
    dst = w.var()
    w.emit(f.Call(dst, callee, index))
    return dst


def _super(w: Walker, node: ast.Call) -> int:
    for arg in node.args:
        evaluate(w, arg)
    dst = w.var()
    frame = w.frame.function()
    scope = w.scopes[frame.index] if frame is not None else None
    if frame is None or scope is None or scope.kind != Kind.METHOD or not scope.params:
        w.emit(f.Const(dst, 2))
        return dst
    receiver = frame.env.get(scope.params[0].name)
    if receiver is None or frame.parent is None:
        w.emit(f.Const(dst, 2))
        return dst
    w.emit(f.Super(dst, frame.parent.index, receiver))
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


def _binop(w: Walker, node: ast.BinOp, holder: str) -> int:
    left = evaluate(w, node.left)
    right = evaluate(w, node.right)
    method = _BINARY.get(type(node.op), "__op__")
    dst = w.var()
    w.emit(f.BinOp(dst, left, right, method, w.site(node, SiteKind.PROTOCOL, name=method)))
    return dst


def _unary(w: Walker, node: ast.UnaryOp, holder: str) -> int:
    operand = evaluate(w, node.operand)
    method = _UNARY.get(type(node.op))
    if method is None:  # not x
        truth(w, node.operand, operand)
        return w.lit
    dst = w.var()
    w.emit(f.BinOp(dst, operand, -1, method, w.site(node, SiteKind.PROTOCOL, name=method)))
    return dst


def _compare(w: Walker, node: ast.Compare, holder: str) -> int:
    left = evaluate(w, node.left)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = evaluate(w, right_node)
        if isinstance(op, ast.In | ast.NotIn):
            method, subject, other = "__contains__", right, left
        else:
            found = _COMPARE.get(type(op))
            if found is None:  # is / is not
                left = right
                continue
            method, subject, other = found, left, right
        site = w.site(node, SiteKind.PROTOCOL, name=method)
        w.emit(f.BinOp(w.var(), subject, other, method, site))
        left = right
    return w.lit


def _boolop(w: Walker, node: ast.BoolOp, holder: str) -> int:
    values = []
    for value in node.values:
        var = evaluate(w, value)
        truth(w, value, var)
        values.append(var)
    return w.copy_of(values)


def _ifexp(w: Walker, node: ast.IfExp, holder: str) -> int:
    condition(w, node.test)
    return w.copy_of([evaluate(w, node.body, holder), evaluate(w, node.orelse, holder)])


def condition(w: Walker, node: ast.expr) -> int:
    """A condition: its value is asked whether it is true (``__bool__``, else ``__len__``)."""
    var = evaluate(w, node)
    truth(w, node, var)
    return var


def truth(w: Walker, node: ast.expr, var: int) -> None:
    if isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
        site = w.site(node, SiteKind.PROTOCOL, name="__bool__")
        w.emit(f.BinOp(w.var(), var, -1, "__bool__", site))


def _container(w: Walker, node: ast.List | ast.Tuple | ast.Set, holder: str) -> int:
    dst = w.var()
    w.emit(f.NewContainer(dst, _CONTAINERS[type(node)]))
    starred = False
    for i, element in enumerate(node.elts):
        if isinstance(element, ast.Starred):
            each = w.var()
            w.emit(f.Iter(each, evaluate(w, element.value)))
            w.emit(f.SetSub(dst, None, each))
            starred = True
        else:
            key = None if starred or isinstance(node, ast.Set) else i
            w.emit(f.SetSub(dst, key, evaluate(w, element)))
    return dst


def _dict(w: Walker, node: ast.Dict, holder: str) -> int:
    dst = w.var()
    w.emit(f.NewContainer(dst, 2))
    stores: dict[str | int, int] = {}  # {"k": a, "k": b}: the last value of a key wins
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        if key_node is None:  # {**other}
            each = w.var()
            w.emit(f.Sub(each, evaluate(w, value_node), None))
            w.emit(f.SetSub(dst, None, each))
            continue
        key = subscript_key(w, key_node)
        value = evaluate(w, value_node)
        if key is None:
            w.emit(f.SetSub(dst, None, value))
        else:
            stores.pop(key, None)
            stores[key] = value
    for key, value in stores.items():
        w.emit(f.SetSub(dst, key, value))
    return dst


def _comprehension(w: Walker, node: Any, holder: str) -> int:
    generators: list[ast.comprehension] = node.generators
    source = evaluate(w, generators[0].iter)  # evaluated where the comprehension stands
    outer = w.frame
    targets = {n.id for g in generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    line = node.lineno
    qual = w.scopes[outer.index].qual
    w.push(f.Scope(qual, Kind.COMP, outer.index, line, node.end_lineno or line, line), targets)
    for i, generator in enumerate(generators):
        if i:
            source = evaluate(w, generator.iter)
        element = w.var()
        name = "__aiter__" if generator.is_async else "__iter__"
        w.emit(f.Iter(element, source, w.site(generator.iter, SiteKind.PROTOCOL, name=name)))
        bind_target(w, generator.target, element)
        for condition in generator.ifs:
            evaluate(w, condition)
    dst = w.var()
    w.emit(f.NewContainer(dst, _COMPREHENSIONS[type(node)]))
    if isinstance(node, ast.DictComp):
        evaluate(w, node.key)
        w.emit(f.SetSub(dst, None, evaluate(w, node.value)))
    else:
        w.emit(f.SetSub(dst, None, evaluate(w, node.elt)))
    w.pop()
    return dst


def _lambda(w: Walker, node: ast.Lambda, holder: str) -> int:
    args = node.args
    for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
        evaluate(w, default)
    outer = w.frame
    while outer.kind == Kind.COMP and outer.parent is not None:
        outer = outer.parent
    enclosing = w.scopes[outer.index].qual
    qual = f"{enclosing}.<lambda>" if enclosing else "<lambda>"
    params = lambda_params(args)
    line, end = node.lineno, node.end_lineno or node.lineno
    scope = f.Scope(qual, Kind.LAMBDA, w.frame.index, line, end, line, params)
    frame = w.push(scope, {p.name for p in params})
    for index, param in enumerate(params):
        value = w.var()
        w.emit(f.ParamIn(value, frame.index, index))
        frame.env[param.name] = value
    w.emit(f.Ret(frame.index, evaluate(w, node.body)))
    w.pop()
    dst = w.var()
    w.emit(f.Def(dst, frame.index))
    return dst


def lambda_params(args: ast.arguments) -> list[f.Param]:
    positional = [*args.posonlyargs, *args.args]
    out = [f.Param(a.arg, 0 if i < len(args.posonlyargs) else 1) for i, a in enumerate(positional)]
    if args.vararg is not None:
        out.append(f.Param(args.vararg.arg, 3))
    out += [f.Param(a.arg, 2) for a in args.kwonlyargs]
    if args.kwarg is not None:
        out.append(f.Param(args.kwarg.arg, 4))
    return out


def _named(w: Walker, node: ast.NamedExpr, holder: str) -> int:
    value = evaluate(w, node.value)
    w.bind(node.target.id, value)
    return value


def _await(w: Walker, node: ast.Await, holder: str) -> int:
    return evaluate(w, node.value)


def _yield(w: Walker, node: ast.Yield | ast.YieldFrom, holder: str) -> int:
    value = evaluate(w, node.value) if node.value is not None else w.none
    frame = w.frame.function()
    if frame is not None:
        w.scope_flag(frame.index, f.GENERATOR)
        w.emit(f.Yield(frame.index, value, isinstance(node, ast.YieldFrom)))
    return w.unknown


def _starred(w: Walker, node: ast.Starred, holder: str) -> int:
    return evaluate(w, node.value)


def annotation(w: Walker, node: ast.expr | None) -> int:
    """The variable holding the class an annotation names, or -1. Names are read as code that
    runs later sees them: annotations are often forward references."""
    if node is None:
        return -1
    if any(isinstance(n, ast.Call) for n in ast.walk(node)):
        evaluate(w, node)  # Annotated[T, Depends(f)]: the calls run where the def stands
    ref = annotation_ref(node)
    if ref is None:
        return -1
    value = w.read(ref[0], late=True)
    for attr in ref[1:]:
        dst = w.var()
        w.emit(f.Attr(dst, value, attr))
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
