"""Python, with the standard library's ``ast``: the code is read, never imported or run."""

from __future__ import annotations

from typing import ClassVar

from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile
from groundkit.codemap.extract.python.evaluate import Evaluator
from groundkit.codemap.extract.python.graph import resolve_file
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import parse_python

__all__ = ["PythonExtractor"]


class PythonExtractor:
    language: ClassVar[str] = "python"
    version: ClassVar[str] = "1"

    def claims(self, path: str) -> bool:
        return path.endswith(".py")

    def parse(self, source: SourceFile) -> FileFacts:
        return parse_python(source.path, source.text)

    def resolver(self, project: Project) -> _Resolver:
        return _Resolver(project)


class _Resolver:
    def __init__(self, project: Project) -> None:
        self.layout = Layout(project.paths(), project.top_name())
        self.evaluator = Evaluator(project, self.layout)

    def keys(self, path: str) -> frozenset[str]:
        info = self.layout.modules.get(path)
        return frozenset({"py:" + info.name}) if info else frozenset()

    def resolve(self, path: str) -> FileGraph:
        if path not in self.layout.modules:
            return FileGraph()
        graph = resolve_file(self.evaluator, path)
        self.evaluator.forget_body(path)
        return graph
