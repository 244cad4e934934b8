"""Variables, object literals, assignments and CommonJS ``module.exports``."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.declarations import function
from groundkit.codemap.extract.typescript.parse.expressions import (
    FUNCTIONS,
    SYMBOLS,
    UNKNOWN,
    collection,
    key_of,
    literal_element,
    ref_of,
    string_value,
    summarise,
    unwrap,
)
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind
from groundkit.codemap.extract.typescript.parse.state import Walk
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["assignment", "declarator", "member_write", "name_prototype_literal", "value"]


def declarator(w: Walk, node: Node) -> None:
    target = node.child_by_field_name("name")
    init = node.child_by_field_name("value")
    if target is None:
        return
    if target.type != "identifier":
        _destructure(w, target, init)
        return
    name = text_of(target)
    if init is not None and _exported_table(w, name, init):
        return
    if init is None or unwrap(init).type in ("null", "undefined"):
        w.unset.add((w.binding_scope(), name))  # a call through it runs what is assigned later
    w.bind(name, value(w, init, name) if init is not None else UNKNOWN)


def _exported_table(w: Walk, name: str, init: Node) -> bool:
    """``var app = exports = module.exports = {}`` at module level: ``app`` is the (empty) table
    the module exports, whose members the module then writes (``app.set = function``)."""
    node, lefts = unwrap(init), []
    while node.type == "assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return False
        lefts.append(ref_of(left))
        node = unwrap(right)
    exported = lefts and all(r in (["exports"], ["module", "exports"]) for r in lefts)
    if not exported or node.type != "object" or w.scope().kind != ScopeKind.MODULE:
        return False
    if any(c.type != "comment" for c in node.named_children):
        return False  # its members are named as exports (``exports.inspect``), as before
    w.bind(name, value(w, node, name))
    w.exports["="] = facts.Ref([name])
    return True


def value(w: Walk, node: Node, name: str | None) -> facts.Expr:
    """Walk an expression that is bound to ``name``; returns what it holds."""
    inner = unwrap(node)
    if inner.type in FUNCTIONS:
        qual = function(w, inner, name)
        return facts.Fn(qual) if qual else facts.AnonFn()
    if inner.type == "object" and name:
        _object(w, inner, name)
        return summarise(inner, w.qual_of, name=w.qualified(name))
    if (inner.type == "array" or collection(inner)) and name and "." not in name:
        w.visit(node)  # const steps = [a, b]: the array's identity is its name
        return summarise(inner, w.qual_of, name=w.qualified(name))
    w.visit(node)
    summary = summarise(node, w.qual_of)
    if isinstance(summary, facts.Require | facts.DynImport):
        return facts.Namespace(summary.spec)
    if _creates(summary) and name and "." not in name and w.binding_scope() > 0:
        return facts.Created(summary.args[0], f"{w.qualified(name)}#created")
    return summary


def _creates(summary: facts.Expr) -> TypeGuard[facts.Call]:
    """``Object.create(proto)``."""
    if type(summary) is not facts.Call:
        return False
    return summary.ref == ["Object", "create"] and bool(summary.args)


def _object(w: Walk, node: Node, prefix: str, holder: list[str] | None = None) -> None:
    """``const api = {get() {}, post: () => 1}``: functions named ``api.get``, ``api.post``.
    ``holder``: what ``this`` is in its methods, when not ``prefix`` itself."""
    table = w.qualified(prefix)
    for child in node.named_children:
        if child.type == "method_definition":
            key = key_of(child.child_by_field_name("name"))
            _method(w, child, f"{prefix}.{key}" if key else None, table, prefix, holder)
        elif child.type == "pair":
            key = key_of(child.child_by_field_name("key"))
            item = child.child_by_field_name("value")
            if item is not None and key is not None and unwrap(item).type == "object":
                _object(w, unwrap(item), f"{prefix}.{key}")
            elif item is not None and key is not None and unwrap(item).type in FUNCTIONS:
                _method(w, unwrap(item), f"{prefix}.{key}", table, prefix, holder)
            elif item is not None:
                w.visit(item)
        else:
            w.visit(child)


def _method(
    w: Walk, node: Node, name: str | None, table: str, prefix: str, holder: list[str] | None
) -> None:
    if node.type != "arrow_function":  # an arrow's `this` is the one around the literal
        w.pending_tables[node.id] = table
    function(w, node, name, holder=holder or _holder(prefix.split(".")))


def _holder(ref: list[str]) -> list[str] | None:
    """What ``this`` is in a function called as a member of ``ref`` (``ref.m()``), when that is
    a name the function's own code can read; ``exports`` and ``module`` are not such names."""
    return None if ref[0] in _NOT_HOLDERS else ref


_NOT_HOLDERS = frozenset({"this", "super", "module", "exports", "globalThis", "window", "global"})


def _destructure(w: Walk, target: Node, init: Node | None) -> None:
    summary: facts.Expr = UNKNOWN
    if init is not None:
        w.visit(init)
        summary = summarise(init, w.qual_of)
    spec = summary.spec if isinstance(summary, facts.Require | facts.DynImport) else None
    if spec is None:
        _destructure_value(w, target, summary)
        return
    if target.type != "object_pattern":
        for name in w.pattern_names(target):
            w.bind(name, UNKNOWN)
        return
    for child in target.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            w.bind(text_of(child), facts.Import(spec, text_of(child)))
        elif child.type == "pair_pattern":
            key = key_of(child.child_by_field_name("key"))
            names = w.pattern_names(child.child_by_field_name("value"))
            for name in names:
                w.bind(name, facts.Import(spec, key) if key and len(names) == 1 else UNKNOWN)
        else:
            for name in w.pattern_names(child):
                w.bind(name, UNKNOWN)


def _destructure_value(w: Walk, target: Node, summary: facts.Expr) -> None:
    """``const {feed, all: load} = api``: each name holds that member, as ``api.feed`` does;
    ``const [first] = xs``: an element (at a position not known). A default, a rest or a
    nested pattern: unknown."""
    held: dict[str, facts.Expr] = {}
    if type(summary) is not facts.Unknown and target.type == "object_pattern":
        for child in target.named_children:
            if child.type == "shorthand_property_identifier_pattern":
                held[text_of(child)] = facts.Get(summary, [text_of(child)])
            elif child.type == "pair_pattern":
                key = key_of(child.child_by_field_name("key"))
                value = child.child_by_field_name("value")
                if key and value is not None and value.type == "identifier":
                    held[text_of(value)] = facts.Get(summary, [key])
    elif type(summary) is not facts.Unknown and target.type == "array_pattern":
        element = literal_element(summary) or facts.Get(summary, [facts.ELEMENT])
        for child in target.named_children:
            if child.type == "identifier":
                held[text_of(child)] = element
    for name in w.pattern_names(target):
        w.bind(name, held.get(name, UNKNOWN))


def assignment(w: Walk, node: Node) -> bool:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None:
        return True
    ref = ref_of(left) if left.type != "identifier" else None
    if left.type == "identifier":
        w.visit(right)
        w.reassign(text_of(left), summarise(right, w.qual_of))
    elif ref and ref[0] in ("module", "exports") and w.scope().kind == ScopeKind.MODULE:
        _commonjs(w, ref, right)
    elif ref and ref[0] != "this" and "()" not in ref and unwrap(right).type in FUNCTIONS:
        member_write(w, left)
        owner = _prototype_of(w, ref[:-1])
        holder = _holder(ref[:-1]) if owner is None and "prototype" not in ref else None
        qual = function(w, unwrap(right), ".".join(ref), this=owner, holder=holder)
        if len(ref) == 2:
            _created_field(w, ref, right, facts.Fn(qual))
        if holder is not None and len(holder) == 1 and w.module_name(holder[0]):
            w.table_methods[qual] = holder[0]  # its `this.key = ...` writes that table
        if owner is not None:
            w.add_proto(owner, ref[-1], qual)
        _static(w, ref, facts.Fn(qual))
    elif (owner := _computed_prototype(w, left)) is not None and unwrap(right).type in FUNCTIONS:
        w.visit(left)
        w.add_proto(owner, None, function(w, unwrap(right), None, this=owner))
    elif (table := _given_key_table(w, left)) is not None and unwrap(right).type in FUNCTIONS:
        member_write(w, left)
        w.visit(left)
        qual = function(w, unwrap(right), None, holder=[table])
        w.statics.append((table, facts.GIVEN_KEY, facts.Fn(qual)))
    elif ref and len(ref) == 2 and ref[1] == "prototype" and w.module_name(ref[0]):
        _prototype_replaced(w, ref[0], right)
    else:
        w.visit(right)  # first: functions in it are named before it is summarised
        if ref is not None and len(ref) == 2 and ref[0] == "this":
            _field(w, ref[1], right)
        elif ref is not None and len(ref) == 2 and not _created_field(w, ref, right):
            _local_function_field(w, ref[0], ref[1], right)
        _element_store(w, left, right)
        if ref is not None:
            _static(w, ref, summarise(right, w.qual_of))
        member_write(w, left)
        w.visit(left)
    return True


def _element_store(w: Walk, left: Node, right: Node) -> None:
    """``xs[i] = value``: an element of whatever array ``xs`` is."""
    left = unwrap(left)
    index = left.child_by_field_name("index") if left.type == "subscript_expression" else None
    holder = left.child_by_field_name("object") if index is not None else None
    ref = ref_of(holder) if holder is not None else None
    if index is not None and ref is not None and string_value(index) is None:
        w.stores.append((w.current, facts.Ref(ref), [summarise(right, w.qual_of)]))


def _prototype_replaced(w: Walk, owner: str, right: Node) -> None:
    """``F.prototype = {...}`` or ``= Object.create(B.prototype)``: what ``F``'s instances find
    that ``F.prototype.m = ...`` does not give them (``values/evaluate.py``)."""
    inner = unwrap(right)
    if inner.type == "object":
        name_prototype_literal(w, inner, owner)
    w.visit(right)
    held = summarise(inner, w.qual_of)
    if isinstance(held, facts.Call) and held.ref == ["Object", "create"] and held.args:
        held = held.args[0]
    w.mixins.append((w.current, owner, [held]))


def name_prototype_literal(w: Walk, literal: Node, owner: str) -> None:
    """The functions of an object literal that becomes ``owner``'s prototype (or is copied onto
    it): named ``owner.prototype.key``, with an instance of ``owner`` as ``this``."""
    for child in literal.named_children:
        fn: Node | None = child
        if child.type == "method_definition":
            key = key_of(child.child_by_field_name("name"))
        elif child.type == "pair":
            key, fn = key_of(child.child_by_field_name("key")), child.child_by_field_name("value")
        else:
            continue
        if key is None or fn is None:
            continue
        fn = unwrap(fn)
        if fn.type not in FUNCTIONS and fn.type != "method_definition":
            continue
        w.pending_names[fn.id] = f"{owner}.prototype.{key}"
        if fn.type != "arrow_function":
            w.pending_this[fn.id] = owner


def _static(w: Walk, ref: list[str], held: facts.Expr) -> None:
    """``X.key = value`` at module level, ``X`` a module-level name: what ``X.key`` may hold
    (a function's or an object's member; ``values/tables.py`` counts the other writes)."""
    if (
        len(ref) == 2
        and ref[1] != "prototype"
        and w.scope().kind == ScopeKind.MODULE
        and ref[0] not in ("this", "super", "module", "exports")
        and w.module_name(ref[0])
    ):
        w.statics.append((ref[0], ref[1], held))


def _field(w: Walk, key: str, right: Node) -> None:
    """``this.key = value``: what instances of the class ``this`` is (or of the named function
    the assignment is in, which ``new`` may construct) hold in ``key``."""
    owner = w.this_class()
    if owner is None:
        scope = w.scope()
        if scope.kind != ScopeKind.FUNCTION or not scope.qual or "<" in scope.qual:
            return
        owner = scope.qual
    held = summarise(right, w.qual_of)
    if isinstance(held, facts.ArrayLit):  # this.stack = []: the field's array
        held = facts.ArrayLit(held.items, f"{owner}:{key}", held.kind)
    w.fields.append((w.current, owner, key, held))


def _created_field(w: Walk, ref: list[str], right: Node, held: facts.Expr | None = None) -> bool:
    """``x.key = value`` in the function that made ``x`` by ``Object.create``: an own member
    of ``x`` (``held``: the function ``value`` was named, else its summary). Returns whether
    ``x`` is such an object."""
    scope = w.binding_scope()
    made = w.bindings[scope].get(ref[0]) if scope > 0 else None
    if type(made) is not facts.Created:
        return False
    value = held if held is not None else summarise(right, w.qual_of)
    w.fields.append((w.current, made.owner, ref[1], value))
    return True


def _local_function_field(w: Walk, name: str, key: str, right: Node) -> None:
    """``router.stack = []`` on a function declared in the function the walk is in: a field
    of that function (which a constructor may return in place of its instance)."""
    scope = w.binding_scope()
    held = w.bindings[scope].get(name) if scope > 0 else None
    if not isinstance(held, facts.Fn):
        return
    value = summarise(right, w.qual_of)
    if isinstance(value, facts.ArrayLit):
        value = facts.ArrayLit(value.items, f"{held.qual}:{key}", value.kind)
    w.fields.append((w.current, held.qual + facts.OWN, key, value))


def _prototype_of(w: Walk, ref: list[str]) -> str | None:
    """``F`` when ``ref`` is ``F.prototype`` and ``F`` a module-level name."""
    if len(ref) == 2 and ref[1] == "prototype" and w.module_name(ref[0]):
        return ref[0]
    return None


def _computed_prototype(w: Walk, left: Node) -> str | None:
    """``F`` when ``left`` is ``F.prototype[key]`` with a key known only at run time."""
    left = unwrap(left)
    if left.type != "subscript_expression":
        return None
    holder = left.child_by_field_name("object")
    ref = ref_of(holder) if holder is not None else None
    return _prototype_of(w, ref) if ref is not None and ref_of(left) is None else None


def member_write(w: Walk, target: Node) -> None:
    """``table.key = ...``, ``table[k] = ...``, ``delete table.key``: that member of whatever
    ``table`` is changes (``this`` in a class is the class's own business; in a method of a
    table, the table's)."""
    target = unwrap(target)
    if target.type not in ("member_expression", "subscript_expression"):
        return
    holder = target.child_by_field_name("object")
    ref = ref_of(holder) if holder is not None else None
    if target.type == "member_expression":
        key = key_of(target.child_by_field_name("property"))
    else:
        index = target.child_by_field_name("index")
        key = string_value(index) if index is not None else None
        if index is not None and index.type == "identifier" and _given(w, text_of(index)):
            key = facts.GIVEN_KEY  # methods.forEach((m) => { app[m] = ... }): one of a list
        elif index is not None and key is None:
            key = _symbol(w, index)
    if ref == ["this"]:  # in a table's own method, `this` is the table it is called on
        table = w.table_methods.get(w.scope(w.named_scope(w.current)).qual)
        if table is not None and w.this_class() is None:
            w.add_write(facts.ObjectLit({}, table), key)
        return
    if ref is None or ref[0] in ("this", "super"):
        return
    w.add_write(facts.Ref(ref), key)


def _symbol(w: Walk, index: Node) -> str | None:
    """``t[Symbol.iterator]``, ``t[util.inspect.custom]``, ``t[KEY]`` with a module-level
    ``const KEY = Symbol(...)``: a key no member written by name shares (``[KEY]``)."""
    text = text_of(index)
    if index.type == "member_expression" and text in SYMBOLS:
        return f"[{text}]"
    held = w.bindings[0].get(text) if index.type == "identifier" else None
    return f"[{text}]" if type(held) is facts.Call and held.ref == ["Symbol"] else None


def _given_key_table(w: Walk, left: Node) -> str | None:
    """``app`` of ``app[method] = function`` in a function given ``method`` (members made from
    a list of names, ``methods.forEach``), ``app`` a module-level name."""
    left = unwrap(left)
    index = left.child_by_field_name("index") if left.type == "subscript_expression" else None
    holder = left.child_by_field_name("object") if index is not None else None
    if index is None or holder is None or holder.type != "identifier":
        return None
    name = text_of(holder)
    if name in _NOT_HOLDERS or not w.module_name(name) or index.type != "identifier":
        return None
    return name if _given(w, text_of(index)) else None


def _given(w: Walk, name: str) -> bool:
    """Whether ``name`` is a parameter of the function the code is in."""
    return type(w.bindings[w.binding_scope()].get(name)) is facts.Param


def _commonjs(w: Walk, ref: list[str], right: Node) -> None:
    path = ref[1:] if ref[0] == "module" else ["exports", *ref[1:]]
    if path == ["exports"]:  # module.exports = ...
        inner = unwrap(right)
        if inner.type == "object":
            _object(w, inner, "exports", facts.MODULE_EXPORTS)  # `this` in its methods: the literal
            summary = summarise(inner, w.qual_of, name="exports")
            assert isinstance(summary, facts.ObjectLit)
            w.exports.update(summary.fields)
            w.exports["="] = summary
            return
        own = inner.child_by_field_name("name") if inner.type in FUNCTIONS else None
        w.exports["="] = value(w, right, text_of(own) if own else "exports")
    elif len(path) == 2 and path[0] == "exports":
        w.exports[path[1]] = value(w, right, "exports." + path[1])
    else:
        w.visit(right)
