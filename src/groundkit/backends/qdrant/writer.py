"""``QdrantWriter``: an ingest run (``pipeline.store.DocumentStore``) into a Qdrant collection.

A ``transaction()`` is one versioned run (``layout``): what is written inside it is born at
version ``S`` and becomes visible when the run commits by setting ``committed = S``. Until then
nothing it wrote or deleted shows. A ``savepoint()`` keeps one file's writes in memory until its
block ends well; writes leave in batches, chunks before their document.

A run that dies (Ctrl-C, kill -9, a lost cluster) leaves points born at ``S`` that no read sees.
The next run has the same ``S``: it first takes back any death marks the dead run had begun to
set, then passes over every document whose point is already there (its chunks went first, so
they are all there: no re-upload), and at its commit deletes whatever of ``S`` it did not mean
to write. So a run resumes where the last one stopped, and no document is ever visible twice or
in part. Vectors added after a commit (``put_vectors``) go to visible points directly, a batch
at a time, as the embedded store commits them.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from groundkit.backends.qdrant.filters import filterable
from groundkit.backends.qdrant.layout import (
    DENSE,
    META_ID,
    NEVER,
    SHOWN,
    SPARSE,
    born_at,
    chunk_point_id,
    chunk_shown,
    doc_point_id,
    file_point_id,
    visible,
)
from groundkit.backends.qdrant.lease import Lease
from groundkit.backends.qdrant.meta import read_meta
from groundkit.backends.qdrant.names import Names, Shown, live
from groundkit.backends.qdrant.sparse import AVGDL_SAMPLE, Encoder, Terms, mean_length, weights
from groundkit.backends.qdrant.transport import Transport, scroll_all
from groundkit.checkpoints import checkpoint
from groundkit.index.rows import IngestState, NewChunk, NewDocument
from groundkit.types import Metadata

if TYPE_CHECKING:
    from groundkit.backends.qdrant import vocab as models

__all__ = ["FLUSH_POINTS", "GRACE_S", "QdrantWriter", "indexed_text", "scroll_all"]

FLUSH_POINTS = 256  # chunks per upsert: a few hundred KB of payload
_DOC_BYTES = 8_000_000  # documents' text per upsert, under a cluster's 32 MB request limit
_SETTLED_NS = 2_000_000_000  # as index.store: a file's time must be this much older than its read
_MARK_BATCH = 1000  # ids per death-mark request
# A point that died stays this long after its death was committed: a search that read the version
# before is still answered whole (its read of the version and its query are two requests).
GRACE_S = 60.0
_COMMITS_KEPT = 64


def indexed_text(title: str | None, start: int, text: str, metadata: Metadata) -> str:
    """What BM25 sees of a chunk: its text after its document's title (unless it opens the
    document) and its heading path (unless it begins with a heading). The embedded store's
    ``index.rows.INDEXED_TEXT`` in Python; a test holds the two together."""
    head = f"{title}\n" if start > 0 and title is not None else ""
    path = metadata.get("heading_path")
    if not text.startswith("#") and isinstance(path, list) and path:
        head += "\n".join(str(part) for part in path) + "\n"
    return head + text


@dataclass
class _Doc:
    point: int
    payload: dict[str, Any]
    chunks: list[tuple[int, dict[str, Any], Terms]]


@dataclass
class _Frame:
    """Writes not yet sent: one savepoint's, or the run's."""

    docs: list[_Doc] = field(default_factory=list)
    files: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    dead: set[int] = field(default_factory=set)  # doc and file points this run replaces
    shown: dict[int, Shown] = field(default_factory=dict)  # the names of the docs written

    def take(self, other: _Frame) -> None:
        self.docs.extend(other.docs)
        self.files.extend(other.files)
        self.dead |= other.dead
        self.shown.update(other.shown)


@dataclass
class _State:
    """What is current of every source and file (loaded once per run, when first asked)."""

    docs: dict[str, dict[str, IngestState]] = field(default_factory=dict)  # origin -> source ->
    orders: dict[int, int] = field(default_factory=dict)  # doc point -> position in ingest order
    files: dict[str, tuple[int, int, int, str, int]] = field(default_factory=dict)
    shown: dict[int, Shown] = field(default_factory=dict)  # doc point -> its name


class QdrantWriter:
    """A ``pipeline.store.DocumentStore`` over ``transport``, while ``lease`` is held."""

    def __init__(self, transport: Transport, lease: Lease | None, encoder: Encoder) -> None:
        self._t = transport
        self._lease = lease
        self._encoder = encoder
        self._run: _Run | None = None

    # -- the run ----------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        run = self._run = _Run(self._t, self._lease, self._encoder)
        try:
            yield
        finally:
            self._run = None
        run.commit()  # reached only when the block ended well

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        run = self._require()
        frame = _Frame()
        run.frames.append(frame)
        try:
            yield
        except BaseException:
            run.frames.pop()  # this file's writes were never sent: dropping them undoes them
            raise
        run.frames.pop()
        run.top.take(frame)
        run.maybe_flush()

    def _require(self) -> _Run:
        if self._run is None:
            raise RuntimeError("a write outside a transaction")
        return self._run

    # -- ingest state -----------------------------------------------------------------------------
    def ingest_state(self, origin: str) -> dict[str, IngestState]:
        return dict(self._require().state().docs.get(origin, {}))

    def file_unchanged(self, origin: str, size: int, mtime_ns: int, settings: str) -> int | None:
        state = self._require().state()
        found = state.files.get(origin)
        if found is None or (found[1], found[2], found[3]) != (size, mtime_ns, settings):
            return None
        if mtime_ns > found[4] - _SETTLED_NS:
            return None  # changed, perhaps, within the tick it was read in: hash it
        return len(state.docs.get(origin, {})) or None

    def record_file(self, origin: str, size: int, mtime_ns: int, settings: str) -> None:
        run = self._require()
        point = file_point_id(origin, size, mtime_ns, settings)
        previous = run.state().files.get(origin)
        if previous is not None and previous[0] != point:
            run.top.dead.add(previous[0])
        payload = {
            "kind": "file",
            "origin": origin,
            "size": size,
            "mtime_ns": mtime_ns,
            "settings": settings,
            "recorded_ns": time.time_ns(),
        }
        run.top.files.append((point, payload))

    def forget_file(self, origin: str) -> None:
        run = self._require()
        previous = run.state().files.get(origin)
        if previous is not None:
            run.top.dead.add(previous[0])

    def origins_under(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return [o for o in self._require().state().docs if o.startswith(prefix)]

    def documents_from(self, origin: str) -> list[int]:
        return [s.rowid for s in self._require().state().docs.get(origin, {}).values()]

    def name_origin(self, origin: str, name: str) -> None:
        self._require().names().name(origin, name)

    def name_taken(self, name: str, origin: str) -> bool:
        return self._require().names().taken(name, origin)

    # -- documents --------------------------------------------------------------------------------
    def large_cache(self) -> AbstractContextManager[None]:
        return nullcontext()  # no page cache here: the server keeps its own

    def put_documents(self, documents: Sequence[NewDocument]) -> list[int]:
        return [
            self.put_document(
                rowid=d.rowid,
                document_id=d.document_id,
                source=d.source,
                path=d.path,
                origin=d.origin,
                external_id=d.external_id,
                format=d.format,
                title=d.title,
                text=d.text,
                content_hash=d.content_hash,
                fingerprint=d.fingerprint,
                metadata=d.metadata,
                chunks=d.chunks,
            )
            for d in documents
        ]

    def put_document(
        self,
        *,
        rowid: int | None,
        document_id: str,
        source: str,
        path: str,
        origin: str,
        external_id: str | None,
        format: str,
        title: str | None,
        text: str,
        content_hash: str,
        fingerprint: str,
        metadata: Metadata,
        chunks: Sequence[NewChunk],
    ) -> int:
        run = self._require()
        point = doc_point_id(document_id, fingerprint)
        order = run.order_of(rowid)
        if rowid is not None and rowid != point:
            run.top.dead.add(rowid)
        run.top.shown[point] = Shown(origin, source, path)
        run.forget_names()
        shown = {
            "document_id": document_id,
            "path": path,
            "source": source,
            "external_id": external_id,
        }
        made = [
            (chunk_point_id(c.chunk_id), _chunk_payload(c, i, point, shown, text, title, metadata))
            for i, c in enumerate(chunks)
        ]
        run.top.docs.append(
            _Doc(
                point,
                {
                    "kind": "doc",
                    **shown,
                    "origin": origin,
                    "format": format,
                    "title": title,
                    "text": text,
                    "content_hash": content_hash,
                    "fingerprint": fingerprint,
                    "metadata": metadata,
                    "ingested_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "chunks": len(chunks),
                    "order": order,
                },
                [
                    (cid, payload, self._encoder.terms(payload.pop("indexed")))
                    for cid, payload in made
                ],
            )
        )
        return point

    def delete_documents(self, rowids: Iterable[int]) -> int:
        run = self._require()
        ids = list(rowids)
        run.top.dead.update(ids)
        run.forget_names()
        return len(ids)

    # -- fingerprints: every chunk is stored with its own ----------------------------------------
    def unfolded_count(self) -> int:
        return 0

    def chunks_without_fold(self, after: int, limit: int) -> list[tuple[int, str]]:
        return []

    def put_folds(self, rows: Iterable[tuple[bytes, int]]) -> None:
        pass

    # -- dense vectors, added to visible chunks ----------------------------------------------------
    def chunks_without_vectors(self) -> list[tuple[int, str]]:
        from groundkit.backends.qdrant import vocab as models

        committed = read_meta(self._t).committed
        where = msgspec.structs.replace(
            visible(committed, "chunk"), must_not=[models.HasVectorCondition(has_vector=DENSE)]
        )
        return [
            (point, payload.get("context", "") + payload.get("text", ""))
            for point, payload in scroll_all(self._t, where, ["context", "text"])
        ]

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        import numpy as np

        from groundkit.backends.qdrant import vocab as models

        for at in range(0, len(rows), FLUSH_POINTS):
            batch = rows[at : at + FLUSH_POINTS]
            self._t.update_vectors(
                [
                    models.PointVectors(
                        id=point, vector={DENSE: np.frombuffer(blob, np.float32).tolist()}
                    )
                    for point, blob in batch
                ]
            )
        # Only chunks without a vector are given one (chunks_without_vectors): a count kept.
        vectors = read_meta(self._t).vectors + len(rows)
        self._t.set_payload({"vectors": vectors}, ids=[META_ID])
        if self._lease is not None:
            self._lease.renew()

    def counts(self) -> tuple[int, int]:
        meta = read_meta(self._t)
        return meta.documents, meta.chunks

    def vector_count(self) -> int:
        return read_meta(self._t).vectors


def _chunk_payload(
    chunk: NewChunk,
    ordinal: int,
    doc: int,
    shown: dict[str, Any],
    text: str,
    title: str | None,
    metadata: Metadata,
) -> dict[str, Any]:
    own = text[chunk.start : chunk.end]
    indexed = indexed_text(title, chunk.start, own, chunk.metadata)
    return {
        "kind": "chunk",
        "chunk_id": chunk.chunk_id,
        "doc": doc,
        **chunk_shown(shown),
        "ordinal": ordinal,
        "start": chunk.start,
        "end": chunk.end,
        "line": chunk.line,
        "end_line": chunk.end_line,
        "text": own,
        "context": indexed[: len(indexed) - len(own)],
        "metadata": json.dumps(chunk.metadata, sort_keys=True),
        # What --where reads: the chunk's own metadata over its document's.
        "meta": filterable({**metadata, **chunk.metadata}),
        "fold": None if chunk.fold is None else base64.b64encode(chunk.fold).decode("ascii"),
        "indexed": indexed,  # taken out again for the sparse vector
    }


class _Run:
    """One versioned run: begun on its first write or read of state, committed at the end."""

    def __init__(self, transport: Transport, lease: Lease | None, encoder: Encoder) -> None:
        self._t = transport
        self._lease = lease
        self._encoder = encoder
        self.frames: list[_Frame] = []
        self._base = _Frame()
        self._begun = False
        self._state: _State | None = None
        self.version = 0
        self._committed = 0
        self._leftovers = False
        self._commits: dict[str, float] = {}
        self._avgdl: float | None = None
        self._written: set[int] = set()
        self._next_order = 0
        self._names: Names | None = None

    @property
    def top(self) -> _Frame:
        return self.frames[-1] if self.frames else self._base

    def begin(self) -> None:
        """Collect what a run that committed left dead, take back the death marks of a run that
        did not commit, and note whether it left points to pass over."""
        if self._begun:
            return
        from groundkit.backends.qdrant import vocab as models

        meta = read_meta(self._t)
        self._committed, self.version, self._avgdl = meta.committed, meta.committed + 1, meta.avgdl
        self._commits = meta.commits
        self._collect()
        stray = models.Filter(
            must=[models.FieldCondition(key="died", range=models.Range(gte=self.version, lt=NEVER))]
        )
        self._t.set_payload({"died": NEVER}, where=stray)
        self._leftovers = self._t.count(born_at(self.version)) > 0
        self._next_order = self.version << 32
        self._begun = True

    def state(self) -> _State:
        self.begin()
        if self._state is None:
            self._state = _load_state(self._t, self._committed)
        return self._state

    def names(self) -> Names:
        """The names of what this run leaves current (made when first asked after a write)."""
        if self._names is None:
            dead = set().union(self._base.dead, *(f.dead for f in self.frames))
            self._names = live(self.state().shown, self._base.shown, dead)
        return self._names

    def forget_names(self) -> None:
        self._names = None

    def order_of(self, replaced: int | None) -> int:
        """Where a document stands in ingest order: a replaced one keeps its place."""
        state = self.state()
        if replaced is not None and replaced in state.orders:
            return state.orders[replaced]
        self._next_order += 1
        return self._next_order

    def maybe_flush(self, *, final: bool = False) -> None:
        pending = sum(len(d.chunks) for d in self._base.docs)
        if self._avgdl is None and not final and pending < AVGDL_SAMPLE:
            return  # a new collection's avgdl is frozen from its first chunks: wait for them
        waiting = max(pending, len(self._base.docs), len(self._base.files))
        if final or waiting >= FLUSH_POINTS:
            self._flush()

    def _flush(self) -> None:
        self.begin()
        docs, files = self._base.docs, self._base.files
        self._base.docs, self._base.files = [], []
        if self._avgdl is None and docs:
            self._avgdl = mean_length([t.length for d in docs for _, _, t in d.chunks])
            self._t.set_payload({"avgdl": self._avgdl}, ids=[META_ID])
        if self._leftovers and docs:
            there = {f.id for f in self._t.retrieve([d.point for d in docs], ["born"])}
            for doc in docs:
                if doc.point in there:  # written by the run that stopped: chunks and all
                    self._written.add(doc.point)
                    self._written.update(cid for cid, _, _ in doc.chunks)
            docs = [d for d in docs if d.point not in there]
        self._send_chunks([c for d in docs for c in d.chunks])
        self._send_records([(d.point, d.payload) for d in docs] + files)
        if self._lease is not None:
            self._lease.renew()
        checkpoint("qdrant-batch-sent")

    def _send_chunks(self, chunks: list[tuple[int, dict[str, Any], Terms]]) -> None:
        from groundkit.backends.qdrant import vocab as models

        assert self._avgdl is not None or not chunks
        for at in range(0, len(chunks), FLUSH_POINTS):
            points = []
            for point, payload, terms in chunks[at : at + FLUSH_POINTS]:
                indices, values = weights(terms, self._avgdl or 1.0)
                vector = {SPARSE: models.SparseVector(indices=indices, values=values)}
                points.append(
                    models.PointStruct(id=point, vector=vector, payload=self._born(payload))
                )
                self._written.add(point)
            self._t.upsert(points)

    def _send_records(self, records: list[tuple[int, dict[str, Any]]]) -> None:
        from groundkit.backends.qdrant import vocab as models

        batch: list[models.PointStruct] = []
        size = 0
        for point, payload in records:
            weight = len(payload.get("text") or "")
            if batch and size + weight > _DOC_BYTES:
                self._t.upsert(batch)
                batch, size = [], 0
            batch.append(models.PointStruct(id=point, vector={}, payload=self._born(payload)))
            self._written.add(point)
            size += weight
        if batch:
            self._t.upsert(batch)

    def _born(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "born": self.version, "died": NEVER}

    def commit(self) -> None:
        """Send what is left, drop what a stopped run wrote and this one did not, mark what this
        run replaces, then make it all visible at once; collect the dead afterwards."""
        if self._base.docs or self._base.files:
            self.maybe_flush(final=True)
        dead = self._base.dead - self._written
        renamed = self._names.renamed if self._names is not None else {}
        if not (self._written or dead or self._leftovers or renamed):
            return  # nothing versioned was written (vectors go to visible points directly)
        self.begin()
        if self._leftovers:
            stale = [
                point
                for point, _ in scroll_all(self._t, born_at(self.version), [])
                if point not in self._written
            ]
            for at in range(0, len(stale), _MARK_BATCH):
                self._t.delete(ids=stale[at : at + _MARK_BATCH])
        self._mark_dead(sorted(dead))
        self._rename(renamed)
        checkpoint("qdrant-before-flip")
        if self._lease is not None:
            self._lease.confirm()
        self._commits = {**_recent(self._commits), str(self.version): time.time()}
        # The counts as of this version, set in the same update that makes it current.
        flip = {"committed": self.version, "commits": self._commits, **self._counts()}
        self._t.set_payload(flip, ids=[META_ID])
        checkpoint("qdrant-after-flip")
        self._collect()

    def _counts(self) -> dict[str, int]:
        from groundkit.backends.qdrant import vocab as models

        v = self.version
        with_vector = models.HasVectorCondition(has_vector=DENSE)
        return {
            "documents": self._t.count(visible(v, "doc")),
            "chunks": self._t.count(visible(v, "chunk")),
            "vectors": self._t.count(visible(v, "chunk", with_vector)),
        }

    def _rename(self, renamed: dict[int, str]) -> None:
        """Send the new names of documents and their chunks (``backends.qdrant.names``)."""
        from groundkit.backends.qdrant import vocab as models

        for point, path in sorted(renamed.items()):
            self._t.set_payload({"path": path}, ids=[point])
            of_doc = models.Filter(
                must=[
                    models.FieldCondition(key="kind", match=models.MatchValue(value="chunk")),
                    models.FieldCondition(key="doc", match=models.MatchValue(value=point)),
                ]
            )
            # A chunk written before SHOWN was kept reads it there first (layout.shown_field).
            self._t.set_payload({"path": path}, where=of_doc, key=SHOWN)

    def _collect(self) -> None:
        """Delete the points that died in versions committed at least ``GRACE_S`` ago: a reader
        that read an older committed version a moment before may still be searching with it."""
        settled = [int(v) for v, at in self._commits.items() if at <= time.time() - GRACE_S]
        if settled:
            self._t.delete(where=_died_by(max(settled)))

    def _mark_dead(self, dead: list[int]) -> None:
        from groundkit.backends.qdrant import vocab as models

        for at in range(0, len(dead), _MARK_BATCH):
            batch = dead[at : at + _MARK_BATCH]
            current = models.FieldCondition(key="died", range=models.Range(gte=NEVER))
            self._t.set_payload(
                {"died": self.version}, ids=batch, where=models.Filter(must=[current])
            )
            chunks = models.Filter(
                must=[
                    models.FieldCondition(key="kind", match=models.MatchValue(value="chunk")),
                    models.FieldCondition(key="doc", match=models.MatchAny(any=batch)),
                    current,
                ]
            )
            self._t.set_payload({"died": self.version}, where=chunks)


def _recent(commits: dict[str, float]) -> dict[str, float]:
    """The newest commit times, enough to find the oldest not yet settled."""
    kept = sorted(commits.items(), key=lambda pair: int(pair[0]))[-_COMMITS_KEPT:]
    return dict(kept)


def _died_by(version: int) -> models.Filter:
    from groundkit.backends.qdrant import vocab as models

    return models.Filter(must=[models.FieldCondition(key="died", range=models.Range(lte=version))])


def _load_state(transport: Transport, committed: int) -> _State:
    state = _State()
    fields = ["source", "origin", "fingerprint", "content_hash", "format", "order", "path"]
    for point, p in scroll_all(transport, visible(committed, "doc"), fields):
        state.shown[point] = Shown(p["origin"], p["source"], p.get("path") or p["source"])
        state.docs.setdefault(p["origin"], {})[p["source"]] = IngestState(
            point, p["fingerprint"], p["content_hash"], p["format"]
        )
        state.orders[point] = int(p.get("order") or 0)
    fields = ["origin", "size", "mtime_ns", "settings", "recorded_ns"]
    for point, p in scroll_all(transport, visible(committed, "file"), fields):
        state.files[p["origin"]] = (
            point,
            int(p["size"]),
            int(p["mtime_ns"]),
            str(p["settings"]),
            int(p["recorded_ns"]),
        )
    return state
