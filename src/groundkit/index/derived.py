"""The lifecycle every index derived from the store shares: open, check, catch up, rebuild.

A derived index (the lexical index, the vector index, and whatever comes next) implements
``DerivedIndex``; ``DERIVED`` lists them, and adding one to it is all a new index needs. The store
keeps one change log for all of them and the last change each has applied, so:

* ``catch_up`` replays the changes an index has not applied (a crash after the store's commit
  but before the index's is finished this way, on the next open);
* ``rebuild`` makes an index anew from the store, beside the old one, and swaps it in;
* ``recover`` is what opening a collection runs, as named steps (see ``RECOVERY``); a replay
  the index's files cannot take (what a crash left in them) becomes a rebuild.

Writing any index needs the collection's write lock; the caller holds it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from groundkit.checkpoints import checkpoint
from groundkit.errors import ErrorCode, StoreError
from groundkit.index.store import Store

__all__ = ["RECOVERY", "DerivedIndex", "Health", "catch_up", "health", "rebuild"]


Row = TypeVar("Row")


class DerivedIndex(Protocol[Row]):
    """An index whose every entry can be made again from the store (``Row``: what it is made
    from, one store row per entry)."""

    name: str  # its name in the change log and the manifest
    build: str  # changes whenever entries made by older code are no longer valid

    @property
    def opened(self) -> bool:
        """Whether its files could be read (False: lost or damaged, to be rebuilt)."""
        ...

    def entries(self) -> int:
        """How many entries it holds now."""
        ...

    def expected(self, store: Store) -> int:
        """How many entries it should hold for ``store`` as it is."""
        ...

    def source_rows(self, store: Store, documents: Sequence[int] | None) -> Iterable[Row]:
        """What it is built from: the store's rows for some documents, or for all."""
        ...

    def sync(self, delete_docs: Iterable[int], add: Iterable[Row]) -> None:
        """Drop the entries of some documents, add entries, commit. Idempotent."""
        ...

    def rebuild(self, add: Iterable[Row]) -> None:
        """Every entry anew; readers see the old entries or the new, never none."""
        ...

    def refresh(self) -> None:
        """See what another process committed."""
        ...

    def size_bytes(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Health:
    """How one derived index stands against the store."""

    name: str
    opened: bool
    current: bool  # built by this code (its build id matches the manifest)
    pending: int  # documents changed since it last caught up
    entries: int
    expected: int

    @property
    def needs_rebuild(self) -> bool:
        return not (self.opened and self.current) or (
            not self.pending and self.entries != self.expected
        )

    @property
    def ok(self) -> bool:
        return not self.needs_rebuild and not self.pending


def health(store: Store, index: DerivedIndex[Any]) -> Health:
    built = store.manifest().get(f"derived.{index.name}.build")
    never = store.applied(index.name) is None
    return Health(
        index.name,
        index.opened,
        built == index.build and not never,
        0 if never else len(store.pending(index.name)),
        index.entries() if index.opened else 0,
        index.expected(store),
    )


def catch_up(store: Store, index: DerivedIndex[Any]) -> None:
    """Apply every logged change ``index`` has not, then record that it has."""
    upto = store.head()
    documents = store.pending(index.name, upto)
    if documents:
        index.sync(documents, index.source_rows(store, documents))
        checkpoint(f"after-{index.name}-commit")
    if documents or store.applied(index.name) != upto:
        store.set_applied(index.name, upto)


def rebuild(store: Store, index: DerivedIndex[Any]) -> None:
    """Make ``index`` anew from the store and record it as current."""
    upto = store.head()  # no writer can add to the log meanwhile: the caller holds the lock
    index.rebuild(index.source_rows(store, None))
    with store.transaction():
        store.set_manifest(f"derived.{index.name}.build", index.build)
    store.set_applied(index.name, upto)


def _replay(store: Store, index: DerivedIndex[Any], found: Health) -> bool:
    if found.pending and found.opened and found.current:
        try:
            catch_up(store, index)
        except StoreError as exc:
            if exc.code != ErrorCode.INDEX_FAILED:
                raise  # a full or read-only disk: reads go on from the last good index
            # The index's files cannot take the replay (what a crash left in them): it is made
            # anew from the store, beside the old one, as `grk reindex` would.
            rebuild(store, index)
        return True
    return False


def _rebuild_mismatched(store: Store, index: DerivedIndex[Any], found: Health) -> bool:
    if found.needs_rebuild:
        index.refresh()  # another process may have committed since this one opened it
        if health(store, index).needs_rebuild:
            rebuild(store, index)
            return True
    return False


# What opening a collection does to each derived index, in order. Each step says whether it
# changed anything; a step that needs writing runs under the write lock.
RECOVERY: tuple[tuple[str, Callable[[Store, DerivedIndex[Any], Health], bool]], ...] = (
    ("replay the changes a crash left unapplied", _replay),
    ("rebuild an index that is lost, damaged, older or out of step", _rebuild_mismatched),
)
