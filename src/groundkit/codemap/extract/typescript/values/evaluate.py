"""What a name or expression holds, across files: imports followed through re-exports (``export
... from``, ``export *``, CommonJS ``module.exports``), classes through their in-repository bases
(``classes.py``), object literals member by member.

Nothing is guessed: a name whose value depends on run time (a variable assigned twice, a member
of something unknown) is ``Unknown``, and a call through it is counted as unresolved by the
caller of this module. A parameter is a ``Feed``: what it holds is known only from the
function's call sites, which ``flow.py`` reads.
"""

from __future__ import annotations

from collections.abc import Callable

from groundkit.codemap.extract.base import Project
from groundkit.codemap.extract.typescript.dependencies import Dependencies, is_dependency
from groundkit.codemap.extract.typescript.layout import Layout, module_name
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.facts import How, ScopeKind
from groundkit.codemap.extract.typescript.values import exports
from groundkit.codemap.extract.typescript.values.accessors import accessor
from groundkit.codemap.extract.typescript.values.called import (
    COPIES,
    call_value,
    defined_model,
    prototype,
)
from groundkit.codemap.extract.typescript.values.classes import Classes
from groundkit.codemap.extract.typescript.values.frameworks import (
    ANNOTATED,
    CHAINED,
    construct,
    may_construct,
)
from groundkit.codemap.extract.typescript.values.functions import Functions
from groundkit.codemap.extract.typescript.values.holders import holder, or_copies
from groundkit.codemap.extract.typescript.values.made import (
    array_made,
    listed,
    spread_literal,
)
from groundkit.codemap.extract.typescript.values.members import (
    defined_getter,
    forwarding,
    is_rest,
    member,
)
from groundkit.codemap.extract.typescript.values.memo import DEPTH, Memo
from groundkit.codemap.extract.typescript.values.objects import (
    Anon,
    Arr,
    Choice,
    Created,
    Def,
    Ext,
    Feed,
    Gen,
    Global,
    Inst,
    Lit,
    Made,
    Mod,
    Obj,
    Scope,
    Str,
    Unknown,
    Value,
    Web,
    choice_of,
)

__all__ = ["Evaluator"]

# A value's kind is tested as ``type(v) is C``: no value or fact class is subclassed, and on a
# miss the identity test costs a third of an isinstance call, asked a million times a large map.

_EXPORTED = (facts.Local, facts.From, facts.Namespace)
# (kinds tested as ``type(v) in S`` or ``is``: a union built and tested by isinstance per call
# costs several times more, and ``_value`` is asked tens of thousands of times a map)
_TEXT_EXPRS = frozenset({facts.Str, facts.Template})
_LITERAL_EXPRS = frozenset({facts.Lit, facts.ArrayLit})
_OUTSIDE = frozenset({Global, Ext})  # a runtime's or a package's value
_ACCESSED = frozenset({Inst, Def, Obj, Mod, Created})  # values whose members may be accessors


class Evaluator:
    def __init__(
        self, project: Project, layout: Layout, packages: Dependencies | None = None
    ) -> None:
        self.project = project
        self.layout = layout
        self.packages = packages  # the packages' code the value flow reads (never nodes)
        self.deps: set[str] = set()  # keys of the files consulted (``ts:`` + path)
        self.consulted = False  # the whole repository was read (``Flow.consulted``)
        self.memo = Memo(self)
        self.classes = Classes(self.interface, self.value)
        self.functions = Functions(
            self.interface, self.value, lambda e, s: listed(self, e, s), self.memo.once
        )
        # Whether a member of a table may have been changed (``flow.Tables`` answers).
        self.opened: Callable[[Obj, str], bool] = lambda table, key: False
        # What each caller hands a parameter (``flow.Flow.passed`` answers; None: not known).
        self.passed: Callable[[Feed], list[Value] | None] = lambda feed: None
        # Whether ``X.key = ...`` in module ``path`` is the only write of that member.
        self.assigned_once: Callable[..., bool] = lambda path, owner, key, computed=False: False
        # What an array's elements hold (``arrays.Arrays.elements`` answers).
        self.elements: Callable[[Arr | Made], Value] = lambda array: Unknown()
        # A named array literal -> its items, closed (``arrays.py``)
        self.literals: dict[Arr, tuple[list[facts.Expr], Scope]] = {}
        self._interfaces: dict[str, tuple[facts.Module, str]] = {}
        self._packaged: dict[str, facts.Module] = {}  # a package file's (asked as often)
        # The functions each table's members were copied onto (``holders.or_copies``)
        self.copies: dict[tuple[str, str], list[Def]] | None = None
        self._body: tuple[str, facts.Body] | None = None
        self._depth = 0

    # -- facts ------------------------------------------------------------------------------------
    def interface(self, path: str) -> facts.Module:
        found = self._interfaces.get(path)
        if found is None and (packaged := self._packaged.get(path)) is not None:
            return packaged
        if found is None and self.packages is not None and is_dependency(path):
            # a package's file: read for the value flow, no key (it is not in the map)
            packaged = self._packaged[path] = self.packages.interface(path)
            return packaged
        if found is None:
            stored = self.project.facts(path).interface
            module = stored if type(stored) is facts.Module else facts.Module({}, {}, [], {})
            found = self._interfaces[path] = (module, "ts:" + path)  # (the name hashed once)
        self.deps.add(found[1])
        return found[0]

    def start(self, path: str) -> facts.Body:
        """Resolve ``path`` next: its body is read (only that file's)."""
        self.deps = set()
        body = self.project.facts(path).body
        assert type(body) is facts.Body
        self.memo.start(len(body.calls) + len(body.members) + len(body.iterations))
        self._body = (path, body)
        return body

    def body_of(self, path: str) -> facts.Body | None:
        if self._body is not None and self._body[0] == path:
            return self._body[1]
        return None

    def resolve(self, importer: str, spec: str) -> Value:
        """What a specifier names, as a value (``exports.py``)."""
        return exports.resolve(self, importer, spec)

    def imported(self, importer: str, spec: str) -> Value:
        """What an import names in the map (``exports.py``)."""
        return exports.imported(self, importer, spec)

    # -- names ------------------------------------------------------------------------------------
    def lookup(self, scope: Scope, name: str) -> Value:
        path, index = scope
        body = self.body_of(path)
        while body is not None and index > 0:
            table = body.binds.get(index)
            if table and name in table:
                return self._bound(table[name], (path, index), name)
            index = body.scopes[index].parent
        names = self.interface(path).names
        if name in names:
            return self._bound(names[name], (path, 0), name)
        return Global(name)

    def _bound(self, expr: facts.Expr, scope: Scope, name: str) -> Value:
        """What a binding holds; a binding read while it is being evaluated (``node =
        node.parent``, assigned in a loop) is unknown: the value depends on run time."""
        key = ("bound", *scope, name)
        kept = self.memo.hit(key)
        if kept is not None:
            return kept
        return self.memo.once(key, lambda: self.value(expr, scope, name), Unknown())

    def export(self, path: str, name: str, seen: frozenset[tuple[str, str]] = frozenset()) -> Value:
        """What module ``path`` exports as ``name`` (``exports.py``)."""
        return exports.export(self, path, name, seen)

    def exported(
        self,
        path: str,
        found: facts.Expr | facts.Local | facts.From,
        seen: frozenset[tuple[str, str]],
    ) -> Value:
        """What an export entry of module ``path`` holds (``exports.py``)."""
        return exports.exported(self, path, found, seen)

    # -- expressions ------------------------------------------------------------------------------
    def value(self, expr: facts.Expr, scope: Scope, name: str | None = None) -> Value:
        if self._depth > DEPTH:
            self.memo.cut()
            return Unknown()
        if not self.memo.spend():
            return Unknown()
        self._depth += 1
        try:
            return self._value(expr, scope, name)
        finally:
            self._depth -= 1

    def _value(self, expr: facts.Expr, scope: Scope, name: str | None) -> Value:
        path = scope[0]
        if type(expr) is facts.Ref:
            return self.reference(expr.parts, scope)
        if type(expr) is facts.Fn:
            return self.classes.definition(path, expr.qual)
        if type(expr) is facts.Import:
            target = self.resolve(path, expr.spec)
            if type(target) is Mod:
                return self.export(target.path, expr.name)
            if type(target) is Ext:
                return Ext(target.package, () if expr.name == "default" else (expr.name,))
            return target
        if (
            type(expr) is facts.Namespace
            or type(expr) is facts.Require
            or type(expr) is facts.DynImport
        ):
            return self.resolve(path, expr.spec)
        if type(expr) is facts.Call or type(expr) is facts.New:
            return call_value(self, expr, scope, name)
        if type(expr) is facts.ObjectLit:
            return Obj(path, expr.name, expr.fields)
        if type(expr) in _TEXT_EXPRS:
            return self.text(expr, scope) or Unknown()
        if type(expr) is facts.Param:
            return self._param(expr, scope)
        if type(expr) is facts.ParamOf:
            return Feed(self.classes.definition(path, expr.qual), expr.position, tuple(expr.path))
        if type(expr) is facts.Get:
            return self.apply(self.value(expr.base, scope), expr.attrs, scope)
        if type(expr) is facts.This:
            return Inst(self.classes.definition(path, expr.cls))
        if type(expr) is facts.ArrayLit and expr.name:
            array = Arr(path, expr.name, expr.kind)
            self.literals.setdefault(array, (expr.items, (path, -1)))  # items closed
            return array
        if type(expr) is facts.ArrayLit and (made := spread_literal(self, expr, scope)):
            return made
        if type(expr) in _LITERAL_EXPRS:
            return Lit()
        if type(expr) is facts.AnonFn:
            return Anon()
        if type(expr) is facts.Choice:
            options = tuple(dict.fromkeys(self.value(o, scope) for o in expr.options))
            return options[0] if len(options) == 1 else Choice(options)
        if type(expr) is facts.Defined:
            return defined_model(self, expr, scope)
        if type(expr) is facts.Created:
            return Created(path, expr.owner, prototype(self, expr.proto, scope))
        if type(expr) is facts.ArrayCall:
            made = array_made(self, expr, scope)
            return made if made is not None else self.value(expr.call, scope, name)
        return Unknown()

    def reference(self, ref: list[str], scope: Scope, name: str | None = None) -> Value:
        """What ``ref`` holds; ``name``: the variable it is bound to, which names a router
        made in a chain of calls (``const api = Router().use(a)``)."""
        head = ref[0]
        if head == "this":
            cls = self.this_class(scope)
            value: Value = Inst(cls) if cls is not None else holder(self, scope)
            if type(value) is Obj and value.name:
                value = or_copies(self, value)
        elif head.startswith(facts.THIS_OF):  # ``this`` closed: its holder, or a copy's
            value = self.lookup(scope, head.removeprefix(facts.THIS_OF))
            if type(value) is Obj and value.name:
                value = or_copies(self, value)
        elif head == "super":
            return Unknown()  # only as a callee (``resolve/graph.py``)
        elif head.startswith("require:"):  # require("express").Router
            value = self.resolve(scope[0], head.removeprefix("require:"))
        else:
            value = self.lookup(scope, head)
            # (a kind and a name tested, not a ``Global`` made and compared per reference)
            if type(value) is Global and value.name == "module" and ref[1:2] == ["exports"]:
                return self.apply(Mod(scope[0]), ref[2:], scope, name)  # the module's own
        return self.apply(value, ref[1:], scope, name)

    def apply(self, value: Value, rest: list[str], scope: Scope, name: str | None = None) -> Value:
        router: Web | None = None  # the router whose method was just read
        copy: Feed | None = None  # ``arguments`` (or a copy) whose copying method was just read
        kept: Arr | Made | None = None  # an array whose copying method was just read
        for part in rest:
            if copy is not None and part == "()":  # args.flat(): its items, at any position
                value, copy = Feed(copy.func, copy.position, (facts.ITEM,)), None
                continue
            if kept is not None and part == "()":  # xs.slice(): the same elements
                sure = type(kept) is not Made or kept.known
                value, kept = Made("copy", (kept,), sure), None
                continue
            copying = part in COPIES
            copy = value if copying and is_rest(value) else None
            kept = value if copying and isinstance(value, Arr | Made) else None
            if part in ("()", "new") and type(value) is Mod:
                value = self.export(value.path, "=")  # require("./route")(): its module.exports
            if part == "()" and type(value) is Choice:  # (p || new C()).make(): either's
                value = choice_of(self.apply(o, ["()"], scope) for o in value.options)
                router = None
                continue
            if part == "()" and type(value) is Def and self._generator(value):
                value = Gen(value)  # nothing of it runs until it is iterated
            elif part == "()" and type(value) is Def and value.kind != "class":
                value = self.functions.returned(value)
                router = None
            elif part == "()":
                made = (  # only a package's export makes a framework object: named then
                    construct(value, How.CALL, [], self.router_id(scope, name), lambda s: None)
                    if router is None and may_construct(value, How.CALL)
                    else None
                )
                value = (
                    router  # router.use(...) returns the router: Router().use(a).use(b)
                    if router is not None
                    else made
                    if made is not None
                    else Ext(value.package, (*value.attrs, "()"))
                    if type(value) is Ext
                    else (value if type(value) is Global or type(value) is Lit else Unknown())
                )
                router = None
            elif part == "new":
                value = (
                    Inst(value)  # a class, or a function that is one (F.prototype.m = ...)
                    if type(value) is Def and value.kind != "method"
                    else (value if type(value) is Ext or type(value) is Global else Unknown())
                )
            else:
                chained = type(value) is Web and value.router is not None and part in CHAINED
                router = value if chained and type(value) is Web else None
                value = self.attribute(value, part)
        return value

    def attribute(self, value: Value, name: str) -> Value:
        accessed = type(value) in _ACCESSED
        getter = self.accessor(value, name) if accessed else None
        if getter is not None:
            return self.functions.returned(getter)  # o.x runs get x(): what it returns
        if type(value) is Obj and (maybe := defined_getter(self, value, name, maybe=True)):
            # a getter defined on a table whose members a list of names also makes: maybe
            return choice_of((self.functions.returned(maybe), Unknown()))
        return member(self, value, name)

    def accessor(self, value: Value, name: str, *, write: bool = False) -> Def | None:
        """The getter (setter) reading (writing) ``value.name`` runs (``accessors.py``)."""
        if type(value) is Mod and name == "default":
            return None  # (await import("./m")).default: module.exports, read by no getter
        if type(value) is Mod:  # module.exports = {get x() {...}}: the literal's
            value = self.export(value.path, "=")
        if type(value) is Created and (forwarded := forwarding(self, value, name)) is not None:
            to, how = forwarded  # delegate(proto, "response").access("body"): response's
            runs = ("setter", "access") if write else ("getter", "access")
            return self.accessor(to, name, write=write) if how in runs else None
        seen = 0
        while type(value) is Created and seen < DEPTH:  # a write runs the prototype's setter
            value, seen = value.proto, seen + 1
        found = accessor(self.interface, self.classes, value, name, write=write)
        if found is None and not write and type(value) is Obj:
            return defined_getter(self, value, name)
        return found

    def maybe_getters(self, value: Value, name: str, depth: int = 0) -> set[Def]:
        """The getters ``Object.defineProperty`` put on the tables ``value`` is or is made from
        (each option of a choice), when writes whose key is not known (through a parameter,
        under a key a function is given) may have replaced them since: reading ``value.name``
        maybe runs one."""
        if type(value) is Mod:  # Object.create(require("./request")): the module's export
            value = self.export(value.path, "=")
        if type(value) is Created and depth < DEPTH:
            return self.maybe_getters(value.proto, name, depth + 1)
        if type(value) is Choice and depth < DEPTH:
            return {d for o in value.options for d in self.maybe_getters(o, name, depth + 1)}
        found = defined_getter(self, value, name, maybe=True) if type(value) is Obj else None
        return {found} if found is not None else set()

    def _generator(self, func: Def) -> bool:
        return func.kind != "class" and func.qual in self.interface(func.path).generators

    def _param(self, param: facts.Param, scope: Scope) -> Value:
        if param.annotation:
            typed = self.reference(param.annotation, scope)
            if type(typed) is Ext and (typed.package, typed.attrs) in ANNOTATED:
                role = ANNOTATED[(typed.package, typed.attrs)]
                if role == "axios":  # a client: no router to name
                    return Web(role)
                return Web(role, self.router_id(scope, f"#{param.position}"))
        body = self.body_of(scope[0])
        owner = body.scopes[scope[1]] if body is not None and scope[1] > 0 else None
        if owner is None or owner.kind not in (ScopeKind.FUNCTION, ScopeKind.METHOD):
            return Unknown()  # an anonymous function's parameter: no call site names it
        func = self.classes.definition(scope[0], owner.qual)
        return Feed(func, param.position, tuple(param.path))

    def text(self, expr: facts.Expr | str | None, scope: Scope) -> Str | None:
        """A string expression in pieces, names of string constants folded in."""
        if type(expr) is facts.Str:
            return Str((expr.text,))
        if type(expr) is facts.Ref:
            value = self.reference(expr.parts, scope)
            return value if type(value) is Str else None
        if type(expr) is not facts.Template:
            return None
        pieces: list[str | None] = []
        for part in expr.parts:
            if isinstance(part, str):
                pieces.append(part)
                continue
            inner = self.text(part, scope)
            pieces.extend(inner.pieces if inner is not None else (None,))
        # An empty template is the empty string: one piece, as `''` has, never none.
        return Str(tuple(pieces) or ("",))

    # -- classes and routers ----------------------------------------------------------------------
    def this_class(self, scope: Scope) -> Def | None:
        body = self.body_of(scope[0])
        if body is None or scope[1] < 0:
            return None
        cls = body.scopes[scope[1]].this
        return self.classes.definition(scope[0], cls) if cls else None

    def router_id(self, scope: Scope, name: str | None) -> str:
        """The stable name of the variable an app or router is bound to: ``ts:<module>:<name>``."""
        path, index = scope
        body = self.body_of(path)
        owner = body.scopes[index].qual if body is not None and index > 0 else ""
        local = f"{owner}.{name}" if owner and name else name or owner
        return f"ts:{module_name(path)}:{local}"
