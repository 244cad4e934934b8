"""One TypeScript or JavaScript file to facts, with tree-sitter: no other file is looked at.

interface (what other files may consult)
    ``names``    module-level bindings: name -> summary (``summary.py``), or ``["import", spec,
                 name]`` / ``["ns", spec]`` for imports, ``["param", annotation ref]``
    ``exports``  exported name -> ``["local", name]``, ``["from", spec, name]``, ``["ns", spec]``
                 or a summary (``export default {...}``, ``module.exports = ...``; ``"="`` is the
                 CommonJS ``module.exports`` / TypeScript ``export =`` value)
    ``stars``    specifiers of ``export * from``
    ``classes``  qualname -> ``{"bases": [summary], "methods": [name]}``
body (what only this file's resolution needs)
    ``scopes``   [qualname, kind, parent, line, end_line, def line, class of ``this``]; 0 is the
                 module; kinds module, class, function, method, anon (an anonymous function: not
                 a node, its calls belong to the scope around it)
    ``bind``     scope index (as a string) -> that function's bindings, as ``names``
    ``imports``  [kind, spec, scope, line, col, end_line, end_col, type only]; kinds import,
                 export, require, dynamic, reference
    ``calls``    [scope, callee summary, how, line, col, end_line, end_col, args or null];
                 how: "c" a call, "n" a ``new``, "d" a bare decorator
    ``lines``    line number (as a string) -> the line as written
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import FileFacts, Unparsable
from groundkit.codemap.extract.typescript.imports import ModuleSyntax
from groundkit.codemap.extract.typescript.summary import (
    FUNCTIONS,
    UNKNOWN,
    args_of,
    ref_of,
    string_value,
    unwrap,
)
from groundkit.codemap.extract.typescript.syntax import dialect, parser, text_of
from groundkit.codemap.lines import source_lines

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["parse_typescript"]

_REFERENCE = re.compile(r"^///\s*<reference\s+path\s*=\s*[\"']([^\"']+)[\"']")
_BREAKS = re.compile(r"\r\n?")
_HTTP_VERBS = frozenset("get post put patch delete del head options all".split())
# Calls whose arguments are kept: route registrations, mounts, HTTP clients.
_KEEP_ARGS = _HTTP_VERBS | frozenset(
    "route use register request create extend mount fetch axios ky".split()
)
_LITERAL_HOLDERS = frozenset(
    {"array", "string", "template_string", "number", "object", "regex", "true", "false"}
)
_INLINE = frozenset({"arrow_function", "function_expression", "function"})


def parse_typescript(path: str, text: str) -> FileFacts:
    # tree-sitter counts rows at "\n" only; the map's lines also break at "\r" (lines.py).
    text = _BREAKS.sub("\n", text)
    data = text.encode("utf-8")
    tree = parser(dialect(path)).parse(data)
    root = tree.root_node
    if root.has_error and _error_share(root) > 0.2:
        line = _first_error(root)
        raise Unparsable(f"syntax error at line {line}")
    visitor = _Visitor(source_lines(text))
    try:
        visitor.run(root)
    except RecursionError:
        raise Unparsable("nested too deeply to analyse") from None
    return visitor.facts()


def _error_share(root: Node) -> float:
    """The share of the file's top-level statements tree-sitter could not read: a file with
    one odd statement is still mapped (tree-sitter recovers), a file that is not code is not."""
    children = root.children or []
    bad = sum(1 for c in children if c.type == "ERROR" or c.is_missing)
    return bad / max(1, len(children))


def _first_error(root: Node) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return int(node.start_point[0]) + 1
        stack.extend(reversed(node.children))
    return 1


class _Visitor(ModuleSyntax):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)

    def run(self, root: Node) -> None:
        for child in root.children:
            if child.type == "comment":
                self._reference(child)
        self.visit(root)
        self.finish()

    # -- the walk ---------------------------------------------------------------------------------
    def visit(self, node: Node) -> None:
        stack: list[Node] = [node]
        while stack:
            current = stack.pop()
            handled = self._handle(current)
            if not handled:
                stack.extend(reversed(current.named_children))

    def _handle(self, node: Node) -> bool:
        """Visit ``node`` if it is a construct of interest; False to walk its children."""
        kind = node.type
        if kind in ("import_statement",):
            self.import_statement(node)
            return True
        if kind == "export_statement":
            self.export_statement(node)
            return True
        if kind in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
            self.function(node, text_of(name), bind=True)
            return True
        if kind in ("class_declaration", "abstract_class_declaration"):
            name = node.child_by_field_name("name")
            self.klass(node, text_of(name), bind=True)
            return True
        if kind in FUNCTIONS or kind == "method_definition":
            self.function(node, None)
            return True
        if kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    self.declarator(declarator)
            return True
        if kind == "assignment_expression":
            self.assignment(node)
            return True
        if kind in ("call_expression", "new_expression"):
            self.call(node)
            return True
        if kind == "decorator":
            self.decorator(node)
            return True
        if kind in ("enum_declaration", "internal_module", "module"):
            ident = node.child_by_field_name("name")
            if ident is not None and ident.type == "identifier":
                self.bind(text_of(ident), ["lit"])
            return False
        if kind in ("for_in_statement", "catch_clause"):
            target = node.child_by_field_name("left") or node.child_by_field_name("parameter")
            for bound in self.pattern_names(target):
                self.bind(bound, UNKNOWN)
            return False
        return kind in ("interface_declaration", "type_alias_declaration", "comment")

    # -- calls ------------------------------------------------------------------------------------
    def call(self, node: Node) -> None:
        is_new = node.type == "new_expression"
        callee = node.child_by_field_name("constructor" if is_new else "function")
        arguments = node.child_by_field_name("arguments")
        if callee is None:
            return
        if callee.type == "import":  # import("./x"): an import, not a call
            self.visit_children(arguments)
            spec = _first_string(arguments)
            if spec is not None:
                self.add_import("dynamic", spec, node, False)
            return
        ref = ref_of(callee)
        if ref == ["require"] and not self.is_bound("require"):
            spec = _first_string(arguments)
            if spec is not None:
                self.add_import("require", spec, node, False)
                return
        self.name_handlers(ref, arguments)
        self.visit_children(arguments)
        if ref is None:
            self.visit(callee)
        elif "()" in ref or "new" in ref:
            self._visit_inner_calls(callee)
        summary: list[Any] = ["r", ref] if ref is not None else _literal_method(callee)
        keep = ref is not None and (len(ref) == 1 or ref[-1] in _KEEP_ARGS)
        args = args_of(node, self.qual_of) if keep else None
        self.add_call(summary, "n" if is_new else "c", node, args)

    def _visit_inner_calls(self, callee: Node) -> None:
        """``a.b().c()``: the inner call ``a.b()`` is a call of its own."""
        node = callee
        while node.type in ("member_expression", "subscript_expression"):
            inner = node.child_by_field_name("object")
            if inner is None:
                return
            node = inner
        self.visit(node)

    def name_handlers(self, ref: list[str] | None, arguments: Node | None) -> None:
        """``app.get("/items/:id", (req, res) => ...)``: an inline route handler is a function
        node named after its route (``<get /items/:id>``), so a route has something to handle it."""
        if ref is None or len(ref) < 2 or arguments is None:
            return
        items = [a for a in arguments.named_children if a.type != "comment"]
        if ref[-1] == "register" and items and items[0].type in _INLINE:
            self.pending_names[items[0].id] = "<plugin>"  # fastify.register(async (f) => ...)
            return
        if ref[-1] not in _HTTP_VERBS:
            return
        path = string_value(items[0]) if items else None
        if path is None:
            return
        for item in items[1:]:
            if item.type in _INLINE:
                self.pending_names[item.id] = f"<{ref[-1]} {path}>"

    def decorator(self, node: Node) -> None:
        inner = node.named_children[0] if node.named_children else None
        if inner is None:
            return
        if inner.type == "call_expression":
            self.visit(inner)
            return
        ref = ref_of(inner)
        if ref is not None:
            self.add_call(["r", ref], "d", node, None)

    def _reference(self, comment: Node) -> None:
        found = _REFERENCE.match(text_of(comment))
        if found:
            self.add_import("reference", found.group(1), comment, False)


def _literal_method(callee: Node) -> list[Any]:
    """``[1, 2].map(f)``, ``"a,b".split(",")``: the runtime's method on a literal, not unknown."""
    callee = unwrap(callee)
    holder = callee.child_by_field_name("object") if callee.type == "member_expression" else None
    if holder is not None and unwrap(holder).type in _LITERAL_HOLDERS:
        return ["lit"]
    return UNKNOWN


def _first_string(arguments: Node | None) -> str | None:
    if arguments is None:
        return None
    items = [a for a in arguments.named_children if a.type != "comment"]
    return string_value(items[0]) if items else None
