"""The walk of one file: which function handles which node type, and the records at the end."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from groundkit.codemap.extract.base import Clock
from groundkit.codemap.extract.typescript.parse import (
    calls,
    facts,
    jsx,
    members,
    modules,
    variables,
)
from groundkit.codemap.extract.typescript.parse.closure import (
    Closer,
    may_hold_code,
    may_return_code,
)
from groundkit.codemap.extract.typescript.parse.declarations import function, has_token, klass
from groundkit.codemap.extract.typescript.parse.expressions import (
    FUNCTIONS,
    UNKNOWN,
    key_of,
    literal_element,
    summarise,
)
from groundkit.codemap.extract.typescript.parse.state import Handler, Walk
from groundkit.codemap.extract.typescript.parse.urls import built_url, url_return
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["walk"]


def walk(
    root: Node, lines: list[str], clock: Clock | None = None, source: bytes = b""
) -> tuple[facts.Module, facts.Body]:
    """One file's interface and body; ``source``: the bytes tree-sitter parsed."""
    w = Walk(lines, HANDLERS, clock, source)
    for child in root.children:
        if child.type == "comment":
            calls.reference_comment(w, child)
    w.visit(root)
    w.settle()
    return _interface(w), _body(w)


def _function_declaration(w: Walk, node: Node) -> bool:
    function(w, node, text_of(node.child_by_field_name("name")), bind=True)
    return True


def _class_declaration(w: Walk, node: Node) -> bool:
    klass(w, node, text_of(node.child_by_field_name("name")), bind=True)
    return True


def _function(w: Walk, node: Node) -> bool:
    function(w, node, None)
    return True


def _declaration(w: Walk, node: Node) -> bool:
    for declarator in node.named_children:
        if declarator.type == "variable_declarator":
            variables.declarator(w, declarator)
    return True


def _namespace(w: Walk, node: Node) -> bool:
    ident = node.child_by_field_name("name")
    if ident is not None and ident.type == "identifier":
        w.bind(text_of(ident), facts.Lit())
    return False


def _iterated(w: Walk, node: Node) -> bool:
    """``[...value]``, ``f(...value)``: ``value`` is iterated (a call's own edge is its call)."""
    inner = node.named_children[0] if node.named_children else None
    parent = node.parent.type if node.parent is not None else ""
    if inner is not None and inner.type != "call_expression" and parent in ("array", "arguments"):
        _iteration(w, inner)
    return False


def _iteration(w: Walk, value: Node) -> None:
    summary = summarise(value, w.qual_of)
    if isinstance(summary, facts.Ref | facts.Get):
        w.iterations.append(facts.IterSite(w.current, summary, *w.where(value)))


def _loop_or_catch(w: Walk, node: Node) -> bool:
    target = node.child_by_field_name("left") or node.child_by_field_name("parameter")
    right = node.child_by_field_name("right")
    is_of = node.type == "for_in_statement" and has_token(node, "of")
    declared = node.child_by_field_name("kind") is not None
    if (
        is_of
        and declared
        and right is not None
        and target is not None
        and target.type in ("identifier", "object_pattern", "array_pattern")
    ):
        # for (const x of xs): x is what iterating xs gives (its elements, what it yields);
        # xs walked first, so that a function in it (``xs.map((x) => ...)``) has its name
        w.visit(right)
        held = summarise(right, w.qual_of)
        iterated = literal_element(held) or (
            facts.Get(held, [facts.ITERATED]) if not isinstance(held, facts.Unknown) else UNKNOWN
        )
        _bind_loop_variable(w, target, iterated)
        if right.type != "call_expression":
            _iteration(w, right)
        for child in node.named_children:
            if child.id != right.id:
                w.visit(child)
        return True
    else:
        for bound in w.pattern_names(target):
            w.bind(bound, UNKNOWN)
    if is_of and right is not None and right.type != "call_expression":
        _iteration(w, right)
    return False


def _bind_loop_variable(w: Walk, target: Node, iterated: facts.Expr) -> None:
    """``x`` of ``for (const x of xs)`` is what iterating gives; ``{a, b: c}`` its members,
    ``[k, v]`` its elements (at a position not known); a default or a nested pattern: unknown."""
    if target.type == "identifier":
        w.bind(text_of(target), iterated)
        return
    for child in target.named_children:
        path: list[str] | None = None
        name = child
        if target.type == "array_pattern" and child.type == "identifier":
            path = [facts.ELEMENT]
        elif child.type == "shorthand_property_identifier_pattern":
            path = [text_of(child)]
        elif child.type == "pair_pattern":
            key = key_of(child.child_by_field_name("key"))
            value = child.child_by_field_name("value")
            if key is not None and value is not None and value.type == "identifier":
                path, name = [key], value
        held = _member(iterated, path) if path is not None else UNKNOWN
        for bound in w.pattern_names(name) if path is None else [text_of(name)]:
            w.bind(bound, held)


def _member(iterated: facts.Expr, path: list[str]) -> facts.Expr:
    if isinstance(iterated, facts.Get):
        return facts.Get(iterated.base, [*iterated.attrs, *path])
    return UNKNOWN


def _yield(w: Walk, node: Node) -> bool:
    """``yield x`` (what iterating the generator gives), ``yield* xs`` (what iterating xs does)."""
    value = next((c for c in node.named_children if c.type != "comment"), None)
    if value is not None:
        held = summarise(value, w.qual_of)
        if has_token(node, "*"):
            held = (
                facts.Get(held, [facts.ITERATED])
                if not isinstance(held, facts.Unknown)
                else UNKNOWN
            )
        w.yields.append((w.current, held))
    return False


def _skip(w: Walk, node: Node) -> bool:
    return True


def _return(w: Walk, node: Node) -> bool:
    value = next((c for c in node.named_children if c.type != "comment"), None)
    if value is not None:
        w.visit(value)
        how = url_return(value)
        if how:
            w.url_returns[len(w.returns)] = how
        w.returns.append((w.current, summarise(value, w.qual_of)))
    return True


HANDLERS: dict[str, Handler] = {
    "import_statement": modules.import_statement,
    "export_statement": modules.export_statement,
    "function_declaration": _function_declaration,
    "generator_function_declaration": _function_declaration,
    "class_declaration": _class_declaration,
    "abstract_class_declaration": _class_declaration,
    **dict.fromkeys(FUNCTIONS, _function),
    "method_definition": _function,
    "lexical_declaration": _declaration,
    "variable_declaration": _declaration,
    "assignment_expression": variables.assignment,
    "augmented_assignment_expression": calls.update,
    "unary_expression": calls.delete,
    "member_expression": members.member,
    "call_expression": calls.call,
    "new_expression": calls.call,
    "decorator": calls.decorator,
    "jsx_opening_element": jsx.element,
    "jsx_self_closing_element": jsx.element,
    "enum_declaration": _namespace,
    "internal_module": _namespace,
    "module": _namespace,
    "for_in_statement": _loop_or_catch,
    "catch_clause": _loop_or_catch,
    "interface_declaration": _skip,
    "type_alias_declaration": _skip,
    "comment": _skip,
    "return_statement": _return,
    "spread_element": _iterated,
    "yield_expression": _yield,
}


def _interface(w: Walk) -> facts.Module:
    _inline_getter_helpers(w)
    closer = Closer(w.scopes, w.bindings)
    passes = [
        facts.Pass(closer.close(callee, scope), how, [closer.close(a, scope) for a in args])
        for scope, callee, how, args in w.passes
    ]
    writes = [facts.Write(closer.close(target, scope), key) for scope, target, key in w.writes]
    returns: dict[str, list[facts.Expr]] = {}
    for scope, expr in w.returns:
        qual = w.scopes[scope].qual
        if qual:
            closed = closer.close(expr, scope)
            options = returns.setdefault(qual, [])
            if closed not in options:
                options.append(closed)
    fields: dict[str, dict[str, list[facts.Expr]]] = {}
    for scope, owner, key, expr in w.fields:
        options = fields.setdefault(owner, {}).setdefault(key, [])
        closed = closer.close(expr, scope)
        if closed not in options:
            options.append(closed)
    yields: dict[str, list[facts.Expr]] = {}
    for scope, expr in w.yields:
        qual = w.scopes[scope].qual
        closed = closer.close(expr, scope)
        if qual and closed not in yields.setdefault(qual, []):
            yields[qual].append(closed)
    statics: dict[str, dict[str, list[facts.Expr]]] = {}
    for owner, key, expr in w.statics:
        statics.setdefault(owner, {}).setdefault(key, []).append(closer.close(expr, 0))
    return facts.Module(
        w.bindings[0],
        w.exports,
        w.stars,
        w.classes,
        passes,
        writes,
        w.protos,
        {
            q: o[0] if len(o) == 1 else facts.Choice(o)
            for q, o in returns.items()
            if any(may_return_code(e) for e in o)  # a string or a number: no call through it
        },
        {
            owner: {k: o[0] if len(o) == 1 else facts.Choice(o) for k, o in keys.items()}
            for owner, keys in fields.items()
            if any(may_hold_code(e) for o in keys.values() for e in o)
        },
        {
            owner: {k: o[0] if len(o) == 1 else facts.Choice(o) for k, o in keys.items()}
            for owner, keys in statics.items()
            if any(may_hold_code(e) for o in keys.values() for e in o)
        },
        w.getters,
        w.setters,
        w.static_accessors,
        _defaults(w, closer),
        _arities(w, closer),
        _mixins(w, closer),
        _defined_getters(w, closer),
        w.generators,
        [
            facts.Store(closer.close(t, scope), [closer.close(i, scope) for i in items])
            for scope, t, items in w.stores
        ],
        {q: o[0] if len(o) == 1 else facts.Choice(o) for q, o in yields.items()},
        w.asyncs,
        w.delegated,
        {
            **{q: o[0] for q, o in returns.items() if len(o) == 1 and _a_path(o[0])},
            **_built_urls(w, closer, returns),
        },
    )


def _built_urls(
    w: Walk, closer: Closer, returns: dict[str, list[facts.Expr]]
) -> dict[str, facts.Expr]:
    """The functions whose one return is a URL they built from a path (``parse/urls.py``)."""
    out: dict[str, facts.Expr] = {}
    for index, how in w.url_returns.items():
        scope, expr = w.returns[index]
        qual = w.scopes[scope].qual
        if not qual or len(returns.get(qual, ())) != 1:
            continue
        built = built_url(closer.close(expr, scope), how, closer, scope)
        if built is not None:
            out[qual] = built
    return out


def _a_path(expr: facts.Expr) -> bool:
    """Whether a returned text is a URL path a frontend builds: a template or concatenation
    with a ``/`` in a literal piece (kept for ``web/wrappers.py``; strings are no code, so
    ``returns`` leaves them out)."""
    return type(expr) is facts.Template and any(type(p) is str and "/" in p for p in expr.parts)


def _inline_getter_helpers(w: Walk) -> None:
    """Each module-level call of a getter-defining helper (``calls._getter_helper``) with a
    module-level object and a literal key is that ``Object.defineProperty`` written there: a
    write of that key and its getter. Only when those calls are every use of the helper's name
    (counted in the text: a mention in a comment or a string also keeps the helper as it is)
    and the helper is not exported; then its own write through a parameter is dropped, as each
    call has written it. Otherwise that write changes any member of what it is given."""
    if not w.getter_helpers or not w.source:
        return
    dropped: set[int] = set()
    for name, (obj, key, getter, write) in w.getter_helpers.items():
        if type(w.bindings[0].get(name)) is not facts.Fn or _exported(w, name):
            continue
        calls = [args for callee, args in w.helper_calls if callee == name]
        uses = len(re.findall(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"(?![\w$])", w.source))
        written = [_inlined(w, args, obj, key) for args in calls]
        if not calls or uses != 1 + len(calls) or None in written:
            continue
        dropped.add(write)
        for args, (target, text) in zip(calls, filter(None, written), strict=True):
            w.writes.append((0, target, text))
            if getter < len(args):
                w.defined_getters.append((target.parts[0], text, args[getter]))
                _this_is_the_table(w, args[getter], target)
    w.writes = [write for i, write in enumerate(w.writes) if i not in dropped]


def _this_is_the_table(w: Walk, getter: facts.Expr, table: facts.Ref) -> None:
    """``this`` in a getter written in the call is the table, as in a function written as a
    member of it (``req.header = function () {...}``): found unknown while it was read."""
    if type(getter) is not facts.Fn:
        return
    for index, scope in enumerate(w.scopes):
        if scope.qual == getter.qual and scope.parent == 0:
            if w.bindings[index].get("this") is UNKNOWN:
                w.bindings[index]["this"] = table
            return


def _inlined(w: Walk, args: list[facts.Expr], obj: int, key: int) -> tuple[facts.Ref, str] | None:
    """A helper's call's object, a module-level name, and its key, a literal (else None)."""
    if max(obj, key) >= len(args):
        return None
    target, text = args[obj], args[key]
    if type(text) is not facts.Str or type(target) is not facts.Ref or len(target.parts) != 1:
        return None
    return (target, text.text) if target.parts[0] in w.bindings[0] else None


def _exported(w: Walk, name: str) -> bool:
    return name in w.exports or any(f"'{name}'" in repr(v) for v in w.exports.values())


def _defined_getters(w: Walk, closer: Closer) -> dict[str, dict[str, facts.Expr]]:
    out: dict[str, dict[str, facts.Expr]] = {}
    for owner, key, expr in w.defined_getters:
        out.setdefault(owner, {})[key] = closer.close(expr, 0)
    return out


def _mixins(w: Walk, closer: Closer) -> dict[str, list[facts.Expr]]:
    out: dict[str, list[facts.Expr]] = {}
    for scope, owner, sources in w.mixins:
        out.setdefault(owner, []).extend(closer.close(s, scope) for s in sources)
    return out


def _arities(w: Walk, closer: Closer) -> list[facts.Arity]:
    """The calls that give no code, to a callee that may be ours (a global's are left out)."""
    out = []
    names = w.bindings[0]
    for scope, callee, count in w.arities:
        closed = closer.close(callee, scope)
        if isinstance(closed, facts.Ref) and closed.parts[0] not in names:
            continue  # console.log(1), expect(x): the runtime's
        if not isinstance(closed, facts.Unknown):
            out.append(facts.Arity(closed, count))
    return out


def _defaults(w: Walk, closer: Closer) -> dict[str, dict[int, facts.Expr]]:
    out: dict[str, dict[int, facts.Expr]] = {}
    for scope, position, expr in w.defaults:
        qual = w.scopes[scope].qual
        if qual and may_hold_code(expr):
            out.setdefault(qual, {})[position] = closer.close(expr, scope)
    return out


def _body(w: Walk) -> facts.Body:
    closer = Closer(w.scopes, w.bindings)
    binds = {i: _closed_arrays(closer, b, i) for i, b in enumerate(w.bindings) if i and b}
    return facts.Body(w.scopes, binds, w.imports, w.calls, w.lines, w.envs, w.members, w.iterations)


def _closed_arrays(
    closer: Closer, table: dict[str, facts.Expr], scope: int
) -> dict[str, facts.Expr]:
    """A function's array literals with their items closed: an array is one value wherever it
    is read from (its elements are read from other files too, ``values/arrays.py``)."""
    return {
        name: closer.close(held, scope) if isinstance(held, facts.ArrayLit) and held.name else held
        for name, held in table.items()
    }
