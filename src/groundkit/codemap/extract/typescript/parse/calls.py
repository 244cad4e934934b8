"""Call sites: calls, ``new``, decorators, ``require()`` and ``import()``; the names inline route
handlers get; the calls and operators that change an object's members."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.library import (
    ELEMENT_CALLBACKS,
    ELEMENT_STORES,
    MEMBER_COPIERS,
    TEST_BLOCKS,
    TEST_CONTEXT,
    may_call_back,
)
from groundkit.codemap.extract.typescript.parse import env, facts
from groundkit.codemap.extract.typescript.parse.delegates import note_delegation
from groundkit.codemap.extract.typescript.parse.expressions import (
    UNKNOWN,
    args_of,
    key_of,
    literal_element,
    ref_of,
    string_value,
    summarise,
    unwrap,
)
from groundkit.codemap.extract.typescript.parse.facts import How, ImportKind
from groundkit.codemap.extract.typescript.parse.state import Walk
from groundkit.codemap.extract.typescript.parse.variables import (
    member_write,
    name_prototype_literal,
)
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["call", "decorator", "delete", "reference_comment", "update"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_REFERENCE = re.compile(r"^///\s*<reference\s+path\s*=\s*[\"']([^\"']+)[\"']")
_HTTP_VERBS = frozenset("get post put patch delete del head options all".split())
# Calls whose arguments are kept: route registrations, mounts, HTTP clients, SQL text.
_KEEP_ARGS = _HTTP_VERBS | frozenset(
    "route use register request create extend mount fetch axios ky define".split()
    + "query execute run prepare exec raw unsafe $queryRaw $executeRaw".split()
    + "$queryRawUnsafe $executeRawUnsafe".split()
    + "emit dispatchEvent".split()  # the event they name runs its listeners
)
_LITERAL_HOLDERS = frozenset(
    {"array", "string", "template_string", "number", "object", "regex", "true", "false"}
)
_CHAIN_PARTS = frozenset(
    {"member_expression", "call_expression", "parenthesized_expression", "arguments"}
)
_INLINE = frozenset({"arrow_function", "function_expression", "function"})
_SUITES = frozenset({"describe", "context", "suite"})
# Calls that change the members of their first argument.
_MUTATORS = frozenset(
    {
        ("Object", "assign"),
        ("Object", "defineProperty"),
        ("Object", "defineProperties"),
        ("Object", "setPrototypeOf"),
        ("Reflect", "set"),
        ("Reflect", "defineProperty"),
        ("Reflect", "deleteProperty"),
    }
)


def call(w: Walk, node: Node) -> bool:
    is_new = node.type == "new_expression"
    callee = node.child_by_field_name("constructor" if is_new else "function")
    arguments = node.child_by_field_name("arguments")
    if callee is None:
        return True
    if callee.type == "import":  # import("./x"): an import, not a call
        w.visit_children(arguments)
        spec = _first_string(arguments)
        if spec is not None:
            w.add_import(ImportKind.DYNAMIC, spec, node, False)
        return True
    ref = ref_of(callee)
    if ref == ["require"] and not w.is_bound("require"):
        spec = _first_string(arguments)
        if spec is not None:
            w.add_import(ImportKind.REQUIRE, spec, node, False)
            return True
    _name_handlers(w, ref, arguments)
    if not is_new and ref is not None and "()" in ref:
        note_delegation(w, node)  # delegate(proto, "response").method("redirect")...
    mixed = _mixin_target(w, ref, arguments)
    _test_context(w, ref, arguments)
    w.visit_children(arguments)
    if ref is None:
        w.visit(callee)
    elif "()" in ref or "new" in ref or ref[0].startswith("require:"):
        _visit_inner_calls(w, callee)  # require("./m").f(): the require is an import too
    elif ref[0] == "process":
        env.note_head(w, callee)
    args = args_of(node, w.qual_of)
    if mixed is not None:  # Object.assign(C.prototype, {...}, mixin): C's instances have them
        w.mixins.append((w.current, mixed, args[1:]))
    mutator = ref is not None and len(ref) == 2 and tuple(ref) in _MUTATORS  # (all are two)
    if ref is not None and mutator and args and isinstance(args[0], facts.Ref):
        if ref[1] != "setPrototypeOf":
            w.add_write(args[0], _defined(w, ref, args, node))
        elif len(args) == 2:  # a new prototype: what the object owns stays as it was
            w.add_write(args[0], "__proto__")
            _prototype_set(w, args[0], args[1])
    _getter_helper_call(w, ref, args)
    _elements(w, ref, args, arguments, callee)
    _settled(w, ref, args, callee)
    _copied_onto_function(w, ref, args)
    callee_expr: facts.Expr = facts.Ref(ref) if ref is not None else _unnamed(w, callee)
    if ref is not None and "()" in ref[:-1] and ref[-1] in ELEMENT_CALLBACKS:
        callee_expr = _chained(w, callee, ref)
    keep = type(callee_expr) is facts.Get or (
        ref is not None and (len(ref) == 1 or ref[-1] in _KEEP_ARGS or may_call_back(ref))
    )
    keep = keep or any(_url_like(a) for a in args)
    chain = _bound_to(node) if keep and ref is not None and "()" in ref else ""
    how = How.NEW if is_new else How.CALL
    key = _computed_key(w, callee) if type(callee_expr) is facts.Get else None
    w.add_call(callee_expr, how, node, args if keep else None, args, chain, key)
    return True


def _url_like(arg: facts.Expr) -> bool:
    """An argument a call through a frontend's wrapper hands on: a path
    (`` `/lists/${id}` ``) or a client's method as a value (``axios.put``)."""
    if type(arg) is facts.Ref:
        return len(arg.parts) > 1 and arg.parts[-1] in _HTTP_VERBS
    if type(arg) is facts.Str:
        return arg.text[:1] == "/"
    return type(arg) is facts.Template and any(type(p) is str and "/" in p for p in arg.parts)


def _elements(
    w: Walk, ref: list[str] | None, args: list[facts.Expr], arguments: Node | None, callee: Node
) -> None:
    """``xs.push(a)`` stores an element into ``xs``; ``xs.forEach(f)`` hands ``f`` each element
    (a pass site of its own: ``f(xs[i])``), as ``xs.map(f).forEach(g)`` hands ``g`` what ``f``
    returns; ``Array.from(xs)`` iterates ``xs``."""
    if ref == ["Array", "from"] and arguments is not None and not w.is_bound("Array"):
        nodes = [a for a in arguments.named_children if a.type != "comment"]
        first = summarise(nodes[0], w.qual_of) if nodes else None
        if isinstance(first, facts.Ref | facts.Get) and nodes[0].type != "call_expression":
            w.iterations.append(facts.IterSite(w.current, first, *w.where(nodes[0])))
        return
    if ref is None:
        _literal_elements(w, callee, args)
        return
    if len(ref) < 2 or ref[-1] == "()":
        return
    start = ELEMENT_STORES.get(ref[-1])
    positions = ELEMENT_CALLBACKS.get(ref[-1])
    if start is None and positions is None:
        return  # (most calls: the receiver, a whole chain in a test, is not summarised)
    array: facts.Expr = facts.Ref(ref[:-1])
    holder = unwrap(callee).child_by_field_name("object") if "()" in ref[:-1] else None
    if holder is not None:  # a chain: the array the call before made
        array = summarise(holder, w.qual_of)
    if start is not None and len(args) > start:
        items: list[facts.Expr] = [UNKNOWN if type(a) is facts.Spread else a for a in args[start:]]
        w.stores.append((w.current, array, items))
    if positions is not None and args and not isinstance(args[0], facts.Spread):
        element = facts.Get(array, [facts.ELEMENT])
        given: list[facts.Expr] = [UNKNOWN] * (max(positions) + 1)
        for position in positions:
            given[position] = element
        w.passes.append((w.current, args[0], How.CALL, given))


def _settled(w: Walk, ref: list[str] | None, args: list[facts.Expr], callee: Node) -> None:
    """``load().then(f)``: ``f`` is handed what ``await load()`` gives (a pass site of its own,
    ``f(await load())``: an ``async`` function's call, what it returns; a value of the runtime
    or a package, unknown). ``catch`` and ``then``'s second are handed an error: nothing."""
    if ref is None or len(ref) < 3 or ref[-1] != "then" or ref[-2] != "()" or not args:
        return
    if type(args[0]) is facts.Spread:
        return
    holder = unwrap(callee).child_by_field_name("object")
    settled = summarise(holder, w.qual_of) if holder is not None else UNKNOWN
    if type(settled) is facts.Call:
        w.passes.append((w.current, args[0], How.CALL, [settled]))


def _literal_elements(w: Walk, callee: Node, args: list[facts.Expr]) -> None:
    """``[a, b].forEach(f)``: ``f`` is handed one of the literal's items (a pass site of its
    own, as for a named array)."""
    member = unwrap(callee)
    holder = member.child_by_field_name("object") if member.type == "member_expression" else None
    method = member.child_by_field_name("property") if holder is not None else None
    if holder is None or method is None or unwrap(holder).type != "array":
        return
    positions = ELEMENT_CALLBACKS.get(text_of(method))
    element = literal_element(summarise(holder, w.qual_of))
    if positions is None or element is None or not args or type(args[0]) is facts.Spread:
        return
    given: list[facts.Expr] = [UNKNOWN] * (max(positions) + 1)
    for position in positions:
        given[position] = element
    w.passes.append((w.current, args[0], How.CALL, given))


def _chained(w: Walk, callee: Node, ref: list[str]) -> facts.Expr:
    """``xs.map(f).forEach``: the method of the array the call before made (which the
    value flow knows, ``values/arrays.py``); the reference form drops that call's arguments.
    Any other chain keeps it (``Object.keys(o).reduce``: the runtime's method, certain)."""
    holder = unwrap(callee).child_by_field_name("object")
    base = summarise(holder, w.qual_of) if holder is not None else UNKNOWN
    return facts.Get(base, [ref[-1]]) if type(base) is facts.ArrayCall else facts.Ref(ref)


def _mixin_target(w: Walk, ref: list[str] | None, arguments: Node | None) -> str | None:
    """``F`` of ``Object.assign(F.prototype, ...)``, ``F`` a module-level name; the functions
    of an object literal it copies are named ``F.prototype.key`` and see an ``F`` as ``this``."""
    if ref != ["Object", "assign"] or arguments is None:
        return None
    items = [a for a in arguments.named_children if a.type != "comment"]
    target = ref_of(items[0]) if items else None
    if target is None or len(target) != 2 or target[1] != "prototype":
        return None
    if not w.module_name(target[0]):
        return None
    for item in items[1:]:
        if unwrap(item).type == "object":
            name_prototype_literal(w, unwrap(item), target[0])
    return target[0]


def _computed_key(w: Walk, callee: Node) -> facts.Expr | None:
    """The key of ``holder[key](...)`` when the holder has a name (``app[route.method]``)."""
    callee = unwrap(callee)
    index = callee.child_by_field_name("index") if callee.type == "subscript_expression" else None
    holder = callee.child_by_field_name("object") if index is not None else None
    if index is None or holder is None or ref_of(holder) is None:
        return None
    return summarise(index, w.qual_of)


_THIS = facts.Ref(["this"])


def _defined(w: Walk, ref: list[str], args: list[facts.Expr], node: Node) -> str | None:
    """The key ``Object.defineProperty(X, "key", {...})`` writes (None: any key may change).
    At module level on a module-level ``X``, its ``value`` is what ``X.key`` holds and its
    ``get`` the getter reading ``X.key`` runs (``values/evaluate.py``)."""
    if ref == ["Object", "defineProperty"] and len(args) >= 3:
        _getter_helper(w, args, node)
    if ref != ["Object", "defineProperty"] or len(args) < 3 or not isinstance(args[1], facts.Str):
        return None
    key, target, spec = args[1].text, args[0], args[2]
    owner = target.parts[0] if type(target) is facts.Ref and len(target.parts) == 1 else None
    at_module = w.scope().kind == facts.ScopeKind.MODULE
    if owner is not None and at_module and w.module_name(owner) and type(spec) is facts.ObjectLit:
        if "value" in spec.fields:
            w.statics.append((owner, key, spec.fields["value"]))
        if "get" in spec.fields:
            w.defined_getters.append((owner, key, spec.fields["get"]))
    this = w.bindings[w.binding_scope()].get("this") if target == _THIS else None
    if type(this) is facts.Ref and len(this.parts) == 1 and type(spec) is facts.ObjectLit:
        # on ``this`` in a member's function (``app.init = function () {...}``): its holder's
        # getter, as at module level (Express's lazy ``router``); a ``get`` written inline
        held = spec.fields.get("get")
        if type(held) is facts.Fn and w.module_name(this.parts[0]):
            w.defined_getters.append((this.parts[0], key, held))
    return key


# What a getter-defining helper's parameters are, and its one statement's parent chain
_GETTER_SPEC = frozenset({"get", "configurable", "enumerable"})
_STATEMENT_CHAIN = ("expression_statement", "statement_block", "function_declaration")


def _getter_helper(w: Walk, args: list[facts.Expr], node: Node) -> None:
    """``function defineGetter(obj, name, getter) { Object.defineProperty(obj, name, {get:
    getter}) }``, a module-level function declaration whose body runs this unconditionally:
    noted with the positions of the object, the key and the getter, and which write it is.
    ``walker.py`` reads its module-level calls with a literal key as that defineProperty
    written there, when they are the only uses of its name (``getter_helpers``)."""
    scope = w.scope()
    spec = args[2]
    if scope.kind != facts.ScopeKind.FUNCTION or scope.parent != 0 or "." in scope.qual:
        return
    if type(spec) is not facts.ObjectLit or not set(spec.fields) <= _GETTER_SPEC:
        return
    parent = node.parent
    for kind in _STATEMENT_CHAIN:
        if parent is None or parent.type != kind:
            return
        parent = parent.parent
    positions = []
    for expr in (args[0], args[1], spec.fields.get("get")):
        name = expr.parts[0] if type(expr) is facts.Ref and len(expr.parts) == 1 else None
        held = w.bindings[w.current].get(name) if name is not None else None
        if type(held) is not facts.Param or held.path or (w.current, name) in w.reassigned:
            return
        positions.append(held.position)
    w.getter_helpers[scope.qual] = (positions[0], positions[1], positions[2], len(w.writes))


def _getter_helper_call(w: Walk, ref: list[str] | None, args: list[facts.Expr]) -> None:
    """``defineGetter(req, "host", function host() {...})`` at module level, ``req`` a
    module-level name: maybe a getter-defining helper's call (``_getter_helper``)."""
    if ref is None or len(ref) != 1 or w.scope().kind != facts.ScopeKind.MODULE or len(args) < 3:
        return
    if not any(type(a) is facts.Str for a in args):
        return
    w.helper_calls.append((ref[0], args))


def _prototype_set(w: Walk, target: facts.Ref, proto: facts.Expr) -> None:
    """``Object.setPrototypeOf(router, this)`` in a function that ``new`` constructs (the
    function made is returned in place of the instance): members not found on the function
    are found on the instance. Kept as the function's ``__proto__`` field."""
    owner = w.this_class() or w.scope().qual
    held = w.bindings[w.binding_scope()].get(target.parts[0]) if len(target.parts) == 1 else None
    if proto == facts.Ref(["this"]) and type(held) is facts.Fn and owner and "<" not in owner:
        w.fields.append((w.current, held.qual, "__proto__", facts.This(owner)))
    elif type(held) is facts.Param and not held.path and w.binding_scope() > 0:
        # Object.setPrototypeOf(req, app.request) on a parameter: the object given, whose
        # members it does not own are now the prototype's (what it owns is not known: the
        # prototype's members are reached ``partial``). The whole function reads it so.
        made = facts.Created(proto, f"{w.qualified(target.parts[0])}#proto")
        w.bindings[w.binding_scope()][target.parts[0]] = facts.Choice([made, held])


def _copied_onto_function(w: Walk, ref: list[str] | None, args: list[facts.Expr]) -> None:
    """``Object.assign(app, proto)`` or ``mixin(app, proto)`` (``MEMBER_COPIERS``), ``app`` a
    function bound in this one: a member it does not own is found on the sources, the last
    first (``values/evaluate.py``). Kept as the function's ``__proto__`` field."""
    if ref is None or len(args) < 2 or type(args[0]) is not facts.Ref or len(args[0].parts) > 1:
        return
    if ref == ["Object", "assign"]:
        copier = not w.is_bound("Object")
    else:
        held = _binding(w, ref[0]) if len(ref) == 1 else None
        copier = type(held) is facts.Namespace and held.spec in MEMBER_COPIERS
    if not copier:
        return
    target = _binding(w, args[0].parts[0])
    if type(target) is facts.Fn and "<" not in target.qual:
        sources = args[1:] if ref == ["Object", "assign"] else args[1:2]
        for source in sources:
            if type(source) is not facts.Spread:
                w.fields.append((w.current, target.qual, "__proto__", source))


def _binding(w: Walk, name: str) -> facts.Expr | None:
    index = w.current
    while index >= 0:
        if name in w.bindings[index]:
            return w.bindings[index][name]
        index = w.scopes[index].parent
    return None


def _bound_to(node: Node) -> str:
    """The variable a chain of calls is bound to: ``api`` for ``const api = Router().use(a)``."""
    parent = node.parent  # (read once a step: tree-sitter finds a parent from the root down)
    while parent is not None and parent.type in _CHAIN_PARTS:
        if parent.type == "arguments":
            return ""  # handed to a call: not bound
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        if name is not None and name.type == "identifier" and name.text is not None:
            return name.text.decode("utf-8", "replace")
    return ""


def _visit_inner_calls(w: Walk, callee: Node) -> None:
    """``a.b().c()``: the inner call ``a.b()`` is a call of its own."""
    node = callee
    while node.type in ("member_expression", "subscript_expression"):
        inner = node.child_by_field_name("object")
        if inner is None:
            return
        node = inner
    w.visit(node)


def _test_context(w: Walk, ref: list[str] | None, arguments: Node | None) -> None:
    """``before(function () { this.x = ... })`` and ``it(function () { this.x.go() })``: mocha
    runs a suite's hooks and tests with one context object, whose members the file's hooks and
    tests share (``TEST_CONTEXT``: its fields are the ``this.x = ...`` of those functions)."""
    if ref is None or ref[0] not in TEST_BLOCKS or len(ref) > 2 or w.is_bound(ref[0]):
        return
    if ref[0] in _SUITES:  # a suite's own function runs with the suite as `this`
        return
    for item in arguments.named_children if arguments is not None else []:
        if item.type in ("function_expression", "function"):
            w.pending_this[item.id] = TEST_CONTEXT


def _name_handlers(w: Walk, ref: list[str] | None, arguments: Node | None) -> None:
    """``app.get("/items/:id", (req, res) => ...)``: an inline route handler is a function node
    named after its route (``<get /items/:id>``), so a route has something to handle it."""
    if ref is None or len(ref) < 2 or arguments is None:
        return
    if ref[-1] != "register" and ref[-1] not in _HTTP_VERBS:
        return
    items = [a for a in arguments.named_children if a.type != "comment"]
    if ref[-1] == "register" and items and items[0].type in _INLINE:
        w.pending_names[items[0].id] = "<plugin>"  # fastify.register(async (f) => ...)
        return
    if ref[-1] not in _HTTP_VERBS:
        return
    path = string_value(items[0]) if items else None
    if path is None:
        return
    for item in items[1:]:
        if item.type in _INLINE:
            w.pending_names[item.id] = f"<{ref[-1]} {path}>"


def decorator(w: Walk, node: Node) -> bool:
    inner = node.named_children[0] if node.named_children else None
    if inner is None:
        return True
    if inner.type == "call_expression":
        w.visit(inner)
        return True
    ref = ref_of(inner)
    if ref is not None:
        w.add_call(facts.Ref(ref), How.DECORATOR, node, None)
    return True


def delete(w: Walk, node: Node) -> bool:
    """``delete table.key``: a member removed. The operand is walked as any expression."""
    operator = node.child_by_field_name("operator")
    argument = node.child_by_field_name("argument")
    if operator is not None and text_of(operator) == "delete" and argument is not None:
        member_write(w, argument)
    return False


def update(w: Walk, node: Node) -> bool:
    """``table.key ||= f``, ``count += 1``: an assignment to what the left side names."""
    left = node.child_by_field_name("left")
    if left is not None and left.type == "identifier":
        w.reassign(text_of(left))
    elif left is not None:
        member_write(w, left)
    return False


def reference_comment(w: Walk, comment: Node) -> None:
    found = _REFERENCE.match(text_of(comment))
    if found:
        w.add_import(ImportKind.REFERENCE, found.group(1), comment, False)


def _unnamed(w: Walk, callee: Node) -> facts.Expr:
    """A callee with no name: a function called where it is written (``(() => {...})()``), the
    runtime's method on a literal (``[1, 2].map(f)``, ``"a,b".split(",")``), else unknown."""
    callee = unwrap(callee)
    if callee.type in _INLINE:
        qual = w.qual_of(callee)
        return facts.Fn(qual) if qual is not None else UNKNOWN
    if callee.type == "subscript_expression":
        holder = callee.child_by_field_name("object")
        ref = ref_of(holder) if holder is not None else None
        # app[route.method](...): a member of a named value, picked by a key (``_computed_key``)
        return facts.Get(facts.Ref(ref), [facts.ELEMENT]) if ref is not None else UNKNOWN
    holder = callee.child_by_field_name("object") if callee.type == "member_expression" else None
    held = summarise(callee, w.qual_of) if holder is not None else None
    if type(held) is facts.Get:
        return held  # layers[i].handle(): a member of an element
    if holder is not None and unwrap(holder).type in _LITERAL_HOLDERS:
        method = key_of(callee.child_by_field_name("property"))
        if method is not None and may_call_back(["", method]):
            # [a, b].map(f): f is called back, and given the items (``_literal_elements``)
            base = summarise(holder, w.qual_of) if unwrap(holder).type == "array" else None
            items = base is not None and literal_element(base) is not None
            return facts.Get(base if items and base is not None else facts.Lit(), [method])
        return facts.Lit()
    prop = callee.child_by_field_name("property") if holder is not None else None
    if prop is not None and prop.text is not None:
        name = prop.text.decode("utf-8", "replace")
        if may_call_back(["", name]):
            return facts.Get(UNKNOWN, [name])  # m[4].split(".").map(f): f is called back
        if name in _HTTP_VERBS:
            # (options?.client ?? client).post({url: ...}): a generated client's call, whose
            # receiver has no name; the method is kept for the client call it may be.
            return facts.Get(UNKNOWN, [name])
    return UNKNOWN


def _first_string(arguments: Node | None) -> str | None:
    if arguments is None:
        return None
    items = [a for a in arguments.named_children if a.type != "comment"]
    return string_value(items[0]) if items else None
