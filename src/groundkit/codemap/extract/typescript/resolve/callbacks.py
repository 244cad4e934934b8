"""Functions the runtime calls on a caller's behalf (``library.py``): ``setTimeout(f)``,
``xs.map(f)``, ``p.then(f)``, ``el.addEventListener("click", f)``, a test runner's ``it(..., f)``.
The scope that hands the function over is the edge's source (``ts-callback``): certain when the
callee is the runtime's for sure (a global, a method of a literal or of a global), ``partial``
when it is a method of a value that is not known (probably the runtime's array or promise)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.library import PACKAGE_CALLBACKS, callback_positions
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.objects import (
    Arr,
    Def,
    Emitter,
    Ext,
    Feed,
    Global,
    Inst,
    Lit,
    Made,
    Mod,
    Obj,
    Scope,
    Str,
    Value,
    node_key,
)
from groundkit.codemap.model import EdgeFlag, EdgeKind, Location, NodeKey, Provenance

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.resolve.calls import CallingFile

__all__ = ["callbacks"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_OURS = (Def, Inst, Obj, Mod)  # a method of one of these is the repository's, not the runtime's
_RUNTIME = (Global, Lit, Str, Emitter, Arr, Made)  # a Made one: an array's, if known
_PARTIAL = frozenset({EdgeFlag.PARTIAL})


def callbacks(
    file: CallingFile,
    site: facts.CallSite,
    ref: list[str],
    receiver: Value | None,
    context: Scope,
    caller: NodeKey,
    where: Location,
    callee: Value | None = None,
) -> None:
    """Edges to the functions ``site`` hands to the runtime or to a package that calls them
    (``callee``: what the call's name holds, when the caller has it)."""
    args = site.args
    if not args:
        return
    hooked = _package_positions(callee) if type(callee) is Ext else ()
    if hooked:
        _call_back(file, site, hooked, context, caller, where, certain=True)
        return
    if type(receiver) is Mod and isinstance(file.ev.export(receiver.path, "="), _RUNTIME):
        receiver = file.ev.export(receiver.path, "=")  # module.exports = [...]: an array
    if not callback_positions(ref, len(args), True):
        return  # none as a global, so none as a method (most calls): the head is not read again
    if receiver is None:
        head: Value = file.ev.reference(ref[:1], context)
        is_global, certain = type(head) is Global, True
    elif _promised(file, ref, context):  # the runtime's promise, whatever the function returns
        is_global, certain = False, True
    elif isinstance(receiver, _OURS) and not _inherited_from_a_package(file, receiver, ref[-1]):
        return
    else:
        head = file.ev.reference(ref[:1], context)
        is_global = type(head) is Global and type(receiver) is Global
        vague = type(receiver) is Made and not receiver.known  # maybe no array's map
        certain = isinstance(receiver, _RUNTIME) and not vague
    positions = callback_positions(ref, len(args), is_global)
    _call_back(file, site, positions, context, caller, where, certain=certain)


def _call_back(
    file: CallingFile,
    site: facts.CallSite,
    positions: tuple[int, ...],
    context: Scope,
    caller: NodeKey,
    where: Location,
    *,
    certain: bool,
) -> None:
    """An edge from ``caller`` to each function of the repository given at ``positions``."""
    args = site.args or []
    for position in positions:
        if position >= len(args):
            continue
        for target in _functions(file, file.ev.value(args[position], context)):
            flags = frozenset() if certain else _PARTIAL
            file.edge(
                EdgeKind.CALLS,
                caller,
                node_key(target),
                Provenance.TS_CALLBACK,
                where,
                site.line,
                flags,
            )


def _promised(file: CallingFile, ref: list[str], context: Scope) -> bool:
    """``load().then(f)``, ``load().then(f).catch(g)``: a promise's method, ``load`` an
    ``async`` function of the repository (whose call gives the runtime's promise, whatever it
    returns), or a chain of ``then``/``catch``/``finally`` on one."""
    if ref[-1] not in _PROMISED:
        return False
    receiver = ref[:-1]
    while len(receiver) > 2 and receiver[-1] == "()" and receiver[-2] in _PROMISED:
        receiver = receiver[:-2]
    if len(receiver) < 2 or receiver[-1] != "()":
        return False
    called = file.ev.reference(receiver[:-1], context)
    return type(called) is Def and called.qual in file.ev.interface(called.path).asyncs


_PROMISED = frozenset({"then", "catch", "finally"})


def _package_positions(callee: Ext) -> tuple[int, ...]:
    """The positions a package's function calls back (``library.PACKAGE_CALLBACKS``): known by
    the import the callee is bound to (``useEffect`` of ``react``, however renamed)."""
    if len(callee.attrs) != 1:
        return ()
    return PACKAGE_CALLBACKS.get((callee.package, callee.attrs[0]), ())


def _inherited_from_a_package(file: CallingFile, receiver: Value, name: str) -> bool:
    """``this.on(...)`` in a class that extends a package's (``EventEmitter``) and defines no
    ``on`` of its own: the package's method, probably the runtime's (partial)."""
    if type(receiver) is not Inst or receiver.cls.kind != "class":
        return False
    classes = file.ev.classes
    return classes.method(receiver.cls, name) is None and classes.has_bases(receiver.cls)


def _functions(file: CallingFile, value: Value) -> list[Def]:
    """The functions of the repository an argument is: itself, or what a parameter holds."""
    if type(value) is Def:
        return [value] if value.kind != "class" else []
    if type(value) is Feed:
        held = file.flow.feeds(value) or set()
        return sorted(
            (v for v in held if type(v) is Def and v.kind != "class"),
            key=lambda d: (d.path, d.qual),
        )
    return []
