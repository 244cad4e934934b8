"""One runtime shared by every request and transport: collections opened once, kept fresh.

Readers share one open ``Collection`` per name. Before each use the runtime makes two cheap checks
that notice a write by anyone else (another process's ``grk ingest``, or this server's own
mutating routes, which write through a separate handle): SQLite's ``PRAGMA data_version`` on a
watcher connection, which changes when another connection commits, and whether the collection's
folder or store file is still the one opened, which changes when the collection is deleted and
made again. Either one reopens the collection; the old handle is closed when the last request
still reading it finishes, so a reader never sees a handle closed under it.

The runtime never opens ``store.sqlite`` itself, only through SQLite: on Linux, closing any
descriptor of a file drops every POSIX lock the process holds on it, SQLite's included, and a
writer could then checkpoint the WAL under live readers ("database disk image is malformed").
What it holds open to notice a deletion is the collection's folder.

The loaded models (the embedder and the reranker) are built once and shared by every collection
and every reopen: loading a cross-encoder takes seconds, a reopen after each write must not.

Writes take the collection's ``write.lock`` (the same flock the CLI takes), so there is only ever
one writer; a second gets ``index.locked`` at once.

A collection grk.toml places on Qdrant holds nothing of its own: each read asks the cluster for
the committed version, so one handle is opened on first use and shared until the collection is
deleted, and any number of servers can serve one collection while another process writes it
(the writer's lease is in the collection, ``backends.qdrant.lease``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from groundkit.collection import (
    STORE_FILE,
    Collection,
    collection_path,
    known_collections,
    open_collection,
)
from groundkit.config import EmbedConfig, RerankConfig, Settings
from groundkit.embed.base import Embedder, EmbedderIdentity, InputType
from groundkit.embed.factory import create_embedder
from groundkit.errors import IndexLockedError
from groundkit.lifetime import host_process
from groundkit.retrieve.rerank import Reranker, load_reranker
from groundkit.serve.confine import IngestRoots

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.serve.secret import SharedSecret

__all__ = ["Runtime"]

_GATES = 16


class _SharedEmbedder:
    """Builds the configured embedder on first use and shares it across every reopen: loading a
    local model takes a second, a reopen must not."""

    def __init__(self, config: EmbedConfig) -> None:
        self._config = config
        self._inner: Embedder | None = None
        self._lock = threading.Lock()

    def _get(self) -> Embedder:
        with self._lock:
            if self._inner is None:
                self._inner = create_embedder(self._config)
            return self._inner

    @property
    def identity(self) -> EmbedderIdentity:
        return self._get().identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        return self._get().embed(texts, input_type)


class _SharedReranker:
    """Loads the configured cross-encoder on first use and shares it across every reopen."""

    def __init__(self, config: RerankConfig) -> None:
        self._config = config
        self._inner: Reranker | None = None
        self._lock = threading.Lock()

    def _get(self) -> Reranker:
        with self._lock:
            if self._inner is None:
                self._inner = load_reranker(self._config)
            return self._inner

    @property
    def name(self) -> str:
        return self._get().name

    def score(self, query: str, passages: Sequence[str]) -> Sequence[float]:
        return self._get().score(query, passages)


@dataclass(eq=False)
class _Entry:
    collection: Collection
    watcher: sqlite3.Connection
    version: int
    # The collection's folder, held open: once it is removed its link count is 0, and while it
    # is held no new folder can take its inode number. Never the store file (see above).
    folder_fd: int
    store_inode: tuple[int, int] | None
    leases: int = 0
    retired: bool = False

    def replaced(self, store: Path) -> bool:
        """Whether the store at ``store`` is no longer the file this entry opened."""
        return os.fstat(self.folder_fd).st_nlink == 0 or _inode(store) != self.store_inode

    def close(self) -> None:
        self.collection.close()
        self.watcher.close()
        os.close(self.folder_fd)


@dataclass(eq=False)
class _Remote:
    """A shared handle on a collection that lives on a cluster."""

    collection: Collection
    leases: int = 0
    retired: bool = False


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


class Runtime:
    """The collections under one index dir, for REST, MCP and the pages alike: the
    ``ops.collections.Collections`` of the server. Thread-safe."""

    def __init__(
        self,
        settings: Settings,
        *,
        secret: SharedSecret | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        # A server outlives every command it serves: a store it only read is closed, not left
        # open for an exit that does not come (``groundkit.lifetime``).
        host_process()
        self.settings = settings
        self.index_dir = Path(settings.index_dir)
        self.secret = secret
        self._ingest_roots = IngestRoots(settings.serve.ingest_roots)
        self._embedder: Embedder = embedder or _SharedEmbedder(settings.embed)
        self._reranker: Reranker = _SharedReranker(settings.rerank)
        self._lock = threading.Lock()  # the entries and their leases; never held during I/O
        self._gates = tuple(threading.Lock() for _ in range(_GATES))
        self._entries: dict[str, _Entry] = {}
        self._remote: dict[str, _Remote] = {}

    @property
    def mutations_enabled(self) -> bool:
        return self.secret is not None

    def list(self) -> list[str]:
        return known_collections(self.settings)

    @contextmanager
    def reading(self, name: str) -> Iterator[Collection]:
        """The current view of collection ``name``, held for the block.

        Raises ``NotFoundError`` (``collection.not_found``) or ``UsageError`` for a bad name.
        """
        if self.settings.collection_config(name).backend != "embedded":
            with self._reading_remote(name) as collection:
                yield collection
            return
        entry = self._lease(name)
        try:
            yield entry.collection
        finally:
            with self._lock:
                entry.leases -= 1
                if entry.retired and entry.leases == 0:
                    entry.close()

    @contextmanager
    def _reading_remote(self, name: str) -> Iterator[Collection]:
        with self._gates[zlib.crc32(name.encode()) % len(self._gates)]:
            with self._lock:
                remote = self._remote.get(name)
                if remote is not None:
                    remote.leases += 1
            if remote is None:
                opened = _Remote(self._open_collection(name), leases=1)
                with self._lock:
                    remote = self._remote.setdefault(name, opened)
                    if remote is not opened:  # (never: the gate is held) but close the spare
                        remote.leases += 1
                        opened.collection.close()
        try:
            yield remote.collection
        finally:
            with self._lock:
                remote.leases -= 1
                if remote.retired and remote.leases == 0:
                    remote.collection.close()

    def _lease(self, name: str) -> _Entry:
        path = collection_path(self.index_dir, name) / STORE_FILE
        # A (re)open is I/O that can take a while on a large index: it runs under a gate that
        # only collections hashing alike share, never under the runtime lock, so readers of
        # other collections are not held up. The gates are a fixed set, so clients naming
        # collections that do not exist cannot grow them; the hash is stable across runs.
        with self._gates[zlib.crc32(name.encode()) % len(self._gates)]:
            with self._lock:
                entry = self._entries.get(name)
                reopening = entry is not None
                if entry is not None and entry.replaced(path):
                    self._retire(name)  # deleted, or deleted and made again: never serve it
                    entry = None
                elif entry is not None and _data_version(entry.watcher) == entry.version:
                    entry.leases += 1
                    return entry
            try:
                # With an older view to serve, a reopen never queues behind a writer.
                fresh = self._open(name, path, lock_wait_s=0.0 if reopening else 10.0)
            except IndexLockedError:
                # Reopening needs the write lock (an index to rebuild) and a writer holds it:
                # the view we have is older but consistent. The next request tries again.
                with self._lock:
                    if entry is None or self._entries.get(name) is not entry:
                        raise
                    entry.leases += 1
                    return entry
            with self._lock:
                self._register(name, fresh)
                fresh.leases += 1
                return fresh

    def _register(self, name: str, entry: _Entry) -> _Entry:
        self._retire(name)
        self._entries[name] = entry
        return entry

    def _open(self, name: str, path: Path, *, lock_wait_s: float) -> _Entry:
        try:
            folder_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            folder_fd = -1
        if folder_fd < 0 or not path.is_file():
            if folder_fd >= 0:
                os.close(folder_fd)
            # The library raises the right error: invalid name, or no such collection.
            self._open_collection(name).close()
            return self._open(name, path, lock_wait_s=lock_wait_s)  # made in between
        try:
            store_inode = _inode(path)
            # The watcher reads its version before the collection opens: a commit in between
            # makes one needless reopen later, never a missed one.
            # mode=rw: a watcher must never create a store where a deleted collection was.
            watcher = sqlite3.connect(
                f"file:{quote(str(path.resolve()))}?mode=rw",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        except BaseException:
            os.close(folder_fd)
            raise
        try:
            version = _data_version(watcher)
            collection = self._open_collection(name, lock_wait_s=lock_wait_s)
        except BaseException:
            watcher.close()
            os.close(folder_fd)
            raise
        return _Entry(collection, watcher, version, folder_fd, store_inode)

    def _open_collection(
        self, name: str, *, create: bool = False, lock_wait_s: float = 10.0
    ) -> Collection:
        return open_collection(
            name,
            index_dir=self.index_dir,
            settings=self.settings,
            create=create,
            embedder=self._embedder,
            reranker=self._reranker,
            lock_wait_s=lock_wait_s,
        )

    def _retire(self, name: str) -> None:
        remote = self._remote.pop(name, None)
        if remote is not None:
            remote.retired = True
            if remote.leases == 0:
                remote.collection.close()
        entry = self._entries.pop(name, None)
        if entry is not None:
            entry.retired = True
            if entry.leases == 0:
                entry.close()

    # -- writes: each through its own handle, under the collection's write lock
    @contextmanager
    def writing(self, name: str, *, create: bool = False) -> Iterator[Collection]:
        """A handle of its own on collection ``name`` for a change (the readers' view is
        reopened once the change is committed: ``PRAGMA data_version`` tells them)."""
        with self._open_collection(name, create=create) as collection:
            yield collection

    def admit(self, inputs: Sequence[str]) -> None:
        """Paths a client names must lie inside ``serve.ingest_roots`` (URLs are vetted by the
        fetcher). Raises ``serve.path_not_allowed`` before anything is read."""
        self._ingest_roots.check(inputs)

    def forget(self, name: str) -> None:
        """Collection ``name`` was deleted: its view is never served again."""
        with self._lock:
            self._retire(name)

    def close(self) -> None:
        with self._lock:
            for name in [*self._entries, *self._remote]:
                self._retire(name)
