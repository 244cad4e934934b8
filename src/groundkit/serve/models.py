"""The request and response bodies shared by REST and MCP: one validation, two transports.

Requests are strict about their shape (unknown fields fail) and bounded in size, so that a
malformed call is a 422 with a code, never a crash deeper in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    FiniteFloat,
    StringConstraints,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from groundkit import types
from groundkit.ops import collections as ops
from groundkit.retrieve.quotes import MAX_QUOTE_CHARS, QuoteCheck
from groundkit.retrieve.search import MAX_QUERY_CHARS
from groundkit.types import Hit, IngestReport, ResolvedCitation, SearchMode

__all__ = [
    "ChunkResponse",
    "CollectionName",
    "CollectionStatus",
    "CollectionsResponse",
    "DeleteDocumentRequest",
    "DeletedResponse",
    "ErrorBody",
    "FoldedHit",
    "HealthResponse",
    "HitModel",
    "IngestRequest",
    "IngestResponse",
    "MovedTo",
    "SearchRequest",
    "SearchResponse",
    "VerifyRequest",
    "VerifyResponse",
]

# The library checks names fully; this bound only keeps absurd input out of the URL and logs.
CollectionName = Field(
    min_length=1,
    max_length=64,
    pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
    description="A collection in the server's index dir.",
)
# Search and verify may leave the collection out, as `grk search` does; changes must name it.
OptionalName = (
    Annotated[
        str,
        StringConstraints(
            min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        ),
    ]
    | SkipJsonSchema[None]
)
DefaultCollectionName = Field(
    None, description="A collection in the server's index dir [default: the `collection` setting]."
)
# Floats must be finite to be JSON at all (the store matches values as JSON).
ScalarValue = Annotated[str, StringConstraints(max_length=1000)] | int | FiniteFloat | bool


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Response(BaseModel):
    model_config = ConfigDict(frozen=True)


class ErrorBody(_Response):
    """Every error, on every route: a stable code, a message, and the request's id."""

    code: str = Field(description="A stable error code, e.g. collection.not_found.")
    message: str
    request_id: str
    hint: str | None = None


class SearchRequest(_Request):
    collection: OptionalName = DefaultCollectionName
    query: str = Field(
        min_length=1, max_length=MAX_QUERY_CHARS, description="Plain words, never query syntax."
    )
    top_k: int | None = Field(None, ge=1, le=100, description="How many hits [default: 10].")
    mode: SearchMode | None = Field(
        None, description="Default: hybrid when the collection has vectors, else bm25."
    )
    source: str | None = Field(
        None, max_length=1000, description="Only sources matching this glob."
    )
    where: dict[str, ScalarValue] | None = Field(
        None, max_length=32, description="Metadata equality filters."
    )
    collapse: bool | None = Field(
        None,
        description="Fold near-duplicate hits (the same passage stored twice) into the best one"
        " [default: the `search.collapse` setting, on].",
    )

    def as_search(self) -> ops.SearchQuery:
        """The search this body asks for, as every surface asks it (the same field names)."""
        return ops.SearchQuery(**dict(self))


class FoldedHit(_Response):
    """A near-duplicate folded into a hit: enough to cite it, or fetch it."""

    chunk_id: str
    document_id: str
    source: str
    line: int | None
    end_line: int | None


class HitModel(_Response):
    rank: int
    score: float
    collection: str
    document_id: str
    external_id: str | None
    chunk_id: str
    source: str = Field(
        description="The document as named, unique in its collection: relative to the folder"
        " ingested (or to the common parent of folders ingested together), or the URL."
    )
    location: str = Field(description="Where it was read from: an absolute path, or the URL.")
    start: int = Field(description="Offset of the chunk in the stored document text.")
    end: int
    line: int | None = Field(description="1-based line of the chunk's first character.")
    end_line: int | None = Field(description="1-based line of the chunk's last character.")
    snippet: str
    text: str
    metadata: dict[str, Any]
    ranks: dict[str, int] = Field(description="1-based rank in each stage that saw the chunk.")
    folded: int = Field(description="How many near-duplicates of this hit were folded into it.")
    folded_hits: list[FoldedHit] = Field(description="The near-duplicates folded into this hit.")

    @classmethod
    def of(cls, hit: Hit) -> HitModel:
        return cls.model_validate(hit.to_dict())


class SearchResponse(_Response):
    collection: str
    hits: list[HitModel]
    missing_vectors: int = Field(
        description="Chunks this search could not rank by meaning because they have no vector"
        " yet (an interrupted embedding); 0 for a bm25 search."
    )
    no_searchable_words: bool = Field(
        description="The query held no word a search looks for: only words as common as 'the',"
        " 'of' or 'is', or punctuation. It finds nothing in any mode; add a word that names"
        " what you are looking for."
    )
    pending: int = Field(
        default=0,
        description="Documents stored but not yet searchable: the search indexes are catching"
        " up after a run that stopped (a full disk, say), so this search may miss them.",
    )

    @classmethod
    def of(cls, found: ops.Found) -> SearchResponse:
        return cls(
            collection=found.collection,
            hits=[HitModel.of(hit) for hit in found.hits],
            missing_vectors=found.missing_vectors,
            no_searchable_words=found.no_searchable_words,
            pending=found.pending,
        )


class CollectionsResponse(_Response):
    collections: list[str]


class CollectionStatus(_Response):
    collection: str
    documents: int
    chunks: int
    lexical_chunks: int
    embedder: str | None = Field(description="The embedder identity the vectors were made with.")
    vectors: int
    dense_index_vectors: int
    pending: int
    formats: dict[str, int]
    schema_version: int
    analyzer: str | None
    size_bytes: int = Field(description="On disk here (0 for a collection on a cluster).")
    backend: Literal["embedded", "qdrant"] = Field(
        description="Where it lives: embedded (files under the index dir) or qdrant (a cluster)."
    )
    missing_vectors: int = Field(
        description="Chunks without a vector (0 when the collection has no embedder)."
    )
    health: types.Health = Field(
        description="ok: the derived indexes match the store; catching_up: a write is finishing."
    )

    @classmethod
    def of(cls, status: types.CollectionStatus) -> CollectionStatus:
        return cls.model_validate(status.to_dict())


if TYPE_CHECKING:
    Verdict = str
else:  # the one list of verdicts: types.Verification (a literal, for the schema's enum)
    Verdict = Literal[tuple(v.value for v in types.Verification)]


class MovedTo(_Response):
    """Where the source holds the cited text now, when it moved: offsets into the source's text
    as groundkit reads it (what a re-ingest would store), 1-based lines."""

    start: int
    end: int
    line: int
    end_line: int


class ChunkResponse(_Response):
    collection: str
    document_id: str
    external_id: str | None
    chunk_id: str
    source: str
    location: str
    start: int
    end: int
    line: int | None
    end_line: int | None
    text: str
    verification: Verdict = Field(
        description="Whether the source still holds the cited text: verified (perhaps moved),"
        " drifted (it changed), missing, unreadable, or not_checked (a URL)."
    )
    reason: str | None = Field(
        default=None,
        description="Why the source was not checked or could not be read (a path that is now"
        " a pipe or device, a file over ingest.max_file_bytes, a read that took too long).",
    )
    moved_to: MovedTo | None = Field(
        description="Set when the source still holds the cited text at other offsets or lines."
    )
    metadata: dict[str, Any]

    @classmethod
    def of(cls, resolved: ResolvedCitation) -> ChunkResponse:
        return cls.model_validate(resolved.to_dict())


Id = Annotated[str, Field(min_length=1, max_length=128)]


class VerifyRequest(_Request):
    """Exactly one of ``chunk_id`` (search inside that chunk) or ``document_id`` (the whole
    document)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={"oneOf": [{"required": ["chunk_id"]}, {"required": ["document_id"]}]},
    )

    collection: OptionalName = DefaultCollectionName
    quote: str = Field(min_length=1, max_length=MAX_QUOTE_CHARS)
    # Absent rather than null in the schema, so that "exactly one" is expressible there.
    chunk_id: Id | SkipJsonSchema[None] = None
    document_id: Id | SkipJsonSchema[None] = None

    @model_validator(mode="after")
    def _one_target(self) -> VerifyRequest:
        if (self.chunk_id is None) == (self.document_id is None):
            raise ValueError("give exactly one of chunk_id or document_id")
        return self

    def as_verify(self) -> ops.VerifyQuery:
        return ops.VerifyQuery(self.quote, self.collection, self.chunk_id, self.document_id)


class VerifyResponse(_Response):
    verbatim: bool = Field(description="The quote occurs, exactly, in the chunk or document.")
    document_id: str
    chunk_id: str | None
    start: int | None = Field(description="Offset of the first occurrence in the stored text.")
    end: int | None
    occurrences: int
    verification: Verdict | None = Field(
        description="For a verbatim quote: whether the source file still holds it, as for a"
        " chunk (verified, drifted, missing, unreadable, not_checked); null otherwise."
    )
    moved_to: MovedTo | None = Field(
        description="Set when the source still holds the quote at other offsets or lines."
    )

    @classmethod
    def of(cls, check: QuoteCheck) -> VerifyResponse:
        moved = check.moved_to
        return cls(
            verbatim=check.verbatim,
            document_id=check.document_id,
            chunk_id=check.chunk_id,
            start=check.start,
            end=check.end,
            occurrences=check.occurrences,
            verification=None if check.verification is None else check.verification.value,
            moved_to=None if moved is None else MovedTo.model_validate(moved.to_dict()),
        )


class HealthResponse(_Response):
    status: Literal["ok"]


class IngestRequest(_Request):
    collection: str = CollectionName
    inputs: list[str] = Field(
        min_length=1,
        max_length=100,
        description="Paths on the server's machine, or http(s) URLs.",
    )


class IngestResponse(_Response):
    collection: str
    new: int
    changed: int
    unchanged: int
    removed: int
    skipped: list[dict[str, str]]
    ignored: int
    chunks_written: int
    chunks_embedded: int
    chunks_split: int  # chunks whose quotable sentences were stored (ingest.sentences)

    @classmethod
    def of(cls, collection: str, report: IngestReport) -> IngestResponse:
        return cls.model_validate({"collection": collection, **report.to_dict()})


class DeleteDocumentRequest(_Request):
    collection: str = CollectionName
    document: str = Field(
        min_length=1, max_length=4096, description="A document id, source or external id."
    )


class DeletedResponse(_Response):
    collection: str
    document_id: str | None = None
