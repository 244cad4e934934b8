"""What ``this`` is in a function that is an object's member, and the members a function or a
table has that were not written by name on it: copied from other objects (``Object.assign(f,
src)``, ``mixin(app, proto)``) or made from a list of names (``methods.forEach((m) => {
app[m] = function ... })``), which names known only at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Def,
    Mod,
    Obj,
    Scope,
    Unknown,
    Value,
    choice_of,
)

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["holder", "inherited", "made_from_a_list", "or_copies"]


def holder(ev: Evaluator, scope: Scope) -> Value:
    """``this`` in a function of no class: the object it is a member of (``app.set =
    function``, a literal's method), read from around that function; else Unknown."""
    path, index = scope
    body = ev.body_of(path)
    while body is not None and index > 0:
        held = body.binds.get(index, {}).get("this")
        if held is not None:
            outer = body.scopes[index].parent
            if type(held) is facts.Ref and held.parts == facts.MODULE_EXPORTS:
                return ev.export(path, "=")
            return ev.value(held, (path, outer)) if type(held) is facts.Ref else Unknown()
        index = body.scopes[index].parent
    return Unknown()


def inherited(ev: Evaluator, path: str, proto: facts.Expr, name: str) -> Value:
    """``name`` on a function whose other members come from ``proto`` (a prototype set, or
    objects copied onto it, several in order): the last that has it gives it; one that may
    have it, not known, makes it Unknown."""
    sources = proto.options if type(proto) is facts.Choice else [proto]
    for source in reversed(sources):
        held = ev.value(source, (path, -1))
        if type(held) is Mod:
            held = ev.export(held.path, "=")
        if type(held) is Obj and not _has(ev, held, name):
            continue
        return ev.attribute(held, name)
    return Unknown()


def made_from_a_list(ev: Evaluator, path: str, owner: str) -> Value:
    """A member not written by name of a table that ``methods.forEach((m) => { app[m] =
    function ... })`` gives members: maybe that function (which names it makes is known only
    at run time)."""
    made = ev.interface(path).statics.get(owner, {}).get(facts.GIVEN_KEY)
    if made is None or not ev.assigned_once(path, owner, facts.GIVEN_KEY, computed=True):
        return Unknown()
    return choice_of((ev.value(made, (path, -1)), Unknown()))


def _has(ev: Evaluator, table: Obj, name: str) -> bool:
    """Whether a table may have ``name``: in its literal, or written at module level."""
    statics = ev.interface(table.path).statics.get(table.name, {}) if table.name else {}
    made = facts.GIVEN_KEY in statics  # members made from a list of names: maybe this one
    return name in table.fields or name in statics or made or ev.opened(table, name)


def or_copies(ev: Evaluator, table: Obj) -> Value:
    """``this`` in a member's function of ``table``: the table, or a function its members
    were copied onto (``mixin(app, proto)``: called as ``app.handle()``, ``this`` is
    ``app``), whose own members it then reads."""
    if ev.copies is None:
        ev.copies = _copy_targets(ev)
    ev.consulted = True  # which functions a table is copied onto: any file may say
    onto = ev.copies.get((table.path, table.name))
    return choice_of((table, *onto)) if onto else table


def _copy_targets(ev: Evaluator) -> dict[tuple[str, str], list[Def]]:
    found: dict[tuple[str, str], list[Def]] = {}
    saved, ev.deps = ev.deps, set()
    try:
        for path in sorted(ev.layout.sources):
            for qual, members in ev.interface(path).fields.items():
                copied = members.get("__proto__")
                if copied is None or facts.OWN in qual:
                    continue
                for source in copied.options if type(copied) is facts.Choice else [copied]:
                    held = ev.value(source, (path, -1))
                    if type(held) is Mod:
                        held = ev.export(held.path, "=")
                    if type(held) is Obj and held.name:
                        onto = found.setdefault((held.path, held.name), [])
                        onto.append(ev.classes.definition(path, qual))
    finally:
        ev.deps = saved
    return found
