"""Frozen values passed between stages.

Frozen dataclasses rather than pydantic models: ``Hit`` and ``Citation`` are built on every search
and validation would cost more than the search itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, asdict, dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeVar

__all__ = [
    "Chunk",
    "Citation",
    "CollectionStatus",
    "ConcreteMode",
    "Document",
    "Health",
    "Hit",
    "IngestReport",
    "Metadata",
    "Relocated",
    "ResolvedCitation",
    "SearchMode",
    "Skipped",
    "SourceNow",
    "Verification",
]

Metadata = dict[str, Any]
_T = TypeVar("_T")


class SearchMode(StrEnum):
    """How a search ranks. The one list of modes: settings, the CLI, REST and MCP all use it.

    ``AUTO`` is a choice, not a way of ranking: a collection resolves it (hybrid when it has
    vectors, else bm25) before anything is searched.
    """

    AUTO = "auto"
    BM25 = "bm25"
    DENSE = "dense"
    HYBRID = "hybrid"


ConcreteMode = Literal[SearchMode.BM25, SearchMode.DENSE, SearchMode.HYBRID]


@dataclass(frozen=True, slots=True)
class Document:
    """A source's whole normalised text, as stored. Every offset downstream refers to ``text``.

    ``source``: as a person names it, unique in the collection (relative to the folder ingested,
    or to the common parent of folders ingested together; or the URL); ``location``:
    where it was read from (an absolute path, with ``#id`` for a record, or the URL).
    """

    document_id: str
    source: str
    text: str
    format: str
    external_id: str | None = None
    title: str | None = None
    metadata: Metadata = field(default_factory=dict)
    location: str = ""


@dataclass(frozen=True, slots=True)
class Chunk:
    """A slice of a document: ``document.text[start:end] == text``."""

    chunk_id: str
    document_id: str
    ordinal: int
    start: int
    end: int
    text: str
    metadata: Metadata = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a passage lives: re-reading ``[start, end)`` of the stored document gives it back.

    ``source`` is the document as a person names it (relative to the folder that was ingested,
    or the URL); ``location`` is where it was read from (an absolute path, or the URL). ``line``
    and ``end_line`` are the 1-based lines of the passage's first and last character.
    """

    collection: str
    document_id: str
    external_id: str | None
    chunk_id: str
    source: str
    start: int
    end: int
    location: str = ""
    line: int | None = None
    end_line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Hit:
    """One ranked search result.

    ``folded``: the near-duplicates of this hit that ranked below it (the same passage stored
    again, say as ``.md`` and ``.html``), folded into it rather than listed; see
    ``retrieve.duplicates``. Empty when collapsing is off.

    Frozen, like the dataclasses here. ``citation``, ``text``, ``snippet`` and ``metadata`` may
    be given as functions that make them: they are then made when first read, so that a caller
    that shows none of them (an evaluation, an answer built from ``text``) does not pay for them
    on every hit (a ``Citation`` alone cost more than the rest of a hit), and one that reads only
    ranks and scores does not pay for reading the chunks from the store.
    """

    __slots__ = ("_citation", "_metadata", "_snippet", "_text", "folded", "rank", "ranks", "score")
    rank: int
    score: float
    # 1-based rank of this chunk in each stage that saw it: bm25, dense, fused, rerank.
    ranks: dict[str, int]
    folded: tuple[Citation, ...]
    _citation: Citation | Callable[[], Citation]
    _text: str | Callable[[], str]
    _snippet: str | Callable[[], str]
    _metadata: Metadata | Callable[[], Metadata]

    def __init__(
        self,
        rank: int,
        score: float,
        citation: Citation | Callable[[], Citation],
        text: str | Callable[[], str],
        snippet: str | Callable[[], str],
        metadata: Metadata | Callable[[], Metadata] | None = None,
        ranks: dict[str, int] | None = None,
        folded: tuple[Citation, ...] = (),
    ) -> None:
        # The slots' own setters: object.__setattr__ by name cost twice as much, on every hit.
        _set_rank(self, rank)
        _set_score(self, score)
        _set_citation(self, citation)
        _set_text(self, text)
        _set_snippet(self, snippet)
        _set_metadata(self, {} if metadata is None else metadata)
        _set_ranks(self, {} if ranks is None else ranks)
        _set_folded(self, folded)

    @property
    def citation(self) -> Citation:
        return _made(self, self._citation, _set_citation)

    @property
    def text(self) -> str:
        return _made(self, self._text, _set_text)

    @property
    def snippet(self) -> str:
        return _made(self, self._snippet, _set_snippet)

    @property
    def metadata(self) -> Metadata:
        return _made(self, self._metadata, _set_metadata)

    def _values(self) -> tuple[Any, ...]:
        return (
            self.rank,
            self.score,
            self.citation,
            self.text,
            self.snippet,
            self.metadata,
            self.ranks,
            self.folded,
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hit):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # it holds dicts, as the dataclass did

    def __reduce__(self) -> tuple[type[Hit], tuple[Any, ...]]:
        # Pickled and copied made: __setattr__ refuses, so the default (set slots) cannot be used.
        return (Hit, self._values())

    def __repr__(self) -> str:
        names = ("rank", "score", "citation", "text", "snippet", "metadata", "ranks", "folded")
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._values(), strict=True))
        return f"Hit({inner})"

    def to_dict(self) -> dict[str, Any]:
        c = self.citation
        return {
            "rank": self.rank,
            "score": self.score,
            "collection": c.collection,
            "document_id": c.document_id,
            "external_id": c.external_id,
            "chunk_id": c.chunk_id,
            "source": c.source,
            "location": c.location,
            "start": c.start,
            "end": c.end,
            "line": c.line,
            "end_line": c.end_line,
            "snippet": self.snippet,
            "text": self.text,
            "metadata": self.metadata,
            "ranks": self.ranks,
            "folded": len(self.folded),
            "folded_hits": [_folded(f) for f in self.folded],
        }


_set_rank = Hit.__dict__["rank"].__set__
_set_score = Hit.__dict__["score"].__set__
_set_citation = Hit.__dict__["_citation"].__set__
_set_text = Hit.__dict__["_text"].__set__
_set_snippet = Hit.__dict__["_snippet"].__set__
_set_metadata = Hit.__dict__["_metadata"].__set__
_set_ranks = Hit.__dict__["ranks"].__set__
_set_folded = Hit.__dict__["folded"].__set__


def _made(hit: Hit, value: _T | Callable[[], _T], put: Callable[[Hit, Any], None]) -> _T:
    """A field of ``hit`` given as a function made now, and kept."""
    if callable(value):
        value = value()
        put(hit, value)
    return value


def _folded(citation: Citation) -> dict[str, Any]:
    return {
        "chunk_id": citation.chunk_id,
        "document_id": citation.document_id,
        "source": citation.source,
        "line": citation.line,
        "end_line": citation.end_line,
    }


class Verification(StrEnum):
    """How a cited passage compares with its source as it is now.

    Judged on the cited text alone: the source is read again the way it was ingested and the
    passage looked for (where it was, then near there, then anywhere), so an edit elsewhere in
    the file leaves a citation verified.
    """

    VERIFIED = "verified"  # the source still holds the cited text (perhaps elsewhere: moved_to)
    DRIFTED = "drifted"  # the source no longer holds the cited text; the store still does
    MISSING = "missing"  # the source file (or the record) is gone
    UNREADABLE = "unreadable"  # the source is there but cannot be read as it was ingested
    NOT_CHECKED = "not_checked"  # a remote source: groundkit never re-fetches to verify


@dataclass(frozen=True, slots=True)
class Relocated:
    """Where a cited passage is now, when the source still holds it somewhere else.

    Offsets are into the source's text as groundkit reads it (what a re-ingest would store);
    lines are 1-based, of the passage's first and last character.
    """

    start: int
    end: int
    line: int
    end_line: int

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SourceNow:
    """What a drifted source says now at the cited offsets (``text``), with up to a few hundred
    characters on each side (``lead``, ``tail``), in its text as groundkit reads it."""

    lead: str
    text: str
    tail: str


@dataclass(frozen=True, slots=True)
class ResolvedCitation:
    """A chunk read back from the stored document, with the source re-checked.

    ``moved_to``: set when the source still holds the cited text, but at other offsets or lines.
    ``now``: for a drifted source, what it says now where the text was (for a person to compare;
    not part of ``to_dict``, whose JSON says only whether the source still holds the text).
    ``reason``: why the source was not checked or could not be read (a path that is now a pipe,
    a file over the size cap, a read that took too long), else None.
    """

    citation: Citation
    text: str
    verification: Verification
    metadata: Metadata = field(default_factory=dict)
    moved_to: Relocated | None = None
    now: SourceNow | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.citation.to_dict(),
            "text": self.text,
            "verification": str(self.verification),
            "reason": self.reason,
            "moved_to": None if self.moved_to is None else self.moved_to.to_dict(),
            "metadata": self.metadata,
        }


@dataclass(frozen=True, slots=True)
class Skipped:
    """An input that was not ingested, and why."""

    source: str
    reason: str


@dataclass(frozen=True, slots=True)
class IngestReport:
    """What one ingest run did.

    ``skipped``: inputs meant to be ingested that could not be (unreadable, undecodable, too
    large...); non-empty means partial success. ``passed_over``: what the walk left alone on
    purpose (a type groundkit does not read, a symlink out of the tree), never a failure.
    """

    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: tuple[Skipped, ...] = ()
    passed_over: tuple[Skipped, ...] = ()
    chunks_written: int = 0
    chunks_embedded: int = 0
    chunks_split: int = 0  # chunks whose quotable sentences this run stored (``ingest.sentences``)

    @property
    def partial(self) -> bool:
        return bool(self.skipped)

    @property
    def ignored(self) -> int:
        return len(self.passed_over)

    def to_dict(self) -> dict[str, Any]:
        return {
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "skipped": [{"source": s.source, "reason": s.reason} for s in self.skipped],
            "passed_over": [{"source": s.source, "reason": s.reason} for s in self.passed_over],
            "ignored": self.ignored,
            "chunks_written": self.chunks_written,
            "chunks_embedded": self.chunks_embedded,
            "chunks_split": self.chunks_split,
        }


# ok: the derived indexes match the store; catching_up: a write is finishing.
Health = Literal["ok", "catching_up"]


@dataclass(frozen=True, slots=True)
class CollectionStatus:
    """What a collection holds, and how its derived indexes stand against the store."""

    collection: str
    documents: int
    chunks: int
    lexical_chunks: int
    embedder: str | None  # the identity its vectors were made with
    vectors: int
    dense_index_vectors: int
    pending: int  # documents whose derived entries are not yet caught up
    formats: dict[str, int]
    schema_version: int
    analyzer: str | None
    size_bytes: int  # on disk here (0 for a collection on a cluster)
    backend: str = "embedded"  # where it lives: embedded | qdrant

    @property
    def missing_vectors(self) -> int:
        """Chunks without a vector, which dense ranking cannot find (0 without an embedder:
        such a collection is searched by bm25 alone)."""
        return max(0, self.chunks - self.vectors) if self.embedder else 0

    @property
    def health(self) -> Health:
        in_step = (
            self.pending == 0
            and self.lexical_chunks == self.chunks
            and self.dense_index_vectors == self.vectors
        )
        return "ok" if in_step else "catching_up"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "missing_vectors": self.missing_vectors, "health": self.health}
