"""TypeScript and JavaScript, with tree-sitter: the code is read, never compiled, run or installed.

Claims ``.ts .tsx .mts .cts .js .jsx .mjs .cjs`` (declaration files ``.d.ts`` included: imports
may resolve to them), and the files module resolution reads: ``tsconfig*.json``,
``jsconfig*.json`` and ``package.json``. tree-sitter is imported when the first source file is
parsed; without it (the ``codemap`` extra), each TypeScript/JavaScript file is skipped with the
install hint, and the configuration files still parse (they are JSON).
"""

from __future__ import annotations

from typing import ClassVar

from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile
from groundkit.codemap.extract.typescript.config import is_config, parse_config
from groundkit.codemap.extract.typescript.evaluate import Evaluator
from groundkit.codemap.extract.typescript.graph import resolve_file
from groundkit.codemap.extract.typescript.modules import Layout
from groundkit.codemap.extract.typescript.parse import parse_typescript
from groundkit.codemap.extract.typescript.syntax import INSTALL_HINT

__all__ = ["INSTALL_HINT", "SOURCE_SUFFIXES", "TypeScriptExtractor"]

SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


class TypeScriptExtractor:
    language: ClassVar[str] = "typescript"
    version: ClassVar[str] = "1"

    def claims(self, path: str) -> bool:
        return path.endswith(SOURCE_SUFFIXES) or is_config(path)

    def parse(self, source: SourceFile) -> FileFacts:
        if is_config(source.path):
            return parse_config(source.path, source.text)
        return parse_typescript(source.path, source.text)

    def resolver(self, project: Project) -> _Resolver:
        return _Resolver(project)


class _Resolver:
    def __init__(self, project: Project) -> None:
        self.layout = Layout(project)
        self.evaluator = Evaluator(project, self.layout)

    def keys(self, path: str) -> frozenset[str]:
        if path.rpartition("/")[2] == "package.json":
            # Bare specifiers consult every package.json (workspace names): one shared key.
            return frozenset({"ts:" + path, "ts:package.json"})
        return frozenset({"ts:" + path})

    def resolve(self, path: str) -> FileGraph:
        if path not in self.layout.sources:
            return FileGraph()  # a configuration file: consulted, not a node
        return resolve_file(self.evaluator, path)
