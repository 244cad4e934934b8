"""Functions, arrows, methods and classes: their scopes, parameters and members."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.expressions import (
    FUNCTIONS,
    UNKNOWN,
    key_of,
    summarise,
    unwrap,
)
from groundkit.codemap.extract.typescript.parse.facts import ScopeKind
from groundkit.codemap.extract.typescript.parse.state import Walk
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["CLASSES", "function", "has_token", "klass"]

CLASSES = frozenset({"class", "class_declaration", "abstract_class_declaration"})
_PARAMS = frozenset({"required_parameter", "optional_parameter"})
# Patterns whose default a caller that leaves the parameter out hands it (a rest has none)
_DEFAULTED = frozenset({"identifier", "object_pattern", "array_pattern"})
_GENERATORS = frozenset({"generator_function_declaration", "generator_function"})


def has_token(node: Node, token: str) -> bool:
    return any(not c.is_named and c.type == token for c in node.children)


def function(
    w: Walk,
    node: Node,
    name: str | None,
    *,
    bind: bool = False,
    method: bool = False,
    this: str | None = None,
    holder: list[str] | None = None,
) -> str:
    """A function, arrow or method: its scope, parameters and body. Returns its qualname;
    an anonymous one is a node too, named ``<arrow>`` or ``<function>`` in its owner.
    ``this``: what ``this`` is an instance of in it (``F.prototype.m = function``: ``F``);
    ``holder``: the object it is a member of (``app.set = function``, ``{inc() {}}``), which
    ``this`` is when it is called as that member."""
    if node.type in CLASSES:
        return klass(w, node, name, bind=bind)
    if name is None and node.type in ("function_expression", "function"):
        own = node.child_by_field_name("name")  # app.get("/x", function show() {...})
        name = text_of(own) if own is not None else None
    name = name or w.pending_names.get(node.id)
    bound_name = name
    if not name:
        # Named by its place in the function that owns it: the second arrow there is
        # ``<arrow>#2``, so an edit outside that function leaves its name as it is.
        name = "<arrow>" if node.type == "arrow_function" else "<function>"
    kind = ScopeKind.METHOD if method else ScopeKind.FUNCTION
    qual = w.qualify(name, unique=not method)
    table = w.pending_tables.pop(node.id, None)
    if table is not None and qual:
        w.table_methods[qual] = table
    if bind and bound_name:
        w.bind(bound_name, facts.Fn(qual))
    this = this or w.pending_this.pop(node.id, None)
    if node.type == "arrow_function":
        this = w.this_class()  # arrows keep `this`
    if method and w.scope().kind == ScopeKind.CLASS:
        this = w.scope().qual
    if node.type == "method_definition":
        _accessor(w, node, qual)
    if node.type in _GENERATORS or (node.type == "method_definition" and has_token(node, "*")):
        w.generators.append(qual)
    elif _is_async(node):
        w.asyncs.append(qual)
    w.push(qual, kind, node, this)
    if node.type != "arrow_function":  # arrows see their owner's `this` and `arguments`
        if this is None and w.has_text(node, b"this"):
            # read from around the function (``values/evaluate.py``); a function of no
            # holder hides the ``this`` of one it is written in
            w.bind("this", facts.Ref(holder) if holder else UNKNOWN)
        if w.has_text(node, b"arguments"):
            w.bind("arguments", facts.Param(0, [facts.REST]))
    _parameters(w, node)
    body = node.child_by_field_name("body")
    if body is not None:
        w.visit(body)
        if body.type != "statement_block":  # (x) => x.y: returns its body
            w.returns.append((w.current, summarise(body, w.qual_of)))
    w.pop()
    w.remember(node, qual)
    return qual


def _is_async(node: Node) -> bool:
    """``async function``, ``async () =>`` (the keyword comes first) or an ``async`` method."""
    if node.type == "method_definition":
        return has_token(node, "async")
    first = node.child(0)
    return first is not None and first.type == "async"


def _accessor(w: Walk, node: Node, qual: str) -> None:
    """``get x()`` / ``set x(v)`` (of a class or an object literal): run by reading or writing
    the member, not by calling it."""
    for token, into in (("get", w.getters), ("set", w.setters)):
        if has_token(node, token) and qual not in into:
            into.append(qual)
            if has_token(node, "static"):
                w.static_accessors.append(qual)


def _parameters(w: Walk, node: Node) -> None:
    single = node.child_by_field_name("parameter")
    if single is not None:
        w.bind(text_of(single), facts.Param(0))
        return
    params = node.child_by_field_name("parameters")
    if params is None:
        return
    position = 0
    for param in params.named_children:
        if param.type in ("comment", "decorator") or text_of(param) == "this":
            continue
        pattern = param.child_by_field_name("pattern") if param.type in _PARAMS else param
        if param.type == "assignment_pattern":  # JavaScript's `fn = fallback`
            pattern = param.child_by_field_name("left")
        default = param.child_by_field_name("value") or param.child_by_field_name("right")
        annotation = _annotation(param.child_by_field_name("type"))
        _bind_parameter(w, pattern, position, annotation)
        if default is not None:
            w.visit(default)
            if pattern is not None and pattern.type in _DEFAULTED:
                # what a caller that leaves it out gives (``values/flow.py``); a destructured
                # name reads its member of that as it does of an argument given
                w.defaults.append((w.current, position, summarise(default, w.qual_of)))
        if pattern is not None and pattern.type == "identifier" and _is_property(param):
            # constructor(private repo: Repo): this.repo holds the argument
            owner = w.this_class()
            if owner is not None:
                held = facts.Ref([text_of(pattern)])
                w.fields.append((w.current, owner, text_of(pattern), held))
        position += 1


def _is_property(param: Node) -> bool:
    """A TypeScript parameter property: ``private x``, ``readonly x``, ``public x`` in a
    constructor."""
    return any(c.type in ("accessibility_modifier", "readonly") for c in param.children) or (
        has_token(param, "readonly")
    )


def _bind_parameter(
    w: Walk, pattern: Node | None, position: int, annotation: list[str] | None
) -> None:
    """``fn`` is the argument at ``position``; ``{onDone}`` its ``onDone`` member; ``[head]``
    an element of it (at a position not known); ``...fns`` the arguments from ``position`` on,
    as ``arguments`` is. A nested pattern, or a default inside one, holds something else:
    unknown."""
    if pattern is None:
        return
    if pattern.type == "identifier":
        w.bind(text_of(pattern), facts.Param(position, [], annotation))
        return
    if pattern.type == "rest_pattern":
        held = [c for c in pattern.named_children if c.type == "identifier"]
        for ident in held:
            w.bind(text_of(ident), facts.Param(position, [facts.REST]))
        if held:
            return
    if pattern.type == "array_pattern":
        for child in pattern.named_children:
            if child.type == "identifier":
                w.bind(text_of(child), facts.Param(position, [facts.ELEMENT]))
            else:
                for name in w.pattern_names(child):
                    w.bind(name, UNKNOWN)
                w.visit(child)  # a default value may hold calls
        return
    if pattern.type != "object_pattern":
        for name in w.pattern_names(pattern):
            w.bind(name, UNKNOWN)
        return
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            w.bind(text_of(child), facts.Param(position, [text_of(child)]))
            continue
        value = child.child_by_field_name("value") if child.type == "pair_pattern" else None
        key = key_of(child.child_by_field_name("key")) if value is not None else None
        if value is not None and key is not None and value.type == "identifier":
            w.bind(text_of(value), facts.Param(position, [key]))
        else:
            for name in w.pattern_names(child):
                w.bind(name, UNKNOWN)
            w.visit(child)  # a default value may hold calls


def _annotation(node: Node | None) -> list[str] | None:
    """The class a parameter's type annotation names (``svc: Store``), else None."""
    if node is None:
        return None
    inner = node.named_children[0] if node.type == "type_annotation" else node
    if inner is None:
        return None
    if inner.type == "generic_type":
        inner = inner.child_by_field_name("name") or inner
    if inner.type in ("type_identifier", "nested_type_identifier", "identifier"):
        return text_of(inner).replace(" ", "").split(".")
    return None


def klass(w: Walk, node: Node, name: str | None, *, bind: bool = False) -> str:
    own = node.child_by_field_name("name")
    name = name or (text_of(own) if own is not None else None) or "<class>"
    qual = w.qualify(name)
    if bind:
        w.bind(name, facts.Fn(qual))
    bases: list[facts.Expr] = []
    for child in node.named_children:
        if child.type == "class_heritage":
            bases.extend(_bases(w, child))
        elif child.type == "decorator":
            w.visit(child)
    w.push(qual, ScopeKind.CLASS, node, qual)
    if own is not None and not bind:  # a class expression's own name, seen in its body
        w.bind(text_of(own), facts.Fn(qual))
    methods: list[str] = []
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        methods.extend(_member(w, member))
    w.pop()
    w.classes[qual] = facts.ClassInfo(bases, sorted(set(methods)))
    w.remember(node, qual)
    return qual


def _bases(w: Walk, heritage: Node) -> list[facts.Expr]:
    out = []
    for child in heritage.named_children:
        if child.type == "extends_clause":
            value = child.child_by_field_name("value")
            if value is not None:
                w.visit(value)
                out.append(summarise(value, w.qual_of))
        elif child.type != "implements_clause":  # JavaScript: the base expression itself
            w.visit(child)
            out.append(summarise(child, w.qual_of))
    return out


def _member(w: Walk, member: Node) -> list[str]:
    if member.type == "method_definition":
        name = key_of(member.child_by_field_name("name"))
        if name is not None:
            function(w, member, name, method=True)
            return [name]
        w.visit_children(member)
        return []
    if member.type in ("public_field_definition", "field_definition"):
        name = key_of(member.child_by_field_name("name") or member.child_by_field_name("property"))
        value = member.child_by_field_name("value")
        if value is not None and unwrap(value).type in FUNCTIONS and name is not None:
            function(w, unwrap(value), name, method=True)
            return [name]
        for child in member.named_children:
            if child.type == "decorator" or child == value:
                w.visit(child)
        if value is not None and name is not None and not has_token(member, "static"):
            # ``router = Router()``: what each instance holds in ``this.router``, as if the
            # constructor had assigned it (a field written again anywhere is then a choice)
            held = summarise(value, w.qual_of)
            w.fields.append((w.current, w.scopes[w.current].qual, name, held))
        return []
    if member.type in ("decorator", "class_static_block"):
        w.visit(member)
    return []
