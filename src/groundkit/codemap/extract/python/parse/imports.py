"""``import`` and ``from ... import``: the names they bind and the import facts, flagged when
under ``TYPE_CHECKING`` or in ``try/except ImportError``."""

from __future__ import annotations

import ast

from groundkit.codemap.extract.python.parse.state import ParseState

__all__ = ["Imports"]


class Imports(ParseState):
    """Import statements."""

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._bind(alias.asname, [["mod", alias.name, 0], []])
            else:
                top = alias.name.split(".")[0]
                self._bind(top, [["mod", top, 0], []])
            where = self._where(node)
            self.imports.append(
                [self.scope.index, alias.name, 0, None, alias.asname, *where, list(self.flags)]
            )

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        where = self._where(node)
        for alias in node.names:
            if alias.name == "*":
                self.stars.append([module, node.level, node.lineno])
            else:
                value = [["from", module, node.level, alias.name], []]
                self._bind(alias.asname or alias.name, value)
            self.imports.append(
                [
                    self.scope.index,
                    module,
                    node.level,
                    alias.name,
                    alias.asname,
                    *where,
                    list(self.flags),
                ]
            )
