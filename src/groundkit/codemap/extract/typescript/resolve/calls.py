"""A call site's edges: what its callee is, how it was reached (the provenance), or why it is
counted as unresolved.

The callee is evaluated where the call is (``values/evaluate.py``). A parameter's value comes
from the function's call sites (``values/flow.py``): each function or class of the repository
it may hold is an edge (``ts-argument``); when some caller gives it an unknown value, or the
function is handed to code outside the repository, the call is unresolved and has no edge.
A member of an object literal bound to a name is ``ts-table``, unless some code changes that
member (then it is unresolved).
"""

from __future__ import annotations

from typing import Protocol

from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.typescript.library import DYNAMIC_CODE
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.facts import How
from groundkit.codemap.extract.typescript.resolve.accessors import run_accessors
from groundkit.codemap.extract.typescript.resolve.callbacks import callbacks
from groundkit.codemap.extract.typescript.resolve.events import fire
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.events import Events
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.objects import (
    Anon,
    Arr,
    Choice,
    Def,
    Ext,
    Feed,
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
    node_key,
)
from groundkit.codemap.extract.typescript.web import WebFacts
from groundkit.codemap.model import EdgeFlag, EdgeKind, Location, NodeKey, Provenance

# Members read per call site (an enum member costs a class lookup each read)
_CALL = How.CALL
_NEW = How.NEW
_JSX = How.JSX

__all__ = ["CallingFile", "resolve_call"]

# A value's kind is tested as ``type(v) is C``: no value or fact class is subclassed, and on a
# miss the identity test costs a third of an isinstance call, asked a million times a large map.

# The receivers of ``[a, b].map(f)``: an array literal with its items (``parse/calls.py``),
# any other literal.
_LITERAL_BASES = frozenset({facts.Lit, facts.ArrayLit})
_NOT_COUNTED = (
    Ext,
    Global,
    Lit,
    Str,
    Web,
    Anon,
    Arr,
)  # the runtime's or a package's: not unresolved


class CallingFile(Protocol):
    """What resolving a call needs of the file it is in (``graph.TypeScriptFile``)."""

    path: str
    ev: Evaluator
    flow: Flow
    events: Events
    web: WebFacts
    graph: FileGraph

    def location(
        self, line: int, col: int = 0, end_line: int = 0, end_col: int = 0
    ) -> Location: ...

    def caller(self, scope: int) -> NodeKey: ...

    def edge(
        self,
        kind: EdgeKind,
        source: NodeKey,
        target: NodeKey,
        provenance: Provenance,
        where: Location,
        line: int,
        flags: frozenset[EdgeFlag] = frozenset(),
    ) -> None: ...


def _unnamed(
    file: CallingFile,
    site: facts.CallSite,
    callee: facts.Expr,
    context: Scope,
    caller: NodeKey,
    where: Location,
) -> None:
    """A callee with no name of its own."""
    if type(callee) is facts.Get and site.key is not None and site.args is not None:
        file.web.computed(callee.base, site.key, site.args, context, where)  # app[r.method](...)
    if type(callee) is facts.Get and site.args is not None:
        # (options?.client ?? client).post({url}): a generated client's call, receiver unnamed
        file.web.call(["?", *callee.attrs], None, Unknown(), site.args, context, caller, where)
        # m[4].split(".").map(f): the runtime's method, maybe, on a value not known: partial;
        # xs.map(f).forEach(g): an array's for sure (certain)
        base = facts.Get(callee.base, callee.attrs[:-1]) if callee.attrs[1:] else callee.base
        held = file.ev.value(base, context)
        array = type(held) is Arr or (type(held) is Made and held.known)
        receiver = held if array else Unknown()
        callbacks(file, site, ["?", *callee.attrs], receiver, context, caller, where)
    if type(callee) is facts.Get and _element_call(file, site, callee, context, caller, where):
        return
    if not isinstance(callee, facts.AnonFn | facts.Lit):
        file.graph.unresolved += 1  # (a || b)(), f()(), table[key]()


def _element_call(
    file: CallingFile,
    site: facts.CallSite,
    callee: facts.Get,
    context: Scope,
    caller: NodeKey,
    where: Location,
) -> bool:
    """``steps[i]()``, ``layers[0].handle()``: an element of an array of the repository, or a
    member of one (``arrays.py``). False when the value read is not known."""
    ev = file.ev
    head = ev.value(callee.base, context)
    attrs = callee.attrs
    if len(attrs) > 1 and attrs[-1] in ("call", "apply"):
        attrs = attrs[:-1]  # route[method].apply(route, args): runs route[method]
    receiver = ev.apply(head, attrs[:-1], context)
    if type(receiver) is Unknown or type(head) is Unknown:
        return False
    value = ev.attribute(receiver, attrs[-1])
    if attrs is not callee.attrs and not isinstance(value, Def | Feed | Choice):
        return False  # x[k].call(): a method named call, maybe
    if type(value) is Feed:
        _through_parameter(file, value, site.how, caller, where)
    elif type(value) is Choice:
        _choice(file, value, site.how, caller, where)
    elif type(value) is Unknown:
        return False
    elif not isinstance(value, _NOT_COUNTED):
        target = _target(file, value, site.how)
        if target is None:
            return False
        provenance = Provenance.TS_INSTANCE if type(receiver) is Inst else Provenance.TS_CALL
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, site.line)
    return True


def resolve_call(file: CallingFile, site: facts.CallSite) -> None:
    where = file.location(site.line, site.col, site.end_line, site.end_col)
    caller = file.caller(site.scope)
    callee = site.callee
    context: Scope = (file.path, site.scope)
    if type(callee) is facts.Fn:  # (() => {...})(): called where it is written
        target = _target(file, file.ev.value(callee, context), site.how)
        if target is not None:
            file.edge(
                EdgeKind.CALLS, caller, node_key(target), Provenance.TS_CALL, where, site.line
            )
        return
    if type(callee) is facts.Get and type(callee.base) in _LITERAL_BASES:
        # [a, b].map(f): the runtime's method of a literal (an array's: its items kept)
        callbacks(file, site, ["", *callee.attrs], Lit(), context, caller, where)
        return
    if type(callee) is not facts.Ref:
        _unnamed(file, site, callee, context, caller, where)
        return
    ref = callee.parts
    if ref[0] == "super":
        _super(file, ref, context, caller, where)
        return
    ev = file.ev
    run_accessors(file, ref, context, caller, where)  # o.x() runs get x() first
    ref = _what_runs(ev, ref, context)
    if not ref:
        return  # f.bind(o) makes a function and calls nothing: the runtime's
    receiver = ev.reference(ref[:-1], context, site.chain or None) if len(ref) > 1 else None
    value = ev.attribute(receiver, ref[-1]) if receiver is not None else ev.reference(ref, context)
    file.web.call(ref, receiver, value, site.args, context, caller, where)
    callbacks(file, site, ref, receiver, context, caller, where, value)
    fire(file, site, ref, receiver, caller, where)
    if type(value) is Mod:  # const f = require("./f"); f(): its module.exports
        value = ev.export(value.path, "=")
    if type(value) is Feed:
        _through_parameter(file, value, site.how, caller, where)
        return
    if type(value) is Choice:
        _choice(file, value, site.how, caller, where)
        return
    if _not_counted(file, value):
        return
    if (
        ref[0] == "this"
        and len(ref) == 2
        and _overridden(file, ref[1], value, context, caller, where)
    ):
        return
    target = _target(file, value, site.how)
    if target is None:
        file.graph.unresolved += 1
        return
    if site.how == _JSX:
        provenance = Provenance.TS_JSX
        _render(file, value, caller, where)
    elif type(value) is Def and value.kind == "class":
        provenance = Provenance.TS_NEW
    elif ref[0] == "this":
        provenance = Provenance.TS_THIS
    elif type(receiver) is Inst:
        provenance = Provenance.TS_INSTANCE
    elif type(receiver) is Obj:
        provenance = Provenance.TS_TABLE
    else:
        provenance = Provenance.TS_NEW if site.how == _NEW else Provenance.TS_CALL
    file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, site.line)
    file.web.argument(site.args, node_key(target), context, caller, where)


def _what_runs(ev: Evaluator, ref: list[str], context: Scope) -> list[str]:
    """The reference a call runs: ``f`` for ``f.call(o, ...)``, ``f.apply(o, args)`` and
    ``f.bind(o)()``; nothing for ``f.bind(o)``, which makes a function and calls nothing."""
    methods = ("call", "apply", "bind")
    if len(ref) > 1 and ref[-1] in methods and _is_function(ev.reference(ref[:-1], context)):
        return ref[:-1] if ref[-1] != "bind" else []
    if ref[-2:] == ["bind", "()"] and _is_function(ev.reference(ref[:-2], context)):
        return ref[:-2]
    return ref


def _not_counted(file: CallingFile, value: Value) -> bool:
    """Whether a call of ``value`` is the runtime's or a package's (no edge, not unresolved);
    code made from a string at run time (``eval``, ``new Function``, off ``globalThis`` too) is
    no edge either, and is counted unresolved."""
    if type(value) is Global:
        holder, _, own = value.name.rpartition(".")
        if own in DYNAMIC_CODE and holder in ("", "globalThis", "window", "self", "global"):
            file.graph.unresolved += 1
    return isinstance(value, _NOT_COUNTED)


def _target(file: CallingFile, value: Value, how: int) -> Def | None:
    """What calling ``value`` runs: a function or method; a class's constructor with ``new``
    (the class itself when no in-repository base has one)."""
    if type(value) is Inst and value.cls.kind == "function" and how == _CALL:
        return file.ev.functions.made(value.cls)  # new F(): what F returns, if a function
    if type(value) is not Def:
        return None
    if value.kind != "class":
        return value
    return file.ev.classes.constructor(value) if how in (_NEW, _JSX) else None


def _through_parameter(
    file: CallingFile, feed: Feed, how: int, caller: NodeKey, where: Location
) -> None:
    values = file.flow.feeds(feed)
    if not values:  # unknown, or nothing known calls the function with it
        file.graph.unresolved += 1
        _known_paths(file, feed, how, caller, where)
        return
    targets: dict[Def, bool] = {}  # -> partial
    for given in values:
        options = given.options if type(given) is Choice else (given,)
        found: set[Def] = set()
        vague = False  # an option not known (semver's parseRange: a cached value or [comp])
        for option in options:
            value = file.ev.export(option.path, "=") if type(option) is Mod else option
            target = _target(file, value, how)
            if target is not None:
                found.add(target)
            elif type(value) is Unknown:
                vague = True
            elif not isinstance(value, _NOT_COUNTED):
                file.graph.unresolved += 1  # an instance or object called: not a function
                return
        if vague and not found:
            file.graph.unresolved += 1
            return
        for target in found:  # a choice between different functions: which one runs varies
            targets[target] = targets.get(target, True) and (len(found) > 1 or vague)
    if any(targets.values()):
        file.graph.unresolved += 1
    for target, partial in sorted(targets.items(), key=lambda t: (t[0].path, t[0].qual)):
        flags = frozenset({EdgeFlag.PARTIAL}) if partial else frozenset()
        provenance = Provenance.TS_ARGUMENT
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, where.line, flags)


def _known_paths(file: CallingFile, feed: Feed, how: int, caller: NodeKey, where: Location) -> None:
    """A parameter that something unknown may reach: each function of the repository the known
    paths give it is a partial edge (which one runs, if any, is decided at run time)."""
    targets: set[Def] = set()
    for given in file.flow.known(feed):
        options = given.options if type(given) is Choice else (given,)
        for option in options:
            value = file.ev.export(option.path, "=") if type(option) is Mod else option
            target = _target(file, value, how)
            if target is not None:
                targets.add(target)
    for target in sorted(targets, key=lambda d: (d.path, d.qual)):
        flags = frozenset({EdgeFlag.PARTIAL})
        provenance = Provenance.TS_ARGUMENT
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, where.line, flags)


def _super(
    file: CallingFile, ref: list[str], context: Scope, caller: NodeKey, where: Location
) -> None:
    classes = file.ev.classes
    cls = file.ev.this_class(context)
    bases = classes.bases(cls) if cls is not None else []
    target: Def | None = None
    if bases and len(ref) == 1:
        target = classes.constructor(bases[0])  # super(...)
    elif bases and len(ref) == 2:
        found = classes.method(bases[0], ref[1])
        target = found[0] if found is not None else None
    if target is None:
        if cls is not None and not classes.has_bases(cls):
            return  # no base at all: nothing to call
        if not bases and cls is not None:
            return  # a base outside the repository (React.Component): the package's
        file.graph.unresolved += 1
        return
    file.edge(EdgeKind.CALLS, caller, node_key(target), Provenance.TS_SUPER, where, where.line)


def _overridden(
    file: CallingFile, name: str, value: Value, context: Scope, caller: NodeKey, where: Location
) -> bool:
    """``this.m()``: ``this`` may be an instance of a subclass that overrides ``m`` (or that
    alone defines it): each method it may run is a partial edge. False when no subclass changes
    what runs."""
    cls = file.ev.this_class(context)
    if cls is None:
        return False
    found = {value} if type(value) is Def and value.kind != "class" else set()
    for sub in file.flow.subclasses(cls):
        method = file.ev.classes.method(sub, name)
        if method is not None:
            found.add(method[0])
    if not found or found == {value}:
        return False
    file.graph.unresolved += 1  # which one runs depends on the instance
    for target in sorted(found, key=lambda d: (d.path, d.qual)):
        file.edge(
            EdgeKind.CALLS,
            caller,
            node_key(target),
            Provenance.TS_THIS,
            where,
            where.line,
            frozenset({EdgeFlag.PARTIAL}),
        )
    return True


def _render(file: CallingFile, value: Value, caller: NodeKey, where: Location) -> None:
    """``<Page />`` of a class component: React constructs it, then calls its ``render``."""
    if type(value) is Def and value.kind == "class":
        found = file.ev.classes.method(value, "render")
        if found is not None:
            target = node_key(found[0])
            file.edge(EdgeKind.CALLS, caller, target, Provenance.TS_JSX, where, where.line)


def _choice(file: CallingFile, choice: Choice, how: int, caller: NodeKey, where: Location) -> None:
    """``const load = c ? api.feed : api.all; load()``: each function of the repository it may
    be is a partial edge, and the site counts as unresolved; when every value each option may
    hold is one function (``(app || new App()).run``), that one, certain."""
    targets = set()
    # every option known, each a function of the repository (a choice of one is a maybe)
    sure = len(choice.options) > 1
    for option in choice.options:
        given = file.flow.feeds(option) if type(option) is Feed else {option}
        sure = sure and bool(given)
        for value in given or set():
            target = _target(file, value, how)
            sure = sure and target is not None
            if target is not None:
                targets.add(target)
    sure = sure and len(targets) == 1
    if not sure:
        file.graph.unresolved += 1
    for target in sorted(targets, key=lambda d: (d.path, d.qual)):
        provenance = Provenance.TS_NEW if how == _NEW else Provenance.TS_CALL
        flags = frozenset() if sure else frozenset({EdgeFlag.PARTIAL})
        file.edge(EdgeKind.CALLS, caller, node_key(target), provenance, where, where.line, flags)


def _is_function(value: Value) -> bool:
    """A function, a parameter, or a choice with a function among its options (a member made
    from a list of names: ``route.get.apply(route, args)`` maybe runs it)."""
    if type(value) is Choice:
        return any(_is_function(option) for option in value.options)
    return type(value) is Feed or (type(value) is Def and value.kind != "class")
