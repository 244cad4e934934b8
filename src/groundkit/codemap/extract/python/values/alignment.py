"""What an edit added to a file's program, when that is all it did: every old operation, site,
scope and import is still there, and the new code's variables are one run of numbers (the
walker numbers a statement's variables as it reads it; a function's own variable comes after
its body, so a line added to a body shifts the variables after it by the same count).

Sites are compared without their places (code below an edit moves down), and must keep their
numbers: new sites only after the old ones (a line added at the end of a file, or of the last
function with calls after it). Anything else raises ``Reached``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Facts

__all__ = ["VARS", "VAR_LISTS", "Alignment", "Reached", "align", "renamed", "same_frame"]

_ENCODE = msgspec.msgpack.Encoder().encode
# The fields of an operation that hold one of the file's variables (the rest are scopes,
# sites, names, indexes and flags).
VARS = frozenset(
    {"dst", "src", "obj", "func", "left", "right", "before", "ann", "receiver", "var", "guard"}
)
VAR_LISTS = frozenset({"srcs", "pieces"})  # (a template's pieces: its values' variables)


class Reached(Exception):
    """The edit reaches what a continuation may not change: solve the whole program."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Alignment:
    """The new code's variables (``gap`` of them, from ``gap_at``) and its operations."""

    gap_at: int
    gap: int
    added: list[facts.Op]


def align(old: Facts, new: Facts) -> Alignment:
    """How ``new`` extends ``old``; raises ``Reached`` when it does not only add code."""
    gap = new.variables - old.variables
    if gap < 0 or len(new.scopes) != len(old.scopes) or len(new.sites) < len(old.sites):
        raise Reached("the edit removed code or added a scope")
    if new.all != old.all or len(new.imports) < len(old.imports):
        raise Reached("the edit changed what the module imports or exports")
    encoded = [_ENCODE(op) for op in new.ops]
    for at in _candidates(old, new, encoded):
        shift = _shifter(at, gap)
        before = {_ENCODE(renamed(op, shift)) for op in old.ops}
        if before.issubset(encoded) and same_frame(old, new, shift):
            added = [op for op, code in zip(new.ops, encoded, strict=True) if code not in before]
            return Alignment(at, gap, added)
    raise Reached("the edit changed or removed an operation")


def _shifter(at: int, gap: int) -> Callable[[int], int]:
    def shift(var: int) -> int:
        return var + gap if var >= at else var

    return shift


def _candidates(old: Facts, new: Facts, encoded: list[bytes]) -> list[int]:
    """Where the new variables may begin: at the end, or at a variable of the first operation
    that differs."""
    first = next(
        (i for i, op in enumerate(old.ops) if i >= len(encoded) or _ENCODE(op) != encoded[i]),
        len(old.ops),
    )
    found = [old.variables]
    for op in new.ops[first : first + 2]:
        found += [v for v in _variables(op) if 0 <= v <= old.variables and v not in found]
    return found


def _variables(op: Any) -> list[int]:
    out = [getattr(op, name) for name in VARS if hasattr(op, name)]
    for name in VAR_LISTS:
        out += [v for v in getattr(op, name, ()) if type(v) is int]
    return out


def renamed(op: Any, shift: Callable[[int], int]) -> Any:
    """``op`` with each variable it names passed through ``shift``."""
    changes: dict[str, Any] = {}
    for name in op.__struct_fields__:
        value = getattr(op, name)
        if name in VARS:
            changes[name] = shift(value) if value >= 0 else value
        elif name in VAR_LISTS:
            changes[name] = tuple(shift(v) if type(v) is int and v >= 0 else v for v in value)
    return msgspec.structs.replace(op, **changes) if changes else op


def same_frame(old: Facts, new: Facts, shift: Callable[[int], int]) -> bool:
    """The old sites (and the flags in force at each), scopes and imports, renamed, are the
    new ones (places aside)."""

    def var(v: int) -> int:
        return shift(v) if v >= 0 else ~shift(~v)  # ``~v``: a starred argument

    sites = [
        (s.scope, s.kind, s.name, s.dynamic, s.target, s.factory, s.holder,
         tuple(var(a) for a in s.args), tuple((k, var(v)) for k, v in s.keywords), s.numbers)
        for s in old.sites
    ]  # fmt: skip
    news = [
        (s.scope, s.kind, s.name, s.dynamic, s.target, s.factory, s.holder, s.args, s.keywords,
         s.numbers)
        for s in new.sites[: len(old.sites)]
    ]  # fmt: skip
    scopes = [
        (s.qual, s.kind, s.parent, s.flags, s.decorators, s.base_refs,
         tuple(shift(b) if b >= 0 else b for b in s.bases),
         [(p.name, p.kind, var(p.default) if p.default >= 0 else p.default,
           var(p.annotation) if p.annotation >= 0 else p.annotation) for p in s.params],
         s.guards)
        for s in old.scopes
    ]  # fmt: skip
    new_scopes = [
        (s.qual, s.kind, s.parent, s.flags, s.decorators, s.base_refs, s.bases,
         [(p.name, p.kind, p.default, p.annotation) for p in s.params], s.guards)
        for s in new.scopes
    ]  # fmt: skip
    imports = [(i.scope, i.module, i.level, i.name, i.flags) for i in old.imports]
    new_imports = [(i.scope, i.module, i.level, i.name, i.flags) for i in new.imports]
    # (a site's flags judge edges of other files, which a continuation does not draw again:
    # ``values/contexts.py``)
    flagged = [(site, tuple(shift(v) for v in copies)) for site, copies in old.flagged]
    new_flagged = [(site, copies) for site, copies in new.flagged if site < len(old.sites)]
    return (
        sites == news
        and scopes == new_scopes
        and imports == new_imports[: len(imports)]
        and flagged == new_flagged
    )
