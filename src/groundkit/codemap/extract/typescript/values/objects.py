"""What a TypeScript expression is known to hold, as far as static reading can tell."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from groundkit.codemap.extract.typescript.layout import module_name
from groundkit.codemap.extract.typescript.parse.facts import Expr
from groundkit.codemap.model import NodeKey, NodeKind

__all__ = [
    "Anon",
    "Arr",
    "Choice",
    "Created",
    "Def",
    "Emitter",
    "Ext",
    "Feed",
    "Gen",
    "Global",
    "Inst",
    "Lit",
    "Mod",
    "Model",
    "Obj",
    "Scope",
    "Str",
    "Unknown",
    "Value",
    "Web",
    "choice_of",
    "module_key",
    "node_key",
]


@dataclass(frozen=True, slots=True)
class Def:
    """A function, class or method defined in the repository: ``qual`` inside ``path``."""

    path: str
    qual: str
    kind: str  # function, class, method
    # Kept, as ``Made``'s: the value flow hashes definitions in most of its lookups.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.path, self.qual, self.kind)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Mod:
    """A module of the repository (a namespace import, ``require()``)."""

    path: str


@dataclass(frozen=True, slots=True)
class Ext:
    """Something from a package outside the repository: ``axios`` + ``("create", "()")``."""

    package: str
    attrs: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return ".".join((self.package, *self.attrs))


@dataclass(frozen=True, slots=True)
class Inst:
    """An instance of an in-repository class."""

    cls: Def


@dataclass(frozen=True, slots=True, eq=False)
class Obj:
    """An object literal: its members, as records read in ``path``. ``name`` is the qualified
    name it is bound to ("" for none): a table's identity, which member writes are matched to
    (two values are the same table when both have the same path and a name)."""

    path: str
    name: str
    fields: dict[str, Expr]


@dataclass(frozen=True, slots=True)
class Feed:
    """What parameter ``position`` of function ``func`` is given (``path``: the member of it
    that is meant, ``{onDone}`` or ``options.onDone``), known only from the function's call
    sites (``flow.py``)."""

    func: Def
    position: int
    path: tuple[str, ...] = ()
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.func._hash, self.position, self.path)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Str:
    """A string: its pieces, None for a part whose value is unknown (a template field)."""

    pieces: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Web:
    """A web framework object (an app or router: ``router`` names it in the map) or an HTTP
    client (``base``: its base URL in pieces; ``fallback``: the base is the literal fallback of
    an environment variable, ``process.env.X || "http://host/api"``, one of its values)."""

    # express, express-router, koa, koa-router, fastify, hono, axios, ky, fetch, superagent
    role: str
    router: str | None = None
    prefix: str = ""
    base: tuple[str | None, ...] = field(default=())
    fallback: bool = False

    @property
    def is_client(self) -> bool:
        return self.role in ("axios", "ky", "fetch", "superagent")


@dataclass(frozen=True, slots=True)
class Global:
    """A name bound nowhere in the file: a global of the runtime (``console``, ``window``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Anon:
    """An anonymous function of the repository: not a node, its calls belong to the function
    around it, so calling it is neither an edge nor unresolved."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One of several values, chosen at run time (``c ? api.feed : api.all``)."""

    options: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Lit:
    """A literal (number, string, array): its methods are the runtime's."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """Known only at run time: a parameter, a reassigned variable, a computed member."""


# Where an expression is read: (path, scope index); 0 is the module, -1 a file read from outside
# (only its module-level names are seen).
Scope = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Emitter:
    """An event emitter of the runtime's (``new EventEmitter()``, ``new EventTarget()``) bound
    to a name: ``id`` is that name (``ts:<module>:<name>``, as ``Web.router``), "" when it is
    bound to none (then which emitter it is stays unknown)."""

    id: str


@dataclass(frozen=True, slots=True)
class Gen:
    """What calling a generator function of the repository gives: iterating it runs ``func``."""

    func: Def


@dataclass(frozen=True, slots=True)
class Arr:
    """An array bound to a name (``const steps = [...]``, a field's ``this.stack = []``): ``name``
    is its identity in ``path`` (the binding's qualified name, a field's ``Owner:key``); its
    elements are the literal's items and what is stored into it (``arrays.py``)."""

    path: str
    name: str
    kind: str = ""  # "Map", "Set": a collection whose values are set or added (``made.py``)


@dataclass(frozen=True, slots=True)
class Created:
    """What ``Object.create(proto)`` made in a function, bound to a name there: the members
    that function writes on it (``fields[owner]`` of ``path``), else ``proto``'s. Like an
    instance's fields, members written on it elsewhere are not looked for."""

    path: str
    owner: str
    proto: Value


@dataclass(frozen=True, slots=True)
class Made:
    """An array a method made (``xs.map(f)``, ``xs.filter(g)``, ``xs.concat(ys)``): its elements
    are what ``f`` returns (``kind`` "map", "flatMap": the elements of what it returns), or each
    source's (an array's elements, any other value itself: "copy"); ``arrays.py`` reads them.
    ``known``: whether the receiver is known to be an array (else ``map`` may be another's).
    Its hash is kept: a chain of copies shares its parts, which a hash worked out each time
    would visit once per path through them (two to the power of the chain's length)."""

    kind: str
    sources: tuple[Value, ...]
    known: bool = True
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.sources, self.known)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Model:
    """A model an ORM defines by name at run time: ``sequelize.define("tutorial", {...})``."""

    family: str  # sequelize
    name: str


Value = (
    Def
    | Mod
    | Ext
    | Inst
    | Obj
    | Feed
    | Str
    | Web
    | Global
    | Anon
    | Lit
    | Choice
    | Unknown
    | Model
    | Emitter
    | Gen
    | Arr
    | Made
    | Created
)

_KINDS = {"class": NodeKind.CLASS, "function": NodeKind.FUNCTION, "method": NodeKind.METHOD}


def node_key(value: Def) -> NodeKey:
    return NodeKey(_KINDS[value.kind], f"{module_name(value.path)}.{value.qual}", value.path)


def module_key(path: str) -> NodeKey:
    return NodeKey(NodeKind.MODULE, module_name(path), path)


def choice_of(values: Iterable[Value]) -> Value:
    """One of ``values`` (a choice among them flattened), or the one value they all are."""
    flat: list[Value] = []
    for value in values:
        flat.extend(value.options if type(value) is Choice else (value,))
    options = tuple(dict.fromkeys(flat))
    return options[0] if len(options) == 1 else Choice(options)
