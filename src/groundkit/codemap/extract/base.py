"""The seam a language plugs into: claim files, parse one file alone, resolve across files.

A map is built in two steps, so that re-mapping parses only what changed:

1. ``parse`` turns one file into ``FileFacts``: what that file says on its own, with no other
   file looked at, as the language's own typed records (msgspec structs). The extractor
   ``encode``s them for the map, keyed by the file's content hash and the extractor's
   ``version`` (a file whose hash is unchanged is never parsed again), and ``decode``s what the
   map holds. ``interface`` is the part other files may consult (the names a module defines or
   re-exports, classes with their bases and methods); ``body`` is the rest (call sites, route
   declarations, the value-flow program).
2. ``resolver(project)`` turns facts into nodes and edges, consulting other files' facts
   through the ``Project``. A language resolves in one of two ways, and says which
   (``reach``):

   - ``PerFileResolver`` (``reach == "file"``, TypeScript): ``resolve(path)`` one file at a
     time. It returns the dependency keys it consulted (``depends_on``); when a file's
     interface changes, or a file appears or disappears, only the files that consulted one
     of its ``keys`` are resolved again.
   - ``ProgramResolver`` (``reach == "program"``, Python): values flow between any of the
     language's files, so ``resolve_all`` resolves them together; when an edit changed only
     where things are (equal interface digests), ``relocate`` moves each changed file's last
     resolution (``Project.previous``) instead.

   These two protocols and ``Project`` are every call the core makes into a language
   (``codemap/resolution.py``); nothing is looked up by name.

An extractor never imports, runs or installs the code it reads. It is a plain, picklable object:
``parse`` may run in a worker process.

Routes and HTTP client calls are language-neutral (``groundkit.codemap.routes``): an extractor
reports route declarations, router mounts and client call sites, and one pass over the whole map
composes prefixes and matches calls to routes, across languages.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from groundkit.codemap.data import Data
from groundkit.codemap.model import Edge, Node
from groundkit.codemap.routes import HttpCallSite, Mount, RouteDecl, RouterDef, UrlArgument

__all__ = [
    "Clock",
    "Extractor",
    "FileFacts",
    "FileGraph",
    "PerFileResolver",
    "Previous",
    "ProgramResolver",
    "Project",
    "Resolver",
    "SourceFile",
    "TooSlow",
    "Unparsable",
    "collector_paused",
]


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str  # repository-relative POSIX path
    text: str  # decoded (UTF-8, or the encoding a Python coding cookie names)
    # ``time.monotonic()`` past which parsing gives up (``TooSlow``): no one file may stall a map
    deadline: float = math.inf


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What one file says on its own: the language's typed records, which its extractor
    encodes for the map and decodes from it unchanged."""

    interface: Any
    body: Any
    # the syntax tree the facts were read from, for the data pass in the same process
    # (``codemap/data/early.py``): never encoded, dropped once that pass has read it
    syntax: Any = None


class Unparsable(Exception):
    """The file cannot be analysed (a syntax error, say): it is skipped with ``reason``, which
    must not quote the file's text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TooSlow(Unparsable):
    """Parsing passed the file's deadline (``codemap.parse_seconds``)."""

    def __init__(self) -> None:
        super().__init__("too_slow: parsing it took longer than codemap.parse_seconds")


class Clock:
    """A parser's deadline, looked at every few thousand steps (a look costs a system call)."""

    __slots__ = ("deadline", "steps")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if not self.steps & 2047 and time.monotonic() > self.deadline:
            raise TooSlow


@dataclass(slots=True)
class FileGraph:
    """What resolving one file yields. Every node is defined in that file, every edge starts at
    one of them; ``external`` nodes the edges point at are included and shared between files."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    unresolved: int = 0  # call sites with no static target: counted, never guessed
    depends_on: frozenset[str] = frozenset()  # keys (of other files) consulted
    routers: list[RouterDef] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    routes: list[RouteDecl] = field(default_factory=list)
    http_calls: list[HttpCallSite] = field(default_factory=list)
    url_arguments: list[UrlArgument] = field(default_factory=list)
    data: Data = field(default_factory=Data)  # models, tables, env vars, their accesses


@dataclass(frozen=True, slots=True)
class Previous:
    """A file's facts and resolution as the map holds them from the last run."""

    facts: FileFacts
    nodes: list[Node]  # the nodes its resolution made (outside nodes aside)
    edges: list[Edge]
    unresolved: int
    web: str  # its route and client facts as stored (``routes.load_web`` reads them); "" none


class Project(Protocol):
    """What resolution may see of the whole map, for one language."""

    def paths(self) -> Sequence[str]:
        """Every file of this extractor's language in the map, sorted."""
        ...

    def facts(self, path: str) -> FileFacts:
        """The facts of one of ``paths()`` (read back from the map when it was not re-parsed)."""
        ...

    def previous(self, path: str) -> Previous:
        """What the map held for ``path`` before this run (a file that was mapped before)."""
        ...

    def top_name(self) -> str:
        """The repository folder's own name (Python names modules from it when that folder is
        itself a package)."""
        ...

    def solver_state(self, name: str) -> bytes | None:
        """A part of the solver state this language kept with the map, or None."""
        ...

    def memory(self) -> MutableMapping[str, object]:
        """What a resolver keeps in memory while the map stays open, for its next run (empty
        when the map was just opened)."""
        ...

    def keep_solver_state(self, parts: Iterable[tuple[str, bytes]], *, replace: bool) -> None:
        """Keep ``parts`` (name, data) with the map (``replace``: this language's other parts
        go first)."""
        ...

    def read_text(self, path: str) -> str | None:
        """Any file of the repository by its relative path (``pyproject.toml``,
        ``tsconfig.json``), or None when it is absent, unreadable or outside the repository."""
        ...


class PerFileResolver(Protocol):
    """A language whose files consult one another's interfaces: resolved file by file."""

    reach: Literal["file"]

    def keys(self, path: str) -> frozenset[str]:
        """The dependency keys ``path`` provides (``ts:`` + its path). A file whose keys change
        between runs is resolved again, as are the files that consulted them."""
        ...

    def resolve(self, path: str) -> FileGraph:
        """One file's nodes and edges (``depends_on``: the keys it consulted)."""
        ...


class ProgramResolver(Protocol):
    """A language whose values may flow from any of its files to any other: resolved whole."""

    reach: Literal["program"]
    solved: str  # how the last resolution went: the whole program, or a continued edit

    def keys(self, path: str) -> frozenset[str]:
        """The dependency keys ``path`` provides (Python: ``py:`` + its module name)."""
        ...

    def resolve_all(self, paths: Sequence[str]) -> dict[str, FileGraph]:
        """Every file of ``paths`` (all the language's files) resolved together."""
        ...

    def continue_edit(self, paths: Sequence[str]) -> dict[str, FileGraph] | None:
        """After an edit to ``paths`` that changed a program: the graphs of the files whose
        resolution it may change, taken on from the last solve, or None when it cannot be
        (then ``resolve_all``). ``solved`` says which, and why."""
        ...

    def relocate(self, paths: Sequence[str]) -> dict[str, FileGraph] | None:
        """Files whose program is unchanged, only where things are in them: each one's
        ``Project.previous`` resolution moved to the new places. None when that cannot be
        told apart from a real change: the caller resolves everything again."""
        ...


Resolver = PerFileResolver | ProgramResolver


class Extractor(Protocol):
    language: ClassVar[str]  # "python"
    version: ClassVar[str]  # bumped whenever parse's output changes: stored facts are redone

    def claims(self, path: str) -> bool:
        """Whether this extractor reads the file at this repository-relative path."""
        ...

    def parse(self, source: SourceFile) -> FileFacts:
        """Raises ``Unparsable`` for a file that cannot be analysed."""
        ...

    def encode(self, facts: FileFacts) -> tuple[bytes, bytes]:
        """``(interface, body)`` as stored in the map (the interface's digest decides which
        other files are resolved again)."""
        ...

    def decode(self, interface: bytes, body: bytes) -> FileFacts: ...

    def resolver(self, project: Project) -> Resolver:
        """A resolver over one state of the project; built once per run (and once per forked
        worker when a large per-file run is split)."""
        ...


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off meanwhile. For work that makes many objects
    that live until it is done and little cyclic garbage: the collector's passes over them are
    then all cost (Python's solve of django: 14.3 s of CPU with them, 4.9 s without)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # What was made meanwhile is moved to the oldest generation unexamined (into the
            # permanent one and out again): else the first young collection after it walks all
            # of it at once (express: ~7% of its map).
            gc.freeze()
            gc.unfreeze()
            gc.enable()
