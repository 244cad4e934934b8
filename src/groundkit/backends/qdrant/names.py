"""The names a Qdrant collection's documents are shown by, as ``pipeline.names`` gives them.

The rule is the embedded store's (docs/decisions/0014-document-names.md): each ingest names every
file it met, and a name another file's documents show is widened until it is free. A run keeps
every live document's name here, indexed by name, so ``taken`` is a lookup, not a scan of the
collection per file. Renames are sent at the run's commit, just before the version flips: a
document this run wrote is renamed before anyone sees it, one it passed over unchanged is renamed
in place (only its name, never its text or chunks, so at worst a kill -9 between the rename and
the flip shows the new name on the old version, which the next run names again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = ["Names", "Shown"]


@dataclass
class Shown:
    """A document point's origin (the file it was read from), source and shown name."""

    origin: str
    source: str
    path: str


class Names:
    """Every live document's shown name, by point; ``renamed``: the names to send at commit."""

    def __init__(self, docs: dict[int, Shown]) -> None:
        self._docs = docs
        self._taken: dict[str, Counter[str]] = {}  # a name -> the origins showing it, how often
        self._by_origin: dict[str, list[int]] = {}
        self.renamed: dict[int, str] = {}
        for point, doc in docs.items():
            self._add(doc)
            self._by_origin.setdefault(doc.origin, []).append(point)

    def taken(self, name: str, origin: str) -> bool:
        """Whether a document read from elsewhere than ``origin`` shows ``name`` (or, from a
        record file, ``name#id``), as ``index.store.Store.name_taken``."""
        return any(held != origin for held in self._taken.get(name, ()))

    def name(self, origin: str, name: str) -> None:
        """Show the documents read from ``origin`` as ``name`` (a record file's as ``name#id``)."""
        for point in self._by_origin.get(origin, ()):
            doc = self._docs[point]
            shown = name + doc.source[len(doc.origin) :]
            if shown != doc.path:
                self._remove(doc)
                doc.path = shown
                self._add(doc)
                self.renamed[point] = shown

    def _add(self, doc: Shown) -> None:
        for key in _keys(doc.path):
            self._taken.setdefault(key, Counter())[doc.origin] += 1

    def _remove(self, doc: Shown) -> None:
        for key in _keys(doc.path):
            holders = self._taken[key]
            holders[doc.origin] -= 1
            if holders[doc.origin] <= 0:
                del holders[doc.origin]
            if not holders:
                del self._taken[key]


def _keys(path: str) -> Iterator[str]:
    """The names ``path`` takes: itself and, for ``name#id``, each part before a ``#``."""
    yield path
    yield from (path[:at] for at, char in enumerate(path) if char == "#")


def live(state: dict[int, Shown], written: dict[int, Shown], dead: Iterable[int]) -> Names:
    """The names of what a run leaves current: the committed documents it did not replace, and
    the ones it wrote."""
    gone = set(dead)
    docs = {p: Shown(s.origin, s.source, s.path) for p, s in state.items() if p not in gone}
    docs.update((p, s) for p, s in written.items() if p not in gone)
    return Names(docs)
