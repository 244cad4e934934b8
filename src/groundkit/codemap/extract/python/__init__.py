"""Python, with the standard library's ``ast``: the code is read, never imported or run.

``parse`` turns one file into typed facts (``parse/facts.py``); resolution links every file's
facts (``values/program.py``), solves the whole program's value flow (``values/solver.py``) and
turns each file into nodes and edges (``resolve/graph.py``). Since a value may flow from any
file to any other, a change to any Python file resolves them all again; files whose graph comes
out the same are not rewritten.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Sequence
from typing import ClassVar

import msgspec

from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import parse_python
from groundkit.codemap.extract.python.parse.facts import Facts, Kind
from groundkit.codemap.extract.python.resolve.graph import PythonFile
from groundkit.codemap.extract.python.values.certainty import choices
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.solver import solve

__all__ = ["PythonExtractor", "SolveStats"]

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Facts)


class Interface(msgspec.Struct, array_like=True, frozen=True):
    """What other files may depend on: the names a module binds, ``__all__``, its star
    imports, its classes with their bases as written, its functions with their parameters."""

    names: list[str]
    all: list[str] | None
    classes: list[tuple[str, list[list[str]]]]
    functions: list[tuple[str, list[str]]]


class SolveStats(msgspec.Struct, frozen=True):
    files: int
    variables: int
    values: int
    edges: int
    bounds_hit: int
    seconds: float


class PythonExtractor:
    language: ClassVar[str] = "python"
    version: ClassVar[str] = "2"

    def claims(self, path: str) -> bool:
        return path.endswith(".py")

    def parse(self, source: SourceFile) -> FileFacts:
        facts = parse_python(source.path, source.text)
        return FileFacts(_interface(facts), facts)

    def encode(self, facts: FileFacts) -> tuple[bytes, bytes]:
        return _ENCODER.encode(facts.interface), zlib.compress(_ENCODER.encode(facts.body), 1)

    def decode(self, interface: bytes, body: bytes) -> FileFacts:
        return FileFacts(
            msgspec.msgpack.decode(interface, type=Interface),
            _DECODER.decode(zlib.decompress(body)),
        )

    def resolver(self, project: Project) -> PythonResolver:
        return PythonResolver(project)


class PythonResolver:
    """Resolves the whole program at once (``resolve_all``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.layout = Layout(project.paths(), project.top_name())
        self.stats: SolveStats | None = None

    def keys(self, path: str) -> frozenset[str]:
        info = self.layout.modules.get(path)
        return frozenset({"py:" + info.name}) if info else frozenset()

    def resolve(self, path: str) -> FileGraph:
        return self.resolve_all([path])[path]

    def resolve_all(self, paths: Sequence[str]) -> dict[str, FileGraph]:
        """Every file's graph: any file's values may reach any other's calls."""
        started = time.perf_counter()
        files = [(p, self.project.facts(p).body) for p in self.project.paths()]
        program = Program(
            [(p, facts) for p, facts in files if isinstance(facts, Facts)], self.layout
        )
        flow = solve(program)
        chosen = choices(flow)
        graphs = {info.path: PythonFile(flow, info, chosen).run() for info in program.files}
        self.stats = SolveStats(
            len(program.files),
            program.variables,
            len(flow.values.keys),
            len(flow.engine.edges),
            flow.engine.bounds_hit,
            time.perf_counter() - started,
        )
        return graphs


def _interface(facts: Facts) -> Interface:
    names = sorted({op.name for op in facts.ops if type(op).__name__ in ("ModBind", "GlobalSet")})
    classes = [(s.qual, s.base_refs) for s in facts.scopes if s.kind == Kind.CLASS]
    functions = [
        (s.qual, [p.name for p in s.params])
        for s in facts.scopes
        if s.kind in (Kind.FUNCTION, Kind.METHOD)
    ]
    return Interface(names, facts.all, classes, functions)
