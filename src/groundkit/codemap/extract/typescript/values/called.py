"""What a call expression gives as a value (``f()``, ``new C()``): what the function returns,
the framework object a package's export makes (``Router()``), an emitter, the object
``Object.create`` makes, an array of ``arguments``' values, or what a function that gives back
its argument was given. The evaluator (``evaluate.py``) asks it for every call it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.library import PACKAGE_GIVES_BACK
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.facts import How
from groundkit.codemap.extract.typescript.values.frameworks import (
    CHAINED,
    construct,
    may_construct,
)
from groundkit.codemap.extract.typescript.values.made import listed
from groundkit.codemap.extract.typescript.values.members import is_rest
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Created,
    Def,
    Emitter,
    Ext,
    Feed,
    Global,
    Inst,
    Made,
    Mod,
    Model,
    Obj,
    Scope,
    Unknown,
    Value,
    Web,
)

# Members read per call site (an enum member costs a class lookup each read)
_CALL = How.CALL
_NEW = How.NEW

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["call_value", "defined_model", "prototype"]

# Array methods whose result holds the receiver's items: ``arguments`` copied, sliced, flattened.
COPIES = frozenset({"slice", "flat", "concat", "filter", "reverse", "sort", "toSorted"})
_OUTSIDE = frozenset({Global, Ext})  # a runtime's or a package's value


def call_value(
    ev: Evaluator, expr: facts.Call | facts.New, scope: Scope, name: str | None
) -> Value:
    if expr.ref is None:
        return Unknown()
    how = _NEW if type(expr) is facts.New else _CALL
    if len(expr.ref) > 1 and expr.ref[-1] in CHAINED and how == _CALL:
        receiver = ev.reference(expr.ref[:-1], scope, name)
        if type(receiver) is Web and receiver.router is not None:
            return receiver  # router.use(...) returns the router
    if how == _CALL and len(expr.ref) > 1 and expr.ref[-1] == "bind":
        bound = ev.reference(expr.ref[:-1], scope, name)  # f.bind(o): runs f when called
        if type(bound) is Def and bound.kind != "class":
            return bound
    if how == _CALL and expr.ref == ["Object", "create"] and expr.args:
        proto = prototype(ev, expr.args[0], scope)  # its members: the prototype's
        if isinstance(proto, Obj | Inst | Created):
            return proto
        if name and scope[1] <= 0 and "." not in name and type(proto) in _OUTSIDE:
            # var res = Object.create(http.ServerResponse.prototype) at module level: a
            # table of the members the module writes on it (the rest are the runtime's)
            return Obj(scope[0], name, {})
        return Unknown()
    copied = _copied(ev, expr, scope)
    if copied is not None:
        return copied
    callee = ev.reference(expr.ref, scope, name)
    if how == _CALL and type(callee) is Global and callee.name == "Promise.all":
        items = expr.args[0] if len(expr.args) == 1 else None
        if type(items) is facts.ArrayLit and not items.name:
            # await Promise.all([load(), other()]): each item's value, as `await` gives
            # one (an async function's call: what it returns)
            return listed(ev, items, scope)
        held = ev.value(items, scope) if items is not None else None
        if (type(held) is Arr and not held.kind) or type(held) is Made:
            # const ps = [load()]; await Promise.all(ps): a new array of its elements
            # awaited, as each is (what is pushed into ps included; nothing pushed into the
            # new one is ps's)
            return Made("copy", (held,))
    if may_construct(callee, how):
        router = ev.router_id(scope, name)
        web = construct(callee, how, expr.args, router, lambda s: ev.text(s, scope))
        if web is not None:
            return web
    if how == _NEW and _is_emitter_class(callee):
        return Emitter(ev.router_id(scope, name) if name else "")  # named by its variable
    if how == _CALL and type(callee) is Def and callee.kind != "class":
        handed = ev.functions.given_back(callee, expr.args)
        if handed is not None:
            return ev.value(handed, scope)  # identity(x): x
    if how == _CALL and type(callee) is Ext and len(callee.attrs) == 1:
        back = PACKAGE_GIVES_BACK.get((callee.package, callee.attrs[0]))
        if back is not None and back < len(expr.args):
            return ev.value(expr.args[back], scope)
    return ev.apply(callee, ["new" if how == _NEW else "()"], scope)


def prototype(ev: Evaluator, expr: facts.Expr, scope: Scope) -> Value:
    """The object ``Object.create(expr)`` finds members on."""
    proto = ev.value(expr, scope)
    if type(proto) is Mod:  # Object.create(require("./request")): what it exports
        return ev.export(proto.path, "=")
    return proto


def _copied(ev: Evaluator, expr: facts.Call | facts.New, scope: Scope) -> Feed | None:
    """``slice.call(arguments, 1)``, ``Array.from(arguments)``, ``args.flat()``: an array of
    ``arguments``' values, each at a position not known (the ones a slice leaves out are
    among them), or None."""
    ref = expr.ref
    given: Value = Unknown()
    if ref is None or type(expr) is facts.New:
        return None
    if len(ref) > 1 and ref[-1] in COPIES:
        given = ev.reference(ref[:-1], scope)
    elif len(ref) > 1 and ref[-1] in ("call", "apply", "from") and expr.args:
        method = ev.reference(ref[:-1], scope)
        named = method.name if type(method) is Global else ""
        copies = named.startswith("Array.prototype.") and named[16:] in COPIES
        if copies or (named == "Array" and ref[-1] == "from"):
            given = ev.value(expr.args[0], scope)
    return Feed(given.func, given.position, (facts.ITEM,)) if is_rest(given) else None


_EMITTERS = frozenset({(), ("EventEmitter",), ("default",), ("EventEmitter", "EventEmitter")})


def _is_emitter_class(callee: Value) -> bool:
    """Node's ``EventEmitter`` (``events``) or the DOM's ``EventTarget``."""
    if type(callee) is Global:
        return callee.name == "EventTarget"
    return (
        type(callee) is Ext
        and callee.package in ("events", "node:events")
        and callee.attrs in _EMITTERS
    )


def defined_model(ev: Evaluator, expr: facts.Defined, scope: Scope) -> Value:
    """The model ``on.define(name, {...})`` makes when ``on`` is a Sequelize instance (a
    parameter: when every value its callers give is one)."""
    on = ev.value(expr.on, scope)
    given = ev.passed(on) if type(on) is Feed else [on]
    if given and all(_sequelize(v) for v in given):
        return Model("sequelize", expr.name)
    return Unknown()


def _sequelize(value: Value) -> bool:
    """A Sequelize instance (``new Sequelize(...)``; the class itself has no ``define``)."""
    return (
        type(value) is Ext
        and value.package in ("sequelize", "sequelize-typescript")
        and value.attrs in ((), ("Sequelize",), ("default",))
    )
