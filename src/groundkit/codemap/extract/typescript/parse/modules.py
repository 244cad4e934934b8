"""Imports and exports: ES modules, TypeScript's ``import x = require()`` and ``export =``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.parse.declarations import CLASSES, function, has_token
from groundkit.codemap.extract.typescript.parse.expressions import (
    FUNCTIONS,
    key_of,
    string_value,
    unwrap,
)
from groundkit.codemap.extract.typescript.parse.facts import ImportKind
from groundkit.codemap.extract.typescript.parse.state import Walk
from groundkit.codemap.extract.typescript.parse.variables import value
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["export_statement", "import_statement"]


def import_statement(w: Walk, node: Node) -> bool:
    source = node.child_by_field_name("source")
    type_only = has_token(node, "type")
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    require = next((c for c in node.named_children if c.type == "import_require_clause"), None)
    if require is not None:
        source = require.child_by_field_name("source")
        spec = string_value(source) if source is not None else None
        name = next((c for c in require.named_children if c.type == "identifier"), None)
        if spec is not None and name is not None:
            w.bind(text_of(name), facts.Namespace(spec))
            w.add_import(ImportKind.IMPORT, spec, node, type_only)
        return True
    spec = string_value(source) if source is not None else None
    if spec is None:
        return True
    names = _import_clause(w, clause, spec) if clause is not None else []
    if names and all(names):
        type_only = True  # every name imported is a type: the import vanishes at run time
    w.add_import(ImportKind.IMPORT, spec, node, type_only)
    return True


def _import_clause(w: Walk, clause: Node, spec: str) -> list[bool]:
    """Binds each name; returns, per name, whether it is imported as a type only."""
    out: list[bool] = []
    for part in clause.named_children:
        if part.type == "identifier":
            w.bind(text_of(part), facts.Import(spec, "default"))
            out.append(False)
        elif part.type == "namespace_import":
            for ident in part.named_children:
                w.bind(text_of(ident), facts.Namespace(spec))
            out.append(False)
        elif part.type == "named_imports":
            for item in part.named_children:
                if item.type != "import_specifier":
                    continue
                name = key_of(item.child_by_field_name("name")) or ""
                alias = item.child_by_field_name("alias")
                w.bind(text_of(alias) if alias else name, facts.Import(spec, name))
                out.append(has_token(item, "type"))
    return out


def export_statement(w: Walk, node: Node) -> bool:
    source = node.child_by_field_name("source")
    type_only = has_token(node, "type")
    if source is not None:
        spec = string_value(source)
        if spec is not None:
            _reexport(w, node, spec)
            w.add_import(ImportKind.EXPORT, spec, node, type_only)
        return True
    declaration = node.child_by_field_name("declaration")
    exported = node.child_by_field_name("value")
    if has_token(node, "default"):
        _export_default(w, declaration or exported)
    elif declaration is not None:
        w.visit(declaration)
        for name in _declared(w, declaration):
            w.exports[name] = facts.Local(name)
    elif has_token(node, "="):  # TypeScript's `export = x`
        target = next((c for c in node.named_children if c.type != "comment"), None)
        if target is not None:
            w.exports["="] = _export_value(w, target)
    for clause in node.named_children:
        if clause.type == "export_clause":
            for item in clause.named_children:
                local = key_of(item.child_by_field_name("name"))
                alias = key_of(item.child_by_field_name("alias"))
                if local is not None:
                    w.exports[alias or local] = facts.Local(local)
    return True


def _reexport(w: Walk, node: Node, spec: str) -> None:
    found_clause = False
    for child in node.named_children:
        if child.type == "namespace_export":
            found_clause = True
            for ident in child.named_children:
                w.exports[key_of(ident) or text_of(ident)] = facts.Namespace(spec)
        elif child.type == "export_clause":
            found_clause = True
            for item in child.named_children:
                name = key_of(item.child_by_field_name("name"))
                alias = key_of(item.child_by_field_name("alias"))
                if name is not None:
                    w.exports[alias or name] = facts.From(spec, name)
    if not found_clause:
        w.stars.append(spec)


def _export_default(w: Walk, target: Node | None) -> None:
    if target is None:
        return
    inner = unwrap(target)
    if inner.type in ("interface_declaration", "type_alias_declaration"):
        return
    if inner.type in FUNCTIONS or inner.type in CLASSES or inner.type.endswith("declaration"):
        own = inner.child_by_field_name("name")
        name = text_of(own) if own is not None else None
        qual = function(w, inner, name or "default", bind=bool(name))
        w.exports["default"] = facts.Local(name) if name else facts.Fn(qual or "default")
        return
    w.exports["default"] = _export_value(w, target)


def _export_value(w: Walk, target: Node) -> facts.Expr | facts.Local:
    if unwrap(target).type == "identifier":
        w.visit(target)
        return facts.Local(text_of(unwrap(target)))
    return value(w, target, "default")


def _declared(w: Walk, declaration: Node) -> list[str]:
    if declaration.type in ("lexical_declaration", "variable_declaration"):
        out = []
        for declarator in declaration.named_children:
            if declarator.type == "variable_declarator":
                out.extend(w.pattern_names(declarator.child_by_field_name("name")))
        return out
    if declaration.type in ("interface_declaration", "type_alias_declaration"):
        return []
    name = declaration.child_by_field_name("name")
    return [text_of(name)] if name is not None and name.type != "string" else []
