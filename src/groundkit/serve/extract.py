"""The extracted answer over REST (``POST /v1/extract``) and MCP (the ``extract`` tool).

The evidence for a question and the sentences of it that best match, marked in the best
passage: what `grk answer` shows with AI off, made by ``groundkit.ops.answer.extract``, which
runs no model whatever the collection allows. REST and MCP stay evidence-only (an agent calling
groundkit has its own model): this is evidence, chosen and cut at offsets, each piece cited as
search cites a hit and re-read from the stored document as every quote is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from mcp.server.mcpserver import Context
from pydantic import Field

from groundkit.ops import answer as answer_ops
from groundkit.retrieve.search import MAX_QUERY_CHARS
from groundkit.serve.models import DefaultCollectionName, OptionalName, _Request, _Response
from groundkit.serve.rest import ERROR_RESPONSES, Served
from groundkit.types import SearchMode

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from groundkit.answer.report import AnswerReport
    from groundkit.serve.runtime import Runtime

__all__ = ["ExtractRequest", "ExtractResponse", "add_extract_tool", "router"]


class ExtractRequest(_Request):
    collection: OptionalName = DefaultCollectionName
    query: str = Field(
        min_length=1, max_length=MAX_QUERY_CHARS, description="The question, in plain words."
    )
    top_k: int | None = Field(None, ge=1, le=100, description="Passages searched [default: 10].")
    mode: SearchMode | None = Field(
        None, description="Default: hybrid when the collection has vectors, else bm25."
    )


class ExtractedPiece(_Response):
    """One piece of the evidence chosen as (part of) the answer, cited at its offsets."""

    marker: int = Field(description="Its number in the answer (the excerpt's marks name it).")
    passage: int = Field(description="The evidence passage it is cut from (1 = the best ranked).")
    chunk_id: str
    document_id: str
    source: str
    start: int = Field(description="Offset in the stored document text.")
    end: int
    line: int | None
    end_line: int | None
    text: str = Field(description="The stored text at [start, end): a sentence, maybe its code.")
    verification: str = Field(description="Whether the source file still holds it.")


class ExtractMark(_Response):
    marker: int
    start: int = Field(description="Offset within the excerpt's text.")
    end: int


class ExtractExcerpt(_Response):
    """The best passage around the answer's pieces, itself cited and checked."""

    chunk_id: str
    document_id: str
    source: str
    start: int
    end: int
    line: int | None
    end_line: int | None
    text: str
    verification: str
    marks: list[ExtractMark]


class ExtractResponse(_Response):
    collection: str | None
    query: str
    pieces: list[ExtractedPiece] = Field(
        description="The pieces of the evidence that best match the question, in reading order;"
        " chosen by no model."
    )
    excerpt: ExtractExcerpt | None
    evidence: list[dict[str, Any]] = Field(description="The passages searched, best first.")
    no_searchable_words: bool

    @classmethod
    def of(cls, report: AnswerReport) -> ExtractResponse:
        data = report.to_dict()
        answer = data["answer"] or data["extracted"] or {"citations": []}
        pieces = [
            ExtractedPiece(
                marker=c["marker"],
                passage=c["source"],
                chunk_id=c["chunk_id"],
                document_id=c["document_id"],
                source=c["source_name"],
                start=c["start"],
                end=c["end"],
                line=c["line"],
                end_line=c["end_line"],
                text=c["cited_text"],
                verification=c["verification"],
            )
            for c in answer["citations"]
            if c["kind"] == "passage"
        ]
        shown = data["excerpt"]
        excerpt = None
        if shown is not None:
            shown = {**shown, "source": shown["source_name"]}
            excerpt = ExtractExcerpt.model_validate(
                {k: v for k, v in shown.items() if k in ExtractExcerpt.model_fields}
            )
        return cls(
            collection=data["evidence"]["collection"],
            query=report.query,
            pieces=pieces,
            excerpt=excerpt,
            evidence=data["evidence"]["items"],
            no_searchable_words=report.no_searchable_words,
        )


def _extract(runtime: Runtime, body: ExtractRequest) -> ExtractResponse:
    question = answer_ops.Question(
        body.query, collection=body.collection, top_k=body.top_k, mode=body.mode
    )
    return ExtractResponse.of(answer_ops.extract(runtime, question))


router = APIRouter(responses=ERROR_RESPONSES)


@router.post("/v1/extract", response_model=ExtractResponse, tags=["read"])
def extract(request: Request, runtime: Served, body: ExtractRequest) -> ExtractResponse:
    """The evidence for a question, and the pieces of it that best match, marked in the best
    passage: chosen by no model. The question travels in the body, never in the URL."""
    response = _extract(runtime, body)
    request.state.results = len(response.evidence)
    return response


def add_extract_tool(server: MCPServer[Any], runtime: Runtime, wrap: Any, annotations: Any) -> None:
    """The ``extract`` tool: the same as ``POST /v1/extract``."""

    def extract(
        query: Annotated[str, Field(description="The question, in plain words.")],
        collection: Annotated[
            str | None, Field(description="A collection [default: the configured one].")
        ] = None,
        top_k: Annotated[int | None, Field(description="Passages searched [default: 10].")] = None,
        mode: SearchMode | None = None,
        ctx: Context | None = None,
    ) -> ExtractResponse:
        """The evidence for a question and the pieces of it that best match (each cited at its
        offsets, a sentence with the code it introduces), marked in the best passage. No model
        chooses them."""
        body = ExtractRequest(collection=collection, query=query, top_k=top_k, mode=mode)
        return _extract(runtime, body)

    server.add_tool(wrap("extract", extract), annotations=annotations)
