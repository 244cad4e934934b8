"""A second language for the code map, small enough to read in one go: ``*.links`` files.

Each line of a ``.links`` file is ``def NAME`` (a function of that module) or ``NAME calls
MODULE.TARGET`` (an edge, resolved only when MODULE defines TARGET). A module is named by its
file's stem. It exercises the extractor seam (storage, incremental re-mapping, dependencies across
files, several languages in one map) without any real parser, and shows a new language the shape
to follow: typed facts (msgspec records) split into what other files may consult (``Defs``) and
what only this file's resolution needs (``Links``), encoded for the map and decoded from it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile, Unparsable
from groundkit.codemap.model import EdgeKind, Location, Node, NodeKey, NodeKind, Provenance

__all__ = ["Defs", "Link", "Links", "LinksExtractor"]


class Defs(msgspec.Struct, array_like=True, frozen=True):
    """The interface: the functions the module defines."""

    names: list[str]


class Link(msgspec.Struct, array_like=True, frozen=True):
    """``caller calls module.target`` at ``line``, written as ``text``."""

    caller: str
    module: str
    target: str
    line: int
    text: str


class Links(msgspec.Struct, array_like=True, frozen=True):
    """The body: the file's calls."""

    links: list[Link]


class LinksExtractor:
    language: ClassVar[str] = "links"
    version: ClassVar[str] = "2"

    def claims(self, path: str) -> bool:
        return path.endswith(".links")

    def parse(self, source: SourceFile) -> FileFacts:
        defs: list[str] = []
        links: list[Link] = []
        for number, line in enumerate(source.text.splitlines(), start=1):
            words = line.split()
            if len(words) == 2 and words[0] == "def":
                defs.append(words[1])
            elif len(words) == 3 and words[1] == "calls" and "." in words[2]:
                module, _, name = words[2].rpartition(".")
                links.append(Link(words[0], module, name, number, line.strip()))
            elif words:
                raise Unparsable(f"not a links line at line {number}")
        return FileFacts(Defs(defs), Links(links))

    def encode(self, facts: FileFacts) -> tuple[bytes, bytes]:
        return msgspec.msgpack.encode(facts.interface), msgspec.msgpack.encode(facts.body)

    def decode(self, interface: bytes, body: bytes) -> FileFacts:
        return FileFacts(
            msgspec.msgpack.decode(interface, type=Defs), msgspec.msgpack.decode(body, type=Links)
        )

    def resolver(self, project: Project) -> _Resolver:
        return _Resolver(project)


class _Resolver:
    reach: Literal["file"] = "file"

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
        for name in _defs(facts):
            graph.nodes.append(Node(NodeKey(NodeKind.FUNCTION, f"{module}.{name}", path), "links"))
        edges = EdgeSet()
        consulted = set()
        body = facts.body
        assert isinstance(body, Links)
        for link in body.links:
            consulted.add("links:" + link.module)
            target_path = self.modules.get(link.module)
            if target_path is None or link.target not in _defs(self.project.facts(target_path)):
                graph.unresolved += 1
                continue
            source = NodeKey(NodeKind.FUNCTION, f"{module}.{link.caller}", path)
            callee = NodeKey(NodeKind.FUNCTION, f"{link.module}.{link.target}", target_path)
            where = Location(path, link.line, 0, link.line, len(link.text))
            edges.add(EdgeKind.CALLS, source, callee, Provenance.CALL_IMPORTED, where, link.text)
        graph.edges = edges.edges()
        graph.depends_on = frozenset(consulted - {"links:" + module})
        return graph


def _defs(facts: FileFacts) -> list[str]:
    interface = facts.interface
    assert isinstance(interface, Defs)
    return interface.names


def _module(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".links")
