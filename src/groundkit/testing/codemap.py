"""A second language for the code map, small enough to read in one go: ``*.links`` files.

Each line of a ``.links`` file is ``def NAME`` (a function of that module) or ``NAME calls
MODULE.TARGET`` (an edge, resolved only when MODULE defines TARGET). A module is named by its
file's stem. It exercises the extractor seam (storage, incremental re-mapping, dependencies across
files, several languages in one map) without any real parser, and shows a new language the shape
to follow.
"""

from __future__ import annotations

from typing import Any, ClassVar

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile, Unparsable
from groundkit.codemap.model import EdgeKind, Location, Node, NodeKey, NodeKind, Provenance

__all__ = ["LinksExtractor"]


class LinksExtractor:
    language: ClassVar[str] = "links"
    version: ClassVar[str] = "1"

    def claims(self, path: str) -> bool:
        return path.endswith(".links")

    def parse(self, source: SourceFile) -> FileFacts:
        defs: list[str] = []
        links: list[list[Any]] = []
        for number, line in enumerate(source.text.splitlines(), start=1):
            words = line.split()
            if len(words) == 2 and words[0] == "def":
                defs.append(words[1])
            elif len(words) == 3 and words[1] == "calls" and "." in words[2]:
                module, _, name = words[2].rpartition(".")
                links.append([words[0], module, name, number, line.strip()])
            elif words:
                raise Unparsable(f"not a links line at line {number}")
        return FileFacts({"defs": defs}, {"links": links})

    def resolver(self, project: Project) -> _Resolver:
        return _Resolver(project)


class _Resolver:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.modules = {p.rsplit("/", 1)[-1].removesuffix(".links"): p for p in project.paths()}

    def keys(self, path: str) -> frozenset[str]:
        return frozenset({"links:" + _module(path)})

    def resolve(self, path: str) -> FileGraph:
        module = _module(path)
        facts = self.project.facts(path)
        graph = FileGraph()
        own = NodeKey(NodeKind.MODULE, module, path)
        graph.nodes.append(Node(own, "links", 1, 1))
        for name in facts.interface["defs"]:
            graph.nodes.append(Node(NodeKey(NodeKind.FUNCTION, f"{module}.{name}", path), "links"))
        edges = EdgeSet()
        consulted = set()
        for caller, target_module, target, line, text in facts.body["links"]:
            consulted.add("links:" + target_module)
            target_path = self.modules.get(target_module)
            if (
                target_path is None
                or target not in self.project.facts(target_path).interface["defs"]
            ):
                graph.unresolved += 1
                continue
            source = NodeKey(NodeKind.FUNCTION, f"{module}.{caller}", path)
            callee = NodeKey(NodeKind.FUNCTION, f"{target_module}.{target}", target_path)
            where = Location(path, line, 0, line, len(text))
            edges.add(EdgeKind.CALLS, source, callee, Provenance.CALL_IMPORTED, where, text)
        graph.edges = edges.edges()
        graph.depends_on = frozenset(consulted - {"links:" + module})
        return graph


def _module(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".links")
