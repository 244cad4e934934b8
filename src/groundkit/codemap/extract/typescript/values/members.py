"""What a member of a value holds (``value.name`` once no accessor runs it): a module's export,
a table's field, a prototype's method or an instance's stored field, an element of an array,
and a member assigned at module level (``F.create = ...``) when that is its only write. The
evaluator (``evaluate.py``) asks these for every member read; ``holders.py`` answers for the
members a function or table got without being written by name."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.holders import inherited, made_from_a_list
from groundkit.codemap.extract.typescript.values.made import map_entry
from groundkit.codemap.extract.typescript.values.memo import DEPTH
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Choice,
    Created,
    Def,
    Emitter,
    Ext,
    Feed,
    Gen,
    Global,
    Inst,
    Lit,
    Made,
    Mod,
    Obj,
    Str,
    Unknown,
    Value,
    Web,
    choice_of,
)

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["defined_getter", "forwarding", "is_rest", "member"]

# A value's kind is tested as ``type(v) is C``: no value or fact class is subclassed, and on a
# miss the identity test costs a third of an isinstance call, asked a million times a large map.

_FORWARDS_READ = frozenset({"method", "getter", "access"})  # a member read gives the target's
_REST = (facts.REST, facts.ITEM)
_ITEMS = frozenset({facts.ELEMENT, facts.ITERATED})


def defined_getter(ev: Evaluator, table: Obj, name: str, *, maybe: bool = False) -> Def | None:
    """``Object.defineProperty(table, name, {get: f})``, its only write of ``name``: f
    (``maybe``: members made from a list of names may replace it)."""
    if not table.name or "." in table.name or name in table.fields:
        return None
    held = ev.interface(table.path).defined_getters.get(table.name, {}).get(name)
    if held is None or not ev.assigned_once(table.path, table.name, name, computed=maybe):
        return None
    getter = ev.value(held, (table.path, -1))
    return getter if type(getter) is Def and getter.kind != "class" else None


def member(ev: Evaluator, value: Value, name: str) -> Value:
    if name in _ITEMS:  # an element, or what iterating gives
        if type(value) is Mod:
            value = ev.export(value.path, "=")  # module.exports = [...]: its elements
        found = _item(ev, value, name)
        if found is not None:
            return found
    elif type(value) is Arr or type(value) is Made:  # any member but its elements: runtime's
        return Lit() if type(value) is not Made or value.known else Unknown()
    if type(value) is Choice:  # one of several: the member (element) of whichever
        return choice_of(ev.attribute(option, name) for option in value.options)
    return _named_member(ev, value, name)


def _item(ev: Evaluator, value: Value, name: str) -> Value | None:
    """An element of ``value`` (``name`` ELEMENT), or what iterating it gives (ITERATED);
    None when that is read as any other member is."""
    if is_rest(value):
        return Feed(value.func, value.position, (facts.ITEM,))  # one of ``arguments``
    if type(value) is Arr and value.kind == "Map":  # iterated: its entries; no elements
        return map_entry(value) if name == facts.ITERATED else Unknown()
    if type(value) is Arr:
        return ev.elements(value)
    if type(value) is Made:
        return ev.elements(value)
    if name == facts.ITERATED and type(value) is Gen:
        return ev.functions.yielded(value.func)
    if name == facts.ITERATED and isinstance(value, Inst | Obj):
        iterator = ev.attribute(value, "[Symbol.iterator]")  # what it yields
        return ev.functions.yielded(iterator) if type(iterator) is Def else Unknown()
    if name == facts.ELEMENT and type(value) is Inst and value.cls.kind == "function":
        return _any_method(ev, value.cls)
    if name == facts.ELEMENT and type(value) not in (Feed, Choice):
        return Unknown()
    return None


def _named_member(ev: Evaluator, value: Value, name: str) -> Value:
    if type(value) is Mod:
        return _module_member(ev, value, name)
    if type(value) is Ext:
        return Ext(value.package, (*value.attrs, name))
    if type(value) is Emitter:
        return Ext("events", (name,))
    if type(value) is Gen:
        return (
            Lit()
        )  # next, return, throw: the runtime's  # the runtime's on, emit, addEventListener...
    if type(value) is Web:
        return Ext(value.role, (name,))
    if type(value) is Global:
        return Global(f"{value.name}.{name}")  # window.fetch
    if type(value) is Lit or type(value) is Str:
        return Lit()
    if type(value) is Obj:
        written = value.fields.get(name)
        if written is None:
            return _static(ev, value.path, value.name, name)
        if ev.opened(value, name):
            return Unknown()
        return ev.value(written, (value.path, -1), name)
    if type(value) is Feed:
        return Feed(value.func, value.position, (*value.path, name))
    if type(value) is Created:  # an own member its maker wrote, else the prototype's
        own = ev.interface(value.path).fields.get(value.owner, {}).get(name)
        if own is not None:
            return ev.value(own, (value.path, -1), name)
        forwarded = forwarding(ev, value, name)
        if forwarded is not None:  # delegate(proto, "response").method("redirect")
            to, how = forwarded
            return ev.attribute(to, name) if how in _FORWARDS_READ else Unknown()
        return ev.attribute(value.proto, name)
    if type(value) is Inst and value.cls.kind == "function":
        found = ev.functions.prototype(value.cls, name)
        if type(found) is Choice:  # a member under a computed key, maybe: an own
            stored = _own(ev, value.cls, name)  # field of that name shadows it
            found = found if type(stored) is Unknown else stored
        if type(found) is Unknown:
            found = _mixed(ev, value.cls, name) or Unknown()
        return _own(ev, value.cls, name) if type(found) is Unknown else found
    if type(value) is Def and value.kind != "method" and name == "prototype":
        return Inst(value)  # F.prototype.m: the method an instance of F finds
    if type(value) is Def and value.kind == "function" and _assigns(ev, value, name):
        return _static(ev, value.path, value.qual, name)
    if type(value) is Def and value.kind == "function":
        fields = ev.interface(value.path).fields
        own = fields.get(value.qual + facts.OWN, {}).get(name)
        if own is not None:  # app.request = ... where app is declared: its own member
            return ev.value(own, (value.path, -1), name)
        proto = fields.get(value.qual, {}).get("__proto__")
        return inherited(ev, value.path, proto, name) if proto else Unknown()
    if (type(value) is Inst or type(value) is Def) and (cls := _class_of(value)) is not None:
        # Object.assign(C.prototype, ...) replaces what the class body defined
        mixed = _mixed(ev, cls, name) if type(value) is Inst else None
        if mixed is not None:
            return mixed
        method = ev.classes.method(cls, name)
        if method is not None:
            return method[0]
        return _field(ev, cls, name) if type(value) is Inst else Unknown()
    return Unknown()


def forwarding(ev: Evaluator, made: Created, name: str) -> tuple[Value, str] | None:
    """The object a package forwards ``made.name`` to (``made.response`` for
    ``delegate(proto, "response").method(name)``, ``made`` made from ``proto``), and how;
    None when no package forwards it (``library.DELEGATORS``)."""
    proto = made.proto
    if type(proto) is not Obj or not proto.name:
        return None
    found = ev.interface(proto.path).delegated.get(proto.name, {}).get(name)
    if found is None:
        return None
    return ev.attribute(made, found[0]), found[1]


def _any_method(ev: Evaluator, func: Def) -> Value:
    """``x[key]`` on an instance of function ``func``, ``key`` known only at run time: any
    function assigned to ``func.prototype`` (or something else: a field, a built-in)."""
    members = ev.interface(func.path).protos.get(func.qual, {})
    found = [Def(func.path, q, "function") for q in dict.fromkeys(members.values()) if q]
    return Choice((*found, Unknown())) if found else Unknown()


def _module_member(ev: Evaluator, module: Mod, name: str) -> Value:
    """``m.name`` of a module: its export, else a member of its ``module.exports`` (of the
    module that one is, for ``module.exports = require("./other")``)."""
    seen = {module.path}
    while True:
        found = ev.export(module.path, name)
        exports = ev.interface(module.path).exports
        if type(found) is not Unknown or name in exports or "=" not in exports:
            return found
        inner = ev.exported(module.path, exports["="], frozenset({(module.path, "=")}))
        if type(inner) is not Mod:
            return ev.attribute(ev.export(module.path, "="), name)  # = F: F's member
        if inner.path in seen or len(seen) > DEPTH:
            return Unknown()
        seen.add(inner.path)
        module = inner


def _mixed(ev: Evaluator, cls: Def, name: str) -> Value | None:
    """``name`` on an object ``cls``'s prototype was replaced by or given the members of
    (``Object.assign(C.prototype, mixin)``): the last one written that has it; Unknown
    when a source not known may have it; None when none has it."""
    for source in reversed(ev.interface(cls.path).mixins.get(cls.qual, [])):
        held = ev.value(source, (cls.path, -1))
        if type(held) is Obj and name not in held.fields:
            continue
        if not isinstance(held, Obj | Inst):
            return Unknown()
        return ev.attribute(held, name)
    return None


def _assigns(ev: Evaluator, func: Def, key: str) -> bool:
    """Whether ``func``'s module assigns ``func.key = ...`` at module level, ``func``
    bound to its own name there."""
    iface = ev.interface(func.path)
    owned = iface.names.get(func.qual) == facts.Fn(func.qual)
    return owned and key in iface.statics.get(func.qual, {})


def _static(ev: Evaluator, path: str, owner: str, key: str) -> Value:
    """``owner.key`` where module ``path`` assigns it at module level (``F.create = ...``
    on a function or an object bound to ``owner``): its value when that is the member's
    only write anywhere it could be written, else Unknown."""
    if not owner:
        return Unknown()  # a literal bound to no name: nothing names it to write on it
    iface = ev.interface(path)
    held = iface.statics.get(owner, {}).get(key) if "." not in owner else None
    if held is None and "." not in owner:
        return made_from_a_list(ev, path, owner)
    if held is None or type(held) is facts.Choice:
        return Unknown()
    if ev.assigned_once(path, owner, key):
        return ev.value(held, (path, -1), key)
    if ev.assigned_once(path, owner, key, computed=True):  # or what a run-time key wrote
        return choice_of((ev.value(held, (path, -1), key), Unknown()))
    return Unknown()


def _own(ev: Evaluator, func: Def, name: str) -> Value:
    """An own field of an instance of function ``func``: stored on ``this``, or on the
    function ``func`` returns in place of the instance (``router.stack = []``)."""
    found = _field(ev, func, name)
    made = ev.functions.made(func) if type(found) is Unknown else None
    if made is None:
        return found
    held = ev.interface(made.path).fields.get(made.qual + facts.OWN, {}).get(name)
    return ev.value(held, (made.path, -1), name) if held is not None else found


def _field(ev: Evaluator, cls: Def, name: str) -> Value:
    """What ``this.name = ...`` stored in an instance of ``cls`` (or of a base of it),
    worked out once."""
    key = ("field", cls, name)
    return ev.memo.once(key, lambda: _stored(ev, cls, name, frozenset({cls})), Unknown())


def _stored(ev: Evaluator, cls: Def, name: str, seen: frozenset[Def]) -> Value:
    if len(seen) > DEPTH + 1:
        return Unknown()
    stored = ev.interface(cls.path).fields.get(cls.qual, {}).get(name)
    if stored is not None:
        # named after the field, so two classes' ``router = Router()`` are two routers
        return ev.value(stored, (cls.path, -1), f"{cls.qual}.{name}")
    for base in ev.classes.bases(cls) if cls.kind == "class" else []:
        if base in seen:
            continue
        found = _stored(ev, base, name, seen | {base})
        if type(found) is not Unknown:
            return found
    return Unknown()


def _class_of(value: Value) -> Def | None:
    if type(value) is Inst:
        return value.cls
    if type(value) is Def and value.kind == "class":
        return value
    return None


def is_rest(value: Value) -> TypeGuard[Feed]:
    """Whether ``value`` is ``arguments`` (or an array of its values, or one of them)."""
    return type(value) is Feed and len(value.path) == 1 and value.path[0] in _REST
