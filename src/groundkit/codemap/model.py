"""The code map's data model: nodes, edges, how each edge was derived, and where it was seen.

Every value here is frozen and language-neutral: the Python analyser and the TypeScript one make
the same nodes and edges, and everything above them (storage, trace, blast, diff, exports) reads
only this module.

Identity never involves a line number: a node is ``(kind, qualified name, file)`` and an edge is
``(kind, source node, target node)``. Code moving down a file changes an edge's *location*, which
a diff reports as a change of that edge, never as one removed and one added.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

__all__ = [
    "EVIDENCE_MAX",
    "Edge",
    "EdgeFlag",
    "EdgeKind",
    "Location",
    "Node",
    "NodeKey",
    "NodeKind",
    "Provenance",
    "evidence_line",
]

SHORT_ID = 6  # hex digits of each end an edge's short id keeps

EVIDENCE_MAX = 200  # characters in one edge's evidence line


class NodeKind(StrEnum):
    PACKAGE = "package"  # a folder that is a package; its ``__init__`` is the node's file
    MODULE = "module"  # one source file
    CLASS = "class"
    FUNCTION = "function"  # a module-level or nested function (arrow functions bound to names too)
    METHOD = "method"  # a function defined directly in a class body
    ROUTE = "route"  # an HTTP route served by the repository: ``GET /items/{id}``
    EXTERNAL = "external"  # a module or host outside the repository, by its top-level name
    MODEL = "model"  # a data model with no class of its own: a Prisma ``model`` (``prisma:User``)
    TABLE = "table"  # a database table, named ``table:<name>`` as the database knows it
    ENV = "env"  # an environment variable, by name only (``env:DATABASE_URL``): never a value


class EdgeKind(StrEnum):
    IMPORTS = "imports"  # module -> module (or external)
    CALLS = "calls"  # function/method/module -> function/method/class
    INHERITS = "inherits"  # class -> class
    DEFINES = "defines"  # containment, for navigation: package > module > class > method
    HANDLES = "handles"  # route -> the function that serves it
    HTTP_CALL = "http_call"  # function/module -> route (in the repository) or external host
    READS = "reads"  # function -> model, table or env var it reads
    WRITES = "writes"  # function -> model or table it writes
    MAPS_TO = "maps_to"  # model (an ORM class, a Prisma model) -> its table


class Provenance(StrEnum):
    """How an edge was derived: a closed set. Each value has a confidence prior (``priors.py``)
    measured on labelled cases, so a new way of deriving an edge needs a new value here, a prior,
    and cases that measure it.

    Imports
    - ``import-absolute``: ``import a.b`` / ``from a.b import c`` / ``import a.b as c``.
    - ``import-relative``: ``from . import x`` / ``from ..a import b``, resolved against the
      importing module's package.
    - ``import-star``: ``from m import *``; the names it brings are those of ``m.__all__``, or its
      public names when it has none.
    Calls (a call that cannot be resolved statically is never an edge: it is counted)
    - ``call-local``: a name defined by ``def``/``class`` in the same module or an enclosing
      function.
    - ``call-imported``: a name bound by an import, an alias of one, or ``module.func`` through an
      imported module (re-exports through ``__init__`` followed).
    - ``call-self``: ``self.m()`` / ``cls.m()`` found on the enclosing class itself.
    - ``call-inherited``: a method found on an in-repository base class, through the MRO.
    - ``call-super``: ``super().m()``, looked up after the enclosing class in its MRO.
    - ``call-constructor``: ``Class()``, to the class's ``__init__`` (through its MRO), or to the
      class when no in-repository ``__init__`` exists.
    - ``call-decorator``: ``@decorator`` applied to a function or class: the scope holding the
      definition calls the decorator (``@decorator(args)``: calls the factory).
    - ``call-instance``: a method on a variable or ``self`` attribute whose every assignment in
      its scope is an instance of the same in-repository class.
    - ``call-annotation``: a method on a parameter or variable annotated with an in-repository
      class.
    - ``call-return``: a method on an object a call returned (an instance a function made, a
      context manager's ``__enter__`` result).
    - ``call-argument``: a value that reached the caller through one of its parameters (a
      function passed as an argument, positionally, by keyword, through ``*args``/``**kwargs``
      or a default), or a method on such a value.
    - ``call-returned``: a function that a call returned (a factory's product, a closure, a
      decorator's wrapper reached through its return value).
    - ``call-container``: a value taken from a list, tuple, dict or set (a literal key, index or
      slice, a loop over it, unpacking).
    - ``call-callback``: a function a library or built-in calls on the caller's behalf (``map``,
      ``sorted(key=)``, ``threading.Thread(target=)``, ``functools.partial``...), or one stored
      on an object's attribute and called through it.
    - ``call-protocol``: a dunder method Python runs for syntax (``for``, ``with``, ``x[k]``,
      operators, ``raise Cls``) or a built-in (``len``, ``str``, ``next``...).
    Classes
    - ``inherit-base``: a base class named in a ``class`` statement.
    - ``define``: containment (a module defines a class, a class a method).
    Routes
    - ``route-decorator``: ``@app.get("/x")``, ``@router.post(...)``, ``@app.route(...)``,
      with router and blueprint prefixes composed.
    - ``route-call``: ``app.add_api_route(...)``, ``app.add_url_rule(...)``,
      ``Route("/x", endpoint)`` and the like.
    - ``route-urlconf``: Django ``path()`` / ``re_path()`` with ``include()`` prefixes composed.
    HTTP clients
    - ``http-literal``: a client call whose URL is a string literal.
    - ``http-template``: a client call whose URL is an f-string, a concatenation or a
      ``.format`` of literals and expressions (each expression a parameter).
    TypeScript / JavaScript (the tree-sitter extractor)
    - ``ts-import``: ES ``import`` (``import type`` flagged ``type_checking``), ``export ...
      from``, TypeScript's ``import x = require()``, resolved as TypeScript does (tsconfig
      ``paths``/``baseUrl``, extension substitution, ``index`` files).
    - ``ts-require``: a CommonJS ``require("literal")``.
    - ``ts-dynamic-import``: ``import("literal")`` (a template or a variable: no edge).
    - ``ts-reference``: a ``/// <reference path="...">`` directive.
    - ``ts-call``: a function called through a local binding, an import (named, default,
      namespace, ``require``), a re-export chain, CommonJS ``module.exports``, or a static
      method on a class.
    - ``ts-new``: ``new C()``, to the nearest ``constructor`` in C's in-repository bases, or to
      C when none has one.
    - ``ts-this``: ``this.m()`` in a class, found on the class or an in-repository base.
    - ``ts-super``: ``super(...)`` / ``super.m()``, looked up from the base class.
    - ``ts-instance``: a method on a variable whose one binding is ``new C()``.
    - ``ts-extends``: a base class named in ``class C extends B``.
    - ``ts-argument``: a function a parameter holds (``fn()``, ``new Cls()``, ``opts.onDone()``,
      ``{onDone}``; a method on an instance a parameter holds), known from every call site of
      the function in the repository; none of them gives it an unknown value and the function
      is never handed to code outside the repository.
    - ``ts-table``: a member of an object literal bound to a name (``handlers.a()``,
      ``handlers["a"]()``, nested ``api.users.get()``) that no code changes.
    - ``ts-callback``: a function the runtime calls on the caller's behalf (``setTimeout(f)``,
      ``xs.map(f)``, ``p.then(f)``, ``addEventListener``, a test runner's ``it``), from the
      scope that hands it over; ``partial`` when the method's receiver is not known.
    - ``ts-jsx``: a component of the repository used in JSX (``<Comp />`` runs ``Comp``; a
      class component's ``constructor`` and ``render``).
    - ``ts-accessor``: a ``get x()`` run by reading ``o.x`` (a ``set x(v)`` by writing it) on
      an instance of a class of the repository, the class (``static``) or an object literal.
    - ``ts-event``: a listener registered for a literal event name (``bus.on("x", f)``,
      ``addEventListener``), run by ``bus.emit("x")`` / ``dispatchEvent(new Event("x"))`` on
      the same emitter; ``partial`` where either emitter is not known.
    - ``route-express``: ``app.get("/x", handler)`` on an Express app or router, a Koa router,
      a Fastify or Hono instance, with ``use``/``register``/``route`` prefixes composed.
    - ``route-fastify``: Fastify's ``route({method, url, handler})``.
    (HTTP client calls from ``fetch``, ``axios``, ``ky`` are ``http-literal`` /
    ``http-template`` like Python's.)
    Data (``codemap/data``)
    - ``table-declared``: a model's table named in its declaration (``__tablename__``,
      ``Meta.db_table``, Prisma ``@@map``, ``Table("name", metadata)``).
    - ``table-default``: the table name a framework documents for a model that names none
      (SQLModel: the class name lower-cased; Prisma: the model's name).
    - ``table-library``: the table a library's model mixin sets for the class that inherits it
      (fastapi-users' ``SQLAlchemyBaseUserTableUUID``: ``user``), from a table read from the
      library's source.
    - ``orm-argument``: the model class handed to a query (``select(M)``, ``session.get(M, id)``,
      ``session.query(M)``, ``delete(M)``).
    - ``orm-instance``: an object whose value is a model instance handed to the session
      (``session.add(m)``, ``delete(m)``, ``merge(m)``), known in the function.
    - ``orm-manager``: a model's manager or client accessor (``M.objects.filter()``,
      ``prisma.user.findMany()``).
    - ``env-read``: ``os.environ[...]``, ``os.getenv``, a pydantic ``BaseSettings`` field,
      ``process.env.X``, ``import.meta.env.X``.
    - ``env-write``: ``os.environ["X"] = v`` or ``del os.environ["X"]``: a ``writes`` edge.
    - ``orm-repository``: a TypeORM repository's method (``repo.find()``, ``repo.save(p)``)
      where the repository is ``getRepository(M)`` in the function or a field injected with
      ``@InjectRepository(M)``.
    - ``sql-text``: a table named in SQL text handed to ``execute``, ``text()``, ``query``
      or a ``sql`` tagged template, read by a SQL parser (the statement's kind says read or
      write).
    - ``fastapi-depends``: a ``calls`` edge from a function to the dependency FastAPI runs
      for it (``Depends(f)``/``Security(f)`` as a parameter's default, in ``Annotated[T,
      Depends(f)]`` or an alias of it, in a route decorator's ``dependencies=[...]``; an
      ``APIRouter``'s or the app's ``dependencies=[...]``: from each handler of its routes).
    - ``flask-hook``: a ``calls`` edge from a route's handler to a function Flask runs before
      each request of its blueprint or app (``before_request``, ``before_app_request``).
    - ``route-library``: a route a library's router factory serves, mounted in the repository
      (fastapi-users' ``get_auth_router()``...), from a table read from the library's source;
      its handler is the library's.
    """

    IMPORT_ABSOLUTE = "import-absolute"
    IMPORT_RELATIVE = "import-relative"
    IMPORT_STAR = "import-star"
    CALL_LOCAL = "call-local"
    CALL_IMPORTED = "call-imported"
    CALL_SELF = "call-self"
    CALL_INHERITED = "call-inherited"
    CALL_SUPER = "call-super"
    CALL_CONSTRUCTOR = "call-constructor"
    CALL_DECORATOR = "call-decorator"
    CALL_INSTANCE = "call-instance"
    CALL_ANNOTATION = "call-annotation"
    CALL_RETURN = "call-return"
    CALL_ARGUMENT = "call-argument"
    CALL_RETURNED = "call-returned"
    CALL_CONTAINER = "call-container"
    CALL_CALLBACK = "call-callback"
    CALL_PROTOCOL = "call-protocol"
    INHERIT_BASE = "inherit-base"
    DEFINE = "define"
    ROUTE_DECORATOR = "route-decorator"
    ROUTE_CALL = "route-call"
    ROUTE_URLCONF = "route-urlconf"
    HTTP_LITERAL = "http-literal"
    HTTP_TEMPLATE = "http-template"
    TS_IMPORT = "ts-import"
    TS_REQUIRE = "ts-require"
    TS_DYNAMIC_IMPORT = "ts-dynamic-import"
    TS_REFERENCE = "ts-reference"
    TS_CALL = "ts-call"
    TS_NEW = "ts-new"
    TS_THIS = "ts-this"
    TS_SUPER = "ts-super"
    TS_INSTANCE = "ts-instance"
    TS_EXTENDS = "ts-extends"
    TS_ARGUMENT = "ts-argument"
    TS_TABLE = "ts-table"
    TS_CALLBACK = "ts-callback"
    TS_JSX = "ts-jsx"
    TS_ACCESSOR = "ts-accessor"
    TS_EVENT = "ts-event"
    ROUTE_EXPRESS = "route-express"
    ROUTE_FASTIFY = "route-fastify"
    TABLE_DECLARED = "table-declared"
    TABLE_DEFAULT = "table-default"
    ORM_ARGUMENT = "orm-argument"
    ORM_INSTANCE = "orm-instance"
    ORM_MANAGER = "orm-manager"
    ENV_READ = "env-read"
    ENV_WRITE = "env-write"
    SQL_TEXT = "sql-text"
    ORM_REPOSITORY = "orm-repository"
    FASTAPI_DEPENDS = "fastapi-depends"
    FLASK_HOOK = "flask-hook"
    ROUTE_LIBRARY = "route-library"
    TABLE_LIBRARY = "table-library"


class EdgeFlag(StrEnum):
    """Qualifiers on an edge that do not change how it was derived."""

    TYPE_CHECKING = "type_checking"  # an import under ``if TYPE_CHECKING:``: not run at run time
    OPTIONAL = "optional"  # an import in ``try: ... except ImportError``: may be absent
    LAZY = "lazy"  # an import inside a function body: run when that function runs
    REEXPORT = "reexport"  # reached through a name an ``__init__`` re-exports
    # One of the targets of a call whose value is chosen at run time, or that an unknown value
    # (a parameter fed from outside, a computed key) may also reach: the call site also counts
    # as unresolved.
    PARTIAL = "partial"


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """Where an edge was seen: a repository-relative POSIX path, never absolute and never
    leaving the repository. Lines are 1-based; columns 0-based, in characters; ``end`` is
    exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __post_init__(self) -> None:
        _check_path(self.path)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
        }


# Asked for each edge a map writes (express: ~29,000 ids, ~16,000 locations, over far fewer
# nodes and paths): a hash each time cost ~1.5% of a map.
@lru_cache(maxsize=65536)
def _node_id(kind: str, qualname: str, path: str) -> str:
    raw = f"{kind}\x00{qualname}\x00{path}".encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


@lru_cache(maxsize=4096)  # (a bad path raises, and is not kept)
def _check_path(path: str) -> None:
    if path.startswith("/") or "\\" in path or ".." in path.split("/") or ":" in path[:3]:
        raise ValueError("a code map location is a repository-relative POSIX path")


@dataclass(frozen=True, slots=True, order=True)
class NodeKey:
    """A node's identity. ``path`` is the repository-relative file that defines it: for a route
    the file declaring it, for a package its ``__init__`` (or folder), empty for ``external``."""

    kind: NodeKind
    qualname: str
    path: str

    @property
    def id(self) -> str:
        """A stable short id, the same in every map of the same code."""
        return _node_id(self.kind, self.qualname, self.path)

    def __str__(self) -> str:
        return self.qualname


@dataclass(frozen=True, slots=True)
class Node:
    key: NodeKey
    language: str  # "python", "typescript", ... ("" for route and external)
    line: int = 0  # where it is defined: for people, not part of identity
    end_line: int = 0

    @property
    def kind(self) -> NodeKind:
        return self.key.kind

    @property
    def qualname(self) -> str:
        return self.key.qualname

    @property
    def path(self) -> str:
        return self.key.path

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.key.id,
            "kind": str(self.key.kind),
            "name": self.key.qualname,
            "path": self.key.path,
            "line": self.line,
            "end_line": self.end_line,
            "language": self.language,
        }


@dataclass(frozen=True, slots=True)
class Edge:
    """A directed fact about the code, with the evidence to check it.

    ``quote`` is the source line at ``location.line`` as written (leading whitespace dropped,
    shortened to fit), which is what re-checking compares; ``evidence`` is the one line a person
    reads and a model may quote: both ends, the place and the quote. ``sites`` counts the places
    the same edge was seen; the location is the first at which it is as certain as it says (a
    partial site shows only when every site is partial).
    """

    kind: EdgeKind
    source: NodeKey
    target: NodeKey
    provenance: Provenance
    confidence: float
    location: Location
    quote: str
    evidence: str
    flags: frozenset[EdgeFlag] = frozenset()
    sites: int = 1

    @property
    def key(self) -> tuple[EdgeKind, NodeKey, NodeKey]:
        return (self.kind, self.source, self.target)

    @property
    def id(self) -> str:
        """``<source id>.<kind>.<target id>``: names the edge in ``code_edge`` and ``grk edge``."""
        return f"{self.source.id}.{self.kind}.{self.target.id}"

    @property
    def short_id(self) -> str:
        """The id with each end cut to ``SHORT_ID`` hex digits: short enough to type from a
        terminal, and ``grk edge`` takes it (an ambiguous one is refused, never guessed)."""
        return f"{self.source.id[:SHORT_ID]}.{self.kind}.{self.target.id[:SHORT_ID]}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": str(self.kind),
            "source": self.source.id,
            "source_name": self.source.qualname,
            "target": self.target.id,
            "target_name": self.target.qualname,
            "provenance": str(self.provenance),
            "confidence": self.confidence,
            "location": self.location.to_dict(),
            "evidence": self.evidence,
            "flags": sorted(str(f) for f in self.flags),
            "sites": self.sites,
        }


def evidence_line(
    source: NodeKey, kind: EdgeKind, target: NodeKey, location: Location, quote: str
) -> str:
    """``a.f calls b.g at src/a.py:12: g(x)``, at most ``EVIDENCE_MAX`` characters.

    The names and the place always fit whole when they can; the quote is shortened first (with
    ``…``), since re-checking compares its prefix with the file.
    """
    verb = _VERBS.get(kind) or _verb(kind)
    head = f"{source.qualname} {verb} {target.qualname} at {location.path}:{location.line}: "
    room = EVIDENCE_MAX - len(head)
    if room < 10:  # absurdly long names: keep the line, not the shape
        return (head + quote)[: EVIDENCE_MAX - 1] + "…"
    return head + shorten(quote, room)


def _verb(kind: EdgeKind) -> str:
    return str(kind).replace("_", " ") if kind != EdgeKind.HTTP_CALL else "calls over HTTP"


# Each edge's evidence names its kind: worked out once per kind (an enum's ``str`` and ``!=``
# cost about a microsecond an edge, a map writing tens of thousands).
_VERBS = {kind: _verb(kind) for kind in EdgeKind}


def shorten(text: str, room: int) -> str:
    """``text`` cut to ``room`` characters, the cut marked with a trailing ``…``."""
    return text if len(text) <= room else text[: room - 1] + "…"
