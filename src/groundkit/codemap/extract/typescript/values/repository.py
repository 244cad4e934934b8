"""What the whole repository says about its classes and accessors, worked out once a run:
every class that extends a class (directly or through others), and the member names some
getter or setter has. Asking reads every file of the repository, so the file being resolved
then depends on all of them (``consulted``)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from groundkit.codemap.extract.typescript.values.objects import Def

if TYPE_CHECKING:
    from groundkit.codemap.extract.typescript.values.evaluate import Evaluator

__all__ = ["RepositoryFacts"]


class RepositoryFacts:
    def __init__(self, ev: Evaluator, sources: list[str]) -> None:
        self.ev = ev
        self.sources = sources
        self._subclasses: dict[Def, list[Def]] | None = None
        self._accessor_names: frozenset[str] | None = None

    # -- accessors --------------------------------------------------------------------------------
    def accessor_names(self) -> frozenset[str]:
        """The member names some getter or setter of the repository has: a member read of any
        other name runs no accessor."""
        self.ev.consulted = True
        if self._accessor_names is None:
            saved, self.ev.deps = self.ev.deps, set()
            try:
                names: set[str] = set()
                for path in self.sources:
                    iface = self.ev.interface(path)
                    names.update(q.rpartition(".")[2] for q in (*iface.getters, *iface.setters))
                    names.update(k for keys in iface.defined_getters.values() for k in keys)
                self._accessor_names = frozenset(names)
            finally:
                self.ev.deps = saved
        return self._accessor_names

    # -- classes ----------------------------------------------------------------------------------
    def subclasses(self, cls: Def) -> list[Def]:
        """Every class of the repository that extends ``cls``, directly or through others."""
        self.ev.consulted = True
        if self._subclasses is None:
            saved, self.ev.deps = self.ev.deps, set()
            try:
                self._subclasses = self._direct_subclasses()
            finally:
                self.ev.deps = saved
        out: list[Def] = []
        todo = [cls]
        while todo:
            for sub in self._subclasses.get(todo.pop(), []):
                if sub not in out and sub != cls:
                    out.append(sub)
                    todo.append(sub)
        return out

    def _direct_subclasses(self) -> dict[Def, list[Def]]:
        found: dict[Def, list[Def]] = defaultdict(list)
        for path in self.sources:
            for qual in self.ev.interface(path).classes:
                cls = Def(path, qual, "class")
                for base in self.ev.classes.bases(cls):
                    found[base].append(cls)
        return found
