"""Python, with the standard library's ``ast``: the code is read, never imported or run.

``parse`` turns one file into typed facts (``parse/facts.py``); resolution links every file's
facts (``values/program.py``), solves the whole program's value flow (``values/solver.py``) and
turns each file into nodes and edges (``resolve/graph.py``). Since a value may flow from any
file to any other, a change to any Python file resolves them all again; files whose graph comes
out the same are not rewritten.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from collections.abc import Sequence
from typing import ClassVar, Literal

import msgspec

from groundkit.codemap.extract.base import (
    FileFacts,
    FileGraph,
    Project,
    SourceFile,
    collector_paused,
)
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import parse_python_tree
from groundkit.codemap.extract.python.parse.facts import Facts
from groundkit.codemap.extract.python.parse.names import share_names
from groundkit.codemap.extract.python.resolve.continuation import continue_edit
from groundkit.codemap.extract.python.resolve.graph import PythonFile
from groundkit.codemap.extract.python.resolve.relocate import relocate
from groundkit.codemap.extract.python.values import snapshot
from groundkit.codemap.extract.python.values.certainty import Certainty
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.solver import solve
from groundkit.codemap.routes import load_web

__all__ = ["PythonExtractor", "SolveStats"]

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Facts)


class Interface(msgspec.Struct, array_like=True, frozen=True):
    """What other files may depend on: since values flow between any files, the whole
    value-flow program (without the places things are at), as a digest. Equal digests: the
    edit changed only where things are."""

    program: str


class SolveStats(msgspec.Struct, frozen=True):
    files: int
    variables: int
    values: int
    edges: int
    bounds_hit: int
    seconds: float


class PythonExtractor:
    language: ClassVar[str] = "python"
    # 21: the sites under a parameter's flag (Facts.flagged); 18: a test of the function a
    # local holds narrows it (facts.Tested, Ret.guard);
    # 17: issue 81's rejected callbacks; 16: isinstance(x, C) narrows x in the branch
    # (facts.Narrow); 15: a branch on `cls.attr` (facts.ByClass); 14: getattr(obj,
    # f"visit_{x}") names the methods so prefixed; 13: None answers truth tests, `a or b`
    # tests only a, object.__setattr__; 12: Flask-SQLAlchemy
    version: ClassVar[str] = "21"

    def claims(self, path: str) -> bool:
        return path.endswith(".py")

    def parse(self, source: SourceFile) -> FileFacts:
        facts, tree = parse_python_tree(source.path, source.text, source.deadline)
        return FileFacts(_interface(facts), facts, tree)

    def encode(self, facts: FileFacts) -> tuple[bytes, bytes]:
        return _ENCODER.encode(facts.interface), zlib.compress(_ENCODER.encode(facts.body), 1)

    def decode(self, interface: bytes, body: bytes) -> FileFacts:
        facts = _DECODER.decode(zlib.decompress(body))
        # (decoded, the packed lines are a view into the whole body: copied, the body goes)
        facts = msgspec.structs.replace(facts, lines=facts.lines.copy())
        share_names(facts)
        return FileFacts(msgspec.msgpack.decode(interface, type=Interface), facts)

    def resolver(self, project: Project) -> PythonResolver:
        return PythonResolver(project)


class PythonResolver:
    """Resolves the whole program at once (``base.ProgramResolver``)."""

    reach: Literal["program"] = "program"

    def __init__(self, project: Project) -> None:
        self.project = project
        self.layout = Layout(project.paths(), project.top_name())
        self.stats: SolveStats | None = None
        self.solved = "whole program"  # how the last resolution went (a continued edit, or why not)

    def keys(self, path: str) -> frozenset[str]:
        info = self.layout.modules.get(path)
        return frozenset({"py:" + info.name}) if info else frozenset()

    def relocate(self, paths: Sequence[str]) -> dict[str, FileGraph] | None:
        """Files whose program did not change, only where things are in them: their last
        resolution, moved (None when that cannot be told apart: resolve again)."""
        out = {}
        for path in paths:
            previous = self.project.previous(path)
            old, new = previous.facts.body, self.project.facts(path).body
            info = self.layout.modules.get(path)
            if info is None or not isinstance(old, Facts) or not isinstance(new, Facts):
                return None
            moved = relocate(
                path,
                info.name,
                old,
                new,
                previous.nodes,
                previous.edges,
                previous.unresolved,
                load_web([previous.web] if previous.web else []),
            )
            if moved is None:
                return None
            moved.depends_on = frozenset()
            out[path] = moved
        return out

    def continue_edit(self, paths: Sequence[str]) -> dict[str, FileGraph] | None:
        """The changed files drawn again from the last solve, when the edit only adds code
        that reaches nothing old (``values/continued.py``); None: solve the whole program
        (``self.solved`` says why)."""
        with collector_paused():
            done = continue_edit(self.project, self.layout, paths)
        self.solved = done.reason
        return done.graphs

    def resolve_all(self, paths: Sequence[str]) -> dict[str, FileGraph]:
        """Every file's graph: any file's values may reach any other's calls."""
        with collector_paused():  # django: 14.3 s of CPU with the collector, 4.9 s without
            return self._resolve_all()

    def _resolve_all(self) -> dict[str, FileGraph]:
        started = time.perf_counter()
        files = [(p, self.project.facts(p)) for p in self.project.paths()]
        program = Program(
            [(p, facts.body) for p, facts in files if isinstance(facts.body, Facts)], self.layout
        )
        flow = solve(program)
        certainty = Certainty(flow)
        flow.solved()
        if len(program.files) == len(files):  # kept for the next edit to continue from
            # (before the graphs are drawn: its buffers are gone by then, and the peak is not
            # raised by them)
            digests = [getattr(facts.interface, "program", "") for _, facts in files]
            parts = snapshot.dump(flow, certainty, flow.late, digests)
            self.project.keep_solver_state(parts, replace=True)
        flow.drawing_only()
        graphs = {info.path: PythonFile(flow, info, certainty).run() for info in program.files}
        self.stats = SolveStats(
            len(program.files),
            program.variables,
            len(flow.values.keys),
            flow.engine.edges,
            flow.engine.bounds_hit,
            time.perf_counter() - started,
        )
        return graphs


def _interface(facts: Facts) -> Interface:
    program = (
        facts.ops,
        facts.variables,
        facts.all,
        [
            (
                s.qual,
                s.kind,
                s.parent,
                s.params,
                s.flags,
                s.decorators,
                s.bases,
                s.base_refs,
                s.guards,
            )
            for s in facts.scopes
        ],
        [
            (
                s.scope,
                s.kind,
                s.name,
                s.dynamic,
                s.target,
                s.factory,
                s.holder,
                s.args,
                s.keywords,
                s.numbers,
            )
            for s in facts.sites
        ],
        [(i.scope, i.module, i.level, i.name, i.flags) for i in facts.imports],
    )
    digest = hashlib.blake2b(_ENCODER.encode(program), digest_size=16).hexdigest()
    return Interface(digest)
