"""What a Python expression is known to be, statically: the resolver's vocabulary.

Every value is frozen and hashable, so that "every assignment agrees" is an equality test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from groundkit.codemap.model import NodeKey, NodeKind

__all__ = [
    "KINDS",
    "UNKNOWN",
    "Bound",
    "Builtin",
    "Def",
    "Ext",
    "ExtInst",
    "Inst",
    "Lit",
    "Mod",
    "Str",
    "Super",
    "Tmpl",
    "Unknown",
    "Value",
    "node_key",
]


@dataclass(frozen=True, slots=True)
class Mod:
    """A module of the repository."""

    path: str
    name: str


@dataclass(frozen=True, slots=True)
class Def:
    """A class or function defined in the repository."""

    path: str
    module: str
    qual: str
    kind: str  # class / function / method

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.qual}"


@dataclass(frozen=True, slots=True)
class Inst:
    """An instance of an in-repository class. ``origin``: the module-level variable holding it."""

    cls: Def
    # Where it is held and made: not part of what it *is*, so two bindings still agree.
    origin: str | None = field(default=None, compare=False)
    site: tuple[str, int] | None = field(default=None, compare=False)  # (file, call index)


@dataclass(frozen=True, slots=True)
class Super:
    cls: Def


@dataclass(frozen=True, slots=True)
class Ext:
    """Something outside the repository, by dotted name (``httpx.Client``)."""

    name: str


@dataclass(frozen=True, slots=True)
class ExtInst:
    """An instance of an outside class, as the call that made it: ``httpx.Client(...)``."""

    name: str
    origin: str | None = field(default=None, compare=False)
    site: tuple[str, int] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Bound:
    """A method looked up on an outside instance: ``client.get``."""

    receiver: ExtInst
    attr: str


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str


@dataclass(frozen=True, slots=True)
class Lit:
    """A value of a built-in type (a literal, a container, a string built at run time)."""


@dataclass(frozen=True, slots=True)
class Str:
    value: str


@dataclass(frozen=True, slots=True)
class Tmpl:
    """A string built from parts: text, or None for an unknown field."""

    pieces: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Unknown:
    pass


UNKNOWN = Unknown()

Value = Mod | Def | Inst | Super | Ext | ExtInst | Bound | Builtin | Lit | Str | Tmpl | Unknown


# A definition's kind (as the parser names scopes) to its node kind.
KINDS = {
    "class": NodeKind.CLASS,
    "function": NodeKind.FUNCTION,
    "method": NodeKind.METHOD,
    "lambda": NodeKind.FUNCTION,
}


def node_key(value: Def) -> NodeKey:
    return NodeKey(KINDS[value.kind], value.dotted, value.path)
