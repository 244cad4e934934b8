"""What a TypeScript expression is known to hold, as far as static reading can tell."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Def", "Ext", "Global", "Inst", "Lit", "Mod", "Obj", "Str", "Unknown", "Value", "Web"]


@dataclass(frozen=True, slots=True)
class Def:
    """A function, class or method defined in the repository: ``qual`` inside ``path``."""

    path: str
    qual: str
    kind: str  # function, class, method


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
    """An object literal bound to a name: its members, as summaries read in ``path``."""

    path: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Str:
    """A string: its pieces, None for a part whose value is unknown (a template field)."""

    pieces: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Web:
    """A web framework object (an app or router: ``router`` names it in the map) or an HTTP
    client (``base``: its base URL in pieces)."""

    role: str  # express, express-router, koa, koa-router, fastify, hono, axios, ky, fetch
    router: str | None = None
    prefix: str = ""
    base: tuple[str | None, ...] = field(default=())

    @property
    def is_client(self) -> bool:
        return self.role in ("axios", "ky", "fetch")


@dataclass(frozen=True, slots=True)
class Global:
    """A name bound nowhere in the file: a global of the runtime (``console``, ``window``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Lit:
    """A literal (number, array, anonymous function): its methods are the runtime's."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """Known only at run time: a parameter, a reassigned variable, a computed member."""


Value = Def | Mod | Ext | Inst | Obj | Str | Web | Global | Lit | Unknown
