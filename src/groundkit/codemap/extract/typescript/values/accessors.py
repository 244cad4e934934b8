"""Accessors: the ``get x()`` a member read runs, the ``set x(v)`` a member write runs, on an
instance of a class of the repository (or its bases), on the class itself (``static``), or on
an object literal bound to a name."""

from __future__ import annotations

from collections.abc import Callable

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.classes import Classes
from groundkit.codemap.extract.typescript.values.objects import Def, Inst, Obj, Value

__all__ = ["accessor"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.


def accessor(
    interface: Callable[[str], facts.Module],
    classes: Classes,
    value: Value,
    name: str,
    *,
    write: bool = False,
) -> Def | None:
    """The getter (``write``: the setter) reading (writing) ``value.name`` runs, else None."""
    found: Def | None = None
    static = False
    if type(value) is Inst and value.cls.kind == "class":
        method = classes.method(value.cls, name)
        found = method[0] if method is not None else None
    elif type(value) is Def and value.kind == "class":
        method = classes.method(value, name)
        found, static = (method[0] if method is not None else None), True
    elif type(value) is Obj and value.name:
        member = value.fields.get(name)
        if type(member) is facts.Fn:  # a literal's getter and setter: the field holds the later
            found = _paired(interface(value.path), value.path, member.qual, write)
    if found is None:
        return None
    iface = interface(found.path)
    if (found.qual in iface.static_accessors) != static:
        return None  # an instance's member is not the class's static one, nor the reverse
    return found if found.qual in (iface.setters if write else iface.getters) else None


def _paired(iface: facts.Module, path: str, qual: str, write: bool) -> Def | None:
    """The accessor of a literal's member ``qual`` (``t.x``, or ``t.x#2`` when a getter and a
    setter share the key) that a read (a write) runs: ``qual`` or its namesake."""
    wanted = iface.setters if write else iface.getters
    base = qual.rsplit("#", 1)[0] if qual.rpartition("#")[2].isdigit() else qual
    for q in wanted:
        if q == base or (q.startswith(base + "#") and q[len(base) + 1 :].isdigit()):
            return Def(path, q, "function")
    return None
