"""Whether a member of an object-literal table may have changed since the literal was written.

A table is an object literal bound to a name (``const handlers = {a, b() {}}``); calling one of
its members by a literal key is a ``ts-table`` edge unless some code may have changed that
member. Changes are read from every file's member writes (``table.key = ...``, ``table[k] =
...``, ``delete table.key``, ``Object.assign(table, ...)``; ``this.key = ...`` in the table's
own method), matched to tables by the name they are bound to:

- a table bound in a function, or a module's table it does not export, can be written by name
  only in its own file;
- an exported table, in any file;
- a table handed to a function as an argument may be changed through that function's
  parameter (``patch(table)`` with ``target.handle = fake``): such a write reaches every table
  the parameter may hold, and every table handed anywhere when what it holds is unknown.

Not seen (the member is taken as written): a change made by code outside the repository, or
through a value that is neither the table's name nor a parameter (a table stored in another
object and changed through it).
"""

from __future__ import annotations

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.index import handed_tables
from groundkit.codemap.extract.typescript.values.objects import Choice, Def, Feed, Mod, Obj

__all__ = ["Tables"]

Member = tuple[str, str, str | None]  # the table's file, its name, the key (None: any)


class Tables:
    def __init__(self, ev: Evaluator, flow: Flow, sources: list[str]) -> None:
        self.ev = ev
        self.flow = flow
        self.sources = sources
        self._writes: dict[str, tuple[dict[Member, int], list[tuple[Feed, str | None]]]] = {}
        self._handed_in: dict[str, set[tuple[str, str]]] = {}
        self._anywhere: dict[Member, int] | None = None
        self._privacy: dict[tuple[str, str], bool] = {}
        self._busy = False  # answering already: a nested question sees no change
        ev.opened = self.opened
        ev.assigned_once = self.assigned_once

    def opened(self, table: Obj, key: str) -> bool:
        """Whether member ``key`` of ``table`` may have been changed."""
        if not table.name:
            return False
        if self._busy:
            self.ev.memo.cut()  # a nested question: not the answer
            return False
        self._busy = True
        try:
            return self._opened(table, key)
        finally:
            self._busy = False

    def _opened(self, table: Obj, key: str) -> bool:
        own = (table.path, table.name)
        private = self._private(table.path, table.name)
        if not private:
            self.flow.consulted = True
        named = self._writes_of(table.path)[0] if private else self._named_anywhere()
        if (*own, key) in named or (*own, None) in named or (*own, facts.GIVEN_KEY) in named:
            return True
        if self.flow.building and not private:
            self.ev.memo.cut()
            return True  # asked while the index is read: it may be changed, as far as we know
        if not self._handed(table, private):
            return False
        if self.flow.building:
            self.ev.memo.cut()
            return True  # (the parameters' values need the index)
        return self._written_through(own, key)

    def _written_through(self, own: tuple[str, str], key: str) -> bool:
        """Whether a write through a parameter may change member ``key`` of ``own``."""
        self.flow.consulted = True
        if not self.flow.settled:
            self.ev.memo.cut()  # (``known()`` asking: its values leave the unknown out)
        for path in self.sources:
            for feed, written in self._writes_of(path)[1]:
                if written not in (None, key, facts.GIVEN_KEY):
                    continue
                held = self.flow.feeds(feed)
                if held is None or any(_identity(v) == own for v in held):
                    return True
        return False

    def assigned_once(self, path: str, owner: str, key: str, *, computed: bool = False) -> bool:
        """Whether member ``key`` of the function or object bound to ``owner`` in module
        ``path`` is written once by name (its module-level assignment) and never otherwise:
        not under a computed key, not through a parameter, not by another file. ``computed``:
        writes under a key the writing function is given (``methods.forEach((m) => { app[m] =
        ... })``) and through parameters are let pass, the member then being only maybe what
        that assignment wrote; a key made otherwise (``t[a + b] = ...``) is not."""
        if self._busy:
            self.ev.memo.cut()
            return False
        self._busy = True
        try:
            own = (path, owner)
            private = self._private(path, owner)
            if not private:
                self.flow.consulted = True
            named = self._writes_of(path)[0] if private else self._named_anywhere()
            if (*own, None) in named or ((*own, facts.GIVEN_KEY) in named and not computed):
                return False
            count = named.get((*own, key), 0)
            if count == 1 and self.flow.building:
                self.ev.memo.cut()
            if count != 1 or self.flow.building:
                return False  # (a write through a parameter needs the index)
            return computed or not self._written_through(own, key)
        finally:
            self._busy = False

    def _named_anywhere(self) -> dict[Member, int]:
        """The members every file writes by name, each with how many times (worked out once:
        each file's writes are)."""
        if self._anywhere is None:
            total: dict[Member, int] = {}
            for source in self.sources:
                for member, n in self._writes_of(source)[0].items():
                    total[member] = total.get(member, 0) + n
            self._anywhere = total
        return self._anywhere

    def _writes_of(self, path: str) -> tuple[dict[Member, int], list[tuple[Feed, str | None]]]:
        """The members file ``path`` writes by a table's (or a function's) name, each with
        how many times, and through parameters."""
        found = self._writes.get(path)
        if found is None:
            saved, self.ev.deps = self.ev.deps, set()
            try:
                named: dict[Member, int] = {}
                through: list[tuple[Feed, str | None]] = []
                for write in self.ev.interface(path).writes:
                    target = self.ev.value(write.target, (path, -1))
                    if isinstance(target, Mod) and "=" in self.ev.interface(target.path).exports:
                        target = self.ev.export(target.path, "=")  # require(m).key = ...
                    # ``this`` in a member's function: the holder, or a function its members
                    # are copied onto; the write counts for each
                    options = target.options if type(target) is Choice else (target,)
                    identities = [i for i in map(_identity, options) if i is not None]
                    for identity in identities:
                        member = (*identity, write.key)
                        named[member] = named.get(member, 0) + 1
                    if (
                        not identities
                        and isinstance(target, Feed)
                        and not _arguments_slot(target, write.key)
                    ):
                        through.append((target, write.key))
            finally:
                self.ev.deps = saved
            found = self._writes[path] = (named, through)
        return found

    def _handed(self, table: Obj, private: bool) -> bool:
        """Whether the table is handed to a function as an argument (a private one can be,
        by name, only in its own file)."""
        own = (table.path, table.name)
        if not private:
            return own in self.flow.index().tables
        if table.path not in self._handed_in:
            handed: set[tuple[str, str]] = set()
            for record in self.ev.interface(table.path).passes:
                for arg in record.args:
                    handed.update(handed_tables(self.ev, self.ev.value(arg, (table.path, -1))))
            self._handed_in[table.path] = handed
        return own in self._handed_in[table.path]

    def _private(self, path: str, name: str) -> bool:
        """A table bound in a function, or a module's table or function it does not export:
        only its own file can reach it by name."""
        found = self._privacy.get((path, name))
        if found is None:
            found = self._privacy[(path, name)] = self._worked_out_private(path, name)
        else:
            self.ev.interface(path)  # what the answer depends on, as when it was worked out
        return found

    def _worked_out_private(self, path: str, name: str) -> bool:
        top = name.split(".", 1)[0]
        iface = self.ev.interface(path)
        if top == "exports":  # module.exports = {...}: any file may require it
            return False
        if not isinstance(iface.names.get(top), facts.ObjectLit | facts.Fn):
            return True
        return not any(_mentions(e, top) for e in iface.exports.values())


def _arguments_slot(target: Feed, key: str | None) -> bool:
    """``args[i] = once(args[i])``, ``args`` being ``arguments`` or a copy of it: an argument
    replaced in that array, no member of what a caller handed over."""
    return key is None and len(target.path) == 1 and target.path[0] in (facts.REST, facts.ITEM)


def _identity(value: object) -> tuple[str, str] | None:
    """What member writes are matched by: a named table, or a function of the repository."""
    if isinstance(value, Obj) and value.name:
        return value.path, value.name
    if isinstance(value, Def) and value.kind == "function":
        return value.path, value.qual
    return None


def _mentions(expr: object, name: str) -> bool:
    if isinstance(expr, facts.Local):
        return expr.name == name
    if isinstance(expr, facts.Ref):
        return expr.parts[0] == name
    if isinstance(expr, facts.ObjectLit):
        return any(_mentions(v, name) for v in expr.fields.values())
    return False
