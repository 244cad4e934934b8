"""Imports and exports: ES modules, TypeScript's ``import x = require()`` and ``export =``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.typescript.declare import CLASSES, Declarations, has_token
from groundkit.codemap.extract.typescript.summary import FUNCTIONS, key_of, string_value, unwrap
from groundkit.codemap.extract.typescript.syntax import text_of

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["ModuleSyntax"]


class ModuleSyntax(Declarations):
    # -- imports and exports ----------------------------------------------------------------------
    def import_statement(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        type_only = has_token(node, "type")
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        require = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if require is not None:
            source = require.child_by_field_name("source")
            spec = string_value(source) if source is not None else None
            name = next((c for c in require.named_children if c.type == "identifier"), None)
            if spec is not None and name is not None:
                self.bind(text_of(name), ["ns", spec])
                self.add_import("import", spec, node, type_only)
            return
        spec = string_value(source) if source is not None else None
        if spec is None:
            return
        names = self._import_clause(clause, spec) if clause is not None else []
        if names and all(names):
            type_only = True  # every name imported is a type: the import vanishes at run time
        self.add_import("import", spec, node, type_only)

    def _import_clause(self, clause: Node, spec: str) -> list[bool]:
        """Binds each name; returns, per name, whether it is imported as a type only."""
        out: list[bool] = []
        for part in clause.named_children:
            if part.type == "identifier":
                self.bind(text_of(part), ["import", spec, "default"])
                out.append(False)
            elif part.type == "namespace_import":
                for ident in part.named_children:
                    self.bind(text_of(ident), ["ns", spec])
                out.append(False)
            elif part.type == "named_imports":
                for item in part.named_children:
                    if item.type != "import_specifier":
                        continue
                    name = key_of(item.child_by_field_name("name")) or ""
                    alias = item.child_by_field_name("alias")
                    self.bind(text_of(alias) if alias else name, ["import", spec, name])
                    out.append(has_token(item, "type"))
        return out

    def export_statement(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        type_only = has_token(node, "type")
        if source is not None:
            spec = string_value(source)
            if spec is not None:
                self._reexport(node, spec)
                self.add_import("export", spec, node, type_only)
            return
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if has_token(node, "default"):
            self._export_default(declaration or value)
        elif declaration is not None:
            self.visit(declaration)
            for name in self._declared(declaration):
                self.exports[name] = ["local", name]
        elif has_token(node, "="):  # TypeScript's `export = x`
            target = next((c for c in node.named_children if c.type != "comment"), None)
            if target is not None:
                self.exports["="] = self._export_value(target)
        for clause in node.named_children:
            if clause.type == "export_clause":
                for item in clause.named_children:
                    local = key_of(item.child_by_field_name("name"))
                    alias = key_of(item.child_by_field_name("alias"))
                    if local is not None:
                        self.exports[alias or local] = ["local", local]

    def _reexport(self, node: Node, spec: str) -> None:
        found_clause = False
        for child in node.named_children:
            if child.type == "namespace_export":
                found_clause = True
                for ident in child.named_children:
                    self.exports[key_of(ident) or text_of(ident)] = ["ns", spec]
            elif child.type == "export_clause":
                found_clause = True
                for item in child.named_children:
                    name = key_of(item.child_by_field_name("name"))
                    alias = key_of(item.child_by_field_name("alias"))
                    if name is not None:
                        self.exports[alias or name] = ["from", spec, name]
        if not found_clause:
            self.stars.append(spec)

    def _export_default(self, target: Node | None) -> None:
        if target is None:
            return
        inner = unwrap(target)
        if inner.type in ("interface_declaration", "type_alias_declaration"):
            return
        if inner.type in FUNCTIONS or inner.type in CLASSES or inner.type.endswith("declaration"):
            own = inner.child_by_field_name("name")
            name = text_of(own) if own is not None else None
            qual = self.function(inner, name or "default", bind=bool(name))
            self.exports["default"] = ["local", name] if name else ["def", qual]
            return
        self.exports["default"] = self._export_value(target)

    def _export_value(self, target: Node) -> list[Any]:
        if unwrap(target).type == "identifier":
            self.visit(target)
            return ["local", text_of(unwrap(target))]
        return self.value(target, "default")

    def _declared(self, declaration: Node) -> list[str]:
        if declaration.type in ("lexical_declaration", "variable_declaration"):
            out = []
            for declarator in declaration.named_children:
                if declarator.type == "variable_declarator":
                    out.extend(self.pattern_names(declarator.child_by_field_name("name")))
            return out
        if declaration.type in ("interface_declaration", "type_alias_declaration"):
            return []
        name = declaration.child_by_field_name("name")
        return [text_of(name)] if name is not None and name.type != "string" else []
