"""Handlers kept in a registry each class may hold its own of: the receiver they are handed is a
run-time choice.

``self.handlers[tag](self)`` runs a handler read from a class attribute through the receiver
and hands it that receiver. Where every class the receiver may be finds the same registry, the
handler sees every such receiver. Where classes find different ones (a subclass binds its own
``handlers``, or a classmethod gives each class its copy before writing, ``cls.handlers =
cls.handlers.copy(); cls.handlers[tag] = handler``: pyyaml's ``add_constructor(...,
Loader=MyLoader)``), a handler registered on one subclass is only ever handed instances of it,
but the flow pairs every handler with every receiver (the classmethod's writes are not told
apart by the class they ran for). So the parameters such a call hands the receiver to hold a
choice: what the handler calls on it is drawn ``partial``, never certain.

Found after the solve from the call sites' facts (the callee read from a subscript of an
attribute of a local, that same local among the arguments) and the copy edges into the
callees' parameters; no state is kept during the solve for it.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey
from groundkit.codemap.extract.python.values.program import FileInfo
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["handed_the_receiver"]

_RECEIVERS = (objects.INST, objects.CONE, objects.CLASS, objects.CCONE)
# Copies followed back from a callee to where it was read (locals, branches meeting).
_DEPTH = 8


def handed_the_receiver(flow: Flow) -> list[int]:
    """The parameter cells that calls of a handler read from a per-class registry through a
    receiver hand that receiver."""
    chosen: list[int] = []
    files = flow.program.files
    succ = flow.engine.succ
    for site, found in flow.found.items():
        info = files[site[0]]
        call = info.calls_by_site().get(site[1])
        if call is None:
            continue
        registries = _registries(info, call.func)  # (most sites: none, found in a few lookups)
        if not registries:
            continue
        facts_site = info.facts.sites[site[1]]
        args = [a for a in facts_site.args if a >= 0] + [v for _, v in facts_site.keywords]
        roots = {info.copied_from(a): a for a in args}
        funcs = [FuncKey(t) for t in found.targets if _is_func(flow, t)]
        for receiver, attr in registries:
            arg = roots.get(info.copied_from(receiver))
            if arg is None or not funcs:
                continue
            if not _differs_by_class(flow, flow.var(site[0], receiver), attr):
                continue
            into = succ[flow.var(site[0], arg)]
            fed = {into} if isinstance(into, int) else set(into or ())
            for func in funcs:
                for index in range(len(flow.scope(func).params)):
                    cell = flow.cells.get(("param", func, index))
                    if cell is not None and cell in fed:
                        chosen.append(cell)
    return chosen


def _is_func(flow: Flow, target: FuncKey | ClassKey) -> bool:
    return flow.program.scope(target).kind != facts.Kind.CLASS


def _registries(info: FileInfo, callee: int) -> list[tuple[int, str]]:
    """Where the callee local was read from ``local.attr[...]``: each (local, attr)."""
    found: list[tuple[int, str]] = []
    seen: set[int] = set()
    todo = [(callee, 0)]
    while todo:
        local, depth = todo.pop()
        if local in seen or depth > _DEPTH:
            continue
        seen.add(local)
        op = info.op_of(local)
        if isinstance(op, facts.Copy):
            todo.append((op.src, depth + 1))
        elif isinstance(op, (facts.Phi, facts.Final)):
            todo.extend((src, depth + 1) for src in op.srcs)
        elif isinstance(op, facts.Sub) and not op.slice:
            held = info.op_of(info.copied_from(op.obj))
            if isinstance(held, facts.Attr) and held.attr is not None:
                found.append((_instance(info, held.obj), held.attr))
    return found


def _instance(info: FileInfo, local: int) -> int:
    """The instance ``local`` is the class of (``x.__class__``, ``type(x)``), else ``local``:
    a registry read through the receiver's class is the receiver's registry."""
    op = info.op_of(info.copied_from(local))
    if isinstance(op, facts.Attr) and op.attr == "__class__":
        return op.obj
    if isinstance(op, facts.Call):
        called = info.op_of(info.copied_from(op.func))
        args = info.facts.sites[op.site].args
        if isinstance(called, facts.Global) and called.name == "type" and len(args) == 1:
            return args[0] if args[0] >= 0 else local
    return local


def _differs_by_class(flow: Flow, receiver: int, attr: str) -> bool:
    """Whether the classes ``receiver`` may be (or be an instance of) find ``attr`` in
    different class attribute cells: each class's registry may hold other handlers."""
    program = flow.program
    keys = flow.values.keys
    held = flow.engine.held
    seen: set[tuple[int, ...]] = set()
    classes: set[ClassKey] = set()
    for value in held(receiver):
        if keys[value][0] in _RECEIVERS:
            classes.update(flow.classes_of(value))
    for cls in classes:
        cells: list[int] = []
        for owner in program.mro(cls):
            cell = flow.cells.get(("cattr", owner, attr))
            if cell is not None and held(cell):
                cells.append(cell)
            if program.binds_in_class(owner, attr):
                break
        seen.add(tuple(cells))
        if len(seen) > 1:
            return True
    return False
