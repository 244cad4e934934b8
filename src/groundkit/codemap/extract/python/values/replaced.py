"""Methods replaced on some instances only: which of a call's targets are a guess.

An instance attribute is one cell for every instance of its class (``Flow.inst_attr``), so
``conn.release = release`` in a pool's ``acquire`` reads as giving *every* ``Connection`` the
pool's closure, beside the class's own ``release``. But the store shadows the method on the
instances it runs on only (kombu's ``Resource.acquire``): a connection made directly and
never acquired runs ``Connection.release``, and one the pool handed out runs the closure.

Which instance a call runs on is not followed (values are not told apart by where they were
made), so the copy edges tell the two apart after the solve. At a call ``y.m()`` where a store
replaces ``m``:

- the class's method is a guess where copies of the store's receiver reach ``y`` (a return,
  an argument, a local): ``y`` may be the replaced instance itself;
- the stored callables are a guess where nothing of the store's receiver reaches ``y``: not a
  copy, nor ``self`` of a method such a copy is sent (``with pool.acquire() as c:`` runs
  ``c.__exit__``, whose ``self.release()`` may be the closure), and so on.

``self`` of a method is shared by every instance it runs on, so reaching it makes neither
target a guess. A guess is drawn partial, never dropped: an instance may still reach a store
by a way not followed here (a container it was put in and taken from, a bound method kept in
a variable), and a store may run on some runs only.

Only a store that replaces a method the class defines with ``def`` counts (plain data on an
instance is read as before), and not one through a method's own ``self`` (``self.release =
...`` in ``__init__`` is every instance's).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from groundkit.codemap.extract.python.parse import facts
from groundkit.codemap.extract.python.parse.facts import Kind
from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import ClassKey, FuncKey, How, SiteKey
from groundkit.codemap.extract.python.values.program import FileInfo, Program
from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["Replaced"]

_INSTANCES = (objects.INST, objects.CONE)
# Values whose call runs the function their key's second item holds.
_WRAPPING = (objects.METH, objects.CLSMETH, objects.STATIC, objects.CLASSMETHOD)


@dataclass(frozen=True, slots=True)
class _Store:
    """``obj.attr = src`` on instances of ``owners`` whose class defines ``attr``: the
    callables stored, the receivers of reads of ``attr`` that copies of ``obj`` reach, and
    those it may reach as well by being sent a method (its ``self``)."""

    owners: frozenset[ClassKey]
    stored: frozenset[FuncKey | ClassKey]
    copied: frozenset[int]
    sent: frozenset[int]


class Replaced:
    """Per solved flow: the stores replacing a method on instances. Worked out with the copy
    edges, which ``Flow.solved`` lets go before the graphs are drawn; a continued solve has
    only the edit's, so it stops where a changed file reads or sets such a name
    (``continues``)."""

    def __init__(self, flow: Flow, continued: bool = False) -> None:
        self.flow = flow
        self.stores: dict[str, list[_Store]] = {}
        found: dict[str, list[tuple[int, frozenset[ClassKey], frozenset[FuncKey | ClassKey]]]] = {}
        for info in flow.program.files:
            for op in info.attribute_sets():
                assert op.attr is not None
                store = self._store(info, op)
                if store is not None:
                    found.setdefault(op.attr, []).append(store)
        if not found:
            return
        receivers: set[int] = set()
        sent: dict[int, list[int]] = {}
        if not continued:
            receivers = self._receivers(found.keys())
            sent = self._sent(found.keys())
        for attr, stores in found.items():
            # (a continued solve has no receivers: what copies reach meets none of them)
            self.stores[attr] = [
                _Store(
                    owners,
                    stored,
                    frozenset(self._reach(obj, {}) & receivers) if receivers else frozenset(),
                    frozenset(self._reach(obj, sent) & receivers) if receivers else frozenset(),
                )
                for obj, owners, stored in stores
            ]

    def guessed(self, site: SiteKey, target: FuncKey | ClassKey, how: How, operand: int) -> bool:
        """Whether ``target`` is reached at ``site`` (a call of ``y.attr``) only by reading a
        replacement on instances ``y`` is not seen to hold, or the class's method where
        ``y`` may hold a replaced instance."""
        if how != "call" or operand < 0 or not self.stores:
            return False
        info = self.flow.program.files[site[0]]
        read = _read(info, operand)
        if read is None:
            return False
        receiver, attr = read
        stores = self.stores.get(attr)
        if not stores:
            return False
        classes = self._classes(receiver)
        along = {owner for cls in classes for owner in self.flow.program.mro(cls)}
        relevant = [store for store in stores if not store.owners.isdisjoint(along)]
        if not relevant:
            return False
        stored = {found for store in relevant for found in store.stored}
        methods = self._methods(classes, attr)
        if (target in stored) == (target in methods):
            return False  # neither, or both: as the lookup found it
        if target in methods:  # where the replaced instance itself is read
            return any(receiver in store.copied for store in relevant)
        # where no replaced instance is seen (``self`` of a method one was sent counts)
        return not any(receiver in store.sent for store in relevant)

    def continues(self, changed: Iterable[int]) -> bool:
        """Whether no changed file reads or sets a replaced method's name: the copies its
        reads are reached by are not kept (a continued solve has only its own)."""
        if not self.stores:
            return True
        files = self.flow.program.files
        return not any(
            isinstance(op, facts.Attr | facts.SetAttr) and op.attr in self.stores
            for file in changed
            for op in files[file].facts.ops
        )

    def _store(
        self, info: FileInfo, op: facts.SetAttr
    ) -> tuple[int, frozenset[ClassKey], frozenset[FuncKey | ClassKey]] | None:
        assert op.attr is not None
        if _own_self(info, op.obj):
            return None
        obj = info.var(op.obj)
        keys = self.flow.values.keys
        owners = frozenset(
            ClassKey((key[1], key[2]))
            for value in self.flow.engine.held(obj)
            if (key := keys[value])[0] in _INSTANCES
        )
        if not owners or not self._methods(self._classes(obj), op.attr):
            return None
        return obj, owners, self._callables(info.var(op.src))

    def _receivers(self, names: Collection[str]) -> set[int]:
        """The receivers of every read of ``names``."""
        found = set()
        for info in self.flow.program.files:
            for op in info.facts.ops:
                if isinstance(op, facts.Attr) and op.attr in names:
                    found.add(info.var(op.obj))
        return found

    def _classes(self, var: int) -> set[ClassKey]:
        flow = self.flow
        keys = flow.values.keys
        return {
            cls
            for value in flow.engine.held(var)
            if keys[value][0] in _INSTANCES
            for cls in flow.classes_of(value)
        }

    def _methods(self, classes: set[ClassKey], attr: str) -> set[FuncKey]:
        """The functions ``attr`` finds in the bodies of ``classes`` (defined with ``def``)."""
        program = self.flow.program
        found: set[FuncKey] = set()
        for cls in classes:
            owner = program.owner(cls, attr)
            if owner is not None:
                found.update(program.functions_named(owner, attr))
        return found

    def _callables(self, var: int) -> frozenset[FuncKey | ClassKey]:
        values = self.flow.values
        keys = values.keys
        found: set[FuncKey | ClassKey] = set()
        for value in self.flow.engine.held(var):
            kind = keys[value][0]
            if kind == objects.FUNC or kind in _WRAPPING:
                found.add(values.function(value))
            elif kind == objects.CLASS:
                found.add(values.class_of(value))
        return frozenset(found)

    def _sent(self, replaced: Collection[str]) -> dict[int, list[int]]:
        """For each variable a method is called on (``y.m()``, or a dunder syntax runs on it),
        the ``self`` of each method it may run: the instance reaches it by a receiver, not a
        copy. A call of a replaced name is left out: on a replaced instance it runs the
        replacement, not the class's method."""
        flow = self.flow
        program = flow.program
        selves = _Selves(program)
        found: dict[int, list[int]] = {}
        for site, reached in flow.found.items():
            info = program.files[site[0]]
            for target, (how, operand) in reached.targets.items():
                scope = program.scope(target)
                if operand < 0 or scope.kind != Kind.METHOD or scope.flags & facts.STATIC:
                    continue
                if how == "call":
                    read = _read(info, operand)
                    if read is None or read[1] in replaced:
                        continue
                    receiver = read[0]
                elif how in ("protocol", "property"):
                    receiver = operand
                else:
                    continue
                own = selves.of(FuncKey(target))
                if own >= 0:
                    found.setdefault(receiver, []).append(own)
        return found

    def _reach(self, start: int, sent: dict[int, list[int]]) -> set[int]:
        """The variables copies of ``start`` reach, and the ``self`` of the methods it (or
        such a copy) is sent, and so on."""
        succ = self.flow.engine.succ
        seen = {start}
        queue = deque([start])
        while queue:
            var = queue.popleft()
            out = succ[var]
            for nxt in (*((out,) if isinstance(out, int) else out or ()), *sent.get(var, ())):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen


class _Selves:
    """The variable holding ``self`` in each method's body (its first parameter's)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self._files: dict[int, dict[int, int]] = {}

    def of(self, method: FuncKey) -> int:
        file, scope = method
        found = self._files.get(file)
        if found is None:
            info = self.program.files[file]
            found = self._files[file] = {
                op.scope: info.var(op.dst)
                for op in info.facts.ops
                if isinstance(op, facts.ParamIn) and op.index == 0
            }
        return found.get(scope, -1)


def _read(info: FileInfo, operand: int) -> tuple[int, str] | None:
    """The receiver (a global variable) and attribute of the ``y.attr`` a callee holds (through
    copies of a local), if it is one."""
    op = info.op_of(info.local(operand))
    while isinstance(op, facts.Copy | facts.Narrow):
        op = info.op_of(op.src)
    if isinstance(op, facts.Attr) and op.attr is not None:
        return info.var(op.obj), op.attr
    return None


def _own_self(info: FileInfo, local: int) -> bool:
    """Whether ``local`` is a copy of a method's first parameter."""
    op = info.op_of(local)
    while isinstance(op, facts.Copy | facts.Narrow):
        op = info.op_of(op.src)
    if not isinstance(op, facts.ParamIn) or op.index != 0:
        return False
    return info.facts.scopes[op.scope].kind == Kind.METHOD
