"""Declarations: functions, classes, variables, and CommonJS ``module.exports``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.typescript.scopes import Scopes
from groundkit.codemap.extract.typescript.summary import (
    FUNCTIONS,
    UNKNOWN,
    key_of,
    ref_of,
    summarise,
    unwrap,
)
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["CLASSES", "Declarations", "has_token"]

CLASSES = frozenset({"class", "class_declaration", "abstract_class_declaration"})
_PARAMS = frozenset({"required_parameter", "optional_parameter"})


def has_token(node: Node, token: str) -> bool:
    return any(not c.is_named and c.type == token for c in node.children)


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


class Declarations(Scopes):
    # -- functions and classes --------------------------------------------------------------------
    def function(
        self, node: Node, name: str | None, *, bind: bool = False, kind: str | None = None
    ) -> str | None:
        """A function, arrow or method: its scope, parameters and body. Returns its qualname
        (None for an anonymous function, which is not a node)."""
        if node.type in CLASSES:
            return self.klass(node, name, bind=bind)
        if name is None and node.type in ("function_expression", "function"):
            own = node.child_by_field_name("name")  # app.get("/x", function show() {...})
            name = text_of(own) if own is not None else None
        name = name or self.pending_names.get(node.id)
        arrow = node.type == "arrow_function"
        kind = kind or ("function" if name else "anon")
        qual = self.qualify(name, unique=kind != "method") if name else ""
        if bind and name:
            self.bind(name, ["def", qual])
        this = self.this_class() if arrow else None  # an arrow keeps the `this` around it
        if kind == "method":
            this = self.scopes[self.current][0] if self.scopes[self.current][1] == "class" else this
        self.push(qual, kind, node, this)
        self._parameters(node)
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit(body)
        self.pop()
        if name:
            self.remember(node, qual)
            return qual
        return None

    def _parameters(self, node: Node) -> None:
        single = node.child_by_field_name("parameter")
        if single is not None:
            self.bind(text_of(single), ["param", None, 0])
            return
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        position = 0
        for param in params.named_children:
            if param.type in ("comment", "decorator") or text_of(param) == "this":
                continue
            pattern = param.child_by_field_name("pattern") if param.type in _PARAMS else param
            annotation = _annotation(param.child_by_field_name("type"))
            for name in self.pattern_names(pattern):
                self.bind(name, ["param", annotation, position])
            position += 1
            default = param.child_by_field_name("value") or param.child_by_field_name("right")
            if default is not None:
                self.visit(default)

    def klass(self, node: Node, name: str | None, *, bind: bool = False) -> str:
        own = node.child_by_field_name("name")
        name = name or (text_of(own) if own is not None else None) or "<class>"
        qual = self.qualify(name)
        if bind:
            self.bind(name, ["def", qual])
        bases: list[Any] = []
        for child in node.named_children:
            if child.type == "class_heritage":
                bases.extend(self._bases(child))
            elif child.type == "decorator":
                self.visit(child)
        self.push(qual, "class", node, qual)
        methods: list[str] = []
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            methods.extend(self._member(member))
        self.pop()
        self.classes[qual] = {"bases": bases, "methods": sorted(set(methods))}
        self.remember(node, qual)
        return qual

    def _bases(self, heritage: Node) -> list[Any]:
        out = []
        for child in heritage.named_children:
            if child.type == "extends_clause":
                value = child.child_by_field_name("value")
                if value is not None:
                    self.visit(value)
                    out.append(summarise(value, self.qual_of))
            elif child.type != "implements_clause":  # JavaScript: the base expression itself
                self.visit(child)
                out.append(summarise(child, self.qual_of))
        return out

    def _member(self, member: Node) -> list[str]:
        if member.type == "method_definition":
            name = key_of(member.child_by_field_name("name"))
            if name is not None:
                self.function(member, name, kind="method")
                return [name]
            self.visit_children(member)
            return []
        if member.type in ("public_field_definition", "field_definition"):
            name = key_of(
                member.child_by_field_name("name") or member.child_by_field_name("property")
            )
            value = member.child_by_field_name("value")
            if value is not None and unwrap(value).type in FUNCTIONS and name is not None:
                self.function(unwrap(value), name, kind="method")
                return [name]
            for child in member.named_children:
                if child.type == "decorator" or child == value:
                    self.visit(child)
            return []
        if member.type in ("decorator", "class_static_block"):
            self.visit(member)
        return []

    # -- variables and assignments ----------------------------------------------------------------
    def declarator(self, node: Node) -> None:
        target = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if target is None:
            return
        if target.type != "identifier":
            self._destructure(target, value)
            return
        name = text_of(target)
        if value is None:
            self.bind(name, UNKNOWN)
            return
        self.bind(name, self.value(value, name))

    def value(self, value: Node, name: str | None) -> list[Any]:
        """Visit an expression that is bound to ``name``; returns its summary."""
        inner = unwrap(value)
        if inner.type in FUNCTIONS:
            qual = self.function(inner, name)
            return ["def", qual] if qual else ["fn"]
        if inner.type == "object" and name:
            self._object(inner, name)
            return summarise(inner, self.qual_of)
        self.visit(value)
        summary = summarise(value, self.qual_of)
        if summary[0] in ("req", "dyn"):
            return ["ns", summary[1]]
        return summary

    def _object(self, node: Node, prefix: str) -> None:
        """``const api = {get() {}, post: () => 1}``: functions named ``api.get``, ``api.post``."""
        for child in node.named_children:
            if child.type == "method_definition":
                key = key_of(child.child_by_field_name("name"))
                self.function(child, f"{prefix}.{key}" if key else None)
            elif child.type == "pair":
                key = key_of(child.child_by_field_name("key"))
                value = child.child_by_field_name("value")
                if value is not None and key is not None and unwrap(value).type == "object":
                    self._object(unwrap(value), f"{prefix}.{key}")
                elif value is not None and key is not None and unwrap(value).type in FUNCTIONS:
                    self.function(unwrap(value), f"{prefix}.{key}")
                elif value is not None:
                    self.visit(value)
            else:
                self.visit(child)

    def _destructure(self, target: Node, value: Node | None) -> None:
        summary = UNKNOWN
        if value is not None:
            self.visit(value)
            summary = summarise(value, self.qual_of)
        spec = summary[1] if summary[0] in ("req", "dyn") else None
        if spec is None or target.type != "object_pattern":
            for name in self.pattern_names(target):
                self.bind(name, UNKNOWN)
            return
        for child in target.named_children:
            if child.type == "shorthand_property_identifier_pattern":
                self.bind(text_of(child), ["import", spec, text_of(child)])
            elif child.type == "pair_pattern":
                key = key_of(child.child_by_field_name("key"))
                names = self.pattern_names(child.child_by_field_name("value"))
                for name in names:
                    self.bind(name, ["import", spec, key] if key and len(names) == 1 else UNKNOWN)
            else:
                for name in self.pattern_names(child):
                    self.bind(name, UNKNOWN)

    def assignment(self, node: Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        ref = ref_of(left) if left.type != "identifier" else None
        if left.type == "identifier":
            self.reassign(text_of(left))
            self.visit(right)
        elif ref and ref[0] in ("module", "exports") and self.scopes[self.current][1] == "module":
            self._commonjs(ref, right)
        elif ref and ref[0] != "this" and "()" not in ref and unwrap(right).type in FUNCTIONS:
            self.function(unwrap(right), ".".join(ref))  # Foo.prototype.bar = function () {}
        else:
            self.visit(left)
            self.visit(right)

    def _commonjs(self, ref: list[str], right: Node) -> None:
        path = ref[1:] if ref[0] == "module" else ["exports", *ref[1:]]
        if path == ["exports"]:  # module.exports = ...
            inner = unwrap(right)
            if inner.type == "object":
                self._object(inner, "exports")
                summary = summarise(inner, self.qual_of)
                self.exports.update(summary[1])
                self.exports["="] = summary
                return
            own = inner.child_by_field_name("name") if inner.type in FUNCTIONS else None
            self.exports["="] = self.value(right, text_of(own) if own else "exports")
        elif len(path) == 2 and path[0] == "exports":
            self.exports[path[1]] = self.value(right, "exports." + path[1])
        else:
            self.visit(right)
