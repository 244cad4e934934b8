"""The chain to the database: models, tables, environment variables and who reads or writes
them, as language-neutral facts each file reports (``Data``) and the map-wide pass joins
(``assemble``).

A file reports what it declares (a model class with its table, a ``Table(...)``, a Prisma
model) and what its functions do (``select(User)``: reads the model named ``app.models.User``
as the file's imports spell it; ``prisma.user.findMany()``: reads the Prisma model whose
accessor is ``user``; ``os.getenv("X")``: reads ``env:X``). ``assemble`` makes table, model and
env nodes and the ``reads``, ``writes`` and ``maps_to`` edges, naming a model only when exactly
one declaration answers to the name: never a guess. What stays unresolved is counted with its
reason (``Assembled.unresolved``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from groundkit.codemap.edges import EdgeSet
from groundkit.codemap.model import Edge, EdgeKind, Location, Node, NodeKey, NodeKind, Provenance

__all__ = [
    "FLASK_SQLALCHEMY",
    "Access",
    "Assembled",
    "Data",
    "DjangoClass",
    "Hook",
    "ModelDecl",
    "assemble",
    "dump_data",
    "load_data",
]

READ, WRITE, CALL = "read", "write", "call"


@dataclass(frozen=True, slots=True)
class ModelDecl:
    """A model: ``name`` is how accesses name it (``app.models.User``; ``prisma:User``);
    ``node`` its class (None for a Prisma model or a ``Table(...)`` variable, which get a node
    of their own); ``table`` its table, or "" with ``reason`` why it is not known."""

    name: str
    node: NodeKey | None
    table: str
    provenance: Provenance
    location: Location
    quote: str
    reason: str = ""
    accessor: str = ""  # how a client names it (Prisma: ``user`` for ``model User``)
    # The table the ORM documents for a model naming none (TypeORM's DefaultNamingStrategy):
    # taken only when no file of the repository configures ``family``'s naming (``configured``).
    default: str = ""
    family: str = ""
    # Flask-SQLAlchemy (family ``flask-sqlalchemy:<the instance>``): the class's other bases,
    # none of which may set ``__tablename__`` for the default to hold
    bases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Access:
    """``caller`` reads or writes ``target``: a model by name (``model``; ``static``: a class
    that may be one, by a static method's call), a Prisma accessor (``prisma``), a table by
    name (``table``) or an environment variable (``env``); or calls
    it (mode ``call``): a function by name (``function``), or each dependency an alias of an
    annotation declares (``alias``: ``depends.py``)."""

    caller: NodeKey
    what: str  # model, static, prisma, table, env, function, alias
    target: str
    mode: str  # read, write
    provenance: Provenance
    location: Location
    quote: str


@dataclass(frozen=True, slots=True)
class Hook:
    """``function`` (a dotted name, as the file's imports spell it) runs before each request
    that a route of ``router`` serves (``routes.RouterDef``'s name: ``py:flaskr.auth.bp``);
    with ``app_wide``, before every request of each app that registers ``router`` (Flask's
    ``Blueprint.before_app_request``). ``codemap.route_hooks`` draws the edges."""

    router: str
    function: str
    app_wide: bool
    provenance: Provenance
    location: Location
    quote: str


@dataclass(frozen=True, slots=True)
class DjangoClass:
    """A class that may be a Django model, as one file declares it (``data/django.py`` decides
    over the map, its bases being perhaps another file's): ``bases`` as the imports spell them;
    ``table`` and ``app_label`` from its ``Meta`` when literal (``meta``: it declares one)."""

    name: str
    node: NodeKey
    bases: tuple[str, ...]
    abstract: bool
    proxy: bool
    meta: bool
    table: str
    app_label: str
    location: Location
    quote: str


@dataclass(slots=True)
class Data:
    models: list[ModelDecl] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    unresolved: Counter[str] = field(default_factory=Counter)  # reason -> count
    # an alias of an annotation (``app.deps.CurrentUser``) -> a dependency it declares
    aliases: list[tuple[str, str]] = field(default_factory=list)
    # ORMs whose table naming a file configures (``namingStrategy``): their defaults not taken
    configured: set[str] = field(default_factory=set)
    hooks: list[Hook] = field(default_factory=list)
    django: list[DjangoClass] = field(default_factory=list)
    apps: list[tuple[str, str]] = field(default_factory=list)  # AppConfig (name, label or "")
    # module-level names bound to flask_sqlalchemy.SQLAlchemy(...) (``app.db``): their
    # ``Model`` maps a class to Flask-SQLAlchemy's default table
    instances: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        facts = (self.models, self.accesses, self.unresolved, self.aliases, self.hooks)
        return any(facts) or bool(self.django or self.apps or self.configured or self.instances)

    def extend(self, other: Data) -> None:
        self.models.extend(other.models)
        self.accesses.extend(other.accesses)
        self.unresolved.update(other.unresolved)
        self.aliases.extend(other.aliases)
        self.configured.update(other.configured)
        self.hooks.extend(other.hooks)
        self.django.extend(other.django)
        self.apps.extend(other.apps)
        self.instances.update(other.instances)


def _loc(location: Location) -> list[object]:
    return [location.path, location.line, location.col, location.end_line, location.end_col]


def _key(key: NodeKey | None) -> list[str] | None:
    return None if key is None else [str(key.kind), key.qualname, key.path]


def _unkey(raw: list[str] | None) -> NodeKey | None:
    return None if raw is None else NodeKey(NodeKind(raw[0]), raw[1], raw[2])


def dump_data(data: Data) -> dict[str, object]:
    return {
        "models": [
            [
                *(m.name, _key(m.node), m.table, str(m.provenance), _loc(m.location)),
                *(m.quote, m.reason, m.accessor),
                *((m.default, m.family, list(m.bases)) if m.default else ()),
            ]
            for m in data.models
        ],
        "accesses": [
            [
                *(_key(a.caller), a.what, a.target, a.mode, str(a.provenance)),
                *(_loc(a.location), a.quote),
            ]
            for a in data.accesses
        ],
        "unresolved": dict(data.unresolved),
        **({"aliases": [list(a) for a in data.aliases]} if data.aliases else {}),
        **({"configured": sorted(data.configured)} if data.configured else {}),
        **({"hooks": [_dump_hook(h) for h in data.hooks]} if data.hooks else {}),
        **({"django": [_dump_django(c) for c in data.django]} if data.django else {}),
        **({"apps": [list(a) for a in data.apps]} if data.apps else {}),
        **({"instances": sorted(data.instances)} if data.instances else {}),
    }


def _dump_django(c: DjangoClass) -> list[object]:
    flags = [c.abstract, c.proxy, c.meta, c.table, c.app_label]
    return [c.name, _key(c.node), list(c.bases), *flags, _loc(c.location), c.quote]


def _dump_hook(hook: Hook) -> list[object]:
    how = [str(hook.provenance), _loc(hook.location), hook.quote]
    return [hook.router, hook.function, hook.app_wide, *how]


def load_data(raw: dict[str, Any], into: Data) -> None:
    for m in raw.get("models", ()):
        into.models.append(
            ModelDecl(
                *(m[0], _unkey(m[1]), m[2], Provenance(m[3]), Location(*m[4]), m[5], m[6], m[7]),
                default=m[8] if len(m) > 8 else "",
                family=m[9] if len(m) > 9 else "",
                bases=tuple(m[10]) if len(m) > 10 else (),
            )
        )
    for a in raw.get("accesses", ()):
        caller = _unkey(a[0])
        assert caller is not None
        into.accesses.append(
            Access(caller, a[1], a[2], a[3], Provenance(a[4]), Location(*a[5]), a[6])
        )
    into.unresolved.update(raw.get("unresolved", {}))
    into.aliases.extend((a[0], a[1]) for a in raw.get("aliases", ()))
    into.configured.update(raw.get("configured", ()))
    into.hooks.extend(
        Hook(h[0], h[1], h[2], Provenance(h[3]), Location(*h[4]), h[5])
        for h in raw.get("hooks", ())
    )
    for c in raw.get("django", ()):
        node = _unkey(c[1])
        assert node is not None
        flags = (bool(c[3]), bool(c[4]), bool(c[5]), str(c[6]), str(c[7]))
        into.django.append(DjangoClass(c[0], node, tuple(c[2]), *flags, Location(*c[8]), c[9]))
    into.apps.extend((a[0], a[1]) for a in raw.get("apps", ()))
    into.instances.update(raw.get("instances", ()))


@dataclass(slots=True)
class Assembled:
    nodes: list[Node]
    edges: list[Edge]
    unresolved: Counter[str]


FLASK_SQLALCHEMY = "flask-sqlalchemy:"  # a ModelDecl's family: the instance follows


def table_key(name: str) -> NodeKey:
    return NodeKey(NodeKind.TABLE, f"table:{name}", "")


def env_key(name: str) -> NodeKey:
    return NodeKey(NodeKind.ENV, f"env:{name}", "")


def assemble(
    parts: Iterable[Data], named: Callable[[str], Iterable[NodeKey]] | None = None
) -> Assembled:
    """Nodes and edges from every file's data facts together; ``named`` gives the map's nodes
    of a name, for the functions called by name (none without it)."""
    data = merged(list(parts))
    nodes: dict[NodeKey, Node] = {}
    edges = EdgeSet()
    by_name: dict[str, list[tuple[ModelDecl, NodeKey]]] = {}
    by_accessor: dict[str, list[tuple[ModelDecl, NodeKey]]] = {}
    tablenamed = {m.name for m in data.models if m.provenance == Provenance.TABLE_DECLARED}
    declared = (
        _defaulted(m, data.configured, tablenamed)
        for m in data.models
        # a class on ``X.Model`` is a model only where X is a Flask-SQLAlchemy instance
        if not m.family.startswith(FLASK_SQLALCHEMY)
        or m.family.removeprefix(FLASK_SQLALCHEMY) in data.instances
    )
    for model in sorted(declared, key=lambda m: (m.name, m.location)):
        node = model.node
        if node is None:
            by_name_only = model.name.startswith(("prisma:", "sequelize:"))  # else Drizzle's
            kind = NodeKind.MODEL if by_name_only else NodeKind.TABLE
            node = NodeKey(kind, model.name, model.location.path)
            if kind == NodeKind.TABLE:
                node = table_key(model.table)
            nodes.setdefault(node, Node(node, "", model.location.line, model.location.line))
        by_name.setdefault(model.name, []).append((model, node))
        if model.accessor:
            by_accessor.setdefault(model.accessor, []).append((model, node))
        if not model.table:
            data.unresolved[f"model table not known: {model.reason}"] += 1
            continue
        table = table_key(model.table)
        nodes.setdefault(table, Node(table, ""))
        if node != table:
            edges.add(EdgeKind.MAPS_TO, node, table, model.provenance, model.location, model.quote)
    aliases: dict[str, set[str]] = {}
    for alias, dependency in data.aliases:
        aliases.setdefault(alias, set()).add(dependency)
    for access in data.accesses:
        if access.mode == CALL:
            for callee in _called(access, aliases, named, data.unresolved) if named else ():
                how = (access.provenance, access.location, access.quote)
                edges.add(EdgeKind.CALLS, access.caller, callee, *how)
            continue
        target = _target(access, by_name, by_accessor, nodes, data.unresolved)
        if target is None:
            continue
        verb = EdgeKind.WRITES if access.mode == WRITE else EdgeKind.READS
        edges.add(verb, access.caller, target, access.provenance, access.location, access.quote)
    return Assembled(sorted(nodes.values(), key=lambda n: n.key), edges.edges(), data.unresolved)


def _defaulted(model: ModelDecl, configured: set[str], tablenamed: set[str]) -> ModelDecl:
    """``model`` with its ORM's documented default table, unless the repository configures
    that ORM's naming, or a base of the class sets ``__tablename__`` (then the reason says so)."""
    if model.table or not model.default:
        return model
    if any(base in tablenamed for base in model.bases):
        return replace(model, reason=f"{model.reason}, and a base sets __tablename__")
    if model.family in configured:
        reason = f"{model.reason}, and the repository configures it"
        return replace(model, reason=reason)
    return replace(model, table=model.default, provenance=Provenance.TABLE_DEFAULT)


def _target(
    access: Access,
    by_name: dict[str, list[tuple[ModelDecl, NodeKey]]],
    by_accessor: dict[str, list[tuple[ModelDecl, NodeKey]]],
    nodes: dict[NodeKey, Node],
    unresolved: Counter[str],
) -> NodeKey | None:
    if access.what == "env":
        key = env_key(access.target)
        nodes.setdefault(key, Node(key, ""))
        return key
    if access.what == "table":
        key = table_key(access.target)
        nodes.setdefault(key, Node(key, ""))
        return key
    found = (by_accessor if access.what == "prisma" else by_name).get(access.target, [])
    if access.what == "static":  # a static call on any class: an access only if it is a model
        return found[0][1] if len({node for _, node in found}) == 1 else None
    if not found and access.what == "model":
        found = _reexported(access.target, by_name)
    if len({node for _, node in found}) != 1:
        unresolved["access to a model not found" if not found else "model ambiguous"] += 1
        return None
    return found[0][1]


_CALLABLE = frozenset({NodeKind.FUNCTION, NodeKind.METHOD, NodeKind.CLASS})


def _called(
    access: Access,
    aliases: dict[str, set[str]],
    named: Callable[[str], Iterable[NodeKey]],
    unresolved: Counter[str],
) -> list[NodeKey]:
    """The functions a call by name reaches: the one node of that name (an alias: of each
    dependency it declares; a name that is no alias is an annotation's class, not a call)."""
    names = [access.target] if access.what == "function" else sorted(aliases.get(access.target, ()))
    out = []
    for name in names:
        found = {key for key in named(name) if key.kind in _CALLABLE}
        if len(found) == 1:
            out.append(found.pop())
        else:
            unresolved["called by name: " + ("ambiguous" if found else "not in the map")] += 1
    return out


def _reexported(
    name: str, by_name: dict[str, list[tuple[ModelDecl, NodeKey]]]
) -> list[tuple[ModelDecl, NodeKey]]:
    """``app.models.User`` imported through a package that re-exports it from
    ``app.models.user``: the one model of that name below the package, if there is one."""
    package, _, short = name.rpartition(".")
    if not package:
        return []
    return [
        found
        for full, items in by_name.items()
        if full.startswith(package + ".") and full.rpartition(".")[2] == short
        for found in items
    ]


def merged(items: Sequence[Data]) -> Data:
    out = Data()
    for item in items:
        out.extend(item)
    return out
